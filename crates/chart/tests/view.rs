// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Series hidden from the legend (`View`): left out of the marks, the axes,
//! the stacks, the data table and the CSV, drawn hollow in the legend, and
//! reachable from the keyboard as the walk's first row.

use zdr_chart::scene::{HitShape, Step, Target};
use zdr_chart::{Chart, HitMap, View};

mod common;
use common::{example, NAMES};

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
