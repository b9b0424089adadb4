// The README's gallery (docs/gallery.png): every card type, light and dark,
// drawn by the CLI (`zdr-host render`) from docs/examples/, then laid out in
// one picture by headless Chromium. Run it again when the engine's drawing
// changes, and look at the result:
//
//   cargo build -p zdr-host && node scripts/gallery.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launch } from '../tests/e2e/browser.mjs';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TYPES = ['bar', 'grouped_bar', 'stacked_bar', 'waterfall', 'histogram', 'boxplot', 'timeseries',
  'area_timeseries', 'stacked_area_timeseries', 'scatter', 'pie', 'treemap', 'heatmap', 'choropleth', 'map',
  'bubble_map', 'timeline', 'top_level_metric', 'table'];
const [WIDTH, HEIGHT] = [360, 225];
const OUTPUT = join(ROOT, 'docs/gallery.png');

// ZDR_HOST_BIN, else the newer of the release and debug builds.
const binary = process.env.ZDR_HOST_BIN ?? [join(ROOT, 'target/release/zdr-host'), join(ROOT, 'target/debug/zdr-host')]
  .filter((path) => existsSync(path))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!binary) {
  console.error('gallery: no zdr-host binary: run `cargo build -p zdr-host` first');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'zdr-gallery-'));
try {
  const cells = [];
  for (const type of TYPES) {
    const input = join(ROOT, 'docs/examples', `${type}.json`);
    const pair = [];
    for (const dark of [false, true]) {
      const output = join(work, `${type}-${dark ? 'dark' : 'light'}.png`);
      execFileSync(binary, ['render', '--input', input, '--output', output, '--width', String(WIDTH),
        '--height', String(HEIGHT), '--scale', '2', '--dark-mode', String(dark)]);
      pair.push(`data:image/png;base64,${readFileSync(output).toString('base64')}`);
    }
    cells.push({ type, pair });
  }
  const columns = 2;
  // Cells of two pictures and their padding, gaps of 12 px, the body's padding.
  const pageWidth = columns * (2 * WIDTH + 24) + (columns - 1) * 12 + 24;
  const html = `<!doctype html><html><head><style>
    body { margin: 0; padding: 12px; background: #f4f4f5; font: 600 15px system-ui, sans-serif; color: #27272a; width: ${pageWidth - 24}px }
    .grid { display: grid; grid-template-columns: repeat(${columns}, auto); gap: 12px }
    .cell { background: #fff; border-radius: 8px; padding: 8px 12px 12px }
    .cell p { margin: 0 0 6px }
    .pair { display: flex; gap: 0 } img { width: ${WIDTH}px; height: ${HEIGHT}px; display: block }
  </style></head><body><div class="grid">${cells.map(({ type, pair }) =>
    `<div class="cell"><p>${type}</p><div class="pair">${pair.map((src) => `<img src="${src}">`).join('')}</div></div>`).join('')}</div></body></html>`;
  const browser = await launch();
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1, viewport: { width: pageWidth, height: 800 } });
    await page.setContent(html);
    await page.screenshot({ path: OUTPUT, fullPage: true });
  } finally {
    await browser.close();
  }
  console.log(`gallery: ${OUTPUT} (${TYPES.length} card types, light and dark)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
