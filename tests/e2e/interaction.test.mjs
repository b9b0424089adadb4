// End to end: exploring a card drawn in the page with the keyboard alone,
// and getting its data out, in headless Chromium with the packed package on
// the real zdr-host. What a person sees is read from screenshots; what a
// screen reader gets, from Chromium's accessibility tree (CDP).
//
// It builds nothing: scripts/test.sh builds the package and zdr-host first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { launch } from './browser.mjs';
import { hostSite, tearDown } from './host.mjs';
import { ROOT } from './package.mjs';

const WAIT = { timeout: 15_000 };
const example = (name) => JSON.parse(readFileSync(join(ROOT, 'docs/examples', `${name}.json`), 'utf8'));

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>interaction</title>
<style>body { margin: 0; padding: 40px; font: 14px sans-serif } #chart { width: 640px } #tall { height: 2000px }
@media print { #chart { width: 720px } button { display: none } }</style>
<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>
</head><body><button id="before">Before</button><div id="chart"></div><button id="after">After</button><div id="tall"></div>
<script type="module">
  import init, { render, preload } from 'zdr-embed';
  await init();
  await preload();
  window.show = (options) => new Promise((loaded, failed) => {
    window.handle?.destroy();
    window.handle = render({ containerId: 'chart', mode: 'local', height: '400px', onLoad: () => loaded(true), onError: failed, ...options });
  });
  window.render = render;
  window.ready = true;
</script></body></html>`;

let work, host, browser;

before(async () => {
  ({ work, host } = await hostSite('zdr-interaction-e2e-', { 'interaction.html': PAGE }));
  browser = await launch();
});

after(() => tearDown({ browser, host, work }));

async function openPage() {
  const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${host.origin}/interaction.html`);
  await page.waitForFunction(() => window.ready === true, null, WAIT);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Accessibility.enable');
  return { context, page, cdp, problems };
}

async function showCard(page, data) {
  await page.evaluate((d) => window.show({ visualizationData: d }), data);
  // Drawn in an animation frame; the hidden table follows in a task.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
}

/** What a screen reader is told: the text of the polite live region, from the accessibility tree. */
async function announced(cdp) {
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const status = nodes.find((n) => n.role?.value === 'status');
  assert.ok(status, 'a live region (role status) in the accessibility tree');
  const live = status.properties?.find((p) => p.name === 'live')?.value?.value;
  assert.equal(live, 'polite');
  const texts = [];
  const walk = (node) => {
    if (!node) return;
    if (node.role?.value === 'StaticText' && node.name?.value) texts.push(node.name.value);
    for (const id of node.childIds ?? []) walk(byId.get(id));
  };
  walk(status);
  return texts.join('');
}

/** The canvas in the accessibility tree: its role, name and whether it takes focus. */
async function canvasNode(cdp) {
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const node = nodes.find((n) => n.role?.value === 'image' || n.role?.value === 'img');
  return node && {
    name: node.name?.value,
    focusable: node.properties?.find((p) => p.name === 'focusable')?.value?.value === true,
    focused: node.properties?.find((p) => p.name === 'focused')?.value?.value === true,
  };
}

/** The tooltip's lines and the focus ring's box (CSS pixels in the card), as shown now. */
const seen = (page) =>
  page.evaluate(() => {
    const tip = document.querySelector('#chart .zdr-embed-tooltip');
    const ring = document.querySelector('#chart .zdr-embed-focus');
    const visible = (e) => e && getComputedStyle(e).display !== 'none';
    return {
      tip: visible(tip) ? [...tip.children].map((l) => l.textContent.trim()).join(' | ') : null,
      ring: visible(ring)
        ? { left: parseFloat(ring.style.left), top: parseFloat(ring.style.top), width: ring.offsetWidth, height: ring.offsetHeight, radius: ring.style.borderRadius }
        : null,
      scrollY: window.scrollY,
      active: document.activeElement?.tagName,
    };
  });

/** Pixels that differ between two screenshots of the same clip (PNG buffers, decoded in the page). */
async function changedPixels(page, a, b) {
  // Decoded on a blank page of its own: the host's CSP keeps data: URLs out of the card's.
  const scratch = await page.context().newPage();
  const changed = await scratch.evaluate(async ([a, b]) => {
    const decode = async (base64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
      const c = new OffscreenCanvas(bitmap.width, bitmap.height);
      const g = c.getContext('2d');
      g.drawImage(bitmap, 0, 0);
      return g.getImageData(0, 0, c.width, c.height).data;
    };
    const [x, y] = [await decode(a), await decode(b)];
    let changed = 0;
    for (let i = 0; i < x.length; i += 4) {
      if (Math.abs(x[i] - y[i]) + Math.abs(x[i + 1] - y[i + 1]) + Math.abs(x[i + 2] - y[i + 2]) > 60) changed += 1;
    }
    return changed;
  }, [a.toString('base64'), b.toString('base64')]);
  await scratch.close();
  return changed;
}

/** Tabs from the button before the card into it. */
async function tabIn(page) {
  await page.focus('#before');
  await page.keyboard.press('Tab');
  assert.equal((await seen(page)).active, 'CANVAS', 'one Tab from the button before reaches the card');
}

describe('the keyboard', () => {
  test('walks a bar chart: one tab stop, arrows, Home, End, Escape, a ring and the tooltip read out', async () => {
    const { context, page, cdp, problems } = await openPage();
    await showCard(page, example('bar'));
    const node = await canvasNode(cdp);
    assert.ok(node?.focusable, 'the card is focusable');
    assert.match(node.name, /^Unit sales by region/);

    await tabIn(page);
    const clip = { ...(await page.locator('#chart').boundingBox()) };
    const before = await page.screenshot({ clip });
    assert.equal((await seen(page)).ring, null, 'no ring before a key');

    await page.keyboard.press('ArrowRight');
    let now = await seen(page);
    assert.equal(now.tip, 'North | 48,200', 'the first bar, as its tooltip says');
    assert.equal(await announced(cdp), 'North: 48,200', 'and as a screen reader hears it');
    assert.ok(now.ring && now.ring.radius === '2px', 'a ring around the bar');
    const ringed = await page.screenshot({ clip });
    const changed = await changedPixels(page, before, ringed);
    assert.ok(changed > 200, `the ring and the tooltip are seen (${changed} pixels changed)`);

    await page.keyboard.press('ArrowRight');
    assert.equal(await announced(cdp), 'South: 31,950');
    await page.keyboard.press('End');
    assert.equal(await announced(cdp), 'Central: 18,420');
    await page.keyboard.press('ArrowRight');
    assert.equal(await announced(cdp), 'Central: 18,420', 'the last bar stays the last');
    await page.keyboard.press('Home');
    assert.equal(await announced(cdp), 'North: 48,200');
    now = await seen(page);
    assert.equal(now.scrollY, 0, 'the keys moved the ring, not the page');

    await page.keyboard.press('Escape');
    now = await seen(page);
    assert.equal(now.ring, null, 'Escape leaves the marks');
    assert.equal(now.tip, null);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'after', 'one Tab leaves the card');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('walks a line chart along a series and across series', async () => {
    const { context, page, cdp } = await openPage();
    await showCard(page, example('timeseries'));
    await tabIn(page);
    await page.keyboard.press('ArrowRight');
    assert.equal(await announced(cdp), 'Web, Jan 1, 2025: 16,239');
    await page.keyboard.press('ArrowRight');
    assert.equal(await announced(cdp), 'Web, Jan 8, 2025: 16,359');
    await page.keyboard.press('ArrowDown');
    assert.equal(await announced(cdp), 'Mobile, Jan 8, 2025: 11,397'.replace('11,397', await page.evaluate(() => {
      const row = [...document.querySelectorAll('#chart .zdr-embed-data tbody tr')][1];
      return row.children[2].textContent;
    })), 'down: the next series at the same date');
    await page.keyboard.press('ArrowUp');
    assert.equal(await announced(cdp), 'Web, Jan 8, 2025: 16,359');
    const { ring } = await seen(page);
    assert.ok(ring && ring.radius === '50%' && ring.width === 16, 'a round ring around the point');
    await context.close();
  });

  test('walks a scatter, a map, a treemap and a table', async () => {
    const { context, page, cdp, problems } = await openPage();
    for (const [name, first] of [
      ['scatter', /./],
      ['choropleth', /^[A-Z][a-z]+.*: \d+%$/],
      ['treemap', /: /],
      ['table', /^Account: Acme Corp$/],
    ]) {
      await showCard(page, example(name));
      await tabIn(page);
      await page.keyboard.press('ArrowRight');
      const said = await announced(cdp);
      assert.match(said, first, `${name}: the first mark is read out`);
      assert.ok((await seen(page)).ring, `${name}: ringed`);
      const heard = new Set([said]);
      for (const key of ['ArrowRight', 'ArrowDown', 'ArrowRight', 'ArrowUp', 'End']) {
        await page.keyboard.press(key);
        heard.add(await announced(cdp));
      }
      assert.ok(heard.size >= 3, `${name}: the keys move between marks (${[...heard].join(' / ')})`);
      if (name === 'table') {
        await page.keyboard.press('Home');
        await page.keyboard.press('ArrowDown');
        assert.equal(await announced(cdp), 'Account: Globex', 'down: the next row of the table');
      }
    }
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('keeps the ring on its mark through a resize, and starts again with new data', async () => {
    const { context, page, cdp } = await openPage();
    await showCard(page, example('bar'));
    await tabIn(page);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const wide = (await seen(page)).ring;
    await page.evaluate(() => { document.getElementById('chart').style.width = '400px'; });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const narrow = (await seen(page)).ring;
    assert.ok(narrow && narrow.left < wide.left, `the ring followed its bar (${wide.left} -> ${narrow?.left})`);
    assert.equal(await announced(cdp), 'South: 31,950');
    await page.evaluate((d) => window.handle.update(d), example('pie'));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal((await seen(page)).ring, null, 'new data: no ring until a key');
    await page.keyboard.press('ArrowRight');
    assert.match(await announced(cdp), /^Chrome: /, 'the walk starts at the first slice');
    await context.close();
  });
});

/** The legend's buttons as the accessibility tree has them: name and pressed state. */
async function legendButtons(cdp) {
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  return nodes
    .filter((n) => n.role?.value === 'button' && !n.ignored)
    .map((n) => ({ name: n.name?.value, pressed: n.properties?.find((p) => p.name === 'pressed')?.value?.value }))
    .filter((b) => b.pressed !== undefined);
}

const tableHeader = (page) =>
  page.evaluate(() => [...document.querySelectorAll('#chart .zdr-embed-data thead th')].map((th) => th.textContent));
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 30)))));

describe('the legend', () => {
  test('a click hides a series: the axes rescale, aria-pressed, the hidden table and the CSV follow; one series always stays', async () => {
    const { context, page, cdp, problems } = await openPage();
    await showCard(page, example('timeseries'));
    assert.deepEqual(await legendButtons(cdp), [{ name: 'Web', pressed: 'true' }, { name: 'Mobile', pressed: 'true' }]);
    assert.deepEqual(await tableHeader(page), ['Date', 'Web', 'Mobile']);
    const clip = await page.locator('#chart').boundingBox();
    const both = await page.screenshot({ clip });

    await page.locator('#chart .zdr-embed-legend button[aria-label="Web"]').click();
    await settle(page);
    assert.deepEqual(await legendButtons(cdp), [{ name: 'Web', pressed: 'false' }, { name: 'Mobile', pressed: 'true' }]);
    assert.deepEqual(await tableHeader(page), ['Date', 'Mobile'], 'the hidden table leaves Web out');
    assert.ok((await page.evaluate(() => window.handle.toCSV())).startsWith('Date,Mobile\r\n'));
    const mobileOnly = await page.screenshot({ clip });
    const changed = await changedPixels(page, both, mobileOnly);
    assert.ok(changed > 2000, `the Web line is gone and the axis rescaled (${changed} pixels changed)`);

    // Programs: the last series shown stays; a series of the same name stays hidden across update().
    assert.equal(await page.evaluate(() => window.handle.setSeriesVisible('Mobile', false)), false);
    assert.equal(await page.evaluate(() => window.handle.setSeriesVisible('Tablet', false)), false);
    await page.evaluate((d) => window.handle.update(d), { ...example('timeseries'), viz_config: { ...example('timeseries').viz_config, title: 'Again' } });
    await settle(page);
    assert.deepEqual(await tableHeader(page), ['Date', 'Mobile'], 'still hidden after update()');
    assert.equal(await page.evaluate(() => window.handle.setSeriesVisible('Web', true)), true);
    await settle(page);
    assert.deepEqual(await tableHeader(page), ['Date', 'Web', 'Mobile']);
    const again = await page.screenshot({ clip });
    assert.ok((await changedPixels(page, both, again)) < 1500, 'shown again: the card as before (but its title)');

    const wrong = await page.evaluate(() => {
      try {
        window.handle.setSeriesVisible(3, false);
      } catch (error) {
        return { isError: error instanceof Error, code: error.code, message: error.message };
      }
    });
    assert.deepEqual(wrong, { isError: true, code: 'invalid_argument', message: 'setSeriesVisible: argument "name" must be a string, found a number' });
    // The name's bound, checked before it is copied: at it, read (no such series); past it, refused.
    assert.equal(await page.evaluate(() => window.handle.setSeriesVisible('x'.repeat(65_536), false)), false);
    const long = await page.evaluate(() => {
      try {
        window.handle.setSeriesVisible('x'.repeat(65_537), false);
      } catch (error) {
        return [error.code, error.message];
      }
    });
    assert.deepEqual(long, ['invalid_argument', 'setSeriesVisible: argument "name" must be at most 65536 characters long, found 65537']);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the keyboard reaches the legend above the marks; Enter toggles', async () => {
    const { context, page, cdp } = await openPage();
    await showCard(page, example('timeseries'));
    await tabIn(page);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    assert.equal(await announced(cdp), 'Web: shown. Enter hides it.');
    assert.ok((await seen(page)).ring, 'the entry is ringed');
    await page.keyboard.press('Enter');
    await settle(page);
    assert.equal(await announced(cdp), 'Web: hidden. Enter shows it.');
    assert.deepEqual((await legendButtons(cdp))[0], { name: 'Web', pressed: 'false' });
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await settle(page);
    assert.equal(await announced(cdp), 'Mobile: shown. Enter hides it.', 'the last series shown stays');
    await page.keyboard.press('ArrowDown');
    assert.match(await announced(cdp), /^Mobile, /, 'down: the marks, of the series shown');
    await context.close();
  });
});

/** A million readings a minute from 2024-01-01, from typed arrays (as the demo's). */
const MILLION = `(() => {
  const n = 1_000_000, x = new Float64Array(n), y = new Float64Array(n);
  let walk = 0, state = 12345;
  for (let i = 0; i < n; i++) {
    state ^= state << 13; state ^= state >>> 17; state ^= state << 5; state >>>= 0;
    walk += (state / 4294967296 - 0.5) * 0.3;
    x[i] = Date.UTC(2024, 0, 1) + i * 60_000;
    y[i] = 50 + 12 * Math.sin((2 * Math.PI * i) / 1440) + walk;
  }
  return { viz_config: { title: 'A million readings', viz_component_type: 'timeseries', x_time: 'epoch_ms' }, data: { x, y } };
})()`;

/** The plot's box in page pixels, from the reset-free frame: the hidden ring is not needed; read the canvas's box and the engine's zoom frame through a drag's effect instead. */
const views = (page) => page.evaluate(() => window.views.map((v) => ({ x: v.x && v.x.map((d) => d.toISOString()), y: v.y })));

describe('zoom and pan', () => {
  test('a drag zooms a million-point line into its real detail; Ctrl+wheel, double click and the reset button', async () => {
    const { context, page, problems } = await openPage();
    await page.evaluate(`window.views = []; window.show({ visualizationData: ${MILLION}, onViewChange: (v) => window.views.push(v) })`);
    await settle(page);
    const box = await page.locator('#chart canvas').boundingBox();
    const clip = { x: box.x, y: box.y, width: box.width, height: box.height };
    const whole = await page.screenshot({ clip });
    const whole_svg = await page.evaluate(() => window.handle.toSVG().length);

    // Drag across a tenth of the plot, in its middle.
    const y = box.y + box.height * 0.6;
    const from = box.x + box.width * 0.45, to = box.x + box.width * 0.55;
    await page.mouse.move(from, y);
    await page.mouse.down();
    await page.mouse.move((from + to) / 2, y, { steps: 3 });
    const selecting = await page.evaluate(() => getComputedStyle(document.querySelector('#chart .zdr-embed-selection')).display);
    assert.equal(selecting, 'block', 'the selection shows while dragging');
    await page.mouse.move(to, y, { steps: 3 });
    await page.mouse.up();
    await settle(page);
    let seen = await views(page);
    assert.equal(seen.length, 1, 'onViewChange once');
    const [a, b] = seen[0].x.map((d) => Date.parse(d));
    const days = (b - a) / 86_400_000;
    assert.ok(days > 40 && days < 90, `about a tenth of the 694 days (${days.toFixed(1)})`);
    const zoomed = await page.screenshot({ clip });
    assert.ok((await changedPixels(page, whole, zoomed)) > 5000, 'the zoomed line is drawn');
    assert.ok(await page.locator('#chart .zdr-embed-reset').isVisible(), 'a reset button while zoomed');
    // The real points of the range, reduced per pixel again: the SVG of the zoomed view has about as many
    // vertices as the whole one (a few per pixel column), not the tenth a stretched picture would have.
    const zoomed_svg = await page.evaluate(() => window.handle.toSVG().length);
    assert.ok(zoomed_svg > whole_svg * 0.6, `detail at the zoom (${whole_svg} -> ${zoomed_svg} bytes of SVG)`);

    // Ctrl+wheel zooms in around the pointer.
    await page.mouse.move(box.x + box.width / 2, y);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await settle(page);
    seen = await views(page);
    const [c, d] = seen.at(-1).x.map((t) => Date.parse(t));
    assert.ok(d - c < b - a && c > a && d < b, 'zoomed in further, inside the range');

    // The reset button: the whole data again, the button gone.
    await page.locator('#chart .zdr-embed-reset').click();
    await settle(page);
    assert.deepEqual((await views(page)).at(-1), { x: null, y: null });
    assert.equal(await page.locator('#chart .zdr-embed-reset').isVisible(), false);
    const back = await page.screenshot({ clip });
    assert.ok((await changedPixels(page, whole, back)) < 50, 'the whole line as before');

    // setView, then a double click.
    await page.evaluate(() => window.handle.setView({ x: ['2024-06-01', new Date('2024-06-08')] }));
    await settle(page);
    assert.deepEqual((await views(page)).at(-1).x, ['2024-06-01T00:00:00.000Z', '2024-06-08T00:00:00.000Z']);
    await page.mouse.dblclick(box.x + box.width / 2, y);
    await settle(page);
    assert.deepEqual((await views(page)).at(-1), { x: null, y: null });
    const wrong = await page.evaluate(() => { try { window.handle.setView({ x: [1] }); } catch (e) { return [e.code, e.message]; } });
    assert.deepEqual(wrong, ['invalid_argument', 'setView: x must be an array of two values [from, to], found an array']);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('two fingers pinch a line in; vertical scrolling over it stays the page\'s (touch-action: pan-y)', async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 700 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${host.origin}/interaction.html`);
    await page.waitForFunction(() => window.ready === true, null, WAIT);
    await page.evaluate((d) => { window.views = []; return window.show({ visualizationData: d, onViewChange: (v) => window.views.push(v) }); }, example('timeseries'));
    await settle(page);
    assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('#chart canvas')).touchAction), 'pan-y');
    const box = await page.locator('#chart canvas').boundingBox();
    const cdp = await context.newCDPSession(page);
    const y = box.y + box.height * 0.6, mid = box.x + box.width * 0.5;
    const touch = (type, spread) => cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x: mid - spread, y, id: 1 }, { x: mid + spread, y, id: 2 }],
    });
    await touch('touchStart', 40);
    for (const spread of [60, 80, 100, 120]) await touch('touchMove', spread);
    await touch('touchEnd', 0);
    await settle(page);
    const seen = await page.evaluate(() => window.views.map((v) => v.x && v.x.map((d) => d.getTime())));
    assert.ok(seen.length > 0, 'the pinch zoomed');
    const [a, b] = seen.at(-1);
    const days = (b - a) / 86_400_000;
    assert.ok(days > 40 && days < 90, `fingers three times as far apart: about a third of the 172 days (${days.toFixed(1)})`);
    await cdp.detach();
    await context.close();
  });

  test('Shift-drag pans a zoomed line; a scatter zooms in x and y', async () => {
    const { context, page } = await openPage();
    await page.evaluate(`window.views = []; window.show({ visualizationData: ${MILLION}, onViewChange: (v) => window.views.push(v) })`);
    await settle(page);
    await page.evaluate(() => window.handle.setView({ x: ['2024-06-01', '2024-07-01'] }));
    await settle(page);
    const box = await page.locator('#chart canvas').boundingBox();
    const y = box.y + box.height * 0.6;
    await page.keyboard.down('Shift');
    await page.mouse.move(box.x + box.width * 0.6, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.4, y, { steps: 4 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await settle(page);
    const [a, b] = (await views(page)).at(-1).x.map((d) => Date.parse(d));
    assert.ok(a > Date.UTC(2024, 5, 1) + 86_400_000, 'dragged left: later dates come in');
    assert.ok(Math.abs((b - a) - 30 * 86_400_000) < 60_000, 'the same span');

    await page.evaluate(() => { window.views = []; });
    await showCard(page, example('scatter'));
    await page.evaluate(() => window.handle.setView({ x: [150, 175], y: [45, 60] }));
    await settle(page);
    assert.ok(await page.locator('#chart .zdr-embed-reset').isVisible());
    const csvRows = (await page.evaluate(() => window.handle.toCSV())).split('\r\n').length;
    assert.ok(csvRows > 10, 'the CSV keeps every row: a zoom is a view, not a filter');
    await context.close();
  });
});

describe('the crosshair', () => {
  test('follows the pointer with every series at that date, and moves on every card of its syncGroup', async () => {
    const { context, page, problems } = await openPage();
    await page.evaluate(async (data) => {
      const second = document.createElement('div');
      second.id = 'second';
      second.style.width = '640px';
      document.getElementById('chart').after(second);
      window.views = { chart: [], second: [] };
      const draw = (containerId, d) => new Promise((loaded, failed) => {
        const handle = window.render({
          containerId, mode: 'local', height: '300px', syncGroup: 'users', syncZoom: true, visualizationData: d,
          onLoad: () => loaded(handle), onError: failed, onViewChange: (v) => window.views[containerId].push(v.x && v.x.map((t) => t.toISOString().slice(0, 10))),
        });
      });
      window.first = await draw('chart', data);
      const other = { ...data, viz_config: { ...data.viz_config, title: 'The same users, again' } };
      window.second = await draw('second', other);
    }, example('timeseries'));
    await settle(page);
    const state = (id) => page.evaluate((id) => {
      const card = document.getElementById(id);
      const rule = card.querySelector('.zdr-embed-crosshair');
      const tip = card.querySelector('.zdr-embed-tooltip');
      const shown = (e) => getComputedStyle(e).display !== 'none';
      return {
        rule: shown(rule) ? parseFloat(rule.style.left) : null,
        tip: shown(tip) ? [...tip.children].map((l) => l.textContent) : null,
      };
    }, id);
    const box = await page.locator('#chart canvas').boundingBox();
    const secondClip = await page.locator('#second canvas').boundingBox();
    const before = await page.screenshot({ clip: secondClip });
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.6);
    const here = await state('chart');
    assert.ok(here.rule !== null, 'a rule on the card under the pointer');
    assert.equal(here.tip.length, 3, `a date and both series: ${here.tip}`);
    assert.match(here.tip[1], /^Web: [\d,]+$/);
    assert.match(here.tip[2], /^Mobile: [\d,]+$/);
    const there = await state('second');
    assert.ok(there.rule !== null, 'the other card of the group shows its rule too');
    assert.equal(there.tip[0], here.tip[0], 'at the same date');
    const after = await page.screenshot({ clip: secondClip });
    assert.ok((await changedPixels(page, before, after)) > 100, 'seen on the other card');

    await page.mouse.move(box.x + box.width * 0.5, box.y - 30);
    assert.deepEqual(await state('chart'), { rule: null, tip: null }, 'gone when the pointer leaves');
    assert.deepEqual(await state('second'), { rule: null, tip: null });

    // The keyboard moves it too.
    await page.focus('#before');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const keyed = await state('chart');
    assert.ok(keyed.rule !== null && keyed.tip[0] === 'Jan 8, 2025', `the rule at the focused mark: ${keyed.tip}`);
    assert.equal((await state('second')).tip[0], 'Jan 8, 2025');

    // syncZoom: a zoom of one is the zoom of both, and so is going back.
    await page.evaluate(() => window.first.setView({ x: ['2025-02-01', '2025-03-01'] }));
    await settle(page);
    assert.deepEqual(await page.evaluate(() => window.views), {
      chart: [['2025-02-01', '2025-03-01']],
      second: [['2025-02-01', '2025-03-01']],
    });
    await page.locator('#second .zdr-embed-reset').click();
    await settle(page);
    assert.deepEqual(await page.evaluate(() => [window.views.chart.at(-1), window.views.second.at(-1)]), [null, null]);
    await page.evaluate(() => { window.first.destroy(); window.second.destroy(); });
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('the data out', () => {
  test('the menu downloads PNG, SVG and CSV made in the page, and requests nothing', async () => {
    const { context, page, problems } = await openPage();
    await page.evaluate((d) => window.show({ visualizationData: d, menu: true }), example('bar'));
    await settle(page);
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    const button = page.getByRole('button', { name: 'Download the chart' });
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    await button.click();
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    const got = {};
    for (const what of ['PNG', 'SVG', 'CSV']) {
      if (what !== 'PNG') await button.click();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Download ${what}` }).click()]);
      const path = await download.path();
      got[what] = { name: download.suggestedFilename(), bytes: readFileSync(path) };
    }
    assert.equal(got.CSV.name, 'unit-sales-by-region.csv');
    assert.equal(got.CSV.bytes.toString(), await page.evaluate(() => window.handle.toCSV()));
    assert.equal(got.SVG.name, 'unit-sales-by-region.svg');
    assert.match(got.SVG.bytes.toString(), /^<svg[^>]*>/);
    assert.equal(got.PNG.name, 'unit-sales-by-region.png');
    assert.equal(got.PNG.bytes.subarray(1, 4).toString(), 'PNG');
    assert.equal(await button.getAttribute('aria-expanded'), 'false', 'closed after a download');
    await button.click();
    await page.keyboard.press('Escape');
    assert.equal(await button.getAttribute('aria-expanded'), 'false', 'Escape closes it');
    assert.deepEqual(requests.filter((u) => !u.startsWith('blob:')), [], 'nothing requested');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('printing draws the card at its printed size and at print resolution', async () => {
    const { context, page, problems } = await openPage();
    await showCard(page, example('bar'));
    const size = () => page.evaluate(() => {
      const c = document.querySelector('#chart canvas');
      return { backing: c.width, css: Math.round(c.getBoundingClientRect().width) };
    });
    assert.deepEqual(await size(), { backing: 640, css: 640 });
    // beforeprint: drawn at once, in the same task (printing runs no frames).
    const drawnAtOnce = await page.evaluate(() => {
      window.dispatchEvent(new Event('beforeprint'));
      return document.querySelector('#chart canvas').width;
    });
    assert.equal(drawnAtOnce, 1920, 'three device pixels per CSS pixel, before the print is laid out');
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await settle(page);
    assert.deepEqual(await size(), { backing: 640, css: 640 });
    // Print media (print preview, emulation): the printed size.
    await page.emulateMedia({ media: 'print' });
    await page.waitForFunction(() => document.querySelector('#chart canvas').width === 2160, null, WAIT);
    assert.deepEqual(await size(), { backing: 2160, css: 720 }, 'the printed width, three device pixels per CSS pixel');
    const pdf = await page.pdf({ width: '900px', height: '700px' });
    assert.ok(pdf.length > 5000 && pdf.subarray(0, 4).toString() === '%PDF', `a PDF (${pdf.length} bytes)`);
    await page.emulateMedia({ media: 'screen' });
    await settle(page);
    assert.deepEqual(await size(), { backing: 640, css: 640 }, "the screen's drawing again");
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('toCSV gives the data as shown, unformatted, with ISO dates; the service mode says why not', async () => {
    const { context, page } = await openPage();
    await showCard(page, example('timeseries'));
    const csv = await page.evaluate(() => window.handle.toCSV());
    const lines = csv.split('\r\n');
    assert.equal(lines[0], 'Date,Web,Mobile');
    assert.match(lines[1], /^2025-01-01,16239,\d+$/);
    const rows = await page.evaluate(() => document.querySelectorAll('#chart .zdr-embed-data tbody tr').length);
    assert.ok(rows > 20);
    assert.equal(lines.length, rows + 2, 'a header, a line per date as the hidden table has, and the last line end');
    assert.equal(lines.at(-1), '');

    await showCard(page, example('bar'));
    assert.equal((await page.evaluate(() => window.handle.toCSV())).split('\r\n')[1], 'North,48200');

    const refused = await page.evaluate(() => {
      const handle = window.render({
        containerId: 'chart', serviceUrl: location.origin, cardId: 'c1',
        visualizationData: { viz_config: { title: 't' }, data: [{ x: 'a', y: 1 }] },
      });
      try {
        handle.toCSV();
        return null;
      } catch (error) {
        return { isError: error instanceof Error, code: error.code, message: error.message };
      } finally {
        handle.destroy();
      }
    });
    assert.equal(refused?.isError, true);
    assert.equal(refused.code, 'not_drawn_locally');
    assert.match(refused.message, /^toCSV: toCSV\(\) needs a card drawn in the page/);
    await context.close();
  });
});
