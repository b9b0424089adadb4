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
    row: 'prices',
    aliases: { microsoft: 'symbol=MSFT', amazon: 'symbol=AMZN', google: 'symbol=GOOG', alphabet: 'symbol=GOOG', apple: 'symbol=AAPL', 'stock price': 'price', 'share price': 'price', stock: 'price', value: 'price', company: 'symbol', companies: 'symbol', ticker: 'symbol' },
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
    row: 'country-years',
    aliases: { lifespan: 'life_expectancy', longevity: 'life_expectancy', 'birth rate': 'fertility', 'babies per woman': 'fertility', 'children per woman': 'fertility', pop: 'population', people: 'population', inhabitants: 'population', nation: 'country', nations: 'country' },
    convert() {
      const rows = JSON.parse(readFileSync(join(root, 'data', 'gapminder.json'), 'utf8'));
      return toCsv(['year', 'country', 'population', 'life_expectancy', 'fertility'],
        rows.map((r) => [String(r.year), r.country, r.pop, r.life_expect, r.fertility]));
    },
  },
  {
    id: 'seattle-weather', index: 'weather', title: 'Daily weather in Seattle, 2012 to 2015',
    keywords: 'weather temperature precipitation rain wind Seattle daily climate',
    row: 'days',
    aliases: { rains: 'weather=rain', rainy: 'weather=rain', raining: 'weather=rain', sunny: 'weather=sun', snowy: 'weather=snow', snows: 'weather=snow', snowing: 'weather=snow', foggy: 'weather=fog', temperature: 'temp_max', temperatures: 'temp_max', 'max temperature': 'temp_max', 'maximum temperature': 'temp_max', 'high temperature': 'temp_max', 'highest temperature': 'temp_max', 'min temperature': 'temp_min', 'minimum temperature': 'temp_min', 'low temperature': 'temp_min', 'lowest temperature': 'temp_min', rainfall: 'precipitation', windy: 'wind', 'wind speed': 'wind' },
    convert() {
      const [header, ...rows] = lines('seattle-weather.csv');
      return toCsv(header, rows);
    },
  },
  {
    id: 'iowa-electricity', index: 'energy', title: 'Electricity generated in Iowa by source, 2001 to 2017',
    keywords: 'electricity energy power generation renewables fossil fuels nuclear Iowa',
    row: 'years',
    aliases: { electricity: 'net_generation', power: 'net_generation', generation: 'net_generation', generated: 'net_generation', energy: 'net_generation', nuclear: 'source=Nuclear Energy', renewable: 'source=Renewables', fossil: 'source=Fossil Fuels' },
    convert() {
      const [, ...rows] = lines('iowa-electricity.csv');
      return toCsv(['year', 'source', 'net_generation'], rows.map(([year, source, value]) => [year.slice(0, 4), source, value]));
    },
  },
  {
    id: 'cars', index: 'vehicles', title: 'Cars of 1970 to 1982: mileage, engine and origin',
    keywords: 'cars automobiles vehicles mileage fuel economy mpg horsepower engine cylinders displacement weight acceleration origin',
    row: 'cars',
    aliases: { hp: 'Horsepower', 'engine size': 'Displacement', mileage: 'Miles_per_Gallon', 'fuel economy': 'Miles_per_Gallon', 'gas mileage': 'Miles_per_Gallon', 'model year': 'Year', america: 'Origin=USA', american: 'Origin=USA', european: 'Origin=Europe', japanese: 'Origin=Japan' },
    convert() {
      const rows = JSON.parse(readFileSync(join(root, 'data', 'cars.json'), 'utf8'));
      const columns = ['Name', 'Miles_per_Gallon', 'Cylinders', 'Displacement', 'Horsepower', 'Weight_in_lbs', 'Acceleration', 'Year', 'Origin'];
      return toCsv(columns, rows.map((r) => columns.map((c) => (c === 'Year' ? r.Year.slice(0, 4) : r[c] ?? ''))));
    },
  },
  {
    id: 'movies', index: 'film', title: 'Films: box office gross, budgets and ratings',
    keywords: 'movies films cinema box office gross revenue budget ratings IMDB Rotten Tomatoes genre director distributor',
    row: 'movies',
    aliases: { gross: 'Worldwide Gross', grossing: 'Worldwide Gross', 'box office': 'Worldwide Gross', earnings: 'Worldwide Gross', revenue: 'Worldwide Gross', budget: 'Production Budget', cost: 'Production Budget', rating: 'IMDB Rating', score: 'IMDB Rating', votes: 'IMDB Votes', runtime: 'Running Time min', length: 'Running Time min', genre: 'Major Genre', year: 'Release Date', released: 'Release Date', 'rated': 'MPAA Rating' },
    convert() {
      const rows = JSON.parse(readFileSync(join(root, 'data', 'movies.json'), 'utf8'));
      const columns = ['Title', 'US Gross', 'Worldwide Gross', 'US DVD Sales', 'Production Budget', 'Release Date', 'MPAA Rating', 'Running Time min', 'Distributor', 'Source', 'Major Genre', 'Creative Type', 'Director', 'Rotten Tomatoes Rating', 'IMDB Rating', 'IMDB Votes'];
      const iso = (d) => {
        const [mon, day, year] = String(d ?? '').split(' ');
        return MONTHS[mon] && /^\d{4}$/.test(year) ? `${year}-${String(MONTHS[mon]).padStart(2, '0')}-${String(day).padStart(2, '0')}` : '';
      };
      return toCsv(columns, rows.map((r) => columns.map((c) => (c === 'Release Date' ? iso(r[c]) : r[c] ?? ''))));
    },
  },
  {
    id: 'football', index: 'sports', title: 'Football matches of five European leagues, 2013 to 2017',
    keywords: 'football soccer sports matches games goals scores teams leagues divisions home away draws wins',
    row: 'matches',
    // The package names the licence by its address only: OpenFootball's data are public domain (CC0 1.0).
    license: 'CC0 1.0 Universal, public domain (OpenFootball, https://github.com/openfootball/football.json#license)',
    aliases: { score: 'goals', scored: 'goals', league: 'division', team: 'home_team', draws: 'result=draw', draw: 'result=draw' },
    // Goals and the result are derived from the two scores, so that
    // "matches with more than 5 goals" and "how many draws" read.
    convert() {
      const rows = JSON.parse(readFileSync(join(root, 'data', 'football.json'), 'utf8'));
      return toCsv(['date', 'division', 'home_team', 'away_team', 'home_score', 'away_score', 'goals', 'result'],
        rows.map((r) => [r.date, r.division, r.home_team, r.away_team, r.home_score, r.away_score, r.home_score + r.away_score,
          r.home_score > r.away_score ? 'home win' : r.home_score < r.away_score ? 'away win' : 'draw']));
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
    license: d.license ?? resource.licenses?.map((l) => l.title ?? l.name).join('; ') ?? `${pkg.license} (vega-datasets ${pkg.version})`,
    sources: (resource.sources ?? []).map((s) => ({ title: s.title, url: s.path })),
    row: d.row ?? 'rows',
    aliases: d.aliases ?? {},
  });
}
writeFileSync(join(out, 'datasets.json'), JSON.stringify({ package: `vega-datasets ${pkg.version}`, datasets: meta }, null, 2) + '\n');
console.log(`gen-datasets: ${meta.length} datasets from vega-datasets ${pkg.version} into ${out}`);

// The query corpus's sales table (crates/host/tests/corpus/sales.csv): no
// public table has the shape of the demo's sales CSV, so it is made here,
// the same every run (a fixed linear congruential sequence), and given to
// the public domain (CC0 1.0) with the project.
{
  let seed = 20241;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const regions = { North: 1.2, South: 0.9, East: 1.0, West: 0.7 };
  const products = { Laptop: 900, Phone: 600, Tablet: 400, Monitor: 250, Headphones: 80 };
  const rows = [];
  for (let month = 0; month < 24; month++) {
    const when = `${2023 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`;
    for (const [region, weight] of Object.entries(regions)) {
      for (const [product, price] of Object.entries(products)) {
        const units = Math.round((20 + 30 * next()) * weight * (1 + month / 40));
        rows.push([when, region, product, units, Math.round(units * price * (0.9 + 0.2 * next()))]);
      }
    }
  }
  const corpus = join(here, '..', 'crates', 'host', 'tests', 'corpus');
  mkdirSync(corpus, { recursive: true });
  writeFileSync(join(corpus, 'sales.csv'), toCsv(['month', 'region', 'product', 'units', 'sales'], rows));
}

// Two tables the rules were never tuned on (crates/host/tests/corpus/,
// tests/questions.rs reads them as "unseen"): Palmer penguins (CC0 1.0,
// from vega-datasets) and a staff list made here (CC0 1.0).
{
  const corpus = join(here, '..', 'crates', 'host', 'tests', 'corpus');
  const penguins = JSON.parse(readFileSync(join(root, 'data', 'penguins.json'), 'utf8'));
  const columns = ['Species', 'Island', 'Beak Length (mm)', 'Beak Depth (mm)', 'Flipper Length (mm)', 'Body Mass (g)', 'Sex'];
  writeFileSync(join(corpus, 'penguins.csv'), toCsv(columns, penguins.map((r) => columns.map((c) => r[c] ?? ''))));
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const departments = { Engineering: 95000, Sales: 62000, Marketing: 68000, Support: 48000, Finance: 80000 };
  const cities = ['London', 'Berlin', 'Paris', 'Madrid'];
  const first = ['Ada', 'Ben', 'Chloe', 'Dev', 'Eva', 'Finn', 'Grace', 'Hugo', 'Iris', 'Jon', 'Kai', 'Lena', 'Milo', 'Nora', 'Omar', 'Pia', 'Quinn', 'Rosa', 'Sam', 'Tara'];
  const rows = [];
  for (let i = 0; i < 120; i++) {
    const [department, base] = Object.entries(departments)[Math.floor(next() * 5)];
    const year = 2010 + Math.floor(next() * 15);
    const age = 22 + Math.floor(next() * 40);
    rows.push([`${first[i % 20]} ${String.fromCharCode(65 + Math.floor(i / 20))}.`, department, cities[Math.floor(next() * 4)],
      `${year}-${String(1 + Math.floor(next() * 12)).padStart(2, '0')}-01`, Math.round(base * (0.8 + 0.5 * next()) + (age - 22) * 600),
      age, (2 + Math.round(next() * 30) / 10).toFixed(1)]);
  }
  writeFileSync(join(corpus, 'employees.csv'), toCsv(['name', 'department', 'city', 'hire_date', 'salary', 'age', 'performance_score'], rows));
}

// A second round of unseen tables (tests/corpus/unseen-2.txt): natural
// disasters' deaths by type and year (Our World in Data, CC BY 4.0; EM-DAT
// terms), US employment by sector and month, and barley yields by site
// and variety (vega-datasets).
{
  const corpus = join(here, '..', 'crates', 'host', 'tests', 'corpus');
  writeFileSync(join(corpus, 'disasters.csv'), readFileSync(join(root, 'data', 'disasters.csv'), 'utf8'));
  const [header, ...rows] = lines('us-employment.csv');
  const keep = ['month', 'nonfarm', 'construction', 'manufacturing', 'retail_trade', 'information', 'government', 'leisure_and_hospitality', 'nonfarm_change'];
  const at = keep.map((k) => header.indexOf(k));
  writeFileSync(join(corpus, 'us-employment.csv'), toCsv(keep, rows.map((r) => at.map((i) => (i === 0 ? r[i].slice(0, 7) : r[i])))));
  const barley = JSON.parse(readFileSync(join(root, 'data', 'barley.json'), 'utf8'));
  writeFileSync(join(corpus, 'barley.csv'), toCsv(['year', 'site', 'variety', 'yield'], barley.map((r) => [r.year, r.site, r.variety, r.yield])));
}

// A third round, run once on the final rules and not tuned on
// (tests/corpus/unseen-3.txt): US unemployment by industry and month and
// the 1992 Los Angeles riots' deaths (vega-datasets), as the package has them.
{
  const corpus = join(here, '..', 'crates', 'host', 'tests', 'corpus');
  const jobs = JSON.parse(readFileSync(join(root, 'data', 'unemployment-across-industries.json'), 'utf8'));
  writeFileSync(join(corpus, 'unemployment.csv'), toCsv(['series', 'year', 'month', 'count', 'rate', 'date'],
    jobs.map((r) => [r.series, r.year, r.month, r.count, r.rate, r.date.slice(0, 10)])));
  writeFileSync(join(corpus, 'la-riots.csv'), readFileSync(join(root, 'data', 'la-riots.csv'), 'utf8'));
}
