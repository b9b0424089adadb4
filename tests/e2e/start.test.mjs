// End to end: a clear start (issue 19). The packed package's entry can be
// imported where pages are rendered on a server (Node, no window); a call
// there, or in a browser before `await init()`, throws an Error that says
// what to do, never a TypeError from deep in the glue.
//
// It builds nothing: scripts/test.sh builds the package and zdr-host first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { launch } from './browser.mjs';
import { hostSite, tearDown } from './host.mjs';

const IMPORT_MAP = `<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>`;

let work;
let packageDir;
let host;
let browser;

before(async () => {
  ({ work, packageDir, host } = await hostSite('zdr-start-e2e-', { 'early.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">${IMPORT_MAP}</head>
<body><div id="c" style="width: 480px; height: 300px"></div><script type="module">
  import init, { render, renderMultiple, preload } from 'zdr-embed';
  const caught = (call) => { try { call(); return null; } catch (error) { return { isError: error instanceof Error, message: error.message }; } };
  window.early = { render: caught(() => render({ containerId: 'c', mode: 'local', visualizationData: {} })),
    renderMultiple: caught(() => renderMultiple([])) };
  // preload() before init(): the engine is fetched beside the service module.
  const preloaded = preload();
  window.earlyPreload = preloaded instanceof Promise;
  await init();
  window.initAt = performance.now();
  window.preloaded = await preloaded.then(() => 'resolved', (error) => 'rejected: ' + error.message);
  // As after any preload(): the engine is there, so bad data throw at once.
  window.badThrows = caught(() => render({ containerId: 'c', mode: 'local', visualizationData: { viz_config: { viz_component_type: 'bar' }, data: 7 } }))?.isError === true;
  window.later = await new Promise((ok) => render({ containerId: 'c', mode: 'local',
    visualizationData: { viz_config: { title: 'T', viz_component_type: 'bar' }, data: [{ x: 'a', y: 1 }] },
    onLoad: (element) => ok(element.tagName), onError: (error) => ok(error.message) }));
</script></body></html>`,
  // A local card's first render without preload(): the order of the page's
  // fetch() calls and of the service module's first read of the options.
  'early-fetch.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">${IMPORT_MAP}</head>
<body><div id="c" style="width: 480px; height: 300px"></div><script type="module">
  import init, { render, renderMultiple } from 'zdr-embed';
  await init();
  window.order = [];
  const pageFetch = window.fetch;
  window.fetch = function (input, options) {
    window.order.push('fetch ' + String(input).split('/').pop());
    return pageFetch.call(this, input, options);
  };
  const options = { containerId: 'c', mode: 'local',
    get visualizationData() {
      window.order.push('options read');
      return { viz_config: { title: 'T', viz_component_type: 'bar' }, data: [{ x: 'a', y: 1 }] };
    } };
  const drawn = new Promise((ok) => Object.assign(options, { onLoad: (element) => ok(element.tagName), onError: (error) => ok(error.message) }));
  if (location.search === '?multiple') renderMultiple([options]);
  else render(options);
  window.drawn = await drawn;
</script></body></html>` }));
  browser = await launch();
});

after(() => tearDown({ browser, host, work }));

test('imported on a server (Node, no window or document), the entry and the element module load, and render() says to call it in the browser', async () => {
  assert.equal(typeof globalThis.window, 'undefined');
  assert.equal(typeof globalThis.document, 'undefined');
  const entry = await import(pathToFileURL(join(packageDir, 'pkg/zdr_embed.js')).href);
  assert.deepEqual(Object.keys(entry).sort(), ['EmbedHandle', 'default', 'initSync', 'preload', 'render', 'renderMultiple']);
  // The element's module too: it registers nothing where there are no custom elements.
  await import(pathToFileURL(join(packageDir, 'pkg/zdr_embed_element.js')).href);
  for (const name of ['render', 'renderMultiple', 'preload']) {
    assert.throws(() => entry[name]({}), (error) => {
      assert.ok(error instanceof Error && !(error instanceof TypeError), String(error));
      assert.match(error.message, new RegExp(`^zdr-embed: ${name}\\(\\) draws in a browser page, and there is no document here: call it from code that runs in the browser`));
      return true;
    });
  }
});

test('in a browser, render before `await init()` throws an Error that says to await init(); an early preload() fetches the engine beside the service module; after init, the card draws', async () => {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${host.origin}/early.html`);
  await page.waitForFunction(() => window.later !== undefined, null, { timeout: 20_000 });
  // A download's timing entry is added in a task after its body is read,
  // which may come after the engine has compiled from it.
  // The entry carries the service module's glue: no zdr_embed_service.js.
  const files = ['zdr_embed.js', 'zdr_embed_service_bg.wasm', 'zdr_engine.js', 'zdr_engine_bg.wasm'];
  await page.waitForFunction((names) => names.every((name) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(`/${name}`))), files, { timeout: 10_000 });
  const { early, later, earlyPreload, preloaded, fetched, initAt, badThrows } = await page.evaluate(() => ({
    early: window.early, later: window.later, earlyPreload: window.earlyPreload, preloaded: window.preloaded,
    fetched: performance.getEntriesByType('resource').filter((e) => /\/(zdr_embed\.js|zdr_embed_service[^/]*|zdr_engine[^/]*)$/.test(e.name))
      .map((e) => ({ file: e.name.split('/').pop(), start: e.startTime })),
    initAt: window.initAt, badThrows: window.badThrows }));
  for (const name of ['render', 'renderMultiple']) {
    assert.equal(early[name]?.isError, true, `${name}: ${JSON.stringify(early[name])}`);
    assert.equal(early[name].message,
      `zdr-embed: ${name}() was called before the module was ready: \`await init()\` (the package's default export) first, once per page`);
  }
  // preload() is the one call allowed early: it starts the engine's download
  // at once, beside the service module's, and settles once both are ready.
  assert.equal(earlyPreload, true, 'preload() before init() returns a promise');
  assert.equal(preloaded, 'resolved');
  assert.deepEqual(fetched.map((f) => f.file).sort(), [...files].sort(), `each module and its wasm fetched once: ${JSON.stringify(fetched)}`);
  const at = Object.fromEntries(fetched.map((f) => [f.file, f.start]));
  assert.ok(at['zdr_engine_bg.wasm'] < initAt && at['zdr_engine.js'] < initAt, `the engine was requested before init() resolved: ${JSON.stringify({ at, initAt })}`);
  assert.equal(badThrows, true, 'after the early preload, render throws for bad data');
  assert.equal(later, 'CANVAS');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a local card without preload(): render and renderMultiple ask for the engine before the service module reads the options', async () => {
  for (const query of ['', '?multiple']) {
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${host.origin}/early-fetch.html${query}`);
    await page.waitForFunction(() => window.drawn !== undefined, null, { timeout: 20_000 });
    const { order, drawn } = await page.evaluate(() => ({ order: window.order, drawn: window.drawn }));
    assert.equal(drawn, 'CANVAS', query);
    // The getter runs once: the entry read the mode without running page code.
    // The chunk of the card's kind is fetched once the engine runs, after both.
    assert.deepEqual(order.filter((step) => !step.startsWith('fetch kinds-')), ['fetch zdr_engine_bg.wasm', 'options read'], query);
    // A length the array only claims: refused at its first entry, not walked
    // (nor copied, nor reserved for) to four billion.
    const huge = await page.evaluate(async () => {
      const { renderMultiple } = await import('zdr-embed');
      try {
        renderMultiple(new Array(2 ** 32 - 1));
        return 'no error';
      } catch (error) {
        return { isError: error instanceof Error, message: error.message };
      }
    });
    assert.equal(huge.isError, true, JSON.stringify(huge));
    assert.match(huge.message, /renderMultiple/, huge.message);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('a server that sends the engine\'s .wasm without application/wasm: the entry\'s early compilation gives way to the glue\'s own load, and the card draws', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  let served = 0;
  await page.route('**/zdr_engine_bg.wasm', async (route) => {
    served += 1;
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'application/octet-stream' } });
  });
  await page.goto(`${host.origin}/early.html`);
  await page.waitForFunction(() => window.later !== undefined, null, { timeout: 20_000 });
  const { preloaded, later } = await page.evaluate(() => ({ preloaded: window.preloaded, later: window.later }));
  assert.equal(preloaded, 'resolved');
  assert.equal(later, 'CANVAS', 'the card drew from the engine the glue compiled');
  // The entry's compileStreaming refused the type; the glue fetched the file
  // again and compiled its bytes.
  assert.equal(served, 2, 'the .wasm was asked for twice: by the entry, then by the glue');
  assert.deepEqual(problems, []);
  await context.close();
});
