//! A boxplot as `visualization_data` (the `serde` feature): each box as
//! its label and its values, from which the reader makes the same box.

use serde::Serializer;

use super::box_stats;
use super::{BoxStats, MAX_BOXES};
use crate::kinds::Card;
use crate::model::write::{over, Field, Obj};
use crate::model::DataError;

impl Card {
    /// A boxplot of `groups` (a label and its values), as the reader makes
    /// one: a group without a finite value has no box.
    pub fn boxplot(groups: Vec<(String, Vec<f64>)>) -> Card {
        Card::Boxplot(
            groups
                .into_iter()
                .filter_map(|(label, values)| box_stats(label, values))
                .collect(),
        )
    }
}

pub(crate) fn within_limits(boxes: &[BoxStats]) -> Result<(), DataError> {
    if boxes.len() > MAX_BOXES {
        return over(format!(
            "a boxplot of {} boxes; at most {MAX_BOXES} can be shown",
            boxes.len()
        ));
    }
    Ok(())
}

pub(crate) fn write<S: Serializer>(boxes: &[BoxStats], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(boxes.iter().map(|b| {
        Obj([
            ("x", Some(Field::Text(&b.label))),
            ("values", Some(Field::Box(b))),
        ])
    }))
}
