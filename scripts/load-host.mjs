// A bounded load test of zdr-host's embed endpoint, on loopback only. It is a
// benchmark, not a test: scripts/test.sh does not run it.
//
// It builds nothing. Build the host first (`cargo build --release -p zdr-host`);
// the script starts target/release/zdr-host (or $ZDR_HOST_BIN) on a free port,
// or uses a host already running at --url. It draws one 1,000-point timeseries
// card, then for a fixed time posts it, urlencoded as the widget's form does,
// to /embed/load-test/ from a fixed number of concurrent keep-alive
// connections, records every latency, prints the figures and stops the host.
//
// usage: node scripts/load-host.mjs [--seconds 10] [--concurrency 8]
//                                   [--points 1000] [--url http://127.0.0.1:8080]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
    points: { type: 'string', default: '1000' },
    url: { type: 'string' },
  },
});
const seconds = Number(flags.seconds);
const concurrency = Number(flags.concurrency);
const points = Number(flags.points);
if (!(seconds > 0 && seconds <= 600)) fail('--seconds must be more than 0 and at most 600');
if (!(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 256)) {
  fail('--concurrency must be a whole number from 1 to 256');
}
if (!(Number.isInteger(points) && points >= 1 && points <= 1_000_000)) {
  fail('--points must be a whole number from 1 to 1000000');
}

function fail(message) {
  console.error(`load-host: ${message}`);
  process.exit(2);
}

/** A deterministic daily series: a random walk from a fixed seed. */
function timeseriesCard(count) {
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const start = Date.UTC(2023, 0, 1);
  let y = 5000;
  const series = Array.from({ length: count }, (_, i) => {
    y = Math.max(0, y + (random() - 0.5) * 200);
    return { x: new Date(start + i * 86_400_000).toISOString().slice(0, 10), y: Math.round(y) };
  });
  return {
    viz_config: {
      title: `Load test: ${count} daily points`,
      viz_component_type: 'timeseries',
      y_label: 'Value',
    },
    data: { series: [{ name: 'Load', points: series }] },
  };
}

/** Starts the host binary on a free loopback port; resolves with its origin. */
function startHost() {
  const binary = process.env.ZDR_HOST_BIN || join(ROOT, 'target/release/zdr-host');
  if (!existsSync(binary)) fail(`${binary} is missing: run cargo build --release -p zdr-host`);
  const child = spawn(binary, ['--bind', '127.0.0.1', '--port', '0', '--www', 'www', '--package', '.'], {
    cwd: ROOT,
    // The request log (stderr) is read and dropped: the host still writes
    // one line per request, as in production, without flooding the terminal.
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  child.stderr.resume();
  const exited = new Promise((ok) => child.once('exit', (code, signal) => ok({ code, signal })));
  return new Promise((ok, no) => {
    const lines = createInterface({ input: child.stdout });
    let origin = null;
    lines.on('line', (line) => {
      // After the address, the host logs one line per request: read and drop them.
      if (origin) return;
      const match = /^zdr-host listening on (http:\/\/\S+?)\/?$/.exec(line);
      if (!match) return no(new Error(`unexpected first line from zdr-host: ${line}`));
      origin = match[1];
      ok({ origin, child, exited, binary });
    });
    exited.then(({ code }) => no(new Error(`zdr-host exited with ${code} before listening`)));
  });
}

function loopbackOnly(url) {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) {
    fail(`--url must be http:// on loopback (127.0.0.1, localhost or [::1]), found ${url}`);
  }
  return parsed.origin;
}

function post(agent, target, body) {
  return new Promise((ok) => {
    const started = process.hrtime.bigint();
    const request = http.request(
      target,
      {
        method: 'POST',
        agent,
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'Content-Length': body.length,
        },
      },
      (response) => {
        let size = 0;
        response.on('data', (chunk) => (size += chunk.length));
        response.on('end', () =>
          ok({ status: response.statusCode, size, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
        );
        response.on('error', (error) => ok({ error, ms: 0 }));
      },
    );
    request.on('error', (error) => ok({ error, ms: 0 }));
    request.end(body);
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

const host = flags.url ? { origin: loopbackOnly(flags.url) } : await startHost();
let exitCode = 0;
try {
  const card = timeseriesCard(points);
  const body = Buffer.from(new URLSearchParams({ visualization_data: JSON.stringify(card) }).toString());
  const target = `${host.origin}/embed/load-test/`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

  // One request first: it must succeed, and it gives the response size.
  const first = await post(agent, target, body);
  if (first.error || first.status !== 200) {
    throw new Error(`the first post failed: ${first.error?.message ?? `HTTP ${first.status}`}`);
  }

  const latencies = [];
  const failures = new Map();
  const deadline = performance.now() + seconds * 1000;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const result = await post(agent, target, body);
        if (result.error || result.status !== 200) {
          const why = result.error ? result.error.code || result.error.message : `HTTP ${result.status}`;
          failures.set(why, (failures.get(why) ?? 0) + 1);
        } else {
          latencies.push(result.ms);
        }
      }
    }),
  );
  const elapsed = (performance.now() - began) / 1000;
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const errors = [...failures.values()].reduce((a, b) => a + b, 0);
  const ms = (value) => (value === undefined ? '-' : `${value.toFixed(1)} ms`);
  const rows = [
    ['host', host.binary ? `${host.binary} (started by this script)` : host.origin],
    ['machine', `${cpus().length} CPUs, node ${process.version}`],
    ['card', `timeseries, ${points} points`],
    ['request body', `${body.length} B (application/x-www-form-urlencoded)`],
    ['response size', `${first.size} B (HTML with the chart as inline SVG)`],
    ['duration', `${elapsed.toFixed(1)} s at concurrency ${concurrency}`],
    ['requests', `${latencies.length + errors}`],
    ['requests/s', `${((latencies.length + errors) / elapsed).toFixed(1)}`],
    ['latency p50', ms(percentile(latencies, 50))],
    ['latency p90', ms(percentile(latencies, 90))],
    ['latency p99', ms(percentile(latencies, 99))],
    ['latency max', ms(latencies.at(-1))],
    ['errors', errors ? `${errors} (${[...failures].map(([k, v]) => `${k}: ${v}`).join(', ')})` : '0'],
  ];
  for (const [name, value] of rows) console.log(`${name.padEnd(14)} ${value}`);
  if (errors) exitCode = 1;
} catch (error) {
  console.error(`load-host: ${error.message}`);
  exitCode = 1;
} finally {
  if (host.child) {
    host.child.kill('SIGTERM');
    const { code, signal } = await host.exited;
    console.log(`${'host stopped'.padEnd(14)} exit code ${code ?? signal}`);
    if (code !== 0) exitCode = 1;
  }
}
process.exit(exitCode);
