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
<style>body { margin: 0; padding: 40px; font: 14px sans-serif } #chart { width: 640px } #tall { height: 2000px }</style>
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

describe('the data out', () => {
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
