// Benchmark: zdr-embed's local mode against Chart.js, uPlot and ECharts, side by
// side in one headless Chromium page (bench/page.html, bench/page.js).
//
//   node scripts/bench-browser.mjs            # the full run (a few minutes)
//   node scripts/bench-browser.mjs --quick    # fewer repetitions, to try changes
//   node scripts/bench-browser.mjs --shots    # also a PNG of each chart in test-results/bench-shots/
//
// Needs pkg/ (bash scripts/build.sh) and the compared libraries in node_modules
// (devDependencies chart.js, uplot, echarts). Prints a markdown report and writes
// it to test-results/benchmarks.md. The method is in docs/benchmarks.md.
//
// Only 127.0.0.1 is ever contacted: the page and every library are served by
// scripts/dev-server.mjs on loopback, and the browser aborts any other request.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as Z, gzipSync } from 'node:zlib';


import { CHROMIUM, launch } from '../tests/e2e/browser.mjs';
import { startServer } from './dev-server.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const NM = join(ROOT, 'node_modules');
const QUICK = process.argv.includes('--quick');
const SHOTS = process.argv.includes('--shots');
const OUT = join(ROOT, 'test-results', 'benchmarks.md');

const LIBS = ['zdr', 'chartjs', 'uplot', 'echarts'];
const NAMES = { zdr: 'zdr-embed', chartjs: 'Chart.js', uplot: 'uPlot', echarts: 'ECharts' };
const OTHERS = LIBS.slice(1);
// [scenario, measured repetitions]; one more warm-up repetition runs first and is dropped.
const PLAN = [
  ['line-1k', 15],
  ['line-2x10k', 11],
  ['bar-2k', 11],
  ['scatter-10k', 11],
  ['line-100k', 9],
  ['line-1m', 7],
].map(([name, reps]) => [name, QUICK ? 2 : reps]);
const WARMUP = 1;
const MEMORY_CASES = ['line-100k', 'line-1m'];

// ------------------------------------------------------------------ files

const VENDOR = {
  chartjs: { pkg: 'chart.js', dir: 'chart.js/dist', files: ['chart.umd.min.js'] },
  uplot: { pkg: 'uplot', dir: 'uplot/dist', files: ['uPlot.iife.min.js', 'uPlot.min.css'] },
  echarts: { pkg: 'echarts', dir: 'echarts/dist', files: ['echarts.min.js'] },
};

function need() {
  const missing = [];
  for (const f of ['pkg/zdr_embed.js', 'pkg/zdr_embed_bg.wasm']) {
    if (!existsSync(join(ROOT, f))) missing.push(`${f} (run: bash scripts/build.sh)`);
  }
  for (const { pkg, dir, files } of Object.values(VENDOR)) {
    for (const f of files) if (!existsSync(join(NM, dir, f))) missing.push(`node_modules/${dir}/${f} (npm install ${pkg})`);
  }
  if (missing.length) {
    console.error(`bench-browser: missing\n  ${missing.join('\n  ')}`);
    process.exit(1);
  }
}

const version = (pkg) => JSON.parse(readFileSync(join(NM, pkg, 'package.json'), 'utf8')).version;

function sizes(path) {
  const raw = readFileSync(path);
  return {
    raw: raw.length,
    gzip: gzipSync(raw, { level: 9 }).length,
    brotli: brotliCompressSync(raw, {
      params: { [Z.BROTLI_PARAM_QUALITY]: 11, [Z.BROTLI_PARAM_SIZE_HINT]: raw.length },
    }).length,
  };
}

// ------------------------------------------------------------------ statistics

function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
const median = (v) => quantile(v, 0.5);
const p90 = (v) => quantile(v, 0.9);

const ms = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const cell = (v) => (v?.length ? `${ms(median(v))} / ${ms(p90(v))}` : 'n/a');
const ratio = (a, b) => (a?.length && b?.length ? `${(median(a) / median(b)).toFixed(2)}×` : 'n/a');
const int = (n) => n.toLocaleString('en-US');
const mib = (n) => `${(n / 1048576).toFixed(1)} MiB`;

/** Share of CPU time idle over `ms` (Linux /proc/stat), or null elsewhere. */
async function cpuIdle(ms = 3000) {
  const read = () => {
    try {
      const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
      return { idle: f[3] + (f[4] || 0), total: f.reduce((a, b) => a + b, 0) };
    } catch {
      return null;
    }
  };
  const a = read();
  await new Promise((ok) => setTimeout(ok, ms));
  const b = read();
  return a && b && b.total > a.total ? (b.idle - a.idle) / (b.total - a.total) : null;
}

/**
 * CPU ticks (Linux): busy ticks of the whole machine, and ticks of this script's own
 * process tree (itself, the browser, and their finished children). The difference
 * over the run is what other work on the machine took.
 */
function ticks() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    const busy = total - f[3] - (f[4] || 0);
    const procs = new Map(); // pid -> { ppid, ticks }
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // After "pid (comm) ": state, ppid, ..., utime stime cutime cstime at 12..15.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const t = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
        procs.set(Number(pid), { ppid: Number(fields[1]), ticks: t });
      } catch {
        // gone meanwhile
      }
    }
    const mine = (pid) => {
      for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
        if (p === process.pid) return true;
        p = procs.get(p)?.ppid ?? 0;
      }
      return false;
    };
    let own = 0;
    for (const [pid, { ticks: t }] of procs) if (mine(pid)) own += t;
    return { total, busy, own };
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------ run

async function main() {
  need();
  const started = Date.now();
  const loadBefore = loadavg();
  const idleBefore = await cpuIdle();
  const ticksBefore = ticks();

  // A snapshot of the package, so a rebuild during the run cannot mix two builds.
  const snap = mkdtempSync(join(tmpdir(), 'zdr-bench-'));
  for (const f of ['zdr_embed.js', 'zdr_embed_bg.wasm']) copyFileSync(join(ROOT, 'pkg', f), join(snap, f));
  const wasmHash = createHash('sha256').update(readFileSync(join(snap, 'zdr_embed_bg.wasm'))).digest('hex');

  const server = await startServer({
    extraMounts: {
      '/bench/': join(ROOT, 'bench'),
      '/zdr/': snap,
      '/vendor/chart.js/': join(NM, VENDOR.chartjs.dir),
      '/vendor/uplot/': join(NM, VENDOR.uplot.dir),
      '/vendor/echarts/': join(NM, VENDOR.echarts.dir),
    },
  });
  // The end-to-end tests' browser, plus what measuring needs: no throttling
  // of background timers, exact heap figures and a callable gc().
  const browser = await launch([
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--enable-precise-memory-info',
    '--js-flags=--expose-gc',
  ]);
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
  const blocked = [];
  await context.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => {
      blocked.push(route.request().url());
      return route.abort();
    },
  );
  const pageErrors = [];
  const open = async () => {
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
    await page.goto(`${server.origin}/bench/page.html`);
    await page.waitForFunction(() => window.benchReady === true, null, { timeout: 30_000 });
    return page;
  };

  const results = {}; // scenario -> lib -> { first: {busy:[], frame:[], sync:[]}, update, resize } ; zdr extras
  const convert = {};
  const labels = {};
  try {
    // ---- timings: one page, every case, libraries interleaved and rotated
    const page = await open();
    const frameMs = await page.evaluate(() => window.bench.frameInterval());
    Object.assign(labels, await page.evaluate(() => Object.fromEntries(
      Object.entries(window.bench.SCENARIOS).map(([k, v]) => [k, v.label]))));
    for (const [name, reps] of PLAN) {
      const t0 = Date.now();
      const prepared = await page.evaluate(([n, libs]) => window.bench.prepare(n, libs), [name, LIBS]);
      convert[name] = prepared.convert;
      const r = (results[name] = {});
      for (const l of LIBS) {
        r[l] = { first: series(), update: series(), resize: series(), stringify: [], encode: [], jsonBytes: 0 };
      }
      for (let rep = 0; rep < WARMUP + reps; rep++) {
        const order = LIBS.map((_, i) => LIBS[(i + rep) % LIBS.length]);
        for (const l of order) {
          const m = await page.evaluate((lib) => window.bench.measure(lib), l);
          if (pageErrors.length) throw new Error(`page error (${name}, ${l}): ${pageErrors.join('; ')}`);
          if (rep < WARMUP) continue;
          for (const op of ['first', 'update', 'resize']) {
            for (const k of Object.keys(r[l][op])) if (m[op][k] !== undefined) r[l][op][k].push(m[op][k]);
          }
          if (m.stringify !== undefined) {
            r[l].stringify.push(m.stringify);
            r[l].encode.push(m.encode);
            r[l].jsonBytes = m.jsonBytes;
          }
        }
      }
      if (SHOTS) await shots(page, name);
      process.stderr.write(`bench: ${name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    }
    const chromiumVersion = browser.version();
    await page.close();

    // ---- memory: a fresh page per library, the 1M-point line kept on screen
    const memory = {};
    for (const name of MEMORY_CASES) {
      memory[name] = {};
      for (const l of LIBS) {
        const p = await open();
        const cdp = await context.newCDPSession(p);
        const heap = async () => {
          await cdp.send('HeapProfiler.collectGarbage');
          await cdp.send('HeapProfiler.collectGarbage');
          return (await cdp.send('Runtime.getHeapUsage')).usedSize;
        };
        const wasmBytes = () => p.evaluate(() => window.bench.wasmMemoryBytes());
        const m = { base: await heap(), wasm0: await wasmBytes() };
        await p.evaluate(([n, lib]) => window.bench.prepare(n, [lib], 1), [name, l]);
        m.withData = await heap();
        await p.evaluate((lib) => window.bench.drawAndKeep(lib), l);
        m.withChart = await heap();
        m.wasm1 = await wasmBytes();
        memory[name][l] = m;
        await cdp.detach();
        await p.close();
        if (pageErrors.length) throw new Error(`page error (memory, ${name}, ${l}): ${pageErrors.join('; ')}`);
      }
    }
    process.stderr.write('bench: memory done\n');
    if (blocked.length) throw new Error(`requests other than 127.0.0.1 were blocked: ${blocked.join(', ')}`);

    const ticksAfter = ticks();
    const foreign =
      ticksBefore && ticksAfter && ticksAfter.total > ticksBefore.total
        ? Math.max(0, ticksAfter.busy - ticksBefore.busy - (ticksAfter.own - ticksBefore.own)) /
          (ticksAfter.total - ticksBefore.total)
        : null;
    const report = write({
      foreign,
      snap,
      results,
      convert,
      labels,
      memory,
      chromiumVersion,
      frameMs,
      wasmHash,
      loadBefore,
      loadAfter: loadavg(),
      idleBefore,
      seconds: (Date.now() - started) / 1000,
    });
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    writeFileSync(OUT, report);
    process.stdout.write(report);
    process.stderr.write(`bench: written to ${OUT}\n`);
  } finally {
    await browser.close();
    await server.close();
    rmSync(snap, { recursive: true, force: true });
  }
}

const series = () => ({ busy: [], frame: [], sync: [], raster: [] });

async function shots(page, name) {
  const dir = join(ROOT, 'test-results', 'bench-shots');
  mkdirSync(dir, { recursive: true });
  for (const l of LIBS) {
    const id = await page.evaluate((lib) => window.bench.screenshotBox(lib), l);
    await page.locator(`#${id}`).screenshot({ path: join(dir, `${name}-${l}.png`) });
    await page.evaluate(() => window.bench.dropShot());
  }
}

// ------------------------------------------------------------------ report

function write({ foreign, snap, results, convert, labels, memory, chromiumVersion, frameMs, wasmHash, loadBefore, loadAfter, idleBefore, seconds }) {
  const cpu = cpus();
  const lines = [];
  const out = (s = '') => lines.push(s);
  out('# zdr-embed local mode vs Chart.js, uPlot and ECharts');
  out();
  out(`- Run: ${new Date().toISOString()}, ${seconds.toFixed(0)} s; \`node scripts/bench-browser.mjs${QUICK ? ' --quick' : ''}\``);
  out(`- Machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores; load average ${loadBefore.map((v) => v.toFixed(2)).join(' ')} before, ${loadAfter.map((v) => v.toFixed(2)).join(' ')} after; CPU idle over 3 s before the run: ${idleBefore === null ? 'unknown' : `${(idleBefore * 100).toFixed(0)} %`}; other processes on the machine during the run: ${foreign === null ? 'unknown' : `${(foreign * 100).toFixed(0)} % of all cores`}`);
  out(`- Browser: headless Chromium ${chromiumVersion} (${CHROMIUM}), software rendering (--disable-gpu), devicePixelRatio 1, animation frames every ${frameMs.toFixed(1)} ms (median); Node ${process.version}`);
  out(`- Libraries: zdr-embed ${version('..')} (pkg/zdr_embed_bg.wasm: ${int(readFileSync(join(snap, 'zdr_embed_bg.wasm')).length)} B, sha256 ${wasmHash.slice(0, 12)}…), Chart.js ${version('chart.js')}, uPlot ${version('uplot')}, ECharts ${version('echarts')}`);
  out(`- Chart: a 640 × 400 CSS px container; resize: to 520 px wide. Repetitions per case: ${PLAN.map(([n, r]) => `${n} ${r}`).join(', ')} (after ${WARMUP} warm-up, libraries interleaved, order rotated)`);
  out();
  out('Times in milliseconds, **median / p90**. Ratios: zdr-embed median ÷ the other library\'s median (below 1: zdr-embed is faster).');
  out();
  const OPS = [
    ['first', 'First draw', 'from the call (render / new Chart / new uPlot / echarts.init + setOption) to the end of the draw'],
    ['update', 'Redraw on update', 'new data of the same size (handle.update / chart.update("none") / setData / setOption)'],
    ['resize', 'Redraw on resize', 'container width 640 → 520 px, set at the start of a frame (in a requestAnimationFrame callback, where a window resize is handled), redrawn from a ResizeObserver (zdr-embed and Chart.js: their own; uPlot: setSize, ECharts: resize(), called from one); measured from the width change'],
  ];
  const METRICS = [
    ['busy', 'main-thread work, without the idle wait for the next frame'],
    ['frame', 'until the pixels are ready for the frame that shows them'],
  ];
  for (const [op, title, what] of OPS) {
    out(`## ${title}`);
    out();
    out(`${what}.`);
    out();
    for (const [metric, meaning] of METRICS) {
      out(`**${metric}**: ${meaning}.`);
      out();
      out(`| case | ${LIBS.map((l) => NAMES[l]).join(' | ')} | ${OTHERS.map((l) => `zdr ÷ ${NAMES[l]}`).join(' | ')} |`);
      out(`|---|${LIBS.map(() => '---:').join('|')}|${OTHERS.map(() => '---:').join('|')}|`);
      for (const [name] of PLAN) {
        const r = results[name];
        const v = (l) => r[l][op][metric];
        out(`| ${labels[name]} | ${LIBS.map((l) => cell(v(l))).join(' | ')} | ${OTHERS.map((l) => ratio(v('zdr'), v(l))).join(' | ')} |`);
      }
      out();
    }
  }

  out('## zdr-embed: where the first draw goes');
  out();
  out('`render()` runs synchronously: `JSON.stringify` of the data (in JavaScript), the copy of the text into');
  out('WebAssembly memory, the parse and check of the JSON by zdr-chart (Rust), and the DOM (wrapper, canvas, the');
  out('hidden data table). The draw itself (reduction of long series, layout, plotters on the canvas) runs in the');
  out('next animation frame. `JSON.stringify` is timed on its own, on the same object, right after each cycle.');
  out();
  out('The UTF-8 copy is estimated by `TextEncoder.encode` of the same text (wasm-bindgen copies with the same encoder).');
  out();
  out('| case | JSON text | JSON.stringify | UTF-8 copy (est.) | render() call | render() − stringify − copy: Rust parse, check, DOM | draw in the frame | busy total |');
  out('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const [name] of PLAN) {
    const z = results[name].zdr;
    const draw = z.first.busy.map((b, i) => b - z.first.sync[i]);
    const rest = z.first.sync.map((s, i) => s - z.stringify[i] - z.encode[i]);
    out(`| ${labels[name]} | ${int(z.jsonBytes)} chars | ${cell(z.stringify)} | ${cell(z.encode)} | ${cell(z.first.sync)} | ${cell(rest)} | ${cell(draw)} | ${cell(z.first.busy)} |`);
  }
  out();

  out('## Rasterization alone (included in busy)');
  out();
  out('The getImageData read-back right after the draw: what Chromium would otherwise do when it paints the frame.');
  out();
  out(`| case | ${LIBS.map((l) => `${NAMES[l]}: first / update / resize`).join(' | ')} |`);
  out(`|---|${LIBS.map(() => '---:').join('|')}|`);
  for (const [name] of PLAN) {
    const r = results[name];
    out(`| ${labels[name]} | ${LIBS.map((l) => ['first', 'update', 'resize'].map((op) => ms(median(r[l][op].raster))).join(' / ')).join(' | ')} |`);
  }
  out();

  out('## Preparing each library\'s input (not included in the times above)');
  out();
  out('Every library is timed from its own natural input, built before the timing from the same numbers: zdr-embed');
  out('the `visualization_data` object (dates as `"2024-01-01T00:00"` strings, `{x, y}` points), Chart.js `{x, y}`');
  out('objects with epoch milliseconds (`parsing: false`) or labels + values for bars, uPlot columns (plain arrays of');
  out('numbers, x in epoch seconds), ECharts `[x, y]` arrays or labels + values. Building one data set from');
  out('`Float64Array` columns costs, in ms (one run):');
  out();
  out(`| case | ${LIBS.map((l) => NAMES[l]).join(' | ')} |`);
  out(`|---|${LIBS.map(() => '---:').join('|')}|`);
  for (const [name] of PLAN) out(`| ${labels[name]} | ${LIBS.map((l) => ms(convert[name][l])).join(' | ')} |`);
  out();

  out('## Size: what a page downloads');
  out();
  out('gzip at level 9, brotli at quality 11 (Node zlib). Minified builds as shipped in each npm package.');
  out();
  const groups = [
    // The files the page loaded (the snapshot of pkg/ taken at the start).
    ['zdr-embed', 'ES module + wasm', [[snap, 'zdr_embed.js'], [snap, 'zdr_embed_bg.wasm']]],
    ['zdr-embed', 'drop-in script (wasm inside, base64)', [['pkg', 'zdr_embed_widget.js']]],
    ['Chart.js', 'UMD build, everything registered', [['node_modules/chart.js/dist', 'chart.umd.min.js']]],
    ['uPlot', 'IIFE build + CSS', [['node_modules/uplot/dist', 'uPlot.iife.min.js'], ['node_modules/uplot/dist', 'uPlot.min.css']]],
    ['ECharts', 'full build', [['node_modules/echarts/dist', 'echarts.min.js']]],
    ['ECharts', '"common" build (line, bar, pie, scatter, …)', [['node_modules/echarts/dist', 'echarts.common.min.js']]],
  ];
  const totals = groups.map(([lib, what, files]) => {
    const s = files.map(([d, f]) => sizes(resolve(ROOT, d, f)));
    const sum = (k) => s.reduce((a, b) => a + b[k], 0);
    return { lib, what, files: files.map(([, f]) => f).join(' + '), raw: sum('raw'), gzip: sum('gzip'), brotli: sum('brotli') };
  });
  const zdrTotal = totals[0];
  out('| library | files | raw | gzip -9 | brotli | zdr-embed (module + wasm) ÷ this, gzip |');
  out('|---|---|---:|---:|---:|---:|');
  for (const t of totals) {
    out(`| ${t.lib} (${t.what}) | ${t.files} | ${int(t.raw)} B | ${int(t.gzip)} B | ${int(t.brotli)} B | ${(zdrTotal.gzip / t.gzip).toFixed(2)}× |`);
  }
  out();

  out('## Memory with the chart on screen');
  out();
  out('A fresh page per library and case (all four libraries loaded in each). JS heap: CDP `Runtime.getHeapUsage`');
  out('after two forced garbage collections. wasm: the byte length of zdr-embed\'s exported `WebAssembly.Memory`');
  out('(`init()` returns the module\'s exports); it grows and never shrinks, so it is the peak of the draw. "+ data"');
  out('is the input in the library\'s own format; "+ chart" is what the chart keeps on top of it (the page keeps');
  out('its data referenced). Canvas backing stores are outside both.');
  out();
  out('| case | library | JS heap: page | + data | + chart | wasm memory: after init → after draw | JS heap + wasm growth |');
  out('|---|---|---:|---:|---:|---:|---:|');
  for (const name of MEMORY_CASES) {
    for (const l of LIBS) {
      const m = memory[name][l];
      const wasmCell = l === 'zdr' ? `${mib(m.wasm0)} → ${mib(m.wasm1)}` : '—';
      const total = m.withChart + (l === 'zdr' ? m.wasm1 - m.wasm0 : 0);
      out(`| ${labels[name]} | ${NAMES[l]} | ${mib(m.base)} | ${mib(m.withData - m.base)} | ${mib(m.withChart - m.withData)} | ${wasmCell} | ${mib(total)} |`);
    }
  }
  out();
  return lines.join('\n') + '\n';
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
