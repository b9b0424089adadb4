// Helpers for the engine's browser tests.

export function freshContainer(id) {
  document.getElementById(id)?.remove();
  const div = document.createElement('div');
  div.id = id;
  document.body.appendChild(div);
  return div;
}

export function cardJson(title, ys) {
  return JSON.stringify({
    viz_config: { title, viz_component_type: 'bar', x_label: 'Region' },
    data: ys.map((y, i) => ({ x: `Region ${i + 1}`, y })),
  });
}

export function recorder() {
  const calls = [];
  const record = (value) => calls.push(value);
  record.count = () => calls.length;
  record.last = () => calls[calls.length - 1];
  return record;
}

export function settings(data, extra) {
  return Object.assign({ data, height: '300px' }, extra || {});
}

export function errorCode(error) {
  return error && error.code;
}

export function checksum(canvas) {
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) {
    sum = (Math.imul(sum, 31) + ((data[i] << 16) | (data[i + 1] << 8) | data[i + 2])) | 0;
  }
  return sum;
}
