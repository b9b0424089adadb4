//! map and bubble_map: places at coordinates, or bubbles at regions.

use zdr_chart::model::{Card, Place, Places};

/// One series of places; bubbles are sized by their values.
pub(crate) fn places(bubbles: bool, places: Vec<Place>) -> Card {
    Card::Places(Places {
        bubbles,
        series: vec![String::new()],
        places,
    })
}
