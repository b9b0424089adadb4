//! boxplot: a box of quartiles, whiskers and outliers per category.

use std::collections::HashMap;

use zdr_chart::model::Card;

/// The boxes of rows `(category, value)`, in the order first seen.
pub(crate) fn boxplot(rows: Vec<(String, f64)>) -> Card {
    let mut groups: Vec<(String, Vec<f64>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (label, value) in rows {
        let at = *index.entry(label).or_insert_with_key(|label| {
            groups.push((label.clone(), Vec::new()));
            groups.len() - 1
        });
        if let Some((_, values)) = groups.get_mut(at) {
            values.push(super::value(value));
        }
    }
    Card::boxplot(groups)
}
