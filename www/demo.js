import init, { render } from 'zdr-embed';

await init();

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const status = document.getElementById('status');
let handle = null;

function sales(seed) {
  return {
    viz_config: { title: `Monthly sales ${seed}`, x_label: 'Month', y_label: 'Units' },
    data: months.map((x, i) => ({ x, y: Math.round(400 + 300 * Math.sin(i / 2 + seed) + 40 * seed) })),
  };
}

function show(data) {
  document.getElementById('payload').textContent = JSON.stringify(data, null, 2);
}

function start(seed) {
  const visualizationData = sales(seed);
  handle = render({
    containerId: 'chart',
    serviceUrl: location.origin,
    cardId: 'demo-sales',
    visualizationData,
    height: '420px',
    onLoad: () => {
      status.textContent = 'Loaded in the iframe';
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

document.getElementById('update').addEventListener('click', () => {
  seed += 1;
  const data = sales(seed);
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
