// Starting and stopping the real zdr-host for the end-to-end tests and
// scripts/screenshot-demo.mjs. Not a test file itself.
//
// Builds nothing: the binary is $ZDR_HOST_BIN, or else target/release/zdr-host
// or target/debug/zdr-host, whichever is newer.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { packPackage, ROOT } from './package.mjs';

export function hostBinary() {
  if (process.env.ZDR_HOST_BIN) return process.env.ZDR_HOST_BIN;
  const builds = ['release', 'debug']
    .map((profile) => join(ROOT, 'target', profile, 'zdr-host'))
    .filter((file) => existsSync(file));
  if (!builds.length) throw new Error('build the host first: cargo build -p zdr-host');
  return builds.reduce((a, b) => (statSync(b).mtimeMs > statSync(a).mtimeMs ? b : a));
}

/**
 * Starts zdr-host on a free loopback port with `args` (e.g. ['--www', dir,
 * '--package', dir]). Resolves once it has printed its address; its later
 * output (the request log) is kept in `log`.
 */
export function startHost(args) {
  const child = spawn(hostBinary(), ['--bind', '127.0.0.1', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: 'info', NO_COLOR: '1' },
  });
  const host = { child, log: [], origin: null, exited: null };
  host.exited = new Promise((ok) => child.once('exit', (code, signal) => ok({ code, signal })));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text) => {
    stderr += text;
    host.log.push(...text.split('\n').filter(Boolean));
  });
  const lines = createInterface({ input: child.stdout });
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`zdr-host did not start: ${stderr}`)), 10_000);
    host.exited.then(({ code }) => {
      clearTimeout(timer);
      fail(new Error(`zdr-host exited with ${code} before listening: ${stderr}`));
    });
    lines.on('line', (line) => {
      if (host.origin) return host.log.push(line);
      const match = /^zdr-host listening on (http:\/\/127\.0\.0\.1:\d+)\/$/.exec(line);
      clearTimeout(timer);
      if (!match) return fail(new Error(`unexpected first line from zdr-host: ${line}`));
      host.origin = match[1];
      ok(host);
    });
  });
}

/** SIGTERM, then the exit status (graceful shutdown, so code 0). */
export async function stopHost(host) {
  if (!host || host.child.exitCode !== null || host.child.signalCode !== null) {
    return host ? host.exited : null;
  }
  host.child.kill('SIGTERM');
  const timeout = new Promise((_, fail) =>
    setTimeout(() => fail(new Error('zdr-host did not stop within 10 s of SIGTERM')), 10_000).unref(),
  );
  return Promise.race([host.exited, timeout]);
}

/**
 * A temporary folder `work` with the packed package (`packageDir`) and a
 * folder `site` holding `pages` (file name -> text), served by a new zdr-host
 * (`host`) at `/` and the package at `/node_modules/zdr-embed/`. The caller
 * stops the host and removes `work`.
 */
export async function hostSite(prefix, pages, args = []) {
  assert.ok(existsSync(join(ROOT, 'pkg/engine/zdr_engine_bg.wasm')), 'run scripts/build.sh first');
  const work = mkdtempSync(join(tmpdir(), prefix));
  const packageDir = packPackage(work);
  const site = join(work, 'site');
  mkdirSync(site);
  for (const [name, text] of Object.entries(pages)) writeFileSync(join(site, name), text);
  const host = await startHost(['--www', site, '--package', packageDir, ...args]);
  return { work, packageDir, site, host };
}

/** The end of a test file: the browser closed, the host stopped, `work` removed. */
export async function tearDown({ browser, host, work }) {
  await browser?.close();
  await stopHost(host);
  if (work) rmSync(work, { recursive: true, force: true });
}
