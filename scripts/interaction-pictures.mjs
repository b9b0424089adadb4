// The README's picture of exploring a card (docs/interaction.png): keyboard
// navigation and zoom in steps, each a screenshot of a card drawn in the page
// by the packed package on zdr-host, in headless Chromium, driven by the keys
// and the mouse a reader would use. Run it again when the engine's drawing
// or its interaction changes, and look at the result:
//
//   bash scripts/build.sh && cargo build -p zdr-host && node scripts/interaction-pictures.mjs
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launch } from '../tests/e2e/browser.mjs';
import { hostSite, tearDown } from '../tests/e2e/host.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const OUTPUT = join(ROOT, 'docs/interaction.png');
const example = (name) => JSON.parse(readFileSync(join(ROOT, 'docs/examples', `${name}.json`), 'utf8'));

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>steps</title><style>body { margin: 0; padding: 16px; font: 14px sans-serif } #chart { width: 560px }</style>
<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>
</head><body><button id="before">Before</button><div id="chart"></div>
<script type="module">
  import init, { render, preload } from 'zdr-embed';
  await init();
  await preload();
  window.show = (data) => new Promise((loaded) => {
    window.handle?.destroy();
    window.handle = render({ containerId: 'chart', mode: 'local', height: '340px', visualizationData: data, onLoad: () => loaded(true) });
  });
  window.ready = true;
</script></body></html>`;

// A year of daily readings in two series: enough points for a zoom to show.
const readings = (() => {
  const day = 86_400_000;
  const start = Date.UTC(2025, 0, 1);
  const series = ['North', 'South'].map((name, s) => ({
    name,
    points: Array.from({ length: 365 }, (_, i) => ({
      x: new Date(start + i * day).toISOString().slice(0, 10),
      y: Math.round(500 + 120 * Math.sin((i + s * 40) / 29) + 60 * Math.sin(i / 3.1 + s) + i * (s ? 0.4 : 0.8)),
    })),
  }));
  return { viz_config: { title: 'Daily orders', viz_component_type: 'timeseries', y_label: 'Orders' }, data: { series } };
})();

const { work, host } = await hostSite('zdr-pictures-', { 'steps.html': PAGE });
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 600, height: 420 }, deviceScaleFactor: 2 });
  await page.goto(`${host.origin}/steps.html`);
  await page.waitForFunction(() => window.ready === true);
  const frame = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const shots = [];
  const shoot = async (caption) => {
    await frame();
    const clip = await page.locator('#chart').boundingBox();
    shots.push({ caption, src: `data:image/png;base64,${(await page.screenshot({ clip })).toString('base64')}` });
  };
  const tabIn = async () => {
    await page.focus('#before');
    await page.keyboard.press('Tab');
  };

  await page.evaluate((d) => window.show(d), example('bar'));
  await tabIn();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await shoot('1. Tab, then → → : a ring on the second bar, its tooltip, read out politely');

  await page.evaluate((d) => window.show(d), readings);
  await tabIn();
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  await shoot('2. → along a series, ↓ to the next: the crosshair lists both');

  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await shoot('3. ↑ ↑ to the legend, Enter: South hidden, the axis rescaled');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');

  const box = await page.locator('#chart canvas').boundingBox();
  const y = box.y + box.height * 0.55;
  await page.mouse.move(box.x + box.width * 0.42, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.62, y, { steps: 5 });
  await shoot('4. Drag across the plot to select a range');
  await page.mouse.up();
  await page.mouse.move(box.x + box.width * 0.5, box.y + 8);
  await shoot('5. The range, drawn again from the data; double click or "Reset zoom" goes back');

  const html = `<!doctype html><html><head><style>
    body { margin: 0; padding: 12px; background: #f4f4f5; font: 600 14px system-ui, sans-serif; color: #27272a; width: 1164px }
    .grid { display: grid; grid-template-columns: repeat(2, 570px); gap: 12px }
    figure { margin: 0; background: #fff; border-radius: 8px; padding: 8px 5px 10px }
    figcaption { margin: 0 0 6px 4px } img { width: 560px; display: block }
  </style></head><body><div class="grid">${shots.map(({ caption, src }) =>
    `<figure><figcaption>${caption}</figcaption><img src="${src}"></figure>`).join('')}</div></body></html>`;
  const composer = await browser.newPage({ viewport: { width: 1188, height: 800 }, deviceScaleFactor: 1 });
  await composer.setContent(html);
  await composer.screenshot({ path: OUTPUT, fullPage: true });
  process.stdout.write(`interaction pictures: ${OUTPUT}\n`);
} finally {
  await tearDown({ browser, host, work });
}
