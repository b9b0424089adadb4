//! The chart engine on hostile `visualization_data`: the text is read, then
//! drawn as every one of the 13 card types (whatever `viz_component_type`
//! says), at a normal and a cramped size, in both themes, with and without a
//! hit map, and described (summary and data table). Anything but a card or
//! an error naming a JSON path is a bug, as is a page too large for its post.

#![no_main]

use libfuzzer_sys::fuzz_target;
use plotters::prelude::{IntoDrawingArea, SVGBackend};
use zdr_chart::describe::MAX_SUMMARY;
use zdr_chart::model::{CardKind, DataError, VisualizationData};
use zdr_chart::{Chart, DrawError};

/// Issue 13: no post of 64 KB or less may yield a page over 2 MB, so no one
/// drawing of it may either (the runs use `-max_len=65536`).
const MAX_SVG_BYTES: usize = 2 << 20;

/// The sizes a card is drawn at: a normal frame in the light theme, and one
/// too small for the chart (title only) in the dark theme.
const DRAWS: [(u32, u32, bool); 2] = [(640, 400, false), (90, 60, true)];

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let mut data = match VisualizationData::from_json(text) {
        Ok(data) => data,
        Err(error) => return check_error(&error),
    };
    // Every card type on the same data: a hostile post may name any of them.
    for kind in CardKind::ALL {
        data.config.kind = Some(kind);
        match Chart::from_data(&data) {
            Ok(chart) => exercise(&chart),
            Err(error) => check_error(&error),
        }
    }
});

fn exercise(chart: &Chart) {
    for (width, height, dark) in DRAWS {
        let theme = chart.theme(Some(dark));
        match chart.to_svg(width, height, &theme) {
            Ok(svg) => {
                assert!(svg.starts_with("<svg"), "not an SVG document");
                assert!(svg.len() <= MAX_SVG_BYTES, "{} bytes of SVG", svg.len());
            }
            Err(error) => check_draw_error(&error),
        }
    }
    // The hit map the widget builds for tooltips, at a device scale of 2.
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (320, 200)).into_drawing_area();
        match chart.draw_mapped(&area, &chart.theme(None), 2.0) {
            Ok(map) => {
                for (x, y) in [(100.0, 80.0), (f64::NAN, 0.0), (-1.0, 1e300)] {
                    let _ = map.at(x, y, 8.0);
                }
            }
            Err(error) => check_draw_error(&error),
        }
    }
    let summary = chart.summary();
    assert!(!summary.is_empty(), "empty summary");
    assert!(summary.chars().count() <= MAX_SUMMARY, "summary too long");
    let table = chart.data_table(5);
    assert!(table.rows.len() <= 5 && table.rows.len() <= table.total_rows);
    for row in &table.rows {
        assert_eq!(row.len(), table.columns.len(), "ragged data table");
    }
}

/// A card refused while drawing (a cap) is fine; a backend failure is not:
/// the SVG backend writes to memory and has no reason to fail.
fn check_draw_error(error: &DrawError) {
    assert!(
        !matches!(error, DrawError::Backend(_)),
        "drawing failed: {error}"
    );
    if let DrawError::Data(error) = error {
        check_error(error);
    }
}

/// An error must say where (a path under the document) and what.
fn check_error(error: &DataError) {
    let path = error.path.as_str();
    let rooted = ["visualization_data", "viz_config", "data"]
        .iter()
        .any(|root| {
            path == *root
                || path
                    .strip_prefix(root)
                    .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
        });
    assert!(rooted, "error path {path:?} is not rooted");
    assert!(
        !error.message.trim().is_empty(),
        "empty message at {path:?}"
    );
}
