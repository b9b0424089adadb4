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

#[cfg(feature = "geo")]
fn draw_choropleth(
    ctx: &crate::layout::Ctx<'_>,
    body: crate::layout::Rect,
    c: &crate::model::Categorical,
) {
    choropleth::draw(ctx, body, c)
}

#[cfg(feature = "geo")]
fn draw_places(
    ctx: &crate::layout::Ctx<'_>,
    body: crate::layout::Rect,
    places: &crate::model::Places,
) {
    places::draw(ctx, body, places)
}

#[cfg(not(feature = "geo"))]
fn draw_choropleth(
    ctx: &crate::layout::Ctx<'_>,
    body: crate::layout::Rect,
    _c: &crate::model::Categorical,
) {
    ctx.no_maps(body)
}

#[cfg(not(feature = "geo"))]
fn draw_places(
    ctx: &crate::layout::Ctx<'_>,
    body: crate::layout::Rect,
    _places: &crate::model::Places,
) {
    ctx.no_maps(body)
}

/// The group's code, reached through `crate::kinds::code` (in the page,
/// once its chunk has loaded).
pub(crate) static CODE: super::GroupCode = super::GroupCode {
    read: |kind, shape, _| match kind {
        CardKind::Choropleth => read_choropleth(shape),
        _ => read::read(kind, shape),
    },
    finish: super::kept,
    draw: |ctx, body, chart| match &chart.card {
        Card::Categorical(c) => draw_choropleth(ctx, body, c),
        Card::Places(places) => draw_places(ctx, body, places),
        _ => {}
    },
    summary: |chart, units| match &chart.card {
        Card::Categorical(c) => describe::choropleth_summary(c, units),
        Card::Places(p) => describe::places_summary(p, units),
        _ => String::new(),
    },
    data_table: |chart, max_rows, f| match &chart.card {
        Card::Categorical(c) => describe::choropleth_table(chart, c, max_rows, f),
        Card::Places(p) => {
            let value = crate::describe::table::y_name(chart, "Value");
            describe::places_table(p, value, max_rows, f)
        }
        _ => super::no_table(),
    },
};
