// End to end: the service API of the real zdr-host binary over real HTTP
// (issue 16). Flow 1's first half (a presigned upload, then GET file), with
// the key in any case; state that survives a restart and a kill -9; a
// kill -9 in the middle of an upload, which leaves no file and nothing
// half-written.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startHost, stopHost } from './host.mjs';

const KEY = 'e2e-key-0123456789abcdef';
const CSV = 'month,sales\n2024-01,120\n2024-02,135\n2024-03,128\n';

let data;
let host;

const start = () => startHost(['--www', join(data, 'no-www'), '--data-dir', data, '--api-key', KEY]);

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

test('a presigned upload, then GET file, over real HTTP', async () => {
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
