// End to end: local mode (the widget draws the card on a canvas in the page)
// and auto mode (the service first, the canvas when it cannot be reached), in
// headless Chromium, with the packed npm package.
//
// Local-mode pages are served by the real zdr-host (its strict CSP applies).
// Auto-mode pages are served by the recording responder (scripts/dev-server.mjs),
// which sets no page CSP: the service is then another origin (zdr-host, a port
// nobody listens on, or a server that never answers), as in a real deployment.
//
// It builds nothing: scripts/test.sh builds the package (scripts/build.sh) and
// zdr-host (`cargo build -p zdr-host`) first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { startServer } from '../../scripts/dev-server.mjs';
import { launch } from './browser.mjs';
import { hostSite, stopHost } from './host.mjs';
import { instrument } from './instrument.mjs';
import { ROOT } from './package.mjs';

const WAIT = { timeout: 15_000 };
const example = (name) => JSON.parse(readFileSync(join(ROOT, 'docs/examples', `${name}.json`), 'utf8'));

// The bar example: "Unit sales by region", five regions.
const BAR = example('bar');
// The same card with other values and title: other pixels.
const BAR_2 = {
  viz_config: { ...BAR.viz_config, title: 'Unit sales by region, revised' },
  data: BAR.data.map((d, i) => ({ x: d.x, y: [12000, 56000, 9000, 30500, 47000][i] })),
};
// Three bars with values whose formatting is known ("$1,250").
const KNOWN = {
  viz_config: { title: 'Known bars', viz_component_type: 'bar', x_label: 'Name', y_label: 'Amount', units: '$' },
  data: [
    { x: 'Alpha', y: 1250 },
    { x: 'Beta', y: 300 },
    { x: 'Gamma', y: 800 },
  ],
};
// 1,000 daily points: more rows than the hidden table keeps.
const THOUSAND = {
  viz_config: { title: 'Thousand points', viz_component_type: 'timeseries', y_label: 'Value' },
  data: {
    series: [
      {
        name: 'Daily',
        points: Array.from({ length: 1000 }, (_, i) => ({
          x: new Date(Date.UTC(2023, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
          y: Math.round(500 + 200 * Math.sin(i / 20)),
        })),
      },
    ],
  },
};

let work, host, devServer, browser, hanging;

before(async () => {
  let packageDir, site;
  ({ work, packageDir, site, host } = await hostSite('zdr-local-e2e-', {}));
  writeSite(site);
  devServer = await startServer({ packageDir, extraMounts: { '/fixtures/': site } });
  hanging = await startHangingServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await hanging?.close();
  await devServer?.close();
  const stopped = await stopHost(host);
  if (work) rmSync(work, { recursive: true, force: true });
  if (stopped) assert.deepEqual(stopped, { code: 0, signal: null }, 'zdr-host exits with 0 on SIGTERM');
});

/** One page for every test: the package imported by name, a container, and helpers. */
function writeSite(dir) {
  writeFileSync(
    join(dir, 'local.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>local</title>
<style>body { margin: 0; padding: 40px; font: 14px sans-serif } #chart { width: 640px }</style>
<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>
</head><body><div id="chart"></div>
<script type="module">
  import init, { render, preload } from 'zdr-embed';
  await init();
  // The engine before the first card, as a page that draws cards at once
  // would: every test below then sees local mode as one module drew it
  // (tests/e2e/split.test.mjs covers the page that does not).
  await preload();
  window.loads = [];
  window.errors = [];
  // Renders into #chart, recording onLoad (with the draws done by then) and onError.
  window.show = (options) => {
    window.loads = [];
    window.errors = [];
    window.handle = render({
      containerId: 'chart',
      onLoad: (element) => window.loads.push({ element, draws: window.__t.drawsOf(element), at: performance.now() }),
      onError: (error) => window.errors.push({
        isError: error instanceof Error, name: error.name, code: error.code, message: error.message,
        at: performance.now(),
      }),
      ...options,
    });
    window.renderedAt = performance.now();
    return true;
  };
  window.render = render;
  window.ready = true;
</script></body></html>`,
  );
}

/** A server that accepts connections and never answers them. */
async function startHangingServer() {
  const sockets = new Set();
  const server = createHttpServer(() => {});
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((ok) => server.close(ok));
    },
  };
}

/** A loopback port nothing listens on (bound, then closed). */
async function refusingOrigin() {
  const server = createNetServer();
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return `http://127.0.0.1:${port}`;
}

/**
 * A new browser context (its own device scale, touch) with the
 * instrumentation, and a page on `origin` whose console errors, CSP reports
 * and uncaught errors are kept in `problems`.
 */
async function openPage({ origin = host.origin, path = '/local.html', context: options = {} } = {}) {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 }, ...options });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' || /Content[ -]Security[ -]Policy/i.test(text)) {
      problems.push(`${message.type()}: ${text}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto(`${origin}${path}`);
  await page.waitForFunction(() => window.ready === true, null, WAIT);
  return { context, page, problems };
}

const show = (page, options) => page.evaluate((o) => window.show(o), options);
const loadsReach = (page, n) => page.waitForFunction((want) => window.loads.length >= want, n, WAIT);
const frames = (page, n = 6) => page.evaluate((k) => window.__t.nextFrames(k), n);
const stats = (page) => page.evaluate(() => window.__t.stats(window.handle.canvas));
const tooltip = (page) =>
  page.evaluate(() => {
    const tip = document.querySelector('#chart .zdr-embed-tooltip');
    return tip && {
      shown: getComputedStyle(tip).display !== 'none',
      // Each line is an element (the bold first line, then the value); read
      // as text so a hidden tooltip still tells what it last showed.
      lines: [...tip.children].map((line) => line.textContent.trim()).filter(Boolean),
      left: parseFloat(tip.style.left),
      top: parseFloat(tip.style.top),
    };
  });
const canvasBox = async (page) => page.locator('#chart canvas').boundingBox();

describe('local mode', () => {
  test('makes no request of any kind: render, hover, update, resize, toPNG, toSVG, destroy', async () => {
    const { context, page, problems } = await openPage();
    await page.waitForLoadState('networkidle');
    const requests = [];
    const record = (where) => (request) => requests.push(`${where} ${request.method()} ${request.url()}`);
    page.on('request', record('page'));
    context.on('request', record('context'));
    page.on('websocket', (ws) => requests.push(`websocket ${ws.url()}`));

    // With and without a service address: local mode never uses it.
    for (const service of [{}, { serviceUrl: host.origin, cardId: 'never-posted' }]) {
      await show(page, { mode: 'local', visualizationData: BAR, height: '400px', ...service });
      await loadsReach(page, 1);
      const handle = await page.evaluate(() => ({
        iframe: window.handle.iframe,
        isCanvas: window.handle.canvas instanceof HTMLCanvasElement,
        mode: window.handle.mode,
      }));
      assert.deepEqual(handle, { iframe: null, isCanvas: true, mode: 'local' });
      const box = await canvasBox(page);
      for (let x = 0; x < box.width; x += 40) await page.mouse.move(box.x + x, box.y + box.height * 0.7);
      await page.mouse.move(5, 5);
      await page.evaluate((data) => window.handle.update(data), BAR_2);
      await loadsReach(page, 2);
      await page.evaluate(() => { document.getElementById('chart').style.width = '500px'; });
      await frames(page);
      await page.evaluate(() => { document.getElementById('chart').style.width = ''; });
      await frames(page);
      const png = await page.evaluate(async () => {
        const blob = await window.handle.toPNG();
        const bytes = new Uint8Array(await blob.arrayBuffer());
        return { type: blob.type, size: blob.size, magic: Array.from(bytes.slice(1, 4)) };
      });
      assert.equal(png.type, 'image/png');
      assert.ok(png.size > 2000, `a real PNG (${png.size} bytes)`);
      assert.equal(String.fromCharCode(...png.magic), 'PNG');
      const svg = await page.evaluate(() => window.handle.toSVG());
      assert.match(svg, /^(<\?xml[^>]*>\s*)?<svg[\s>]/);
      assert.match(svg, /Unit sales by region, revised/);
      await page.evaluate(() => window.handle.destroy());
      await page.waitForTimeout(300);
    }
    assert.deepEqual(requests, [], 'local mode made no request');

    // The recorder does see requests.
    await page.evaluate(() => fetch('/healthz'));
    assert.ok(requests.some((r) => r.startsWith('page GET') && r.endsWith('/healthz')), `recorded: ${requests}`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('draws a non-blank canvas whose pixels follow the data; onLoad gets the canvas after the draw', async () => {
    const { context, page, problems } = await openPage();
    await show(page, { mode: 'local', visualizationData: BAR, height: '400px' });
    await loadsReach(page, 1);
    const first = await page.evaluate(() => ({
      same: window.loads[0].element === window.handle.canvas,
      draws: window.loads[0].draws,
      afterRender: window.loads[0].at > window.renderedAt,
    }));
    assert.deepEqual(first, { same: true, draws: 1, afterRender: true }, 'onLoad(canvas) after the first draw');
    const a = await stats(page);
    assert.ok(a.colours > 30, `many colours (text, bars, axes): ${a.colours}`);
    assert.ok(a.share > 0.03, `marks cover more than 3% of the canvas: ${a.share}`);

    await page.evaluate(() => { window.before = window.__t.pixels(window.handle.canvas); });
    await page.evaluate((data) => window.handle.update(data), BAR_2);
    await loadsReach(page, 2);
    const changed = await page.evaluate(() => window.__t.diff(window.before, window.__t.pixels(window.handle.canvas)));
    assert.ok(changed > 0.01, `other data, other pixels: ${(changed * 100).toFixed(2)}% changed`);
    const b = await stats(page);
    assert.ok(b.colours > 30 && b.share > 0.03, 'still a drawn chart');
    // Deterministic: the same data again draws the same pixels.
    await page.evaluate(() => { window.before = window.__t.pixels(window.handle.canvas); });
    await page.evaluate((data) => window.handle.update(data), BAR_2);
    await loadsReach(page, 3);
    const same = await page.evaluate(() => window.__t.diff(window.before, window.__t.pixels(window.handle.canvas)));
    assert.equal(same, 0, 'the same data draws the same pixels');
    await page.evaluate(() => window.handle.destroy());

    // darkMode decides the background.
    for (const [darkMode, dark] of [[true, true], [false, false]]) {
      await show(page, { mode: 'local', visualizationData: BAR, height: '300px', darkMode });
      await loadsReach(page, 1);
      const { background } = await stats(page);
      const luma = (background[0] * 299 + background[1] * 587 + background[2] * 114) / 1000;
      assert.equal(luma < 100, dark, `darkMode ${darkMode}: background rgb(${background.slice(0, 3)})`);
      await page.evaluate(() => window.handle.destroy());
    }
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the backing store is the CSS size times devicePixelRatio, and the drawing fills it', async () => {
    for (const scale of [1, 2, 3]) {
      const { context, page, problems } = await openPage({ context: { deviceScaleFactor: scale } });
      await show(page, { mode: 'local', visualizationData: BAR, width: '600px', height: '400px' });
      await loadsReach(page, 1);
      const size = await page.evaluate(() => {
        const c = window.handle.canvas;
        return { dpr: devicePixelRatio, css: [c.clientWidth, c.clientHeight], backing: [c.width, c.height] };
      });
      assert.deepEqual(size, { dpr: scale, css: [600, 400], backing: [600 * scale, 400 * scale] });
      // Drawn at device resolution, not in the top-left CSS-sized corner.
      const { bounds } = await stats(page);
      assert.ok(bounds.right > 0.9 * 600 * scale && bounds.bottom > 0.85 * 400 * scale,
        `x${scale}: marks reach across the backing store: ${JSON.stringify(bounds)}`);
      assert.deepEqual(problems, []);
      await context.close();
    }
  });

  test('a new devicePixelRatio (another screen, a zoom) redraws sharp with no resize, once', async () => {
    const { context, page, problems } = await openPage({ context: { deviceScaleFactor: 1 } });
    await show(page, { mode: 'local', visualizationData: BAR, width: '600px', height: '400px' });
    await loadsReach(page, 1);
    await frames(page);
    const draws = () => page.evaluate(() => window.__t.drawsOf(window.handle.canvas));
    const backing = () => page.evaluate(() => [devicePixelRatio, window.handle.canvas.width, window.handle.canvas.height]);
    assert.deepEqual(await backing(), [1, 600, 400]);
    const before = await draws();
    // The emulated screen changes under the page, as when a window moves
    // to a denser screen: the canvas keeps its CSS size, so its resize
    // observer does not fire. (Chromium re-evaluates media queries for an
    // emulated scale only with a new viewport size, hence the 1 px more.)
    const cdp = await context.newCDPSession(page);
    for (const [scale, expected, width] of [[2, [2, 1200, 800], 901], [1.5, [1.5, 900, 600], 902]]) {
      await cdp.send('Emulation.setDeviceMetricsOverride', { width, height: 700, deviceScaleFactor: scale, mobile: false });
      await page.waitForFunction((w) => window.handle.canvas.width === w, expected[1], WAIT);
      await frames(page);
      assert.deepEqual(await backing(), expected, `x${scale}`);
    }
    assert.equal(await draws() - before, 2, 'one draw per change of ratio');
    const { bounds } = await stats(page);
    assert.ok(bounds.right > 0.9 * 900 && bounds.bottom > 0.85 * 600, `drawn across the new backing store: ${JSON.stringify(bounds)}`);
    await page.screenshot({ path: join(ROOT, 'test-results', 'local-dpr-1.5.png') });
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('resizing redraws at most once per frame, and the backing store follows the size', async () => {
    const { context, page, problems } = await openPage({ context: { deviceScaleFactor: 2 } });
    await show(page, { mode: 'local', visualizationData: BAR, height: '400px' });
    await loadsReach(page, 1);
    await frames(page);
    const draws = () => page.evaluate(() => window.__t.drawsOf(window.handle.canvas));
    assert.equal(await draws(), 1, 'one draw for the first paint');

    // 20 changes in one task, each laid out: one draw.
    const burst = await page.evaluate(async () => {
      const chart = document.getElementById('chart');
      const before = window.__t.drawsOf(window.handle.canvas);
      for (let i = 1; i <= 20; i++) {
        chart.style.width = `${640 - i * 10}px`;
        void chart.offsetWidth;
      }
      await window.__t.nextFrames(6);
      const c = window.handle.canvas;
      return { draws: window.__t.drawsOf(c) - before, css: c.clientWidth, backing: c.width, height: c.height };
    });
    assert.deepEqual(burst, { draws: 1, css: 440, backing: 880, height: 800 });

    // One change per frame for 10 frames: no more than one draw per frame.
    const perFrame = await page.evaluate(async () => {
      const chart = document.getElementById('chart');
      const before = window.__t.drawsOf(window.handle.canvas);
      for (let i = 1; i <= 10; i++) {
        chart.style.width = `${440 + i * 15}px`;
        await window.__t.nextFrames(1);
      }
      await window.__t.nextFrames(6);
      const c = window.handle.canvas;
      return { draws: window.__t.drawsOf(c) - before, css: c.clientWidth, backing: c.width };
    });
    assert.ok(perFrame.draws >= 2 && perFrame.draws <= 11, `10 frames of changes, ${perFrame.draws} draws`);
    assert.deepEqual([perFrame.css, perFrame.backing], [590, 1180]);

    // A resize and an update in the same task: still one draw.
    const both = await page.evaluate(async (data) => {
      const before = window.__t.drawsOf(window.handle.canvas);
      document.getElementById('chart').style.width = '620px';
      window.handle.update(data);
      await window.__t.nextFrames(6);
      return window.__t.drawsOf(window.handle.canvas) - before;
    }, BAR_2);
    assert.equal(both, 1, 'a resize and an update in one frame cost one draw');

    // The same size again: nothing to draw.
    const none = await page.evaluate(async () => {
      const before = window.__t.drawsOf(window.handle.canvas);
      document.getElementById('chart').style.width = '620px';
      await window.__t.nextFrames(6);
      return window.__t.drawsOf(window.handle.canvas) - before;
    });
    assert.equal(none, 0);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('hovering and touching a bar shows its label and formatted value; leaving hides it', async () => {
    const { context, page, problems } = await openPage();
    await show(page, { mode: 'local', visualizationData: KNOWN, height: '400px' });
    await loadsReach(page, 1);
    const box = await canvasBox(page);
    assert.equal((await tooltip(page)).shown, false, 'hidden until hovered');

    // Scan a few horizontal lines across the plot until each bar has answered.
    const found = new Map();
    for (const fraction of [0.8, 0.7, 0.6, 0.9, 0.5]) {
      const y = Math.round(box.height * fraction);
      for (let x = 0; x < box.width && found.size < 3; x += 3) {
        await page.mouse.move(box.x + x, box.y + y);
        const tip = await tooltip(page);
        if (tip.shown && !found.has(tip.lines[0])) found.set(tip.lines[0], { x, y, tip });
      }
      if (found.size >= 3) break;
    }
    assert.deepEqual([...found.keys()], ['Alpha', 'Beta', 'Gamma'], 'the bars answer from left to right');
    assert.deepEqual(found.get('Alpha').tip.lines, ['Alpha', '$1,250']);
    assert.deepEqual(found.get('Beta').tip.lines, ['Beta', '$300']);
    assert.deepEqual(found.get('Gamma').tip.lines, ['Gamma', '$800']);
    // Placed near the pointer, inside the card.
    const { x, y, tip } = found.get('Alpha');
    assert.ok(Math.abs(tip.left - x) < 250 && Math.abs(tip.top - y) < 120, `near the pointer: ${JSON.stringify(tip)}`);
    assert.ok(tip.left >= 0 && tip.top >= 0 && tip.left < box.width && tip.top < box.height);

    // Far from any bar (the top-left corner of the card): hidden.
    await page.mouse.move(box.x + found.get('Alpha').x, box.y + y);
    assert.equal((await tooltip(page)).shown, true);
    await page.mouse.move(box.x + 3, box.y + 3);
    assert.equal((await tooltip(page)).shown, false, 'no mark near the corner');
    // Leaving the canvas hides it.
    await page.mouse.move(box.x + found.get('Gamma').x, box.y + found.get('Gamma').y);
    assert.equal((await tooltip(page)).shown, true);
    await page.mouse.move(5, 5);
    assert.equal((await tooltip(page)).shown, false, 'pointerleave hides the tooltip');
    assert.deepEqual(problems, []);
    await context.close();

    // A tap on a touch screen shows it too, and it stays after the finger lifts.
    const touch = await openPage({ context: { hasTouch: true } });
    await show(touch.page, { mode: 'local', visualizationData: KNOWN, height: '400px' });
    await loadsReach(touch.page, 1);
    const at = found.get('Beta');
    await touch.page.touchscreen.tap(box.x + at.x, box.y + at.y);
    await touch.page.waitForTimeout(100);
    const tapped = await tooltip(touch.page);
    assert.deepEqual([tapped.shown, tapped.lines], [true, ['Beta', '$300']], 'a tap shows the tooltip');
    assert.deepEqual(touch.problems, []);
    await touch.context.close();
  });

  test('the canvas is an image named by title and summary, followed by a hidden data table', async () => {
    const { context, page, problems } = await openPage();
    await show(page, { mode: 'local', visualizationData: BAR, height: '400px' });
    await loadsReach(page, 1);
    const a11y = async () => {
      // The table is written in a task after the frame that shows the card.
      await page.evaluate(() => new Promise((ok) => setTimeout(ok, 0)));
      return page.evaluate(() => {
        const wrapper = document.querySelector('#chart > div.zdr-embed-local');
        const canvas = wrapper.querySelector('canvas');
        const table = wrapper.querySelector('table.zdr-embed-data');
        // Visually hidden: clipped, so nothing of it can be seen or hit.
        const rect = table.getBoundingClientRect();
        const probe = (x, y) => {
          const hit = document.elementFromPoint(x, y);
          return !hit || !table.contains(hit);
        };
        const inView = rect.top < innerHeight && rect.left < innerWidth;
        return {
          role: canvas.getAttribute('role'),
          label: canvas.getAttribute('aria-label'),
          caption: table.caption?.textContent,
          headers: [...table.querySelectorAll('thead th')].map((th) => th.textContent),
          rows: table.querySelectorAll('tbody tr').length,
          firstRow: [...(table.querySelector('tbody tr')?.cells ?? [])].map((td) => td.textContent),
          hidden: inView
            ? [[0.5, 0.5], [0.1, 0.1], [0.9, 0.9]].every(([fx, fy]) =>
                probe(rect.left + fx * Math.min(rect.width, innerWidth - rect.left),
                  rect.top + fy * Math.min(rect.height, innerHeight - rect.top)))
            : 'out of view',
          pageSize: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
          tooltipHidden: wrapper.querySelector('.zdr-embed-tooltip').getAttribute('aria-hidden'),
        };
      });
    };
    const bar = await a11y();
    assert.equal(bar.role, 'img');
    assert.match(bar.label, /^Unit sales by region\. Bar chart\b/, bar.label);
    assert.match(bar.label, /5 categories/);
    assert.match(bar.label, /North/);
    assert.equal(bar.caption, 'Unit sales by region');
    assert.equal(bar.headers.length, 2);
    assert.equal(bar.headers[0], 'Region');
    assert.equal(bar.rows, BAR.data.length);
    assert.equal(bar.firstRow[0], 'North');
    assert.equal(bar.hidden, true, 'visually hidden');
    assert.equal(bar.tooltipHidden, 'true');
    // Assistive technology sees the image by its name, and the table.
    assert.equal(await page.getByRole('img', { name: /^Unit sales by region\./ }).count(), 1);
    assert.equal(await page.getByRole('table', { name: 'Unit sales by region' }).count(), 1);

    // An update renames the image and refills the table.
    await page.evaluate((data) => window.handle.update(data), BAR_2);
    await loadsReach(page, 2);
    const updated = await a11y();
    assert.match(updated.label, /^Unit sales by region, revised\. Bar chart/);
    assert.equal(updated.caption, 'Unit sales by region, revised');
    await page.evaluate(() => window.handle.destroy());

    // 1,000 points: the table keeps 200 rows and says so.
    await show(page, { mode: 'local', visualizationData: THOUSAND, height: '400px' });
    await loadsReach(page, 1);
    const big = await a11y();
    assert.match(big.label, /^Thousand points\. Line chart/);
    assert.equal(big.rows, 200);
    assert.equal(big.caption, 'Thousand points (the first 200 of 1,000 rows)');
    assert.equal(big.firstRow.length, big.headers.length);
    assert.equal(big.hidden, true, 'visually hidden');
    // 200 hidden rows take no room on the page: it does not grow or scroll.
    assert.deepEqual(big.pageSize, [900, 700]);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('twenty cards rendered in one task: one batch draws them all before any onLoad, without waiting for an animation frame; their interaction follows in a task', async () => {
    const { context, page, problems } = await openPage();
    const seen = await page.evaluate(async ([a, b, timeseries]) => {
      const cards = Array.from({ length: 20 }, (_, i) => [a, b, timeseries][i % 3]);
      const els = cards.map((_, i) => {
        const el = document.createElement('div');
        el.id = `many${i}`;
        el.style.width = '300px';
        document.body.appendChild(el);
        return el;
      });
      const request = window.requestAnimationFrame;
      let requested = 0;
      window.requestAnimationFrame = (callback) => {
        requested += 1;
        return request(callback);
      };
      const atLoad = [];
      let handles;
      // The page's own frame, asked for before the cards: it finds them drawn.
      let inPageFrame = null;
      request(() => (inPageFrame = els.map((el) => window.__t.drawsOf(el.querySelector('canvas')))));
      try {
        await new Promise((ok, fail) => {
          let loaded = 0;
          handles = cards.map((card, i) => window.render({
            containerId: els[i].id, mode: 'local', visualizationData: card, height: '200px', onError: fail,
            onLoad: () => {
              atLoad.push({
                drawn: els.map((el) => window.__t.drawsOf(el.querySelector('canvas'))),
                tooltips: document.querySelectorAll('[id^=many] .zdr-embed-tooltip').length,
              });
              if (++loaded === cards.length) ok();
            },
          }));
        });
      } finally {
        window.requestAnimationFrame = request;
      }
      await new Promise((ok) => setTimeout(ok, 50));
      const after = {
        tooltips: document.querySelectorAll('[id^=many] .zdr-embed-tooltip').length,
        legends: document.querySelectorAll('[id^=many] .zdr-embed-legend').length,
        labelled: els.filter((el) => /\. (Bar chart|Line chart)/.test(el.querySelector('canvas').getAttribute('aria-label'))).length,
      };
      for (const handle of handles) handle.destroy();
      for (const el of els) el.remove();
      return { requested, inPageFrame, first: atLoad[0], last: atLoad[atLoad.length - 1], after, live: window.__t.live() };
    }, [BAR, BAR_2, example('timeseries')]);
    assert.equal(seen.requested, 0, 'no animation frame waited for: the first draws run once the task is done');
    assert.deepEqual(seen.inPageFrame, Array(20).fill(1), 'every card drawn before the next animation frame');
    assert.deepEqual(seen.first.drawn, Array(20).fill(1), 'every card drawn once before the first onLoad');
    assert.equal(seen.first.tooltips, 0, 'no card makes its interaction before the first pixels');
    assert.deepEqual(seen.after, { tooltips: 20, legends: 20, labelled: 20 }, 'each card has its tooltip, legend buttons and summary a task later');
    assert.equal(seen.live.frames, 0, 'no frame left once they are destroyed');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('destroy removes everything: 1,000 render/destroy cycles leave no nodes, listeners, observers or frames', async () => {
    const { context, page, problems } = await openPage();
    const cdp = await context.newCDPSession(page);
    const counters = async () => {
      for (let i = 0; i < 3; i++) {
        await cdp.send('HeapProfiler.collectGarbage');
        // Finalizers (wasm-bindgen frees dropped handles) run after a collection.
        await page.evaluate(() => new Promise((ok) => setTimeout(ok, 50)));
      }
      const { nodes, jsEventListeners, documents } = await cdp.send('Memory.getDOMCounters');
      return { nodes, jsEventListeners, documents };
    };
    const cycles = (n, drawEvery) =>
      page.evaluate(async ([count, every, data]) => {
        for (let i = 0; i < count; i++) {
          // With every listener a card can have: keyboard, legend, zoom,
          // crosshair (and its group), print, the menu.
          window.show({ mode: 'local', visualizationData: data, height: '300px', menu: true, syncGroup: 'cycles' });
          if (every && i % every === 0) {
            while (!window.loads.length) await window.__t.nextFrames(1);
          }
          window.handle.destroy();
        }
        window.handle = null;
      }, [n, drawEvery, KNOWN]);

    await cycles(5, 1); // warm-up: the module's one-time allocations
    // Playwright's own helpers (used below) live in the page too: load them first.
    assert.equal(await page.locator('#chart').innerHTML(), '');
    const live0 = await page.evaluate(() => window.__t.live());
    const before = await counters();
    await cycles(1000, 50); // 20 of them drawn, the rest destroyed before their frame
    const live1 = await page.evaluate(() => window.__t.live());
    assert.deepEqual(live1, live0, 'no listeners, observers or animation frames left');
    assert.equal(await page.locator('#chart').innerHTML(), '', 'the container is empty');
    const afterCycles = await counters();
    assert.ok(
      afterCycles.nodes <= before.nodes &&
        afterCycles.jsEventListeners <= before.jsEventListeners &&
        afterCycles.documents === before.documents,
      `no growth in DOM nodes, event listeners or documents: ${JSON.stringify({ before, afterCycles })}`,
    );

    // After destroy: resizing the container or the old canvas draws nothing,
    // and the handle refuses update, toSVG and toPNG with the "destroyed" error.
    const afterDestroy = await page.evaluate(async (data) => {
      window.show({ mode: 'local', visualizationData: data, height: '300px' });
      while (!window.loads.length) await window.__t.nextFrames(1);
      const handle = window.handle;
      const canvas = handle.canvas;
      const whileLive = window.__t.live(); // the instrumentation does see them
      handle.destroy();
      handle.destroy(); // twice is fine
      const draws = window.__t.allDraws;
      const chart = document.getElementById('chart');
      chart.style.width = '300px';
      document.body.append(canvas); // even re-attached, the old canvas is not observed
      canvas.style.width = '200px';
      await window.__t.nextFrames(6);
      chart.style.width = '';
      canvas.remove();
      const refused = (f) => { try { f(); return null; } catch (e) { return e.code; } };
      const png = await handle.toPNG().then(() => null, (e) => e.code);
      return {
        draws: window.__t.allDraws - draws,
        empty: chart.childNodes.length === 0,
        update: refused(() => handle.update(data)),
        svg: refused(() => handle.toSVG()),
        png,
        live: window.__t.live(),
        whileLive,
      };
    }, KNOWN);
    const { whileLive } = afterDestroy;
    delete afterDestroy.whileLive;
    assert.ok(whileLive.listeners > live0.listeners && whileLive.observing === live0.observing + 1,
      `a live card has listeners and an observer: ${JSON.stringify({ live0, whileLive })}`);
    assert.deepEqual(afterDestroy, {
      draws: 0,
      empty: true,
      update: 'destroyed',
      svg: 'destroyed',
      png: 'destroyed',
      live: live0,
    });
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('auto mode', () => {
  const autoPage = () => openPage({ origin: devServer.origin, path: '/fixtures/local.html' });
  // A refused connection is logged by Chromium for the probe and the frame.
  const unexpected = (problems) => problems.filter((p) => !/ERR_CONNECTION_REFUSED/.test(p));

  test('falls back to the canvas when the service address refuses connections', async () => {
    const { context, page, problems } = await autoPage();
    const origin = await refusingOrigin();
    const start = await page.evaluate((o) => {
      window.show(o);
      const { mode, iframe } = window.handle;
      return { mode, iframe: iframe instanceof HTMLIFrameElement && iframe.parentElement.id };
    }, { mode: 'auto', serviceUrl: origin, cardId: 'refused', visualizationData: BAR, height: '400px' });
    assert.deepEqual(start, { mode: 'service', iframe: 'chart' }, 'starts with the service');
    await page.waitForFunction(() => window.errors.length > 0, null, WAIT);
    await loadsReach(page, 1);
    const state = await page.evaluate(() => ({
      errors: window.errors.map(({ at, ...e }) => e),
      after: window.errors[0].at - window.renderedAt,
      mode: window.handle.mode,
      iframe: window.handle.iframe,
      canvasInChart: window.handle.canvas?.closest('#chart') === document.getElementById('chart'),
      loadedCanvas: window.loads[0].element === window.handle.canvas,
      frames: document.querySelectorAll('#chart iframe').length,
    }));
    assert.equal(state.errors.length, 1);
    const [error] = state.errors;
    assert.deepEqual(
      { isError: error.isError, name: error.name, code: error.code },
      { isError: true, name: 'FallbackToLocal', code: 'fallback_to_local' },
    );
    assert.match(error.message, /could not be reached/);
    assert.ok(state.after < 4000, `the probe decided, not the 5 s timeout (${Math.round(state.after)} ms)`);
    assert.deepEqual(
      { mode: state.mode, iframe: state.iframe, canvasInChart: state.canvasInChart, loadedCanvas: state.loadedCanvas, frames: state.frames },
      { mode: 'local', iframe: null, canvasInChart: true, loadedCanvas: true, frames: 0 },
    );
    const drawn = await stats(page);
    assert.ok(drawn.colours > 30 && drawn.share > 0.03, 'the card is drawn on the canvas');
    await page.waitForTimeout(300);
    assert.equal(await page.locator('#chart form').count(), 0, 'no form left');
    assert.deepEqual(unexpected(problems), []);
    await context.close();
  });

  test('stays with the service when it answers: onLoad(iframe), no onError, even after timeoutMs', async () => {
    const { context, page, problems } = await autoPage();
    await show(page, {
      mode: 'auto',
      serviceUrl: host.origin,
      cardId: 'auto-served',
      visualizationData: BAR,
      height: '400px',
      timeoutMs: 1500,
    });
    await loadsReach(page, 1);
    await page.waitForTimeout(2500); // beyond timeoutMs
    const state = await page.evaluate(() => ({
      loads: window.loads.map((l) => l.element instanceof HTMLIFrameElement && l.element === window.handle.iframe),
      errors: window.errors.map((e) => e.message),
      mode: window.handle.mode,
      canvas: window.handle.canvas,
      frames: document.querySelectorAll('#chart iframe').length,
      canvases: document.querySelectorAll('#chart canvas').length,
    }));
    assert.deepEqual(state, { loads: [true], errors: [], mode: 'service', canvas: null, frames: 1, canvases: 0 });
    const frame = await (await page.waitForSelector('#chart iframe')).contentFrame();
    assert.equal(await frame.title(), 'Unit sales by region', "zdr-host's chart page");
    assert.match(frame.url(), /\/embed\/auto-served\/$/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('falls back when the service accepts the connection but never answers (timeoutMs)', async () => {
    const { context, page, problems } = await autoPage();
    await show(page, {
      mode: 'auto',
      serviceUrl: hanging.origin,
      cardId: 'hangs',
      visualizationData: BAR,
      height: '400px',
      timeoutMs: 500,
    });
    await page.waitForFunction(() => window.errors.length > 0, null, WAIT);
    await loadsReach(page, 1);
    const state = await page.evaluate(() => ({
      errors: window.errors.map(({ name, code, message }) => ({ name, code, message })),
      after: window.errors[0].at - window.renderedAt,
      mode: window.handle.mode,
      iframe: window.handle.iframe,
      frames: document.querySelectorAll('#chart iframe').length,
    }));
    assert.equal(state.errors.length, 1);
    assert.equal(state.errors[0].name, 'FallbackToLocal');
    assert.equal(state.errors[0].code, 'fallback_to_local');
    assert.match(state.errors[0].message, /500 ms/);
    assert.match(state.errors[0].message, /timeoutMs/);
    assert.ok(state.after >= 450 && state.after < 3000, `after about 500 ms (${Math.round(state.after)} ms)`);
    assert.deepEqual([state.mode, state.iframe, state.frames], ['local', null, 0]);
    const drawn = await stats(page);
    assert.ok(drawn.colours > 30 && drawn.share > 0.03, 'the card is drawn on the canvas');
    assert.deepEqual(problems, []);
    await context.close();
  });
});

test('scripts/screenshot-demo.mjs saves the demo at 1x and 2x', async () => {
  const run = promisify(execFile);
  const { stdout } = await run(process.execPath, [join(ROOT, 'scripts/screenshot-demo.mjs')], {
    cwd: ROOT,
    timeout: 120_000,
  });
  const size = (file) => {
    const png = readFileSync(file);
    assert.equal(png.toString('latin1', 1, 4), 'PNG', `${file} is a PNG`);
    return [png.readUInt32BE(16), png.readUInt32BE(20)];
  };
  const [w1, h1] = size(join(ROOT, 'test-results/demo-1x.png'));
  const [w2, h2] = size(join(ROOT, 'test-results/demo-2x.png'));
  assert.ok(w1 >= 1200, `wide enough for the side-by-side layout (${w1})`);
  assert.equal(w2, 2 * w1, "the 2x shot is the same page at twice the pixels");
  // Text metrics may round a CSS pixel differently at 2x.
  assert.ok(Math.abs(h2 - 2 * h1) <= 4, `2x height ${h2} is about twice ${h1}`);
  assert.match(stdout, /demo-2x\.png/);
});
