// End to end against the real service: zdr-host (crates/host) serving the demo
// pages and the packed npm package, answering the widget's posts with the
// chart as inline SVG, in headless Chromium.
//
// It builds nothing: scripts/test.sh builds the package (scripts/build.sh) and
// the host (`cargo build -p zdr-host`) first. The binary is $ZDR_HOST_BIN, or
// else target/release/zdr-host or target/debug/zdr-host.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launch } from './browser.mjs';
import { startHost, stopHost } from './host.mjs';
import { packPackage, ROOT } from './package.mjs';

const RESULTS = join(ROOT, 'test-results');
const WAIT = { timeout: 15_000 };

// The bar example of docs/examples, with a title no other test uses.
const EXAMPLE = JSON.parse(readFileSync(join(ROOT, 'docs/examples/bar.json'), 'utf8'));
const TITLE = `Unit sales e2e ${randomUUID().slice(0, 8)}`;
const withTitle = (title) => ({ ...EXAMPLE, viz_config: { ...EXAMPLE.viz_config, title } });

let work, demoHost, siteHost, browser;
const DEMO_KEY = `demo-e2e-${randomUUID()}`;

before(async () => {
  assert.ok(existsSync(join(ROOT, 'pkg/zdr_embed_widget.js')), 'run scripts/build.sh first');
  work = mkdtempSync(join(tmpdir(), 'zdr-host-e2e-'));
  const packageDir = packPackage(work);
  const site = join(work, 'site');
  mkdirSync(site);
  writeSite(site);
  // The demo exactly as scripts/demo.sh serves it, but with the packed package.
  // Its API has a key of its own, as the demo command's, and a data folder in `work`.
  demoHost = await startHost(['--www', 'www', '--package', packageDir, '--api-key', DEMO_KEY, '--data-dir', join(work, 'data')]);
  // The tests' own pages.
  siteHost = await startHost(['--www', site, '--package', packageDir]);
  browser = await launch();
  mkdirSync(RESULTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  const stopped = await Promise.all([stopHost(demoHost), stopHost(siteHost)]);
  if (work) rmSync(work, { recursive: true, force: true });
  for (const status of stopped) {
    if (status) assert.deepEqual(status, { code: 0, signal: null }, 'zdr-host exits with 0 on SIGTERM');
  }
});

function writeSite(dir) {
  const head = `<meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>`;
  // render, update, destroy from a module, with the widget's onLoad recorded.
  writeFileSync(
    join(dir, 'embed.html'),
    `<!doctype html><html lang="en"><head>${head}<title>embed</title></head>
<body><div id="chart"></div>
<script type="module">
  import init, { render } from 'zdr-embed';
  await init();
  window.loads = [];
  window.handle = render({
    containerId: 'chart',
    serviceUrl: location.origin,
    cardId: 'e2e-card',
    visualizationData: ${JSON.stringify(withTitle(TITLE))},
    width: '720px',
    height: '440px',
    onLoad: (iframe) => window.loads.push({
      isIframe: iframe instanceof HTMLIFrameElement,
      inChart: iframe.parentElement === document.getElementById('chart'),
      name: iframe.name,
    }),
    onError: (error) => { window.failed = error.message; },
  });
  window.ready = true;
</script></body></html>`,
  );
  // A card the widget accepts but the service does not: viz_config without title.
  writeFileSync(
    join(dir, 'invalid.html'),
    `<!doctype html><html lang="en"><head>${head}<title>invalid</title></head>
<body><div id="chart"></div>
<script type="module">
  import init, { render } from 'zdr-embed';
  await init();
  window.loads = 0;
  render({
    containerId: 'chart',
    serviceUrl: location.origin,
    cardId: 'e2e-invalid',
    visualizationData: { viz_config: { x_label: 'Region' }, data: [{ x: 'North', y: 1 }] },
    onLoad: () => { window.loads++; },
  });
</script></body></html>`,
  );
  // A plain form, as a page without the widget posts a card, whose field is
  // filled with more than the host's body limit (4 MiB by default).
  writeFileSync(
    join(dir, 'oversized.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>oversized</title></head>
<body><iframe name="target" style="width:700px;height:400px"></iframe>
<form method="post" action="/embed/e2e-oversized/" target="target">
<input type="hidden" name="visualization_data"></form>
<script type="module">
  document.querySelector('input').value = 'x'.repeat(17 * 1024 * 1024);
  document.querySelector('form').submit();
</script></body></html>`,
  );
  // Canaries: a CSP violation in a page and in a same-origin frame, to prove
  // that the console collector below does see violations.
  writeFileSync(
    join(dir, 'canary.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>canary</title></head>
<body><iframe src="canary-frame.html"></iframe><object data="page.swf"></object></body></html>`,
  );
  writeFileSync(
    join(dir, 'canary-frame.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>frame</title></head>
<body><object data="frame.swf"></object></body></html>`,
  );
}

/** A new page whose console errors, CSP reports and uncaught errors are kept. */
async function openPage(options) {
  const page = await browser.newPage(options);
  const problems = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' || /Content[ -]Security[ -]Policy/i.test(text)) {
      problems.push(`${message.type()}: ${text} (${message.location().url})`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return { page, problems };
}

/** The frame of the iframe inside `selector`. */
async function frameOf(page, selector) {
  const handle = await page.waitForSelector(`${selector} iframe`, WAIT);
  return handle.contentFrame();
}

/**
 * The one chart drawing the embed page shows: the page holds one per width
 * class, each an image (role="img", named by the title) made of SVGs.
 */
async function shownSvg(frame) {
  const drawing = frame.locator('body > [role="img"]:visible');
  assert.equal(await drawing.count(), 1, 'one chart drawing shows at the frame width');
  assert.ok((await drawing.locator('svg').count()) > 0, 'the drawing is SVG');
  return drawing;
}

const statusIs = (page, text) =>
  page.waitForFunction((want) => document.getElementById('status').textContent === want, text, WAIT);

test('flow 3: the demo page posts its card and zdr-host shows the chart', async () => {
  const { page, problems } = await openPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(`${demoHost.origin}/index.html`);
  // The demo's onLoad writes the status, naming the card shown.
  await statusIs(page, 'Loaded in the iframe: Monthly sales 1');

  const frame = await frameOf(page, '#chart');
  assert.match(frame.url(), /\/embed\/demo-sales\/$/);
  assert.equal(await frame.title(), 'Monthly sales 1');
  const svg = await shownSvg(frame);
  assert.match(await svg.textContent(), /Monthly sales 1/);
  assert.equal(await svg.getAttribute('aria-label'), 'Monthly sales 1');
  assert.equal(await frame.locator('script').count(), 0, 'the embed page runs no script');
  const box = await svg.boundingBox();
  assert.ok(box.width > 600 && box.height > 300, `the chart fills the frame (${box.width}x${box.height})`);

  // The demo's other cards.
  for (const [id, title] of [
    ['#users', 'Weekly active users'],
    ['#browsers', 'Browser share of visits'],
    ['#ratings', 'Ratings of 3,000 films'],
    ['#payrolls', 'Change in payrolls by sector'],
    ['#prices', 'Gold, oil and a stock index in 2025'],
    ['#emissions', 'Emissions by sector'],
    ['#margins', 'Revenue and margin, 2025'],
    ['#umsatz', 'Umsatz 2025'],
  ]) {
    const other = await frameOf(page, id);
    await other.waitForLoadState('load');
    await other.waitForFunction((want) => document.title === want, title, WAIT);
    assert.match(await (await shownSvg(other)).textContent(), new RegExp(title));
  }
  // The long unit is in the axis title, not on the ticks.
  const payrollText = await (await shownSvg(await frameOf(page, '#payrolls'))).textContent();
  assert.match(payrollText, /Change \(thousand jobs\)/);
  // Once in the title, at most once more per bar (its value label); never on
  // the ticks.
  const unitCount = payrollText.split('thousand jobs').length - 1;
  assert.ok(unitCount >= 1 && unitCount <= 5, `"thousand jobs" ${unitCount} times`);
  // Percent change: signed ticks, the axis and the subtitle say so, the
  // series that starts at zero is named, not drawn.
  const pricesText = await (await shownSvg(await frameOf(page, '#prices'))).textContent();
  assert.match(pricesText, /Price, change since start/);
  assert.match(pricesText, /\+\d+%/);
  assert.match(pricesText, /left out, starting at zero or without\s+values: New fund/);
  // Long names, laid on the side: level, at most 45% of the width.
  const emissionsText = await (await shownSvg(await frameOf(page, '#emissions'))).textContent();
  assert.match(emissionsText, /Agriculture, forestry/);
  assert.match(emissionsText, /Road transportation/);
  // Two y-axes: the legend says which axis each series reads against, and
  // each axis has its own units.
  const marginsText = await (await shownSvg(await frameOf(page, '#margins'))).textContent();
  assert.match(marginsText, /Revenue \(left axis\)/);
  assert.match(marginsText, /Margin \(right axis\)/);
  assert.match(marginsText, /\$1\.\dM/);
  assert.match(marginsText, /\d+%/);
  // A locale: German compact numbers and month names on the axes.
  const umsatzText = await (await shownSvg(await frameOf(page, '#umsatz'))).textContent();
  assert.match(umsatzText, /\d+(,\d+)?\u00a0Mio\.\u00a0?€|€\d+(,\d+)?\u00a0Mio\./);
  assert.match(umsatzText, /Jan\. 2025/);
  // The same in local mode, where the canvas's hidden table says what it shows:
  // German dates and numbers, the euro after them; and each series of the
  // two-axis card in its own axis's units.
  const tableText = (id) =>
    page.waitForFunction(
      (sel) => document.querySelector(`${sel} table.zdr-embed-data`)?.textContent || false,
      id,
      WAIT,
    ).then((handle) => handle.jsonValue());
  const umsatzLocal = await tableText('#umsatz-local');
  assert.match(umsatzLocal, /Jan\. 2025/);
  assert.match(umsatzLocal, /\d\.\d{3}\.\d{3}\u00a0€/);
  const marginsLocal = await tableText('#margins-local');
  assert.match(marginsLocal, /\$1,\d{3},\d{3}/);
  assert.match(marginsLocal, /\d+%/);
  // The local column fetched the engine, and the page says so.
  await page.waitForFunction(
    () => /the chart engine \(\d+ KB\) was fetched \d+ ms after/.test(document.getElementById('engine-note').textContent),
    null,
    WAIT,
  );
  await page.screenshot({ path: join(RESULTS, 'host-demo.png'), fullPage: true });

  await page.click('#update');
  await statusIs(page, 'Loaded in the iframe: Monthly sales 2');
  const updated = await frameOf(page, '#chart');
  assert.equal(await updated.title(), 'Monthly sales 2');
  assert.match(await (await shownSvg(updated)).textContent(), /Monthly sales 2/);

  await page.click('#destroy');
  assert.equal(await page.locator('#chart iframe').count(), 0);
  assert.equal(await page.locator('#status').textContent(), 'Destroyed: the iframe is gone');
  assert.deepEqual(problems, []);
  await page.close();
});

test('render, update and destroy from a module page: onLoad gets the iframe, the chart follows the data', async () => {
  const { page, problems } = await openPage({ viewport: { width: 900, height: 700 } });
  await page.goto(`${siteHost.origin}/embed.html`);
  await page.waitForFunction(() => window.ready && window.loads.length === 1, null, WAIT);

  const [load] = await page.evaluate(() => window.loads);
  assert.deepEqual(load, {
    isIframe: true,
    inChart: true,
    name: await page.evaluate(() => window.handle.iframe.name),
  });
  let frame = await frameOf(page, '#chart');
  assert.match(frame.url(), /\/embed\/e2e-card\/$/);
  assert.equal(await frame.title(), TITLE);
  let svg = await shownSvg(frame);
  assert.match(await svg.textContent(), new RegExp(TITLE));
  assert.match(await svg.textContent(), /Central/, "the example's points are drawn");

  const next = `${TITLE} (updated)`;
  await page.evaluate((data) => window.handle.update(data), withTitle(next));
  await page.waitForFunction(() => window.loads.length === 2, null, WAIT);
  frame = await frameOf(page, '#chart');
  assert.equal(await frame.title(), next);
  svg = await shownSvg(frame);
  assert.match(await svg.textContent(), /\(updated\)/);
  assert.equal((await page.evaluate(() => window.loads))[1].name, load.name, 'the same iframe');

  await page.evaluate(() => window.handle.destroy());
  assert.equal(await page.locator('#chart iframe').count(), 0);
  assert.equal(await page.locator('#chart').innerHTML(), '');
  assert.equal(await page.evaluate(() => window.failed), undefined);
  assert.deepEqual(problems, []);

  // Zero retention: the request log names the address, never the data.
  const log = siteHost.log.join('\n');
  assert.match(log, /POST \/embed\/e2e-card\/ 200 /);
  assert.ok(!log.includes(TITLE.split(' ').pop()), 'no card data in the log');
  await page.close();
});

test('an invalid card shows the error page with the JSON path in the iframe', async () => {
  const { page, problems } = await openPage();
  await page.goto(`${siteHost.origin}/invalid.html`);
  await page.waitForFunction(() => window.loads === 1, null, WAIT);
  const frame = await frameOf(page, '#chart');
  assert.equal(await frame.title(), "The card's visualization_data is not valid");
  const detail = await frame.locator('pre').textContent();
  assert.match(detail, /viz_config\.title/);
  assert.match(await frame.locator('.status').textContent(), /HTTP 400/);
  assert.equal(await frame.locator('svg').count(), 0);
  // A 400 document is still a page: Chromium logs the status as a console error.
  assert.deepEqual(
    problems.filter((p) => !/status of 400/.test(p)),
    [],
  );
  await page.close();
});

test('a form post over the body limit shows the 413 page in the frame, not a connection error', async () => {
  const { page } = await openPage();
  const answered = page.waitForResponse((response) => response.url().endsWith('/embed/e2e-oversized/'), {
    timeout: 30_000,
  });
  await page.goto(`${siteHost.origin}/oversized.html`);
  const response = await answered;
  assert.equal(response.status(), 413);
  const frame = page.frame({ name: 'target' });
  await frame.waitForFunction(() => document.title === "The card's data are too large", null, WAIT);
  assert.match(await frame.locator('pre').textContent(), /larger than the limit of 4194304 bytes/);
  assert.match(await frame.locator('.status').textContent(), /HTTP 413/);
  await page.close();
});

test('the demo pages run under the host CSP with no console errors or violations', async () => {
  // The collector sees violations, in the page and in a frame ...
  const canary = await openPage();
  await canary.page.goto(`${siteHost.origin}/canary.html`);
  await canary.page.waitForFunction(
    () => document.querySelector('iframe').contentDocument?.readyState === 'complete',
    null,
    WAIT,
  );
  await canary.page.waitForTimeout(200);
  const refused = canary.problems.filter((p) => /object-src/.test(p));
  assert.ok(
    refused.some((p) => p.includes('canary.html')) && refused.some((p) => p.includes('canary-frame.html')),
    `the collector reports CSP violations in a page and a frame: ${JSON.stringify(canary.problems)}`,
  );
  await canary.page.close();

  // ... and the demo pages, with all their embeds, have none.
  for (const [path, containers] of [
    ['/index.html', ['#chart', '#users', '#browsers', '#ratings', '#payrolls', '#prices', '#emissions']],
    ['/dropin.html', ['#chart-container']],
  ]) {
    const { page, problems } = await openPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`${demoHost.origin}${path}`);
    for (const container of containers) {
      const frame = await frameOf(page, container);
      await frame.waitForFunction(() => document.readyState === 'complete' && document.querySelector('svg'), null, WAIT);
      await shownSvg(frame);
    }
    await page.waitForTimeout(200);
    assert.deepEqual(problems, [], `${path}: no console errors or CSP violations`);
    await page.close();
  }
});

test('the demo draws a million points from typed arrays in the page, and draws another million over them', async () => {
  const { page, problems } = await openPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${demoHost.origin}/index.html`);
  await page.waitForSelector('html[data-ready]', WAIT);
  const drawn = (title) => page.waitForFunction(
    (title) => /^1,000,000 points drawn \d+ ms after the call$/.test(document.getElementById('status-big').textContent) &&
      document.querySelector('#big canvas')?.getAttribute('aria-label')?.startsWith(title),
    title,
    WAIT,
  );
  await page.click('#big-draw');
  await drawn('A million readings (1)');
  await page.click('#big-update');
  await drawn('A million readings (2)');
  assert.equal(await page.locator('#big canvas').count(), 1, 'the update draws on the same canvas');
  await page.locator('section.big').screenshot({ path: join(RESULTS, 'demo-million.png') });
  assert.deepEqual(problems, [], 'no console errors or CSP violations');
  await page.close();
});

test('the demo visualizes a CSV through the API and shows each card in service and local mode', async () => {
  const { page, problems } = await openPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${demoHost.origin}/index.html`);
  await page.waitForSelector('html[data-ready]', WAIT);
  // A wrong key: the service's message, no cards.
  await page.fill('#viz-key', 'not-the-key-of-this-host');
  await page.click('#viz-go');
  await page.waitForFunction(() => /not one this service knows/.test(document.getElementById('status-viz').textContent), null, WAIT);
  assert.equal(await page.locator('#viz-cards .viz-card').count(), 0);
  await page.fill('#viz-key', DEMO_KEY);
  await page.fill('#viz-query', 'share of sales by region');
  await page.click('#viz-go');
  await page.waitForFunction(() => /^CSV 1: Shown: share of sales by region, as a pie chart/.test(document.getElementById('status-viz').textContent), null, WAIT);
  // The card the question asks for, and only it.
  const cards = await page.locator('#viz-cards .viz-card').count();
  assert.equal(cards, 1, `${cards} cards`);
  assert.match(await page.locator('#viz-cards .viz-head').first().textContent(), /^pie/);
  for (let i = 0; i < cards; i++) {
    const frame = await frameOf(page, `#viz-service-${i}`);
    await frame.waitForFunction(() => document.readyState === 'complete' && document.querySelector('svg'), null, WAIT);
    await page.waitForSelector(`#viz-local-${i} canvas`, WAIT);
  }
  await page.locator('section.visualize:not(.search)').screenshot({ path: join(RESULTS, 'demo-visualize.png') });
  // Search -> card -> widget: the built-in datasets, for India, in German.
  await page.fill('#search-query', 'life expectancy and fertility');
  await page.selectOption('#search-country', 'IN');
  await page.selectOption('#search-locale', 'de-DE');
  await page.click('#search-go');
  await page.waitForFunction(() => /Shown: life expectancy and fertility over time, as a line chart.* 1 card from .* in index world/.test(document.getElementById('status-search').textContent), null, WAIT);
  const found = await page.locator('#search-cards .viz-card').count();
  assert.equal(found, 1, `${found} search cards`);
  const frame = await frameOf(page, '#search-service-0');
  await frame.waitForFunction(() => document.readyState === 'complete' && document.querySelector('svg'), null, WAIT);
  await page.waitForSelector('#search-local-0 canvas', WAIT);
  // India's two measures, each on its own axis, written in German.
  const lineText = await (await shownSvg(frame)).textContent();
  assert.match(lineText, /India/);
  assert.match(lineText, /fertility/);
  const table = await page.waitForFunction(
    () => [...document.querySelectorAll('#search-cards table.zdr-embed-data')].map((t) => t.textContent).join(' ') || false,
    null,
    WAIT,
  );
  assert.match(await table.jsonValue(), /\d,\d/, 'decimals written with a comma');
  await page.locator('section.search').screenshot({ path: join(RESULTS, 'demo-search.png') });
  // Asking again replaces the cards, nothing left behind.
  await page.click('#viz-go');
  await page.waitForFunction((n) => document.querySelectorAll('#viz-cards .viz-card').length === n && document.querySelectorAll('#viz-cards iframe').length === n, cards, WAIT);
  // The browser logs the wrong key's 401 itself; nothing else may appear.
  const unexpected = problems.filter((p) => !/status of 401 .*\/api\/v1\/beta\/visualize/.test(p));
  assert.equal(problems.length - unexpected.length, 1, 'the one 401');
  assert.deepEqual(unexpected, [], 'no other console errors or CSP violations');
  await page.close();
});
