//! bar, pie, waterfall and choropleth (one series), grouped_bar and
//! stacked_bar (several): a value per category.

use std::collections::HashMap;

use zdr_chart::model::{Card, CardKind, Categorical, NamedValues};

/// One series of `(category, value)`.
pub(crate) fn bars(kind: CardKind, points: Vec<(String, f64)>) -> Card {
    categorical(kind, vec![(String::new(), points)])
}

/// Series of `(category, value)` on the categories of all of them, in the
/// order first seen: a category a series lacks is missing there, and one
/// given twice is summed, as the reader does.
pub(crate) fn categorical(kind: CardKind, series: Vec<(String, Vec<(String, f64)>)>) -> Card {
    let mut categories: Vec<String> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(series.len());
    for (s, (name, points)) in series.into_iter().enumerate() {
        let mut values = vec![f64::NAN; categories.len()];
        for (x, y) in points {
            let at = *index.entry(x).or_insert_with_key(|x| {
                categories.push(x.clone());
                categories.len() - 1
            });
            if values.len() <= at {
                values.resize(at + 1, f64::NAN);
            }
            if let Some(slot) = values.get_mut(at) {
                let y = super::value(y);
                *slot = match (slot.is_nan(), y.is_nan()) {
                    (true, _) => y,
                    (false, true) => *slot,
                    (false, false) => *slot + y,
                };
            }
        }
        out.push(NamedValues {
            name: super::series_name(name, s),
            values,
        });
    }
    // Categories first seen in a later series are missing in earlier ones.
    for one in &mut out {
        one.values.resize(categories.len(), f64::NAN);
    }
    Card::Categorical(Categorical {
        kind,
        categories,
        series: out,
    })
}
