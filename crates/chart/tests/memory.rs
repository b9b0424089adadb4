// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
// peak_alloc is a native-only dev-dependency (see Cargo.toml).
#![cfg(not(target_arch = "wasm32"))]

//! Memory in proportion to the input: reading and drawing posts that once
//! took gigabytes (the reader's dense matrices grew with the square of the
//! input) now peaks at a few megabytes, or ends early in a refusal that
//! names `data`. The allocator counts every byte this test binary holds, so
//! the cases run one after another in one test.

use peak_alloc::PeakAlloc;
use zdr_chart::Chart;

mod common;
use common::{list, post};

#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// What one post may hold at its peak, on top of what was held before it:
/// the JSON tree of small objects takes many times their text (serde_json's
/// took about 35 times; zdr_chart::json's objects are vectors, not B-trees), and
/// everything else (the card, the drawing) has to fit in the rest. Small
/// posts get a floor for the drawing's own buffers.
fn max_peak(body: usize) -> usize {
    (48 * body).max(16 * 1024 * 1024)
}

/// The frame shapes the host draws.
const SIZES: [(u32, u32); 4] = [(880, 540), (820, 400), (640, 580), (400, 360)];

/// The posts of issue 13 and their neighbours, each with what it is.
fn cases() -> Vec<(&'static str, String)> {
    let series_table = |columns: usize, rows: usize| {
        let names = list(columns, |c| format!("\"{c}\""));
        let row = |r: usize| {
            format!(
                "[\"2024-01-{:02}\",{}]",
                r % 28 + 1,
                vec!["1"; columns - 1].join(",")
            )
        };
        format!("{{\"columns\":{names},\"rows\":{}}}", list(rows, row))
    };
    vec![
        (
            "table of 8,000 distinct keys (95 KB)",
            post("table", &list(8_000, |i| format!("{{\"key{i}\":1}}"))),
        ),
        (
            "table of 200 keys over 9,000 points",
            post("table", &list(9_000, |i| format!("{{\"k{}\":1}}", i % 200))),
        ),
        (
            "16,000 one-point series with their own x (533 KB)",
            post(
                "bar",
                &format!(
                    "{{\"series\":{}}}",
                    list(16_000, |i| format!(
                        "{{\"name\":\"series {i}\",\"points\":[{{\"x\":\"c{i}\",\"y\":{i}}}]}}"
                    ))
                ),
            ),
        ),
        (
            "pie of 100 series with their own x",
            post(
                "pie",
                &format!(
                    "{{\"series\":{}}}",
                    list(100, |s| format!(
                        "{{\"points\":{}}}",
                        list(120, |i| format!("{{\"x\":\"c{s}-{i}\",\"y\":1}}"))
                    ))
                ),
            ),
        ),
        (
            "grouped table of 3,000 columns",
            post("grouped_bar", &series_table(3_000, 20)),
        ),
        (
            "timeseries table of 200 series",
            post("timeseries", &series_table(201, 400)),
        ),
        (
            "timeseries table of 200 series, 2 MB",
            post("timeseries", &series_table(201, 5_000)),
        ),
        (
            "histogram table of 1,000 columns, 2 MB",
            post("histogram", &series_table(1_001, 1_000)),
        ),
        (
            "diagonal heatmap of 500",
            post(
                "heatmap",
                &list(500, |i| {
                    format!("{{\"x\":\"{i}\",\"y\":\"{i}\",\"value\":{i}}}")
                }),
            ),
        ),
        (
            "50,000 one-value boxplot groups",
            post(
                "boxplot",
                &list(50_000, |i| format!("{{\"x\":\"g{i}\",\"y\":1}}")),
            ),
        ),
        (
            "timeline of 20,000 rows",
            post(
                "timeline",
                &list(20_000, |i| {
                    format!("{{\"label\":\"r{i}\",\"start\":2000,\"end\":2001}}")
                }),
            ),
        ),
    ]
}

#[test]
fn hostile_posts_peak_in_proportion() {
    let mut failures = Vec::new();
    for (name, text) in cases() {
        HEAP.reset_peak_usage();
        let before = HEAP.current_usage();
        let outcome = match Chart::from_json(&text) {
            Ok(chart) => {
                let theme = chart.theme(None);
                for (width, height) in SIZES {
                    let svg = chart.to_svg(width, height, &theme);
                    assert!(svg.starts_with("<svg"), "{name}: {svg}");
                }
                "drawn".to_string()
            }
            Err(error) => {
                assert!(
                    error.path.starts_with("data"),
                    "{name}: refused without a data path: {error}"
                );
                format!("refused: {error}")
            }
        };
        let peak = HEAP.peak_usage().saturating_sub(before);
        eprintln!(
            "{name}: {} KB in, peak {} KB, {outcome}",
            text.len() / 1024,
            peak / 1024
        );
        if peak > max_peak(text.len()) {
            failures.push(format!("{name}: peak {} MB", peak / (1024 * 1024)));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
