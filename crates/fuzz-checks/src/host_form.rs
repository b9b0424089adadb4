//! `host_form`: zdr-host's reading of a posted form. The first line of the
//! input is the `Content-Type` header, the rest the body (urlencoded,
//! multipart or anything). The parser must answer with the field or an
//! error, never panic, and never give back more than the body could hold;
//! a frame size it reads is within the range the page is made for.

/// One input: a header line, then a body.
pub fn check(bytes: &[u8]) {
    let (head, body) = match bytes.iter().position(|&b| b == b'\n') {
        Some(at) => (&bytes[..at], &bytes[at + 1..]),
        None => (bytes, &[][..]),
    };
    let Ok(content_type) = std::str::from_utf8(head) else {
        return;
    };
    if let Ok(field) = zdr_host::parse::form_field(content_type, body) {
        // Decoding only shrinks text, except that one invalid byte may
        // become U+FFFD (three bytes).
        assert!(field.len() <= 3 * body.len(), "field larger than its body");
    }
    if let Some((width, height)) = zdr_host::parse::frame_size(content_type, body) {
        assert!(
            (320..=1600).contains(&width) && (240..=1200).contains(&height),
            "a frame size out of range: {width}x{height}"
        );
    }
}
