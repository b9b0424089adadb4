// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The form-mode chart page through the router: two layouts at most, one
//! per width class of the engine's type scale, every text set in CSS px at
//! that class's size, no inline style, the stylesheet named by its hash,
//! and a page no bigger than two of the four drawings it replaces.

use axum::body::Body;
use axum::http::header::{CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::http::{Method, Request, StatusCode};
use axum::Router;
use base64::Engine;
use http_body_util::BodyExt;
use sha2::{Digest, Sha256};
use tower::ServiceExt;
use zdr_chart::layout::Sizes;
use zdr_chart::Chart;
use zdr_host::{app, Config};
use zdr_test_support::examples;

/// The widths of the two classes' ranges the page answers for.
const REGULAR: f64 = 420.0;
const COMPACT: f64 = 320.0;

fn router() -> Router {
    let dir = std::env::temp_dir();
    app(Config {
        server: zdr_host::config::ServerConfig {
            www: dir.clone(),
            package: dir,
            ..Default::default()
        },
        ..Default::default()
    })
}

/// The page for `json` posted as the documented hidden form sends it, and
/// its Content-Security-Policy.
async fn page(app: &Router, json: &str) -> (String, String) {
    let body = form_urlencoded::Serializer::new(String::new())
        .append_pair("visualization_data", json)
        .finish();
    posted(app, body).await
}

/// The page for `json` posted as the widget posts it, with the frame's
/// size as it is written in the body (`frame_size=…`).
async fn sized_page(app: &Router, json: &str, frame_size: &str) -> (String, String) {
    let mut body = form_urlencoded::Serializer::new(String::new())
        .append_pair("visualization_data", json)
        .finish();
    body.push_str("&frame_size=");
    body.push_str(frame_size);
    posted(app, body).await
}

async fn posted(app: &Router, body: String) -> (String, String) {
    let request = Request::builder()
        .method(Method::POST)
        .uri("/embed/card/")
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let csp = response.headers()[CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .to_string();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (String::from_utf8(bytes.to_vec()).unwrap(), csp)
}

/// Each layout's class and markup (from its `<div class="card ...">` to
/// the next one or the end of the body).
fn layouts(page: &str) -> Vec<(&str, &str)> {
    page.split("<div class=\"card ")
        .skip(1)
        .map(|rest| {
            let class = rest.split('"').next().unwrap();
            (class, rest)
        })
        .collect()
}

/// The `font-size` of every `<text>` element, from the stylesheet rule of
/// its class, and its content.
fn texts(page: &str, markup: &str) -> Vec<(String, String)> {
    let style = page
        .split("<style>")
        .nth(1)
        .and_then(|s| s.split("</style>").next())
        .unwrap();
    markup
        .split("<text ")
        .skip(1)
        .map(|el| {
            let class = el
                .strip_prefix("class=\"")
                .and_then(|v| v.split('"').next())
                .unwrap_or_else(|| panic!("a text without a class: {el}"));
            let rule = style
                .split(&format!(".{class}{{"))
                .nth(1)
                .and_then(|r| r.split('}').next())
                .unwrap_or_else(|| panic!("no rule for .{class} in {style}"));
            let size = rule
                .split(';')
                .find_map(|d| d.strip_prefix("font-size:"))
                .unwrap_or_else(|| panic!("no font-size in .{class}{{{rule}}}"));
            let start = el.find('>').unwrap() + 1;
            let end = el.find("</text>").unwrap();
            (size.to_string(), el[start..end].to_string())
        })
        .collect()
}

fn px(size: f64) -> String {
    format!("{}px", zdr_chart::paint::svg::num(size))
}

#[tokio::test]
async fn two_layouts_at_most_one_per_class_of_the_engines_type_scale() {
    let app = router();
    for (name, json) in examples() {
        let (page, _) = page(&app, &json).await;
        let found = layouts(&page);
        let classes: Vec<&str> = found.iter().map(|(class, _)| *class).collect();
        assert_eq!(classes, ["regular", "compact"], "{name}");
        // The compact layout shows exactly where the engine's smaller type
        // begins (`Sizes::for_width`: below 420 px).
        assert!(
            page.contains(
                "@media (max-width:419.98px){.card{display:none}.card.compact{display:block}}"
            ),
            "{name}"
        );
        assert_eq!(
            Sizes::for_width(419.98).title,
            Sizes::for_width(COMPACT).title
        );
        assert_eq!(
            Sizes::for_width(REGULAR).title,
            Sizes::for_width(1600.0).title
        );
    }
}

#[tokio::test]
async fn every_text_is_set_in_px_at_the_size_local_mode_uses_for_its_class() {
    let app = router();
    for (name, json) in examples() {
        let title = Chart::from_json(&json).unwrap().config.title;
        let (page, _) = page(&app, &json).await;
        for (class, markup) in layouts(&page) {
            let sizes = Sizes::for_width(if class == "compact" { COMPACT } else { REGULAR });
            let allowed = [sizes.title, sizes.subtitle, sizes.tick, sizes.small].map(px);
            let found = texts(&page, markup);
            assert!(!found.is_empty(), "{name} {class}");
            for (size, text) in &found {
                // A headline number is set as large as its card lets it be,
                // on purpose: it is the card.
                let headline = name == "top_level_metric"
                    && size.trim_end_matches("px").parse::<f64>().unwrap() > sizes.title;
                assert!(
                    headline || allowed.contains(size),
                    "{name} {class}: {text:?} at {size}, not one of {allowed:?}"
                );
            }
            // The title (its first line) at the class's title size.
            let first_line = &found[0];
            assert!(
                title.starts_with(first_line.1.trim_end_matches('\u{2026}')),
                "{name} {class}: {first_line:?} opens the card"
            );
            assert_eq!(first_line.0, px(sizes.title), "{name} {class}: the title");
        }
    }
}

#[tokio::test]
async fn no_inline_style_and_the_one_stylesheet_is_named_by_its_hash() {
    let app = router();
    for (name, json) in examples() {
        let (page, csp) = page(&app, &json).await;
        assert!(
            !page.contains(" style="),
            "{name}: an inline style attribute"
        );
        assert!(!page.to_ascii_lowercase().contains("<script"), "{name}");
        assert_eq!(page.matches("<style>").count(), 1, "{name}");
        let style = page
            .split("<style>")
            .nth(1)
            .and_then(|s| s.split("</style>").next())
            .unwrap();
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(style));
        assert!(
            csp.contains(&format!("style-src 'sha256-{hash}'")),
            "{name}: {csp}"
        );
        assert!(!csp.contains("unsafe-inline"), "{name}: {csp}");
        assert!(csp.contains("script-src 'none'"), "{name}: {csp}");
    }
}

#[tokio::test]
async fn the_plot_layer_sits_on_the_laid_out_plot_area() {
    let app = router();
    let json = examples()
        .into_iter()
        .find(|(name, _)| name == "bar")
        .unwrap()
        .1;
    let (page, _) = page(&app, &json).await;
    let chart = Chart::from_json(&json).unwrap();
    let theme = chart.theme(None);
    for (class, width, height) in [("regular", REGULAR, 360.0), ("compact", COMPACT, 300.0)] {
        let scene = chart.scene(width, height, &theme, false);
        let plot = scene.plot.unwrap();
        let num = zdr_chart::paint::svg::num;
        let rule = format!(
            ".{class} .p{{left:{}px;top:{}px;width:max(0px,calc(100% - {}px));height:max(0px,calc(100% - {}px))}}",
            num(plot.x),
            num(plot.y),
            num(width - plot.w),
            num(height - plot.h),
        );
        assert!(
            page.contains(&rule),
            "{class}: {rule} in the stylesheet of {page}"
        );
        let view_box = format!(
            "<svg class=\"p\" viewBox=\"{} {} {} {}\" preserveAspectRatio=\"none\">",
            num(plot.x),
            num(plot.y),
            num(plot.w),
            num(plot.h)
        );
        let (_, markup) = layouts(&page)
            .into_iter()
            .find(|(c, _)| *c == class)
            .unwrap();
        assert!(markup.contains(&view_box), "{class}: {view_box}");
    }
}

/// The bytes a page for `json` may take: two of the four drawings the host
/// used to make for every post, and the page's head (see below).
fn budget(name: &str, json: &str) -> usize {
    let chart = Chart::from_json(json).unwrap();
    let theme = chart.theme(None);
    let two = [(880, 540), (820, 400), (640, 580), (400, 360)]
        .iter()
        .map(|&(w, h)| chart.to_svg(w, h, &theme).len())
        .sum::<usize>()
        / 2;
    if matches!(name, "map" | "bubble_map") {
        two * 2
    } else {
        two + 1_500
    }
}

#[tokio::test]
async fn a_page_posted_with_its_frame_size_is_laid_out_at_it_within_the_same_budget() {
    let app = router();
    let mut over = Vec::new();
    for (name, json) in examples() {
        for (width, height) in [(360, 300), (600, 420), (1000, 500), (1600, 1200)] {
            let (page, csp) = sized_page(&app, &json, &format!("{width}x{height}")).await;
            let classes: Vec<&str> = layouts(&page).iter().map(|(class, _)| *class).collect();
            assert_eq!(classes, ["sized", "compact"], "{name} {width}x{height}");
            let (_, sized) = layouts(&page)[0];
            let sizes = Sizes::for_width(f64::from(width));
            assert_eq!(texts(&page, sized)[0].0, px(sizes.title), "{name}");
            let fallback = format!(
                "@media (max-width:{}.5px),(max-height:{}.5px)",
                width - 1,
                height - 1
            );
            assert!(page.contains(&fallback), "{name}: {fallback}");
            assert!(!page.to_ascii_lowercase().contains("<script"), "{name}");
            assert!(csp.contains("script-src 'none'"), "{name}: {csp}");
            // Two layouts' bytes per post, as for a page without a size,
            // in frames up to 1,000 px wide. A larger frame's layout holds
            // more of a long series (reduced to its pixel columns, which
            // are more): 5% more there.
            let bound = if width <= 1000 {
                budget(&name, &json)
            } else {
                budget(&name, &json) * 21 / 20
            };
            println!("{name} at {width}x{height}: {} B of {bound} B", page.len());
            if page.len() > bound {
                over.push(format!(
                    "{name} at {width}x{height}: {} B of {bound} B",
                    page.len()
                ));
            }
        }
    }
    assert!(over.is_empty(), "over the budget: {over:#?}");
}

#[tokio::test]
async fn a_frame_size_that_is_not_one_leaves_the_page_as_a_hand_written_form_gets_it() {
    let app = router();
    let json = &examples()[0].1;
    let (plain, _) = page(&app, json).await;
    let long = "9".repeat(10_000);
    for wrong in [
        "",
        "0x0",
        "319x240",
        "1601x600",
        "600x1201",
        "600X420",
        "600x420x1",
        "%36%30%30x420",
        "600x-420",
        "1e3x500",
        &long,
    ] {
        let (page, _) = sized_page(&app, json, wrong).await;
        assert_eq!(page, plain, "frame_size={wrong:.20}");
    }
}

#[tokio::test]
async fn a_page_costs_no_more_than_two_of_the_four_drawings_it_replaces() {
    let app = router();
    let (mut pages, mut before) = (0, 0);
    for (name, json) in examples() {
        let (page, _) = page(&app, &json).await;
        let chart = Chart::from_json(&json).unwrap();
        let theme = chart.theme(None);
        // The four frame shapes the host used to draw for every post.
        let four: Vec<usize> = [(880, 540), (820, 400), (640, 580), (400, 360)]
            .iter()
            .map(|&(w, h)| chart.to_svg(w, h, &theme).len())
            .collect();
        let two = four.iter().sum::<usize>() / 2;
        println!("{name}: {} B, four drawings {} B", page.len(), two * 2);
        // The page's own head and stylesheet come on top. A map of places
        // cannot share its base map between the two layouts (the fluid
        // writer shares a plot only when no text is pinned to it, and its
        // places' labels are), so it writes the map twice, in tenths: it
        // is held to less than the four drawings, not to two.
        let bound = if matches!(name.as_str(), "map" | "bubble_map") {
            two * 2
        } else {
            two + 1_500
        };
        assert!(
            page.len() <= bound,
            "{name}: {} B for two drawings of {two} B",
            page.len()
        );
        pages += page.len();
        before += two * 2;
    }
    println!("all examples: {pages} B, four drawings each {before} B");
}
