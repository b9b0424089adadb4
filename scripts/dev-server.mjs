// The recording responder of the end-to-end tests (tests/e2e/widget.test.mjs):
// it serves the npm package and the tests' fixture pages, and answers the
// widget's form posts to /embed/<card>/ with a plain HTML table of the data,
// keeping each post (path, content type, exact body) in memory when asked
// (`recordPosts: true`) so a test can check what the browser really sent.
//
// The demo and the real embed service are zdr-host (crates/host, started by
// scripts/demo.sh); this file is only a test double and has no command line.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const MAX_BODY = 10 * 1024 * 1024;
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.ts': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** Escapes text for HTML element content and quoted attributes. */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Starts the server. The npm package is served at /node_modules/zdr-embed/
 * from `packageDir` (the repository by default, or an unpacked `npm pack`
 * tarball in the end-to-end tests); `extraMounts` maps more URL prefixes to
 * directories (the tests' fixtures).
 */
export async function startServer({
  port = 0,
  host = '127.0.0.1',
  packageDir = ROOT,
  extraMounts = {},
  recordPosts = false,
} = {}) {
  // Only the files the package publishes, as a user who installed it would have.
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8'));
  // An entry with * (the engine's chunks, named by their hash) matches any
  // name without a slash in its place, as npm's files globs do.
  const exact = new Set(['package.json', ...manifest.files.filter((f) => !f.includes('*'))]);
  const globs = manifest.files
    .filter((f) => f.includes('*'))
    .map((f) => new RegExp(`^${f.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`));
  const published = { has: (path) => exact.has(path) || globs.some((glob) => glob.test(path)) };
  const mounts = [
    ['/node_modules/zdr-embed/', resolve(packageDir), published],
    ...Object.entries(extraMounts).map(([prefix, dir]) => [prefix, resolve(dir)]),
  ];
  const posts = [];
  const server = createServer((req, res) => {
    handle(req, res, { mounts, posts, recordPosts }).catch((error) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error');
      console.error('dev-server:', error.message);
    });
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, ok);
  });
  const address = server.address();
  const origin = `http://${host}:${address.port}`;
  return {
    origin,
    posts,
    close: () => new Promise((ok) => server.close(ok)),
    server,
  };
}

async function handle(req, res, { mounts, posts, recordPosts }) {
  const url = new URL(req.url, 'http://localhost');
  const embed = /^\/embed\/([^/]+)\/$/.exec(url.pathname);
  if (embed) {
    if (req.method !== 'POST') return send(res, 405, 'text/plain; charset=utf-8', 'POST only');
    const body = await readBody(req);
    if (body === null) return send(res, 413, 'text/plain; charset=utf-8', 'body too large');
    const cardId = decodeURIComponent(embed[1]);
    if (recordPosts) {
      posts.push({ cardId, path: url.pathname, contentType: req.headers['content-type'], body });
    }
    const field = new URLSearchParams(body).get('visualization_data');
    return send(res, 200, 'text/html; charset=utf-8', embedPage(cardId, field), {
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'Cache-Control': 'no-store',
    });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return send(res, 405, 'text/plain; charset=utf-8', 'method not allowed');
  }
  for (const [prefix, dir, allowed] of mounts) {
    if (!url.pathname.startsWith(prefix)) continue;
    let relative = decodeURIComponent(url.pathname.slice(prefix.length));
    if (allowed && !allowed.has(relative)) break;
    if (relative === '' || relative.endsWith('/')) relative += 'index.html';
    const file = normalize(join(dir, relative));
    if (file !== dir && !file.startsWith(dir + sep)) break;
    try {
      if (!(await stat(file)).isFile()) continue;
    } catch {
      continue;
    }
    const type = TYPES[extname(file)] || 'application/octet-stream';
    return send(res, 200, type, await readFile(file), { 'Cache-Control': 'no-cache' });
  }
  send(res, 404, 'text/plain; charset=utf-8', 'not found');
}

function readBody(req) {
  return new Promise((ok, fail) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        ok(null);
        req.destroy();
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => ok(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

function send(res, status, type, body, headers = {}) {
  res.writeHead(status, {
    'Content-Type': type,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    ...headers,
  });
  res.end(body);
}

/** The page shown in the iframe: the card's title and its points as a table. */
function embedPage(cardId, field) {
  let title = `Card ${cardId}`;
  let rows = '';
  let problem = '';
  try {
    const data = JSON.parse(field ?? '');
    if (typeof data?.viz_config?.title === 'string') title = data.viz_config.title;
    const points = Array.isArray(data?.data) ? data.data : [];
    rows = points
      .slice(0, 200)
      .map((p) => `<tr><td>${escapeHtml(p?.x ?? '')}</td><td>${escapeHtml(p?.y ?? '')}</td></tr>`)
      .join('');
  } catch (error) {
    problem = `visualization_data is not valid JSON: ${error.message}`;
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:16px;color:#222}table{border-collapse:collapse}
td{border-bottom:1px solid #ddd;padding:2px 12px}p.note{color:#666}</style></head><body>
<h1 style="font-size:18px">${escapeHtml(title)}</h1>
${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : `<table>${rows}</table>`}
<p class="note">Drawn by the local dev responder (card ${escapeHtml(cardId)}); the data was not stored.</p>
</body></html>`;
}
