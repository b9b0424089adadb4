// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! area_timeseries and stacked_area_timeseries: what the fills stand on,
//! how the layers stack, and what their tooltips say.

use zdr_chart::model::Card;
use zdr_chart::scene::{Item, Scene};
use zdr_chart::Chart;

mod common;
use common::post;

fn chart(kind: &str, data: &str) -> Chart {
    Chart::from_json(&post(kind, data)).unwrap_or_else(|e| panic!("{e}"))
}

fn scene(chart: &Chart) -> Scene {
    chart.scene(800.0, 450.0, &chart.theme(None), true)
}

fn polygons(scene: &Scene) -> Vec<&Vec<(f64, f64)>> {
    scene
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Polygon { points, .. } => Some(points),
            _ => None,
        })
        .collect()
}

fn texts(scene: &Scene) -> Vec<&str> {
    scene
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn lowest(points: &[(f64, f64)]) -> f64 {
    points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn an_area_near_zero_is_filled_down_to_zero() {
    let chart = chart(
        "area_timeseries",
        r#"[{"x":"2024","y":3},{"x":"2025","y":5},{"x":"2026","y":4}]"#,
    );
    let scene = scene(&chart);
    let plot = scene.plot.unwrap();
    let fills = polygons(&scene);
    assert_eq!(fills.len(), 1);
    // Zero is the axis's foot: the plot's bottom edge.
    assert!((lowest(fills[0]) - plot.bottom()).abs() < 1e-6);
    assert!(!texts(&scene).iter().any(|t| t.contains("not to zero")));
}

#[test]
fn an_area_far_from_zero_stands_on_the_axis_foot_and_says_so() {
    let chart = chart(
        "area_timeseries",
        r#"[{"x":"2024","y":1000},{"x":"2025","y":1010},{"x":"2026","y":1004}]"#,
    );
    let scene = scene(&chart);
    let plot = scene.plot.unwrap();
    let note = texts(&scene)
        .into_iter()
        .find(|t| t.contains("not to zero"))
        .expect("the note");
    assert_eq!(note, "Filled down to 1,000, not to zero");
    assert!((lowest(polygons(&scene)[0]) - plot.bottom()).abs() < 1e-6);
}

#[test]
fn gaps_split_an_area_and_negative_values_fill_up_to_zero() {
    let chart = chart(
        "area_timeseries",
        r#"[{"x":"2020","y":-2},{"x":"2021","y":3},{"x":"2022","y":null},{"x":"2023","y":2},{"x":"2024","y":4}]"#,
    );
    let scene = scene(&chart);
    let fills = polygons(&scene);
    assert_eq!(fills.len(), 2, "a gap ends a fill");
    let hits = &scene.hits;
    assert_eq!(hits.len(), 4, "every point with a value answers");
}

#[test]
fn missing_dates_stack_as_zero_and_the_top_is_the_total() {
    let text = r#"{"series":[
        {"name":"A","points":[{"x":"2020","y":1},{"x":"2021","y":2},{"x":"2022","y":3}]},
        {"name":"B","points":[{"x":"2021","y":4}]}]}"#;
    let chart = chart("stacked_area_timeseries", text);
    let Card::Stacked(stacked) = &chart.card else {
        panic!("{:?}", chart.card)
    };
    assert_eq!(stacked.dates.len(), 3);
    assert_eq!(stacked.series[1].values, vec![0.0, 4.0, 0.0]);
    assert_eq!(stacked.total(1), 6.0);
    // The same card through the tree reader.
    let tree = Chart::from_json_tree(&post("stacked_area_timeseries", text)).unwrap();
    assert_eq!(tree.card, chart.card);

    let scene = scene(&chart);
    let layers = polygons(&scene);
    assert_eq!(layers.len(), 2);
    // The top layer's upper edge at 2021 is the total, 6.
    let hits = &scene.hits;
    let b = hits
        .iter()
        .find(|h| h.series.as_deref() == Some("B") && h.label == "2021")
        .expect("B in 2021");
    assert_eq!(b.value, "4");
    let top = layers[1].iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let a_top = layers[0].iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    assert!(top < a_top, "B stands on A");
}

#[test]
fn normalized_stacks_fill_the_plot_and_speak_in_shares() {
    let text = r#"{"series":[
        {"name":"A","points":[{"x":"2020","y":1},{"x":"2021","y":3}]},
        {"name":"B","points":[{"x":"2020","y":3},{"x":"2021","y":1}]}]}"#;
    let json = post("stacked_area_timeseries", text).replace(
        "\"viz_component_type\"",
        "\"normalize\":true,\"viz_component_type\"",
    );
    let chart = Chart::from_json(&json).unwrap();
    let scene = scene(&chart);
    let plot = scene.plot.unwrap();
    let top = polygons(&scene)[1]
        .iter()
        .map(|p| p.1)
        .fold(f64::INFINITY, f64::min);
    assert!((top - plot.y).abs() < 1e-6, "100% is the plot's top");
    let hit = scene
        .hits
        .iter()
        .find(|h| h.series.as_deref() == Some("A") && h.label == "2020")
        .cloned()
        .unwrap();
    assert_eq!(hit.value, "1 (25%)");
    assert!(
        chart.summary().contains("shares of its total"),
        "{}",
        chart.summary()
    );
    let table = chart.data_table(10);
    assert_eq!(table.columns, ["Date", "A", "B", "Total"]);
    assert_eq!(table.rows[0], ["2020", "1 (25%)", "3 (75%)", "4"]);
}

#[test]
fn a_long_stack_is_drawn_at_a_few_dates_per_pixel_column() {
    let points = |scale: u64| {
        common::list(200_000, |i| {
            format!(
                "{{\"x\":{},\"y\":{}}}",
                1_600_000_000_000u64 + i as u64 * 60_000,
                (i as u64 % 7) * scale
            )
        })
    };
    let text = format!(
        r#"{{"series":[{{"name":"A","points":{}}},{{"name":"B","points":{}}}]}}"#,
        points(1),
        points(2)
    );
    let json = post("stacked_area_timeseries", &text).replace(
        "\"viz_component_type\"",
        "\"x_time\":\"epoch_ms\",\"viz_component_type\"",
    );
    let chart = Chart::from_json(&json).unwrap();
    let scene = scene(&chart);
    let plot = scene.plot.unwrap();
    for layer in polygons(&scene) {
        // Upper and lower edges: at most four dates a column each, and the last.
        assert!(
            layer.len() <= 2 * (4 * plot.w.ceil() as usize + 1),
            "{}",
            layer.len()
        );
        assert!(layer.iter().all(|p| p.0.is_finite() && p.1.is_finite()));
    }
    assert!(scene.hits.len() <= 2 * (plot.w.ceil() as usize + 1));
}

#[test]
fn a_stack_of_one_date_is_a_column() {
    let chart = chart(
        "stacked_area_timeseries",
        r#"{"series":[{"name":"A","points":[{"x":"2020","y":1}]},{"name":"B","points":[{"x":"2020","y":2}]}]}"#,
    );
    let scene = scene(&chart);
    let plot = scene.plot.unwrap();
    let inside = |r: &zdr_chart::scene::Rect| {
        r.x >= plot.x
            && r.right() <= plot.right()
            && r.y >= plot.y
            && r.bottom() <= plot.bottom() + 1e-9
            && r.w <= 24.0
    };
    let columns = scene
        .items
        .iter()
        .filter(|item| matches!(item, Item::Rect { rect, .. } if inside(rect)))
        .count();
    assert_eq!(columns, 2);
}

#[test]
fn an_area_summary_and_table_name_it() {
    let chart = common::example("area_timeseries");
    assert!(
        chart
            .summary()
            .starts_with("Area chart, 24 points from Jan 2024 to Dec 2025"),
        "{}",
        chart.summary()
    );
    let stacked = common::example("stacked_area_timeseries");
    assert!(
        stacked.summary().starts_with("Stacked area chart, 4 series (Coal, Natural gas, Nuclear, Renewables), 15 dates from 2010 to 2024, totals from"),
        "{}",
        stacked.summary()
    );
}
