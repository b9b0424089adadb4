//! pie: the first series's positive values as slices of the whole, the
//! smallest folded into "Other" past [`MAX_SLICES`] ([`slices`], which the
//! drawing and the words both follow).

pub(crate) mod describe;
pub(crate) mod layout;

use crate::kinds::Card;
use crate::model::card::{read_categorical, CategoricalRules};
use crate::model::MAX_PIE_VALUES;
use crate::model::{CardKind, Categorical, DataError, DataShape};

/// A pie folds its smallest slices into "Other": only the matrix bounds it.
const RULES: CategoricalRules = CategoricalRules {
    max_categories: usize::MAX,
    max_cells: MAX_PIE_VALUES,
    refuse_negative: Some("a pie slice"),
};

pub(crate) fn read(shape: &DataShape) -> Result<Card, DataError> {
    read_categorical(CardKind::Pie, shape, &RULES).map(Card::Categorical)
}

/// More slices than this cannot be told apart; the smallest become "Other".
const MAX_SLICES: usize = 8;

pub(crate) struct Slice {
    pub label: String,
    pub value: f64,
}

/// The slices to draw: positive values, the smallest folded into "Other"
/// when there are too many, in the data's order.
pub(crate) fn slices(c: &Categorical) -> Vec<Slice> {
    let values = c.series.first().map(|s| s.values.as_slice()).unwrap_or(&[]);
    let mut all: Vec<Slice> = c
        .categories
        .iter()
        .zip(values)
        .filter(|(_, v)| v.is_finite() && **v > 0.0)
        .map(|(label, v)| Slice {
            label: label.clone(),
            value: *v,
        })
        .collect();
    if all.len() <= MAX_SLICES {
        return all;
    }
    let values: Vec<f64> = all.iter().map(|s| s.value).collect();
    let order = crate::order::ranked(&values, true);
    let keep: Vec<usize> = order.iter().copied().take(MAX_SLICES - 1).collect();
    let other: f64 = order
        .iter()
        .skip(MAX_SLICES - 1)
        .map(|&i| all[i].value)
        .sum();
    let folded = all.len() - (MAX_SLICES - 1);
    let mut kept: Vec<Slice> = Vec::with_capacity(MAX_SLICES);
    for (i, s) in all.drain(..).enumerate() {
        if keep.contains(&i) {
            kept.push(s);
        }
    }
    kept.push(Slice {
        label: format!("Other ({folded})"),
        value: other,
    });
    kept
}

/// The group's code, reached through `crate::kinds::code` (in the page,
/// once its chunk has loaded).
pub(crate) static CODE: super::GroupCode = super::GroupCode {
    read: |_, shape, _| read(shape),
    finish: super::kept,
    draw: |ctx, body, chart| {
        if let Card::Categorical(c) = &chart.card {
            layout::draw(ctx, body, c)
        }
    },
    summary: |chart, _| match &chart.card {
        Card::Categorical(c) => describe::summary(c),
        _ => String::new(),
    },
    data_table: |chart, max_rows, f| match &chart.card {
        Card::Categorical(c) => describe::table(chart, c, max_rows, f),
        _ => super::no_table(),
    },
};
