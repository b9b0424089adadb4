//! The `width` and `height` options: CSS lengths, checked before they reach a style.

use std::fmt;

use zdr_protocol::text::concat;

/// Units a width or height may carry. Relative font units are allowed because
/// they are what responsive pages use; `calc()` is not (say so in the error).
const UNITS: &[&str] = &[
    "px", "%", "em", "rem", "vh", "vw", "vmin", "vmax", "svh", "lvh", "dvh", "svw", "lvw", "dvw",
    "ch", "ex", "cm", "mm", "in", "pt", "pc",
];

/// What the caller gave: a JS number (as JS prints it, `String(n)`) means pixels,
/// a string is a CSS length. Numbers arrive as text so that no float formatting
/// code is compiled into the widget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SizeInput<'a> {
    Pixels(&'a str),
    Text(&'a str),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeProblem(String);

impl SizeProblem {
    /// What is wrong, after the option's name (without `core::fmt`, see
    /// [`zdr_protocol::text::concat`]).
    pub fn words(&self) -> String {
        concat(&[
            "must be a non-negative number of pixels or a CSS length such as \"100%\" or \"600px\", found ",
            &self.0,
        ])
    }
}

impl fmt::Display for SizeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.words())
    }
}

/// Returns the CSS text to set, e.g. `600` -> `600px`, `"50%"` -> `50%`.
pub fn css_length(input: SizeInput<'_>) -> Result<String, SizeProblem> {
    match input {
        SizeInput::Pixels(number) if is_decimal(number) => Ok(concat(&[number, "px"])),
        SizeInput::Pixels(number) => Err(SizeProblem(concat(&["the number ", number]))),
        SizeInput::Text(text) => {
            let number_end = text
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(text.len());
            // At a char boundary by construction; checked, so no panic path is linked.
            let (number, unit) = text.split_at_checked(number_end).unwrap_or((text, ""));
            let unit_ok =
                unit.is_empty() || UNITS.iter().any(|known| known.eq_ignore_ascii_case(unit));
            if is_decimal(number) && unit_ok {
                // A bare number is pixels, as the HTML width attribute reads it.
                Ok(if unit.is_empty() {
                    concat(&[number, "px"])
                } else {
                    text.to_ascii_lowercase()
                })
            } else {
                Err(SizeProblem(crate::js_value::quote(text)))
            }
        }
    }
}

/// `12`, `12.5`, `.5`: digits with at most one point and at least one digit.
/// (Byte by byte rather than `split('.')`, whose string searcher the
/// module would otherwise link for this alone.)
fn is_decimal(text: &str) -> bool {
    let points = text.bytes().filter(|&b| b == b'.').count();
    let digits = text.bytes().filter(u8::is_ascii_digit).count();
    let ends_in_digit = text.bytes().last().is_some_and(|b| b.is_ascii_digit());
    // All digits but at most one point, which is not last ("5." is refused).
    points <= 1 && digits + points == text.len() && ends_in_digit
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Result<String, SizeProblem> {
        css_length(SizeInput::Text(s))
    }

    #[test]
    fn accepts_lengths_and_percentages() {
        assert_eq!(text("100%").as_deref(), Ok("100%"));
        assert_eq!(text("600px").as_deref(), Ok("600px"));
        assert_eq!(text("12.5REM").as_deref(), Ok("12.5rem"));
        assert_eq!(text(".5em").as_deref(), Ok(".5em"));
        assert_eq!(text("80vh").as_deref(), Ok("80vh"));
        assert_eq!(text("0").as_deref(), Ok("0px"));
    }

    #[test]
    fn bare_numbers_are_pixels() {
        assert_eq!(text("600").as_deref(), Ok("600px"));
        assert_eq!(css_length(SizeInput::Pixels("480")).as_deref(), Ok("480px"));
        assert_eq!(
            css_length(SizeInput::Pixels("12.5")).as_deref(),
            Ok("12.5px")
        );
    }

    #[test]
    fn refuses_everything_else() {
        for bad in [
            "",
            "px",
            "-5px",
            "1.2.3px",
            "5.px",
            "100px; background:url(x)",
            "calc(100% - 2px)",
            "100 px",
            "10furlongs",
            "expression(alert(1))",
        ] {
            assert!(text(bad).is_err(), "{bad:?} should be refused");
        }
        // As JS prints NaN, Infinity, -1 and 1e21.
        for bad in ["NaN", "Infinity", "-1", "1e+21"] {
            assert!(css_length(SizeInput::Pixels(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn message_shows_the_value() {
        let err = text("wide")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.ends_with("found \"wide\""), "{err}");
    }
}
