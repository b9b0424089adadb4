//! A treemap as `visualization_data` (the `serde` feature).

use serde::Serializer;

use super::{Treemap, MAX_TREEMAP_VALUES};
use crate::model::write::{over, Field, Obj};
use crate::model::DataError;

pub(crate) fn within_limits(treemap: &Treemap) -> Result<(), DataError> {
    if treemap.leaves.len() > MAX_TREEMAP_VALUES {
        return over(format!(
            "a treemap of {} categories; at most {MAX_TREEMAP_VALUES} are read",
            treemap.leaves.len()
        ));
    }
    Ok(())
}

pub(crate) fn write<S: Serializer>(treemap: &Treemap, serializer: S) -> Result<S::Ok, S::Error> {
    let grouped = treemap.grouped();
    serializer.collect_seq(treemap.leaves.iter().map(|leaf| {
        let group = treemap.groups.get(leaf.group).map(String::as_str);
        Obj([
            ("x", Some(Field::Text(&leaf.label))),
            ("y", Some(Field::Number(leaf.value))),
            ("group", group.filter(|_| grouped).map(Field::Text)),
        ])
    }))
}
