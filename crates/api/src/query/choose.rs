//! Which card a plan becomes before any chart word ([`inferred`]), and
//! whether the data allow the one a chart word asks for ([`feasible`]).

use zdr_chart::model::CardKind;

use super::measure::{date_column, lists_things};
use super::plan::{Aggregate, Grain, Plan, Task, Test};
use super::rows::distinct_kept;
use crate::recommend::{coordinates, MAX_BARS, MAX_GROUPS};
use crate::table::{Kind, Table};

/// Slices of a pie at most: the rest are one "Other" slice.
pub(super) const MAX_SLICES: usize = 7;

/// The table's best category to group by when the question names none:
/// of those with 2 to 50 values (places: any number), the fewest.
pub(super) fn best_category(table: &Table, keep: &[bool], places: bool) -> Option<usize> {
    // The fewest values, then the name: the same column whatever the order.
    let mut fits: Vec<(usize, &str, usize)> = table
        .columns
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let fits = if places {
                c.kind == Kind::Place
            } else {
                matches!(c.kind, Kind::Category | Kind::Place)
            };
            // A map shows every place; bars at most MAX_BARS.
            let most = if places { usize::MAX } else { MAX_BARS };
            let n = distinct_kept(table, keep, i);
            (fits && (2..=most).contains(&n)).then_some((n, c.name.as_str(), i))
        })
        .collect();
    fits.sort();
    fits.first().map(|(_, _, i)| *i)
}

/// The card type for the plan before any chart word, with what it needs.
pub(super) fn inferred(plan: &Plan, table: &Table, keep: &[bool]) -> Option<CardKind> {
    // A line over a date the question does not name only where the table
    // is a series over time; a table that lists things (cars, people)
    // has dates that are their attributes.
    // A range of dates asked for ("since 2000") is a line of them too.
    let time = plan.time.or_else(|| {
        let t = date_column(table)?;
        let range = plan.dimensions.is_empty()
            && plan
                .filters
                .iter()
                .any(|f| f.column == t && !matches!(f.test, Test::Between(a, b) if a == b));
        (range || !lists_things(table)).then_some(t)
    });
    let m = plan.measures.len();
    let dims = plan.dimensions.len();
    // The filters keep one row ("mortality in 1665"): its value.
    let one_row = !plan.filters.is_empty()
        && m == 1
        && dims == 0
        && plan.split.is_none()
        && plan.grain.is_none()
        && keep.iter().filter(|k| **k).take(2).count() == 1;
    Some(if asks_one_number(plan) || one_row {
        CardKind::TopLevelMetric
    } else if plan.cumulative && time.is_some() && dims == 0 {
        CardKind::AreaTimeseries
    } else if (plan.has(Task::Correlation)
        || (plan.colour.is_some() && plan.aggregate.is_none() && dims <= 1))
        && m >= 2
    {
        CardKind::Scatter
    } else if counts_by_a_number(plan) {
        CardKind::Histogram
    } else if plan.has(Task::Distribution) && m >= 1 {
        if dims >= 1 {
            CardKind::Boxplot
        } else {
            CardKind::Histogram
        }
    } else if plan.has(Task::Share) {
        CardKind::Pie
    } else if plan.has(Task::Rank) {
        CardKind::Bar
    } else if plan.grain == Some(Grain::Weekday) && time.is_some() && dims == 0 {
        // Days of the week are a cycle, not a line.
        CardKind::Bar
    } else if plan.has(Task::Trend)
        && time.is_some()
        && !(plan.time_group && time.is_some_and(|t| distinct_kept(table, keep, t) <= MAX_GROUPS))
    {
        CardKind::Timeseries
    } else if dims >= 2
        || (dims == 1 && plan.split.is_some())
        || (dims == 1
            && plan.time_group
            && time.is_some_and(|t| (2..=MAX_GROUPS).contains(&distinct_kept(table, keep, t))))
    {
        CardKind::GroupedBar
    } else if dims == 1 {
        one_group(plan, table, keep)
    } else if plan.split.is_some() {
        if time.is_some() {
            CardKind::Timeseries
        } else {
            CardKind::Bar
        }
    } else if m >= 2 && time.is_none() {
        CardKind::Scatter
    } else if time.is_some()
        && (m >= 1 || plan.aggregate == Some(Aggregate::Count) || !plan.filters.is_empty())
    {
        CardKind::Timeseries
    } else if m == 1 {
        if plan.aggregate.is_some() && best_category(table, keep, false).is_some() {
            CardKind::Bar
        } else {
            CardKind::Histogram
        }
    } else if !plan.filters.is_empty() {
        CardKind::Table
    } else {
        return None;
    })
}

/// A headline asked, or an aggregation of all the rows, grouped by
/// nothing, over no period ("what is the average salary", "maximum delay",
/// "how many days had ozone above 100"): one number.
fn asks_one_number(plan: &Plan) -> bool {
    let m = plan.measures.len();
    let one_figure =
        plan.dimensions.is_empty() && plan.split.is_none() && m <= 1 && !plan.has(Task::Rank);
    let aggregated_whole = plan.one_number
        && plan.aggregate.is_some()
        && plan.grain.is_none()
        && plan.time.is_none()
        && plan.tasks.is_empty()
        && plan.rank.is_none();
    (plan.headline || aggregated_whole) && one_figure && (m == 1 || plan.aggregate.is_some())
}

/// "Number of states by urban population": rows counted by a number of
/// many values, how its values fall (a histogram).
fn counts_by_a_number(plan: &Plan) -> bool {
    plan.aggregate == Some(Aggregate::Count)
        && plan.grouped
        && plan.measures.len() == 1
        && plan.dimensions.is_empty()
        && plan.split.is_none()
}

/// The card of one group: a bar of each measure ("murder, assault and
/// rape by state"), a map of many places unless an order is asked (a map
/// shows none), else bars.
fn one_group(plan: &Plan, table: &Table, keep: &[bool]) -> CardKind {
    if plan.measures.len() >= 2 && plan.aggregate != Some(Aggregate::Count) {
        return CardKind::GroupedBar;
    }
    let d = plan.dimensions.first().copied().unwrap_or(0);
    let place = table.columns.get(d).is_some_and(|c| c.kind == Kind::Place);
    if place && plan.rank.is_none() && distinct_kept(table, keep, d) > MAX_SLICES {
        CardKind::Choropleth
    } else {
        CardKind::Bar
    }
}

/// Whether the plan's data can be drawn as `kind`.
pub(super) fn feasible(kind: CardKind, plan: &Plan, table: &Table, keep: &[bool]) -> bool {
    let m = plan.measures.len();
    let time = table.columns.iter().any(|c| c.kind == Kind::Time);
    let category = !plan.dimensions.is_empty()
        || plan.split.is_some()
        || best_category(table, keep, false).is_some();
    match kind {
        CardKind::Scatter => m >= 2,
        CardKind::Histogram => m >= 1,
        CardKind::Boxplot => m >= 1 && category,
        CardKind::Timeseries => time,
        CardKind::Bar | CardKind::Waterfall | CardKind::Pie => category || time,
        CardKind::Choropleth => {
            plan.dimensions
                .iter()
                .chain(&plan.split)
                .any(|d| table.columns.get(*d).is_some_and(|c| c.kind == Kind::Place))
                || best_category(table, keep, true).is_some()
        }
        CardKind::GroupedBar | CardKind::StackedBar | CardKind::Heatmap => {
            plan.dimensions.len() + usize::from(plan.split.is_some()) >= 2
                || (plan.dimensions.len() + usize::from(plan.split.is_some()) == 1 && time)
                || (m >= 2 && category)
        }
        CardKind::Table => true,
        CardKind::AreaTimeseries => time,
        CardKind::StackedAreaTimeseries => time && (m >= 2 || category),
        CardKind::Treemap => category,
        CardKind::TopLevelMetric => m >= 1 || plan.aggregate == Some(Aggregate::Count),
        CardKind::Map => coordinates(table).is_some(),
        CardKind::BubbleMap => {
            let place = table.columns.iter().any(|c| c.kind == Kind::Place);
            m >= 1 && (coordinates(table).is_some() || place)
        }
        CardKind::Timeline => false,
    }
}

/// The card a chart word asks for, read against the table: "a map" of a
/// table of coordinates is of its points (bubbles when a measure is
/// named), not of regions it does not have.
pub(super) fn asked(kind: CardKind, plan: &Plan, table: &Table, keep: &[bool]) -> CardKind {
    let regions = feasible(CardKind::Choropleth, plan, table, keep);
    if kind != CardKind::Choropleth || regions || coordinates(table).is_none() {
        return kind;
    }
    if plan.measures.is_empty() {
        CardKind::Map
    } else {
        CardKind::BubbleMap
    }
}
