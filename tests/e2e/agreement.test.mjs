// End to end: the two painters of one Scene agree. For every example card
// (docs/examples), the widget draws the card in local mode on a canvas
// (plotters' canvas backend replaying the scene) at 640x400 CSS pixels and a
// device pixel ratio of 1; its toSVG() (the engine's own SVG writer, the same
// scene) is rasterised by the same Chromium (an <img> drawn onto a second
// canvas of the same size); the two are compared pixel by pixel. Text and
// curves are antialiased by two different rasterisers, so a pixel counts as
// different only when a channel differs by more than TOLERANCE, and a card
// passes when fewer than MAX_DIFFERENT of its pixels differ.
//
// The images (local, svg, diff: differing pixels red on a faded copy) and the
// figures per card are saved to test-results/agreement/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { launch } from './browser.mjs';
import { hostSite, stopHost } from './host.mjs';
import { ROOT } from './package.mjs';

const WIDTH = 640;
const HEIGHT = 400;
/** Largest difference in any channel (0-255) still taken as antialiasing. */
const TOLERANCE = 64;
/** Fraction of the pixels that may differ by more than TOLERANCE. */
const MAX_DIFFERENT = 0.02;
const WAIT = { timeout: 20_000 };
const EXAMPLES = join(ROOT, 'docs/examples');
const OUT = join(ROOT, 'test-results/agreement');

let work, host, browser, page, context;
const figures = [];

before(async () => {
  ({ work, host } = await hostSite('zdr-agreement-e2e-', {
    'agreement.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>body { margin: 0 } #chart { width: ${WIDTH}px; height: ${HEIGHT}px }</style>
<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>
</head><body><div id="chart"></div><script type="module">
  import init, { render, preload } from 'zdr-embed';
  await init();
  await preload();
  const pixels = (canvas) => canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  // Draws the card both ways and compares; returns the figures and the three images.
  window.compare = async (data, tolerance) => {
    window.handle?.destroy();
    let loaded;
    const drawn = new Promise((ok, fail) => { loaded = ok; window.failed = fail; });
    window.handle = render({ containerId: 'chart', mode: 'local', darkMode: false, visualizationData: data,
      width: '${WIDTH}px', height: '${HEIGHT}px',
      onLoad: loaded, onError: (error) => window.failed(error) });
    const canvas = await drawn;
    // The next frame: a redraw the first layout asked for lands before the pixels are read.
    await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
    const local = pixels(canvas);
    const svg = window.handle.toSVG();
    const image = new Image();
    image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svg);
    await image.decode();
    const raster = document.createElement('canvas');
    raster.width = canvas.width;
    raster.height = canvas.height;
    raster.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
    const other = pixels(raster);
    const diff = document.createElement('canvas');
    diff.width = canvas.width;
    diff.height = canvas.height;
    const diffContext = diff.getContext('2d');
    const out = diffContext.createImageData(canvas.width, canvas.height);
    let different = 0, largest = 0, total = 0;
    for (let i = 0; i < local.length; i += 4) {
      const d = Math.max(Math.abs(local[i] - other[i]), Math.abs(local[i + 1] - other[i + 1]),
        Math.abs(local[i + 2] - other[i + 2]), Math.abs(local[i + 3] - other[i + 3]));
      largest = Math.max(largest, d);
      total += d;
      const grey = 255 - (255 - (local[i] + local[i + 1] + local[i + 2]) / 3) / 4;
      if (d > tolerance) {
        different++;
        out.data.set([230, 0, 0, 255], i);
      } else {
        out.data.set([grey, grey, grey, 255], i);
      }
    }
    diffContext.putImageData(out, 0, 0);
    return {
      size: [canvas.width, canvas.height],
      svgSize: [image.naturalWidth, image.naturalHeight],
      svgBytes: svg.length,
      different, pixels: local.length / 4, largest, mean: total / (local.length / 4),
      images: { local: canvas.toDataURL(), svg: raster.toDataURL(), diff: diff.toDataURL() },
    };
  };
  window.ready = true;
</script></body></html>`,
  }));
  browser = await launch();
  context = await browser.newContext({ deviceScaleFactor: 1, viewport: { width: 800, height: 600 } });
  page = await context.newPage();
  await page.goto(`${host.origin}/agreement.html`);
  await page.waitForFunction(() => window.ready === true, null, WAIT);
  mkdirSync(OUT, { recursive: true });
});

after(async () => {
  if (figures.length) {
    const lines = figures.map(
      (f) => `${f.name.padEnd(14)} ${(100 * f.fraction).toFixed(3).padStart(7)} % differ (>${TOLERANCE})` +
        `  largest ${String(f.largest).padStart(3)}  mean ${f.mean.toFixed(2).padStart(5)}  svg ${f.svgBytes} B`,
    );
    writeFileSync(join(OUT, 'figures.txt'), `canvas vs SVG, ${WIDTH}x${HEIGHT} at 1x\n${lines.join('\n')}\n`);
    console.log(lines.join('\n'));
  }
  await context?.close();
  await browser?.close();
  const stopped = await stopHost(host);
  if (work) rmSync(work, { recursive: true, force: true });
  if (stopped) assert.deepEqual(stopped, { code: 0, signal: null }, 'zdr-host exits with 0 on SIGTERM');
});

const save = (file, dataUrl) => writeFileSync(join(OUT, file), Buffer.from(dataUrl.split(',')[1], 'base64'));

for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')).sort()) {
  const name = file.replace(/\.json$/, '');
  test(`${name}: the canvas and the SVG of one scene agree within antialiasing`, async () => {
    const data = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8'));
    const result = await page.evaluate(([d, t]) => window.compare(d, t), [data, TOLERANCE]);
    for (const [kind, url] of Object.entries(result.images)) save(`${name}-${kind}.png`, url);
    const fraction = result.different / result.pixels;
    figures.push({ name, fraction, largest: result.largest, mean: result.mean, svgBytes: result.svgBytes });
    assert.deepEqual(result.size, [WIDTH, HEIGHT], 'the canvas backing store is the CSS size at 1x');
    assert.deepEqual(result.svgSize, [WIDTH, HEIGHT], 'toSVG() is the size of the canvas');
    assert.ok(
      fraction < MAX_DIFFERENT,
      `${name}: ${(100 * fraction).toFixed(2)} % of the pixels differ by more than ${TOLERANCE} ` +
        `(see test-results/agreement/${name}-diff.png)`,
    );
  });
}
