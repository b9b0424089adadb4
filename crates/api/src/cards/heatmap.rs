//! heatmap: a value per pair of categories.

use std::collections::HashMap;

use zdr_chart::model::{Card, MAX_HEATMAP_CELLS};

/// Cells `(x, y, value)`: x categories across and y down, each in the
/// order first seen; a cell not given is empty, one given twice keeps its
/// last value (as in the reader). `Err` when the grid is larger than the
/// engine draws.
pub(crate) fn heatmap(cells: Vec<(String, String, f64)>) -> Result<Card, String> {
    let mut xs = Labels::default();
    let mut ys = Labels::default();
    let at: Vec<(usize, usize, f64)> = cells
        .into_iter()
        .map(|(x, y, v)| (xs.at(x), ys.at(y), super::value(v)))
        .collect();
    let (xs, ys) = (xs.names, ys.names);
    let size = xs.len().saturating_mul(ys.len());
    if size > MAX_HEATMAP_CELLS {
        return Err(format!(
            "a heatmap of {} by {} categories has {size} cells; at most {MAX_HEATMAP_CELLS} can be drawn",
            xs.len(),
            ys.len()
        ));
    }
    let mut values = vec![f64::NAN; size];
    for (x, y, v) in at {
        if let Some(slot) = values.get_mut(y * xs.len() + x) {
            *slot = v;
        }
    }
    Ok(Card::Heatmap { xs, ys, values })
}

/// Distinct labels in the order first seen.
#[derive(Default)]
struct Labels {
    names: Vec<String>,
    index: HashMap<String, usize>,
}

impl Labels {
    fn at(&mut self, label: String) -> usize {
        let names = &mut self.names;
        *self.index.entry(label).or_insert_with_key(|label| {
            names.push(label.clone());
            names.len() - 1
        })
    }
}
