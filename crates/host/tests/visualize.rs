// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Spec 4.5 through the router: cards from inline CSV and from uploaded
//! files, every field of 2.1, the recommender's rules and the query's
//! words, the checked enums, tenancy, inline CSV never written, and random
//! CSVs that always give cards the embed draws.

use axum::http::StatusCode;
use axum::Router;
use proptest::prelude::*;
use serde_json::{json, Value};
use zdr_chart::Chart;

mod common;
use common::{call, host, request, send, upload, KEY_A, KEY_B};

const SALES: &str = "month,region,sales,units\n2024-01,North,120,4\n2024-02,North,135,5\n2024-01,South,98,3\n2024-02,South,110,4\n2024-03,North,140,6\n2024-03,South,90,2\n";
const SHOP: &str =
    "product,category,revenue\nA,Tools,120\nB,Tools,80\nC,Garden,200\nD,Kitchen,50\nE,Garden,75\n";

async fn visualize(router: &Router, key: &str, body: Value) -> (StatusCode, Value) {
    call(router, key, "POST", "/api/v1/beta/visualize", Some(body)).await
}

async fn raw(
    router: &Router,
    path: &str,
    key: Option<&str>,
) -> (StatusCode, String, axum::http::HeaderMap) {
    send(router, request("GET", path, key, None)).await
}

fn types(answer: &Value) -> Vec<String> {
    answer["outputs"]["knowledge_cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["card_type"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn inline_csv_gives_cards_with_every_field_the_embed_draws() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (status, answer) = visualize(&router, KEY_A, json!({"csv": [SALES]})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(answer["request_id"].as_str().unwrap().starts_with("req_"));
    assert!(answer["outputs"]["answer"]
        .as_str()
        .unwrap()
        .starts_with("3 cards from CSV 1"));
    assert_eq!(types(&answer), ["timeseries", "bar", "pie"]);
    for card in answer["outputs"]["knowledge_cards"].as_array().unwrap() {
        let id = card["card_id"].as_str().unwrap();
        assert_eq!(
            card["embed_url"],
            format!("http://127.0.0.1:8080/embed/{id}/")
        );
        assert_eq!(
            card["webpage_url"],
            format!("http://127.0.0.1:8080/card/{id}/")
        );
        assert_eq!(
            card["image_url"],
            format!("http://127.0.0.1:8080/api/v1/image/{id}/")
        );
        for field in [
            "title",
            "description",
            "card_type",
            "data_url",
            "confidence",
        ] {
            assert!(card[field].is_string(), "{field}: {card}");
        }
        for field in ["sources", "methodologies", "source_indexes"] {
            assert!(card[field].is_array(), "{field}: {card}");
        }
        let data = &card["visualization_data"];
        assert!(data["viz_config"]["title"].is_string());
        Chart::from_json(&data.to_string()).unwrap_or_else(|e| panic!("{e}: {data}"));
    }
    // Two measures: a series each, summed per month over the regions.
    let line = &answer["outputs"]["knowledge_cards"][0]["visualization_data"];
    assert_eq!(line["data"]["series"][0]["name"], "sales");
    assert_eq!(line["data"]["series"][1]["name"], "units");
    assert_eq!(
        line["data"]["series"][0]["points"][0],
        json!({"x": "2024-01", "y": 218.0})
    );
    // One measure and a few categories: a series per category.
    let (_, answer) = visualize(
        &router,
        KEY_A,
        json!({"csv": ["month,region,sales\n2024-01,North,1\n2024-01,South,2\n2024-02,North,3\n"]}),
    )
    .await;
    let line = &answer["outputs"]["knowledge_cards"][0]["visualization_data"];
    assert_eq!(
        line["data"]["series"][1],
        json!({"name": "South", "points": [{"x": "2024-01", "y": 2.0}]})
    );
    // Its cards were never stored, and their addresses say so: 410 Gone,
    // and why (a made-up card id stays 404).
    let card_id = answer["outputs"]["knowledge_cards"][0]["card_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, page, _) = raw(&router, &format!("/card/{card_id}/"), None).await;
    assert_eq!(status, StatusCode::GONE);
    assert!(
        page.contains("does not keep") && page.contains(&format!("/embed/{card_id}/")),
        "{page}"
    );
    let (status, body, _) = raw(&router, &format!("/api/v1/image/{card_id}/"), Some(KEY_A)).await;
    assert_eq!(status, StatusCode::GONE);
    assert!(
        body.contains("card_not_kept") && body.contains("zero data retention"),
        "{body}"
    );
    let (status, body, _) = raw(
        &router,
        "/api/v1/image/card_0123456789abcdef01234567/",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    // Nothing of it was written.
    let objects = common::shared::objects_dir(dir.path());
    assert!(std::fs::read_dir(&objects).map(|d| d.count()).unwrap_or(0) == 0);
}

/// Previews on request: `image_ttl_minutes` keeps the picture of an inline
/// card (never its data) for that long, answered by another host on the
/// same stores, until a sweep past its expiry removes it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inline_cards_preview_is_kept_as_long_as_asked_then_swept() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (
        zdr_host::app::build(common::config(dir.path(), false)),
        zdr_host::app::build(common::config(dir.path(), false)),
    );
    const PLACES: &str = "region,sales\nZanzibar,120\nQuetzaltenango,80\n";
    for wrong in [json!(0), json!(1441), json!("5"), json!(2.5), json!(-1)] {
        let body = json!({"csv": [PLACES], "image_ttl_minutes": wrong});
        let (status, answer) = visualize(&a.router, KEY_A, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{wrong}: {answer}");
        assert_eq!(answer["error"]["param"], "image_ttl_minutes", "{answer}");
    }
    let body = json!({"csv": [PLACES], "image_ttl_minutes": 5});
    let (status, answer) = visualize(&a.router, KEY_A, body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let card = &answer["outputs"]["knowledge_cards"][0];
    let id = card["card_id"].as_str().unwrap();

    // Another host on the same stores answers it, with no key.
    let image = card["image_url"].as_str().unwrap();
    let path = &image[image.find("/api/").unwrap()..];
    let (status, png, headers) = raw(&b.router, path, None).await;
    assert_eq!(status, StatusCode::OK, "{png}");
    assert_eq!(headers["content-type"], "image/png");
    assert_eq!(headers["cache-control"], "private");
    assert!(png.len() > 1000 && png.starts_with("\u{FFFD}PNG"));
    let (status, refused, _) = raw(&b.router, &format!("{path}?format=svg"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    let (status, page, headers) = raw(&b.router, &format!("/card/{id}/"), None).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(
        page.contains(&format!("<img src=\"/api/v1/image/{id}/\"")),
        "{page}"
    );
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(
        policy.contains("img-src 'self'") && policy.contains("script-src 'none'"),
        "{policy}"
    );

    // Its picture, not its data: no file the hosts wrote holds a value.
    let mut written = Vec::new();
    for root in [
        dir.path().to_path_buf(),
        common::shared::objects_dir(dir.path()),
    ] {
        let mut folders = vec![root];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    folders.push(path);
                } else {
                    written.push(path);
                }
            }
        }
    }
    assert!(!written.is_empty());
    for path in &written {
        let bytes = std::fs::read(path).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains("Zanzibar") && !text.contains("Quetzaltenango"),
            "{} holds the card's data",
            path.display()
        );
    }

    // Not expired: nothing to sweep. Ten minutes on, past its five: gone,
    // its picture with it.
    assert_eq!(b.api.sweep_previews(std::time::Duration::ZERO).await, Ok(0));
    let later = std::time::Duration::from_secs(600);
    let made = answer["outputs"]["knowledge_cards"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(a.api.sweep_previews(later).await, Ok(made), "one per card");
    let (status, body, _) = raw(&b.router, path, None).await;
    assert_eq!(status, StatusCode::GONE, "{body}");
    assert!(
        body.contains("image_ttl_minutes"),
        "the 410 says how to ask for one: {body}"
    );
    let (status, _, _) = raw(&a.router, &format!("/card/{id}/"), None).await;
    assert_eq!(status, StatusCode::GONE);
    let pngs = written
        .iter()
        .filter(|p| std::fs::read(p).is_ok_and(|b| b.starts_with(b"\x89PNG")))
        .count();
    assert_eq!(pngs, 0, "the sweep removed the picture");
}

/// A key may keep at most --max-previews previews at once; past it a
/// request asking for more is refused (409) before anything is drawn, the
/// other key is not held back, and a sweep past their expiry makes room.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_keeps_at_most_max_previews_previews() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::config(dir.path(), false);
    config.api.max_previews = 4;
    let host = zdr_host::app::build(config);
    let body = json!({"csv": ["region,sales\nNorth,120\nSouth,80\n"], "image_ttl_minutes": 5, "viz_component_type": "bar"});
    for _ in 0..4 {
        let (status, answer) = visualize(&host.router, KEY_A, body.clone()).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    let (status, answer) = visualize(&host.router, KEY_A, body.clone()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--max-previews"),
        "{answer}"
    );
    let (status, answer) = visualize(&host.router, KEY_B, body.clone()).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "another key keeps its own: {answer}"
    );
    let plain = json!({"csv": ["region,sales\nNorth,120\n"]});
    assert_eq!(
        visualize(&host.router, KEY_A, plain).await.0,
        StatusCode::OK
    );
    assert_eq!(
        host.api
            .sweep_previews(std::time::Duration::from_secs(600))
            .await,
        Ok(5)
    );
    let (status, answer) = visualize(&host.router, KEY_A, body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}

#[tokio::test]
async fn the_query_steers_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    for (query, first) in [
        ("what share of revenue does each category have", "pie"),
        ("distribution of revenue", "histogram"),
        ("revenue by category", "bar"),
    ] {
        let (status, answer) =
            visualize(&router, KEY_A, json!({"csv": [SHOP], "query": query})).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(types(&answer)[0], first, "{query}");
    }
    let (_, answer) = visualize(
        &router,
        KEY_A,
        json!({"csv": [SHOP], "query": "top 2 products by revenue"}),
    )
    .await;
    let bars = &answer["outputs"]["knowledge_cards"][0];
    assert_eq!(bars["card_type"], "bar");
    assert_eq!(
        bars["visualization_data"]["data"],
        json!([{"x": "C", "y": 200.0}, {"x": "A", "y": 120.0}])
    );
    let (_, answer) = visualize(
        &router,
        KEY_A,
        json!({"csv": [SALES], "query": "sales vs units"}),
    )
    .await;
    assert_eq!(types(&answer)[0], "scatter");
}

#[tokio::test]
async fn columns_of_places_give_a_map_first() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let countries = "country,exports\nGermany,1500\nFrance,900\nDE,100\nJapan,700\nBrazil,300\n";
    let (status, answer) = visualize(&router, KEY_A, json!({"csv": [countries]})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(types(&answer)[..2], ["choropleth", "bar"], "{answer}");
    let map = &answer["outputs"]["knowledge_cards"][0];
    assert_eq!(
        map["visualization_data"]["data"][0],
        json!({"x": "Germany", "y": 1500.0})
    );
    assert!(map["description"]
        .as_str()
        .unwrap()
        .contains("country (places)"));
    let data = map["visualization_data"].to_string();
    Chart::from_json(&data).unwrap_or_else(|e| panic!("{e}: {data}"));

    // US states by postal code and name; the query asks for the map.
    let states = "state,sales,region\nCA,10,West\nTX,7,South\nNew York,5,East\nWA,4,West\n";
    let (_, answer) = visualize(
        &router,
        KEY_A,
        json!({"csv": [states], "query": "sales by region"}),
    )
    .await;
    // The question names a category that is no place: its bars, and only
    // them (docs/service-api.md, "How a question is read").
    assert_eq!(types(&answer), ["bar"], "{answer}");
    let (_, answer) = visualize(
        &router,
        KEY_A,
        json!({"csv": [states], "query": "a map of sales"}),
    )
    .await;
    assert_eq!(types(&answer)[0], "choropleth");

    // Categories that are not places give no map, and asking for one says
    // what it needs.
    let (_, answer) = visualize(&router, KEY_A, json!({"csv": [SHOP]})).await;
    assert!(
        !types(&answer).contains(&"choropleth".to_owned()),
        "{answer}"
    );
    let (status, answer) = visualize(
        &router,
        KEY_A,
        json!({"csv": [SHOP], "viz_component_type": "choropleth"}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .contains("a column of places"));
}

#[tokio::test]
async fn tasks_give_a_timeline_and_spread_values_give_boxes() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let plan = "task,start,end\nDesign,2026-01-05,2026-02-10\nBuild,2026-02-01,2026-05-01\nTest,2026-04-15,2026-06-01\n";
    let (status, answer) = visualize(&router, KEY_A, json!({"csv": [plan]})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(types(&answer)[0], "timeline", "{answer}");
    let card = &answer["outputs"]["knowledge_cards"][0]["visualization_data"];
    assert_eq!(
        card["data"][1],
        json!({"label": "Build", "start": "2026-02-01", "end": "2026-05-01"})
    );
    Chart::from_json(&card.to_string()).unwrap();
    // An end before its start, or a label twice: no timeline, and asking
    // for one says what it needs.
    for broken in [
        "task,start,end\nDesign,2026-03-05,2026-02-10\nBuild,2026-02-01,2026-05-01\n",
        "task,start,end\nDesign,2026-01-05,2026-02-10\nDesign,2026-02-01,2026-05-01\n",
    ] {
        let (_, answer) = visualize(&router, KEY_A, json!({"csv": [broken]})).await;
        assert!(!types(&answer).contains(&"timeline".to_owned()), "{answer}");
        let (status, answer) = visualize(
            &router,
            KEY_A,
            json!({"csv": [broken], "viz_component_type": "timeline"}),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert!(answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("two of dates, the second never before the first"));
    }

    // 3 brands of 6 prices each: boxes among the cards, first when the
    // query asks for the distribution by brand; a histogram for the
    // distribution alone.
    let mut prices = String::from("brand,price\n");
    for (i, brand) in ["Acme", "Bolt", "Core"].iter().enumerate() {
        for j in 0..6 {
            prices += &format!("{brand},{}\n", 10 * i + j);
        }
    }
    let (_, answer) = visualize(&router, KEY_A, json!({"csv": [prices.clone()]})).await;
    assert_eq!(types(&answer), ["bar", "pie", "boxplot"], "{answer}");
    let (_, answer) = visualize(
        &router,
        KEY_A,
        json!({"csv": [prices.clone()], "query": "distribution of price by brand"}),
    )
    .await;
    assert_eq!(types(&answer)[0], "boxplot");
    let boxes = &answer["outputs"]["knowledge_cards"][0]["visualization_data"];
    // A box per brand, written with its values (sorted).
    let written = boxes["data"].as_array().unwrap();
    assert_eq!(written.len(), 3);
    assert_eq!(
        written[0],
        json!({"x": "Acme", "values": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]})
    );
    Chart::from_json(&boxes.to_string()).unwrap();
    let (_, answer) = visualize(
        &router,
        KEY_A,
        json!({"csv": [prices], "query": "distribution of price"}),
    )
    .await;
    assert_eq!(types(&answer)[0], "histogram");
    // Two rows per category are too few for boxes.
    let (_, answer) = visualize(&router, KEY_A, json!({"csv": [SHOP]})).await;
    assert!(!types(&answer).contains(&"boxplot".to_owned()), "{answer}");
}

#[tokio::test]
async fn fields_are_checked_and_named_in_errors() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    for (body, param) in [
        (json!({}), "csv"),
        (json!({"csv": "a,b"}), "csv"),
        (
            json!({"csv": [SHOP], "viz_component_type": "donut"}),
            "viz_component_type",
        ),
        (
            json!({"csv": [SHOP], "viz_component_type": "timeseries"}),
            "viz_component_type",
        ),
        (json!({"csv": [SHOP], "model": "gpt-2"}), "model"),
        (
            json!({"csv": [SHOP], "output_settings": {"knowledge_card_settings": {"image_dark_mode": "yes"}}}),
            "output_settings",
        ),
        (json!({"csv": ["a,b\n1,2,3\n"]}), "csv"),
        (json!({"file_ids": [1]}), "file_ids"),
        (json!([1, 2]), "body"),
    ] {
        let (status, answer) = visualize(&router, KEY_A, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(answer["error"]["param"], param, "{body}: {answer}");
    }
    let (status, answer) = visualize(
        &router,
        KEY_A,
        json!({"csv": [SHOP], "model": "o3", "viz_component_type": "table", "debug": true,
               "output_settings": {"knowledge_card_settings": {"image_dark_mode": true}}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(types(&answer), ["table"]);
    let card = &answer["outputs"]["knowledge_cards"][0];
    assert_eq!(card["visualization_data"]["viz_config"]["dark_mode"], true);
    assert!(answer["outputs"]["debug"]["cards"].is_array());
}

#[tokio::test]
async fn uploaded_files_are_visualized_by_id_for_their_tenant_only() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let (status, file_id, answer) = upload(&router, KEY_A, "sales.csv", SALES.as_bytes()).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{answer}");

    let (status, answer) = visualize(
        &router,
        KEY_A,
        json!({"file_ids": [file_id], "query": "sales over time"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let card = &answer["outputs"]["knowledge_cards"][0];
    assert_eq!(card["card_type"], "timeseries");
    assert_eq!(
        card["data_url"],
        format!("http://127.0.0.1:8080/api/v1/beta/files/{file_id}/cleaned/")
    );
    assert!(card["description"]
        .as_str()
        .unwrap()
        .contains("From the file sales.csv"));
    // Its page and image are shown to whoever has the card's address, with
    // no key, as the service's are (the id is 96 random bits).
    let card_id = card["card_id"].as_str().unwrap();
    let (status, page, headers) = raw(&router, &format!("/card/{card_id}/"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("<svg") && page.contains("Sales over time"),
        "{page}"
    );
    assert!(headers["content-security-policy"]
        .to_str()
        .unwrap()
        .starts_with("default-src 'none'"));
    assert_eq!(headers["cache-control"], "private");
    let (status, png, headers) = raw(&router, &format!("/api/v1/image/{card_id}/"), None).await;
    assert_eq!(
        (status, headers["content-type"].to_str().unwrap()),
        (StatusCode::OK, "image/png")
    );
    assert!(png.starts_with("\u{fffd}PNG"));
    assert_eq!(headers["cache-control"], "private");
    let (status, svg, headers) = raw(
        &router,
        &format!("/api/v1/image/{card_id}/?format=svg&width=400&height=300&dark_mode=true"),
        Some(KEY_B),
    )
    .await;
    assert_eq!(
        (status, headers["content-type"].to_str().unwrap()),
        (StatusCode::OK, "image/svg+xml")
    );
    assert!(svg.starts_with("<svg"));
    let (status, _, _) = raw(
        &router,
        &format!("/api/v1/image/{card_id}/?format=gif"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _, _) = raw(
        &router,
        "/api/v1/image/card_000000000000000000000000/",
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // The deprecated file_id still works.
    let (status, _) = visualize(&router, KEY_A, json!({"file_id": file_id})).await;
    assert_eq!(status, StatusCode::OK);
    // Another key: no such file.
    let (status, answer) = visualize(&router, KEY_B, json!({"file_ids": [file_id]})).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
    assert_eq!(answer["error"]["code"], "file_not_found");
}

/// A CSV of random columns (dates, numbers, categories, blanks, odd text).
fn csv_strategy() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        (2000u32..2030, 1u32..13).prop_map(|(y, m)| format!("{y}-{m:02}")),
        (-1e6f64..1e6).prop_map(|n| format!("{n:.2}")),
        "[a-e]{1,3}",
        prop_oneof![
            Just("Germany"),
            Just("FR"),
            Just("CA"),
            Just("Texas"),
            Just("ny")
        ]
        .prop_map(str::to_owned),
        Just(String::new()),
        Just("NA".to_owned()),
        "[ -~]{0,8}".prop_map(|s| format!("\"{}\"", s.replace('"', "\"\""))),
    ];
    (1usize..6, 1usize..40).prop_flat_map(move |(columns, rows)| {
        let header = proptest::collection::vec("[a-z]{0,6}", columns);
        let body =
            proptest::collection::vec(proptest::collection::vec(cell.clone(), columns), rows);
        (header, body).prop_map(|(header, body)| {
            let mut text = header.join(",") + "\n";
            for row in body {
                text += &(row.join(",") + "\n");
            }
            text
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_csvs_never_crash_and_always_give_a_drawable_card(csv in csv_strategy(), query in prop_oneof![Just(None), Just(Some("share over time by a".to_owned())), "[a-z ]{0,20}".prop_map(Some)]) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let router = host(dir.path(), false);
        let (status, answer) = runtime.block_on(visualize(&router, KEY_A, json!({"csv": [csv], "query": query})));
        if status == StatusCode::OK {
            let cards = answer["outputs"]["knowledge_cards"].as_array().unwrap();
            prop_assert!(!cards.is_empty(), "{}", answer);
            for card in cards {
                let data = card["visualization_data"].to_string();
                prop_assert!(Chart::from_json(&data).is_ok(), "{}", data);
            }
        } else {
            // Only a table that cannot be read is refused, and with its reason.
            prop_assert_eq!(status, StatusCode::BAD_REQUEST, "{}", answer);
            prop_assert_eq!(&answer["error"]["param"], "csv");
        }
    }
}

const INSTALLS: &str =
    "month,installs,uninstalls\n2024-01,120,10\n2024-02,135,12\n2024-03,150,9\n2024-04,170,15\n";
const CITIES: &str = "city,lat,lon,population\nNew York,40.71,-74.01,8.26\nChicago,41.88,-87.63,2.66\nHouston,29.76,-95.37,2.3\nSeattle,47.61,-122.33,0.75\n";

/// Each card reads in the engine, as the widget and the embed read it.
fn read_all(answer: &Value) {
    for card in answer["outputs"]["knowledge_cards"].as_array().unwrap() {
        let data = card["visualization_data"].to_string();
        Chart::from_json(&data).unwrap_or_else(|e| panic!("{e}: {data}"));
    }
}

/// The six newer types, asked by viz_component_type: one card of that
/// type from data that has what it needs, else 400 saying what it lacks.
#[tokio::test]
async fn each_newer_type_is_drawn_when_asked_or_refused_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let negative = "month,a,b\n2024-01,5,-1\n2024-02,7,2\n";
    let countries = "country,exports\nGermany,1500\nFrance,900\nJapan,700\n";
    for (kind, good, bad) in [
        ("area_timeseries", INSTALLS, SHOP),
        ("stacked_area_timeseries", INSTALLS, negative),
        ("stacked_area_timeseries", SALES, SHOP),
        ("treemap", SHOP, "product,profit\nA,-5\nB,3\n"),
        ("top_level_metric", INSTALLS, "name,kind\na,b\nc,d\n"),
        ("top_level_metric", SHOP, "name,kind\na,b\nc,d\n"),
        ("map", CITIES, SHOP),
        ("bubble_map", CITIES, SHOP),
        ("bubble_map", countries, SHOP),
    ] {
        let (status, answer) = visualize(
            &router,
            KEY_A,
            json!({"csv": [good], "viz_component_type": kind}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{kind}: {answer}");
        assert_eq!(types(&answer), [kind], "{answer}");
        read_all(&answer);
        let (status, answer) = visualize(
            &router,
            KEY_A,
            json!({"csv": [bad], "viz_component_type": kind}),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{kind}: {answer}");
        assert_eq!(answer["error"]["param"], "viz_component_type", "{answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains(&format!("a {kind} card needs")),
            "{answer}"
        );
    }
    // The headline of a series is its latest value, after the others.
    let (_, answer) = visualize(
        &router,
        KEY_A,
        json!({"csv": [INSTALLS], "viz_component_type": "top_level_metric"}),
    )
    .await;
    let data = &answer["outputs"]["knowledge_cards"][0]["visualization_data"]["data"];
    assert_eq!(data[3], json!({"x": "2024-04", "y": 170.0}));
    // A treemap sums a category that repeats.
    let (_, answer) = visualize(
        &router,
        KEY_A,
        json!({"csv": ["kind,n\na,1\nb,2\na,3\n"], "viz_component_type": "treemap"}),
    )
    .await;
    let data = &answer["outputs"]["knowledge_cards"][0]["visualization_data"]["data"];
    assert_eq!(data, &json!([{"x": "a", "y": 4.0}, {"x": "b", "y": 2.0}]));
}

/// Without a type asked, the newer types come where they fit.
#[tokio::test]
async fn newer_types_are_proposed_where_they_fit() {
    let dir = tempfile::tempdir().unwrap();
    let router = host(dir.path(), false);
    let mut many = String::from("team,points\n");
    for i in 0..15 {
        many += &format!("Team {i},{}\n", 10 + i);
    }
    let (status, answer) = visualize(&router, KEY_A, json!({"csv": [many]})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(types(&answer).contains(&"treemap".to_owned()), "{answer}");
    assert!(!types(&answer).contains(&"pie".to_owned()), "{answer}");
    read_all(&answer);

    let (_, answer) = visualize(&router, KEY_A, json!({"csv": [CITIES]})).await;
    assert_eq!(types(&answer)[0], "bubble_map", "{answer}");
    read_all(&answer);
    let offices = "office,lat,lon\nParis,48.86,2.35\nTokyo,35.68,139.69\n";
    let (_, answer) = visualize(&router, KEY_A, json!({"csv": [offices]})).await;
    assert_eq!(types(&answer)[0], "map", "{answer}");
    read_all(&answer);

    for query in ["latest installs", "current installs?"] {
        let (_, answer) =
            visualize(&router, KEY_A, json!({"csv": [INSTALLS], "query": query})).await;
        assert_eq!(types(&answer)[0], "top_level_metric", "{query}: {answer}");
        read_all(&answer);
    }

    let cumulative = "month,total_signups\n2024-01,10\n2024-02,25\n2024-03,31\n2024-04,40\n";
    let (_, answer) = visualize(&router, KEY_A, json!({"csv": [cumulative]})).await;
    assert_eq!(types(&answer)[0], "area_timeseries", "{answer}");
    read_all(&answer);
    // A series that falls stays a line.
    let (_, answer) = visualize(&router, KEY_A, json!({"csv": [SALES]})).await;
    assert_eq!(types(&answer)[0], "timeseries", "{answer}");
}
