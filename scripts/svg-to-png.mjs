// Screenshots SVG files in headless Chromium, one PNG beside each, so a
// person can look at what the chart engine drew: node scripts/svg-to-png.mjs FILE.svg...
import { readFile } from 'node:fs/promises';
import { launch } from '../tests/e2e/browser.mjs';

const files = process.argv.slice(2);
const browser = await launch();
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const file of files) {
    const svg = await readFile(file, 'utf8');
    const width = Number(/width="(\d+)"/.exec(svg)?.[1] ?? 800);
    const height = Number(/height="(\d+)"/.exec(svg)?.[1] ?? 500);
    await page.setViewportSize({ width, height });
    await page.setContent(`<!doctype html><body style="margin:0">${svg}</body>`);
    const png = file.replace(/\.svg$/, '.png');
    await page.screenshot({ path: png, clip: { x: 0, y: 0, width, height } });
    console.log(png);
  }
} finally {
  await browser.close();
}
