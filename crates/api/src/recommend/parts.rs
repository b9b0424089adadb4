//! Parts of a whole as areas (a treemap) and a single headline number.

use zdr_chart::model::{parse_date, Card, CardKind, MAX_METRIC_POINTS, MAX_TREEMAP_VALUES};

use super::{distinct, number, of_kind, sentence, text, Intent, Suggestion, MAX_GROUPS};
use crate::cards::{self, About, Labels, MetricPoint};
use crate::table::{Column, Kind, Table};

/// Categories from which a treemap is proposed: a pie folds more than 7.
pub(crate) const TREEMAP_FROM: usize = 9;

/// The sum of a measure per category, in one level of groups when a
/// second category has fewer values (2 to 12) than the first.
pub(super) fn treemap(table: &Table, intent: &Intent, dark: bool) -> Option<Suggestion> {
    let categories = of_kind(table, Kind::Category, intent);
    let measure = *of_kind(table, Kind::Number, intent).first()?;
    let (label, group) = label_and_group(&categories)?;
    let leaves = leaves(label, group, measure)?;
    let title = sentence(&format!("{} by {}", measure.name, label.name));
    let description = match group {
        Some(g) => format!(
            "The total {} per {}, as areas, in groups by {}.",
            measure.name, label.name, g.name
        ),
        None => format!("The total {} per {}, as areas.", measure.name, label.name),
    };
    let about = About {
        kind: CardKind::Treemap,
        title,
        description,
        confidence: "medium",
        dark,
    };
    Suggestion::new(about, Labels::none(), cards::treemap(leaves)).ok()
}

/// Whether `card` is a treemap of many categories, where a pie folds.
pub(super) fn many_parts(card: &Suggestion) -> bool {
    matches!(&card.chart.card, Card::Treemap(t) if t.leaves.len() >= TREEMAP_FROM)
}

fn label_and_group<'a>(categories: &[&'a Column]) -> Option<(&'a Column, Option<&'a Column>)> {
    let first = *categories.first()?;
    let Some(second) = categories.get(1).copied() else {
        return Some((first, None));
    };
    // The finer category is the leaf, the coarser its group.
    let (label, group) = if distinct(second) > distinct(first) {
        (second, first)
    } else {
        (first, second)
    };
    let groups = distinct(group);
    let grouped = (2..=MAX_GROUPS).contains(&groups) && groups < distinct(label);
    Some((label, grouped.then_some(group)))
}

/// Leaves `(group, label, value)` summed per group and label (the group
/// `""` without one); `None` when a sum is below zero (an area cannot be)
/// or there are more than the engine reads.
fn leaves(
    label: &Column,
    group: Option<&Column>,
    measure: &Column,
) -> Option<Vec<(String, String, f64)>> {
    let mut sums: Vec<(String, String, f64)> = Vec::new();
    let mut at: std::collections::HashMap<(String, String), usize> =
        std::collections::HashMap::new();
    for (r, (l, m)) in label.cells.iter().zip(&measure.cells).enumerate() {
        let (Some(l), Some(m)) = (text(l), number(m)) else {
            continue;
        };
        let g = group
            .and_then(|g| g.cells.get(r))
            .and_then(text)
            .unwrap_or_default();
        let i = *at.entry((g.to_owned(), l.to_owned())).or_insert_with(|| {
            sums.push((g.to_owned(), l.to_owned(), 0.0));
            sums.len() - 1
        });
        if let Some(slot) = sums.get_mut(i) {
            slot.2 += m;
        }
    }
    if sums.is_empty() || sums.len() > MAX_TREEMAP_VALUES || sums.iter().any(|s| s.2 < 0.0) {
        return None;
    }
    Some(sums)
}

/// The headline number of the first measure: with a date column, its sum
/// on the latest date, after the series of earlier ones; without, the
/// one value, or the sum (the last row's when the query asks for the
/// latest) of all rows.
pub(super) fn metric(
    table: &Table,
    time: Option<&Column>,
    intent: &Intent,
    dark: bool,
) -> Option<Suggestion> {
    let measure = *of_kind(table, Kind::Number, intent).first()?;
    let (points, how) = match time {
        Some(time) => dated(time, measure)?,
        None => undated(measure, intent)?,
    };
    let title = sentence(&measure.name);
    let description = format!("{title}: {how}.");
    let about = About {
        kind: CardKind::TopLevelMetric,
        title,
        description,
        confidence: "medium",
        dark,
    };
    Suggestion::new(about, Labels::none(), cards::metric(points)).ok()
}

/// The sum per date, in date order, the last [`MAX_METRIC_POINTS`].
fn dated(time: &Column, measure: &Column) -> Option<(Vec<MetricPoint>, String)> {
    let mut by_date: Vec<(f64, String, f64)> = Vec::new();
    let mut index: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    for (t, m) in time.cells.iter().zip(&measure.cells) {
        let (Some(t), Some(m)) = (text(t), number(m)) else {
            continue;
        };
        let Some((seconds, _)) = parse_date(t) else {
            continue;
        };
        let at = *index.entry(seconds.to_bits()).or_insert_with(|| {
            by_date.push((seconds, t.to_owned(), 0.0));
            by_date.len() - 1
        });
        if let Some(slot) = by_date.get_mut(at) {
            slot.2 += m;
        }
    }
    by_date.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (_, last, _) = by_date.last()?;
    let how = format!(
        "the value on the latest {}, {last}, summed per date, after the {} before it",
        time.name,
        by_date.len().min(MAX_METRIC_POINTS) - 1
    );
    let skip = by_date.len().saturating_sub(MAX_METRIC_POINTS);
    let points = by_date
        .into_iter()
        .skip(skip)
        .map(|(_, x, y)| (Some(x), y))
        .collect();
    Some((points, how))
}

fn undated(measure: &Column, intent: &Intent) -> Option<(Vec<MetricPoint>, String)> {
    let values: Vec<f64> = measure.cells.iter().filter_map(number).collect();
    let (value, how) = match values.as_slice() {
        [] => return None,
        [one] => (*one, "the one value of the table".to_owned()),
        [.., last] if intent.latest => (*last, "the last row's value".to_owned()),
        all => (
            all.iter().sum(),
            format!("the sum over all {} rows", all.len()),
        ),
    };
    Some((vec![(None, value)], how))
}
