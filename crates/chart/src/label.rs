//! The words and numbers said about single data: tooltips, the data table
//! for assistive technology, and the labels drawn on marks all come from
//! here, so a value reads the same wherever a reader meets it.

use crate::model::{BoxStats, DatePrecision, VizConfig, When};
use crate::scale::{format_date, format_exact, format_value, NumberFormat};

/// `viz_config.units`, or none when blank.
pub fn units(config: &VizConfig) -> Option<&str> {
    config.units.as_deref().filter(|u| !u.trim().is_empty())
}

/// The right axis's units: `right_axis_units`, else the card's.
pub fn right_units(config: &VizConfig) -> Option<&str> {
    config
        .right_axis_units
        .as_deref()
        .filter(|u| !u.trim().is_empty())
        .or_else(|| units(config))
}

/// A value with the card's units: "$1,250", "12.5%", "48.2k", "−3".
pub fn value(v: f64, units: Option<&str>) -> String {
    format_value(v, units)
}

/// A value in full, for a reader who asked for it (tooltips, the data
/// table): "52,875 USD" where a label on the bar says "52.9k USD".
pub fn exact(v: f64, units: Option<&str>) -> String {
    format_exact(v, units)
}

/// A number on an axis without units (a scatter's x): "151.7".
pub fn number(v: f64) -> String {
    format_value(v, None)
}

/// A date at the data's precision: "Mar 2025", "Mar 5, 2025 14:05".
pub fn date(seconds: f64, precision: DatePrecision) -> String {
    format_date(seconds, precision)
}

/// "Jan 5, 2026 – Feb 20, 2026": a timeline item.
pub fn date_span(start: f64, end: f64, precision: DatePrecision) -> String {
    format!(
        "{} \u{2013} {}",
        date(start, precision),
        date(end, precision)
    )
}

/// "40 USD – 50 USD": a histogram bin.
pub fn value_span(lo: f64, hi: f64, units: Option<&str>) -> String {
    format!("{} \u{2013} {}", value(lo, units), value(hi, units))
}

/// A count, exact: "12", "1,250", "1,000,000".
pub fn count(n: u64) -> String {
    let n = n as f64;
    // A step of 1 asks for every digit; k and M would round a count.
    NumberFormat::for_axis(1.0, n, None).format(n)
}

/// A share of a whole: "38%", or "<1%" for slivers.
pub fn percent(share: f64) -> String {
    let p = share * 100.0;
    if !p.is_finite() {
        "\u{2013}".to_string()
    } else if p < 1.0 {
        ["<1", crate::locale::current().percent_gap(), "%"].concat()
    } else {
        format_value(p.round(), Some("%"))
    }
}

/// A pie slice: "1,250 (38%)".
pub fn slice(v: f64, share: f64, units: Option<&str>) -> String {
    format!("{} ({})", value(v, units), percent(share))
}

/// A change, signed both ways: "+340k EUR", "−260k EUR", "0 EUR".
pub fn change(delta: f64, units: Option<&str>) -> String {
    signed(value(delta, units), delta, units)
}

/// [`change`] in full, for the data table.
pub fn exact_change(delta: f64, units: Option<&str>) -> String {
    signed(exact(delta, units), delta, units)
}

fn signed(mut text: String, delta: f64, units: Option<&str>) -> String {
    if delta > 0.0 && text != value(0.0, units) {
        text.insert(0, '+');
    }
    text
}

/// A waterfall step: the change and where it leaves the running total,
/// "+340k EUR → 1.54M EUR".
pub fn step(delta: f64, total: f64, units: Option<&str>) -> String {
    format!("{} \u{2192} {}", change(delta, units), value(total, units))
}

/// A box: "median 4, Q1 3.5, Q3 5.5, min 2, max 12".
pub fn box_stats(b: &BoxStats, units: Option<&str>) -> String {
    format!(
        "median {}, Q1 {}, Q3 {}, min {}, max {}",
        value(b.median, units),
        value(b.q1, units),
        value(b.q3, units),
        value(b.min, units),
        value(b.max, units)
    )
}

/// An outlier of a box: "outlier 12".
pub fn outlier(v: f64, units: Option<&str>) -> String {
    format!("outlier {}", value(v, units))
}

/// A heatmap cell's place: "08:00, Mon".
pub fn cell(x: &str, y: &str) -> String {
    format!("{x}, {y}")
}

/// When a headline number is of: "Q4 2024", "Jun 2025".
pub fn when(at: &When) -> String {
    match at {
        When::Date(seconds, precision) => date(*seconds, *precision),
        When::Label(text) => text.clone(),
    }
}

/// A signed percent change of a headline number: "+4.8%", "−12%"; none
/// when the value before was zero (no share of nothing).
pub fn percent_change(value: f64, previous: f64) -> Option<String> {
    let share = (value - previous) / previous.abs();
    if !share.is_finite() {
        return None;
    }
    let p = share * 100.0;
    // One decimal below 10%, where a whole percent hides the change.
    let p = if p.abs() < 10.0 {
        (p * 10.0).round() / 10.0
    } else {
        p.round()
    };
    Some(signed(format_value(p, Some("%")), p, Some("%")))
}

/// A headline number's comparison, in words for a reader who cannot see
/// its arrow or colour: "up 56 USD (+4.8%) from 1,178 USD in Q3 2024".
pub fn comparison(value: f64, previous: f64, at: Option<&When>, units: Option<&str>) -> String {
    let delta = value - previous;
    let direction = if delta > 0.0 {
        "up"
    } else if delta < 0.0 {
        "down"
    } else {
        "unchanged"
    };
    let mut text = String::from(direction);
    if delta != 0.0 {
        text.push(' ');
        text.push_str(&crate::label::value(delta.abs(), units));
        if let Some(p) = percent_change(value, previous) {
            text.push_str(&format!(" ({p})"));
        }
    }
    text.push_str(&format!(" from {}", crate::label::value(previous, units)));
    if let Some(at) = at {
        text.push_str(&format!(" in {}", when(at)));
    }
    text
}

/// A latitude or longitude as a reader says it: "48.86° N", "2.35° E".
pub fn degrees(v: f64, positive: char, negative: char) -> String {
    let rounded = (v.abs() * 100.0).round() / 100.0;
    let side = if v < 0.0 && rounded > 0.0 {
        negative
    } else {
        positive
    };
    format!("{}\u{b0} {side}", format_exact(rounded, None))
}

/// A table card's cell as the table shows it (and its data table): a
/// plain number as a reader expects it: a real minus sign, and thousands
/// separators from five digits up (four-digit numbers are often years).
pub fn table_cell(cell: &str) -> String {
    let (sign, digits) = match cell.strip_prefix('-') {
        Some(rest) => ("\u{2212}", rest),
        None => ("", cell),
    };
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    let plain = !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    if !plain {
        return cell.to_string();
    }
    let grouped = if int.len() >= 5 {
        crate::locale::current().group(int)
    } else {
        int.to_string()
    };
    match frac {
        Some(f) => [sign, &grouped, crate::locale::current().decimal_mark(), f].concat(),
        None => [sign, &grouped].concat(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples() {
        assert_eq!(value(-1250.0, Some("$")), "\u{2212}$1,250");
        assert_eq!(change(340_000.0, Some("EUR")), "+340k EUR");
        assert_eq!(change(-260_000.0, Some("EUR")), "\u{2212}260k EUR");
        assert_eq!(change(0.5, None), "+0.5");
        assert_eq!(change(0.0, Some("$")), "$0");
        assert_eq!(change(1e-30, Some("$")), "+$1e\u{2212}30");
        assert_eq!(step(-40_000.0, 1.28e6, None), "\u{2212}40k \u{2192} 1.28M");
        assert_eq!(slice(64.2, 0.642, Some("%")), "64.2% (64%)");
        assert_eq!(percent(0.004), "<1%");
        assert_eq!(percent(f64::NAN), "\u{2013}");
        assert_eq!(
            value_span(40.0, 50.0, Some("USD")),
            "40 USD \u{2013} 50 USD"
        );
        assert_eq!(count(1250), "1,250");
        assert_eq!(count(1_000_000), "1,000,000");
        assert_eq!(count(52_875), "52,875");
        assert_eq!(
            date_span(0.0, 86_400.0 * 31.0, DatePrecision::Day),
            "Jan 1, 1970 \u{2013} Feb 1, 1970"
        );
        assert_eq!(cell("08:00", "Mon"), "08:00, Mon");
    }

    #[test]
    fn plain_numbers_get_separators_and_a_real_minus() {
        assert_eq!(table_cell("1250000"), "1,250,000");
        assert_eq!(table_cell("-0.03"), "\u{2212}0.03");
        assert_eq!(table_cell("2024"), "2024");
        assert_eq!(table_cell("12345.678"), "12,345.678");
        assert_eq!(table_cell("1e6"), "1e6");
        assert_eq!(table_cell("Acme"), "Acme");
        assert_eq!(table_cell("-"), "-");
        assert_eq!(table_cell("1."), "1.");
    }
}
