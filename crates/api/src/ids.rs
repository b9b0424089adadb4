//! Identifiers and times as the API writes them.

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// `prefix_` and 24 random hex digits (96 bits), e.g. `file_3f9a…`.
pub fn new_id(prefix: &str) -> String {
    let mut bytes = [0u8; 12];
    // The OS's generator; without one no id can be safe, so fall back to
    // the clock only to stay alive (logged).
    if let Err(error) = getrandom::fill(&mut bytes) {
        tracing::error!("no random numbers from the OS: {error}");
        let nanos = OffsetDateTime::now_utc()
            .unix_timestamp_nanos()
            .to_le_bytes();
        bytes.copy_from_slice(&nanos[..12]);
    }
    format!("{prefix}_{}", hex(&bytes))
}

/// A card id that says its card is kept nowhere (drawn from CSV sent
/// inline): 20 random hex digits and 4 that
/// check them, so that any replica, keeping nothing, tells such a card
/// (410 Gone) from one it never made (404).
pub fn new_unkept_card_id() -> String {
    let id = new_id("card");
    let head: String = id.chars().take(id.len() - 4).collect();
    format!("{head}{}", unkept_mark(&head))
}

/// Whether `id` is a card id [`new_unkept_card_id`] made.
pub fn is_unkept_card(id: &str) -> bool {
    id.len() == "card_".len() + 24
        && id.starts_with("card_")
        && id
            .get(..id.len() - 4)
            .is_some_and(|head| id.ends_with(&unkept_mark(head)))
}

fn unkept_mark(head: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("zdr unkept card {head}").as_bytes());
    hex(digest.get(..2).unwrap_or_default())
}

/// Ids this host makes and accepts: 1 to 64 letters, digits, `_` or `-`
/// (the embed's rule, `zdr_embed_page::ids`, at the API's length). Anything
/// else is no file or card here, and never reaches a query or a path.
pub fn is_id(id: &str) -> bool {
    zdr_embed_page::ids::is_plain(id, 64)
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Now as RFC 3339 in UTC, to the second: `2026-11-25T19:04:05Z`.
pub fn now_rfc3339() -> String {
    rfc3339(OffsetDateTime::now_utc())
}

pub fn rfc3339(at: OffsetDateTime) -> String {
    let at = at.replace_nanosecond(0).unwrap_or(at);
    at.format(&Rfc3339)
        .unwrap_or_else(|_| at.unix_timestamp().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_kept_nowhere_is_told_by_its_id() {
        for _ in 0..100 {
            let id = new_unkept_card_id();
            assert!(is_unkept_card(&id) && is_id(&id), "{id}");
        }
        let kept = (0..100).filter(|_| is_unkept_card(&new_id("card"))).count();
        assert!(kept <= 1, "{kept} random ids looked unkept");
        assert!(!is_unkept_card("card_1") && !is_unkept_card("file_0123456789abcdef01234567"));
    }
}
