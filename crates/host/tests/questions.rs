// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The query corpus (tests/corpus/questions.txt) through the real API:
//! each question asked of its table with `debug`, the plan that comes back
//! compared with the one written beside it (attributes, filters,
//! aggregation, sort and limit, card type). The scores are printed and
//! each must reach 90%; docs/service-api.md reports them.

use std::collections::BTreeSet;
use std::path::Path;

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};

mod common;
use common::{call, host, KEY_A};

struct Case {
    section: String,
    question: String,
    card: String,
    attributes: BTreeSet<String>,
    filters: BTreeSet<String>,
    aggregate: String,
    rank: String,
}

/// How a section's questions are asked.
enum Ask {
    /// `visualize` with the CSV inline.
    Visualize(String),
    /// `knowledge_search` in one built-in index.
    Search(String),
}

fn split_set(text: &str, by: char) -> BTreeSet<String> {
    text.split(by)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

fn corpus(file: &str) -> Vec<(Ask, Case)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("tests/corpus").join(file)).unwrap();
    let mut out = Vec::new();
    let mut section: Option<(String, String, String)> = None;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("# ") || line == "#" {
            continue;
        }
        if let Some(head) = line.strip_prefix("## ") {
            let parts: Vec<&str> = head.split_whitespace().collect();
            section = Some((parts[0].into(), parts[1].into(), parts[2].into()));
            continue;
        }
        let (name, how, what) = section.clone().expect("a section before questions");
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f.len(), 6, "six fields: {line}");
        let ask = match how.as_str() {
            "visualize" => Ask::Visualize(
                std::fs::read_to_string(root.join("tests/corpus").join(&what)).unwrap(),
            ),
            "search" => Ask::Search(what),
            other => panic!("unknown way to ask: {other}"),
        };
        out.push((
            ask,
            Case {
                section: name,
                question: f[0].into(),
                card: f[1].into(),
                attributes: split_set(f[2], ','),
                filters: split_set(f[3], ';'),
                aggregate: f[4].into(),
                rank: f[5].into(),
            },
        ));
    }
    out
}

/// The plan and first card type the API answers for one question.
async fn ask(router: &Router, ask: &Ask, question: &str) -> (Value, String, String) {
    let (status, answer) =
        match ask {
            Ask::Visualize(csv) => {
                call(
                    router,
                    KEY_A,
                    "POST",
                    "/api/v1/beta/visualize",
                    Some(json!({"csv": [csv], "query": question, "debug": true})),
                )
                .await
            }
            Ask::Search(index) => call(
                router,
                KEY_A,
                "POST",
                "/api/v1/knowledge_search",
                Some(
                    json!({"inputs": {"text": question}, "source_indexes": [index], "debug": true}),
                ),
            )
            .await,
        };
    assert_eq!(status, StatusCode::OK, "{question}: {answer}");
    let plan = answer["outputs"]["debug"]["cards"][0]["plan"].clone();
    let card = answer["outputs"]["knowledge_cards"][0]["card_type"]
        .as_str()
        .unwrap_or("none")
        .to_owned();
    let said = answer["outputs"]["answer"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    (plan, card, said)
}

fn strings(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Each measure's share of exact answers, in percent, after printing the
/// misses and the scores.
async fn score(file: &str) -> (usize, usize, [(&'static str, f64); 5]) {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let cases = corpus(file);
    let sections: BTreeSet<&str> = cases.iter().map(|(_, c)| c.section.as_str()).collect();
    let mut right = [0usize; 5];
    let mut misses = Vec::new();
    for (how, case) in &cases {
        let (plan, card, said) = ask(&router, how, &case.question).await;
        let got_attributes = strings(&plan["attributes"]);
        let got_filters = strings(&plan["filters"]);
        let got_aggregate = plan["aggregate"].as_str().unwrap_or("").to_owned();
        let got_rank = match (plan["sort"].as_str(), plan["limit"].as_u64()) {
            (Some(s), Some(n)) => format!("{s} {n}"),
            (Some(s), None) => s.to_owned(),
            _ => String::new(),
        };
        let checks = [
            (
                got_attributes == case.attributes,
                format!("attributes {got_attributes:?} ≠ {:?}", case.attributes),
            ),
            (
                got_filters == case.filters,
                format!("filters {got_filters:?} ≠ {:?}", case.filters),
            ),
            (card == case.card, format!("card {card} ≠ {}", case.card)),
            (
                got_aggregate == case.aggregate,
                format!("aggregation {got_aggregate:?} ≠ {:?}", case.aggregate),
            ),
            (
                got_rank == case.rank,
                format!("sort {got_rank:?} ≠ {:?}", case.rank),
            ),
        ];
        for (k, (ok, why)) in checks.iter().enumerate() {
            if *ok {
                right[k] += 1;
            } else {
                misses.push(format!(
                    "[{}] {:?} {why} ({said})",
                    case.section, case.question
                ));
            }
        }
    }
    let n = cases.len();
    let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    for miss in &misses {
        println!("miss: {miss}");
    }
    let names = [
        "attributes",
        "filters",
        "card type",
        "aggregation",
        "sort and limit",
    ];
    let scores = [0, 1, 2, 3, 4].map(|k| (names[k], pct(right[k])));
    println!(
        "{file}: {n} questions over {} tables; {}",
        sections.len(),
        scores
            .iter()
            .zip(right)
            .map(|((name, p), k)| format!("{name} exact {k} ({p:.1}%)"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    (n, sections.len(), scores)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_corpus_scores_at_least_90_percent_on_each_measure() {
    let (n, tables, scores) = score("questions.txt").await;
    assert!(n >= 150, "{n} questions");
    assert!(tables >= 5, "{tables} tables");
    for (name, pct) in scores {
        assert!(pct >= 90.0, "{name}: {pct:.1}% of {n}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn questions_over_tables_the_rules_were_not_tuned_on_score_too() {
    let (n, _, scores) = score("unseen.txt").await;
    for (name, pct) in scores {
        assert!(pct >= 90.0, "{name}: {pct:.1}% of {n}");
    }
}
