//! Numbers for axes, data labels and tooltips, in English: "1,250", "0.25",
//! "2.5M", "−$3", "45%", "12 kg".
//!
//! Digits come from the shortest round-trip representation of the value and
//! are rounded in decimal (half up) with integer arithmetic, so 2.675 shows as
//! "2.68" (not "2.67"), and huge or tiny values never print as "1e21" or
//! "0.30000000000000004".

use super::shortest::{shortest, Decimal};
use super::MINUS;

/// Units that write every value with its sign: "+12.5%", "−3%", "0%"
/// (`percent_change` sets them).
pub const SIGNED_PERCENT: &str = "+%";

/// Shown for a missing value (NaN): an en dash.
pub const MISSING: &str = "\u{2013}";

/// Where a unit string goes around a number.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Units {
    /// No unit.
    #[default]
    None,
    /// Before the number, after the sign: "$1.2M", "−€3".
    Prefix(String),
    /// After the number, no space: "45%", "20°C", "2.5x".
    Suffix(String),
    /// After the number and a space: "12 kg", "3.4k users", "5 USD".
    SuffixSpaced(String),
    /// `"+%"`: a percent with its sign always written, "+12.5%", "−3%"
    /// (changes, where up and down matter as much as how far).
    SignedPercent,
}

/// Suffixes written without a space.
const TIGHT_SUFFIXES: [&str; 10] = ["%", "‰", "‱", "°", "°C", "°F", "′", "″", "x", "×"];

fn is_currency_symbol(c: char) -> bool {
    matches!(
        c,
        '$' | '€'
            | '£'
            | '¥'
            | '₹'
            | '₩'
            | '₽'
            | '₺'
            | '₪'
            | '₱'
            | '₫'
            | '₴'
            | '₦'
            | '₡'
            | '₲'
            | '₵'
            | '₸'
            | '₼'
            | '₾'
            | '฿'
            | '﷼'
    )
}

impl Units {
    /// Reads `viz_config.units`: currency symbols ("$", "€", "£", "¥", "₹", …,
    /// and short forms ending in one such as "US$", "R$") are prefixes; "%",
    /// "‰", "°", "°C", "°F", "x" are suffixes without a space; anything else
    /// (including codes like "USD") is a suffix after a space. Blank is none.
    pub fn parse(units: Option<&str>) -> Units {
        let Some(text) = units.map(str::trim).filter(|t| !t.is_empty()) else {
            return Units::None;
        };
        let short = text.chars().count() <= 4;
        let currency = text.chars().last().is_some_and(is_currency_symbol)
            && text
                .chars()
                .all(|c| c.is_alphabetic() || is_currency_symbol(c));
        if text == SIGNED_PERCENT {
            Units::SignedPercent
        } else if short && currency {
            Units::Prefix(text.to_owned())
        } else if TIGHT_SUFFIXES.contains(&text) {
            Units::Suffix(text.to_owned())
        } else {
            Units::SuffixSpaced(text.to_owned())
        }
    }

    /// `number` (without sign) with the sign and the unit around it, a
    /// currency and a percent sign where the current locale puts them
    /// ("1,8 Mio. €", "45 %").
    fn wrap(&self, negative: bool, number: &str) -> String {
        let locale = crate::locale::current();
        let mut out = String::with_capacity(number.len() + 8);
        if negative {
            out.push(MINUS);
        }
        match self {
            Units::None => out.push_str(number),
            Units::Prefix(unit) => {
                let (after, gap) = locale.currency();
                let (first, second) = if after {
                    (number, &**unit)
                } else {
                    (&**unit, number)
                };
                out.push_str(first);
                out.push_str(gap);
                out.push_str(second);
            }
            Units::Suffix(unit) => {
                out.push_str(number);
                if unit == "%" {
                    out.push_str(locale.percent_gap());
                }
                out.push_str(unit);
            }
            Units::SuffixSpaced(unit) => {
                out.push_str(number);
                out.push(' ');
                out.push_str(unit);
            }
            Units::SignedPercent => {
                if !negative && number.bytes().any(|b| matches!(b, b'1'..=b'9')) {
                    out.push('+');
                }
                out.push_str(number);
                out.push_str(locale.percent_gap());
                out.push('%');
            }
        }
        out
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Full digits with thousands separators and fixed decimals.
    Plain { decimals: u32 },
    /// Divided by 10^divisor, fixed decimals, with the locale's suffix.
    Compact {
        divisor: i32,
        suffix: &'static str,
        decimals: u32,
    },
    /// "1.5e18": mantissa decimals down to the power of ten of the step's last
    /// digit, at most 3 (3 significant digits, trimmed, without a step).
    Scientific { step_last_digit: Option<i32> },
}

/// An axis formatter: every tick gets the same decimals, suffix and units.
///
/// - Below 10,000 (the largest |value|): full numbers with separators and the
///   step's decimals: "1,250", "9,800"; step 0.25 → "0.25", "0.50", "0.75".
/// - From 10,000: compact k, M, B, T picked from the largest |value|, decimals
///   from the step in that unit and kept on every tick: step 500,000 up to
///   2,500,000 → "0", "0.5M", "1.0M", "1.5M". When that would need more than 2
///   decimals (a narrow zoomed axis), full numbers are used instead.
/// - From 1e15, or when the step needs more than 6 decimals: "1.5e18".
/// - Zero is always "0" (with units, without decimals or suffix), and so is
///   anything that rounds to zero, including -0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberFormat {
    style: Style,
    units: Units,
    grouping: bool,
}

impl NumberFormat {
    /// The formatter for an axis with ticks `step` apart and the largest
    /// |tick| `max_abs` (non-finite or zero `step`: from `max_abs` alone).
    pub fn for_axis(step: f64, max_abs: f64, units: Option<&str>) -> NumberFormat {
        let step = if step.is_finite() { step.abs() } else { 0.0 };
        let max_abs = if max_abs.is_finite() {
            max_abs.abs()
        } else {
            0.0
        };
        let style = if max_abs >= 1e15 {
            Style::Scientific {
                step_last_digit: shortest(step).map(|d| d.exponent),
            }
        } else if max_abs >= 1e4 {
            let exponent = shortest(max_abs).map_or(0, Decimal::leading_exponent);
            match crate::locale::current().compact(exponent) {
                Some((divisor, suffix)) => match decimals_for(step, max_abs, divisor) {
                    decimals if decimals <= 2 => Style::Compact {
                        divisor,
                        suffix,
                        decimals,
                    },
                    _ => plain_style(step, max_abs),
                },
                None => plain_style(step, max_abs),
            }
        } else {
            plain_style(step, max_abs)
        };
        NumberFormat {
            style,
            units: Units::parse(units),
            grouping: true,
        }
    }

    /// Without thousands separators (for years on a numeric axis, say).
    pub fn with_grouping(mut self, grouping: bool) -> NumberFormat {
        self.grouping = grouping;
        self
    }

    /// The units placed around every number.
    pub fn units(&self) -> &Units {
        &self.units
    }

    /// Decimals shown after the point (after the compact division), or `None`
    /// for scientific notation.
    pub fn decimals(&self) -> Option<u32> {
        match self.style {
            Style::Plain { decimals } | Style::Compact { decimals, .. } => Some(decimals),
            Style::Scientific { .. } => None,
        }
    }

    /// The compact suffix ("k", "M", "B", "T", " Mio.") or "" when not
    /// compact.
    pub fn suffix(&self) -> &'static str {
        match self.style {
            Style::Compact { suffix, .. } => suffix,
            _ => "",
        }
    }

    /// One tick label.
    pub fn format(&self, value: f64) -> String {
        if value.is_nan() {
            return MISSING.to_owned();
        }
        if value.is_infinite() {
            return self.units.wrap(value < 0.0, "∞");
        }
        let negative = value < 0.0;
        let Some(decimal) = shortest(value) else {
            return self.units.wrap(false, "0");
        };
        let zero = self.units.wrap(false, "0");
        let text = match self.style {
            Style::Plain { decimals } => match decimal.round_to(-(decimals as i32)) {
                Some(0) => return zero,
                Some(n) => Some(render(n, decimals, self.grouping, false)),
                None => None,
            },
            Style::Compact {
                divisor,
                suffix,
                decimals,
            } => match decimal.shifted(-divisor).round_to(-(decimals as i32)) {
                Some(0) => return zero,
                Some(n) => {
                    let mut text = render(n, decimals, self.grouping, false);
                    text.push_str(suffix);
                    Some(text)
                }
                None => None,
            },
            Style::Scientific { step_last_digit } => {
                let decimals = match step_last_digit {
                    Some(step) => decimal.leading_exponent().saturating_sub(step).clamp(0, 3),
                    None => 2,
                };
                Some(scientific(
                    decimal,
                    decimals as u32,
                    step_last_digit.is_none(),
                ))
            }
        };
        // None: far beyond what the axis was made for, but still no junk.
        let text = text.unwrap_or_else(|| scientific(decimal, 2, true));
        self.units.wrap(negative, &text)
    }
}

fn plain_style(step: f64, max_abs: f64) -> Style {
    match decimals_for(step, max_abs, 0) {
        decimals if decimals <= 6 => Style::Plain { decimals },
        _ => Style::Scientific {
            step_last_digit: shortest(step).map(|d| d.exponent),
        },
    }
}

/// Decimals that show `step / 10^shift` exactly, but at most 3 significant
/// digits of it (for steps that are not nice). Without a step: 3 significant
/// digits of `max_abs / 10^shift`.
fn decimals_for(step: f64, max_abs: f64, shift: i32) -> u32 {
    let Some(d) = shortest(step).or_else(|| shortest(max_abs)) else {
        return 0;
    };
    let exact = shift.saturating_sub(d.exponent).max(0);
    let three_digits = (2 + shift).saturating_sub(d.leading_exponent()).max(0);
    exact.min(three_digits) as u32
}

impl Decimal {
    /// The power of ten of the first digit: 1 for 12.3, -3 for 0.0042.
    fn leading_exponent(self) -> i32 {
        let mut count = 0i32;
        let mut rest = self.digits;
        while rest >= 10 {
            rest /= 10;
            count += 1;
        }
        self.exponent.saturating_add(count)
    }

    /// Divided by 10^-by (multiplied by 10^by), exactly.
    fn shifted(self, by: i32) -> Decimal {
        Decimal {
            digits: self.digits,
            exponent: self.exponent.saturating_add(by),
        }
    }

    /// The value in units of 10^position, rounded half up; `None` when it
    /// does not fit in a u128. Divides only in u64: a u128 division links
    /// compiler_builtins' 1 KB `u128_div_rem` into the engine.
    fn round_to(self, position: i32) -> Option<u128> {
        let shift = i64::from(self.exponent) - i64::from(position);
        if shift >= 0 {
            let power = 10u128.checked_pow(u32::try_from(shift).ok()?)?;
            u128::from(self.digits).checked_mul(power)
        } else {
            // From 10^20 on the power exceeds 2 × digits (digits < 2^64):
            // the value is below half a unit.
            let Some(power) = 10u64.checked_pow(u32::try_from(-shift).ok()?) else {
                return Some(0);
            };
            let (quotient, remainder) = (self.digits / power, self.digits % power);
            // remainder >= power / 2, without overflowing 2 × remainder.
            Some(u128::from(quotient) + u128::from(remainder >= power - remainder))
        }
    }

    /// Rounded to `significant` digits: (digits, position of the last one, leading exponent).
    fn round_significant(self, significant: u32) -> Option<(u128, i32, i32)> {
        let significant = significant.clamp(1, 30);
        let mut leading = self.leading_exponent();
        let mut position = leading.checked_sub(significant as i32 - 1)?;
        let mut n = self.round_to(position)?;
        if n >= 10u128.pow(significant) {
            // 9.99 → 10.0: one more digit in front. Rounding up from below
            // 10^significant lands on it exactly, so n / 10 is 10^(significant - 1).
            leading = leading.checked_add(1)?;
            position = position.checked_add(1)?;
            n = 10u128.pow(significant - 1);
        }
        Some((n, position, leading))
    }
}

/// `n / 10^decimals` with thousands separators (when `grouping`), the
/// fraction zero-padded, or with trailing zeros dropped when `trim`.
fn render(n: u128, decimals: u32, grouping: bool, trim: bool) -> String {
    let decimals = decimals as usize;
    // At least one digit before the point: the split below is in range
    // (checked all the same: split_at's panic path would link core's char
    // Debug and unicode tables into the engine).
    let all = digits_of(n, decimals.saturating_add(1));
    let (int, fraction) = all
        .split_at_checked(all.len().saturating_sub(decimals))
        .unwrap_or((&all, ""));
    let locale = crate::locale::current();
    let mut out = if grouping {
        locale.group(int)
    } else {
        int.to_owned()
    };
    let fraction = if trim {
        fraction.trim_end_matches('0')
    } else {
        fraction
    };
    if !fraction.is_empty() {
        out.push_str(locale.decimal_mark());
        out.push_str(fraction);
    }
    out
}

/// `n` in decimal digits, zero-padded to at least `width`: u128's own
/// `Display` is 1.3 KB of the WebAssembly engine that nothing else needs.
/// Divided by ten as four 32-bit limbs, each step a u64 division, since a
/// u128 division would link compiler_builtins' `u128_div_rem`.
fn digits_of(n: u128, width: usize) -> String {
    let mut limbs = [
        (n >> 96) as u32,
        (n >> 64) as u32,
        (n >> 32) as u32,
        n as u32,
    ];
    let mut reversed = Vec::with_capacity(width.max(40));
    while limbs != [0; 4] || reversed.len() < width.max(1) {
        let mut remainder = 0u64;
        for limb in &mut limbs {
            let current = (remainder << 32) | u64::from(*limb);
            // remainder < 10, so current < 10 × 2^32 and the quotient fits a limb.
            *limb = (current / 10) as u32;
            remainder = current % 10;
        }
        reversed.push(b'0' + remainder as u8);
    }
    reversed.iter().rev().map(|&d| char::from(d)).collect()
}

/// "1.5e18", "4.2e−8": the mantissa with `decimals` decimals (trailing zeros
/// dropped when `trim`), no sign.
fn scientific(decimal: Decimal, decimals: u32, trim: bool) -> String {
    let Some((n, _, leading)) = decimal.round_significant(decimals.saturating_add(1)) else {
        return MISSING.to_owned();
    };
    let mut out = render(n, decimals, false, trim);
    out.push('e');
    if leading < 0 {
        out.push(MINUS);
    }
    out.push_str(&leading.unsigned_abs().to_string());
    out
}

/// One value as exactly as a reader needs it (tooltips, the data table):
/// separators and up to 6 decimals ("52,875", "1,234.5678", "−0.000125"),
/// falling back to [`format_value`] where that would be unreadable (from
/// 1e15, or below 0.0001).
pub fn format_exact(value: f64, units: Option<&str>) -> String {
    let abs = value.abs();
    if !value.is_finite() || abs >= 1e15 || (abs < 1e-4 && abs != 0.0) {
        return format_value(value, units);
    }
    let units = Units::parse(units);
    match shortest(value).and_then(|decimal| decimal.round_to(-6)) {
        Some(0) | None => units.wrap(false, "0"),
        Some(n) => units.wrap(value < 0.0, &render(n, 6, true, true)),
    }
}

/// One value for a data label or tooltip.
///
/// - Below 10,000: full, with separators; up to 2 decimals from 1 upward
///   ("9,876", "3.14", "1,234.5"), 3 significant digits below 1 ("0.0042",
///   "0.123"), scientific below 0.0001 ("4.2e−8").
/// - From 10,000: 3 significant digits with k, M, B, T ("12.3k", "1.25M",
///   "7.5B", 999,999 → "1M"); from 1e15 scientific ("1.23e18").
/// - Units as in [`Units::parse`]; negatives with "−"; NaN → "–"; ±∞ → "∞".
pub fn format_value(value: f64, units: Option<&str>) -> String {
    let units = Units::parse(units);
    if value.is_nan() {
        return MISSING.to_owned();
    }
    if value.is_infinite() {
        return units.wrap(value < 0.0, "∞");
    }
    let negative = value < 0.0;
    let Some(decimal) = shortest(value) else {
        return units.wrap(false, "0");
    };
    let abs = value.abs();
    let text = if abs < 1.0 {
        match decimal.round_significant(3) {
            Some((n, position, leading)) if leading >= -4 => {
                render(n, position.unsigned_abs(), true, true)
            }
            _ => scientific(decimal, 2, true),
        }
    } else if abs < 1e4 {
        match decimal.round_to(-2) {
            Some(n) => render(n, 2, true, true),
            None => scientific(decimal, 2, true),
        }
    } else {
        match decimal.round_significant(3) {
            Some((_, position, leading)) if leading < 15 => {
                match crate::locale::current().compact(leading) {
                    Some((divisor, suffix)) => {
                        // 3 significant digits past the divisor, at most 2
                        // decimals (Spanish divides 1.23e9 by 10^6: "1230 M").
                        let decimals = (divisor - position).clamp(0, 2) as u32;
                        match decimal.shifted(-divisor).round_to(-(decimals as i32)) {
                            Some(n) => {
                                let mut text = render(n, decimals, true, true);
                                text.push_str(suffix);
                                text
                            }
                            None => scientific(decimal, 2, true),
                        }
                    }
                    // Written in full where the locale has no shorter form.
                    None => match decimal.round_to(0) {
                        Some(n) => render(n, 0, true, true),
                        None => scientific(decimal, 2, true),
                    },
                }
            }
            _ => scientific(decimal, 2, true),
        }
    };
    if text.bytes().all(|c| c.is_ascii_punctuation() || c == b'0') {
        return units.wrap(false, "0");
    }
    units.wrap(negative, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_without_u128_division_matches_it() {
        // The u128 arithmetic round_to and render used before.
        let reference = |digits: u64, shift: i64| -> Option<u128> {
            let digits = u128::from(digits);
            if shift >= 0 {
                digits.checked_mul(10u128.checked_pow(u32::try_from(shift).ok()?)?)
            } else if shift < -38 {
                Some(0)
            } else {
                let power = 10u128.pow(u32::try_from(-shift).ok()?);
                Some(digits / power + u128::from(digits % power * 2 >= power))
            }
        };
        let samples = [
            1,
            5,
            9,
            15,
            45,
            49_999,
            50_000,
            1255,
            99_999_999_999_999_999,
            12_345_678_901_234_567,
            u64::MAX,
            u64::MAX / 2,
            u64::MAX / 2 + 1,
            9_223_372_036_854_775_808,
        ];
        for digits in samples {
            for shift in -45..45 {
                let d = Decimal {
                    digits,
                    exponent: 0,
                };
                let ours = d.round_to(-shift);
                assert_eq!(
                    ours,
                    reference(digits, i64::from(shift)),
                    "{digits} {shift}"
                );
                if let Some(n) = ours {
                    for decimals in [0u32, 1, 2, 6, 20, 45] {
                        let power = 10u128.checked_pow(decimals).unwrap_or(u128::MAX);
                        let (int, fraction) = (n / power, n % power);
                        let before = if decimals == 0 {
                            format!("{int}")
                        } else {
                            format!("{int}.{fraction:0width$}", width = decimals as usize)
                        };
                        assert_eq!(render(n, decimals, false, false), before, "{n} {decimals}");
                    }
                }
            }
        }
    }

    #[test]
    fn digits_of_is_padded_display() {
        for n in [
            0u128,
            1,
            9,
            10,
            99,
            100,
            12_345,
            u128::from(u64::MAX),
            u128::MAX,
        ] {
            for width in [0, 1, 3, 6, 45] {
                assert_eq!(digits_of(n, width), format!("{n:0width$}"), "{n} {width}");
            }
        }
    }

    #[test]
    fn units_are_placed_where_readers_expect() {
        let cases: &[(Option<&str>, Units)] = &[
            (None, Units::None),
            (Some(""), Units::None),
            (Some("   "), Units::None),
            (Some("$"), Units::Prefix("$".into())),
            (Some(" € "), Units::Prefix("€".into())),
            (Some("£"), Units::Prefix("£".into())),
            (Some("¥"), Units::Prefix("¥".into())),
            (Some("₹"), Units::Prefix("₹".into())),
            (Some("US$"), Units::Prefix("US$".into())),
            (Some("R$"), Units::Prefix("R$".into())),
            (Some("HK$"), Units::Prefix("HK$".into())),
            (Some("%"), Units::Suffix("%".into())),
            (Some("°C"), Units::Suffix("°C".into())),
            (Some("x"), Units::Suffix("x".into())),
            (Some("kg"), Units::SuffixSpaced("kg".into())),
            (Some("users"), Units::SuffixSpaced("users".into())),
            (Some("USD"), Units::SuffixSpaced("USD".into())),
            (Some("tonnes CO2"), Units::SuffixSpaced("tonnes CO2".into())),
            (Some("$ per hour"), Units::SuffixSpaced("$ per hour".into())),
            (Some("1$"), Units::SuffixSpaced("1$".into())),
        ];
        for (input, expected) in cases {
            assert_eq!(&Units::parse(*input), expected, "{input:?}");
        }
    }

    #[test]
    fn exact_values_keep_their_digits() {
        for (value, units, expected) in [
            (52_875.0, None, "52,875"),
            (1234.5678, None, "1,234.5678"),
            (-0.000125, None, "\u{2212}0.000125"),
            (1250.0, Some("USD"), "1,250 USD"),
            (0.0, None, "0"),
            (1e-9, None, "1e\u{2212}9"),
            (2.5e18, None, "2.5e18"),
        ] {
            assert_eq!(format_exact(value, units), expected, "{value:e} {units:?}");
        }
    }

    #[test]
    fn format_value_samples() {
        let cases: &[(f64, Option<&str>, &str)] = &[
            (0.0, None, "0"),
            (-0.0, None, "0"),
            (1.0, None, "1"),
            (3.14259, None, "3.14"),
            (2.5, None, "2.5"),
            (0.285, None, "0.285"),
            (2.675, None, "2.68"),
            (1.005, None, "1.01"),
            (9876.0, None, "9,876"),
            (9876.54, None, "9,876.54"),
            (1250.0, None, "1,250"),
            (-1200.0, None, "\u{2212}1,200"),
            (0.0042, None, "0.0042"),
            (0.123456, None, "0.123"),
            (0.00012345, None, "0.000123"),
            (0.99999, None, "1"),
            (4.2e-8, None, "4.2e\u{2212}8"),
            (1e-300, None, "1e\u{2212}300"),
            (10_000.0, None, "10k"),
            (12_345.0, None, "12.3k"),
            (123_456.0, None, "123k"),
            (999_999.0, None, "1M"),
            (1_250_000.0, None, "1.25M"),
            (7.5e9, None, "7.5B"),
            (2.04e12, None, "2.04T"),
            (999.6e12, None, "1e15"),
            (1.234e18, None, "1.23e18"),
            (f64::MAX, None, "1.8e308"),
            (-f64::MAX, None, "\u{2212}1.8e308"),
            (1.2e6, Some("$"), "$1.2M"),
            (-3.0, Some("$"), "\u{2212}$3"),
            (45.0, Some("%"), "45%"),
            (12.0, Some("kg"), "12 kg"),
            (3400.0, Some("users"), "3,400 users"),
            (34_000.0, Some("users"), "34k users"),
            (0.0, Some("€"), "€0"),
            (-1e-9, None, "\u{2212}1e\u{2212}9"),
            (f64::NAN, Some("$"), "\u{2013}"),
            (f64::INFINITY, None, "∞"),
            (f64::NEG_INFINITY, Some("%"), "\u{2212}∞%"),
            (9999.996, None, "10,000"),
            (5e-324, None, "5e\u{2212}324"),
        ];
        for &(value, units, expected) in cases {
            assert_eq!(format_value(value, units), expected, "{value:e} {units:?}");
        }
    }

    /// step, max_abs, units, values, expected labels
    type AxisCase<'a> = (f64, f64, Option<&'a str>, &'a [f64], &'a [&'a str]);

    fn axis(step: f64, max_abs: f64, units: Option<&str>, values: &[f64]) -> Vec<String> {
        let f = NumberFormat::for_axis(step, max_abs, units);
        values.iter().map(|&v| f.format(v)).collect()
    }

    #[test]
    fn axis_samples() {
        let cases: &[AxisCase] = &[
            (
                0.25,
                1.0,
                None,
                &[0.0, 0.25, 0.5, 0.75, 1.0],
                &["0", "0.25", "0.50", "0.75", "1.00"],
            ),
            (
                500_000.0,
                2_500_000.0,
                None,
                &[0.0, 500_000.0, 1e6, 1.5e6, 2e6, 2.5e6],
                &["0", "0.5M", "1.0M", "1.5M", "2.0M", "2.5M"],
            ),
            (
                250.0,
                9_800.0,
                None,
                &[0.0, 1_250.0, 9_800.0, -2_500.0],
                &["0", "1,250", "9,800", "\u{2212}2,500"],
            ),
            (
                10_000.0,
                50_000.0,
                None,
                &[0.0, 10_000.0, 50_000.0],
                &["0", "10k", "50k"],
            ),
            (
                2_500.0,
                10_000.0,
                None,
                &[2_500.0, 10_000.0],
                &["2.5k", "10.0k"],
            ),
            (
                200_000.0,
                1_200_000.0,
                None,
                &[200_000.0, 1_200_000.0],
                &["0.2M", "1.2M"],
            ),
            (
                1e9,
                5e9,
                Some("$"),
                &[0.0, 1e9, -5e9],
                &["$0", "$1B", "\u{2212}$5B"],
            ),
            (5e12, 2e13, None, &[5e12, 2e13], &["5T", "20T"]),
            (
                0.1,
                0.3,
                Some("%"),
                &[0.1, 0.30000000000000004],
                &["0.1%", "0.3%"],
            ),
            (
                20.0,
                100.0,
                Some("kg"),
                &[20.0, 100.0],
                &["20 kg", "100 kg"],
            ),
            (
                5e17,
                2e18,
                None,
                &[0.0, 5e17, 1e18, 1.5e18],
                &["0", "5e17", "1.0e18", "1.5e18"],
            ),
            (1e21, 3e21, None, &[1e21, 3e21], &["1e21", "3e21"]),
            (
                2.5e18,
                1e19,
                None,
                &[2.5e18, 5e18, 1e19],
                &["2.5e18", "5.0e18", "1.00e19"],
            ),
            (
                1e-8,
                5e-8,
                None,
                &[0.0, 1e-8, 5e-8],
                &["0", "1e\u{2212}8", "5e\u{2212}8"],
            ),
            (
                0.0001,
                0.0005,
                None,
                &[0.0001, 0.0005],
                &["0.0001", "0.0005"],
            ),
            // A zoomed axis: compact would need 1.000002M.
            (
                2.0,
                1_000_010.0,
                None,
                &[1_000_000.0, 1_000_002.0],
                &["1,000,000", "1,000,002"],
            ),
            // Not a nice step: 3 significant digits of it.
            (
                1.0 / 3.0,
                1.0,
                None,
                &[1.0 / 3.0, 2.0 / 3.0],
                &["0.333", "0.667"],
            ),
            // No step: from the largest value.
            (0.0, 3.14259, None, &[3.14259], &["3.14"]),
            (f64::NAN, 42.0, None, &[42.0], &["42"]),
            (
                0.5,
                2.0,
                None,
                &[-0.0, -1e-17, f64::NAN],
                &["0", "0", "\u{2013}"],
            ),
            (1.0, 10.0, None, &[1e300], &["1e300"]),
        ];
        for &(step, max_abs, units, values, expected) in cases {
            assert_eq!(
                axis(step, max_abs, units, values),
                expected,
                "step {step} max {max_abs}"
            );
        }
    }

    #[test]
    fn axis_formatter_accessors() {
        let f = NumberFormat::for_axis(500_000.0, 2_500_000.0, Some("$"));
        assert_eq!((f.decimals(), f.suffix()), (Some(1), "M"));
        assert_eq!(f.units(), &Units::Prefix("$".into()));
        let f = NumberFormat::for_axis(10.0, 2020.0, None).with_grouping(false);
        assert_eq!(f.format(2020.0), "2020");
        assert_eq!(NumberFormat::for_axis(1e17, 1e18, None).decimals(), None);
        let f = NumberFormat::for_axis(f64::INFINITY, f64::INFINITY, None);
        assert_eq!(f.format(2.0), "2");
        assert_eq!(f.format(f64::NEG_INFINITY), "\u{2212}∞");
    }

    #[test]
    fn shortest_and_round() {
        assert_eq!(
            shortest(1_255_000.0),
            Some(Decimal {
                digits: 1255,
                exponent: 3
            })
        );
        assert_eq!(
            shortest(-0.1),
            Some(Decimal {
                digits: 1,
                exponent: -1
            })
        );
        assert_eq!(shortest(0.0), None);
        assert_eq!(shortest(f64::NAN), None);
        let d = Decimal {
            digits: 1255,
            exponent: 3,
        };
        assert_eq!(d.leading_exponent(), 6);
        assert_eq!(d.round_to(4), Some(126));
        assert_eq!(d.round_to(0), Some(1_255_000));
        assert_eq!(d.round_to(-40), None);
        assert_eq!(d.round_to(30), Some(0));
        assert_eq!(d.round_significant(2), Some((13, 5, 6)));
        assert_eq!(
            Decimal {
                digits: 9995,
                exponent: 0
            }
            .round_significant(3),
            Some((100, 2, 4))
        );
        assert_eq!(render(1_234_567, 2, true, false), "12,345.67");
        assert_eq!(render(1_234_500, 2, true, true), "12,345");
        assert_eq!(render(5, 3, true, false), "0.005");
        assert_eq!(render(123, 0, true, false), "123");
        assert_eq!(render(u128::MAX, 0, true, false).len(), 39 + 12);
    }

    #[test]
    fn never_panics_on_hostile_input() {
        let values = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            0.0,
            -0.0,
            1e-300,
            0.5,
            0.005,
            9_999.5,
            99_950.0,
            999_500.0,
            1e15,
            999_999_999_999_999.9,
            1e21,
            -1e308,
        ];
        for &step in &values {
            for &max_abs in &values {
                let f = NumberFormat::for_axis(step, max_abs, Some("$"));
                for &v in &values {
                    let text = f.format(v);
                    assert!(
                        !text.is_empty() && text.len() < 80,
                        "{step:e} {max_abs:e} {v:e}: {text}"
                    );
                    assert!(!text.contains('-'), "{text}");
                }
            }
        }
        for &v in &values {
            for units in [None, Some("%"), Some("€"), Some("kg")] {
                let text = format_value(v, units);
                assert!(!text.is_empty() && text.len() < 40, "{v:e}: {text}");
                assert!(!text.contains('-'), "{text}");
            }
        }
    }
}
