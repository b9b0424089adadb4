// End to end: the two WebAssembly modules of issue 14. A page pays only for
// the mode it uses: the service path (form and postMessage client) is the
// service module alone; the engine (local drawing, the postMessage shell,
// toPNG/toSVG) is fetched the first time a card is drawn in the page, once,
// and shared by every card. Both the npm entry and the drop-in script.
//
// The real zdr-host serves the pages, the packed package and the embed
// endpoint (its CSP applies); headless Chromium; every request is recorded
// with the frame that made it.
//
// It builds nothing: scripts/test.sh builds the package (scripts/build.sh) and
// zdr-host (`cargo build -p zdr-host`) first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launch } from './browser.mjs';
import { startHost, stopHost } from './host.mjs';
import { packPackage, ROOT } from './package.mjs';

const WAIT = { timeout: 20_000 };
const ENGINE_JS = '/node_modules/zdr-embed/pkg/engine/zdr_engine.js';
const ENGINE_WASM = '/node_modules/zdr-embed/pkg/engine/zdr_engine_bg.wasm';
// The engine's chunk loader, and the chunk of the bar cards these pages draw
// (named by its content's hash: crates/engine/src/chunks.rs).
const CHUNK_LOADER = '/node_modules/zdr-embed/pkg/engine/__wasm_split.js';
const chunkOf = (group) => {
  const name = readdirSync(join(ROOT, 'pkg/engine')).find((file) => file.startsWith(`kinds-${group}.`));
  return `/node_modules/zdr-embed/pkg/engine/${name}`;
};
// The engine's other chunks: its interaction (interact) and the postMessage shell (shell).
const partOf = (part) => {
  const name = readdirSync(join(ROOT, 'pkg/engine')).find((file) => file.startsWith(`${part}.`) && file.endsWith('.wasm'));
  return `/node_modules/zdr-embed/pkg/engine/${name}`;
};
const isEngine = (url) => new URL(url).pathname.includes('/engine/');
const BAR = JSON.parse(readFileSync(join(ROOT, 'docs/examples/bar.json'), 'utf8'));
// A value that is not a number: the engine refuses it (data[1].y).
const BAD = { viz_config: { title: 'Bad', viz_component_type: 'bar' }, data: [{ x: 'a', y: 1 }, { x: 'b', y: 'abc' }] };

const HEAD = `<meta charset="utf-8"><link rel="icon" href="data:,">
<style>body { margin: 0; padding: 20px; font: 14px sans-serif } .card { width: 480px; height: 300px }</style>`;
const IMPORT_MAP = `<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>`;
const CARDS = Array.from({ length: 10 }, (_, i) => `<div class="card" id="c${i}"></div>`).join('');

// The page's part of each test, run in the page as window.run(); it records
// onLoad and onError on window.loads / window.errors.
const RECORD = `
  window.loads = [];
  window.errors = [];
  const record = (id) => ({
    onLoad: (element) => window.loads.push({ id, tag: element.tagName }),
    onError: (error) => window.errors.push({ id, isError: error instanceof Error, message: error.message, code: error.code }),
  });`;

// One example of each of the nineteen kinds (docs/examples/), each with the
// group of kinds whose chunk draws it.
const GROUP_OF = {
  bar: 'bars', grouped_bar: 'bars', stacked_bar: 'bars', waterfall: 'bars', pie: 'pie',
  choropleth: 'maps', map: 'maps', bubble_map: 'maps', timeseries: 'lines', area_timeseries: 'lines',
  stacked_area_timeseries: 'lines', scatter: 'scatter', table: 'table', heatmap: 'heatmap',
  timeline: 'timeline', boxplot: 'boxplot', histogram: 'histogram', treemap: 'treemap', top_level_metric: 'metric',
};
const EXAMPLES = readdirSync(join(ROOT, 'docs/examples'))
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(join(ROOT, 'docs/examples', file), 'utf8')))
  .filter((data) => GROUP_OF[data.viz_config?.viz_component_type])
  .filter((data, i, all) => all.findIndex((d) => d.viz_config.viz_component_type === data.viz_config.viz_component_type) === i);

function writeSite(dir) {
  const card = JSON.stringify(BAR);
  const bad = JSON.stringify(BAD);
  // Service mode, both embed modes, through the package's entry.
  writeFileSync(join(dir, 'service.html'), `<!doctype html><html lang="en"><head>${HEAD}${IMPORT_MAP}</head>
<body>${CARDS}<script type="module">
  import init, { render } from 'zdr-embed';
  await init();${RECORD}
  render({ containerId: 'c0', serviceUrl: location.origin, cardId: 'form-card', visualizationData: ${card}, ...record('form') });
  render({ containerId: 'c1', serviceUrl: location.origin, cardId: 'pm-card', embedMode: 'postmessage',
           visualizationData: ${card}, ...record('postmessage') });
</script></body></html>`);
  // Service mode through the drop-in script, the spec's usage.
  writeFileSync(join(dir, 'service-dropin.html'), `<!doctype html><html lang="en"><head>${HEAD}</head>
<body>${CARDS}<script src="/node_modules/zdr-embed/pkg/zdr_embed_widget.js"></script>
<script>
  window.loads = [];
  window.errors = [];
  ServiceZDREmbed.render({ containerId: 'c0', serviceUrl: location.origin, cardId: 'form-card',
    visualizationData: ${card},
    onLoad: function (element) { window.loads.push({ tag: element.tagName }); },
    onError: function (error) { window.errors.push({ message: error.message }); } });
</script></body></html>`);
  // Ten local cards at once, before the engine is there.
  writeFileSync(join(dir, 'ten.html'), `<!doctype html><html lang="en"><head>${HEAD}${IMPORT_MAP}</head>
<body>${CARDS}<script type="module">
  import init, { render } from 'zdr-embed';
  await init();${RECORD}
  for (let i = 0; i < 10; i++) {
    const data = { ...${card}, viz_config: { ...${card}.viz_config, title: 'Card ' + i } };
    render({ containerId: 'c' + i, mode: 'local', visualizationData: data, ...record('c' + i) });
  }
  // What holds each card's place while the engine loads.
  const box = (element) => { const r = element.getBoundingClientRect(); return [r.width, r.height]; };
  window.pending = [...document.querySelectorAll('.card')].map((card) => [...card.children].map((child) => child.className + ' ' + box(child)));
  window.box = box;
</script></body></html>`);
  writeFileSync(join(dir, 'ten-dropin.html'), `<!doctype html><html lang="en"><head>${HEAD}</head>
<body>${CARDS}<script src="/node_modules/zdr-embed/pkg/zdr_embed_widget.js"></script>
<script>
  window.loads = [];
  window.errors = [];
  for (var i = 0; i < 10; i++) {
    ServiceZDREmbed.render({ containerId: 'c' + i, mode: 'local', visualizationData: ${card},
      onLoad: function (element) { window.loads.push({ tag: element.tagName }); },
      onError: function (error) { window.errors.push({ message: error.message }); } });
  }
</script></body></html>`);
  // Every kind: first one line card alone, then the other eighteen at once.
  writeFileSync(join(dir, 'kinds.html'), `<!doctype html><html lang="en"><head>${HEAD}${IMPORT_MAP}</head>
<body><div id="cards"></div><script type="module">
  import init, { render } from 'zdr-embed';
  await init();${RECORD}
  const examples = ${JSON.stringify(EXAMPLES)};
  window.examples = examples;
  window.handles = {};
  window.drawKinds = (kinds) => {
    for (const data of examples.filter((d) => kinds.includes(d.viz_config.viz_component_type))) {
      const id = data.viz_config.viz_component_type;
      const div = document.createElement('div');
      div.className = 'card';
      div.id = id;
      document.getElementById('cards').append(div);
      window.handles[id] = render({ containerId: id, mode: 'local', visualizationData: data, ...record(id) });
    }
  };
  window.ready = true;
</script></body></html>`);
  // preload() with kinds: only those kinds' chunks; a wrong name rejects.
  writeFileSync(join(dir, 'preload-kinds.html'), `<!doctype html><html lang="en"><head>${HEAD}${IMPORT_MAP}</head>
<body>${CARDS}<script type="module">
  import init, { render, preload } from 'zdr-embed';
  await init();${RECORD}
  window.wrong = await preload(['timeseries', 'barr']).then(() => 'resolved',
    (error) => ({ isError: error instanceof Error, message: error.message }));
  window.tooMany = await preload(Array(65).fill('bar')).then(() => 'resolved',
    (error) => ({ isError: error instanceof Error, message: error.message }));
  window.preloaded = await preload(['timeseries']).then(() => 'resolved', (error) => 'rejected: ' + error.message);
  window.done = true;
</script></body></html>`);
  // Bad data in local mode: before the engine, onError; after preload(), a throw.
  writeFileSync(join(dir, 'preload.html'), `<!doctype html><html lang="en"><head>${HEAD}${IMPORT_MAP}</head>
<body>${CARDS}<script type="module">
  import init, { render, preload } from 'zdr-embed';
  await init();${RECORD}
  const caught = (f) => { try { f(); return null; } catch (error) {
    return { isError: error instanceof Error, message: error.message, code: error.code }; } };
  window.before = caught(() => render({ containerId: 'c0', mode: 'local', visualizationData: ${bad}, ...record('before') }));
  window.preloaded = await preload().then(() => 'resolved', (error) => 'rejected: ' + error.message);
  window.after = caught(() => render({ containerId: 'c1', mode: 'local', visualizationData: ${bad}, ...record('after') }));
  window.good = caught(() => render({ containerId: 'c2', mode: 'local', visualizationData: ${card}, ...record('good') }));
  window.done = true;
</script></body></html>`);
}

let work, packageDir, host, browser;

before(async () => {
  for (const file of ['pkg/zdr_embed.js', 'pkg/service/zdr_embed_service_bg.wasm', 'pkg/engine/zdr_engine_bg.wasm']) {
    assert.ok(existsSync(join(ROOT, file)), `${file} is missing: run scripts/build.sh first`);
  }
  work = mkdtempSync(join(tmpdir(), 'zdr-split-e2e-'));
  packageDir = packPackage(work);
  const site = join(work, 'site');
  mkdirSync(site);
  writeSite(site);
  host = await startHost(['--www', site, '--package', packageDir]);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  const stopped = await stopHost(host);
  if (work) rmSync(work, { recursive: true, force: true });
  if (stopped) assert.deepEqual(stopped, { code: 0, signal: null }, 'zdr-host exits with 0 on SIGTERM');
});

/** Opens `path` on the host, recording every request with the frame that made it. */
async function open(path) {
  const context = await browser.newContext({ deviceScaleFactor: 1 });
  const page = await context.newPage();
  const requests = [];
  const consoleErrors = [];
  page.on('request', (request) => {
    const frame = request.frame();
    requests.push({ url: request.url(), main: frame === page.mainFrame() });
  });
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(`${host.origin}/${path}`);
  return { context, page, requests, consoleErrors };
}

/** Waits for `predicate` in the page; on timeout, says what the page saw. */
async function until(opened, predicate) {
  try {
    await opened.page.waitForFunction(predicate, null, WAIT);
  } catch (error) {
    const state = await opened.page.evaluate(() => ({ loads: window.loads, errors: window.errors })).catch(() => null);
    throw new Error(`${error.message}\npage: ${JSON.stringify(state)}\nconsole: ${opened.consoleErrors.join('\n')}\n` +
      `requests: ${opened.requests.map((r) => r.url).join('\n')}`);
  }
}

const paths = (list) => list.map((r) => new URL(r.url).pathname);

test('a service-mode page (form and postMessage) requests no engine file; only the shell frame loads it', async () => {
  const opened = await open('service.html');
  const { context, page, requests, consoleErrors } = opened;
  await until(opened, () => window.loads?.length === 2);
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  assert.deepEqual((await page.evaluate(() => window.loads.map((l) => `${l.id} ${l.tag}`))).sort(), [
    'form IFRAME',
    'postmessage IFRAME',
  ]);
  const own = requests.filter((r) => r.main);
  assert.deepEqual(paths(own.filter((r) => isEngine(r.url))), [], 'the page itself fetched no engine file');
  assert.ok(paths(own).includes('/node_modules/zdr-embed/pkg/service/zdr_embed_service_bg.wasm'), paths(own).join('\n'));
  // The postMessage shell is the service's page, not this one: it draws,
  // so it loads the engine, and nothing else of the package.
  const shell = paths(requests.filter((r) => !r.main && new URL(r.url).pathname !== '/embed/form-card/'));
  assert.deepEqual(shell.sort(), ['/embed/pm-card/', ENGINE_JS, ENGINE_WASM, CHUNK_LOADER, chunkOf('bars'), partOf('shell'), '/zdr-shell/v1/shell.js'].sort());
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test("the postMessage shell imports the engine the host's --engine-url names, and draws with it", async () => {
  // The engine copied to a folder of the demo site, as an operator might
  // serve it; the host names it in the shell page.
  const site = join(work, 'site');
  mkdirSync(join(site, 'static/zdr'), { recursive: true });
  // The engine is its folder: the module, its WebAssembly, its chunk loader and chunks.
  for (const file of readdirSync(join(ROOT, 'pkg/engine')).filter((f) => /\.(js|wasm)$/.test(f))) {
    copyFileSync(join(ROOT, 'pkg/engine', file), join(site, 'static/zdr', file));
  }
  const other = await startHost(['--www', site, '--package', packageDir, '--engine-url', '/static/zdr/zdr_engine.js']);
  try {
    const context = await browser.newContext({ deviceScaleFactor: 1 });
    const page = await context.newPage();
    const requests = [];
    const consoleErrors = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    await page.goto(`${other.origin}/service.html`);
    await page.waitForFunction(() => window.loads?.length === 2, null, WAIT);
    assert.deepEqual(await page.evaluate(() => window.errors), []);
    const engine = requests.filter((path) => path.startsWith('/static/zdr/'));
    const bars = chunkOf('bars').replace('/node_modules/zdr-embed/pkg/engine/', '/static/zdr/');
    const shellChunk = partOf('shell').replace('/node_modules/zdr-embed/pkg/engine/', '/static/zdr/');
    assert.deepEqual(engine.sort(), ['/static/zdr/__wasm_split.js', bars, shellChunk, '/static/zdr/zdr_engine.js', '/static/zdr/zdr_engine_bg.wasm'].sort());
    const shell = page.frames().find((frame) => frame.url().includes('/embed/pm-card/'));
    assert.equal(await shell.evaluate(() => document.documentElement.dataset.engine), '/static/zdr/zdr_engine.js');
    await shell.waitForFunction(() => document.querySelector('#zdr-chart canvas') !== null, null, WAIT);
    assert.deepEqual(consoleErrors, []);
    await context.close();
  } finally {
    await stopHost(other);
  }
});

test('the drop-in script in service mode requests no engine file', async () => {
  const opened = await open('service-dropin.html');
  const { context, page, requests, consoleErrors } = opened;
  await until(opened, () => window.loads?.length === 1);
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  assert.deepEqual(paths(requests.filter((r) => isEngine(r.url))), []);
  assert.deepEqual(paths(requests).sort(), [
    '/embed/form-card/',
    '/node_modules/zdr-embed/pkg/zdr_embed_widget.js',
    '/service-dropin.html',
  ]);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

for (const [name, path] of [['the package entry', 'ten.html'], ['the drop-in script', 'ten-dropin.html']]) {
  test(`ten local cards through ${name} fetch the engine's .js and .wasm and the bars' chunk once each, and all draw`, async () => {
    const opened = await open(path);
    const { context, page, requests, consoleErrors } = opened;
    await until(opened, () => window.loads?.length === 10);
    assert.deepEqual(await page.evaluate(() => window.errors), []);
    assert.deepEqual(await page.evaluate(() => [...new Set(window.loads.map((l) => l.tag))]), ['CANVAS']);
    assert.equal(await page.locator('canvas').count(), 10);
    if (path === 'ten.html') {
      // While the engine loaded each card's place was held at the size it is
      // drawn at (480 wide, the default 600 px high), so the page did not shift.
      assert.deepEqual(await page.evaluate(() => window.pending), Array(10).fill(['zdr-embed-pending 480,600']));
      assert.deepEqual(
        await page.evaluate(() => [...document.querySelectorAll('.card')].map((card) => [...card.children].map((child) => child.className + ' ' + window.box(child)))),
        Array(10).fill(['zdr-embed-local 480,600']),
        'the box is gone and the drawing took its place',
      );
    }
    const engine = paths(requests.filter((r) => isEngine(r.url)));
    assert.deepEqual(engine.sort(), [ENGINE_JS, ENGINE_WASM, CHUNK_LOADER, chunkOf('bars')].sort(), engine.join('\n'));
    assert.deepEqual(consoleErrors, []);
    await context.close();
  });
}

test('before the engine, bad local data reach onError; after preload(), render throws them', async () => {
  const opened = await open('preload.html');
  const { context, page, consoleErrors } = opened;
  await until(opened, () => window.done === true && window.errors.length >= 1);
  assert.equal(await page.evaluate(() => window.before), null, 'render did not throw while the engine was loading');
  assert.equal(await page.evaluate(() => window.preloaded), 'resolved');
  const errors = await page.evaluate(() => window.errors);
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0].id, 'before');
  assert.equal(errors[0].isError, true);
  assert.match(errors[0].message, /data\[1\]\.y/);
  const thrown = await page.evaluate(() => window.after);
  assert.ok(thrown, 'after preload() render throws for bad data');
  assert.equal(thrown.isError, true);
  assert.match(thrown.message, /^render: .*data\[1\]\.y/);
  assert.equal(await page.evaluate(() => window.good), null, 'good data after preload() draw at once');
  await page.waitForFunction(() => window.loads.some((l) => l.id === 'good'), null, WAIT);
  assert.deepEqual(await page.evaluate(() => window.loads.map((l) => l.id)), ['good'], 'no onLoad for bad data');
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('a page drawing all nineteen kinds fetches each chunk once, and only when a card of its group is drawn', async () => {
  const opened = await open('kinds.html');
  const { context, page, requests, consoleErrors } = opened;
  await page.waitForFunction(() => window.ready === true, null, WAIT);
  const chunks = () => paths(requests.filter((r) => /\/kinds-[a-z]+\.[0-9a-f]{12}\.wasm$/.test(r.url)));
  await page.evaluate(() => window.drawKinds(['timeseries']));
  await until(opened, () => window.loads?.length === 1);
  assert.deepEqual(chunks(), [chunkOf('lines')], 'a line card alone: the lines chunk alone');
  const rest = Object.keys(GROUP_OF).filter((kind) => kind !== 'timeseries');
  await page.evaluate((kinds) => window.drawKinds(kinds), rest);
  await until(opened, () => window.loads?.length === 19);
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  assert.deepEqual(await page.evaluate(() => [...new Set(window.loads.map((l) => l.tag))]), ['CANVAS']);
  const groups = [...new Set(Object.values(GROUP_OF))];
  assert.deepEqual(chunks().sort(), groups.map(chunkOf).sort(), 'every chunk once');
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test("a chunk that does not arrive gives its card's onError, and its neighbours draw", async () => {
  const opened = await open('kinds.html');
  const { context, page } = opened;
  await page.route(/\/kinds-pie\.[0-9a-f]{12}\.wasm$/, (route) => route.abort('connectionrefused'));
  await page.waitForFunction(() => window.ready === true, null, WAIT);
  await page.evaluate(() => window.drawKinds(['bar', 'pie', 'timeseries']));
  await until(opened, () => window.loads?.length === 2 && window.errors?.length === 1);
  assert.deepEqual((await page.evaluate(() => window.loads.map((l) => `${l.id} ${l.tag}`))).sort(), ['bar CANVAS', 'timeseries CANVAS']);
  const [error] = await page.evaluate(() => window.errors);
  assert.equal(error.id, 'pie');
  assert.equal(error.isError, true);
  assert.match(error.message, /could not fetch the engine's code for pie cards/);
  // The network is back: new data for the card try again, and it draws.
  await page.unroute(/\/kinds-pie\.[0-9a-f]{12}\.wasm$/);
  await page.evaluate(() => window.handles.pie.update(window.examples.find((d) => d.viz_config.viz_component_type === 'pie')));
  await until(opened, () => window.loads?.length === 3);
  assert.deepEqual((await page.evaluate(() => window.loads.map((l) => `${l.id} ${l.tag}`))).sort(), ['bar CANVAS', 'pie CANVAS', 'timeseries CANVAS']);
  await context.close();
});

test('preload(kinds) fetches the chunks of those kinds only, and rejects a name that is no card type and a list past its bound', async () => {
  const opened = await open('preload-kinds.html');
  const { context, page, requests, consoleErrors } = opened;
  await page.waitForFunction(() => window.done === true, null, WAIT);
  const wrong = await page.evaluate(() => window.wrong);
  assert.equal(wrong.isError, true);
  assert.match(wrong.message, /kinds\[1\] must be a card type/);
  // A list is read up to its bound, not as long as the page makes it.
  const tooMany = await page.evaluate(() => window.tooMany);
  assert.equal(tooMany.isError, true);
  assert.match(tooMany.message, /kinds has 65 entries; at most 64 are read/);
  assert.equal(await page.evaluate(() => window.preloaded), 'resolved');
  const chunks = paths(requests.filter((r) => /\/kinds-[a-z]+\.[0-9a-f]{12}\.wasm$/.test(r.url)));
  assert.deepEqual(chunks, [chunkOf('lines')]);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test("a local card's chunk is fetched beside the core, not after it: its kind is read when render is called", async () => {
  const context = await browser.newContext({ deviceScaleFactor: 1 });
  const page = await context.newPage();
  // The core is held until the card's chunk has been asked for (or 5 s): a
  // chunk fetched only once the core had read the card would come after it.
  let chunkAsked;
  const asked = new Promise((resolve) => (chunkAsked = resolve));
  const order = [];
  await page.route(/\/kinds-[a-z]+\.[0-9a-f]{12}\.wasm$/, (route) => {
    order.push(new URL(route.request().url()).pathname);
    chunkAsked();
    return route.continue();
  });
  await page.route(/\/zdr_engine_bg\.wasm$/, async (route) => {
    const held = await Promise.race([asked.then(() => 'chunk first'), new Promise((r) => setTimeout(() => r('timed out'), 5_000))]);
    order.push(`core released: ${held}`);
    return route.continue();
  });
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${host.origin}/kinds.html`);
  await page.waitForFunction(() => window.ready === true, null, WAIT);
  await page.evaluate(() => window.drawKinds(['timeseries']));
  await page.waitForFunction(() => window.loads?.length === 1, null, WAIT);
  assert.deepEqual(order, [chunkOf('lines'), 'core released: chunk first']);
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  assert.deepEqual(errors, []);
  await context.close();
});

/** The line card's tooltip as shown now: its lines, or null while hidden. */
const lineTooltip = (page) => page.evaluate(() => {
  const tip = document.querySelector('#timeseries .zdr-embed-tooltip');
  return tip && getComputedStyle(tip).display !== 'none' ? [...tip.children].map((line) => line.textContent) : null;
});
const INTERACT = /\/interact\.[0-9a-f]{12}\.wasm$/;

/** kinds.html with one card of `kind` drawn, without preload(): the engine's core and the kind's chunk only. */
async function drawnAlone(kind) {
  const opened = await open('kinds.html');
  await opened.page.waitForFunction(() => window.ready === true, null, WAIT);
  await opened.page.evaluate((k) => window.drawKinds([k]), kind);
  await until(opened, () => window.loads?.length === 1);
  return opened;
}

/** Waits until the line card's tooltip shows. */
const lineTooltipShows = (page) => page.waitForFunction(() => {
  const tip = document.querySelector('#timeseries .zdr-embed-tooltip');
  return getComputedStyle(tip).display !== 'none';
}, null, WAIT);

test('a card never touched downloads no interaction code; the first hover fetches it once, and the tooltip shows where the pointer is', async () => {
  const { context, page, requests, consoleErrors } = await drawnAlone('timeseries');
  // Its chrome is there without the code: the tooltip's element, the one tab stop, the legend's buttons.
  await page.waitForFunction(() => document.querySelector('#timeseries .zdr-embed-legend button') !== null, null, WAIT);
  assert.deepEqual(await page.evaluate(() => ({
    tooltip: document.querySelectorAll('#timeseries .zdr-embed-tooltip').length,
    tabIndex: document.querySelector('#timeseries canvas').tabIndex,
  })), { tooltip: 1, tabIndex: 0 });
  await page.waitForTimeout(500);
  const interact = () => paths(requests.filter((r) => INTERACT.test(r.url)));
  assert.deepEqual(interact(), [], 'drawn and never touched: no interaction code');
  assert.equal(await lineTooltip(page), null);

  // One move onto the card, and the pointer stays: its tooltip once the code is here.
  const box = await page.locator('#timeseries canvas').boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  await lineTooltipShows(page);
  const shown = await lineTooltip(page);
  assert.ok(shown.length >= 2 && /\d/.test(shown[1]), `a date and its values: ${shown}`);
  for (let x = 0.2; x < 0.9; x += 0.1) await page.mouse.move(box.x + box.width * x, box.y + box.height * 0.5);
  assert.deepEqual(interact(), [partOf('interact')], 'fetched once');
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('an interaction chunk that does not arrive leaves the card drawn, reports nothing to onError, and the next hover tries again', async () => {
  const opened = await open('kinds.html');
  const { context, page } = opened;
  let blocked = 0;
  await page.route(INTERACT, (route) => {
    blocked += 1;
    return route.abort('connectionrefused');
  });
  await page.waitForFunction(() => window.ready === true, null, WAIT);
  await page.evaluate(() => window.drawKinds(['timeseries']));
  await until(opened, () => window.loads?.length === 1);
  const box = await page.locator('#timeseries canvas').boundingBox();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  for (let i = 0; i < 50 && blocked === 0; i++) await page.waitForTimeout(50);
  assert.equal(blocked, 1, 'the hover asked for the code');
  await page.waitForTimeout(300);
  assert.equal(await lineTooltip(page), null, 'no tooltip without the code');
  assert.deepEqual(await page.evaluate(() => ({
    errors: window.errors,
    loads: window.loads.length,
    canvas: document.querySelector('#timeseries canvas').width > 0,
    table: document.querySelectorAll('#timeseries table.zdr-embed-data tbody tr').length > 0,
  })), { errors: [], loads: 1, canvas: true, table: true }, 'drawn and readable, and no onError');

  // The network is back: the pointer leaves and comes back, and the code comes with it.
  await page.unroute(INTERACT);
  await page.mouse.move(5, 5);
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
  await lineTooltipShows(page);
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  await context.close();
});

test('setView on a card never touched zooms it at once and fetches the interaction for its reset button', async () => {
  const { context, page, requests, consoleErrors } = await drawnAlone('timeseries');
  await page.waitForTimeout(300);
  assert.deepEqual(paths(requests.filter((r) => INTERACT.test(r.url))), []);
  await page.evaluate(() => window.handles.timeseries.setView({ x: ['2025-02-01', '2025-03-01'] }));
  await page.waitForFunction(() => {
    const reset = document.querySelector('#timeseries .zdr-embed-reset');
    return reset && getComputedStyle(reset).display !== 'none';
  }, null, WAIT);
  assert.deepEqual(paths(requests.filter((r) => INTERACT.test(r.url))), [partOf('interact')]);
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('focusing a card never touched fetches the interaction, and the arrow keys walk it once it is here', async () => {
  const { context, page, requests, consoleErrors } = await drawnAlone('bar');
  await page.waitForTimeout(300);
  const interact = () => paths(requests.filter((r) => INTERACT.test(r.url)));
  assert.deepEqual(interact(), []);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'CANVAS', 'one Tab reaches the card');
  for (let i = 0; i < 100 && interact().length === 0; i++) await page.waitForTimeout(20);
  assert.deepEqual(interact(), [partOf('interact')], 'the focus asked for the code');
  // A key pressed before the code arrived may be dropped (docs/widget.md); one after it walks.
  await page.waitForFunction(() => document.querySelector('#bar .zdr-embed-tooltip') !== null, null, WAIT);
  let tip = null;
  for (let i = 0; i < 50 && !tip; i++) {
    await page.keyboard.press('Home');
    tip = await page.evaluate(() => {
      const t = document.querySelector('#bar .zdr-embed-tooltip');
      return getComputedStyle(t).display !== 'none' ? t.textContent : null;
    });
    if (!tip) await page.waitForTimeout(50);
  }
  const first = BAR.data[0];
  assert.ok(tip?.includes(String(first.x)), `Home shows the first bar's tooltip: ${tip}`);
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('cards rendered together draw in one batch when their chunks arrive at different times', async () => {
  const opened = await open('kinds.html');
  const { context, page, consoleErrors } = opened;
  // The pie's chunk comes 300 ms after the others.
  await page.route(/\/kinds-pie\.[0-9a-f]{12}\.wasm$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return route.continue();
  });
  await page.waitForFunction(() => window.ready === true, null, WAIT);
  // Each onLoad notes the task it runs in: a number that moves on once per task.
  await page.evaluate(() => {
    window.task = 0;
    window.tasks = {};
    window.drawKinds(['bar', 'timeseries', 'pie']);
    const tick = () => setTimeout(() => { window.task += 1; if (window.loads.length < 3) tick(); }, 0);
    tick();
    const push = window.loads.push.bind(window.loads);
    window.loads.push = (entry) => { window.tasks[entry.id] = window.task; return push(entry); };
  });
  await until(opened, () => window.loads?.length === 3);
  const tasks = await page.evaluate(() => window.tasks);
  assert.equal(new Set(Object.values(tasks)).size, 1, `every onLoad in one task: ${JSON.stringify(tasks)}`);
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
