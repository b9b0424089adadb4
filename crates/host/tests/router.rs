// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The router as a tower service, without a socket: every route, every
//! status it answers with, the headers on each kind of response, and the
//! escaping of whatever a post carries into the page.

use std::path::{Path, PathBuf};

use axum::body::{Body, Bytes};
use axum::http::header::{
    ALLOW, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_SECURITY_POLICY, CONTENT_TYPE, IF_MODIFIED_SINCE,
    LAST_MODIFIED, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, Method, Request, StatusCode};
use axum::Router;
use base64::Engine;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tower::ServiceExt;
use zdr_host::{app, Config};
use zdr_test_support::{examples, form, Part};

const URLENCODED: &str = "application/x-www-form-urlencoded";
const BOUNDARY: &str = "zdr-test-boundary-7f3a";
const INDEX_HTML: &str = "<!doctype html><title>demo index</title><p>zdr demo</p>\n";
const PACKAGE_JSON: &str = "{\"name\":\"zdr-embed\",\"version\":\"0.0.0-test\"}\n";
const PKG_JS: &str = "export const x = 1;\n";
const LIGHT: &str = "#ffffff";
const DARK: &str = "#161a1f";
/// The smallest query the postMessage shell accepts, encoded as
/// URLSearchParams encodes it.
const SHELL_QUERY: &str = "embed_mode=postmessage&parent_origin=https%3A%2F%2Fapp.example.com";
/// The parent origin of [`SHELL_QUERY`]: the shell's only frame ancestor.
const SHELL_PARENT: &str = "https://app.example.com";
/// What a response that names no policy of its own gets.
const STRICT: &str = "default-src 'none'; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors 'none'";
/// Every HTML metacharacter, and an attempt to close the title and run a script.
const HOSTILE: &str = "</title><script>alert(1)</script>\"'&<>";

// ---------------------------------------------------------------- fixtures

/// A www folder with an index page and a package folder laid out as the
/// repository is (package.json, pkg/, and a Cargo.toml that must not be
/// served), in a temporary directory that lives as long as the value.
struct Fixture {
    _dir: tempfile::TempDir,
    www: PathBuf,
    package: PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let www = dir.path().join("www");
        let package = dir.path().join("pkgroot");
        std::fs::create_dir_all(&www).unwrap();
        std::fs::create_dir_all(package.join("pkg")).unwrap();
        std::fs::write(www.join("index.html"), INDEX_HTML).unwrap();
        std::fs::write(package.join("package.json"), PACKAGE_JSON).unwrap();
        std::fs::write(package.join("pkg").join("x.js"), PKG_JS).unwrap();
        std::fs::write(package.join("Cargo.toml"), "[package]\nname = \"secret\"\n").unwrap();
        Fixture {
            _dir: dir,
            www,
            package,
        }
    }

    fn config(&self) -> Config {
        Config {
            server: zdr_host::config::ServerConfig {
                www: self.www.clone(),
                package: self.package.clone(),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    fn app(&self) -> Router {
        app(self.config())
    }
}

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: String,
}

impl Answer {
    fn header(&self, name: axum::http::HeaderName) -> &str {
        self.headers
            .get(&name)
            .unwrap_or_else(|| panic!("no {name} header ({})", self.status))
            .to_str()
            .unwrap()
    }

    fn csp(&self) -> &str {
        self.header(CONTENT_SECURITY_POLICY)
    }
}

async fn send(app: &Router, request: Request<Body>) -> Answer {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        headers,
        body: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

fn request(method: Method, uri: &str, content_type: Option<&str>, body: Body) -> Request<Body> {
    let mut builder = Request::builder().method(method).uri(uri);
    if let Some(content_type) = content_type {
        builder = builder.header(CONTENT_TYPE, content_type);
    }
    builder.body(body).unwrap()
}

/// A urlencoded post of `json` as the widget's form sends it.
fn post(uri: &str, json: &str) -> Request<Body> {
    let body = form(json);
    Request::builder()
        .method(Method::POST)
        .uri(uri)
        .header(CONTENT_TYPE, URLENCODED)
        .header(CONTENT_LENGTH, body.len())
        .body(Body::from(body))
        .unwrap()
}

fn get(uri: &str) -> Request<Body> {
    request(Method::GET, uri, None, Body::empty())
}

/// A multipart/form-data body with an unrelated field first, then each of `fields`.
fn multipart(fields: &[(&str, &str)]) -> Request<Body> {
    let mut parts = vec![Part::field("card_note", "not the data")];
    parts.extend(
        fields
            .iter()
            .map(|(name, value)| Part::field(name, value).typed("application/json")),
    );
    request(
        Method::POST,
        "/embed/multi/",
        Some(&format!("multipart/form-data; boundary={BOUNDARY}")),
        Body::from(zdr_test_support::multipart(BOUNDARY, &parts)),
    )
}

fn bar_card(title: &str) -> String {
    json!({
        "viz_config": {"title": title, "viz_component_type": "bar"},
        "data": [{"x": "North", "y": 3}, {"x": "South", "y": 5}]
    })
    .to_string()
}

// ------------------------------------------------------- reading the page

/// HTML text escaping, written again here so the test does not trust the host's.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = start + text[start..].find(close)?;
    Some(&text[start..end])
}

/// The opening tags of the page's layouts, `<div class="card ...">`.
fn card_tags(page: &str) -> Vec<&str> {
    page.match_indices("<div class=\"card ")
        .map(|(at, _)| {
            let end = at + page[at..].find('>').unwrap();
            &page[at..=end]
        })
        .collect()
}

/// The opening tags `<svg ...>` of the page.
fn svg_tags(page: &str) -> Vec<&str> {
    page.match_indices("<svg")
        .map(|(at, _)| {
            let end = at + page[at..].find('>').unwrap();
            &page[at..=end]
        })
        .collect()
}

/// The unescaped text content of every SVG `<text>` element.
fn svg_texts(page: &str) -> Vec<String> {
    page.split("<text")
        .skip(1)
        .filter_map(|el| {
            let start = el.find('>')? + 1;
            let end = el.find("</text>")?;
            Some(unescape(el.get(start..end)?.trim()))
        })
        .collect()
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// The structure every chart page has, whatever its data: one title, one
/// stylesheet, one or more SVGs (one per shape of frame, however many the
/// host draws), balanced text elements, and no script at all.
fn assert_well_formed_chart_page(page: &str) {
    let lower = page.to_ascii_lowercase();
    assert!(!lower.contains("<script"), "a script in the page:\n{page}");
    assert!(page.starts_with("<!doctype html>"), "{page}");
    assert_eq!(count(page, "<title>"), 1, "{page}");
    assert_eq!(count(page, "</title>"), 1, "{page}");
    assert_eq!(count(page, "<style>"), 1, "{page}");
    assert_eq!(count(page, "</style>"), 1, "{page}");
    let svgs = count(page, "<svg");
    assert!(svgs >= 1, "no SVG in the page:\n{page}");
    assert_eq!(count(page, "</svg>"), svgs, "{page}");
    assert_eq!(count(page, "<text"), count(page, "</text>"), "{page}");
    assert_eq!(count(page, "<body>"), 1);
    assert_eq!(count(page, "</body>"), 1);
    assert!(page.trim_end().ends_with("</html>"));
}

/// The embed and error pages' policy: nothing but their own stylesheet,
/// which is named by its hash.
fn assert_page_policy(answer: &Answer, frame_ancestors: &str) {
    let csp = answer.csp();
    let directives: Vec<&str> = csp.split(';').map(str::trim).collect();
    for wanted in ["default-src 'none'", "script-src 'none'"] {
        assert!(directives.contains(&wanted), "{wanted} in {csp}");
    }
    assert!(
        directives.contains(&format!("frame-ancestors {frame_ancestors}").as_str()),
        "frame-ancestors {frame_ancestors} in {csp}"
    );
    let style_src = directives
        .iter()
        .find_map(|d| d.strip_prefix("style-src "))
        .unwrap_or_else(|| panic!("no style-src in {csp}"));
    let style = between(&answer.body, "<style>", "</style>")
        .unwrap_or_else(|| panic!("no <style> in {}", answer.body));
    let digest = Sha256::digest(style.as_bytes());
    let hash = base64::engine::general_purpose::STANDARD.encode(digest);
    assert_eq!(style_src, format!("'sha256-{hash}'"), "{csp}");
    assert_eq!(answer.header(CONTENT_TYPE), "text/html; charset=utf-8");
    assert!(
        !answer.body.to_ascii_lowercase().contains("<script"),
        "{}",
        answer.body
    );
}

/// The postMessage shell's policy, exactly: its own scripts and WebAssembly,
/// fetches only from this host (the .wasm file), its stylesheet by hash.
fn assert_shell_policy(answer: &Answer, frame_ancestors: &str) {
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.header(CONTENT_TYPE), "text/html; charset=utf-8");
    let style = between(&answer.body, "<style>", "</style>")
        .unwrap_or_else(|| panic!("no <style> in {}", answer.body));
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(style.as_bytes()));
    assert_eq!(
        answer.csp(),
        format!(
            "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; \
             style-src 'sha256-{hash}'; img-src 'none'; base-uri 'none'; form-action 'none'; \
             frame-ancestors {frame_ancestors}"
        )
    );
    assert!(!answer.csp().contains("unsafe-inline"), "{}", answer.csp());
    // One script, from this host, with nothing inline.
    let page = &answer.body;
    assert_eq!(count(&page.to_ascii_lowercase(), "<script"), 1, "{page}");
    assert!(
        page.contains("<script type=\"module\" src=\"/zdr-shell/v1/shell.js\"></script>"),
        "{page}"
    );
    assert_eq!(count(page, "<style>"), 1, "{page}");
    assert!(page.contains("<div id=\"zdr-chart\"></div>"), "{page}");
    assert!(page.trim_end().ends_with("</html>"), "{page}");
}

/// The `<html ...>` tag of a page.
fn html_tag(page: &str) -> &str {
    let at = page.find("<html").unwrap();
    &page[at..=at + page[at..].find('>').unwrap()]
}

/// The headers every response carries, whatever it is. Only code found
/// (the package's files, the shell's script) may be kept, revalidated.
fn assert_common_headers(what: &str, answer: &Answer) {
    let code = what.starts_with("/node_modules/zdr-embed/")
        || what.starts_with("/zdr-shell/")
        || what == "shell.js";
    let cache = if code && answer.status.is_success() {
        "no-cache"
    } else {
        "no-store"
    };
    assert_eq!(answer.header(CACHE_CONTROL), cache, "{what}");
    assert_eq!(answer.header(X_CONTENT_TYPE_OPTIONS), "nosniff", "{what}");
    assert_eq!(answer.header(REFERRER_POLICY), "no-referrer", "{what}");
    assert!(!answer.csp().is_empty(), "{what}");
}

// ----------------------------------------------------------------- embeds

#[tokio::test]
async fn every_documented_example_becomes_a_chart_page() {
    let fixture = Fixture::new();
    let app = fixture.app();
    for (name, text) in examples() {
        let card: Value = serde_json::from_str(&text).unwrap();
        let title = card["viz_config"]["title"].as_str().unwrap();
        let answer = send(&app, post(&format!("/embed/example-{name}/"), &text)).await;
        assert_eq!(answer.status, StatusCode::OK, "{name}: {}", answer.body);
        assert_eq!(answer.header(CONTENT_TYPE), "text/html; charset=utf-8");
        let page = &answer.body;
        assert!(
            page.contains(&format!("<title>{}</title>", escape(title))),
            "{name}: title"
        );
        assert_well_formed_chart_page(page);
        let cards = card_tags(page);
        assert!(!cards.is_empty(), "{name}: no layout in {page}");
        for tag in cards {
            // One image for assistive technology, named by the title.
            assert!(tag.contains(" role=\"img\""), "{name}: {tag}");
            assert!(
                tag.contains(&format!("aria-label=\"{}\"", escape(title))),
                "{name}: {tag}"
            );
        }
        // The frame sizes the chart: no drawing has a fixed size or scales.
        for tag in svg_tags(page) {
            assert!(!tag.contains(" width="), "{name}: {tag}");
            assert!(!tag.contains(" height="), "{name}: {tag}");
        }
        let texts = svg_texts(page);
        assert!(
            texts.iter().any(|t| t == title),
            "{name}: the title {title:?} as SVG text in {texts:?}"
        );
        assert_page_policy(&answer, "*");
    }
}

#[tokio::test]
async fn the_address_without_its_final_slash_is_forgiven() {
    let fixture = Fixture::new();
    let answer = send(&fixture.app(), post("/embed/no-slash", &bar_card("Slash"))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert!(answer.body.contains("<title>Slash</title>"));
}

#[tokio::test]
async fn multipart_posts_are_read_too() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let card = bar_card("Multipart card");
    let answer = send(&app, multipart(&[("visualization_data", &card)])).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert!(answer.body.contains("<title>Multipart card</title>"));
    assert_well_formed_chart_page(&answer.body);

    let answer = send(&app, multipart(&[("other_field", &card)])).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.body);
    assert!(
        answer.body.contains("visualization_data"),
        "{}",
        answer.body
    );
    assert_page_policy(&answer, "*");
}

#[tokio::test]
async fn dark_mode_query_overrides_the_card() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let light_card = bar_card("Theme");
    let mut dark_card: Value = serde_json::from_str(&light_card).unwrap();
    dark_card["viz_config"]["dark_mode"] = json!(true);
    let dark_card = dark_card.to_string();

    let style_of = |answer: &Answer| -> String {
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        between(&answer.body, "<style>", "</style>")
            .unwrap()
            .to_string()
    };
    let background = |colour: &str| format!("background:{colour}");

    for (uri, card, wanted) in [
        ("/embed/t/", &light_card, LIGHT),
        ("/embed/t/", &dark_card, DARK),
        ("/embed/t/?dark_mode=true", &light_card, DARK),
        ("/embed/t/?dark_mode=false", &dark_card, LIGHT),
        ("/embed/t/?other=1&dark_mode=true", &light_card, DARK),
    ] {
        let answer = send(&app, post(uri, card)).await;
        let style = style_of(&answer);
        assert!(style.contains(&background(wanted)), "{uri} {card}: {style}");
        let unwanted = if wanted == DARK { LIGHT } else { DARK };
        assert!(!style.contains(&background(unwanted)), "{uri}: {style}");
        // The chart itself is drawn in the same theme: its text colour.
        let text = zdr_chart::Theme::new(wanted == DARK).text.hex();
        assert!(
            answer.body.contains(&format!("fill:{text}")),
            "{uri}: the theme's text colour {text}"
        );
    }

    for bad in ["maybe", "1", "TRUE", ""] {
        let answer = send(
            &app,
            post(&format!("/embed/t/?dark_mode={bad}"), &light_card),
        )
        .await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "dark_mode={bad}");
        assert!(answer.body.contains("dark_mode"), "{}", answer.body);
    }
}

// --------------------------------------------------------------- statuses

#[tokio::test]
async fn bad_data_is_400_and_names_the_json_path() {
    let fixture = Fixture::new();
    let app = fixture.app();

    let answer = send(&app, post("/embed/x/", "{\"viz_config\": ")).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.body);
    assert_page_policy(&answer, "*");

    let answer = send(
        &app,
        request(
            Method::POST,
            "/embed/x/",
            Some(URLENCODED),
            Body::from("card=1&other=2"),
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.body);
    assert!(
        answer.body.contains("visualization_data"),
        "{}",
        answer.body
    );

    let shape = json!({
        "viz_config": {"title": "Shape", "viz_component_type": "bar"},
        "data": [{"x": "a", "y": 1}, {"x": "b", "y": "oops"}]
    });
    let answer = send(&app, post("/embed/x/", &shape.to_string())).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.body);
    assert!(answer.body.contains("data[1].y"), "{}", answer.body);
    assert_page_policy(&answer, "*");

    let series = json!({
        "viz_config": {"title": "Shape"},
        "data": {"series": [{"name": "a", "points": []}, {"name": true, "points": []}]}
    });
    let answer = send(&app, post("/embed/x/", &series.to_string())).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.body);
    assert!(
        answer.body.contains("data.series[1].name"),
        "{}",
        answer.body
    );
}

#[tokio::test]
async fn unknown_addresses_and_bad_card_ids_are_404() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let card = bar_card("x");
    let long = "a".repeat(129);
    for uri in [
        "/embed/a.b/".to_string(),
        format!("/embed/{long}/"),
        "/embed/a%2Fb/".to_string(),
        "/embed/%2E%2E/".to_string(),
        "/embed/a%20b/".to_string(),
        // Not UTF-8 once decoded: the same 404 page, not the router's plain 400.
        "/embed/%FF/".to_string(),
        "/embed/a%C3/".to_string(),
    ] {
        let answer = send(&app, post(&uri, &card)).await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{uri}: {}",
            answer.body
        );
        assert_page_policy(&answer, "*");
    }
    // 128 characters is still a card id.
    let answer = send(&app, post(&format!("/embed/{}/", "a".repeat(128)), &card)).await;
    assert_eq!(answer.status, StatusCode::OK);

    for uri in [
        "/nope",
        "/embed/",
        "/embed",
        "/www/index.html",
        "/embed/x/y/",
    ] {
        let answer = send(&app, get(uri)).await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{uri}: {}",
            answer.body
        );
        assert_page_policy(&answer, "*");
    }
}

/// A post to a mistyped address should get the page that says where cards
/// go, as a GET does, not a bare 405 from the static file service.
#[tokio::test]
async fn posts_to_unknown_paths_are_404() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let card = bar_card("x");
    for uri in [
        "/nope",
        "/embeds/x/",
        "/embed/x/y/",
        "/node_modules/zdr-embed/pkg/missing.js",
    ] {
        let answer = send(&app, post(uri, &card)).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "POST {uri}");
        assert_page_policy(&answer, "*");
    }
}

/// The widget's auto mode probes with HEAD before trusting the frame's load event.
#[tokio::test]
async fn head_on_an_embed_address_says_it_is_there() {
    let fixture = Fixture::new();
    let app = fixture.app();
    for uri in ["/embed/x/", "/embed/x", "/embed/x/?dark_mode=true"] {
        let answer = send(&app, request(Method::HEAD, uri, None, Body::empty())).await;
        assert_eq!(answer.status, StatusCode::NO_CONTENT, "HEAD {uri}");
        assert!(answer.body.is_empty(), "HEAD {uri}");
        assert_eq!(answer.header(CACHE_CONTROL), "no-store", "HEAD {uri}");
    }
}

#[tokio::test]
async fn other_methods_are_405_with_allow_get_post_head() {
    let fixture = Fixture::new();
    let app = fixture.app();
    for method in [Method::PUT, Method::DELETE, Method::PATCH, Method::OPTIONS] {
        for uri in ["/embed/x/", "/embed/x", &format!("/embed/x/?{SHELL_QUERY}")] {
            let answer = send(&app, request(method.clone(), uri, None, Body::empty())).await;
            assert_eq!(
                answer.status,
                StatusCode::METHOD_NOT_ALLOWED,
                "{method} {uri}"
            );
            assert_eq!(answer.header(ALLOW), "GET, POST, HEAD", "{method} {uri}");
            assert!(
                answer.body.contains("visualization_data")
                    && answer.body.contains("embed_mode=postmessage")
                    && answer.body.contains("postMessage shell"),
                "{method} {uri}: {}",
                answer.body
            );
            assert_page_policy(&answer, "*");
        }
    }
}

#[tokio::test]
async fn bodies_over_the_limit_are_413_declared_or_not() {
    let fixture = Fixture::new();
    let app = app(Config {
        admission: zdr_host::config::AdmissionConfig {
            body_limit: 1000,
            ..Default::default()
        },
        ..fixture.config()
    });
    // Just under the limit still draws.
    let small = bar_card("Small");
    assert!(form(&small).len() < 1000);
    assert_eq!(
        send(&app, post("/embed/x/", &small)).await.status,
        StatusCode::OK
    );

    // A declared length over the limit.
    let big = bar_card(&"B".repeat(2000));
    let answer = send(&app, post("/embed/x/", &big)).await;
    assert_eq!(
        answer.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        answer.body
    );
    assert!(answer.body.contains("1000"), "{}", answer.body);
    assert_page_policy(&answer, "*");

    // A chunked body without a length, larger than the limit only as it streams.
    let chunks = (0..8).map(|i| {
        let chunk = if i == 0 {
            "visualization_data=".to_string()
        } else {
            "a".repeat(300)
        };
        Ok::<_, std::io::Error>(Bytes::from(chunk))
    });
    let body = Body::from_stream(futures_util::stream::iter(chunks));
    let answer = send(
        &app,
        request(Method::POST, "/embed/x/", Some(URLENCODED), body),
    )
    .await;
    assert_eq!(
        answer.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        answer.body
    );
    assert_page_policy(&answer, "*");

    // Multipart is bounded the same way.
    let answer = send(&app, multipart(&[("visualization_data", &big)])).await;
    assert_eq!(
        answer.status,
        StatusCode::PAYLOAD_TOO_LARGE,
        "{}",
        answer.body
    );
}

#[tokio::test]
async fn posts_that_are_not_forms_are_415() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let card = bar_card("x");
    for content_type in [
        Some("text/plain"),
        Some("application/json"),
        Some("text/html; charset=utf-8"),
        None,
    ] {
        let body = if content_type == Some("application/json") {
            card.clone()
        } else {
            form(&card)
        };
        let answer = send(
            &app,
            request(Method::POST, "/embed/x/", content_type, Body::from(body)),
        )
        .await;
        assert_eq!(
            answer.status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type:?}: {}",
            answer.body
        );
        assert_page_policy(&answer, "*");
    }
    // The type's name is case-insensitive and may carry parameters.
    let answer = send(
        &app,
        request(
            Method::POST,
            "/embed/x/",
            Some("Application/X-WWW-Form-Urlencoded; charset=UTF-8"),
            Body::from(form(&card)),
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
}

/// One request of each kind the service refuses, with the status it must get.
fn bad_requests() -> Vec<(&'static str, Request<Body>, StatusCode)> {
    let card = bar_card("x");
    let oversized = bar_card(&"x".repeat(4000));
    let chunks = (0..20).map(|_| Ok::<_, std::io::Error>(Bytes::from("a".repeat(500))));
    vec![
        (
            "invalid JSON",
            post("/embed/x/", "{not json"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "no field",
            request(Method::POST, "/embed/x/", Some(URLENCODED), Body::from("a=1")),
            StatusCode::BAD_REQUEST,
        ),
        (
            "shape error",
            post("/embed/x/", "{\"viz_config\":{\"title\":1},\"data\":[]}"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "bad dark_mode",
            post("/embed/x/?dark_mode=maybe", &card),
            StatusCode::BAD_REQUEST,
        ),
        (
            "broken multipart",
            request(
                Method::POST,
                "/embed/x/",
                Some(&format!("multipart/form-data; boundary={BOUNDARY}")),
                Body::from("--nothing-like-the-boundary\r\n"),
            ),
            StatusCode::BAD_REQUEST,
        ),
        (
            "multipart without a boundary",
            request(
                Method::POST,
                "/embed/x/",
                Some("multipart/form-data"),
                Body::from(form(&card)),
            ),
            StatusCode::BAD_REQUEST,
        ),
        (
            "field not UTF-8",
            request(
                Method::POST,
                "/embed/x/",
                Some(&format!("multipart/form-data; boundary={BOUNDARY}")),
                Body::from(
                    [
                        format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"visualization_data\"\r\n\r\n").into_bytes(),
                        vec![0xff, 0xfe, 0x80],
                        format!("\r\n--{BOUNDARY}--\r\n").into_bytes(),
                    ]
                    .concat(),
                ),
            ),
            StatusCode::BAD_REQUEST,
        ),
        ("unknown path", get("/nope"), StatusCode::NOT_FOUND),
        (
            "bad card id",
            post("/embed/a.b/", &card),
            StatusCode::NOT_FOUND,
        ),
        (
            "GET embed without embed_mode",
            get("/embed/x/"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "GET shell, other embed_mode",
            get("/embed/x/?embed_mode=form&parent_origin=https://a.example"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "GET shell without parent_origin",
            get("/embed/x/?embed_mode=postmessage"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "GET shell, parent_origin with a path",
            get("/embed/x/?embed_mode=postmessage&parent_origin=https://a.example/"),
            StatusCode::BAD_REQUEST,
        ),
        (
            "GET shell, bad height",
            get(&format!("/embed/x/?{SHELL_QUERY}&height=9")),
            StatusCode::BAD_REQUEST,
        ),
        (
            "GET shell, bad card id",
            get(&format!("/embed/a.b/?{SHELL_QUERY}")),
            StatusCode::NOT_FOUND,
        ),
        (
            "PUT embed",
            request(Method::PUT, "/embed/x/", None, Body::empty()),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            "declared too large",
            post("/embed/x/", &oversized),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            "streamed too large",
            request(
                Method::POST,
                "/embed/x/",
                Some(URLENCODED),
                Body::from_stream(futures_util::stream::iter(chunks)),
            ),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            "text/plain",
            request(
                Method::POST,
                "/embed/x/",
                Some("text/plain"),
                Body::from(form(&card)),
            ),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            "no content type",
            request(Method::POST, "/embed/x/", None, Body::from(form(&card))),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
    ]
}

#[tokio::test]
async fn keeps_serving_after_every_kind_of_bad_request() {
    let fixture = Fixture::new();
    let app = app(Config {
        admission: zdr_host::config::AdmissionConfig {
            body_limit: 2000,
            ..Default::default()
        },
        ..fixture.config()
    });
    for round in 0..2 {
        for (what, request, status) in bad_requests() {
            let answer = send(&app, request).await;
            assert_eq!(
                answer.status, status,
                "round {round}, {what}: {}",
                answer.body
            );
            assert_page_policy(&answer, "*");
        }
        let answer = send(&app, post("/embed/after/", &bar_card("Still here"))).await;
        assert_eq!(
            answer.status,
            StatusCode::OK,
            "round {round}: {}",
            answer.body
        );
        assert!(answer.body.contains("<title>Still here</title>"));
        assert_well_formed_chart_page(&answer.body);
        let answer = send(&app, get(&format!("/embed/after/?{SHELL_QUERY}"))).await;
        assert_eq!(answer.status, StatusCode::OK, "round {round}: shell");
        assert_shell_policy(&answer, SHELL_PARENT);
    }
}

// --------------------------------------------------------------- escaping

#[tokio::test]
async fn hostile_strings_are_escaped_in_every_place_they_can_appear() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let h = HOSTILE;
    let config = |kind: &str| {
        json!({
            "title": h, "subtitle": h, "x_label": h, "y_label": h,
            "units": h, "source": h, "viz_component_type": kind
        })
    };
    let cards = [
        (
            "bar",
            json!({"viz_config": config("bar"),
                   "data": [{"x": h, "y": 1}, {"x": format!("{h}2"), "y": 2}]}),
        ),
        (
            "grouped_bar",
            json!({"viz_config": config("grouped_bar"),
            "data": {"series": [
                {"name": h, "points": [{"x": h, "y": 1}, {"x": "b", "y": 2}]},
                {"name": format!("{h}2"), "points": [{"x": h, "y": 3}]}
            ]}}),
        ),
        (
            "table",
            json!({"viz_config": config("table"),
                   "data": {"columns": [h, format!("{h}2")],
                            "rows": [[h, 1], ["plain", h]]}}),
        ),
        (
            "timeline",
            json!({"viz_config": config("timeline"),
                   "data": [{"label": h, "start": "2026-01-01", "end": "2026-03-01"}]}),
        ),
        (
            "pie",
            json!({"viz_config": config("pie"),
                   "data": [{"x": h, "y": 1}, {"x": "other", "y": 2}]}),
        ),
    ];
    let escaped = escape(h);
    assert_eq!(
        escaped,
        "&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;&lt;&gt;"
    );
    for (kind, card) in cards {
        let answer = send(&app, post(&format!("/embed/{kind}/"), &card.to_string())).await;
        assert_eq!(answer.status, StatusCode::OK, "{kind}: {}", answer.body);
        let page = &answer.body;
        assert_well_formed_chart_page(page);
        assert!(
            !page.contains("<b>") && !page.contains("alert(1)</"),
            "{kind}"
        );
        assert!(
            page.contains(&format!("<title>{escaped}</title>")),
            "{kind}: the escaped title"
        );
        for tag in card_tags(page) {
            assert!(
                tag.contains(&format!("aria-label=\"{escaped}\"")),
                "{kind}: {tag}"
            );
        }
        // The text reaches the drawing, escaped, and reads back as it was sent.
        let texts = svg_texts(page);
        assert!(
            texts.iter().any(|t| t == h),
            "{kind}: the title as SVG text in {texts:?}"
        );
        assert!(
            page.contains("&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{kind}"
        );
        // Every '<' in the page opens a tag or a closing tag, never text.
        for piece in page.split('<').skip(1) {
            let first = piece.chars().next().unwrap_or(' ');
            assert!(
                first.is_ascii_alphabetic() || first == '/' || first == '!',
                "{kind}: a stray '<' before {:?}",
                &piece[..piece.len().min(40)]
            );
        }
        assert_page_policy(&answer, "*");
    }
}

#[tokio::test]
async fn error_pages_escape_the_values_they_quote() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let cases = [
        // The brief's example: the x is not quoted (it is valid), the y is.
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "bar"},
                   "data": [{"x": "a", "y": 1}, {"x": "</pre><script>x</script>", "y": "<b>"}]}),
            "data[1].y",
            "&lt;b&gt;",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "bar"},
                   "data": [{"x": "a", "y": "</pre><script>x</script>"}]}),
            "data[0].y",
            "&lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "<script>alert(1)</script>"},
                   "data": []}),
            "viz_config.viz_component_type",
            "&lt;script&gt;alert(1)&lt;/script&gt;",
        ),
        (
            json!({"viz_config": {"title": "t", "viz_component_type": "timeseries"},
                   "data": [{"x": "</pre>'\"&", "y": 1}]}),
            "data[0].x",
            "&lt;/pre&gt;&#39;",
        ),
    ];
    for (card, path, escaped) in cases {
        let answer = send(&app, post("/embed/x/", &card.to_string())).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{card}");
        let page = &answer.body;
        assert!(page.contains(path), "{path}: {page}");
        assert!(page.contains(escaped), "{escaped}: {page}");
        assert!(!page.to_ascii_lowercase().contains("<script"), "{page}");
        assert!(!page.contains("<b>"), "{page}");
        assert_eq!(count(page, "<pre>"), 1, "{page}");
        assert_eq!(count(page, "</pre>"), 1, "{page}");
        assert_page_policy(&answer, "*");
    }
}

// ---------------------------------------------------------------- headers

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let fixture = Fixture::new();
    let app = app(Config {
        admission: zdr_host::config::AdmissionConfig {
            body_limit: 1000,
            ..Default::default()
        },
        ..fixture.config()
    });
    let card = bar_card("Headers");
    let html_pages = [
        ("embed 200", post("/embed/x/", &card), StatusCode::OK),
        ("400", post("/embed/x/", "{"), StatusCode::BAD_REQUEST),
        ("404", get("/nope"), StatusCode::NOT_FOUND),
        (
            "404 card id",
            post("/embed/a.b/", &card),
            StatusCode::NOT_FOUND,
        ),
        (
            "404 in pkg",
            get("/node_modules/zdr-embed/pkg/missing.js"),
            StatusCode::NOT_FOUND,
        ),
        ("400 shell", get("/embed/x/"), StatusCode::BAD_REQUEST),
        (
            "405",
            request(Method::PUT, "/embed/x/", None, Body::empty()),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            "413",
            post("/embed/x/", &bar_card(&"x".repeat(2000))),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            "415",
            request(
                Method::POST,
                "/embed/x/",
                Some("text/plain"),
                Body::from("x"),
            ),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
    ];
    for (what, request, status) in html_pages {
        let answer = send(&app, request).await;
        assert_eq!(answer.status, status, "{what}: {}", answer.body);
        assert_common_headers(what, &answer);
        assert_page_policy(&answer, "*");
    }

    let answer = send(&app, get(&format!("/embed/x/?{SHELL_QUERY}"))).await;
    assert_eq!(answer.status, StatusCode::OK, "shell: {}", answer.body);
    assert_common_headers("shell", &answer);
    assert_shell_policy(&answer, SHELL_PARENT);

    // The demo's files get the demo's policy; everything else that is not a
    // page of its own gets the strictest one.
    let files = [
        ("/healthz", "ok", false),
        ("/zdr-shell/v1/shell.js", "startShell", false),
        ("/", "zdr demo", true),
        ("/index.html", "zdr demo", true),
        ("/node_modules/zdr-embed/package.json", "0.0.0-test", false),
        ("/node_modules/zdr-embed/pkg/x.js", "export const x", false),
    ];
    for (uri, content, demo) in files {
        let answer = send(&app, get(uri)).await;
        assert_eq!(answer.status, StatusCode::OK, "{uri}: {}", answer.body);
        assert!(answer.body.contains(content), "{uri}: {}", answer.body);
        assert_common_headers(uri, &answer);
        let csp = answer.csp();
        if demo {
            assert!(csp.contains("frame-ancestors *"), "{uri}: {csp}");
            assert!(csp.contains("object-src 'none'"), "{uri}: {csp}");
        } else {
            assert_eq!(csp, STRICT, "{uri}");
        }
    }
}

#[tokio::test]
async fn frame_ancestors_setting_reaches_every_policy() {
    let fixture = Fixture::new();
    let sources = "'self' https://a.example";
    let app = app(Config {
        embed: zdr_host::config::EmbedConfig {
            frame_ancestors: sources.into(),
            ..Default::default()
        },
        ..fixture.config()
    });
    let answer = send(&app, post("/embed/x/", &bar_card("Framed"))).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_page_policy(&answer, sources);
    assert!(!answer.csp().contains("frame-ancestors *"));

    let answer = send(&app, post("/embed/x/", "{")).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_page_policy(&answer, sources);

    let answer = send(&app, get("/nope")).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_page_policy(&answer, sources);

    // The shell is framed by its parent alone, if the sources allow it.
    let allowed = "embed_mode=postmessage&parent_origin=https%3A%2F%2Fa.example";
    let answer = send(&app, get(&format!("/embed/x/?{allowed}"))).await;
    assert_shell_policy(&answer, "https://a.example");
    let answer = send(&app, get(&format!("/embed/x/?{SHELL_QUERY}"))).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.body);
    assert!(answer.body.contains("app.example.com"), "{}", answer.body);
    assert_page_policy(&answer, sources);

    let answer = send(&app, get("/embed/x/?embed_mode=postmessage")).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert_page_policy(&answer, sources);

    for uri in ["/", "/index.html"] {
        let answer = send(&app, get(uri)).await;
        assert_eq!(answer.status, StatusCode::OK, "{uri}");
        assert!(
            answer
                .csp()
                .ends_with(&format!("frame-ancestors {sources}")),
            "{uri}: {}",
            answer.csp()
        );
    }
    for uri in ["/healthz", "/node_modules/zdr-embed/package.json"] {
        assert_eq!(send(&app, get(uri)).await.csp(), STRICT, "{uri}");
    }
}

// ------------------------------------------------------ health and files

#[tokio::test]
async fn healthz_says_ok() {
    let fixture = Fixture::new();
    let answer = send(&fixture.app(), get("/healthz")).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body.trim(), "ok");
}

/// Every postMessage frame loads the engine: a browser may keep it and
/// revalidate, and gets 304 with no body when it has not changed.
#[tokio::test]
async fn the_package_files_are_revalidated_not_downloaded_again() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let uri = "/node_modules/zdr-embed/pkg/x.js";
    let first = send(&app, get(uri)).await;
    assert_eq!(first.status, StatusCode::OK);
    assert_eq!(first.header(CACHE_CONTROL), "no-cache");
    let modified = first.header(LAST_MODIFIED).to_owned();
    let again = Request::builder()
        .uri(uri)
        .header(IF_MODIFIED_SINCE, &modified)
        .body(Body::empty())
        .unwrap();
    let second = send(&app, again).await;
    assert_eq!(second.status, StatusCode::NOT_MODIFIED);
    assert!(second.body.is_empty());
    assert_eq!(second.header(CACHE_CONTROL), "no-cache");
    // What is missing, and everything that is not code, is never stored.
    let missing = send(&app, get("/node_modules/zdr-embed/pkg/missing.js")).await;
    assert_eq!(missing.header(CACHE_CONTROL), "no-store");
    let shell = send(&app, get(&format!("/embed/x/?{SHELL_QUERY}"))).await;
    assert_eq!(shell.header(CACHE_CONTROL), "no-store");
}

#[tokio::test]
async fn the_package_route_serves_only_package_json_and_pkg() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let answer = send(&app, get("/node_modules/zdr-embed/package.json")).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body, PACKAGE_JSON);
    let answer = send(&app, get("/node_modules/zdr-embed/pkg/x.js")).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.body, PKG_JS);
    assert!(
        answer.header(CONTENT_TYPE).contains("javascript"),
        "{}",
        answer.header(CONTENT_TYPE)
    );

    assert!(fixture.package.join("Cargo.toml").is_file());
    for uri in [
        "/node_modules/zdr-embed/Cargo.toml",
        "/node_modules/zdr-embed/pkg/../Cargo.toml",
        "/node_modules/zdr-embed/pkg/%2e%2e/Cargo.toml",
        "/node_modules/zdr-embed/pkg/..%2fCargo.toml",
        "/node_modules/zdr-embed/",
        "/node_modules/zdr-embed/pkg/missing.js",
    ] {
        let answer = send(&app, get(uri)).await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{uri}: {}",
            answer.body
        );
        assert!(!answer.body.contains("secret"), "{uri}");
    }
}

#[tokio::test]
async fn a_missing_www_folder_leaves_the_service_running() {
    let fixture = Fixture::new();
    let app = app(Config {
        server: zdr_host::config::ServerConfig {
            www: Path::new("/nonexistent/zdr-www").to_path_buf(),
            ..Default::default()
        },
        ..fixture.config()
    });
    let answer = send(&app, get("/")).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    assert_page_policy(&answer, "*");
    let answer = send(&app, post("/embed/x/", &bar_card("No www"))).await;
    assert_eq!(answer.status, StatusCode::OK);
}

// ------------------------------------------------------ postMessage shell

#[tokio::test]
async fn get_with_postmessage_mode_is_the_shell() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let cases = [
        (
            format!("/embed/card-1/?{SHELL_QUERY}"),
            "<html lang=\"en\" data-parent-origin=\"https://app.example.com\" data-engine=\"/node_modules/zdr-embed/pkg/engine/zdr_engine.js\">",
        ),
        (
            format!("/embed/card-1?{SHELL_QUERY}"),
            "<html lang=\"en\" data-parent-origin=\"https://app.example.com\" data-engine=\"/node_modules/zdr-embed/pkg/engine/zdr_engine.js\">",
        ),
        (
            format!("/embed/x/?{SHELL_QUERY}&dark_mode=true&height=auto"),
            "<html lang=\"en\" data-parent-origin=\"https://app.example.com\" data-engine=\"/node_modules/zdr-embed/pkg/engine/zdr_engine.js\" data-dark-mode=\"true\" data-height=\"auto\">",
        ),
        (
            format!("/embed/x/?height=auto&dark_mode=false&{SHELL_QUERY}&unknown=%3Cb%3E"),
            "<html lang=\"en\" data-parent-origin=\"https://app.example.com\" data-engine=\"/node_modules/zdr-embed/pkg/engine/zdr_engine.js\" data-dark-mode=\"false\" data-height=\"auto\">",
        ),
        (
            "/embed/x/?embed_mode=postmessage&parent_origin=http://[::1]:8080".to_string(),
            "<html lang=\"en\" data-parent-origin=\"http://[::1]:8080\" data-engine=\"/node_modules/zdr-embed/pkg/engine/zdr_engine.js\">",
        ),
        (
            // The last of a repeated parameter counts.
            "/embed/x/?embed_mode=form&embed_mode=postmessage&parent_origin=https://a.example&parent_origin=http://localhost:5173".to_string(),
            "<html lang=\"en\" data-parent-origin=\"http://localhost:5173\" data-engine=\"/node_modules/zdr-embed/pkg/engine/zdr_engine.js\">",
        ),
    ];
    for (uri, tag) in cases {
        let answer = send(&app, get(&uri)).await;
        assert_eq!(answer.status, StatusCode::OK, "{uri}: {}", answer.body);
        assert_eq!(html_tag(&answer.body), tag, "{uri}");
        let parent = between(tag, "data-parent-origin=\"", "\"").unwrap();
        assert_shell_policy(&answer, &unescape(parent));
        assert_common_headers(&uri, &answer);
        assert!(answer.body.contains("<title>Chart</title>"), "{uri}");
        assert!(!answer.body.contains("<b>"), "{uri}");
    }
    // The stylesheet lets height=auto leave the container to its content.
    let answer = send(&app, get(&format!("/embed/x/?{SHELL_QUERY}"))).await;
    let style = between(&answer.body, "<style>", "</style>").unwrap();
    assert!(style.contains("background:transparent"), "{style}");
    assert!(
        style.contains("#zdr-chart{width:100%;height:100vh}"),
        "{style}"
    );
    assert!(
        style.contains("html[data-height=auto] #zdr-chart{height:auto}"),
        "{style}"
    );
}

#[tokio::test]
async fn the_shell_names_the_configured_engine_and_keeps_it_cacheable() {
    let fixture = Fixture::new();
    // The default: the engine of the package this host serves, which is
    // there to be loaded.
    let app = fixture.app();
    let answer = send(&app, get(&format!("/embed/x/?{SHELL_QUERY}"))).await;
    assert_shell_policy(&answer, SHELL_PARENT);
    assert_eq!(
        between(html_tag(&answer.body), "data-engine=\"", "\""),
        Some("/node_modules/zdr-embed/pkg/engine/zdr_engine.js")
    );
    std::fs::create_dir_all(fixture.package.join("pkg/engine")).unwrap();
    std::fs::write(fixture.package.join("pkg/engine/zdr_engine.js"), PKG_JS).unwrap();
    let engine = send(
        &app,
        get("/node_modules/zdr-embed/pkg/engine/zdr_engine.js"),
    )
    .await;
    assert_eq!(engine.status, StatusCode::OK);
    assert_eq!(engine.body, PKG_JS);
    assert_eq!(engine.header(CACHE_CONTROL), "no-cache");

    // Elsewhere on this host, e.g. the demo folder: written into the page
    // escaped, and that engine and its .wasm are code the browser may keep.
    std::fs::create_dir_all(fixture.www.join("e&v2")).unwrap();
    std::fs::write(fixture.www.join("e&v2/zdr_engine.js"), PKG_JS).unwrap();
    std::fs::write(fixture.www.join("e&v2/zdr_engine_bg.wasm"), b"\0asm").unwrap();
    std::fs::write(fixture.www.join("e&v2/page.html"), INDEX_HTML).unwrap();
    let app = zdr_host::app(Config {
        embed: zdr_host::config::EmbedConfig {
            engine_url: "/e&v2/zdr_engine.js".into(),
            ..Default::default()
        },
        ..fixture.config()
    });
    let answer = send(&app, get(&format!("/embed/x/?{SHELL_QUERY}"))).await;
    assert_shell_policy(&answer, SHELL_PARENT);
    assert_eq!(
        html_tag(&answer.body),
        "<html lang=\"en\" data-parent-origin=\"https://app.example.com\" data-engine=\"/e&amp;v2/zdr_engine.js\">"
    );
    for (uri, cache) in [
        ("/e&v2/zdr_engine.js", "no-cache"),
        ("/e&v2/zdr_engine_bg.wasm", "no-cache"),
        ("/e&v2/page.html", "no-store"),
    ] {
        let answer = send(&app, get(uri)).await;
        assert_eq!(answer.status, StatusCode::OK, "{uri}");
        assert_eq!(answer.header(CACHE_CONTROL), cache, "{uri}");
    }
}

/// The shell's policy loads scripts from its own origin only: an engine
/// elsewhere would fail in every browser, silently, so the host refuses to
/// start with one and says what to give instead.
#[test]
fn an_engine_url_off_this_host_stops_the_host_at_start_up() {
    for (bad, why) in [
        (
            "https://cdn.example/zdr_engine.js",
            "is not a path on this host",
        ),
        ("//cdn.example/zdr_engine.js", "names another host"),
        ("/zdr_engine.js?v=2", "which a URL path cannot hold"),
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_zdr-host"))
            .args(["--port", "0", "--engine-url", bad])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A host that accepted the value would serve until stopped.
        let started = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > std::time::Duration::from_secs(10) {
                child.kill().unwrap();
                panic!("{bad}: the host started");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{bad}: {stderr}");
        assert!(stderr.contains("--engine-url"), "{bad}: {stderr}");
        assert!(stderr.contains(why), "{bad}: {stderr}");
        assert!(
            stderr.contains(
                "give a path on this host, e.g. /node_modules/zdr-embed/pkg/engine/zdr_engine.js"
            ),
            "{bad}: {stderr}"
        );
        assert!(output.stdout.is_empty(), "{bad}: it listened");
    }
}

#[tokio::test]
async fn shell_requests_with_bad_parameters_are_400_and_say_what_to_send() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let origin = "parent_origin=https://a.example";
    let cases = [
        (
            "".to_string(),
            "add ?embed_mode=postmessage&amp;parent_origin=",
        ),
        (
            "?dark_mode=true".to_string(),
            "add ?embed_mode=postmessage&amp;parent_origin=",
        ),
        (format!("?{origin}"), "Cards with data are POSTed"),
        (
            format!("?embed_mode=form&{origin}"),
            "embed_mode must be postmessage",
        ),
        (format!("?embed_mode=&{origin}"), "found &quot;&quot;"),
        (
            format!("?embed_mode=POSTMESSAGE&{origin}"),
            "found &quot;POSTMESSAGE&quot;",
        ),
        (
            "?embed_mode=postmessage".to_string(),
            "parent_origin is required",
        ),
        (
            "?embed_mode=postmessage&parent_origin=".to_string(),
            "it is empty",
        ),
        (
            "?embed_mode=postmessage&parent_origin=null".to_string(),
            "opaque origin",
        ),
        (
            "?embed_mode=postmessage&parent_origin=https://a.example/".to_string(),
            "no path or trailing slash",
        ),
        (
            "?embed_mode=postmessage&parent_origin=https://a.example:443".to_string(),
            "drop :443",
        ),
        (
            "?embed_mode=postmessage&parent_origin=http://a.example:80".to_string(),
            "drop :80",
        ),
        (
            "?embed_mode=postmessage&parent_origin=https://App.Example".to_string(),
            "lowercase",
        ),
        (
            "?embed_mode=postmessage&parent_origin=HTTPS://a.example".to_string(),
            "lowercase",
        ),
        (
            "?embed_mode=postmessage&parent_origin=javascript:alert(1)".to_string(),
            "http or https",
        ),
        (
            "?embed_mode=postmessage&parent_origin=file:///etc/passwd".to_string(),
            "http or https",
        ),
        (
            "?embed_mode=postmessage&parent_origin=https://u:p@a.example".to_string(),
            "user name or password",
        ),
        (
            "?embed_mode=postmessage&parent_origin=https://a.example+".to_string(),
            "whitespace",
        ),
        (
            "?embed_mode=postmessage&parent_origin=https%3A%2F%2Fa.example%0A".to_string(),
            "whitespace",
        ),
        (
            format!("?embed_mode=postmessage&{origin}&dark_mode=yes"),
            "dark_mode query parameter must be true or false",
        ),
        (
            format!("?embed_mode=postmessage&{origin}&height=400px"),
            "height must be auto",
        ),
        (
            format!("?embed_mode=postmessage&{origin}&height="),
            "height must be auto",
        ),
    ];
    for (query, wanted) in cases {
        let uri = format!("/embed/x/{query}");
        let answer = send(&app, get(&uri)).await;
        assert_eq!(
            answer.status,
            StatusCode::BAD_REQUEST,
            "{uri}: {}",
            answer.body
        );
        assert!(
            answer.body.contains(wanted),
            "{uri}: {wanted} in {}",
            answer.body
        );
        // dark_mode's error is the form mode's own, without the shell's hint.
        if !wanted.contains("dark_mode") {
            assert!(
                answer.body.contains("postmessage-protocol.md"),
                "{uri}: the hint"
            );
        }
        assert_page_policy(&answer, "*");
        assert_common_headers(&uri, &answer);
    }
}

#[tokio::test]
async fn shell_errors_escape_and_shorten_what_they_quote() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let hostile = form_urlencoded::byte_serialize(HOSTILE.as_bytes()).collect::<String>();
    let long = "m".repeat(500);
    for query in [
        format!("embed_mode={hostile}&parent_origin=https://a.example"),
        format!("embed_mode=postmessage&parent_origin={hostile}"),
        format!("embed_mode=postmessage&parent_origin=https://a{hostile}"),
        format!("embed_mode=postmessage&parent_origin=https://a.example&height={hostile}"),
        format!("embed_mode={long}&parent_origin=https://a.example"),
        format!("embed_mode=postmessage&parent_origin=https://{long}"),
    ] {
        let answer = send(&app, get(&format!("/embed/x/?{query}"))).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{query}");
        let page = &answer.body;
        assert!(!page.to_ascii_lowercase().contains("<script"), "{page}");
        assert!(!page.contains("alert(1)</"), "{page}");
        assert!(!page.contains(&"m".repeat(61)), "{page}");
        assert_eq!(count(page, "<pre>"), 1, "{page}");
        assert_page_policy(&answer, "*");
    }
}

#[tokio::test]
async fn shell_requests_for_bad_card_ids_are_404() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let long = "a".repeat(129);
    for card in [
        "a.b",
        long.as_str(),
        "a%2Fb",
        "%2E%2E",
        "a%20b",
        "%FF",
        "a%C3",
    ] {
        for query in [SHELL_QUERY, ""] {
            let uri = format!("/embed/{card}/?{query}");
            let answer = send(&app, get(&uri)).await;
            assert_eq!(
                answer.status,
                StatusCode::NOT_FOUND,
                "{uri}: {}",
                answer.body
            );
            assert!(answer.body.contains("Unknown card address"), "{uri}");
            assert_page_policy(&answer, "*");
        }
    }
    let answer = send(
        &app,
        get(&format!("/embed/{}/?{SHELL_QUERY}", "a".repeat(128))),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
}

#[tokio::test]
async fn the_shell_script_is_served_from_its_file() {
    let fixture = Fixture::new();
    let app = fixture.app();
    let file = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../embed-page/assets/shell.js"
    ))
    .unwrap();
    let answer = send(&app, get("/zdr-shell/v1/shell.js")).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.header(CONTENT_TYPE),
        "text/javascript; charset=utf-8"
    );
    assert_eq!(answer.body, file);
    assert!(answer.body.contains("startShell("), "{}", answer.body);
    assert!(
        answer.body.contains("await import(page.engine)"),
        "{}",
        answer.body
    );
    assert_common_headers("shell.js", &answer);

    let answer = send(
        &app,
        request(Method::HEAD, "/zdr-shell/v1/shell.js", None, Body::empty()),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert!(answer.body.is_empty());
    // Only that one version and file.
    for uri in [
        "/zdr-shell/v1/",
        "/zdr-shell/v1/other.js",
        "/zdr-shell/v2/shell.js",
    ] {
        let answer = send(&app, get(uri)).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{uri}");
    }
}

#[tokio::test]
async fn the_shell_leaves_head_and_post_as_they_were() {
    let fixture = Fixture::new();
    let app = fixture.app();
    for uri in [
        format!("/embed/x/?{SHELL_QUERY}"),
        "/embed/x?embed_mode=nope".to_string(),
    ] {
        let answer = send(&app, request(Method::HEAD, &uri, None, Body::empty())).await;
        assert_eq!(answer.status, StatusCode::NO_CONTENT, "HEAD {uri}");
        assert!(answer.body.is_empty());
    }
    // A post with the shell's query still draws the card it carries.
    let answer = send(
        &app,
        post(
            &format!("/embed/x/?{SHELL_QUERY}&height=auto"),
            &bar_card("Posted"),
        ),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert!(answer.body.contains("<title>Posted</title>"));
    assert_well_formed_chart_page(&answer.body);
    assert_page_policy(&answer, "*");
}

#[tokio::test]
async fn the_shell_serves_only_listed_parent_origins() {
    let fixture = Fixture::new();
    let list = "https://a.example, http://localhost:5173";
    let origins = clap_origins(list);
    let app = app(Config {
        embed: zdr_host::config::EmbedConfig {
            parent_origins: Some(origins),
            ..Default::default()
        },
        ..fixture.config()
    });
    for allowed in ["https%3A%2F%2Fa.example", "http://localhost:5173"] {
        let uri = format!("/embed/x/?embed_mode=postmessage&parent_origin={allowed}");
        let answer = send(&app, get(&uri)).await;
        assert_shell_policy(&answer, &allowed.replace("%3A%2F%2F", "://"));
    }
    let answer = send(&app, get(&format!("/embed/x/?{SHELL_QUERY}"))).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.body);
    assert!(
        answer
            .body
            .contains("does not serve charts to pages of &quot;https://app.example.com&quot;"),
        "{}",
        answer.body
    );
    assert_common_headers("403", &answer);
    assert_page_policy(&answer, "*");
}

/// The list as the --parent-origins flag reads it.
fn clap_origins(list: &str) -> zdr_host::config::OriginList {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        config: Config,
    }
    Cli::parse_from(["zdr-host", "--parent-origins", list])
        .config
        .embed
        .parent_origins
        .unwrap()
}
