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
