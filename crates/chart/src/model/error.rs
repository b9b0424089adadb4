//! Rejections of `visualization_data`, each naming the JSON path it is about.

use std::fmt;

use super::KindGroup;
use crate::json::Value;

/// `data.series[1].points[7].y: expected a number, found null`
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct DataError {
    pub path: String,
    pub message: String,
    /// Set when the data could not be read because the code of its kind's
    /// group is not loaded yet (zdr-engine's chunks): loaded, it may read.
    pub unloaded: Option<KindGroup>,
}

impl DataError {
    pub fn new(path: &Path<'_>, message: impl Into<String>) -> Self {
        DataError::at(path, message.into())
    }

    /// One copy of the construction for every kind of message: `new` is
    /// generic, and each copy of it inlined is its own path formatting.
    #[inline(never)]
    fn at(path: &Path<'_>, message: String) -> Self {
        DataError {
            path: path.to_string(),
            message,
            unloaded: None,
        }
    }

    /// The code of `group` is not loaded (see [`DataError::unloaded`]).
    pub fn unloaded(group: KindGroup) -> Self {
        DataError {
            path: "visualization_data".into(),
            message: format!("the code that draws {} cards is not loaded", group.as_str()),
            unloaded: Some(group),
        }
    }

    #[inline(never)]
    pub fn expected(path: &Path<'_>, expected: &str, found: &Value) -> Self {
        DataError::new(
            path,
            format!("expected {expected}, found {}", describe(found)),
        )
    }
}

/// A JSON path built as the reader descends, without allocating until an error needs it.
#[derive(Clone, Copy)]
pub enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path::Index(self, index)
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => f.write_str("visualization_data"),
            Path::Key(Path::Root, key) => f.write_str(key),
            Path::Key(parent, key) => write!(f, "{parent}.{key}"),
            Path::Index(parent, index) => write!(f, "{parent}[{index}]"),
        }
    }
}

/// `null`, `a number (3)`, `"abc"`, `an array`, ... as error messages quote them.
pub fn describe(value: &Value) -> String {
    const QUOTE_LIMIT: usize = 40;
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => {
            let mut shown: String = s.chars().take(QUOTE_LIMIT).collect();
            if s.chars().nth(QUOTE_LIMIT).is_some() {
                shown.push('…');
            }
            // Quoted as JSON quotes it (Rust's Debug quoting would bring
            // its Unicode tables into the engine).
            let mut quoted = String::with_capacity(shown.len() + 2);
            super::json_text::write_string(&mut quoted, &shown);
            quoted
        }
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_like_javascript() {
        let root = Path::Root;
        let data = root.key("data");
        let series = data.key("series");
        let one = series.index(1);
        let points = one.key("points");
        let seven = points.index(7);
        let y = seven.key("y");
        assert_eq!(y.to_string(), "data.series[1].points[7].y");
        let err = DataError::expected(&y, "a number", &Value::Null);
        assert_eq!(
            err.to_string(),
            "data.series[1].points[7].y: expected a number, found null"
        );
        assert_eq!(root.index(2).to_string(), "visualization_data[2]");
    }

    #[test]
    fn strings_are_quoted_as_json_quotes_them() {
        let odd = Value::String("a \"b\" \\ \n\t\u{1} \u{7f} é ✓".into());
        // DEL and non-ASCII as they are; Rust's Debug wrote \u{1} and \u{7f}.
        assert_eq!(
            describe(&odd),
            "\"a \\\"b\\\" \\\\ \\n\\t\\u0001 \u{7f} é ✓\""
        );
        assert_eq!(describe(&Value::String("line".into())), "\"line\"");
    }

    #[test]
    fn long_strings_are_cut_in_messages() {
        let long = Value::String("x".repeat(100));
        assert_eq!(describe(&long), format!("\"{}…\"", "x".repeat(40)));
    }
}
