// End to end: `embedMode: "postmessage"` in headless Chromium, with the real
// zdr-host on two origins: one serves the embedding page, the other is the
// service and serves the shell (both with the packed npm package). The data
// go from the page to the shell by postMessage and never to either host.
//
// It builds nothing: scripts/test.sh builds the package (scripts/build.sh) and
// zdr-host (`cargo build -p zdr-host`) first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launch } from './browser.mjs';
import { startHost, stopHost } from './host.mjs';
import { packPackage, ROOT } from './package.mjs';

const WAIT = { timeout: 15_000 };
const example = (name) => JSON.parse(readFileSync(join(ROOT, 'docs/examples', `${name}.json`), 'utf8'));

// A string that must never appear in any request: it is in the title and in a label.
const MARKER = `marker${randomUUID().replaceAll('-', '')}`;
const BAR = example('bar');
const withMarker = (card) => ({
  viz_config: { ...card.viz_config, title: `${card.viz_config.title} ${MARKER}` },
  data: card.data.map((d, i) => (i === 0 ? { ...d, x: `${d.x} ${MARKER}` } : d)),
});
const FIRST = withMarker(BAR);
const SECOND = withMarker({
  viz_config: { ...BAR.viz_config, title: 'Unit sales by region, revised' },
  data: BAR.data.map((d, i) => ({ x: d.x, y: [12000, 56000, 9000, 30500, 47000][i] })),
});
// data[1].y is not a number: the shell must refuse it with the path.
const BAD = { viz_config: { title: 'Bad', viz_component_type: 'bar' }, data: [{ x: 'a', y: 1 }, { x: 'b', y: 'abc' }] };

let work, pageHost, serviceHost, browser, closedPort;

before(async () => {
  assert.ok(existsSync(join(ROOT, 'pkg/engine/zdr_engine_bg.wasm')), 'run scripts/build.sh first');
  work = mkdtempSync(join(tmpdir(), 'zdr-postmessage-e2e-'));
  const packageDir = packPackage(work);
  const site = join(work, 'site');
  const empty = join(work, 'empty');
  mkdirSync(site);
  mkdirSync(empty);
  writeSite(site);
  // Two hosts, two origins: the page's, and the service's (which serves no pages of its own).
  pageHost = await startHost(['--www', site, '--package', packageDir]);
  serviceHost = await startHost(['--www', empty, '--package', packageDir]);
  closedPort = await freePort();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  const stopped = await Promise.all([stopHost(pageHost), stopHost(serviceHost)]);
  if (work) rmSync(work, { recursive: true, force: true });
  for (const status of stopped) {
    if (status) assert.deepEqual(status, { code: 0, signal: null }, 'zdr-host exits with 0 on SIGTERM');
  }
});

/** A port nothing listens on: bound, then closed. */
function freePort() {
  return new Promise((ok, fail) => {
    const server = createNetServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

function writeSite(dir) {
  // The embedding page: the package by name, #chart, and recorders.
  writeFileSync(
    join(dir, 'page.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>page</title>
<style>body { margin: 0; padding: 20px; font: 14px sans-serif } #chart { width: 640px }</style>
<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>
</head><body><div id="chart"></div><div id="others"></div>
<script type="module">
  import init, { render } from 'zdr-embed';
  await init();
  window.show = (options) => {
    window.loads = [];
    window.errors = [];
    window.frameLoads = 0;
    window.handle = render({
      containerId: 'chart',
      embedMode: 'postmessage',
      width: '640px',
      height: '400px',
      onLoad: (iframe) => window.loads.push({ same: iframe === window.handle?.iframe, tag: iframe.tagName }),
      onError: (error) => window.errors.push({
        isError: error instanceof Error, name: error.name, code: error.code, message: error.message,
      }),
      ...options,
    });
    // Attached in the task that made the frame, so no load is missed.
    window.handle.iframe?.addEventListener('load', () => { window.frameLoads += 1; });
    return true;
  };
  window.ready = true;
</script></body></html>`,
  );
  // Where the tests send the widget's frame to see what reaches another document.
  writeFileSync(
    join(dir, 'spy.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>spy</title></head><body>
<script>
  window.heard = [];
  addEventListener('message', (event) => window.heard.push({ origin: event.origin, data: event.data }));
  window.spyReady = true;
</script></body></html>`,
  );
}

/** A fresh page on the page host, recording every request and console error of every frame. */
async function openPage() {
  const context = await browser.newContext();
  const page = await context.newPage();
  const requests = [];
  const consoleErrors = [];
  context.on('request', (request) =>
    requests.push({ method: request.method(), url: request.url(), body: request.postData() ?? '' }),
  );
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  await page.goto(`${pageHost.origin}/page.html`);
  await page.waitForFunction(() => window.ready === true, null, WAIT);
  return { context, page, requests, consoleErrors };
}

const shellFrame = (page) => page.frames().find((frame) => frame.url().includes('embed_mode=postmessage'));

/** Colours on the shell's canvas, read inside the shell (its own origin). */
async function shellColours(page) {
  const frame = shellFrame(page);
  assert.ok(frame, 'the shell frame exists');
  await frame.waitForFunction(() => document.querySelector('canvas')?.width > 0, null, WAIT);
  return frame.evaluate(() => {
    const canvas = document.querySelector('canvas');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    const colours = new Set();
    let sum = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      colours.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
      sum = (sum + pixels[i] * 3 + pixels[i + 1] * 5 + pixels[i + 2] * 7 + i) % 1_000_000_007;
    }
    return { colours: colours.size, sum, label: canvas.getAttribute('aria-label') };
  });
}

/** The page window's `message` listeners, as DevTools lists them. */
async function messageListeners(page) {
  const cdp = await page.context().newCDPSession(page);
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
  await cdp.detach();
  return listeners.filter((listener) => listener.type === 'message').length;
}

test('handshake: the shell says ready, gets the data by postMessage, draws it; onLoad(iframe)', async () => {
  const { context, page, consoleErrors } = await openPage();
  await page.evaluate(
    ([service, data]) => window.show({ serviceUrl: service, cardId: 'pm-card', visualizationData: data }),
    [serviceHost.origin, FIRST],
  );
  await page.waitForFunction(() => window.loads.length === 1, null, WAIT);
  const state = await page.evaluate(() => {
    const iframe = window.handle.iframe;
    return {
      loads: window.loads,
      errors: window.errors,
      src: iframe.src,
      sandbox: iframe.getAttribute('sandbox'),
      referrerpolicy: iframe.getAttribute('referrerpolicy'),
      forms: document.querySelectorAll('form').length,
      mode: window.handle.mode,
    };
  });
  assert.deepEqual(state.loads, [{ same: true, tag: 'IFRAME' }]);
  assert.deepEqual(state.errors, []);
  const src = new URL(state.src);
  assert.equal(src.origin, serviceHost.origin);
  assert.equal(src.pathname, '/embed/pm-card/');
  assert.equal(src.searchParams.get('embed_mode'), 'postmessage');
  assert.equal(src.searchParams.get('parent_origin'), pageHost.origin);
  assert.equal(state.sandbox, 'allow-scripts allow-same-origin');
  assert.equal(state.referrerpolicy, 'no-referrer');
  assert.equal(state.forms, 0, 'no form is made in postmessage mode');
  assert.equal(state.mode, 'service');
  const drawn = await shellColours(page);
  assert.ok(drawn.colours > 30, `the shell drew the card (${drawn.colours} colours)`);
  assert.ok(drawn.label.includes(MARKER), 'the shell names its canvas with the card title');
  assert.deepEqual(consoleErrors, [], 'no console errors or CSP violations in the page or the shell');
  await context.close();
});

test('update sends new data without reloading the frame; no request carries the data', async () => {
  const { context, page, requests, consoleErrors } = await openPage();
  await page.evaluate(
    ([service, data]) => window.show({ serviceUrl: service, cardId: 'pm-card', visualizationData: data }),
    [serviceHost.origin, FIRST],
  );
  await page.waitForFunction(() => window.loads.length === 1, null, WAIT);
  const before = await shellColours(page);
  // A mark in the shell's document: a reload would lose it.
  await shellFrame(page).evaluate(() => { window.sameDocument = true; });
  const requestsBefore = requests.length;

  await page.evaluate((data) => window.handle.update(data), SECOND);
  await page.waitForFunction(() => window.loads.length === 2, null, WAIT);
  await shellFrame(page).waitForFunction((sum) => {
    const canvas = document.querySelector('canvas');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let s = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      s = (s + pixels[i] * 3 + pixels[i + 1] * 5 + pixels[i + 2] * 7 + i) % 1_000_000_007;
    }
    return s !== sum;
  }, before.sum, WAIT);
  const after = await shellColours(page);
  assert.ok(after.label.includes('revised'), 'the new title names the canvas');
  assert.equal(await shellFrame(page).evaluate(() => window.sameDocument), true, 'same shell document');
  assert.equal(await page.evaluate(() => window.frameLoads), 1, "the iframe's load fired once");
  assert.equal(requests.length, requestsBefore, 'the update made no request at all');

  // Every request of the whole flow: the page's own, then the shell's own assets; none with data.
  for (const request of requests) {
    assert.ok(!request.url.includes(MARKER) && !request.body.includes(MARKER), `no data in ${request.url}`);
    assert.equal(request.method, 'GET', `only GETs: ${request.method} ${request.url}`);
  }
  const toService = requests
    .filter((request) => request.url.startsWith(serviceHost.origin))
    .map((request) => new URL(request.url).pathname);
  // The engine, its chunk loader, the shell's chunk and the chunk of the card's kind.
  const chunk = (path) => /^\/node_modules\/zdr-embed\/pkg\/engine\/(kinds-[a-z]+|shell)\.[0-9a-f]{12}\.wasm$/.test(path);
  assert.deepEqual(toService.filter(chunk).map((path) => path.split('/').at(-1).split(/[-.]/)[0]).sort(), ['kinds', 'shell'], toService.join('\n'));
  assert.deepEqual(toService.filter((path) => !chunk(path)).sort(), [
    '/embed/pm-card/',
    '/node_modules/zdr-embed/pkg/engine/__wasm_split.js',
    '/node_modules/zdr-embed/pkg/engine/zdr_engine.js',
    '/node_modules/zdr-embed/pkg/engine/zdr_engine_bg.wasm',
    '/zdr-shell/v1/shell.js',
  ]);
  const serviceLog = serviceHost.log.join('\n');
  assert.ok(!serviceLog.includes(MARKER), "the service's log never saw the data");
  assert.ok(serviceLog.includes('/zdr-shell/v1/shell.js'), 'the log is the request log');
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('bad data: the shell answers zdr:vizdata:error, onError gets its message; good data then loads', async () => {
  const { context, page, consoleErrors } = await openPage();
  await page.evaluate(
    ([service, data]) => window.show({ serviceUrl: service, cardId: 'pm-bad', visualizationData: data }),
    [serviceHost.origin, BAD],
  );
  await page.waitForFunction(() => window.errors.length === 1, null, WAIT);
  const [error] = await page.evaluate(() => window.errors);
  assert.equal(error.isError, true);
  assert.equal(error.code, 'service_rejected');
  assert.match(error.message, /^the service could not show the card: data\[1\]\.y: /);
  assert.match(error.message, /"abc"/);
  assert.deepEqual(await page.evaluate(() => window.loads), [], 'no onLoad for refused data');

  await page.evaluate((data) => window.handle.update(data), FIRST);
  await page.waitForFunction(() => window.loads.length === 1, null, WAIT);
  assert.equal(await page.evaluate(() => window.errors.length), 1);
  assert.ok((await shellColours(page)).colours > 30);
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('look-alike messages from other frames and from the page itself are ignored', async () => {
  const { context, page } = await openPage();
  // A real shell of the same service origin in another frame: right origin, wrong window.
  await page.evaluate(([service, origin]) => {
    const other = document.createElement('iframe');
    other.id = 'impostor';
    other.src = `${service}/embed/other/?embed_mode=postmessage&parent_origin=${encodeURIComponent(origin)}`;
    document.getElementById('others').append(other);
  }, [serviceHost.origin, pageHost.origin]);
  const impostor = () => page.frames().find((frame) => frame.url().includes('/embed/other/'));
  for (let tries = 0; !impostor() && tries < 100; tries += 1) await new Promise((ok) => setTimeout(ok, 50));
  assert.ok(impostor(), 'the impostor frame is there');
  await impostor().waitForFunction(() => document.readyState === 'complete', null, WAIT);

  // Forged answers for ids 1 and 2, every type, from the impostor and from the page itself.
  const forge = `(() => {
    const target = window.parent === window ? window : window.parent;
    for (const id of [1, 2]) {
      target.postMessage({ type: 'zdr:ready', version: 1 }, '*');
      target.postMessage({ type: 'zdr:vizdata:received', version: 1, id }, '*');
      target.postMessage({ type: 'zdr:vizdata:error', version: 1, id, message: 'forged' }, '*');
      target.postMessage({ type: 'zdr:resize', version: 1, height: 9999 }, '*');
    }
    return true;
  })()`;
  // Before the widget's shell is ready: render with a long timeout, forge at once.
  await page.evaluate(
    ([service, data]) => window.show({
      serviceUrl: service, cardId: 'pm-card', visualizationData: data, height: 'auto', timeoutMs: 60_000,
    }),
    [serviceHost.origin, FIRST],
  );
  await impostor().evaluate(forge);
  await page.evaluate(forge);
  await page.waitForFunction(() => window.loads.length === 1, null, WAIT);
  // And after it is ready.
  await impostor().evaluate(forge);
  await page.evaluate(forge);
  await new Promise((ok) => setTimeout(ok, 500));
  const state = await page.evaluate(() => ({
    loads: window.loads.length,
    errors: window.errors,
    height: window.handle.iframe.getBoundingClientRect().height,
  }));
  assert.equal(state.loads, 1, 'only the real shell answer calls onLoad');
  assert.deepEqual(state.errors, [], 'no forged error reaches onError');
  assert.ok(state.height < 1000, `no forged resize applies (height ${state.height})`);
  await context.close();
});

test('messages go to the exact service origin: a frame navigated elsewhere hears nothing', async () => {
  const { context, page } = await openPage();
  await page.evaluate(
    ([service, data]) => window.show({ serviceUrl: service, cardId: 'pm-card', visualizationData: data }),
    [serviceHost.origin, FIRST],
  );
  await page.waitForFunction(() => window.loads.length === 1, null, WAIT);
  // The frame's document goes to another origin (the page's, so the test can read it).
  await shellFrame(page).evaluate((url) => { location.href = url; }, `${pageHost.origin}/spy.html`);
  await page.waitForFunction(() => {
    try {
      return window.handle.iframe.contentWindow.spyReady === true;
    } catch {
      return false;
    }
  }, null, WAIT);
  // The spy does hear messages addressed to it (or to anyone).
  await page.evaluate(() => window.handle.iframe.contentWindow.postMessage({ probe: true }, '*'));
  await page.evaluate((data) => window.handle.update(data), SECOND);
  await new Promise((ok) => setTimeout(ok, 500));
  const heard = await page.evaluate(() => window.handle.iframe.contentWindow.heard);
  assert.deepEqual(heard, [{ origin: pageHost.origin, data: { probe: true } }], 'the vizdata was not delivered');
  assert.equal(await page.evaluate(() => window.loads.length), 1);
  await context.close();
});

test('destroy removes the message listener, the frame, and silences late messages', async () => {
  const { context, page } = await openPage();
  const before = await messageListeners(page);
  await page.evaluate(
    ([service, data]) => window.show({ serviceUrl: service, cardId: 'pm-card', visualizationData: data }),
    [serviceHost.origin, FIRST],
  );
  assert.equal(await messageListeners(page), before + 1, 'one message listener while live');
  await page.waitForFunction(() => window.loads.length === 1, null, WAIT);
  const shell = shellFrame(page);
  await page.evaluate(() => window.handle.destroy());
  assert.equal(await messageListeners(page), before, 'no message listener after destroy');
  assert.equal(await page.evaluate(() => document.querySelectorAll('iframe').length), 0);
  assert.equal(shell.isDetached(), true, "the shell's frame is gone");
  const thrown = await page.evaluate((data) => {
    try {
      window.handle.update(data);
      return null;
    } catch (error) {
      return error.code;
    }
  }, SECOND);
  assert.equal(thrown, 'destroyed');
  await new Promise((ok) => setTimeout(ok, 200));
  assert.deepEqual(await page.evaluate(() => [window.loads.length, window.errors.length]), [1, 0]);
  await context.close();
});

test('no ready within timeoutMs: onError with code service_not_ready', async () => {
  const { context, page } = await openPage();
  const started = Date.now();
  await page.evaluate(
    ([service, data]) => window.show({ serviceUrl: service, cardId: 'pm-card', visualizationData: data, timeoutMs: 600 }),
    [`http://127.0.0.1:${closedPort}`, FIRST],
  );
  await page.waitForFunction(() => window.errors.length === 1, null, WAIT);
  const [error] = await page.evaluate(() => window.errors);
  assert.equal(error.code, 'service_not_ready');
  assert.match(error.message, /within 600 ms/);
  assert.ok(Date.now() - started >= 500, 'not before the timeout');
  assert.deepEqual(await page.evaluate(() => window.loads), []);
  await context.close();
});

test('height "auto": the frame takes the height the shell reports', async () => {
  const { context, page } = await openPage();
  await page.evaluate(
    ([service, data]) => window.show({ serviceUrl: service, cardId: 'pm-card', visualizationData: data, height: 'auto' }),
    [serviceHost.origin, FIRST],
  );
  await page.waitForFunction(() => window.loads.length === 1, null, WAIT);
  // 640 px wide at 8:5 is 400 px; the frame's height comes from the shell's message.
  await page.waitForFunction(() => window.handle.iframe.style.height === '400px', null, WAIT);
  assert.equal(await page.evaluate(() => window.handle.iframe.getBoundingClientRect().height), 400);
  // Narrower: the shell reports again and the frame follows.
  await page.evaluate(() => { window.handle.iframe.style.width = '320px'; });
  await page.waitForFunction(() => window.handle.iframe.style.height === '200px', null, WAIT);
  await context.close();
});

test('auto mode with postmessage: the shell\'s ready keeps the service; unreachable falls back', async () => {
  const { context, page } = await openPage();
  await page.evaluate(
    ([service, data]) => window.show({
      mode: 'auto', serviceUrl: service, cardId: 'pm-card', visualizationData: data, timeoutMs: 1500,
    }),
    [serviceHost.origin, FIRST],
  );
  await page.waitForFunction(() => window.loads.length === 1, null, WAIT);
  await new Promise((ok) => setTimeout(ok, 1800));
  assert.equal(await page.evaluate(() => window.handle.mode), 'service');
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  await page.evaluate(() => window.handle.destroy());

  await page.evaluate(
    ([service, data]) => window.show({
      mode: 'auto', serviceUrl: service, cardId: 'pm-card', visualizationData: data, timeoutMs: 1500,
    }),
    [`http://127.0.0.1:${closedPort}`, FIRST],
  );
  await page.waitForFunction(() => window.errors.length === 1, null, WAIT);
  const [notice] = await page.evaluate(() => window.errors);
  assert.equal(notice.name, 'FallbackToLocal');
  assert.equal(await page.evaluate(() => window.handle.mode), 'local');
  await context.close();
});

test("the shell answers and obeys only the parent_origin it was given", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The page host under another name: another origin, same server.
  const otherOrigin = pageHost.origin.replace('127.0.0.1', 'localhost');
  await page.goto(`${otherOrigin}/spy.html`);
  await page.waitForFunction(() => window.spyReady === true, null, WAIT);
  const addFrame = (parentOrigin, id) => page.evaluate(([service, origin, frameId]) => {
    const frame = document.createElement('iframe');
    frame.id = frameId;
    frame.src = `${service}/embed/${frameId}/?embed_mode=postmessage&parent_origin=${encodeURIComponent(origin)}`;
    document.body.append(frame);
  }, [serviceHost.origin, parentOrigin, id]);
  const frameFor = async (parentOrigin, id) => {
    await addFrame(parentOrigin, id);
    let frame;
    for (let tries = 0; !frame && tries < 100; tries += 1) {
      frame = page.frames().find((f) => f.url().includes(`/embed/${id}/`));
      if (!frame) await new Promise((ok) => setTimeout(ok, 50));
    }
    await frame.waitForFunction(() => document.readyState === 'complete', null, WAIT);
    return frame;
  };
  const send = (id) => page.evaluate(([frameId, data]) => {
    document.getElementById(frameId).contentWindow.postMessage(
      { type: 'zdr:vizdata', version: 1, id: 7, visualization_data: JSON.stringify(data) }, '*');
  }, [id, FIRST]);

  // Told the truth: the shell says ready to this page and draws what it sends.
  const honest = await frameFor(otherOrigin, 'honest');
  await page.waitForFunction(() => window.heard.some((m) => m.data?.type === 'zdr:ready'), null, WAIT);
  await send('honest');
  await page.waitForFunction(() => window.heard.some((m) => m.data?.type === 'zdr:vizdata:received'), null, WAIT);
  await honest.waitForFunction(() => document.querySelector('canvas') !== null, null, WAIT);

  // Told another origin (the real page host's): the host lets only that
  // origin frame the shell (frame-ancestors), so the browser does not even
  // show it here; nothing reaches this page, nothing is drawn.
  const heardBefore = await page.evaluate(() => window.heard.length);
  await addFrame(pageHost.origin, 'lied');
  await new Promise((ok) => setTimeout(ok, 700));
  await send('lied');
  await new Promise((ok) => setTimeout(ok, 700));
  assert.equal(await page.evaluate(() => window.heard.length), heardBefore, 'no ready, no answer');
  const lied = page.frames().find((f) => f.url().includes('/embed/lied/'));
  assert.equal(lied, undefined, 'the shell is not shown in a page of another origin');
  await context.close();
});

test("a second card's shell revalidates the engine instead of downloading it again", async () => {
  const { context, page } = await openPage();
  const wasmLines = () => serviceHost.log.filter((line) => line.includes('GET /node_modules/zdr-embed/pkg/engine/zdr_engine_bg.wasm '));
  const before = wasmLines().length;
  for (const cardId of ['pm-first', 'pm-second']) {
    await page.evaluate(
      ([service, id, data]) => window.show({ serviceUrl: service, cardId: id, visualizationData: data }),
      [serviceHost.origin, cardId, FIRST],
    );
    await page.waitForFunction(() => window.loads.length === 1, null, WAIT);
  }
  const lines = wasmLines().slice(before);
  assert.equal(lines.length, 2, lines.join('\n'));
  assert.match(lines[0], / 200 /, 'the first shell downloads the engine');
  assert.match(lines[1], / 304 0B /, 'the second revalidates it: 304, no body');
  await context.close();
});
