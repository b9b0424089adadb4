import init, { render } from 'zdr-embed';

// The chart engine is a module of its own, fetched the first time a card is
// drawn in this page (the local column): say when, and what it weighed.
new PerformanceObserver((list, observer) => {
  const engine = list.getEntries().filter((entry) => /\/engine\/zdr_engine(_bg\.wasm|\.js)$/.test(entry.name));
  if (!engine.some((entry) => entry.name.endsWith('.wasm'))) return;
  observer.disconnect();
  const bytes = performance.getEntriesByType('resource')
    .filter((entry) => /\/engine\/zdr_engine(_bg\.wasm|\.js)$/.test(entry.name))
    .reduce((sum, entry) => sum + (entry.encodedBodySize || 0), 0);
  const size = bytes ? ` (${Math.round(bytes / 1024)} KB)` : '';
  document.getElementById('engine-note').textContent =
    `Service cards need only the widget's small service module; the chart engine${size} was fetched ` +
    `${Math.round(performance.now())} ms after the page began, for the first local card.`;
}).observe({ type: 'resource', buffered: true });

await init();

const $ = (id) => document.getElementById(id);
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// ---- The data (their shapes are in docs/data-format.md) ----

// The main card: a bar chart whose data change with each update.
function sales(seed) {
  return {
    viz_config: { title: `Monthly sales ${seed}`, x_label: 'Month', y_label: 'Units' },
    data: months.map((x, i) => ({ x, y: Math.round(400 + 300 * Math.sin(i / 2 + seed) + 40 * seed) })),
  };
}

function weekly(start, weeks, base, drift) {
  const day = Date.parse(start);
  return Array.from({ length: weeks }, (_, i) => ({
    x: new Date(day + i * 7 * 86_400_000).toISOString().slice(0, 10),
    y: Math.round(base + drift * i + base * 0.08 * Math.sin(i / 2)),
  }));
}

const activeUsers = {
  viz_config: {
    title: 'Weekly active users',
    viz_component_type: 'timeseries',
    y_label: 'Users',
    source: 'Product analytics (made up)',
  },
  data: {
    series: [
      { name: 'Web', points: weekly('2025-01-06', 26, 16000, -120) },
      { name: 'Mobile', points: weekly('2025-01-06', 26, 9000, 260) },
    ],
  },
};

const browserShare = {
  viz_config: { title: 'Browser share of visits', viz_component_type: 'pie', units: '%' },
  data: [
    { x: 'Chrome', y: 64.2 },
    { x: 'Safari', y: 18.6 },
    { x: 'Edge', y: 5.3 },
    { x: 'Firefox', y: 3.1 },
    { x: 'Other', y: 8.8 },
  ],
};

// Deterministic points (no Math.random): both sides and every reload agree.
function deliveries(name, count, speed, offset) {
  return {
    name,
    points: Array.from({ length: count }, (_, i) => {
      const km = 2 + ((i * 37) % 97) * 0.4 + offset;
      const wobble = Math.sin(i * 1.7 + offset) * 6;
      return { x: Math.round(km * 10) / 10, y: Math.round((12 + km * speed + wobble) * 10) / 10 };
    }),
  };
}

const deliveryTimes = {
  viz_config: {
    title: 'Delivery time by distance',
    viz_component_type: 'scatter',
    x_label: 'Distance (km)',
    y_label: 'Minutes',
  },
  data: { series: [deliveries('Bike', 40, 2.2, 0), deliveries('Van', 40, 1.3, 0.5)] },
};

// 3,000 film ratings in tenths around 6.5: the histogram picks its bins by
// the Freedman–Diaconis rule on round widths (19 bins of 0.5 here).
function ratings(count) {
  let seed = 7;
  const uniform = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  return Array.from({ length: count }, () => {
    const z = (uniform() + uniform() + uniform() - 1.5) * 2;
    return { y: Math.min(10, Math.max(1, Math.round((6.5 + 1.2 * z) * 10) / 10)) };
  });
}

const filmRatings = {
  viz_config: { title: 'Ratings of 3,000 films', viz_component_type: 'histogram', x_label: 'Rating' },
  data: ratings(3000),
};

// A unit longer than four characters goes to the axis title, not on every tick.
const payrolls = {
  viz_config: {
    title: 'Change in payrolls by sector',
    viz_component_type: 'bar',
    x_label: 'Sector',
    y_label: 'Change',
    units: 'thousand jobs',
    source: 'Made up',
  },
  data: [
    { x: 'Retail', y: -1500 },
    { x: 'Health', y: 420 },
    { x: 'Construction', y: -310 },
    { x: 'Tech', y: 260 },
  ],
};

// Series of different units and sizes on one axis: each as its change since
// its first value. A series that starts at zero has no such change: it is
// left out, and the subtitle names it.
function monthly(base, drift, wave) {
  return months.map((m, i) => ({ x: `2025-${String(i + 1).padStart(2, '0')}`, y: Math.round(base * (1 + drift * i + wave * Math.sin(i))) }));
}

const prices = {
  viz_config: {
    title: 'Gold, oil and a stock index in 2025',
    source: 'Made up',
    viz_component_type: 'timeseries',
    percent_change: true,
    y_label: 'Price',
  },
  data: {
    series: [
      { name: 'Gold (USD/oz)', points: monthly(2000, 0.02, 0.03) },
      { name: 'Oil (USD/bbl)', points: monthly(75, -0.012, 0.05) },
      { name: 'Index (points)', points: monthly(4800, 0.014, 0.02) },
      { name: 'New fund', points: [{ x: '2025-01', y: 0 }, { x: '2025-06', y: 3 }] },
    ],
  },
};

// Sizes ten times apart or more: the margin reads against a right axis of
// its own (the automatic rule; `right_axis_series` would name it).
const revenueMargin = {
  viz_config: {
    title: 'Revenue and margin, 2025',
    viz_component_type: 'timeseries',
    y_label: 'Revenue',
    units: '$',
    right_axis_label: 'Margin',
    right_axis_units: '%',
    source: 'Made up',
  },
  data: {
    series: [
      { name: 'Revenue', points: monthly(1200000, 0.05, 0.04) },
      { name: 'Margin', points: monthly(12, 0.06, 0.15) },
    ],
  },
};

// The same kind of card written the German way: "1,8 Mio. €", "Jan. 2025",
// "5. März 2025" in the tooltips and the hidden table.
const umsatz = {
  viz_config: {
    title: 'Umsatz 2025',
    viz_component_type: 'timeseries',
    locale: 'de-DE',
    y_label: 'Umsatz',
    units: '€',
    source: 'Erfunden',
  },
  data: {
    series: [
      { name: 'Online', points: monthly(1200000, 0.05, 0.04) },
      { name: 'Filialen', points: monthly(900000, 0.02, 0.06) },
    ],
  },
};

// Names too long to stand under upright bars: the card lies on its side.
const emissions = {
  viz_config: {
    title: 'Emissions by sector',
    viz_component_type: 'bar',
    x_label: 'Sector',
    y_label: 'Emissions',
    units: 'Mt',
    source: 'Made up',
  },
  data: [
    { x: 'Electricity and heat production', y: 1450 },
    { x: 'Road transportation', y: 1230 },
    { x: 'Manufacturing and construction', y: 880 },
    { x: 'Residential buildings', y: 560 },
    { x: 'Agriculture, forestry and land use', y: -120 },
    { x: 'Aviation', y: 190 },
  ],
};

// ---- Theme ----

// Until the reader picks one, a light page passes no darkMode, so the embed
// address stays the spec's `/embed/{id}/`. A dark preference is passed on
// explicitly, so that both sides agree.
const darkBox = $('dark');
let darkChoice = matchMedia('(prefers-color-scheme: dark)').matches ? true : undefined;
darkBox.checked = darkChoice === true;
const themed = () => (darkChoice === undefined ? {} : { darkMode: darkChoice });
function paintPage() {
  document.documentElement.dataset.theme = darkBox.checked ? 'dark' : 'light';
}
paintPage();

// ---- The cards: each one twice, service and local ----

/** Cards still waiting for their first onLoad; `html[data-ready]` once none are. */
const pending = new Set();
function loaded(id) {
  pending.delete(id);
  if (pending.size === 0) document.documentElement.dataset.ready = '';
}

function pair(id, cardId, visualizationData, height, callbacks = {}) {
  pending.add(id);
  pending.add(`${id}-local`);
  const service = render({
    containerId: id,
    serviceUrl: location.origin,
    cardId,
    visualizationData,
    height,
    ...themed(),
    onLoad: (iframe) => {
      loaded(id);
      callbacks.service?.(iframe);
    },
    onError: (error) => callbacks.error?.(error),
  });
  const local = render({
    containerId: `${id}-local`,
    mode: 'local',
    visualizationData,
    height,
    ...themed(),
    onLoad: (canvas) => {
      loaded(`${id}-local`);
      callbacks.local?.(canvas);
    },
    onError: (error) => callbacks.error?.(error),
  });
  return [service, local];
}

const status = $('status');
const statusLocal = $('status-local');
let salesCards = null; // [service, local] handles of the main card, null when destroyed
let others = [];
let seed = 1;
let shown = ''; // the title of the data last posted to the main card

function showPayload(data) {
  $('payload').textContent = JSON.stringify(data, null, 2);
}

function startSales() {
  const data = sales(seed);
  shown = data.viz_config.title;
  salesCards = pair('chart', 'demo-sales', data, '480px', {
    // Called after the first post and after each update().
    service: () => { status.textContent = `Loaded in the iframe: ${shown}`; },
    // Called after each draw of new data.
    local: () => { statusLocal.textContent = `Drawn on the canvas: ${shown}`; },
    error: (error) => { status.textContent = `Error: ${error.message}`; },
  });
  const query = darkChoice === undefined ? '' : `?dark_mode=${darkChoice}`;
  $('address').textContent = `${location.origin}/embed/demo-sales/${query}`;
  showPayload(data);
}

function startOthers() {
  others = [
    ...pair('users', 'demo-users', activeUsers, '360px'),
    ...pair('browsers', 'demo-browsers', browserShare, '360px'),
    ...pair('deliveries', 'demo-deliveries', deliveryTimes, '360px'),
    ...pair('ratings', 'demo-ratings', filmRatings, '360px'),
    ...pair('payrolls', 'demo-payrolls', payrolls, '360px'),
    ...pair('prices', 'demo-prices', prices, '360px'),
    ...pair('emissions', 'demo-emissions', emissions, '360px'),
    ...pair('margins', 'demo-margins', revenueMargin, '360px'),
    ...pair('umsatz', 'demo-umsatz', umsatz, '360px'),
  ];
}

// ---- Embed modes: the main card by form post and by postMessage ----

// The same card and data as the main card, from the same service, once per
// embedMode. Each panel counts its iframe's `load` events and the widget's
// onLoad calls: an update reloads the form frame, not the postMessage one.
const embedModes = {
  form: { shown: 'Loaded in the iframe' },
  postmessage: { shown: 'Drawn by the shell' },
};
let modeCards = []; // handles of the two mode cards, empty when destroyed

function startMode(embedMode, data) {
  const id = `modes-${embedMode}`;
  const statusEl = $(`status-${embedMode}`);
  const countEl = $(`count-${embedMode}`);
  const errorEl = $(`error-${embedMode}`);
  const counts = { frameLoads: 0, onLoad: 0 };
  const showCounts = () => {
    countEl.textContent = `frame loads: ${counts.frameLoads} · onLoad: ${counts.onLoad}`;
    countEl.dataset.frameLoads = counts.frameLoads;
    countEl.dataset.onload = counts.onLoad;
  };
  let title = data.viz_config.title;
  pending.add(id);
  statusEl.textContent = embedMode === 'form' ? 'Posting…' : 'Waiting for the shell…';
  errorEl.hidden = true;
  errorEl.textContent = '';
  const handle = render({
    containerId: id,
    serviceUrl: location.origin,
    cardId: 'demo-sales',
    embedMode,
    visualizationData: data,
    height: '360px',
    ...themed(),
    onLoad: () => {
      counts.onLoad += 1;
      showCounts();
      statusEl.textContent = `${embedModes[embedMode].shown}: ${title}`;
      loaded(id);
    },
    onError: (error) => {
      errorEl.hidden = false;
      errorEl.textContent = `Error${error.code ? ` (${error.code})` : ''}: ${error.message}`;
    },
  });
  // After render, so the counter sees the loads of the service's page only.
  handle.iframe?.addEventListener('load', () => {
    counts.frameLoads += 1;
    showCounts();
  });
  showCounts();
  return {
    update(next) {
      title = next.viz_config.title;
      statusEl.textContent = embedMode === 'form' ? 'Posting…' : 'Sending…';
      errorEl.hidden = true;
      handle.update(next);
    },
    destroy() {
      handle.destroy();
      pending.delete(id);
      statusEl.textContent = 'Destroyed: the iframe is gone';
    },
  };
}

function startModes() {
  const data = sales(seed);
  modeCards = Object.keys(embedModes).map((embedMode) => startMode(embedMode, data));
}

function destroyModes() {
  for (const card of modeCards) card.destroy();
  modeCards = [];
}

// ---- Auto mode ----

const autoUp = location.origin;
// A loopback port nothing listens on (1, tcpmux, is never served here).
const autoDown = `${location.protocol}//${location.hostname}:1`;
$('auto-up').textContent = autoUp;
$('auto-down').textContent = autoDown;
const statusAuto = $('status-auto');
let auto = null;

function startAuto() {
  const down = document.querySelector('input[name="auto-service"]:checked').value === 'down';
  auto?.destroy();
  pending.add('auto');
  statusAuto.textContent = 'Asking the service…';
  const tag = $('auto-tag');
  tag.className = 'tag auto';
  tag.textContent = 'Auto';
  auto = render({
    containerId: 'auto',
    mode: 'auto',
    serviceUrl: down ? autoDown : autoUp,
    cardId: 'demo-auto',
    visualizationData: browserShare,
    height: '360px',
    timeoutMs: 3000,
    ...themed(),
    onLoad: (element) => {
      // The iframe when the service showed the card, the canvas after a fallback.
      const local = element instanceof HTMLCanvasElement;
      tag.className = `tag ${local ? 'local' : 'service'}`;
      tag.textContent = `Auto → ${local ? 'local' : 'service'}`;
      if (!local) statusAuto.textContent = 'The service answered: shown in the iframe (mode "service")';
      loaded('auto');
    },
    onError: (error) => {
      statusAuto.textContent =
        error.name === 'FallbackToLocal'
          ? `${error.name}: ${error.message}`
          : `Error: ${error.message}`;
      statusAuto.dataset.fallback = error.name === 'FallbackToLocal' ? 'true' : 'false';
    },
  });
  delete statusAuto.dataset.fallback;
}

for (const radio of document.querySelectorAll('input[name="auto-service"]')) {
  radio.addEventListener('change', startAuto);
}

// ---- Start, and the controls ----

startSales();
startOthers();
startModes();
startAuto();

$('update').addEventListener('click', () => {
  seed += 1;
  const data = sales(seed);
  shown = data.viz_config.title;
  status.textContent = 'Updating…';
  statusLocal.textContent = 'Drawing…';
  for (const handle of salesCards) handle.update(data);
  for (const card of modeCards) card.update(data);
  showPayload(data);
});

$('destroy').addEventListener('click', () => {
  for (const handle of salesCards) handle.destroy();
  salesCards = null;
  destroyModes();
  pending.delete('chart');
  pending.delete('chart-local');
  status.textContent = 'Destroyed: the iframe is gone';
  statusLocal.textContent = 'Destroyed: the canvas is gone';
  $('update').disabled = true;
  $('destroy').disabled = true;
  $('png').disabled = true;
  $('svg').disabled = true;
  $('again').disabled = false;
});

$('again').addEventListener('click', () => {
  startSales();
  startModes();
  $('update').disabled = false;
  $('destroy').disabled = false;
  $('png').disabled = false;
  $('svg').disabled = false;
  $('again').disabled = true;
});

// darkMode is a render option: every card is rendered again with it.
darkBox.addEventListener('change', () => {
  darkChoice = darkBox.checked;
  paintPage();
  for (const handle of others) handle.destroy();
  startOthers();
  if (salesCards) {
    for (const handle of salesCards) handle.destroy();
    startSales();
  }
  if (modeCards.length) {
    destroyModes();
    startModes();
  }
  startAuto();
  if (big) {
    big.destroy();
    big = null;
    bigSeed -= 1;
    drawBig();
  }
});

// Exports of the local card: the same engine, as PNG (the canvas) or SVG.
function download(name, blob) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
$('png').addEventListener('click', async () => {
  download(`monthly-sales-${seed}.png`, await salesCards[1].toPNG());
});
$('svg').addEventListener('click', () => {
  download(`monthly-sales-${seed}.svg`, new Blob([salesCards[1].toSVG()], { type: 'image/svg+xml' }));
});

// ---- A million points from typed arrays, on demand ----

/** One reading a minute from 2024-01-01: a daily cycle on a random walk, as a page would hold it. */
function minutes(count, seed) {
  const x = new Float64Array(count);
  const y = new Float64Array(count);
  let walk = 0;
  let state = seed * 2654435761 >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    // xorshift32: the same readings for the same seed.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    walk += (state / 4294967296 - 0.5) * 0.3;
    x[i] = Date.UTC(2024, 0, 1) + i * 60_000;
    y[i] = 50 + 12 * Math.sin((2 * Math.PI * i) / 1440) + walk;
  }
  return {
    viz_config: { title: `A million readings (${seed})`, viz_component_type: 'timeseries', x_time: 'epoch_ms', y_label: 'Value' },
    data: { x, y },
  };
}

let big = null;
let bigSeed = 0;
let bigStarted = 0;
function drawBig() {
  bigSeed += 1;
  const data = minutes(1_000_000, bigSeed);
  $('status-big').textContent = 'Drawing…';
  bigStarted = performance.now();
  if (big) return big.update(data);
  big = render({
    containerId: 'big',
    mode: 'local',
    visualizationData: data,
    height: '320px',
    ...themed(),
    onLoad: () => {
      $('status-big').textContent = `1,000,000 points drawn ${Math.round(performance.now() - bigStarted)} ms after the call`;
      $('big-update').disabled = false;
      $('big-draw').disabled = true;
    },
    onError: (error) => {
      $('status-big').textContent = error.message;
    },
  });
}
$('big-draw').addEventListener('click', drawBig);
$('big-update').addEventListener('click', drawBig);

// Visualize your CSV: flow 3 of the service against this host's API.
const vizCards = $('viz-cards');
let vizShown = [];
$('viz-key').value = sessionStorage.getItem('zdr-demo-key') ?? '';
$('viz-file').addEventListener('change', async () => {
  const file = $('viz-file').files[0];
  if (file) $('viz-csv').value = await file.text();
});
async function suggest() {
  const key = $('viz-key').value.trim();
  sessionStorage.setItem('zdr-demo-key', key);
  $('status-viz').textContent = 'Asking the service…';
  for (const shown of vizShown) shown.destroy();
  vizShown = [];
  vizCards.replaceChildren();
  let answer;
  try {
    const response = await fetch('/api/v1/beta/visualize', {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ csv: [$('viz-csv').value], query: $('viz-query').value || null }),
    });
    answer = await response.json();
    if (!response.ok) throw new Error(answer.error?.message ?? `the service answered ${response.status}`);
  } catch (error) {
    $('status-viz').textContent = error.message;
    return;
  }
  $('status-viz').textContent = answer.outputs.answer;
  vizShown = showCards(answer, vizCards, 'viz');
}

// Each card of an answer twice: posted to the service, and drawn here.
function showCards(answer, container, prefix) {
  const shown = [];
  answer.outputs.knowledge_cards.forEach((card, i) => {
    const row = document.createElement('div');
    row.className = 'viz-card';
    const head = document.createElement('p');
    head.className = 'viz-head';
    head.textContent = `${card.card_type} · ${card.confidence} confidence · ${card.description}`;
    const service = document.createElement('div');
    service.id = `${prefix}-service-${i}`;
    service.className = 'chart';
    const local = document.createElement('div');
    local.id = `${prefix}-local-${i}`;
    local.className = 'chart';
    row.append(head, service, local);
    container.append(row);
    const options = { serviceUrl: location.origin, cardId: card.card_id, visualizationData: card.visualization_data, height: '320px', ...themed() };
    shown.push(render({ ...options, containerId: service.id }));
    shown.push(render({ ...options, containerId: local.id, mode: 'local' }));
  });
  return shown;
}
$('viz-go').addEventListener('click', suggest);

// Search the built-in datasets (and the key's private indexes): spec 4.3.
const searchCards = $('search-cards');
let searchShown = [];
async function searchDatasets() {
  const key = $('viz-key').value.trim();
  sessionStorage.setItem('zdr-demo-key', key);
  $('status-search').textContent = 'Searching…';
  for (const shown of searchShown) shown.destroy();
  searchShown = [];
  searchCards.replaceChildren();
  let answer;
  try {
    const response = await fetch('/api/v1/knowledge_search', {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        inputs: { text: $('search-query').value },
        country_code: $('search-country').value,
        locale: $('search-locale').value,
      }),
    });
    answer = await response.json();
    if (!response.ok) throw new Error(answer.error?.message ?? `the service answered ${response.status}`);
  } catch (error) {
    $('status-search').textContent = error.message;
    return;
  }
  $('status-search').textContent = answer.outputs.answer;
  searchShown = showCards(answer, searchCards, 'search');
}
$('search-go').addEventListener('click', searchDatasets);
