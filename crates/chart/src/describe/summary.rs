//! The one-line summary of a card: `"<noun>, <details>."`. Each kind writes
//! its details (`crate::kinds`) with the words here.

use crate::label;
use crate::model::Series;

/// Names listed before "and n more".
const MAX_NAMES: usize = 5;
/// Characters of one name before it is cut.
const MAX_NAME: usize = 40;

pub(crate) fn series_list(series: &[Series]) -> String {
    format!(
        "{} ({})",
        counted(series.len(), "series", "series"),
        list(series.iter().map(|s| s.name.as_str()), series.len())
    )
}

/// "1 point", "1,250 points".
pub(crate) fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", label::count(n as u64))
    }
}

/// "values from 1,200 to 9,800 USD", "values all 3", or nothing without data.
pub(crate) fn span(what: &str, lo: f64, hi: f64, units: Option<&str>) -> Option<String> {
    if !(lo.is_finite() && hi.is_finite()) {
        return None;
    }
    let (lo, hi) = (label::value(lo, units), label::value(hi, units));
    Some(if lo == hi {
        format!("{what} all {lo}")
    } else {
        format!("{what} from {lo} to {hi}")
    })
}

/// " (Mon to Fri)": the first and last of a list of names.
pub(crate) fn ends(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => format!(" ({})", short(one)),
        [first, .., last] => format!(" ({} to {})", short(first), short(last)),
    }
}

/// "A, B, C, D, E and 3 more".
pub(crate) fn list<'a>(names: impl Iterator<Item = &'a str>, total: usize) -> String {
    let shown: Vec<String> = names.take(MAX_NAMES).map(short).collect();
    let mut text = shown.join(", ");
    if total > shown.len() {
        text.push_str(&format!(
            " and {} more",
            label::count((total - shown.len()) as u64)
        ));
    }
    text
}

pub(crate) fn short(name: &str) -> String {
    let name = name.trim();
    let name = if name.is_empty() { "(blank)" } else { name };
    cap(name.to_string(), MAX_NAME)
}

/// At most `max` characters, the last an ellipsis when cut.
pub(crate) fn cap(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('\u{2026}');
    cut
}

pub(crate) fn join<const N: usize>(parts: [Option<String>; N]) -> String {
    parts.into_iter().flatten().collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_and_caps() {
        let names = ["a", "b", "c", "d", "e", "f", "g"];
        assert_eq!(list(names.into_iter(), 7), "a, b, c, d, e and 2 more");
        assert_eq!(list(names.into_iter().take(2), 2), "a, b");
        assert_eq!(cap("abcdef".into(), 4), "abc\u{2026}");
        assert_eq!(cap("ab cdef".into(), 4), "ab\u{2026}");
        assert_eq!(cap("abc".into(), 4), "abc");
        assert_eq!(short("  "), "(blank)");
        assert_eq!(counted(1, "row", "rows"), "1 row");
        assert_eq!(counted(12_345, "row", "rows"), "12,345 rows");
        assert_eq!(
            span("values", 1.0, 1.0, None).as_deref(),
            Some("values all 1")
        );
        assert_eq!(span("values", f64::INFINITY, 1.0, None), None);
    }
}
