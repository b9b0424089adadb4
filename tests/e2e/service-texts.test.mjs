// End to end: service mode shows what local mode shows. For every example
// card (docs/examples), the packed widget draws the card twice side by side
// in boxes of one frame size: in service mode (the spec's form post into an
// iframe, served by the real zdr-host) and in local mode (a canvas). The
// texts local mode drew (its toSVG(), the same scene as the canvas) are
// looked for among the texts the service frame shows (its SVG's <text>
// elements that are rendered); each frame size must show at least
// MIN_SHARE of local mode's texts for every card.
//
// The figures per card and size go to test-results/service-texts.txt, with
// the texts each card misses.
//
// It builds nothing: `cargo build -p zdr-host` and scripts/build.sh first.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { launch } from './browser.mjs';
import { hostSite, tearDown } from './host.mjs';
import { ROOT } from './package.mjs';

const SIZES = [[360, 300], [600, 420], [1000, 500]];

/** The engine's type scale (`Sizes::for_width`), as legibility.test.mjs has it. */
const scaleFor = (width) => (width < 420 ? [15, 12, 11, 10] : [18, 13.5, 12, 11]);

/** The texts not at one of the type scale's sizes (the metric's headline is larger on purpose). */
const offScale = (name, sizes, width) =>
  sizes.filter((size) => !scaleFor(width).some((s) => Math.abs(size / s - 1) <= 0.01) &&
    !(name === 'top_level_metric' && size > scaleFor(width)[0]));
/** The share of local mode's texts each service frame must show (issue 54). */
const MIN_SHARE = 0.95;
const WAIT = { timeout: 20_000 };
const RESULTS = join(ROOT, 'test-results');
const EXAMPLES = readdirSync(join(ROOT, 'docs/examples'))
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => ({ name: name.slice(0, -5), data: JSON.parse(readFileSync(join(ROOT, 'docs/examples', name), 'utf8')) }));

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>service and local texts</title>
<style>body{margin:0;display:flex;gap:8px;align-items:flex-start}</style>
<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>
</head><body><div id="service"></div><div id="local"></div><script type="module">
  import init, { render, preload } from 'zdr-embed';
  await init();
  await preload();
  const drawn = (options) => new Promise((ok, fail) => {
    const handle = render({ ...options, onLoad: () => ok(handle), onError: fail });
  });
  // The texts each mode shows for one card at one frame size.
  window.texts = async (cardId, data, width, height) => {
    const size = { width: width + 'px', height: height + 'px' };
    for (const id of ['service', 'local']) document.getElementById(id).replaceChildren();
    const service = await drawn({ containerId: 'service', mode: 'service', serviceUrl: location.origin,
      cardId, visualizationData: data, darkMode: false, ...size });
    const local = await drawn({ containerId: 'local', mode: 'local', visualizationData: data, darkMode: false, ...size });
    const frame = service.iframe.contentDocument;
    const shown = (t) => t.getClientRects().length > 0 && getComputedStyle(t).visibility !== 'hidden';
    const result = {
      frame: [frame.documentElement.clientWidth, frame.documentElement.clientHeight],
      service: [...frame.querySelectorAll('text')].filter(shown).map((t) => t.textContent),
      local: [...new DOMParser().parseFromString(local.toSVG(), 'image/svg+xml').querySelectorAll('text')]
        .map((t) => t.textContent),
    };
    result.measured = window.measure(service.iframe);
    service.destroy();
    local.destroy();
    return result;
  };
  // The layout the frame shows, its texts' rendered sizes, and what of
  // it is drawn outside the frame.
  window.measure = (iframe) => {
    const doc = iframe.contentDocument;
    const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    const [vw, vh] = [doc.documentElement.clientWidth, doc.documentElement.clientHeight];
    const texts = [...doc.querySelectorAll('text')].filter(shown);
    const outside = [...doc.querySelectorAll('text, rect, circle')].filter(shown)
      .map((e) => [e, e.getBoundingClientRect()])
      .filter(([, b]) => b.left < -2 || b.top < -2 || b.right > vw + 2 || b.bottom > vh + 2)
      .map(([e]) => e.tagName + ' ' + (e.textContent || '').slice(0, 20));
    return {
      cards: [...doc.querySelectorAll('.card')].filter(shown).map((c) => c.classList[1]),
      sizes: texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * Math.hypot(t.getScreenCTM().a, t.getScreenCTM().b)),
      count: texts.length,
      outside,
    };
  };
  // A card posted into a frame of one size, then the frame resized.
  window.resized = async (cardId, data, width, height, sizes) => {
    document.getElementById('service').replaceChildren();
    const service = await drawn({ containerId: 'service', mode: 'service', serviceUrl: location.origin,
      cardId, visualizationData: data, darkMode: false, width: width + 'px', height: height + 'px' });
    const found = [];
    for (const [w, h] of sizes) {
      service.iframe.style.width = w + 'px';
      service.iframe.style.height = h + 'px';
      await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
      found.push({ size: [w, h], ...window.measure(service.iframe) });
    }
    service.destroy();
    return found;
  };
  window.ready = true;
</script></body></html>`;

let work, host, browser, page;
const lines = [];

before(async () => {
  ({ work, host } = await hostSite('zdr-service-texts-e2e-', { 'texts.html': PAGE }));
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 2100, height: 700 } });
  await page.goto(`${host.origin}/texts.html`);
  await page.waitForFunction(() => window.ready === true, null, WAIT);
});

after(async () => {
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'service-texts.txt'), lines.join('\n') + '\n');
  await tearDown({ browser, host, work });
});

/** Local mode's texts the service frame does not show, each as often as it is missing. */
function missing(local, service) {
  const left = new Map();
  for (const text of service) left.set(text, (left.get(text) ?? 0) + 1);
  return local.filter((text) => {
    const n = left.get(text) ?? 0;
    left.set(text, n - 1);
    return n <= 0;
  });
}

for (const [width, height] of SIZES) {
  test(`${width}x${height}: the service frame shows at least ${MIN_SHARE * 100}% of local mode's texts`, async () => {
    let shown = 0, total = 0, whole = 0;
    const short = [];
    for (const card of EXAMPLES) {
      const r = await page.evaluate(([c, d, w, h]) => window.texts(c, d, w, h), [card.name, card.data, width, height]);
      assert.deepEqual(r.frame, [width, height], `${card.name}: the frame's size`);
      assert.deepEqual(r.measured.cards, ['sized'], `${card.name}: the layout made for the posted size shows`);
      assert.deepEqual(offScale(card.name, r.measured.sizes, width), [], `${card.name}: texts off local mode's sizes`);
      assert.deepEqual(r.measured.outside, [], `${card.name} at ${width}x${height}: drawn outside the frame`);
      const gone = missing(r.local, r.service);
      const share = r.local.length ? 1 - gone.length / r.local.length : 1;
      shown += r.local.length - gone.length;
      total += r.local.length;
      if (!gone.length) whole++;
      // Issue 54: at 600x420 these lost their bars' names and cells' labels.
      if (width === 600 && ['waterfall', 'treemap'].includes(card.name)) {
        assert.deepEqual(gone, [], `${card.name} at ${width}x${height}: every text local mode shows`);
      }
      if (share < MIN_SHARE) short.push(`${card.name} ${(100 * share).toFixed(0)}%`);
      lines.push(`${width}x${height} ${card.name.padEnd(16)} ${r.local.length - gone.length}/${r.local.length}` +
        (gone.length ? `  missing: ${gone.map((t) => JSON.stringify(t)).join(' ')}` : ''));
    }
    const summary = `${width}x${height}: ${shown}/${total} of local mode's texts shown, ${whole}/${EXAMPLES.length} kinds whole`;
    lines.push(summary);
    console.log(`# ${summary}`);
    assert.deepEqual(short, [], `${width}x${height}: cards under ${MIN_SHARE * 100}% (see test-results/service-texts.txt)`);
  });
}

// What a script-free page can do when its frame changes size after the post:
// a larger frame stretches the posted layout's plot (text stays at its
// size); a smaller one shows the compact class layout, which fits any frame
// from 320 x 240 px.
test('a frame resized after the post: larger keeps the posted layout, smaller falls back to the compact one', async () => {
  const sizes = [[1000, 600], [600, 420], [599, 420], [480, 420], [600, 300], [360, 300], [320, 240]];
  for (const card of EXAMPLES) {
    const found = await page.evaluate(([c, d, s]) => window.resized(c, d, 600, 420, s), [card.name, card.data, sizes]);
    for (const m of found) {
      const [w, h] = m.size;
      const wanted = w >= 600 && h >= 420 ? 'sized' : 'compact';
      assert.deepEqual(m.cards, [wanted], `${card.name} in ${w}x${h}`);
      assert.ok(m.count > 0, `${card.name} in ${w}x${h}: texts shown`);
      assert.deepEqual(offScale(card.name, m.sizes, wanted === 'sized' ? 600 : 320), [], `${card.name} in ${w}x${h}`);
      assert.deepEqual(m.outside, [], `${card.name} in ${w}x${h}: drawn outside the frame`);
    }
  }
});
