// The report of scripts/bench-browser.mjs: the markdown it prints and writes
// to test-results/benchmarks.md, from the figures of one run; and the
// machine's load, read before and after the run. No browser here.
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as Z, gzipSync } from 'node:zlib';

import { CHROMIUM } from '../tests/e2e/browser.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

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

// ------------------------------------------------------------------ the machine

/** Share of CPU time idle over `ms` (Linux /proc/stat), or null elsewhere. */
export async function cpuIdle(ms = 3000) {
  const a = cpuLine();
  await new Promise((ok) => setTimeout(ok, ms));
  const b = cpuLine();
  return a && b && b.total > a.total ? (b.idle - a.idle) / (b.total - a.total) : null;
}

function cpuLine() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = f.reduce((a, b) => a + b, 0);
    return { idle: f[3] + (f[4] || 0), total };
  } catch {
    return null;
  }
}

/**
 * CPU ticks (Linux): busy ticks of the whole machine, and ticks of this script's own
 * process tree (itself, the browser, and their finished children). The difference
 * over the run is what other work on the machine took.
 */
export function ticks() {
  const cpu = cpuLine();
  if (!cpu) return null;
  const procs = new Map(); // pid -> { ppid, ticks }
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
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
  return { total: cpu.total, busy: cpu.total - cpu.idle, own };
}

const version = (pkg) => {
  try {
    return JSON.parse(readFileSync(join(ROOT, pkg === '..' ? '' : `node_modules/${pkg}`, 'package.json'), 'utf8')).version;
  } catch {
    return 'missing';
  }
};

function sizes(path) {
  const raw = readFileSync(path);
  return {
    raw: raw.length,
    gzip: gzipSync(raw, { level: 9 }).length,
    brotli: brotliCompressSync(raw, { params: { [Z.BROTLI_PARAM_QUALITY]: 11, [Z.BROTLI_PARAM_SIZE_HINT]: raw.length } }).length,
  };
}

// ------------------------------------------------------------------ the report

const ZDR = ['zdr', 'zdrpre'];
const OTHERS = ['uplot', 'chartjs', 'echarts'];
const SHORT = { zdr: 'zdr', zdrpre: 'zdr+preload' };

/** The markdown report of one run (`r`: everything bench-browser.mjs measured). */
export function write(r) {
  const lines = [];
  const out = (s = '') => lines.push(s);
  // The variants that ran, in VARIANTS' order; the rows: one per case, plus an update's.
  r.shown = Object.keys(r.variants).filter((v) => r.plan.some(([, , vs]) => vs.includes(v)) && r.present.includes(v));
  r.rows = r.plan.flatMap(([name]) => [
    { name, label: r.labels[name] ?? COLD_LABEL, op: 'first' },
    ...(name.startsWith('update') ? [{ name, label: 'Line 1M, typed arrays: update() with new data of the same size', op: 'update' }] : []),
  ]);
  r.get = (row, v, metric) => r.results[row.name]?.[v]?.[row.op]?.[metric];
  r.med = (name, v, op = 'first') => median(r.results[name]?.[v]?.[op]?.pixels ?? []);
  header(r, out);
  timesTables(r, out);
  targets(r, out);
  whereTime(r, out);
  zoomSection(r, out);
  memorySection(r, out);
  sizeSection(r, out);
  return lines.join('\n') + '\n';
}
const COLD_LABEL = 'Cold page (line 1k): navigation start to pixels, the library\'s loading in the clock';

function header(r, out) {
  const cpu = cpus();
  const { before, ticksAfter } = r;
  const foreign = before.ticks && ticksAfter && ticksAfter.total > before.ticks.total
    ? Math.max(0, ticksAfter.busy - before.ticks.busy - (ticksAfter.own - before.ticks.own)) / (ticksAfter.total - before.ticks.total)
    : null;
  const pct = (v) => (v === null ? 'unknown' : `${(v * 100).toFixed(0)} %`);
  out('# zdr-embed local mode vs Chart.js, uPlot and ECharts: the first card of a page, from the user\'s call to pixels');
  out();
  out(`- Run: ${new Date().toISOString()}, ${r.seconds.toFixed(0)} s; \`node scripts/bench-browser.mjs${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}\``);
  out(`- Machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores; load average ${before.load.map((v) => v.toFixed(2)).join(' ')} before, ${r.loadAfter.map((v) => v.toFixed(2)).join(' ')} after; CPU idle over 3 s before the run: ${pct(before.idle)}; other processes on the machine during the run: ${foreign === null ? 'unknown' : `${pct(foreign)} of all cores`}`);
  out(`- Browser: headless Chromium ${r.chromiumVersion} (${CHROMIUM}), software rendering (--disable-gpu), devicePixelRatio 1, animation frames every ${r.frameMs.toFixed(1)} ms (median); Node ${process.version}`);
  out(`- Libraries: zdr-embed ${version('..')} (pkg/ sha256 ${r.hash.slice(0, 12)}…), Chart.js ${version('chart.js')}, uPlot ${version('uplot')}, ECharts ${version('echarts')}`);
  for (const note of r.notes) out(`- ${note}`);
  out(`- Typed arrays reach zdr-embed as ${r.columnar.supported ? `the columnar shape (\`data: {x, y}\` of the arrays; a timeseries with \`viz_config.x_time: "epoch_ms"\`): the probe page found ${r.columnar.note}` : `the spec's point objects (dates as ISO text): the probe page found the columnar shape not read (${r.columnar.note})`}`);
  out(`- Every measurement: a new browser context and page, one library loaded (zdr-embed: \`await init()\`; "zdr-embed, preload()": also \`await preload()\`), the user's data built, then one timed call: the page's first card. The probe runs in a page of its own. Repetitions (a fresh page per variant, variants interleaved, order rotated): ${r.plan.map(([n, k]) => `${n} ${k}`).join(', ')}. Chart: 800 × 400 CSS px.`);
  out();
  out('Times in milliseconds, **median / p90**; ratios of medians (below 1: zdr-embed is faster).');
  out();
}

function timesTables(r, out) {
  const cols = [];
  for (const z of ZDR) for (const o of OTHERS) if (r.rows.some((row) => r.get(row, z, 'pixels')?.length && r.get(row, o, 'pixels')?.length)) cols.push([z, o]);
  const table = (metric) => {
    out(`| case | ${r.shown.map((v) => r.variants[v].name).join(' | ')} | ${cols.map(([z, o]) => `${SHORT[z]} ÷ ${r.variants[o].name}`).join(' | ')} |`);
    out(`|---|${r.shown.map(() => '---:').join('|')}|${cols.map(() => '---:').join('|')}|`);
    for (const row of r.rows) {
      if (metric === 'busy' && row.name === 'first-card') continue; // a cold page has no split
      out(`| ${row.label} | ${r.shown.map((v) => cell(r.get(row, v, metric))).join(' | ')} | ${cols.map(([z, o]) => ratio(r.get(row, z, metric), r.get(row, o, metric))).join(' | ')} |`);
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
}

/** [issue, what, limit, measured, met] for every target a case of this run has. */
function targetRows(r) {
  const rows = [];
  const label = (name) => r.labels[name] ?? COLD_LABEL;
  const vs = (issue, name, z, other, limit) => {
    const v = r.med(name, z) / r.med(name, other);
    if (Number.isFinite(v)) rows.push([issue, `${label(name)}: ${r.variants[z].name} ÷ ${r.variants[other].name}`, `≤ ${limit.toFixed(1)}×`, `${v.toFixed(2)}×`, v <= limit]);
  };
  // Issue 53's reading: the cold page without preload(), its loading in the
  // clock as every library's is; the first cards with init() and preload()
  // before the clock, as the issue's outside measurement loads them (the
  // tables above give both variants).
  vs(53, 'first-card', 'zdr', 'uplot', 1.0);
  for (const name of ['line-1k', 'bar-50', 'dashboard']) vs(53, name, 'zdrpre', 'uplot', 1.0);
  vs(37, 'first-card', 'zdrpre', 'uplot', 1.2);
  vs(15, 'line-100k', 'zdrpre', 'uplot', 1.0);
  for (const z of ZDR) vs(15, 'line-1m', z, 'uplot', 1.0);
  vs(37, 'line-100k-pts', 'zdrpre', 'chartjs', 1.5);
  vs(37, 'line-1m-pts', 'zdrpre', 'chartjs', 1.0);
  vs(15, 'scatter-100k', 'zdrpre', 'chartjs', 1.0);
  const best = Math.min(...OTHERS.map((o) => r.med('bar-1k', o)).filter(Number.isFinite));
  const bar = r.med('bar-1k', 'zdrpre') / best;
  if (Number.isFinite(bar)) rows.push([15, `${label('bar-1k')}: zdr-embed, preload() ÷ the fastest other`, '≤ 1.0×', `${bar.toFixed(2)}×`, bar <= 1]);
  const up = r.med('update-1m', 'zdrpre', 'update') / r.med('update-1m', 'zdrpre');
  if (Number.isFinite(up)) rows.push([15, 'Line 1M: zdr-embed update() ÷ its first draw', '≤ 0.5×', `${up.toFixed(2)}×`, up <= 0.5]);
  const m = r.memory.zdrpre;
  if (m?.wasm1 != null) {
    rows.push([15, 'zdr-embed: the page\'s wasm memory after drawing the 1M line', '< 64 MB', mib(m.wasm1), m.wasm1 < 64e6]);
    rows.push([15, `zdr-embed: its growth over ${r.updates} updates of the same size`, '0', mib(m.wasm2 - m.wasm1), m.wasm2 === m.wasm1]);
  }
  return rows;
}

function targets(r, out) {
  out('## Targets');
  out();
  out('Issue 53: a first card as a user meets it; issue 37: small cards; issue 15: large data.');
  out();
  out('| issue | target | limit | measured | met |');
  out('|---:|---|---:|---:|:---:|');
  for (const [issue, what, limit, v, ok] of targetRows(r)) out(`| ${issue} | ${what} | ${limit} | ${v} | ${ok ? 'yes' : 'no'} |`);
  out();
  const up = r.rows.find((row) => row.op === 'update');
  const first = r.rows.find((row) => row.name === 'update-1m' && row.op === 'first');
  if (up) out(`For comparison, update ÷ first draw (1M line): ${OTHERS.filter((o) => r.shown.includes(o)).map((o) => `${r.variants[o].name} ${ratio(r.get(up, o, 'pixels'), r.get(first, o, 'pixels'))}`).join(', ')}.`);
  const coldRow = r.rows.find((row) => row.name === 'first-card');
  if (coldRow) {
    out();
    out('Cold page: navigation start to the library loaded and started (zdr-embed: `init()` resolved), medians: ' +
      r.shown.filter((v) => r.get(coldRow, v, 'loaded')?.length).map((v) => `${r.variants[v].name} ${ms(median(r.get(coldRow, v, 'loaded')))} ms`).join(', ') + '.');
  }
  out();
}

function whereTime(r, out) {
  out('## Where the time goes (medians)');
  out();
  out('convert: the user\'s conversion into the library\'s input (0 when it takes the data as it is); call: the library\'s synchronous call (zdr-embed: `render`/`update`, which reads the data into wasm); rest: what follows the call, per run (its draw, without `preload()` the engine\'s fetch and compile, and the rasterization).');
  out();
  out(`| case | ${r.shown.map((v) => `${r.variants[v].name}: convert / call / rest`).join(' | ')} |`);
  out(`|---|${r.shown.map(() => '---:').join('|')}|`);
  for (const row of r.rows.filter((x) => x.name !== 'first-card')) {
    out(`| ${row.label} | ${r.shown.map((v) => {
      const c = r.get(row, v, 'convert');
      if (!c?.length) return 'n/a';
      const k = r.get(row, v, 'call');
      // Per run, then the median: a difference of medians can come out negative.
      const rest = r.get(row, v, 'busy').map((b, i) => b - c[i] - k[i]);
      return `${ms(median(c))} / ${ms(median(k))} / ${ms(median(rest))}`;
    }).join(' | ')} |`);
  }
  out();
}

function zoomSection(r, out) {
  if (!Object.keys(r.zoom).length) return;
  const frame = r.frameMs ?? 16.7;
  out('## Zoom frames, 1M-point line');
  out();
  out(`A fresh page per run: the line drawn, then ${r.zoomSteps} zooms around its middle, each narrower (from the whole two years to 0.2% of them), one per animation frame as a drag or a pinch asks for them. A frame's work: zdr-embed, from the start of the frame its draw runs in to the drawn view; uPlot, from \`setScale\` to its draw hook. Both rasterized. Chart.js and ECharts have no zoom without a plugin or a component. At 60 frames per second a frame has ${ms(frame)} ms.`);
  out();
  out('| library | frames | median | p90 | max | within one frame |');
  out('|---|---:|---:|---:|---:|---:|');
  for (const [v, frames] of Object.entries(r.zoom)) {
    const within = frames.filter((f) => f <= frame).length;
    out(`| ${r.variants[v].name} | ${frames.length} | ${ms(median(frames))} ms | ${ms(p90(frames))} ms | ${ms(Math.max(...frames))} ms | ${Math.round((100 * within) / frames.length)}% |`);
  }
  out();
}

function memorySection(r, out) {
  if (!Object.keys(r.memory).length) return;
  out('## Memory, 1M-point line');
  out();
  out(`A fresh page per library: the 1M-point line drawn from the typed arrays (converted as above), then ${r.updates} updates with new data of the same size (two data sets alternating, each converted anew). wasm: the byte length of every WebAssembly memory the page's modules created or imported (the service module's and the engine's), seen by the page wrapping \`WebAssembly.instantiate\` and \`Instance\`; it never shrinks, so it is the peak. JS heap: CDP \`Runtime.getHeapUsage\` after two forced garbage collections; typed-array backing stores are outside it.`);
  out();
  out('| library | wasm: ready → after the draw → after the updates | JS heap: ready → after the draw → after the updates |');
  out('|---|---:|---:|');
  for (const [v, m] of Object.entries(r.memory)) {
    const wasm = m.wasm1 == null ? '—' : `${mib(m.wasm0)} → ${mib(m.wasm1)} → ${mib(m.wasm2)}`;
    out(`| ${r.variants[v].name} | ${wasm} | ${mib(m.heap0)} → ${mib(m.heap1)} → ${mib(m.heap2)} |`);
  }
  out();
}

/** What one line-1k page of each library fetched (not the bench page), sized from the files served. */
function sizeSection(r, out) {
  const prefixes = Object.keys(r.mounts).sort((a, b) => b.length - a.length);
  const file = (path) => {
    const p = prefixes.find((x) => path.startsWith(x));
    return p ? join(r.mounts[p], decodeURIComponent(path.slice(p.length))) : null;
  };
  const variants = Object.keys(r.downloads);
  if (!variants.length) return;
  out('## Size: what a page downloads');
  out();
  out('Every file one line-1k page fetched besides the bench page itself, each compressed on its own: gzip at level 9, brotli at quality 11 (Node zlib). zdr-embed\'s `preload()` fetches the chunk of every group of card kinds, so that no card drawn after it waits; without it the page fetches the core and the lines\' chunk.');
  out();
  out('| library | files | raw | gzip -9 | brotli |');
  out('|---|---|---:|---:|---:|');
  for (const v of variants) {
    const paths = r.downloads[v].filter((p) => file(p));
    const s = paths.map((p) => sizes(file(p)));
    const sum = (k) => s.reduce((a, b) => a + b[k], 0);
    out(`| ${r.variants[v].name} | ${paths.map((p) => `\`${p.replace(/^\/(zdr|vendor\/[^/]+)\//, '')}\``).join(' + ')} | ${int(sum('raw'))} B | ${int(sum('gzip'))} B | ${int(sum('brotli'))} B |`);
  }
  out();
}
