// End to end: the service API of the real zdr-host binary over real HTTP
// (issue 16). Flow 1's first half (a presigned upload, then GET file), with
// the key in any case; state that survives a restart and a kill -9; a
// kill -9 in the middle of an upload, which leaves no file and nothing
// half-written.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { launch } from './browser.mjs';
import { hostSite, startHost, stopHost } from './host.mjs';

const KEY = 'e2e-key-0123456789abcdef';
const CSV = 'month,sales\n2024-01,120\n2024-02,135\n2024-03,128\n';

let data;
let host;

// --allow-private-fetch: flow 2's file is served from 127.0.0.1 here.
const start = () => startHost(['--www', join(data, 'no-www'), '--data-dir', data, '--api-key', KEY, '--allow-private-fetch']);

before(async () => {
  data = mkdtempSync(join(tmpdir(), 'zdr-api-e2e-'));
  host = await start();
});

after(async () => {
  await stopHost(host);
  rmSync(data, { recursive: true, force: true });
});

async function api(path, key = KEY) {
  const response = await fetch(`${host.origin}${path}`, { headers: key ? { 'x-api-key': key } : {} });
  return { status: response.status, body: await response.json() };
}

async function upload(fileName, text) {
  const { status, body } = await api(`/api/v1/beta/file_upload_url?file_name=${encodeURIComponent(fileName)}`);
  assert.equal(status, 200, JSON.stringify(body));
  const form = new FormData();
  for (const [name, value] of Object.entries(body.fields)) form.append(name, value);
  form.append('file', new Blob([text], { type: 'text/csv' }), fileName);
  const posted = await fetch(body.url, { method: 'POST', body: form });
  return { posted, key: body.key, fileId: body.key.split('/')[0], url: body.url };
}

test('flow 1: a presigned upload, GET file, then visualize, over real HTTP', async () => {
  const { status, body } = await api('/api/v1/beta/files/file_0/', null);
  assert.equal(status, 401);
  assert.equal(body.error.code, 'missing_api_key');
  const { posted, key, fileId, url } = await upload('sales.csv', CSV);
  assert.equal(url, `${host.origin}/upload/`);
  assert.equal(posted.status, 204, await posted.text());
  const file = await api(`/api/v1/beta/files/${fileId}/`);
  assert.equal(file.status, 200);
  assert.equal(file.body.key, key);
  assert.equal(file.body.cleaned_files[0].cleaned_context, '3 rows; columns: month (dates), sales (numbers)');
  const cleaned = await fetch(file.body.cleaned_files[0].file_url, { headers: { 'X-Api-Key': KEY } });
  assert.equal(await cleaned.text(), CSV);
  // Flow 1's last step: visualize the file by its id.
  const response = await fetch(`${host.origin}/api/v1/beta/visualize`, {
    method: 'POST',
    headers: { 'X-API-Key': KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ file_ids: [fileId] }),
  });
  const cards = await response.json();
  assert.equal(response.status, 200, JSON.stringify(cards));
  assert.equal(cards.outputs.knowledge_cards[0].card_type, 'timeseries');
  assert.equal(cards.outputs.knowledge_cards[0].data_url, `${host.origin}/api/v1/beta/files/${fileId}/cleaned/`);
});

test('flow 2: file_connector fetches a hosted file, then visualize draws it', async () => {
  const server = createServer((request, response) => {
    response.writeHead(request.url === '/hosted.csv' ? 200 : 404, { 'content-type': 'text/csv' });
    response.end(request.url === '/hosted.csv' ? CSV : 'no');
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  try {
    const url = `http://127.0.0.1:${server.address().port}/hosted.csv`;
    const post = async (path, body) => {
      const response = await fetch(`${host.origin}${path}`, {
        method: 'POST',
        headers: { 'X-API-Key': KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    const connected = await post('/api/v1/beta/file_connector', { file_url: url, source: 'e2e' });
    assert.equal(connected.status, 200, JSON.stringify(connected.body));
    assert.equal(connected.body.metadata.source, 'e2e');
    const cards = await post('/api/v1/beta/visualize', { file_ids: [connected.body.id] });
    assert.equal(cards.status, 200, JSON.stringify(cards.body));
    assert.equal(cards.body.outputs.knowledge_cards[0].card_type, 'timeseries');
    const file = await api(`/api/v1/beta/files/${connected.body.id}/`);
    assert.equal(file.body.file_url, url);
  } finally {
    server.close();
  }
});

test('files survive a restart and a kill -9', async () => {
  const { posted, fileId } = await upload('kept.csv', CSV);
  assert.equal(posted.status, 204);
  await stopHost(host);
  host = await start();
  assert.equal((await api(`/api/v1/beta/files/${fileId}/`)).status, 200, 'after SIGTERM');
  host.child.kill('SIGKILL');
  await host.exited;
  host = await start();
  assert.equal((await api(`/api/v1/beta/files/${fileId}/`)).status, 200, 'after SIGKILL');
});

test('a kill -9 in the middle of an upload leaves no file and nothing half-written', async () => {
  const { body } = await api('/api/v1/beta/file_upload_url?file_name=half.csv');
  const boundary = 'zdr-e2e-boundary';
  const parts = Object.entries(body.fields)
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const whole = `${parts}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.csv"\r\n\r\n${CSV}\r\n--${boundary}--\r\n`;
  const { port } = new URL(host.origin);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((ok) => socket.once('connect', ok));
  socket.on('error', () => {});
  socket.write(`POST /upload/ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${Buffer.byteLength(whole)}\r\n\r\n`);
  socket.write(whole.slice(0, whole.length - 40));
  await new Promise((ok) => setTimeout(ok, 200));
  host.child.kill('SIGKILL');
  await host.exited;
  socket.destroy();
  host = await start();
  const fileId = body.key.split('/')[0];
  assert.equal((await api(`/api/v1/beta/files/${fileId}/`)).status, 404);
  // The next start cleared the folder of half-written objects, and the store works.
  assert.deepEqual(readdirSync(join(data, 'tmp')), []);
  const again = await upload('after.csv', CSV);
  assert.equal(again.posted.status, 204);
});

test('flow 3: visualize, then the card through the packed widget in service and local mode', async () => {
  const site = await hostSite('zdr-flow3-', {
    'flow3.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>body { margin: 0 } #service, #local { width: 640px; height: 400px }</style>
<script type="importmap">{ "imports": { "zdr-embed": "/node_modules/zdr-embed/pkg/zdr_embed.js" } }</script>
</head><body><div id="service"></div><div id="local"></div><script type="module">
  import init, { render } from 'zdr-embed';
  await init();
  const answer = await (await fetch('/api/v1/beta/visualize', {
    method: 'POST',
    headers: { 'X-API-Key': '${KEY}', 'Content-Type': 'application/json' },
    body: JSON.stringify({ csv: ['month,sales\\n2024-01,120\\n2024-02,135\\n2024-03,128\\n'], query: 'sales over time' }),
  })).json();
  const card = answer.outputs.knowledge_cards[0];
  window.card = card;
  await new Promise((loaded, failed) => render({ containerId: 'service', serviceUrl: location.origin, cardId: card.card_id,
    visualizationData: card.visualization_data, height: '400px', onLoad: loaded, onError: failed }));
  render({ containerId: 'local', serviceUrl: location.origin, cardId: card.card_id, mode: 'local',
    visualizationData: card.visualization_data, height: '400px' });
  window.done = true;
</script></body></html>`,
  }, ['--data-dir', join(data, 'flow3'), '--api-key', KEY]);
  const browser = await launch();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${site.host.origin}/flow3.html`);
    await page.waitForFunction(() => window.done === true, null, { timeout: 20_000 });
    const card = await page.evaluate(() => window.card);
    assert.equal(card.card_type, 'timeseries');
    const frame = page.frames().find((f) => f.url().endsWith(`/embed/${card.card_id}/`));
    assert.ok(frame, 'the embed frame');
    assert.match(await frame.content(), /<svg[^>]*>/);
    assert.match(await frame.content(), /Sales over time/);
    await page.waitForSelector('#local canvas');
    await page.screenshot({ path: join(process.cwd(), 'test-results', 'flow3.png') });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await stopHost(site.host);
    rmSync(site.work, { recursive: true, force: true });
  }
});
