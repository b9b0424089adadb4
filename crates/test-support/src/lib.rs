//! What the workspace's tests share, written once: the documented examples
//! (`docs/examples/`, one `visualization_data` per card type) and the
//! bodies a browser posts (a urlencoded form, a `multipart/form-data` one).

// Helpers for tests: a missing example is a failed test, which is what a
// panic means here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

/// The folder of the documented examples.
pub fn examples_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/examples"))
}

/// Every documented example, `(name, JSON text)`, sorted by name: one per
/// card type and the columnar timeseries and scatter.
pub fn examples() -> Vec<(String, String)> {
    let dir = examples_dir();
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (name, text)
        })
        .collect();
    out.sort();
    assert!(out.len() >= 19, "the 19 documented examples: {out:?}");
    out
}

/// The JSON text of the example `name` (`bar`, `timeseries`, ...).
pub fn example(name: &str) -> String {
    let path = examples_dir().join(format!("{name}.json"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `json` as the widget's hidden form posts it: `visualization_data=…`,
/// urlencoded.
pub fn form(json: &str) -> String {
    form_urlencoded::Serializer::new(String::new())
        .append_pair("visualization_data", json)
        .finish()
}

/// The boundary of [`multipart`] bodies.
pub const BOUNDARY: &str = "zdr-test-boundary-7MA4YWxkTrZu0gW";

/// One part of a `multipart/form-data` body: a field, or a file with its
/// file name and, if given, its content type.
pub struct Part<'a> {
    pub name: &'a str,
    pub value: &'a [u8],
    pub file_name: Option<&'a str>,
    pub content_type: Option<&'a str>,
}

impl<'a> Part<'a> {
    /// A plain field.
    pub fn field(name: &'a str, value: &'a str) -> Part<'a> {
        Part {
            name,
            value: value.as_bytes(),
            file_name: None,
            content_type: None,
        }
    }

    /// A file part named `file`, as an upload form sends it.
    pub fn file(value: &'a [u8]) -> Part<'a> {
        Part {
            name: "file",
            value,
            file_name: Some("f"),
            content_type: Some("application/octet-stream"),
        }
    }

    /// This part with a content type.
    pub fn typed(self, content_type: &'a str) -> Part<'a> {
        Part {
            content_type: Some(content_type),
            ..self
        }
    }
}

/// A `multipart/form-data` body of `parts` between `boundary` lines.
pub fn multipart(boundary: &str, parts: &[Part<'_>]) -> Vec<u8> {
    let mut body = Vec::new();
    for part in parts {
        body.extend(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{}\"",
                part.name
            )
            .bytes(),
        );
        if let Some(file_name) = part.file_name {
            body.extend(format!("; filename=\"{file_name}\"").bytes());
        }
        body.extend(b"\r\n");
        if let Some(content_type) = part.content_type {
            body.extend(format!("Content-Type: {content_type}\r\n").bytes());
        }
        body.extend(b"\r\n");
        body.extend_from_slice(part.value);
        body.extend(b"\r\n");
    }
    body.extend(format!("--{boundary}--\r\n").bytes());
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_what_a_browser_sends() {
        assert_eq!(form("{\"a\": 1}"), "visualization_data=%7B%22a%22%3A+1%7D");
        let body = multipart(
            "b",
            &[Part::field("x", "1"), Part::file(b"abc").typed("text/csv")],
        );
        assert_eq!(
            String::from_utf8(body).unwrap(),
            "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n1\r\n\
             --b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f\"\r\n\
             Content-Type: text/csv\r\n\r\nabc\r\n--b--\r\n"
        );
        assert_eq!(examples().len(), 21);
        assert!(example("bar").contains("\"viz_config\""));
    }
}
