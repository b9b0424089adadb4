// End to end: local mode's column path (issue 15) draws exactly what the JSON
// text path draws. The engine module of the packed package is handed each
// document twice, as the page's object (read as columns by js/columns.js and
// Chart::from_columns where it can) and as its JSON text (typed arrays written
// as arrays), and the two toSVG() must be byte for byte the same, or both
// must refuse with the same message. Then the widget itself: typed arrays in
// local, form and postMessage modes, against the real zdr-host.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { launch } from './browser.mjs';
import { hostSite, stopHost } from './host.mjs';
import { ROOT } from './package.mjs';
import { columnsOf } from '../../crates/engine/js/columns.js';

// zdr_chart::reduce::KEPT_COLUMNS, which the engine passes to columnsOf.
const KEPT_COLUMNS = Number(readFileSync(join(ROOT, 'crates/chart/src/reduce.rs'), 'utf8')
  .match(/pub const KEPT_COLUMNS: usize = (\d+);/)[1]);

const WAIT = { timeout: 20_000 };
const EXAMPLES = join(ROOT, 'docs/examples');

let work, host, browser, page, context;

before(async () => {
  ({ work, host } = await hostSite('zdr-columns-e2e-', {
    'columns.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>body { margin: 0 } .box { width: 640px; height: 400px }</style>
<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>
</head><body><script type="module">
  import initEngine, { mountLocal } from '/node_modules/zdr-embed/pkg/engine/zdr_engine.js';
  import init, { render, preload } from 'zdr-embed';
  const engine = await initEngine();
  window.engineMemory = () => engine.memory.buffer.byteLength;
  window.mountLocal = mountLocal;
  await init();
  await preload();
  const box = () => { const el = document.createElement('div'); el.className = 'box'; document.body.append(el); return el; };
  const svgOf = (data) => {
    const el = box();
    try {
      const drawing = mountLocal(el, { data, width: '640px', height: '400px', darkMode: false });
      const svg = drawing.toSVG();
      drawing.destroy();
      return { svg };
    } catch (error) {
      return { error: String(error.message), code: error.code };
    } finally {
      el.remove();
    }
  };
  // JSON text as a page would write it, typed arrays as arrays.
  const text = (doc) => JSON.stringify(doc, (key, value) => ArrayBuffer.isView(value) ? Array.from(value) : value);
  window.both = (doc) => ({ object: svgOf(doc), text: svgOf(text(doc)) });
  window.svgOf = svgOf;
  window.render = render;
  window.ready = true;
</script></body></html>`,
  }));
  browser = await launch();
  context = await browser.newContext({ deviceScaleFactor: 1, viewport: { width: 800, height: 600 } });
  page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(`${host.origin}/columns.html`);
  await page.waitForFunction(() => window.ready === true, null, WAIT);
});

after(async () => {
  await context?.close();
  await browser?.close();
  await stopHost(host);
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Draws `source` (a function of nothing, run in the page) both ways and compares. */
async function same(source, label) {
  const { object, text } = await page.evaluate(`window.both((${source})())`);
  assert.deepEqual(object, text, label);
  return object;
}

test('every example draws the same as an object and as JSON text', async () => {
  const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 13);
  for (const file of files) {
    const json = readFileSync(join(EXAMPLES, file), 'utf8');
    const drawn = await same(`() => (${json})`, file);
    assert.ok(drawn.svg?.startsWith('<svg'), `${file}: ${JSON.stringify(drawn).slice(0, 200)}`);
  }
});

test('typed arrays, epoch ms, series and point objects: the same SVG both ways', async () => {
  const cases = {
    'points, ISO minutes': `() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries' },
      data: Array.from({ length: 500 }, (_, i) => ({ x: new Date(Date.UTC(2024, 0, 1) + i * 60000).toISOString().slice(0, 16), y: Math.sin(i / 20) })) })`,
    'points, days, gaps and missing y': `() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries' },
      data: [{ x: '2024-01-03', y: 3 }, { x: '2024-01-01', y: null }, { x: '2024-01-02' }, { x: '2024-01-05', y: NaN }, { x: '2024-01-04', y: -0 }] })`,
    'points, years as numbers': `() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries' },
      data: [{ x: 2020, y: 1 }, { x: 2022, y: 4 }, { x: 2021, y: 2 }] })`,
    'columns, epoch ms Float64Array': `() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries', x_time: 'epoch_ms', units: 'kWh' },
      data: { x: Float64Array.from({ length: 2000 }, (_, i) => Date.UTC(2024, 5, 1) + i * 3.6e6), y: Float64Array.from({ length: 2000 }, (_, i) => (i % 97) - 40) } })`,
    'columns, Float32Array and Int32Array': `() => ({ viz_config: { title: 'T', viz_component_type: 'scatter' },
      data: { x: Float32Array.of(1.5, 2.25, -0, 3), y: Int32Array.of(4, -2, 7, 0) } })`,
    'columns with NaN and Infinity': `() => ({ viz_config: { title: 'T', viz_component_type: 'scatter' },
      data: { x: Float64Array.of(1, NaN, 3, 4), y: Float64Array.of(1, 2, Infinity, 5) } })`,
    'series of typed arrays, named and not': `() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries', x_time: 'epoch_ms' },
      data: { series: [
        { name: 'a', x: Float64Array.of(0, 8.64e7, 1.728e8), y: Float64Array.of(1, 2, 3) },
        { x: Float64Array.of(0, 8.64e7), y: Float64Array.of(3, 1) },
        { name: '', points: [{ x: 0, y: 2 }, { x: 8.64e7, y: 5 }] }] } })`,
    'series with date strings as arrays': `() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries' },
      data: { series: [{ name: 'Sales', x: ['2024-01', '2024-02', '2024-03'], y: [1, null, 3] }] } })`,
    'scatter points with numeric strings': `() => ({ viz_config: { title: 'T', viz_component_type: 'scatter' },
      data: [{ x: ' 1.5', y: 2 }, { x: '3', y: 4 }, { x: null, y: 1 }] })`,
    'an area of points, days, with a gap': `() => ({ viz_config: { title: 'T', viz_component_type: 'area_timeseries' },
      data: [{ x: '2024-01-03', y: 3 }, { x: '2024-01-01', y: 5 }, { x: '2024-01-02', y: null }, { x: '2024-01-04', y: 4 }] })`,
    'a stack of typed arrays whose dates differ': `() => ({ viz_config: { title: 'T', viz_component_type: 'stacked_area_timeseries', x_time: 'epoch_ms', normalize: true },
      data: { series: [
        { name: 'a', x: Float64Array.of(0, 8.64e7, 1.728e8), y: Float64Array.of(1, 2, 3) },
        { name: 'b', x: Float64Array.of(8.64e7, 2.592e8), y: Float64Array.of(3, 1) }] } })`,
    'empty data': `() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries' }, data: [] })`,
    'extra keys are ignored': `() => ({ viz_config: { title: 'T', viz_component_type: 'scatter' }, other: 1,
      data: [{ x: 1, y: 2, label: 'a' }, { x: 2, y: 3, size: 9 }] })`,
  };
  for (const [label, source] of Object.entries(cases)) {
    const drawn = await same(source, label);
    assert.ok(drawn.svg?.startsWith('<svg'), `${label}: ${JSON.stringify(drawn).slice(0, 300)}`);
  }
});

test('refusals carry the same message both ways, with the page\'s own JSON path', async () => {
  const cases = {
    'a bad date': [`() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries' }, data: [{ x: '2024-01-01', y: 1 }, { x: '2024-13-01', y: 2 }] })`, 'data[1].x'],
    'a newline inside a date': [`() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries' }, data: [{ x: '2024-01-01\\n2024-01-02', y: 1 }] })`, 'data[0].x'],
    'x strings and numbers mixed': [`() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries' }, data: [{ x: '2024-01-01', y: 1 }, { x: 2025, y: 2 }] })`, null],
    'a string y': [`() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries' }, data: [{ x: '2024', y: 'high' }] })`, 'data[0].y'],
    'a null x in a timeseries': [`() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries' }, data: [{ x: null, y: 1 }] })`, 'data[0].x'],
    'columns of unequal length': [`() => ({ viz_config: { title: 'T', viz_component_type: 'scatter' }, data: { x: Float64Array.of(1, 2), y: Float64Array.of(1) } })`, 'data'],
    'NaN x in epoch ms': [`() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries', x_time: 'epoch_ms' }, data: { x: Float64Array.of(0, NaN), y: Float64Array.of(1, 2) } })`, 'data.x[1]'],
    'past the series cap (201 series)': [`() => ({ viz_config: { title: 'T', viz_component_type: 'scatter' }, data: { series: Array.from({ length: 201 }, () => ({ x: Float64Array.of(1), y: Float64Array.of(2) })) } })`, 'data.series: a card of 201 series'],
    'a negative value in a stack': [`() => ({ viz_config: { title: 'T', viz_component_type: 'stacked_area_timeseries' }, data: { series: [{ name: 'a', x: ['2024', '2025'], y: [1, -2] }] } })`, 'data: series 1 ("a") is -2 on 2025'],
    'a bad viz_config': [`() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries', colors: 5 }, data: { x: Float64Array.of(0), y: Float64Array.of(1) } })`, 'viz_config.colors'],
  };
  for (const [label, [source, path]] of Object.entries(cases)) {
    const drawn = await same(source, label);
    if (path === null) continue; // may draw or refuse; only the agreement counts
    assert.equal(drawn.code, 'invalid_data', `${label}: ${JSON.stringify(drawn).slice(0, 300)}`);
    assert.ok(drawn.error.startsWith(path), `${label}: ${drawn.error}`);
  }
  // At the cap, the column path draws it.
  const atCap = await same(`() => ({ viz_config: { title: 'T', viz_component_type: 'scatter' }, data: { series: Array.from({ length: 200 }, (_, i) => ({ x: Float64Array.of(i), y: Float64Array.of(i) })) } })`, '200 series');
  assert.ok(atCap.svg?.startsWith('<svg'), JSON.stringify(atCap).slice(0, 200));
  const big = await page.evaluate(`window.svgOf({ viz_config: { title: 'T', viz_component_type: 'scatter' }, data: { x: BigInt64Array.of(1n), y: Float64Array.of(1) } })`);
  assert.equal(big.code, 'not_serialisable');
  assert.match(big.error, /visualizationData\.data\.x is a BigInt64Array/);
});

test('600 random timeseries and scatter documents: the same SVG or the same refusal both ways', async () => {
  // 300 documents from a seeded generator, run in the page (the two paths are the page's).
  const result = await page.evaluate(() => {
    let seed = 15;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pick = (list) => list[Math.floor(random() * list.length)];
    const xs = ['2024-01-01', '2024-02-29', '2023-02-29', '2024-05', '1999', '2024-01-01T12:30:00Z', '2024-01-01 08:00',
      '2024-01-01T00:00+05:30', 2020, 1999.5, -3, 1.7e12, null, undefined, 'abc', ' 42 ', '1e3', '', NaN, Infinity, -0, true];
    const ys = [1, -2.5, 0, -0, 1e300, 3.14159, null, undefined, NaN, Infinity, '5', false, [1]];
    // Date strings only: the page's date reader (isoDates) against the engine's, edges included.
    const dates = ['2024-01-01', '2024-02-29', '2023-02-29', '2024-04-31', '2024-12', '2024-00', '0000', '9999-12-31',
      '0000-01-01', '1600-02-29', '1900-02-29', '2024-01-01T00:00', '2024-01-01t23:59:59z', '2024-01-01 12:00:60',
      '2024-01-01T24:00', '2024-01-01T10:60', '2024-01-01T10:00:00.5', '2024-01-01T10:00Z', '2024-01-01T10:00:00+02:00',
      '2024-1-01', '2024-01-1', ' 2024', '2024-01-01T1:00', '2024-01-01X10:00', '2024-01-01T10:00:5', '２０２４'];
    const failures = [];
    let drawn = 0;
    for (let i = 0; i < 600; i++) {
      const kind = pick(['timeseries', 'scatter']);
      const n = Math.floor(random() * 12);
      const onlyDates = random() < 0.5;
      const points = Array.from({ length: n }, () => {
        const point = {};
        const x = onlyDates ? (random() < 0.9 ? pick(dates.slice(0, 12)) : pick(dates)) : pick(xs);
        const y = onlyDates ? pick([1, 2.5, -3, null]) : pick(ys);
        if (x !== undefined || random() < 0.5) point.x = x;
        if (y !== undefined || random() < 0.5) point.y = y;
        return point;
      });
      const config = { title: 'T', viz_component_type: kind, ...(random() < 0.2 ? { x_time: 'epoch_ms' } : {}) };
      const shape = pick(['points', 'columns', 'typed']);
      const data = shape === 'points' ? points
        : shape === 'columns' ? { x: points.map((p) => p.x ?? null), y: points.map((p) => p.y ?? null) }
        : { x: Float64Array.from(points, (p) => (typeof p.x === 'number' ? p.x : NaN)),
            y: Float64Array.from(points, (p) => (typeof p.y === 'number' ? p.y : NaN)) };
      const doc = { viz_config: config, data };
      const { object, text } = window.both(doc);
      if (object.svg) drawn += 1;
      if (JSON.stringify(object) !== JSON.stringify(text)) {
        failures.push({ doc: JSON.stringify(doc, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)), object, text });
      }
    }
    return { failures, drawn };
  });
  assert.deepEqual(result.failures.slice(0, 3), [], `${result.failures.length} of 600 differ`);
  assert.ok(result.drawn >= 60 && result.drawn <= 540, `${result.drawn} of 600 drawn: both kinds of outcome are tried`);
});

test('the minute form read at fixed places: each field at its edges, the same SVG or refusal both ways', async () => {
  // After a date of 2025-01, as the page's reader keeps the last month seen:
  // year * 16 + month names 2025-01 for 2024-17 too.
  const edges = ['2024-02-29T12:00', '2023-02-29T12:00', '2024-13-01T00:00', '2024-17-01T00:00', '2024-00-01T00:00',
    '2024-01-32T00:00', '2024-01-31T00:00', '2024-01-00T00:00', '2024-12-31 23:59', '2024-01-01t00:00',
    '2024-01-01T24:00', '2024-01-01T23:60', '2024-1a-01T00:00', '2024-01-01T23:5/', '2024/01/01T00:00',
    '0000-01-01T00:00', '9999-12-31T23:59', '2024-01-01X00:00'];
  const result = await page.evaluate((edges) => edges.map((x) => {
    const doc = { viz_config: { title: 'T', viz_component_type: 'timeseries' },
      data: [{ x: '2025-01-15T00:00', y: 1 }, { x, y: 2 }] };
    const { object, text } = window.both(doc);
    return { x, drawn: Boolean(object.svg), same: JSON.stringify(object) === JSON.stringify(text) };
  }), edges);
  assert.deepEqual(result.filter((r) => !r.same), []);
  // Both outcomes are tried: some edges are dates, some are not.
  const drawn = result.filter((r) => r.drawn).map((r) => r.x);
  assert.deepEqual(drawn, ['2024-02-29T12:00', '2024-01-31T00:00', '2024-12-31 23:59', '2024-01-01t00:00',
    '0000-01-01T00:00', '9999-12-31T23:59']);
});

test('long lines kept as they are copied a block at a time draw as the JSON text does', async () => {
  // Past 32,768 points the engine copies a sorted line of dates a block at
  // a time and keeps it for pixels as it goes (zdr_chart's LongLine); the
  // JSON text's reader keeps the whole line (reduce::kept_for_pixels). Same
  // SVG or the test fails: gaps and their runs, -0, ties, a zero span, both
  // precisions, ISO strings, more than one block, and lines copied whole
  // (out of order).
  const line = (n, { step = 60_000, gaps = 0, seed = 1, start = Date.UTC(2024, 0, 1), ties = false } = {}) => `(() => {
    let s = ${seed};
    const random = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
    const x = new Float64Array(${n});
    const y = new Float64Array(${n});
    let v = 0;
    for (let i = 0; i < ${n}; i++) {
      x[i] = ${start} + ${ties ? 'Math.floor(i / 3)' : 'i'} * ${step};
      v += random() - 0.5;
      y[i] = random() < ${gaps} ? (random() < 0.5 ? NaN : Infinity) : (random() < 0.01 ? -0 : v);
    }
    return { x, y };
  })()`;
  const epoch = (data) => `() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries', x_time: 'epoch_ms' }, data: ${data} })`;
  const cases = {
    'epoch ms, 300k minutes': epoch(line(300_000)),
    'epoch ms, 270k days with gaps': epoch(line(270_000, { step: 86_400_000, gaps: 0.003, seed: 7 })),
    'epoch ms, 270k with gaps everywhere': epoch(line(270_000, { gaps: 0.3, seed: 23 })),
    'epoch ms, 270k, a tie every three points and rare gaps': epoch(line(270_000, { ties: true, gaps: 0.001, seed: 3 })),
    'epoch ms, one instant 270k times': epoch(line(270_000, { step: 0, seed: 5 })),
    'epoch ms, three blocks less one point': epoch(line(3 * 32_768 - 1, { seed: 9 })),
    'epoch ms, 40k with gaps': epoch(line(40_000, { seed: 19, gaps: 0.05 })),
    'epoch ms, 32,768 (copied whole)': epoch(line(32_768, { seed: 21 })),
    'epoch ms, out of order (copied whole)': epoch(`(() => { const d = ${line(270_000, { seed: 11 })}; [d.x[10], d.x[20]] = [d.x[20], d.x[10]]; return d; })()`),
    'two series, one long and one short': epoch(`{ series: [{ name: 'long', ...${line(270_000, { seed: 13, gaps: 0.01 })} }, { name: 'short', ...${line(500, { seed: 17 })} }] }`),
    'ISO minute strings as points, with nulls': `() => ({ viz_config: { title: 'T', viz_component_type: 'timeseries' },
      data: Array.from({ length: 270_000 }, (_, i) => ({ x: new Date(Date.UTC(2023, 6, 1) + i * 60000).toISOString().slice(0, 16), y: i % 1000 === 7 ? null : Math.sin(i / 300) * 100 })) })`,
  };
  // Epoch milliseconds are marked for the engine, and a long line's are
  // left to it to check (js/columns.js, read in Node).
  for (const [label, source] of Object.entries(cases)) {
    const [, series] = columnsOf((0, eval)(`(${source})`)(), 200, KEPT_COLUMNS);
    assert.equal(series[0][4] === true, !label.startsWith('ISO'), `${label}: marked epoch ms`);
  }
  for (const [label, source] of Object.entries(cases)) {
    const drawn = await same(source, label);
    assert.ok(drawn.svg?.startsWith('<svg'), `${label}: ${JSON.stringify(drawn).slice(0, 300)}`);
  }
});

test('the widget: typed arrays draw in local mode and post as JSON arrays in form and postMessage modes', async () => {
  const outcomes = await page.evaluate(async (service) => {
    const doc = () => ({
      viz_config: { viz_component_type: 'timeseries', x_time: 'epoch_ms', title: 'Typed' },
      data: { x: Float64Array.of(Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 2), Date.UTC(2024, 0, 3)), y: Float32Array.of(1, 3, 2) },
    });
    const one = (options) => new Promise((ok) => {
      const el = document.createElement('div');
      el.id = `w${Math.random().toString(36).slice(2)}`;
      el.className = 'box';
      document.body.append(el);
      const handle = window.render({ containerId: el.id, cardId: 'typed', serviceUrl: service, visualizationData: doc(),
        width: '640px', height: '400px', ...options,
        onLoad: (element) => ok({ handle, element }), onError: (error) => ok({ error: String(error.message) }) });
    });
    const local = await one({ mode: 'local' });
    const localSvg = local.handle.toSVG();
    local.handle.update(doc());
    local.handle.destroy();
    const form = await one({ mode: 'service' });
    const formText = form.element?.contentDocument?.documentElement?.outerHTML ?? '';
    form.handle?.destroy();
    const message = await one({ mode: 'service', embedMode: 'postmessage' });
    message.handle?.destroy();
    return { localSvg, formError: form.error, formText, messageError: message.error };
  }, host.origin);
  assert.ok(outcomes.localSvg.includes('Typed'), 'local mode draws the typed arrays');
  assert.equal(outcomes.formError, undefined);
  assert.ok(outcomes.formText.includes('<svg') && outcomes.formText.includes('Typed'), outcomes.formText.slice(0, 300));
  assert.equal(outcomes.messageError, undefined);
});

test('a million points cross into the engine as what pixels show, through 20 updates and a refused one', async () => {
  // A page of its own: the engine's memory never shrinks, so earlier tests' would hide this one's.
  const own = await context.newPage();
  await own.goto(`${host.origin}/columns.html`);
  await own.waitForFunction(() => window.ready === true, null, WAIT);
  const result = await own.evaluate(async () => {
    const N = 1_000_000;
    const MiB = () => window.engineMemory() / 1048576;
    const frame = () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
    const data = (seed) => {
      const x = new Float64Array(N);
      const y = new Float64Array(N);
      for (let i = 0; i < N; i++) {
        x[i] = Date.UTC(2024, 0, 1) + i * 60_000;
        y[i] = Math.sin(i / 5000 + seed);
      }
      return { viz_config: { title: 'Million', viz_component_type: 'timeseries', x_time: 'epoch_ms' }, data: { x, y } };
    };
    const sets = [data(0), data(1)];
    const el = document.createElement('div');
    el.className = 'box';
    document.body.append(el);
    const drawing = window.mountLocal(el, { data: sets[0], width: '640px', height: '400px', darkMode: false });
    await frame();
    const afterDraw = MiB();
    for (let i = 1; i <= 20; i++) {
      drawing.update(sets[i % 2]);
      await frame();
    }
    const afterUpdates = MiB();
    // The spec's point objects with ISO date strings: read in the page, kept as copied.
    const points = Array.from({ length: N }, (_, i) => ({ x: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString().slice(0, 16), y: Math.cos(i / 7000) }));
    drawing.update({ viz_config: { title: 'Million', viz_component_type: 'timeseries' }, data: points });
    await frame();
    const afterPoints = MiB();
    // A refused update (a timestamp that is not a number) leaves the card as it was.
    const before = drawing.toSVG();
    const bad = data(0);
    bad.data.x[500_000] = NaN;
    let refusal;
    try {
      drawing.update(bad);
    } catch (error) {
      refusal = error.message;
    }
    await frame();
    const after = drawing.toSVG();
    drawing.destroy();
    el.remove();
    return { afterDraw, afterUpdates, afterPoints, afterRefusal: MiB(), refusal, same: before === after };
  });
  await own.close();
  // Two columns of a million f64 are 16 MB: less than half of that means
  // they were kept for pixels as they were copied, never whole.
  assert.ok(result.afterDraw < 8, `${result.afterDraw.toFixed(1)} MiB after the draw`);
  assert.equal(result.afterUpdates, result.afterDraw, 'no growth over 20 updates');
  assert.equal(result.afterPoints, result.afterDraw, 'no growth for a million point objects');
  assert.match(result.refusal ?? '', /^data\.x\[500000\]/);
  assert.ok(result.same, 'the refused update left the card as it was');
  console.log(`engine memory: ${result.afterDraw.toFixed(1)} MiB after a 1M-point draw, ${result.afterUpdates.toFixed(1)} after 20 updates, ${result.afterPoints.toFixed(1)} after 1M point objects, ${result.afterRefusal.toFixed(1)} after a refused one (read as JSON text for its error)`);
});
