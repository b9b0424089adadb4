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
