// Checked by a standard tool as well: axe-core (npm) over the demo pages and
// over a page holding every card type in every mode (local, the service's
// form post, postMessage), frames included, in headless Chromium against the
// real zdr-host. Zero violations is the bar.
//
// It builds nothing: scripts/test.sh builds the package and zdr-host first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { launch } from './browser.mjs';
import { hostSite, startHost, stopHost, tearDown } from './host.mjs';
import { ROOT } from './package.mjs';

const WAIT = { timeout: 30_000 };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const EXAMPLES = readdirSync(join(ROOT, 'docs/examples'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(ROOT, 'docs/examples', f), 'utf8'))]);
const MODES = ['local', 'service', 'postmessage'];

const EVERY = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>Every card in every mode</title>
<style>body { margin: 0; padding: 16px; font: 14px sans-serif } .card { width: 420px; display: inline-block; margin: 8px }</style>
<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>
</head><body><main><h1>Every card in every mode</h1><div id="cards"></div></main>
<script type="module">
  import init, { render } from 'zdr-embed';
  await init();
  const cards = document.getElementById('cards');
  const loads = [];
  for (const [name, data] of ${JSON.stringify(EXAMPLES)}) {
    for (const mode of ${JSON.stringify(MODES)}) {
      const box = document.createElement('section');
      box.className = 'card';
      box.setAttribute('aria-label', name + ', ' + mode);
      box.id = name + '-' + mode;
      cards.append(box);
      loads.push(new Promise((loaded, failed) => render({
        container: box, cardId: name, serviceUrl: location.origin, height: '280px',
        mode: mode === 'postmessage' ? 'service' : mode, embedMode: mode === 'postmessage' ? 'postmessage' : 'form',
        visualizationData: data, onLoad: loaded, onError: failed,
      })));
    }
  }
  Promise.all(loads).then(() => { window.ready = true; }, (e) => { window.failed = String(e); });
</script></body></html>`;

let work, host, demoHost, browser;

before(async () => {
  let packageDir;
  ({ work, host, packageDir } = await hostSite('zdr-axe-e2e-', { 'every.html': EVERY }));
  demoHost = await startHost(['--www', 'www', '--package', packageDir, '--api-key', 'axe-demo-key-0123456789', '--data-dir', join(work, 'data')]);
  browser = await launch();
});

after(async () => {
  await stopHost(demoHost);
  await tearDown({ browser, host, work });
});

/** axe-core in the page and in each of its frames (bypassCSP lets it into the form pages, which run no script of their own), then its violations. */
async function violations(page) {
  for (const frame of page.frames()) {
    if (frame.url().startsWith('http')) await frame.evaluate(AXE);
  }
  const result = await page.evaluate(() => window.axe.run(document, { iframes: true, resultTypes: ['violations'] }));
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' >> ')}: ${n.failureSummary?.split('\n').slice(0, 2).join(' ')}`),
  }));
}

async function openPage() {
  const context = await browser.newContext({ viewport: { width: 1300, height: 900 }, bypassCSP: true });
  return { context, page: await context.newPage() };
}

test('the demo page and the drop-in page have no axe violations', async () => {
  for (const [path, ready] of [
    ['/index.html', 'html[data-ready]'],
    ['/dropin.html', '#chart-container iframe'],
  ]) {
    const { context, page } = await openPage();
    await page.goto(`${demoHost.origin}${path}`);
    await page.waitForSelector(ready, { ...WAIT, state: 'attached' });
    await page.waitForLoadState('load');
    await page.waitForTimeout(500);
    const found = await violations(page);
    assert.deepEqual(found, [], `${path}: ${JSON.stringify(found, null, 2)}`);
    await context.close();
  }
});

test(`every card type (${EXAMPLES.length}) in every mode has no axe violations`, async () => {
  const { context, page } = await openPage();
  await page.goto(`${host.origin}/every.html`);
  await page.waitForFunction(() => window.ready === true || window.failed, null, WAIT);
  assert.equal(await page.evaluate(() => window.failed ?? null), null, 'every card loaded');
  assert.equal(await page.locator('iframe').count(), EXAMPLES.length * 2, 'a frame per service card');
  assert.equal(await page.locator('canvas').count(), EXAMPLES.length, 'a canvas per local card');
  // The hidden tables are written in a task after the frame that draws.
  await page.waitForTimeout(300);
  const found = await violations(page);
  assert.deepEqual(found, [], JSON.stringify(found, null, 2));
  await context.close();
});
