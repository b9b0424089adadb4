// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
// peak_alloc is a native-only dev-dependency (see Cargo.toml).
#![cfg(not(target_arch = "wasm32"))]

//! The heap and time of reading a large timeseries and a large scatter
//! card, through the streaming reader and, for comparison, the tree
//! reader. The allocator counts every byte of this binary, so the cases
//! run one after another in one test. `STREAM_POINTS` (default 200,000)
//! sets the size; the figures of issue 15 are at 1,000,000 in release:
//! `STREAM_POINTS=1000000 cargo test --release -p zdr-chart --test
//! stream_memory -- --nocapture`.

use std::time::Instant;

use peak_alloc::PeakAlloc;
use zdr_chart::model::{civil_from_seconds, DataError};
use zdr_chart::Chart;

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// The most points a long line keeps (four per part, and the two ends).
const KEPT: usize = zdr_chart::reduce::KEPT_POINTS + 4;

fn timeseries(points: usize) -> String {
    let mut text = String::from(
        r#"{"viz_config": {"title": "Load", "viz_component_type": "timeseries"}, "data": ["#,
    );
    for i in 0..points {
        let (y, m, d, s) = civil_from_seconds(1.7e9 + 60.0 * i as f64);
        let (h, min) = (s / 3600, s / 60 % 60);
        let sep = if i == 0 { "" } else { "," };
        text.push_str(&format!(
            "{sep}{{\"x\":\"{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:00Z\",\"y\":{}}}",
            (i * 7919) % 1000
        ));
    }
    text.push_str("]}");
    text
}

fn scatter(points: usize) -> String {
    let mut text = String::from(r#"{"viz_config": {"title": "Cloud"}, "data": ["#);
    for i in 0..points {
        let sep = if i == 0 { "" } else { "," };
        text.push_str(&format!(
            "{sep}{{\"x\":{}.{},\"y\":{}}}",
            (i * 7919) % 10007,
            i % 100,
            (i * 104_729) % 99_991
        ));
    }
    text.push_str("]}");
    text
}

/// Peak heap in bytes beyond what was held before, and seconds.
fn measure(read: impl FnOnce() -> Result<Chart, DataError>) -> (usize, f64, Chart) {
    HEAP.reset_peak_usage();
    let before = HEAP.current_usage();
    let start = Instant::now();
    let chart = read().unwrap();
    let seconds = start.elapsed().as_secs_f64();
    (HEAP.peak_usage().saturating_sub(before), seconds, chart)
}

/// Columns passed beside the text are moved into the card, not copied:
/// reading them takes next to nothing beyond them.
fn passed_columns_are_moved_not_copied() {
    let points = 200_000;
    let text = r#"{"viz_config": {"title": "Load", "x_time": "epoch_ms"}, "data": {"series": [{"name": "a", "x": {"$column": 1}, "y": {"$column": 0}}]}}"#;
    for reversed in [false, true] {
        let mut xs: Vec<f64> = (0..points).map(|i| 1.7e12 + 60_000.0 * i as f64).collect();
        if reversed {
            xs.reverse();
        }
        let ys: Vec<f64> = (0..points).map(|i| (i % 1000) as f64).collect();
        let (peak, _, chart) = measure(|| Chart::from_json_with_columns(text, vec![ys, xs]));
        match &chart.card {
            zdr_chart::model::Card::Timeseries { series, .. } => {
                assert_eq!(series[0].given, points);
                assert!(series[0].xs.len() <= KEPT);
                assert!(series[0].xs.windows(2).all(|w| w[0] <= w[1]));
            }
            other => panic!("{other:?}"),
        }
        // Sorting copies (and ranks) once; in order, nothing is copied but
        // the points kept for pixels.
        let kept = 16 * KEPT;
        let limit = if reversed {
            5 * 8 * points
        } else {
            kept + 64 * 1024
        };
        assert!(peak <= limit, "reversed {reversed}: peak {peak}");
    }
}

/// One test: the allocator counts every thread of the binary.
#[test]
fn large_cards_peak_at_about_their_columns() {
    passed_columns_are_moved_not_copied();
    let points: usize = std::env::var("STREAM_POINTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200_000);
    // Two columns of f64.
    let columns = 16 * points;
    let columnar = {
        let list = |f: &dyn Fn(usize) -> String| (0..points).map(f).collect::<Vec<_>>().join(",");
        format!(
            r#"{{"viz_config": {{"title": "Load", "x_time": "epoch_ms"}}, "data": {{"x": [{}], "y": [{}]}}}}"#,
            list(&|i| (1_700_000_000_000u64 + 60_000 * i as u64).to_string()),
            list(&|i| ((i * 7919) % 1000).to_string()),
        )
    };
    for (name, text) in [
        ("timeseries", timeseries(points)),
        ("scatter", scatter(points)),
        ("columnar epoch-ms timeseries", columnar),
    ] {
        let (tree_peak, tree_seconds, tree) = measure(|| Chart::from_json_tree(&text));
        drop(tree);
        let (peak, seconds, chart) = measure(|| Chart::from_json(&text));
        let mb = |bytes: usize| bytes as f64 / 1e6;
        println!(
            "{name}, {points} points, {:.1} MB of text, columns {:.1} MB: tree reader peak {:.1} MB in {:.3} s, streaming peak {:.1} MB in {:.3} s",
            mb(text.len()),
            mb(columns),
            mb(tree_peak),
            tree_seconds,
            mb(peak),
            seconds
        );
        match &chart.card {
            zdr_chart::model::Card::Timeseries { series, .. } => {
                assert_eq!(series[0].given, points, "{name}");
                assert!(series[0].xs.len() <= KEPT.min(points), "{name}");
            }
            zdr_chart::model::Card::Scatter(series) => {
                assert_eq!(series[0].xs.len(), points, "{name}")
            }
            other => panic!("{name}: {other:?}"),
        }
        // The columns, with room for the one sort a timeseries may need;
        // the tree took many times more.
        assert!(
            peak * 2 <= columns * 3,
            "{name}: peak {peak} for {columns} of columns"
        );
    }
}
