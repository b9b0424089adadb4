// End to end: the <zdr-embed> element (issue 19), from the packed package,
// served by the real zdr-host, in headless Chromium. The pages carry a
// strict CSP of their own (no inline script, no inline style) and record
// every violation: the element must need none.
//
// It builds nothing: scripts/test.sh builds the package and zdr-host first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { launch } from './browser.mjs';
import { hostSite, tearDown } from './host.mjs';
import { ROOT } from './package.mjs';

const WAIT = { timeout: 20_000 };
const BAR = readFileSync(join(ROOT, 'docs/examples/bar.json'), 'utf8');
const PIE = readFileSync(join(ROOT, 'docs/examples/pie.json'), 'utf8');
const CSP = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; frame-src 'self'; img-src 'self' data:">`;
const HEAD = `<meta charset="utf-8"><link rel="icon" href="data:,">${CSP}`;

// Events and violations, recorded by a script file (inline script is refused here).
const RECORD = `
window.events = [];
window.violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.violatedDirective + ' ' + e.blockedURI));
for (const type of ['zdr-load', 'zdr-error']) {
  document.addEventListener(type, (event) => window.events.push({
    type,
    id: event.composedPath()[0].id,
    tag: event.detail.element?.tagName,
    error: event.detail.error?.message,
    isError: event.detail.error instanceof Error,
    bubbles: event.bubbles,
    composed: event.composed,
  }));
}
`;

let work;
let host;
let browser;

before(async () => {
  assert.ok(existsSync(join(ROOT, 'pkg/zdr_embed_element.js')), 'pkg/ is missing: run scripts/build.sh first');
  ({ work, host } = await hostSite('zdr-element-e2e-', {
    'record.js': RECORD,
    'module.js': `import '/node_modules/zdr-embed/pkg/zdr_embed_element.js';
// A component of the page's own with a shadow root, a card inside it.
class CardPanel extends HTMLElement {
  connectedCallback() {
    const inner = document.createElement('zdr-embed');
    inner.id = 'inner';
    inner.setAttribute('mode', 'local');
    inner.setAttribute('height', '240px');
    inner.visualizationData = ${PIE};
    this.attachShadow({ mode: 'open' }).append(inner);
  }
}
customElements.define('card-panel', CardPanel);
`,
    'element.html': `<!doctype html><html lang="en"><head>${HEAD}
<script src="record.js"></script><script type="module" src="module.js"></script></head><body>
<zdr-embed id="local" mode="local" height="300px"><script type="application/json">${BAR}</script></zdr-embed>
<zdr-embed id="service" service-url="" card-id="element-card" height="300px"><script type="application/json">${BAR}</script></zdr-embed>
<card-panel id="panel"></card-panel>
</body></html>`,
    // The page's fetch() calls, in order, from before the element's module loads.
    'fetches.js': `window.fetched = [];
const pageFetch = window.fetch;
window.fetch = function (input, options) {
  window.fetched.push(String(input instanceof Request ? input.url : input).split('/').pop());
  return pageFetch.call(this, input, options);
};
await import('/node_modules/zdr-embed/pkg/zdr_embed_element.js');
`,
    'local-first.html': `<!doctype html><html lang="en"><head>${HEAD}
<script src="record.js"></script><script type="module" src="fetches.js"></script></head><body>
<zdr-embed id="first" mode="local" height="300px"><script type="application/json">${BAR}</script></zdr-embed>
</body></html>`,
    'service-only.html': `<!doctype html><html lang="en"><head>${HEAD}
<script src="record.js"></script><script type="module" src="fetches.js"></script></head><body>
<zdr-embed id="posted" service-url="" card-id="element-card" height="300px"><script type="application/json">${BAR}</script></zdr-embed>
</body></html>`,
    'dropin.html': `<!doctype html><html lang="en"><head>${HEAD}
<script src="record.js"></script><script src="/node_modules/zdr-embed/pkg/zdr_embed_widget.js"></script></head><body>
<zdr-embed id="dropped" mode="local" height="300px"><script type="application/json">${BAR}</script></zdr-embed>
</body></html>`,
  }));
  browser = await launch();
});

after(() => tearDown({ browser, host, work }));

async function open(path) {
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  await page.goto(`${host.origin}/${path}`);
  return { page, problems };
}

const loads = (page, id, count) =>
  page.waitForFunction(([id, count]) => window.events.filter((e) => e.type === 'zdr-load' && e.id === id).length >= count, [id, count], WAIT);
// A canvas is named by its card's title at once, and by the summary too in
// the task after its first frame (after zdr-load). `ids`: the path of ids
// to the <zdr-embed>, through the shadow roots on the way.
const summarised = (page, ids) =>
  page.waitForFunction((ids) => {
    let el = document.getElementById(ids[0]);
    for (const id of ids.slice(1)) el = el?.shadowRoot?.getElementById(id);
    return / chart/.test(el?.shadowRoot?.querySelector('canvas')?.getAttribute('aria-label') ?? '');
  }, ids, WAIT);

test('<zdr-embed> draws from a child JSON script and from its property, in a shadow root too, under a strict CSP', async () => {
  const { page, problems } = await open('element.html');
  // The service card's address is the page's own host.
  await page.evaluate((origin) => document.getElementById('service').setAttribute('service-url', origin), host.origin);
  await loads(page, 'local', 1);
  await loads(page, 'service', 1);
  await loads(page, 'inner', 1);
  await summarised(page, ['local']);
  await summarised(page, ['panel', 'inner']);
  const seen = await page.evaluate(() => {
    const shown = (el) => el.shadowRoot.querySelector('[part="card"]').firstElementChild;
    const inner = document.getElementById('panel').shadowRoot.getElementById('inner');
    return {
      events: window.events,
      local: shown(document.getElementById('local'))?.querySelector('canvas')?.getAttribute('aria-label'),
      service: shown(document.getElementById('service'))?.tagName,
      inner: shown(inner)?.querySelector('canvas')?.getAttribute('aria-label'),
      display: getComputedStyle(document.getElementById('local')).display,
      height: document.getElementById('local').getBoundingClientRect().height,
      handle: typeof document.getElementById('local').handle?.update,
    };
  });
  const byId = Object.fromEntries(seen.events.map((e) => [e.id, e]));
  assert.equal(byId.local.tag, 'CANVAS');
  assert.equal(byId.service.tag, 'IFRAME');
  assert.equal(byId.inner.tag, 'CANVAS', 'a card in another component\'s shadow root');
  for (const event of seen.events) assert.deepEqual([event.bubbles, event.composed], [true, true], event.type);
  assert.match(seen.local, /^Unit sales by region\. Bar chart/);
  assert.match(seen.inner, /Pie chart/);
  assert.equal(seen.service, 'IFRAME');
  assert.equal(seen.display, 'block');
  assert.equal(Math.round(seen.height), 300);
  assert.equal(seen.handle, 'function');
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('<zdr-embed> updates with new data, draws anew when an attribute changes, reports errors and cleans up when removed', async () => {
  const { page, problems } = await open('element.html');
  await loads(page, 'local', 1);
  const result = await page.evaluate(async () => {
    const el = document.getElementById('local');
    const frame = () => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
    const label = () => el.shadowRoot.querySelector('canvas')?.getAttribute('aria-label');
    const firstCanvas = el.shadowRoot.querySelector('canvas');
    const count = () => window.events.filter((e) => e.id === 'local' && e.type === 'zdr-load').length;
    const until = async (n) => { for (let i = 0; i < 200 && count() < n; i++) await frame(); };
    // New data through the property: the same canvas, redrawn.
    el.visualizationData = { viz_config: { title: 'Revised', viz_component_type: 'bar' }, data: [{ x: 'a', y: 1 }, { x: 'b', y: 3 }] };
    await until(2);
    const updated = { label: label(), sameCanvas: el.shadowRoot.querySelector('canvas') === firstCanvas };
    // An attribute: drawn anew at the new height.
    el.setAttribute('height', '200px');
    await until(3);
    const resized = { height: Math.round(el.getBoundingClientRect().height), canvases: el.shadowRoot.querySelectorAll('canvas').length };
    // Data the engine refuses: zdr-error with render's Error, the card kept.
    el.visualizationData = { viz_config: { title: 'Bad', viz_component_type: 'bar' }, data: [{ x: 'a', y: 'many' }] };
    const refused = (e) => e.type === 'zdr-error' && e.id === 'local';
    for (let i = 0; i < 100 && !window.events.some(refused); i++) await frame();
    const error = window.events.find(refused);
    // Removed: the card and its handle are gone.
    el.remove();
    await frame();
    return { updated, resized, error, afterRemove: { handle: el.handle, nodes: el.shadowRoot.querySelector('[part="card"]').childElementCount } };
  });
  assert.deepEqual(result.updated, { label: result.updated.label, sameCanvas: true });
  assert.match(result.updated.label, /^Revised\. Bar chart/);
  assert.deepEqual(result.resized, { height: 200, canvases: 1 });
  assert.equal(result.error?.isError, true);
  assert.match(result.error.error, /data\[0\]\.y/);
  assert.deepEqual(result.afterRemove, { handle: null, nodes: 0 });
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a local <zdr-embed> asks for the engine beside the service module, before it has started; a service one never does', async () => {
  for (const [path, id, expected] of [
    ['local-first.html', 'first', ['zdr_engine_bg.wasm', 'zdr_embed_service_bg.wasm']],
    ['service-only.html', 'posted', ['zdr_embed_service_bg.wasm']],
  ]) {
    const { page, problems } = await open(path);
    // The service card's address is the page's own host (its first render, without it, fails).
    if (id === 'posted') await page.evaluate((origin) => document.getElementById('posted').setAttribute('service-url', origin), host.origin);
    await loads(page, id, 1);
    // The chunk of the card's kind comes later, once the engine runs (its own test: split.test.mjs).
    const fetched = (await page.evaluate(() => window.fetched)).filter((file) => !file.startsWith('kinds-'));
    assert.deepEqual(fetched, expected, path);
    assert.deepEqual(await page.evaluate(() => window.violations), [], path);
    assert.deepEqual(problems, [], path);
    await page.close();
  }
});

test('the drop-in script registers <zdr-embed> too', async () => {
  const { page, problems } = await open('dropin.html');
  await loads(page, 'dropped', 1);
  await summarised(page, ['dropped']);
  const label = await page.evaluate(() => document.getElementById('dropped').shadowRoot.querySelector('canvas')?.getAttribute('aria-label'));
  assert.match(label, /^Unit sales by region\. Bar chart/);
  assert.deepEqual(await page.evaluate(() => window.violations), []);
  assert.deepEqual(problems, []);
  await page.close();
});
