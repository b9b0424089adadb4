//! The rules every reader of a card's points keeps, in one place. A
//! timeseries or scatter card comes in four ways, and all four must read
//! the same card from the same data:
//!
//! - the tree: `visualization_data` parsed whole (`card.rs`), the reader
//!   that words every error;
//! - the stream: the JSON text read straight into columns (`stream.rs`);
//! - the columns: typed arrays handed over beside the text (`given.rs`,
//!   and `{"$column": N}` in the text);
//! - the widget's glue, `crates/engine/js/columns.js`, which turns the
//!   page's point objects into those columns before the engine sees them.
//!
//! What they share: a series's name ([`series_name`]), how a date or a
//! year is read ([`date_of`]), that -0 is 0 ([`value`]), what counts as a
//! gap ([`gaps_as_nan`],
//! [`drop_gaps`]), how a line is sorted ([`sort_by_x`]; and kept for
//! pixels by `Series::line`),
//! and which card type points look like ([`Facts::kind`]).
//! `crates/chart/tests/readers.rs` holds the four to this contract.

use std::borrow::Cow;

use super::date::{epoch_seconds, from_epoch_ms, parse_date, DatePrecision};
use super::CardKind;

pub(crate) fn series_name(name: &str, index: usize) -> String {
    if name.is_empty() {
        if index == 0 {
            "Value".into()
        } else {
            format!("Series {}", index + 1)
        }
    } else {
        name.to_owned()
    }
}

/// A timeseries x as seconds and its precision: a date string, or a whole
/// year; with `epoch_ms`, milliseconds only.
pub(crate) fn date_of(x: Field<'_>, epoch_ms: bool) -> Option<(f64, DatePrecision)> {
    match x {
        Field::Number(ms) if epoch_ms => from_epoch_ms(ms),
        Field::Text(text) if !epoch_ms => parse_date(&text),
        Field::Number(year)
            if !epoch_ms && year.fract() == 0.0 && (0.0..=9999.0).contains(&year) =>
        {
            Some((epoch_seconds(year as u32, 1, 1, 0), DatePrecision::Year))
        }
        _ => None,
    }
}

/// A value as every reader keeps it: -0 is 0 (a JSON text may write
/// `-0`; a page's typed array may hold it), so that no way in draws "−0".
pub(super) fn value(n: f64) -> f64 {
    n + 0.0
}

/// A timeseries y of a passed column: anything not finite is a gap.
pub(super) fn gaps_as_nan(ys: &mut [f64]) {
    for y in ys {
        *y = if y.is_finite() { value(*y) } else { f64::NAN };
    }
}

/// A scatter's points missing x or y are left out, in place.
pub(super) fn drop_gaps(xs: &mut Vec<f64>, ys: &mut Vec<f64>) {
    let mut kept = 0;
    for i in 0..xs.len() {
        let (Some(&x), Some(&y)) = (xs.get(i), ys.get(i)) else {
            break;
        };
        if x.is_finite() && y.is_finite() {
            if let (Some(to_x), Some(to_y)) = (xs.get_mut(kept), ys.get_mut(kept)) {
                (*to_x, *to_y) = (value(x), value(y));
            }
            kept += 1;
        }
    }
    xs.truncate(kept);
    ys.truncate(kept);
}

pub(super) fn sort_by_x(xs: &mut Vec<f64>, ys: &mut Vec<f64>) {
    if !xs.windows(2).all(|w| w[0] <= w[1]) {
        let order = crate::order::ranked(xs, false);
        *xs = crate::order::rearranged(xs, &order);
        *ys = crate::order::rearranged(ys, &order);
    }
}

/// A field of a point as the readers need it.
#[derive(Default)]
pub(crate) enum Field<'a> {
    #[default]
    Absent,
    Null,
    Number(f64),
    Text(Cow<'a, str>),
    /// true, false, an array or an object: never what x or y may be.
    Other,
}

/// The keys whose presence type inference asks about, as bits.
pub(super) const KEYS: [&str; 6] = ["x", "y", "value", "values", "start", "end"];

/// What type inference needs to know of the points, and how many each series has.
#[derive(Default)]
pub(super) struct Facts {
    pub(super) points: Vec<usize>,
    /// Points having each of [`KEYS`] (null or not).
    pub(super) having: [usize; 6],
    /// Points whose x is not null; of them, dates and numbers.
    pub(super) xs: usize,
    pub(super) dated_xs: usize,
    pub(super) numeric_xs: usize,
}

impl Facts {
    /// The card type these points look like (the tree reader's
    /// [`super::card::infer_kind`] counts its objects into one too).
    pub(super) fn kind(&self, series_count: usize) -> CardKind {
        let objects: usize = self.points.iter().sum();
        let all_have = |key: usize| objects > 0 && self.having[key] == objects;
        let [x, y, value, values, start, end] = [0, 1, 2, 3, 4, 5];
        if all_have(start) && all_have(end) {
            CardKind::Timeline
        } else if all_have(value) && all_have(x) && all_have(y) {
            CardKind::Heatmap
        } else if all_have(values) {
            CardKind::Boxplot
        } else if self.having[x] == 0 && all_have(y) {
            CardKind::Histogram
        } else if self.xs > 0 && self.dated_xs == self.xs {
            CardKind::Timeseries
        } else if self.xs > 0 && self.numeric_xs == self.xs {
            CardKind::Scatter
        } else if series_count > 1 {
            CardKind::GroupedBar
        } else {
            CardKind::Bar
        }
    }
}
