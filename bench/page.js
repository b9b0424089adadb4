// The benchmark page: ONE library per page (`page.html?lib=zdr|chartjs|uplot|echarts`),
// a fresh browser context for every measurement, driven by scripts/bench-browser.mjs
// through `window.bench`. The method is in docs/benchmarks.md; in short:
//
// - The timed card is the first card its page draws, as a user meets it: its
//   code runs cold. Nothing is drawn before it: a probe (does this build read
//   the columnar shape?) runs in a page of its own (`&probe=1`), and the runner
//   passes what it found (`&shape=columns|points`).
// - Before the timed region: the library is loaded (zdr-embed: `await init()`,
//   and with `&preload=1` also `await preload()`; without it the card fetches
//   and compiles the engine inside the region), and the user's data is built:
//   the same typed arrays (`Float64Array` epoch-ms x and y) for every library,
//   or for the point-object cases the spec's point objects (a line's dates as
//   ISO text), which each library's user converts inside the region. zdr-embed
//   is loaded as a user loads it: the package's entry, from the built pkg/
//   served as files; the files it fetches after that are its own business.
// - The timed region starts at the user's call and includes the conversion the user
//   must do from that data into the library's input, then the library's call, then
//   its draw, then the rasterization of its canvas (one pixel read back with
//   getImageData: Chromium records canvas drawing and rasterizes it lazily).
// - Two clocks: `pixels` = until the pixels exist for the frame that shows them (a
//   draw made in the task or right after it, as zdr-embed's first draw: the next
//   animation frame; a draw made in a frame callback, as zdr-embed's update(): the
//   end of that draw); `busy` = main-thread work
//   only (the same without the idle wait for the frame).
const params = new URLSearchParams(location.search);
const LIB = params.get('lib');
// zdr-embed: `preload()` awaited before the clock, or not called at all.
const PRELOAD = params.get('preload') === '1';
// `?profile=1`: each timed region is a console profile (CDP Profiler.consoleProfileFinished).
const PROFILE = params.get('profile') === '1';

export const W = 800; // container width, CSS px: an 800 × 400 canvas at devicePixelRatio 1
export const H = 400; // container height
const UPLOT_H = 340; // uPlot's height is its canvas only; its title and legend are DOM around it
const COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948'];
const T0 = Date.UTC(2024, 0, 1);
const MINUTE = 60_000;
const TITLE = 'Benchmark';

const now = () => performance.now();
const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
const nextFrame = () => new Promise((ok) => requestAnimationFrame(() => ok(now())));

// ---------------------------------------------------------------- scenarios

// input: 'typed' (Float64Array columns, each library converts inside the timed region)
// or 'points' (the spec's point objects, built before it: a line's dates as ISO
// text, a scatter's numbers; each library's user converts them inside the region).
export const SCENARIOS = {
  'line-1k': { kind: 'line', n: 1_000, input: 'typed', label: 'Line 1k, typed arrays' },
  'line-100k': { kind: 'line', n: 100_000, input: 'typed', label: 'Line 100k, typed arrays' },
  'line-1m': { kind: 'line', n: 1_000_000, input: 'typed', label: 'Line 1M, typed arrays' },
  'line-100k-pts': { kind: 'line', n: 100_000, input: 'points', label: 'Line 100k, the spec\'s point objects (ISO dates)' },
  'line-1m-pts': { kind: 'line', n: 1_000_000, input: 'points', label: 'Line 1M, the spec\'s point objects (ISO dates)' },
  'scatter-100k': { kind: 'scatter', n: 100_000, input: 'points', label: 'Scatter 100k, point objects' },
  'bar-50': { kind: 'bar', n: 50, input: 'typed', label: 'Bar 50, labels + typed array' },
  'bar-1k': { kind: 'bar', n: 1_000, input: 'typed', label: 'Bar 1k, labels + typed array' },
  dashboard: { kind: 'dashboard', n: 20, input: 'cards', label: 'Dashboard: 20 cards in one task' },
  // The user holds the card as the service answers it: no conversion. Only
  // zdr-embed draws a map without a plugin or outlines of the page's own.
  map: { kind: 'map', n: 1, input: 'card', url: '/examples/choropleth.json', label: 'Map card: the choropleth of docs/examples' },
  'update-1m': { kind: 'line', n: 1_000_000, input: 'typed', update: true, label: 'Line 1M, typed arrays: first draw, then update()' },
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

/** The user's numbers (variant 1: first draw, 2: the update): typed arrays. */
function source(sc, variant) {
  const r = mulberry32(variant * 7919 + sc.n);
  const { n } = sc;
  if (sc.kind === 'line') {
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    let v = 500;
    for (let i = 0; i < n; i++) {
      xs[i] = T0 + i * MINUTE;
      v += (r() - 0.5) * 4;
      ys[i] = round2(v);
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
const isoMinute = (ms) => new Date(ms).toISOString().slice(0, 16);
const formatTick = (ms) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

// ---------------------------------------------------------------- zdr-embed

const VIZ = {
  line: { title: TITLE, viz_component_type: 'timeseries', x_label: 'Time', y_label: 'Value' },
  bar: { title: TITLE, viz_component_type: 'bar', x_label: 'Category', y_label: 'Value' },
  scatter: { title: TITLE, viz_component_type: 'scatter', x_label: 'Height', y_label: 'Weight' },
};

/** Typed arrays -> the spec's point objects (today's only way for a timeseries: ISO dates). */
function zdrTypedViaPoints(sc, src) {
  const { n } = sc;
  const data = new Array(n);
  if (sc.kind === 'line') for (let i = 0; i < n; i++) data[i] = { x: isoMinute(src.xs[i]), y: src.ys[i] };
  else if (sc.kind === 'bar') for (let i = 0; i < n; i++) data[i] = { x: src.labels[i], y: src.ys[i] };
  else for (let i = 0; i < n; i++) data[i] = { x: src.xs[i], y: src.ys[i] };
  return { viz_config: VIZ[sc.kind], data };
}

/** Typed arrays -> the columnar shape (issue 15): no conversion at all. */
function zdrTypedAsColumns(sc, src) {
  const viz = sc.kind === 'line' ? { ...VIZ.line, x_time: 'epoch_ms' } : VIZ[sc.kind];
  return { viz_config: viz, data: { x: sc.kind === 'bar' ? src.labels : src.xs, y: src.ys } };
}

// A user holding typed arrays gives them as columns; a build that does not
// read that shape (the probe page says so) gets the spec's point objects.
const ZDR_TYPED = params.get('shape') === 'points' ? zdrTypedViaPoints : zdrTypedAsColumns;

/** The spec's point objects, as a service user holds them (built before the timed region). */
function zdrPoints(sc, src) {
  return zdrTypedViaPoints(sc, src).data;
}

function zdrLib(fromTyped) {
  return {
    fromTyped,
    points: zdrPoints,
    fromPoints: (sc, pts) => ({ viz_config: VIZ[sc.kind], data: pts }),
    fromCard: (sc, card) => card,
    create(el, input) {
      const h = {};
      const drawn = new Promise((ok, fail) => Object.assign(h, { ok, fail }));
      h.handle = zdr.render({
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
    destroy: (h) => h.handle.destroy(),
  };
}

// ---------------------------------------------------------------- Chart.js

/** Typed arrays -> {x, y} objects of numbers: Chart.js's internal format. */
function numberPoints(sc, src) {
  const pts = new Array(sc.n);
  for (let i = 0; i < sc.n; i++) pts[i] = { x: src.xs[i], y: src.ys[i] };
  return pts;
}

/** Chart.js 4 (UMD build), animation off, its performance guide's options for big line data. */
const chartjs = {
  // parsing: false wants its internal format: {x, y} objects of numbers, sorted by x.
  fromTyped(sc, src) {
    if (sc.kind === 'bar') return { labels: src.labels, values: Array.from(src.ys) };
    return { points: numberPoints(sc, src) };
  },
  // A line's user holds the spec's point objects, as every library's does
  // (dates as ISO text); a scatter's are numbers already.
  points: (sc, src) => (sc.kind === 'line' ? zdrPoints(sc, src) : numberPoints(sc, src)),
  // The user parses the dates into epoch ms inside the clock (the dashboard's
  // conversion): `parsing: false` takes {x, y} objects of numbers.
  fromPoints(sc, pts) {
    if (sc.kind !== 'line') return { points: pts };
    const points = new Array(sc.n);
    for (let i = 0; i < sc.n; i++) points[i] = { x: Date.parse(pts[i].x), y: pts[i].y };
    return { points };
  },
  config(sc, input) {
    const common = {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { title: { display: true, text: TITLE }, legend: { display: false } },
    };
    const axis = (text, extra) => ({ title: { display: true, text }, ...extra });
    if (sc.kind === 'line') {
      return {
        type: 'line',
        data: { datasets: [{ label: 'Series 1', data: input.points, borderColor: COLORS[0], backgroundColor: COLORS[0], borderWidth: 1 }] },
        options: {
          ...common,
          parsing: false,
          normalized: true,
          spanGaps: true,
          elements: { point: { radius: 0 }, line: { tension: 0 } },
          plugins: { ...common.plugins, decimation: { enabled: true, algorithm: 'min-max' } },
          scales: {
            // A linear axis of epoch ms with formatted ticks: `time` needs a date adapter package.
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
    return { h: new Chart(canvas, chartjs.config(sc, input)), drawn: now() };
  },
  update(chart, input, sc) {
    chart.data.datasets[0].data = sc.kind === 'bar' ? input.values : input.points;
    chart.update('none');
    return now();
  },
  destroy: (chart) => chart.destroy(),
};

// ---------------------------------------------------------------- uPlot

/** uPlot 1.6 (IIFE build): takes typed arrays as they are (ms: 1 = x in epoch ms). */
const uplot = {
  fromTyped(sc, src) {
    if (sc.kind === 'bar') {
      const idx = new Float64Array(sc.n);
      for (let i = 0; i < sc.n; i++) idx[i] = i;
      return { labels: src.labels, data: [idx, src.ys] };
    }
    return { data: sc.kind === 'line' ? [src.xs, src.ys] : [null, [src.xs, src.ys]] };
  },
  // uPlot has no point-object input: the user parses the dates (a line's) and
  // splits the points into arrays inside the timed region.
  points: (sc, src) => chartjs.points(sc, src),
  fromPoints(sc, pts) {
    const xs = new Float64Array(sc.n);
    const ys = new Float64Array(sc.n);
    const line = sc.kind === 'line';
    for (let i = 0; i < sc.n; i++) {
      xs[i] = line ? Date.parse(pts[i].x) : pts[i].x;
      ys[i] = pts[i].y;
    }
    return { data: sc.kind === 'line' ? [xs, ys] : [null, [xs, ys]] };
  },
  opts(sc, input, h) {
    const common = { width: W, height: UPLOT_H, title: TITLE, legend: { show: false }, hooks: { draw: [() => h.ok?.(now())] } };
    if (sc.kind === 'line') {
      return {
        ...common,
        ms: 1,
        scales: { x: { time: true } },
        series: [{}, { label: 'Series 1', stroke: COLORS[0], width: 1 }],
        axes: [{ label: 'Time' }, { label: 'Value' }],
      };
    }
    if (sc.kind === 'bar') {
      const { labels } = input;
      return {
        ...common,
        scales: { x: { time: false, range: (u, min, max) => [min - 0.5, max + 0.5] } },
        series: [{}, { label: 'Value', fill: COLORS[0], stroke: COLORS[0], paths: uPlot.paths.bars({ size: [0.8, Infinity] }), points: { show: false } }],
        axes: [{ label: 'Category', values: (u, splits) => splits.map((s) => labels[s] ?? '') }, { label: 'Value' }],
      };
    }
    return {
      ...common,
      mode: 2,
      scales: { x: { time: false } },
      series: [
        {},
        {
          label: 'Points',
          stroke: COLORS[0],
          fill: COLORS[0],
          paths: uPlot.paths.points(),
          points: { size: 4, width: 0 },
          facets: [{ scale: 'x', auto: true }, { scale: 'y', auto: true }],
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
  destroy: (h) => h.u.destroy(),
};

// ---------------------------------------------------------------- ECharts

/** ECharts (full build, canvas renderer), animation off; its data: [x, y] pairs. */
const echartsLib = {
  fromTyped(sc, src) {
    if (sc.kind === 'bar') return { labels: src.labels, values: Array.from(src.ys) };
    const pairs = new Array(sc.n);
    for (let i = 0; i < sc.n; i++) pairs[i] = [src.xs[i], src.ys[i]];
    return { pairs };
  },
  points: (sc, src) => chartjs.points(sc, src),
  // ECharts' time axis reads ISO text itself: the user only makes the pairs.
  fromPoints(sc, pts) {
    const pairs = new Array(sc.n);
    for (let i = 0; i < sc.n; i++) pairs[i] = [pts[i].x, pts[i].y];
    return { pairs };
  },
  option(sc, input) {
    const common = { animation: false, title: { text: TITLE }, tooltip: { trigger: sc.kind === 'line' ? 'axis' : 'item' } };
    if (sc.kind === 'line') {
      return {
        ...common,
        xAxis: { type: 'time', name: 'Time' },
        yAxis: { type: 'value', name: 'Value', scale: true },
        series: [{ type: 'line', name: 'Series 1', data: input.pairs, showSymbol: false, sampling: 'minmax', lineStyle: { width: 1 } }],
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
      series: [{ type: 'scatter', name: 'Points', data: input.pairs, symbolSize: 4, large: true, progressive: 0 }],
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
    return echartsLib.run(chart, () => chart.setOption({ series: [{ data: sc.kind === 'bar' ? input.values : input.pairs }] }));
  },
  destroy: (chart) => chart.dispose(),
};

// ---------------------------------------------------------------- the dashboard (issue 37)

// Twenty cards of mixed types in one task, as a dashboard page renders what
// `visualize` answered: bars of 12–50 categories, lines of 200–5,000 points,
// a pie and a table, each in a 320 × 220 tile.
export const DASH_W = 320;
export const DASH_H = 220;
export const DASHBOARD = [
  ['bar', 12], ['line', 200], ['bar', 18], ['line', 500], ['bar', 24],
  ['line', 1000], ['pie', 6], ['line', 2000], ['bar', 30], ['line', 5000],
  ['bar', 36], ['line', 300], ['table', 10], ['line', 800], ['bar', 42],
  ['line', 1500], ['bar', 50], ['line', 3000], ['bar', 15], ['line', 4000],
];
const HOUR = 60 * MINUTE;

/** The twenty cards as the service answers them: the spec's `visualization_data`. */
function dashboardCards() {
  return DASHBOARD.map(([kind, n], i) => {
    const r = mulberry32(1000 + i);
    const title = `Card ${i + 1}`;
    if (kind === 'line') {
      const data = new Array(n);
      let v = 500;
      for (let j = 0; j < n; j++) {
        v += (r() - 0.5) * 4;
        data[j] = { x: isoMinute(T0 + j * HOUR), y: round2(v) };
      }
      return { viz_config: { title, viz_component_type: 'timeseries', x_label: 'Time', y_label: 'Value' }, data };
    }
    if (kind === 'bar' || kind === 'pie') {
      const data = Array.from({ length: n }, (_, j) => ({ x: `C${j + 1}`, y: Math.round(100 + 900 * r()) }));
      return { viz_config: { title, viz_component_type: kind, x_label: 'Category', y_label: 'Value' }, data };
    }
    const rows = Array.from({ length: n }, (_, j) => [`Account ${j + 1}`, ['US', 'DE', 'GB', 'JP'][j % 4], Math.round(1e6 * r()), round2(r() - 0.3)]);
    return { viz_config: { title, viz_component_type: 'table' }, data: { columns: ['Account', 'Country', 'Revenue', 'Growth'], rows } };
  });
}

/** A table card for the libraries that draw none: the HTML table its user would write. */
function htmlTable(el, card) {
  const doc = el.ownerDocument;
  const table = doc.createElement('table');
  table.className = 'dash-table';
  const caption = table.createCaption();
  caption.textContent = card.viz_config.title;
  const head = table.createTHead().insertRow();
  for (const c of card.data.columns) {
    const th = doc.createElement('th');
    th.textContent = c;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const row of card.data.rows) {
    const tr = body.insertRow();
    for (const v of row) tr.insertCell().textContent = typeof v === 'number' ? v.toLocaleString('en-US') : v;
  }
  el.appendChild(table);
  return { destroy: () => table.remove() };
}

/** Each library's dashboard: `convert(cards)` into its inputs, `create(els, inputs)`. */
const DASH_LIBS = {
  zdr: {
    convert: (cards) => cards,
    create(els, inputs) {
      const handles = [];
      const drawn = inputs.map(
        (input, i) =>
          new Promise((ok, fail) => {
            handles.push(
              zdr.render({
                containerId: els[i].id,
                mode: 'local',
                visualizationData: input,
                width: '100%',
                height: `${DASH_H}px`,
                darkMode: false,
                onLoad: () => ok(now()),
                onError: fail,
              }),
            );
          }),
      );
      return { h: handles.map((handle) => ({ destroy: () => handle.destroy() })), drawn: Promise.all(drawn).then((t) => Math.max(...t)) };
    },
  },
  uplot: {
    // The user parses the service's ISO dates into epoch ms and splits the points into arrays.
    convert: (cards) =>
      cards.map((card) => {
        const type = card.viz_config.viz_component_type;
        if (type === 'table') return { card };
        const n = card.data.length;
        const ys = new Float64Array(n);
        for (let i = 0; i < n; i++) ys[i] = card.data[i].y;
        if (type === 'timeseries') {
          const xs = new Float64Array(n);
          for (let i = 0; i < n; i++) xs[i] = Date.parse(card.data[i].x);
          return { card, kind: 'line', data: [xs, ys] };
        }
        // uPlot draws no pie: bars are its closest chart.
        const idx = new Float64Array(n);
        for (let i = 0; i < n; i++) idx[i] = i;
        return { card, kind: 'bar', labels: card.data.map((p) => p.x), data: [idx, ys] };
      }),
    create(els, inputs) {
      const handles = [];
      const drawn = [];
      inputs.forEach((input, i) => {
        if (!input.kind) {
          handles.push(htmlTable(els[i], input.card));
          drawn.push(now());
          return;
        }
        const h = {};
        drawn.push(uplot.expect(h));
        const opts = uplot.opts({ kind: input.kind }, input, h);
        Object.assign(opts, { width: DASH_W, height: DASH_H - 60, title: input.card.viz_config.title });
        h.u = new uPlot(opts, input.data, els[i]);
        handles.push({ destroy: () => h.u.destroy() });
      });
      return { h: handles, drawn: Promise.all(drawn).then((t) => Math.max(...t)) };
    },
  },
  chartjs: {
    convert: (cards) =>
      cards.map((card) => {
        const type = card.viz_config.viz_component_type;
        if (type === 'table') return { card };
        if (type === 'timeseries') return { card, kind: 'line', points: card.data.map((p) => ({ x: Date.parse(p.x), y: p.y })) };
        return { card, kind: type, labels: card.data.map((p) => p.x), values: card.data.map((p) => p.y) };
      }),
    create(els, inputs) {
      const handles = [];
      inputs.forEach((input, i) => {
        if (!input.kind) {
          handles.push(htmlTable(els[i], input.card));
          return;
        }
        const canvas = document.createElement('canvas');
        els[i].appendChild(canvas);
        const config = chartjs.config({ kind: input.kind === 'pie' ? 'bar' : input.kind }, input);
        config.options.plugins.title.text = input.card.viz_config.title;
        if (input.kind === 'pie') {
          config.type = 'pie';
          config.data.datasets[0].backgroundColor = input.values.map((_, j) => COLORS[j % COLORS.length]);
          delete config.options.scales;
        }
        const chart = new Chart(canvas, config);
        handles.push({ destroy: () => chart.destroy() });
      });
      return { h: handles, drawn: now() };
    },
  },
};

/** The dashboard: twenty tiles, the cards rendered in one task, timed to the last card's pixels. */
async function dashboard(libName) {
  const lib = DASH_LIBS[libName];
  const grid = box();
  grid.className = 'dash';
  const els = DASHBOARD.map(() => {
    const el = document.createElement('div');
    el.className = 'tile';
    el.id = `box${++serial}`;
    grid.appendChild(el);
    return el;
  });
  const cards = dashboardCards();
  let handles = [];
  try {
    const result = await timed(grid, () => lib.convert(cards), (inputs) => lib.create(els, inputs));
    handles = result.h;
    return { first: strip(result) };
  } finally {
    for (const h of handles) h.destroy();
    grid.remove();
  }
}

// ---------------------------------------------------------------- loading (not timed)

const SCRIPTS = {
  chartjs: ['/vendor/chart.js/chart.umd.min.js'],
  uplot: ['/vendor/uplot/uPlot.iife.min.js', '/vendor/uplot/uPlot.min.css'],
  echarts: ['/vendor/echarts/echarts.min.js'],
};
const loadScript = (src) =>
  new Promise((ok, fail) => {
    const css = src.endsWith('.css');
    const s = document.createElement(css ? 'link' : 'script');
    if (css) Object.assign(s, { rel: 'stylesheet', href: src });
    else s.src = src;
    s.onload = ok;
    s.onerror = () => fail(new Error(`could not load ${src}`));
    document.head.appendChild(s);
  });

let zdr = null; // the package's entry module

/** zdr-embed as a page loads it: the entry, `init()`, and `preload()` when asked for. */
async function loadZdr(withPreload) {
  zdr = await import('/zdr/zdr_embed.js');
  await zdr.default();
  if (withPreload) await zdr.preload();
}

/**
 * Does the built engine read the columnar shape? Each kind's columns must draw
 * the same card as its points. Run in the probe page only (`&probe=1`): it
 * draws cards, which would warm the engine of a page whose card is timed.
 */
async function probeColumnar() {
  const three = Float64Array.of(1, 3, 2);
  const cases = [
    [{ kind: 'line', n: 3 }, { xs: Float64Array.of(T0, T0 + MINUTE, T0 + 2 * MINUTE), ys: three }],
    [{ kind: 'bar', n: 3 }, { labels: ['A', 'B', 'C'], ys: three }],
  ];
  const notes = [];
  try {
    for (const [sc, src] of cases) {
      const same = (await svgOf(zdrTypedAsColumns(sc, src))) === (await svgOf(zdrTypedViaPoints(sc, src)));
      notes.push(`${sc.kind}: ${same ? 'the same SVG as its point objects' : "drawn, but its SVG differs from its point objects'"}`);
    }
    return { supported: true, note: notes.join('; ') };
  } catch (error) {
    return { supported: false, note: String(error?.message ?? error).slice(0, 200) };
  }
}

async function svgOf(input) {
  const el = box();
  const lib = zdrLib(null);
  try {
    const { h, drawn } = lib.create(el, input);
    await drawn;
    const text = await h.handle.toSVG();
    lib.destroy(h);
    return text;
  } finally {
    el.remove();
  }
}

// `&memory=1`: every WebAssembly memory the page's modules export or import is
// kept, so the memory pages read their size without knowing the package's
// files (an engine in chunks shares one memory; the service module has its own).
const memories = new Set();
function watchMemories() {
  const keep = (instance, imports) => {
    const values = [...Object.values(instance.exports), ...Object.values(imports ?? {}).flatMap((ns) => Object.values(ns ?? {}))];
    for (const v of values) if (v instanceof WebAssembly.Memory) memories.add(v);
    return instance;
  };
  const { instantiate, instantiateStreaming, Instance } = WebAssembly;
  WebAssembly.instantiate = async (source, imports) => {
    const out = await instantiate.call(WebAssembly, source, imports);
    keep(out.instance ?? out, imports); // a Module gives an Instance, bytes give both
    return out;
  };
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const out = await instantiateStreaming.call(WebAssembly, source, imports);
    keep(out.instance, imports);
    return out;
  };
  // `instanceof WebAssembly.Instance` still holds: a Proxy reads the prototype of its target.
  WebAssembly.Instance = new Proxy(Instance, { construct: (target, args) => keep(Reflect.construct(target, args), args[1]) });
}
const wasmBytes = () => (memories.size ? [...memories].reduce((sum, m) => sum + m.buffer.byteLength, 0) : null);

const LIBS = { zdr: zdrLib(ZDR_TYPED), chartjs, uplot, echarts: echartsLib };

// ---------------------------------------------------------------- measuring

let serial = 0;
function box() {
  const el = document.createElement('div');
  el.className = 'box';
  el.id = `box${++serial}`;
  document.getElementById('stage').appendChild(el);
  return el;
}

/** Reads one pixel of each canvas back: Chromium rasterizes now what it would at paint. */
function rasterize(el) {
  const r0 = now();
  for (const canvas of el.querySelectorAll('canvas')) {
    if (canvas.width > 0 && canvas.height > 0) canvas.getContext('2d').getImageData(0, 0, 1, 1);
  }
  return now() - r0;
}

async function settle() {
  if (typeof gc === 'function') gc();
  await sleep(30);
  await new Promise((ok) => setTimeout(ok, 0)); // start in a fresh task
}

/**
 * One timed user call: `convert()` (the user's conversion), then `call(input)`,
 * which returns { h?, drawn } (drawn: a time, or a promise of one).
 */
async function timed(el, convert, call) {
  await settle();
  let pre = null;
  requestAnimationFrame(() => (pre = now())); // runs before any frame callback the call registers
  if (PROFILE) console.profile('timed');
  const t0 = now();
  const input = convert();
  const tc = now();
  const result = call(input);
  const t1 = now();
  const drawn = await result.drawn;
  const raster = rasterize(el);
  const inFrame = pre !== null && drawn >= pre;
  const shown = inFrame ? now() : await nextFrame();
  if (PROFILE) console.profileEnd('timed');
  return {
    h: result.h,
    convert: tc - t0,
    call: t1 - tc,
    raster,
    busy: (inFrame ? t1 - t0 + (drawn - pre) : drawn - t0) + raster,
    pixels: shown - t0,
  };
}

const strip = ({ h, ...rest }) => rest;

/** The user's data for a scenario, as the page holds it before the call. */
async function userData(name, libName, variant) {
  const sc = SCENARIOS[name];
  if (sc.input === 'card') return (await fetch(sc.url)).json();
  const src = source(sc, variant);
  return sc.input === 'points' ? LIBS[libName].points(sc, src) : src;
}
function converter(name, libName, data) {
  const sc = SCENARIOS[name];
  const lib = LIBS[libName];
  const convert = { points: lib.fromPoints, card: lib.fromCard }[sc.input] ?? lib.fromTyped;
  return () => convert(sc, data);
}

/** One run: the first draw (and for an update scenario, one update after it). */
async function run(name, libName) {
  const sc = SCENARIOS[name];
  if (sc.kind === 'dashboard') return dashboard(libName);
  const lib = LIBS[libName];
  const el = box();
  const data1 = await userData(name, libName, 1);
  const data2 = sc.update ? await userData(name, libName, 2) : null;
  const out = {};
  let h;
  try {
    const first = await timed(el, converter(name, libName, data1), (input) => lib.create(el, input, sc));
    h = first.h;
    out.first = strip(first);
    if (sc.update) {
      await sleep(50);
      out.update = strip(await timed(el, converter(name, libName, data2), (input) => ({ h, drawn: lib.update(h, input, sc) })));
    }
    return out;
  } finally {
    if (h) lib.destroy(h);
    el.remove();
  }
}

/**
 * Zoom frames on the 1M-point line: the line drawn, then `steps` zooms, each a
 * narrower range around the middle (from the whole data to 0.2% of it), one per
 * animation frame, as a drag or a pinch asks for them. Each figure is the main
 * thread's work for one zoomed view, from the frame's start (zdr-embed draws in
 * the frame after the call; a frame callback registered after the call runs
 * right after its draw) or from the call (uPlot's setScale draws at once) to
 * the drawn view, rasterized. Libraries without a built-in zoom are not run.
 */
async function zoomFrames(libName, steps) {
  const name = 'line-1m';
  const sc = SCENARIOS[name];
  const lib = LIBS[libName];
  const el = box();
  const result = lib.create(el, converter(name, libName, await userData(name, libName, 1))(), sc);
  await result.drawn;
  await nextFrame();
  const h = result.h;
  const [lo, hi] = [T0, T0 + (sc.n - 1) * MINUTE];
  const range = (i) => {
    const share = Math.pow(0.002, i / steps);
    const half = ((hi - lo) * share) / 2;
    const mid = (lo + hi) / 2;
    return [mid - half, mid + half];
  };
  const frames = [];
  try {
    for (let i = 1; i <= steps; i++) {
      const [a, b] = range(i);
      if (libName === 'uplot') {
        const drawn = uplot.expect(h);
        const t0 = await nextFrame();
        h.u.setScale('x', { min: a, max: b });
        await drawn;
        rasterize(el);
        frames.push(now() - t0);
      } else {
        await nextFrame();
        h.handle.setView({ x: [a, b] });
        // Registered after the engine's own frame callback: runs right after its draw.
        frames.push(await new Promise((ok) => requestAnimationFrame((start) => { rasterize(el); ok(now() - start); })));
      }
    }
    return frames;
  } finally {
    lib.destroy(h);
    el.remove();
  }
}

/** Draws the scenario's first data set and keeps the chart (memory). */
async function drawKeep(name, libName) {
  const sc = SCENARIOS[name];
  const lib = LIBS[libName];
  const data = [await userData(name, libName, 1), await userData(name, libName, 2)];
  const result = lib.create(box(), converter(name, libName, data[0])(), sc);
  await result.drawn;
  await nextFrame();
  kept = { name, libName, h: result.h, data };
  return wasmBytes();
}

/** `count` updates of the kept chart, alternating its two data sets, each converted anew. */
async function updateKept(count) {
  const { name, libName, h, data } = kept;
  const sc = SCENARIOS[name];
  for (let i = 1; i <= count; i++) {
    await LIBS[libName].update(h, converter(name, libName, data[i % 2])(), sc);
    await nextFrame();
  }
  return wasmBytes();
}
let kept = null;

/** Draws the first data set and leaves it on screen (screenshots). */
async function show(name, libName) {
  const sc = SCENARIOS[name];
  const lib = LIBS[libName];
  const el = box();
  const result = lib.create(el, converter(name, libName, await userData(name, libName, 1))(), sc);
  await result.drawn;
  await nextFrame();
  return el.id;
}

async function frameInterval(count = 31) {
  const times = [];
  for (let i = 0; i < count; i++) times.push(await nextFrame());
  const d = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
  return d[Math.floor(d.length / 2)];
}

/**
 * The first card of a cold page (issue 37): from navigation start (the page's
 * time origin) to the first card's pixels, the library's download, compile and
 * start included (zdr-embed: `init()`, and the engine's fetch and compile either
 * by `preload()`, called first thing, or by the card itself). The card: line-1k.
 */
const COLD_KINDS = ['timeseries'];
async function coldFirstCard(libName, withPreload) {
  const sc = SCENARIOS['line-1k'];
  const lib = LIBS[libName];
  if (libName === 'zdr') {
    zdr = await import('/zdr/zdr_embed.js');
    performance.mark('entry');
    // preload() first thing: the engine is fetched beside the service module.
    // With the kinds the page draws (docs/widget.md): preload() alone would
    // fetch the chunk of every group of kinds, which a line page never draws.
    let preloaded = null;
    if (withPreload) {
      try {
        preloaded = zdr.preload(COLD_KINDS);
      } catch {
        // A package from before issue 37: preload() only once init() has resolved.
      }
    }
    await zdr.default();
    performance.mark('init');
    if (withPreload && !preloaded) preloaded = zdr.preload(COLD_KINDS);
    await preloaded;
    performance.mark('preload');
  } else await Promise.all(SCRIPTS[libName].map(loadScript)); // as a page's <head> would: together
  const loaded = now();
  const el = box();
  let pre = null;
  requestAnimationFrame(() => (pre = now()));
  const { h, drawn } = lib.create(el, lib.fromTyped(sc, source(sc, 1)), sc);
  performance.mark('created');
  const at = await drawn;
  performance.mark('drawn');
  rasterize(el);
  const pixels = pre !== null && at >= pre ? now() : await nextFrame();
  lib.destroy(h);
  return { loaded, pixels };
}

try {
  if (!(LIB in LIBS)) throw new Error(`unknown library ${LIB}`);
  if (params.get('memory') === '1') watchMemories();
  if (params.has('cold')) {
    window.coldResult = await coldFirstCard(LIB, PRELOAD);
    // The runner waits for this line, not by polling the page: a poll is a
    // script run in the page, which would take the main thread mid-load.
    console.info('zdr-bench-cold-done');
  } else if (params.has('probe')) {
    await loadZdr(true);
    window.probeResult = await probeColumnar();
  } else if (LIB === 'zdr') await loadZdr(PRELOAD);
  else for (const src of SCRIPTS[LIB]) await loadScript(src);
  window.bench = {
    SCENARIOS,
    run,
    drawKeep,
    updateKept,
    show,
    frameInterval,
    zoomFrames,
    wasmBytes,
    versions: () => ({ chartjs: window.Chart?.version, echarts: window.echarts?.version }),
  };
  window.benchReady = true;
} catch (error) {
  window.benchError = String(error?.stack ?? error);
  if (params.has('cold')) console.info('zdr-bench-cold-done');
}
