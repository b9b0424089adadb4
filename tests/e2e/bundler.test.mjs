// End to end: the npm package in a bundler, as most users will meet it.
// Vite builds a page that imports "zdr-embed" from the packed package; the
// build must split the engine into a chunk of its own and emit both .wasm
// files as assets (found by the glue's new URL(..., import.meta.url)). The
// built site, served by the real zdr-host, then draws a local card with the
// bundled engine, and a service-mode page fetches none of the engine's files.
//
// It builds nothing of the project: scripts/test.sh builds the package
// (scripts/build.sh) and zdr-host first. Vite itself is a devDependency.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { build } from 'vite';

import { launch } from './browser.mjs';
import { startHost, stopHost } from './host.mjs';
import { packPackage, ROOT } from './package.mjs';

const WAIT = { timeout: 20_000 };
const BAR = readFileSync(join(ROOT, 'docs/examples/bar.json'), 'utf8');

// The user's code: one card, in the mode the page's query names.
const MAIN = `import init, { render } from 'zdr-embed';
await init();
window.loads = [];
window.errors = [];
const mode = new URLSearchParams(location.search).get('mode');
render({
  containerId: 'card',
  mode,
  serviceUrl: location.origin,
  cardId: 'bundled-card',
  visualizationData: ${BAR},
  onLoad: (element) => window.loads.push(element.tagName),
  onError: (error) => window.errors.push(error.message),
});
`;
const INDEX = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>body { margin: 0; padding: 20px; font: 14px sans-serif } #card { width: 480px; height: 300px }</style></head>
<body><div id="card"></div><script type="module" src="/main.js"></script></body></html>`;

let work, dist, host, browser;

before(async () => {
  assert.ok(existsSync(join(ROOT, 'pkg/engine/zdr_engine_bg.wasm')), 'run scripts/build.sh first');
  work = mkdtempSync(join(tmpdir(), 'zdr-bundler-e2e-'));
  const packageDir = packPackage(work);
  const app = join(work, 'app');
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  symlinkSync(packageDir, join(app, 'node_modules', 'zdr-embed'), 'dir');
  writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
  writeFileSync(join(app, 'index.html'), INDEX);
  writeFileSync(join(app, 'main.js'), MAIN);
  dist = join(work, 'dist');
  await build({ root: app, configFile: false, logLevel: 'silent', build: { outDir: dist, emptyOutDir: true } });
  host = await startHost(['--www', dist]);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  const stopped = await stopHost(host);
  if (work) rmSync(work, { recursive: true, force: true });
  if (stopped) assert.deepEqual(stopped, { code: 0, signal: null }, 'zdr-host exits with 0 on SIGTERM');
});

const assets = () => readdirSync(join(dist, 'assets'));
const engineFiles = () => assets().filter((name) => name.startsWith('zdr_engine'));

test('vite splits the engine into a chunk of its own and emits both modules as .wasm assets', () => {
  const names = assets();
  assert.equal(names.filter((name) => /^zdr_embed_service_bg-.*\.wasm$/.test(name)).length, 1, names.join('\n'));
  assert.equal(names.filter((name) => /^zdr_engine_bg-.*\.wasm$/.test(name)).length, 1, names.join('\n'));
  const engineChunks = names.filter((name) => /^zdr_engine-.*\.js$/.test(name));
  assert.equal(engineChunks.length, 1, names.join('\n'));
  // The entry the page loads holds the service glue and only a dynamic
  // import of the engine chunk, not the engine's glue.
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const entry = /src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  assert.ok(entry, html);
  const entryText = readFileSync(join(dist, 'assets', entry), 'utf8');
  assert.ok(entryText.includes(engineChunks[0]), 'the entry imports the engine chunk by its hashed name');
  assert.ok(!entryText.includes('startShell'), 'the engine glue is not in the entry chunk');
  assert.ok(readFileSync(join(dist, 'assets', engineChunks[0]), 'utf8').includes('startShell'), 'it is in its own chunk');
});

async function open(mode) {
  const context = await browser.newContext({ deviceScaleFactor: 1 });
  const page = await context.newPage();
  const requests = [];
  const consoleErrors = [];
  page.on('request', (request) => request.frame() === page.mainFrame() && requests.push(new URL(request.url()).pathname));
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  await page.goto(`${host.origin}/index.html?mode=${mode}`);
  try {
    await page.waitForFunction(() => window.loads?.length === 1 || window.errors?.length > 0, null, WAIT);
  } catch (error) {
    throw new Error(`${error.message}\nconsole: ${consoleErrors.join('\n')}\nrequests: ${requests.join('\n')}`);
  }
  return { context, page, requests, consoleErrors };
}

test('the bundled page draws a local card with the bundled engine, fetched once', async () => {
  const { context, page, requests, consoleErrors } = await open('local');
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  assert.deepEqual(await page.evaluate(() => window.loads), ['CANVAS']);
  const fetched = requests.filter((path) => path.includes('zdr_engine')).map((path) => path.replace('/assets/', ''));
  assert.deepEqual(fetched.sort(), engineFiles().sort(), 'the engine chunk and its .wasm, once each');
  // Something was drawn: the canvas holds more than one colour.
  const colours = await page.evaluate(() => {
    const canvas = document.querySelector('#card canvas');
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4 * 97) seen.add(data.slice(i, i + 4).join());
    return seen.size;
  });
  assert.ok(colours > 3, `the canvas shows a chart (${colours} colours sampled)`);
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  await page.screenshot({ path: join(ROOT, 'test-results/bundler-local.png') });
  assert.deepEqual(consoleErrors, []);
  await context.close();
});

test('the bundled page in service mode posts the form and fetches no engine file', async () => {
  const { context, page, requests, consoleErrors } = await open('service');
  assert.deepEqual(await page.evaluate(() => window.errors), []);
  assert.deepEqual(await page.evaluate(() => window.loads), ['IFRAME']);
  assert.deepEqual(requests.filter((path) => path.includes('zdr_engine')), []);
  assert.ok(requests.some((path) => /zdr_embed_service_bg-.*\.wasm$/.test(path)), requests.join('\n'));
  assert.deepEqual(consoleErrors, []);
  await context.close();
});
