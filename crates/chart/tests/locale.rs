// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! `viz_config.locale`: tick labels, data labels, tooltips and the data
//! table of cards in each locale, asserted on the scene and the table.
//! Expected texts are CLDR's (as the browsers' Intl writes them).

use zdr_chart::scene::Item;
use zdr_chart::Chart;

fn card(locale: &str, kind: &str, data: &str) -> Chart {
    let json = format!(
        r#"{{"viz_config": {{"title": "t", "viz_component_type": "{kind}", "locale": "{locale}"}}, "data": {data}}}"#
    );
    Chart::from_json(&json).unwrap()
}

fn texts(chart: &Chart) -> Vec<String> {
    let theme = chart.theme(Some(false));
    chart
        .scene(800.0, 500.0, &theme, true)
        .items
        .into_iter()
        .filter_map(|item| match item {
            Item::Text { text, .. } => Some(text),
            _ => None,
        })
        .collect()
}

/// Monthly values from January 2024 to June 2025, up to 1.8 million.
const MONTHS: &str = r#"[
    {"x": "2024-01", "y": 1000000}, {"x": "2024-04", "y": 1250000}, {"x": "2024-07", "y": 1500000},
    {"x": "2024-10", "y": 1234567.5}, {"x": "2025-01", "y": 1800000}, {"x": "2025-06", "y": 1700000}]"#;

#[test]
fn axes_are_written_in_the_cards_locale() {
    let has = |texts: &[String], want: &str| texts.iter().any(|t| t == want);
    let cases: [(&str, &[&str]); 6] = [
        ("en-US", &["1.8M", "Jan 2024", "Jan 2025"]),
        ("de-DE", &["1,8\u{a0}Mio.", "Jan. 2024", "Jan. 2025", "Apr"]),
        ("fr-FR", &["1,8\u{a0}M", "janv. 2024"]),
        (
            "ja-JP",
            &["180\u{4e07}", "2024\u{5e74}1\u{6708}", "4\u{6708}"],
        ),
        ("pt-BR", &["1,8\u{a0}mi", "jan. de 2024"]),
        ("hi-IN", &["18\u{a0}\u{932}\u{93e}\u{916}"]),
    ];
    for (locale, wanted) in cases {
        let shown = texts(&card(locale, "timeseries", MONTHS));
        for want in wanted {
            assert!(has(&shown, want), "{locale}: {want:?} in {shown:?}");
        }
    }
}

#[test]
fn the_data_table_and_tooltips_write_exact_values_and_dates_in_the_locale() {
    let cases = [
        ("en-US", "Oct 1, 2024", "1,234,567.5"),
        ("en-GB", "1 Oct 2024", "1,234,567.5"),
        ("de-DE", "1. Okt. 2024", "1.234.567,5"),
        ("fr-FR", "1 oct. 2024", "1\u{202f}234\u{202f}567,5"),
        ("es-ES", "1 oct 2024", "1.234.567,5"),
        ("it-IT", "1 ott 2024", "1.234.567,5"),
        ("pt-BR", "1 de out. de 2024", "1.234.567,5"),
        ("ja-JP", "2024\u{5e74}10\u{6708}1\u{65e5}", "1,234,567.5"),
        ("zh-CN", "2024\u{5e74}10\u{6708}1\u{65e5}", "1,234,567.5"),
        (
            "hi-IN",
            "1 \u{905}\u{915}\u{94d}\u{91f}\u{942}\u{970} 2024",
            "12,34,567.5",
        ),
    ];
    let daily = r#"[{"x": "2024-09-30", "y": 1}, {"x": "2024-10-01", "y": 1234567.5}]"#;
    for (locale, date, value) in cases {
        let chart = card(locale, "timeseries", daily);
        let table = chart.data_table(10);
        assert_eq!(table.rows[1], [date, value], "{locale}");
        // A tooltip says the same, after the layout is over.
        let theme = chart.theme(Some(false));
        let hits = chart.scene(800.0, 500.0, &theme, true).hits;
        let hit = hits.iter().find(|h| h.value == value);
        assert!(
            hit.is_some_and(|h| h.label == date),
            "{locale}: {:?}",
            hits.iter().collect::<Vec<_>>()
        );
    }
}

#[test]
fn compact_forms_and_grouping_follow_the_locale_on_value_axes() {
    let bars = r#"[{"x": "a", "y": 45000}, {"x": "b", "y": 12000}]"#;
    let has = |locale: &str, want: &str| {
        let shown = texts(&card(locale, "bar", bars));
        assert!(
            shown.iter().any(|t| t == want),
            "{locale}: {want:?} in {shown:?}"
        );
    };
    // Thousands: "k" in English, in full in German (no short form), 万 in Japanese.
    has("en-US", "45k");
    has("de-DE", "45.000");
    has("es-ES", "45\u{a0}mil");
    has("ja-JP", "4.5\u{4e07}");
    // Spanish groups from five digits: a four-digit count stays whole.
    let small = r#"[{"x": "a", "y": 4500}, {"x": "b", "y": 1200}]"#;
    let shown = texts(&card("es-ES", "bar", small));
    assert!(shown.iter().any(|t| t == "4500"), "{shown:?}");
}

#[test]
fn a_locale_outside_the_list_is_refused_by_name() {
    let json = r#"{"viz_config": {"title": "t", "locale": "sw-KE"}, "data": [{"x": "a", "y": 1}]}"#;
    for read in [Chart::from_json, Chart::from_json_tree] {
        let error = read(json).unwrap_err().to_string();
        assert!(
            error.starts_with("viz_config.locale: \"sw-KE\" is not a locale charts are written in; use one of en-US, en-GB, de-DE"),
            "{error}"
        );
    }
    // A language alone, or another region of one, picks the list's first.
    let chart = card("de-AT", "bar", r#"[{"x": "a", "y": 45000}]"#);
    assert_eq!(chart.config.locale.tag(), "de-DE");
}

#[test]
fn currencies_and_percents_stand_where_the_locale_puts_them() {
    let json = |locale: &str, units: &str| {
        format!(
            r#"{{"viz_config": {{"title": "t", "viz_component_type": "bar", "locale": "{locale}", "units": "{units}"}}, "data": [{{"x": "a", "y": 1234.5}}, {{"x": "b", "y": 45}}]}}"#
        )
    };
    let cases = [
        ("en-US", "$", "$1,234.5"),
        ("de-DE", "\u{20ac}", "1.234,5\u{a0}\u{20ac}"),
        ("fr-FR", "\u{20ac}", "1\u{202f}234,5\u{a0}\u{20ac}"),
        ("pt-BR", "R$", "R$\u{a0}1.234,5"),
        ("de-DE", "%", "1.234,5\u{a0}%"),
        ("en-GB", "%", "1,234.5%"),
    ];
    for (locale, units, want) in cases {
        let chart = Chart::from_json(&json(locale, units)).unwrap();
        let table = chart.data_table(10);
        assert_eq!(table.rows[0][1], want, "{locale} {units}");
    }
    // A pie's shares too.
    let pie = r#"{"viz_config": {"title": "t", "viz_component_type": "pie", "locale": "fr-FR"}, "data": [{"x": "a", "y": 3}, {"x": "b", "y": 1}]}"#;
    let shown = texts(&Chart::from_json(pie).unwrap());
    assert!(shown.iter().any(|t| t.contains("75\u{a0}%")), "{shown:?}");
}
