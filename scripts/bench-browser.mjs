// Benchmark: zdr-embed's local mode against Chart.js, uPlot and ECharts in one
// headless Chromium run, measured the way a page load sees it (issue 15): a FRESH
// browser context and page for every measurement (cold code, no warm JIT, wasm
// memory not grown), one library per page (bench/page.html?lib=…, bench/page.js),
// the libraries interleaved, and the timed region from the user's call, with the
// conversion of the user's data into the library's input, to pixels.
//
//   node scripts/bench-browser.mjs            # the full run (10–13 minutes)
//   node scripts/bench-browser.mjs --quick    # 2 repetitions, 5 updates: to try changes
//   node scripts/bench-browser.mjs --shots    # also PNGs of each chart in test-results/bench-shots/
//   node scripts/bench-browser.mjs --only line-1m,update-1m   # some scenarios only (no memory)
//
// Needs pkg/ (bash scripts/build.sh); the compared libraries come from node_modules
// (devDependencies chart.js, uplot, echarts): a missing one is left out with a note.
// Prints a markdown report and writes it to test-results/benchmarks.md (the raw figures
// to benchmarks.json). The method is in docs/benchmarks.md.
//
// Only 127.0.0.1 is ever contacted: the page and every library are served by
// scripts/dev-server.mjs on loopback, and the browser aborts any other request.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as Z, gzipSync } from 'node:zlib';

import { CHROMIUM, launch } from '../tests/e2e/browser.mjs';
import { startServer } from './dev-server.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const NM = join(ROOT, 'node_modules');
// Anything else (--help, a typo) prints the usage above: a full run takes minutes.
{
  const args = process.argv.slice(2);
  const unknown = args.filter((a, i) => !['--quick', '--shots', '--only'].includes(a) && args[i - 1] !== '--only');
  if (unknown.length || (args.includes('--only') && !args[args.indexOf('--only') + 1])) {
    const usage = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//   node ')).map((l) => l.slice(3));
    const help = unknown.length === 1 && ['--help', '-h'].includes(unknown[0]);
    const why = help ? '' : unknown.length ? `unknown argument: ${unknown.join(' ')}\n` : '--only needs a list of scenarios\n';
    process.stderr.write(`${why}usage:\n${usage.join('\n')}\n`);
    process.exit(help ? 0 : 2);
  }
}
const QUICK = process.argv.includes('--quick');
const SHOTS = process.argv.includes('--shots');
const ONLY = (() => {
  const i = process.argv.indexOf('--only');
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1].split(',') : null;
})();
const OUT = join(ROOT, 'test-results', 'benchmarks.md');

// zdrcol: zdr-embed given the columnar shape (run only when the built engine reads it).
const ALL_LIBS = ['zdr', 'zdrcol', 'chartjs', 'uplot', 'echarts'];
const NAMES = { zdr: 'zdr-embed', zdrcol: 'zdr-embed columnar', chartjs: 'Chart.js', uplot: 'uPlot', echarts: 'ECharts' };
// [scenario, measured repetitions]: each repetition is a fresh page per library.
const PLAN = [
  ['line-1k', 9],
  ['line-100k', 7],
  ['line-1m', 5],
  ['line-100k-pts', 7],
  ['line-1m-pts', 5],
  ['scatter-100k', 7],
  ['bar-50', 9],
  ['bar-1k', 9],
  ['update-1m', 5],
  // The small-card cases of issue 37 get more pages: a cold page moves by a
  // quarter from one page to the next on a 2-core machine, and a dashboard's
  // p90 sits a third above its median; seven pages' median moved with the hour.
  ['dashboard', 11],
  ['first-card', 15],
  ['first-card-preload', 15],
]
  .filter(([name]) => !ONLY || ONLY.includes(name))
  .map(([name, reps]) => [name, QUICK ? 2 : reps]);
const MEMORY_CASE = 'line-1m';
const UPDATES = QUICK ? 5 : 20;
const SHOT_CASES = ['line-100k', 'scatter-100k', 'bar-1k'];
const ZOOM_STEPS = QUICK ? 10 : 40;

// ------------------------------------------------------------------ files

const VENDOR = {
  chartjs: { pkg: 'chart.js', dir: 'chart.js/dist', files: ['chart.umd.min.js'] },
  uplot: { pkg: 'uplot', dir: 'uplot/dist', files: ['uPlot.iife.min.js', 'uPlot.min.css'] },
  echarts: { pkg: 'echarts', dir: 'echarts/dist', files: ['echarts.min.js'] },
};
const ZDR_FILES = ['zdr_embed.js', 'service/zdr_embed_service.js', 'service/zdr_embed_service_bg.wasm', 'engine/zdr_engine.js', 'engine/zdr_engine_bg.wasm'];

/** The libraries present; zdr-embed itself must be built. */
function available() {
  const missing = ZDR_FILES.filter((f) => !existsSync(join(ROOT, 'pkg', f)));
  if (missing.length) {
    console.error(`bench-browser: missing ${missing.map((f) => `pkg/${f}`).join(', ')} (run: bash scripts/build.sh)`);
    process.exit(1);
  }
  const libs = ['zdr', 'zdrcol'];
  const notes = [];
  for (const [lib, { pkg, dir, files }] of Object.entries(VENDOR)) {
    const gone = files.filter((f) => !existsSync(join(NM, dir, f)));
    if (gone.length) {
      const note = `${NAMES[lib]} left out: node_modules/${dir}/${gone.join(', ')} not found (npm install ${pkg})`;
      console.error(`bench-browser: ${note}`);
      notes.push(note);
    } else libs.push(lib);
  }
  return { libs, notes };
}

const version = (pkg) => {
  try {
    return JSON.parse(readFileSync(join(NM, pkg, 'package.json'), 'utf8')).version;
  } catch {
    return 'missing';
  }
};

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
  const { libs: present, notes } = available();
  const started = Date.now();
  const loadBefore = loadavg();
  const idleBefore = await cpuIdle();
  const ticksBefore = ticks();

  // A snapshot of the package, so a rebuild during the run cannot mix two builds.
  const snap = mkdtempSync(join(tmpdir(), 'zdr-bench-'));
  for (const f of ZDR_FILES) cpSync(join(ROOT, 'pkg', f), join(snap, f));
  const engineHash = createHash('sha256').update(readFileSync(join(snap, 'engine/zdr_engine_bg.wasm'))).digest('hex');

  const mounts = { '/bench/': join(ROOT, 'bench'), '/zdr/': snap };
  for (const [lib, { dir }] of Object.entries(VENDOR)) if (present.includes(lib)) mounts[`/vendor/${dir.split('/')[0]}/`] = join(NM, dir);
  const server = await startServer({ extraMounts: mounts });
  // The end-to-end tests' browser, plus what measuring needs: no throttling
  // of background timers, exact heap figures and a callable gc().
  const browser = await launch([
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--enable-precise-memory-info',
    '--js-flags=--expose-gc',
  ]);
  const blocked = [];
  const pageErrors = [];
  /**
   * A new context and page, only 127.0.0.1 reachable and the page's errors
   * recorded; `use(page, context)`, then closed.
   */
  const isolated = async (use) => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
    try {
      await context.route(
        (url) => url.hostname !== '127.0.0.1',
        (route) => {
          blocked.push(route.request().url());
          return route.abort();
        },
      );
      const page = await context.newPage();
      page.on('pageerror', (e) => pageErrors.push(e.message));
      return await use(page, context);
    } finally {
      await context.close();
    }
  };
  const noPageErrors = (lib) => {
    if (pageErrors.length) throw new Error(`page error (${NAMES[lib]}): ${pageErrors.join('; ')}`);
  };

  /** A fresh page with one library loaded; `use(page, context)`. */
  const fresh = (lib, use) =>
    isolated(async (page, context) => {
      page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
      await page.goto(`${server.origin}/bench/page.html?lib=${lib}`);
      await page.waitForFunction(() => window.benchReady === true || window.benchError, null, { timeout: 60_000 });
      const error = await page.evaluate(() => window.benchError);
      if (error) throw new Error(`${NAMES[lib]}: the page did not load: ${error}`);
      const out = await use(page, context);
      noPageErrors(lib);
      return out;
    });

  /** A cold page: navigation start to the first card's pixels, nothing loaded before. */
  const cold = (lib, preload) =>
    isolated(async (page) => {
      // Told by a console line, not by polling the page mid-load (page.js).
      const done = page.waitForEvent('console', { predicate: (m) => m.text() === 'zdr-bench-cold-done', timeout: 60_000 });
      await page.goto(`${server.origin}/bench/page.html?lib=${lib}&cold=1&preload=${preload ? 1 : 0}`, { waitUntil: 'commit' });
      await done;
      const { result, error } = await page.evaluate(() => ({ result: window.coldResult, error: window.benchError }));
      if (error || !result) throw new Error(`${NAMES[lib]}: the cold page failed: ${error}`);
      noPageErrors(lib);
      return { first: { pixels: result.pixels, loaded: result.loaded } };
    });

  const results = {}; // scenario -> lib -> { first: {metric: []}, update: {metric: []} }
  let labels = {};
  let columnar;
  let frameMs;
  try {
    ({ labels, columnar, frameMs } = await fresh('zdr', async (page) => ({
      labels: await page.evaluate(() => Object.fromEntries(Object.entries(window.bench.SCENARIOS).map(([k, v]) => [k, v.label]))),
      columnar: await page.evaluate(() => window.bench.columnar()),
      frameMs: await page.evaluate(() => window.bench.frameInterval()),
    })));
    process.stderr.write(`bench: columnar shape ${columnar.supported ? 'read' : 'not read'} by this build (${columnar.note})\n`);
    // The small-card cases of issue 37 are run against uPlot and Chart.js; only
    // zdr-embed has a preload().
    const SMALL = { dashboard: ['zdr', 'uplot', 'chartjs'], 'first-card': ['zdr', 'uplot', 'chartjs'], 'first-card-preload': ['zdr'] };
    const libsFor = (name) =>
      SMALL[name]
        ? SMALL[name].filter((l) => present.includes(l))
        : present.filter((l) => l !== 'zdrcol' || (columnar.supported && !name.endsWith('-pts') && !name.startsWith('scatter')));
    Object.assign(labels, COLD_LABELS);

    // ---- memory (first: it fails early if it fails): a fresh page per library,
    // the 1M-point line drawn, then updated
    const memory = {};
    if (!ONLY) {
      for (const l of libsFor(MEMORY_CASE)) {
        memory[l] = await fresh(l, async (page, context) => {
          const cdp = await context.newCDPSession(page);
          const heap = async () => {
            await cdp.send('HeapProfiler.collectGarbage');
            await cdp.send('HeapProfiler.collectGarbage');
            return (await cdp.send('Runtime.getHeapUsage')).usedSize;
          };
          const m = { heap0: await heap(), wasm0: await page.evaluate(() => window.bench.wasmBytes()) };
          m.wasm1 = await page.evaluate(([n, lib]) => window.bench.drawKeep(n, lib), [MEMORY_CASE, l]);
          m.heap1 = await heap();
          m.wasm2 = await page.evaluate((count) => window.bench.updateKept(count), UPDATES);
          m.heap2 = await heap();
          await cdp.detach();
          return m;
        });
      }
      process.stderr.write('bench: memory done\n');
    }

    // ---- timings: a fresh page per run, libraries interleaved, order rotated
    // The two cold cases run in one rotation: a cold page is the noisiest
    // measurement here, and what the machine does meanwhile hits both alike.
    const runs = PLAN.filter(([name]) => name !== 'first-card-preload' || !PLAN.some(([n]) => n === 'first-card'));
    for (const [name, reps] of runs) {
      const t0 = Date.now();
      const r = (results[name] = {});
      const jobs = libsFor(name).map((l) => [name, l]);
      if (name === 'first-card' && PLAN.some(([n]) => n === 'first-card-preload')) {
        results['first-card-preload'] = {};
        for (const l of libsFor('first-card-preload')) jobs.push(['first-card-preload', l]);
      }
      for (const [n, l] of jobs) results[n][l] = { first: series(), update: series() };
      for (let rep = 0; rep < reps; rep++) {
        for (const [n, l] of jobs.map((_, i) => jobs[(i + rep) % jobs.length])) {
          const m = COLD_LABELS[n]
            ? await cold(l, n.endsWith('-preload'))
            : await fresh(l, (page) => page.evaluate(([sc, lib]) => window.bench.run(sc, lib), [n, l]));
          for (const op of ['first', 'update']) {
            // A cold page has only `pixels` and `loaded`.
            if (m[op]) for (const k of Object.keys(results[n][l][op])) if (m[op][k] !== undefined) results[n][l][op][k].push(m[op][k]);
          }
        }
      }
      process.stderr.write(`bench: ${name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    }

    // ---- zoom frames on the 1M-point line: the libraries with a built-in zoom
    const zoom = {};
    if (!ONLY || ONLY.includes('zoom-1m')) {
      for (const l of ['zdr', 'uplot'].filter((l) => present.includes(l))) {
        zoom[l] = [];
        for (let rep = 0; rep < (QUICK ? 1 : 3); rep++) {
          zoom[l].push(...(await fresh(l, (page) => page.evaluate(([lib, steps]) => window.bench.zoomFrames(lib, steps), [l, ZOOM_STEPS]))));
        }
      }
      process.stderr.write('bench: zoom frames done\n');
    }

    if (SHOTS) {
      const dir = join(ROOT, 'test-results', 'bench-shots');
      mkdirSync(dir, { recursive: true });
      for (const name of SHOT_CASES) {
        for (const l of libsFor(name)) {
          await fresh(l, async (page) => {
            const id = await page.evaluate(([n, lib]) => window.bench.show(n, lib), [name, l]);
            await page.locator(`#${id}`).screenshot({ path: join(dir, `${name}-${l}.png`) });
          });
        }
      }
      process.stderr.write(`bench: screenshots in ${dir}\n`);
    }
    if (blocked.length) throw new Error(`requests other than 127.0.0.1 were blocked: ${blocked.join(', ')}`);

    const ticksAfter = ticks();
    const foreign =
      ticksBefore && ticksAfter && ticksAfter.total > ticksBefore.total
        ? Math.max(0, ticksAfter.busy - ticksBefore.busy - (ticksAfter.own - ticksBefore.own)) /
          (ticksAfter.total - ticksBefore.total)
        : null;
    const report = write({
      present,
      notes,
      columnar,
      foreign,
      snap,
      results,
      labels,
      memory,
      zoom,
      chromiumVersion: browser.version(),
      frameMs,
      engineHash,
      loadBefore,
      loadAfter: loadavg(),
      idleBefore,
      seconds: (Date.now() - started) / 1000,
    });
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    writeFileSync(OUT, report);
    // The raw figures, for a later look at what a median hides.
    writeFileSync(OUT.replace(/\.md$/, '.json'), JSON.stringify({ columnar, results, memory, zoom }, null, 1));
    process.stdout.write(report);
    process.stderr.write(`bench: written to ${OUT}\n`);
  } finally {
    await browser.close();
    await server.close();
    rmSync(snap, { recursive: true, force: true });
  }
}

const series = () => ({ pixels: [], busy: [], convert: [], call: [], raster: [], loaded: [] });
const COLD_LABELS = {
  'first-card': 'First card, cold page (line 1k): navigation start to pixels',
  'first-card-preload': 'First card, cold page, `preload()` called before `init()`',
};

// ------------------------------------------------------------------ report

function write({ present, notes, columnar, foreign, snap, results, labels, memory, zoom, chromiumVersion, frameMs, engineHash, loadBefore, loadAfter, idleBefore, seconds }) {
  const cpu = cpus();
  const lines = [];
  const out = (s = '') => lines.push(s);
  const libs = present.filter((l) => l !== 'zdrcol' || columnar.supported);
  const others = libs.filter((l) => !l.startsWith('zdr'));
  // One row per first draw, plus one for the update of an update scenario.
  const rows = [];
  for (const [name] of PLAN) {
    rows.push({ name, label: labels[name], op: 'first' });
    if (name.startsWith('update')) rows.push({ name, label: 'Line 1M, typed arrays: update() with new data of the same size', op: 'update' });
  }
  const get = (row, l, metric) => results[row.name]?.[l]?.[row.op]?.[metric];

  out('# zdr-embed local mode vs Chart.js, uPlot and ECharts, from the user\'s call to pixels');
  out();
  out(`- Run: ${new Date().toISOString()}, ${seconds.toFixed(0)} s; \`node scripts/bench-browser.mjs${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}\``);
  out(`- Machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores; load average ${loadBefore.map((v) => v.toFixed(2)).join(' ')} before, ${loadAfter.map((v) => v.toFixed(2)).join(' ')} after; CPU idle over 3 s before the run: ${idleBefore === null ? 'unknown' : `${(idleBefore * 100).toFixed(0)} %`}; other processes on the machine during the run: ${foreign === null ? 'unknown' : `${(foreign * 100).toFixed(0)} % of all cores`}`);
  out(`- Browser: headless Chromium ${chromiumVersion} (${CHROMIUM}), software rendering (--disable-gpu), devicePixelRatio 1, animation frames every ${frameMs.toFixed(1)} ms (median); Node ${process.version}`);
  out(`- Libraries: zdr-embed ${version('..')} (engine ${int(readFileSync(join(snap, 'engine/zdr_engine_bg.wasm')).length)} B, sha256 ${engineHash.slice(0, 12)}…), Chart.js ${version('chart.js')}, uPlot ${version('uplot')}, ECharts ${version('echarts')}`);
  for (const note of notes) out(`- ${note}`);
  out(`- Columnar shape (\`data: {x: Float64Array, y: Float64Array}\`, \`viz_config.x_time: "epoch_ms"\`): ${columnar.supported ? `read by this build (${columnar.note}); the row "zdr-embed columnar" uses it` : `not read by this build, so "n/a" (the probe said: ${columnar.note})`}`);
  out(`- Every measurement: a new browser context and page with one library loaded (zdr-embed: \`await init(); await preload()\`), the user's data built, then one timed call. Repetitions (fresh pages per library, libraries interleaved, order rotated): ${PLAN.map(([n, r]) => `${n} ${r}`).join(', ')}. Chart: 640 × 400 CSS px.`);
  out();
  out('Times in milliseconds, **median / p90**; ratios of medians (below 1: zdr-embed is faster).');
  out();

  const ratioCols = [];
  for (const l of others) ratioCols.push([`zdr ÷ ${NAMES[l]}`, 'zdr', l]);
  if (libs.includes('zdrcol') && libs.includes('uplot')) ratioCols.push(['columnar ÷ uPlot', 'zdrcol', 'uplot']);
  if (libs.includes('zdrcol') && libs.includes('chartjs')) ratioCols.push(['columnar ÷ Chart.js', 'zdrcol', 'chartjs']);
  const table = (metric) => {
    out(`| case | ${libs.map((l) => NAMES[l]).join(' | ')} | ${ratioCols.map(([h]) => h).join(' | ')} |`);
    out(`|---|${libs.map(() => '---:').join('|')}|${ratioCols.map(() => '---:').join('|')}|`);
    for (const row of rows) {
      out(`| ${row.label} | ${libs.map((l) => cell(get(row, l, metric))).join(' | ')} | ${ratioCols.map(([, a, b]) => ratio(get(row, a, metric), get(row, b, metric))).join(' | ')} |`);
    }
    out();
  };
  out('## To pixels');
  out();
  out('From the user\'s call (the conversion of the data into the library\'s input included) until the pixels exist for the frame that shows them.');
  out();
  table('pixels');
  out('## Main-thread work');
  out();
  out('The same region without the idle wait for the next animation frame.');
  out();
  table('busy');

  out('## Targets of issue 15');
  out();
  const med = (row, l) => median(get(row, l, 'pixels') ?? []);
  const zdrBest = (row) => (libs.includes('zdrcol') && get(row, 'zdrcol', 'pixels')?.length ? 'zdrcol' : 'zdr');
  const rowOf = (name, op = 'first') => rows.find((r) => r.name === name && r.op === op);
  const target = [];
  const vs = (name, other, limit) => {
    const row = rowOf(name);
    if (!row || !libs.includes(other)) return;
    const z = zdrBest(row);
    const v = med(row, z) / med(row, other);
    target.push([`${row.label}: ${NAMES[z]} ÷ ${NAMES[other]}`, `≤ ${limit.toFixed(1)}×`, Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a', v <= limit]);
  };
  vs('line-100k', 'uplot', 1.0);
  vs('line-1m', 'uplot', 1.0);
  vs('line-100k-pts', 'chartjs', 1.5);
  vs('line-1m-pts', 'chartjs', 1.5);
  vs('scatter-100k', 'chartjs', 1.0);
  const bar = rowOf('bar-1k');
  if (bar && others.length) {
    const best = Math.min(...others.map((l) => med(bar, l)));
    const v = med(bar, zdrBest(bar)) / best;
    target.push([`${bar.label}: ${NAMES[zdrBest(bar)]} ÷ the fastest other`, '≤ 1.0× (fastest)', `${v.toFixed(2)}×`, v <= 1]);
  }
  const up = rowOf('update-1m', 'update');
  if (up) {
    for (const z of libs.filter((l) => l.startsWith('zdr'))) {
      const v = med(up, z) / med(rowOf('update-1m'), z);
      target.push([`Line 1M: ${NAMES[z]} update() ÷ its first draw`, '≤ 0.5×', Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a', v <= 0.5]);
    }
  }
  for (const z of libs.filter((l) => l.startsWith('zdr'))) {
    const m = memory[z];
    if (!m || m.wasm1 == null) continue;
    target.push([`${NAMES[z]}: engine wasm memory after drawing the 1M line`, '< 64 MB', mib(m.wasm1), m.wasm1 < 64e6]);
    target.push([`${NAMES[z]}: growth over ${UPDATES} updates of the same size`, '0', mib(m.wasm2 - m.wasm1), m.wasm2 === m.wasm1]);
  }
  out('| target | limit | measured | met |');
  out('|---|---:|---:|:---:|');
  for (const [what, limit, v, ok] of target) out(`| ${what} | ${limit} | ${v} | ${ok ? 'yes' : 'no'} |`);
  out();
  out('For the other libraries, for comparison: update ÷ first draw (1M line) ' +
    others.map((l) => `${NAMES[l]} ${ratio(get(up ?? {}, l, 'pixels'), get(rowOf('update-1m') ?? {}, l, 'pixels'))}`).join(', ') + '.');
  out();

  out('## Targets of issue 37');
  out();
  const small = [];
  const vs37 = (name, other, limit, against = name) => {
    const row = rowOf(name);
    const base = rowOf(against);
    if (!row || !base || !libs.includes(other)) return;
    const v = med(row, 'zdr') / med(base, other);
    small.push([`${row.label}: zdr-embed ÷ ${NAMES[other]}`, `≤ ${limit.toFixed(1)}×`, Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a', v <= limit]);
  };
  vs37('dashboard', 'uplot', 1.0);
  vs37('line-1k', 'uplot', 1.0);
  vs37('bar-50', 'uplot', 1.0);
  vs37('first-card', 'uplot', 1.2);
  vs37('first-card-preload', 'uplot', 1.2, 'first-card');
  vs37('line-100k-pts', 'chartjs', 1.5);
  vs37('line-1m-pts', 'chartjs', 1.0);
  out('| target | limit | measured | met |');
  out('|---|---:|---:|:---:|');
  for (const [what, limit, v, ok] of small) out(`| ${what} | ${limit} | ${v} | ${ok ? 'yes' : 'no'} |`);
  out();
  const coldRow = rowOf('first-card');
  if (coldRow) {
    out('First card, cold page: navigation start to the library loaded and started (zdr-embed: `init()` resolved), medians: ' +
      libs.filter((l) => get(coldRow, l, 'loaded')?.length).map((l) => `${NAMES[l]} ${ms(median(get(coldRow, l, 'loaded')))} ms`).join(', ') + '.');
    out();
  }

  out('## Where the time goes (medians)');
  out();
  out('convert: the user\'s conversion into the library\'s input (0 when it takes the data as it is); call: the library\'s synchronous call (zdr-embed: `render`/`update`, which stringifies the data, copies the text into wasm and reads it there); rest: what follows the call, per run (its draw in a frame or a hook, and the rasterization).');
  out();
  out(`| case | ${libs.map((l) => `${NAMES[l]}: convert / call / rest`).join(' | ')} |`);
  out(`|---|${libs.map(() => '---:').join('|')}|`);
  for (const row of rows) {
    out(`| ${row.label} | ${libs.map((l) => {
      const c = get(row, l, 'convert');
      if (!c?.length) return 'n/a';
      const k = get(row, l, 'call');
      // Per run, then the median: a difference of medians can come out negative.
      const rest = get(row, l, 'busy').map((b, i) => b - c[i] - k[i]);
      return `${ms(median(c))} / ${ms(median(k))} / ${ms(median(rest))}`;
    }).join(' | ')} |`);
  }
  out();

  if (Object.keys(zoom).length) {
    out('## Zoom frames, 1M-point line');
    out();
    out(`A fresh page per run: the line drawn, then ${ZOOM_STEPS} zooms around its middle, each narrower (from the whole two years to 0.2% of them, about 1,400 minutes), one per animation frame as a drag or a pinch asks for them. A frame's work: zdr-embed, from the start of the frame its draw runs in to the drawn view (it re-reads the kept columns of the range and reduces them per pixel again); uPlot, from \`setScale\` to its draw hook. Both rasterized. Chart.js and ECharts have no zoom without a plugin or a component, and are not run. At 60 frames per second a frame has ${ms(frameMs ?? 16.7)} ms.`);
    out();
    out('| library | frames | median | p90 | max | within one frame |');
    out('|---|---:|---:|---:|---:|---:|');
    for (const [l, frames] of Object.entries(zoom)) {
      const within = frames.filter((f) => f <= (frameMs ?? 16.7)).length;
      out(`| ${NAMES[l]} | ${frames.length} | ${ms(median(frames))} ms | ${ms(p90(frames))} ms | ${ms(Math.max(...frames))} ms | ${Math.round((100 * within) / frames.length)}% |`);
    }
    out();
  }

  if (Object.keys(memory).length) {
    out('## Memory, 1M-point line');
    out();
    out(`A fresh page per library: the 1M-point line drawn from the typed arrays (converted as above), then ${UPDATES} updates with new data of the same size (two data sets alternating, each converted anew). wasm: the byte length of the engine module\'s \`WebAssembly.Memory\` (its glue\'s \`init()\`, called again by the page, returns the exports the package instantiated); it never shrinks, so it is the peak. JS heap: CDP \`Runtime.getHeapUsage\` after two forced garbage collections, the page keeping its data and the chart; typed-array backing stores are outside it.`);
    out();
    out('| library | wasm: ready → after the draw → after the updates | JS heap: ready → after the draw → after the updates |');
    out('|---|---:|---:|');
    for (const [l, m] of Object.entries(memory)) {
      const wasm = m.wasm1 == null ? '—' : `${mib(m.wasm0)} → ${mib(m.wasm1)} → ${mib(m.wasm2)}`;
      out(`| ${NAMES[l]} | ${wasm} | ${mib(m.heap0)} → ${mib(m.heap1)} → ${mib(m.heap2)} |`);
    }
    out();
  }

  out('## Size: what a page downloads');
  out();
  out('gzip at level 9, brotli at quality 11 (Node zlib). Minified builds as shipped in each npm package.');
  out();
  const groups = [
    ['zdr-embed', 'entry with the service glue + service module (what init() loads)', [[snap, 'zdr_embed.js'], [snap, 'service/zdr_embed_service_bg.wasm']]],
    ['zdr-embed', 'engine module (what preload() or the first local card loads)', [[snap, 'engine/zdr_engine.js'], [snap, 'engine/zdr_engine_bg.wasm']]],
    ['Chart.js', 'UMD build, everything registered', [['node_modules/chart.js/dist', 'chart.umd.min.js']], 'chartjs'],
    ['uPlot', 'IIFE build + CSS', [['node_modules/uplot/dist', 'uPlot.iife.min.js'], ['node_modules/uplot/dist', 'uPlot.min.css']], 'uplot'],
    ['ECharts', 'full build', [['node_modules/echarts/dist', 'echarts.min.js']], 'echarts'],
  ].filter(([, , , lib]) => !lib || present.includes(lib));
  out('| library | files | raw | gzip -9 | brotli |');
  out('|---|---|---:|---:|---:|');
  for (const [lib, what, files] of groups) {
    const s = files.map(([d, f]) => sizes(resolve(ROOT, d, f)));
    const sum = (k) => s.reduce((a, b) => a + b[k], 0);
    out(`| ${lib} (${what}) | ${files.map(([, f]) => f).join(' + ')} | ${int(sum('raw'))} B | ${int(sum('gzip'))} B | ${int(sum('brotli'))} B |`);
  }
  out();
  return lines.join('\n') + '\n';
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
