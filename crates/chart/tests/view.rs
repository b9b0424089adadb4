// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Series hidden from the legend (`View`): left out of the marks, the axes,
//! the stacks, the data table and the CSV, drawn hollow in the legend, and
//! reachable from the keyboard as the walk's first row.

use zdr_chart::model::{Card, CardKind, DatePrecision, VizConfig};
use zdr_chart::scene::{HitShape, Step, Target};
use zdr_chart::{Chart, HitMap, View};

mod common;
use common::{example, walk, NAMES};

fn hits(chart: &Chart, view: &View) -> HitMap {
    let theme = chart.theme(None);
    chart.scene_viewed(800.0, 500.0, (&theme, view), true).hits
}

fn hiding(chart: &Chart, name: &str) -> View {
    let mut view = View::default();
    assert!(
        view.set(name, false, &chart.toggled_series()),
        "{name} can be hidden"
    );
    view
}

fn series_of(map: &HitMap) -> Vec<String> {
    let mut names: Vec<String> = map.iter().filter_map(|h| h.series.clone()).collect();
    names.dedup();
    names.sort();
    names.dedup();
    names
}

#[test]
fn only_cards_of_several_series_drawn_as_series_can_hide_one() {
    for name in NAMES {
        let chart = example(name);
        let toggled = chart.toggled_series();
        let expected: &[&str] = match name {
            "grouped_bar" => &["Hardware", "Software", "Services"],
            "timeseries" => &["Web", "Mobile"],
            "stacked_bar" | "scatter" | "stacked_area_timeseries" => {
                assert!(toggled.len() >= 2, "{name}: {toggled:?}");
                continue;
            }
            _ => &[],
        };
        assert_eq!(toggled, expected, "{name}");
    }
}

#[test]
fn a_hidden_line_leaves_the_marks_and_the_axis() {
    let chart = example("timeseries");
    let all = hits(&chart, &View::default());
    assert_eq!(
        all.legend()
            .iter()
            .map(|k| (k.series.as_str(), k.shown))
            .collect::<Vec<_>>(),
        [("Web", true), ("Mobile", true)]
    );
    let view = hiding(&chart, "Web");
    let without = hits(&chart, &view);
    assert_eq!(series_of(&without), ["Mobile"]);
    assert_eq!(
        without
            .legend()
            .iter()
            .map(|k| (k.series.as_str(), k.shown))
            .collect::<Vec<_>>(),
        [("Web", false), ("Mobile", true)],
        "the entry stays, marked hidden"
    );
    // Mobile runs lower than Web (11.1k against 12.6k at their lowest):
    // without it the axis starts higher, and Web's line moves on screen.
    let without_mobile = hits(&chart, &hiding(&chart, "Mobile"));
    assert_eq!(series_of(&without_mobile), ["Web"]);
    let (before, after) = (bottom_of(&all, "Web"), bottom_of(&without_mobile, "Web"));
    assert!(
        after > before + 20.0,
        "the axis rescaled: Web's lowest point {before} -> {after}"
    );
}

/// The lowest point of `series` on screen (the largest y).
fn bottom_of(map: &HitMap, series: &str) -> f64 {
    map.iter()
        .filter(|h| h.series.as_deref() == Some(series))
        .map(|h| h.shape.centre().1)
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn hidden_bars_leave_their_groups_and_stacks() {
    let chart = example("grouped_bar");
    let width_of = |map: &HitMap| match map.iter().next().map(|h| &h.shape) {
        Some(HitShape::Rect(r)) => r.w,
        other => panic!("{other:?}"),
    };
    let all = hits(&chart, &View::default());
    let without = hits(&chart, &hiding(&chart, "Software"));
    assert_eq!(series_of(&without), ["Hardware", "Services"]);
    assert!(
        width_of(&without) > width_of(&all) * 1.3,
        "two bars share each group"
    );

    let stacked = example("stacked_bar");
    let names = stacked.toggled_series();
    let first = names.first().copied().unwrap();
    let all = hits(&stacked, &View::default());
    let without = hits(&stacked, &hiding(&stacked, first));
    assert!(!series_of(&without).iter().any(|s| s == first));
    // Shorter stacks under an axis that rescaled: the stacks still reach
    // near the top of the plot.
    let top = |map: &HitMap| {
        map.iter()
            .map(|h| h.shape.centre().1)
            .fold(f64::INFINITY, f64::min)
    };
    assert!((top(&without) - top(&all)).abs() < 120.0);
}

#[test]
fn a_hidden_layer_leaves_the_stack_and_its_total() {
    let chart = example("stacked_area_timeseries");
    let names = chart.toggled_series();
    let hidden = names.first().copied().unwrap();
    let view = hiding(&chart, hidden);
    let table = chart.data_table_viewed(1000, &view);
    assert!(!table.columns.iter().any(|c| c == hidden));
    let all = chart.data_table(1000);
    let total_at = |t: &zdr_chart::DataTable| t.rows[0].last().cloned().unwrap();
    assert_ne!(
        total_at(&table),
        total_at(&all),
        "the total is of the layers shown"
    );
    assert!(!series_of(&hits(&chart, &view)).iter().any(|s| s == hidden));
}

#[test]
fn the_table_and_the_csv_leave_hidden_series_out() {
    let chart = example("timeseries");
    let view = hiding(&chart, "Web");
    assert_eq!(
        chart.data_table_viewed(5, &view).columns,
        ["Date", "Mobile"]
    );
    assert!(chart
        .to_csv(&view)
        .starts_with("Date,Mobile\r\n2025-01-01,"));
    let scatter = example("scatter");
    let names = scatter.toggled_series();
    let view = hiding(&scatter, names[0]);
    assert!(!scatter
        .to_csv(&view)
        .contains(&format!("\r\n{},", names[0])));
}

#[test]
fn the_legend_is_the_first_row_of_the_keyboard_walk() {
    let chart = example("timeseries");
    let map = hits(&chart, &View::default());
    let walk = map.walk();
    assert_eq!(walk.len(), map.len() + 2);
    let start = walk.step(None, Step::Next).unwrap();
    assert!(
        matches!(map.target(start), Some(Target::Mark(h)) if h.series.as_deref() == Some("Web"))
    );
    let up = walk.step(Some(start), Step::Up).unwrap();
    let Some(Target::Legend(key)) = map.target(up) else {
        panic!("up from the first series reaches the legend");
    };
    assert_eq!(key.series, "Web");
    let right = walk.step(Some(up), Step::Next).unwrap();
    assert!(matches!(map.target(right), Some(Target::Legend(k)) if k.series == "Mobile"));
    let down = walk.step(Some(right), Step::Down).unwrap();
    assert!(matches!(map.target(down), Some(Target::Mark(_))));
}

/// A random walk of `n` points, one a minute from 2024.
fn random_walk(n: usize) -> Chart {
    Chart {
        config: VizConfig {
            title: "Random walk".into(),
            ..VizConfig::default()
        },
        kind: CardKind::Timeseries,
        card: Card::Timeseries {
            series: vec![walk("walk", n, 0x9E37_79B9_7F4A_7C15)],
            precision: DatePrecision::Time,
        },
    }
}

fn zoomed(x: (f64, f64), y: Option<(f64, f64)>) -> View {
    let mut view = View::default();
    assert!(view.zoom(Some(x), y));
    view
}

#[test]
fn a_zoomed_million_point_line_shows_the_detail_of_its_range() {
    let chart = random_walk(1_000_000);
    let (lo, hi) = (
        1_704_067_200.0 + 60.0 * 500_000.0,
        1_704_067_200.0 + 60.0 * 502_000.0,
    );
    let theme = chart.theme(None);
    let whole = chart.scene_viewed(800.0, 500.0, (&theme, &View::default()), true);
    let view = zoomed((lo, hi), None);
    let zoomed_scene = chart.scene_viewed(800.0, 500.0, (&theme, &view), true);
    let frame = *zoomed_scene.hits.zoom_window().expect("a line zooms");
    assert_eq!(frame.x, (lo, hi), "the x axis is the zoom's range");
    assert!((frame.x_of(frame.plot.x) - lo).abs() < 1e-6);
    // The 2,000 minutes are about two pixel columns of the whole line, and
    // the whole plot zoomed: hundreds of real points, not a handful.
    let in_range = |scene: &zdr_chart::scene::Scene, whole_frame: bool| {
        let frame = scene.hits.zoom_window().copied().unwrap();
        scene
            .hits
            .iter()
            .filter(|h| {
                let x = frame.x_of(h.shape.centre().0);
                !whole_frame || (x >= lo && x <= hi)
            })
            .count()
    };
    let (before, after) = (in_range(&whole, true), in_range(&zoomed_scene, false));
    assert!(
        before < 20 && after > 1_000,
        "points of the range: {before} whole, {after} zoomed"
    );
    // Every line drawn stays inside the plot.
    let plot = zoomed_scene.plot.unwrap();
    let mut lines = 0;
    for (role, item) in zoomed_scene.placed() {
        if let (zdr_chart::scene::Role::Mark, zdr_chart::scene::Item::Path { points, .. }) =
            (role, item)
        {
            lines += 1;
            for &(x, y) in points {
                let inside = x >= plot.x - 0.5
                    && x <= plot.right() + 0.5
                    && y >= plot.y - 0.5
                    && y <= plot.bottom() + 0.5;
                assert!(inside, "({x}, {y}) outside {plot:?}");
            }
        }
    }
    assert!(lines > 0);
    // The y axis fits the zoomed points: they span most of the plot's height.
    let ys: Vec<f64> = zoomed_scene
        .hits
        .iter()
        .map(|h| h.shape.centre().1)
        .collect();
    let (top, bottom) = ys
        .iter()
        .fold((f64::MAX, f64::MIN), |(t, b), &y| (t.min(y), b.max(y)));
    assert!(bottom - top > plot.h * 0.6, "{top}..{bottom} in {plot:?}");
}

#[test]
fn a_scatter_zooms_in_x_and_y() {
    let chart = example("scatter");
    let theme = chart.theme(None);
    let whole = chart.scene_viewed(800.0, 500.0, (&theme, &View::default()), true);
    let frame = *whole.hits.zoom_window().unwrap();
    let (x0, x1) = frame.x;
    let (y0, y1) = frame.y.unwrap();
    let (x, y) = (
        (x0 + (x1 - x0) * 0.25, x0 + (x1 - x0) * 0.5),
        (y0 + (y1 - y0) * 0.25, y0 + (y1 - y0) * 0.75),
    );
    let view = zoomed(x, Some(y));
    let scene = chart.scene_viewed(800.0, 500.0, (&theme, &view), true);
    let frame = *scene.hits.zoom_window().unwrap();
    assert_eq!((frame.x, frame.y), (x, Some(y)));
    assert!(!scene.hits.is_empty() && scene.hits.len() < whole.hits.len());
    for hit in scene.hits.iter() {
        let (px, py) = hit.shape.centre();
        let (vx, vy) = (frame.x_of(px), frame.y_of(py).unwrap());
        assert!(
            vx >= x.0 - 1e-9 && vx <= x.1 + 1e-9 && vy >= y.0 - 1e-9 && vy <= y.1 + 1e-9,
            "{hit:?}"
        );
    }
}

#[test]
fn zooms_that_are_not_ranges_are_the_whole_data() {
    let mut view = View::default();
    assert!(!view.zoom(Some((5.0, 5.0)), None));
    assert!(!view.zoom(Some((6.0, 5.0)), Some((f64::NAN, 1.0))));
    assert!(!view.is_zoomed());
    assert!(view.zoom(Some((1.0, 2.0)), None));
    view.keep_only(&[]);
    assert!(!view.is_zoomed(), "new data: the whole of them");
    for name in ["bar", "pie", "table", "choropleth"] {
        let chart = example(name);
        let theme = chart.theme(None);
        assert!(
            chart
                .scene_viewed(800.0, 500.0, (&theme, &zoomed((1.0, 2.0), None)), true)
                .hits
                .zoom_window()
                .is_none(),
            "{name}"
        );
    }
}
