// Writes crates/api/datasets/: the public datasets zdr-host searches as its
// built-in indexes (spec 4.3), converted from the npm package vega-datasets
// (a devDependency) to CSV, with their descriptions, licences and sources in
// datasets.json. Run it to change the list or take a newer package:
//
//   node scripts/gen-datasets.mjs
//
// The host carries the result (include_str!), not the package.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', 'node_modules', 'vega-datasets');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const datapackage = JSON.parse(readFileSync(join(root, 'datapackage.json'), 'utf8'));
const out = join(here, '..', 'crates', 'api', 'datasets');
mkdirSync(out, { recursive: true });

const MONTHS = { Jan: 1, Feb: 2, Mar: 3, Apr: 4, May: 5, Jun: 6, Jul: 7, Aug: 8, Sep: 9, Oct: 10, Nov: 11, Dec: 12 };
const csvCell = (v) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
const toCsv = (columns, rows) => [columns.join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\n') + '\n';
const lines = (file) => readFileSync(join(root, 'data', file), 'utf8').trim().split('\n').map((l) => l.split(','));

// Each dataset: its index name, a title and words a reader would search
// with, and its rows as columns the host reads (dates as ISO).
const DATASETS = [
  {
    id: 'stocks', index: 'markets', title: 'Monthly stock prices of five companies, 2000 to 2010',
    keywords: 'stock prices shares market companies Microsoft Amazon IBM Google Apple MSFT AMZN IBM GOOG AAPL',
    convert() {
      const [, ...rows] = lines('stocks.csv');
      return toCsv(['date', 'symbol', 'price'], rows.map(([symbol, date, price]) => {
        const [mon, , year] = date.split(' ');
        return [`${year}-${String(MONTHS[mon]).padStart(2, '0')}`, symbol, price];
      }));
    },
  },
  {
    id: 'gapminder', index: 'world', title: 'Life expectancy, population and fertility by country, 1955 to 2005',
    keywords: 'life expectancy population fertility babies per woman countries world demographics health',
    convert() {
      const rows = JSON.parse(readFileSync(join(root, 'data', 'gapminder.json'), 'utf8'));
      return toCsv(['year', 'country', 'population', 'life_expectancy', 'fertility'],
        rows.map((r) => [String(r.year), r.country, r.pop, r.life_expect, r.fertility]));
    },
  },
  {
    id: 'seattle-weather', index: 'weather', title: 'Daily weather in Seattle, 2012 to 2015',
    keywords: 'weather temperature precipitation rain wind Seattle daily climate',
    convert() {
      const [header, ...rows] = lines('seattle-weather.csv');
      return toCsv(header, rows);
    },
  },
  {
    id: 'iowa-electricity', index: 'energy', title: 'Electricity generated in Iowa by source, 2001 to 2017',
    keywords: 'electricity energy power generation renewables fossil fuels nuclear Iowa',
    convert() {
      const [, ...rows] = lines('iowa-electricity.csv');
      return toCsv(['year', 'source', 'net_generation'], rows.map(([year, source, value]) => [year.slice(0, 4), source, value]));
    },
  },
];

const meta = [];
for (const d of DATASETS) {
  const resource = datapackage.resources.find((r) => r.name === d.id) ?? {};
  writeFileSync(join(out, `${d.id}.csv`), d.convert());
  meta.push({
    id: d.id,
    index: d.index,
    title: d.title,
    description: (resource.description ?? d.title).replace(/\s+/g, ' ').trim(),
    keywords: d.keywords,
    license: resource.licenses?.map((l) => l.title).join('; ') ?? `${pkg.license} (vega-datasets ${pkg.version})`,
    sources: (resource.sources ?? []).map((s) => ({ title: s.title, url: s.path })),
  });
}
writeFileSync(join(out, 'datasets.json'), JSON.stringify({ package: `vega-datasets ${pkg.version}`, datasets: meta }, null, 2) + '\n');
console.log(`gen-datasets: ${meta.length} datasets from vega-datasets ${pkg.version} into ${out}`);
