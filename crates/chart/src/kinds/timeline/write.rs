//! A timeline as `visualization_data` (the `serde` feature).

use serde::Serializer;

use super::{TimelineItem, MAX_TIMELINE_ROWS};
use crate::model::write::{over, DateForm, Field, Obj};
use crate::model::{DataError, DatePrecision};

pub(crate) fn within_limits(items: &[TimelineItem]) -> Result<(), DataError> {
    if items.len() > MAX_TIMELINE_ROWS {
        return over(format!(
            "a timeline of {} rows; at most {MAX_TIMELINE_ROWS} can be shown",
            items.len()
        ));
    }
    Ok(())
}

pub(crate) fn write<S: Serializer>(
    items: &[TimelineItem],
    precision: DatePrecision,
    epoch_ms: bool,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let form = DateForm::of(precision, epoch_ms);
    serializer.collect_seq(items.iter().map(|item| {
        Obj([
            ("label", Some(Field::Text(&item.label))),
            ("start", Some(Field::Date(item.start, form))),
            ("end", Some(Field::Date(item.end, form))),
        ])
    }))
}
