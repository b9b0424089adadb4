//! bar, grouped_bar, stacked_bar and waterfall: one folder because the
//! four read the same data ([`Categorical`]: categories with one value per
//! series) and draw on the same band axis with the same bars, value labels
//! and hit marks ([`layout`]); each has its own function there and in
//! [`describe`]. A bar card is a grouped_bar of one series.

pub(crate) mod describe;
pub(crate) mod layout;

use crate::kinds::Card;
use crate::model::card::{read_categorical, CategoricalRules};
use crate::model::{CardKind, DataError, DataShape, MAX_BARS, MAX_CATEGORIES};

/// What a bar of any of these (and a choropleth's region) allows.
pub(crate) const RULES: CategoricalRules = CategoricalRules {
    max_categories: MAX_CATEGORIES,
    max_cells: MAX_BARS,
    refuse_negative: None,
};

pub(crate) fn read(kind: CardKind, shape: &DataShape) -> Result<Card, DataError> {
    read_categorical(kind, shape, &RULES).map(Card::Categorical)
}

/// The group's code, reached through `crate::kinds::code` (in the page,
/// once its chunk has loaded).
pub(crate) static CODE: super::GroupCode = super::GroupCode {
    read: |kind, shape, _| read(kind, shape),
    finish: super::kept,
    draw: |ctx, body, chart| {
        if let Card::Categorical(c) = &chart.card {
            match c.kind {
                CardKind::Waterfall => layout::waterfall(ctx, body, c),
                CardKind::StackedBar => layout::stacked(ctx, body, c),
                _ => layout::grouped(ctx, body, c),
            }
        }
    },
    summary: |chart, units| match &chart.card {
        Card::Categorical(c) => match c.kind {
            CardKind::Waterfall => describe::waterfall_summary(c, units),
            CardKind::StackedBar => describe::stacked_summary(c, units),
            _ => describe::summary(c, units),
        },
        _ => String::new(),
    },
    data_table: |chart, max_rows, f| match &chart.card {
        Card::Categorical(c) if c.kind == CardKind::Waterfall => {
            describe::waterfall_table(chart, c, max_rows, f)
        }
        Card::Categorical(c) => describe::table(chart, c, max_rows, f),
        _ => super::no_table(),
    },
};
