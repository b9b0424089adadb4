// Converts the world-atlas and us-atlas TopoJSON boundaries into the compact
// binary atlases that zdr-chart embeds (crates/chart/src/geo.rs).
//
//   mkdir -p /tmp/geo && cd /tmp/geo && npm init -y \
//     && npm i world-atlas@2.0.2 us-atlas@3.0.1 topojson-client@3
//   node scripts/geo/convert.mjs /tmp/geo/node_modules [output-dir]
//
// Inputs: world-atlas@2.0.2 countries-110m.json (lon/lat, numeric ISO 3166-1
// ids) and us-atlas@3.0.1 states-albers-10m.json (already projected with
// Albers USA into a 975x610 viewport, ids are 2-digit state FIPS codes).
// Outputs: <output-dir>/world.bin and <output-dir>/us-states.bin; the output
// directory defaults to crates/chart/geo next to this script's repository.
// The conversion is deterministic: the same inputs give the same bytes.
//
// Processing
//   1. The arcs of the topology are decoded to absolute coordinates and put
//      into the atlas grid (world: Equal Earth projection, written out below,
//      scaled so the whole globe is 1000 atlas units wide; US: the Albers
//      coordinates unchanged). Grid = atlas units x divisor (2.4 steps per
//      unit, 0.417 unit per step).
//      World arcs that jump across the antimeridian get the crossing points
//      (+-180 degrees) inserted; after step 3 a ring crossing twice (Fiji,
//      Chukotka) is split into its two sides, each closed along the map's
//      edge. Antarctica, crossing once around the pole, stays whole.
//   2. Every arc is simplified on its own onto the integer grid
//      (simplifyToGrid: the fewest rounded source points whose straight
//      joins keep every source point within the tolerance), with the tolerance of
//      half a CSS pixel at a 1,600 px wide frame; every source point is then
//      within the tolerance of the output, which is measured and enforced.
//      Shared borders are arcs, so neighbours stay seamless.
//   3. Polygons are rebuilt with topojson-client. Rings with fewer than three
//      distinct points after simplification are dropped (a polygon whose
//      exterior ring is dropped is dropped with its holes). Natural Earth's
//      "N. Cyprus" and "Somaliland" (no ISO code) are merged into Cyprus and
//      Somalia with topojson.merge, so ISO-coded data colours the whole
//      internationally recognised territory. Kosovo keeps its user-assigned
//      codes XK / XKX and the user-assigned numeric id 900 (not ISO).
//   4. The final rings are cut back into shared arcs (extractArcs) and
//      written in ascending region id order.
//
// Byte format version 2: see crates/chart/geo/README.md (the decoder is
// crates/chart/src/geo/decode.rs).

import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

const nodeModules = process.argv[2];
if (!nodeModules) {
  console.error('usage: node scripts/geo/convert.mjs <node_modules folder> [output dir]');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(process.argv[3] ?? join(here, '..', '..', 'crates', 'chart', 'geo'));
const require = createRequire(join(resolve(nodeModules), 'noop.js'));
const topojson = require('topojson-client');

const readJson = (pkg, file) => JSON.parse(readFileSync(join(resolve(nodeModules), pkg, file), 'utf8'));
const pkgVersion = (pkg) => readJson(pkg, 'package.json').version;
for (const [pkg, want] of [['world-atlas', '2.0.2'], ['us-atlas', '3.0.1']]) {
  const got = pkgVersion(pkg);
  if (got !== want) throw new Error(`${pkg}: expected version ${want}, found ${got}`);
}

const VERSION = 3;
// Half a CSS pixel when the map fills the largest frame, 1,600 px wide: the
// world is 1000 units wide, the US 1033 (with the western Aleutians). The
// grid has 24 steps per 10 units (0.417 unit; rounding moves a point by at
// most 0.295 unit, inside the tolerance). The source points are sparse for
// this tolerance, so few can be dropped and the grid decides the size: it
// is about the coarsest the tolerance allows, chosen by measurement (1/3
// unit gave 18.7 KB gzip, 0.4 unit 18.0 KB, 0.417 unit 17.9 KB; 0.435 unit
// saves 0.15 KB more but puts the US frame's edges (975, 610) off the grid).
const GRID_PER_10 = 24;
const WORLD = { divisor: GRID_PER_10 / 10, tolerance: (0.5 * 1000) / 1600 };
const US = { divisor: GRID_PER_10 / 10, tolerance: (0.5 * 1033) / 1600 };

// ---------------------------------------------------------------------------
// Code tables

// [ISO 3166-1 numeric, alpha-2, alpha-3, English name, ...aliases] for every
// country in countries-110m.json. Natural Earth's own (abbreviated) name is
// added as an alias when it differs.
const COUNTRIES = [
  [4, 'AF', 'AFG', 'Afghanistan'],
  [8, 'AL', 'ALB', 'Albania'],
  [10, 'AQ', 'ATA', 'Antarctica'],
  [12, 'DZ', 'DZA', 'Algeria'],
  [24, 'AO', 'AGO', 'Angola'],
  [31, 'AZ', 'AZE', 'Azerbaijan'],
  [32, 'AR', 'ARG', 'Argentina'],
  [36, 'AU', 'AUS', 'Australia'],
  [40, 'AT', 'AUT', 'Austria'],
  [44, 'BS', 'BHS', 'Bahamas', 'The Bahamas'],
  [50, 'BD', 'BGD', 'Bangladesh'],
  [51, 'AM', 'ARM', 'Armenia'],
  [56, 'BE', 'BEL', 'Belgium'],
  [64, 'BT', 'BTN', 'Bhutan'],
  [68, 'BO', 'BOL', 'Bolivia', 'Bolivia, Plurinational State of', 'Plurinational State of Bolivia'],
  [70, 'BA', 'BIH', 'Bosnia and Herzegovina', 'Bosnia & Herzegovina'],
  [72, 'BW', 'BWA', 'Botswana'],
  [76, 'BR', 'BRA', 'Brazil'],
  [84, 'BZ', 'BLZ', 'Belize'],
  [90, 'SB', 'SLB', 'Solomon Islands'],
  [96, 'BN', 'BRN', 'Brunei', 'Brunei Darussalam'],
  [100, 'BG', 'BGR', 'Bulgaria'],
  [104, 'MM', 'MMR', 'Myanmar', 'Burma'],
  [108, 'BI', 'BDI', 'Burundi'],
  [112, 'BY', 'BLR', 'Belarus'],
  [116, 'KH', 'KHM', 'Cambodia'],
  [120, 'CM', 'CMR', 'Cameroon'],
  [124, 'CA', 'CAN', 'Canada'],
  [140, 'CF', 'CAF', 'Central African Republic'],
  [144, 'LK', 'LKA', 'Sri Lanka'],
  [148, 'TD', 'TCD', 'Chad'],
  [152, 'CL', 'CHL', 'Chile'],
  [156, 'CN', 'CHN', 'China', "People's Republic of China"],
  [158, 'TW', 'TWN', 'Taiwan'],
  [170, 'CO', 'COL', 'Colombia'],
  [178, 'CG', 'COG', 'Republic of the Congo', 'Congo', 'Congo-Brazzaville'],
  [180, 'CD', 'COD', 'Democratic Republic of the Congo', 'DR Congo', 'DRC',
    'Congo, Democratic Republic of the', 'Congo-Kinshasa'],
  [188, 'CR', 'CRI', 'Costa Rica'],
  [191, 'HR', 'HRV', 'Croatia'],
  [192, 'CU', 'CUB', 'Cuba'],
  [196, 'CY', 'CYP', 'Cyprus'],
  [203, 'CZ', 'CZE', 'Czechia', 'Czech Republic'],
  [204, 'BJ', 'BEN', 'Benin'],
  [208, 'DK', 'DNK', 'Denmark'],
  [214, 'DO', 'DOM', 'Dominican Republic'],
  [218, 'EC', 'ECU', 'Ecuador'],
  [222, 'SV', 'SLV', 'El Salvador'],
  [226, 'GQ', 'GNQ', 'Equatorial Guinea'],
  [231, 'ET', 'ETH', 'Ethiopia'],
  [232, 'ER', 'ERI', 'Eritrea'],
  [233, 'EE', 'EST', 'Estonia'],
  [238, 'FK', 'FLK', 'Falkland Islands', 'Falkland Islands (Malvinas)'],
  [242, 'FJ', 'FJI', 'Fiji'],
  [246, 'FI', 'FIN', 'Finland'],
  [250, 'FR', 'FRA', 'France'],
  [260, 'TF', 'ATF', 'French Southern and Antarctic Lands', 'French Southern Territories'],
  [262, 'DJ', 'DJI', 'Djibouti'],
  [266, 'GA', 'GAB', 'Gabon'],
  [268, 'GE', 'GEO', 'Georgia'],
  [270, 'GM', 'GMB', 'Gambia', 'The Gambia'],
  [275, 'PS', 'PSE', 'Palestine', 'State of Palestine'],
  [276, 'DE', 'DEU', 'Germany'],
  [288, 'GH', 'GHA', 'Ghana'],
  [300, 'GR', 'GRC', 'Greece'],
  [304, 'GL', 'GRL', 'Greenland'],
  [320, 'GT', 'GTM', 'Guatemala'],
  [324, 'GN', 'GIN', 'Guinea'],
  [328, 'GY', 'GUY', 'Guyana'],
  [332, 'HT', 'HTI', 'Haiti'],
  [340, 'HN', 'HND', 'Honduras'],
  [348, 'HU', 'HUN', 'Hungary'],
  [352, 'IS', 'ISL', 'Iceland'],
  [356, 'IN', 'IND', 'India'],
  [360, 'ID', 'IDN', 'Indonesia'],
  [364, 'IR', 'IRN', 'Iran', 'Iran, Islamic Republic of', 'Islamic Republic of Iran'],
  [368, 'IQ', 'IRQ', 'Iraq'],
  [372, 'IE', 'IRL', 'Ireland'],
  [376, 'IL', 'ISR', 'Israel'],
  [380, 'IT', 'ITA', 'Italy'],
  [384, 'CI', 'CIV', "Côte d'Ivoire", 'Ivory Coast'],
  [388, 'JM', 'JAM', 'Jamaica'],
  [392, 'JP', 'JPN', 'Japan'],
  [398, 'KZ', 'KAZ', 'Kazakhstan'],
  [400, 'JO', 'JOR', 'Jordan'],
  [404, 'KE', 'KEN', 'Kenya'],
  [408, 'KP', 'PRK', 'North Korea', "Democratic People's Republic of Korea",
    "Korea, Democratic People's Republic of"],
  [410, 'KR', 'KOR', 'South Korea', 'Republic of Korea', 'Korea, Republic of', 'Korea'],
  [414, 'KW', 'KWT', 'Kuwait'],
  [417, 'KG', 'KGZ', 'Kyrgyzstan', 'Kyrgyz Republic'],
  [418, 'LA', 'LAO', 'Laos', "Lao People's Democratic Republic", 'Lao PDR'],
  [422, 'LB', 'LBN', 'Lebanon'],
  [426, 'LS', 'LSO', 'Lesotho'],
  [428, 'LV', 'LVA', 'Latvia'],
  [430, 'LR', 'LBR', 'Liberia'],
  [434, 'LY', 'LBY', 'Libya'],
  [440, 'LT', 'LTU', 'Lithuania'],
  [442, 'LU', 'LUX', 'Luxembourg'],
  [450, 'MG', 'MDG', 'Madagascar'],
  [454, 'MW', 'MWI', 'Malawi'],
  [458, 'MY', 'MYS', 'Malaysia'],
  [466, 'ML', 'MLI', 'Mali'],
  [478, 'MR', 'MRT', 'Mauritania'],
  [484, 'MX', 'MEX', 'Mexico'],
  [496, 'MN', 'MNG', 'Mongolia'],
  [498, 'MD', 'MDA', 'Moldova', 'Republic of Moldova', 'Moldova, Republic of'],
  [499, 'ME', 'MNE', 'Montenegro'],
  [504, 'MA', 'MAR', 'Morocco'],
  [508, 'MZ', 'MOZ', 'Mozambique'],
  [512, 'OM', 'OMN', 'Oman'],
  [516, 'NA', 'NAM', 'Namibia'],
  [524, 'NP', 'NPL', 'Nepal'],
  [528, 'NL', 'NLD', 'Netherlands', 'The Netherlands'],
  [540, 'NC', 'NCL', 'New Caledonia'],
  [548, 'VU', 'VUT', 'Vanuatu'],
  [554, 'NZ', 'NZL', 'New Zealand'],
  [558, 'NI', 'NIC', 'Nicaragua'],
  [562, 'NE', 'NER', 'Niger'],
  [566, 'NG', 'NGA', 'Nigeria'],
  [578, 'NO', 'NOR', 'Norway'],
  [586, 'PK', 'PAK', 'Pakistan'],
  [591, 'PA', 'PAN', 'Panama'],
  [598, 'PG', 'PNG', 'Papua New Guinea'],
  [600, 'PY', 'PRY', 'Paraguay'],
  [604, 'PE', 'PER', 'Peru'],
  [608, 'PH', 'PHL', 'Philippines'],
  [616, 'PL', 'POL', 'Poland'],
  [620, 'PT', 'PRT', 'Portugal'],
  [624, 'GW', 'GNB', 'Guinea-Bissau'],
  [626, 'TL', 'TLS', 'Timor-Leste', 'East Timor'],
  [630, 'PR', 'PRI', 'Puerto Rico'],
  [634, 'QA', 'QAT', 'Qatar'],
  [642, 'RO', 'ROU', 'Romania'],
  [643, 'RU', 'RUS', 'Russia', 'Russian Federation'],
  [646, 'RW', 'RWA', 'Rwanda'],
  [682, 'SA', 'SAU', 'Saudi Arabia'],
  [686, 'SN', 'SEN', 'Senegal'],
  [688, 'RS', 'SRB', 'Serbia'],
  [694, 'SL', 'SLE', 'Sierra Leone'],
  [703, 'SK', 'SVK', 'Slovakia', 'Slovak Republic'],
  [704, 'VN', 'VNM', 'Vietnam', 'Viet Nam'],
  [705, 'SI', 'SVN', 'Slovenia'],
  [706, 'SO', 'SOM', 'Somalia'],
  [710, 'ZA', 'ZAF', 'South Africa'],
  [716, 'ZW', 'ZWE', 'Zimbabwe'],
  [724, 'ES', 'ESP', 'Spain'],
  [728, 'SS', 'SSD', 'South Sudan'],
  [729, 'SD', 'SDN', 'Sudan'],
  [732, 'EH', 'ESH', 'Western Sahara'],
  [740, 'SR', 'SUR', 'Suriname'],
  [748, 'SZ', 'SWZ', 'Eswatini', 'Swaziland'],
  [752, 'SE', 'SWE', 'Sweden'],
  [756, 'CH', 'CHE', 'Switzerland'],
  [760, 'SY', 'SYR', 'Syria', 'Syrian Arab Republic'],
  [762, 'TJ', 'TJK', 'Tajikistan'],
  [764, 'TH', 'THA', 'Thailand'],
  [768, 'TG', 'TGO', 'Togo'],
  [780, 'TT', 'TTO', 'Trinidad and Tobago'],
  [784, 'AE', 'ARE', 'United Arab Emirates', 'UAE'],
  [788, 'TN', 'TUN', 'Tunisia'],
  [792, 'TR', 'TUR', 'Turkey', 'Türkiye'],
  [795, 'TM', 'TKM', 'Turkmenistan'],
  [800, 'UG', 'UGA', 'Uganda'],
  [804, 'UA', 'UKR', 'Ukraine'],
  [807, 'MK', 'MKD', 'North Macedonia', 'Macedonia'],
  [818, 'EG', 'EGY', 'Egypt'],
  [826, 'GB', 'GBR', 'United Kingdom', 'UK', 'Great Britain',
    'United Kingdom of Great Britain and Northern Ireland'],
  [834, 'TZ', 'TZA', 'Tanzania', 'United Republic of Tanzania'],
  [840, 'US', 'USA', 'United States', 'United States of America'],
  [854, 'BF', 'BFA', 'Burkina Faso'],
  [858, 'UY', 'URY', 'Uruguay'],
  [860, 'UZ', 'UZB', 'Uzbekistan'],
  [862, 'VE', 'VEN', 'Venezuela', 'Venezuela, Bolivarian Republic of'],
  [887, 'YE', 'YEM', 'Yemen'],
  [894, 'ZM', 'ZMB', 'Zambia'],
  // Not ISO 3166-1: user-assigned codes in wide use (EU, IMF, World Bank).
  [900, 'XK', 'XKX', 'Kosovo'],
];

// Natural Earth features without an ISO code, merged into a country.
const MERGE_INTO = { 'N. Cyprus': 196, Somaliland: 706 };
const KOSOVO_NAME = 'Kosovo';

// [FIPS, USPS code, name, ...aliases]: the 50 states, DC and Puerto Rico.
const STATES = [
  [1, 'AL', 'Alabama'], [2, 'AK', 'Alaska'], [4, 'AZ', 'Arizona'], [5, 'AR', 'Arkansas'],
  [6, 'CA', 'California'], [8, 'CO', 'Colorado'], [9, 'CT', 'Connecticut'],
  [10, 'DE', 'Delaware'], [11, 'DC', 'District of Columbia', 'Washington, D.C.', 'Washington DC'],
  [12, 'FL', 'Florida'], [13, 'GA', 'Georgia'], [15, 'HI', 'Hawaii'], [16, 'ID', 'Idaho'],
  [17, 'IL', 'Illinois'], [18, 'IN', 'Indiana'], [19, 'IA', 'Iowa'], [20, 'KS', 'Kansas'],
  [21, 'KY', 'Kentucky'], [22, 'LA', 'Louisiana'], [23, 'ME', 'Maine'], [24, 'MD', 'Maryland'],
  [25, 'MA', 'Massachusetts'], [26, 'MI', 'Michigan'], [27, 'MN', 'Minnesota'],
  [28, 'MS', 'Mississippi'], [29, 'MO', 'Missouri'], [30, 'MT', 'Montana'], [31, 'NE', 'Nebraska'],
  [32, 'NV', 'Nevada'], [33, 'NH', 'New Hampshire'], [34, 'NJ', 'New Jersey'],
  [35, 'NM', 'New Mexico'], [36, 'NY', 'New York'], [37, 'NC', 'North Carolina'],
  [38, 'ND', 'North Dakota'], [39, 'OH', 'Ohio'], [40, 'OK', 'Oklahoma'], [41, 'OR', 'Oregon'],
  [42, 'PA', 'Pennsylvania'], [44, 'RI', 'Rhode Island'], [45, 'SC', 'South Carolina'],
  [46, 'SD', 'South Dakota'], [47, 'TN', 'Tennessee'], [48, 'TX', 'Texas'], [49, 'UT', 'Utah'],
  [50, 'VT', 'Vermont'], [51, 'VA', 'Virginia'], [53, 'WA', 'Washington'],
  [54, 'WV', 'West Virginia'], [55, 'WI', 'Wisconsin'], [56, 'WY', 'Wyoming'],
  [72, 'PR', 'Puerto Rico'],
];

// ---------------------------------------------------------------------------
// Geometry

// Equal Earth (Šavrič, Patterson, Jenny 2018), unit sphere, y up.
const A1 = 1.340264, A2 = -0.081106, A3 = 0.000893, A4 = 0.003796;
const M = Math.sqrt(3) / 2;
function equalEarth(lonDeg, latDeg) {
  const lambda = (Math.max(-180, Math.min(180, lonDeg)) * Math.PI) / 180;
  const phi = (Math.max(-90, Math.min(90, latDeg)) * Math.PI) / 180;
  const t = Math.asin(M * Math.sin(phi));
  const t2 = t * t;
  const t6 = t2 * t2 * t2;
  const x = (lambda * Math.cos(t)) / (M * (A1 + 3 * A2 * t2 + t6 * (7 * A3 + 9 * A4 * t2)));
  const y = t * (A1 + A2 * t2 + t6 * (A3 + A4 * t2));
  return [x, y];
}

// Squared distance from p to the segment a-b (to a if a == b).
function segDist2(p, a, b) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  const ex = a[0] + t * dx - p[0];
  const ey = a[1] + t * dy - p[1];
  return ex * ex + ey * ey;
}

// Lon/lat arcs: an edge that jumps across the antimeridian (|dlon| > 180)
// gets the two points where it meets the meridian inserted, one on each side
// (+-180, same latitude). Returns the points and the indices i of the jump
// edges i -> i + 1.
function cutAntimeridian(points) {
  const out = [];
  const jumps = [];
  for (const [i, p] of points.entries()) {
    const prev = points[i - 1];
    if (prev && Math.abs(p[0] - prev[0]) > 180) {
      const s1 = Math.sign(prev[0]);
      const s2 = Math.sign(p[0]);
      const lon2 = p[0] + 360 * s1; // p moved next to prev
      let lat;
      if (Math.abs(prev[0]) === 180) lat = prev[1];
      else if (Math.abs(p[0]) === 180) lat = p[1];
      else lat = prev[1] + ((180 * s1 - prev[0]) / (lon2 - prev[0])) * (p[1] - prev[1]);
      if (prev[0] !== 180 * s1 || prev[1] !== lat) out.push([180 * s1, lat]);
      jumps.push(out.length - 1);
      out.push([180 * s2, lat]);
      if (p[0] === 180 * s2 && p[1] === lat) continue;
    }
    out.push(p);
  }
  return { points: out, jumps };
}

// Simplification onto the integer grid with the fewest points: the output
// is a subsequence of the source points, rounded to the grid, and a source
// point i may be joined straight to a later j only if every source point
// between them (at its exact projected position) lies within `tolerance` of
// the segment between the two rounded points. Among all such chains from the
// first to the last point, a shortest one is taken (breadth-first over the
// points, ties to the earliest predecessor, so the result is deterministic);
// Douglas-Peucker, which splits greedily, kept 3 to 4% more points here.
// Rounding is inside the tolerance, so every source point lies within it of
// the output. A segment may span at most SPAN source points (which bounds
// the work; longer straight runs simply keep a point every SPAN).
const SPAN = 96;
function simplifyToGrid(points, tolerance) {
  const n = points.length;
  const rounded = points.map(([x, y]) => [Math.round(x), Math.round(y)]);
  const tol2 = tolerance * tolerance;
  const hops = new Array(n).fill(Infinity);
  const from = new Array(n).fill(-1);
  hops[0] = 0;
  for (let i = 0; i < n - 1; i++) {
    if (hops[i] === Infinity) continue;
    for (let j = i + 1; j < n && j - i <= SPAN; j++) {
      let ok = true;
      for (let k = i + 1; k < j && ok; k++) ok = segDist2(points[k], rounded[i], rounded[j]) <= tol2;
      if (!ok) continue;
      if (hops[i] + 1 < hops[j]) {
        hops[j] = hops[i] + 1;
        from[j] = i;
      }
    }
  }
  const chain = [];
  for (let j = n - 1; j >= 0; j = from[j]) chain.push(j);
  chain.reverse();
  if (chain[0] !== 0) throw new Error('no chain through the arc');
  const out = [];
  for (const i of chain) {
    const q = rounded[i];
    const prev = out[out.length - 1];
    if (!prev || prev[0] !== q[0] || prev[1] !== q[1]) out.push(q);
  }
  return out;
}

// Largest distance from any of `points` to the polyline `line` (grid units).
function maxDistance(points, line) {
  let worst = 0;
  for (const p of points) {
    let best = Infinity;
    for (let i = 0; i + 1 < line.length; i++) best = Math.min(best, segDist2(p, line[i], line[i + 1]));
    if (line.length === 1) best = segDist2(p, line[0], line[0]);
    worst = Math.max(worst, best);
  }
  return Math.sqrt(worst);
}

// Returns a copy of the topology whose arcs are absolute, projected into the
// grid, simplified onto it (simplifyToGrid) and checked against the
// tolerance. With `antimeridian`, arcs are cut where they cross it and the
// runs between cuts are simplified separately, so the crossing points
// survive. `worst` receives the largest source-to-output distance seen.
function prepareTopology(topology, project, tolerance, antimeridian = false, worst = { d: 0 }) {
  const decode = topojson.transform(topology.transform);
  const arcs = topology.arcs.map((arc) => {
    const lonLat = arc.map((p, i) => decode(p, i));
    const { points, jumps } = antimeridian ? cutAntimeridian(lonLat) : { points: lonLat, jumps: [] };
    const projected = points.map(project);
    const out = [];
    let start = 0;
    for (const end of [...jumps, projected.length - 1]) {
      const run = projected.slice(start, end + 1);
      const simplified = simplifyToGrid(run, tolerance);
      const d = maxDistance(run, simplified);
      if (d > tolerance + 1e-9) throw new Error(`simplification exceeds the tolerance: ${d}`);
      worst.d = Math.max(worst.d, d);
      for (const q of simplified) {
        const prev = out[out.length - 1];
        if (!prev || prev[0] !== q[0] || prev[1] !== q[1]) out.push(q);
      }
      start = end + 1;
    }
    return out;
  });
  const copy = { ...topology, arcs };
  delete copy.transform;
  return copy;
}

// Splits a ring (grid space, open) that crosses the antimeridian twice into
// its two sides; each piece is closed along the map's edge. A ring crossing
// once (around a pole: Antarctica) stays whole.
function splitAtAntimeridian(ring, gridW) {
  const n = ring.length;
  const jumps = [];
  for (let i = 0; i < n; i++) {
    if (Math.abs(ring[(i + 1) % n][0] - ring[i][0]) > gridW / 2) jumps.push(i);
  }
  if (jumps.length < 2) return [ring];
  if (jumps.length !== 2) throw new Error(`ring crosses the antimeridian ${jumps.length} times`);
  const piece = (from, to) => {
    const out = [];
    for (let i = (from + 1) % n; ; i = (i + 1) % n) {
      out.push(ring[i]);
      if (i === to) return out;
    }
  };
  return [piece(jumps[0], jumps[1]), piece(jumps[1], jumps[0])];
}

// GeoJSON geometry -> [[ring, ...], ...] with open rings of >= 3 distinct
// points; degenerate rings are dropped (with their holes when exterior).
// With `gridW`, exteriors crossing the antimeridian are split in two.
function cleanPolygons(geometry, gridW = 0) {
  if (!geometry) return [];
  const polys = geometry.type === 'Polygon' ? [geometry.coordinates]
    : geometry.type === 'MultiPolygon' ? geometry.coordinates : [];
  const out = [];
  for (const poly of polys) {
    const rings = [];
    for (const [k, ring] of poly.entries()) {
      const r = [];
      for (const p of ring) {
        const prev = r[r.length - 1];
        if (!prev || prev[0] !== p[0] || prev[1] !== p[1]) r.push([p[0], p[1]]);
      }
      while (r.length > 1 && r[0][0] === r[r.length - 1][0] && r[0][1] === r[r.length - 1][1]) r.pop();
      if (r.length >= 3 && ringArea2(r) !== 0) rings.push(r);
      else if (k === 0) break; // exterior gone: drop the polygon
    }
    if (!rings.length) continue;
    const pieces = gridW ? splitAtAntimeridian(rings[0], gridW) : [rings[0]];
    if (pieces.length === 1) {
      out.push(rings);
    } else {
      if (rings.length > 1) throw new Error('a polygon with holes crosses the antimeridian');
      for (const piece of pieces) if (piece.length >= 3 && ringArea2(piece) !== 0) out.push([piece]);
    }
  }
  return out;
}
function ringArea2(r) {
  let a = 0;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) a += r[j][0] * r[i][1] - r[i][0] * r[j][1];
  return a;
}

// ---------------------------------------------------------------------------
// Shared arcs

// Cuts the final rings (open, integer grid points) back into arcs, as
// TopoJSON does: a point is a junction where rings meet with different
// neighbours, and every run between two junctions is an arc. Each arc is
// stored once; a ring is a list of arcs, each used forwards or backwards. A
// ring without a junction (an island, or an enclave and the hole around it)
// is one closed arc, started at its smallest point so that both rings find
// the same arc. Returns, per region, per polygon, per ring, a list of
// { arc, reversed } with arcs[i] = [points...] (closed arcs repeat the first
// point at the end).
function extractArcs(regions) {
  const key = (p) => p[0] * 65536 + p[1];
  const seen = new Map(); // point key -> { pairs: Set, count }
  for (const r of regions) for (const poly of r.polygons) for (const ring of poly) {
    const n = ring.length;
    const here = new Set();
    for (let i = 0; i < n; i++) {
      const k = key(ring[i]);
      const a = key(ring[(i + n - 1) % n]);
      const b = key(ring[(i + 1) % n]);
      const pair = a < b ? `${a},${b}` : `${b},${a}`;
      const e = seen.get(k) ?? { pairs: new Set(), count: 0, twice: false };
      e.pairs.add(pair);
      e.count += 1;
      if (here.has(k)) e.twice = true;
      here.add(k);
      seen.set(k, e);
    }
  }
  const isJunction = (p) => {
    const e = seen.get(key(p));
    return e.pairs.size > 1 || e.count > 2 || e.twice;
  };
  const arcs = [];
  const uses = [];
  const byKey = new Map(); // point-sequence key -> arc index
  const arcRef = (points) => {
    const fwd = points.map(key).join(' ');
    if (byKey.has(fwd)) return { arc: byKey.get(fwd), reversed: false };
    const rev = points.map(key).reverse().join(' ');
    if (byKey.has(rev)) return { arc: byKey.get(rev), reversed: true };
    byKey.set(fwd, arcs.length);
    arcs.push(points);
    uses.push(0);
    return { arc: arcs.length - 1, reversed: false };
  };
  const topology = regions.map((r) => r.polygons.map((poly) => poly.map((ring) => {
    const n = ring.length;
    const cuts = [];
    for (let i = 0; i < n; i++) if (isJunction(ring[i])) cuts.push(i);
    let pieces;
    if (!cuts.length) {
      let s = 0;
      for (let i = 1; i < n; i++) if (key(ring[i]) < key(ring[s])) s = i;
      const rotated = [...ring.slice(s), ...ring.slice(0, s)];
      pieces = [[...rotated, rotated[0]]];
    } else {
      pieces = cuts.map((c, j) => {
        const to = j + 1 < cuts.length ? cuts[j + 1] : cuts[0] + n;
        const piece = [];
        for (let i = c; i <= to; i++) piece.push(ring[i % n]);
        return piece;
      });
    }
    const refs = pieces.map(arcRef);
    for (const { arc } of refs) uses[arc] += 1;
    return refs;
  })));
  if (uses.some((u) => u > 2)) throw new Error('an arc is used by more than two rings');
  return { arcs, topology };
}

// ---------------------------------------------------------------------------
// Encoding

class Writer {
  constructor() { this.bytes = []; }
  u8(v) {
    if (!Number.isInteger(v) || v < 0 || v > 0xff) throw new Error(`u8 out of range: ${v}`);
    this.bytes.push(v);
  }
  u16(v) {
    if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new Error(`u16 out of range: ${v}`);
    this.bytes.push(v & 0xff, v >>> 8);
  }
  i16(v) {
    if (!Number.isInteger(v) || v < -0x8000 || v > 0x7fff) throw new Error(`i16 out of range: ${v}`);
    this.u16(v & 0xffff);
  }
  buffer() { return Buffer.from(this.bytes); }
}

// Adaptive binary range coder (the one of LZMA: 11-bit probabilities,
// adapting by 1/32 of the distance to certainty). Integers are binarised
// Elias-gamma style: the bit length n of v + 1 in unary, then the n bits
// below its leading one, every decision with its own adaptive probability
// per field kind, so the coder learns each field's distribution.
class RangeEncoder {
  constructor() {
    this.low = 0;
    this.range = 0xffffffff;
    this.cache = 0;
    this.cacheSize = 1;
    this.out = [];
    this.models = new Map();
    this.dx = this.previousDx = this.previousDy = 0;
    this.starting = false;
  }
  model(name) {
    if (!this.models.has(name)) this.models.set(name, new Uint16Array(MODEL_SIZE).fill(1024));
    return this.models.get(name);
  }
  shiftLow() {
    if (this.low < 0xff000000 || this.low >= 2 ** 32) {
      const carry = this.low >= 2 ** 32 ? 1 : 0;
      let temp = this.cache;
      do {
        this.out.push((temp + carry) & 0xff);
        temp = 0xff;
      } while (--this.cacheSize !== 0);
      this.cache = Math.floor((this.low % 2 ** 32) / 2 ** 24);
    }
    this.cacheSize++;
    this.low = (this.low % 2 ** 24) * 256;
  }
  bit(probs, i, bit) {
    const p = probs[i];
    const bound = (this.range >>> 11) * p;
    if (bit) {
      this.low += bound;
      this.range -= bound;
      probs[i] = p - (p >> 5);
    } else {
      this.range = bound;
      probs[i] = p + ((2048 - p) >> 5);
    }
    while (this.range < 2 ** 24) {
      this.range = (this.range * 256) % 2 ** 32;
      this.shiftLow();
    }
  }
  // Elias-gamma with adaptive bits: model[0..32] the unary length,
  // model[32 + 32 n + k] the k-th bit below the leading one of a length-n value.
  uint(name, v) {
    if (!Number.isInteger(v) || v < 0 || v >= 2 ** 31) throw new Error(`value out of range: ${v}`);
    const m = this.model(name);
    const x = v + 1;
    const n = Math.floor(Math.log2(x));
    for (let i = 0; i < n; i++) this.bit(m, i, 1);
    this.bit(m, n, 0);
    for (let k = n - 1; k >= 0; k--) this.bit(m, 32 + 32 * n + k, Math.floor(x / 2 ** k) & 1);
  }
  // A coordinate delta: magnitude, then sign. |dy| is modelled per bit
  // length of the |dx| before it (0..6: long steps in x go with short or
  // long ones in y), and each sign per sign of the previous delta on the same
  // axis (outlines keep their direction). Both contexts persist across rings.
  // A ring's start (relative to the previous ring's) has its own two
  // magnitude models.
  delta(axis, v) {
    const len = (a) => Math.min(Math.floor(Math.log2(Math.abs(a) + 1)), 6);
    this.uint(this.starting ? `start${axis}` : axis ? `dy${len(this.dx)}` : 'dx', Math.abs(v));
    const previous = axis ? this.previousDy : this.previousDx;
    if (v !== 0) this.bit(this.model(`s${axis}${Math.sign(previous)}`), 0, v < 0 ? 1 : 0);
    if (axis) this.previousDy = v;
    else this.previousDx = this.dx = v;
  }
  finish() {
    for (let i = 0; i < 5; i++) this.shiftLow();
    return this.out;
  }
}
const MODEL_SIZE = 32 + 32 * 32;

function encode({ kind, divisor, originX, originY, gridW, gridH, regions }) {
  const w = new Writer();
  for (const c of 'ZGEO') w.u8(c.charCodeAt(0));
  w.u8(VERSION);
  w.u8(kind);
  w.u16(Math.round(divisor * 10));
  w.i16(originX);
  w.i16(originY);
  w.u16(gridW);
  w.u16(gridH);
  w.u16(regions.length);
  // One line per region, fields separated by tabs: text compresses better
  // on its own than interleaved with lengths and coordinates.
  const lines = regions.map((r) => {
    const fields = [r.code2, r.code3, ...r.names];
    if (fields.some((f) => !f || /[\t\n]/.test(f))) throw new Error(`bad name field in ${r.names[0]}`);
    return `${fields.join('\t')}\n`;
  });
  const text = Buffer.from(lines.join(''), 'utf8');
  w.u16(text.length);
  for (const x of text) w.bytes.push(x);
  const { arcs, topology } = extractArcs(regions);
  const g = new RangeEncoder();
  const inGrid = ([x, y]) => x >= 0 && y >= 0 && x <= gridW && y <= gridH;
  const stored = new Set();
  let order = []; // arc index -> position in decoding order
  const posOf = new Map();
  let cursor = [0, 0];
  let current;
  const point = (p) => {
    if (!inGrid(p)) throw new Error('point outside the grid');
    g.delta(0, p[0] - current[0]);
    g.delta(1, p[1] - current[1]);
    current = p;
  };
  let previousId = 0;
  for (const [ri, r] of regions.entries()) {
    if (r.id <= previousId && ri > 0) throw new Error('region ids are not ascending');
    g.uint('id', r.id - previousId);
    previousId = r.id;
    g.uint('count', topology[ri].length);
    for (const poly of topology[ri]) {
      g.uint('count', poly.length);
      for (const refs of poly) {
        g.uint('count', refs.length);
        const pts = (ref) => (ref.reversed ? [...arcs[ref.arc]].reverse() : arcs[ref.arc]);
        const start = pts(refs[0])[0];
        current = cursor;
        // Ring starts jump across the map: their own models.
        g.starting = true;
        point(start);
        g.starting = false;
        for (const [j, ref] of refs.entries()) {
          const p = pts(ref);
          if (p[0][0] !== current[0] || p[0][1] !== current[1]) throw new Error('arcs of a ring do not join');
          if (!stored.has(ref.arc)) {
            // New arc: its points after the current one; the last arc of a
            // ring ends at the ring's start, which is not stored again.
            const last = j === refs.length - 1;
            const body = last ? p.slice(1, -1) : p.slice(1);
            if (!last && body.length === 0) throw new Error('empty arc');
            g.uint('tag', body.length * 2);
            for (const q of body) point(q);
            current = p[p.length - 1];
            stored.add(ref.arc);
            posOf.set(ref.arc, order.length);
            order.push(ref.arc);
            if (ref.reversed) throw new Error('a new arc is stored backwards');
          } else {
            const back = order.length - 1 - posOf.get(ref.arc);
            g.uint('tag', (((back << 1) | (ref.reversed ? 1 : 0)) << 1) | 1);
            current = p[p.length - 1];
          }
        }
        if (current[0] !== start[0] || current[1] !== start[1]) throw new Error('ring does not close');
        cursor = start;
      }
    }
  }
  for (const x of g.finish()) w.bytes.push(x);
  return { bytes: w.buffer(), arcs: arcs.length, arcPoints: arcs.reduce((a, b) => a + b.length, 0) };
}

const uniqueNames = (names) => {
  const seen = new Set();
  return names.filter((n) => {
    const k = n.toLowerCase();
    if (!n || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

const stats = (regions) => {
  let polys = 0, rings = 0, points = 0;
  for (const r of regions) {
    polys += r.polygons.length;
    for (const p of r.polygons) { rings += p.length; for (const ring of p) points += ring.length; }
  }
  return `${regions.length} regions, ${polys} polygons, ${rings} rings, ${points} points`;
};

// ---------------------------------------------------------------------------
// World

function buildWorld() {
  const topo = readJson('world-atlas', 'countries-110m.json');
  const WIDTH = 1000; // atlas units
  const xMax = Math.PI / (M * A1); // equalEarth(180, 0)[0]
  const yMax = equalEarth(0, 90)[1];
  const DIVISOR = WORLD.divisor;
  const scale = (WIDTH / (2 * xMax)) * DIVISOR; // grid units per projected unit
  const gridW = Math.round(2 * xMax * scale);
  const gridH = Math.round(2 * yMax * scale);
  const project = ([lon, lat]) => {
    const [x, y] = equalEarth(lon, lat);
    return [(x + xMax) * scale, (yMax - y) * scale];
  };
  const t = prepareTopology(topo, project, WORLD.tolerance * DIVISOR, true, worst.world);
  const byId = new Map(COUNTRIES.map(([id, c2, c3, ...names]) => [id, { id, c2, c3, names }]));
  const geoms = t.objects.countries.geometries;
  const groups = new Map(); // id -> geometries to merge
  const neNames = new Map();
  for (const g of geoms) {
    const neName = g.properties?.name ?? '';
    let id;
    if (g.id === undefined) {
      if (neName in MERGE_INTO) id = MERGE_INTO[neName];
      else if (neName === KOSOVO_NAME) id = 900;
      else throw new Error(`world: feature without id: ${neName}`);
    } else {
      id = Number(g.id);
    }
    if (!byId.has(id)) throw new Error(`world: no code table entry for id ${g.id} (${neName})`);
    if (!groups.has(id)) groups.set(id, []);
    groups.get(id).push(g);
    if (g.id !== undefined) neNames.set(id, neName);
  }
  const regions = [];
  for (const id of [...groups.keys()].sort((a, b) => a - b)) {
    const gs = groups.get(id);
    const geometry = gs.length === 1 ? topojson.feature(t, gs[0]).geometry : topojson.merge(t, gs);
    const e = byId.get(id);
    regions.push({
      id,
      code2: e.c2,
      code3: e.c3,
      names: uniqueNames([...e.names, neNames.get(id) ?? '']),
      polygons: cleanPolygons(geometry, gridW),
    });
  }
  return { kind: 0, divisor: DIVISOR, originX: 0, originY: 0, gridW, gridH, regions };
}

// ---------------------------------------------------------------------------
// US states

function buildUs() {
  const topo = readJson('us-atlas', 'states-albers-10m.json');
  // The viewport is 975x610; the western Aleutians reach x = -57.7, so the
  // grid starts at x = -58 to keep them.
  const DIVISOR = US.divisor;
  const originX = Math.floor(-58 * DIVISOR);
  const gridW = Math.ceil(975 * DIVISOR - originX);
  const gridH = Math.ceil(610 * DIVISOR);
  const project = ([x, y]) => [x * DIVISOR - originX, y * DIVISOR];
  const t = prepareTopology(topo, project, US.tolerance * DIVISOR, false, worst.us);
  const byFips = new Map(STATES.map(([fips, code, ...names]) => [fips, { code, names }]));
  const regions = [];
  const geoms = [...t.objects.states.geometries].sort((a, b) => Number(a.id) - Number(b.id));
  for (const g of geoms) {
    const fips = Number(g.id);
    const e = byFips.get(fips);
    if (!e) throw new Error(`us: unknown FIPS ${g.id}`);
    regions.push({
      id: fips,
      code2: e.code,
      code3: String(fips).padStart(2, '0'),
      names: uniqueNames([...e.names, g.properties?.name ?? '']),
      polygons: cleanPolygons(topojson.feature(t, g).geometry),
    });
  }
  return { kind: 1, divisor: DIVISOR, originX, originY: 0, gridW, gridH, regions };
}

// ---------------------------------------------------------------------------

const worst = { world: { d: 0 }, us: { d: 0 } };
mkdirSync(outDir, { recursive: true });
for (const [file, build, which] of [['world.bin', buildWorld, 'world'], ['us-states.bin', buildUs, 'us']]) {
  const atlas = build();
  const { bytes, arcs, arcPoints } = encode(atlas);
  writeFileSync(join(outDir, file), bytes);
  const sha = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const gz = gzipSync(bytes, { level: 9 }).length;
  const d = (worst[which].d / atlas.divisor).toFixed(3);
  console.log(`${file}: ${bytes.length} bytes (gzip ${gz}), ${stats(atlas.regions)}, ${arcs} arcs of ${arcPoints} points, farthest source point ${d} units, sha256 ${sha}...`);
}
