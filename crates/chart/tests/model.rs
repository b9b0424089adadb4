// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The documented examples (docs/examples/*.json) and the error paths of the contract.

use serde_json::json;
use zdr_chart::model::{Card, CardKind, DatePrecision, VisualizationData};

fn example(name: &str) -> VisualizationData {
    VisualizationData::from_json(&zdr_test_support::example(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn card(name: &str) -> Card {
    let data = example(name);
    assert_eq!(data.kind().as_str(), name, "viz_component_type of {name}");
    data.card().unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn error(value: serde_json::Value) -> String {
    match VisualizationData::from_json(&value.to_string()).and_then(|data| data.card()) {
        Ok(card) => panic!("expected an error, got {card:?}"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn there_is_one_example_per_card_type() {
    for kind in CardKind::ALL {
        card(kind.as_str());
    }
}

#[test]
fn categorical_examples_keep_categories_and_series() {
    let Card::Categorical(bar) = card("bar") else {
        panic!("bar")
    };
    assert_eq!(
        bar.categories,
        ["North", "South", "East", "West", "Central"]
    );
    assert_eq!(bar.series.len(), 1);
    assert_eq!(bar.series[0].values[3], 52875.0);

    let Card::Categorical(grouped) = card("grouped_bar") else {
        panic!("grouped")
    };
    assert_eq!(grouped.categories, ["Q1", "Q2", "Q3", "Q4"]);
    let names: Vec<_> = grouped.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Hardware", "Software", "Services"]);

    let Card::Categorical(stacked) = card("stacked_bar") else {
        panic!("stacked")
    };
    assert_eq!(stacked.categories.len(), 5, "one per table row");
    assert_eq!(stacked.series.len(), 4, "one per value column");
    assert_eq!(stacked.series[3].name, "Solar");

    let Card::Categorical(pie) = card("pie") else {
        panic!("pie")
    };
    assert_eq!(pie.categories.len(), 5);
    let Card::Categorical(map) = card("choropleth") else {
        panic!("map")
    };
    assert_eq!(map.categories.len(), 25);
    let Card::Categorical(waterfall) = card("waterfall") else {
        panic!("waterfall")
    };
    assert_eq!(waterfall.series[0].values[3], -260000.0);
}

#[test]
fn timeseries_is_columnar_sorted_and_keeps_gaps() {
    let Card::Timeseries { series, precision } = card("timeseries") else {
        panic!("timeseries")
    };
    assert_eq!(precision, DatePrecision::Day);
    assert_eq!(series.len(), 2);
    assert_eq!(series[0].xs.len(), 24);
    assert!(series[0].xs.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(
        series[1].ys.iter().filter(|y| y.is_nan()).count(),
        1,
        "the null is a gap"
    );
}

#[test]
fn other_examples_read_as_their_types() {
    let Card::Scatter(scatter) = card("scatter") else {
        panic!("scatter")
    };
    assert_eq!(
        scatter.iter().map(|s| s.xs.len()).collect::<Vec<_>>(),
        [25, 25]
    );

    let Card::Boxplot(boxes) = card("boxplot") else {
        panic!("boxplot")
    };
    assert_eq!(boxes.len(), 3);
    assert_eq!(boxes[0].median, 4.0);
    assert_eq!(boxes[0].outliers, [12.0]);
    assert_eq!(boxes[0].high_whisker, 7.0);

    let Card::Heatmap { xs, ys, values } = card("heatmap") else {
        panic!("heatmap")
    };
    assert_eq!((xs.len(), ys.len(), values.len()), (12, 7, 84));

    let Card::Timeline { items, .. } = card("timeline") else {
        panic!("timeline")
    };
    assert_eq!(items.len(), 5);
    assert!(items.iter().all(|item| item.end >= item.start));

    let Card::Histogram(values) = card("histogram") else {
        panic!("histogram")
    };
    assert_eq!(values.len(), 200);

    let Card::Table { columns, rows } = card("table") else {
        panic!("table")
    };
    assert_eq!(columns, ["Account", "Country", "Revenue", "Growth"]);
    assert_eq!(rows[4], ["Hooli", "US", "510000", ""]);
}

#[test]
fn the_spec_shape_reads_as_a_bar_chart() {
    let data = VisualizationData::from_json(
        &json!({
            "viz_config": {"title": "Spec shape", "unknown_key": [1, 2]},
            "data": [{"x": "a", "y": 1}, {"x": "b", "y": 2.5}],
            "extra": true
        })
        .to_string(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(data.kind(), CardKind::Bar);
}

#[test]
fn the_type_is_inferred_from_the_data() {
    let infer = |name: &str| {
        let mut data = example(name);
        data.config.kind = None;
        data.kind()
    };
    assert_eq!(infer("bar"), CardKind::Bar);
    assert_eq!(infer("grouped_bar"), CardKind::GroupedBar);
    assert_eq!(infer("timeseries"), CardKind::Timeseries);
    assert_eq!(
        infer("stacked_bar"),
        CardKind::Timeseries,
        "its x are years"
    );
    assert_eq!(infer("scatter"), CardKind::Scatter);
    assert_eq!(infer("boxplot"), CardKind::Boxplot);
    assert_eq!(infer("heatmap"), CardKind::Heatmap);
    assert_eq!(infer("timeline"), CardKind::Timeline);
    assert_eq!(infer("histogram"), CardKind::Histogram);
    assert_eq!(infer("table"), CardKind::Table);
}

#[test]
fn errors_name_the_json_path() {
    let cases = [
        (
            json!({"viz_config": {"title": "t"}, "data": [{"x": "a", "y": 1}, {"x": "b", "y": 2}, {"x": "c", "y": 3}, {"x": "d", "y": "abc"}]}),
            "data[3].y: expected a number, found \"abc\"",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "timeseries"},
                   "data": {"series": [{"name": "a", "points": []}, {"name": "b", "points": [{"x": "2024-01", "y": 1}, {"x": "May", "y": 2}]}]}}),
            "data.series[1].points[1].x: expected a date such as \"2024-05-01\", \"2024-05\", \"2024\" or \"2024-05-01T12:00:00Z\", found \"May\"",
        ),
        (json!({"viz_config": {}, "data": []}), "viz_config.title: is required"),
        (json!({"viz_config": {"title": 5}, "data": []}), "viz_config.title: expected a string, found the number 5"),
        (json!({"data": []}), "viz_config: is required"),
        (json!({"viz_config": {"title": "t"}}), "data: is required"),
        (json!([]), "visualization_data: expected an object with \"viz_config\" and \"data\", found an array"),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "line"}, "data": []}),
            "viz_config.viz_component_type: must be one of \"bar\", \"grouped_bar\", \"stacked_bar\", \"timeseries\", \"pie\", \"choropleth\", \"scatter\", \"boxplot\", \"heatmap\", \"timeline\", \"waterfall\", \"histogram\", \"table\", \"area_timeseries\", \"stacked_area_timeseries\", \"treemap\", \"top_level_metric\", \"map\", \"bubble_map\", found \"line\"",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "pie"}, "data": [{"x": "a", "y": -1}]}),
            "data[0].y: a pie slice cannot be negative, found the number -1",
        ),
        (
            json!({"viz_config": {"title": "t", "colors": ["#fff", "red"]}, "data": []}),
            "viz_config.colors[1]: expected a colour such as \"#1f77b4\", found \"red\"",
        ),
        (
            json!({"viz_config": {"title": "t"}, "data": {"columns": ["a", "b"], "rows": [["x", 1], ["y"]]}}),
            "data.rows[1]: has 1 cells, but there are 2 columns",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "bar"}, "data": {"columns": ["a", "b"], "rows": [["x", 1], ["y", "n/a"]]}}),
            "data.rows[1][1]: expected a number, found \"n/a\"",
        ),
        (json!({"viz_config": {"title": "t"}, "data": [1]}), "data[0]: expected a point object such as {\"x\": \"Jan\", \"y\": 3}, found the number 1"),
        (json!({"viz_config": {"title": "t"}, "data": [{"y": 1}, {"x": "b", "y": 2}]}), "data[0].x: is required"),
        (
            json!({"viz_config": {"title": "t"}, "data": {"rows": []}}),
            "data.columns: is required",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "timeline"}, "data": [{"label": "a", "start": "2024-02", "end": "2024-01"}]}),
            "data[0].end: is before \"start\"",
        ),
        (json!({"viz_config": {"title": "t"}, "data": "abc"}), "data: expected an array or an object, found \"abc\""),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "stacked_area_timeseries"},
                   "data": {"series": [{"name": "a", "points": [{"x": "2024", "y": 1}]}, {"name": "b", "points": [{"x": "2025", "y": -2}]}]}}),
            "data: series 2 (\"b\") is -2 on 2025: a stacked area stacks values of zero or more; draw values below zero as a timeseries or an area_timeseries",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "timeseries", "normalize": true}, "data": []}),
            "viz_config.normalize: applies to stacked_area_timeseries cards only",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "treemap"}, "data": [{"x": "a", "y": 1}, {"x": "b", "y": -1}]}),
            "data[1].y: a treemap cell's value is its area and cannot be negative",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "treemap"}, "data": {"columns": ["group", "label", "v"], "rows": [["g", "a", "x"]]}}),
            "data.rows[0][2]: expected a number, found \"x\"",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "top_level_metric"}, "data": {"series": [{"points": []}, {"points": []}]}}),
            "data.series: a top_level_metric shows one series; found 2 (draw them as a timeseries)",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "map"}, "data": [{"lat": 1, "lon": 2}, {"lat": 91, "lon": 2}]}),
            "data[1].lat: expected a latitude in degrees, from -90 to 90, found the number 91",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "map"}, "data": [{"lat": 1}]}),
            "data[0].lon: is required",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "bubble_map"}, "data": {"series": [{"points": [{"x": "FR", "y": 1}, {"lat": 1, "lon": 2, "value": -3}]}]}}),
            "data.series[0].points[1].value: a bubble's value is its area and cannot be negative",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "bubble_map"}, "data": {"columns": ["city", "lat"], "rows": []}}),
            "data.columns: a map table needs \"lat\" and \"lon\" columns (a bubble map: \"lat\", \"lon\" and \"value\", or \"region\" and \"value\")",
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(error(input), expected);
    }
    let not_json = VisualizationData::from_json("{\"viz_config\": ")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        not_json.starts_with("visualization_data: is not valid JSON: "),
        "{not_json}"
    );
}

#[test]
fn null_values_are_gaps_not_errors() {
    let data = VisualizationData::from_json(
        &json!({
            "viz_config": {"title": "t"}, "data": [{"x": "a", "y": null}, {"x": "b", "y": 2}]
        })
        .to_string(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let Ok(Card::Categorical(bar)) = data.card() else {
        panic!("bar")
    };
    assert!(bar.series[0].values[0].is_nan());
}

#[test]
fn timeline_table_errors_name_the_right_column() {
    let message = error(json!({
        "viz_config": {"title": "t", "viz_component_type": "timeline"},
        "data": {"columns": ["start", "end", "label"], "rows": [["2024-01", "soon", "Build"]]}
    }));
    assert!(message.starts_with("data.rows[0][1]:"), "{message}");
}

#[test]
fn a_heatmap_too_large_to_draw_is_refused_before_allocating() {
    let points: Vec<serde_json::Value> = (0..1_000)
        .map(|i| json!({"x": format!("x{i}"), "y": format!("y{i}"), "value": 1}))
        .collect();
    let message = error(json!({
        "viz_config": {"title": "t", "viz_component_type": "heatmap"},
        "data": points
    }));
    assert!(
        message.starts_with("data: a heatmap of 1000 x and 1000 y categories"),
        "{message}"
    );
}
