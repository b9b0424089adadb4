//! The words of a card: column names as people read them, the card
//! types, the filters in a title, figures in a sentence.

use super::plan::{format_number, Plan, Test};
use crate::table::{Kind, Table};

/// A column's name as a title writes it (`life_expectancy` → life expectancy).
pub(super) fn display(name: &str) -> String {
    name.replace('_', " ")
}

/// The words of the filters for a title: ", Japan, since 1955".
pub(super) fn filter_words(plan: &Plan, table: &Table, row: &str, counting: bool) -> String {
    let mut out = String::new();
    // Values first, then numbers, then dates: "…, Japan, since 1955".
    let rank = |f: &&super::plan::Filter| match table.columns.get(f.column).map(|c| c.kind) {
        Some(Kind::Time) => 2,
        Some(Kind::Number) => 1,
        _ => 0,
    };
    let mut filters: Vec<&super::plan::Filter> = plan.filters.iter().collect();
    filters.sort_by_key(rank);
    for filter in filters {
        let Some(column) = table.columns.get(filter.column) else {
            continue;
        };
        // Compared values are the series; counted ones are in the count.
        let counted = counting
            && matches!(filter.test, Test::In(_))
            && matches!(column.kind, Kind::Category | Kind::Place);
        if Some(filter.column) == plan.split || counted {
            continue;
        }
        let mut words = test_words(&filter.test, column.kind, &display(&column.name), row);
        for (c, test) in &filter.or {
            if let Some(other) = table.columns.get(*c) {
                words.push_str(" or ");
                words.push_str(&test_words(test, other.kind, &display(&other.name), row));
            }
        }
        out.push_str(", ");
        out.push_str(&words);
    }
    out
}

/// One test of a filter for a title: "Japan", "not Fair", "cars with
/// weight over 3000", "since 1955".
fn test_words(test: &Test, kind: Kind, name: &str, row: &str) -> String {
    let n = |v: &f64| format_number(*v);
    match (test, kind) {
        (Test::In(values), Kind::Number) => format!("{row} with {name} {}", values.join(" or ")),
        (Test::In(values), _) => values.join(" and "),
        (Test::Out(values), _) => format!("{row} with {name} not {}", values.join(" or ")),
        (Test::Months(a, b), _) => month_words(*a, *b),
        (Test::Between(a, b), Kind::Time) if a == b => format!("in {}", n(a)),
        (Test::Between(a, b), Kind::Time) => format!("{} to {}", n(a), n(b)),
        (Test::Ge(v), Kind::Time) => format!("since {}", n(v)),
        (Test::Gt(v), Kind::Time) => format!("after {}", n(v)),
        (Test::Lt(v), Kind::Time) => format!("before {}", n(v)),
        (Test::Le(v), Kind::Time) => format!("until {}", n(v)),
        (Test::Between(a, b), _) => format!("{row} with {name} from {} to {}", n(a), n(b)),
        (Test::Gt(v), _) => format!("{row} with {name} over {}", n(v)),
        (Test::Ge(v), _) => format!("{row} with {name} of {} or more", n(v)),
        (Test::Lt(v), _) => format!("{row} with {name} under {}", n(v)),
        (Test::Le(v), _) => format!("{row} with {name} of {} or less", n(v)),
    }
}

pub(super) use crate::recommend::lower_first;

/// Months for a title: "in March 2015", "since April 2015".
fn month_words(a: i64, b: i64) -> String {
    let name = |m: i64| {
        let month = super::lexicon::MONTHS
            .get(m.rem_euclid(12) as usize)
            .and_then(|names| names.first())
            .map_or(String::new(), |n| super::super::recommend::sentence(n));
        format!("{month} {}", m.div_euclid(12))
    };
    match (a, b) {
        (a, b) if a == b => format!("in {}", name(a)),
        (a, i64::MAX) => format!("since {}", name(a)),
        (i64::MIN, b) => format!("until {}", name(b)),
        (a, b) => format!("{} to {}", name(a), name(b)),
    }
}

/// A figure for a sentence: four significant digits at most.
pub(super) fn short(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format_number(v)
    } else {
        format!("{:.2}", v)
    }
}
