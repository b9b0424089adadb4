//! The card types a table supports, ranked: a rule-based recommender over
//! the columns' kinds (dates, numbers, categories, places) and their
//! cardinalities, in the spirit of Tableau's Show Me, steered by a query with
//! a few deterministic rules (no language model runs here). The rules, in
//! order (docs/service-api.md lists them for users):
//!
//! 1. `viz_component_type` given: only that type, from the best columns for it.
//! 2. Distinct labels and two date columns, the second never before the
//!    first: a timeline (a bar per row from start to end).
//! 3. Dates and a measure: a line over time (one series per measure, or per
//!    category when there is one measure and at most 10 categories).
//! 4. A place (a column naming countries or US states) and a measure: a
//!    map of the sum per region (after the bars when the query names
//!    another category first).
//! 5. A category and a measure: bars (the sum per category, at most 50,
//!    largest first when there are more); a pie beside them when there are
//!    2 to 7 categories and no negative sum.
//! 6. Two categories and a measure: grouped bars (at most 12 groups), or a
//!    heatmap when the grid is larger.
//! 7. A category of 2 to 30 values, about 5 rows each or more, and a
//!    measure: a box per category.
//! 8. Two measures: a scatter of the first two.
//! 9. One measure: a histogram of it.
//! 10. Otherwise the table itself.
//!
//! A map, a pie or bars of a single category are never proposed.
//!
//! The question moves a type first, as the planner read it into its plan
//! (the recommender reads no word itself; the words are the lexicon's,
//! `query/lexicon.rs`): a stacked area, a treemap or a bubble map asked
//! for (or leant to: "bubbles"); a running total → the area; a trend →
//! the line; a timeline asked for or leant to ("schedule") → the
//! timeline; a share → the pie; a distribution → the histogram, or the
//! boxes when grouped; a correlation or "X vs Y" → the scatter; a map
//! asked for or leant to ("geographic"), or a place grouped by → the map;
//! the value now, a headline, or one number of no group ("how many") →
//! the headline number; another chart word → its card. A descending
//! ranking's limit ("top 5") keeps the N largest bars; the columns the
//! question names, those it groups by first, are taken first as category
//! or measure. Places are categories too: bars and grids use them where
//! no other category is named first.

use zdr_chart::model::{parse_date, Card, CardKind};

pub use crate::cards::Suggestion;
use crate::cards::{self, About, Labels};

use super::table::{Cell, Column, Kind, Table};

mod area;
mod parts;
mod places;

pub(crate) use places::coordinates;

/// Bars shown at most before the largest are kept.
pub(crate) const MAX_BARS: usize = 50;
/// Series of a line or groups of grouped bars at most.
pub(crate) const MAX_SERIES: usize = 10;
pub(crate) const MAX_GROUPS: usize = 12;
/// Rows a table card holds at most.
pub(crate) const MAX_TABLE_ROWS: usize = 500;
/// Cards per request at most.
pub const MAX_CARDS: usize = 3;

/// What the question asks of the recommender, as the planner read it
/// (`query::intent` fills it from the plan): no word of the question is
/// read here.
#[derive(Debug, Default)]
pub(crate) struct Intent {
    /// The card type moved first.
    pub(crate) first: Option<CardKind>,
    /// Bars kept at most, the largest.
    pub(crate) top: Option<usize>,
    /// Columns the question names, in its order, those it groups by first.
    pub(crate) named: Vec<usize>,
    /// The question asks for a running total.
    pub(crate) cumulative: bool,
    /// The question asks for the value now.
    pub(crate) latest: bool,
}

/// Columns of a kind, those the query names first; asked for categories,
/// places count too.
fn of_kind<'a>(table: &'a Table, kind: Kind, intent: &Intent) -> Vec<&'a Column> {
    let fits = |c: &&Column| c.kind == kind || (kind == Kind::Category && c.kind == Kind::Place);
    let mut picked: Vec<&Column> = intent
        .named
        .iter()
        .filter_map(|&i| table.columns.get(i))
        .filter(fits)
        .collect();
    for column in table.columns.iter().filter(fits) {
        if !picked.iter().any(|p| std::ptr::eq(*p, column)) {
            picked.push(column);
        }
    }
    // Identifiers are no measure: a column of distinct integers named like one.
    // Nor are coordinates: they say where, not how much.
    if kind == Kind::Number {
        let (lat, lon) = coordinates(table).unzip();
        let at = |c: &Column, i: Option<usize>| {
            i.and_then(|i| table.columns.get(i))
                .is_some_and(|o| std::ptr::eq(o, c))
        };
        picked.retain(|c| {
            let name = c.name.to_lowercase();
            let id = name == "id" || name.ends_with("_id") || name.ends_with(" id");
            !(id || at(c, lat) || at(c, lon))
        });
    }
    picked
}

pub(crate) fn number(cell: &Cell) -> Option<f64> {
    match cell {
        Cell::Number(n) => Some(*n),
        _ => None,
    }
}

pub(crate) fn text(cell: &Cell) -> Option<&str> {
    match cell {
        Cell::Text(t) => Some(t.as_str()),
        Cell::Number(_) | Cell::Empty => None,
    }
}

/// Sums of `measure` per distinct `category` value, in first-seen order.
fn sums(category: &Column, measure: &Column) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = Vec::new();
    let mut at = std::collections::HashMap::new();
    for (c, m) in category.cells.iter().zip(&measure.cells) {
        let (Some(c), Some(m)) = (text(c), number(m)) else {
            continue;
        };
        let i = *at.entry(c.to_owned()).or_insert_with(|| {
            out.push((c.to_owned(), 0.0));
            out.len() - 1
        });
        if let Some(slot) = out.get_mut(i) {
            slot.1 += m;
        }
    }
    out
}

fn distinct(column: &Column) -> usize {
    let mut seen = std::collections::HashSet::new();
    column.cells.iter().filter_map(text).for_each(|t| {
        seen.insert(t);
    });
    seen.len()
}

/// A title inside a sentence: its first letter lower case, unless it
/// starts an acronym ("CO2", "GDP").
pub(crate) fn lower_first(title: &str) -> String {
    let mut chars = title.chars();
    if chars.clone().nth(1).is_some_and(char::is_uppercase) {
        return title.to_owned();
    }
    chars
        .next()
        .map(|c| c.to_lowercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A title as a sentence: its first letter upper case.
pub(crate) fn sentence(title: &str) -> String {
    let mut chars = title.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn line(table: &Table, time: &Column, intent: &Intent, dark: bool) -> Option<Suggestion> {
    let measures = of_kind(table, Kind::Number, intent);
    let first = *measures.first()?;
    let categories = of_kind(table, Kind::Category, intent);
    let split = categories
        .first()
        .filter(|c| measures.len() == 1 && (2..=MAX_SERIES).contains(&distinct(c)));
    // Per series, the sum per date, in date order.
    let series_of = |name: String, rows: &mut dyn Iterator<Item = (&str, f64)>| {
        let mut by_date: Vec<(f64, String, f64)> = Vec::new();
        let mut index: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
        for (date, value) in rows {
            let Some((seconds, _)) = parse_date(date) else {
                continue;
            };
            // An index by date: a line of 100,000 distinct dates stays linear.
            let at = *index.entry(seconds.to_bits()).or_insert_with(|| {
                by_date.push((seconds, date.to_owned(), 0.0));
                by_date.len() - 1
            });
            if let Some(slot) = by_date.get_mut(at) {
                slot.2 += value;
            }
        }
        by_date.sort_by(|a, b| a.0.total_cmp(&b.0));
        let points: Vec<(String, f64)> = by_date.into_iter().map(|(_, x, y)| (x, y)).collect();
        (name, points)
    };
    let rows = |measure: &Column| -> Vec<(String, f64)> {
        time.cells
            .iter()
            .zip(&measure.cells)
            .filter_map(|(t, m)| Some((text(t)?.to_owned(), number(m)?)))
            .collect()
    };
    let (series, title, y_label): (Vec<cards::Line>, String, Option<&str>) = match split {
        Some(category) => {
            let mut names: Vec<&str> = Vec::new();
            for c in category.cells.iter().filter_map(text) {
                if !names.contains(&c) {
                    names.push(c);
                }
            }
            let series = names
                .iter()
                .map(|name| {
                    let mut rows = time
                        .cells
                        .iter()
                        .zip(&category.cells)
                        .zip(&first.cells)
                        .filter(|((_, c), _)| text(c) == Some(name))
                        .filter_map(|((t, _), m)| Some((text(t)?, number(m)?)));
                    series_of((*name).to_owned(), &mut rows)
                })
                .collect();
            (
                series,
                sentence(&format!(
                    "{} by {} over {}",
                    first.name, category.name, time.name
                )),
                Some(first.name.as_str()),
            )
        }
        None => {
            let shown: Vec<&&Column> = measures.iter().take(MAX_SERIES).collect();
            let series = shown
                .iter()
                .map(|m| {
                    let rows = rows(m);
                    let mut iter = rows.iter().map(|(t, v)| (t.as_str(), *v));
                    series_of(m.name.clone(), &mut iter)
                })
                .collect();
            let names: Vec<&str> = shown.iter().map(|m| m.name.as_str()).collect();
            let y = (shown.len() == 1).then_some(first.name.as_str());
            (
                series,
                sentence(&format!("{} over {}", names.join(", "), time.name)),
                y,
            )
        }
    };
    let labels = Labels {
        x: Some(time.name.clone()),
        y: y_label.map(str::to_owned),
    };
    let description = format!("A line of {title}, summed per date.");
    let about = About {
        kind: CardKind::Timeseries,
        title,
        description,
        confidence: "high",
        dark,
    };
    Suggestion::new(about, labels, cards::line(series)).ok()
}

fn bars(table: &Table, intent: &Intent, kind: CardKind, dark: bool) -> Option<Suggestion> {
    // A map needs regions; it shows every one of them, never the top N.
    let map = kind == CardKind::Choropleth;
    let category = *of_kind(
        table,
        if map { Kind::Place } else { Kind::Category },
        intent,
    )
    .first()?;
    let measure = *of_kind(table, Kind::Number, intent).first()?;
    let mut sums = sums(category, measure);
    let total = sums.len();
    let keep = if map {
        total
    } else {
        intent.top.unwrap_or(MAX_BARS).min(MAX_BARS)
    };
    let cut = total > keep;
    if cut || intent.top.is_some() {
        sums.sort_by(|a, b| b.1.total_cmp(&a.1));
        sums.truncate(keep);
    }
    if kind == CardKind::Pie && (sums.len() < 2 || sums.len() > 7 || sums.iter().any(|s| s.1 < 0.0))
    {
        return None;
    }
    let title = sentence(&format!("{} by {}", measure.name, category.name));
    let description = match (kind, cut) {
        (CardKind::Pie, _) => format!("The share of {} per {}.", measure.name, category.name),
        (CardKind::Choropleth, _) => format!(
            "The total {} per {}, on a map.",
            measure.name, category.name
        ),
        (_, true) => format!(
            "The {keep} largest of {total} {} by total {}.",
            category.name, measure.name
        ),
        _ => format!("The total {} per {}.", measure.name, category.name),
    };
    let confidence = if kind == CardKind::Pie {
        "medium"
    } else {
        "high"
    };
    let about = About {
        kind,
        title,
        description,
        confidence,
        dark,
    };
    let labels = Labels::xy(&category.name, &measure.name);
    Suggestion::new(about, labels, cards::bars(kind, sums)).ok()
}

fn grid(
    table: &Table,
    intent: &Intent,
    forced: Option<CardKind>,
    dark: bool,
) -> Option<Suggestion> {
    let categories = of_kind(table, Kind::Category, intent);
    let (outer, inner) = (*categories.first()?, *categories.get(1)?);
    let measure = *of_kind(table, Kind::Number, intent).first()?;
    let groups = distinct(inner);
    let kind = forced.unwrap_or(if groups <= MAX_GROUPS && distinct(outer) <= MAX_BARS {
        CardKind::GroupedBar
    } else {
        CardKind::Heatmap
    });
    let title = sentence(&format!(
        "{} by {} and {}",
        measure.name, outer.name, inner.name
    ));
    let mut cells: Vec<(String, String, f64)> = Vec::new();
    let mut index: std::collections::HashMap<(&str, &str), usize> =
        std::collections::HashMap::new();
    for ((o, i), m) in outer.cells.iter().zip(&inner.cells).zip(&measure.cells) {
        let (Some(o), Some(i), Some(m)) = (text(o), text(i), number(m)) else {
            continue;
        };
        // An index by pair: 250,000 cells stay linear.
        let at = *index.entry((o, i)).or_insert_with(|| {
            cells.push((o.to_owned(), i.to_owned(), 0.0));
            cells.len() - 1
        });
        if let Some(slot) = cells.get_mut(at) {
            slot.2 += m;
        }
        if cells.len() > 250_000 {
            return None;
        }
    }
    let card = if kind == CardKind::Heatmap {
        cards::heatmap(cells).ok()?
    } else {
        if groups > MAX_GROUPS * 4 || distinct(outer) > 1000 {
            return None;
        }
        // A series per inner category, in the order first seen.
        let mut series: Vec<(String, Vec<(String, f64)>)> = Vec::new();
        for (o, i, m) in cells {
            match series.iter_mut().find(|(name, _)| *name == i) {
                Some((_, points)) => points.push((o, m)),
                None => series.push((i, vec![(o, m)])),
            }
        }
        cards::categorical(kind, series)
    };
    let description = format!(
        "The total {} per {} and {}.",
        measure.name, outer.name, inner.name
    );
    let y_label = if kind == CardKind::Heatmap {
        &inner.name
    } else {
        &measure.name
    };
    let about = About {
        kind,
        title,
        description,
        confidence: "medium",
        dark,
    };
    Suggestion::new(about, Labels::xy(&outer.name, y_label), card).ok()
}

fn scatter(table: &Table, intent: &Intent, dark: bool) -> Option<Suggestion> {
    let measures = of_kind(table, Kind::Number, intent);
    let (x, y) = (*measures.first()?, *measures.get(1)?);
    let points: Vec<(f64, f64)> = x
        .cells
        .iter()
        .zip(&y.cells)
        .filter_map(|(a, b)| Some((number(a)?, number(b)?)))
        .collect();
    let title = sentence(&format!("{} against {}", y.name, x.name));
    let description = format!("Each row as a point: {} across, {} up.", x.name, y.name);
    let about = About {
        kind: CardKind::Scatter,
        title,
        description,
        confidence: "medium",
        dark,
    };
    Suggestion::new(about, Labels::xy(&x.name, &y.name), cards::scatter(points)).ok()
}

/// Boxes per category: 2 to [`MAX_BOXES`] categories with, on average, at
/// least [`MIN_PER_BOX`] values each (fewer make a box say nothing).
const MAX_BOXES: usize = 30;
const MIN_PER_BOX: usize = 5;

fn boxplot(table: &Table, intent: &Intent, dark: bool) -> Option<Suggestion> {
    let category = *of_kind(table, Kind::Category, intent).first()?;
    let measure = *of_kind(table, Kind::Number, intent).first()?;
    let points: Vec<(String, f64)> = category
        .cells
        .iter()
        .zip(&measure.cells)
        .filter_map(|(c, m)| Some((text(c)?.to_owned(), number(m)?)))
        .collect();
    let boxes = distinct(category);
    if !(2..=MAX_BOXES).contains(&boxes) || points.len() < boxes * MIN_PER_BOX {
        return None;
    }
    let title = sentence(&format!("{} by {}", measure.name, category.name));
    let description = format!(
        "How {} is spread within each {}: quartiles, whiskers and outliers.",
        measure.name, category.name
    );
    let about = About {
        kind: CardKind::Boxplot,
        title,
        description,
        confidence: "medium",
        dark,
    };
    let labels = Labels::xy(&category.name, &measure.name);
    Suggestion::new(about, labels, cards::boxplot(points)).ok()
}

/// Rows a timeline card shows at most (the engine's limit).
const MAX_TIMELINE_ROWS: usize = 2000;

/// A label and two date columns where every row's second date is not
/// before its first: a bar from start to end per row.
fn timeline(table: &Table, intent: &Intent, dark: bool) -> Option<Suggestion> {
    let label = *of_kind(table, Kind::Category, intent).first()?;
    let dates = of_kind(table, Kind::Time, intent);
    let (start, end) = (*dates.first()?, *dates.get(1)?);
    let seconds = |date: &str| parse_date(date).map(|(s, _)| s);
    let mut points = Vec::new();
    let mut labels = std::collections::HashSet::new();
    for ((l, a), b) in label.cells.iter().zip(&start.cells).zip(&end.cells) {
        let (Some(l), Some(a), Some(b)) = (text(l), text(a), text(b)) else {
            continue;
        };
        // Each row its own thing (a task, a term): repeated labels are
        // events of a category, better as a line.
        if seconds(b)? < seconds(a)? || !labels.insert(l) {
            return None;
        }
        points.push((l.to_owned(), a.to_owned(), b.to_owned()));
        if points.len() > MAX_TIMELINE_ROWS {
            return None;
        }
    }
    if points.is_empty() {
        return None;
    }
    let title = sentence(&format!(
        "{} from {} to {}",
        label.name, start.name, end.name
    ));
    let description = format!(
        "Each {} as a bar from its {} to its {}.",
        label.name, start.name, end.name
    );
    let about = About {
        kind: CardKind::Timeline,
        title,
        description,
        confidence: "high",
        dark,
    };
    Suggestion::new(about, Labels::none(), cards::timeline(points)?).ok()
}

fn histogram(table: &Table, intent: &Intent, dark: bool) -> Option<Suggestion> {
    let measure = *of_kind(table, Kind::Number, intent).first()?;
    let values: Vec<f64> = measure.cells.iter().filter_map(number).collect();
    let title = format!("Distribution of {}", measure.name);
    let description = format!("How the values of {} are spread.", measure.name);
    let about = About {
        kind: CardKind::Histogram,
        title,
        description,
        confidence: "medium",
        dark,
    };
    Suggestion::new(about, Labels::x(&measure.name), cards::histogram(values)).ok()
}

/// The table itself, its first [`MAX_TABLE_ROWS`] rows; `None` when it is
/// wider than the engine shows.
fn table_card(table: &Table, name: &str, dark: bool) -> Option<Suggestion> {
    let columns: Vec<String> = table.columns.iter().map(|c| c.name.clone()).collect();
    let rows = (0..table.rows.min(MAX_TABLE_ROWS))
        .map(|r| table.columns.iter().map(|c| c.cells.get(r)).collect())
        .collect();
    let description = if table.rows > MAX_TABLE_ROWS {
        format!("The first {MAX_TABLE_ROWS} of {} rows.", table.rows)
    } else {
        format!("All {} rows.", table.rows)
    };
    let about = About {
        kind: CardKind::Table,
        title: name.to_owned(),
        description,
        confidence: "low",
        dark,
    };
    Suggestion::new(about, Labels::none(), cards::table(columns, rows)).ok()
}

/// The cards for `table` (called `name`), best first, at most [`MAX_CARDS`];
/// with `forced`, only that type or `Err` saying why it cannot be drawn.
pub fn suggest(
    table: &Table,
    name: &str,
    intent: &Intent,
    forced: Option<CardKind>,
    dark: bool,
) -> Result<Vec<Suggestion>, String> {
    let time = of_kind(table, Kind::Time, intent).first().copied();
    let build = |kind: CardKind| -> Option<Suggestion> {
        match kind {
            CardKind::Timeseries => line(table, time?, intent, dark),
            CardKind::Bar | CardKind::Pie | CardKind::Waterfall | CardKind::Choropleth => {
                bars(table, intent, kind, dark)
            }
            CardKind::GroupedBar | CardKind::StackedBar | CardKind::Heatmap => {
                grid(table, intent, Some(kind), dark)
            }
            CardKind::Scatter => scatter(table, intent, dark),
            CardKind::Histogram => histogram(table, intent, dark),
            CardKind::Table => table_card(table, name, dark),
            CardKind::Boxplot => boxplot(table, intent, dark),
            CardKind::Timeline => timeline(table, intent, dark),
            CardKind::AreaTimeseries => area::area(table, time?, intent, dark),
            CardKind::StackedAreaTimeseries => area::stacked(table, time?, intent, dark),
            CardKind::Treemap => parts::treemap(table, intent, dark),
            CardKind::TopLevelMetric => parts::metric(table, time, intent, dark),
            CardKind::Map => places::map(table, intent, dark),
            CardKind::BubbleMap => places::bubbles(table, intent, dark),
        }
    };
    if let Some(kind) = forced {
        return build(kind).map(|s| vec![s]).ok_or_else(|| {
            format!(
                "a {} card needs {}; this data has {}",
                kind.as_str(),
                cards::needs(kind),
                table.context()
            )
        });
    }
    let located = coordinates(table).is_some();
    let mut order = vec![
        CardKind::Timeline,
        CardKind::Timeseries,
        CardKind::Choropleth,
        CardKind::BubbleMap,
        CardKind::Map,
        CardKind::Bar,
        CardKind::Pie,
        CardKind::Treemap,
        CardKind::GroupedBar,
        CardKind::Boxplot,
        CardKind::Scatter,
        CardKind::Histogram,
    ];
    // A query that names a category that is no place first wants it on the
    // bars, so they come before the map.
    let named_first = intent
        .named
        .iter()
        .filter_map(|&i| table.columns.get(i))
        .find(|c| matches!(c.kind, Kind::Category | Kind::Place));
    if named_first.is_some_and(|c| c.kind == Kind::Category) {
        order.retain(|k| *k != CardKind::Choropleth);
        order.insert(3, CardKind::Choropleth);
    }
    // A single row is a number to read, not a chart.
    let first = intent
        .first
        .or((table.rows == 1).then_some(CardKind::TopLevelMetric));
    // "A map" of points at coordinates is of them, not of regions.
    let firsts = match first {
        Some(CardKind::Choropleth) if located => {
            vec![CardKind::BubbleMap, CardKind::Map]
        }
        Some(kind) => vec![kind],
        None => Vec::new(),
    };
    for first in firsts.into_iter().rev() {
        order.retain(|k| *k != first);
        order.insert(0, first);
    }
    let mut cards: Vec<Suggestion> = Vec::new();
    for kind in order {
        if cards.len() == MAX_CARDS {
            break;
        }
        let built = match kind {
            CardKind::GroupedBar => grid(table, intent, None, dark),
            CardKind::Timeseries => proposed_line(table, time, intent, dark),
            // Proposed where they fit, built on demand from less.
            CardKind::BubbleMap | CardKind::Map if !located => None,
            CardKind::Map if cards.iter().any(|c| c.kind() == CardKind::BubbleMap) => None,
            CardKind::Treemap => build(kind)
                .filter(|c| parts::many_parts(c) || intent.first == Some(CardKind::Treemap)),
            CardKind::TopLevelMetric if first != Some(CardKind::TopLevelMetric) => None,
            _ => build(kind),
        };
        // A map, a pie or bars of one category say nothing: never proposed
        // (a table kept to one country has one).
        let single = |card: &Suggestion| match &card.chart.card {
            Card::Categorical(bars) => {
                matches!(
                    card.kind(),
                    CardKind::Bar | CardKind::Pie | CardKind::Choropleth
                ) && bars.categories.len() < 2
            }
            _ => false,
        };
        if let Some(card) = built.filter(|c| !single(c)) {
            if !cards.iter().any(|c| c.kind() == card.kind()) {
                cards.push(card);
            }
        }
    }
    if cards.is_empty() {
        cards.extend(table_card(table, name, dark));
    }
    Ok(cards)
}

/// A map or bubble map of `table`, the columns `named` taken first (the
/// query side draws its places so).
pub(crate) fn shaped(
    table: &Table,
    kind: CardKind,
    named: &[usize],
    dark: bool,
) -> Option<Suggestion> {
    let intent = Intent {
        named: named.to_vec(),
        ..Intent::default()
    };
    match kind {
        CardKind::Map => places::map(table, &intent, dark),
        CardKind::BubbleMap => places::bubbles(table, &intent, dark),
        _ => None,
    }
}

/// The line over time, or its area where one fits better (a running
/// total, a share, a series that never falls).
fn proposed_line(
    table: &Table,
    time: Option<&Column>,
    intent: &Intent,
    dark: bool,
) -> Option<Suggestion> {
    let time = time?;
    let line = line(table, time, intent, dark)?;
    if area::fits_area(&line, intent) {
        return area::area(table, time, intent, dark).or(Some(line));
    }
    Some(line)
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::table::{read_csv, MAX_ROWS};
    use serde_json::{json, Value};

    /// The card as it is sent: its `visualization_data`.
    fn written(card: &Suggestion) -> Value {
        serde_json::to_value(&card.chart).unwrap()
    }

    /// The largest table a file may hold, every date and every pair
    /// distinct: sums per date and per pair are indexed, not searched.
    #[test]
    fn the_largest_tables_are_summed_in_one_pass() {
        let mut csv = String::from("day,a,b,value\n");
        for i in 0..MAX_ROWS {
            let (y, m, d) = zdr_chart::model::civil_from_days(i as i64);
            csv.push_str(&format!(
                "{y:04}-{m:02}-{d:02},a{},b{},{i}\n",
                i % 400,
                i / 400
            ));
        }
        let table = read_csv(csv.as_bytes(), &zdr_embed_page::limits::Stop::never()).unwrap();
        let line = suggest(
            &table,
            "t",
            &Intent::default(),
            Some(CardKind::Timeseries),
            false,
        )
        .unwrap();
        let points = &written(&line[0])["data"]["series"][0]["points"];
        assert_eq!(points.as_array().unwrap().len(), MAX_ROWS);
        let grid = suggest(
            &table,
            "t",
            &Intent::default(),
            Some(CardKind::Heatmap),
            false,
        )
        .unwrap();
        assert_eq!(
            written(&grid[0])["data"].as_array().unwrap().len(),
            MAX_ROWS
        );
    }

    fn table(csv: &str) -> Table {
        read_csv(csv.as_bytes(), &zdr_embed_page::limits::Stop::never()).unwrap()
    }

    fn forced(csv: &str, kind: CardKind) -> Result<Suggestion, String> {
        let mut cards = suggest(&table(csv), "t", &Intent::default(), Some(kind), false)?;
        assert_eq!(cards.len(), 1);
        let card = cards.pop().unwrap();
        assert_eq!(card.kind(), kind);
        let text = serde_json::to_string(&card.chart).unwrap();
        zdr_chart::Chart::from_json(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        Ok(card)
    }

    const DAILY: &str = "day,installs,uninstalls\n2024-01-01,5,1\n2024-01-02,7,2\n2024-01-03,4,0\n";
    const SPLIT: &str =
        "day,source,mwh\n2024-01,coal,5\n2024-01,wind,2\n2024-02,coal,4\n2024-02,wind,3\n";
    const CITIES: &str = "city,lat,lon,population,region\nNew York,40.71,-74.01,8.2,East\nChicago,41.88,-87.63,2.6,Midwest\nBoston,42.36,-71.06,0.6,East\n";
    const COUNTRIES: &str = "country,exports\nGermany,1500\nFrance,900\nJapan,700\n";

    #[test]
    fn each_new_type_is_built_in_the_shape_the_engine_reads() {
        let area = forced(DAILY, CardKind::AreaTimeseries).unwrap();
        assert_eq!(
            written(&area)["data"]["series"].as_array().unwrap().len(),
            2
        );
        let stacked = forced(DAILY, CardKind::StackedAreaTimeseries).unwrap();
        assert_eq!(written(&stacked)["data"]["series"][1]["name"], "uninstalls");
        forced(SPLIT, CardKind::StackedAreaTimeseries).unwrap();
        let tree = forced(CITIES, CardKind::Treemap).unwrap();
        assert_eq!(
            written(&tree)["data"][0],
            json!({"x": "New York", "y": 8.2, "group": "East"})
        );
        let metric = forced(DAILY, CardKind::TopLevelMetric).unwrap();
        assert_eq!(
            written(&metric)["data"][2],
            json!({"x": "2024-01-03", "y": 4.0})
        );
        let sum = forced(COUNTRIES, CardKind::TopLevelMetric).unwrap();
        assert_eq!(written(&sum)["data"], json!([{"y": 3100.0}]));
        assert!(sum.description.contains("sum over all 3 rows"));
        let map = forced(CITIES, CardKind::Map).unwrap();
        assert_eq!(
            written(&map)["data"][1],
            json!({"lat": 41.88, "lon": -87.63, "label": "Chicago", "value": 2.6})
        );
        let bubbles = forced(CITIES, CardKind::BubbleMap).unwrap();
        assert_eq!(written(&bubbles)["data"][2]["value"], 0.6);
        let regions = forced(COUNTRIES, CardKind::BubbleMap).unwrap();
        assert_eq!(
            written(&regions)["data"][0],
            json!({"x": "Germany", "value": 1500.0})
        );
    }

    #[test]
    fn unsuitable_data_is_refused_with_what_it_lacks() {
        let negative = "day,a,b\n2024-01-01,5,-1\n2024-01-02,7,2\n";
        let shop = "product,revenue\nA,-3\nB,5\n";
        for (csv, kind) in [
            (COUNTRIES, CardKind::AreaTimeseries),
            (negative, CardKind::StackedAreaTimeseries),
            (
                "day,a\n2024-01-01,5\n2024-01-02,7\n",
                CardKind::StackedAreaTimeseries,
            ),
            (shop, CardKind::Treemap),
            ("name,kind\na,b\n", CardKind::TopLevelMetric),
            (COUNTRIES, CardKind::Map),
            (shop, CardKind::BubbleMap),
            ("city,lat,lon\nA,95,10\nB,10,10\n", CardKind::Map),
        ] {
            let reason = forced(csv, kind).map(|c| c.kind()).unwrap_err();
            assert!(reason.contains(cards::needs(kind)), "{reason}");
        }
    }

    #[test]
    fn new_types_are_proposed_where_they_fit() {
        let kinds = |csv: &str, intent: &Intent| -> Vec<CardKind> {
            suggest(&table(csv), "t", intent, None, false)
                .unwrap()
                .iter()
                .map(|c| c.kind())
                .collect()
        };
        let none = &Intent::default();
        // "latest installs", as the planner reads it.
        let latest = Intent {
            first: Some(CardKind::TopLevelMetric),
            latest: true,
            ..Intent::default()
        };
        let mut many = String::from("name,value\n");
        for i in 0..15 {
            many += &format!("n{i},{}\n", i + 1);
        }
        assert!(kinds(&many, none).contains(&CardKind::Treemap));
        assert_eq!(kinds(CITIES, none)[0], CardKind::BubbleMap);
        assert_eq!(
            kinds("city,lat,lon\nA,45,10\nB,10,10\n", none)[0],
            CardKind::Map
        );
        assert_eq!(kinds(DAILY, &latest)[0], CardKind::TopLevelMetric);
        assert_eq!(kinds("revenue\n1200\n", none)[0], CardKind::TopLevelMetric);
        let rising = "day,signups\n2024-01-01,5\n2024-01-02,9\n2024-01-03,12\n";
        assert_eq!(kinds(rising, none)[0], CardKind::AreaTimeseries);
        let cumulative = Intent {
            first: Some(CardKind::AreaTimeseries),
            cumulative: true,
            ..Intent::default()
        };
        let cumulative = suggest(&table(DAILY), "t", &cumulative, None, false).unwrap();
        assert_eq!(cumulative[0].kind(), CardKind::AreaTimeseries);
        let last = &written(&cumulative[0])["data"]["series"][0]["points"][2];
        assert_eq!(last["y"], 16.0);
        // A line that falls stays a line.
        assert_eq!(kinds(DAILY, none)[0], CardKind::Timeseries);
        assert!(!kinds(COUNTRIES, none).contains(&CardKind::Treemap));
    }
}
