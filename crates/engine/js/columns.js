// Local mode's way in for big data (issue 15): the page's visualizationData
// object handed to the engine without writing its data as JSON text.
//
// A loop over the page's objects here is a JIT-compiled loop; the same
// walk from WebAssembly costs a call per value, and JSON.stringify of a
// million points costs more than everything else a draw does. So a
// timeseries or scatter card goes to the engine as viz_config's JSON text
// and, per series, x and y as Float64Arrays (one copy each into its
// memory) or x's date strings as one string, a line each
// (zdr_chart::Chart::from_columns).
//
// Whatever this does not recognise exactly, it leaves to the JSON text of
// the whole (textOf), which the engine reads as it reads a post: what it
// reads here is what JSON.stringify would have written, so both ways give
// the same chart, and every error is worded by the text's reader with the
// page's own paths.

const READ_AS_COLUMNS = ['timeseries', 'scatter'];
// Keys that would make `data: {...}` another shape than parallel x and y.
const OTHER_SHAPES = ['columns', 'rows', 'value', 'values', 'label', 'start', 'end', 'points'];

// [viz_config's JSON text, [[name, x, y], ...]] with x a Float64Array or a
// string of lines and y a Float64Array; or undefined: read textOf(data).
// More than `maxSeries` series (the engine's cap) are never copied: the
// text's reader refuses them.
export function columnsOf(data, maxSeries) {
  if (!plain(data)) return undefined;
  const config = data.viz_config;
  if (!plain(config) || !READ_AS_COLUMNS.includes(config.viz_component_type)) return undefined;
  const series = seriesOf(data.data, maxSeries);
  return series && [JSON.stringify(config), series];
}

function seriesOf(data, maxSeries) {
  if (Array.isArray(data)) {
    const one = pointColumns(data, '');
    return one && [one];
  }
  if (!plain(data)) return undefined;
  const list = data.series;
  if (list === undefined) {
    if (OTHER_SHAPES.some((key) => data[key] !== undefined)) return undefined;
    const one = parallel(data, '', 'visualizationData.data');
    return one && [one];
  }
  if (!Array.isArray(list) || list.length > maxSeries ||
      ['x', 'y', ...OTHER_SHAPES].some((key) => data[key] !== undefined)) {
    return undefined;
  }
  const series = [];
  for (let i = 0; i < list.length; i++) {
    const one = list[i];
    if (!plain(one)) return undefined;
    const name = one.name;
    if (typeof name !== 'string' && name !== null && name !== undefined) return undefined;
    const given = one.points !== undefined
      ? Array.isArray(one.points) && pointColumns(one.points, name ?? null)
      : !OTHER_SHAPES.some((key) => one[key] !== undefined) &&
        parallel(one, name ?? null, `visualizationData.data.series[${i}]`);
    if (!given) return undefined;
    series.push(given);
  }
  return series;
}

// `{x: [...], y: [...]}` (arrays or typed arrays) as [name, x, y].
function parallel(object, name, path) {
  const x = column(object.x, `${path}.x`, true);
  const y = column(object.y, `${path}.y`, false);
  return x !== undefined && y !== undefined && object.x.length === object.y.length
    ? [name, x, y]
    : undefined;
}

// An array or typed array as a Float64Array (numbers, null a gap) or, for
// x, a string of lines (texts); undefined if it is neither.
function column(array, path, texts) {
  if (ArrayBuffer.isView(array)) {
    if (array instanceof DataView) return undefined;
    refuseBigInts(array, path);
    return array instanceof Float64Array ? array : Float64Array.from(array);
  }
  if (!Array.isArray(array)) return undefined;
  const n = array.length;
  if (texts && n > 0 && typeof array[0] === 'string') {
    for (let i = 0; i < n; i++) if (typeof array[i] !== 'string') return undefined;
    return array.join('\n');
  }
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const value = array[i];
    if (typeof value === 'number') values[i] = value;
    else if (value === null) values[i] = NaN;
    else return undefined;
  }
  return values;
}

// `[{x, y}, ...]` as [name, x, y], or undefined.
function pointColumns(points, name) {
  const n = points.length;
  const ys = new Float64Array(n);
  let xs;
  let texts;
  for (let i = 0; i < n; i++) {
    const point = points[i];
    if (!plain(point)) return undefined;
    const x = point.x;
    const y = point.y;
    if (typeof y === 'number') ys[i] = y;
    else if (y === null || y === undefined) ys[i] = NaN;
    else return undefined;
    if (typeof x === 'string') {
      if (xs !== undefined) return undefined;
      if (texts === undefined) texts = new Array(n);
      texts[i] = x;
    } else if (typeof x === 'number' || x === null || x === undefined) {
      if (texts !== undefined) return undefined;
      if (xs === undefined) xs = new Float64Array(n);
      xs[i] = typeof x === 'number' ? x : NaN;
    } else {
      return undefined;
    }
  }
  return [name, texts !== undefined ? texts.join('\n') : xs ?? new Float64Array(0), ys];
}

function refuseBigInts(array, path) {
  if (array instanceof BigInt64Array || array instanceof BigUint64Array) {
    throw new TypeError(
      `${path} is a ${array.constructor.name}: BigInts have no JSON form; give a Float64Array`,
    );
  }
}

// JSON.stringify of the whole, with typed arrays written as arrays.
export function textOf(data) {
  if (plain(data) && plain(data.data)) {
    data = { ...data, data: arraysOf(data.data, 'visualizationData.data') };
  }
  return JSON.stringify(data);
}

// An object whose own properties JSON.stringify writes as they read here.
function plain(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof value.toJSON !== 'function';
}

// A copy of `data: {...}` with its typed arrays (and, with `path` ending in
// `.data`, those of its series: the columnar shape's two levels, no deeper)
// written as arrays; `data` itself if it holds none. The service module
// does the same in Rust for form and postMessage modes.
function arraysOf(data, path) {
  let copy = data;
  for (const key of Object.keys(data)) {
    const value = data[key];
    let replaced;
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      refuseBigInts(value, `${path}.${key}`);
      replaced = Array.from(value);
    } else if (key === 'series' && Array.isArray(value) && path.endsWith('.data')) {
      const series = value.map((one, i) => (plain(one) ? arraysOf(one, `${path}.series[${i}]`) : one));
      if (series.some((one, i) => one !== value[i])) replaced = series;
    }
    if (replaced !== undefined) {
      if (copy === data) copy = { ...data };
      copy[key] = replaced;
    }
  }
  return copy;
}
