//! `questions`: the question reader (`zdr_api::query`) on hostile text over
//! a hostile CSV. The bytes before the first NUL are the question, the rest
//! the table. A question gives a card the engine reads, a reason, or
//! nothing; it never panics, never takes a second or 256 MB.

/// The table a question without a NUL is asked of.
const SMALL_SALES: &[u8] = b"month,region,sales\n2024-01,North,120\n2024-02,South,98\n";

/// One input: a question, then NUL and a CSV, or the question alone.
pub fn check(bytes: &[u8]) {
    let (question, csv) = match bytes.iter().position(|b| *b == 0) {
        Some(at) => (&bytes[..at], &bytes[at + 1..]),
        None => (bytes, SMALL_SALES),
    };
    let question = String::from_utf8_lossy(question);
    if let Ok(Some(card)) = zdr_host::api::answer_question(csv, &question) {
        assert!(
            zdr_chart::Chart::from_json(&card).is_ok(),
            "a card the engine does not read: {card}"
        );
    }
}
