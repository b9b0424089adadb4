//! The host's parsers of untrusted text, synchronous and without a server,
//! for the fuzz targets (`fuzz/`). Not an API: the names may change.

/// The `visualization_data` field of a posted body, urlencoded or multipart,
/// as the embed endpoint reads it once the body is in memory.
pub fn form_field(content_type: &str, body: &[u8]) -> Result<String, crate::form::FormError> {
    crate::form::field(content_type, body)
}

/// The frame size a posted body asks for (the widget's `frame_size`
/// field), as the embed endpoint reads it: `(width, height)` in range, or
/// none.
pub fn frame_size(content_type: &str, body: &[u8]) -> Option<(u16, u16)> {
    let posted = crate::form::posted(content_type, body).ok()?;
    let size = crate::chart_page::FrameSize::parse(posted.frame_size()?)?;
    Some((size.width, size.height))
}

/// Whether `text` is accepted as the shell's `parent_origin`.
pub fn parent_origin(text: &str) -> bool {
    crate::origin::check(text).is_ok()
}

/// Whether the query of a shell address (`GET /embed/{id}/?...`) is accepted.
pub fn shell_query(query: &str) -> bool {
    crate::shell::read_query(Some(query)).is_ok()
}

/// Whether the `dark_mode` parameter of a query is accepted.
pub fn dark_mode(query: &str) -> bool {
    crate::embed::dark_mode(Some(query)).is_ok()
}
