//! A plan becomes its card: the rows its filters keep (filters come
//! before any aggregation), grouped by what it asks, each group's measure
//! aggregated (rates and averages are averaged, never summed), shaped as
//! the card type asked for or the one the tasks call for, with a title
//! that says what is shown and a sentence that says what was understood,
//! assumed and ignored.

use std::collections::HashMap;

use serde_json::{json, Value};
use zdr_chart::model::{civil_from_days, parse_date, CardKind, DatePrecision};

use super::measure::{date_column, default_aggregate, is_level, lists_things, things_column};
use super::plan::format_number;
use super::plan::{filter_text, Aggregate, Grain, Plan, Task, Test};
use super::words::plural;
use crate::recommend::{
    needs, number, sentence, text, Suggestion, MAX_BARS, MAX_GROUPS, MAX_SERIES, MAX_TABLE_ROWS,
};
use crate::table::{Cell, Kind, Table};

/// Slices of a pie at most: the rest are one "Other" slice.
const MAX_SLICES: usize = 7;
/// Points of a line at most before its dates are grouped by month, and
/// months by year.
const MAX_POINTS: usize = 400;
/// Groups at most (keys of one aggregation), so memory stays linear.
const MAX_KEYS: usize = 250_000;

/// What a card is drawn for: what one row is, the theme.
pub struct Drawing<'a> {
    pub row: &'a str,
    pub dark: bool,
}

/// The card of a plan and the sentence of what was understood.
pub struct Drawn {
    pub card: Suggestion,
    /// Columns the card reads that the question did not name (the date
    /// of a line, the group of a map).
    pub assumed: Vec<usize>,
    pub kind: CardKind,
    pub answer: String,
}

fn display(name: &str) -> String {
    name.replace('_', " ")
}

/// The year of a date cell.
fn year_of(cell: &Cell) -> Option<f64> {
    let (seconds, _) = parse_date(text(cell)?)?;
    let (y, _, _) = civil_from_days((seconds / 86_400.0).floor() as i64);
    Some(y as f64)
}

fn passes(test: &Test, value: f64) -> bool {
    match test {
        Test::In(values) => values.iter().any(|v| v.parse::<f64>().ok() == Some(value)),
        Test::Gt(v) => value > *v,
        Test::Ge(v) => value >= *v,
        Test::Lt(v) => value < *v,
        Test::Le(v) => value <= *v,
        Test::Between(a, b) => value >= *a && value <= *b,
    }
}

/// The rows the plan's filters keep.
fn mask(plan: &Plan, table: &Table) -> Vec<bool> {
    let mut keep = vec![true; table.rows];
    for filter in &plan.filters {
        let Some(column) = table.columns.get(filter.column) else {
            continue;
        };
        let lower: Vec<String> = match &filter.test {
            Test::In(values) => values.iter().map(|v| v.to_lowercase()).collect(),
            _ => Vec::new(),
        };
        for (k, cell) in keep.iter_mut().zip(&column.cells) {
            if !*k {
                continue;
            }
            *k = match (column.kind, cell) {
                (Kind::Time, cell) => year_of(cell).is_some_and(|y| passes(&filter.test, y)),
                (_, Cell::Number(n)) => passes(&filter.test, *n),
                (_, Cell::Text(t)) => lower.contains(&t.to_lowercase()),
                (_, Cell::Empty) => false,
            };
        }
    }
    keep
}

/// A date as the period of `grain` it falls in, written as dates are
/// ("2024", "2024-04", "2024-04-01"), and its seconds; a grain finer than
/// the date's own keeps the date.
fn period(date: &str, grain: Option<Grain>) -> Option<(String, f64)> {
    let (seconds, precision) = parse_date(date)?;
    let Some(grain) = grain else {
        return Some((date.to_owned(), seconds));
    };
    let days = (seconds / 86_400.0).floor() as i64;
    let (y, m, d) = civil_from_days(days);
    let coarse = match precision {
        DatePrecision::Year => 4,
        DatePrecision::Month => 3,
        _ => 1,
    };
    let wanted = match grain {
        Grain::Year => 4,
        Grain::Quarter | Grain::Month => 3,
        Grain::Week | Grain::Day => 1,
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
        Grain::Day => format!("{y:04}-{m:02}-{d:02}"),
    };
    let (at, _) = parse_date(&text)?;
    Some((text, at))
}

/// A point of a line: its period as written, its order, its value.
type Point = (String, f64, f64);

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
            Aggregate::Sum => self.sum,
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
enum Key {
    Column(usize),
    Period(usize, Option<Grain>),
}

/// The key of row `r`, and its order (a period's seconds; first seen else).
fn key(table: &Table, key: Key, r: usize) -> Option<(String, f64)> {
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
fn group(
    table: &Table,
    keep: &[bool],
    keys: &[Key],
    measure: Option<usize>,
    aggregate: Aggregate,
) -> Vec<(Vec<String>, f64, f64)> {
    let mut out: Vec<(Vec<String>, f64, Acc)> = Vec::new();
    let mut index: HashMap<Vec<String>, usize> = HashMap::new();
    let values = measure.and_then(|m| table.columns.get(m));
    for (r, _) in keep.iter().enumerate().filter(|(_, k)| **k) {
        let v = match values {
            Some(column) => match column.cells.get(r).and_then(number) {
                Some(v) => v,
                None => continue,
            },
            None => 1.0,
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
        if let Some(slot) = out.get_mut(at) {
            slot.2.add(v, aggregate == Aggregate::Median);
        }
    }
    out.into_iter()
        .map(|(k, order, mut acc)| (k, order, acc.result(aggregate)))
        .collect()
}

fn distinct_kept(table: &Table, keep: &[bool], column: usize) -> usize {
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

/// The table's best category to group by when the question names none:
/// of those with 2 to 50 values (places: any number), the fewest.
fn best_category(table: &Table, keep: &[bool], places: bool) -> Option<usize> {
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
fn inferred(plan: &Plan, table: &Table, keep: &[bool]) -> Option<CardKind> {
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
    Some(if plan.has(Task::Correlation) && m >= 2 {
        CardKind::Scatter
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
        let d = plan.dimensions.first().copied().unwrap_or(0);
        let place = table.columns.get(d).is_some_and(|c| c.kind == Kind::Place);
        if place && distinct_kept(table, keep, d) > MAX_SLICES {
            CardKind::Choropleth
        } else {
            CardKind::Bar
        }
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

/// Whether the plan's data can be drawn as `kind`.
fn feasible(kind: CardKind, plan: &Plan, table: &Table, keep: &[bool]) -> bool {
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
        CardKind::Timeline => false,
    }
}

fn kind_word(kind: CardKind) -> &'static str {
    match kind {
        CardKind::Timeseries => "a line chart",
        CardKind::Bar => "a bar chart",
        CardKind::Pie => "a pie chart",
        CardKind::Choropleth => "a map",
        CardKind::GroupedBar => "grouped bars",
        CardKind::StackedBar => "stacked bars",
        CardKind::Heatmap => "a heatmap",
        CardKind::Scatter => "a scatter plot",
        CardKind::Histogram => "a histogram",
        CardKind::Boxplot => "a box plot",
        CardKind::Waterfall => "a waterfall",
        CardKind::Timeline => "a timeline",
        CardKind::Table => "a table",
    }
}

/// The words of the filters for a title: ", Japan, since 1955".
fn filter_words(plan: &Plan, table: &Table, row: &str, counting: bool) -> String {
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
        let name = display(&column.name);
        let n = |v: &f64| format_number(*v);
        let words = match (&filter.test, column.kind) {
            (Test::In(values), Kind::Number) => {
                format!("{row} with {} {name}", values.join(" or "))
            }
            (Test::In(values), _) => values.join(" and "),
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
        };
        out.push_str(", ");
        out.push_str(&words);
    }
    out
}

/// The table kept to its latest date in the kept rows, when its rows are
/// one per thing and date (a panel: countries by year), so that a bar of
/// life expectancy by country shows the latest values, not their sum or
/// mean over fifty years. `None` when that is not so.
fn latest(
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

/// The card of `plan` over `table`; `Err` with the reason when the plan
/// asks nothing a card can show (the caller falls back to the recommender).
pub fn draw(plan: &Plan, table: &Table, drawing: &Drawing) -> Result<Drawn, String> {
    let mut keep = mask(plan, table);
    let kept = keep.iter().filter(|k| **k).count();
    if kept == 0 {
        let filters: Vec<String> = plan
            .filters
            .iter()
            .filter_map(|f| Some(filter_text(&table.columns.get(f.column)?.name, &f.test)))
            .collect();
        return Err(format!("no row has {}", filters.join(" and ")));
    }
    let mut notes: Vec<String> = Vec::new();
    let base = if plan.listing {
        Some(CardKind::Table)
    } else {
        inferred(plan, table, &keep)
    };
    let mut assumed: Vec<usize> = Vec::new();
    let kind = match plan.chart {
        Some((asked, _)) if feasible(asked, plan, table, &keep) => asked,
        Some((asked, word)) => {
            let instead = base.unwrap_or(CardKind::Table);
            notes.push(format!(
                "a {word} needs {}, so this is {} instead",
                needs(asked),
                kind_word(instead)
            ));
            instead
        }
        None => base.ok_or_else(|| "the question names no column of the table".to_owned())?,
    };
    // Rows listed by a date named first ("years with …") are those dates.
    let listed = plan
        .dimensions
        .iter()
        .find(|d| plan.listing && table.columns.get(**d).is_some_and(|c| c.kind == Kind::Time))
        .and_then(|d| table.columns.get(*d))
        .map(|c| plural(&display(&c.name).to_lowercase()));
    let row = listed.as_deref().unwrap_or(drawing.row);
    let time = plan.time.or_else(|| date_column(table));
    let measure = plan.measures.first().copied();
    let counting = plan.aggregate == Some(Aggregate::Count) || measure.is_none();
    let aggregate = if counting {
        Aggregate::Count
    } else {
        plan.aggregate
            .unwrap_or_else(|| default_aggregate(table, measure))
    };
    let measure = if counting { None } else { measure };
    let name_of = |c: usize| {
        table
            .columns
            .get(c)
            .map(|c| display(&c.name))
            .unwrap_or_default()
    };
    // Rows counted with values asked: "Number of days with rain".
    let counted_values: Vec<String> = plan
        .filters
        .iter()
        .filter(|f| Some(f.column) != plan.split)
        .filter(|f| {
            table
                .columns
                .get(f.column)
                .is_some_and(|c| matches!(c.kind, Kind::Category | Kind::Place))
        })
        .filter_map(|f| match &f.test {
            Test::In(values) => Some(values.join(" or ")),
            _ => None,
        })
        .collect();
    let counted = if counting && !counted_values.is_empty() {
        format!("Number of {row} with {}", counted_values.join(" and "))
    } else {
        format!("Number of {row}")
    };
    let measure_words = |m: Option<usize>| match m {
        None => counted.clone(),
        Some(m) => match plan.aggregate {
            Some(a) if a != Aggregate::Count => {
                format!("{} {}", a.word(), name_of(m).to_lowercase())
            }
            _ => name_of(m),
        },
    };
    // Points drawn from the kept rows: fewer means rows were combined.
    let mut points = usize::MAX;
    // The group of a bar, pie or map: asked, compared, or the best there is.
    let grouped = matches!(
        kind,
        CardKind::Bar
            | CardKind::Pie
            | CardKind::Choropleth
            | CardKind::Boxplot
            | CardKind::Waterfall
            | CardKind::GroupedBar
            | CardKind::StackedBar
            | CardKind::Heatmap
    );
    let label = things_column(table);
    let dimension = plan
        .dimensions
        .first()
        .copied()
        .or(plan.split)
        .or(plan
            .time
            .filter(|_| matches!(kind, CardKind::Bar | CardKind::Pie)))
        .or(label.filter(|_| plan.has(Task::Rank)))
        .filter(|_| grouped)
        .or_else(|| {
            if !grouped {
                return None;
            }
            let d = best_category(table, &keep, kind == CardKind::Choropleth);
            if let Some(d) = d {
                if matches!(
                    kind,
                    CardKind::Bar | CardKind::Pie | CardKind::Choropleth | CardKind::Boxplot
                ) {
                    notes.push(format!(
                        "grouped by {}, the question naming no group",
                        name_of(d).to_lowercase()
                    ));
                }
            }
            if let Some(d) = d {
                assumed.push(d);
            }
            d
        });
    if let Some(d) = dimension.filter(|d| !plan.attributes().contains(d)) {
        if !assumed.contains(&d) {
            assumed.push(d);
        }
    }
    let mut title_tail = filter_words(plan, table, row, counting);
    let dark = drawing.dark;
    let asked_time_filter = plan.filters.iter().any(|f| Some(f.column) == time);

    let (kind, title, labels, data) = match kind {
        CardKind::Timeseries => {
            let t = time.ok_or_else(|| needs(CardKind::Timeseries).to_owned())?;
            if !plan.attributes().contains(&t) {
                assumed.push(t);
            }
            // The line's own columns: a group it does not split by is no column of it.
            assumed.retain(|c| *c == t);
            let dates = distinct_kept(table, &keep, t);
            let grain = plan.grain.or_else(|| {
                let limit = if counting { 60 } else { MAX_POINTS };
                (dates > limit).then_some(if dates > MAX_POINTS * 30 {
                    Grain::Year
                } else {
                    Grain::Month
                })
            });
            if let (None, Some(g)) = (plan.grain, grain) {
                notes.push(format!(
                    "{} grouped by {}",
                    name_of(t).to_lowercase(),
                    g.as_str()
                ));
            }
            let period = Key::Period(t, grain);
            let mut series: Vec<(String, Vec<Point>)> = Vec::new();
            let by = plan.split.or_else(|| {
                plan.dimensions
                    .first()
                    .copied()
                    .filter(|d| (2..=MAX_SERIES).contains(&distinct_kept(table, &keep, *d)))
            });
            if plan.measures.len() >= 2 && !counting {
                for m in plan.measures.iter().take(MAX_SERIES) {
                    let agg = plan
                        .aggregate
                        .unwrap_or_else(|| default_aggregate(table, Some(*m)));
                    let points = group(table, &keep, &[period], Some(*m), agg);
                    series.push((
                        name_of(*m),
                        points
                            .into_iter()
                            .map(|(k, o, v)| (k.concat(), o, v))
                            .collect(),
                    ));
                }
            } else if let Some(by) = by {
                let points = group(table, &keep, &[Key::Column(by), period], measure, aggregate);
                let mut order: Vec<String> = match (
                    &plan.filters.iter().find(|f| f.column == by),
                    plan.split == Some(by),
                ) {
                    (Some(f), true) => match &f.test {
                        Test::In(values) => values.clone(),
                        _ => Vec::new(),
                    },
                    _ => Vec::new(),
                };
                for (k, _, _) in &points {
                    if let Some(first) = k.first() {
                        if !order.iter().any(|o| o.eq_ignore_ascii_case(first)) {
                            order.push(first.clone());
                        }
                    }
                }
                for name in order.into_iter().take(MAX_SERIES) {
                    let pts: Vec<(String, f64, f64)> = points
                        .iter()
                        .filter(|(k, _, _)| {
                            k.first().is_some_and(|f| f.eq_ignore_ascii_case(&name))
                        })
                        .map(|(k, o, v)| (k.get(1).cloned().unwrap_or_default(), *o, *v))
                        .collect();
                    if !pts.is_empty() {
                        series.push((name, pts));
                    }
                }
            } else {
                let points = group(table, &keep, &[period], measure, aggregate);
                series.push((
                    measure.map_or_else(|| format!("Number of {row}"), name_of),
                    points
                        .into_iter()
                        .map(|(k, o, v)| (k.concat(), o, v))
                        .collect(),
                ));
            }
            points = series.iter().map(|(_, p)| p.len()).sum::<usize>() / series.len().max(1);
            // A count or a sum of a period with no row is 0, not a gap:
            // the periods are those of the rows the date filters keep.
            if matches!(aggregate, Aggregate::Count | Aggregate::Sum) && plan.measures.len() < 2 {
                let mut dated = plan.clone();
                dated.filters.retain(|f| f.column == t);
                let all = group(
                    table,
                    &mask(&dated, table),
                    &[period],
                    None,
                    Aggregate::Count,
                );
                for (_, pts) in &mut series {
                    let have: std::collections::HashSet<String> =
                        pts.iter().map(|p| p.0.clone()).collect();
                    for (k, order, _) in &all {
                        let k = k.concat();
                        if !have.contains(&k) {
                            pts.push((k, *order, 0.0));
                        }
                    }
                }
            }
            let series: Vec<Value> = series
                .into_iter()
                .map(|(name, mut pts)| {
                    pts.sort_by(|a, b| a.1.total_cmp(&b.1));
                    let points: Vec<Value> = pts
                        .into_iter()
                        .map(|(x, _, y)| json!({"x": x, "y": y}))
                        .collect();
                    json!({"name": name, "points": points})
                })
                .collect();
            let what = if plan.measures.len() >= 2 && !counting {
                plan.measures
                    .iter()
                    .map(|m| name_of(*m))
                    .collect::<Vec<_>>()
                    .join(" and ")
            } else {
                measure_words(measure)
            };
            let over = match (grain, by) {
                (Some(g), None) => format!(" per {}", g.as_str()),
                (Some(g), Some(b)) => {
                    format!(" by {} per {}", name_of(b).to_lowercase(), g.as_str())
                }
                (None, Some(b)) if plan.split == Some(b) => {
                    let values = plan
                        .filters
                        .iter()
                        .find(|f| f.column == b)
                        .map(|f| match &f.test {
                            Test::In(v) => v.join(" and "),
                            _ => String::new(),
                        })
                        .unwrap_or_default();
                    format!(" of {values} over time")
                }
                (None, Some(b)) => format!(" by {} over time", name_of(b).to_lowercase()),
                (None, None) => " over time".to_owned(),
            };
            let y = (plan.measures.len() < 2 || counting)
                .then(|| measure.map_or_else(|| format!("Number of {row}"), name_of));
            let mut labels = json!({"x_label": name_of(t)});
            if let Some(y) = y {
                labels["y_label"] = json!(y);
            }
            (
                CardKind::Timeseries,
                format!("{what}{over}"),
                labels,
                json!({"series": series}),
            )
        }
        CardKind::Scatter => {
            let (x, y) = match plan.measures.as_slice() {
                [x, y, ..] => (*x, *y),
                _ => return Err(needs(CardKind::Scatter).to_owned()),
            };
            let (xs, ys) = (table.columns.get(x), table.columns.get(y));
            let (Some(xs), Some(ys)) = (xs, ys) else {
                return Err(needs(CardKind::Scatter).to_owned());
            };
            let points: Vec<Value> = xs
                .cells
                .iter()
                .zip(&ys.cells)
                .zip(&keep)
                .filter(|(_, k)| **k)
                .filter_map(|((a, b), _)| Some(json!({"x": number(a)?, "y": number(b)?})))
                .collect();
            (
                CardKind::Scatter,
                format!("{} against {}", name_of(y), name_of(x).to_lowercase()),
                json!({"x_label": name_of(x), "y_label": name_of(y)}),
                json!(points),
            )
        }
        CardKind::Histogram => {
            let m = plan
                .measures
                .first()
                .copied()
                .ok_or_else(|| needs(CardKind::Histogram).to_owned())?;
            let column = table
                .columns
                .get(m)
                .ok_or_else(|| needs(CardKind::Histogram).to_owned())?;
            let points: Vec<Value> = column
                .cells
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .filter_map(|(c, _)| Some(json!({"y": number(c)?})))
                .collect();
            (
                CardKind::Histogram,
                format!("Distribution of {}", name_of(m).to_lowercase()),
                json!({"x_label": name_of(m)}),
                json!(points),
            )
        }
        CardKind::Boxplot => {
            let m = plan
                .measures
                .first()
                .copied()
                .ok_or_else(|| needs(CardKind::Boxplot).to_owned())?;
            let d = dimension.ok_or_else(|| needs(CardKind::Boxplot).to_owned())?;
            let (Some(mc), Some(dc)) = (table.columns.get(m), table.columns.get(d)) else {
                return Err(needs(CardKind::Boxplot).to_owned());
            };
            let points: Vec<Value> = dc
                .cells
                .iter()
                .zip(&mc.cells)
                .zip(&keep)
                .filter(|(_, k)| **k)
                .filter_map(|((c, v), _)| {
                    let label = match c {
                        Cell::Text(t) => t.clone(),
                        Cell::Number(n) => format_number(*n),
                        Cell::Empty => return None,
                    };
                    Some(json!({"x": label, "y": number(v)?}))
                })
                .collect();
            (
                CardKind::Boxplot,
                format!(
                    "Distribution of {} by {}",
                    name_of(m).to_lowercase(),
                    name_of(d).to_lowercase()
                ),
                json!({"x_label": name_of(d), "y_label": name_of(m)}),
                json!(points),
            )
        }
        CardKind::Table => {
            let mut columns: Vec<usize> = Vec::new();
            if let Some(label) = things_column(table) {
                columns.push(label);
            }
            for c in plan.attributes() {
                if !columns.contains(&c) {
                    columns.push(c);
                }
            }
            if columns.len() < 2 {
                columns = (0..table.columns.len()).collect();
            }
            let rows: Vec<Value> = (0..table.rows)
                .filter(|r| keep.get(*r) == Some(&true))
                .take(MAX_TABLE_ROWS)
                .map(|r| {
                    Value::Array(
                        columns
                            .iter()
                            .map(
                                |c| match table.columns.get(*c).and_then(|c| c.cells.get(r)) {
                                    Some(Cell::Number(n)) => json!(n),
                                    Some(Cell::Text(t)) => json!(t),
                                    _ => Value::Null,
                                },
                            )
                            .collect(),
                    )
                })
                .collect();
            if kept > MAX_TABLE_ROWS {
                notes.push(format!("the first {MAX_TABLE_ROWS} of {kept} rows"));
            }
            let names: Vec<String> = columns
                .iter()
                .filter_map(|c| table.columns.get(*c).map(|c| c.name.clone()))
                .collect();
            let tail = title_tail.trim_start_matches(", ");
            let title = if tail.starts_with(row) {
                sentence(tail)
            } else if tail.is_empty() {
                sentence(row)
            } else {
                sentence(&format!("{row}: {tail}"))
            };
            title_tail.clear();
            (
                CardKind::Table,
                title,
                json!({}),
                json!({"columns": names, "rows": rows}),
            )
        }
        // Bars, pies, maps and grids: groups of the kept rows.
        kind => {
            let mut d = dimension;
            // A date column groups by its periods.
            let mut key = d.map(|d| match table.columns.get(d).map(|c| c.kind) {
                Some(Kind::Time) => Key::Period(d, plan.grain),
                _ => Key::Column(d),
            });
            if key.is_none() {
                // Bars of periods when there is nothing else to group by.
                if let Some(t) = time {
                    key = Some(Key::Period(t, plan.grain));
                    d = Some(t);
                }
            }
            let (Some(key), Some(d)) = (key, d) else {
                return Err(needs(kind).to_owned());
            };
            // A panel's levels and rates at their latest date.
            if let (Some(t), Some(_)) = (time, measure) {
                let flow = default_aggregate(table, measure) == Aggregate::Sum
                    && !measure.is_some_and(|m| is_level(table, m));
                // A table that lists things (cars by model year) is no panel.
                if t != d
                    && !asked_time_filter
                    && plan.aggregate.is_none()
                    && !flow
                    && !lists_things(table)
                {
                    if let Some((at, date)) = latest(table, &keep, d, t) {
                        keep = at;
                        title_tail.push_str(&format!(", {date}"));
                        notes.push(format!("the latest {}, {date}", name_of(t).to_lowercase()));
                    }
                }
            }
            let inner = plan
                .dimensions
                .get(1)
                .copied()
                .or(plan.split.filter(|s| Some(*s) != Some(d)));
            let grid = matches!(
                kind,
                CardKind::GroupedBar | CardKind::StackedBar | CardKind::Heatmap
            );
            if grid {
                let (inner_key, inner_name) = match inner {
                    Some(i) => (Key::Column(i), name_of(i)),
                    None => match time {
                        Some(t) if t != d => (Key::Period(t, plan.grain), name_of(t)),
                        _ => return Err(needs(kind).to_owned()),
                    },
                };
                let cells = group(table, &keep, &[key, inner_key], measure, aggregate);
                points = cells.len();
                let inner_count = {
                    let mut s = std::collections::HashSet::new();
                    cells.iter().for_each(|(k, _, _)| {
                        s.insert(k.get(1).cloned());
                    });
                    s.len()
                };
                let kind = if kind == CardKind::Heatmap || inner_count > MAX_GROUPS {
                    CardKind::Heatmap
                } else {
                    kind
                };
                let data = if kind == CardKind::Heatmap {
                    json!(cells
                        .iter()
                        .map(|(k, _, v)| json!({"x": k.first(), "y": k.get(1), "value": v}))
                        .collect::<Vec<_>>())
                } else {
                    let mut names: Vec<String> = Vec::new();
                    for (k, _, _) in &cells {
                        if let Some(i) = k.get(1) {
                            if !names.contains(i) {
                                names.push(i.clone());
                            }
                        }
                    }
                    let series: Vec<Value> = names
                        .iter()
                        .map(|n| {
                            let points: Vec<Value> = cells
                                .iter()
                                .filter(|(k, _, _)| k.get(1) == Some(n))
                                .map(|(k, _, v)| json!({"x": k.first(), "y": v}))
                                .collect();
                            json!({"name": n, "points": points})
                        })
                        .collect();
                    json!({"series": series})
                };
                let y_label = if kind == CardKind::Heatmap {
                    inner_name.clone()
                } else {
                    measure.map_or_else(|| format!("Number of {row}"), name_of)
                };
                (
                    kind,
                    format!(
                        "{} by {} and {}",
                        measure_words(measure),
                        name_of(d).to_lowercase(),
                        inner_name.to_lowercase()
                    ),
                    json!({"x_label": name_of(d), "y_label": y_label}),
                    data,
                )
            } else {
                let mut groups: Vec<(String, f64, f64)> =
                    group(table, &keep, &[key], measure, aggregate)
                        .into_iter()
                        .map(|(k, o, v)| (k.concat(), o, v))
                        .collect();
                if matches!(key, Key::Period(..)) {
                    groups.sort_by(|a, b| a.1.total_cmp(&b.1));
                }
                points = groups.len();
                // A ranking, a map or a pie of one thing says nothing.
                if groups.len() < 2 && kind != CardKind::Waterfall {
                    if let Some(t) = time.filter(|t| *t != d) {
                        let mut again = plan.clone();
                        again.chart = None;
                        again.tasks = vec![Task::Trend];
                        again.rank = None;
                        again.time = Some(t);
                        again.dimensions.clear();
                        let mut drawn = draw(&again, table, drawing)?;
                        drawn.answer = format!(
                            "{} Only one {} is left, so this is its line over time.",
                            drawn.answer,
                            name_of(d).to_lowercase()
                        );
                        return Ok(drawn);
                    }
                }
                // Periods of a date are named by their grain ("by month").
                let group_name = match (key, plan.grain) {
                    (Key::Period(..), Some(g)) => g.as_str().to_owned(),
                    _ => name_of(d).to_lowercase(),
                };
                let mut title = format!("{} by {}", measure_words(measure), group_name.clone());
                let total = groups.len();
                if let Some(rank) = plan.rank {
                    if rank.descending {
                        groups.sort_by(|a, b| b.2.total_cmp(&a.2));
                    } else {
                        groups.sort_by(|a, b| a.2.total_cmp(&b.2));
                    }
                    let limit = rank.limit.unwrap_or(MAX_BARS).min(MAX_BARS);
                    groups.truncate(limit);
                    let end = if rank.descending { "Top" } else { "Bottom" };
                    title = match rank.limit {
                        Some(n) => format!(
                            "{end} {n} {} by {}",
                            plural(&group_name.clone()),
                            measure_words(measure).to_lowercase()
                        ),
                        None => format!(
                            "{} by {}, {}",
                            measure_words(measure),
                            group_name.clone(),
                            if rank.descending {
                                "highest first"
                            } else {
                                "lowest first"
                            }
                        ),
                    };
                } else if kind == CardKind::Pie && total > MAX_SLICES {
                    groups.sort_by(|a, b| b.2.total_cmp(&a.2));
                    let rest: f64 = groups.iter().skip(MAX_SLICES - 1).map(|g| g.2).sum();
                    groups.truncate(MAX_SLICES - 1);
                    groups.push((format!("Other ({})", total - (MAX_SLICES - 1)), 0.0, rest));
                    notes.push(format!(
                        "the {} smallest folded into Other",
                        total - (MAX_SLICES - 1)
                    ));
                } else if kind != CardKind::Choropleth && total > MAX_BARS {
                    groups.sort_by(|a, b| b.2.total_cmp(&a.2));
                    groups.truncate(MAX_BARS);
                    notes.push(format!("the {MAX_BARS} largest of {total}"));
                }
                let kind = if kind == CardKind::Pie
                    && (aggregate != Aggregate::Sum && aggregate != Aggregate::Count
                        || groups.iter().any(|g| g.2 < 0.0))
                {
                    notes.push(
                        "a pie shows parts of a whole: these values are not, so they are bars"
                            .to_owned(),
                    );
                    CardKind::Bar
                } else {
                    kind
                };
                if kind == CardKind::Pie {
                    title = format!(
                        "Share of {} by {}",
                        measure_words(measure).to_lowercase(),
                        group_name.clone()
                    );
                }
                let points: Vec<Value> = groups
                    .iter()
                    .map(|(x, _, y)| json!({"x": x, "y": y}))
                    .collect();
                (
                    kind,
                    title,
                    json!({"x_label": name_of(d), "y_label": measure.map_or_else(|| format!("Number of {row}"), name_of)}),
                    json!(points),
                )
            }
        }
    };
    if let Some((words, c)) = &plan.guessed {
        notes.push(format!(
            "\"{words}\" taken for {}, the table's one category",
            name_of(*c).to_lowercase()
        ));
    }
    let rows_used = keep.iter().filter(|k| **k).count();
    if let (None, Some(m), true) = (plan.aggregate, measure, points < rows_used) {
        let m = name_of(m).to_lowercase();
        notes.push(match aggregate {
            Aggregate::Mean => format!(
                "{m} averaged over the rows of each point (a rate or a property: never summed)"
            ),
            _ => format!("{m} summed over the rows of each point"),
        });
    }
    let title = sentence(&format!("{title}{title_tail}"));
    let mut answer = format!("Shown: {}, as {}", lower_first(&title), kind_word(kind));
    // A figure asked for with no group: said in words too.
    if plan.aggregate.is_some()
        && plan.dimensions.is_empty()
        && plan.split.is_none()
        && plan.measures.len() <= 1
    {
        let all = group(table, &mask(plan, table), &[], measure, aggregate);
        if let Some((_, _, v)) = all.first() {
            answer.push_str(&match aggregate {
                Aggregate::Count => format!(" ({} {row} in all)", short(*v)),
                _ => format!(
                    " ({} over all {kept} {row}: {})",
                    aggregate.as_str(),
                    short(*v)
                ),
            });
        }
    }
    if !notes.is_empty() {
        answer.push_str("; assumed: ");
        answer.push_str(&notes.join("; "));
    }
    if !plan.ignored.is_empty() {
        answer.push_str(&format!(
            "; not understood: \"{}\"",
            plan.ignored.join("\", \"")
        ));
    }
    answer.push('.');
    let description = answer.clone();
    Ok(Drawn {
        card: Suggestion::new((kind, title, description, "high", dark), labels, data),
        assumed,
        kind,
        answer,
    })
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A figure for a sentence: four significant digits at most.
fn short(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format_number(v)
    } else {
        format!("{:.2}", v)
    }
}
