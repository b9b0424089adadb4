//! One way to order things by a number, shared by every place that sorts.
//!
//! Each `sort_by` closure is its own copy of the standard library's stable
//! sort (about 4 KB of WebAssembly each); ordering indices by `(key, index)`
//! with one comparator gives the stable sort's result from a single copy of
//! the unstable one.

/// The indices of `keys`, by `f64::total_cmp` of their keys (the largest
/// first when `largest_first`); equal keys keep their index order, as a
/// stable sort would.
pub(crate) fn ranked(keys: &[f64], largest_first: bool) -> Vec<usize> {
    let mut pairs: Vec<(f64, usize)> = keys.iter().copied().zip(0..).collect();
    pairs.sort_unstable_by(|a, b| {
        let by_key = a.0.total_cmp(&b.0);
        let by_key = if largest_first {
            by_key.reverse()
        } else {
            by_key
        };
        by_key.then(a.1.cmp(&b.1))
    });
    pairs.into_iter().map(|(_, i)| i).collect()
}

/// `items` rearranged in the order of `ranked` (indices out of range are
/// skipped, so a short `order` drops items rather than panicking).
pub(crate) fn rearranged<T: Clone>(items: &[T], order: &[usize]) -> Vec<T> {
    order
        .iter()
        .filter_map(|&i| items.get(i).cloned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascending_keeps_equal_keys_in_index_order() {
        assert_eq!(ranked(&[3.0, 1.0, 3.0, 2.0, 1.0], false), [1, 4, 3, 0, 2]);
    }

    #[test]
    fn largest_first_keeps_equal_keys_in_index_order() {
        assert_eq!(ranked(&[3.0, 1.0, 3.0, 2.0, 1.0], true), [0, 2, 3, 1, 4]);
    }

    #[test]
    fn matches_a_stable_sort_on_many_ties() {
        let keys: Vec<f64> = (0..200).map(|i| f64::from((i * 7919) % 13)).collect();
        for largest_first in [false, true] {
            let mut expected: Vec<usize> = (0..keys.len()).collect();
            expected.sort_by(|&a, &b| {
                let o = keys[a].total_cmp(&keys[b]);
                if largest_first {
                    o.reverse()
                } else {
                    o
                }
            });
            assert_eq!(ranked(&keys, largest_first), expected);
        }
    }

    #[test]
    fn rearranged_follows_the_order() {
        assert_eq!(rearranged(&['a', 'b', 'c'], &[2, 0, 1]), ['c', 'a', 'b']);
    }
}
