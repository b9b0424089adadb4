// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
// proptest is a native-only dev-dependency (see Cargo.toml).
#![cfg(not(target_arch = "wasm32"))]

//! Hostile input: whatever arrives in the `visualization_data` form field, reading it (and,
//! later, drawing it) ends in a card or in an error naming a JSON path, never in a panic.
//!
//! Every input goes through [`exercise`]. Each property runs 256 cases by default; set
//! `PROPTEST_CASES` for a longer run.

use plotters::prelude::{IntoDrawingArea, SVGBackend};
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use serde_json::{json, Map, Value};
use zdr_chart::describe::MAX_SUMMARY;
use zdr_chart::model::{Card, CardKind, DataError, VisualizationData};
use zdr_chart::reduce::{min_max_columns, thin_points};
use zdr_chart::Chart;

/// The one entry point every hostile input goes through: read, reduce, and
/// draw the card to SVG (which must parse as XML) at a normal and a cramped
/// size, in both themes.
fn exercise(text: &str) {
    // The streaming reader behind Chart::from_json answers exactly as the
    // tree reader does: the same card, or the same error.
    assert_eq!(
        format!("{:?}", Chart::from_json(text)),
        format!("{:?}", Chart::from_json_tree(text)),
        "streaming and tree readers differ on {}",
        preview(text)
    );
    match VisualizationData::from_json(text) {
        Ok(data) => {
            let kind = data.kind();
            assert!(CardKind::ALL.contains(&kind));
            match Chart::from_data(&data) {
                Ok(chart) => {
                    reduce_card(&chart.card);
                    draw(&chart);
                }
                Err(error) => check_error(&error, text),
            }
        }
        Err(error) => check_error(&error, text),
    }
}

fn draw(chart: &Chart) {
    for (width, height, dark) in [(640, 400, false), (90, 60, true)] {
        let theme = chart.theme(Some(dark));
        // Whatever the text, the document stays well-formed XML.
        let svg = chart.to_svg(width, height, &theme);
        assert!(roxmltree::Document::parse(&svg).is_ok(), "{svg}");
    }
    hits(chart);
    describe(chart);
}

/// Hit-testing at a normal and a dense scale, probed anywhere, NaN included.
fn hits(chart: &Chart) {
    for (width, height, scale) in [(640, 400, 1.0), (180, 120, 2.0)] {
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let map = match chart.draw_mapped(&area, &chart.theme(None), scale) {
            Ok(map) => map,
            Err(error) => panic!("drawing failed: {error}"),
        };
        assert!(map.len() <= 100_000, "{} hits", map.len());
        let probes = [
            0.0,
            100.0,
            250.0,
            -1.0,
            1e300,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for &x in &probes {
            for &y in &probes {
                for radius in [0.0, 8.0, f64::NAN, f64::INFINITY, -1.0] {
                    let found = map.at(x, y, radius);
                    if !(x.is_finite() && y.is_finite()) {
                        assert!(found.is_none());
                    }
                }
            }
        }
        for hit in map.iter() {
            assert!(!hit.label.is_empty() || !hit.value.is_empty(), "{hit:?}");
        }
    }
}

fn describe(chart: &Chart) {
    let summary = chart.summary();
    assert!(
        !summary.is_empty() && summary.chars().count() <= MAX_SUMMARY,
        "{summary}"
    );
    let table = chart.data_table(5);
    assert!(table.rows.len() <= 5 && table.rows.len() <= table.total_rows);
    for row in &table.rows {
        assert_eq!(row.len(), table.columns.len());
    }
}

/// The reductions the drawing applies to large series, on whatever the model produced.
fn reduce_card(card: &Card) {
    match card {
        Card::Timeseries { series, .. } => {
            for s in series {
                let lo = s.xs.first().copied().unwrap_or(0.0);
                let hi = s.xs.last().copied().unwrap_or(0.0);
                let (xs, ys) = min_max_columns(&s.xs, &s.ys, lo, hi, 3);
                assert_eq!(xs.len(), ys.len());
            }
        }
        Card::Scatter(series) => {
            for s in series {
                let kept = thin_points(
                    &s.xs,
                    &s.ys,
                    (f64::NEG_INFINITY, f64::INFINITY),
                    (f64::NEG_INFINITY, f64::INFINITY),
                    40,
                    30,
                    3.0,
                );
                assert!(kept.len() <= s.xs.len());
            }
        }
        _ => {}
    }
}

fn check_error(error: &DataError, text: &str) {
    let path = error.path.as_str();
    let rooted = ["visualization_data", "viz_config", "data"]
        .iter()
        .any(|root| {
            path == *root
                || path.starts_with(&format!("{root}."))
                || path.starts_with(&format!("{root}["))
        });
    assert!(
        rooted,
        "error path {path:?} is not rooted (message {:?}) for input {}",
        error.message,
        preview(text)
    );
    assert!(
        !error.message.trim().is_empty(),
        "empty message at {path:?} for input {}",
        preview(text)
    );
}

fn preview(text: &str) -> String {
    let cut: String = text.chars().take(300).collect();
    if cut.len() < text.len() {
        format!("{cut}… ({} bytes)", text.len())
    } else {
        cut
    }
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(256),
        ..ProptestConfig::default()
    }
}

const KEYS: [&str; 18] = [
    "viz_config",
    "data",
    "title",
    "x",
    "y",
    "series",
    "points",
    "columns",
    "rows",
    "value",
    "label",
    "start",
    "end",
    "values",
    "name",
    "viz_component_type",
    "colors",
    "dark_mode",
];

const VALID_DATES: [&str; 11] = [
    "2024-05-01",
    "2024-05",
    "2024",
    "2024-05-01T12:00:00Z",
    "2024-05-01 12:00",
    "2024-05-01T12:00:00.123+05:30",
    "2024-02-29",
    "0000-01-01",
    "0000-01-01T00:00:00+23:59",
    "9999-12-31T23:59:59Z",
    "9999-12-31T23:59:59-23:59",
];

const BAD_DATES: [&str; 12] = [
    "2025-13-40",
    "2024-02-30",
    "2023-02-29",
    "10000",
    "2024-1-5",
    "2024/01/05",
    "2024-05-01T",
    "2024-05-01T24:00",
    "2024-05-01T12:00:00.",
    "May",
    "２０２４",
    "",
];

const CATEGORIES: [&str; 8] = ["A", "B", "C", "A", "", "ü", "1", "Q1"];

// --- (a) arbitrary JSON --------------------------------------------------------------------

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        // Non-finite floats have no JSON form: json!() makes them null.
        any::<f64>().prop_map(|f| json!(f)),
        prop::sample::select(vec![
            json!(0),
            json!(-0.0),
            json!(1e308),
            json!(-1e308),
            json!(f64::MAX),
            json!(f64::MIN),
            json!(f64::MIN_POSITIVE),
            json!(5e-324),
            json!(i64::MIN),
            json!(i64::MAX),
            json!(u64::MAX),
            json!(-1),
            json!(0.5),
            json!(9999),
            json!(10000),
        ]),
    ]
}

fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(KEYS.to_vec()).prop_map(String::from),
        1 => prop::sample::select(VALID_DATES.to_vec()).prop_map(String::from),
        1 => prop::sample::select(BAD_DATES.to_vec()).prop_map(String::from),
        2 => "\\PC{0,12}",
        1 => prop::sample::select(CardKind::ALL.map(|k| k.as_str()).to_vec()).prop_map(String::from),
        1 => prop::sample::select(vec!["#fff", "#1f77b4", "#12345g", "red", "#", "#ffff"]).prop_map(String::from),
        1 => (1usize..50_000).prop_map(|n| "é".repeat(n)),
        1 => Just(String::new()),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(KEYS.to_vec()).prop_map(String::from),
        1 => "\\PC{0,8}",
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        string().prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 256, 12, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..12).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..12)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// Something shaped like a document more often than a random value would be.
fn document_like() -> impl Strategy<Value = Value> {
    (
        prop::option::of(json_value()),
        prop::option::of(json_value()),
        prop::collection::vec((key(), json_value()), 0..3),
        prop::option::of(json_value()),
    )
        .prop_map(|(config, data, extra, title)| {
            let mut root = Map::new();
            for (key, value) in extra {
                root.insert(key, value);
            }
            if let Some(mut config) = config {
                if let (Some(object), Some(title)) = (config.as_object_mut(), title) {
                    object.insert("title".into(), title);
                }
                root.insert("viz_config".into(), config);
            }
            if let Some(data) = data {
                root.insert("data".into(), data);
            }
            Value::Object(root)
        })
}

// --- (b) near-valid documents ----------------------------------------------------------------

/// A value that does not belong where it is put.
fn hostile() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        prop::sample::select(BAD_DATES.to_vec()).prop_map(Value::from),
        prop::sample::select(vec![
            "abc", "", "NaN", "inf", "-inf", "1e400", " 2 ", "0x10", "1,5"
        ])
        .prop_map(Value::from),
        Just(json!([])),
        Just(json!({})),
        Just(json!([1, "a", null])),
        Just(json!({"x": 1})),
    ]
}

/// `good` with odds of 100 to `rate` against a hostile value and as much against none.
fn slot<S: Strategy<Value = Value> + 'static>(good: S, rate: u32) -> BoxedStrategy<Option<Value>> {
    if rate == 0 {
        return good.prop_map(Some).boxed();
    }
    prop_oneof![
        100 => good.prop_map(Some),
        rate => hostile().prop_map(Some),
        rate => Just(None),
    ]
    .boxed()
}

/// A hostile value with odds of `rate` to 200, else none.
fn rarely(rate: u32) -> BoxedStrategy<Option<Value>> {
    if rate == 0 {
        return Just(None).boxed();
    }
    prop::option::weighted(f64::from(rate.min(200)) / 200.0, hostile()).boxed()
}

/// `good`, or with odds of 100 to `rate` a hostile value.
fn mostly<S: Strategy<Value = Value> + 'static>(good: S, rate: u32) -> BoxedStrategy<Value> {
    if rate == 0 {
        return good.boxed();
    }
    prop_oneof![100 => good, rate => hostile()].boxed()
}

fn category() -> BoxedStrategy<Value> {
    prop_oneof![
        4 => prop::sample::select(CATEGORIES.to_vec()).prop_map(Value::from),
        1 => (0i64..5).prop_map(Value::from),
        1 => "\\PC{1,6}".prop_map(Value::from),
    ]
    .boxed()
}

fn y_number() -> BoxedStrategy<Value> {
    prop_oneof![
        8 => (-1e6f64..1e6).prop_map(|f| json!(f)),
        4 => (-100i64..1000).prop_map(Value::from),
        1 => Just(Value::Null),
        1 => number().prop_filter("finite", |n| n.as_f64().is_some_and(f64::is_finite)),
    ]
    .boxed()
}

fn date() -> BoxedStrategy<Value> {
    prop_oneof![
        4 => prop::sample::select(VALID_DATES.to_vec()).prop_map(Value::from),
        4 => (1900u32..2100, 1u32..13, 1u32..29)
            .prop_map(|(y, m, d)| json!(format!("{y:04}-{m:02}-{d:02}"))),
        2 => (1900u32..2100, 1u32..13, 1u32..29, 0u32..24, 0u32..60)
            .prop_map(|(y, mo, d, h, mi)| json!(format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:00Z"))),
        1 => (0i64..10_000).prop_map(Value::from),
    ]
    .boxed()
}

/// A date or date-time in `years`.
fn dated(years: std::ops::Range<u32>) -> BoxedStrategy<Value> {
    prop_oneof![
        (years.clone(), 1u32..13, 1u32..29)
            .prop_map(|(y, m, d)| json!(format!("{y:04}-{m:02}-{d:02}"))),
        years.clone().prop_map(|y| json!(format!("{y:04}"))),
        years.prop_map(Value::from),
    ]
    .boxed()
}

fn scatter_x() -> BoxedStrategy<Value> {
    prop_oneof![
        8 => (-1e6f64..1e6).prop_map(|f| json!(f)),
        1 => prop::sample::select(vec!["1.5", " 2 ", "-0", "1e300", "5e-324"]).prop_map(Value::from),
        1 => Just(json!(1e308)),
    ]
    .boxed()
}

fn values_array(rate: u32) -> BoxedStrategy<Value> {
    prop::collection::vec(mostly(y_number(), rate), 0..20)
        .prop_map(Value::Array)
        .boxed()
}

/// One point for a card of `kind`, from its usual fields, each possibly hostile or missing.
fn point(kind: CardKind, rate: u32) -> BoxedStrategy<Value> {
    let field = |key: &'static str, good: BoxedStrategy<Value>| {
        slot(good, rate).prop_map(move |value| (key, value)).boxed()
    };
    let fields: Vec<BoxedStrategy<(&'static str, Option<Value>)>> = match kind {
        CardKind::Timeseries => vec![field("x", date()), field("y", y_number())],
        CardKind::Scatter => vec![field("x", scatter_x()), field("y", y_number())],
        CardKind::Pie => vec![
            field("x", category()),
            field(
                "y",
                prop_oneof![
                    200 => (0.0f64..100.0).prop_map(|f| json!(f)),
                    1 => (-10.0f64..0.0).prop_map(|f| json!(f)),
                    5 => Just(Value::Null),
                ]
                .boxed(),
            ),
        ],
        CardKind::Boxplot => vec![
            field("x", category()),
            prop_oneof![field("values", values_array(rate)), field("y", y_number()),].boxed(),
        ],
        CardKind::Heatmap => vec![
            field("x", category()),
            field("y", category()),
            field("value", y_number()),
        ],
        CardKind::Timeline => vec![
            field("label", category()),
            field(
                "start",
                prop_oneof![8 => dated(1900..2000), 1 => date()].boxed(),
            ),
            field(
                "end",
                prop_oneof![8 => dated(2000..2100), 1 => date()].boxed(),
            ),
        ],
        CardKind::Histogram => vec![field("y", y_number())],
        CardKind::Table => vec![
            field("x", category()),
            field("y", y_number()),
            field("note", hostile().boxed()),
        ],
        _ => vec![field("x", category()), field("y", y_number())],
    };
    let extra = prop::option::weighted(0.1, (key(), hostile()));
    let object = (fields, extra).prop_map(|(fields, extra)| {
        let mut object = Map::new();
        for (key, value) in fields {
            if let Some(value) = value {
                object.insert(key.into(), value);
            }
        }
        if let Some((key, value)) = extra {
            object.insert(key, value);
        }
        Value::Object(object)
    });
    mostly(object, rate)
}

/// The `data` of a card of `kind`: points, series or a table, hostile here and there.
fn data_for(kind: CardKind, rate: u32) -> BoxedStrategy<Value> {
    let points = prop::collection::vec(point(kind, rate), 0..30).prop_map(Value::Array);
    let series = prop::collection::vec(
        (
            slot(prop_oneof![category(), Just(Value::Null)], rate),
            slot(
                prop::collection::vec(point(kind, rate), 0..12).prop_map(Value::Array),
                rate,
            ),
        ),
        0..4,
    )
    .prop_map(|list| {
        let series = list
            .into_iter()
            .map(|(name, points)| {
                let mut object = Map::new();
                if let Some(name) = name {
                    object.insert("name".into(), name);
                }
                if let Some(points) = points {
                    object.insert("points".into(), points);
                }
                Value::Object(object)
            })
            .collect();
        json!({ "series": Value::Array(series) })
    });
    // The cell of column `c` of a table row.
    let cell = move |c: usize| -> BoxedStrategy<Value> {
        let good = match (kind, c) {
            (CardKind::Timeseries, 0) => date(),
            (CardKind::Scatter, 0) => scatter_x(),
            (CardKind::Timeline, 0) | (_, 0) => category(),
            (CardKind::Timeline, 1) => prop_oneof![30 => dated(1900..2000), 1 => date()].boxed(),
            (CardKind::Timeline, 2) => prop_oneof![30 => dated(2000..2100), 1 => date()].boxed(),
            _ => y_number(),
        };
        mostly(good, rate)
    };
    let widths = if kind == CardKind::Timeline {
        3usize..5
    } else {
        1usize..5
    };
    let table = (widths, 0usize..12)
        .prop_flat_map(move |(width, height)| {
            let names: Vec<Value> = (0..width)
                .map(|c| match (kind, c) {
                    (CardKind::Timeline, 0) => json!("label"),
                    (CardKind::Timeline, 1) => json!("start"),
                    (CardKind::Timeline, 2) => json!("end"),
                    _ => json!(format!("c{c}")),
                })
                .collect();
            let row = ((0..width).map(cell).collect::<Vec<_>>(), rarely(rate)).prop_map(
                |(mut row, extra)| {
                    row.extend(extra);
                    Value::Array(row)
                },
            );
            (
                Just(names),
                prop::collection::vec(mostly(row, rate), height),
                rarely(rate),
            )
        })
        .prop_map(|(names, rows, bad_columns)| {
            json!({ "columns": bad_columns.unwrap_or(Value::Array(names)), "rows": rows })
        });
    let shapes = prop_oneof![
        4 => points.boxed(),
        2 => series.boxed(),
        2 => table.boxed(),
    ];
    mostly(shapes, rate)
}

fn viz_config(kind: CardKind, rate: u32) -> BoxedStrategy<Value> {
    let type_name = prop_oneof![
        40 => Just(Value::from(kind.as_str())),
        4 => Just(Value::Null),
        1 => prop::sample::select(vec!["line", "Bar", "", "pie "]).prop_map(Value::from),
    ];
    let colors = prop::collection::vec(
        prop_oneof![
            100 => prop::sample::select(vec!["#fff", "#1f77b4", "#ABCDEF"]).prop_map(Value::from),
            rate => prop::sample::select(vec!["#12345g", "red", "#", "#ééé", "#ffff"]).prop_map(Value::from),
        ],
        0..4,
    )
    .prop_map(Value::Array);
    let text = || "\\PC{0,20}".prop_map(Value::from);
    (
        mostly(text(), rate),
        slot(type_name, rate),
        slot(text(), rate),
        slot(any::<bool>().prop_map(Value::Bool), rate),
        prop::option::weighted(0.2, slot(colors, rate)),
        prop::option::weighted(0.2, slot(text(), rate)),
    )
        .prop_map(|(title, type_name, units, dark, colors, subtitle)| {
            let mut object = Map::new();
            object.insert("title".into(), title);
            let entries = [
                ("viz_component_type", type_name),
                ("units", units),
                ("dark_mode", dark),
                ("colors", colors.flatten()),
                ("subtitle", subtitle.flatten()),
            ];
            for (key, value) in entries {
                if let Some(value) = value {
                    object.insert(key.into(), value);
                }
            }
            Value::Object(object)
        })
        .boxed()
}

/// A document for each card type, with hostility from none (0) to often (20 in 100).
fn near_valid() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(CardKind::ALL.to_vec()),
        prop::sample::select(vec![0u32, 0, 1, 3, 20]),
    )
        .prop_flat_map(|(kind, rate)| {
            (viz_config(kind, rate), data_for(kind, rate))
                .prop_map(|(config, data)| json!({ "viz_config": config, "data": data }))
        })
}

/// Many categories at once, built cheaply from a count and a seed.
fn many_categories() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(CardKind::ALL.to_vec()),
        0usize..3000,
        any::<u64>(),
    )
        .prop_map(|(kind, count, seed)| {
            // Heatmap and boxplot look categories up by scanning: keep their cells bounded.
            let count = match kind {
                CardKind::Heatmap => count.min(300),
                _ => count,
            };
            let mut state = seed;
            let mut next = move || {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                state >> 33
            };
            let points: Vec<Value> = (0..count)
                .map(|i| {
                    let r = next();
                    let y = (r % 2001) as f64 - 1000.0;
                    match kind {
                        CardKind::Heatmap => json!({"x": format!("x{i}"), "y": format!("y{}", r % 300), "value": y}),
                        CardKind::Timeline => json!({"label": format!("t{i}"), "start": format!("{:04}-01-01", 1 + r % 9000), "end": "9999-12-31"}),
                        CardKind::Timeseries => json!({"x": format!("{:04}-{:02}-01", 1900 + r % 200, 1 + r % 12), "y": y}),
                        CardKind::Scatter => json!({"x": y * 1e300, "y": (r % 7) as f64}),
                        CardKind::Boxplot => json!({"x": format!("g{}", r % 500), "y": y}),
                        CardKind::Histogram => json!({"y": y * 1e305}),
                        // Duplicate x every so often; negative pie values now and then.
                        _ => json!({"x": format!("c{}", if r % 10 == 0 { 0 } else { i as u64 }), "y": if kind == CardKind::Pie { y.abs() } else { y }}),
                    }
                })
                .collect();
            json!({"viz_config": {"title": "many", "viz_component_type": kind.as_str()}, "data": points})
        })
}

/// A post of at most 64 KB packed with as many marks as `kind` can take,
/// in one of the three shapes: the output bound must hold for all of them.
fn dense_post(kind: CardKind, shape: u8, series: usize, categories: usize, seed: u64) -> String {
    const BUDGET: usize = 64 * 1024;
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let categories = categories.max(1);
    let mut point = |c: usize| -> String {
        let r = next();
        let y = if r % 17 == 0 {
            "null".to_string()
        } else {
            format!("{}", r % 1000)
        };
        match kind {
            CardKind::Timeseries => format!(
                "{{\"x\":\"{}-{:02}-01\",\"y\":{y}}}",
                1900 + c % 100,
                c / 100 % 12 + 1
            ),
            CardKind::Scatter => format!("{{\"x\":{},\"y\":{y}}}", r % 997),
            CardKind::Heatmap => format!(
                "{{\"x\":\"x{}\",\"y\":\"y{}\",\"value\":{y}}}",
                c % 97,
                c / 97
            ),
            CardKind::Timeline => format!(
                "{{\"label\":\"t{c}\",\"start\":{},\"end\":2100}}",
                1900 + r % 200
            ),
            CardKind::Boxplot => format!("{{\"x\":\"g{c}\",\"values\":[{y},{},1000]}}", r % 7),
            CardKind::Table => format!("{{\"k{c}\":{y}}}"),
            _ => format!("{{\"x\":\"c{c}\",\"y\":{y}}}"),
        }
    };
    let head =
        format!("{{\"viz_config\":{{\"title\":\"t\",\"viz_component_type\":\"{kind}\"}},\"data\":");
    let mut text = head;
    let room = |text: &String, more: usize| text.len() + more + 8 <= BUDGET;
    match shape {
        0 => {
            text.push('[');
            for i in 0.. {
                let item = point(i % categories);
                if !room(&text, item.len()) {
                    break;
                }
                if i > 0 {
                    text.push(',');
                }
                text.push_str(&item);
            }
            text.push_str("]}");
        }
        1 => {
            text.push_str("{\"series\":[");
            'all: for s in 0..series.max(1) {
                let open = format!(
                    "{}{{\"name\":\"s{s}\",\"points\":[",
                    if s > 0 { "," } else { "" }
                );
                if !room(&text, open.len()) {
                    break;
                }
                text.push_str(&open);
                for c in 0..categories {
                    let item = point(c);
                    if !room(&text, item.len()) {
                        text.push_str("]}");
                        break 'all;
                    }
                    if c > 0 {
                        text.push(',');
                    }
                    text.push_str(&item);
                }
                text.push_str("]}");
            }
            text.push_str("]}}");
        }
        _ => {
            let names: Vec<String> = (0..=series).map(|c| format!("\"{c}\"")).collect();
            text.push_str(&format!("{{\"columns\":[{}],\"rows\":[", names.join(",")));
            for r in 0.. {
                let first = match kind {
                    CardKind::Timeseries | CardKind::Timeline => format!("\"{}\"", 1000 + r),
                    CardKind::Scatter => format!("{r}"),
                    _ => format!("\"r{}\"", r % categories),
                };
                let cells: Vec<String> = (0..series).map(|_| format!("{}", next() % 10)).collect();
                let row = format!(
                    "{}[{first}{}{}]",
                    if r > 0 { "," } else { "" },
                    if series > 0 { "," } else { "" },
                    cells.join(",")
                );
                if !room(&text, row.len()) {
                    break;
                }
                text.push_str(&row);
            }
            text.push_str("]}}");
        }
    }
    text
}

// --- (c) bytes and broken examples -----------------------------------------------------------

fn examples() -> Vec<String> {
    let texts: Vec<String> = zdr_test_support::examples()
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    assert_eq!(
        texts.len(),
        CardKind::ALL.len() + 2,
        "one example per card type, and the columnar timeseries and scatter"
    );
    texts
}

/// An example cut short, or with a few bytes overwritten.
fn broken_example() -> impl Strategy<Value = String> {
    let texts = examples();
    (
        prop::sample::select(texts),
        any::<prop::sample::Index>(),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        any::<bool>(),
    )
        .prop_map(|(text, cut, edits, truncate)| {
            let mut bytes = text.into_bytes();
            for (at, byte) in edits {
                if !bytes.is_empty() {
                    let at = at.index(bytes.len());
                    bytes[at] = byte;
                }
            }
            if truncate && !bytes.is_empty() {
                bytes.truncate(cut.index(bytes.len()));
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_json_values(value in json_value()) {
        exercise(&value.to_string());
    }

    #[test]
    fn arbitrary_document_like_values(value in document_like()) {
        exercise(&value.to_string());
    }

    #[test]
    fn near_valid_documents_of_every_type(value in near_valid()) {
        exercise(&value.to_string());
    }

    #[test]
    fn huge_counts_of_categories(value in many_categories()) {
        exercise(&value.to_string());
    }

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        exercise(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_text(text in "\\PC{0,200}") {
        exercise(&text);
    }

    #[test]
    fn truncated_and_corrupted_examples(text in broken_example()) {
        exercise(&text);
    }
}

proptest! {
    // Each case reads and draws 64 KB four times: fewer, heavier cases
    // unless PROPTEST_CASES asks for more.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(32),
        ..ProptestConfig::default()
    })]

    /// No post of at most 64 KB draws more than 450 KB of SVG at any of the
    /// host's four frame sizes (the page of all four stays under 2 MB).
    #[test]
    fn dense_small_posts_draw_small_pages(
        kind in prop::sample::select(CardKind::ALL.to_vec()),
        shape in 0u8..3,
        series in prop::sample::select(vec![0usize, 1, 2, 12, 50, 199, 200, 201, 400]),
        categories in prop::sample::select(vec![1usize, 7, 24, 200, 999, 1000, 1001, 5000]),
        seed in any::<u64>(),
    ) {
        let text = dense_post(kind, shape, series, categories, seed);
        prop_assert!(text.len() <= 64 * 1024);
        match Chart::from_json(&text) {
            Ok(chart) => {
                let theme = chart.theme(None);
                for (width, height) in [(880, 540), (820, 400), (640, 580), (400, 360)] {
                    let svg = chart.to_svg(width, height, &theme);
                    prop_assert!(
                        svg.len() <= 450 * 1024,
                        "{kind} at {width}x{height}: {} bytes of SVG from {}",
                        svg.len(),
                        preview(&text)
                    );
                }
            }
            Err(error) => check_error(&error, &text),
        }
    }
}

#[test]
fn every_example_reads_and_every_prefix_fails_cleanly() {
    for text in examples() {
        exercise(&text);
        assert!(VisualizationData::from_json(&text)
            .and_then(|d| d.card())
            .is_ok());
        // Every cut of the smaller examples; a sample of cuts for the large ones.
        let step = (text.len() / 400).max(1);
        for end in (0..text.len()).step_by(step) {
            if let Some(prefix) = text.get(..end) {
                exercise(prefix);
                if end < text.trim_end().len() {
                    assert!(VisualizationData::from_json(prefix).is_err(), "{end}");
                }
            }
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let depth = 10_000;
    let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let objects = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
    let inside_data = format!("{{\"viz_config\": {{\"title\": \"t\"}}, \"data\": {arrays}}}");
    let inside_point = format!(
        "{{\"viz_config\": {{\"title\": \"t\"}}, \"data\": [{{\"x\": {arrays}, \"y\": 1}}]}}"
    );
    let unclosed = "[".repeat(depth * 10);
    for text in [&arrays, &objects, &inside_data, &inside_point, &unclosed] {
        exercise(text);
        let error = VisualizationData::from_json(text).err();
        assert_eq!(
            error.as_ref().map(|e| e.path.as_str()),
            Some("visualization_data"),
            "{error:?}"
        );
    }
    // Nesting the JSON reader accepts (it stops at 128 levels) reads or fails with a path.
    let shallow = "[".repeat(100) + &"]".repeat(100);
    exercise(&format!(
        "{{\"viz_config\": {{\"title\": \"t\"}}, \"data\": [{{\"x\": {shallow}, \"y\": {shallow}, \"value\": {shallow}, \"values\": {shallow}}}]}}"
    ));
}

#[test]
fn hand_picked_hostile_documents() {
    let title = json!({"title": "t"});
    let with_type = |kind: &str| json!({"title": "t", "viz_component_type": kind});
    let docs = [
        json!(null),
        json!(""),
        json!({}),
        json!({"viz_config": null, "data": null}),
        json!({"viz_config": title, "data": []}),
        json!({"viz_config": title, "data": {}}),
        json!({"viz_config": title, "data": {"series": []}}),
        json!({"viz_config": title, "data": {"series": [{}]}}),
        json!({"viz_config": title, "data": {"series": [{"name": [], "points": []}]}}),
        json!({"viz_config": title, "data": {"columns": [], "rows": []}}),
        json!({"viz_config": title, "data": {"columns": [null], "rows": [[1]]}}),
        json!({"viz_config": title, "data": {"columns": ["a"], "rows": [[[]]]}}),
        json!({"viz_config": with_type("heatmap"), "data": {"columns": ["a"], "rows": [[null]]}}),
        json!({"viz_config": with_type("timeline"), "data": {"columns": [], "rows": [[]]}}),
        json!({"viz_config": with_type("timeline"), "data": [{"label": "a", "start": "0000-01-01T00:00:00+23:59", "end": "9999-12-31T23:59:59-23:59"}]}),
        json!({"viz_config": with_type("timeseries"), "data": [{"x": 0, "y": 1}, {"x": 9999, "y": 1e308}, {"x": "9999-12-31T23:59:59Z", "y": -1e308}]}),
        json!({"viz_config": with_type("timeseries"), "data": [{"x": "2025-13-40", "y": 1}]}),
        json!({"viz_config": with_type("scatter"), "data": [{"x": "1e400", "y": 1}]}),
        json!({"viz_config": with_type("scatter"), "data": [{"x": u64::MAX, "y": i64::MIN}]}),
        json!({"viz_config": with_type("pie"), "data": [{"x": "a", "y": -0.0}, {"x": "a", "y": -1}]}),
        json!({"viz_config": with_type("boxplot"), "data": [{"x": "a", "values": []}, {"x": "a", "values": [null, 1e308, -1e308]}]}),
        json!({"viz_config": with_type("boxplot"), "data": [{"x": "a", "values": "1,2,3"}]}),
        json!({"viz_config": with_type("histogram"), "data": [{"y": 1e308}, {"y": -1e308}, {"y": 5e-324}]}),
        json!({"viz_config": with_type("waterfall"), "data": [{"x": "a", "y": 1e308}, {"x": "b", "y": 1e308}]}),
        json!({"viz_config": with_type("table"), "data": [1, 2]}),
        json!({"viz_config": with_type("table"), "data": {"series": [{"points": [1]}]}}),
        json!({"viz_config": {"title": "t", "colors": ["#fff", "#ééé"]}, "data": []}),
        json!({"viz_config": {"title": "t", "colors": "#fff"}, "data": []}),
        json!({"viz_config": {"title": "t", "dark_mode": "yes"}, "data": []}),
    ];
    for doc in docs {
        exercise(&doc.to_string());
    }
    for text in [
        "",
        " ",
        "\u{feff}{}",
        "nul",
        "{\"viz_config\"",
        "\0",
        "1e999",
        "[1,]",
    ] {
        exercise(text);
    }
}
