//! Reading the `visualization_data` field from a posted form, urlencoded
//! (what a browser sends for the widget's form) or multipart.

use axum::body::Body;
use axum::body::Bytes;
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::HeaderMap;
use futures_util::FutureExt;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use http_body_util::BodyExt;

pub const FIELD: &str = "visualization_data";
/// The widget's second field: the frame's size in CSS px, `600x420`
/// (`docs/service-api.md`). Optional, and never a reason to refuse a post.
pub const FRAME_SIZE_FIELD: &str = "frame_size";

#[derive(Debug, thiserror::Error)]
pub enum FormError {
    #[error("the request body is larger than the limit of {limit} bytes")]
    TooLarge { limit: usize },
    #[error("the content type {0} is not a form; post application/x-www-form-urlencoded or multipart/form-data")]
    UnsupportedType(String),
    #[error("the request has no Content-Type; post application/x-www-form-urlencoded or multipart/form-data")]
    MissingType,
    #[error("the form has no \"visualization_data\" field")]
    MissingField,
    #[error("the multipart body is malformed: {0}")]
    Multipart(String),
    #[error("the request body could not be read: {0}")]
    Read(String),
    #[error("the \"visualization_data\" field is not UTF-8 text")]
    NotUtf8,
    #[error("the request body did not arrive within {seconds} seconds")]
    TimedOut { seconds: u64 },
    #[error("the service is receiving as many large posts as it can hold; try again in a moment")]
    Busy,
}

#[derive(Debug)]
enum Kind {
    UrlEncoded,
    Multipart(String),
}

/// A Content-Type's type and subtype, lower case, without parameters.
pub fn media_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

fn kind(headers: &HeaderMap) -> Result<Kind, FormError> {
    let value = headers.get(CONTENT_TYPE).ok_or(FormError::MissingType)?;
    let text = value
        .to_str()
        .map_err(|_| FormError::UnsupportedType("(not text)".into()))?;
    match media_type(text).as_str() {
        "application/x-www-form-urlencoded" => Ok(Kind::UrlEncoded),
        "multipart/form-data" => multer::parse_boundary(text)
            .map(Kind::Multipart)
            .map_err(|e| FormError::Multipart(e.to_string())),
        _ => Err(FormError::UnsupportedType(format!("\"{}\"", text.trim()))),
    }
}

/// At most this much of a refused body is read and thrown away, so that
/// the client, still sending, reads the 413 page instead of a reset
/// connection; a larger body is cut off with the connection.
const MAX_DRAIN: u64 = 64 * 1024 * 1024;

/// A posted body, all in memory, not yet parsed.
#[derive(Debug)]
pub struct Posted {
    kind: Kind,
    /// A Vec, not Bytes: a urlencoded field is decoded in place in it.
    bytes: Vec<u8>,
    /// The body's share of the host's body memory, given back with it.
    _held: Option<OwnedSemaphorePermit>,
}

impl Posted {
    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    /// The `frame_size` field's value, if the body is urlencoded (as the
    /// widget posts it) and has one, unescaped: the first pair so named.
    /// A size in any other spelling is read as none. One pass over the
    /// body, which is bounded by the body limit.
    pub fn frame_size(&self) -> Option<&[u8]> {
        if !matches!(self.kind, Kind::UrlEncoded) {
            return None;
        }
        let name = FRAME_SIZE_FIELD.as_bytes();
        self.bytes
            .split(|&b| b == b'&')
            .find_map(|pair| pair.strip_prefix(name)?.strip_prefix(b"="))
    }

    /// The field's text: CPU work (decoding, multipart), for a blocking
    /// thread.
    pub fn field(self) -> Result<String, FormError> {
        field_of(self.kind, self.bytes)
    }
}

/// How a body may be read: at most `limit` bytes, all within `timeout`;
/// bytes beyond the first `free` are taken from `memory` as they arrive.
#[derive(Debug, Clone)]
pub struct BodyRules {
    pub limit: usize,
    pub timeout: Duration,
    pub free: usize,
    pub memory: Arc<Semaphore>,
}

/// The body of a form post. The content type is checked before the body is
/// read, the body is read at most up to the limit, and all of it must
/// arrive within the timeout.
pub async fn read_body(
    headers: &HeaderMap,
    body: Body,
    rules: &BodyRules,
) -> Result<Posted, FormError> {
    let kind = kind(headers)?;
    let (bytes, held) = read_limited(headers, body, rules).await?;
    Ok(Posted {
        kind,
        bytes,
        _held: held,
    })
}

/// Any body (a form's, or the service API's JSON and uploads) read by
/// `rules`: the bytes, and their share of the body memory, to be held as
/// long as they are.
pub async fn read_limited(
    headers: &HeaderMap,
    body: Body,
    rules: &BodyRules,
) -> Result<(Vec<u8>, Option<OwnedSemaphorePermit>), FormError> {
    let (limit, timeout) = (rules.limit, rules.timeout);
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let read = async {
        if declared.is_some_and(|n| n > limit as u64) {
            drain(body, limit).await;
            return Err(FormError::TooLarge { limit });
        }
        collect(body, rules, declared).await
    };
    tokio::time::timeout(timeout, read)
        .await
        .map_err(|_| FormError::TimedOut {
            seconds: timeout.as_secs(),
        })?
}

/// The whole body and its share of the body memory, or (after draining the
/// rest) [`FormError::TooLarge`] as soon as it passes the limit, or
/// [`FormError::Busy`] when the body memory is all taken. Shares are taken
/// as bytes arrive, so an upload that stalls holds only what it sent.
async fn collect(
    mut body: Body,
    rules: &BodyRules,
    declared: Option<u64>,
) -> Result<(Vec<u8>, Option<OwnedSemaphorePermit>), FormError> {
    let limit = rules.limit;
    // The declared length (at most the limit, and checked against it above)
    // sized at once: grown by doubling, the buffer and its copy would be held
    // together, up to three times the body.
    let expected = declared
        .and_then(|n| usize::try_from(n).ok())
        .map_or(0, |n| n.min(limit));
    let mut bytes = Vec::with_capacity(expected);
    let mut held: Option<OwnedSemaphorePermit> = None;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| FormError::Read(e.to_string()))?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        let total = bytes.len() + data.len();
        if total > limit {
            drain(body, limit).await;
            return Err(FormError::TooLarge { limit });
        }
        let owed = total.saturating_sub(rules.free.max(bytes.len()));
        if owed > 0 {
            let share = u32::try_from(owed)
                .ok()
                .and_then(|owed| rules.memory.clone().try_acquire_many_owned(owed).ok());
            let Some(share) = share else {
                drop(held);
                drain(body, limit).await;
                return Err(FormError::Busy);
            };
            match held.as_mut() {
                Some(held) => held.merge(share),
                None => held = Some(share),
            }
        }
        bytes.extend_from_slice(&data);
    }
    Ok((bytes, held))
}

/// Reads and forgets the rest of a refused body, up to [`MAX_DRAIN`] bytes
/// (or four times the limit, if that is more).
async fn drain(mut body: Body, limit: usize) {
    let mut budget = (limit as u64).saturating_mul(4).max(MAX_DRAIN);
    while let Some(Ok(frame)) = body.frame().await {
        let Ok(data) = frame.into_data() else {
            continue;
        };
        match budget.checked_sub(data.len() as u64) {
            Some(rest) => budget = rest,
            None => return,
        }
    }
}

/// The field from a body that is all in memory; `content_type` is the
/// request's Content-Type header. Synchronous, so that it can be fuzzed.
pub fn field(content_type: &str, body: &[u8]) -> Result<String, FormError> {
    posted(content_type, body)?.field()
}

/// A body already in memory, with its request's Content-Type.
pub fn posted(content_type: &str, body: &[u8]) -> Result<Posted, FormError> {
    let mut headers = HeaderMap::new();
    let value = axum::http::HeaderValue::from_str(content_type)
        .map_err(|_| FormError::UnsupportedType("(not text)".into()))?;
    headers.insert(CONTENT_TYPE, value);
    Ok(Posted {
        kind: kind(&headers)?,
        bytes: body.to_vec(),
        _held: None,
    })
}

fn field_of(kind: Kind, bytes: Vec<u8>) -> Result<String, FormError> {
    match kind {
        Kind::UrlEncoded => urlencoded_field(bytes),
        Kind::Multipart(boundary) => multipart_field(Bytes::from(bytes), boundary),
    }
}

/// The first `visualization_data` pair's value, as `form_urlencoded::parse`
/// reads it (`+` is a space, `%XY` a byte, a bad escape stays as it is,
/// invalid UTF-8 becomes U+FFFD), decoded in place in the body's own buffer:
/// decoding only shrinks, so the field costs no memory beyond the body. A
/// copy (`parse` then `into_owned`) held the body, the copy and the copy's
/// growth at once.
fn urlencoded_field(mut body: Vec<u8>) -> Result<String, FormError> {
    let (start, end) = body
        .split(|&b| b == b'&')
        .scan(0, |at, pair| {
            let start = *at;
            *at += pair.len() + 1;
            Some((start, pair))
        })
        .find_map(|(start, pair)| {
            let name_len = pair.iter().position(|&b| b == b'=').unwrap_or(pair.len());
            // An escaped name is at most three bytes per byte of the field's name.
            let name = &pair[..name_len];
            let named = name.len() <= 3 * FIELD.len()
                && form_urlencoded::parse(name)
                    .next()
                    .map(|(n, _)| n)
                    .as_deref()
                    == Some(FIELD);
            let value = (start + name_len + 1).min(start + pair.len());
            named.then_some((value, start + pair.len()))
        })
        .ok_or(FormError::MissingField)?;
    let written = decode_in_place(&mut body[start..end]);
    body.truncate(start + written);
    body.drain(..start);
    // The text is held while the chart is read: not the whole body's capacity.
    body.shrink_to_fit();
    match String::from_utf8(body) {
        Ok(text) => Ok(text),
        Err(invalid) => Ok(String::from_utf8_lossy(invalid.as_bytes()).into_owned()),
    }
}

/// Percent-decodes `bytes` into their own start; returns the decoded length.
fn decode_in_place(bytes: &mut [u8]) -> usize {
    let hex = |b: u8| char::from(b).to_digit(16);
    let (mut read, mut write) = (0, 0);
    while let Some(&byte) = bytes.get(read) {
        let escaped = match (byte, bytes.get(read + 1), bytes.get(read + 2)) {
            (b'%', Some(&high), Some(&low)) => hex(high).zip(hex(low)),
            _ => None,
        };
        let (out, used) = match escaped {
            // Two hex digits make at most 255.
            Some((high, low)) => (u8::try_from(high * 16 + low).unwrap_or(byte), 3),
            None if byte == b'+' => (b' ', 1),
            None => (byte, 1),
        };
        if let Some(slot) = bytes.get_mut(write) {
            *slot = out;
        }
        write += 1;
        read += used;
    }
    write
}

/// multer is async, but over one chunk already in memory it never waits:
/// every future is ready at once. A future that is not would be a multer
/// change; it is refused as malformed rather than waited for.
fn multipart_field(bytes: Bytes, boundary: String) -> Result<String, FormError> {
    let pending = || FormError::Multipart("the body ended early".into());
    let stream = futures_util::stream::once(async move { Ok::<_, std::io::Error>(bytes) });
    let mut multipart = multer::Multipart::new(stream, boundary);
    loop {
        let field = multipart
            .next_field()
            .now_or_never()
            .ok_or_else(pending)?
            .map_err(|e| FormError::Multipart(e.to_string()))?;
        let Some(field) = field else {
            return Err(FormError::MissingField);
        };
        if field.name() == Some(FIELD) {
            let bytes = field
                .bytes()
                .now_or_never()
                .ok_or_else(pending)?
                .map_err(|e| FormError::Multipart(e.to_string()))?;
            return String::from_utf8(bytes.to_vec()).map_err(|_| FormError::NotUtf8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_is_decoded_in_place_exactly_as_form_urlencoded_reads_it() {
        let cases: &[&[u8]] = &[
            b"visualization_data=%7B%22a%22%3A1%7D",
            b"a=1&visualization_data=x+y%20z&visualization_data=second",
            b"visualization%5Fdata=%zz%4%41+%2B%",
            b"&&visualization_data&x=1",
            b"visualization_data==a=b",
            b"visualization_data=%FF%FEok%C3%A9",
            b"visualization_dat=1&xvisualization_data=2&visualization_data=3",
            b"",
            b"other=1",
        ];
        for &body in cases {
            let expected = form_urlencoded::parse(body)
                .find(|(name, _)| name == FIELD)
                .map(|(_, value)| value.into_owned());
            let got = urlencoded_field(body.to_vec()).ok();
            assert_eq!(got, expected, "{}", String::from_utf8_lossy(body));
        }
    }

    #[test]
    fn the_frame_size_is_the_first_plain_pair_of_an_urlencoded_body() {
        let size = |content_type: &str, body: &[u8]| {
            posted(content_type, body)
                .ok()
                .and_then(|p| p.frame_size().map(<[u8]>::to_vec))
        };
        let url = "application/x-www-form-urlencoded";
        assert_eq!(
            size(url, b"visualization_data=%7B%7D&frame_size=600x420"),
            Some(b"600x420".to_vec())
        );
        assert_eq!(
            size(url, b"frame_size=1x2&frame_size=3x4"),
            Some(b"1x2".to_vec())
        );
        assert_eq!(size(url, b"visualization_data=frame_size%3D1x2"), None);
        assert_eq!(size(url, b"xframe_size=1x2&frame_sizes=1x2"), None);
        assert_eq!(size(url, b"frame%5Fsize=600x420"), None);
        let body = b"--b\r\nContent-Disposition: form-data; name=\"frame_size\"\r\n\r\n600x420\r\n--b--\r\n";
        assert_eq!(size("multipart/form-data; boundary=b", body), None);
    }

    #[test]
    fn bodies_in_memory_are_read_like_posted_ones() {
        let url = field(
            "application/x-www-form-urlencoded",
            b"a=1&visualization_data=%7B%7D",
        );
        assert_eq!(url.ok().as_deref(), Some("{}"));
        let body = b"--b\r\nContent-Disposition: form-data; name=\"visualization_data\"\r\n\r\n{}\r\n--b--\r\n";
        assert_eq!(
            field("multipart/form-data; boundary=b", body)
                .ok()
                .as_deref(),
            Some("{}")
        );
        // Cut short: an error, never a wait.
        assert!(field("multipart/form-data; boundary=b", &body[..40]).is_err());
        assert!(matches!(
            field("text/plain", b"x"),
            Err(FormError::UnsupportedType(_))
        ));
        assert!(field("multipart/form-data", b"").is_err());
    }
}
