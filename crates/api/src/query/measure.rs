//! What kind of number a measure is, read from its name and its table:
//! a flow is summed across rows (sales, goals), a rate or a property is
//! averaged (life expectancy, a car's horsepower), a level is read at
//! one date (a population). docs/service-api.md lists the words.

use super::lexicon::{FLOWS, LEVELS, RATES};
use super::plan::Aggregate;
use super::words::name_words;
use crate::recommend::{text, MAX_BARS};
use crate::table::{Kind, Table};

/// Whether a column is a flow, summed across rows (sales, goals).
pub fn is_flow(table: &Table, column: usize) -> bool {
    default_aggregate(table, Some(column)) == Aggregate::Sum
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
    } else if has(RATES) || lists_things(table) {
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
