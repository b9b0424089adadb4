//! The documented examples (docs/examples), shared by the integration tests.
#![allow(dead_code, clippy::panic)]

use std::path::PathBuf;

use zdr_chart::Chart;

/// One example per card type.
pub const NAMES: [&str; 13] = [
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
];

/// The example `name`, read and checked.
pub fn example(name: &str) -> Chart {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/examples")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Chart::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}
