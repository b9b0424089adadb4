// End to end: the form-mode page of zdr-host reads at the size local mode
// draws at, in any frame from 320 to 1,600 px wide and 240 to 1,200 px high.
//
// Each documented example is posted the way a page does it by hand (the
// documented hidden form, `visualization_data`, into a named iframe of the
// frame's size) to the real zdr-host, and headless Chromium measures every
// text of the chart shown: its rendered font size (computed size times the
// screen transform's scale) must be within 15% of the size local mode uses
// at that width (the engine's type scale: 15/12/11/10 px below 420 px wide,
// 18/13.5/12/11 px from 420), the title exactly its class's title size
// within 15%, and nothing drawn may leave the frame.
//
// Screenshots of the service page next to local mode (the packed package,
// drawing on a canvas) at 360, 800 and 1,400 px wide go to test-results/,
// and the two must have chosen the same layout: each text both drew is
// anchored, turned and placed alike.
//
// It builds nothing: `cargo build -p zdr-host` and scripts/build.sh first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launch } from './browser.mjs';
import { startHost, stopHost } from './host.mjs';
import { packPackage, ROOT } from './package.mjs';

const WAIT = { timeout: 20_000 };
const RESULTS = join(ROOT, 'test-results');
const EXAMPLES = readdirSync(join(ROOT, 'docs/examples'))
  .filter((name) => name.endsWith('.json'))
  .map((name) => ({ name: name.slice(0, -5), text: readFileSync(join(ROOT, 'docs/examples', name), 'utf8') }))
  .sort((a, b) => a.name.localeCompare(b.name));

const WIDTHS = [320, 360, 800, 1400, 1600];
const HEIGHTS = [240, 600, 1200];

/** The engine's type scale (crates/chart/src/draw/frame.rs, `Sizes::for_width`). */
const sizesFor = (width) =>
  width < 420
    ? { title: 15, subtitle: 12, tick: 11, small: 10 }
    : { title: 18, subtitle: 13.5, tick: 12, small: 11 };

// Service and local side by side, each in a box of the frame's size: on the
// left the hidden form posted into an iframe, on the right the packed package
// drawing the same card on a canvas (local mode).
const SIDE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>service and local</title>
<style>body{margin:0;padding:16px;background:#d0d4d9;display:flex;gap:16px;align-items:flex-start}
iframe,#chart{border:0;background:#fff;flex:none}</style>
<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>
</head><body><iframe name="service" title="service mode"></iframe><div id="chart"></div>
<script type="module">
  window.show = async (action, text, width, height) => {
    const frame = document.querySelector('iframe');
    frame.width = width;
    frame.height = height;
    const box = document.getElementById('chart');
    box.style.width = width + 'px';
    box.style.height = height + 'px';
    const loaded = new Promise((ok) => frame.addEventListener('load', ok, { once: true }));
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = action;
    form.target = 'service';
    form.hidden = true;
    const field = document.createElement('input');
    field.type = 'hidden';
    field.name = 'visualization_data';
    field.value = text;
    form.append(field);
    document.body.append(form);
    form.submit();
    await loaded;
    try {
      const zdr = await import('zdr-embed');
      await zdr.default();
      if (zdr.preload) await zdr.preload();
      await new Promise((ok, fail) => {
        window.handle?.destroy();
        window.handle = zdr.render({
          containerId: 'chart', mode: 'local', width: width + 'px', height: height + 'px',
          visualizationData: JSON.parse(text), onLoad: () => ok(), onError: (e) => fail(e),
        });
      });
      return 'both';
    } catch (error) {
      return 'service only: ' + error;
    }
  };
  // The texts each mode drew: how each is anchored and turned, and where
  // its middle is as a share of the frame. Local mode's from the SVG of
  // the same layout (toSVG), measured off screen.
  window.layouts = () => {
    const read = (root, box) => [...root.querySelectorAll('text')].filter((t) => t.getClientRects().length > 0).map((t) => {
      const b = t.getBoundingClientRect();
      return {
        text: t.textContent,
        anchor: getComputedStyle(t).textAnchor,
        turned: /rotate/.test(t.getAttribute('transform') ?? ''),
        x: (b.left + b.width / 2 - box.left) / box.width,
        y: (b.top + b.height / 2 - box.top) / box.height,
      };
    });
    const frame = document.querySelector('iframe');
    const service = read(frame.contentDocument, { left: 0, top: 0, width: frame.width, height: frame.height });
    const holder = document.createElement('div');
    holder.style.cssText = 'position:absolute;left:-20000px;top:0';
    holder.innerHTML = window.handle.toSVG();
    document.body.append(holder);
    const svg = holder.querySelector('svg');
    const local = read(svg, svg.getBoundingClientRect());
    holder.remove();
    return { service, local };
  };
  window.ready = true;
</script></body></html>`;

let host, browser, work, packageDir;

before(async () => {
  mkdirSync(RESULTS, { recursive: true });
  work = mkdtempSync(join(tmpdir(), 'zdr-legibility-'));
  const site = join(work, 'site');
  mkdirSync(site);
  writeFileSync(join(site, 'side.html'), SIDE_PAGE);
  writeFileSync(
    join(site, 'blank.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>frame</title>' +
      '<link rel="icon" href="data:,"></head><body></body></html>',
  );
  try {
    packageDir = packPackage(work);
  } catch (error) {
    // The service page is what this file tests; the package only draws the
    // local half of the screenshots.
    console.log(`# no package for the local screenshots: ${error.message.split('\n')[0]}`);
  }
  const args = ['--www', site];
  if (packageDir) args.push('--package', packageDir);
  host = await startHost(args);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  const stopped = await stopHost(host);
  if (work) rmSync(work, { recursive: true, force: true });
  if (stopped) assert.deepEqual(stopped, { code: 0, signal: null });
});

/**
 * A page of the frame's size holding one iframe (width x height CSS px) and
 * the hidden form a page would write by hand, submitted into it. Resolves
 * with the iframe's frame once the host's page has loaded in it.
 */
async function servicePage(context, card, width, height) {
  const page = await context.newPage();
  await page.setViewportSize({ width: width + 40, height: height + 40 });
  await page.goto(`${host.origin}/blank.html`);
  const loaded = page.waitForEvent('framenavigated', {
    predicate: (frame) => frame !== page.mainFrame() && frame.url().includes('/embed/'),
    ...WAIT,
  });
  await page.evaluate(
    ({ action, text, width, height }) => {
      const frame = document.createElement('iframe');
      frame.name = 'card';
      frame.width = String(width);
      frame.height = String(height);
      frame.setAttribute('frameborder', '0');
      document.body.append(frame);
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = action;
      form.target = 'card';
      form.hidden = true;
      const field = document.createElement('input');
      field.type = 'hidden';
      field.name = 'visualization_data';
      field.value = text;
      form.append(field);
      document.body.append(form);
      form.submit();
    },
    { action: `${host.origin}/embed/${card.name}/`, text: card.text, width, height },
  );
  const frame = await loaded;
  await frame.waitForLoadState('load');
  return { page, frame };
}

/** Every text shown in the frame: its rendered size and box, and the boxes of all drawn shapes. */
function measure(frame) {
  return frame.evaluate(() => {
    const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const texts = [...document.querySelectorAll('text')].filter(shown).map((t) => {
      const ctm = t.getScreenCTM();
      const scale = Math.hypot(ctm.a, ctm.b);
      const box = t.getBoundingClientRect();
      return {
        text: t.textContent,
        size: parseFloat(getComputedStyle(t).fontSize) * scale,
        bold: getComputedStyle(t).fontWeight >= 600,
        box: { left: box.left, top: box.top, right: box.right, bottom: box.bottom, height: box.height },
      };
    });
    const shapes = [...document.querySelectorAll('rect, path, circle')].filter(shown).map((s) => {
      const box = s.getBoundingClientRect();
      return { tag: s.tagName, left: box.left, top: box.top, right: box.right, bottom: box.bottom };
    });
    return {
      width: document.documentElement.clientWidth,
      height: document.documentElement.clientHeight,
      cards: [...document.querySelectorAll('.card')].filter(shown).length,
      title: document.title,
      texts,
      shapes,
    };
  });
}

/** The expected size nearest `size` in the type scale, and how far off it is. */
function nearest(size, scale) {
  const wanted = Object.values(scale).reduce((a, b) => (Math.abs(b - size) < Math.abs(a - size) ? b : a));
  return { wanted, off: Math.abs(size / wanted - 1) };
}

describe('the form-mode page in frames from 320x240 to 1600x1200', () => {
  for (const width of WIDTHS) {
    for (const height of HEIGHTS) {
      test(`${width}x${height}: text at local mode's sizes (±15%), nothing outside the frame`, async () => {
        const context = await browser.newContext();
        const worst = [];
        try {
          for (const card of EXAMPLES) {
            const { page, frame } = await servicePage(context, card, width, height);
            const m = await measure(frame);
            await page.close();
            assert.equal(m.width, width, `${card.name}: the frame's width`);
            assert.equal(m.cards, 1, `${card.name}: one layout shows`);
            assert.ok(m.texts.length > 0, `${card.name}: texts are shown`);
            const scale = sizesFor(width);
            const title = m.texts.find((t) => t.text === m.title);
            assert.ok(title, `${card.name}: the title ${m.title} is drawn as text`);
            assert.ok(
              Math.abs(title.size / scale.title - 1) <= 0.15,
              `${card.name} at ${width}x${height}: title at ${title.size.toFixed(2)} px, local mode ${scale.title} px`,
            );
            for (const t of m.texts) {
              const { wanted, off } = nearest(t.size, scale);
              // The headline number is set larger than any of the sizes,
              // on purpose; its frame is checked below like every text's.
              const headline = card.name === 'top_level_metric' && t.size > scale.title;
              if (!headline) worst.push(off);
              assert.ok(
                headline || off <= 0.15,
                `${card.name} at ${width}x${height}: "${t.text}" at ${t.size.toFixed(2)} px, local mode ${wanted} px`,
              );
              // A rendered line is about as tall as its size: no scaling hides in the box either.
              assert.ok(
                t.box.height >= t.size * 0.8 && t.box.height <= t.size * 1.6,
                `${card.name}: "${t.text}" is ${t.box.height} px tall at ${t.size} px`,
              );
              for (const [edge, value, low, high] of [
                ['left', t.box.left, -1, width + 1],
                ['right', t.box.right, -1, width + 1],
                ['top', t.box.top, -1, height + 1],
                ['bottom', t.box.bottom, -1, height + 1],
              ]) {
                assert.ok(
                  value >= low && value <= high,
                  `${card.name} at ${width}x${height}: "${t.text}" ${edge} ${value.toFixed(1)} outside the frame`,
                );
              }
            }
            for (const s of m.shapes) {
              assert.ok(
                s.left >= -2 && s.top >= -2 && s.right <= width + 2 && s.bottom <= height + 2,
                `${card.name} at ${width}x${height}: a ${s.tag} at ${JSON.stringify(s)} leaves the frame`,
              );
            }
          }
        } finally {
          await context.close();
        }
        const most = Math.max(...worst);
        console.log(`# ${width}x${height}: ${worst.length} texts, largest deviation ${(most * 100).toFixed(1)}%`);
      });
    }
  }
});

// The demo's card whose bars once lay on their side in the service's frame
// and stood upright on the canvas beside it.
const PAYROLLS = {
  name: 'payrolls',
  text: JSON.stringify({
    viz_config: { title: 'Change in payrolls by sector', viz_component_type: 'bar', x_label: 'Sector', y_label: 'Change', units: 'thousand jobs', source: 'Made up' },
    data: [{ x: 'Retail', y: -1500 }, { x: 'Health', y: 420 }, { x: 'Construction', y: -310 }, { x: 'Tech', y: 260 }],
  }),
};

/** Left, middle or right (top, middle, bottom) third of the frame. */
const third = (share) => (share < 0.35 ? 'start' : share > 0.65 ? 'end' : 'middle');

/**
 * Service and local mode chose the same layout: every text both drew once
 * is anchored and turned alike, and lies in the same outer third of the
 * frame (an axis's labels on the same side, a legend on the same side);
 * with `spread`, only down the frame; with `arranged`, anywhere.
 */
function sameLayout(name, { service, local }, { spread = false, arranged = false } = {}) {
  const once = (texts) => new Map(texts.filter((t) => texts.filter((u) => u.text === t.text).length === 1).map((t) => [t.text, t]));
  const [s, l] = [once(service), once(local)];
  const shared = [...s.keys()].filter((text) => l.has(text));
  assert.ok(shared.length >= 2, `${name}: texts drawn by both modes: ${shared.join(' | ')}`);
  for (const text of shared) {
    const [a, b] = [s.get(text), l.get(text)];
    assert.equal(a.anchor, b.anchor, `${name}: "${text}" anchored ${a.anchor} in service mode, ${b.anchor} in local mode`);
    assert.equal(a.turned, b.turned, `${name}: "${text}" turned in one mode only`);
    // A table's columns spread with a wide frame in the service's page and
    // keep at most 1.6 times their width on a canvas: where they are across
    // differs, their anchors and rows do not.
    // A treemap arranges its cells for its plot's shape: the service's page
    // stretches its class layout's arrangement, a canvas has its own, so
    // where a cell's name lies differs; how it is set does not.
    for (const axis of arranged ? [] : spread ? ['y'] : ['x', 'y']) {
      const [p, q] = [third(a[axis]), third(b[axis])];
      assert.ok(p === q || p === 'middle' || q === 'middle', `${name}: "${text}" at ${axis} ${a[axis].toFixed(2)} in service mode, ${b[axis].toFixed(2)} in local mode`);
    }
  }
  return shared.length;
}

test('screenshots: service next to local at 360, 800 and 1,400 px wide, the same layout in both', async () => {
  const context = await browser.newContext();
  try {
    for (const width of [360, 800, 1400]) {
      const height = 600;
      for (const card of [...EXAMPLES, PAYROLLS]) {
        const page = await context.newPage();
        await page.setViewportSize({ width: 2 * width + 48, height: height + 32 });
        await page.goto(`${host.origin}/side.html`);
        await page.waitForFunction(() => window.ready === true, null, WAIT);
        const drawn = await page.evaluate(
          ({ action, text, width, height }) => window.show(action, text, width, height),
          { action: `${host.origin}/embed/${card.name}/`, text: card.text, width, height },
        );
        const path = join(RESULTS, `legibility-${card.name}-${width}.png`);
        await page.screenshot({ path });
        if (packageDir) {
          assert.equal(drawn, 'both', `${card.name} at ${width}`);
          sameLayout(`${card.name} at ${width}x${height}`, await page.evaluate(() => window.layouts()), { spread: card.name === 'table', arranged: card.name === 'treemap' });
        } else {
          console.log(`# ${card.name} at ${width}: ${drawn}`);
        }
        await page.close();
        assert.ok(existsSync(path));
      }
    }
  } finally {
    await context.close();
  }
});

// The same measure in Firefox ESR, driven over WebDriver (geckodriver on a
// loopback port): the page relies on CSS boxes for outermost <svg> elements,
// nested <svg> percentages and non-scaling strokes, which each engine
// implements on its own.
const GECKODRIVER = process.env.GECKODRIVER || '/root/.cargo/bin/geckodriver';
const FIREFOX = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

/** A free loopback port (bound, then closed). */
async function freePort() {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  await new Promise((ok) => server.close(ok));
  return port;
}

describe('in Firefox ESR', { skip: !(existsSync(GECKODRIVER) && existsSync(FIREFOX)) && 'no geckodriver or firefox-esr' }, () => {
  let driver, base, session;
  const call = async (method, path, body) => {
    const response = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    const json = await response.json();
    if (json.value && json.value.error) throw new Error(`${path}: ${json.value.error}: ${json.value.message}`);
    return json.value;
  };
  const exec = (script, args = []) => call('POST', `/session/${session}/execute/sync`, { script, args });

  before(async () => {
    const { spawn } = await import('node:child_process');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    driver = spawn(GECKODRIVER, ['--host', '127.0.0.1', '--port', String(port)], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      const up = await fetch(`${base}/status`).then((r) => r.ok, () => false);
      if (up) break;
      await new Promise((ok) => setTimeout(ok, 100));
    }
    const created = await call('POST', '/session', {
      capabilities: {
        alwaysMatch: { browserName: 'firefox', 'moz:firefoxOptions': { binary: FIREFOX, args: ['-headless'] } },
      },
    });
    session = created.sessionId;
    await call('POST', `/session/${session}/window/rect`, { width: 1700, height: 1400 });
  });

  after(async () => {
    if (session) await call('DELETE', `/session/${session}`).catch(() => {});
    driver?.kill();
  });

  for (const [width, height] of [[320, 240], [419, 600], [420, 600], [1400, 1200], [1600, 240]]) {
    test(`${width}x${height}: every text at local mode's size, nothing outside the frame`, async () => {
      const scale = sizesFor(width);
      for (const card of EXAMPLES) {
        await call('POST', `/session/${session}/url`, { url: `${host.origin}/blank.html` });
        await exec(
          `const [action, text, width, height] = arguments;
           const frame = document.createElement('iframe');
           frame.name = 'card'; frame.width = width; frame.height = height;
           frame.setAttribute('frameborder', '0');
           document.body.style.margin = '0';
           document.body.append(frame);
           const form = document.createElement('form');
           form.method = 'POST'; form.action = action; form.target = 'card'; form.hidden = true;
           const field = document.createElement('input');
           field.type = 'hidden'; field.name = 'visualization_data'; field.value = text;
           form.append(field); document.body.append(form); form.submit();`,
          [`${host.origin}/embed/${card.name}/`, card.text, String(width), String(height)],
        );
        const frame = await call('POST', `/session/${session}/element`, { using: 'css selector', value: 'iframe' });
        await call('POST', `/session/${session}/frame`, { id: frame });
        let m = null;
        for (let i = 0; i < 100 && !m; i++) {
          m = await exec(
            `if (!location.pathname.startsWith('/embed/') || document.readyState !== 'complete') return null;
             const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
             const shown = (e) => e.getClientRects().length > 0;
             const size = (t) => { const c = t.getScreenCTM(); return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(c.a, c.b); };
             const texts = [...document.querySelectorAll('text')].filter(shown);
             const title = texts.find((t) => t.textContent === document.title);
             // A dot is a zero-length path whose stroke does not scale;
             // Firefox's box of it scales the stroke with a stretched plot
             // (Chromium measures it drawn), so its centre is measured.
             const box = (e) => {
               if (!e.matches('path.d')) return e.getBoundingClientRect();
               const b = e.getBoundingClientRect(), x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
               return { left: x, right: x, top: y, bottom: y };
             };
             const outside = [...document.querySelectorAll('text, rect, path, circle')].filter(shown)
               .map((e) => [e, box(e)])
               .filter(([, b]) => b.left < -2 || b.top < -2 || b.right > vw + 2 || b.bottom > vh + 2)
               .map(([e, b]) => e.tagName + ' ' + (e.textContent || '').slice(0, 20) + ' ' + [b.left, b.top, b.right, b.bottom].map(Math.round).join(','));
             return { vw, vh, title: title && size(title), sizes: texts.map(size), outside };`,
          );
          if (!m) await new Promise((ok) => setTimeout(ok, 100));
        }
        assert.ok(m, `${card.name}: the page loaded in Firefox`);
        assert.ok(m.sizes.length > 0, `${card.name}: texts shown in Firefox`);
        assert.deepEqual([m.vw, m.vh], [width, height], card.name);
        assert.ok(m.title && Math.abs(m.title / scale.title - 1) <= 0.15, `${card.name}: title at ${m.title} px`);
        for (const size of m.sizes) {
          const { wanted, off } = nearest(size, scale);
          const headline = card.name === 'top_level_metric' && size > scale.title;
          assert.ok(headline || off <= 0.15, `${card.name} at ${width}x${height} in Firefox: a text at ${size} px, local mode ${wanted} px`);
        }
        assert.deepEqual(m.outside, [], `${card.name} at ${width}x${height} in Firefox: drawn outside the frame`);
        await call('POST', `/session/${session}/frame/parent`, {});
      }
    });
  }
});
