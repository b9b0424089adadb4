//! timeline: labelled spans of time, one row each, from points or a table
//! (columns "label", "start" and "end", else the first three).

pub(crate) mod describe;
pub(crate) mod layout;
#[cfg(feature = "serde")]
pub(crate) mod write;

use crate::kinds::Card;
use crate::model::card::{date_value, error, series_points, Fields, Loc, PointRef, NULL};
use crate::model::{DataError, DataShape, DatePrecision};
use crate::model::{TimelineItem, MAX_TIMELINE_ROWS};

pub(crate) fn read(shape: &DataShape, epoch_ms: bool) -> Result<Card, DataError> {
    let mut precision = DatePrecision::Year;
    let mut items = Vec::new();
    let mut push = |point: &PointRef<'_>| -> Result<(), DataError> {
        let label = point.label("label")?;
        let (start, p1) = date_value(point, "start", epoch_ms)?;
        let (end, p2) = date_value(point, "end", epoch_ms)?;
        if end < start {
            return Err(error(point.loc.field("end"), "is before \"start\""));
        }
        if items.len() == MAX_TIMELINE_ROWS {
            return Err(error(
                "data".into(),
                format!(
                    "a timeline of more than {MAX_TIMELINE_ROWS} rows; at most {MAX_TIMELINE_ROWS} can be shown"
                ),
            ));
        }
        precision = precision.max(p1).max(p2);
        items.push(TimelineItem { label, start, end });
        Ok(())
    };
    match shape {
        DataShape::Table { columns, rows } => {
            let find = |name: &str, fallback: usize| {
                columns.iter().position(|c| c == name).unwrap_or(fallback)
            };
            let (l, s, e) = (find("label", 0), find("start", 1), find("end", 2));
            for (r, row) in rows.iter().enumerate() {
                let cell = |at: usize| row.get(at).unwrap_or(&NULL);
                push(&PointRef {
                    loc: Loc::TimelineRow(r, [l, s, e]),
                    fields: Fields::Timeline {
                        label: cell(l),
                        start: cell(s),
                        end: cell(e),
                    },
                })?;
            }
        }
        _ => {
            for (_, points) in series_points(shape) {
                for point in points {
                    push(&point)?;
                }
            }
        }
    }
    Ok(Card::Timeline { items, precision })
}

/// The group's code, reached through `crate::kinds::code` (in the page,
/// once its chunk has loaded).
pub(crate) static CODE: super::GroupCode = super::GroupCode {
    read: |_, shape, epoch_ms| read(shape, epoch_ms),
    finish: super::kept,
    draw: |ctx, body, chart| {
        if let Card::Timeline { items, precision } = &chart.card {
            layout::draw(ctx, body, items, *precision)
        }
    },
    summary: |chart, _| match &chart.card {
        Card::Timeline { items, precision } => describe::summary(items, *precision),
        _ => String::new(),
    },
    data_table: |chart, max_rows, f| match &chart.card {
        Card::Timeline { items, precision } => describe::table(items, *precision, max_rows, f),
        _ => super::no_table(),
    },
};
