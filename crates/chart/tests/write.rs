// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
// proptest is a native-only dev-dependency (see Cargo.toml).
#![cfg(not(target_arch = "wasm32"))]

//! The writer and the readers are one contract: every chart the readers
//! make, of every card kind, written (`serde::Serialize for Chart`) and read
//! again, is the same chart. Charts are made as the API and pages make
//! them, from `visualization_data` in every shape `data` takes, so that what
//! is held is exactly what the readers hold (dates at their precision,
//! sorted lines, values within the limits).
//!
//! Charts are compared by their `Debug` text: NaN, a missing value, is
//! unequal to itself under `==`, and `Debug` tells every other double apart
//! (−0 from 0 too).

use proptest::prelude::*;
use serde_json::{json, Value};
use zdr_chart::model::{Card, CardKind, VizConfig};
use zdr_chart::Chart;

fn same(a: &Chart, b: &Chart) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// What reading `written` must give back: `chart`, except that a chart
/// read with `percent_change` is written as shown (see model/write.rs).
fn expected(chart: &Chart) -> Chart {
    let mut chart = chart.clone();
    // A precision is written in dates. A line's may be that of a series
    // `percent_change` left out: then it reads back as its dates say,
    // years when there are none, and by their alignment in milliseconds.
    let epoch_ms = chart.config.epoch_ms;
    if let Card::Timeseries { series, precision } = &mut chart.card {
        let mut xs = series.iter().flat_map(|s| &s.xs);
        use zdr_chart::model::DatePrecision;
        if series.iter().all(|s| s.xs.is_empty()) {
            *precision = DatePrecision::Year;
        } else if epoch_ms {
            *precision = if xs.any(|x| x % 86_400.0 != 0.0) {
                DatePrecision::Time
            } else {
                DatePrecision::Day
            };
        }
    }
    if chart.config.percent_change {
        chart.config.percent_change = false;
        let shown: Vec<String> = match &chart.card {
            Card::Timeseries { series, .. } => series.iter().map(|s| s.name.clone()).collect(),
            _ => Vec::new(),
        };
        let names = chart.config.right_axis_series.take().unwrap_or_default();
        chart.config.right_axis_series =
            Some(names.into_iter().filter(|n| shown.contains(n)).collect());
    }
    chart
}

/// Reads `document`; writes what was read, reads that back by every
/// reader, and holds it to what was read. Documents the reader refuses
/// (a generated limit crossed) prove nothing and pass.
fn round_trip(document: &Value) -> Result<(), TestCaseError> {
    let Ok(chart) = Chart::from_json(&document.to_string()) else {
        return Ok(());
    };
    // The change since a first value near the smallest double can be
    // infinite: JSON has no number for it (a flaw of percent_change, not
    // of the writer, which writes null).
    if let Card::Timeseries { series, .. } = &chart.card {
        if series.iter().flat_map(|s| &s.ys).any(|y| y.is_infinite()) {
            return Ok(());
        }
    }
    let written = serde_json::to_string(&chart).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let want = expected(&chart);
    for (reader, back) in [
        ("stream", Chart::from_json(&written)),
        ("tree", Chart::from_json_tree(&written)),
    ] {
        let back = back.map_err(|e| {
            TestCaseError::fail(format!(
                "{reader}: {e}\nread:    {document}\nwritten: {written}"
            ))
        })?;
        prop_assert!(
            same(&back, &want),
            "{reader}\nread:    {document}\nwritten: {written}\nwant:  {want:?}\nback:  {back:?}"
        );
    }
    // Written again, the same text: the writer is a function of the chart.
    let again = serde_json::to_string(&Chart::from_json(&written).unwrap()).unwrap();
    prop_assert_eq!(again, written);
    Ok(())
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-zA-Z ]{1,8}",
        Just("Sales \"Q1\" \\ é 中".to_owned()),
        Just("Value".to_owned()),
        Just("2024".to_owned()),
        Just("12".to_owned()),
    ]
}

fn number() -> BoxedStrategy<f64> {
    prop_oneof![
        6 => (-1000i32..1000).prop_map(f64::from),
        1 => prop::sample::select(vec![0.1, -2.5, 1e21, 1.0 / 3.0, 123_456.789, 5e-7]),
        2 => any::<f64>().prop_filter("finite", |x| x.is_finite()),
    ]
    .boxed()
}

fn value_or_null(nonnegative: bool) -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => number().prop_map(move |n| json!(if nonnegative { n.abs() } else { n })),
        1 => Just(Value::Null),
    ]
}

fn label() -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => prop::sample::select(vec!["North", "South", "East", "West", "", "a b", "2024", "Jan"])
            .prop_map(|s| json!(s)),
        1 => (0u32..5).prop_map(|n| json!(n)),
        1 => Just(json!(2.5)),
    ]
}

/// A date in one of the reader's forms, and the same at each precision.
fn date(precision: u8) -> BoxedStrategy<Value> {
    let year = 1990u32..2030;
    match precision {
        0 => prop_oneof![
            year.clone().prop_map(|y| json!(y)),
            year.prop_map(|y| json!(format!("{y}"))),
        ]
        .boxed(),
        1 => (year, 1u32..=12)
            .prop_map(|(y, m)| json!(format!("{y}-{m:02}")))
            .boxed(),
        2 => (year, 1u32..=12, 1u32..=28)
            .prop_map(|(y, m, d)| json!(format!("{y}-{m:02}-{d:02}")))
            .boxed(),
        _ => (
            year,
            1u32..=12,
            1u32..=28,
            0u32..24,
            0u32..60,
            prop::sample::select(vec![
                "", ":00", ":15", ":59.5", ":07.25", ":30.125Z", "+02:00",
            ]),
        )
            .prop_map(|(y, m, d, h, min, rest)| {
                json!(format!("{y}-{m:02}-{d:02}T{h:02}:{min:02}{rest}"))
            })
            .boxed(),
    }
}

/// Milliseconds since 1970 within the years dates may have: whole days,
/// whole seconds and any millisecond.
fn epoch_ms() -> impl Strategy<Value = Value> {
    prop_oneof![
        (-700_000i64..2_900_000).prop_map(|d| json!(d * 86_400_000)),
        (-60_000_000_000i64..250_000_000_000).prop_map(|s| json!(s * 1000)),
        (-60_000_000_000_000i64..250_000_000_000_000).prop_map(|ms| json!(ms)),
    ]
}

/// `points` as `data`: an array of one series, `{series}`, or columns.
/// A series as generated: its name, if any, and its points.
type Named = (Option<String>, Vec<Value>);

fn shaped(series: Vec<Named>, shape: u8) -> Value {
    if series.len() == 1 && shape == 0 {
        return Value::Array(series.into_iter().next().unwrap().1);
    }
    let list: Vec<Value> = series
        .into_iter()
        .map(|(name, points)| match name {
            Some(name) => json!({"name": name, "points": points}),
            None => json!({"points": points}),
        })
        .collect();
    json!({ "series": list })
}

fn series_of(
    point: impl Strategy<Value = Value>,
    most: usize,
) -> impl Strategy<Value = (Vec<Named>, u8)> {
    (
        prop::collection::vec(
            (
                prop::option::of(text()),
                prop::collection::vec(point, 0..most),
            ),
            1..4,
        ),
        0u8..2,
    )
}

fn config() -> impl Strategy<Value = serde_json::Map<String, Value>> {
    (
        text(),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(prop::sample::select(vec![
            "%",
            "$",
            "kg",
            "thousand jobs",
            "+%",
        ])),
        prop::option::of(any::<bool>()),
        prop::sample::select(vec![
            None,
            Some("de"),
            Some("en-US"),
            Some("ja-JP"),
            Some("fr-FR"),
        ]),
        prop::collection::vec(prop::sample::select(vec!["#fff", "#1F77B4", "#a0c"]), 0..3),
        prop::option::of(text()),
    )
        .prop_map(
            |(title, subtitle, y_label, units, dark, locale, colors, source)| {
                let mut config = serde_json::Map::new();
                config.insert("title".into(), json!(title));
                let optional = [
                    ("subtitle", subtitle.map(Value::from)),
                    ("y_label", y_label.map(Value::from)),
                    ("units", units.map(Value::from)),
                    ("dark_mode", dark.map(Value::from)),
                    ("locale", locale.map(Value::from)),
                    ("source", source.map(Value::from)),
                ];
                for (key, value) in optional {
                    if let Some(value) = value {
                        config.insert(key.into(), value);
                    }
                }
                if !colors.is_empty() {
                    config.insert("colors".into(), json!(colors));
                }
                config
            },
        )
}

fn document(mut config: serde_json::Map<String, Value>, kind: CardKind, data: Value) -> Value {
    config.insert("viz_component_type".into(), json!(kind.as_str()));
    json!({"viz_config": config, "data": data})
}

fn categorical() -> impl Strategy<Value = Value> {
    let kinds = vec![
        CardKind::Bar,
        CardKind::GroupedBar,
        CardKind::StackedBar,
        CardKind::Pie,
        CardKind::Waterfall,
        CardKind::Choropleth,
    ];
    (
        config(),
        prop::sample::select(kinds),
        series_of(
            (label(), value_or_null(true), any::<bool>()).prop_map(|(x, y, negate)| {
                let y = match (y.as_f64(), negate) {
                    (Some(n), true) => json!(-n),
                    _ => y,
                };
                json!({"x": x, "y": y})
            }),
            8,
        ),
    )
        .prop_map(|(config, kind, (series, shape))| {
            let series = if kind == CardKind::Pie {
                series
                    .into_iter()
                    .map(|(n, points)| {
                        let points = points
                            .into_iter()
                            .map(|mut p| {
                                if let Some(y) = p["y"].as_f64() {
                                    p["y"] = json!(y.abs());
                                }
                                p
                            })
                            .collect();
                        (n, points)
                    })
                    .collect()
            } else {
                series
            };
            document(config, kind, shaped(series, shape))
        })
}

fn line() -> impl Strategy<Value = Value> {
    (
        config(),
        prop::sample::select(vec![
            CardKind::Timeseries,
            CardKind::AreaTimeseries,
            CardKind::StackedAreaTimeseries,
        ]),
        0u8..5,
        any::<bool>(),
        prop::collection::vec(
            (
                prop::option::of(text()),
                prop::collection::vec(
                    (
                        prop_oneof![date(0), date(1), date(2), date(3), epoch_ms()],
                        value_or_null(false),
                    ),
                    0..10,
                ),
            ),
            1..4,
        ),
        0u8..2,
        prop::option::of(prop::collection::vec(text(), 0..2)),
    )
        .prop_map(
            |(mut config, kind, precision, flag, series, shape, right)| {
                let epoch = precision == 4;
                if epoch {
                    config.insert("x_time".into(), json!("epoch_ms"));
                }
                let stacked = kind == CardKind::StackedAreaTimeseries;
                if stacked && flag {
                    config.insert("normalize".into(), json!(true));
                }
                if kind == CardKind::Timeseries && flag {
                    config.insert("percent_change".into(), json!(true));
                }
                if kind == CardKind::Timeseries {
                    if let Some(names) = right {
                        config.insert("right_axis_series".into(), json!(names));
                    }
                }
                // Every x of one precision (the reader's card has the
                // largest); epoch_ms takes numbers only.
                let series = series
                    .into_iter()
                    .map(|(name, points)| {
                        let points = points
                            .into_iter()
                            .filter(|(x, _)| {
                                epoch == x.is_i64() && (epoch || x.is_string() || x.is_u64())
                            })
                            .map(|(x, y)| {
                                let y = match y.as_f64() {
                                    Some(n) if stacked => json!(n.abs()),
                                    _ => y,
                                };
                                json!({"x": x, "y": y})
                            })
                            .collect();
                        (name, points)
                    })
                    .collect();
                document(config, kind, shaped(series, shape))
            },
        )
}

fn scatter() -> impl Strategy<Value = Value> {
    (
        config(),
        series_of(
            (value_or_null(false), value_or_null(false)).prop_map(|(x, y)| json!({"x": x, "y": y})),
            10,
        ),
    )
        .prop_map(|(config, (series, shape))| {
            document(config, CardKind::Scatter, shaped(series, shape))
        })
}

fn boxplot() -> impl Strategy<Value = Value> {
    let value = prop_oneof![
        6 => (-20i32..20).prop_map(f64::from),
        1 => Just(1000.0),
        1 => Just(-750.25),
        1 => Just(0.1),
        1 => number(),
    ];
    (
        config(),
        prop::collection::vec((label(), prop::collection::vec(value, 0..14)), 0..5),
    )
        .prop_map(|(config, boxes)| {
            let points: Vec<Value> = boxes
                .into_iter()
                .map(|(x, values)| json!({"x": x, "values": values}))
                .collect();
            document(config, CardKind::Boxplot, Value::Array(points))
        })
}

fn heatmap() -> impl Strategy<Value = Value> {
    (
        config(),
        prop::collection::vec((label(), label(), value_or_null(false)), 0..20),
    )
        .prop_map(|(config, cells)| {
            let points: Vec<Value> = cells
                .into_iter()
                .map(|(x, y, value)| json!({"x": x, "y": y, "value": value}))
                .collect();
            document(config, CardKind::Heatmap, Value::Array(points))
        })
}

fn timeline() -> impl Strategy<Value = Value> {
    (
        config(),
        0u8..5,
        prop::collection::vec((label(), 0i64..4000, 0i64..400), 0..8),
    )
        .prop_map(|(mut config, precision, items)| {
            // Start and length in units of the precision from 2000.
            let at = |n: i64| -> Value {
                let day = 946_684_800i64 + n * 86_400;
                match precision {
                    0 => json!(2000 + n / 2),
                    1 => json!(format!("{}-{:02}", 2000 + n / 12, n % 12 + 1)),
                    2 => {
                        let (y, m, d) = zdr_chart::model::civil_from_days(day / 86_400);
                        json!(format!("{y:04}-{m:02}-{d:02}"))
                    }
                    3 => {
                        let s = 946_684_800i64 + n * 3_661;
                        let (y, m, d) = zdr_chart::model::civil_from_days(s.div_euclid(86_400));
                        let t = s.rem_euclid(86_400);
                        json!(format!(
                            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
                            t / 3600,
                            t / 60 % 60,
                            t % 60
                        ))
                    }
                    _ => json!(day * 1000 + n * 7),
                }
            };
            if precision == 4 {
                config.insert("x_time".into(), json!("epoch_ms"));
            }
            let points: Vec<Value> = items
                .into_iter()
                .map(|(label, start, length)| {
                    json!({"label": label, "start": at(start), "end": at(start + length)})
                })
                .collect();
            document(config, CardKind::Timeline, Value::Array(points))
        })
}

fn histogram() -> impl Strategy<Value = Value> {
    (
        config(),
        series_of(value_or_null(false).prop_map(|y| json!({"y": y})), 12),
    )
        .prop_map(|(config, (series, shape))| {
            document(config, CardKind::Histogram, shaped(series, shape))
        })
}

fn cell() -> impl Strategy<Value = Value> {
    prop_oneof![
        number().prop_map(|n| json!(n)),
        (0u64..1_000_000).prop_map(|n| json!(n)),
        (-1000i64..0).prop_map(|n| json!(n)),
        Just(json!(u64::MAX)),
        Just(json!(-0.0)),
        Just(json!(1.0)),
        text().prop_map(|t| json!(t)),
        Just(json!("007")),
        Just(json!("1.50")),
        Just(json!("1e3")),
        Just(Value::Null),
        any::<bool>().prop_map(|b| json!(b)),
        Just(json!([1, "a", null])),
        Just(json!({"k": [true]})),
    ]
}

fn table() -> impl Strategy<Value = Value> {
    (
        config(),
        1usize..5,
        prop::collection::vec(prop::collection::vec(cell(), 4), 0..6),
        0u8..2,
    )
        .prop_map(|(config, width, rows, shape)| {
            let columns: Vec<String> = (0..width).map(|c| format!("c{c}")).collect();
            let data = if shape == 0 {
                let rows: Vec<Value> = rows
                    .into_iter()
                    .map(|row| Value::Array(row.into_iter().take(width).collect()))
                    .collect();
                json!({"columns": columns, "rows": rows})
            } else {
                let points: Vec<Value> = rows
                    .into_iter()
                    .map(|row| {
                        let object: serde_json::Map<String, Value> =
                            columns.iter().cloned().zip(row).collect();
                        Value::Object(object)
                    })
                    .collect();
                Value::Array(points)
            };
            document(config, CardKind::Table, data)
        })
}

fn treemap() -> impl Strategy<Value = Value> {
    (
        config(),
        series_of(
            (label(), value_or_null(true), prop::option::of(label())).prop_map(|(x, y, group)| {
                match group {
                    Some(group) => json!({"x": x, "y": y, "group": group}),
                    None => json!({"x": x, "y": y}),
                }
            }),
            10,
        ),
    )
        .prop_map(|(config, (series, shape))| {
            document(config, CardKind::Treemap, shaped(series, shape))
        })
}

fn metric() -> impl Strategy<Value = Value> {
    let x = prop_oneof![
        date(0),
        date(1),
        date(2),
        date(3),
        label(),
        Just(Value::Null),
        Just(json!(true)),
    ];
    (
        config(),
        any::<bool>(),
        prop::collection::vec((x, value_or_null(false), prop::option::of(number())), 0..8),
    )
        .prop_map(|(config, all_dated, points)| {
            let points: Vec<Value> = points
                .into_iter()
                .filter(|(x, ..)| !all_dated || x.is_string())
                .map(|(x, y, previous)| {
                    let mut point = json!({"y": y});
                    if !x.is_null() {
                        point["x"] = x;
                    }
                    if let Some(previous) = previous {
                        point["previous"] = json!(previous);
                    }
                    point
                })
                .collect();
            document(config, CardKind::TopLevelMetric, Value::Array(points))
        })
}

fn places() -> impl Strategy<Value = Value> {
    let point = (
        -90.0f64..=90.0,
        -180.0f64..=180.0,
        prop::option::of(label()),
        value_or_null(true),
        prop::option::of(prop::sample::select(vec!["FR", "US-CA", "Germany", "TX"])),
    )
        .prop_map(|(lat, lon, label, value, region)| {
            let mut point = match region {
                Some(code) => json!({"x": code}),
                None => json!({"lat": lat, "lon": lon}),
            };
            if let Some(label) = label {
                point["label"] = label;
            }
            point["value"] = value;
            point
        });
    (
        config(),
        prop::sample::select(vec![CardKind::Map, CardKind::BubbleMap]),
        series_of(point, 8),
    )
        .prop_map(|(config, kind, (series, shape))| {
            let series = if kind == CardKind::Map {
                // A map's places are at coordinates.
                series
                    .into_iter()
                    .map(|(n, points)| {
                        let points = points
                            .into_iter()
                            .filter(|p| p.get("x").is_none())
                            .collect();
                        (n, points)
                    })
                    .collect()
            } else {
                series
            };
            document(config, kind, shaped(series, shape))
        })
}

/// The documents of one kind.
fn documents(kind: CardKind) -> BoxedStrategy<Value> {
    match kind {
        CardKind::Bar
        | CardKind::GroupedBar
        | CardKind::StackedBar
        | CardKind::Pie
        | CardKind::Waterfall
        | CardKind::Choropleth => categorical().boxed(),
        CardKind::Timeseries | CardKind::AreaTimeseries | CardKind::StackedAreaTimeseries => {
            line().boxed()
        }
        CardKind::Scatter => scatter().boxed(),
        CardKind::Boxplot => boxplot().boxed(),
        CardKind::Heatmap => heatmap().boxed(),
        CardKind::Timeline => timeline().boxed(),
        CardKind::Histogram => histogram().boxed(),
        CardKind::Table => table().boxed(),
        CardKind::Treemap => treemap().boxed(),
        CardKind::TopLevelMetric => metric().boxed(),
        CardKind::Map | CardKind::BubbleMap => places().boxed(),
    }
}

/// Every kind, many cases each, shrinking a failure to its smallest.
#[test]
fn each_kind_round_trips() {
    // PROPTEST_CASES, as proptest's own tests take it, for a longer run.
    let cases: u32 = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    for kind in CardKind::ALL {
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
            cases,
            ..ProptestConfig::default()
        });
        let read = std::cell::Cell::new(0usize);
        let result = runner.run(&documents(kind), |document| {
            if Chart::from_json(&document.to_string()).is_ok() {
                read.set(read.get() + 1);
            }
            round_trip(&document)
        });
        if let Err(error) = result {
            panic!("{kind}: {error}");
        }
        // Most documents are charts: the contract is tested, not skipped.
        assert!(
            read.get() >= cases as usize / 2,
            "{kind}: only {} of {cases} read",
            read.get()
        );
    }
}

/// A chart read with `percent_change` holds the changes: it is written as
/// shown (the flag would apply the change again), and draws the same.
#[test]
fn a_percent_change_chart_is_written_as_shown() {
    let text = r#"{"viz_config": {"title": "Prices", "viz_component_type": "timeseries", "percent_change": true, "subtitle": "Monthly", "right_axis_series": ["Debt", "Start-up"]},
        "data": {"series": [
            {"name": "Gold", "points": [{"x": "2024-01", "y": 2000}, {"x": "2024-02", "y": 2250}]},
            {"name": "Debt", "points": [{"x": "2024-01", "y": -200}, {"x": "2024-02", "y": -100}]},
            {"name": "Start-up", "points": [{"x": "2024-01", "y": 0}, {"x": "2024-02", "y": 5}]}
        ]}}"#;
    let chart = Chart::from_json(text).unwrap();
    let written: Value = serde_json::to_value(&chart).unwrap();
    let config = &written["viz_config"];
    assert_eq!(config.get("percent_change"), None);
    assert_eq!(config["units"], "+%");
    assert_eq!(config["y_label"], "Change since start");
    assert_eq!(config["right_axis_series"], json!(["Debt"]));
    assert_eq!(written["data"]["series"][1]["points"][1]["y"], 50.0);
    let back = Chart::from_json(&written.to_string()).unwrap();
    assert!(same(&back, &expected(&chart)));
    let theme = chart.theme(Some(false));
    assert_eq!(
        chart.to_svg(800, 500, &theme),
        back.to_svg(800, 500, &theme)
    );
    // No right axis named: one axis, as the change of every series has.
    let one_axis = text.replace(r#", "right_axis_series": ["Debt", "Start-up"]"#, "");
    let chart = Chart::from_json(&one_axis).unwrap();
    let back = Chart::from_json(&serde_json::to_string(&chart).unwrap()).unwrap();
    assert_eq!(back.config.right_axis_series, Some(Vec::new()));
    assert_eq!(
        chart.to_svg(800, 500, &theme),
        back.to_svg(800, 500, &theme)
    );
}

/// Built rather than read, a chart is checked and finished as a read one
/// is: its type named, a stacked area stacked, values below zero refused.
#[test]
fn a_built_chart_is_what_reading_its_text_gives() {
    let series = |name: &str, ys: &[f64]| zdr_chart::model::Series {
        name: name.into(),
        xs: vec![1_704_067_200.0, 1_706_745_600.0],
        ys: ys.to_vec(),
        given: ys.len(),
    };
    let config = VizConfig {
        title: "Energy".into(),
        ..VizConfig::default()
    };
    let card = Card::Timeseries {
        series: vec![series("Coal", &[3.0, 4.0]), series("Wind", &[1.0, 2.0])],
        precision: zdr_chart::model::DatePrecision::Month,
    };
    let chart = Chart::build(config.clone(), CardKind::StackedAreaTimeseries, card).unwrap();
    assert!(matches!(chart.card, Card::Stacked(_)));
    assert_eq!(chart.config.kind, Some(CardKind::StackedAreaTimeseries));
    let written = serde_json::to_string(&chart).unwrap();
    assert!(same(&Chart::from_json(&written).unwrap(), &chart));
    let negative = Card::Timeseries {
        series: vec![series("Coal", &[3.0, -4.0])],
        precision: zdr_chart::model::DatePrecision::Month,
    };
    let error = Chart::build(config, CardKind::StackedAreaTimeseries, negative).unwrap_err();
    assert!(
        error.to_string().contains("stacks values of zero or more"),
        "{error}"
    );
}

/// The builders of cards the readers also make hold what the readers hold.
#[test]
fn built_boxes_and_metrics_are_what_the_reader_makes() {
    use zdr_chart::model::{Metric, When};
    let text = r#"{"viz_config": {"title": "t", "viz_component_type": "boxplot"},
        "data": [{"x": "a", "y": 1}, {"x": "b", "y": 5}, {"x": "a", "y": 3}, {"x": "c", "y": null}, {"x": "a", "y": 30}]}"#;
    let read = Chart::from_json(text).unwrap().card;
    let built = Card::boxplot(vec![
        ("a".into(), vec![1.0, 3.0, 30.0]),
        ("b".into(), vec![5.0]),
        ("c".into(), vec![]),
    ]);
    assert_eq!(read, built);
    for points in [
        r#"[{"x": "2024-03", "y": 3}, {"x": "2024-01", "y": 1}, {"x": "2024-02", "y": null}]"#,
        r#"[{"x": "Q1", "y": 3}, {"x": "2024-01", "y": 1}, {"y": 7}]"#,
        r#"[{"y": 7}]"#,
        r#"[]"#,
    ] {
        let text = format!(
            r#"{{"viz_config": {{"title": "t", "viz_component_type": "top_level_metric"}}, "data": {points}}}"#
        );
        let read = Chart::from_json(&text).unwrap().card;
        let given: Vec<Value> = serde_json::from_str(points).unwrap();
        let built = Metric::of(
            given
                .iter()
                .map(|p| {
                    let at = p["x"].as_str().map(When::of);
                    (at, p["y"].as_f64().unwrap_or(f64::NAN))
                })
                .collect(),
        );
        assert_eq!(
            format!("{read:?}"),
            format!("{:?}", Card::Metric(built)),
            "{points}"
        );
    }
}

/// A card built past a limit the readers keep is refused as its text
/// would be.
#[test]
fn a_built_chart_keeps_the_readers_limits() {
    let config = VizConfig {
        title: "Wide".into(),
        ..VizConfig::default()
    };
    let columns: Vec<String> = (0..201).map(|c| format!("c{c}")).collect();
    let card = Card::Table {
        rows: vec![columns.clone()],
        columns,
    };
    let error = Chart::build(config.clone(), CardKind::Table, card).unwrap_err();
    assert!(error.to_string().contains("at most 200 columns"), "{error}");
    let card = Card::Heatmap {
        xs: (0..600).map(|x| x.to_string()).collect(),
        ys: (0..600).map(|y| y.to_string()).collect(),
        values: Vec::new(),
    };
    assert!(Chart::build(config, CardKind::Heatmap, card).is_err());
}
