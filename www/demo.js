import init, { render, renderMultiple } from 'zdr-embed';

await init();

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const status = document.getElementById('status');
let handle = null;
let shown = ''; // the title of the data last posted to the main card

// The main card: a bar chart whose data change with each update.
function sales(seed) {
  return {
    viz_config: { title: `Monthly sales ${seed}`, x_label: 'Month', y_label: 'Units' },
    data: months.map((x, i) => ({ x, y: Math.round(400 + 300 * Math.sin(i / 2 + seed) + 40 * seed) })),
  };
}

// Two more cards of other types (their shapes are in docs/data-format.md).
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

function show(data) {
  document.getElementById('payload').textContent = JSON.stringify(data, null, 2);
}

function start(seed) {
  const visualizationData = sales(seed);
  shown = visualizationData.viz_config.title;
  handle = render({
    containerId: 'chart',
    serviceUrl: location.origin,
    cardId: 'demo-sales',
    visualizationData,
    height: '540px',
    // Called after the first post and after each update().
    onLoad: () => {
      status.textContent = `Loaded in the iframe: ${shown}`;
    },
    onError: (error) => {
      status.textContent = `Error: ${error.message}`;
    },
  });
  document.getElementById('address').textContent = `${location.origin}/embed/demo-sales/`;
  show(visualizationData);
}

let seed = 1;
start(seed);

renderMultiple(
  [
    ['users', 'demo-users', activeUsers],
    ['browsers', 'demo-browsers', browserShare],
  ].map(([containerId, cardId, visualizationData]) => ({
    containerId,
    serviceUrl: location.origin,
    cardId,
    visualizationData,
    height: '400px',
  })),
);

document.getElementById('update').addEventListener('click', () => {
  seed += 1;
  const data = sales(seed);
  shown = data.viz_config.title;
  status.textContent = 'Updating…';
  handle.update(data);
  show(data);
});
document.getElementById('destroy').addEventListener('click', () => {
  handle.destroy();
  status.textContent = 'Destroyed: the iframe is gone';
  document.getElementById('update').disabled = true;
  document.getElementById('destroy').disabled = true;
  document.getElementById('again').disabled = false;
});
document.getElementById('again').addEventListener('click', () => {
  start(seed);
  document.getElementById('update').disabled = false;
  document.getElementById('destroy').disabled = false;
  document.getElementById('again').disabled = true;
});
