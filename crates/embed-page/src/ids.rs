//! The one rule for ids in addresses, the embed's and the API's: 1 to a
//! bound of ASCII letters, digits, `_` and `-`, so that an id is one plain
//! path segment and never reaches a query or a path as anything else.

/// The longest card id the embed takes: a page may name its cards itself.
pub const MAX_CARD_ID: usize = 128;

/// Whether `id` is 1 to `max` bytes of A-Z, a-z, 0-9, `_` and `-`.
pub fn is_plain(id: &str, max: usize) -> bool {
    (1..=max).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// A card id the embed addresses take.
pub fn is_card_id(id: &str) -> bool {
    is_plain(id, MAX_CARD_ID)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_one_plain_segment() {
        assert!(is_card_id("abc_DEF-123"));
        assert!(is_card_id(&"a".repeat(128)));
        for bad in [
            "",
            "a b",
            "a/b",
            "..",
            "é",
            "a.b",
            "a%2Fb",
            &"a".repeat(129),
        ] {
            assert!(!is_card_id(bad), "{bad}");
        }
        assert!(is_plain(&"a".repeat(64), 64) && !is_plain(&"a".repeat(65), 64));
    }
}
