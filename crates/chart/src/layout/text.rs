//! Text measurement from a width table, so layout is the same on every
//! machine: the server has no fonts to ask, and the browser's answer would
//! differ between systems.
//!
//! The widths are Helvetica's advance widths (in 1/1000 em). Arial and
//! Liberation Sans share them, and the charts name exactly those fonts, so a
//! viewer's browser draws text the width the layout planned for.

/// Regular weight, ASCII 32..=126.
const REGULAR: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // ' '../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0..9
    278, 278, 584, 584, 584, 556, 1015, // :;<=>?@
    667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, // A..M
    722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, // N..Z
    278, 278, 278, 469, 556, 333, // [\]^_`
    556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, // a..m
    556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, // n..z
    334, 260, 334, 584, // {|}~
];

/// Bold weight, ASCII 32..=126.
const BOLD: [u16; 95] = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, // ' '../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0..9
    333, 333, 584, 584, 584, 611, 975, // :;<=>?@
    722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, // A..M
    722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, // N..Z
    333, 278, 333, 584, 556, 333, // [\]^_`
    556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, // a..m
    611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, // n..z
    389, 280, 389, 584, // {|}~
];

/// The font stack written into SVG and canvas: all three share the table above.
pub use crate::scene::FONT_FAMILY;

pub use crate::scene::Weight;

fn advance(c: char, weight: Weight) -> u16 {
    let table = match weight {
        Weight::Regular => &REGULAR,
        Weight::Bold => &BOLD,
    };
    let code = c as u32;
    if (32..=126).contains(&code) {
        return table.get((code - 32) as usize).copied().unwrap_or(556);
    }
    match c {
        '\u{2009}' | '\u{202F}' => 167, // thin spaces
        '\u{00A0}' => 278,
        '\u{2212}' | '\u{00D7}' => 584, // minus, times
        '\u{2013}' => 556,              // en dash
        '\u{2014}' | '\u{2026}' => 1000,
        '\u{2018}' | '\u{2019}' => 222,
        '\u{201C}' | '\u{201D}' => 333,
        '\u{20AC}' | '\u{00A3}' | '\u{00A5}' | '\u{20B9}' => 556,
        '\u{00B0}' => 400,
        // Combining marks take no room of their own.
        '\u{0300}'..='\u{036F}' => 0,
        // CJK, kana, Hangul and full-width forms are one em wide.
        '\u{1100}'..='\u{11FF}'
        | '\u{2E80}'..='\u{A4CF}'
        | '\u{AC00}'..='\u{D7A3}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FE30}'..='\u{FE4F}'
        | '\u{FF00}'..='\u{FF60}'
        | '\u{FFE0}'..='\u{FFE6}' => 1000,
        // Emoji and pictographs.
        '\u{1F000}'..='\u{1FAFF}' => 1000,
        // Latin-1 letters and the rest: the width of a typical lowercase letter.
        _ => 556,
    }
}

/// Width in pixels of `text` set at `size` pixels.
pub fn width(text: &str, size: f64, weight: Weight) -> f64 {
    let units: u64 = text.chars().map(|c| u64::from(advance(c, weight))).sum();
    units as f64 * size / 1000.0
}

/// `text` cut to fit `max_width`, ending in an ellipsis when cut.
pub fn ellipsize(text: &str, size: f64, weight: Weight, max_width: f64) -> String {
    if width(text, size, weight) <= max_width {
        return text.to_string();
    }
    let budget = max_width - width("\u{2026}", size, weight);
    let mut used = 0.0;
    let mut out = String::new();
    for c in text.chars() {
        let w = f64::from(advance(c, weight)) * size / 1000.0;
        if used + w > budget {
            break;
        }
        used += w;
        out.push(c);
    }
    let trimmed = out.trim_end();
    if trimmed.is_empty() {
        return String::new();
    }
    format!("{trimmed}\u{2026}")
}

/// Greedy word wrap into at most `max_lines` lines; the last line is
/// ellipsized if the text does not fit.
pub fn wrap(
    text: &str,
    size: f64,
    weight: Weight,
    max_width: f64,
    max_lines: usize,
) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut words = text.split_whitespace().peekable();
    while let Some(word) = words.next() {
        let candidate = if current.is_empty() {
            word.to_string()
        } else {
            format!("{current} {word}")
        };
        if width(&candidate, size, weight) <= max_width || current.is_empty() {
            current = candidate;
            continue;
        }
        if lines.len() + 1 >= max_lines {
            // Last line: everything left, cut with an ellipsis.
            let mut rest = candidate;
            for w in words.by_ref() {
                rest.push(' ');
                rest.push_str(w);
            }
            lines.push(ellipsize(&rest, size, weight, max_width));
            return lines;
        }
        lines.push(std::mem::take(&mut current));
        current = word.to_string();
    }
    if !current.is_empty() {
        lines.push(ellipsize(&current, size, weight, max_width));
    }
    lines.truncate(max_lines.max(1));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_the_table() {
        assert_eq!(width("", 12.0, Weight::Regular), 0.0);
        // "Hi" = 722 + 222 units.
        assert!((width("Hi", 10.0, Weight::Regular) - 9.44).abs() < 1e-9);
        assert!(width("Title", 12.0, Weight::Bold) > width("Title", 12.0, Weight::Regular));
        assert_eq!(width("日本", 10.0, Weight::Regular), 20.0);
    }

    #[test]
    fn ellipsize_cuts_and_marks() {
        let cut = ellipsize("A very long category name", 12.0, Weight::Regular, 60.0);
        assert!(cut.ends_with('\u{2026}'), "{cut}");
        assert!(width(&cut, 12.0, Weight::Regular) <= 60.0);
        assert_eq!(ellipsize("short", 12.0, Weight::Regular, 200.0), "short");
        assert_eq!(ellipsize("short", 12.0, Weight::Regular, 1.0), "");
    }

    #[test]
    fn wrap_respects_lines_and_width() {
        let text = "Monthly revenue by region and product line, adjusted for inflation";
        let lines = wrap(text, 14.0, Weight::Bold, 200.0, 2);
        assert_eq!(lines.len(), 2);
        assert!(lines.iter().all(|l| width(l, 14.0, Weight::Bold) <= 200.0));
        assert!(lines[1].ends_with('\u{2026}'));
        assert_eq!(wrap("one", 14.0, Weight::Bold, 200.0, 2), vec!["one"]);
        assert!(wrap("", 14.0, Weight::Bold, 200.0, 2).is_empty());
        // A single unbreakable word longer than the line is cut, not overflowed.
        let long = wrap(&"x".repeat(500), 14.0, Weight::Regular, 100.0, 3);
        assert_eq!(long.len(), 1);
        assert!(width(&long[0], 14.0, Weight::Regular) <= 100.0);
    }
}
