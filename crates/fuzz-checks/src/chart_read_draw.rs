//! `chart_read_draw`: the chart engine on hostile `visualization_data`.
//! The text is read, then drawn as every one of the 19 card types
//! (`CardKind::ALL`, whatever `viz_component_type` says): laid out at
//! 640 × 400 in the light theme without a hit map and at 90 × 60 in the
//! dark theme with one, each scene checked for finite coordinates and
//! written as SVG (well-formed XML, at most 2 MB); then drawn once more with
//! `Chart::draw_mapped` at 320 × 200 and device scale 2 onto plotters' SVG
//! backend (`paint::plotters`, through `paint::pixels`, the replay the
//! engine's canvas uses too) and its hit map probed; and the card is
//! described (summary and data table). Anything but a card or an error
//! naming a JSON path is a bug, as is a non-finite coordinate in a scene or
//! a page too large for its post.

use plotters::prelude::{IntoDrawingArea, SVGBackend};
use zdr_chart::describe::MAX_SUMMARY;
use zdr_chart::model::{CardKind, DataError, VisualizationData};
use zdr_chart::scene::{Item, Scene};
use zdr_chart::Chart;

/// Issue 13: no post of 64 KB or less may yield a page over 2 MB, so no one
/// drawing of it may either (the runs use `-max_len=65536`).
const MAX_SVG_BYTES: usize = 2 << 20;

/// The sizes a card is drawn at: a normal frame in the light theme, and one
/// too small for the chart (title only) in the dark theme.
const DRAWS: [(u32, u32, bool); 2] = [(640, 400, false), (90, 60, true)];

/// One input: read, drawn as every card type, described.
pub fn check(bytes: &[u8]) {
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
}

fn exercise(chart: &Chart) {
    for (width, height, dark) in DRAWS {
        let theme = chart.theme(Some(dark));
        let scene = chart.scene(f64::from(width), f64::from(height), &theme, dark);
        check_scene(&scene);
        let svg = zdr_chart::paint::svg::write(&scene);
        assert!(svg.len() <= MAX_SVG_BYTES, "{} bytes of SVG", svg.len());
        let parsed = roxmltree::Document::parse(&svg).map(|_| ());
        assert!(parsed.is_ok(), "the SVG is not well-formed XML: {parsed:?}");
    }
    // The widget's way: the scene replayed onto a plotters backend at a
    // device scale of 2, and the hit map it builds for tooltips.
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (320, 200)).into_drawing_area();
        let drawn = chart.draw_mapped(&area, &chart.theme(None), 2.0);
        let failure = drawn.as_ref().err().map(ToString::to_string);
        assert!(failure.is_none(), "drawing failed: {failure:?}");
        if let Ok(map) = drawn {
            for (x, y) in [(100.0, 80.0), (f64::NAN, 0.0), (-1.0, 1e300)] {
                let _ = map.at(x, y, 8.0);
            }
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

/// Every coordinate a painter will see is a finite number.
fn check_scene(scene: &Scene) {
    let finite = |values: &[f64]| values.iter().all(|v| v.is_finite());
    for item in &scene.items {
        let ok = match item {
            Item::Rect { rect, .. } | Item::Outline { rect, .. } => {
                finite(&[rect.x, rect.y, rect.w, rect.h])
            }
            Item::Path { points, .. } | Item::Polygon { points, .. } => {
                points.iter().all(|&(x, y)| finite(&[x, y]))
            }
            Item::Circle { center, radius, .. } => finite(&[center.0, center.1, *radius]),
            Item::Sector {
                center,
                outer,
                inner,
                start,
                end,
                ..
            } => finite(&[center.0, center.1, *outer, *inner, *start, *end]),
            Item::Text { at, font, .. } => finite(&[at.0, at.1, font.size]),
        };
        assert!(ok, "a non-finite coordinate in {item:?}");
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
