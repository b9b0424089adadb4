// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Hostile posts of at most 64 KB, the shapes issue 13 found expensive: each
//! is answered quickly with a chart page of at most 2 MB, or refused with a
//! 400 page that names where in visualization_data the problem is.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{Method, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;
use zdr_host::{app, Config};
use zdr_test_support::form;

const MAX_POST: usize = 64 * 1024;
const MAX_PAGE: usize = 2 * 1024 * 1024;

fn card(kind: &str, data: Value) -> String {
    json!({"viz_config": {"title": "Hostile", "viz_component_type": kind}, "data": data})
        .to_string()
}

/// About the largest `n` (at most `cap`) for which `make(n)` still posts in
/// 64 KB, and its post. Posts grow linearly in `n`: extrapolate, then step
/// down.
fn fill(make: &dyn Fn(usize) -> String, cap: usize) -> (usize, String) {
    let probe = 64.min(cap);
    let size = form(&make(probe)).len().max(1);
    let mut n = (probe * MAX_POST / size).clamp(1, cap);
    loop {
        let body = form(&make(n));
        if body.len() <= MAX_POST || n == 1 {
            return (n, body);
        }
        n = (n * 97 / 100).max(1);
    }
}

/// Makes a card of `n` repetitions of one shape.
type Make = Box<dyn Fn(usize) -> String>;

/// Each shape, with the most repetitions worth trying (the chart's caps or
/// just under them, where a refusal would hide the page size).
fn corpus() -> Vec<(&'static str, usize, Make)> {
    vec![
        (
            "table of point objects with distinct keys",
            usize::MAX,
            Box::new(|n| {
                let rows: Vec<Value> = (0..n).map(|i| json!({ format!("k{i}"): 1 })).collect();
                card("table", Value::from(rows))
            }),
        ),
        (
            "one-point series with their own x",
            usize::MAX,
            Box::new(|n| {
                let series: Vec<Value> = (0..n)
                    .map(|i| json!({"name": i, "points": [{"x": format!("x{i}"), "y": 1}]}))
                    .collect();
                card("grouped_bar", json!({ "series": series }))
            }),
        ),
        (
            "one-point series, stacked",
            usize::MAX,
            Box::new(|n| {
                let series: Vec<Value> = (0..n)
                    .map(|i| json!({"name": i, "points": [{"x": format!("x{i}"), "y": 1}]}))
                    .collect();
                card("stacked_bar", json!({ "series": series }))
            }),
        ),
        (
            "diagonal heatmap",
            usize::MAX,
            Box::new(|n| {
                let cells: Vec<Value> = (0..n)
                    .map(|i| json!({"x": format!("x{i}"), "y": format!("y{i}"), "value": i}))
                    .collect();
                card("heatmap", Value::from(cells))
            }),
        ),
        (
            "one-value boxplot groups",
            usize::MAX,
            Box::new(|n| {
                let groups: Vec<Value> = (0..n)
                    .map(|i| json!({"x": format!("g{i}"), "values": [i]}))
                    .collect();
                card("boxplot", Value::from(groups))
            }),
        ),
        (
            "pie slices",
            usize::MAX,
            Box::new(|n| {
                let slices: Vec<Value> = (0..n)
                    .map(|i| json!({"x": format!("s{i}"), "y": 1 + i % 7}))
                    .collect();
                card("pie", Value::from(slices))
            }),
        ),
        (
            "timeline rows",
            usize::MAX,
            Box::new(|n| {
                let rows: Vec<Value> = (0..n)
                    .map(|i| json!({"label": format!("r{i}"), "start": "2026-01-01", "end": "2026-01-02"}))
                    .collect();
                card("timeline", Value::from(rows))
            }),
        ),
        (
            "bars",
            usize::MAX,
            Box::new(|n| {
                let bars: Vec<Value> = (0..n)
                    .map(|i| json!({"x": format!("b{i}"), "y": i}))
                    .collect();
                card("bar", Value::from(bars))
            }),
        ),
        (
            "waterfall steps",
            usize::MAX,
            Box::new(|n| {
                let steps: Vec<Value> = (0..n)
                    .map(|i| json!({"x": format!("w{i}"), "y": (i % 5) as i64 - 2}))
                    .collect();
                card("waterfall", Value::from(steps))
            }),
        ),
        (
            "many timeseries series",
            usize::MAX,
            Box::new(|n| {
                let series: Vec<Value> = (0..n)
                    .map(|i| json!({"name": format!("s{i}"), "points": [{"x": "2026-01-01", "y": i}, {"x": "2026-01-02", "y": 1}]}))
                    .collect();
                card("timeseries", json!({ "series": series }))
            }),
        ),
        (
            "scatter points",
            usize::MAX,
            Box::new(|n| {
                let points: Vec<Value> = (0..n)
                    .map(|i| json!({"x": i, "y": (i * 7919) % 1009}))
                    .collect();
                card("scatter", Value::from(points))
            }),
        ),
        (
            "histogram values",
            usize::MAX,
            Box::new(|n| {
                let values: Vec<Value> = (0..n).map(|i| json!({"y": (i * 7919) % 1009})).collect();
                card("histogram", Value::from(values))
            }),
        ),
        (
            "choropleth codes",
            usize::MAX,
            Box::new(|n| {
                let codes: Vec<Value> = (0..n)
                    .map(|i| json!({"x": format!("C{i}"), "y": i}))
                    .collect();
                card("choropleth", Value::from(codes))
            }),
        ),
        (
            "table with many columns",
            usize::MAX,
            Box::new(|n| {
                let columns: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
                let row: Vec<u32> = (0..n as u32).collect();
                card(
                    "table",
                    json!({"columns": columns, "rows": [row.clone(), row]}),
                )
            }),
        ),
        (
            "table with many rows",
            usize::MAX,
            Box::new(|n| {
                let rows: Vec<Value> = (0..n).map(|i| json!([format!("r{i}"), i])).collect();
                card("table", json!({"columns": ["a", "b"], "rows": rows}))
            }),
        ),
        (
            "200 one-point series with their own x",
            200,
            Box::new(|n| {
                let series: Vec<Value> = (0..n)
                    .map(|i| json!({"name": i, "points": [{"x": format!("x{i}"), "y": 1}]}))
                    .collect();
                card("stacked_bar", json!({ "series": series }))
            }),
        ),
        (
            "1000 one-value boxes",
            1000,
            Box::new(|n| {
                let groups: Vec<Value> = (0..n)
                    .map(|i| json!({"x": format!("g{i}"), "values": [i, i + 1]}))
                    .collect();
                card("boxplot", Value::from(groups))
            }),
        ),
        (
            "1000 bars",
            1000,
            Box::new(|n| {
                let bars: Vec<Value> = (0..n)
                    .map(|i| json!({"x": format!("b{i}"), "y": i}))
                    .collect();
                card("bar", Value::from(bars))
            }),
        ),
        (
            "200 table columns",
            200,
            Box::new(|n| {
                let columns: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
                let row: Vec<u32> = (0..n as u32).collect();
                let rows: Vec<&Vec<u32>> = std::iter::repeat_n(&row, 40).collect();
                card("table", json!({"columns": columns, "rows": rows}))
            }),
        ),
        (
            "heatmap at 250,000 cells",
            500,
            Box::new(|n| {
                let cells: Vec<Value> = (0..n)
                    .map(|i| json!({"x": format!("{i}"), "y": format!("{}", (i * 37) % n), "value": i}))
                    .collect();
                card("heatmap", Value::from(cells))
            }),
        ),
        (
            "deeply nested arrays",
            usize::MAX,
            Box::new(|n| {
                format!(
                    "{{\"viz_config\":{{\"title\":\"x\"}},\"data\":{}{}}}",
                    "[".repeat(n),
                    "]".repeat(n)
                )
            }),
        ),
        (
            "long title",
            usize::MAX,
            Box::new(|n| {
                json!({"viz_config": {"title": "T".repeat(n), "viz_component_type": "bar"},
                       "data": [{"x": "a", "y": 1}]})
                .to_string()
            }),
        ),
        (
            "long category names",
            usize::MAX,
            Box::new(|n| {
                let bars: Vec<Value> = (0..8)
                    .map(|i| json!({"x": format!("{i}{}", "W".repeat(n)), "y": i}))
                    .collect();
                card("bar", Value::from(bars))
            }),
        ),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn posts_of_64_kb_give_pages_of_2_mb_at_most_or_a_400_with_a_path() {
    let app = app(Config {
        server: zdr_host::config::ServerConfig {
            www: "/nonexistent".into(),
            ..Default::default()
        },
        ..Default::default()
    });
    let mut failures = Vec::new();
    for (name, cap, make) in corpus() {
        let (n, body) = fill(make.as_ref(), cap);
        assert!(body.len() <= MAX_POST);
        let request = Request::builder()
            .method(Method::POST)
            .uri("/embed/hostile/")
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(CONTENT_LENGTH, body.len())
            .body(Body::from(body))
            .unwrap();
        let started = Instant::now();
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let page = response.into_body().collect().await.unwrap().to_bytes();
        let took = started.elapsed();
        let page = String::from_utf8_lossy(&page);
        let detail = page
            .split("<pre>")
            .nth(1)
            .and_then(|rest| rest.split("</pre>").next())
            .unwrap_or("");
        let ok = match status {
            StatusCode::OK => page.len() <= MAX_PAGE,
            // The message starts with the JSON path of the problem.
            StatusCode::BAD_REQUEST => {
                detail.starts_with("data")
                    || detail.starts_with("viz_config")
                    || detail.starts_with("visualization_data")
            }
            _ => false,
        };
        // Debug builds draw several times slower than the release host.
        let fast = took < Duration::from_secs(if cfg!(debug_assertions) { 10 } else { 2 });
        println!(
            "{name} (n = {n}): {status} {} bytes in {took:?} {detail:.120}",
            page.len()
        );
        if !ok || !fast {
            failures.push(format!(
                "{name} (n = {n}): {status}, {} bytes, {took:?}: {detail:.200}",
                page.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
