// The benchmark page: zdr-embed (local mode) against Chart.js, uPlot and ECharts,
// all loaded by the same page (bench/page.html), driven one measurement at a time
// by scripts/bench-browser.mjs through `window.bench`.
//
// Every measurement starts in a task of its own (after a full GC) and times, with
// performance.now():
//
// - busy: main-thread time of the library's own work, from the call to the end of
//   its draw, without the idle wait for the next animation frame. For a library
//   that draws inside a frame callback (zdr-embed always; ECharts and Chart.js on
//   resize), the call's synchronous part plus the frame callback's part (measured
//   from a frame callback registered just before the library's own). Chromium
//   rasterizes canvas drawing lazily, so right after the draw one pixel is read
//   back (getImageData), which makes it rasterize then; that time is included
//   (and reported alone as `raster`).
// - frame: latency until the pixels are ready for the frame that shows them. For a
//   draw made synchronously in a task (Chart.js, uPlot, ECharts on first draw and
//   update) that is the next animation frame (`await requestAnimationFrame`); for a
//   draw made inside a frame callback (zdr-embed: onLoad; resizes of zdr-embed,
//   Chart.js and ECharts) or in the frame's resize-observer step (uPlot on resize),
//   the end of that draw and its rasterization.
import init, { render } from '/zdr/zdr_embed.js';

const wasm = await init();

export const W = 640; // container width, CSS px
export const W2 = 520; // width after the resize
export const H = 400; // container height
const UPLOT_H = 340; // uPlot's height is its canvas only; its title and legend are DOM above and below
const COLORS = ['#4e79a7', '#f28e2b'];
const T0 = Date.UTC(2024, 0, 1);
const MINUTE = 60_000;

const now = () => performance.now();
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const nextFrame = () => new Promise((ok) => requestAnimationFrame(() => ok(now())));

// ---------------------------------------------------------------- data

export const SCENARIOS = {
  'line-1k': { kind: 'line', series: 1, n: 1_000, label: 'Line, 1 series × 1,000 points' },
  'line-2x10k': { kind: 'line', series: 2, n: 10_000, label: 'Line, 2 series × 10,000 points' },
  'line-100k': { kind: 'line', series: 1, n: 100_000, label: 'Line, 1 series × 100,000 points' },
  'line-1m': { kind: 'line', series: 1, n: 1_000_000, label: 'Line, 1 series × 1,000,000 points' },
  'bar-2k': { kind: 'bar', n: 2_000, label: 'Bar, 2,000 bars' },
  'scatter-10k': { kind: 'scatter', n: 10_000, label: 'Scatter, 10,000 points' },
};

function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const round2 = (v) => Math.round(v * 100) / 100;

/** The numbers of one data set (variant 1: first draw, variant 2: the update). */
function source(sc, variant) {
  const r = mulberry32(variant * 7919 + sc.n);
  const { n } = sc;
  if (sc.kind === 'line') {
    const xs = new Float64Array(n);
    for (let i = 0; i < n; i++) xs[i] = T0 + i * MINUTE;
    const ys = [];
    for (let k = 0; k < sc.series; k++) {
      const y = new Float64Array(n);
      let v = 500 + 100 * k;
      for (let i = 0; i < n; i++) {
        v += (r() - 0.5) * 4;
        y[i] = round2(v);
      }
      ys.push(y);
    }
    return { xs, ys };
  }
  if (sc.kind === 'bar') {
    const labels = Array.from({ length: n }, (_, i) => `C${String(i + 1).padStart(4, '0')}`);
    const ys = new Float64Array(n);
    for (let i = 0; i < n; i++) ys[i] = Math.round(100 + 900 * r());
    return { labels, ys };
  }
  // scatter: height and weight, correlated
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = 150 + 45 * r();
    const noise = (r() + r() + r() - 1.5) * 12;
    xs[i] = round2(x);
    ys[i] = round2(0.9 * x - 85 + noise);
  }
  return { xs, ys };
}

/** "2024-01-01T00:00" (UTC), the minute form of the data format's dates. */
function isoMinute(ms) {
  return new Date(ms).toISOString().slice(0, 16);
}
function formatTick(ms) {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

const TITLE = 'Benchmark';

// ---------------------------------------------------------------- libraries

/** zdr-embed, local mode: its input is the visualization_data object. */
const zdr = {
  name: 'zdr-embed',
  supports: () => true,
  input(sc, src) {
    if (sc.kind === 'line') {
      return {
        viz_config: { title: TITLE, viz_component_type: 'timeseries', x_label: 'Time', y_label: 'Value' },
        data: {
          series: src.ys.map((y, k) => {
            const points = new Array(sc.n);
            for (let i = 0; i < sc.n; i++) points[i] = { x: isoMinute(src.xs[i]), y: y[i] };
            return { name: `Series ${k + 1}`, points };
          }),
        },
      };
    }
    if (sc.kind === 'bar') {
      return {
        viz_config: { title: TITLE, viz_component_type: 'bar', x_label: 'Category', y_label: 'Value' },
        data: src.labels.map((x, i) => ({ x, y: src.ys[i] })),
      };
    }
    const data = new Array(sc.n);
    for (let i = 0; i < sc.n; i++) data[i] = { x: src.xs[i], y: src.ys[i] };
    return {
      viz_config: { title: TITLE, viz_component_type: 'scatter', x_label: 'Height', y_label: 'Weight' },
      data,
    };
  },
  create(el, input) {
    const h = {};
    const drawn = new Promise((ok, fail) => Object.assign(h, { ok, fail }));
    h.handle = render({
      containerId: el.id,
      mode: 'local',
      visualizationData: input,
      width: '100%',
      height: `${H}px`,
      darkMode: false,
      onLoad: () => h.ok(now()),
      onError: (error) => h.fail(error),
    });
    return { h, drawn };
  },
  update(h, input) {
    const drawn = new Promise((ok, fail) => Object.assign(h, { ok, fail }));
    h.handle.update(input);
    return drawn;
  },
  resize: null, // its own ResizeObserver, then a draw in the next animation frame
  destroy(h) {
    h.handle.destroy();
  },
};

/** Chart.js 4 (UMD build, every controller registered), animation off. */
const chartjs = {
  name: 'Chart.js',
  supports: () => true,
  input(sc, src) {
    if (sc.kind === 'line') {
      // parsing: false wants the internal format: {x, y} objects with numbers, sorted by x.
      return {
        series: src.ys.map((y) => {
          const points = new Array(sc.n);
          for (let i = 0; i < sc.n; i++) points[i] = { x: src.xs[i], y: y[i] };
          return points;
        }),
      };
    }
    if (sc.kind === 'bar') return { labels: src.labels, values: Array.from(src.ys) };
    const points = new Array(sc.n);
    for (let i = 0; i < sc.n; i++) points[i] = { x: src.xs[i], y: src.ys[i] };
    return { points };
  },
  config(sc, input) {
    const common = {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { title: { display: true, text: TITLE } },
    };
    const axis = (text, extra) => ({ title: { display: true, text }, ...extra });
    if (sc.kind === 'line') {
      return {
        type: 'line',
        data: {
          datasets: input.series.map((data, k) => ({
            label: `Series ${k + 1}`,
            data,
            borderColor: COLORS[k],
            backgroundColor: COLORS[k],
            borderWidth: 1,
          })),
        },
        options: {
          ...common,
          // The options of Chart.js's own performance guide for large line data.
          parsing: false,
          normalized: true,
          spanGaps: true,
          elements: { point: { radius: 0 }, line: { tension: 0 } },
          plugins: { ...common.plugins, decimation: { enabled: true, algorithm: 'min-max' } },
          scales: {
            // A linear axis of epoch milliseconds with formatted ticks: the `time` axis
            // would need a date adapter (another package).
            x: axis('Time', { type: 'linear', ticks: { callback: (v) => formatTick(v) } }),
            y: axis('Value'),
          },
        },
      };
    }
    if (sc.kind === 'bar') {
      return {
        type: 'bar',
        data: { labels: input.labels, datasets: [{ label: 'Value', data: input.values, backgroundColor: COLORS[0] }] },
        options: { ...common, scales: { x: axis('Category'), y: axis('Value') } },
      };
    }
    return {
      type: 'scatter',
      data: { datasets: [{ label: 'Points', data: input.points, pointRadius: 2, backgroundColor: COLORS[0] }] },
      options: { ...common, parsing: false, scales: { x: axis('Height'), y: axis('Weight') } },
    };
  },
  create(el, input, sc) {
    const canvas = document.createElement('canvas');
    el.appendChild(canvas);
    const chart = new Chart(canvas, chartjs.config(sc, input));
    return { h: chart, drawn: now() };
  },
  update(chart, input, sc) {
    const sets = chart.data.datasets;
    if (sc.kind === 'line') input.series.forEach((data, k) => (sets[k].data = data));
    else if (sc.kind === 'bar') sets[0].data = input.values;
    else sets[0].data = input.points;
    chart.update('none');
    return now();
  },
  resize: null, // responsive: its own ResizeObserver, then a draw in the next animation frame
  destroy(chart) {
    chart.destroy();
  },
};

/** uPlot 1.6 (IIFE build): line, bars (paths.bars) and scatter (mode 2, paths.points). */
const uplot = {
  name: 'uPlot',
  supports: () => true,
  input(sc, src) {
    if (sc.kind === 'line') {
      // Plain arrays, as in uPlot's documentation (typed arrays work too).
      const secs = new Array(sc.n);
      for (let i = 0; i < sc.n; i++) secs[i] = src.xs[i] / 1000;
      return { data: [secs, ...src.ys.map((y) => Array.from(y))] };
    }
    if (sc.kind === 'bar') {
      return { labels: src.labels, data: [Array.from(src.ys, (_, i) => i), Array.from(src.ys)] };
    }
    return { data: [null, [Array.from(src.xs), Array.from(src.ys)]] };
  },
  opts(sc, input, h) {
    const common = {
      width: W,
      height: UPLOT_H,
      title: TITLE,
      hooks: { draw: [() => h.ok?.(now())] },
    };
    if (sc.kind === 'line') {
      return {
        ...common,
        scales: { x: { time: true } },
        series: [{}, ...input.data.slice(1).map((_, k) => ({ label: `Series ${k + 1}`, stroke: COLORS[k], width: 1 }))],
        axes: [{ label: 'Time' }, { label: 'Value' }],
      };
    }
    if (sc.kind === 'bar') {
      const { labels } = input;
      return {
        ...common,
        scales: { x: { time: false, range: (u, min, max) => [min - 0.5, max + 0.5] } },
        series: [
          {},
          {
            label: 'Value',
            fill: COLORS[0],
            stroke: COLORS[0],
            paths: uPlot.paths.bars({ size: [0.8, Infinity] }),
            points: { show: false },
          },
        ],
        axes: [
          { label: 'Category', values: (u, splits) => splits.map((s) => labels[s] ?? '') },
          { label: 'Value' },
        ],
      };
    }
    return {
      ...common,
      mode: 2,
      scales: { x: { time: false } },
      legend: { live: false },
      series: [
        {},
        {
          label: 'Points',
          stroke: COLORS[0],
          fill: COLORS[0],
          paths: uPlot.paths.points(),
          points: { size: 4, width: 0 },
          facets: [
            { scale: 'x', auto: true },
            { scale: 'y', auto: true },
          ],
        },
      ],
      axes: [{ label: 'Height' }, { label: 'Weight' }],
    };
  },
  expect(h) {
    return new Promise((ok, fail) => Object.assign(h, { ok: (t) => ((h.ok = null), ok(t)), fail }));
  },
  create(el, input, sc) {
    const h = {};
    const drawn = uplot.expect(h);
    h.u = new uPlot(uplot.opts(sc, input, h), input.data, el);
    return { h, drawn };
  },
  update(h, input) {
    const drawn = uplot.expect(h);
    h.u.setData(input.data);
    return drawn;
  },
  // No resize observer of its own: the page calls setSize, here from a ResizeObserver.
  resize(h, width) {
    const drawn = uplot.expect(h);
    h.u.setSize({ width, height: UPLOT_H });
    return drawn;
  },
  destroy(h) {
    h.u.destroy();
  },
};

/** ECharts (full build, canvas renderer), animation off. */
const echartsLib = {
  name: 'ECharts',
  supports: () => true,
  input(sc, src) {
    if (sc.kind === 'line') {
      return {
        series: src.ys.map((y) => {
          const data = new Array(sc.n);
          for (let i = 0; i < sc.n; i++) data[i] = [src.xs[i], y[i]];
          return data;
        }),
      };
    }
    if (sc.kind === 'bar') return { labels: src.labels, values: Array.from(src.ys) };
    const data = new Array(sc.n);
    for (let i = 0; i < sc.n; i++) data[i] = [src.xs[i], src.ys[i]];
    return { series: [data] };
  },
  option(sc, input) {
    const common = { animation: false, title: { text: TITLE }, tooltip: { trigger: sc.kind === 'line' ? 'axis' : 'item' } };
    if (sc.kind === 'line') {
      return {
        ...common,
        legend: input.series.length > 1 ? {} : undefined,
        xAxis: { type: 'time', name: 'Time' },
        yAxis: { type: 'value', name: 'Value', scale: true },
        series: input.series.map((data, k) => ({
          type: 'line',
          name: `Series ${k + 1}`,
          data,
          showSymbol: false,
          sampling: 'minmax',
          lineStyle: { width: 1 },
        })),
      };
    }
    if (sc.kind === 'bar') {
      return {
        ...common,
        xAxis: { type: 'category', name: 'Category', data: input.labels },
        yAxis: { type: 'value', name: 'Value' },
        series: [{ type: 'bar', name: 'Value', data: input.values }],
      };
    }
    return {
      ...common,
      xAxis: { type: 'value', name: 'Height', scale: true },
      yAxis: { type: 'value', name: 'Weight', scale: true },
      // large: one path for all symbols; progressive: 0: in one go, not 400 points a frame.
      series: [{ type: 'scatter', name: 'Points', data: input.series[0], symbolSize: 4, large: true, progressive: 0 }],
    };
  },
  /** Runs `op`; the draw is over when zrender has nothing left to paint (else at 'finished'). */
  run(chart, op) {
    op();
    const t = now();
    const zr = chart.getZr();
    if (!zr._needsRefresh && !chart._scheduler?.unfinished) return t;
    return new Promise((ok) => {
      const done = () => {
        chart.off('finished', done);
        ok(now());
      };
      chart.on('finished', done);
    });
  },
  create(el, input, sc) {
    const chart = echarts.init(el, null, { renderer: 'canvas' });
    return { h: chart, drawn: echartsLib.run(chart, () => chart.setOption(echartsLib.option(sc, input))) };
  },
  update(chart, input, sc) {
    const series =
      sc.kind === 'bar' ? [{ data: input.values }] : input.series.map((data) => ({ data }));
    return echartsLib.run(chart, () => chart.setOption({ series }));
  },
  // No resize observer of its own: the page calls resize(), here from a ResizeObserver.
  resize(chart) {
    return echartsLib.run(chart, () => chart.resize());
  },
  destroy(chart) {
    chart.dispose();
  },
};

export const LIBS = { zdr, chartjs, uplot, echarts: echartsLib };

// ---------------------------------------------------------------- measuring

let current = null; // { name, sc, inputs: { lib: [input1, input2] } }
let serial = 0;

async function settle() {
  if (typeof gc === 'function') gc();
  await sleep(30);
  // Start in a fresh task.
  await new Promise((ok) => setTimeout(ok, 0));
}

function box() {
  const el = document.createElement('div');
  el.className = 'box';
  el.id = `box${++serial}`;
  document.getElementById('stage').appendChild(el);
  return el;
}

/** One timed call. `call` returns { h?, drawn } (drawn: a time, or a promise of one). */
/**
 * Chromium records canvas 2D calls and rasterizes them later (when the frame is
 * painted). Reading one pixel back makes it rasterize now, so that cost is counted
 * for every library alike. Returns the time it took.
 */
function rasterize(el) {
  const r0 = now();
  for (const canvas of el.querySelectorAll('canvas')) {
    if (canvas.width > 0 && canvas.height > 0) canvas.getContext('2d').getImageData(0, 0, 1, 1);
  }
  return now() - r0;
}

async function timed(el, call) {
  await settle();
  let pre = null;
  requestAnimationFrame(() => (pre = now())); // runs before any frame callback the call registers
  const t0 = now();
  const result = call();
  const t1 = now();
  const drawn = await result.drawn;
  const raster = rasterize(el);
  const inFrame = pre !== null && drawn >= pre;
  const shown = inFrame ? now() : await nextFrame();
  return {
    h: result.h,
    sync: t1 - t0,
    raster,
    busy: (inFrame ? t1 - t0 + (drawn - pre) : drawn - t0) + raster,
    frame: shown - t0,
  };
}

/** A width change of the container; the library redraws from a ResizeObserver. */
function timedResize(lib, h, el, observers, width) {
  return new Promise((ok, fail) => {
    const state = { pre: null, call0: null, call1: null };
    const finish = (drawn) => {
      observers.armed = null;
      const inFrame = state.pre !== null && drawn >= state.pre;
      const start = state.call0 ?? state.pre; // auto-resizing libraries: their work is in the frame
      const sync = state.call0 === null ? 0 : state.call1 - state.call0;
      const raster = rasterize(el);
      ok({
        raster,
        busy: (inFrame ? sync + (drawn - state.pre) : drawn - start) + raster,
        frame: drawn + raster - tw,
      });
    };
    observers.armed = {
      pre: () => requestAnimationFrame(() => (state.pre = now())),
      post: () => {
        try {
          if (lib.resize) {
            state.call0 = now();
            const drawn = lib.resize(h, width);
            state.call1 = now();
            Promise.resolve(drawn).then(finish, fail);
          } else {
            // Registered after the library's own frame callback: runs when its draw is done.
            requestAnimationFrame(() => finish(now()));
          }
        } catch (error) {
          fail(error);
        }
      },
    };
    // The width changes at the start of a frame, where a window resize is handled.
    let tw;
    requestAnimationFrame(() => {
      tw = now();
      el.style.width = `${width}px`;
    });
  });
}

/** A whole cycle for one library: first draw, update, resize; then destroy. */
async function measure(libName) {
  const lib = LIBS[libName];
  const { sc, inputs } = current;
  const [input1, input2] = inputs[libName];
  const el = box();
  // Observers around the library's own: `pre` before it, `post` after it (creation order).
  const observers = { armed: null };
  const pre = new ResizeObserver(() => observers.armed?.pre());
  pre.observe(el);
  let h;
  try {
    const first = await timed(el, () => lib.create(el, input1, sc));
    h = first.h;
    const post = new ResizeObserver(() => observers.armed?.post());
    post.observe(el);
    await sleep(50); // initial observer callbacks and any follow-up frames
    const update = await timed(el, () => ({ h, drawn: lib.update(h, input2, sc) }));
    await settle();
    const resize = await timedResize(lib, h, el, observers, W2);
    post.disconnect();
    const out = { first: strip(first), update: strip(update), resize };
    if (libName === 'zdr') {
      // What the widget does first in render()/update(): JSON.stringify of the data.
      await settle();
      const s0 = now();
      const text = JSON.stringify(input1);
      out.stringify = now() - s0;
      out.jsonBytes = text.length;
      // A stand-in for the copy of the text into WebAssembly memory (wasm-bindgen encodes UTF-8).
      const e0 = now();
      new TextEncoder().encode(text);
      out.encode = now() - e0;
    }
    return out;
  } finally {
    pre.disconnect();
    if (h) lib.destroy(h);
    el.remove();
  }
}
const strip = ({ sync, raster, busy, frame }) => ({ sync, raster, busy, frame });

/** Builds both data sets of a scenario in every library's input format (not timed in `measure`). */
async function prepare(name, libNames, variants = 2) {
  current = null;
  if (typeof gc === 'function') gc();
  const sc = SCENARIOS[name];
  const sources = [source(sc, 1), source(sc, 2)].slice(0, variants);
  const inputs = {};
  const convert = {};
  for (const l of libNames) {
    const t0 = now();
    inputs[l] = sources.map((src) => LIBS[l].input(sc, src));
    convert[l] = (now() - t0) / variants;
  }
  current = { name, sc, inputs };
  return { convert };
}

/** Draws one data set and keeps it (for the memory measurement). */
async function drawAndKeep(libName) {
  const lib = LIBS[libName];
  const el = box();
  const [input1] = current.inputs[libName];
  const result = lib.create(el, input1, current.sc);
  await result.drawn;
  await nextFrame();
  current.kept = result.h;
  return true;
}

function screenshotBox(libName) {
  const lib = LIBS[libName];
  const el = box();
  const [input1] = current.inputs[libName];
  const result = lib.create(el, input1, current.sc);
  return Promise.resolve(result.drawn).then(async () => {
    await nextFrame();
    window.__shot = { lib, h: result.h, el };
    return el.id;
  });
}
function dropShot() {
  const { lib, h, el } = window.__shot;
  lib.destroy(h);
  el.remove();
  window.__shot = null;
}

/** Median interval between animation frames over `count` frames. */
async function frameInterval(count = 61) {
  const times = [];
  for (let i = 0; i < count; i++) times.push(await nextFrame());
  const d = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
  return d[Math.floor(d.length / 2)];
}

window.bench = {
  frameInterval,
  SCENARIOS,
  prepare,
  measure,
  drawAndKeep,
  screenshotBox,
  dropShot,
  wasmMemoryBytes: () => wasm.memory.buffer.byteLength,
  versions: () => ({ chartjs: Chart.version, uplot: null, echarts: echarts.version }),
};
window.benchReady = true;
