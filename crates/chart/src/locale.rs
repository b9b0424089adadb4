//! `viz_config.locale`: how numbers and dates are written. Decimal and
//! grouping marks (India's 12,34,567 too), compact forms ("1,2 Mio.",
//! "1.2万"), month names and the order of a date's parts, for the ten
//! locales of [`cldr`], generated from CLDR.
//!
//! The locale of the card being laid out or described is the thread's
//! current one for the duration of the call ([`scoped`]): every formatter
//! reads it there, rather than each of the sixty-odd calls that write a
//! number taking one more argument.

use std::cell::Cell;

mod cldr;

/// The default: what a card without `locale` is written in.
pub const DEFAULT_TAG: &str = "en-US";

/// One locale's record of [`cldr::RECORDS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Locale(&'static str);

/// Which date pattern of a locale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// "2024", "2024年"
    Year = 8,
    /// "Mar 2024", "März 2024", "2024年3月"
    YearMonth = 9,
    /// "Mar 5", "5. März", "3月5日"
    MonthDay = 10,
    /// "Mar 5, 2024", "5 mars 2024"
    Date = 11,
}

/// The characters of a pattern that stand for a date's parts.
pub const DAY: char = '\u{1}';
pub const MONTH: char = '\u{2}';
pub const YEAR: char = '\u{4}';

impl Default for Locale {
    fn default() -> Self {
        Locale(cldr::RECORDS[0])
    }
}

impl Locale {
    fn field(self, index: usize) -> &'static str {
        self.0.split('|').nth(index).unwrap_or("")
    }

    /// Its BCP 47 tag, as listed: "de-DE".
    pub fn tag(self) -> &'static str {
        self.field(0)
    }

    pub fn decimal_mark(self) -> &'static str {
        self.field(1)
    }

    pub fn grouping_mark(self) -> &'static str {
        self.field(2)
    }

    /// The size of the groups left of the first three digits: 3, or 2 in
    /// India (12,34,567).
    fn secondary_group(self) -> usize {
        if self.field(3) == "2" {
            2
        } else {
            3
        }
    }

    /// Whole numbers of fewer digits than this are not grouped: 5 where
    /// 1234 stays whole (Spanish), 4 elsewhere.
    fn fewest_grouped(self) -> usize {
        if self.field(4) == "2" {
            5
        } else {
            4
        }
    }

    /// For a number whose first digit is at 10^`exponent`: the power of ten
    /// to divide it by and the suffix to write after it ("K", " Mio.",
    /// "万"), or `None` where the locale writes it in full.
    pub fn compact(self, exponent: i32) -> Option<(i32, &'static str)> {
        let mut found = None;
        for entry in self.field(5).split(',') {
            // Two digits each, written by the generator.
            let number = |at: usize| {
                let digit = |i: usize| {
                    i32::from(entry.as_bytes().get(i).map_or(0, |b| b.wrapping_sub(b'0')))
                };
                digit(at) * 10 + digit(at + 1)
            };
            if number(0) <= exponent {
                found = Some((number(2), entry.get(4..).unwrap_or("")));
            }
        }
        found
    }

    /// The abbreviated name of month 1..=12 as written in a date
    /// ("März" in "5. März"), or alone ("Mär") on an axis.
    pub fn month(self, month: u32, alone: bool) -> &'static str {
        let list = match self.field(7) {
            "" => self.field(6),
            standalone if alone => standalone,
            _ => self.field(6),
        };
        list.split(',')
            .nth((month as usize).wrapping_sub(1))
            .unwrap_or("")
    }

    /// Whether a currency symbol follows the number ("1,8 Mio. €") or
    /// leads it ("$1.8M"), and what stands between them.
    pub fn currency(self) -> (bool, &'static str) {
        let place = self.field(12);
        (place.starts_with('>'), place.get(1..).unwrap_or(""))
    }

    /// What stands between a number and its percent sign ("45 %").
    pub fn percent_gap(self) -> &'static str {
        self.field(13)
    }

    pub fn pattern(self, which: Pattern) -> &'static str {
        self.field(which as usize)
    }

    /// `digits` (ASCII digits) with the locale's grouping marks.
    pub fn group(self, digits: &str) -> String {
        let len = digits.len();
        let mut out = String::with_capacity(len + len / 2);
        if len < self.fewest_grouped() {
            out.push_str(digits);
            return out;
        }
        let secondary = self.secondary_group();
        for (i, c) in digits.chars().enumerate() {
            // Digits still to come after this position.
            let left = len - i;
            if i > 0 && left >= 3 && (left - 3) % secondary == 0 {
                out.push_str(self.grouping_mark());
            }
            out.push(c);
        }
        out
    }
}

/// The locale a tag names: one of the list, whatever the case ("de-de"),
/// or the first of the list in its language ("de", "de-AT": de-DE; "en":
/// en-US). `None` for any other.
pub fn find(tag: &str) -> Option<Locale> {
    let tag = tag.trim().as_bytes();
    let same = |a: &[u8], b: &[u8]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                let fold = |c: u8| {
                    if c == b'_' {
                        b'-'
                    } else {
                        c.to_ascii_lowercase()
                    }
                };
                fold(*x) == fold(*y)
            })
    };
    let language = |t: &[u8]| -> usize {
        t.iter()
            .position(|&c| c == b'-' || c == b'_')
            .unwrap_or(t.len())
    };
    let mut first_of_language = None;
    for record in cldr::RECORDS {
        let locale = Locale(record);
        let listed = locale.tag().as_bytes();
        if same(listed, tag) {
            return Some(locale);
        }
        let (l, t) = (language(listed), language(tag));
        if first_of_language.is_none() && same(&listed[..l], &tag[..t]) {
            first_of_language = Some(locale);
        }
    }
    first_of_language
}

/// The tags of the list, for an error message: "en-US, en-GB, …".
pub fn tags() -> String {
    let mut out = String::new();
    for (i, record) in cldr::RECORDS.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(Locale(record).tag());
    }
    out
}

thread_local! {
    // A const initialiser: no lazy set-up code on each access.
    static CURRENT: Cell<Locale> = const { Cell::new(Locale(cldr::RECORDS[0])) };
}

/// The locale numbers and dates are written in now.
pub fn current() -> Locale {
    CURRENT.with(Cell::get)
}

/// Makes `locale` the current one until the guard is dropped.
#[must_use]
pub struct Scoped(Locale);

pub fn scoped(locale: Locale) -> Scoped {
    Scoped(CURRENT.with(|current| current.replace(locale)))
}

impl Drop for Scoped {
    fn drop(&mut self) {
        CURRENT.with(|current| current.set(self.0));
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_found_by_name_and_by_language() {
        assert_eq!(find("de-DE").map(Locale::tag), Some("de-DE"));
        assert_eq!(find("pt_br").map(Locale::tag), Some("pt-BR"));
        assert_eq!(find("en-gb").map(Locale::tag), Some("en-GB"));
        assert_eq!(find("en").map(Locale::tag), Some("en-US"));
        assert_eq!(find("de-AT").map(Locale::tag), Some("de-DE"));
        assert_eq!(find("zh-Hans-CN").map(Locale::tag), Some("zh-CN"));
        assert_eq!(find("sw-KE"), None);
        assert_eq!(find(""), None);
        assert!(tags().starts_with("en-US, en-GB, de-DE"));
        assert_eq!(Locale::default().tag(), DEFAULT_TAG);
    }

    #[test]
    fn grouping_follows_the_locale() {
        let at = |tag| find(tag).unwrap();
        assert_eq!(at("en-US").group("1234567"), "1,234,567");
        assert_eq!(at("hi-IN").group("1234567"), "12,34,567");
        assert_eq!(at("hi-IN").group("123456789"), "12,34,56,789");
        assert_eq!(at("hi-IN").group("1234"), "1,234");
        assert_eq!(at("de-DE").group("1234567"), "1.234.567");
        assert_eq!(at("fr-FR").group("1234567"), "1\u{202f}234\u{202f}567");
        assert_eq!(at("es-ES").group("1234"), "1234");
        assert_eq!(at("es-ES").group("12345"), "12.345");
        assert_eq!(at("en-US").group("123"), "123");
    }

    #[test]
    fn compact_forms_and_months_follow_the_locale() {
        let at = |tag| find(tag).unwrap();
        assert_eq!(at("en-US").compact(3), Some((3, "k")));
        assert_eq!(at("en-US").compact(7), Some((6, "M")));
        assert_eq!(at("en-US").compact(2), None);
        assert_eq!(at("de-DE").compact(4), None);
        assert_eq!(at("de-DE").compact(6), Some((6, "\u{a0}Mio.")));
        assert_eq!(at("es-ES").compact(9), Some((6, "\u{a0}M")));
        assert_eq!(at("es-ES").compact(10), Some((9, "\u{a0}mil\u{a0}M")));
        assert_eq!(at("ja-JP").compact(5), Some((4, "\u{4e07}")));
        assert_eq!(
            at("hi-IN").compact(5),
            Some((5, "\u{a0}\u{932}\u{93e}\u{916}"))
        );
        assert_eq!(at("de-DE").month(3, false), "M\u{e4}rz");
        assert_eq!(at("de-DE").month(3, true), "M\u{e4}r");
        assert_eq!(at("ja-JP").month(12, true), "12\u{6708}");
        assert_eq!(at("en-GB").month(9, true), "Sept");
        assert_eq!(at("en-US").month(13, true), "");
        assert_eq!(
            at("pt-BR").pattern(Pattern::Date),
            "\u{1} de \u{2} de \u{4}"
        );
    }

    #[test]
    fn the_current_locale_is_scoped() {
        assert_eq!(current().tag(), "en-US");
        {
            let _de = scoped(find("de").unwrap());
            assert_eq!(current().tag(), "de-DE");
            {
                let _ja = scoped(find("ja").unwrap());
                assert_eq!(current().tag(), "ja-JP");
            }
            assert_eq!(current().tag(), "de-DE");
        }
        assert_eq!(current().tag(), "en-US");
    }
}
