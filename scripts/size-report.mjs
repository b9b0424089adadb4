// What a page downloads (issue 53, point 4). The built package (pkg/) is
// served as static files on 127.0.0.1 and six pages are loaded in headless
// Chromium, one after the other, each in a fresh browser context: a service
// card through the drop-in script, a service card through the ES module, a
// local line card, a local bar card, a local map card, and one card of each
// of the nineteen kinds. Once every card of a page has drawn (its onLoad) and
// the network is quiet, every file the page's own frame fetched is counted,
// raw, gzip -9 and brotli (q 11), whatever its name: the files of a later
// layout (chunks, map outlines) are counted without this script knowing them.
// Not counted: the test page's own HTML (the user's page, with the user's
// data inline) and what the service's page in the iframe fetches (the
// service's response is not the widget's download).
//
//   node scripts/size-report.mjs           the package's files, then the pages
//   node scripts/size-report.mjs --check   the same; exits 1 when a page is over its budget or fails
//   node scripts/size-report.mjs --files   the package's files only (no browser; scripts/build.sh)
//
// scripts/test.sh runs it with --check. Needs pkg/ (bash scripts/build.sh)
// and Chromium (/usr/bin/chromium, or CHROMIUM_PATH).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PKG = join(ROOT, 'pkg');
const EXAMPLES = join(ROOT, 'docs', 'examples');
const CHECK = process.argv.includes('--check');
const FILES_ONLY = process.argv.includes('--files');
const PAGE_TIMEOUT = 20_000;
// After the last onLoad, a page is done when no request of its frame has
// been in flight for this long (a card's interaction is made in the task
// after its draw, and could fetch a chunk of its own).
const QUIET_MS = 300;

// The nineteen card kinds, one example each in docs/examples/ (the
// *_columns files are other shapes of two of them, not kinds).
const KINDS = [
  'area_timeseries', 'bar', 'boxplot', 'bubble_map', 'choropleth', 'grouped_bar', 'heatmap',
  'histogram', 'map', 'pie', 'scatter', 'stacked_area_timeseries', 'stacked_bar', 'table',
  'timeline', 'timeseries', 'top_level_metric', 'treemap', 'waterfall',
];

// Each page's gzip -9 budget in bytes: this build's figure and a little
// room. They come down as the engine is split by card kind (issue 53); the
// issue's targets are in the comments. A budget moves only on purpose, and
// the change that moves it says why (docs/size.md).
const PAGES = [
  // target: 32,000 B
  { name: 'service card, drop-in script', budget: 37_900, load: 'dropin', cards: ['bar'] },
  // target: 25,000 B
  { name: 'service card, ES module', budget: 35_250, load: 'module', cards: ['bar'] },
  // target: 120,000 B
  // The engine split by card kind: the core (115 KB: the interaction and
  // the shell are chunks of their own, fetched on use) and the lines' chunk.
  { name: 'local line card', budget: 172_500, load: 'module', local: true, cards: ['timeseries'] },
  // target: 120,000 B
  { name: 'local bar card', budget: 164_750, load: 'module', local: true, cards: ['bar'] },
  // target: 160,000 B
  // The maps' chunk carries the outlines (39 KB).
  { name: 'local map card (choropleth)', budget: 197_250, load: 'module', local: true, cards: ['choropleth'] },
  // no target in issue 53: every kind's chunk, once each (no interaction:
  // the page is not touched). 14 KB more than the whole engine was: twelve
  // modules compress apart, and the core exports what they share instead
  // of inlining it.
  { name: 'local cards of all 19 kinds', budget: 267_500, load: 'module', local: true, cards: KINDS },
];

// ------------------------------------------------------------------ sizes

const compressed = new Map(); // path -> sizes: pages share files, and brotli q 11 is slow
function sizes(path, data) {
  if (!compressed.has(path)) {
    compressed.set(path, {
      raw: data.length,
      gzip: gzipSync(data, { level: 9 }).length,
      brotli: brotliCompressSync(data, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
      }).length,
    });
  }
  return compressed.get(path);
}
const bytes = (n) => `${n.toLocaleString('en-US')} B`.padStart(12);
const row = (label, s, tail = '') => console.log(`${label.padEnd(52)}${bytes(s.raw)}${bytes(s.gzip)}${bytes(s.brotli)}${tail}`);
const header = (title) => console.log(`\n${title.padEnd(52)}${'raw'.padStart(12)}${'gzip -9'.padStart(12)}${'brotli'.padStart(12)}`);

/** Every file of pkg/ but the TypeScript types, as found (no list of names to keep up). */
function packageFiles(dir = PKG) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? packageFiles(join(dir, e.name)) : [join(dir, e.name)]))
    .filter((f) => !f.endsWith('.d.ts'))
    .sort();
}

function reportFiles() {
  header('pkg/, file by file (each served on its own)');
  for (const file of packageFiles()) row(`  ${relative(ROOT, file)}`, sizes(file, readFileSync(file)));
}

// ------------------------------------------------------------------ the server

const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.css': 'text/css', '.html': 'text/html; charset=utf-8' };
// What the stand-in service answers the widget's form post with: a page
// with nothing to fetch, so the iframe adds nothing (and is not counted anyway).
const SERVICE_PAGE = '<!doctype html><meta charset="utf-8"><title>card</title><p>drawn by the stand-in service';

/**
 * Serves pkg/ at /pkg/ and each test page at /page/<n>.html, and answers
 * POST /embed/<id>/ as the service would. `served` maps each path sent to
 * its file, for the sizes.
 */
async function startStatic(pages) {
  const served = new Map();
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    const send = (status, type, body) => res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(body);
    if (/^\/embed\/[^/]+\/$/.test(path)) return req.resume().on('end', () => send(200, TYPES['.html'], SERVICE_PAGE));
    const page = /^\/page\/(\d+)\.html$/.exec(path);
    if (page && pages[page[1]]) return send(200, TYPES['.html'], pages[page[1]]);
    const file = resolve(PKG, `.${path.replace(/^\/pkg/, '')}`);
    if (!path.startsWith('/pkg/') || !file.startsWith(PKG + sep) || !isFile(file)) return send(404, 'text/plain', 'not found');
    served.set(path, file);
    send(200, TYPES[extname(file)] ?? 'application/octet-stream', readFileSync(file));
  });
  await new Promise((ok, fail) => server.once('error', fail).listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, served, close: () => new Promise((ok) => server.close(ok)) };
}
const isFile = (f) => {
  try {
    return statSync(f).isFile();
  } catch {
    return false;
  }
};

// ------------------------------------------------------------------ the pages

/**
 * A page as a user would write it: a container per card, the widget loaded
 * by a script tag (drop-in) or an import (ES module), a render per card. It
 * counts the onLoads in `window.sizeDrawn` and keeps errors in `window.sizeErrors`.
 */
function pageHtml({ load, local, cards }, origin) {
  const boxes = cards.map((_, i) => `<div id="c${i}" style="width:800px;height:400px"></div>`).join('\n');
  const data = cards.map((kind) => JSON.parse(readFileSync(join(EXAMPLES, `${kind}.json`), 'utf8')));
  const options = (i) =>
    `{ containerId: 'c${i}', ${local ? "mode: 'local'" : `serviceUrl: ${JSON.stringify(origin)}, cardId: 'card${i}'`}, height: '400px',` +
    ` visualizationData: DATA[${i}], onLoad: () => { window.sizeDrawn++; }, onError: (e) => window.sizeErrors.push(String(e?.message ?? e)) }`;
  const calls = cards.map((_, i) => `${load === 'dropin' ? 'ServiceZDREmbed.' : ''}render(${options(i)});`).join('\n');
  const setup = `window.sizeDrawn = 0; window.sizeErrors = []; const DATA = ${JSON.stringify(data)};`;
  const script =
    load === 'dropin'
      ? `<script src="/pkg/zdr_embed_widget.js"></script>\n<script>\n${setup}\n${calls}\n</script>`
      : `<script type="module">\nimport init, { render } from '/pkg/zdr_embed.js';\n${setup}\ntry { await init(); } catch (e) { window.sizeErrors.push(String(e)); }\n${calls}\n</script>`;
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>size</title></head>\n<body>\n${boxes}\n${script}\n</body></html>\n`;
}

/**
 * The URLs the page's own frame (or its workers) fetched, once the cards have
 * drawn and the network is quiet: one entry per request, so a file fetched
 * twice is paid twice.
 */
async function fetchedBy(page, url, count) {
  const fetched = [];
  const inFlight = new Set();
  let last = Date.now();
  const own = (req) => {
    try {
      return req.frame() === page.mainFrame();
    } catch {
      return true; // a worker's request has no frame: the widget's too
    }
  };
  page.on('request', (req) => {
    if (!own(req)) return;
    inFlight.add(req);
    fetched.push(req.url());
    last = Date.now();
  });
  const settled = (req) => inFlight.delete(req) && (last = Date.now());
  page.on('requestfinished', settled);
  page.on('requestfailed', settled);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction((n) => window.sizeDrawn >= n || window.sizeErrors?.length, count, { timeout: PAGE_TIMEOUT });
  errors.push(...(await page.evaluate(() => window.sizeErrors)));
  if (errors.length) throw new Error(errors.join('; '));
  while (inFlight.size || Date.now() - last < QUIET_MS) await page.waitForTimeout(50);
  return fetched.filter((u) => u !== url); // the test page's HTML: the user's page, not the widget
}

/** One page in a fresh context (no cache from the page before); its files and their sizes. */
async function measure(browser, server, index, spec) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, deviceScaleFactor: 1 });
  const blocked = [];
  try {
    await context.route((u) => u.hostname !== '127.0.0.1', (route) => blocked.push(route.request().url()) && route.abort());
    const page = await context.newPage();
    const urls = await fetchedBy(page, `${server.origin}/page/${index}.html`, spec.cards.length);
    if (blocked.length) throw new Error(`requests beyond 127.0.0.1: ${blocked.join(', ')}`);
    return urls.map((u) => {
      const path = new URL(u).pathname;
      const file = server.served.get(path);
      if (!file) throw new Error(`${path} was fetched but not served (404?)`);
      return { path, ...sizes(file, readFileSync(file)) };
    });
  } finally {
    await context.close();
  }
}

/** Prints one page's files and total; returns the problem, if any. */
function reportPage(spec, files) {
  header(spec.name);
  const total = { raw: 0, gzip: 0, brotli: 0 };
  for (const f of files.sort((a, b) => a.path.localeCompare(b.path))) {
    row(`  ${f.path}`, f);
    for (const k of Object.keys(total)) total[k] += f[k];
  }
  const over = total.gzip > spec.budget;
  row('  all it downloads', total, `   budget ${spec.budget.toLocaleString('en-US')} B${over ? '  OVER' : ''}`);
  return over ? `${spec.name}: ${total.gzip.toLocaleString('en-US')} B gzip, over its budget of ${spec.budget.toLocaleString('en-US')} B` : null;
}

async function reportPages() {
  const { launch } = await import('../tests/e2e/browser.mjs');
  const pages = [];
  const server = await startStatic(pages);
  PAGES.forEach((spec, i) => (pages[i] = pageHtml(spec, server.origin)));
  const problems = [];
  let browser = null;
  try {
    browser = await launch();
    console.log('\nWhat each page downloads: every file its own frame fetched once its cards had drawn (onLoad),');
    console.log("each in a fresh browser context. Not counted: the test page's HTML and, for the service cards,");
    console.log("the service's page in the iframe (the service's response, not the widget's download).");
    for (const [i, spec] of PAGES.entries()) {
      try {
        problems.push(reportPage(spec, await measure(browser, server, i, spec)));
      } catch (error) {
        console.log(`\n${spec.name}: FAILED: ${error.message}`);
        problems.push(`${spec.name}: ${error.message}`);
      }
    }
  } finally {
    await browser?.close();
    await server.close();
  }
  return problems.filter(Boolean);
}

async function main() {
  if (!isFile(join(PKG, 'zdr_embed.js'))) {
    console.error('size-report: pkg/ is not built (run: bash scripts/build.sh)');
    process.exit(1);
  }
  reportFiles();
  if (FILES_ONLY) return;
  const problems = await reportPages();
  if (!CHECK) return;
  for (const p of problems) console.error(`size budget: ${p}`);
  if (problems.length) process.exit(1);
  console.log('\nsize budgets: every page within its gzip budget');
}

main().catch((error) => {
  console.error(`size-report: ${error.stack ?? error}`);
  process.exit(1);
});
