// Writes crates/chart/src/locale/cldr.rs: the number and date data of the
// locales viz_config.locale accepts, read from CLDR through Node's Intl
// (ICU's copy of CLDR; the version is written into the file). Run it when
// the list changes or to take a newer CLDR:
//
//   node scripts/gen-locales.mjs
//
// The engine carries the result, not this script: no Intl at run time, so
// the host's SVG and PNG and the page's canvas write the same text.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'ja-JP', 'zh-CN', 'hi-IN'];

// Tokens of a date pattern; every other character is written as it is.
const DAY = '\u0001';
const MONTH = '\u0002'; // the abbreviated name, as written in a date
const YEAR = '\u0004';
const SAMPLE = Date.UTC(2024, 2, 5); // 5 March 2024: every field tells apart

function fail(locale, what) {
  throw new Error(`${locale}: ${what}`);
}

function numbers(locale) {
  // Latin digits whatever the locale's default numbering system.
  const tag = `${locale}-u-nu-latn`;
  const parts = new Intl.NumberFormat(tag).formatToParts(1234567.5);
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? fail(locale, 'no decimal mark');
  const group = parts.find((p) => p.type === 'group')?.value ?? fail(locale, 'no grouping mark');
  const integers = parts.filter((p) => p.type === 'integer').map((p) => p.value.length);
  // 1,234,567 is [1, 3, 3]; India's 12,34,567 is [2, 2, 3].
  const secondary = integers.length > 2 ? integers.at(-2) : 3;
  const minimum = new Intl.NumberFormat(tag).format(1234).includes(group) ? 1 : 2;
  return { decimal, group, secondary, minimum };
}

// Compact forms from 10^3 to 10^14: where the divisor or the suffix changes,
// an entry "KKDDsuffix": from 10^KK on, divide by 10^DD and write the suffix
// (its spaces included) after the number.
function compact(locale) {
  const format = new Intl.NumberFormat(`${locale}-u-nu-latn`, { notation: 'compact', maximumFractionDigits: 0 });
  const entries = [];
  let last = '';
  for (let k = 3; k <= 14; k += 1) {
    const parts = format.formatToParts(10 ** k);
    const at = parts.findIndex((p) => p.type === 'compact');
    if (at < 0) continue; // written in full (German thousands, say)
    const first = parts.findIndex((p) => p.type === 'integer');
    if (first > at) fail(locale, `the compact form of 10^${k} comes before the number`);
    const digits = parts.filter((p) => p.type === 'integer' || p.type === 'group').map((p) => p.value).join('');
    const n = Number(digits.replace(/\D/g, ''));
    const divisor = k - Math.round(Math.log10(n));
    const suffix = parts.slice(parts.findLastIndex((p) => p.type === 'integer') + 1).map((p) => p.value).join('');
    if (/[,|]/.test(suffix)) fail(locale, `a separator in the suffix ${suffix}`);
    const entry = `${String(divisor).padStart(2, '0')}${suffix}`;
    if (entry !== last) entries.push(`${String(k).padStart(2, '0')}${entry}`);
    last = entry;
  }
  return entries.join(',');
}

// Where a currency symbol goes: "<" before the number, ">" after it, then
// what stands between them ("1,8 Mio. €", "R$ 3"); and what stands between
// a number and its percent sign ("45 %").
function signs(locale) {
  const tag = `${locale}-u-nu-latn`;
  const parts = new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR' }).formatToParts(1234.5);
  const currency = parts.findIndex((p) => p.type === 'currency');
  const number = parts.findIndex((p) => p.type === 'integer');
  const between = (a, b) => parts.slice(Math.min(a, b) + 1, Math.max(a, b)).filter((p) => p.type === 'literal').map((p) => p.value).join('');
  const place = currency < number ? `<${between(currency, number)}` : `>${between(parts.findLastIndex((p) => p.type === 'fraction'), currency)}`;
  const percent = new Intl.NumberFormat(tag, { style: 'percent' }).formatToParts(0.45);
  const space = percent.filter((p) => p.type === 'literal').map((p) => p.value).join('');
  if (percent.at(-1)?.type !== 'percentSign') fail(locale, 'the percent sign is not last');
  return { currency: place, percent: space };
}

function dates(locale) {
  const utc = (options) => new Intl.DateTimeFormat(`${locale}-u-nu-latn-ca-gregory`, { timeZone: 'UTC', ...options });
  const months = [];
  const alone = [];
  for (let m = 0; m < 12; m += 1) {
    const day = Date.UTC(2024, m, 5);
    const inDate = utc({ month: 'short', day: 'numeric' }).formatToParts(day).find((p) => p.type === 'month').value;
    months.push(inDate);
    alone.push(utc({ month: 'short' }).format(day));
  }
  for (const name of [...months, ...alone]) if (/[,|]/.test(name)) fail(locale, `a separator in the month ${name}`);
  const march = months[2];
  const pattern = (options) =>
    utc(options)
      .formatToParts(SAMPLE)
      .map(({ type, value }) => {
        if (type === 'day') return value === '5' ? DAY : fail(locale, `day ${value}`);
        if (type === 'year') return value === '2024' ? YEAR : fail(locale, `year ${value}`);
        if (type === 'month') {
          // Japanese and Chinese write the month as a number in a date: it
          // is then their "name" there (3月5日).
          return value === march ? MONTH : fail(locale, `month ${value} is not ${march}`);
        }
        if (type === 'literal') return value.includes('|') ? fail(locale, 'a | in a pattern') : value;
        return fail(locale, `a ${type} in a date`);
      })
      .join('');
  return {
    months: months.join(','),
    alone: alone.join(',') === months.join(',') ? '' : alone.join(','),
    year: pattern({ year: 'numeric' }),
    yearMonth: pattern({ year: 'numeric', month: 'short' }),
    monthDay: pattern({ month: 'short', day: 'numeric' }),
    date: pattern({ year: 'numeric', month: 'short', day: 'numeric' }),
  };
}

// Where the engine departs from CLDR, and why.
const OVERRIDES = {
  // Thousands as SI's lowercase k ("48.2k"), as the engine wrote them before
  // it had locales and as d3 and Vega-Lite do; CLDR writes "48.2K".
  'en-US': (record) => record.replace('0303K', '0303k'),
};

export function localeRecord(locale) {
  const n = numbers(locale);
  const d = dates(locale);
  const s = signs(locale);
  const record = [
    locale, n.decimal, n.group, n.secondary, n.minimum, compact(locale),
    d.months, d.alone, d.year, d.yearMonth, d.monthDay, d.date, s.currency, s.percent,
  ].join('|');
  return (OVERRIDES[locale] ?? ((r) => r))(record);
}

// A Rust string literal: ASCII kept, every other character escaped.
const rust = (text) =>
  `"${[...text]
    .map((c) => {
      const code = c.codePointAt(0);
      if (c === '"' || c === '\\') return `\\${c}`;
      return code >= 0x20 && code < 0x7f ? c : `\\u{${code.toString(16)}}`;
    })
    .join('')}"`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = new URL('../crates/chart/src/locale/cldr.rs', import.meta.url);
  const source = `//! Generated by \`node scripts/gen-locales.mjs\` from CLDR ${process.versions.cldr}
//! (ICU ${process.versions.icu}, through Node's Intl): do not edit.
//!
//! One record a locale, fields separated by \`|\`: tag, decimal mark,
//! grouping mark, the size of the groups after the first three (2 in
//! India), the fewest digits grouped (2: 1234 stays whole), the compact
//! forms ("KKDDsuffix": from 10^KK on, divided by 10^DD, with the suffix),
//! the months as written in a date, the months alone (empty: the same),
//! then the patterns of a year, a month of a year, a day of a month and a
//! whole date, where \\u{1} is the day, \\u{2} the month as written in a
//! date and \\u{4} the year; last where a currency symbol goes ("<" before
//! the number, ">" after it, then what stands between) and what stands
//! between a number and its percent sign.

pub(super) const RECORDS: [&str; ${LOCALES.length}] = [
${LOCALES.map((l) => `    ${rust(localeRecord(l))},`).join('\n')}
];
`;
  writeFileSync(out, source);
  console.log(`gen-locales: ${LOCALES.length} locales from CLDR ${process.versions.cldr} into ${fileURLToPath(out)}`);
}
