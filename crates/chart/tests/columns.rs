// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The columnar shape of `data`, `viz_config.x_time: "epoch_ms"` and
//! columns passed beside the text (issue 15): what they read as, the
//! errors they give, and that the streaming and tree readers agree.

use zdr_chart::model::{Card, CardKind, DatePrecision};
use zdr_chart::Chart;

fn post(config: &str, data: &str) -> String {
    format!("{{\"viz_config\": {{\"title\": \"T\"{config}}}, \"data\": {data}}}")
}

/// Read both ways; they agree; the streamed answer.
fn read(text: &str) -> Result<Chart, String> {
    let streamed = Chart::from_json(text);
    let tree = Chart::from_json_tree(text);
    assert_eq!(format!("{streamed:?}"), format!("{tree:?}"), "{text}");
    streamed.map_err(|e| e.to_string())
}

fn xy(chart: &Chart) -> Vec<(Vec<f64>, Vec<f64>)> {
    match &chart.card {
        Card::Timeseries { series, .. } | Card::Scatter(series) => series
            .iter()
            .map(|s| (s.xs.clone(), s.ys.clone()))
            .collect(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn columns_read_as_the_same_points() {
    for config in ["", ", \"viz_component_type\": \"scatter\""] {
        let columns = read(&post(config, r#"{"x": [3, 1, 2], "y": [30, null, 20]}"#)).unwrap();
        let points = read(&post(
            config,
            r#"[{"x": 3, "y": 30}, {"x": 1, "y": null}, {"x": 2, "y": 20}]"#,
        ))
        .unwrap();
        assert_eq!(columns.kind, CardKind::Scatter);
        assert_eq!(xy(&columns), xy(&points));
        assert_eq!(xy(&columns), vec![(vec![3.0, 2.0], vec![30.0, 20.0])]);
    }
    let series = read(&post(
        "",
        r#"{"series": [{"name": "Web", "x": ["2024-01", "2024-02"], "y": [1, 2]}, {"name": "App", "points": [{"x": "2024-01", "y": 5}]}]}"#,
    ))
    .unwrap();
    assert_eq!(series.kind, CardKind::Timeseries);
    match &series.card {
        Card::Timeseries { series, precision } => {
            assert_eq!(*precision, DatePrecision::Month);
            assert_eq!(series[0].name, "Web");
            assert_eq!(series[0].ys, vec![1.0, 2.0]);
            assert_eq!(series[1].ys, vec![5.0]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn columns_of_other_card_types() {
    let heatmap = read(&post(
        "",
        r#"{"x": ["a", "b"], "y": ["r", "r"], "value": [1, 2]}"#,
    ))
    .unwrap();
    assert_eq!(heatmap.kind, CardKind::Heatmap);
    let histogram = read(&post("", r#"{"y": [1, 2, 2, 3]}"#)).unwrap();
    assert_eq!(histogram.kind, CardKind::Histogram);
    let timeline = read(&post(
        ", \"x_time\": \"epoch_ms\"",
        r#"{"label": ["a", "b"], "start": [0, 86400000], "end": [86400000, 172800000]}"#,
    ))
    .unwrap();
    match &timeline.card {
        Card::Timeline { items, precision } => {
            assert_eq!(*precision, DatePrecision::Day);
            assert_eq!((items[1].start, items[1].end), (86_400.0, 172_800.0));
        }
        other => panic!("{other:?}"),
    }
    let bar = read(&post("", r#"{"x": ["a", "b"], "y": [1, 2]}"#)).unwrap();
    assert_eq!(bar.kind, CardKind::Bar);
}

#[test]
fn epoch_ms_reads_numbers_as_milliseconds() {
    let ms = ", \"x_time\": \"epoch_ms\"";
    for data in [
        r#"{"x": [1700000000000, 1700000060000], "y": [1, 2]}"#,
        r#"[{"x": 1700000060000, "y": 2}, {"x": 1700000000000, "y": 1}]"#,
    ] {
        let chart = read(&post(ms, data)).unwrap();
        assert_eq!(chart.kind, CardKind::Timeseries, "{data}");
        match &chart.card {
            Card::Timeseries { series, precision } => {
                assert_eq!(*precision, DatePrecision::Time);
                assert_eq!(series[0].xs, vec![1.7e9, 1.7e9 + 60.0]);
                assert_eq!(series[0].ys, vec![1.0, 2.0]);
            }
            other => panic!("{other:?}"),
        }
    }
    // Without it a whole number is still a year, and numbers a scatter.
    let years = read(&post(
        ", \"viz_component_type\": \"timeseries\"",
        r#"{"x": [2020], "y": [1]}"#,
    ))
    .unwrap();
    assert_eq!(xy(&years)[0].0, vec![1_577_836_800.0]);
    assert_eq!(
        read(&post("", r#"{"x": [1700000000000], "y": [1]}"#))
            .unwrap()
            .kind,
        CardKind::Scatter
    );
}

#[test]
fn errors_name_the_path() {
    let ms = ", \"x_time\": \"epoch_ms\"";
    let cases = [
        (
            post("", r#"{"x": [1, 2], "y": [1]}"#),
            "data.y: has 1 values, but data.x has 2",
        ),
        (
            post(
                "",
                r#"{"series": [{"name": "a", "x": [1], "y": [1, 2, 3]}]}"#,
            ),
            "data.series[0].y: has 3 values, but data.series[0].x has 1",
        ),
        (
            post("", r#"{"x": 3, "y": [1]}"#),
            "data.x: expected an array of values, found the number 3",
        ),
        (
            post("", r#"{"x": [1, 2], "y": [1, "a"]}"#),
            "data.y[1]: expected a number, found \"a\"",
        ),
        (
            post(
                ", \"viz_component_type\": \"timeseries\"",
                r#"{"series": [{"x": ["2024", "May"], "y": [1, 2]}]}"#,
            ),
            "data.series[0].x[1]: expected a date",
        ),
        (
            post(ms, r#"{"x": ["2024-01-01"], "y": [1]}"#),
            "data.x[0]: expected milliseconds since 1970-01-01T00:00Z",
        ),
        (
            post(ms, r#"[{"x": 1e300, "y": 1}]"#),
            "data[0].x: expected milliseconds since 1970-01-01T00:00Z",
        ),
        (
            post(", \"x_time\": \"iso\"", r#"[]"#),
            "viz_config.x_time: must be \"epoch_ms\", found \"iso\"",
        ),
        (
            post(", \"x_time\": 1", r#"[]"#),
            "viz_config.x_time: expected a string, found the number 1",
        ),
        (
            post("", r#"{"x": {"$column": 0}, "y": [1]}"#),
            "data.x: expected an array of values, found an object",
        ),
    ];
    for (text, start) in &cases {
        let error = read(text).unwrap_err();
        assert!(error.starts_with(start), "{error}\nwanted {start}");
    }
}

#[test]
fn passed_columns_stand_for_arrays() {
    let inline = post(
        ", \"x_time\": \"epoch_ms\"",
        r#"{"series": [{"name": "a", "x": [1700000000000, 1700000001000], "y": [5, null]}]}"#,
    );
    let passed = post(
        ", \"x_time\": \"epoch_ms\"",
        r#"{"series": [{"name": "a", "x": {"$column": 1}, "y": {"$column": 0}}]}"#,
    );
    let columns = vec![vec![5.0, f64::NAN], vec![1.7e12, 1.7e12 + 1000.0]];
    let chart = Chart::from_json_with_columns(&passed, columns).unwrap();
    assert_eq!(
        format!("{chart:?}"),
        format!("{:?}", Chart::from_json_tree(&inline).unwrap())
    );
    // Other card types read them through the tree.
    let heatmap = Chart::from_json_with_columns(
        &post(
            "",
            r#"{"x": ["a", "b"], "y": ["r", "r"], "value": {"$column": 0}}"#,
        ),
        vec![vec![1.0, f64::NAN]],
    )
    .unwrap();
    assert_eq!(
        format!("{heatmap:?}"),
        format!(
            "{:?}",
            read(&post(
                "",
                r#"{"x": ["a", "b"], "y": ["r", "r"], "value": [1, null]}"#
            ))
            .unwrap()
        )
    );
    let scatter = Chart::from_json_with_columns(
        &post("", r#"{"x": {"$column": 0}, "y": {"$column": 1}}"#),
        vec![vec![1.0, 2.0, f64::NAN], vec![3.0, f64::NAN, 4.0]],
    )
    .unwrap();
    assert_eq!(xy(&scatter), vec![(vec![1.0], vec![3.0])]);
    // Infinities are missing values, as the tree reads them.
    let text = post("", r#"{"x": {"$column": 0}, "y": {"$column": 1}}"#);
    let columns = vec![
        vec![1.0, f64::INFINITY, 3.0],
        vec![4.0, 5.0, f64::NEG_INFINITY],
    ];
    let scatter = Chart::from_json_with_columns(&text, columns).unwrap();
    assert_eq!(xy(&scatter), vec![(vec![1.0], vec![4.0])]);
    let text = post(
        ", \"x_time\": \"epoch_ms\"",
        r#"{"x": {"$column": 0}, "y": {"$column": 1}}"#,
    );
    let columns = vec![vec![2000.0, 1000.0], vec![f64::INFINITY, 7.0]];
    let series = Chart::from_json_with_columns(&text, columns).unwrap();
    assert_eq!(format!("{:?}", xy(&series)), "[([1.0, 2.0], [7.0, NaN])]");
}

#[test]
fn misused_columns_are_errors_naming_the_path() {
    let cases = [
        (
            r#"{"x": {"$column": 2}, "y": [1]}"#,
            "data.x.$column: column 2 was not passed: there are 1 columns",
        ),
        (
            r#"{"x": {"$column": 0}, "y": {"$column": 0}}"#,
            "data.y.$column: column 0 is already used",
        ),
        (
            r#"{"x": {"$column": -1}, "y": [1]}"#,
            "data.x.$column: expected a column number below 1, found the number -1",
        ),
        (
            r#"{"x": {"$column": 0, "z": 1}, "y": [1]}"#,
            "data.x: expected an array, or {\"$column\": N} alone",
        ),
        (
            r#"{"x": {"$column": 0}, "y": [1, 2]}"#,
            "data.y: has 2 values, but data.x has 1",
        ),
        (
            r#"[{"x": {"$column": 0}, "y": 1}]"#,
            "data[0].x: expected a string or a number, found an object",
        ),
    ];
    for (data, start) in cases {
        let error = Chart::from_json_with_columns(&post("", data), vec![vec![1.0]])
            .unwrap_err()
            .to_string();
        assert!(error.starts_with(start), "{error}\nwanted {start}");
    }
}

#[test]
fn the_columnar_examples_read_as_their_types() {
    for (name, kind, points) in [
        ("timeseries_columns", CardKind::Timeseries, [24, 24]),
        ("scatter_columns", CardKind::Scatter, [20, 0]),
    ] {
        let text = zdr_test_support::example(name);
        let chart = read(&text).unwrap();
        assert_eq!(chart.kind, kind, "{name}");
        let lens: Vec<usize> = xy(&chart).iter().map(|(xs, _)| xs.len()).collect();
        assert_eq!(lens[..], points[..lens.len()], "{name}");
        // The type is inferred the same when left out.
        let untyped = text.replace(
            &format!("\"viz_component_type\": \"{}\",", kind.as_str()),
            "",
        );
        assert_ne!(untyped, text);
        assert_eq!(read(&untyped).unwrap().kind, kind, "{name}");
    }
}
