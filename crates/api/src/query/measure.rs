//! What kind of number a measure is, read from its name and its table:
//! a flow is summed across rows (sales, goals), a rate, a property or a
//! level that drifts is averaged (life expectancy, a car's horsepower, a
//! CO2 concentration), a level is read at one date (a population).
//! docs/service-api.md lists the words.

use super::lexicon::{COUNTS, FLOWS, IDENTIFIERS, LEVELS, RATES};
use super::plan::Aggregate;
use super::words::name_words;
use crate::recommend::{text, MAX_BARS};
use crate::table::{Cell, Column, Kind, Table};

/// Whether a column is a flow, summed across rows (sales, goals).
pub fn is_flow(table: &Table, column: usize) -> bool {
    default_aggregate(table, Some(column)) == Aggregate::Sum
}

/// Whether a column names things rather than measures them: its name
/// ends in an identifier's word (`id`, `user_id`, `zip code`, `order no`),
/// or it holds integers unique per row numbering the rows (at least 10,
/// spanning at most twice as many numbers as rows: 1, 2, 3 …) under a
/// name that says no quantity. An identifier is counted, never summed or
/// averaged. Sparse unique integers are not enough: a count or an amount
/// can be unique per row too (a payroll per month, a salary per person).
pub fn is_identifier(column: &Column) -> bool {
    if names_identifier(&column.name) {
        return true;
    }
    let words = name_words(&column.name);
    let quantity = words.iter().any(|w| {
        [FLOWS, RATES, LEVELS]
            .iter()
            .any(|l| l.contains(&w.as_str()))
    });
    column.kind == Kind::Number && !quantity && numbers_rows(&column.cells)
}

/// Whether a column's name ends in an identifier's word (`id`,
/// `user_id`, `zip code`, `order no`).
fn names_identifier(name: &str) -> bool {
    name_words(name)
        .last()
        .is_some_and(|w| IDENTIFIERS.contains(&w.as_str()))
}

/// Whether `cells` are integers, one per row and unique, that number the
/// rows: at least 10, spanning at most twice as many numbers as rows.
fn numbers_rows(cells: &[Cell]) -> bool {
    let mut seen = std::collections::HashSet::new();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for cell in cells {
        let Cell::Number(n) = cell else {
            return false;
        };
        if n.fract() != 0.0 || !seen.insert(n.to_bits()) {
            return false;
        }
        lo = lo.min(*n);
        hi = hi.max(*n);
    }
    let rows = cells.len() as f64;
    rows >= 10.0 && hi - lo + 1.0 <= 2.0 * rows
}

/// Whether a measure's name says it holds counts of things (goals,
/// units, visits), so that "number of goals" names it.
pub fn names_counts(table: &Table, column: usize) -> bool {
    table.columns.get(column).is_some_and(|c| {
        let words = name_words(&c.name);
        // `ncases`, `num_visits`: "n" or "num" before a plural.
        let numbered = c.name.to_lowercase();
        let numbered = ["num", "n"]
            .iter()
            .find_map(|p| numbered.strip_prefix(p))
            .map(|rest| rest.trim_start_matches(['_', ' ', '.']))
            .is_some_and(|rest| rest.len() >= 4 && rest.ends_with('s'));
        numbered || words.iter().any(|w| COUNTS.contains(&w.as_str()))
    })
}

/// Whether a measure is one series, a row per date, that drifts: from
/// one date to the next it moves by less than 3% (the median move), as a
/// concentration, a price or a population does, where flows (sales,
/// rainfall) swing. Summed over a year it would mean nothing; averaged it
/// is the year's level.
fn drifts(table: &Table, column: &Column) -> bool {
    let Some(dates) = date_column(table).and_then(|t| table.columns.get(t)) else {
        return false;
    };
    let mut points: Vec<(f64, f64)> = dates
        .cells
        .iter()
        .zip(&column.cells)
        .filter_map(|(d, v)| match v {
            Cell::Number(v) => Some((zdr_chart::model::parse_date(text(d)?)?.0, *v)),
            _ => None,
        })
        .collect();
    if points.len() < 10 || points.iter().any(|(_, v)| *v <= 0.0) {
        return false;
    }
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    if points.windows(2).any(|w| w[0].0 == w[1].0) {
        return false;
    }
    let mut moves: Vec<f64> = points
        .windows(2)
        .map(|w| (w[1].1 - w[0].1).abs() / w[0].1)
        .collect();
    moves.sort_by(f64::total_cmp);
    moves.get(moves.len() / 2).is_some_and(|m| *m < 0.03)
}

/// Whether a measure is a level, read at one date (a population).
pub fn is_level(table: &Table, column: usize) -> bool {
    table.columns.get(column).is_some_and(|c| {
        name_words(&c.name)
            .iter()
            .any(|w| LEVELS.contains(&w.as_str()))
    })
}

/// The aggregation of `measure` when the question names none: a count
/// without a measure; a sum for flows (sales, goals); an average for
/// rates and levels (prices, life expectancy) and for the properties of
/// things a table lists one per row (a car's horsepower).
pub fn default_aggregate(table: &Table, measure: Option<usize>) -> Aggregate {
    let Some(column) = measure.and_then(|m| table.columns.get(m)) else {
        return Aggregate::Count;
    };
    let words = name_words(&column.name);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    if has(FLOWS) {
        Aggregate::Sum
    } else if has(RATES) || lists_things(table) || drifts(table, column) {
        Aggregate::Mean
    } else {
        Aggregate::Sum
    }
}

/// The column that names the things a table lists one per row: of its
/// text columns with more than 50 values, at least one per two rows
/// (names of cars, titles of films), the one of most values.
pub fn things_column(table: &Table) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (at, c) in table.columns.iter().enumerate() {
        if c.kind != Kind::Category || table.rows < 10 {
            continue;
        }
        let mut seen = std::collections::HashSet::new();
        c.cells.iter().filter_map(text).for_each(|t| {
            seen.insert(t);
        });
        let n = seen.len();
        if n > MAX_BARS && n * 2 >= table.rows && best.is_none_or(|(_, most)| n > most) {
            best = Some((at, n));
        }
    }
    best.map(|(at, _)| at)
}

/// The category that names each row once (a state, a player's id), if
/// the table has one: of those, the one named first.
pub fn unique_column(table: &Table) -> Option<usize> {
    table.columns.iter().position(|c| {
        if !matches!(c.kind, Kind::Category | Kind::Place) || table.rows < 2 {
            return false;
        }
        let mut seen = std::collections::HashSet::new();
        c.cells.iter().all(|cell| match cell {
            Cell::Text(t) => seen.insert(t.as_str()),
            _ => false,
        })
    })
}

/// Whether the table lists one thing per row ([`things_column`]).
pub fn lists_things(table: &Table) -> bool {
    things_column(table).is_some()
}

/// The table's date column when the question names none: of its date
/// columns, the one of most distinct dates (a `date` before a `year`).
pub fn date_column(table: &Table) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (at, c) in table.columns.iter().enumerate() {
        if c.kind != Kind::Time {
            continue;
        }
        let mut seen = std::collections::HashSet::new();
        c.cells.iter().filter_map(text).for_each(|t| {
            seen.insert(t);
        });
        if best.is_none_or(|(_, most)| seen.len() > most) {
            best = Some((at, seen.len()));
        }
    }
    best.map(|(at, _)| at)
}
