//! A histogram as `visualization_data` (the `serde` feature): its values
//! as one unnamed series, which the reader pools as it pooled them.

use serde::Serializer;

use crate::model::write::{Field, Obj};

pub(crate) fn write<S: Serializer>(values: &[f64], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(values.iter().map(|&y| Obj([("y", Some(Field::Number(y)))])))
}
