//! A plan becomes its card: the rows its filters keep (filters come
//! before any aggregation), grouped by what it asks, each group's measure
//! aggregated (rates and averages are averaged, never summed), shaped as
//! the card type asked for or the one the tasks call for, with a title
//! that says what is shown and a sentence that says what was understood,
//! assumed and ignored.
//!
//! [`draw`] goes in named steps: the rows kept ([`mask`]), the card type
//! ([`kind_of`]), what is asked of it ([`Ask::new`]), the group of a bar,
//! pie or map ([`dimension`]), the card's data by its type (one step per
//! shape: [`metric`], [`places`], [`line`], [`scatter`], [`histogram`],
//! [`boxplot`], [`table_of`], [`groups`]), an area filled ([`fill`]), and the
//! sentence of what was understood ([`answer`]). The typed cards
//! themselves are made in `crate::cards`.

use zdr_chart::model::{Card, CardKind, MAX_METRIC_POINTS};

use super::choose::{asked as asked_of, best_category, feasible, inferred, MAX_SLICES};
use super::measure::{date_column, default_aggregate, is_level, lists_things, things_column};
use super::phrases::{display, filter_words, lower_first, short};
use super::plan::{filter_text, format_number, Aggregate, Grain, Plan, Task, Test};
use super::rows::{days_spanned, distinct_kept, group, kept, latest, mask, Key, Point};
use super::words::plural;
use crate::cards::{self, About, Labels};
use crate::recommend::{
    number, sentence, Suggestion, MAX_BARS, MAX_GROUPS, MAX_SERIES, MAX_TABLE_ROWS,
};
use crate::table::{Cell, Kind, Table};

/// Points of a line at most before its dates are grouped by month, and
/// months by year.
const MAX_POINTS: usize = 400;

/// What a card is drawn for: what one row is, the theme.
pub struct Drawing<'a> {
    pub row: &'a str,
    pub dark: bool,
}

/// The columns a card drew where: its x axis (with the grain of its
/// dates), its values, and the group that colours them. `debug` shows
/// them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Axes {
    pub x: Option<usize>,
    pub grain: Option<Grain>,
    pub y: Vec<usize>,
    pub group: Option<usize>,
}

/// The axes of bars or a grid along `key` (a column, or periods of the
/// dates `d`).
fn along(key: Key, d: usize, y: Vec<usize>, group: Option<usize>) -> Axes {
    Axes {
        x: Some(d),
        grain: match key {
            Key::Period(_, g) => g,
            Key::Column(_) => None,
        },
        y,
        group,
    }
}

/// The card of a plan and the sentence of what was understood.
pub struct Drawn {
    pub card: Suggestion,
    pub axes: Axes,
    /// Columns the card reads that the question did not name (the date
    /// of a line, the group of a map).
    pub assumed: Vec<usize>,
    pub kind: CardKind,
    pub answer: String,
}

/// The card of `plan` over `table`; `Err` with the reason when the plan
/// asks nothing a card can show (the caller falls back to the recommender).
pub fn draw(plan: &Plan, table: &Table, drawing: &Drawing) -> Result<Drawn, String> {
    let keep = mask(plan, table);
    let kept = keep.iter().filter(|k| **k).count();
    if kept == 0 {
        return Err(no_rows(plan, table));
    }
    let mut work = Work {
        keep,
        notes: Vec::new(),
        assumed: Vec::new(),
        points: usize::MAX,
        title_tail: String::new(),
        axes: Axes::default(),
    };
    let kind = kind_of(plan, table, &mut work)?;
    let ask = Ask::new(plan, table, drawing, kept);
    let dimension = dimension(&ask, kind, &mut work);
    work.title_tail = filter_words(plan, table, &ask.row, ask.counting);
    // Areas are lines filled: drawn as one, then filled (below).
    let shape = match kind {
        CardKind::AreaTimeseries | CardKind::StackedAreaTimeseries => CardKind::Timeseries,
        kind => kind,
    };
    let shaped = match shape {
        CardKind::TopLevelMetric => metric(&ask, &mut work),
        CardKind::Map | CardKind::BubbleMap => places(&ask, shape, &mut work)?,
        CardKind::Timeseries => line(&ask, &mut work)?,
        CardKind::Scatter => scatter(&ask, &mut work)?,
        CardKind::Histogram => histogram(&ask, &mut work)?,
        CardKind::Boxplot => boxplot(&ask, dimension, &mut work)?,
        CardKind::Table => table_of(&ask, &mut work),
        kind => match groups(&ask, kind, dimension, &mut work)? {
            Grouped::Shaped(shaped) => shaped,
            Grouped::Redrawn(drawn) => return Ok(*drawn),
        },
    };
    let about = About {
        kind: shaped.kind,
        title: shaped.title.clone(),
        description: String::new(),
        confidence: "high",
        dark: drawing.dark,
    };
    let card = Suggestion::new(about, shaped.labels, shaped.card)?;
    let card = fill(kind, card, plan, &mut work.notes);
    Ok(answer(&ask, card, work))
}

/// What drawing a plan has found so far: the rows kept (a panel is kept
/// to its latest date), what was assumed and noted, the points drawn
/// (fewer than the rows means rows were combined) and the words of the
/// filters at the end of the title.
struct Work {
    keep: Vec<bool>,
    notes: Vec<String>,
    assumed: Vec<usize>,
    points: usize,
    title_tail: String,
    axes: Axes,
}

/// A card's type, title, axis titles and data, before it is filled and
/// titled.
struct Shaped {
    kind: CardKind,
    title: String,
    labels: Labels,
    card: Card,
}

/// What every step reads: the plan, the table, and what they say of the
/// card (what a row is, the date column, the measure and its aggregate).
struct Ask<'a> {
    plan: &'a Plan,
    table: &'a Table,
    drawing: &'a Drawing<'a>,
    /// What one row is, in the plural ("cars", or the dates listed).
    row: String,
    time: Option<usize>,
    /// None when rows are counted.
    measure: Option<usize>,
    aggregate: Aggregate,
    counting: bool,
    /// "Number of days with rain": rows counted with the values asked.
    counted: String,
    /// Rows the filters keep.
    kept: usize,
}

impl<'a> Ask<'a> {
    fn new(plan: &'a Plan, table: &'a Table, drawing: &'a Drawing<'a>, kept: usize) -> Ask<'a> {
        // Rows listed by a date named first ("years with …") are those dates.
        let listed = plan
            .dimensions
            .iter()
            .find(|d| plan.listing && table.columns.get(**d).is_some_and(|c| c.kind == Kind::Time))
            .and_then(|d| table.columns.get(*d))
            .map(|c| plural(&display(&c.name).to_lowercase()));
        let row = listed.unwrap_or_else(|| drawing.row.to_owned());
        let measure = plan.measures.first().copied();
        let counting = plan.aggregate == Some(Aggregate::Count) || measure.is_none();
        let aggregate = if counting {
            Aggregate::Count
        } else {
            plan.aggregate
                .unwrap_or_else(|| default_aggregate(table, measure))
        };
        let counted_values: Vec<String> = plan
            .filters
            .iter()
            .filter(|f| Some(f.column) != plan.split && f.or.is_empty())
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
        Ask {
            plan,
            table,
            drawing,
            time: plan.time.or_else(|| date_column(table)),
            measure: if counting { None } else { measure },
            aggregate,
            counting,
            counted,
            kept,
            row,
        }
    }

    fn name_of(&self, c: usize) -> String {
        self.table
            .columns
            .get(c)
            .map(|c| display(&c.name))
            .unwrap_or_default()
    }

    /// The measure as a title says it: "Average price", "Number of cars".
    fn measure_words(&self, m: Option<usize>) -> String {
        match m {
            None => self.counted.clone(),
            Some(m) => match self.plan.aggregate {
                Some(Aggregate::Distinct) => format!(
                    "{} {}",
                    Aggregate::Distinct.word(),
                    super::words::plural(&self.name_of(m).to_lowercase())
                ),
                Some(a) if a != Aggregate::Count => {
                    format!("{} {}", a.word(), self.name_of(m).to_lowercase())
                }
                _ => self.name_of(m),
            },
        }
    }

    /// The value axis's title: the measure's name, or the count of rows.
    fn value_label(&self) -> String {
        self.measure
            .map_or_else(|| format!("Number of {}", self.row), |m| self.name_of(m))
    }
}

/// Why no row is left: the filters, in words.
fn no_rows(plan: &Plan, table: &Table) -> String {
    let filters: Vec<String> = plan
        .filters
        .iter()
        .map(|f| {
            filter_text(
                &|c| {
                    table
                        .columns
                        .get(c)
                        .map(|c| c.name.clone())
                        .unwrap_or_default()
                },
                f,
            )
        })
        .collect();
    format!("no row has {}", filters.join(" and "))
}

/// The card type: the one asked for where the data can be drawn so (else
/// the one inferred, said why), or the one the tasks call for.
fn kind_of(plan: &Plan, table: &Table, work: &mut Work) -> Result<CardKind, String> {
    let keep = &work.keep;
    let base = if plan.listing {
        Some(CardKind::Table)
    } else {
        inferred(plan, table, keep)
    };
    // Bars asked of two groups ("bar chart of X by rank, grouped by
    // discipline") are grouped bars: the second group kept.
    let two_groups = plan.dimensions.len() + usize::from(plan.split.is_some()) >= 2;
    let chart = plan.chart.map(|(kind, word)| match kind {
        CardKind::Bar if two_groups => (CardKind::GroupedBar, word),
        kind => (asked_of(kind, plan, table, keep), word),
    });
    Ok(match chart {
        Some((asked, _)) if feasible(asked, plan, table, keep) => asked,
        Some((asked, word)) => {
            let instead = base.unwrap_or(CardKind::Table);
            work.notes.push(format!(
                "a {word} needs {}, so this is {} instead",
                cards::needs(asked),
                cards::word(instead)
            ));
            instead
        }
        None => base.ok_or_else(|| "the question names no column of the table".to_owned())?,
    })
}

/// The group of a bar, pie, map or grid: asked, compared, or the best
/// there is (said, and counted as assumed).
fn dimension(ask: &Ask, kind: CardKind, work: &mut Work) -> Option<usize> {
    let (plan, table) = (ask.plan, ask.table);
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
    if !grouped {
        return None;
    }
    let label = things_column(table);
    let asked = plan
        .dimensions
        .first()
        .copied()
        .or(plan.split)
        .or(plan
            .time
            .filter(|_| matches!(kind, CardKind::Bar | CardKind::Pie)))
        .or(label.filter(|_| plan.has(Task::Rank)));
    let dimension = asked.or_else(|| {
        let d = best_category(table, &work.keep, kind == CardKind::Choropleth)?;
        if matches!(
            kind,
            CardKind::Bar | CardKind::Pie | CardKind::Choropleth | CardKind::Boxplot
        ) {
            work.notes.push(format!(
                "grouped by {}, the question naming no group",
                ask.name_of(d).to_lowercase()
            ));
        }
        work.assumed.push(d);
        Some(d)
    });
    if let Some(d) = dimension.filter(|d| !plan.attributes().contains(d)) {
        if !work.assumed.contains(&d) {
            work.assumed.push(d);
        }
    }
    dimension
}

/// A headline number: its latest value, after the earlier ones.
fn metric(ask: &Ask, work: &mut Work) -> Shaped {
    // The value now only where it is asked ("latest", "kpi", a date
    // named); "how many employees are full time" counts every row.
    let plan = ask.plan;
    let dated = ask
        .time
        .filter(|_| plan.latest || plan.headline || plan.time.is_some());
    let (points, dated, said) = headline(
        ask.table,
        &work.keep,
        dated,
        ask.measure,
        ask.aggregate,
        ask.plan.grain,
    );
    work.points = dated;
    work.axes.y = ask.measure.into_iter().collect();
    work.notes.extend(said.map(|date| {
        format!(
            "the latest {}, {date}",
            ask.name_of(ask.time.unwrap_or_default()).to_lowercase()
        )
    }));
    Shaped {
        kind: CardKind::TopLevelMetric,
        title: ask.measure_words(ask.measure),
        labels: Labels::none(),
        card: cards::metric(points),
    }
}

/// Places on a map, as the recommender draws them, of the rows kept.
fn places(ask: &Ask, kind: CardKind, work: &mut Work) -> Result<Shaped, String> {
    let plan = ask.plan;
    work.axes.x = plan
        .dimensions
        .iter()
        .copied()
        .find(|d| {
            ask.table
                .columns
                .get(*d)
                .is_some_and(|c| c.kind == Kind::Place)
        })
        .or_else(|| best_category(ask.table, &work.keep, true));
    work.axes.y = ask.measure.into_iter().collect();
    let named: Vec<usize> = plan
        .measures
        .iter()
        .chain(&plan.dimensions)
        .copied()
        .collect();
    let kept = kept(ask.table, &work.keep);
    let card = crate::recommend::shaped(&kept, kind, &named, ask.drawing.dark)
        .ok_or_else(|| cards::needs(kind).to_owned())?;
    Ok(Shaped {
        kind,
        title: card.title().to_owned(),
        labels: Labels::none(),
        card: card.chart.card,
    })
}

/// A line over time: one series per measure, per value of the split,
/// or one; dates grouped by month or year when there are too many.
fn line(ask: &Ask, work: &mut Work) -> Result<Shaped, String> {
    let plan = ask.plan;
    let t = ask
        .time
        .ok_or_else(|| cards::needs(CardKind::Timeseries).to_owned())?;
    if !plan.attributes().contains(&t) {
        work.assumed.push(t);
    }
    // The line's own columns: a group it does not split by is no column of it.
    work.assumed.retain(|c| *c == t);
    let grain = line_grain(ask, t, work);
    let period = Key::Period(t, grain);
    let by = series_column(ask, work);
    if let Some(b) = by.filter(|b| !plan.attributes().contains(b)) {
        work.notes
            .push(format!("a series per {}", ask.name_of(b).to_lowercase()));
        work.assumed.push(b);
    }
    let mut series = line_series(ask, &work.keep, period, by);
    fold_lines(ask, by, &mut series, &mut work.notes);
    work.points = series.iter().map(|(_, p)| p.len()).sum::<usize>() / series.len().max(1);
    zero_periods(ask, t, period, &mut series);
    let series: Vec<cards::Line> = series
        .into_iter()
        .map(|(name, mut points)| {
            points.sort_by(|a, b| a.1.total_cmp(&b.1));
            (name, points.into_iter().map(|(x, _, y)| (x, y)).collect())
        })
        .collect();
    let several = plan.measures.len() >= 2 && !ask.counting;
    work.axes = Axes {
        x: Some(t),
        grain,
        y: if several {
            plan.measures.clone()
        } else {
            ask.measure.into_iter().collect()
        },
        group: by,
    };
    let what = if several {
        plan.measures
            .iter()
            .map(|m| ask.name_of(*m))
            .collect::<Vec<_>>()
            .join(" and ")
    } else {
        ask.measure_words(ask.measure)
    };
    let labels = Labels {
        x: Some(ask.name_of(t)),
        y: (!several).then(|| ask.value_label()),
    };
    Ok(Shaped {
        kind: CardKind::Timeseries,
        title: format!("{what}{}", over(ask, grain, by)),
        labels,
        card: cards::line(series),
    })
}

/// The series of a line: per measure, per value of `by` (the values the
/// question names first, in its order), or the one measure.
/// The grain of a line over `t`: the one asked, else months or years
/// where there are too many dates to draw each (said so).
fn line_grain(ask: &Ask, t: usize, work: &mut Work) -> Option<Grain> {
    let dates = distinct_kept(ask.table, &work.keep, t);
    let grain = ask.plan.grain.or_else(|| {
        let limit = if ask.counting { 60 } else { MAX_POINTS };
        // The finest grain that draws few enough points: days of a few
        // months of hours, months of a few years, else years.
        let days = days_spanned(ask.table, &work.keep, t);
        (dates > limit).then_some(if days < limit as f64 {
            Grain::Day
        } else if dates > MAX_POINTS * 30 {
            Grain::Year
        } else {
            Grain::Month
        })
    });
    if let (None, Some(g)) = (ask.plan.grain, grain) {
        work.notes.push(format!(
            "{} grouped by {}",
            ask.name_of(t).to_lowercase(),
            g.as_str()
        ));
    }
    grain
}

/// The column a line draws a series per value of: the values compared,
/// the colour group, a group named (every value a line, the smallest
/// folded by the caller), or for stacked areas of one measure in a long
/// table (date, category, value) its category, the table pivoted.
fn series_column(ask: &Ask, work: &Work) -> Option<usize> {
    let (plan, table) = (ask.plan, ask.table);
    let fits = |d: &usize| (2..=MAX_SERIES).contains(&distinct_kept(table, &work.keep, *d));
    let stacked = matches!(plan.chart, Some((CardKind::StackedAreaTimeseries, _)))
        && (plan.measures.len() < 2 || ask.counting);
    plan.split
        .or(plan.colour.filter(fits))
        .or_else(|| {
            plan.dimensions
                .first()
                .copied()
                .filter(|d| distinct_kept(table, &work.keep, *d) >= 2)
        })
        .or_else(|| {
            stacked
                .then(|| best_category(table, &work.keep, false))
                .flatten()
        })
}

/// Bands of a stacked area at most: the colours of zdr-chart's palette.
const MAX_BANDS: usize = 8;

/// More lines than tell apart ([`MAX_SERIES`]): the smallest folded
/// into "Other", said so.
fn fold_lines(
    ask: &Ask,
    by: Option<usize>,
    series: &mut Vec<(String, Vec<Point>)>,
    notes: &mut Vec<String>,
) {
    // Stacked bands touch: each needs a colour of its own (the palette's
    // eight), where lines may share one.
    let most = match ask.plan.chart {
        Some((CardKind::StackedAreaTimeseries, _)) => MAX_BANDS,
        _ => MAX_SERIES,
    };
    let total = series.len();
    if total <= most {
        return;
    }
    fold_series(series, most);
    let what = by.map_or_else(
        || "series".to_owned(),
        |b| plural(&ask.name_of(b).to_lowercase()),
    );
    let folded = total - (most - 1);
    notes.push(format!(
        "the {folded} smallest of {total} {what} folded into Other"
    ));
}

/// The `most - 1` series of largest total kept, the rest summed point by
/// point into one "Other" series: a stack of too many bands reads as
/// none.
fn fold_series(series: &mut Vec<(String, Vec<Point>)>, most: usize) {
    let total = |points: &[Point]| points.iter().map(|p| p.2).sum::<f64>();
    series.sort_by(|a, b| total(&b.1).total_cmp(&total(&a.1)));
    let rest = series.split_off(most.saturating_sub(1).min(series.len()));
    let count = rest.len();
    let mut other: Vec<Point> = Vec::new();
    for point in rest.into_iter().flat_map(|(_, p)| p) {
        match other.iter_mut().find(|o| o.0 == point.0) {
            Some(o) => o.2 += point.2,
            None => other.push(point),
        }
    }
    if !other.is_empty() {
        series.push((format!("Other ({count})"), other));
    }
}

fn line_series(
    ask: &Ask,
    keep: &[bool],
    period: Key,
    by: Option<usize>,
) -> Vec<(String, Vec<Point>)> {
    let (plan, table) = (ask.plan, ask.table);
    let concat = |points: Vec<(Vec<String>, f64, f64)>| -> Vec<Point> {
        points
            .into_iter()
            .map(|(k, o, v)| (k.concat(), o, v))
            .collect()
    };
    if plan.measures.len() >= 2 && !ask.counting {
        return plan
            .measures
            .iter()
            .take(MAX_SERIES)
            .map(|m| {
                let agg = plan
                    .aggregate
                    .unwrap_or_else(|| default_aggregate(table, Some(*m)));
                let points = group(table, keep, &[period], Some(*m), agg);
                (ask.name_of(*m), concat(points))
            })
            .collect();
    }
    let Some(by) = by else {
        let points = group(table, keep, &[period], ask.measure, ask.aggregate);
        let name = ask
            .measure
            .map_or_else(|| format!("Number of {}", ask.row), |m| ask.name_of(m));
        return vec![(name, concat(points))];
    };
    let points = group(
        table,
        keep,
        &[Key::Column(by), period],
        ask.measure,
        ask.aggregate,
    );
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
    let mut series = Vec::new();
    // Every series: more than a line tells apart are folded by the caller.
    for name in order.into_iter().take(MAX_BARS) {
        let pts: Vec<Point> = points
            .iter()
            .filter(|(k, _, _)| k.first().is_some_and(|f| f.eq_ignore_ascii_case(&name)))
            .map(|(k, o, v)| (k.get(1).cloned().unwrap_or_default(), *o, *v))
            .collect();
        if !pts.is_empty() {
            series.push((name, pts));
        }
    }
    series
}

/// A count or a sum of a period with no row is 0, not a gap: the periods
/// are those of the rows the date filters keep.
fn zero_periods(ask: &Ask, t: usize, period: Key, series: &mut [(String, Vec<Point>)]) {
    let plan = ask.plan;
    if !matches!(ask.aggregate, Aggregate::Count | Aggregate::Sum) || plan.measures.len() >= 2 {
        return;
    }
    let mut dated = plan.clone();
    dated.filters.retain(|f| f.column == t);
    let all = group(
        ask.table,
        &mask(&dated, ask.table),
        &[period],
        None,
        Aggregate::Count,
    );
    for (_, pts) in series {
        let have: std::collections::HashSet<String> = pts.iter().map(|p| p.0.clone()).collect();
        for (k, order, _) in &all {
            let k = k.concat();
            if !have.contains(&k) {
                pts.push((k, *order, 0.0));
            }
        }
    }
}

/// The end of a line's title: " per month", " by region over time".
fn over(ask: &Ask, grain: Option<Grain>, by: Option<usize>) -> String {
    let plan = ask.plan;
    match (grain, by) {
        (Some(g), None) => format!(" per {}", g.as_str()),
        (Some(g), Some(b)) => {
            format!(" by {} per {}", ask.name_of(b).to_lowercase(), g.as_str())
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
        (None, Some(b)) => format!(" by {} over time", ask.name_of(b).to_lowercase()),
        (None, None) => " over time".to_owned(),
    }
}

/// The kept rows' points `(x, y)`, a group per value of `colour` (one
/// group without it), in the order first seen; one pass, indexed.
fn points_by_group(
    (xs, ys): (&crate::table::Column, &crate::table::Column),
    colour: Option<&crate::table::Column>,
    keep: &[bool],
) -> Vec<(String, Vec<(f64, f64)>)> {
    let mut groups: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let rows = xs.cells.iter().zip(&ys.cells).zip(keep).enumerate();
    // A column of years ("Season") plots as the years' numbers.
    let value = |column: &crate::table::Column, cell: &Cell| match column.kind {
        Kind::Time => super::rows::year_of(cell),
        _ => number(cell),
    };
    for (row, ((a, b), _)) in rows.filter(|(_, (_, k))| **k) {
        let (Some(a), Some(b)) = (value(xs, a), value(ys, b)) else {
            continue;
        };
        let name = match colour.and_then(|c| c.cells.get(row)) {
            Some(Cell::Text(t)) => t.clone(),
            Some(Cell::Number(n)) => format_number(*n),
            _ => String::new(),
        };
        let at = *index.entry(name.clone()).or_insert_with(|| {
            groups.push((name, Vec::new()));
            groups.len() - 1
        });
        if let Some((_, points)) = groups.get_mut(at) {
            points.push((a, b));
        }
    }
    groups
}

/// The kept rows as points of the first two measures.
fn scatter(ask: &Ask, work: &mut Work) -> Result<Shaped, String> {
    let (x, y) = match ask.plan.measures.as_slice() {
        [x, y, ..] => (*x, *y),
        _ => return Err(cards::needs(CardKind::Scatter).to_owned()),
    };
    let (Some(xs), Some(ys)) = (ask.table.columns.get(x), ask.table.columns.get(y)) else {
        return Err(cards::needs(CardKind::Scatter).to_owned());
    };
    // The colour group, or a category the question groups by ("scatter of
    // salary and service for each discipline").
    let colour_column = ask.plan.colour.or_else(|| {
        ask.plan.dimensions.first().copied().filter(|d| {
            ask.table
                .columns
                .get(*d)
                .is_some_and(|c| matches!(c.kind, Kind::Category | Kind::Place))
        })
    });
    let colour = colour_column.and_then(|c| ask.table.columns.get(c));
    let mut groups = points_by_group((xs, ys), colour, &work.keep);
    // More groups than colours tell apart: one colour.
    if groups.len() > MAX_SERIES {
        let all = groups.into_iter().flat_map(|(_, p)| p).collect();
        groups = vec![(String::new(), all)];
    }
    // A group of one point each (states, one row per state) colours nothing.
    let points: usize = groups.iter().map(|(_, p)| p.len()).sum();
    if ask.plan.colour.is_none() && groups.len() == points {
        groups = vec![(
            String::new(),
            groups.into_iter().flat_map(|(_, p)| p).collect(),
        )];
    }
    let coloured = colour_column.filter(|_| groups.len() > 1);
    work.axes = Axes {
        x: Some(x),
        grain: None,
        y: vec![y],
        group: coloured,
    };
    let by = coloured
        .map(|c| format!(" by {}", ask.name_of(c).to_lowercase()))
        .unwrap_or_default();
    Ok(Shaped {
        kind: CardKind::Scatter,
        title: format!(
            "{} against {}{by}",
            ask.name_of(y),
            ask.name_of(x).to_lowercase()
        ),
        labels: Labels::xy(&ask.name_of(x), &ask.name_of(y)),
        card: cards::scatter_groups(groups),
    })
}

/// The kept values of the first measure, binned by the engine.
fn histogram(ask: &Ask, work: &mut Work) -> Result<Shaped, String> {
    let m = ask
        .plan
        .measures
        .first()
        .copied()
        .ok_or_else(|| cards::needs(CardKind::Histogram).to_owned())?;
    let column = ask
        .table
        .columns
        .get(m)
        .ok_or_else(|| cards::needs(CardKind::Histogram).to_owned())?;
    let values: Vec<f64> = column
        .cells
        .iter()
        .zip(&work.keep)
        .filter(|(_, k)| **k)
        .filter_map(|(c, _)| number(c))
        .collect();
    work.axes.x = Some(m);
    Ok(Shaped {
        kind: CardKind::Histogram,
        title: format!("Distribution of {}", ask.name_of(m).to_lowercase()),
        labels: Labels::x(&ask.name_of(m)),
        card: cards::histogram(values),
    })
}

/// A box of the first measure's kept values per value of the group.
fn boxplot(ask: &Ask, dimension: Option<usize>, work: &mut Work) -> Result<Shaped, String> {
    let m = ask
        .plan
        .measures
        .first()
        .copied()
        .ok_or_else(|| cards::needs(CardKind::Boxplot).to_owned())?;
    let d = dimension.ok_or_else(|| cards::needs(CardKind::Boxplot).to_owned())?;
    let (Some(mc), Some(dc)) = (ask.table.columns.get(m), ask.table.columns.get(d)) else {
        return Err(cards::needs(CardKind::Boxplot).to_owned());
    };
    let rows: Vec<(String, f64)> = dc
        .cells
        .iter()
        .zip(&mc.cells)
        .zip(&work.keep)
        .filter(|(_, k)| **k)
        .filter_map(|((c, v), _)| {
            let label = match c {
                Cell::Text(t) => t.clone(),
                Cell::Number(n) => format_number(*n),
                Cell::Empty => return None,
            };
            Some((label, number(v)?))
        })
        .collect();
    work.axes = Axes {
        x: Some(d),
        grain: None,
        y: vec![m],
        group: None,
    };
    Ok(Shaped {
        kind: CardKind::Boxplot,
        title: format!(
            "Distribution of {} by {}",
            ask.name_of(m).to_lowercase(),
            ask.name_of(d).to_lowercase()
        ),
        labels: Labels::xy(&ask.name_of(d), &ask.name_of(m)),
        card: cards::boxplot(rows),
    })
}

/// The kept rows listed: the column naming them and those asked of them
/// (every column when that is fewer than two), the first
/// [`MAX_TABLE_ROWS`]; the filters' words become the title.
fn table_of(ask: &Ask, work: &mut Work) -> Shaped {
    let (plan, table) = (ask.plan, ask.table);
    let mut columns: Vec<usize> = Vec::new();
    let label = things_column(table).or_else(|| {
        // Rows listed by a date or a category named with them.
        plan.dimensions.first().copied().or(plan.time)
    });
    if let Some(label) = label {
        columns.push(label);
    }
    work.axes = Axes {
        x: label,
        grain: None,
        y: plan.measures.clone(),
        group: None,
    };
    for c in plan.attributes() {
        if !columns.contains(&c) {
            columns.push(c);
        }
    }
    if columns.len() < 2 {
        columns = (0..table.columns.len()).collect();
    }
    let mut kept: Vec<usize> = (0..table.rows)
        .filter(|r| work.keep.get(*r) == Some(&true))
        .collect();
    if let Some(rank) = plan.rank {
        order_rows(ask, rank, &mut kept);
    }
    let rows = kept
        .into_iter()
        .take(MAX_TABLE_ROWS)
        .map(|r| {
            columns
                .iter()
                .map(|c| table.columns.get(*c).and_then(|c| c.cells.get(r)))
                .collect()
        })
        .collect();
    if ask.kept > MAX_TABLE_ROWS {
        work.notes
            .push(format!("the first {MAX_TABLE_ROWS} of {} rows", ask.kept));
    }
    let names: Vec<String> = columns
        .iter()
        .filter_map(|c| table.columns.get(*c).map(|c| c.name.clone()))
        .collect();
    let row = ask.row.as_str();
    let tail = work.title_tail.trim_start_matches(", ");
    let title = if tail.starts_with(row) {
        sentence(tail)
    } else if tail.is_empty() {
        sentence(row)
    } else {
        sentence(&format!("{row}: {tail}"))
    };
    work.title_tail.clear();
    Shaped {
        kind: CardKind::Table,
        title,
        labels: Labels::none(),
        card: cards::table(names, rows),
    }
}

/// A table's rows in the order asked: by the first measure ("the 5
/// heaviest cats"), or by the label column when the order is the x
/// axis's; empty cells last; cut to the limit.
fn order_rows(ask: &Ask, rank: super::plan::Rank, rows: &mut Vec<usize>) {
    let (plan, table) = (ask.plan, ask.table);
    let by = if rank.by_axis {
        plan.dimensions
            .first()
            .copied()
            .or_else(|| things_column(table))
    } else {
        plan.measures.first().copied()
    };
    let Some(column) = by.and_then(|c| table.columns.get(c)) else {
        return;
    };
    let key = |r: &usize| column.cells.get(*r);
    rows.sort_by(|a, b| {
        let order = match (key(a), key(b)) {
            (Some(Cell::Number(x)), Some(Cell::Number(y))) => x.total_cmp(y),
            (Some(Cell::Text(x)), Some(Cell::Text(y))) => x.to_lowercase().cmp(&y.to_lowercase()),
            (Some(Cell::Empty) | None, _) => return std::cmp::Ordering::Greater,
            (_, Some(Cell::Empty) | None) => return std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Equal,
        };
        if rank.descending {
            order.reverse()
        } else {
            order
        }
    });
    if let Some(n) = rank.limit {
        rows.truncate(n);
    }
}

/// What grouping the kept rows gave: a card, or (one group left) the
/// line over time drawn instead.
enum Grouped {
    Shaped(Shaped),
    Redrawn(Box<Drawn>),
}

/// Bars, pies, maps, treemaps and grids: the kept rows in groups. A
/// panel's levels and rates are kept to their latest date first.
fn groups(
    ask: &Ask,
    kind: CardKind,
    dimension: Option<usize>,
    work: &mut Work,
) -> Result<Grouped, String> {
    let table = ask.table;
    let mut d = dimension;
    // A date column groups by its periods.
    let mut key = d.map(|d| match table.columns.get(d).map(|c| c.kind) {
        Some(Kind::Time) => Key::Period(d, ask.plan.grain),
        _ => Key::Column(d),
    });
    if key.is_none() {
        // Bars of periods when there is nothing else to group by.
        if let Some(t) = ask.time {
            key = Some(Key::Period(t, ask.plan.grain));
            d = Some(t);
        }
    }
    let (Some(key), Some(d)) = (key, d) else {
        return Err(cards::needs(kind).to_owned());
    };
    keep_latest(ask, d, work);
    let inner = ask
        .plan
        .dimensions
        .get(1)
        .copied()
        .or(ask.plan.split.filter(|s| Some(*s) != Some(d)));
    let several = ask.plan.measures.len() >= 2 && !ask.counting;
    if inner.is_none() && several && matches!(kind, CardKind::GroupedBar | CardKind::StackedBar) {
        return Ok(Grouped::Shaped(measures_side_by_side(
            ask,
            kind,
            (key, d),
            work,
        )));
    }
    if matches!(
        kind,
        CardKind::GroupedBar | CardKind::StackedBar | CardKind::Heatmap
    ) {
        // "Stacked bar of home runs by year, colored by league": the
        // colour group stacks along the periods.
        let by_periods = ask.time.filter(|t| *t != d && ask.plan.colour == Some(d));
        if let (None, Some(t)) = (inner, by_periods) {
            let periods = (Key::Period(t, ask.plan.grain), t);
            return grid(ask, kind, periods, Some(d), work).map(Grouped::Shaped);
        }
        return grid(ask, kind, (key, d), inner, work).map(Grouped::Shaped);
    }
    bars(ask, kind, (key, d), work)
}

/// Levels and rates of a panel (a table of things over time) at their
/// latest date, said: their sum over dates would mean nothing.
fn keep_latest(ask: &Ask, d: usize, work: &mut Work) {
    let (plan, table) = (ask.plan, ask.table);
    let (Some(t), Some(_)) = (ask.time, ask.measure) else {
        return;
    };
    let flow = default_aggregate(table, ask.measure) == Aggregate::Sum
        && !ask.measure.is_some_and(|m| is_level(table, m));
    let asked_time_filter = plan.filters.iter().any(|f| Some(f.column) == ask.time);
    // A table that lists things (cars by model year) is no panel.
    if t == d || asked_time_filter || plan.aggregate.is_some() || flow || lists_things(table) {
        return;
    }
    if let Some((at, date)) = latest(table, &work.keep, d, t) {
        work.keep = at;
        work.title_tail.push_str(&format!(", {date}"));
        work.notes.push(format!(
            "the latest {}, {date}",
            ask.name_of(t).to_lowercase()
        ));
    }
}

/// Grouped or stacked bars of two groups, or a heatmap where the inner
/// group has more values than bars tell apart.
fn grid(
    ask: &Ask,
    kind: CardKind,
    (key, d): (Key, usize),
    inner: Option<usize>,
    work: &mut Work,
) -> Result<Shaped, String> {
    let (inner_key, inner_name) = match inner {
        Some(i) => (Key::Column(i), ask.name_of(i)),
        None => match ask.time {
            Some(t) if t != d => (Key::Period(t, ask.plan.grain), ask.name_of(t)),
            _ => return Err(cards::needs(kind).to_owned()),
        },
    };
    work.axes = along(
        key,
        d,
        ask.measure.into_iter().collect(),
        inner.or(ask.time.filter(|t| *t != d)),
    );
    let cells = group(
        ask.table,
        &work.keep,
        &[key, inner_key],
        ask.measure,
        ask.aggregate,
    );
    work.points = cells.len();
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
    let pairs = cells.into_iter().map(|(k, _, v)| {
        let mut k = k.into_iter();
        (
            k.next().unwrap_or_default(),
            k.next().unwrap_or_default(),
            v,
        )
    });
    let (card, y_label) = if kind == CardKind::Heatmap {
        (cards::heatmap(pairs.collect())?, inner_name.clone())
    } else {
        (
            cards::categorical(kind, series_by_inner(pairs)),
            ask.value_label(),
        )
    };
    Ok(Shaped {
        kind,
        title: format!(
            "{} by {} and {}",
            ask.measure_words(ask.measure),
            ask.name_of(d).to_lowercase(),
            inner_name.to_lowercase()
        ),
        labels: Labels::xy(&ask.name_of(d), &y_label),
        card,
    })
}

/// A series per inner group of `(outer, inner, value)` cells, in the order
/// first seen (at most [`MAX_GROUPS`] inner groups reach here).
fn series_by_inner(
    cells: impl Iterator<Item = (String, String, f64)>,
) -> Vec<(String, Vec<(String, f64)>)> {
    let mut series: Vec<(String, Vec<(String, f64)>)> = Vec::new();
    for (outer, inner, v) in cells {
        match series.iter_mut().find(|(name, _)| *name == inner) {
            Some((_, points)) => points.push((outer, v)),
            None => series.push((inner, vec![(outer, v)])),
        }
    }
    series
}

/// "Average wind and temperature by month": grouped (or stacked) bars of
/// each measure named, one series per measure, each aggregated as asked
/// or as its kind calls for (flows summed, rates averaged).
fn measures_side_by_side(
    ask: &Ask,
    kind: CardKind,
    (key, d): (Key, usize),
    work: &mut Work,
) -> Shaped {
    let mut series: Vec<(String, Vec<(String, f64)>)> = Vec::new();
    for &m in ask.plan.measures.iter().take(MAX_GROUPS) {
        let aggregate = ask
            .plan
            .aggregate
            .unwrap_or_else(|| default_aggregate(ask.table, Some(m)));
        let mut points: Vec<(String, f64, f64)> =
            group(ask.table, &work.keep, &[key], Some(m), aggregate)
                .into_iter()
                .map(|(k, o, v)| (k.concat(), o, v))
                .collect();
        if matches!(key, Key::Period(..)) {
            points.sort_by(|a, b| a.1.total_cmp(&b.1));
        }
        points.truncate(MAX_BARS);
        work.points = work.points.min(points.len());
        series.push((
            ask.name_of(m),
            points.into_iter().map(|(x, _, y)| (x, y)).collect(),
        ));
    }
    work.axes = along(
        key,
        d,
        ask.plan.measures.iter().take(MAX_GROUPS).copied().collect(),
        None,
    );
    let names: Vec<String> = series.iter().map(|(n, _)| n.to_lowercase()).collect();
    let names = match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    let title = match ask.plan.aggregate {
        Some(a) => format!("{} {names} by {}", a.word(), ask.name_of(d).to_lowercase()),
        None => format!("{names} by {}", ask.name_of(d).to_lowercase()),
    };
    Shaped {
        kind,
        title: sentence(&title),
        labels: Labels::xy(&ask.name_of(d), &ask.value_label()),
        card: cards::categorical(kind, series),
    }
}

/// Bars, a pie, a map or a treemap of one group: ranked and cut where
/// asked, the smallest slices of a pie folded, the largest bars kept;
/// values a pie or a treemap cannot show drawn as bars, said why.
fn bars(
    ask: &Ask,
    kind: CardKind,
    (key, d): (Key, usize),
    work: &mut Work,
) -> Result<Grouped, String> {
    let mut groups: Vec<(String, f64, f64)> =
        group(ask.table, &work.keep, &[key], ask.measure, ask.aggregate)
            .into_iter()
            .map(|(k, o, v)| (k.concat(), o, v))
            .collect();
    if matches!(key, Key::Period(..)) {
        groups.sort_by(|a, b| a.1.total_cmp(&b.1));
    }
    work.points = groups.len();
    // A ranking, a map or a pie of one thing says nothing.
    if groups.len() < 2 && kind != CardKind::Waterfall {
        if let Some(t) = ask.time.filter(|t| *t != d) {
            return one_left(ask, d, t).map(|drawn| Grouped::Redrawn(Box::new(drawn)));
        }
    }
    // Periods of a date are named by their grain ("by month").
    let group_name = match (key, ask.plan.grain) {
        (Key::Period(..), Some(g)) => g.as_str().to_owned(),
        _ => ask.name_of(d).to_lowercase(),
    };
    let one_each = groups.len() == ask.kept;
    let title = ranked(ask, kind, &group_name, &mut groups, &mut work.notes);
    let kind = as_bars(ask, kind, (&groups, one_each), &mut work.notes);
    work.axes = along(key, d, ask.measure.into_iter().collect(), None);
    let title = if kind == CardKind::Pie {
        format!(
            "Share of {} by {}",
            ask.measure_words(ask.measure).to_lowercase(),
            group_name
        )
    } else {
        title
    };
    let points = groups.into_iter().map(|(x, _, y)| (x, y)).collect();
    Ok(Grouped::Shaped(Shaped {
        kind,
        title,
        labels: Labels::xy(&ask.name_of(d), &ask.value_label()),
        card: cards::bars(kind, points),
    }))
}

/// One group left: its line over time instead, said so.
fn one_left(ask: &Ask, d: usize, t: usize) -> Result<Drawn, String> {
    let mut again = ask.plan.clone();
    again.chart = None;
    again.tasks = vec![Task::Trend];
    again.rank = None;
    again.time = Some(t);
    again.dimensions.clear();
    let mut drawn = draw(&again, ask.table, ask.drawing)?;
    drawn.answer = format!(
        "{} Only one {} is left, so this is its line over time.",
        drawn.answer,
        ask.name_of(d).to_lowercase()
    );
    Ok(drawn)
}

/// The groups ranked and cut as asked, a pie's smallest folded into
/// "Other", the largest bars kept; the title that says which.
fn ranked(
    ask: &Ask,
    kind: CardKind,
    group_name: &str,
    groups: &mut Vec<(String, f64, f64)>,
    notes: &mut Vec<String>,
) -> String {
    let measure_words = ask.measure_words(ask.measure);
    let total = groups.len();
    if let Some(rank) = ask.plan.rank.filter(|r| r.by_axis) {
        return ranked_by_axis(rank, &measure_words, group_name, groups, notes);
    }
    if let Some(rank) = ask.plan.rank {
        if rank.descending {
            groups.sort_by(|a, b| b.2.total_cmp(&a.2));
        } else {
            groups.sort_by(|a, b| a.2.total_cmp(&b.2));
        }
        let limit = rank.limit.unwrap_or(MAX_BARS).min(MAX_BARS);
        groups.truncate(limit);
        if rank.assumed_limit {
            notes.push(format!(
                "the {} {}, the question giving no number",
                limit.min(total),
                if rank.descending { "highest" } else { "lowest" }
            ));
        }
        let end = if rank.descending { "Top" } else { "Bottom" };
        return match rank.limit {
            Some(n) => format!(
                "{end} {n} {} by {}",
                plural(group_name),
                measure_words.to_lowercase()
            ),
            None => format!(
                "{measure_words} by {group_name}, {}",
                if rank.descending {
                    "highest first"
                } else {
                    "lowest first"
                }
            ),
        };
    }
    if kind == CardKind::Pie && total > MAX_SLICES {
        groups.sort_by(|a, b| b.2.total_cmp(&a.2));
        let rest: f64 = groups.iter().skip(MAX_SLICES - 1).map(|g| g.2).sum();
        groups.truncate(MAX_SLICES - 1);
        groups.push((format!("Other ({})", total - (MAX_SLICES - 1)), 0.0, rest));
        notes.push(format!(
            "the {} smallest folded into Other",
            total - (MAX_SLICES - 1)
        ));
    } else if !matches!(kind, CardKind::Choropleth | CardKind::Treemap) && total > MAX_BARS {
        groups.sort_by(|a, b| b.2.total_cmp(&a.2));
        groups.truncate(MAX_BARS);
        notes.push(format!("the {MAX_BARS} largest of {total}"));
    }
    format!("{measure_words} by {group_name}")
}

/// Bars in the order of their labels ("from A to Z", "by the x-axis"),
/// cut to the limit; the title says the order.
fn ranked_by_axis(
    rank: super::plan::Rank,
    measure_words: &str,
    group_name: &str,
    groups: &mut Vec<(String, f64, f64)>,
    notes: &mut Vec<String>,
) -> String {
    let total = groups.len();
    by_axis(groups, rank.descending);
    if let Some(n) = rank.limit {
        groups.truncate(n.min(MAX_BARS));
    } else if total > MAX_BARS {
        groups.truncate(MAX_BARS);
        notes.push(format!("the first {MAX_BARS} of {total}"));
    }
    let order = match (numbered(groups), rank.descending) {
        (false, false) => "A to Z",
        (false, true) => "Z to A",
        (true, false) => "in ascending order",
        (true, true) => "in descending order",
    };
    format!("{measure_words} by {group_name}, {order}")
}

/// Whether every group's label is a number or a period (ordered by its
/// value, not its letters).
fn numbered(groups: &[(String, f64, f64)]) -> bool {
    groups
        .iter()
        .all(|g| g.0.trim().parse::<f64>().is_ok() || super::rows::period(&g.0, None).is_some())
}

/// The groups in the order of their labels: numbers and periods by value,
/// texts from A to Z (without case); reversed when `descending`.
fn by_axis(groups: &mut [(String, f64, f64)], descending: bool) {
    if numbered(groups) {
        let key = |g: &(String, f64, f64)| {
            g.0.trim()
                .parse::<f64>()
                .ok()
                .or_else(|| super::rows::period(&g.0, None).map(|(_, s)| s))
                .unwrap_or(0.0)
        };
        groups.sort_by(|a, b| key(a).total_cmp(&key(b)));
    } else {
        groups.sort_by_key(|g| g.0.to_lowercase());
    }
    if descending {
        groups.reverse();
    }
}

/// Bars where a treemap's areas or a pie's parts would be below zero or
/// no parts of a whole (an average), said why.
fn as_bars(
    ask: &Ask,
    kind: CardKind,
    (groups, one_each): (&[(String, f64, f64)], bool),
    notes: &mut Vec<String>,
) -> CardKind {
    let negative = groups.iter().any(|g| g.2 < 0.0);
    if kind == CardKind::Treemap && negative {
        notes.push("a treemap's areas cannot be below zero, so these are bars".to_owned());
        return CardKind::Bar;
    }
    // A pie asked of things one row each ("a pie of the names and ages")
    // shows their values as they are, nothing averaged.
    let asked = matches!(ask.plan.chart, Some((CardKind::Pie, _)));
    let whole = matches!(ask.aggregate, Aggregate::Sum | Aggregate::Count) || (asked && one_each);
    if kind == CardKind::Pie && (!whole || negative) {
        notes.push(
            "a pie shows parts of a whole: these values are not, so they are bars".to_owned(),
        );
        return CardKind::Bar;
    }
    kind
}

/// The card titled, and the sentence of what was understood, assumed and
/// ignored, as its answer and description.
fn answer(ask: &Ask, mut card: Suggestion, mut work: Work) -> Drawn {
    let (plan, row, kept) = (ask.plan, ask.row.as_str(), ask.kept);
    if let Some((words, c)) = &plan.guessed {
        work.notes.push(format!(
            "\"{words}\" taken for {}, the table's one category",
            ask.name_of(*c).to_lowercase()
        ));
    }
    let rows_used = work.keep.iter().filter(|k| **k).count();
    if let (None, Some(m), true) = (plan.aggregate, ask.measure, work.points < rows_used) {
        let m = ask.name_of(m).to_lowercase();
        work.notes.push(match ask.aggregate {
            Aggregate::Mean => format!(
                "{m} averaged over the rows of each point (a rate, a level or a property: never summed)"
            ),
            _ => format!("{m} summed over the rows of each point"),
        });
    }
    let title = sentence(&format!("{}{}", card.title(), work.title_tail));
    let kind = card.kind();
    let mut answer = format!("Shown: {}, as {}", lower_first(&title), cards::word(kind));
    // A figure asked for with no group: said in words too.
    if plan.aggregate.is_some()
        && plan.dimensions.is_empty()
        && plan.split.is_none()
        && plan.measures.len() <= 1
    {
        let all = group(
            ask.table,
            &mask(plan, ask.table),
            &[],
            ask.measure,
            ask.aggregate,
        );
        if let Some((_, _, v)) = all.first() {
            answer.push_str(&match ask.aggregate {
                Aggregate::Count => format!(" ({} {row} in all)", short(*v)),
                _ => format!(
                    " ({} over all {kept} {row}: {})",
                    ask.aggregate.as_str(),
                    short(*v)
                ),
            });
        }
    }
    if !work.notes.is_empty() {
        answer.push_str("; assumed: ");
        answer.push_str(&work.notes.join("; "));
    }
    if !plan.ignored.is_empty() {
        answer.push_str(&format!(
            "; not understood: \"{}\"",
            plan.ignored.join("\", \"")
        ));
    }
    answer.push('.');
    card.retitle(title);
    card.description = answer.clone();
    Drawn {
        card,
        axes: work.axes,
        assumed: work.assumed,
        kind,
        answer,
    }
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
) -> (Vec<cards::MetricPoint>, usize, Option<String>) {
    let Some(t) = time else {
        let all = group(table, keep, &[], measure, aggregate);
        let points: Vec<cards::MetricPoint> = all.iter().map(|(_, _, v)| (None, *v)).collect();
        let count = points.len();
        return (points, count, None);
    };
    let mut dated = group(table, keep, &[Key::Period(t, grain)], measure, aggregate);
    dated.sort_by(|a, b| a.1.total_cmp(&b.1));
    let latest = dated.last().map(|(k, _, _)| k.concat());
    // The sparkline's end: the engine reads so many points at most.
    let skip = dated.len().saturating_sub(MAX_METRIC_POINTS);
    let points: Vec<cards::MetricPoint> = dated
        .into_iter()
        .skip(skip)
        .map(|(k, _, v)| (Some(k.concat()), v))
        .collect();
    let count = points.len();
    (points, count, latest)
}

/// A line drawn for an area, filled: a running total of each series
/// when the question asks for one; stacked when [`cards::stacked`] allows,
/// else left a line, said why.
fn fill(asked: CardKind, line: Suggestion, plan: &Plan, notes: &mut Vec<String>) -> Suggestion {
    if line.kind() != CardKind::Timeseries {
        return line;
    }
    let title = line.title().to_owned();
    match asked {
        CardKind::AreaTimeseries => {
            let mut area = line;
            let title = if plan.cumulative {
                if let Card::Timeseries { series, .. } = &mut area.chart.card {
                    series.iter_mut().for_each(cards::running);
                }
                format!("Cumulative {}", lower_first(&title))
            } else {
                title
            };
            let fallback = area.clone();
            area.retyped(CardKind::AreaTimeseries, title, String::new())
                .unwrap_or(fallback)
        }
        CardKind::StackedAreaTimeseries => cards::stacked(&line, title, String::new())
            .unwrap_or_else(|| {
                notes.push(format!(
                    "stacked areas need {}, so this is a line chart instead",
                    cards::needs(CardKind::StackedAreaTimeseries)
                ));
                line
            }),
        _ => line,
    }
}
