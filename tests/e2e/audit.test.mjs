// End to end: `npx zdr-embed audit`, the package's retention audit, run from
// the packed package (its bin file, as npx runs it) on pages served by the
// real zdr-host: the demo, which is clean, and pages made to leak a card's
// data each way (a request, a pixel, a message, cookies, localStorage,
// sessionStorage, IndexedDB, the Cache API, an embed answer a cache may keep
// or that sets a cookie), each caught and named. A card drawn in the page
// sends nothing: given with --data, its leak is caught too.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { extname, join } from 'node:path';

import { CHROMIUM } from './browser.mjs';
import { hostSite, startHost, stopHost, tearDown } from './host.mjs';
import { ROOT } from './package.mjs';

const DATA = {
  viz_config: { title: 'Harbour tonnage', viz_component_type: 'bar' },
  data: [{ x: 'Zanzibar', y: 1234 }, { x: 'Quetzaltenango', y: 5678 }, { x: 'Ouagadougou', y: 9012 }],
};

/** A page with one card in service mode (form post to `service`, this host unless named), then `leak`. */
const page = (leak, service = 'location.origin', mode = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Audit</title></head>
<body><div id="chart"></div><script type="module">
import init, { render } from '/node_modules/zdr-embed/pkg/zdr_embed.js';
await init();
const data = ${JSON.stringify(DATA)};
render({ containerId: 'chart', serviceUrl: ${service}, cardId: 'harbour', height: 300, visualizationData: data${mode} });
${leak}
</script></body></html>`;

const LEAKS = {
  'fetch.html': ["fetch('/collect', { method: 'POST', body: JSON.stringify(data) }).then((answer) => answer.text());", 'request', 'POST http://127.0.0.1'],
  'pixel.html': ["new Image().src = '/pixel.gif?d=' + encodeURIComponent(JSON.stringify(data.data));", 'request', '/pixel.gif?d='],
  'message.html': ["window.postMessage({ chart: data }, '*');", 'message', 'message from'],
  'cookie.html': ["document.cookie = 'chart=' + encodeURIComponent(JSON.stringify(data.data)) + '; path=/';", 'storage', 'cookie "chart"'],
  'local-storage.html': ["localStorage.setItem('last-chart', JSON.stringify(data));", 'storage', 'localStorage "last-chart"'],
  'session-storage.html': ["sessionStorage.setItem('chart', JSON.stringify(data.data));", 'storage', 'sessionStorage "chart"'],
  'indexeddb.html': [
    "const open = indexedDB.open('charts', 1); open.onupgradeneeded = () => open.result.createObjectStore('cards'); open.onsuccess = () => open.result.transaction('cards', 'readwrite').objectStore('cards').put(data, 'harbour');",
    'storage',
    'IndexedDB "charts" store "cards"',
  ],
  'cache.html': ["caches.open('charts').then((cache) => cache.put('/chart-data', new Response(JSON.stringify(data))));", 'storage', 'Cache API "charts"'],
};

let site, badService, bin;

before(async () => {
  site = await hostSite('zdr-audit-e2e-', {
    'clean.html': page(''),
    ...Object.fromEntries(Object.entries(LEAKS).map(([name, [leak]]) => [name, page(leak)])),
    'local.html': page("localStorage.setItem('drawn', JSON.stringify(data));", 'location.origin', ", mode: 'local'"),
  });
  // A service whose embed answer a cache may keep, and which sets a cookie;
  // it serves the page and the package too (zdr-host's pages may post only
  // to zdr-host).
  const cacheable = page('');
  const types = { '.js': 'text/javascript', '.wasm': 'application/wasm' };
  badService = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = new URL(request.url, 'http://x').pathname;
      if (request.method === 'POST') {
        response.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'public, max-age=600', 'set-cookie': 'seen=1; Path=/' });
        return response.end('<!doctype html><title>card</title><p>a card</p>');
      }
      if (path === '/cacheable.html') {
        response.writeHead(200, { 'content-type': 'text/html' });
        return response.end(cacheable);
      }
      const file = path.startsWith('/node_modules/zdr-embed/') ? join(site.packageDir, path.slice('/node_modules/zdr-embed/'.length)) : null;
      if (!file || file.includes('..') || !existsSync(file)) {
        response.writeHead(404);
        return response.end();
      }
      response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
      response.end(readFileSync(file));
    });
  });
  await new Promise((ok) => badService.listen(0, '127.0.0.1', ok));
  writeFileSync(join(site.work, 'harbour.json'), JSON.stringify(DATA));
  // As npx runs it: the bin file of the installed package, playwright-core beside it.
  const app = join(site.work, 'app');
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  cpSync(site.packageDir, join(app, 'node_modules', 'zdr-embed'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', 'playwright-core'), join(app, 'node_modules', 'playwright-core'), 'dir');
  const manifest = JSON.parse(readFileSync(join(app, 'node_modules', 'zdr-embed', 'package.json'), 'utf8'));
  bin = join(app, 'node_modules', 'zdr-embed', manifest.bin['zdr-embed']);
});

after(async () => {
  await new Promise((ok) => (badService ? badService.close(ok) : ok()));
  await tearDown({ host: site?.host, work: site?.work });
});

/** Runs the audit: its exit code, its report (JSON unless `words`), and what it said on stderr. */
function audit(url, ...args) {
  return new Promise((ok) => {
    execFile(process.execPath, [bin, 'audit', url, '--browser', CHROMIUM, '--wait', '500', ...args], { timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? error.code : 0;
      let report = stdout;
      try {
        report = JSON.parse(stdout);
      } catch {}
      ok({ code, report, stderr });
    });
  });
}

test('the demo is clean: every card it posts goes only to its embed, or to its shell', async () => {
  const demo = await startHost(['--www', join(ROOT, 'www'), '--package', site.packageDir]);
  try {
    const { code, report, stderr } = await audit(`${demo.origin}/`, '--json');
    assert.equal(code, 0, `${stderr}${JSON.stringify(report, null, 2)}`);
    assert.ok(report.cards.length >= 5, JSON.stringify(report));
    assert.ok(report.cards.every((card) => card.leaks.length === 0));
    assert.ok(report.cards.some((card) => card.went.some((way) => way.startsWith('message to the shell'))), 'the postMessage card is followed too');
    const { code: again, report: said } = await audit(`${demo.origin}/`);
    assert.equal(again, 0);
    assert.match(said, /^card demo-sales$/m);
    assert.match(said, /nowhere else/);
    assert.match(said, /CLEAN\n$/);
  } finally {
    await stopHost(demo);
  }
});

test('a clean page of one card passes', async () => {
  const { code, report } = await audit(`${site.host.origin}/clean.html`, '--json');
  assert.equal(code, 0, JSON.stringify(report));
  assert.deepEqual(report.cards.map((card) => [card.card, card.leaks]), [['harbour', []]]);
});

for (const [name, [, kind, where]] of Object.entries(LEAKS)) {
  test(`a page that leaks the data by ${name.replace('.html', '')} fails, naming the leak`, async () => {
    const { code, report } = await audit(`${site.host.origin}/${name}`, '--json');
    assert.equal(code, 1, JSON.stringify(report));
    const leaks = report.cards.flatMap((card) => card.leaks);
    assert.ok(leaks.some((leak) => leak.kind === kind && leak.where.includes(where)), JSON.stringify(leaks, null, 2));
    const { report: said } = await audit(`${site.host.origin}/${name}`);
    assert.match(said, new RegExp(`LEAK \\(${kind}\\)`));
    assert.match(said, /LEAKS FOUND\n$/);
  });
}

test('an embed answer a cache may keep, or that sets a cookie, fails', async () => {
  const { code, report } = await audit(`http://127.0.0.1:${badService.address().port}/cacheable.html`, '--json');
  assert.equal(code, 1, JSON.stringify(report));
  const problems = report.answers.flatMap((answer) => answer.problems).join('; ');
  assert.match(problems, /may be cached \(Cache-Control: public, max-age=600/);
  assert.match(problems, /sets a cookie/);
});

test('a card drawn in the page sends nothing: without --data nothing is audited, with it its leak is caught', async () => {
  const url = `${site.host.origin}/local.html`;
  const blind = await audit(url, '--json');
  assert.equal(blind.code, 3, JSON.stringify(blind.report));
  const given = await audit(url, '--json', '--data', join(site.work, 'harbour.json'));
  assert.equal(given.code, 1, JSON.stringify(given.report));
  assert.ok(given.report.cards[0].leaks.some((leak) => leak.where.startsWith('localStorage "drawn"')), JSON.stringify(given.report));
});

test('wrong use says what to do, with exit code 2', async () => {
  const { code, stderr } = await audit('not a url');
  assert.equal(code, 2);
  assert.match(stderr, /Invalid URL|usage: npx zdr-embed audit/);
  const missing = await new Promise((ok) => execFile(process.execPath, [bin, 'audit', `${site.host.origin}/clean.html`, '--browser', '/nonexistent/chromium'], (error, _, stderr) => ok({ code: error?.code, stderr })));
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no Chromium or Chrome found/);
});
