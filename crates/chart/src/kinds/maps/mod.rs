//! choropleth, map and bubble_map: cards drawn on an atlas (`crate::geo`).
//! One folder because the three fit the same atlas into the card and draw
//! its regions alike ([`choropleth`] holds that, and the choropleth's own
//! layout); map and bubble_map also read the same data
//! ([`Places`](crate::model::Places), in [`read`]) and share one layout
//! ([`places`]). Without the `geo` feature they read their data and draw a
//! notice instead of the map.

#[cfg(feature = "geo")]
pub(crate) mod choropleth;
pub(crate) mod describe;
#[cfg(feature = "geo")]
pub(crate) mod places;
pub(crate) mod read;
#[cfg(feature = "serde")]
pub(crate) mod write;

use crate::kinds::Card;
use crate::model::card::read_categorical;
use crate::model::{CardKind, DataError, DataShape};

/// A choropleth reads a bar card's data: a value per region code.
pub(crate) fn read_choropleth(shape: &DataShape) -> Result<Card, DataError> {
    read_categorical(CardKind::Choropleth, shape, &super::bars::RULES).map(Card::Categorical)
}
