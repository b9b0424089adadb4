//! treemap: areas of categories, in one level of groups.

use std::collections::HashMap;

use zdr_chart::model::{Card, Leaf, Treemap};

/// Leaves `(group, label, value)` (the group `""` for none), as the reader
/// makes them: a label given twice in a group is summed, and values of
/// zero are left out.
pub(crate) fn treemap(leaves: Vec<(String, String, f64)>) -> Card {
    let mut groups: Vec<String> = Vec::new();
    let mut group_at: HashMap<String, usize> = HashMap::new();
    let mut out: Vec<Leaf> = Vec::new();
    let mut leaf_at: HashMap<(usize, String), usize> = HashMap::new();
    for (group, label, value) in leaves {
        if value.is_nan() || value <= 0.0 {
            continue;
        }
        let group = *group_at.entry(group).or_insert_with_key(|g| {
            groups.push(g.clone());
            groups.len() - 1
        });
        let at = *leaf_at
            .entry((group, label))
            .or_insert_with_key(|(group, label)| {
                out.push(Leaf {
                    label: label.clone(),
                    group: *group,
                    value: 0.0,
                });
                out.len() - 1
            });
        if let Some(leaf) = out.get_mut(at) {
            leaf.value += value;
        }
    }
    Card::Treemap(Treemap {
        groups,
        leaves: out,
    })
}
