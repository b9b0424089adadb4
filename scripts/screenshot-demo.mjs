// Screenshots of the demo page (www/index.html) served by the real zdr-host,
// at device scale 1 and 2: test-results/demo-1x.png and demo-2x.png, full
// page. The auto card is switched to the unreachable address first, so the
// shot shows the fallback to the canvas too. Both embed-mode cards must have
// shown the card (the form frame its SVG, the postMessage shell its canvas),
// or it fails.
//
//   node scripts/screenshot-demo.mjs [--out DIR] [--width 1400] [--dark]
//
// Builds nothing: run scripts/build.sh and `cargo build -p zdr-host` first.
// The package is served from the repository, as scripts/demo.sh does.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { launch } from '../tests/e2e/browser.mjs';
import { startHost, stopHost } from '../tests/e2e/host.mjs';
import { ROOT } from '../tests/e2e/package.mjs';

const WAIT = { timeout: 20_000 };

export async function screenshotDemo({ out = join(ROOT, 'test-results'), width = 1400, dark = false } = {}) {
  mkdirSync(out, { recursive: true });
  const host = await startHost(['--www', join(ROOT, 'www'), '--package', ROOT]);
  const browser = await launch();
  const files = [];
  try {
    for (const scale of [1, 2]) {
      const context = await browser.newContext({
        viewport: { width, height: 900 },
        deviceScaleFactor: scale,
        colorScheme: dark ? 'dark' : 'light',
      });
      const page = await context.newPage();
      const problems = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(`${host.origin}/index.html`);
      // Every card has loaded (iframes) or drawn (canvases).
      await page.waitForFunction(() => 'ready' in document.documentElement.dataset, null, WAIT);
      await embedModesShown(page);
      // A screenshot is still worth taking; tests/e2e/host.test.mjs fails on these.
      for (const problem of problems) console.error(`warning: the demo logged an error at ${scale}x: ${problem}`);
      // The auto card against an address nothing listens on: it falls back.
      await page.check('input[name="auto-service"][value="down"]');
      await page.waitForFunction(() => document.getElementById('status-auto').dataset.fallback === 'true', null, WAIT);
      await page.waitForFunction(() => document.querySelector('#auto canvas')?.width > 0, null, WAIT);
      // Two frames: the fallback's first draw has landed.
      await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
      const file = join(out, `demo-${scale}x.png`);
      await page.screenshot({ path: file, fullPage: true });
      files.push(file);
      await context.close();
    }
  } finally {
    await browser.close();
    await stopHost(host);
  }
  return files;
}

/**
 * The embed-modes section: each panel's onLoad has been called once its frame
 * has loaded, the form frame shows zdr-host's SVG, and the postMessage shell
 * has drawn on its canvas (a pixel of the card's background is painted).
 */
async function embedModesShown(page) {
  for (const mode of ['form', 'postmessage']) {
    await page.waitForFunction(
      (id) => {
        const counters = document.getElementById(id).dataset;
        return Number(counters.onload) >= 1 && Number(counters.frameLoads) >= 1;
      },
      `count-${mode}`,
      WAIT,
    );
  }
  const form = await (await page.waitForSelector('#modes-form iframe', WAIT)).contentFrame();
  await form.waitForFunction(() => document.readyState === 'complete' && document.querySelector('svg'), null, WAIT);
  const shell = await (await page.waitForSelector('#modes-postmessage iframe', WAIT)).contentFrame();
  await shell.waitForFunction(
    () => {
      const canvas = document.querySelector('#zdr-chart canvas');
      if (!canvas || canvas.width === 0 || canvas.height === 0) return false;
      const pixel = canvas.getContext('2d')?.getImageData(canvas.width >> 1, 2, 1, 1).data;
      return pixel ? pixel[3] > 0 : true;
    },
    null,
    WAIT,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      width: { type: 'string' },
      dark: { type: 'boolean' },
    },
  });
  const files = await screenshotDemo({
    out: values.out ? resolve(values.out) : undefined,
    width: values.width ? Number(values.width) : undefined,
    dark: values.dark,
  });
  for (const file of files) console.log(file);
}
