// The service API's throughput: inline-CSV `visualize` calls (a 60-row table
// and a question, as the SDK sends them) from a fixed number of concurrent
// keep-alive connections for a fixed time, spread round-robin over one or
// more replicas as a load balancer would. It is a benchmark, not a test.
//
// With --compare, it measures the first origin alone, then all of them, in
// one run, and prints both rows side by side. Start the replicas with
// `bash scripts/replicas.sh 2` and ZDR_REPLICA_FLAGS="--api-rate 0" (the
// per-key rate limit would otherwise be what is measured), or let
// `npm run bench:replicas` do all of it.
//
// usage: node scripts/api-throughput.mjs --origins http://127.0.0.1:8081,http://127.0.0.1:8082
//          [--key K] [--seconds 10] [--concurrency 8] [--compare]
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({
  options: {
    origins: { type: 'string', default: 'http://127.0.0.1:8081,http://127.0.0.1:8082' },
    key: { type: 'string', default: process.env.ZDR_API_KEYS?.split(',')[0] ?? 'replica-demo-key-0123456789' },
    seconds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '8' },
    compare: { type: 'boolean', default: false },
  },
});
const origins = flags.origins.split(',').map((o) => new URL(o));
for (const origin of origins) {
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(origin.hostname)) {
    throw new Error(`${origin}: this benchmark only sends to loopback`);
  }
}
const seconds = Number(flags.seconds);
const concurrency = Number(flags.concurrency);
if (!(seconds > 0 && seconds <= 600)) throw new Error('--seconds must be more than 0 and at most 600');
if (!(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 256)) {
  throw new Error('--concurrency must be a whole number from 1 to 256');
}

const rows = ['month,region,sales'];
for (let m = 1; m <= 12; m++) {
  for (const region of ['North', 'South', 'East', 'West', 'Central']) {
    rows.push(`2024-${String(m).padStart(2, '0')},${region},${100 + ((m * 37 + region.length * 11) % 90)}`);
  }
}
const body = JSON.stringify({ csv: [rows.join('\n') + '\n'], query: 'sales by region per month' });

function post(origin, agent) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const request = http.request(
      {
        host: origin.hostname,
        port: origin.port,
        path: '/api/v1/beta/visualize',
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-api-key': flags.key,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
        );
      },
    );
    request.on('error', () => resolve({ status: 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    request.end(body);
  });
}

async function measure(targets) {
  const agents = targets.map(() => new http.Agent({ keepAlive: true, maxSockets: concurrency }));
  const latencies = [];
  const statuses = new Map();
  let next = 0;
  const end = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < end) {
      const i = next++ % targets.length;
      const { status, ms } = await post(targets[i], agents[i]);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 200) latencies.push(ms);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (Date.now() - started) / 1000;
  agents.forEach((a) => a.destroy());
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    replicas: targets.length,
    ok: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    statuses: Object.fromEntries(statuses),
  };
}

const runs = flags.compare ? [origins.slice(0, 1), origins] : [origins];
const results = [];
const warm = new http.Agent({ keepAlive: true });
for (const origin of origins) {
  for (let i = 0; i < 5; i++) {
    const { status } = await post(origin, warm);
    if (status !== 200) throw new Error(`${origin}: visualize answered ${status}; is the key right, and --api-rate 0?`);
  }
}
warm.destroy();
for (const targets of runs) results.push(await measure(targets));
console.log(`inline-CSV visualize, ${concurrency} connections, ${seconds} s each, one run`);
console.log('| replicas | requests/s | p50 ms | p99 ms | answers |');
console.log('|---:|---:|---:|---:|---|');
for (const r of results) {
  console.log(
    `| ${r.replicas} | ${r.perSecond.toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${JSON.stringify(r.statuses)} |`,
  );
}
