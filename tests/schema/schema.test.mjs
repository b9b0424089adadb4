// The JSON Schema of visualization_data (schema/visualization_data.schema.json) against the
// documented examples and documents it must refuse. Run by scripts/test.sh (`node --test tests/schema/`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import Ajv2020 from 'ajv/dist/2020.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

const schema = readJson(join(ROOT, 'schema/visualization_data.schema.json'));
// Strict mode catches unknown keywords and mistakes in the schema itself. Intended, so allowed:
// union types ("type": ["string", "null"]), conditions that require a key without redeclaring
// it ({"if": {"required": ["series"]}}) and open tuples (a table row's first cell, then values).
const ajv = new Ajv2020({
  strict: true,
  strictRequired: false,
  strictTuples: false,
  allowUnionTypes: true,
  allErrors: true,
});
const validate = ajv.compile(schema);

const errorsOf = () => ajv.errorsText(validate.errors, { dataVar: 'visualization_data' });

const TYPES = [
  'bar', 'grouped_bar', 'stacked_bar', 'timeseries', 'pie', 'choropleth', 'scatter',
  'boxplot', 'heatmap', 'timeline', 'waterfall', 'histogram', 'table',
  'area_timeseries', 'stacked_area_timeseries', 'treemap', 'top_level_metric', 'map', 'bubble_map',
];

test('the schema is draft 2020-12 and names the 19 card types', () => {
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  const types = schema.$defs.vizConfig.properties.viz_component_type.enum;
  assert.deepEqual(types.filter((t) => t !== null), TYPES);
});

test('every field of the schema has a description', () => {
  const defOf = (ref) => schema.$defs[ref.replace('#/$defs/', '')];
  const described = (node) =>
    (typeof node.description === 'string' && node.description !== '') ||
    (typeof node.$ref === 'string' && described(defOf(node.$ref) ?? {}));
  const missing = [];
  const walk = (node, path) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}/${i}`));
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node.properties ?? {})) {
      if (!described(value)) missing.push(`${path}/properties/${key}`);
    }
    for (const [key, value] of Object.entries(node)) {
      // Conditions select a rule; they declare no field.
      if (key !== 'if') walk(value, `${path}/${key}`);
    }
  };
  walk(schema, '#');
  for (const [name, def] of Object.entries(schema.$defs)) {
    if (!described(def)) missing.push(`#/$defs/${name}`);
  }
  assert.deepEqual(missing, []);
});

const exampleDir = join(ROOT, 'docs/examples');
const examples = readdirSync(exampleDir).filter((name) => name.endsWith('.json')).sort();

// One per card type, and the columnar shape of some (name_columns.json).
test('there is one example per card type', () => {
  const perType = examples.filter((name) => !name.endsWith('_columns.json'));
  assert.deepEqual(perType.map((name) => name.replace(/\.json$/, '')).sort(), [...TYPES].sort());
  assert.deepEqual(examples.filter((name) => name.endsWith('_columns.json')), ['scatter_columns.json', 'timeseries_columns.json']);
});

for (const name of examples) {
  test(`docs/examples/${name} is valid`, () => {
    const doc = readJson(join(exampleDir, name));
    assert.ok(validate(doc), errorsOf());
    // The same data is valid with the type left to inference.
    const { viz_component_type: _, ...config } = doc.viz_config;
    assert.ok(validate({ ...doc, viz_config: config }), errorsOf());
  });
}

// Documents the Rust reader accepts: the schema must accept them too.
const accepted = {
  'a normalized stack with gaps and a table': {
    viz_config: { title: 't', viz_component_type: 'stacked_area_timeseries', normalize: true },
    data: { columns: ['date', 'a', 'b'], rows: [['2024', 1, null], ['2025', 0, 2]] },
  },
  'a treemap of groups, labels of every kind and zeros': {
    viz_config: { title: 't', viz_component_type: 'treemap' },
    data: [{ x: 'a', y: 1, group: 'g' }, { x: 2, y: 0 }, { x: true, y: null, group: null }],
  },
  'a headline number of one value with its previous': {
    viz_config: { title: 't', viz_component_type: 'top_level_metric' },
    data: [{ value: 12.5, previous: 10 }],
  },
  'a headline number over labelled and dated points': {
    viz_config: { title: 't', viz_component_type: 'top_level_metric' },
    data: [{ x: 'Q1', y: 1 }, { x: 'Q2', y: null }, { x: 2025, y: 3 }],
  },
  'a map at the edges of the world': {
    viz_config: { title: 't', viz_component_type: 'map' },
    data: { series: [{ name: 'a', points: [{ lat: -90, lon: -180, label: 'x' }, { lat: 90, lon: 180, value: 3 }] }] },
  },
  'bubbles at coordinates and at region codes': {
    viz_config: { title: 't', viz_component_type: 'bubble_map' },
    data: [{ lat: 48.9, lon: 2.35, value: 2 }, { x: 'DE', y: 3 }, { x: 'CA', y: null }],
  },
  'a bar card of 200 series, right at the cap': {
    viz_config: { title: 't', viz_component_type: 'bar' },
    data: { series: Array.from({ length: 200 }, () => ({ points: [] })) },
  },
  'a table card of 200 columns, right at the cap': {
    viz_config: { title: 't', viz_component_type: 'table' },
    data: { columns: Array.from({ length: 200 }, (_, i) => `c${i}`), rows: [] },
  },
  'the spec shape, unknown keys anywhere': {
    viz_config: { title: 'Spec shape', unknown_key: [1, 2] },
    data: [{ x: 'a', y: 1, extra: {} }, { x: 'b', y: 2.5 }],
    extra: true,
  },
  'nulls for optional config and gaps': {
    viz_config: {
      title: '', subtitle: null, viz_component_type: null, x_label: null, y_label: null,
      units: null, source: null, dark_mode: null, colors: null,
    },
    data: [{ x: 'a', y: null }, { x: 'b' }],
  },
  'every config field': {
    viz_config: {
      title: 't', subtitle: 's', viz_component_type: 'bar', x_label: 'x', y_label: 'y',
      units: '%', source: 'src', dark_mode: true, colors: ['#fff', '#1F77b4'],
    },
    data: [{ x: 1, y: 2 }, { x: true, y: 3 }],
  },
  'dates of every form': {
    viz_config: { title: 't', viz_component_type: 'timeseries' },
    data: [
      { x: '2024', y: 1 }, { x: '2024-05', y: 1 }, { x: '2024-05-01', y: 1 },
      { x: '2024-05-01T12:00:00Z', y: 1 }, { x: '2024-05-01 12:00', y: 1 },
      { x: '2024-05-01t12:00:00.250+05:30', y: 1 }, { x: '2024-05-01T12:00-0330', y: 1 },
      { x: '2024-05-01T23:59:60z', y: 1 }, { x: 1999, y: 2 }, { x: 0, y: 3 },
    ],
  },
  'scatter x as numeric strings and gaps': {
    viz_config: { title: 't', viz_component_type: 'scatter' },
    data: [{ x: ' 1.5 ', y: 1 }, { x: '.5', y: 1 }, { x: '5.', y: 2 }, { x: '-1e3', y: 3 }, { x: null, y: 1 }, { y: 4 }],
  },
  'boxplot values with nulls, and y ignored beside values': {
    viz_config: { title: 't', viz_component_type: 'boxplot' },
    data: [{ x: 'a', values: [1, null, 3], y: 'ignored' }, { x: 'a', y: 4 }, { x: 'b', values: null, y: null }],
  },
  'series with numeric, null and missing names': {
    viz_config: { title: 't', viz_component_type: 'grouped_bar' },
    data: { series: [{ name: 2024, points: [] }, { name: null, points: [{ x: 'a', y: 1 }] }, { points: [] }] },
  },
  'a table card with any cells': {
    viz_config: { title: 't', viz_component_type: 'table' },
    data: { columns: ['a', 2], rows: [[{}, [1]], [null, true]] },
  },
  'a heatmap matrix': {
    viz_config: { title: 't', viz_component_type: 'heatmap' },
    data: { columns: ['day', '9:00', '10:00'], rows: [['Mon', 1, null], [null, 2, 3]] },
  },
  'a timeline table with its own column order': {
    viz_config: { title: 't', viz_component_type: 'timeline' },
    data: { columns: ['end', 'label', 'start'], rows: [['2024-02', 'a', '2024-01']] },
  },
  'a pie slice of -0': {
    viz_config: { title: 't', viz_component_type: 'pie' },
    data: [{ x: 'a', y: -0 }, { x: 'b', y: 1 }],
  },
  'series win over columns and rows': {
    viz_config: { title: 't' },
    data: { series: [], columns: 'ignored', rows: 'ignored' },
  },
  'one series as parallel arrays': {
    viz_config: { title: 't' },
    data: { x: [1, 2, null], y: [3, null, 4] },
  },
  'series of arrays and of points': {
    viz_config: { title: 't', viz_component_type: 'timeseries' },
    data: { series: [{ name: 'a', x: ['2024', '2025'], y: [1, 2] }, { points: [{ x: '2024', y: 3 }] }] },
  },
  'epoch milliseconds as timeseries points': {
    viz_config: { title: 't', viz_component_type: 'timeseries', x_time: 'epoch_ms' },
    data: [{ x: 1717200000000, y: 1 }],
  },
  'a timeseries shown as percent change since start': {
    viz_config: { title: 't', viz_component_type: 'timeseries', percent_change: true, units: '+%' },
    data: [{ x: '2024', y: 1 }, { x: '2025', y: 2 }],
  },
  'a timeseries with a right axis': {
    viz_config: {
      title: 't', viz_component_type: 'timeseries', units: '$', right_axis_series: ['b'],
      right_axis_label: 'Margin', right_axis_units: '%',
    },
    data: { series: [{ name: 'a', points: [{ x: '2024', y: 1e6 }] }, { name: 'b', points: [{ x: '2024', y: 12 }] }] },
  },
  'a card written in German': {
    viz_config: { title: 't', locale: 'de-DE' },
    data: [{ x: 'a', y: 1234.5 }],
  },
  'epoch milliseconds as timeline points': {
    viz_config: { title: 't', viz_component_type: 'timeline', x_time: 'epoch_ms' },
    data: [{ label: 'a', start: 0, end: 86400000 }],
  },
};

for (const [name, doc] of Object.entries(accepted)) {
  test(`accepted: ${name}`, () => {
    assert.ok(validate(doc), errorsOf());
  });
}

// Documents the Rust reader refuses, with the path its error names.
const refused = {
  'missing title': [{ viz_config: {}, data: [] }, '/viz_config'],
  'title a number': [{ viz_config: { title: 5 }, data: [] }, '/viz_config/title'],
  'title null': [{ viz_config: { title: null }, data: [] }, '/viz_config/title'],
  'data a string': [{ viz_config: { title: 't' }, data: 'abc' }, '/data'],
  'missing data': [{ viz_config: { title: 't' } }, ''],
  'missing viz_config': [{ data: [] }, ''],
  'not an object': [[], ''],
  'an unknown card type': [{ viz_config: { title: 't', viz_component_type: 'line' }, data: [] }, '/viz_config/viz_component_type'],
  'a colour name': [{ viz_config: { title: 't', colors: ['#fff', 'red'] }, data: [] }, '/viz_config/colors/1'],
  'dark_mode a string': [{ viz_config: { title: 't', dark_mode: 'yes' }, data: [] }, '/viz_config/dark_mode'],
  'an object without series, columns or rows': [{ viz_config: { title: 't' }, data: {} }, '/data'],
  'a table without rows': [{ viz_config: { title: 't' }, data: { columns: ['a'] } }, '/data'],
  'a point that is not an object': [{ viz_config: { title: 't' }, data: [1] }, '/data/0'],
  'series points missing': [{ viz_config: { title: 't' }, data: { series: [{ name: 'a' }] } }, '/data/series/0'],
  'a y that is not a number': [
    { viz_config: { title: 't', viz_component_type: 'bar' }, data: [{ x: 'a', y: 1 }, { x: 'd', y: 'abc' }] },
    '/data/1/y',
  ],
  'a bar point without x': [{ viz_config: { title: 't', viz_component_type: 'bar' }, data: [{ y: 1 }] }, '/data/0'],
  'a negative pie slice': [{ viz_config: { title: 't', viz_component_type: 'pie' }, data: [{ x: 'a', y: -1 }] }, '/data/0/y'],
  'a month name as a date': [
    { viz_config: { title: 't', viz_component_type: 'timeseries' }, data: { series: [{ name: 'b', points: [{ x: 'May', y: 2 }] }] } },
    '/data/series/0/points/0/x',
  ],
  'a date with month 13': [{ viz_config: { title: 't', viz_component_type: 'timeseries' }, data: [{ x: '2025-13-40', y: 1 }] }, '/data/0/x'],
  'a year beyond 9999': [{ viz_config: { title: 't', viz_component_type: 'timeseries' }, data: [{ x: 10000, y: 1 }] }, '/data/0/x'],
  'a timeline item without end': [
    { viz_config: { title: 't', viz_component_type: 'timeline' }, data: [{ label: 'a', start: '2024-01' }] },
    '/data/0',
  ],
  'a heatmap cell without y': [{ viz_config: { title: 't', viz_component_type: 'heatmap' }, data: [{ x: 'a', value: 1 }] }, '/data/0'],
  'a boxplot values string': [{ viz_config: { title: 't', viz_component_type: 'boxplot' }, data: [{ x: 'a', values: '1,2' }] }, '/data/0/values'],
  'a scatter x that is not numeric': [{ viz_config: { title: 't', viz_component_type: 'scatter' }, data: [{ x: 'abc', y: 1 }] }, '/data/0/x'],
  'a table cell that is not a number': [
    { viz_config: { title: 't', viz_component_type: 'bar' }, data: { columns: ['a', 'b'], rows: [['x', 1], ['y', 'n/a']] } },
    '/data/rows/1/1',
  ],
  // The caps of docs/data-format.md (Limits) that a schema can state.
  'a bar card of 201 series': [
    { viz_config: { title: 't', viz_component_type: 'bar' }, data: { series: Array.from({ length: 201 }, () => ({ points: [] })) } },
    '/data/series',
  ],
  'a timeseries table of 201 value columns': [
    { viz_config: { title: 't', viz_component_type: 'timeseries' }, data: { columns: Array.from({ length: 202 }, (_, i) => `c${i}`), rows: [] } },
    '/data/columns',
  ],
  'a timeline of 2,001 items': [
    {
      viz_config: { title: 't', viz_component_type: 'timeline' },
      data: Array.from({ length: 2001 }, (_, i) => ({ label: `r${i}`, start: '2024', end: '2025' })),
    },
    '/data',
  ],
  'a table card of 201 columns': [
    { viz_config: { title: 't', viz_component_type: 'table' }, data: { columns: Array.from({ length: 201 }, (_, i) => `c${i}`), rows: [] } },
    '/data/columns',
  ],
  'an x_time other than epoch_ms': [
    { viz_config: { title: 't', x_time: 'iso' }, data: [] },
    '/viz_config/x_time',
  ],
  'percent change on a bar card': [
    { viz_config: { title: 't', viz_component_type: 'bar', percent_change: true }, data: [] },
    '/viz_config/viz_component_type',
  ],
  'a right axis on a bar card': [
    { viz_config: { title: 't', viz_component_type: 'bar', right_axis_series: ['a'] }, data: [] },
    '/viz_config/viz_component_type',
  ],
  'right axis series that are not names': [
    { viz_config: { title: 't', right_axis_series: [3] }, data: [] },
    '/viz_config/right_axis_series/0',
  ],
  'a locale that is not a tag': [
    { viz_config: { title: 't', locale: 'German' }, data: [] },
    '/viz_config/locale',
  ],
  'percent change that is not a boolean': [
    { viz_config: { title: 't', percent_change: 'yes' }, data: [] },
    '/viz_config/percent_change',
  ],
  'a column that is not an array': [
    { viz_config: { title: 't' }, data: { x: 3, y: [1] } },
    '/data/x',
  ],
  'a series with neither points nor arrays': [
    { viz_config: { title: 't' }, data: { series: [{ name: 'a' }] } },
    '/data/series/0',
  ],
  'normalize on a bar card': [
    { viz_config: { title: 't', viz_component_type: 'bar', normalize: true }, data: [] },
    '/viz_config/viz_component_type',
  ],
  'a negative value in a stack': [
    { viz_config: { title: 't', viz_component_type: 'stacked_area_timeseries' }, data: [{ x: '2024', y: -1 }] },
    '/data/0/y',
  ],
  'a negative treemap cell': [
    { viz_config: { title: 't', viz_component_type: 'treemap' }, data: [{ x: 'a', y: -1 }] },
    '/data/0/y',
  ],
  'a headline number of two series': [
    { viz_config: { title: 't', viz_component_type: 'top_level_metric' }, data: { series: [{ points: [] }, { points: [] }] } },
    '/data/series',
  ],
  'a latitude past the pole': [
    { viz_config: { title: 't', viz_component_type: 'map' }, data: [{ lat: 91, lon: 0 }] },
    '/data/0/lat',
  ],
  'a map point without a longitude': [
    { viz_config: { title: 't', viz_component_type: 'map' }, data: [{ lat: 1 }] },
    '/data/0',
  ],
  'a negative bubble': [
    { viz_config: { title: 't', viz_component_type: 'bubble_map' }, data: [{ lat: 1, lon: 2, value: -3 }] },
    '/data/0/value',
  ],
  'a map of 10,001 places': [
    { viz_config: { title: 't', viz_component_type: 'map' }, data: Array.from({ length: 10001 }, () => ({ lat: 0, lon: 0 })) },
    '/data',
  ],
  'a table point of 201 keys': [
    { viz_config: { title: 't', viz_component_type: 'table' }, data: [Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`k${i}`, 1]))] },
    '/data/0',
  ],
};

for (const [name, [doc, path]] of Object.entries(refused)) {
  test(`refused: ${name}`, () => {
    assert.equal(validate(doc), false, `${name} should be refused`);
    const paths = validate.errors.map((error) => error.instancePath);
    assert.ok(paths.includes(path), `expected an error at "${path}", got ${JSON.stringify(paths)}`);
  });
}

// docs/data-format.md shows each example as in docs/examples, arrays possibly shortened.
test('the examples in docs/data-format.md are the files, shortened at most', () => {
  const page = readFileSync(join(ROOT, 'docs/data-format.md'), 'utf8');
  const shownPrefix = (shown, file, path) => {
    if (Array.isArray(shown)) {
      assert.ok(Array.isArray(file) && shown.length <= file.length, `${path}: not a prefix`);
      shown.forEach((item, i) => shownPrefix(item, file[i], `${path}[${i}]`));
    } else if (shown !== null && typeof shown === 'object') {
      assert.deepEqual(Object.keys(shown), Object.keys(file ?? {}), `${path}: keys`);
      for (const key of Object.keys(shown)) shownPrefix(shown[key], file[key], `${path}.${key}`);
    } else {
      assert.equal(shown, file, path);
    }
  };
  for (const type of TYPES) {
    const section = page.split(`\n### ${type}\n`)[1];
    assert.ok(section, `docs/data-format.md has a section "### ${type}"`);
    const block = section.match(/```json\n([\s\S]*?)\n```/);
    assert.ok(block, `a JSON block under "### ${type}"`);
    const shown = JSON.parse(block[1]);
    shownPrefix(shown, readJson(join(exampleDir, `${type}.json`)), type);
    assert.ok(validate(shown), `${type} on the page: ${errorsOf()}`);
  }
});
