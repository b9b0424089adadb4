// Local mode's way in for big data: the page's visualizationData
// object handed to the engine without writing its data as JSON text.
//
// A loop over the page's objects here is a JIT-compiled loop; the same
// walk from WebAssembly costs a call per value, and JSON.stringify of a
// million points costs more than everything else a draw does. So a
// timeseries or scatter card goes to the engine as viz_config's JSON text
// and, per series, x and y as Float64Arrays (one copy each into its
// memory), a timeseries's ISO date strings read here into seconds
// (zdr_chart::Chart::from_columns).
//
// Whatever this does not recognise exactly, it leaves to the JSON text of
// the whole (textOf), which the engine reads as it reads a post: what it
// reads here is what JSON.stringify would have written, so both ways give
// the same chart, and every error is worded by the text's reader with the
// page's own paths.

// Keys that would make `data: {...}` another shape than parallel x and y.
const OTHER_SHAPES = ['columns', 'rows', 'value', 'values', 'label', 'start', 'end', 'points'];

// [viz_config's JSON text, [[name, x, y, precision, epoch], ...]] with x
// and y Float64Arrays (x seconds since 1970 when precision is given, epoch
// milliseconds when epoch is true); or undefined: read textOf(data).
// More than `maxSeries` series (the engine's cap) are never copied: the
// text's reader refuses them. `columns`: zdr_chart::reduce::KEPT_COLUMNS.
export function columnsOf(data, maxSeries, columns) {
  if (!plain(data)) return undefined;
  const config = data.viz_config;
  if (!plain(config)) return undefined;
  // Area and stacked area cards are timeseries data (CardKind::is_dated_line).
  const type = config.viz_component_type;
  const timeseries = type === 'timeseries' || type === 'area_timeseries' || type === 'stacked_area_timeseries';
  if (!timeseries && type !== 'scatter') return undefined;
  // A timeseries's date strings are read here (isoDates); with x_time
  // "epoch_ms" a string is an error, which the engine words.
  const dates = timeseries && config.x_time == null;
  const series = seriesOf(data.data, maxSeries, dates);
  const epoch = config.x_time === 'epoch_ms';
  for (let i = 0; series && timeseries && i < series.length; i++) {
    const [, x, , precision] = series[i];
    // Epoch milliseconds: marked so. A long line's are checked by the
    // engine as it copies them a block at a time (zdr_chart's LongLine),
    // compiled code that keeps it for pixels as it goes; a shorter one's
    // here, before the engine lets go of the card it shows for new data:
    // the JSON text's reader words the refusal, the card stays.
    if (epoch) series[i][4] = true;
    if (precision === undefined && !(epoch && x.length > 4 * columns) && !datesRead(x, epoch)) return undefined;
  }
  return series && [JSON.stringify(config), series];
}

// A timeseries's numbers are what date.rs takes: whole years 0 to 9999,
// or with x_time "epoch_ms" milliseconds within those years.
function datesRead(xs, epoch) {
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (epoch ? !(x >= -62167219200000 && x <= 253402300799999) : !(Number.isInteger(x) && x >= 0 && x <= 9999)) {
      return false;
    }
  }
  return true;
}

function seriesOf(data, maxSeries, dates) {
  if (Array.isArray(data)) {
    const one = pointColumns(data, '', dates);
    return one && [one];
  }
  if (!plain(data)) return undefined;
  const list = data.series;
  if (list === undefined) {
    if (OTHER_SHAPES.some((key) => data[key] !== undefined)) return undefined;
    const one = parallel(data, '', 'visualizationData.data', dates);
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
      ? Array.isArray(one.points) && pointColumns(one.points, name ?? null, dates)
      : !OTHER_SHAPES.some((key) => one[key] !== undefined) &&
        parallel(one, name ?? null, `visualizationData.data.series[${i}]`, dates);
    if (!given) return undefined;
    series.push(given);
  }
  return series;
}

// `{x: [...], y: [...]}` (arrays or typed arrays) as [name, x, y, precision].
function parallel(object, name, path, dates) {
  const x = column(object.x, `${path}.x`, dates);
  const y = column(object.y, `${path}.y`);
  return x !== undefined && y !== undefined && object.x.length === object.y.length
    ? [name, x[0], y[0], x[1]]
    : undefined;
}

// An array or typed array as [Float64Array] (numbers, null a gap) or, for
// x (`dates` true), date strings as isoDates() reads them; undefined if it
// is neither.
function column(array, path, dates) {
  if (ArrayBuffer.isView(array)) {
    if (array instanceof DataView) return undefined;
    if (array instanceof BigInt64Array || array instanceof BigUint64Array) {
      throw new TypeError(`${path} is a ${array.constructor.name}: BigInts have no JSON form`);
    }
    return [array instanceof Float64Array ? array : Float64Array.from(array)];
  }
  if (!Array.isArray(array)) return undefined;
  const n = array.length;
  if (n > 0 && typeof array[0] === 'string') {
    for (let i = 0; i < n; i++) if (typeof array[i] !== 'string') return undefined;
    return dates ? isoDates(array) : undefined;
  }
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const value = array[i];
    if (typeof value === 'number') values[i] = value;
    else if (value === null) values[i] = NaN;
    else return undefined;
  }
  return [values];
}

// `[{x, y}, ...]` as [name, x, y, precision], or undefined: one pass over
// the points, x read as an array of x is (column), date strings parsed as
// they are met (no array of a million strings in between).
function pointColumns(points, name, dates) {
  const n = points.length;
  const ys = new Float64Array(n);
  const xs = new Float64Array(n);
  // plain() for each point, cheaper: a million points take this loop.
  if (typeof Object.prototype.toJSON === 'function') return undefined;
  const first = n > 0 && points[0] !== null && typeof points[0] === 'object' ? points[0].x : undefined;
  const texts = typeof first === 'string';
  if (texts && !dates) return undefined;
  const parse = texts ? isoParser() : null;
  for (let i = 0; i < n; i++) {
    const point = points[i];
    if (typeof point !== 'object' || point === null || Object.getPrototypeOf(point) !== Object.prototype ||
        point.toJSON !== undefined) {
      return undefined;
    }
    const y = point.y;
    if (typeof y === 'number') ys[i] = y;
    else if (y === null || y === undefined) ys[i] = NaN;
    else return undefined;
    const x = point.x;
    if (texts) {
      if (typeof x !== 'string') return undefined;
      const seconds = parse.read(x);
      if (seconds === undefined) return undefined;
      xs[i] = seconds;
    } else if (typeof x === 'number') xs[i] = x;
    // An absent x is a gap, as null is.
    else if (x === null || x === undefined) xs[i] = NaN;
    else return undefined;
  }
  return [name, xs, ys, texts ? parse.finest : undefined];
}

// JSON.stringify of the whole, with typed arrays written as arrays.
export function textOf(data) {
  if (plain(data) && plain(data.data)) {
    data = { ...data, data: arraysOf(data.data, true) };
  }
  return JSON.stringify(data);
}

// An object whose own properties JSON.stringify writes as they read here.
function plain(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof value.toJSON !== 'function';
}

// The common ISO shapes of zdr_chart's model/date.rs, read as it reads
// them: YYYY, YYYY-MM, YYYY-MM-DD and YYYY-MM-DD[T ]HH:MM[:SS][Z], within
// its ranges. Any other text (a leap second, a fraction, an offset)
// answers undefined, and the engine reads the JSON text of the whole. [seconds since 1970, precision]: 0 year, 1
// month, 2 day, 3 time, the finest of them. The seconds are whole numbers
// far below 2^53, so they equal the engine's exactly; tests/e2e/columns.test.mjs
// holds the two readers to the same charts.
function isoDates(texts) {
  const n = texts.length;
  const seconds = new Float64Array(n);
  const parse = isoParser();
  for (let i = 0; i < n; i++) {
    const value = parse.read(texts[i]);
    if (value === undefined) return undefined;
    seconds[i] = value;
  }
  return [seconds, parse.finest];
}

// One date string at a time: read(s) is its seconds since 1970, or
// undefined; finest the finest precision read so far.
function isoParser() {
  // The day number of the 1st and the length of the last month seen:
  // consecutive dates mostly share their month.
  let seen = -1;
  let first = 0;
  let length = 0;
  // Month 1–12 of year: year * 16 + month names no other.
  const enter = (year, month) => {
    if (year * 16 + month !== seen) {
      seen = year * 16 + month;
      first = daysFromCivil(year, month, 1);
      // Day 1 of the next month (13: January) less day 1 of this one.
      length = daysFromCivil(year, month + 1, 1) - first;
    }
  };
  const parser = {
    finest: 0,
    read(s) {
      const len = s.length;
      // The service's own form, "YYYY-MM-DDTHH:MM", read at fixed places
      // (a million points: about 82 against 102 ms through digits(), in
      // Chromium). Anything else, or out of range, takes the general way.
      if (len === 16 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45 && s.charCodeAt(13) === 58) {
        const y0 = s.charCodeAt(0) - 48, y1 = s.charCodeAt(1) - 48, y2 = s.charCodeAt(2) - 48, y3 = s.charCodeAt(3) - 48;
        const m0 = s.charCodeAt(5) - 48, m1 = s.charCodeAt(6) - 48, d0 = s.charCodeAt(8) - 48, d1 = s.charCodeAt(9) - 48;
        const h0 = s.charCodeAt(11) - 48, h1 = s.charCodeAt(12) - 48, i0 = s.charCodeAt(14) - 48, i1 = s.charCodeAt(15) - 48;
        const t = s.charCodeAt(10);
        // x >>> 0 > 9 for a code below '0' too.
        if ((y0 >>> 0) <= 9 && (y1 >>> 0) <= 9 && (y2 >>> 0) <= 9 && (y3 >>> 0) <= 9 &&
            (m0 >>> 0) <= 9 && (m1 >>> 0) <= 9 && (d0 >>> 0) <= 9 && (d1 >>> 0) <= 9 &&
            (h0 >>> 0) <= 9 && (h1 >>> 0) <= 9 && (i0 >>> 0) <= 9 && (i1 >>> 0) <= 9 &&
            (t === 84 || t === 116 || t === 32)) {
          const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
          const month = m0 * 10 + m1;
          const day = d0 * 10 + d1;
          const hour = h0 * 10 + h1;
          const minute = i0 * 10 + i1;
          if (month >= 1 && month <= 12) {
            enter(year, month);
            if (day >= 1 && day <= length && hour <= 23 && minute <= 59) {
              parser.finest = 3;
              return (first + day - 1) * 86400 + hour * 3600 + minute * 60;
            }
          }
        }
      }
      const year = digits(s, 0, 4);
      let month = 1;
      let day = 1;
      let clock = 0;
      let precision = 0;
      if (year < 0) return undefined;
      if (len > 4) {
        month = digits(s, 5, 2);
        if (s.charCodeAt(4) !== 45 || len < 7 || month < 1 || month > 12) return undefined;
        precision = 1;
      }
      if (len > 7) {
        day = digits(s, 8, 2);
        enter(year, month);
        if (s.charCodeAt(7) !== 45 || len < 10 || day < 1 || day > length) return undefined;
        precision = 2;
      }
      if (len > 10) {
        const t = s.charCodeAt(10);
        const hour = digits(s, 11, 2);
        const minute = digits(s, 14, 2);
        if ((t !== 84 && t !== 116 && t !== 32) || len < 16 || s.charCodeAt(13) !== 58 ||
            hour < 0 || hour > 23 || minute < 0 || minute > 59) {
          return undefined;
        }
        let at = 16;
        let second = 0;
        if (at < len && s.charCodeAt(at) === 58) {
          second = digits(s, 17, 2);
          if (second < 0 || second > 59) return undefined;
          at = 19;
        }
        if (at < len) {
          const z = s.charCodeAt(at);
          if ((z !== 90 && z !== 122) || at + 1 !== len) return undefined;
        }
        clock = hour * 3600 + minute * 60 + second;
        precision = 3;
      }
      if (precision > parser.finest) parser.finest = precision;
      // A year or a month: its first day, not the cached month's.
      const days = precision < 2 ? daysFromCivil(year, month, 1) : first + day - 1;
      return days * 86400 + clock;
    },
  };
  return parser;
}

// `count` decimal digits from `at`, or -1.
function digits(s, at, count) {
  let value = 0;
  for (let k = at; k < at + count; k++) {
    const d = s.charCodeAt(k) - 48;
    if (!(d >= 0 && d <= 9)) return -1;
    value = value * 10 + d;
  }
  return value;
}

// Howard Hinnant's days_from_civil, as date.rs has it.
function daysFromCivil(year, month, day) {
  const y = year - (month <= 2 ? 1 : 0);
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

// A copy of `data: {...}` with its typed arrays (and, with `series`, those
// of its series: the columnar shape's two levels, no deeper) written as
// arrays; `data` itself if it holds none. A BigInt64Array's BigInts then
// make JSON.stringify throw. The service module does the same in Rust for
// form and postMessage modes (src/payload.rs): the modules share no code.
function arraysOf(data, series) {
  let copy = data;
  for (const key of Object.keys(data)) {
    const value = data[key];
    let replaced;
    if (ArrayBuffer.isView(value)) {
      replaced = Array.from(value);
    } else if (series && key === 'series' && Array.isArray(value)) {
      const list = value.map((one) => (plain(one) ? arraysOf(one) : one));
      if (list.some((one, i) => one !== value[i])) replaced = list;
    }
    if (replaced !== undefined) {
      if (copy === data) copy = { ...data };
      copy[key] = replaced;
    }
  }
  return copy;
}
