//! A long line read in blocks ([`LongLine`], local mode's way for typed
//! arrays) is the same card as the whole line read at once: the same kept
//! points, the same precision, the same count of values.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
use zdr_chart::model::{DatePrecision, GivenSeries, GivenX, LongLine};
use zdr_chart::Chart;

const EPOCH: &str = r#"{"title":"T","viz_component_type":"timeseries","x_time":"epoch_ms"}"#;
const DATES: &str = r#"{"title":"T","viz_component_type":"timeseries"}"#;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

struct Line {
    x: Vec<f64>,
    y: Vec<f64>,
}

fn line(n: usize, step: f64, gaps: f64, ties: bool, seed: u64) -> Line {
    let mut r = Lcg(seed);
    let start = 1_704_067_200_000.0; // 2024-01-01
    let mut v = 0.0;
    let (mut x, mut y) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        let at = if ties { (i / 3) as f64 } else { i as f64 };
        x.push(start + at * step);
        v += r.next() - 0.5;
        y.push(if r.next() < gaps {
            if r.next() < 0.5 {
                f64::NAN
            } else {
                f64::INFINITY
            }
        } else if r.next() < 0.01 {
            -0.0
        } else {
            v
        });
    }
    Line { x, y }
}

fn whole(config: &str, line: &Line, dates: Option<DatePrecision>) -> Option<Chart> {
    let x = match dates {
        Some(p) => GivenX::Dates(line.x.clone(), p),
        None => GivenX::Numbers(line.x.clone()),
    };
    let one = GivenSeries {
        name: None,
        x,
        y: line.y.clone(),
        kept_from: None,
    };
    Chart::from_columns(config, &mut || vec![one.clone()])
}

/// Read in blocks of varying sizes (1 point up to 70,000).
fn in_blocks(
    line: &Line,
    dates: Option<DatePrecision>,
    seed: u64,
) -> Result<Option<GivenSeries>, &'static str> {
    let n = line.x.len();
    let mut long = LongLine::new(n, line.x[0], line.x[n - 1], dates, (Vec::new(), Vec::new()))
        .ok_or("not long")?;
    let mut r = Lcg(seed);
    let mut at = 0;
    while at < n {
        let size = 1 + (r.next() * 70_000.0) as usize;
        let end = (at + size).min(n);
        let mut xs = line.x[at..end].to_vec();
        if !long.read(&mut xs, &line.y[at..end]) {
            return Err("no date");
        }
        at = end;
    }
    Ok(long.finish(None))
}

fn same(config: &str, line: &Line, dates: Option<DatePrecision>, label: &str) {
    let kept = in_blocks(line, dates, 42).unwrap_or_else(|e| panic!("{label}: {e}"));
    let kept = kept.unwrap_or_else(|| panic!("{label}: not kept"));
    assert!(matches!(kept.x, GivenX::Dates(..)), "{label}: dates");
    let from_blocks = Chart::from_columns(config, &mut || vec![kept.clone()]);
    let from_whole = whole(config, line, dates);
    assert!(from_whole.is_some(), "{label}: the whole line reads");
    // Debug text: NaN (a gap) is never == NaN, but prints alike.
    assert!(
        from_blocks == from_whole || format!("{from_blocks:?}") == format!("{from_whole:?}"),
        "{label}"
    );
}

#[test]
fn epoch_milliseconds_in_blocks_are_the_whole_line() {
    same(
        EPOCH,
        &line(300_000, 60_000.0, 0.0, false, 1),
        None,
        "300k minutes",
    );
    same(
        EPOCH,
        &line(270_000, 86_400_000.0, 0.003, false, 7),
        None,
        "270k days with gaps",
    );
    same(
        EPOCH,
        &line(270_000, 60_000.0, 0.3, false, 23),
        None,
        "gaps everywhere",
    );
    same(
        EPOCH,
        &line(270_000, 60_000.0, 0.001, true, 3),
        None,
        "ties and rare gaps",
    );
    same(
        EPOCH,
        &line(270_000, 0.0, 0.0, false, 5),
        None,
        "one instant",
    );
    same(
        EPOCH,
        &line(32_769, 1_000.0, 0.05, false, 9),
        None,
        "just past 32,768",
    );
    same(
        EPOCH,
        &line(1_000_000, 60_000.0, 0.0001, false, 11),
        None,
        "a million",
    );
}

#[test]
fn dates_read_by_the_page_in_blocks_are_the_whole_line() {
    let mut days = line(100_000, 86_400_000.0, 0.01, false, 13);
    days.x.iter_mut().for_each(|x| *x /= 1000.0);
    same(
        DATES,
        &days,
        Some(DatePrecision::Day),
        "100k days as seconds",
    );
    let mut minutes = line(40_000, 60_000.0, 0.0, true, 17);
    minutes.x.iter_mut().for_each(|x| *x /= 1000.0);
    same(
        DATES,
        &minutes,
        Some(DatePrecision::Time),
        "minutes with ties",
    );
}

#[test]
fn short_lines_are_copied_whole() {
    let short = line(32_768, 60_000.0, 0.0, false, 1);
    assert!(LongLine::new(
        short.x.len(),
        short.x[0],
        short.x[32_767],
        None,
        (Vec::new(), Vec::new())
    )
    .is_none());
}

#[test]
fn out_of_order_lines_are_copied_whole_and_sorted_there() {
    let mut mixed = line(50_000, 60_000.0, 0.0, false, 19);
    mixed.x.swap(10, 20_000);
    assert_eq!(in_blocks(&mixed, None, 3), Ok(None));
    // The reader then gets it whole, and sorts it.
    assert!(whole(EPOCH, &mixed, None).is_some());
}

#[test]
fn a_number_that_is_no_date_stops_the_reading() {
    for bad in [f64::NAN, f64::INFINITY, 1e300, -1e300] {
        for at in [0, 25_000, 49_999] {
            let mut broken = line(50_000, 60_000.0, 0.0, false, 29);
            broken.x[at] = bad;
            assert_eq!(in_blocks(&broken, None, 5), Err("no date"), "{bad} at {at}");
            // Out of order too: still a refusal, not a copy.
            broken.x.swap(100, 200);
            assert_eq!(
                in_blocks(&broken, None, 5),
                Err("no date"),
                "{bad} at {at}, out of order"
            );
            assert!(
                whole(EPOCH, &broken, None).is_none(),
                "the whole reader refuses it too"
            );
        }
    }
}

#[test]
fn the_first_and_last_dates_are_dates_exactly_where_the_whole_reader_says() {
    const FIRST: f64 = -62_167_219_200_000.0; // 0000-01-01
    const LAST: f64 = 253_402_300_799_999.0; // 9999-12-31T23:59:59.999
    for (first, last, dates) in [
        (FIRST, LAST, true),
        (FIRST - 1.0, LAST, false),
        (FIRST, LAST + 1.0, false),
    ] {
        let n = 40_000;
        let step = (last / 2.0 - first / 2.0) / (n as f64 - 1.0) * 2.0;
        let mut x: Vec<f64> = (0..n)
            .map(|i| (first + step * i as f64).min(last))
            .collect();
        x[0] = first;
        x[n - 1] = last;
        let y = (0..n).map(|i| (i % 7) as f64).collect();
        let line = Line { x, y };
        let read = in_blocks(&line, None, 7);
        assert_eq!(read.is_ok(), dates, "{first} .. {last}");
        assert_eq!(
            whole(EPOCH, &line, None).is_some(),
            dates,
            "the whole reader: {first} .. {last}"
        );
        if dates {
            same(EPOCH, &line, None, "from the first date to the last");
        }
    }
}

// proptest takes randomness from the OS: native only (as tests/hostile.rs).
#[cfg(not(target_arch = "wasm32"))]
mod hostile {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(24),
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// Hostile lines in random blocks: never a panic, and each outcome is
        /// the whole reader's: the same card, a refusal where it refuses, or a
        /// line out of order left to be copied whole.
        #[test]
        fn hostile_lines_in_blocks_agree_with_the_whole_reader(
            seed in proptest::prelude::any::<u64>(),
            n in 32_769usize..36_000,
            harm in 0u8..7,
            at in 0.0f64..1.0,
            blocks in proptest::prelude::any::<u64>(),
        ) {
            let mut line = line(n, 60_000.0, 0.01, harm == 6, seed);
            let i = ((n - 1) as f64 * at) as usize;
            match harm {
                1 => line.x[i] = f64::NAN,
                2 => line.x[i] = 1e300,
                3 => line.x.swap(i, n - 1 - i),
                4 => line.x[i] = -0.0,
                5 => line.x.iter_mut().for_each(|x| *x = -0.0),
                _ => {}
            }
            let whole = whole(EPOCH, &line, None);
            match in_blocks(&line, None, blocks) {
                Ok(Some(kept)) => {
                    let from_blocks = Chart::from_columns(EPOCH, &mut || vec![kept.clone()]);
                    proptest::prop_assert_eq!(format!("{from_blocks:?}"), format!("{whole:?}"));
                }
                // Out of order: copied whole, which reads it (or refuses it) itself.
                Ok(None) => {}
                Err(_) => proptest::prop_assert!(whole.is_none(), "refused in blocks, read whole"),
            }
        }
    }
}
