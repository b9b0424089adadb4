// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Each cap of `zdr_chart::model::limits`: a card right at it is read, one
//! past it is refused with the error documented in docs/data-format.md.

use zdr_chart::model::{
    DataError, MAX_BARS, MAX_BOXES, MAX_CATEGORIES, MAX_HEATMAP_CELLS, MAX_METRIC_POINTS,
    MAX_PIE_VALUES, MAX_PLACES, MAX_SERIES, MAX_STACKED_VALUES, MAX_TABLE_CELLS, MAX_TABLE_COLUMNS,
    MAX_TIMELINE_ROWS, MAX_TREEMAP_VALUES,
};
use zdr_chart::scene::Item;
use zdr_chart::Chart;

mod common;
use common::{list, post};

fn refused(text: &str) -> DataError {
    match Chart::from_json(text) {
        Ok(chart) => panic!("read a {} card past its cap", chart.kind),
        Err(error) => error,
    }
}

/// The texts of the card laid out at `width` × `height`.
fn texts(chart: &Chart, width: f64, height: f64) -> Vec<String> {
    let scene = chart.scene(width, height, &chart.theme(None), false);
    scene
        .items
        .into_iter()
        .filter_map(|item| match item {
            Item::Text { text, .. } => Some(text),
            _ => None,
        })
        .collect()
}

fn read(text: &str) -> Chart {
    Chart::from_json(text).unwrap_or_else(|e| panic!("refused at the cap: {e}"))
}

/// `count` one-point series, each in its own category or all in one.
fn series(count: usize, own_x: bool) -> String {
    let points = list(count, |i| {
        let x = if own_x { i } else { 0 };
        format!("{{\"points\":[{{\"x\":\"c{x}\",\"y\":1}}]}}")
    });
    format!("{{\"series\":{points}}}")
}

#[test]
fn series_beyond_what_a_legend_tells_apart() {
    for kind in [
        "bar",
        "grouped_bar",
        "stacked_bar",
        "pie",
        "waterfall",
        "choropleth",
    ] {
        read(&post(kind, &series(MAX_SERIES, false)));
        let error = refused(&post(kind, &series(MAX_SERIES + 1, false)));
        assert_eq!(error.path, "data.series", "{kind}");
        assert_eq!(
            error.message,
            format!("a card of 201 series; at most {MAX_SERIES} series can be told apart")
        );
    }
    let dated = |count: usize| {
        let columns = list(count + 1, |c| format!("\"{c}\""));
        let row = format!("[\"2024-01-01\",{}]", vec!["1"; count].join(","));
        format!("{{\"columns\":{columns},\"rows\":[{row}]}}")
    };
    read(&post("timeseries", &dated(MAX_SERIES)));
    let error = refused(&post("timeseries", &dated(MAX_SERIES + 1)));
    assert_eq!(error.path, "data.columns");
    let scatter = |count: usize| {
        let points = list(count, |i| format!("{{\"points\":[{{\"x\":{i},\"y\":1}}]}}"));
        format!("{{\"series\":{points}}}")
    };
    read(&post("scatter", &scatter(MAX_SERIES)));
    assert_eq!(
        refused(&post("scatter", &scatter(MAX_SERIES + 1))).path,
        "data.series"
    );
    // Pooled series have no legend and no cap.
    read(&post("histogram", &scatter(MAX_SERIES * 2)));
}

#[test]
fn categories_and_bars() {
    let points = |count: usize| list(count, |i| format!("{{\"x\":\"c{i}\",\"y\":1}}"));
    for kind in ["bar", "waterfall", "choropleth"] {
        read(&post(kind, &points(MAX_CATEGORIES)));
        let error = refused(&post(kind, &points(MAX_CATEGORIES + 1)));
        assert_eq!(error.path, "data", "{kind}");
        assert_eq!(
            error.message,
            format!("a {kind} card of more than 1000 categories (distinct x); at most {MAX_CATEGORIES} can be shown")
        );
    }
    // A pie folds what it cannot show into "Other".
    let pie = read(&post("pie", &points(MAX_CATEGORIES * 3)));
    let texts = texts(&pie, 640.0, 400.0);
    assert!(
        texts.iter().any(|t| t.contains("Other (2993)")),
        "{texts:?}"
    );

    // 50 series of 50 categories fill the bars; one more category is too many.
    let grid = |categories: usize| {
        let points = |s: usize| list(categories, |c| format!("{{\"x\":\"c{c}\",\"y\":{s}}}"));
        format!(
            "{{\"series\":{}}}",
            list(50, |s| format!("{{\"points\":{}}}", points(s)))
        )
    };
    assert_eq!(50 * 50, MAX_BARS);
    read(&post("stacked_bar", &grid(50)));
    let error = refused(&post("stacked_bar", &grid(51)));
    assert_eq!(error.path, "data");
    assert_eq!(
        error.message,
        "a stacked_bar card of 50 series and at least 51 categories (distinct x) has more than 2500 values; at most 2500 can be shown"
    );
    // Pie values are bounded by their own, larger cap.
    let wide = |categories: usize| {
        let points = |s: usize| list(categories, |c| format!("{{\"x\":\"c{s}-{c}\",\"y\":1}}"));
        format!(
            "{{\"series\":{}}}",
            list(2, |s| format!("{{\"points\":{}}}", points(s)))
        )
    };
    assert!(refused(&post("pie", &wide(MAX_PIE_VALUES / 4 + 1)))
        .message
        .contains("at most 100000 can be shown"));
}

#[test]
fn boxes_rows_and_cells() {
    let boxes = |count: usize| list(count, |i| format!("{{\"x\":\"b{i}\",\"values\":[1,2,3]}}"));
    read(&post("boxplot", &boxes(MAX_BOXES)));
    let error = refused(&post("boxplot", &boxes(MAX_BOXES + 1)));
    assert_eq!(
        error.to_string(),
        "data: a boxplot of more than 1000 boxes (distinct x); at most 1000 can be shown"
    );

    let items = |count: usize| {
        list(count, |i| {
            format!("{{\"label\":\"r{i}\",\"start\":\"2024\",\"end\":\"2025\"}}")
        })
    };
    read(&post("timeline", &items(MAX_TIMELINE_ROWS)));
    let error = refused(&post("timeline", &items(MAX_TIMELINE_ROWS + 1)));
    assert_eq!(
        error.to_string(),
        "data: a timeline of more than 2000 rows; at most 2000 can be shown"
    );

    let diagonal = |count: usize| {
        list(count, |i| {
            format!("{{\"x\":\"{i}\",\"y\":\"{i}\",\"value\":1}}")
        })
    };
    assert_eq!(500 * 500, MAX_HEATMAP_CELLS);
    read(&post("heatmap", &diagonal(500)));
    assert_eq!(
        refused(&post("heatmap", &diagonal(501))).to_string(),
        "data: a heatmap of 501 x and 501 y categories has 251001 cells; at most 250000 can be drawn"
    );
}

#[test]
fn table_columns_and_cells() {
    let keys = |count: usize| list(count, |i| format!("{{\"key{i}\":1}}"));
    read(&post("table", &keys(MAX_TABLE_COLUMNS)));
    assert_eq!(
        refused(&post("table", &keys(8_000))).to_string(),
        "data: a table of more than 200 columns (distinct keys); at most 200 columns can be shown"
    );
    let table = |columns: usize, rows: usize| {
        let names = list(columns, |c| format!("\"{c}\""));
        let row = format!("[{}]", vec!["1"; columns].join(","));
        format!(
            "{{\"columns\":{names},\"rows\":{}}}",
            list(rows, |_| row.clone())
        )
    };
    read(&post("table", &table(MAX_TABLE_COLUMNS, 2)));
    assert_eq!(
        refused(&post("table", &table(MAX_TABLE_COLUMNS + 1, 2))).to_string(),
        "data: a table of 201 columns; at most 200 columns can be shown"
    );
    let rows = MAX_TABLE_CELLS / 100;
    read(&post("table", &table(100, rows)));
    assert_eq!(
        refused(&post("table", &table(100, rows + 1))).to_string(),
        "data: a table of 5001 rows and 100 columns has 500100 cells; at most 500000 can be shown"
    );
    // Sparse keys: few columns, but rows × columns past the cap.
    let sparse = list(9_000, |i| format!("{{\"k{}\":1}}", i % 200));
    assert_eq!(
        refused(&post("table", &sparse)).to_string(),
        "data: a table of 9000 rows and 200 columns has 1800000 cells; at most 500000 can be shown"
    );
}

/// Empty heatmap cells are the background, drawn once: a diagonal of 500
/// values draws 500 cells, not 250,000.
#[test]
fn empty_heatmap_cells_are_not_drawn_one_by_one() {
    let diagonal = list(500, |i| {
        format!("{{\"x\":\"{i}\",\"y\":\"{i}\",\"value\":{i}}}")
    });
    let chart = read(&post("heatmap", &diagonal));
    let scene = chart.scene(880.0, 540.0, &chart.theme(None), false);
    let rects = scene
        .items
        .iter()
        .filter(|item| matches!(item, Item::Rect { .. }))
        .count();
    assert!(rects < 1_000, "{rects} rects");
}

/// A table wider than the card shows the columns that fit and counts the
/// others, instead of every column cut to nothing.
#[test]
fn wide_tables_show_the_columns_that_fit() {
    let columns = list(MAX_TABLE_COLUMNS, |c| format!("\"col{c}\""));
    let rows = list(3, |r| {
        format!("[{}]", vec![format!("{r}"); MAX_TABLE_COLUMNS].join(","))
    });
    let chart = read(&post(
        "table",
        &format!("{{\"columns\":{columns},\"rows\":{rows}}}"),
    ));
    let texts = texts(&chart, 880.0, 540.0);
    let has = |text: &str| texts.iter().any(|t| t == text);
    assert!(has("col0") && has("col5") && has("2"), "{texts:?}");
    assert!(!has("col199"));
    let hidden = texts.iter().find(|t| t.contains("more columns"));
    assert!(
        hidden.is_some_and(|note| note.starts_with('\u{2026}')),
        "{texts:?}"
    );
}

#[test]
fn places_stacks_treemap_cells_and_headline_points() {
    let place = |i: usize| format!("{{\"lat\":{},\"lon\":{}}}", i % 90, i % 180);
    read(&post("map", &list(MAX_PLACES, place)));
    let error = refused(&post("map", &list(MAX_PLACES + 1, place)));
    assert_eq!(error.path, "data");
    assert!(error.message.contains("at most 10000"), "{error}");

    // Ten series, each on its own dates (none is long enough to be kept
    // for pixels): 10 series × 10 × `dates` values.
    let stack = |dates: usize| {
        let series: Vec<String> = (0..10)
            .map(|s| {
                let points = list(dates, |i| {
                    format!("{{\"x\":{},\"y\":1}}", (i * 10 + s) as u64 * 60_000)
                });
                format!("{{\"name\":\"s{s}\",\"points\":{points}}}")
            })
            .collect();
        post(
            "stacked_area_timeseries",
            &format!("{{\"series\":[{}]}}", series.join(",")),
        )
        .replace(
            "\"viz_component_type\"",
            "\"x_time\":\"epoch_ms\",\"viz_component_type\"",
        )
    };
    read(&stack(MAX_STACKED_VALUES / 100));
    let error = refused(&stack(MAX_STACKED_VALUES / 100 + 1));
    assert_eq!(error.path, "data");
    assert!(
        error.message.contains("at most 1000000 can be stacked"),
        "{error}"
    );

    let cell = |i: usize| format!("{{\"x\":\"c{i}\",\"y\":1}}");
    read(&post("treemap", &list(MAX_TREEMAP_VALUES, cell)));
    let error = refused(&post("treemap", &list(MAX_TREEMAP_VALUES + 1, cell)));
    assert!(
        error.message.contains("more than 100000 categories"),
        "{error}"
    );

    let point = |i: usize| format!("{{\"y\":{i}}}");
    read(&post("top_level_metric", &list(MAX_METRIC_POINTS, point)));
    let error = refused(&post(
        "top_level_metric",
        &list(MAX_METRIC_POINTS + 1, point),
    ));
    assert!(
        error.message.contains("at most 10000 make its sparkline"),
        "{error}"
    );
}
