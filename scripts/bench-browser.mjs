// Benchmark: zdr-embed's local mode against Chart.js, uPlot and ECharts in one
// headless Chromium run, measured as a user meets a chart (issues 15, 37, 53): a
// FRESH browser context and page for every measurement, one library per page
// (bench/page.html?lib=…, bench/page.js), the timed card the first card its page
// draws (cold code: a probe runs in a page of its own), the libraries interleaved,
// and the timed region from the user's call, with the conversion of the user's
// data into the library's input, to the frame that shows the pixels.
// zdr-embed runs twice where a first card is the point: without preload() (the
// card fetches and compiles the engine in the clock) and with it awaited before.
//
//   node scripts/bench-browser.mjs            # the full run (about 7 minutes)
//   node scripts/bench-browser.mjs --quick    # 2 repetitions, 5 updates: to try changes
//   node scripts/bench-browser.mjs --shots    # also PNGs of each chart in test-results/bench-shots/
//   node scripts/bench-browser.mjs --only line-1k,bar-50,dashboard   # some scenarios only (no memory)
//
// Needs pkg/ (bash scripts/build.sh); the compared libraries come from node_modules
// (devDependencies chart.js, uplot, echarts): a missing one is left out with a note.
// Prints a markdown report (scripts/bench-report.mjs) and writes it to
// test-results/benchmarks.md (the raw figures to benchmarks.json). The method is in
// docs/benchmarks.md.
//
// zdr-embed is loaded as a user loads it: its entry from a copy of the built pkg/
// served as static files. Nothing here names its other files, so the engine may
// come as one module or as chunks. Only 127.0.0.1 is ever contacted: the page and
// every library are served by scripts/dev-server.mjs on loopback, and the browser
// aborts any other request.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launch } from '../tests/e2e/browser.mjs';
import { cpuIdle, ticks, write } from './bench-report.mjs';
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

// A variant is a library and how its page loads it before the clock.
const VARIANTS = {
  zdr: { lib: 'zdr', query: '&preload=0', name: 'zdr-embed' },
  zdrpre: { lib: 'zdr', query: '&preload=1', name: 'zdr-embed, preload()' },
  chartjs: { lib: 'chartjs', query: '', name: 'Chart.js' },
  uplot: { lib: 'uplot', query: '', name: 'uPlot' },
  echarts: { lib: 'echarts', query: '', name: 'ECharts' },
};
// A first card as a user meets it: zdr-embed both ways, beside the others.
const FIRST = ['zdr', 'zdrpre', 'uplot', 'chartjs', 'echarts'];
// The large-data workloads of issue 15, with preload() as they were measured.
const LOADED = ['zdrpre', 'uplot', 'chartjs', 'echarts'];
// [scenario, measured repetitions, variants]: each repetition is a fresh page per variant.
// The small-card cases get more pages: a cold page moves by a quarter from one
// page to the next on a 2-core machine.
const PLAN = [
  ['line-1k', 9, FIRST],
  ['bar-50', 9, FIRST],
  ['line-1m', 5, FIRST],
  ['dashboard', 9, ['zdr', 'zdrpre', 'uplot', 'chartjs']],
  // uPlot, Chart.js and ECharts draw no map without a plugin or outlines of the page's own.
  ['map', 9, ['zdr', 'zdrpre']],
  ['line-100k', 5, LOADED],
  ['line-100k-pts', 5, LOADED],
  ['line-1m-pts', 5, LOADED],
  ['scatter-100k', 5, LOADED],
  ['bar-1k', 7, LOADED],
  ['update-1m', 5, LOADED],
  // Navigation start to pixels, the library's loading in the clock (issue 37).
  ['first-card', 11, ['zdr', 'zdrpre', 'uplot', 'chartjs']],
]
  .filter(([name]) => !ONLY || ONLY.includes(name))
  .map(([name, reps, variants]) => [name, QUICK ? 2 : reps, variants]);
const MEMORY_CASE = 'line-1m';
const UPDATES = QUICK ? 5 : 20;
const SHOT_CASES = ['line-100k', 'scatter-100k', 'bar-1k', 'map'];
const ZOOM_STEPS = QUICK ? 10 : 40;

// ------------------------------------------------------------------ files

const VENDOR = {
  chartjs: { pkg: 'chart.js', dir: 'chart.js/dist', files: ['chart.umd.min.js'] },
  uplot: { pkg: 'uplot', dir: 'uplot/dist', files: ['uPlot.iife.min.js', 'uPlot.min.css'] },
  echarts: { pkg: 'echarts', dir: 'echarts/dist', files: ['echarts.min.js'] },
};

/** The variants whose library is present; zdr-embed itself must be built. */
function available() {
  if (!existsSync(join(ROOT, 'pkg', 'zdr_embed.js'))) {
    console.error('bench-browser: pkg/zdr_embed.js is missing (run: bash scripts/build.sh)');
    process.exit(1);
  }
  const present = ['zdr', 'zdrpre'];
  const notes = [];
  for (const [lib, { pkg, dir, files }] of Object.entries(VENDOR)) {
    const gone = files.filter((f) => !existsSync(join(NM, dir, f)));
    if (gone.length) {
      const note = `${VARIANTS[lib].name} left out: node_modules/${dir}/${gone.join(', ')} not found (npm install ${pkg})`;
      console.error(`bench-browser: ${note}`);
      notes.push(note);
    } else present.push(lib);
  }
  return { present, notes };
}

/** A copy of the whole package, so a rebuild during the run cannot mix two builds; and its hash. */
function snapshot() {
  const snap = mkdtempSync(join(tmpdir(), 'zdr-bench-'));
  cpSync(join(ROOT, 'pkg'), snap, { recursive: true });
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else hash.update(e.name).update(readFileSync(join(dir, e.name)));
    }
  };
  walk(snap);
  return { snap, hash: hash.digest('hex') };
}

// ------------------------------------------------------------------ pages

/**
 * Opens pages on `origin`: each in a new browser context (its own in-memory
 * profile: no HTTP or code cache from the page before), only 127.0.0.1
 * reachable, the page's errors recorded. `fetched` lists what each page's own
 * frame requested (not the bench page itself), for the report's sizes.
 */
function pager(browser, origin, shape) {
  const blocked = [];
  const pageErrors = [];
  const isolated = async (use) => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
    try {
      await context.route(
        (url) => url.hostname !== '127.0.0.1',
        (route) => blocked.push(route.request().url()) && route.abort(),
      );
      const page = await context.newPage();
      page.on('pageerror', (e) => pageErrors.push(e.message));
      const fetched = [];
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname;
        if (ownFrame(page, r) && !path.startsWith('/bench/')) fetched.push(path);
      });
      return await use(page, context, fetched);
    } finally {
      await context.close();
    }
  };
  const check = (variant) => {
    if (pageErrors.length) throw new Error(`page error (${VARIANTS[variant].name}): ${pageErrors.join('; ')}`);
  };
  const url = (variant, extra = '') => `${origin}/bench/page.html?lib=${VARIANTS[variant].lib}${VARIANTS[variant].query}&shape=${shape.value}${extra}`;
  return { isolated, check, url, blocked, pageErrors };
}

/** Whether a request is the page's own (a worker's has no frame: its own too), not an iframe's. */
function ownFrame(page, request) {
  try {
    return request.frame() === page.mainFrame();
  } catch {
    return true;
  }
}

/** A fresh page with one variant loaded; `use(page, context, fetched)`. */
function fresh(pages, variant, use, extra = '') {
  return pages.isolated(async (page, context, fetched) => {
    page.on('console', (m) => m.type() === 'error' && pages.pageErrors.push(m.text()));
    await page.goto(pages.url(variant, extra));
    await page.waitForFunction(() => window.benchReady === true || window.benchError, null, { timeout: 60_000 });
    const error = await page.evaluate(() => window.benchError);
    if (error) throw new Error(`${VARIANTS[variant].name}: the page did not load: ${error}`);
    const out = await use(page, context, fetched);
    pages.check(variant);
    return out;
  });
}

/** A cold page: navigation start to the first card's pixels, nothing loaded before. */
function cold(pages, variant) {
  return pages.isolated(async (page) => {
    // Told by a console line, not by polling the page mid-load (page.js).
    const done = page.waitForEvent('console', { predicate: (m) => m.text() === 'zdr-bench-cold-done', timeout: 60_000 });
    await page.goto(pages.url(variant, '&cold=1'), { waitUntil: 'commit' });
    await done;
    const { result, error } = await page.evaluate(() => ({ result: window.coldResult, error: window.benchError }));
    if (error || !result) throw new Error(`${VARIANTS[variant].name}: the cold page failed: ${error}`);
    pages.check(variant);
    return { first: { pixels: result.pixels, loaded: result.loaded } };
  });
}

/** The probe page (drawing cards, so never a timed page): the columnar shape, the labels, the frame rate. */
async function probe(pages) {
  return fresh(pages, 'zdrpre', (page) =>
    page.evaluate(async () => ({
      columnar: window.probeResult,
      labels: Object.fromEntries(Object.entries(window.bench.SCENARIOS).map(([k, v]) => [k, v.label])),
      frameMs: await window.bench.frameInterval(),
    })),
  '&probe=1');
}

// ------------------------------------------------------------------ measurements

/** The 1M-point line drawn, then updated, in a fresh page per variant: wasm memory and JS heap. */
async function memoryOf(pages, variants) {
  const memory = {};
  for (const v of variants) {
    memory[v] = await fresh(pages, v, async (page, context) => {
      const cdp = await context.newCDPSession(page);
      const heap = async () => {
        await cdp.send('HeapProfiler.collectGarbage');
        await cdp.send('HeapProfiler.collectGarbage');
        return (await cdp.send('Runtime.getHeapUsage')).usedSize;
      };
      const lib = VARIANTS[v].lib;
      const m = { heap0: await heap(), wasm0: await page.evaluate(() => window.bench.wasmBytes()) };
      m.wasm1 = await page.evaluate(([n, l]) => window.bench.drawKeep(n, l), [MEMORY_CASE, lib]);
      m.heap1 = await heap();
      m.wasm2 = await page.evaluate((count) => window.bench.updateKept(count), UPDATES);
      m.heap2 = await heap();
      await cdp.detach();
      return m;
    }, '&memory=1');
  }
  process.stderr.write('bench: memory done\n');
  return memory;
}

const series = () => ({ pixels: [], busy: [], convert: [], call: [], raster: [], loaded: [] });

/**
 * Every case of the plan: a fresh page per run, the variants interleaved, the
 * order rotated. `downloads` keeps what one line-1k page of each variant fetched.
 */
async function timings(pages, present, downloads) {
  const results = {}; // scenario -> variant -> { first: {metric: []}, update: {metric: []} }
  for (const [name, reps, variants] of PLAN) {
    const t0 = Date.now();
    const jobs = variants.filter((v) => present.includes(v));
    results[name] = Object.fromEntries(jobs.map((v) => [v, { first: series(), update: series() }]));
    for (let rep = 0; rep < reps; rep++) {
      for (const v of jobs.map((_, i) => jobs[(i + rep) % jobs.length])) {
        const m = name === 'first-card' ? await cold(pages, v) : await fresh(pages, v, async (page, context, fetched) => {
          const out = await page.evaluate(([sc, lib]) => window.bench.run(sc, lib), [name, VARIANTS[v].lib]);
          if (name === 'line-1k' && !downloads[v]) downloads[v] = [...new Set(fetched)];
          return out;
        });
        for (const op of ['first', 'update']) {
          // A cold page has only `pixels` and `loaded`.
          if (m[op]) for (const k of Object.keys(results[name][v][op])) if (m[op][k] !== undefined) results[name][v][op][k].push(m[op][k]);
        }
      }
    }
    process.stderr.write(`bench: ${name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  return results;
}

/** Zoom frames on the 1M-point line: the libraries with a built-in zoom. */
async function zoomOf(pages, present) {
  const zoom = {};
  for (const v of ['zdrpre', 'uplot'].filter((l) => present.includes(l))) {
    zoom[v] = [];
    for (let rep = 0; rep < (QUICK ? 1 : 3); rep++) {
      zoom[v].push(...(await fresh(pages, v, (page) => page.evaluate(([lib, steps]) => window.bench.zoomFrames(lib, steps), [VARIANTS[v].lib, ZOOM_STEPS]))));
    }
  }
  process.stderr.write('bench: zoom frames done\n');
  return zoom;
}

async function screenshots(pages, present) {
  const dir = join(ROOT, 'test-results', 'bench-shots');
  mkdirSync(dir, { recursive: true });
  for (const name of SHOT_CASES) {
    const variants = PLAN.find(([n]) => n === name)?.[2] ?? LOADED;
    for (const v of variants.filter((x) => present.includes(x) && x !== 'zdr')) {
      await fresh(pages, v, async (page) => {
        const id = await page.evaluate(([n, lib]) => window.bench.show(n, lib), [name, VARIANTS[v].lib]);
        await page.locator(`#${id}`).screenshot({ path: join(dir, `${name}-${v}.png`) });
      });
    }
  }
  process.stderr.write(`bench: screenshots in ${dir}\n`);
}

// ------------------------------------------------------------------ run

async function main() {
  const { present, notes } = available();
  const started = Date.now();
  const before = { load: loadavg(), idle: await cpuIdle(), ticks: ticks() };
  const { snap, hash } = snapshot();
  const mounts = { '/bench/': join(ROOT, 'bench'), '/zdr/': snap, '/examples/': join(ROOT, 'docs', 'examples') };
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
  const shape = { value: 'columns' };
  const pages = pager(browser, server.origin, shape);
  try {
    const { columnar, labels, frameMs } = await probe(pages);
    if (!columnar.supported) shape.value = 'points';
    process.stderr.write(`bench: columnar shape ${columnar.supported ? 'read' : 'not read'} by this build (${columnar.note})\n`);
    const memory = ONLY ? {} : await memoryOf(pages, LOADED.filter((v) => present.includes(v)));
    const downloads = {};
    const results = await timings(pages, present, downloads);
    const zoom = !ONLY || ONLY.includes('zoom-1m') ? await zoomOf(pages, present) : {};
    if (SHOTS) await screenshots(pages, present);
    if (pages.blocked.length) throw new Error(`requests other than 127.0.0.1 were blocked: ${pages.blocked.join(', ')}`);
    const report = write({
      present, notes, columnar, hash, results, labels, memory, zoom, downloads, mounts, frameMs, before,
      chromiumVersion: browser.version(), seconds: (Date.now() - started) / 1000, ticksAfter: ticks(), loadAfter: loadavg(),
      plan: PLAN, variants: VARIANTS, vendor: VENDOR, updates: UPDATES, zoomSteps: ZOOM_STEPS,
    });
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    writeFileSync(OUT, report);
    // The raw figures, for a later look at what a median hides.
    writeFileSync(OUT.replace(/\.md$/, '.json'), JSON.stringify({ columnar, results, memory, zoom, downloads }, null, 1));
    process.stdout.write(report);
    process.stderr.write(`bench: written to ${OUT}\n`);
  } finally {
    await browser.close();
    await server.close();
    rmSync(snap, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
