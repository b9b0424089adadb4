//! The engine's two sorts, small and without the standard library's.
//!
//! Each `sort_by` closure is its own copy of the standard library's stable
//! sort (about 4 KB of WebAssembly each), and its unstable sort is 2.5 KB.
//! Numbers are ordered by a radix sort (linear and stable: a million
//! unsorted numbers in about 75 ms natively, where the unstable sort takes
//! 45 ms and a heap sort 400 ms), anything else by a heap sort of indices
//! (a few hundred bytes, O(n log n) in every case).

/// The indices of `keys`, by `f64::total_cmp` of their keys (the largest
/// first when `largest_first`); equal keys keep their index order, as a
/// stable sort would.
pub(crate) fn ranked(keys: &[f64], largest_first: bool) -> Vec<usize> {
    // Bits whose unsigned order is total_cmp's: negatives flipped whole,
    // positives with the sign bit set; all flipped for largest first.
    let bits = |k: f64| {
        let b = k.to_bits();
        let b = if b >> 63 == 1 { !b } else { b | 1 << 63 };
        if largest_first {
            !b
        } else {
            b
        }
    };
    let mut items: Vec<(u64, usize)> = keys
        .iter()
        .enumerate()
        .map(|(i, &k)| (bits(k), i))
        .collect();
    let mut spare = items.clone();
    // Byte by byte from the lowest: each pass is stable, so equal keys keep
    // their index order and the last pass leaves the whole in order.
    for shift in (0..64).step_by(8) {
        let mut at = [0usize; 256];
        for &(k, _) in &items {
            if let Some(count) = at.get_mut((k >> shift) as usize & 255) {
                *count += 1;
            }
        }
        if at.contains(&items.len()) {
            continue; // one byte value for all: nothing moves
        }
        let mut start = 0;
        for slot in &mut at {
            let count = *slot;
            *slot = start;
            start += count;
        }
        for &item in &items {
            if let Some(next) = at.get_mut((item.0 >> shift) as usize & 255) {
                if let Some(place) = spare.get_mut(*next) {
                    *place = item;
                }
                *next += 1;
            }
        }
        std::mem::swap(&mut items, &mut spare);
    }
    items.into_iter().map(|(_, i)| i).collect()
}

/// Sorts `items` so that no item comes before one it is `before`.
pub(crate) fn heap_sort(items: &mut [usize], before: impl Fn(usize, usize) -> bool) {
    let at = |items: &[usize], i: usize| items.get(i).copied().unwrap_or(0);
    let sift_down = |items: &mut [usize], mut root: usize, end: usize| loop {
        let mut child = 2 * root + 1;
        if child >= end {
            break;
        }
        if child + 1 < end && before(at(items, child), at(items, child + 1)) {
            child += 1;
        }
        if !before(at(items, root), at(items, child)) {
            break;
        }
        items.swap(root, child);
        root = child;
    };
    let len = items.len();
    for root in (0..len / 2).rev() {
        sift_down(items, root, len);
    }
    for end in (1..len).rev() {
        items.swap(0, end);
        sift_down(items, 0, end);
    }
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
