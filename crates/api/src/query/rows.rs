//! The rows of a plan: those its filters keep (dates compared by year),
//! the periods of a date at a grain, and a measure aggregated per group of
//! keys in one pass (an index by key, so the largest table stays linear).

use std::collections::HashMap;

use zdr_chart::model::{civil_from_days, parse_date, DatePrecision};

use super::plan::{format_number, Aggregate, Grain, Plan, Test};
use crate::recommend::{number, text};
use crate::table::{Cell, Column, Kind, Table};

/// Groups at most (keys of one aggregation), so memory stays linear.
const MAX_KEYS: usize = 250_000;

/// The year of a date cell.
pub(super) fn year_of(cell: &Cell) -> Option<f64> {
    let (seconds, _) = parse_date(text(cell)?)?;
    let (y, _, _) = civil_from_days((seconds / 86_400.0).floor() as i64);
    Some(y as f64)
}

pub(super) fn passes(test: &Test, value: f64) -> bool {
    let listed = |values: &[String]| values.iter().any(|v| v.parse::<f64>().ok() == Some(value));
    match test {
        Test::In(values) => listed(values),
        Test::Out(values) => !listed(values),
        Test::Gt(v) => value > *v,
        Test::Ge(v) => value >= *v,
        Test::Lt(v) => value < *v,
        Test::Le(v) => value <= *v,
        Test::Between(a, b) => value >= *a && value <= *b,
        // Months compare dates only (`cell_passes`).
        Test::Months(..) => false,
    }
}

/// The month of a date cell, as year × 12 + month − 1.
fn month_of(cell: &Cell) -> Option<i64> {
    let (seconds, _) = parse_date(text(cell)?)?;
    let (y, m, _) = civil_from_days((seconds / 86_400.0).floor() as i64);
    Some(y * 12 + i64::from(m) - 1)
}

/// Whether `cell` of a column of `kind` passes `test`; texts compare
/// without case. An empty cell passes no test.
fn cell_passes(kind: Kind, cell: &Cell, test: &Test) -> bool {
    let named = |values: &[String], t: &str| {
        values.iter().any(|v| {
            v.eq_ignore_ascii_case(t) || (!t.is_ascii() && v.to_lowercase() == t.to_lowercase())
        })
    };
    match (kind, cell, test) {
        (_, Cell::Empty, _) => false,
        (Kind::Time, cell, Test::Months(a, b)) => {
            month_of(cell).is_some_and(|m| (*a..=*b).contains(&m))
        }
        (Kind::Time, cell, test) => year_of(cell).is_some_and(|y| passes(test, y)),
        (_, Cell::Number(n), test) => passes(test, *n),
        (_, Cell::Text(t), Test::In(values)) => named(values, t),
        (_, Cell::Text(t), Test::Out(values)) => !named(values, t),
        (_, Cell::Text(_), _) => false,
    }
}

/// The rows the plan's filters keep: every filter passed, a filter with
/// alternatives by any of its tests.
pub(super) fn mask(plan: &Plan, table: &Table) -> Vec<bool> {
    let mut keep = vec![true; table.rows];
    for filter in &plan.filters {
        let tests: Vec<(&Column, &Test)> = std::iter::once((filter.column, &filter.test))
            .chain(filter.or.iter().map(|(c, t)| (*c, t)))
            .filter_map(|(c, t)| Some((table.columns.get(c)?, t)))
            .collect();
        if tests.is_empty() {
            continue;
        }
        for (row, k) in keep.iter_mut().enumerate() {
            if *k {
                *k = tests.iter().any(|(column, test)| {
                    column
                        .cells
                        .get(row)
                        .is_some_and(|cell| cell_passes(column.kind, cell, test))
                });
            }
        }
    }
    keep
}

/// The rows of `table` that `keep` keeps, as a table of the same columns.
pub(crate) fn kept(table: &Table, keep: &[bool]) -> Table {
    let columns = table
        .columns
        .iter()
        .map(|c| Column {
            name: c.name.clone(),
            kind: c.kind,
            cells: c
                .cells
                .iter()
                .zip(keep)
                .filter(|(_, k)| **k)
                .map(|(cell, _)| cell.clone())
                .collect(),
        })
        .collect();
    Table {
        columns,
        rows: keep.iter().filter(|k| **k).count(),
        read_as: None,
    }
}

/// Days of the week as a weekday's bar is labelled.
const WEEKDAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// A date as the period of `grain` it falls in, written as dates are
/// ("2024", "2024-04", "2024-04-01"), and its seconds; a grain finer than
/// the date's own keeps the date.
pub(super) fn period(date: &str, grain: Option<Grain>) -> Option<(String, f64)> {
    let (seconds, precision) = parse_date(date)?;
    let Some(grain) = grain else {
        return Some((date.to_owned(), seconds));
    };
    let days = (seconds / 86_400.0).floor() as i64;
    if grain == Grain::Weekday {
        // 1970-01-01 was a Thursday: Monday is 0, in the bars' order.
        let at = (days + 3).rem_euclid(7);
        let name = WEEKDAYS.get(at as usize).copied().unwrap_or_default();
        return (precision != DatePrecision::Year && precision != DatePrecision::Month)
            .then(|| (name.to_owned(), at as f64));
    }
    let (y, m, d) = civil_from_days(days);
    let coarse = match precision {
        DatePrecision::Year => 4,
        DatePrecision::Month => 3,
        _ => 1,
    };
    let wanted = match grain {
        Grain::Year => 4,
        Grain::Quarter | Grain::Month => 3,
        Grain::Week | Grain::Day | Grain::Weekday => 1,
    };
    if wanted < coarse {
        return Some((date.to_owned(), seconds));
    }
    let text = match grain {
        Grain::Year => format!("{y:04}"),
        Grain::Quarter => format!("{y:04}-{:02}", (m - 1) / 3 * 3 + 1),
        Grain::Month => format!("{y:04}-{m:02}"),
        Grain::Week => {
            // The Monday of the week (1970-01-01 was a Thursday).
            let monday = days - (days + 3).rem_euclid(7);
            let (y, m, d) = civil_from_days(monday);
            format!("{y:04}-{m:02}-{d:02}")
        }
        Grain::Day | Grain::Weekday => format!("{y:04}-{m:02}-{d:02}"),
    };
    let (at, _) = parse_date(&text)?;
    Some((text, at))
}

/// A point of a line: its period as written, its order, its value.
pub(super) type Point = (String, f64, f64);

/// One group's values as they come, aggregated at the end.
#[derive(Default, Clone)]
struct Acc {
    sum: f64,
    count: usize,
    min: f64,
    max: f64,
    values: Vec<f64>,
}

impl Acc {
    fn add(&mut self, v: f64, keep_values: bool) {
        if self.count == 0 {
            self.min = v;
            self.max = v;
        }
        self.sum += v;
        self.count += 1;
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        if keep_values {
            self.values.push(v);
        }
    }

    fn result(&mut self, aggregate: Aggregate) -> f64 {
        match aggregate {
            // Each distinct value was added once, as 1.
            Aggregate::Sum | Aggregate::Distinct => self.sum,
            Aggregate::Count => self.count as f64,
            Aggregate::Mean => self.sum / self.count.max(1) as f64,
            Aggregate::Min => self.min,
            Aggregate::Max => self.max,
            Aggregate::Median => {
                self.values.sort_by(f64::total_cmp);
                let n = self.values.len();
                match n {
                    0 => 0.0,
                    _ if n % 2 == 1 => self.values.get(n / 2).copied().unwrap_or(0.0),
                    _ => {
                        let a = self.values.get(n / 2 - 1).copied().unwrap_or(0.0);
                        let b = self.values.get(n / 2).copied().unwrap_or(0.0);
                        (a + b) / 2.0
                    }
                }
            }
        }
    }
}

/// How a row is keyed: by a column's text or number, or by a date's period.
#[derive(Clone, Copy)]
pub(super) enum Key {
    Column(usize),
    Period(usize, Option<Grain>),
}

/// The key of row `r`, and its order (a period's seconds; first seen else).
pub(super) fn key(table: &Table, key: Key, r: usize) -> Option<(String, f64)> {
    match key {
        Key::Column(c) => {
            let cell = table.columns.get(c)?.cells.get(r)?;
            match cell {
                Cell::Text(t) => Some((t.clone(), 0.0)),
                Cell::Number(n) => Some((format_number(*n), *n)),
                Cell::Empty => None,
            }
        }
        Key::Period(c, grain) => period(text(table.columns.get(c)?.cells.get(r)?)?, grain),
    }
}

/// `measure` (rows counted for `None`) aggregated per distinct `keys`, in
/// first-seen order, over the rows `keep`.
pub(super) fn group(
    table: &Table,
    keep: &[bool],
    keys: &[Key],
    measure: Option<usize>,
    aggregate: Aggregate,
) -> Vec<(Vec<String>, f64, f64)> {
    let mut out: Vec<(Vec<String>, f64, Acc)> = Vec::new();
    let mut index: HashMap<Vec<String>, usize> = HashMap::new();
    let values = measure.and_then(|m| table.columns.get(m));
    // Distinct values per group, each pair held once: linear in the rows.
    let distinct = aggregate == Aggregate::Distinct;
    let mut seen: std::collections::HashSet<(usize, String)> = std::collections::HashSet::new();
    for (r, _) in keep.iter().enumerate().filter(|(_, k)| **k) {
        let cell = values.and_then(|column| column.cells.get(r));
        let v = match (values, distinct) {
            (Some(_), true) if cell.is_some_and(|c| !matches!(c, Cell::Empty)) => 1.0,
            (Some(_), _) => match cell.and_then(number) {
                Some(v) if !distinct => v,
                _ => continue,
            },
            (None, _) => 1.0,
        };
        let mut parts = Vec::with_capacity(keys.len());
        let mut order = 0.0;
        for k in keys {
            let Some((text, at)) = key(table, *k, r) else {
                break;
            };
            if matches!(k, Key::Period(..)) {
                order = at;
            }
            parts.push(text);
        }
        if parts.len() != keys.len() {
            continue;
        }
        let at = match index.get(&parts) {
            Some(at) => *at,
            None => {
                if out.len() >= MAX_KEYS {
                    continue;
                }
                index.insert(parts.clone(), out.len());
                out.push((parts, order, Acc::default()));
                out.len() - 1
            }
        };
        if distinct {
            let text = measure
                .and_then(|m| key(table, Key::Column(m), r))
                .map(|(t, _)| t);
            if !text.is_some_and(|t| seen.insert((at, t))) {
                continue;
            }
        }
        if let Some(slot) = out.get_mut(at) {
            slot.2.add(v, aggregate == Aggregate::Median);
        }
    }
    out.into_iter()
        .map(|(k, order, mut acc)| (k, order, acc.result(aggregate)))
        .collect()
}

/// The days the kept dates of `column` span, first to last.
pub(super) fn days_spanned(table: &Table, keep: &[bool], column: usize) -> f64 {
    let Some(c) = table.columns.get(column) else {
        return 0.0;
    };
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (cell, _) in c.cells.iter().zip(keep).filter(|(_, k)| **k) {
        if let Some((seconds, _)) = text(cell).and_then(parse_date) {
            lo = lo.min(seconds);
            hi = hi.max(seconds);
        }
    }
    if lo <= hi {
        (hi - lo) / 86_400.0
    } else {
        0.0
    }
}

pub(super) fn distinct_kept(table: &Table, keep: &[bool], column: usize) -> usize {
    let Some(c) = table.columns.get(column) else {
        return 0;
    };
    // Borrowed texts and numbers' bits: no copy per row.
    let mut texts: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut numbers: std::collections::HashSet<u64> = std::collections::HashSet::new();
    for (cell, k) in c.cells.iter().zip(keep) {
        if *k {
            match cell {
                Cell::Text(t) => {
                    texts.insert(t);
                }
                Cell::Number(n) => {
                    numbers.insert(n.to_bits());
                }
                Cell::Empty => {}
            }
        }
    }
    texts.len() + numbers.len()
}

/// The table kept to its latest date in the kept rows, when its rows are
/// one per thing and date (a panel: countries by year), so that a bar of
/// life expectancy by country shows the latest values, not their sum or
/// mean over fifty years. `None` when that is not so.
pub(super) fn latest(
    table: &Table,
    keep: &[bool],
    dimension: usize,
    time: usize,
) -> Option<(Vec<bool>, String)> {
    let dates = table.columns.get(time)?;
    let things = table.columns.get(dimension)?;
    let mut pairs = std::collections::HashSet::new();
    let mut rows = 0usize;
    let mut last: Option<(f64, String)> = None;
    for ((k, d), t) in keep.iter().zip(&dates.cells).zip(&things.cells) {
        if !*k {
            continue;
        }
        let (Some(date), Some(thing)) = (text(d), text(t)) else {
            continue;
        };
        rows += 1;
        pairs.insert((date, thing));
        if let Some((s, _)) = parse_date(date) {
            if last.as_ref().is_none_or(|(l, _)| s > *l) {
                last = Some((s, date.to_owned()));
            }
        }
    }
    // A panel: (thing, date) pairs nearly all distinct, and more than one date.
    let (_, written) = last?;
    if rows == 0 || pairs.len() * 10 < rows * 9 {
        return None;
    }
    let at: Vec<bool> = keep
        .iter()
        .zip(&dates.cells)
        .map(|(k, d)| *k && text(d) == Some(written.as_str()))
        .collect();
    // It must leave things to compare: two or more.
    let left = things
        .cells
        .iter()
        .zip(&at)
        .filter(|(_, k)| **k)
        .filter_map(|(t, _)| text(t))
        .collect::<std::collections::HashSet<_>>()
        .len();
    (left >= 2 && at.iter().filter(|k| **k).count() < rows).then_some((at, written))
}
