//! Dates on a time axis: ISO 8601 dates and date-times, `YYYY-MM` and `YYYY`.
//!
//! Parsed by hand into seconds since 1970 (UTC) so the crate needs no date
//! library; the proleptic Gregorian calendar, years 0 to 9999.

/// How precisely a value was written; the axis never labels finer than its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DatePrecision {
    Year,
    Month,
    Day,
    Time,
}

/// A date as the data may have written it, at its precision: "2025",
/// "2025-04", "2025-04-01", "2025-04-01T12:30", "2025-04-01T12:30:05".
pub fn iso_date(seconds: f64, precision: DatePrecision) -> String {
    let (year, month, day, second) = civil_from_seconds(seconds);
    let mut text = format!("{year:04}");
    if precision >= DatePrecision::Month {
        text.push_str(&format!("-{month:02}"));
    }
    if precision >= DatePrecision::Day {
        text.push_str(&format!("-{day:02}"));
    }
    if precision >= DatePrecision::Time {
        text.push_str(&format!("T{:02}:{:02}", second / 3600, second / 60 % 60));
        if second % 60 != 0 {
            text.push_str(&format!(":{:02}", second % 60));
        }
    }
    text
}

/// Seconds since 1970-01-01T00:00:00Z, and the precision it was written with.
pub fn parse_date(text: &str) -> Option<(f64, DatePrecision)> {
    let bytes = text.as_bytes();
    let year = digits(bytes, 0, 4)?;
    if bytes.len() == 4 {
        return Some((epoch_seconds(year, 1, 1, 0), DatePrecision::Year));
    }
    if bytes.get(4) != Some(&b'-') {
        return None;
    }
    let month = digits(bytes, 5, 2)?;
    if !(1..=12).contains(&month) {
        return None;
    }
    if bytes.len() == 7 {
        return Some((epoch_seconds(year, month, 1, 0), DatePrecision::Month));
    }
    if bytes.get(7) != Some(&b'-') {
        return None;
    }
    let day = digits(bytes, 8, 2)?;
    if day < 1 || day > days_in_month(year, month) {
        return None;
    }
    if bytes.len() == 10 {
        return Some((epoch_seconds(year, month, day, 0), DatePrecision::Day));
    }
    if !matches!(bytes.get(10), Some(b'T' | b't' | b' ')) {
        return None;
    }
    // `get`, not `[11..]`: byte 10 is ASCII so this never fails, but the
    // indexing panic path would link core's char Debug and unicode tables.
    let seconds = parse_time(text.get(11..)?)?;
    Some((
        epoch_seconds(year, month, day, 0) + seconds,
        DatePrecision::Time,
    ))
}

/// `HH:MM[:SS[.fff]][Z|±HH:MM]` as seconds after midnight UTC (may be negative).
fn parse_time(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let hour = digits(bytes, 0, 2)?;
    if bytes.get(2) != Some(&b':') {
        return None;
    }
    let minute = digits(bytes, 3, 2)?;
    let mut at = 5;
    let mut second = 0.0;
    if bytes.get(at) == Some(&b':') {
        second = f64::from(digits(bytes, at + 1, 2)?);
        at += 3;
        if bytes.get(at) == Some(&b'.') {
            let start = at + 1;
            let end = start
                + bytes[start..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
            if end == start {
                return None;
            }
            let fraction = crate::number_text::parse_f64(text.get(at..end)?)?;
            second += fraction;
            at = end;
        }
    }
    if hour > 23 || minute > 59 || second >= 61.0 {
        return None;
    }
    let offset = match &bytes[at..] {
        [] | [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), ..] => {
            let rest = &bytes[at + 1..];
            let (oh, om) = match rest.len() {
                5 if rest[2] == b':' => (digits(rest, 0, 2)?, digits(rest, 3, 2)?),
                4 => (digits(rest, 0, 2)?, digits(rest, 2, 2)?),
                2 => (digits(rest, 0, 2)?, 0),
                _ => return None,
            };
            if oh > 23 || om > 59 {
                return None;
            }
            let minutes = i64::from(oh * 60 + om);
            if *sign == b'+' {
                minutes
            } else {
                -minutes
            }
        }
        _ => return None,
    };
    Some(f64::from(hour * 3600 + minute * 60) + second - (offset * 60) as f64)
}

fn digits(bytes: &[u8], start: usize, count: usize) -> Option<u32> {
    let slice = bytes.get(start..start + count)?;
    slice.iter().try_fold(0u32, |acc, b| {
        b.is_ascii_digit().then(|| acc * 10 + u32::from(b - b'0'))
    })
}

fn is_leap(year: u32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Milliseconds since 1970 as seconds, within the years dates may have
/// (0 to 9999); to the day when every one is a midnight, else to the second.
pub(crate) fn from_epoch_ms(ms: f64) -> Option<(f64, DatePrecision)> {
    const FIRST: f64 = -62_167_219_200_000.0;
    const LAST: f64 = 253_402_300_799_999.0;
    if !(FIRST..=LAST).contains(&ms) {
        return None;
    }
    let seconds = ms / 1000.0;
    // floor, not rem_euclid: an f64 remainder is a kilobyte of the engine.
    let days = seconds / 86_400.0;
    let precision = if days == days.floor() {
        DatePrecision::Day
    } else {
        DatePrecision::Time
    };
    Some((seconds, precision))
}

/// Days from civil, in seconds.
pub fn epoch_seconds(year: u32, month: u32, day: u32, seconds: u32) -> f64 {
    (days_from_civil(i64::from(year), month, day) * 86_400 + i64::from(seconds)) as f64
}

/// The calendar date of an epoch second: (year, month, day, second of day).
pub fn civil_from_seconds(seconds: f64) -> (i64, u32, u32, u32) {
    let total = seconds.floor() as i64;
    let (year, month, day) = civil_from_days(total.div_euclid(86_400));
    (year, month, day, total.rem_euclid(86_400) as u32)
}

/// Howard Hinnant's `civil_from_days`: (year, month, day) of a day since
/// 1970. The engine's one calendar: the reader and the time axis share it.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// Howard Hinnant's `days_from_civil`: days since 1970 of a date.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = year - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_documented_form() {
        assert_eq!(parse_date("1970"), Some((0.0, DatePrecision::Year)));
        assert_eq!(
            parse_date("1970-02"),
            Some((31.0 * 86_400.0, DatePrecision::Month))
        );
        assert_eq!(
            parse_date("2000-03-01"),
            Some((951_868_800.0, DatePrecision::Day))
        );
        assert_eq!(
            parse_date("2000-03-01T01:02:03Z"),
            Some((951_868_800.0 + 3723.0, DatePrecision::Time))
        );
        assert_eq!(
            parse_date("2000-03-01 01:02"),
            Some((951_868_800.0 + 3720.0, DatePrecision::Time))
        );
        assert_eq!(
            parse_date("2000-03-01T02:00:00+01:00").map(|d| d.0),
            Some(951_868_800.0 + 3600.0)
        );
        assert_eq!(
            parse_date("2000-03-01T00:00:00.250-0030").map(|d| d.0),
            Some(951_868_800.0 + 1800.25)
        );
    }

    #[test]
    fn refuses_what_is_not_a_date() {
        for bad in [
            "",
            "May",
            "20",
            "2024-13",
            "2024-02-30",
            "2023-02-29",
            "2024-1-5",
            "2024/01/05",
            "2024-01-05T25:00",
            "2024-01-05T10",
            "2024-01-05T10:00+5",
            "12345",
            "2024-01-05Tab:cd",
            "2024-01-05T10:00:00.",
            "２０２４",
        ] {
            assert_eq!(parse_date(bad), None, "{bad:?}");
        }
        assert!(parse_date("2024-02-29").is_some(), "leap day");
    }

    #[test]
    fn civil_round_trips() {
        for (y, m, d) in [
            (1970, 1, 1),
            (2000, 2, 29),
            (1969, 12, 31),
            (2038, 1, 19),
            (1, 1, 1),
        ] {
            let s = epoch_seconds(y, m, d, 0);
            assert_eq!(civil_from_seconds(s), (i64::from(y), m, d, 0));
        }
    }
}
