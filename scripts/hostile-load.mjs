// A hostile load on zdr-host, on loopback only, bounded in time; it stops by
// itself. A benchmark of the host's limits, not a unit test: scripts/test.sh
// does not run it.
//
// It builds nothing. Build the host first (`cargo build --release -p
// zdr-host`); the script starts target/release/zdr-host (or $ZDR_HOST_BIN)
// on a free port with its default limits. For --seconds it sends, at once:
//   - expensive posts in a loop from several connections: the shapes issue 13
//     measured (a table of 16,000 distinct keys, 16,000 one-point series, a
//     500-point diagonal heatmap, 50,000 one-value boxplot groups), the
//     largest valid card the default body limit (4 MiB) allows, an oversized
//     17 MB body,
//     deeply nested JSON, a multipart body of many parts;
//   - 200 slowloris connections trickling header lines, opened again when
//     the host closes them;
//   - slow readers: connections that post a card and never read the answer;
//   - stalled uploads: a body announced and never sent;
// while a normal client posts a small card every 50 ms and records latency.
// It reports the host's peak RSS (VmHWM), the normal client's p50/p99 and
// errors, and whether the host still answers /healthz at the end, then
// stops the host with SIGTERM.
//
// usage: node scripts/hostile-load.mjs [--seconds 30] [--hostile 4]
//                                      [--slowloris 200] [--slow-readers 20]
// exit code 0 when the host survived, its peak RSS stayed under 256 MB, the
// normal client's p99 stayed under 250 ms and it saw no errors.
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { ROOT } from '../tests/e2e/package.mjs';
import { startHost, stopHost } from '../tests/e2e/host.mjs';

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '30' },
    hostile: { type: 'string', default: '4' },
    slowloris: { type: 'string', default: '200' },
    'slow-readers': { type: 'string', default: '20' },
  },
});
const seconds = Number(flags.seconds);
const hostileClients = Number(flags.hostile);
const slowloris = Number(flags.slowloris);
const slowReaders = Number(flags['slow-readers']);
if (!(seconds > 0 && seconds <= 600)) fail('--seconds must be more than 0 and at most 600');
for (const [name, value] of [
  ['hostile', hostileClients],
  ['slowloris', slowloris],
  ['slow-readers', slowReaders],
]) {
  if (!(Number.isInteger(value) && value >= 0 && value <= 1000)) fail(`--${name} must be 0 to 1000`);
}

const RSS_LIMIT_MB = 256;
const P99_LIMIT_MS = 250;

function fail(message) {
  console.error(`hostile-load: ${message}`);
  process.exit(2);
}

// ------------------------------------------------------------- the posts

const card = (type, data, title = 'Hostile') => ({ viz_config: { title, viz_component_type: type }, data });
const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const form = (value) => Buffer.from(new URLSearchParams({ visualization_data: value }).toString());
const json = (value) => form(JSON.stringify(value));

/** The largest scatter card whose post stays under `bytes`. */
function largestScatter(bytes) {
  const point = (i) => ({ x: i, y: (i * 7919) % 100_003 });
  const one = json(card('scatter', range(1000, point))).length / 1000;
  for (let n = Math.floor(bytes / one); ; n = Math.floor(n * 0.97)) {
    const body = json(card('scatter', range(n, point)));
    if (body.length <= bytes) return body;
  }
}

function multipart(parts) {
  const boundary = 'hostile-boundary-9a1f';
  const chunks = range(parts, (i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`);
  chunks.push(`--${boundary}\r\nContent-Disposition: form-data; name="visualization_data"\r\n\r\n{}\r\n--${boundary}--\r\n`);
  return { body: Buffer.from(chunks.join('')), type: `multipart/form-data; boundary=${boundary}` };
}

const URLENCODED = 'application/x-www-form-urlencoded';
const HOSTILE = [
  ['table, 16,000 distinct keys', json(card('table', range(16_000, (i) => ({ [`k${i}`]: i }))))],
  [
    '16,000 one-point series',
    json(card('grouped_bar', { series: range(16_000, (i) => ({ name: i, points: [{ x: `x${i}`, y: 1 }] })) })),
  ],
  [
    '500-point diagonal heatmap',
    json(card('heatmap', range(500, (i) => ({ x: `x${i}`, y: `y${i}`, value: i })))),
  ],
  ['50,000 one-value boxplot groups', json(card('boxplot', range(50_000, (i) => ({ x: `g${i}`, values: [i] }))))],
  ['1,000 boxes (at the cap)', json(card('boxplot', range(1000, (i) => ({ x: `g${i}`, values: [i, i + 1] }))))],
  ['largest scatter under the 4 MiB body limit', largestScatter(4 * 1024 * 1024)],
  ['oversized body, 17 MB', form('x'.repeat(17 * 1024 * 1024))],
  ['nested JSON, 100,000 levels', form(`{"viz_config":{"title":"x"},"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)],
].map(([name, body]) => ({ name, body, type: URLENCODED }));
HOSTILE.push({ name: 'multipart, 50,000 parts', ...multipart(50_000) });

const SMALL = json(
  card('bar', [
    { x: 'North', y: 3 },
    { x: 'South', y: 5 },
    { x: 'East', y: 4 },
  ], 'Normal'),
);

// ------------------------------------------------------------ the clients

function post(agent, target, body, type) {
  return new Promise((ok) => {
    const started = process.hrtime.bigint();
    const request = http.request(
      target,
      { method: 'POST', agent, headers: { 'Content-Type': type, 'Content-Length': body.length } },
      (response) => {
        response.on('data', () => {});
        response.on('end', () => ok({ status: response.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
        response.on('error', (error) => ok({ error }));
      },
    );
    request.on('error', (error) => ok({ error }));
    // A host that refuses a body may close before all of it is sent.
    request.on('socket', (socket) => {
      if (!socket.quieted) socket.on('error', () => {});
      socket.quieted = true;
    });
    request.end(body);
  });
}

/** Keeps `count` connections open, each made by `open` and opened again when it closes. */
function keepOpen(count, open, until, stats) {
  const sockets = new Set();
  const start = () => {
    if (performance.now() >= until) return;
    const opened = performance.now();
    const socket = net.connect({ host: address.hostname, port: Number(address.port) });
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      stats.closed += 1;
      stats.lifetimes.push(performance.now() - opened);
      // Not at once: a refused connection should not spin.
      setTimeout(start, 200);
    });
    open(socket);
  };
  for (let i = 0; i < count; i += 1) start();
  return () => {
    for (const socket of sockets) socket.destroy();
  };
}

function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) / 1024;
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return null;
  }
}

async function healthy(origin) {
  const result = await new Promise((ok) => {
    const request = http.get(`${origin}/healthz`, { timeout: 5000 }, (response) => {
      response.resume();
      response.on('end', () => ok(response.statusCode));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => ok(0));
  });
  return result === 200;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

// ------------------------------------------------------------------ run

process.env.ZDR_HOST_BIN ||= join(ROOT, 'target/release/zdr-host');
if (!existsSync(process.env.ZDR_HOST_BIN)) {
  fail(`${process.env.ZDR_HOST_BIN} is missing: run cargo build --release -p zdr-host`);
}
const host = await startHost(['--www', 'www', '--package', '.']);
const address = new URL(host.origin);
const pid = host.child.pid;
let exitCode = 0;
try {
  const began = performance.now();
  const until = began + seconds * 1000;
  let peakRss = 0;
  const sampler = setInterval(() => {
    const now = rssOf(pid);
    if (now) peakRss = Math.max(peakRss, now.rss);
  }, 50);

  const target = `${host.origin}/embed/hostile/`;
  const hostileStats = new Map();
  const hostileAgent = new http.Agent({ keepAlive: true, maxSockets: Math.max(1, hostileClients) });
  const hostile = range(hostileClients, async (k) => {
    for (let i = k; performance.now() < until; i += 1) {
      const { name, body, type } = HOSTILE[i % HOSTILE.length];
      const result = await post(hostileAgent, target, body, type);
      const key = `${name}: ${result.error ? result.error.code || 'error' : result.status}`;
      const entry = hostileStats.get(key) ?? { count: 0, ms: 0 };
      entry.count += 1;
      entry.ms = Math.max(entry.ms, result.ms ?? 0);
      hostileStats.set(key, entry);
    }
  });

  const lorisStats = { closed: 0, lifetimes: [] };
  const stopLoris = keepOpen(
    slowloris,
    (socket) => {
      // Read (and drop) what the host sends, so that its close is seen.
      socket.resume();
      socket.write('POST /embed/loris/ HTTP/1.1\r\nHost: x\r\n');
      const timer = setInterval(() => socket.writable && socket.write(`X-Slow-${Date.now()}: 1\r\n`), 1000);
      socket.on('close', () => clearInterval(timer));
    },
    until,
    lorisStats,
  );
  const readerStats = { closed: 0, lifetimes: [] };
  const readerBody = json(card('scatter', range(2000, (i) => ({ x: i, y: (i * 7919) % 1009 }))));
  const stopReaders = keepOpen(
    slowReaders,
    (socket) => {
      // Ask for one answer after another on one connection and never read
      // any (so a close by the host is seen only as a reset).
      socket.pause();
      const head = `POST /embed/reader/ HTTP/1.1\r\nHost: x\r\nContent-Type: ${URLENCODED}\r\nContent-Length: ${readerBody.length}\r\n\r\n`;
      for (let i = 0; i < 50; i += 1) socket.write(head), socket.write(readerBody);
    },
    until,
    readerStats,
  );
  const stallStats = { closed: 0, lifetimes: [] };
  const stopStalls = keepOpen(
    10,
    (socket) => {
      socket.resume();
      socket.write(`POST /embed/stall/ HTTP/1.1\r\nHost: x\r\nContent-Type: ${URLENCODED}\r\nContent-Length: 1000000\r\n\r\nvisualization_data=`);
    },
    until,
    stallStats,
  );

  // The normal client: one small card every 50 ms on a keep-alive connection.
  const latencies = [];
  const failures = new Map();
  const normalAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const normal = (async () => {
    // Let the hostile traffic get going first.
    await new Promise((ok) => setTimeout(ok, 1000));
    while (performance.now() < until) {
      const result = await post(normalAgent, target.replace('hostile', 'normal'), SMALL, URLENCODED);
      if (result.error || result.status !== 200) {
        const why = result.error ? result.error.code || result.error.message : `HTTP ${result.status}`;
        failures.set(why, (failures.get(why) ?? 0) + 1);
      } else {
        latencies.push(result.ms);
      }
      await new Promise((ok) => setTimeout(ok, 50));
    }
  })();

  await Promise.all([...hostile, normal]);
  stopLoris();
  stopReaders();
  stopStalls();
  hostileAgent.destroy();
  normalAgent.destroy();
  const alive = await healthy(host.origin);
  clearInterval(sampler);
  const final = rssOf(pid);
  const peak = Math.max(peakRss, final?.hwm ?? 0);

  latencies.sort((a, b) => a - b);
  const errors = [...failures.values()].reduce((a, b) => a + b, 0);
  const p99 = percentile(latencies, 99);
  const ms = (value) => (value === undefined ? '-' : `${value.toFixed(1)} ms`);
  const lifetimes = (stats) => {
    const sorted = stats.lifetimes.sort((a, b) => a - b);
    return `${stats.closed} closed by the host, median life ${ms(percentile(sorted, 50))}`;
  };
  console.log(`host           ${process.env.ZDR_HOST_BIN}, default limits`);
  console.log(`machine        ${cpus().length} CPUs, node ${process.version}`);
  console.log(`duration       ${((performance.now() - began) / 1000).toFixed(1)} s`);
  console.log(`hostile posts  ${hostileClients} connections in a loop:`);
  for (const [key, { count, ms: slowest }] of [...hostileStats].sort()) {
    console.log(`  ${key} x${count}, slowest ${slowest.toFixed(0)} ms`);
  }
  console.log(`slowloris      ${slowloris} connections: ${lifetimes(lorisStats)}`);
  console.log(`slow readers   ${slowReaders} connections: ${lifetimes(readerStats)}`);
  console.log(`stalled bodies 10 connections: ${lifetimes(stallStats)}`);
  console.log(`normal client  ${latencies.length + errors} posts, p50 ${ms(percentile(latencies, 50))}, p99 ${ms(p99)}, max ${ms(latencies.at(-1))}`);
  console.log(`normal errors  ${errors ? [...failures].map(([k, v]) => `${k}: ${v}`).join(', ') : 0}`);
  console.log(`peak RSS       ${peak.toFixed(1)} MB (limit ${RSS_LIMIT_MB} MB)`);
  console.log(`host alive     ${alive ? 'yes, /healthz answers 200' : 'NO'}`);
  const met = alive && peak < RSS_LIMIT_MB && p99 !== undefined && p99 < P99_LIMIT_MS && errors === 0;
  console.log(`verdict        ${met ? 'targets met' : 'TARGETS MISSED'}`);
  if (!met) exitCode = 1;
} catch (error) {
  console.error(`hostile-load: ${error.stack || error.message}`);
  exitCode = 1;
} finally {
  const { code, signal } = await stopHost(host).catch(() => ({ code: 'timeout' }));
  console.log(`host stopped   exit code ${code ?? signal}`);
  if (code !== 0) exitCode = 1;
}
process.exit(exitCode);
