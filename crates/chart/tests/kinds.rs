// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! "Adding a card kind" (docs/architecture.md) kept true: every kind the
//! registry names has what a user of the kind meets: its example, its
//! entry in the schema and in the data format page, its gallery tile, a
//! summary and a data table for screen readers, and a writer that the
//! readers read back.

use std::path::Path;

use zdr_chart::model::CardKind;
use zdr_chart::Chart;

fn read(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join(path)).unwrap_or_default()
}

/// What `kind` lacks, one line each.
fn lacks(kind: CardKind, schema: &str, format: &str, gallery: &str) -> Vec<String> {
    let name = kind.as_str();
    let mut missing = Vec::new();
    let mut lack = |what: &str| missing.push(format!("{name}: {what}"));
    if !schema.contains(&format!("\"{name}\"")) {
        lack("no entry in schema/visualization_data.schema.json");
    }
    if !format.contains(&format!("`{name}`")) {
        lack("not named in docs/data-format.md");
    }
    if !gallery.contains(&format!("'{name}'")) {
        lack("no tile in scripts/gallery.mjs (the README's gallery)");
    }
    let example = read(&format!("docs/examples/{name}.json"));
    if example.is_empty() {
        lack(&format!("no example docs/examples/{name}.json"));
        return missing;
    }
    let chart = match Chart::from_json(&example) {
        Ok(chart) if chart.kind == kind => chart,
        Ok(chart) => {
            lack(&format!(
                "docs/examples/{name}.json reads as {:?}",
                chart.kind
            ));
            return missing;
        }
        Err(error) => {
            lack(&format!("docs/examples/{name}.json does not read: {error}"));
            return missing;
        }
    };
    if chart.summary().trim().is_empty() {
        lack("an empty summary");
    }
    let table = chart.data_table(20);
    if table.columns.is_empty() || table.rows.is_empty() {
        lack("an empty data table");
    }
    match serde_json::to_string(&chart).map(|text| Chart::from_json(&text)) {
        Ok(Ok(again)) if format!("{again:?}") == format!("{chart:?}") => {}
        Ok(Ok(_)) => lack("written and read again, its example is another chart"),
        Ok(Err(error)) => lack(&format!("its example, written, does not read: {error}")),
        Err(error) => lack(&format!("its example does not write: {error}")),
    }
    missing
}

#[test]
fn every_card_kind_has_its_whole_set() {
    let schema = read("schema/visualization_data.schema.json");
    let format = read("docs/data-format.md");
    let gallery = read("scripts/gallery.mjs");
    assert!(!schema.is_empty() && !format.is_empty() && !gallery.is_empty());
    let missing: Vec<String> = CardKind::ALL
        .into_iter()
        .flat_map(|kind| lacks(kind, &schema, &format, &gallery))
        .collect();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
