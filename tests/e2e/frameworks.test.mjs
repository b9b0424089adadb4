// End to end: the recipes of docs/widget.md (docs/recipes/), each an app that
// installs the packed package: Vite with React 19 in StrictMode, Vite with
// Vue 3 and Vite with Svelte 5 (each with the package's component for it:
// zdr-embed/react, /vue, /svelte), webpack 5, and a plain HTML page that
// loads the package's files from a static folder as a CDN would. Built
// here, served by the real zdr-host, driven in headless Chromium; React's
// component is also rendered on the server, in Node. docs/widget.md shows
// these files verbatim, and the README's three ways of loading run here as
// written.
//
// It builds nothing of the project: scripts/test.sh builds the package
// (scripts/build.sh) and zdr-host first. The frameworks are devDependencies.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { execFileSync } from 'node:child_process';

import { svelte } from '@sveltejs/vite-plugin-svelte';
import react from '@vitejs/plugin-react';
import vue from '@vitejs/plugin-vue';
import { build } from 'vite';
import webpack from 'webpack';

import { launch } from './browser.mjs';
import { startHost, tearDown } from './host.mjs';
import { instrument } from './instrument.mjs';
import { packPackage, ROOT } from './package.mjs';

const RECIPES = join(ROOT, 'docs/recipes');
const WAIT = { timeout: 30_000 };
const PAGE = (script) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>App</title></head>
<body><div id="root"></div><div id="card"></div><script type="module" src="${script}"></script></body></html>`;

let work, packageDir, site, host, browser;

/**
 * An app folder: the recipe's files, and in node_modules the packed package
 * (copied, as an install lays it out: its imports of a framework resolve to
 * the app's) and the frameworks it names.
 */
function app(name, files, modules) {
  const dir = join(work, name);
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  cpSync(packageDir, join(dir, 'node_modules', 'zdr-embed'), { recursive: true });
  for (const module of modules) symlinkSync(join(ROOT, 'node_modules', module), join(dir, 'node_modules', module), 'dir');
  writeFileSync(join(dir, 'package.json'), `{ "name": "${name}", "private": true, "type": "module" }\n`);
  for (const file of files) cpSync(join(RECIPES, name, file), join(dir, file));
  return dir;
}

before(async () => {
  assert.ok(existsSync(join(ROOT, 'pkg/zdr_embed.js')), 'run scripts/build.sh first');
  work = mkdtempSync(join(tmpdir(), 'zdr-frameworks-e2e-'));
  packageDir = packPackage(work);
  site = join(work, 'site');
  mkdirSync(site);

  // React 19, StrictMode, a development build (StrictMode mounts, unmounts
  // and mounts again only there).
  const reactApp = app('react', ['main.jsx'], ['react', 'react-dom']);
  writeFileSync(join(reactApp, 'index.html'), PAGE('/main.jsx'));
  await build({
    root: reactApp, base: '/react/', configFile: false, logLevel: 'silent', mode: 'development', plugins: [react()],
    define: { 'process.env.NODE_ENV': '"development"' },
    build: { outDir: join(site, 'react'), emptyOutDir: true, minify: false },
  });

  // The React component in service mode, postMessage: the data go to the
  // service's shell in the same frame on every update, never a new one.
  const serviceApp = app('react-service', [], ['react', 'react-dom']);
  writeFileSync(join(serviceApp, 'main.jsx'), `import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ZdrChart } from 'zdr-embed/react';

function App() {
  const [q4, setQ4] = useState(180);
  const sales = { viz_config: { title: 'Sales, Q4 ' + q4, viz_component_type: 'bar' }, data: [{ x: 'Q1', y: 120 }, { x: 'Q4', y: q4 }] };
  return (
    <>
      <button id="more" onClick={() => setQ4(q4 + 40)}>More in Q4</button>
      <ZdrChart serviceUrl={location.origin} cardId="sales" embedMode="postmessage" height="360px" visualizationData={sales} />
    </>
  );
}

createRoot(document.getElementById('root')).render(<App />);
`);
  writeFileSync(join(serviceApp, 'index.html'), PAGE('/main.jsx'));
  await build({
    root: serviceApp, base: '/react-service/', configFile: false, logLevel: 'silent', plugins: [react()],
    build: { outDir: join(site, 'react-service'), emptyOutDir: true },
  });

  const vueApp = app('vue', ['App.vue', 'main.js'], ['vue']);
  writeFileSync(join(vueApp, 'index.html'), PAGE('/main.js'));
  await build({
    root: vueApp, base: '/vue/', configFile: false, logLevel: 'silent', plugins: [vue()],
    build: { outDir: join(site, 'vue'), emptyOutDir: true },
  });

  const svelteApp = app('svelte', ['App.svelte', 'main.js'], ['svelte']);
  writeFileSync(join(svelteApp, 'index.html'), PAGE('/main.js'));
  await build({
    root: svelteApp, base: '/svelte/', configFile: false, logLevel: 'silent', plugins: [svelte()],
    build: { outDir: join(site, 'svelte'), emptyOutDir: true },
  });

  const webpackApp = app('webpack', ['index.js', 'webpack.config.js'], []);
  const { default: config } = await import(pathToFileURL(join(webpackApp, 'webpack.config.js')).href);
  const outDir = join(site, 'webpack');
  await new Promise((ok, fail) => webpack({ ...config, context: webpackApp, output: { ...config.output, path: outDir, publicPath: '/webpack/' } }, (error, stats) => {
    if (error || stats.hasErrors()) fail(error ?? new Error(stats.toString('errors-only')));
    else ok();
  }));
  writeFileSync(join(outDir, 'index.html'), PAGE('/webpack/main.js'));

  // A static folder, as a CDN serves the package: its files as they are.
  mkdirSync(join(site, 'static', 'cdn'), { recursive: true });
  cpSync(packageDir, join(site, 'cdn', 'zdr-embed@0.1.0'), { recursive: true });
  cpSync(join(RECIPES, 'static', 'index.html'), join(site, 'static', 'index.html'));

  // The README's three ways of loading, each block as written in a page of
  // its own; only the package's address and the service's become this run's.
  mkdirSync(join(site, 'readme'));
  const imports = { imports: { 'zdr-embed': '/cdn/zdr-embed@0.1.0/pkg/zdr_embed.js', 'zdr-embed/element': '/cdn/zdr-embed@0.1.0/pkg/zdr_embed_element.js' } };
  for (const [name, block] of Object.entries(readmeBlocks())) {
    const body = name === 'module' ? `<div id="chart"></div><script type="module">\n${block}\n</script>` : block;
    writeFileSync(join(site, 'readme', `${name}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>README</title>
<script type="importmap">${JSON.stringify(imports)}</script></head><body>
${body.replaceAll('/path/to/zdr_embed_widget.js', '/cdn/zdr-embed@0.1.0/pkg/zdr_embed_widget.js')}
</body></html>`);
  }

  host = await startHost(['--www', site]);
  for (const name of ['module', 'dropin']) {
    const file = join(site, 'readme', `${name}.html`);
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('https://charts.example.com', host.origin));
  }
  browser = await launch();
});

after(() => tearDown({ browser, host, work }));

/** The code blocks of the README's "Three ways to load it", by way. */
function readmeBlocks() {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Three ways to load it'), readme.indexOf('### Recipes'));
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)\n```/g)].map(([, language, code]) => ({ language, code }));
  assert.deepEqual(blocks.map((block) => block.language), ['js', 'html', 'html'], 'a new block in the README needs a place in this test');
  return { module: blocks[0].code, dropin: blocks[1].code, element: blocks[2].code };
}

async function open(path) {
  const context = await browser.newContext({ deviceScaleFactor: 1 });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  // Failed requests by address (the browser's own /favicon.ico aside), not by console text.
  page.on('console', (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && problems.push(message.text()));
  page.on('response', (response) => response.status() >= 400 && !response.url().endsWith('/favicon.ico') && problems.push(`${response.status()} ${response.url()}`));
  await page.goto(`${host.origin}${path}`);
  return { context, page, problems };
}

/** The cards' canvases in the page and their names. */
const cards = (page) => page.evaluate(() => {
  const all = [...document.querySelectorAll('canvas'), ...[...document.querySelectorAll('zdr-embed')].flatMap((el) => [...el.shadowRoot.querySelectorAll('canvas')])];
  return all.map((canvas) => canvas.getAttribute('aria-label') ?? '');
});
const shows = (page, pattern) => page.waitForFunction((source) => {
  const labels = [...document.querySelectorAll('canvas')].map((canvas) => canvas.getAttribute('aria-label') ?? '');
  return labels.length === 1 && new RegExp(source).test(labels[0]);
}, pattern.source, WAIT);
/** What the page holds on to: live listeners, observers, pending frames. */
const held = (page) => page.evaluate(() => ({ listeners: window.__t.listeners.length, observing: window.__t.observing.size, frames: window.__t.frames.size }));

const draws = (page) => page.evaluate(() => Number(document.querySelector('#draws').textContent.match(/\d+/)[0]));

async function mountUpdateUnmount(path, screenshot) {
  const { context, page, problems } = await open(path);
  await shows(page, /^Sales, Q4 180\. Bar chart/);
  await page.waitForFunction(() => /Drawn [1-9]/.test(document.querySelector('#draws').textContent), null, WAIT);
  const first = await page.evaluateHandle(() => document.querySelector('canvas'));
  const before = await draws(page);
  await page.click('#more');
  await shows(page, /^Sales, Q4 220\. Bar chart/);
  assert.ok(await page.evaluate((canvas) => canvas === document.querySelector('canvas'), first), 'the same canvas, updated');
  // Its load callback or event, once for the new data; the handle (a ref) gives its CSV.
  await page.waitForFunction((n) => Number(document.querySelector('#draws').textContent.match(/\d+/)[0]) > n, before, WAIT);
  await page.click('#csv');
  await page.waitForFunction(() => document.querySelector('#table').textContent.includes('Q4,220'), null, WAIT);
  await page.screenshot({ path: join(ROOT, 'test-results', screenshot) });
  const shown = await held(page);
  // Unmounted: nothing of the card is left, nor anything it listened with.
  await page.click('#toggle');
  await page.waitForFunction(() => document.querySelectorAll('canvas, iframe, .zdr-embed-local').length === 0, null, WAIT);
  const hidden = await held(page);
  assert.ok(hidden.listeners < shown.listeners, `listeners: ${shown.listeners} shown, ${hidden.listeners} hidden`);
  assert.deepEqual([hidden.observing, hidden.frames], [0, 0]);
  // Mounted again, then unmounted again: the same count, nothing leaked.
  await page.click('#toggle');
  await shows(page, /^Sales, Q4 220\. Bar chart/);
  assert.deepEqual((await held(page)).listeners, shown.listeners);
  await page.click('#toggle');
  await page.waitForFunction(() => document.querySelectorAll('canvas').length === 0, null, WAIT);
  assert.deepEqual(await held(page), hidden);
  assert.deepEqual(problems, []);
  await context.close();
}

test('Vite + React 19 in StrictMode: one card after mount, unmount and mount; updated in place; nothing left after unmounting', async () => {
  const bundle = readdirSync(join(site, 'react', 'assets')).filter((name) => name.endsWith('.js')).map((name) => readFileSync(join(site, 'react', 'assets', name), 'utf8')).join('\n');
  assert.ok(bundle.includes('StrictMode') && bundle.includes('Each child in a list should have a unique'), 'a development build of React, where StrictMode mounts twice');
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  await mountUpdateUnmount('/react/index.html', 'recipe-react.png');
});

test('the React component in service mode (postMessage): new data go to the same frame, which is not loaded again', async () => {
  const { context, page, problems } = await open('/react-service/index.html');
  const shell = () => page.frames().find((frame) => frame.url().includes('embed_mode=postmessage'));
  await page.waitForFunction(() => document.querySelector('iframe'), null, WAIT);
  await expectText(shell, 'Sales, Q4 180');
  const frame = await page.evaluateHandle(() => document.querySelector('iframe'));
  await shell().evaluate(() => (window.__before = 'the same document'));
  await page.click('#more');
  await expectText(shell, 'Sales, Q4 220');
  assert.ok(await page.evaluate((iframe) => iframe === document.querySelector('iframe') && document.querySelectorAll('iframe').length === 1, frame), 'the same iframe');
  assert.equal(await shell().evaluate(() => window.__before), 'the same document', 'the frame was not loaded again');
  assert.deepEqual(problems, []);
  await context.close();
});

/** Waits until the shell frame shows `text` (its canvas's accessible name). */
async function expectText(shell, text) {
  const deadline = Date.now() + WAIT.timeout;
  for (;;) {
    const label = await shell()?.evaluate(() => document.querySelector('canvas')?.getAttribute('aria-label') ?? '').catch(() => '');
    if (label?.startsWith(text)) return;
    if (Date.now() > deadline) throw new Error(`the shell never showed ${text}: ${label}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

test('Vite + Vue 3: the card mounts, updates when its data change, and leaves nothing when unmounted', async () => {
  await mountUpdateUnmount('/vue/index.html', 'recipe-vue.png');
});

test('Vite + Svelte 5: the card mounts, updates when its data change, and leaves nothing when unmounted', async () => {
  await mountUpdateUnmount('/svelte/index.html', 'recipe-svelte.png');
});

/** Runs `script` with Node in a new app folder that has the package and `modules` installed: its stdout. */
function serverRender(name, modules, script) {
  const dir = app(name, [], modules);
  writeFileSync(join(dir, 'render.mjs'), script);
  return execFileSync(process.execPath, ['render.mjs'], { cwd: dir, encoding: 'utf8' });
}

const SSR_DATA = "{ viz_config: { title: 'Sales', viz_component_type: 'bar' }, data: [{ x: 'Q1', y: 1 }] }";

test("React's server render of the component, in Node from the installed package: an empty box, no error", () => {
  const html = serverRender('ssr-react', ['react', 'react-dom'], `import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ZdrChart } from 'zdr-embed/react';
process.stdout.write(renderToString(createElement(ZdrChart, { mode: 'local', visualizationData: ${SSR_DATA}, className: 'chart' })));
`);
  assert.equal(html, '<div class="chart"></div>');
});

test("Vue's and Svelte's server renders of their components: an empty box, no error", () => {
  const vue = serverRender('ssr-vue', ['vue'], `import { createSSRApp, h } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { ZdrChart } from 'zdr-embed/vue';
process.stdout.write(await renderToString(createSSRApp({ render: () => h(ZdrChart, { mode: 'local', visualizationData: ${SSR_DATA} }) })));
`);
  assert.equal(vue, '<div></div>');
  // As SvelteKit does: the component compiled for the server, then rendered.
  const svelte = serverRender('ssr-svelte', ['svelte'], `import { readFileSync, writeFileSync } from 'node:fs';
import { compile } from 'svelte/compiler';
import { render } from 'svelte/server';
const source = 'node_modules/zdr-embed/pkg/svelte/ZdrChart.svelte';
writeFileSync(source + '.server.js', compile(readFileSync(source, 'utf8'), { generate: 'server' }).js.code);
const { default: ZdrChart } = await import('./' + source + '.server.js');
process.stdout.write(render(ZdrChart, { props: { mode: 'local', visualizationData: ${SSR_DATA}, class: 'chart' } }).body);
`);
  assert.match(svelte, /^(<!--[^>]*-->)*<div class="chart"><\/div>(<!--[^>]*-->)*$/);
});

test("webpack 5: the engine in a chunk of its own, every .wasm (the service module, the engine's core, its twelve chunks of card kinds, its interaction and its shell) as assets, and the card drawn", async () => {
  const files = readdirSync(join(site, 'webpack'));
  assert.equal(files.filter((name) => name.endsWith('.wasm')).length, 2 + 12 + 2, files.join(' '));
  assert.ok(files.filter((name) => name.endsWith('.js')).length >= 2, `an engine chunk beside main.js: ${files.join(' ')}`);
  const { context, page, problems } = await open('/webpack/index.html');
  await shows(page, /^Sales\. Bar chart/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a plain HTML page loading the package from a static folder: the drop-in with <zdr-embed>, and the ES module', async () => {
  const { context, page, problems } = await open('/static/index.html');
  // Each canvas is named by its title at once and by its summary after its first frame.
  await page.waitForFunction(() => [document.querySelector('#chart canvas'), document.querySelector('zdr-embed')?.shadowRoot?.querySelector('canvas')]
    .every((canvas) => canvas && /\. [A-Z][a-z]* chart/.test(canvas.getAttribute('aria-label') ?? '')), null, WAIT);
  const labels = await cards(page);
  assert.equal(labels.length, 2, labels.join(' | '));
  assert.ok(labels.some((label) => /^Sales\. Bar chart/.test(label)), labels.join(' | '));
  assert.ok(labels.some((label) => /^Costs\. Pie chart/.test(label)), labels.join(' | '));
  await page.screenshot({ path: join(ROOT, 'test-results', 'recipe-static.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test("the README's three ways of loading run as written", async () => {
  // The ES module: a card in service mode, then updated in the same frame.
  let { context, page, problems } = await open('/readme/module.html');
  await page.frameLocator('#chart iframe').locator('svg text', { hasText: 'Q2' }).first().waitFor(WAIT);
  assert.equal(await page.locator('#chart iframe').count(), 1);
  assert.deepEqual(problems, []);
  await context.close();
  // The drop-in script: a card in service mode.
  ({ context, page, problems } = await open('/readme/dropin.html'));
  await page.frameLocator('#chart-container iframe').locator('svg text', { hasText: 'Sales' }).first().waitFor(WAIT);
  assert.deepEqual(problems, []);
  await context.close();
  // The element, in local mode.
  ({ context, page, problems } = await open('/readme/element.html'));
  await page.waitForFunction(() => /^Sales\. Bar chart/.test(document.querySelector('zdr-embed')?.shadowRoot?.querySelector('canvas')?.getAttribute('aria-label') ?? ''), null, WAIT);
  assert.deepEqual(problems, []);
  await context.close();
});

test('docs/widget.md shows each recipe as it is tested', () => {
  const readme = readFileSync(join(ROOT, 'docs/widget.md'), 'utf8');
  for (const [dir, file] of [['react', 'main.jsx'], ['vue', 'App.vue'], ['vue', 'main.js'], ['svelte', 'App.svelte'], ['svelte', 'main.js'], ['webpack', 'index.js'], ['webpack', 'webpack.config.js'], ['static', 'index.html']]) {
    const text = readFileSync(join(RECIPES, dir, file), 'utf8').trimEnd();
    assert.ok(readme.includes(text), `docs/widget.md does not show docs/recipes/${dir}/${file} as it is`);
  }
});
