// `npx zdr-embed audit <url>`: opens a page in a headless Chromium already on
// the machine (through playwright-core, which downloads no browser), records
// every request, WebSocket frame, message and storage write while the page
// renders its cards, and reports per card where its data went.
//
// A card's data are what the page sends in the one legitimate way: the form
// post of `visualization_data` to `{service}/embed/{card_id}/`, or the
// `zdr:vizdata` message to the service's shell in that frame; cards drawn in
// the page (local mode) send nothing, so their data are given with --data.
// The data "appear" in a text when the text holds their JSON, or three of
// their distinctive values (from their rows and title: strings of 3
// characters or more, numbers of 3 digits or more, each standing alone, not
// inside a longer word or number; all of them when there are fewer), after
// URL decoding.
import { readFileSync } from 'node:fs';

const USAGE = `usage: npx zdr-embed audit <url> [options]

Opens <url> in a headless Chromium already on this machine, records every
request, WebSocket frame, postMessage and storage write while its cards
render, and reports per card where its data went. Exits 1 when a card's data
went anywhere but the one form post to the embed or the one message to the
service's shell, when an embed answer may be cached or sets a cookie, or when
the data were written to cookies, localStorage, sessionStorage, IndexedDB or
the Cache API; 3 when no card's data were seen; 2 when the audit could not run.

options:
  --json             the report as JSON (for CI), not in words
  --data FILE        a card's visualization_data (or its data) as JSON, to
                     follow too: cards drawn in the page send none (repeatable)
  --service ORIGIN   the service's origin: a post or message to any other
                     embed counts as a leak
  --wait MS          how long to let the page settle after it has loaded
                     (default 2000)
  --browser PATH     the Chromium or Chrome to run (default: $CHROMIUM_PATH,
                     then the usual places)`;

const BROWSERS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
];

/** The most of one text (a body, a storage value) read, in characters. */
const MAX_TEXT = 4 * 1024 * 1024;

export class UsageError extends Error {}

export function parseArgs(argv) {
  const options = { url: null, json: false, data: [], service: null, wait: 2000, browser: null };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
      i += 1;
      return argv[i];
    };
    if (arg === '--json') options.json = true;
    else if (arg === '--data') options.data.push(readData(value()));
    else if (arg === '--service') options.service = urlOf(value(), '--service').origin;
    else if (arg === '--wait') options.wait = waitOf(value());
    else if (arg === '--browser') options.browser = value();
    else if (arg === '--help' || arg === '-h') throw new UsageError('');
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else if (options.url) throw new UsageError(`one page at a time: ${arg}`);
    else options.url = urlOf(arg, 'the page').href;
  }
  if (!options.url) throw new UsageError('the page to audit is missing');
  return options;
}

function urlOf(text, what) {
  try {
    return new URL(text);
  } catch {
    throw new UsageError(`${what}: ${text} is not an address (http://… or https://…)`);
  }
}

function waitOf(text) {
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms < 0 || ms > 600_000) throw new UsageError(`--wait ${text}: milliseconds, 0 to 600000`);
  return ms;
}

function readData(file) {
  let value;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--data ${file}: ${error.message}`);
  }
  return { card: `--data ${file}`, data: value };
}

/**
 * The values that tell a card's data from anything else on the page: those
 * of its `data` and its title (not the chart's settings: "bar" is no one's
 * data), and its JSON.
 */
export function fingerprint(data) {
  const values = new Set();
  const walk = (value, depth) => {
    if (depth > 20 || values.size >= 200) return;
    if (typeof value === 'string' && value.trim().length >= 3) values.add(value.trim());
    else if (typeof value === 'number' && Number.isFinite(value) && String(Math.abs(value)).replace('.', '').length >= 3) values.add(String(value));
    else if (Array.isArray(value)) value.forEach((item) => walk(item, depth + 1));
    else if (value && typeof value === 'object') Object.values(value).forEach((item) => walk(item, depth + 1));
  };
  const rows = data && typeof data === 'object' && !Array.isArray(data) && 'data' in data ? data.data : data;
  walk(rows, 0);
  walk(data?.viz_config?.title, 0);
  const whole = [JSON.stringify(data), data && typeof data === 'object' && data.data !== undefined ? JSON.stringify(data.data) : null];
  return { whole: whole.filter((text) => text && text.length >= 8), values: [...values] };
}

/** The text as a server or a script would read it: URL-decoded too. */
function readings(text) {
  const all = [text];
  let decoded = text;
  for (let i = 0; i < 3; i += 1) {
    try {
      const next = decodeURIComponent(decoded.replaceAll('+', ' '));
      if (next === decoded) break;
      all.push(next);
      decoded = next;
    } catch {
      break;
    }
  }
  return all;
}

/** Whether `value` stands in `text` as a value of its own, not inside a longer word or number (a hash). */
function standsIn(text, value) {
  let at = text.indexOf(value);
  while (at !== -1) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + value.length] ?? ' ';
    if (!/[A-Za-z0-9]/.test(before) && !/[A-Za-z0-9]/.test(after)) return true;
    at = text.indexOf(value, at + 1);
  }
  return false;
}

/** Whether `text` holds the data `print` was made of. */
export function holds(text, print) {
  if (!text) return false;
  return readings(String(text).slice(0, MAX_TEXT)).some((reading) => {
    if (print.whole.some((whole) => reading.includes(whole))) return true;
    const needed = Math.min(3, print.values.length);
    if (needed === 0) return false;
    let found = 0;
    for (const value of print.values) {
      if (standsIn(reading, value) || standsIn(reading, JSON.stringify(value).slice(1, -1))) found += 1;
      if (found >= needed) return true;
    }
    return false;
  });
}

/** `/embed/{card_id}/`: the card id, or null for any other path. */
export function embedCard(url) {
  const match = /^\/embed\/([^/]+)\/$/.exec(new URL(url).pathname);
  return match ? decodeURIComponent(match[1]) : null;
}

/** What the audit runs in every frame before the page's own scripts: messages heard, as they arrive. */
function heard() {
  window.addEventListener(
    'message',
    (event) => {
      let data;
      try {
        data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
      } catch {
        data = String(event.data);
      }
      window.__zdrAuditMessage?.({ to: location.href, from: event.origin, data: String(data).slice(0, 4 * 1024 * 1024) });
    },
    true,
  );
}

/** Everything a frame keeps in storage: localStorage, sessionStorage, IndexedDB, the Cache API. */
async function stored() {
  const found = [];
  const text = (value) => {
    try {
      return typeof value === 'string' ? value : JSON.stringify(value);
    } catch {
      return String(value);
    }
  };
  for (const [name, area] of [['localStorage', () => localStorage], ['sessionStorage', () => sessionStorage]]) {
    try {
      const storage = area();
      for (let i = 0; i < storage.length; i += 1) {
        const key = storage.key(i);
        found.push({ where: `${name} "${key}"`, text: `${key}=${storage.getItem(key)}` });
      }
    } catch {}
  }
  try {
    for (const { name } of (await indexedDB.databases?.()) ?? []) {
      const db = await new Promise((ok, fail) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => ok(open.result);
        open.onerror = () => fail(open.error);
      });
      for (const store of db.objectStoreNames) {
        const rows = await new Promise((ok) => {
          const all = db.transaction(store).objectStore(store).getAll();
          all.onsuccess = () => ok(all.result);
          all.onerror = () => ok([]);
        });
        found.push({ where: `IndexedDB "${name}" store "${store}"`, text: text(rows) });
      }
      db.close();
    }
  } catch {}
  try {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const response = await cache.match(request);
        found.push({ where: `Cache API "${name}" ${request.url}`, text: `${request.url} ${await response.text()}` });
      }
    }
  } catch {}
  return found;
}

/** Chromium's path: the one asked for, else the first of the usual places that exists. */
async function browserPath(asked) {
  const { existsSync } = await import('node:fs');
  const candidates = asked ? [asked] : [process.env.CHROMIUM_PATH, process.env.CHROME_PATH, ...BROWSERS].filter(Boolean);
  const path = candidates.find((candidate) => existsSync(candidate));
  if (!path) throw new Error(`no Chromium or Chrome found (looked at ${candidates.join(', ')}): give one with --browser PATH`);
  return path;
}

async function playwright() {
  try {
    return (await import('playwright-core')).chromium;
  } catch {
    throw new Error('the audit drives Chromium through playwright-core, which is not installed: npm install --save-dev playwright-core (it downloads no browser)');
  }
}

/** Whether a request was made by a frame inside the page (a service worker's has none). */
function framed(request) {
  try {
    return Boolean(request.frame().parentFrame());
  } catch {
    return false;
  }
}

/** Records what the page does while it renders: requests, answers, frames, messages, storage. */
async function record(options) {
  const chromium = await playwright();
  const browser = await chromium.launch({
    executablePath: await browserPath(options.browser),
    headless: true,
    args: ['--headless', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext();
    const seen = { requests: [], answers: [], sockets: [], messages: [], storage: [], cookies: [] };
    await context.exposeFunction('__zdrAuditMessage', (message) => seen.messages.push(message));
    await context.addInitScript(heard);
    context.on('request', (request) => {
      seen.requests.push({
        method: request.method(),
        url: request.url(),
        body: request.postData() ?? '',
        headers: request.headers(),
        framed: framed(request),
        navigation: request.isNavigationRequest(),
      });
    });
    context.on('response', async (response) => {
      const request = response.request();
      if (request.method() !== 'POST' || !embedCard(request.url())) return;
      seen.answers.push({ url: request.url(), status: response.status(), headers: await response.allHeaders().catch(() => response.headers()) });
    });
    const page = await context.newPage();
    page.on('websocket', (socket) => socket.on('framesent', (frame) => seen.sockets.push({ url: socket.url(), data: String(frame.payload) })));
    await page.goto(options.url, { waitUntil: 'load', timeout: 60_000 });
    // A request whose answer the page never reads may never count as done: idle or not, on after 5 s.
    await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
    await page.waitForTimeout(options.wait);
    for (const frame of page.frames()) {
      const found = await frame.evaluate(stored).catch(() => []);
      for (const item of found) seen.storage.push({ ...item, origin: new URL(frame.url()).origin });
    }
    seen.cookies = await context.cookies();
    await context.close();
    return seen;
  } finally {
    await browser.close();
  }
}

/** The cards whose data left the page the legitimate way, and the ways. */
function cardsOf(seen, given) {
  const cards = new Map();
  const add = (card, data, channel) => {
    if (!cards.has(card)) cards.set(card, { card, prints: [], channels: [] });
    const entry = cards.get(card);
    entry.prints.push(fingerprint(data));
    entry.channels.push(channel);
  };
  for (const request of seen.requests) {
    const card = embedCard(request.url);
    if (request.method !== 'POST' || !card) continue;
    const text = new URLSearchParams(request.body).get('visualization_data');
    const data = parseJson(text);
    if (data) add(card, data, `form post to ${request.url}`);
  }
  for (const message of seen.messages) {
    const card = shellCard(message.to);
    const payload = parseJson(message.data);
    if (!card || payload?.type !== 'zdr:vizdata') continue;
    const data = parseJson(payload.visualization_data);
    if (data) add(card, data, `message to the shell at ${message.to}`);
  }
  for (const { card, data } of given) add(card, data, 'given with --data');
  return [...cards.values()];
}

function parseJson(text) {
  try {
    return typeof text === 'string' ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The card id of a shell frame's address (`/embed/{id}/?embed_mode=postmessage`), else null. */
function shellCard(url) {
  try {
    return new URL(url).searchParams.get('embed_mode') === 'postmessage' ? embedCard(url) : null;
  } catch {
    return null;
  }
}

/** Whether a request or message is the legitimate way for data to leave (to `service`, when given). */
function allowedRequest(request, service) {
  return request.method === 'POST' && embedCard(request.url) && request.framed && request.navigation && (!service || new URL(request.url).origin === service);
}

function allowedMessage(message, service) {
  const payload = parseJson(message.data);
  return shellCard(message.to) && payload?.type === 'zdr:vizdata' && (!service || new URL(message.to).origin === service);
}

/** Where each card's data went that they should not have, and what the embed answers said. */
export function judge(seen, options) {
  const cards = cardsOf(seen, options.data);
  const places = [
    ...seen.requests.filter((r) => !allowedRequest(r, options.service)).map((r) => ({ where: `${r.method} ${r.url}`, text: `${r.url}\n${r.body}\n${JSON.stringify(r.headers)}`, kind: 'request' })),
    ...seen.sockets.map((s) => ({ where: `WebSocket ${s.url}`, text: s.data, kind: 'websocket' })),
    ...seen.messages.filter((m) => !allowedMessage(m, options.service)).map((m) => ({ where: `message from ${m.from} to ${m.to}`, text: m.data, kind: 'message' })),
    ...seen.storage.map((s) => ({ where: `${s.where} of ${s.origin}`, text: s.text, kind: 'storage' })),
    ...seen.cookies.map((c) => ({ where: `cookie "${c.name}" of ${c.domain}${c.path}`, text: `${c.name}=${c.value}`, kind: 'storage' })),
  ];
  const report = cards.map(({ card, prints, channels }) => ({
    card,
    went: [...new Set(channels)],
    leaks: places.filter((place) => prints.some((print) => holds(place.text, print))).map(({ where, kind }) => ({ where, kind })),
  }));
  const answers = seen.answers.map((answer) => ({ url: answer.url, problems: answerProblems(answer.headers) })).filter((a) => a.problems.length);
  return { url: options.url, cards: report, answers, clean: report.every((c) => c.leaks.length === 0) && answers.length === 0 };
}

function answerProblems(headers) {
  const problems = [];
  const cache = String(headers['cache-control'] ?? '');
  if (!/\bno-store\b/i.test(cache)) problems.push(`may be cached (Cache-Control: ${cache || 'none'}; it must say no-store)`);
  if (headers['set-cookie']) problems.push('sets a cookie');
  return problems;
}

/** The report in words, for people. */
export function words(result) {
  const lines = [`zdr-embed audit of ${result.url}`];
  if (result.cards.length === 0) lines.push('No card\'s data were seen: no form post to /embed/…/, no message to a shell, no --data. Nothing was audited.');
  for (const card of result.cards) {
    lines.push('', `card ${card.card}`, ...card.went.map((way) => `  went: ${way}`));
    if (card.leaks.length === 0) lines.push('  nowhere else: no other request, message, cookie or storage holds its data');
    for (const leak of card.leaks) lines.push(`  LEAK (${leak.kind}): ${leak.where}`);
  }
  for (const answer of result.answers) lines.push('', `embed answer ${answer.url}: ${answer.problems.join('; ')}`);
  lines.push('', result.cards.length === 0 ? 'NOTHING AUDITED' : result.clean ? 'CLEAN' : 'LEAKS FOUND');
  return lines.join('\n');
}

/** Runs the audit; the exit code. */
export async function audit(argv, out = process.stdout, err = process.stderr) {
  let options;
  try {
    options = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err.write(`${error.message ? `${error.message}\n\n` : ''}${USAGE}\n`);
    return 2;
  }
  let seen;
  try {
    seen = await record(options);
  } catch (error) {
    err.write(`zdr-embed audit: ${error.message}\n`);
    return 2;
  }
  const result = judge(seen, options);
  out.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : `${words(result)}\n`);
  if (result.cards.length === 0) return 3;
  return result.clean ? 0 : 1;
}
