//! The documented examples (docs/examples), shared by the integration tests.
#![allow(dead_code, clippy::panic)]

use zdr_chart::model::Series;
use zdr_chart::Chart;

/// One example per card type.
pub const NAMES: [&str; 19] = [
    "bar",
    "grouped_bar",
    "stacked_bar",
    "timeseries",
    "pie",
    "scatter",
    "boxplot",
    "heatmap",
    "timeline",
    "waterfall",
    "histogram",
    "table",
    "choropleth",
    "area_timeseries",
    "stacked_area_timeseries",
    "map",
    "bubble_map",
    "treemap",
    "top_level_metric",
];

/// The example `name`, read and checked.
pub fn example(name: &str) -> Chart {
    Chart::from_json(&zdr_test_support::example(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A post of `kind` with `data` (JSON text) and a one-letter title.
pub fn post(kind: &str, data: &str) -> String {
    format!(
        "{{\"viz_config\":{{\"title\":\"t\",\"viz_component_type\":\"{kind}\"}},\"data\":{data}}}"
    )
}

/// A JSON array of `count` items, each written by `item`.
pub fn list(count: usize, item: impl Fn(usize) -> String) -> String {
    let items: Vec<String> = (0..count).map(item).collect();
    format!("[{}]", items.join(","))
}

/// A random walk of `n` points, one a minute.
pub fn walk(name: &str, n: usize, seed: u64) -> Series {
    let mut state = seed;
    let mut y = 1_000.0;
    let (mut xs, mut ys) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        y += (state % 2001) as f64 / 1000.0 - 1.0;
        xs.push(1_704_067_200.0 + 60.0 * i as f64);
        ys.push(y);
    }
    Series {
        name: name.into(),
        xs,
        ys,
        given: n,
    }
}
