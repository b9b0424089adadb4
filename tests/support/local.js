// Helpers for tests/local.rs: reading a canvas's pixels.

// How many distinct colours the canvas holds (sampled), a checksum of all its
// pixels, and the colour of its top-left pixel (the card background).
export function canvasStats(canvas) {
  const context = canvas.getContext('2d');
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  const colours = new Set();
  let checksum = 0;
  for (let i = 0; i < data.length; i += 4) {
    const rgba = (data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3];
    checksum = (Math.imul(checksum, 31) + rgba) | 0;
    if (i % 64 === 0) colours.add(rgba);
  }
  return { distinct: colours.size, checksum, corner: [data[0], data[1], data[2]] };
}

export function barData(title, values) {
  return {
    viz_config: { title, viz_component_type: 'bar', x_label: 'Region', units: 'USD' },
    data: Array.from(values, (y, i) => ({ x: `Region ${i + 1}`, y })),
  };
}

export function manyPoints(n) {
  const data = [];
  for (let i = 0; i < n; i++) data.push({ x: i, y: Math.sin(i / 10) * 100 });
  return { viz_config: { title: 'Many points', viz_component_type: 'scatter' }, data };
}

export function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}
