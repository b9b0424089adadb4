// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! One contract for the ways a timeseries or scatter card comes in (see
//! `src/model/rules.rs`): the same points read as point objects by the
//! tree and by the stream, as columns in the text, as columns passed beside
//! it (`{"$column": N}`), and handed over whole as the widget's glue hands
//! them ([`GivenSeries`], dates read by the page with `parse_date`) give the
//! same card. The glue's own conversion, `crates/engine/js/columns.js`, is
//! held to the text in a browser by `tests/e2e/columns.test.mjs`.

use zdr_chart::model::{parse_date, DatePrecision, GivenSeries, GivenX};
use zdr_chart::Chart;

/// A series of a case: its name, xs (as JSON values) and ys (`None` a gap).
type Given = (Option<&'static str>, Vec<&'static str>, Vec<Option<f64>>);

/// A case: the config's extra members, and its series.
struct Case {
    what: &'static str,
    config: &'static str,
    series: Vec<Given>,
}

fn cases() -> Vec<Case> {
    let n = |v: f64| Some(v);
    vec![
        Case {
            what: "dates out of order, a gap, a repeated date",
            config: "",
            series: vec![(
                Some("Sales"),
                vec!["\"2024-03\"", "\"2024-01\"", "\"2024-02\"", "\"2024-02\""],
                vec![n(3.0), n(1.0), None, n(2.5)],
            )],
        },
        Case {
            what: "two series, unnamed, days and times",
            config: "",
            series: vec![
                (
                    None,
                    vec!["\"2024-01-01\"", "\"2024-01-02T12:00:00Z\""],
                    vec![n(1.0), n(-0.0)],
                ),
                (
                    None,
                    vec!["\"2024-01-01\"", "\"2024-01-03\""],
                    vec![n(5.0), n(6.0)],
                ),
            ],
        },
        Case {
            what: "whole years as numbers on a timeseries",
            config: ", \"viz_component_type\": \"timeseries\"",
            series: vec![(
                Some("Pop"),
                vec!["2001", "1999", "2000"],
                vec![n(3.0), n(1.0), n(2.0)],
            )],
        },
        Case {
            what: "epoch milliseconds",
            config: ", \"x_time\": \"epoch_ms\"",
            series: vec![(
                Some("Load"),
                vec!["1700000060000", "1700000000000", "1700000120000"],
                vec![n(2.0), n(1.0), None],
            )],
        },
        Case {
            what: "a scatter with gaps in x and y",
            config: ", \"viz_component_type\": \"scatter\"",
            series: vec![
                (
                    Some("A"),
                    vec!["3", "1", "null", "2"],
                    vec![n(30.0), None, n(5.0), n(20.0)],
                ),
                (Some("B"), vec!["0.5"], vec![n(-1.0)]),
            ],
        },
    ]
}

fn config_of(case: &Case) -> String {
    format!("{{\"title\": \"T\"{}}}", case.config)
}

fn y_json(y: &Option<f64>) -> String {
    y.map_or("null".into(), |v| v.to_string())
}

fn name_json(name: Option<&str>) -> String {
    name.map_or(String::new(), |n| format!("\"name\": \"{n}\", "))
}

/// The points as objects, a series each.
fn as_points(case: &Case) -> String {
    let series: Vec<String> = case
        .series
        .iter()
        .map(|(name, xs, ys)| {
            let points: Vec<String> = xs
                .iter()
                .zip(ys)
                .map(|(x, y)| format!("{{\"x\": {x}, \"y\": {}}}", y_json(y)))
                .collect();
            format!(
                "{{{}\"points\": [{}]}}",
                name_json(*name),
                points.join(", ")
            )
        })
        .collect();
    format!(
        "{{\"viz_config\": {}, \"data\": {{\"series\": [{}]}}}}",
        config_of(case),
        series.join(", ")
    )
}

/// The points as columns in the text.
fn as_columns(case: &Case) -> String {
    let series: Vec<String> = case
        .series
        .iter()
        .map(|(name, xs, ys)| {
            let ys: Vec<String> = ys.iter().map(y_json).collect();
            format!(
                "{{{}\"x\": [{}], \"y\": [{}]}}",
                name_json(*name),
                xs.join(", "),
                ys.join(", ")
            )
        })
        .collect();
    format!(
        "{{\"viz_config\": {}, \"data\": {{\"series\": [{}]}}}}",
        config_of(case),
        series.join(", ")
    )
}

/// An x as a number, or `None` for a date string (or null, as NaN).
fn number(x: &str) -> Option<f64> {
    if x == "null" {
        Some(f64::NAN)
    } else {
        x.parse().ok()
    }
}

/// The columns passed beside the text, when every x is a number.
fn as_passed(case: &Case) -> Option<(String, Vec<Vec<f64>>)> {
    let mut columns = Vec::new();
    let mut series = Vec::new();
    for (name, xs, ys) in &case.series {
        let xs: Option<Vec<f64>> = xs.iter().map(|x| number(x)).collect();
        columns.push(xs?);
        columns.push(ys.iter().map(|y| y.unwrap_or(f64::NAN)).collect());
        let at = columns.len() - 2;
        series.push(format!(
            "{{{}\"x\": {{\"$column\": {at}}}, \"y\": {{\"$column\": {}}}}}",
            name_json(*name),
            at + 1
        ));
    }
    let text = format!(
        "{{\"viz_config\": {}, \"data\": {{\"series\": [{}]}}}}",
        config_of(case),
        series.join(", ")
    );
    Some((text, columns))
}

/// The series as the widget's glue hands them over: numbers, or dates the
/// page read with the engine's rules.
fn as_given(case: &Case) -> Vec<GivenSeries> {
    let scatter = case.config.contains("scatter");
    let epoch = case.config.contains("epoch_ms");
    case.series
        .iter()
        .map(|(name, xs, ys)| {
            let x = match xs.iter().map(|x| number(x)).collect::<Option<Vec<f64>>>() {
                Some(numbers) if scatter || epoch => GivenX::Numbers(numbers),
                Some(years) => {
                    let seconds = years
                        .iter()
                        .map(|y| parse_date(&format!("{y}")).map_or(f64::NAN, |(s, _)| s))
                        .collect();
                    GivenX::Dates(seconds, DatePrecision::Year)
                }
                None => {
                    let mut finest = DatePrecision::Year;
                    let seconds = xs
                        .iter()
                        .map(|x| {
                            let (s, p) = parse_date(x.trim_matches('"')).unwrap();
                            finest = finest.max(p);
                            s
                        })
                        .collect();
                    GivenX::Dates(seconds, finest)
                }
            };
            GivenSeries {
                name: name.map(str::to_owned),
                x,
                y: ys.iter().map(|y| y.unwrap_or(f64::NAN)).collect(),
                kept_from: None,
            }
        })
        .collect()
}

fn card(chart: &Chart) -> String {
    format!("{:?} {:?}", chart.kind, chart.card)
}

#[test]
fn every_way_in_reads_the_same_card() {
    for case in cases() {
        let points = as_points(&case);
        let tree = Chart::from_json_tree(&points).unwrap_or_else(|e| panic!("{}: {e}", case.what));
        let want = card(&tree);
        let mut ways = vec![
            ("the stream", Chart::from_json(&points).ok()),
            (
                "columns in the text",
                Chart::from_json(&as_columns(&case)).ok(),
            ),
            (
                "columns in the text, by the tree",
                Chart::from_json_tree(&as_columns(&case)).ok(),
            ),
        ];
        if let Some((text, columns)) = as_passed(&case) {
            ways.push((
                "columns passed beside the text",
                Chart::from_json_with_columns(&text, columns).ok(),
            ));
        }
        // The glue hands columns over only for a card that says its type.
        let given = as_given(&case);
        let typed = if case.config.contains("viz_component_type") {
            config_of(&case)
        } else {
            format!(
                "{{\"title\": \"T\", \"viz_component_type\": \"timeseries\"{}}}",
                case.config
            )
        };
        ways.push((
            "columns handed over whole",
            Chart::from_columns(&typed, &mut || given.clone()),
        ));
        for (way, chart) in ways {
            let chart = chart.unwrap_or_else(|| panic!("{}: {way} read nothing", case.what));
            assert_eq!(card(&chart), want, "{}: {way} against the tree", case.what);
        }
    }
}

#[test]
fn the_rules_the_ways_share() {
    // Unnamed series are numbered.
    let tree = Chart::from_json_tree(&as_points(&cases()[1])).unwrap();
    let text = card(&tree);
    assert!(text.contains("name: \"Series 1\""), "{text}");
    assert!(text.contains("name: \"Series 2\""), "{text}");
    // Sorted by date; the repeated date kept; the gap a gap.
    let sorted = Chart::from_json_tree(&as_points(&cases()[0])).unwrap();
    let text = card(&sorted);
    assert!(
        text.contains("ys: [1.0, NaN, 2.5, 3.0]") || text.contains("ys: [1.0, 2.5, NaN, 3.0]"),
        "{text}"
    );
}
