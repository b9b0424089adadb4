// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The streaming reader behind `Chart::from_json` (issue 15) against the
//! tree reader it replaces for timeseries and scatter cards: the same card
//! (and so the same scene) or the same error, for every example, every
//! fuzz corpus document and a set of bad documents; and it is the one
//! taken for the cards it reads.

use std::path::PathBuf;

use zdr_chart::Chart;

fn same(text: &str, what: &str) {
    let streamed = Chart::from_json(text);
    let tree = Chart::from_json_tree(text);
    // Debug, not ==: missing values are NaN.
    assert_eq!(format!("{streamed:?}"), format!("{tree:?}"), "{what}");
    if let (Ok(streamed), Ok(tree)) = (streamed, tree) {
        let theme = tree.theme(Some(false));
        assert_eq!(
            streamed.to_svg(640, 400, &theme),
            tree.to_svg(640, 400, &theme),
            "{what}"
        );
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn every_example_reads_the_same() {
    let mut count = 0;
    for (name, text) in zdr_test_support::examples() {
        same(&text, &name);
        count += 1;
    }
    assert!(count >= 13);
}

#[test]
fn every_fuzz_corpus_document_reads_the_same() {
    let mut count = 0;
    for entry in std::fs::read_dir(root().join("fuzz/corpus/chart_read_draw")).unwrap() {
        let path = entry.unwrap().path();
        if let Ok(text) = std::str::from_utf8(&std::fs::read(&path).unwrap()) {
            same(text, &path.display().to_string());
            count += 1;
        }
    }
    assert!(count > 1_000, "{count}");
}

fn post(config: &str, data: &str) -> String {
    format!("{{\"viz_config\": {{\"title\": \"T\"{config}}}, \"data\": {data}}}")
}

#[test]
fn documents_good_and_bad_read_the_same() {
    let ts = ", \"viz_component_type\": \"timeseries\"";
    let sc = ", \"viz_component_type\": \"scatter\"";
    let cases = [
        post(
            "",
            r#"[{"x": "2024-01-02", "y": 1}, {"x": "2024-01-01", "y": null}]"#,
        ),
        post("", r#"[{"x": 2024, "y": 1}, {"x": 1999}]"#),
        post(
            "",
            r#"[{"x": "2024-01", "y": 1, "x": "2023-05-06T10:00:00Z"}]"#,
        ),
        post(
            "",
            r#"[{"x": 1, "y": 2}, {"x": 3.5, "y": -1e3, "note": [1, {"a": 2}]}]"#,
        ),
        post("", r#"[{"x": null, "y": 2}, {"x": 3, "y": null}]"#),
        post(sc, r#"[{"x": " 1.5 ", "y": 2}, {"x": "\u0031", "y": 3}]"#),
        post(
            ts,
            r#"{"series": [{"name": "A", "points": [{"x": "2024", "y": 1}]}, {"points": [{"x": "2025", "y": 2}]}, {"name": 7, "points": []}]}"#,
        ),
        post(
            ts,
            r#"{"series": [{"name": "", "points": [{"x": "2024", "y": 1}]}, {"name": null, "points": []}]}"#,
        ),
        post(
            "",
            r#"{"series": [{"name": "A", "points": [{"x": 1, "y": 1}]}, {"name": "B", "points": [{"x": 2, "y": 2}]}]}"#,
        ),
        post(
            "",
            r#"{"series": [{"name": "A", "points": [{"x": "a", "y": 1}]}]}"#,
        ),
        // Errors, each worded and placed by the tree reader.
        post(ts, r#"[{"x": "2024-13-01", "y": 1}]"#),
        post(ts, r#"[{"x": 10000, "y": 1}]"#),
        post(ts, r#"[{"y": 1}]"#),
        post(ts, r#"[{"x": "2024", "y": "1"}]"#),
        post(ts, r#"[{"x": "2024", "y": true}, 3]"#),
        post(sc, r#"[{"x": "abc", "y": 1}]"#),
        post(sc, r#"[{"x": 1, "y": [1]}]"#),
        post(sc, r#"{"series": [{"name": true, "points": []}]}"#),
        post(sc, r#"{"series": [{"name": "a", "points": {}}]}"#),
        post(sc, r#"{"series": [{"name": "a"}]}"#),
        post(sc, r#"{"series": 3}"#),
        post(
            sc,
            r#"{"series": [{"name": "a", "points": [{"x": 1, "y": 2}]}], "series": [4]}"#,
        ),
        post(sc, r#"{"rows": []}"#),
        post(sc, "7"),
        post(sc, r#"[{"x": 1, "y": 2}"#),
        post(sc, r#"[{"x": 1, "y": 2}] , "extra": [1,]"#),
        post(sc, r#"[{"x": 1, "y": 2}]} trailing"#),
        r#"{"data": [{"x": 1, "y": 2}]}"#.to_string(),
        r#"{"viz_config": {}, "data": [{"x": 1, "y": 2}]}"#.to_string(),
        r#"{"viz_config": {"title": "T"}}"#.to_string(),
        format!("{}{}", "[".repeat(200), "]".repeat(200)),
        format!(
            "{{\"viz_config\": {{\"title\": \"T\"}}, \"data\": {}{}}}",
            "[".repeat(130),
            "]".repeat(130)
        ),
        post(
            sc,
            &format!(
                "{{\"series\": [{}]}}",
                vec![r#"{"points": [{"x": 1, "y": 2}]}"#; 201].join(",")
            ),
        ),
        post(
            sc,
            &format!(
                "{{\"series\": [{}]}}",
                vec![r#"{"points": [{"x": 1, "y": 2}]}"#; 200].join(",")
            ),
        ),
    ];
    for text in &cases {
        same(text, text);
    }
}
