// End to end: the packed npm package, a recording local responder
// (scripts/dev-server.mjs) that checks the exact form posts, headless Chromium.
// The demo page and the real service are tested in host.test.mjs.
// Run by scripts/test.sh after the build (`node --test tests/e2e/`).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startServer } from '../../scripts/dev-server.mjs';
import { launch } from './browser.mjs';
import { packPackage, ROOT } from './package.mjs';

// Data with everything form encoding must get right: non-ASCII, quotes,
// ampersands, plus signs, percent signs, spaces and markup.
const CARD = {
  viz_config: { title: 'Revenue & costs "2026" <b>Q1</b>', x_label: 'Región' },
  data: [
    { x: 'Jan + Feb', y: 1200.5 },
    { x: '100% über', y: -3 },
    { x: "O'Brien & Co", y: 0 },
  ],
};
/** The widget's form: the data, then its frame's size (640 x 400 in these pages). */
const expectedBody = (data, frameSize = '640x400') =>
  new URLSearchParams({ visualization_data: JSON.stringify(data), frame_size: frameSize }).toString();

let work, server, browser;

before(async () => {
  assert.ok(existsSync(join(ROOT, 'pkg/zdr_embed_widget.js')), 'run scripts/build.sh first');
  work = mkdtempSync(join(tmpdir(), 'zdr-e2e-'));
  const packageDir = packPackage(work);
  const fixtures = join(work, 'fixtures');
  mkdirSync(fixtures);
  writeFixtures(fixtures);
  server = await startServer({
    packageDir,
    extraMounts: { '/fixtures/': fixtures },
    recordPosts: true,
  });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function writeFixtures(dir) {
  // The spec's usage, unchanged: a script tag, then an inline call at once.
  writeFileSync(
    join(dir, 'dropin.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>drop-in</title><link rel="icon" href="data:,"></head>
<body><div id="chart"></div>
<script src="/node_modules/zdr-embed/pkg/zdr_embed_widget.js"></script>
<script>
  window.loads = 0;
  window.handle = ServiceZDREmbed.render({
    containerId: 'chart',
    serviceUrl: location.origin + '/',
    cardId: 'sales/2026 Q1',
    visualizationData: ${JSON.stringify(CARD)},
    width: '640px',
    height: '400px',
    onLoad: function (iframe) { window.loads++; window.loadedFrame = iframe.name; }
  });
</script></body></html>`,
  );
  writeFileSync(
    join(dir, 'module.html'),
    `<!doctype html><html><head><meta charset="utf-8"><title>module</title><link rel="icon" href="data:,">
<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>
</head><body><div id="a"></div><div id="b"></div>
<script type="module">
  import init, { render, renderMultiple } from 'zdr-embed';
  await init();
  window.loads = [];
  const card = (title) => ({ viz_config: { title }, data: [{ x: 'a', y: 1 }] });
  const base = (id, title) => ({
    containerId: id, serviceUrl: location.origin, cardId: 'card-' + id,
    visualizationData: card(title), onLoad: (f) => window.loads.push(f.title),
  });
  window.handles = renderMultiple([base('a', 'First'), base('b', 'Second')]);
  try {
    render({ ...base('a', 'x'), serviceUrl: 'javascript:alert(1)' });
  } catch (error) {
    window.thrown = { isError: error instanceof Error, message: error.message, code: error.code };
  }
  window.ready = true;
</script></body></html>`,
  );
}

test('the drop-in script works with the spec usage and posts the exact form body', async () => {
  server.posts.length = 0;
  const page = await browser.newPage();
  await page.goto(`${server.origin}/fixtures/dropin.html`);
  await page.waitForFunction(() => window.loads === 1, null, { timeout: 10_000 });

  assert.equal(server.posts.length, 1, 'one real form POST');
  const [post] = server.posts;
  assert.equal(post.path, '/embed/sales%2F2026%20Q1/');
  assert.equal(post.contentType, 'application/x-www-form-urlencoded');
  assert.equal(post.body, expectedBody(CARD));

  const frame = page.locator('#chart iframe');
  assert.equal(await frame.getAttribute('name'), await page.evaluate(() => window.loadedFrame));
  assert.equal(await frame.getAttribute('title'), CARD.viz_config.title);
  const heading = await page.frameLocator('#chart iframe').locator('h1').textContent();
  assert.equal(heading, CARD.viz_config.title, 'the responder page shows in the frame');
  assert.equal(await page.locator('form').count(), 0, 'the form is gone after ~100 ms');
  const box = await frame.boundingBox();
  assert.deepEqual([Math.round(box.width), Math.round(box.height)], [640, 400]);

  await page.evaluate(() => window.handle.update({ viz_config: { title: 'v2' }, data: [] }));
  await page.waitForFunction(() => window.loads === 2, null, { timeout: 10_000 });
  assert.equal(server.posts.length, 2);
  assert.equal(server.posts[1].body, expectedBody({ viz_config: { title: 'v2' }, data: [] }));
  await page.evaluate(() => window.handle.destroy());
  assert.equal(await page.locator('#chart').innerHTML(), '');
  await page.close();
});

test('the ES module from the packed package renders several cards and throws real Errors', async () => {
  server.posts.length = 0;
  const page = await browser.newPage();
  await page.goto(`${server.origin}/fixtures/module.html`);
  await page.waitForFunction(() => window.ready && window.loads.length === 2, null, {
    timeout: 10_000,
  });
  assert.deepEqual((await page.evaluate(() => window.loads)).sort(), ['First', 'Second']);
  assert.deepEqual(server.posts.map((p) => p.path).sort(), ['/embed/card-a/', '/embed/card-b/']);
  const thrown = await page.evaluate(() => window.thrown);
  assert.equal(thrown.isError, true);
  assert.equal(thrown.code, 'invalid_option');
  assert.match(thrown.message, /^render: option "serviceUrl" must be an absolute http: or https: URL/);
  assert.equal(server.posts.length, 2, 'the refused render posted nothing');
  await page.close();
});
