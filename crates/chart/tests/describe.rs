// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The card in words: the summary and the data table of every documented
//! example, and their limits on large and empty data.

use zdr_chart::describe::MAX_SUMMARY;
use zdr_chart::model::{Card, CardKind, DatePrecision, Series, VizConfig};
use zdr_chart::{Chart, View};

mod common;
use common::{example, NAMES};

#[test]
fn summaries_of_the_examples() {
    let expected = [
        (
            "bar",
            "Bar chart, 5 categories (North, South, East, West, Central), values from 18.4k to 52.9k.",
        ),
        (
            "grouped_bar",
            "Grouped bar chart, 3 series (Hardware, Software, Services), 4 categories (Q1, Q2, Q3, Q4), values from 400k USD to 1.9M USD.",
        ),
        (
            "timeseries",
            "Line chart, 2 series (Web, Mobile), 47 points from Jan 1, 2025 to Jun 22, 2025, values from 11.1k to 21.4k.",
        ),
        (
            "pie",
            "Pie chart, 5 slices: Chrome 64%, Safari 19%, Other 9%, Edge 5%, Firefox 3%.",
        ),
        (
            "boxplot",
            "Box plot, 3 groups (Carrier A, Carrier B, Carrier C), medians from 3 to 6.5.",
        ),
        (
            "heatmap",
            "Heatmap, 12 columns (08:00 to 19:00) by 7 rows (Mon to Sun), values from 8 to 29.",
        ),
        (
            "waterfall",
            "Waterfall chart, 6 steps (2024 profit, Price, Volume, Materials, Wages and 1 more), changes from \u{2212}260k EUR to +1.2M EUR, total 1.28M EUR.",
        ),
        (
            "table",
            "Table, 4 columns (Account, Country, Revenue, Growth), 5 rows.",
        ),
        (
            "area_timeseries",
            "Area chart, 24 points from Jan 2024 to Dec 2025, values from 120 to 7,805.",
        ),
        (
            "stacked_area_timeseries",
            "Stacked area chart, 4 series (Coal, Natural gas, Nuclear, Renewables), 15 dates from 2010 to 2024, totals from 3,970 TWh to 4,300 TWh.",
        ),
        (
            "treemap",
            "Treemap, 24 categories, in 5 groups, total 84.69 trillion USD, largest United States (32%), China (21%), Germany (5%).",
        ),
        (
            "top_level_metric",
            "Headline number, 1.48 M USD in Dec 2025, up 0.06 M USD (+4.2%) from 1.42 M USD in Nov 2025, the last of 12 values.",
        ),
        (
            "map",
            "Map of places, 3 series (Americas, Europe, Asia Pacific), 12 places (New York, San Francisco, São Paulo, Toronto, London and 7 more).",
        ),
        (
            "bubble_map",
            "Bubble map, 17 places (New York, Los Angeles, Chicago, Houston, Phoenix and 12 more), values from 0.29 M people to 8.26 M people.",
        ),
    ];
    for (name, summary) in expected {
        assert_eq!(example(name).summary(), summary, "{name}");
    }
    for name in NAMES {
        let summary = example(name).summary();
        assert!(
            summary.len() > 20 && summary.ends_with('.'),
            "{name}: {summary}"
        );
    }
    assert!(example("choropleth")
        .summary()
        .starts_with("Map, 25 regions, values from"));
    assert!(example("histogram")
        .summary()
        .starts_with("Histogram, 200 values from"));
}

#[test]
fn data_tables_of_the_examples() {
    for name in NAMES {
        let chart = example(name);
        let all = chart.data_table(usize::MAX);
        assert!(!all.columns.is_empty(), "{name}");
        assert_eq!(all.rows.len(), all.total_rows, "{name}");
        assert!(
            all.total_rows >= 3,
            "{name}: every example has 3 rows or more"
        );
        for row in &all.rows {
            assert_eq!(row.len(), all.columns.len(), "{name}: {row:?}");
        }
        let cut = chart.data_table(3);
        assert_eq!(cut.rows.len(), 3, "{name}");
        assert_eq!(cut.total_rows, all.total_rows, "{name}");
        assert_eq!(cut.rows[..], all.rows[..3], "{name}");
        assert!(chart.data_table(0).rows.is_empty());
    }
    let cells = |name: &str, max: usize| example(name).data_table(max);
    let t = cells("heatmap", 3);
    assert_eq!((t.rows.len(), t.total_rows), (3, 84));
    assert_eq!(t.columns, ["Hour", "Weekday", "Value"]);
    let t = cells("grouped_bar", 1);
    assert_eq!(t.columns, ["Category", "Hardware", "Software", "Services"]);
    assert_eq!(
        t.rows,
        [["Q1", "1,200,000 USD", "800,000 USD", "400,000 USD"]],
        "exact, unlike the labels on the bars"
    );
    let t = cells("timeseries", 2);
    assert_eq!(t.columns, ["Date", "Web", "Mobile"], "wide: shared dates");
    assert_eq!(t.rows[1][0], "Jan 8, 2025");
    let t = cells("scatter", 1);
    assert_eq!(t.columns, ["Series", "Height (cm)", "Weight (kg)"]);
    let t = cells("pie", 1);
    assert_eq!(t.rows, [["Chrome", "64.2%", "64%"]]);
    let t = cells("waterfall", 10);
    assert_eq!(
        t.rows[3],
        ["Materials", "\u{2212}260,000 EUR", "1,465,000 EUR"]
    );
    assert_eq!(t.rows[6], ["Total", "", "1,280,000 EUR"]);
    let t = cells("boxplot", 1);
    assert_eq!(t.columns, ["Group", "Min", "Q1", "Median", "Q3", "Max"]);
    assert_eq!(t.rows, [["Carrier A", "2", "3.5", "4", "5.5", "12"]]);
    let t = cells("timeline", 1);
    assert_eq!(t.rows, [["Research", "Jan 5, 2026", "Feb 20, 2026"]]);
    let t = cells("table", 2);
    assert_eq!(t.rows[1], ["Globex", "DE", "980,000", "\u{2212}0.03"]);
    // Region names come from the atlas; without it, the codes as written.
    let region = if cfg!(feature = "geo") {
        "United States"
    } else {
        "US"
    };
    assert_eq!(cells("choropleth", 1).rows, [[region, "92%"]]);
    let t = cells("histogram", 100);
    let counted: u64 = t.rows.iter().map(|r| r[1].parse::<u64>().unwrap()).sum();
    assert_eq!(counted, 200);
}

#[test]
fn large_and_long_data_stay_bounded() {
    let n = 1_000_000;
    let series = |name: &str, offset: f64| Series {
        name: name.repeat(30),
        xs: (0..n).map(|i| 1.7e9 + offset + 60.0 * i as f64).collect(),
        ys: (0..n).map(|i| (i % 1000) as f64 - 500.0).collect(),
        given: n,
    };
    let chart = Chart {
        config: VizConfig {
            title: "Big".into(),
            units: Some("$".into()),
            ..VizConfig::default()
        },
        kind: CardKind::Timeseries,
        card: Card::Timeseries {
            series: (0..12)
                .map(|i| series("Long name ", f64::from(i)))
                .collect(),
            precision: DatePrecision::Time,
        },
    };
    let summary = chart.summary();
    assert!(summary.chars().count() <= MAX_SUMMARY, "{summary}");
    assert!(summary.contains("and 7 more"), "{summary}");
    assert!(summary.contains("\u{2212}$500"), "{summary}");
    let table = chart.data_table(5);
    assert_eq!(
        table.columns,
        ["Series", "Date", "Value"],
        "long: dates differ"
    );
    assert_eq!((table.rows.len(), table.total_rows), (5, 12 * n));
}

#[test]
fn empty_cards_still_say_what_they_are() {
    let empty = Chart::from_json(
        r#"{"viz_config": {"title": "t", "viz_component_type": "pie"}, "data": []}"#,
    )
    .unwrap();
    assert_eq!(empty.summary(), "Pie chart, no data.");
    let table = empty.data_table(10);
    assert_eq!((table.rows.len(), table.total_rows), (0, 0));
    assert!(!table.columns.is_empty());
}

#[test]
fn a_line_kept_for_pixels_is_described_as_given() {
    // 40,000 points with a value and 1,000 without: kept to at most 32,768
    // and some gap points, described with the count it was given.
    let n = 41_000;
    let list = |f: &dyn Fn(usize) -> String| (0..n).map(f).collect::<Vec<_>>().join(",");
    let text = format!(
        r#"{{"viz_config": {{"title": "Load", "x_time": "epoch_ms"}}, "data": {{"x": [{}], "y": [{}]}}}}"#,
        list(&|i| (1_700_000_000_000u64 + 60_000 * i as u64).to_string()),
        list(&|i| if i % 41 == 0 {
            "null".into()
        } else {
            (i % 997).to_string()
        }),
    );
    for chart in [Chart::from_json(&text), Chart::from_json_tree(&text)] {
        let chart = chart.unwrap();
        let Card::Timeseries { series, .. } = &chart.card else {
            panic!("{:?}", chart.kind)
        };
        assert!(series[0].xs.len() < 34_000, "{}", series[0].xs.len());
        assert_eq!(series[0].given, 40_000);
        assert!(
            chart.summary().contains("40,000 points from"),
            "{}",
            chart.summary()
        );
    }
}

/// The CSV holds what the hidden table holds, every row of it, for a
/// program: the same header, numbers unformatted, dates in ISO 8601.
#[test]
fn csv_is_the_table_for_a_program() {
    let csv = example("timeseries").to_csv(&View::default());
    let mut lines = csv.split("\r\n");
    assert_eq!(lines.next(), Some("Date,Web,Mobile"));
    assert_eq!(lines.next(), Some("2025-01-01,16239,11510"));

    let bar = example("bar").to_csv(&View::default());
    assert!(bar.starts_with("Region,"), "{bar}");
    assert!(!bar.contains("k,") && !bar.contains('\u{a0}'), "{bar}");

    for name in NAMES {
        let chart = example(name);
        let table = chart.data_table(usize::MAX);
        let csv = chart.to_csv(&View::default());
        assert!(csv.ends_with("\r\n"), "{name}");
        // No example has a line break in a field, so lines are rows.
        assert_eq!(
            csv.split("\r\n").count() - 1,
            table.total_rows + 1,
            "{name}"
        );
    }

    // A hundred thousand points: every one, not the 200 a reader gets.
    let long = Chart::from_json(&format!(
        r#"{{"viz_config": {{"title": "t", "viz_component_type": "scatter"}}, "data": [{}]}}"#,
        (0..100_000)
            .map(|i| format!(r#"{{"x": {i}, "y": {}}}"#, f64::from(i) / 8.0))
            .collect::<Vec<_>>()
            .join(",")
    ))
    .expect("scatter");
    let csv = long.to_csv(&View::default());
    assert_eq!(csv.split("\r\n").count() - 1, 100_001);
    assert!(csv.contains("\r\n99999,12499.875\r\n"), "exact values");
}
