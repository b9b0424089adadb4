//! A plan becomes its card: the rows its filters keep (filters come
//! before any aggregation), grouped by what it asks, each group's measure
//! aggregated (rates and averages are averaged, never summed), shaped as
//! the card type asked for or the one the tasks call for, with a title
//! that says what is shown and a sentence that says what was understood,
//! assumed and ignored.

use serde_json::{json, Value};
use zdr_chart::model::CardKind;

use super::choose::{asked as asked_of, best_category, feasible, inferred, MAX_SLICES};
use super::measure::{date_column, default_aggregate, is_level, lists_things, things_column};
use super::phrases::{display, filter_words, kind_word, lower_first, short};
use super::plan::{filter_text, format_number, Aggregate, Grain, Plan, Task, Test};
use super::rows::{distinct_kept, group, latest, mask, Key, Point};
use super::words::plural;
use crate::recommend::{
    needs, number, sentence, Suggestion, MAX_BARS, MAX_GROUPS, MAX_SERIES, MAX_TABLE_ROWS,
};
use crate::table::{Cell, Column, Kind, Table};
use zdr_chart::model::MAX_METRIC_POINTS;

/// Points of a line at most before its dates are grouped by month, and
/// months by year.
const MAX_POINTS: usize = 400;

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
    let chart = plan
        .chart
        .map(|(kind, word)| (asked_of(kind, plan, table, &keep), word));
    let kind = match chart {
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
            | CardKind::Treemap
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

    // Areas are lines filled: drawn as one, then filled (below).
    let filled = kind;
    let shape = match kind {
        CardKind::AreaTimeseries | CardKind::StackedAreaTimeseries => CardKind::Timeseries,
        kind => kind,
    };
    let (kind, title, labels, data) = match shape {
        CardKind::TopLevelMetric => {
            let (data, dated, said) = headline(table, &keep, time, measure, aggregate, plan.grain);
            points = dated;
            notes.extend(said.map(|date| {
                format!(
                    "the latest {}, {date}",
                    name_of(time.unwrap_or_default()).to_lowercase()
                )
            }));
            (
                CardKind::TopLevelMetric,
                measure_words(measure),
                json!({}),
                data,
            )
        }
        CardKind::Map | CardKind::BubbleMap => {
            let named: Vec<usize> = plan
                .measures
                .iter()
                .chain(&plan.dimensions)
                .copied()
                .collect();
            let card = crate::recommend::shaped(&kept_rows(table, &keep), shape, &named, dark)
                .ok_or_else(|| needs(shape).to_owned())?;
            let data = card
                .visualization_data
                .get("data")
                .cloned()
                .unwrap_or(Value::Null);
            (shape, card.title, json!({}), data)
        }
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
                } else if !matches!(kind, CardKind::Choropleth | CardKind::Treemap)
                    && total > MAX_BARS
                {
                    groups.sort_by(|a, b| b.2.total_cmp(&a.2));
                    groups.truncate(MAX_BARS);
                    notes.push(format!("the {MAX_BARS} largest of {total}"));
                }
                let kind = if kind == CardKind::Treemap && groups.iter().any(|g| g.2 < 0.0) {
                    notes.push(
                        "a treemap's areas cannot be below zero, so these are bars".to_owned(),
                    );
                    CardKind::Bar
                } else if kind == CardKind::Pie
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
    let (kind, title, data) = fill(filled, (kind, title, data), plan, &mut notes);
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

/// The headline of a measure (a count without one): with a date column,
/// its value per period, the latest last, and that period; else its one
/// aggregate over the rows kept. Also the number of points.
fn headline(
    table: &Table,
    keep: &[bool],
    time: Option<usize>,
    measure: Option<usize>,
    aggregate: Aggregate,
    grain: Option<Grain>,
) -> (Value, usize, Option<String>) {
    let Some(t) = time else {
        let all = group(table, keep, &[], measure, aggregate);
        let data: Vec<Value> = all.iter().map(|(_, _, v)| json!({"y": v})).collect();
        return (json!(data), data.len(), None);
    };
    let mut dated = group(table, keep, &[Key::Period(t, grain)], measure, aggregate);
    dated.sort_by(|a, b| a.1.total_cmp(&b.1));
    let latest = dated.last().map(|(k, _, _)| k.concat());
    // The sparkline's end: the engine reads so many points at most.
    let skip = dated.len().saturating_sub(MAX_METRIC_POINTS);
    let data: Vec<Value> = dated
        .into_iter()
        .skip(skip)
        .map(|(k, _, v)| json!({"x": k.concat(), "y": v}))
        .collect();
    (json!(data), data.len(), latest)
}

/// The rows `keep` keeps, as a table of the same columns.
fn kept_rows(table: &Table, keep: &[bool]) -> Table {
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
    }
}

/// A line drawn for an area, filled: a running total of each series
/// when the question asks for one; stacked when there are several
/// series of values of zero or more, else left a line, said why.
fn fill(
    asked: CardKind,
    (kind, title, mut data): (CardKind, String, Value),
    plan: &Plan,
    notes: &mut Vec<String>,
) -> (CardKind, String, Value) {
    if kind != CardKind::Timeseries {
        return (kind, title, data);
    }
    let series = data
        .get_mut("series")
        .and_then(Value::as_array_mut)
        .map(std::mem::take)
        .unwrap_or_default();
    let mut filled = (kind, title);
    let series = match asked {
        CardKind::AreaTimeseries if plan.cumulative => {
            filled = (
                CardKind::AreaTimeseries,
                format!("Cumulative {}", lower_first(&filled.1)),
            );
            series.into_iter().map(running).collect()
        }
        CardKind::AreaTimeseries => {
            filled.0 = CardKind::AreaTimeseries;
            series
        }
        CardKind::StackedAreaTimeseries => {
            let negative = series.iter().any(|s| {
                s["points"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|p| p["y"].as_f64().is_some_and(|y| y < 0.0))
            });
            if series.len() >= 2 && !negative {
                filled.0 = CardKind::StackedAreaTimeseries;
            } else {
                notes.push(format!(
                    "stacked areas need {}, so this is a line chart instead",
                    needs(CardKind::StackedAreaTimeseries)
                ));
            }
            series
        }
        _ => series,
    };
    data["series"] = Value::Array(series);
    (filled.0, filled.1, data)
}

/// A series whose values become the sum of each and those before it.
fn running(mut series: Value) -> Value {
    let mut total = 0.0;
    let points = series.get_mut("points").and_then(Value::as_array_mut);
    for point in points.into_iter().flatten() {
        if let Some(y) = point["y"].as_f64() {
            total += y;
            point["y"] = json!(total);
        }
    }
    series
}
