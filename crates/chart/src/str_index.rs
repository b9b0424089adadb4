//! A string-keyed index: open addressing over FNV-1a hashes.
//!
//! `std`'s `HashMap` brings hashbrown, SipHash and the thread-local random
//! keys of `RandomState` into the WebAssembly engine (about 4 KB of code,
//! measured with twiggy) for the two indexes the engine keeps: the
//! categories of a card and the names of a map's regions.
//!
//! Keys that collide on purpose would make every insert walk one long run
//! (a pie takes 100,000 categories). The host draws cards from anyone's
//! posts, so natively the hash is seeded at random per index, as std's is;
//! in the page the data is the page's own, and the seed is fixed.

/// Keys with a value each, in insertion order; the first value given for a
/// key stays.
#[derive(Debug, Clone)]
pub(crate) struct StrIndex {
    seed: u64,
    keys: Vec<String>,
    values: Vec<usize>,
    /// Position + 1 of the key whose hash lands here, 0 for free; a power of
    /// two long, at most half full.
    slots: Vec<u32>,
}

#[cfg(not(target_arch = "wasm32"))]
fn random_seed() -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(0u8)
}

#[cfg(target_arch = "wasm32")]
fn random_seed() -> u64 {
    0
}

impl Default for StrIndex {
    fn default() -> Self {
        StrIndex {
            seed: random_seed(),
            keys: Vec::new(),
            values: Vec::new(),
            slots: Vec::new(),
        }
    }
}

/// Equal when the same keys have the same values in the same order,
/// whatever the seeds.
impl PartialEq for StrIndex {
    fn eq(&self, other: &Self) -> bool {
        self.keys == other.keys && self.values == other.values
    }
}

impl StrIndex {
    /// FNV-1a from a seeded start, mixed so that the slot (the top bits)
    /// depends on every byte and on the seed.
    fn hash(&self, key: &str) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325 ^ self.seed;
        for &b in key.as_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        (h ^ h >> 29).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// The slot of `key`: where it is, or the free one where it would go.
    fn slot(&self, key: &str) -> usize {
        let mask = self.slots.len().wrapping_sub(1);
        let bits = self.slots.len().trailing_zeros();
        let mut at = (self.hash(key) >> (64 - bits).min(63)) as usize & mask;
        loop {
            match self.slots.get(at) {
                Some(&0) | None => return at,
                Some(&p) if self.keys.get(p as usize - 1).is_some_and(|k| k == key) => return at,
                Some(_) => at = (at + 1) & mask,
            }
        }
    }

    /// The value of `key`.
    pub(crate) fn get(&self, key: &str) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let p = *self.slots.get(self.slot(key))?;
        self.values.get((p as usize).checked_sub(1)?).copied()
    }

    /// Adds `key` with `value` unless it is there: either way, its value.
    pub(crate) fn insert(&mut self, key: String, value: usize) -> usize {
        if let Some(found) = self.get(&key) {
            return found;
        }
        if (self.keys.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let at = self.slot(&key);
        self.keys.push(key);
        self.values.push(value);
        if let Some(slot) = self.slots.get_mut(at) {
            *slot = self.keys.len() as u32;
        }
        value
    }

    fn grow(&mut self) {
        self.slots = vec![0; (self.slots.len() * 2).max(16)];
        for p in 0..self.keys.len() {
            let at = self.keys.get(p).map_or(0, |key| self.slot(key));
            if let Some(slot) = self.slots.get_mut(at) {
                *slot = p as u32 + 1;
            }
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// The keys, in the order they were first inserted.
    pub(crate) fn into_keys(self) -> Vec<String> {
        self.keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_value_stays_and_keys_keep_their_order() {
        let mut index = StrIndex::default();
        assert_eq!(index.get("a"), None);
        assert_eq!(index.insert("b".into(), 7), 7);
        assert_eq!(index.insert("a".into(), 8), 8);
        assert_eq!(index.insert("b".into(), 9), 7);
        assert_eq!(index.get("b"), Some(7));
        assert_eq!(index.get(""), None);
        assert_eq!(index.len(), 2);
        assert_eq!(index.into_keys(), ["b", "a"]);
    }

    #[test]
    fn agrees_with_a_hash_map_across_growth() {
        let mut index = StrIndex::default();
        let mut map = std::collections::HashMap::new();
        for i in 0..20_000u32 {
            let key = format!("k{}", i.wrapping_mul(2_654_435_761) % 7_001);
            let want = *map.entry(key.clone()).or_insert(i as usize);
            assert_eq!(index.insert(key, i as usize), want);
        }
        assert_eq!(index.len(), map.len());
        for (key, value) in &map {
            assert_eq!(index.get(key), Some(*value));
        }
        assert_eq!(index.get("k7001"), None);
    }
}
