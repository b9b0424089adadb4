// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Spec 4.3 through the router: full-text search over the built-in
//! datasets and the key's private indexes, the source-index priority rule
//! (an index with a relevant dataset ends the search), country_code and
//! locale, the cards adapted to the intent, threads, and another key's
//! indexes out of reach.

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use zdr_chart::Chart;

mod common;
use common::{call, host, upload, KEY_A as KEY, KEY_B as OTHER};

async fn search(router: &Router, key: &str, body: Value) -> Value {
    let (status, answer) = call(router, key, "POST", "/api/v1/knowledge_search", Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer
}

fn cards(answer: &Value) -> &Vec<Value> {
    answer["outputs"]["knowledge_cards"].as_array().unwrap()
}

fn of_type<'a>(answer: &'a Value, kind: &str) -> &'a Value {
    cards(answer)
        .iter()
        .find(|c| c["card_type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} card: {answer}"))
}

#[tokio::test]
async fn built_in_datasets_are_searched_in_order_and_drawn_for_the_country_and_locale() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let answer = search(
        &router,
        KEY,
        json!({
            "inputs": {"text": "life expectancy and fertility"}, "locale": "de-DE",
            "output_settings": {"knowledge_card_settings": {"image_dark_mode": true}},
        }),
    )
    .await;
    // The built-ins in order: markets has nothing on it, world has.
    assert_eq!(answer["searched_indexes"], json!(["markets", "world"]));
    assert!(answer["outputs"]["answer"]
        .as_str()
        .unwrap()
        .contains("5 later index(es) not searched"));
    let line = of_type(&answer, "timeseries");
    // The built-in datasets are the service's index `tako` (the segment,
    // world, is in the description).
    assert_eq!(line["source_indexes"], json!(["tako"]));
    assert_eq!(line["sources"][0]["source_index"], "tako");
    assert!(line["description"]
        .as_str()
        .unwrap()
        .contains("index world"));
    assert!(line["description"]
        .as_str()
        .unwrap()
        .contains("Creative Commons Attribution 4.0"));
    let data = &line["visualization_data"];
    // The two measures asked, of the country asked for (US by default):
    // one line each, on their own axes, in German.
    assert_eq!(cards(&answer).len(), 1, "{answer}");
    assert_eq!(
        data["viz_config"]["right_axis_series"],
        json!(["fertility"])
    );
    assert_eq!(data["viz_config"]["locale"], "de-DE");
    assert_eq!(data["viz_config"]["dark_mode"], true);
    let series = data["data"]["series"].as_array().unwrap();
    let names: Vec<&str> = series.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["life expectancy", "fertility"]);
    assert!(
        line["title"].as_str().unwrap().ends_with("United States"),
        "{}",
        line["title"]
    );
    let us_2005 = series[1]["points"].as_array().unwrap().last().unwrap()["y"]
        .as_f64()
        .unwrap();
    assert!(
        (1.0..3.0).contains(&us_2005),
        "US fertility in 2005: {us_2005}"
    );
    let chart = Chart::from_json(&data.to_string()).unwrap();
    assert_eq!(chart.config.locale.tag(), "de-DE");
    // Another country_code: that country's line.
    let india = search(
        &router,
        KEY,
        json!({"inputs": {"text": "life expectancy"}, "country_code": "in"}),
    )
    .await;
    assert!(of_type(&india, "timeseries")["title"]
        .as_str()
        .unwrap()
        .ends_with("India"));
    // Countries the question names win over country_code: a line each.
    let named = search(
        &router,
        KEY,
        json!({"inputs": {"text": "fertility in Japan and Brazil"}}),
    )
    .await;
    let lines: Vec<String> = of_type(&named, "timeseries")["visualization_data"]["data"]["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(lines, ["Japan", "Brazil"]);
    // Bars of a dataset over time show the latest year, not a sum of years.
    let bars = search(
        &router,
        KEY,
        json!({"inputs": {"text": "fertility by country as a bar chart"}}),
    )
    .await;
    let bars = of_type(&bars, "bar");
    assert!(
        bars["title"].as_str().unwrap().ends_with(", 2005"),
        "{}",
        bars["title"]
    );
    // The cards are stored: their pages answer.
    let card_id = line["card_id"].as_str().unwrap();
    let (status, _, _) = common::send(
        &router,
        common::request("GET", &format!("/card/{card_id}/"), None, None),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // Nothing relevant: no card, and the answer says where it looked.
    let none = search(
        &router,
        KEY,
        json!({"inputs": {"text": "zebra migrations"}}),
    )
    .await;
    assert_eq!(cards(&none).len(), 0);
    assert_eq!(
        none["searched_indexes"],
        json!(["markets", "world", "weather", "energy", "vehicles", "film", "sports"])
    );
    // The search starts a thread.
    let thread = answer["thread_id"].as_str().unwrap();
    let (_, messages) = call(
        &router,
        KEY,
        "GET",
        &format!("/api/v1/threads/{thread}/messages"),
        None,
    )
    .await;
    assert_eq!(
        messages["data"][0]["content"][0]["text"],
        "life expectancy and fertility"
    );
}

const FINANCE: &[u8] = b"month,revenue,margin\n2024-01,1200000,12\n2024-02,1350000,14.5\n2024-03,1100000,9\n2024-04,1600000,16\n";
const PRICES: &[u8] =
    b"month,product,price\n2024-01,Tea,3\n2024-02,Tea,3.5\n2024-01,Coffee,4\n2024-02,Coffee,4.2\n";

async fn index_with(router: &Router, key: &str, name: &str, file: &[u8]) -> String {
    let (_, index) = call(
        router,
        key,
        "POST",
        "/api/v1/beta/private_indexes/",
        Some(json!({"name": name})),
    )
    .await;
    let id = index["id"].as_str().unwrap().to_owned();
    let (_, file_id, _) = upload(router, key, &format!("{name}.csv"), file).await;
    let (status, added) = call(
        router,
        key,
        "POST",
        &format!("/api/v1/beta/private_indexes/{id}/files/"),
        Some(json!({"files": [{"file_id": file_id, "file_context": name}]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{added}");
    id
}

#[tokio::test]
async fn private_indexes_come_first_and_an_index_with_results_ends_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let finance = index_with(&router, KEY, "finance", FINANCE).await;
    let shop = index_with(&router, KEY, "shop", PRICES).await;

    // By default the key's indexes come first.
    let answer = search(
        &router,
        KEY,
        json!({"inputs": {"text": "revenue and margin"}}),
    )
    .await;
    assert_eq!(answer["searched_indexes"], json!([finance]));
    let line = of_type(&answer, "timeseries");
    // A card of the key's own data names no index both of the service's
    // SDKs read; its description says which.
    assert_eq!(line["source_indexes"], json!([]));
    assert!(line["description"]
        .as_str()
        .unwrap()
        .contains(&format!("of {finance}")));
    // Two measures of different sizes and units: the second on a right axis.
    let config = &line["visualization_data"]["viz_config"];
    assert_eq!(config["right_axis_series"], json!(["margin"]));
    assert_eq!(config["right_axis_label"], "margin");
    assert!(Chart::from_json(&line["visualization_data"].to_string()).is_ok());

    // "price" is in the shop's file and in the markets: whichever comes
    // first answers, and the other is not searched.
    let first = search(
        &router,
        KEY,
        json!({"inputs": {"text": "price"}, "source_indexes": [shop, "markets"]}),
    )
    .await;
    assert_eq!(first["searched_indexes"], json!([shop]));
    assert!(cards(&first)[0]["description"]
        .as_str()
        .unwrap()
        .contains(&format!("of {shop}")));
    let swapped = search(
        &router,
        KEY,
        json!({"inputs": {"text": "price"}, "source_indexes": ["markets", shop]}),
    )
    .await;
    assert_eq!(swapped["searched_indexes"], json!(["markets"]));
    assert_eq!(cards(&swapped)[0]["source_indexes"], json!(["tako"]));
    // An index without a relevant dataset passes the search on.
    let on = search(
        &router,
        KEY,
        json!({"inputs": {"text": "stock prices"}, "source_indexes": [finance, "markets"]}),
    )
    .await;
    assert_eq!(on["searched_indexes"], json!([finance, "markets"]));
    // Series of one measure split by category stay on one axis unless far apart.
    let stocks = of_type(&on, "timeseries");
    assert!(stocks["visualization_data"]["viz_config"]
        .get("right_axis_series")
        .is_none());

    // Another key: its default search never sees these indexes, and naming one is refused.
    let theirs = search(
        &router,
        OTHER,
        json!({"inputs": {"text": "revenue and margin"}}),
    )
    .await;
    assert_eq!(
        theirs["searched_indexes"],
        json!(["markets", "world", "weather", "energy", "vehicles", "film"])
    );
    let (status, answer) = call(
        &router,
        OTHER,
        "POST",
        "/api/v1/knowledge_search",
        Some(json!({"inputs": {"text": "revenue"}, "source_indexes": [finance]})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert_eq!(answer["error"]["param"], "source_indexes");
}

#[tokio::test]
async fn every_field_is_checked_and_named() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    for (body, param) in [
        (json!({}), "inputs"),
        (json!({"inputs": "stocks"}), "inputs"),
        (json!({"inputs": {"text": "  "}}), "inputs"),
        (json!({"inputs": {"text": "x".repeat(2001)}}), "inputs"),
        (
            json!({"inputs": {"text": "stocks"}, "source_indexes": "markets"}),
            "source_indexes",
        ),
        (
            json!({"inputs": {"text": "stocks"}, "source_indexes": ["nope"]}),
            "source_indexes",
        ),
        (
            json!({"inputs": {"text": "stocks"}, "country_code": "XX"}),
            "country_code",
        ),
        (
            json!({"inputs": {"text": "stocks"}, "country_code": "USA"}),
            "country_code",
        ),
        (
            json!({"inputs": {"text": "stocks"}, "locale": "sw-KE"}),
            "locale",
        ),
        (
            json!({"inputs": {"text": "stocks"}, "output_settings": 3}),
            "output_settings",
        ),
        (
            json!({"inputs": {"text": "stocks"}, "locale": "x".repeat(100_000)}),
            "locale",
        ),
        (
            json!({"inputs": {"text": "stocks"}, "source_indexes": vec!["markets"; 101]}),
            "source_indexes",
        ),
        (
            json!({"inputs": {"text": "stocks"}, "image_ttl_minutes": 0}),
            "image_ttl_minutes",
        ),
        (
            json!({"inputs": {"text": "stocks"}, "image_ttl_minutes": 1441}),
            "image_ttl_minutes",
        ),
    ] {
        let (status, answer) = call(
            &router,
            KEY,
            "POST",
            "/api/v1/knowledge_search",
            Some(body.clone()),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{param}: {answer}");
        assert_eq!(answer["error"]["param"], param, "{param}");
        // A long value is never echoed whole.
        let size = answer.to_string().len();
        assert!(size < 2_000, "{param}: an error of {size} bytes");
    }
    let (status, _) = call(&router, KEY, "GET", "/api/v1/knowledge_search", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
}
