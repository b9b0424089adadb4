//! Date axes: ticks on calendar boundaries (UTC, proleptic Gregorian) with
//! short contextual labels in the current locale ([`crate::locale`]), and
//! single dates for labels and tooltips.
//!
//! Times are seconds since 1970-01-01T00:00:00Z as `f64`, as parsed by
//! [`crate::model::parse_date`].

use super::{MAX_TICKS, MINUS};
use crate::locale::{self, Pattern};
use crate::model::{civil_from_days, days_from_civil, DatePrecision};

/// The calendar unit ticks fall on, finest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TimeUnit {
    Second,
    Minute,
    Hour,
    Day,
    /// Mondays.
    Week,
    Month,
    /// Three months from January, April, July, October.
    Quarter,
    Year,
}

impl TimeUnit {
    /// Its length in seconds (months and years on average).
    pub fn seconds(self) -> f64 {
        match self {
            TimeUnit::Second => 1.0,
            TimeUnit::Minute => 60.0,
            TimeUnit::Hour => 3_600.0,
            TimeUnit::Day => 86_400.0,
            TimeUnit::Week => 604_800.0,
            TimeUnit::Month => 2_629_746.0,
            TimeUnit::Quarter => 7_889_238.0,
            TimeUnit::Year => 31_556_952.0,
        }
    }

    /// The finest unit for data written at `precision`.
    pub fn finest_for(precision: DatePrecision) -> TimeUnit {
        match precision {
            DatePrecision::Year => TimeUnit::Year,
            DatePrecision::Month => TimeUnit::Month,
            DatePrecision::Day => TimeUnit::Day,
            DatePrecision::Time => TimeUnit::Second,
        }
    }
}

/// Ticks for a date axis: `values` (seconds) and their `labels`, one each,
/// every `step` `unit`s.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeTicks {
    pub values: Vec<f64>,
    pub labels: Vec<String>,
    pub unit: TimeUnit,
    pub step: u32,
}

/// Dates further than this from 1970, in seconds (about 95,000 years), are
/// clamped to it on an axis.
const AXIS_LIMIT: f64 = 3.0e12;
/// The same for a single date (about 3 billion years).
const DATE_LIMIT: f64 = 1.0e17;
const DAY: i64 = 86_400;
/// 1970-01-05, the first Monday after the epoch, in seconds.
const FIRST_MONDAY: i64 = 4 * DAY;

/// The granularities below a year, finest first.
const INTERVALS: [(TimeUnit, u32); 18] = [
    (TimeUnit::Second, 1),
    (TimeUnit::Second, 5),
    (TimeUnit::Second, 15),
    (TimeUnit::Second, 30),
    (TimeUnit::Minute, 1),
    (TimeUnit::Minute, 5),
    (TimeUnit::Minute, 15),
    (TimeUnit::Minute, 30),
    (TimeUnit::Hour, 1),
    (TimeUnit::Hour, 3),
    (TimeUnit::Hour, 6),
    (TimeUnit::Hour, 12),
    (TimeUnit::Day, 1),
    (TimeUnit::Day, 2),
    (TimeUnit::Week, 1),
    (TimeUnit::Month, 1),
    (TimeUnit::Quarter, 1),
    (TimeUnit::Month, 6),
];

/// Ticks on calendar boundaries inside `[lo, hi]` (seconds), at most
/// `max_ticks` (0 and 1 count as 2, more than [`MAX_TICKS`] as [`MAX_TICKS`]).
///
/// The granularity is the finest of 1, 5, 15, 30 seconds; 1, 5, 15, 30
/// minutes; 1, 3, 6, 12 hours; 1, 2 days; weeks (Mondays); 1 month, quarters,
/// 6 months (January and July); 1, 2, 5, 10, 20, 50, … years that gives at
/// least 2 and at most `max_ticks` ticks, never finer than `precision`
/// (years for Year data, months for Month data, days for Day data).
///
/// Labels are short and contextual: "2025"; "Jan 2025", "Feb", … (the first
/// tick and every January with the year); "Mar 5, 2025", "Mar 6", … (the year
/// on the first tick and when it changes); "Mar 5 14:00", "15:00", … with the
/// date on the first tick and on each new day (just "Mar 6" at midnight);
/// seconds as "14:05:30".
///
/// When no boundary falls inside (a single instant, or a span shorter than the
/// data's precision) the result is one tick at `lo` labelled with
/// [`format_date`]; `lo > hi` is swapped, one non-finite bound is ignored, and
/// two non-finite bounds give no ticks.
pub fn time_ticks(lo: f64, hi: f64, max_ticks: usize, precision: DatePrecision) -> TimeTicks {
    let count = max_ticks.clamp(2, MAX_TICKS);
    let (lo, hi) = match (lo.is_finite(), hi.is_finite()) {
        (true, true) if lo <= hi => (lo, hi),
        (true, true) => (hi, lo),
        (true, false) => (lo, lo),
        (false, true) => (hi, hi),
        (false, false) => {
            return TimeTicks {
                values: Vec::new(),
                labels: Vec::new(),
                unit: TimeUnit::finest_for(precision),
                step: 1,
            }
        }
    };
    let (lo, hi) = (
        lo.clamp(-AXIS_LIMIT, AXIS_LIMIT),
        hi.clamp(-AXIS_LIMIT, AXIS_LIMIT),
    );
    let finest = TimeUnit::finest_for(precision);
    let span = hi - lo;
    let years = (0..7u32).flat_map(|k| [1, 2, 5].map(|m| (TimeUnit::Year, m * 10u32.pow(k))));
    let candidates = INTERVALS
        .into_iter()
        .chain(years)
        .filter(|&(unit, _)| unit >= finest);
    let mut single: Option<(TimeUnit, u32, Vec<i64>)> = None;
    for (unit, step) in candidates {
        if span / (unit.seconds() * f64::from(step)) > (count + 2) as f64 {
            continue;
        }
        let ticks = boundaries(unit, step, lo, hi, count + 1);
        if ticks.len() > count {
            continue;
        }
        if ticks.len() >= 2 {
            return labelled(unit, step, &ticks);
        }
        if ticks.len() == 1 && single.is_none() {
            single = Some((unit, step, ticks));
        }
    }
    if let Some((unit, step, ticks)) = single {
        return labelled(unit, step, &ticks);
    }
    TimeTicks {
        values: vec![lo],
        labels: vec![format_date(lo, precision)],
        unit: finest,
        step: 1,
    }
}

/// The boundaries of every `step` `unit`s inside `[lo, hi]`, at most `cap`.
/// `lo` and `hi` are finite and within [`AXIS_LIMIT`].
fn boundaries(unit: TimeUnit, step: u32, lo: f64, hi: f64, cap: usize) -> Vec<i64> {
    let mut ticks = Vec::new();
    match unit {
        TimeUnit::Month | TimeUnit::Quarter | TimeUnit::Year => {
            // Months since year 0, every `months` of them, from January.
            let months = i64::from(step)
                * match unit {
                    TimeUnit::Quarter => 3,
                    TimeUnit::Year => 12,
                    _ => 1,
                };
            let start = civil(lo.floor() as i64);
            let mut index = start.year * 12 + i64::from(start.month) - 1;
            if (month_start(index) as f64) < lo {
                index += 1;
            }
            index += (months - index.rem_euclid(months)) % months;
            while ticks.len() < cap {
                let t = month_start(index);
                if t as f64 > hi {
                    break;
                }
                ticks.push(t);
                index += months;
            }
        }
        _ => {
            let (interval, offset) = match unit {
                TimeUnit::Second => (1, 0),
                TimeUnit::Minute => (60, 0),
                TimeUnit::Hour => (3_600, 0),
                TimeUnit::Day => (DAY, 0),
                _ => (7 * DAY, FIRST_MONDAY),
            };
            let interval = interval * i64::from(step);
            let mut t = offset + ((lo - offset as f64) / interval as f64).ceil() as i64 * interval;
            if (t as f64) < lo {
                t += interval;
            }
            while ticks.len() < cap && t as f64 <= hi {
                ticks.push(t);
                t += interval;
            }
        }
    }
    ticks
}

/// Seconds at the start of the month `index` (months since January of year 0).
fn month_start(index: i64) -> i64 {
    let year = index.div_euclid(12);
    let month = index.rem_euclid(12) as u32 + 1;
    days_from_civil(year, month, 1) * DAY
}

fn labelled(unit: TimeUnit, step: u32, ticks: &[i64]) -> TimeTicks {
    let mut labels = Vec::with_capacity(ticks.len());
    let mut previous: Option<Civil> = None;
    for &t in ticks {
        let date = civil(t);
        labels.push(label(unit, date, previous));
        previous = Some(date);
    }
    TimeTicks {
        values: ticks.iter().map(|&t| t as f64).collect(),
        labels,
        unit,
        step,
    }
}

fn label(unit: TimeUnit, date: Civil, previous: Option<Civil>) -> String {
    let first = previous.is_none();
    match unit {
        TimeUnit::Year => written(Pattern::Year, date),
        TimeUnit::Month | TimeUnit::Quarter if first || date.month == 1 => {
            written(Pattern::YearMonth, date)
        }
        TimeUnit::Month | TimeUnit::Quarter => locale::current().month(date.month, true).to_owned(),
        TimeUnit::Day | TimeUnit::Week => {
            if previous.is_none_or(|p| p.year != date.year) {
                written(Pattern::Date, date)
            } else {
                written(Pattern::MonthDay, date)
            }
        }
        TimeUnit::Hour | TimeUnit::Minute | TimeUnit::Second => {
            let clock = if unit == TimeUnit::Second {
                date.clock_seconds()
            } else {
                date.clock()
            };
            let new_day = previous.is_none_or(|p| !p.same_day(date));
            match (new_day, first, date.second) {
                (true, false, 0) => written(Pattern::MonthDay, date),
                (true, _, _) => {
                    let mut text = written(Pattern::MonthDay, date);
                    text.push(' ');
                    text.push_str(&clock);
                    text
                }
                (false, _, _) => clock,
            }
        }
    }
}

/// `date` as the current locale writes `pattern`: "Mar 5, 2025",
/// "5. März 2025", "2025年3月5日".
fn written(pattern: Pattern, date: Civil) -> String {
    let locale = locale::current();
    let mut out = String::new();
    for c in locale.pattern(pattern).chars() {
        match c {
            locale::DAY => out.push_str(&date.day.to_string()),
            locale::MONTH => out.push_str(locale.month(date.month, false)),
            locale::YEAR => out.push_str(&year_text(date.year)),
            c => out.push(c),
        }
    }
    out
}

/// One date for a label or tooltip at the data's precision, as the
/// current locale writes it: "2025", "Mar 2025", "Mar 5, 2025", "Mar 5,
/// 2025 14:05" (with ":30" when the seconds are not zero). NaN and ±∞ give
/// "–"; seconds are floored.
pub fn format_date(seconds: f64, precision: DatePrecision) -> String {
    if !seconds.is_finite() {
        return super::format::MISSING.to_owned();
    }
    let date = civil(seconds.clamp(-DATE_LIMIT, DATE_LIMIT).floor() as i64);
    match precision {
        DatePrecision::Year => written(Pattern::Year, date),
        DatePrecision::Month => written(Pattern::YearMonth, date),
        DatePrecision::Day => written(Pattern::Date, date),
        DatePrecision::Time => {
            let clock = if date.second % 60 == 0 {
                date.clock()
            } else {
                date.clock_seconds()
            };
            let mut text = written(Pattern::Date, date);
            text.push(' ');
            text.push_str(&clock);
            text
        }
    }
}

fn year_text(year: i64) -> String {
    if year < 0 {
        format!("{MINUS}{}", year.unsigned_abs())
    } else {
        year.to_string()
    }
}

/// A calendar date and the second of its day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Civil {
    year: i64,
    month: u32,
    day: u32,
    second: u32,
}

impl Civil {
    fn same_day(self, other: Civil) -> bool {
        (self.year, self.month, self.day) == (other.year, other.month, other.day)
    }

    /// "14:05"
    fn clock(self) -> String {
        format!("{:02}:{:02}", self.second / 3_600, self.second / 60 % 60)
    }

    /// "14:05:30"
    fn clock_seconds(self) -> String {
        format!(
            "{:02}:{:02}:{:02}",
            self.second / 3_600,
            self.second / 60 % 60,
            self.second % 60
        )
    }
}

/// The date of an epoch second; `seconds` within ±[`DATE_LIMIT`].
fn civil(seconds: i64) -> Civil {
    let days = seconds.div_euclid(DAY);
    let second = seconds.rem_euclid(DAY) as u32;
    let (year, month, day) = civil_from_days(days);
    Civil {
        year,
        month,
        day,
        second,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{civil_from_seconds, parse_date};

    fn at(text: &str) -> f64 {
        parse_date(text).map_or(f64::NAN, |(seconds, _)| seconds)
    }

    fn labels(t: &TimeTicks) -> Vec<&str> {
        t.labels.iter().map(String::as_str).collect()
    }

    #[test]
    fn three_years_of_months() {
        use DatePrecision::*;
        let t = time_ticks(at("2022-01"), at("2024-12"), 12, Month);
        assert_eq!((t.unit, t.step), (TimeUnit::Quarter, 1));
        assert_eq!(
            labels(&t),
            [
                "Jan 2022", "Apr", "Jul", "Oct", "Jan 2023", "Apr", "Jul", "Oct", "Jan 2024",
                "Apr", "Jul", "Oct"
            ]
        );
        assert_eq!(t.values.first(), Some(&at("2022-01")));
        assert_eq!(t.values.get(1), Some(&at("2022-04")));

        let t = time_ticks(at("2022-01"), at("2025-01"), 12, Month);
        assert_eq!((t.unit, t.step), (TimeUnit::Month, 6));
        assert_eq!(
            labels(&t),
            ["Jan 2022", "Jul", "Jan 2023", "Jul", "Jan 2024", "Jul", "Jan 2025"]
        );

        let t = time_ticks(at("2022-01"), at("2024-12"), 40, Month);
        assert_eq!((t.unit, t.step, t.values.len()), (TimeUnit::Month, 1, 36));
        assert_eq!(
            t.labels.get(..3),
            Some(&["Jan 2022".into(), "Feb".into(), "Mar".into()][..])
        );
        assert_eq!(t.labels.get(12).map(String::as_str), Some("Jan 2023"));

        // Starting mid-year: the first tick carries the year.
        let t = time_ticks(at("2022-05-17"), at("2023-03-02"), 12, Day);
        assert_eq!((t.unit, t.step), (TimeUnit::Month, 1));
        assert_eq!(labels(&t).first(), Some(&"Jun 2022"));
        assert_eq!(labels(&t).get(7), Some(&"Jan 2023"));
        assert_eq!(t.values.len(), 10);
    }

    #[test]
    fn ten_days() {
        let t = time_ticks(at("2025-03-01"), at("2025-03-11"), 12, DatePrecision::Day);
        assert_eq!((t.unit, t.step, t.values.len()), (TimeUnit::Day, 1, 11));
        assert_eq!(
            labels(&t).get(..3),
            Some(&["Mar 1, 2025", "Mar 2", "Mar 3"][..])
        );
        let t = time_ticks(at("2025-03-01"), at("2025-03-11"), 6, DatePrecision::Day);
        assert_eq!((t.unit, t.step), (TimeUnit::Day, 2));
        assert!(t.values.windows(2).all(|w| w[1] - w[0] == 2.0 * 86_400.0));
        assert!(t.values.len() >= 5);
        // Across a new year.
        let t = time_ticks(at("2024-12-30"), at("2025-01-02"), 8, DatePrecision::Day);
        assert_eq!(
            labels(&t),
            ["Dec 30, 2024", "Dec 31", "Jan 1, 2025", "Jan 2"]
        );
    }

    #[test]
    fn weeks_are_mondays() {
        let t = time_ticks(at("2025-03-01"), at("2025-05-01"), 10, DatePrecision::Day);
        assert_eq!((t.unit, t.step), (TimeUnit::Week, 1));
        assert_eq!(
            labels(&t),
            [
                "Mar 3, 2025",
                "Mar 10",
                "Mar 17",
                "Mar 24",
                "Mar 31",
                "Apr 7",
                "Apr 14",
                "Apr 21",
                "Apr 28"
            ]
        );
    }

    #[test]
    fn two_hours() {
        let (lo, hi) = (at("2025-03-05T14:00"), at("2025-03-05T16:00"));
        let t = time_ticks(lo, hi, 10, DatePrecision::Time);
        assert_eq!((t.unit, t.step), (TimeUnit::Minute, 15));
        assert_eq!(
            labels(&t),
            [
                "Mar 5 14:00",
                "14:15",
                "14:30",
                "14:45",
                "15:00",
                "15:15",
                "15:30",
                "15:45",
                "16:00"
            ]
        );
        let t = time_ticks(lo, hi, 3, DatePrecision::Time);
        assert_eq!((t.unit, t.step), (TimeUnit::Hour, 1));
        assert_eq!(labels(&t), ["Mar 5 14:00", "15:00", "16:00"]);
        // Not aligned: the first tick is the first boundary inside.
        let t = time_ticks(lo + 100.0, hi, 3, DatePrecision::Time);
        assert_eq!(labels(&t), ["Mar 5 15:00", "16:00"]);
    }

    #[test]
    fn hours_across_midnight_name_the_day() {
        let t = time_ticks(
            at("2025-03-05T00:00"),
            at("2025-03-07T00:00"),
            5,
            DatePrecision::Time,
        );
        assert_eq!((t.unit, t.step), (TimeUnit::Hour, 12));
        assert_eq!(
            labels(&t),
            ["Mar 5 00:00", "12:00", "Mar 6", "12:00", "Mar 7"]
        );
        let t = time_ticks(
            at("2025-03-05T21:00"),
            at("2025-03-06T03:00"),
            4,
            DatePrecision::Time,
        );
        assert_eq!(labels(&t), ["Mar 5 21:00", "Mar 6", "03:00"]);
    }

    #[test]
    fn seconds() {
        let lo = at("2025-03-05T14:05:00");
        let t = time_ticks(lo, lo + 40.0, 10, DatePrecision::Time);
        assert_eq!((t.unit, t.step), (TimeUnit::Second, 5));
        assert_eq!(
            labels(&t).get(..3),
            Some(&["Mar 5 14:05:00", "14:05:05", "14:05:10"][..])
        );
        let t = time_ticks(lo + 0.25, lo + 3.5, 10, DatePrecision::Time);
        assert_eq!(t.values, vec![lo + 1.0, lo + 2.0, lo + 3.0]);
    }

    #[test]
    fn forty_years() {
        let t = time_ticks(at("1980"), at("2020"), 10, DatePrecision::Year);
        assert_eq!((t.unit, t.step), (TimeUnit::Year, 5));
        assert_eq!(
            labels(&t),
            ["1980", "1985", "1990", "1995", "2000", "2005", "2010", "2015", "2020"]
        );
        let t = time_ticks(at("1980"), at("2020"), 4, DatePrecision::Year);
        assert_eq!(labels(&t), ["1980", "2000", "2020"]);
        let t = time_ticks(at("1983-04-02"), at("2021-11-30"), 5, DatePrecision::Day);
        assert_eq!(labels(&t), ["1990", "2000", "2010", "2020"]);
    }

    #[test]
    fn a_single_instant() {
        let t = time_ticks(at("2025"), at("2025"), 6, DatePrecision::Year);
        assert_eq!(
            (t.values, labels_owned(&t.labels)),
            (vec![at("2025")], vec!["2025"])
        );
        let day = at("2025-03-05");
        let t = time_ticks(day, day, 6, DatePrecision::Day);
        assert_eq!(t.labels, vec!["Mar 5, 2025"]);
        assert_eq!(t.values, vec![day]);
        // Not on a boundary: labelled at the data's precision.
        let t = time_ticks(day + 0.5, day + 0.5, 6, DatePrecision::Time);
        assert_eq!(
            (t.values, t.labels),
            (vec![day + 0.5], vec!["Mar 5, 2025 00:00".to_owned()])
        );
        // A span shorter than the precision with no boundary inside.
        let t = time_ticks(at("2025-03-05"), at("2025-03-09"), 6, DatePrecision::Year);
        assert_eq!(t.labels, vec!["2025"]);
    }

    fn labels_owned(labels: &[String]) -> Vec<&str> {
        labels.iter().map(String::as_str).collect()
    }

    #[test]
    fn never_finer_than_the_data() {
        use DatePrecision::*;
        let t = time_ticks(at("2020"), at("2022"), 64, Year);
        assert_eq!(
            (t.unit, labels(&t)),
            (TimeUnit::Year, vec!["2020", "2021", "2022"])
        );
        let t = time_ticks(at("2024-01"), at("2024-03"), 64, Month);
        assert_eq!(t.unit, TimeUnit::Month);
        assert_eq!(labels(&t), ["Jan 2024", "Feb", "Mar"]);
        let t = time_ticks(at("2024-01-01"), at("2024-01-03"), 64, Day);
        assert_eq!(t.unit, TimeUnit::Day);
        assert_eq!(t.values.len(), 3);
        let t = time_ticks(at("2024-01-01"), at("2024-01-03"), 64, Time);
        assert_eq!(t.unit, TimeUnit::Hour);
        for precision in [Year, Month, Day, Time] {
            let t = time_ticks(at("1990-06-01"), at("1990-06-08"), 64, precision);
            assert!(
                t.unit >= TimeUnit::finest_for(precision),
                "{precision:?}: {t:?}"
            );
        }
    }

    #[test]
    fn format_date_samples() {
        use DatePrecision::*;
        let cases: &[(f64, DatePrecision, &str)] = &[
            (at("2025"), Year, "2025"),
            (at("2025-03"), Month, "Mar 2025"),
            (at("2025-03-05"), Day, "Mar 5, 2025"),
            (at("2025-03-05T14:05"), Time, "Mar 5, 2025 14:05"),
            (at("2025-03-05T14:05:30"), Time, "Mar 5, 2025 14:05:30"),
            (at("2025-03-05T14:05:30.75"), Time, "Mar 5, 2025 14:05:30"),
            (at("1969-12-31T23:59:59"), Time, "Dec 31, 1969 23:59:59"),
            (at("2000-02-29"), Day, "Feb 29, 2000"),
            (at("0001-01-01"), Day, "Jan 1, 1"),
            (at("2025-07-14"), Year, "2025"),
            (at("2025-07-14"), Month, "Jul 2025"),
            (-62_167_219_200.0 - 86_400.0 * 365.0, Year, "\u{2212}1"),
            (f64::NAN, Day, "\u{2013}"),
            (f64::INFINITY, Year, "\u{2013}"),
        ];
        for &(seconds, precision, expected) in cases {
            assert_eq!(
                format_date(seconds, precision),
                expected,
                "{seconds} {precision:?}"
            );
        }
        // Absurd but finite: no panic, some year.
        assert!(!format_date(1e300, Time).is_empty());
        assert!(!format_date(-1e300, Day).is_empty());
    }

    #[test]
    fn calendar_round_trips() {
        let mut s = -1e11;
        while s < 1e11 {
            let (year, month, day, second) = civil_from_seconds(s);
            let c = civil(s.floor() as i64);
            assert_eq!(
                (c.year, c.month, c.day, c.second),
                (year, month, day, second),
                "{s}"
            );
            let days = (s / 86_400.0).floor() as i64;
            assert_eq!(days_from_civil(c.year, c.month, c.day), days);
            s += 123_456_789.123;
        }
    }

    #[test]
    fn brute_force_never_misbehaves() {
        use DatePrecision::*;
        let hostile = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN,
            1e300,
            -1e300,
            1e-300,
            0.0,
            -0.0,
            0.5,
            -86_400.5,
            59.0,
            3_600.0,
            1e9,
            1.7e9,
            1.7e9 + 86_400.0 * 10.0,
            1.7e9 + 86_400.0 * 400.0,
            2.9e12,
            3.5e12,
            -3.5e12,
            -6.2e10,
        ];
        let budgets = [0, 1, 2, 3, 5, 8, 12, 64, 65, usize::MAX];
        for &lo in &hostile {
            for &hi in &hostile {
                for &max in &budgets {
                    for precision in [Year, Month, Day, Time] {
                        check(lo, hi, max, precision);
                        check(lo, lo + hi.abs() * 1e-4, max, precision);
                    }
                }
            }
        }
        let mut x = 0.61_f64;
        for i in 0..3000 {
            x = (x * 7919.0 + 0.377).fract();
            let lo = 1.6e9 + (x - 0.5) * 1e9;
            let hi = lo + x * 10f64.powi(i % 11);
            let precision = [Year, Month, Day, Time][i as usize % 4];
            check(lo, hi, i as usize % 15, precision);
        }
    }

    fn check(lo: f64, hi: f64, max: usize, precision: DatePrecision) {
        let t = time_ticks(lo, hi, max, precision);
        let what = format!("{lo:e}..{hi:e} / {max} {precision:?}: {t:?}");
        assert!(t.values.len() <= max.clamp(2, MAX_TICKS), "{what}");
        assert_eq!(t.values.len(), t.labels.len(), "{what}");
        assert!(t.values.windows(2).all(|w| w[0] < w[1]), "{what}");
        assert!(t.values.iter().all(|v| v.is_finite()), "{what}");
        assert!(
            t.labels.iter().all(|l| !l.is_empty() && l.len() < 40),
            "{what}"
        );
        assert!(t.unit >= TimeUnit::finest_for(precision), "{what}");
        if lo.is_finite() && hi.is_finite() && lo.abs() < AXIS_LIMIT && hi.abs() < AXIS_LIMIT {
            assert!(!t.values.is_empty(), "{what}");
            let (a, b) = (lo.min(hi), lo.max(hi));
            assert!(t.values.iter().all(|&v| v >= a && v <= b), "{what}");
        }
    }
}
