// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Every documented example drawn to SVG, in both themes, and checked for
//! what a reader would look for: the title, the marks, the axis labels and
//! the legend entries.

use zdr_chart::layout::theme::Theme;
use zdr_chart::model::CardKind;
use zdr_chart::Chart;

mod common;
use common::example;

fn svg(chart: &Chart, dark: bool) -> String {
    let theme = chart.theme(Some(dark));
    chart.to_svg(800, 500, &theme)
}

fn hex(c: zdr_chart::scene::Color) -> String {
    c.hex()
}

/// One element of the document: its tag, fill, stroke and text.
struct Element {
    tag: String,
    fill: Option<String>,
    stroke: Option<String>,
    text: String,
}

/// Every element of `svg`, parsed as XML: a document that is not
/// well-formed fails here.
fn elements(svg: &str) -> Vec<Element> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    doc.descendants()
        .filter(|n| n.is_element())
        .map(|n| Element {
            tag: n.tag_name().name().to_string(),
            fill: n.attribute("fill").map(str::to_string),
            stroke: n.attribute("stroke").map(str::to_string),
            text: n.text().unwrap_or("").to_string(),
        })
        .collect()
}

/// Elements `<tag ...>` whose fill is `color`.
fn count_filled(svg: &str, tag: &str, color: &str) -> usize {
    elements(svg)
        .iter()
        .filter(|e| e.tag == tag && e.fill.as_deref() == Some(color))
        .count()
}

/// The text content of every `<text>` element, unescaped by the parser.
fn texts(svg: &str) -> Vec<String> {
    elements(svg)
        .into_iter()
        .filter(|e| e.tag == "text")
        .map(|e| e.text.trim().to_string())
        .collect()
}

fn has_text(svg: &str, wanted: &str) -> bool {
    texts(svg).iter().any(|t| t == wanted)
}

fn both_themes(name: &str, check: impl Fn(&Chart, &str, &Theme)) {
    let chart = example(name);
    assert_eq!(chart.kind.as_str(), name, "the example's own type");
    for dark in [false, true] {
        let theme = chart.theme(Some(dark));
        let out = svg(&chart, dark);
        assert!(out.starts_with("<svg"), "{name}: not an SVG");
        assert_document(&out, 800, 500);
        assert!(
            out.contains(&format!("fill=\"{}\"", hex(theme.background))),
            "{name}: background"
        );
        assert!(
            has_text(&out, &chart.config.title),
            "{name}: title {:?}",
            texts(&out)
        );
        check(&chart, &out, &theme);
    }
}

/// A standalone document of the given size whose user units are CSS
/// pixels, with the font family set once, on the root.
fn assert_document(svg: &str, width: u32, height: u32) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let (w, h) = (width.to_string(), height.to_string());
    assert_eq!(root.attribute("width"), Some(w.as_str()));
    assert_eq!(root.attribute("height"), Some(h.as_str()));
    assert_eq!(
        root.attribute("viewBox"),
        Some(format!("0 0 {w} {h}").as_str())
    );
    assert!(root
        .attribute("font-family")
        .is_some_and(|f| f.contains("Arial")));
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("font-family").is_some())
            .count(),
        1,
        "font-family only on the root"
    );
}

#[test]
fn bar() {
    both_themes("bar", |chart, svg, theme| {
        // Five regions, one bar each, no legend for one series.
        assert_eq!(count_filled(svg, "rect", &hex(theme.color(0))), 5);
        for region in ["North", "South", "East", "West", "Central"] {
            assert!(has_text(svg, region), "{region}: {:?}", texts(svg));
        }
        assert!(has_text(svg, "Units sold"));
        assert!(has_text(svg, "Region"));
        assert!(has_text(svg, "Source: Internal sales ledger, 2025"));
        assert_eq!(chart.kind, CardKind::Bar);
    });
}

#[test]
fn grouped_bar() {
    both_themes("grouped_bar", |_, svg, theme| {
        // Three series of four quarters, plus one legend swatch each.
        for i in 0..3 {
            assert_eq!(
                count_filled(svg, "rect", &hex(theme.color(i))),
                4 + 1,
                "series {i}"
            );
        }
        for name in ["Hardware", "Software", "Services"] {
            assert!(has_text(svg, name), "legend {name}");
        }
    });
}

#[test]
fn stacked_bar() {
    both_themes("stacked_bar", |_, svg, theme| {
        for i in 0..4 {
            assert_eq!(
                count_filled(svg, "rect", &hex(theme.color(i))),
                5 + 1,
                "series {i}"
            );
        }
        for name in ["Coal", "Gas", "Wind", "Solar"] {
            assert!(has_text(svg, name), "legend {name}");
        }
        assert!(has_text(svg, "Terawatt-hours per year"), "subtitle");
    });
}

#[test]
fn timeseries() {
    both_themes("timeseries", |_, svg, theme| {
        // One line for Web; Mobile has a null, so two pieces with a gap.
        // (The legend marks are rectangles.)
        for (i, pieces) in [(0, 1), (1, 2)] {
            let stroke = hex(theme.color(i));
            let lines = elements(svg)
                .iter()
                .filter(|e| e.tag == "path" && e.stroke.as_deref() == Some(stroke.as_str()))
                .count();
            assert_eq!(lines, pieces, "series {i}");
        }
        assert!(has_text(svg, "Web") && has_text(svg, "Mobile"));
        assert!(
            texts(svg).iter().any(|t| t.contains("2025")),
            "a year on the date axis"
        );
    });
}

#[test]
fn pie() {
    both_themes("pie", |_, svg, theme| {
        for i in 0..5 {
            assert_eq!(
                count_filled(svg, "path", &hex(theme.color(i))),
                1,
                "slice {i}"
            );
        }
        assert!(texts(svg).iter().filter(|t| t.ends_with('%')).count() >= 5);
    });
}

#[test]
fn scatter() {
    both_themes("scatter", |_, svg, theme| {
        for i in 0..2 {
            // 25 points and a legend dot per group.
            assert_eq!(
                count_filled(svg, "circle", &hex(theme.color(i))),
                25 + 1,
                "group {i}"
            );
        }
        assert!(has_text(svg, "Height (cm)") && has_text(svg, "Weight (kg)"));
    });
}

#[test]
fn boxplot() {
    both_themes("boxplot", |chart, svg, _| {
        let zdr_chart::model::Card::Boxplot(boxes) = &chart.card else {
            panic!("not a boxplot");
        };
        assert_eq!(boxes.len(), 3);
        for b in boxes {
            assert!(has_text(svg, &b.label), "{}", b.label);
        }
        assert!(has_text(svg, "Days"));
    });
}

#[test]
fn heatmap() {
    both_themes("heatmap", |_, svg, _| {
        for day in ["Mon", "Sun"] {
            assert!(has_text(svg, day), "{day}: {:?}", texts(svg));
        }
        // 84 cells and the 44 steps of the colour legend.
        let rects = elements(svg).iter().filter(|e| e.tag == "rect").count();
        assert!(rects >= 84 + 44, "{rects}");
    });
}

#[test]
fn timeline() {
    both_themes("timeline", |chart, svg, theme| {
        let zdr_chart::model::Card::Timeline { items, .. } = &chart.card else {
            panic!("not a timeline");
        };
        assert_eq!(count_filled(svg, "rect", &hex(theme.color(0))), items.len());
        for item in items {
            assert!(has_text(svg, &item.label), "{}", item.label);
        }
    });
}

#[test]
fn waterfall() {
    both_themes("waterfall", |_, svg, theme| {
        let up = count_filled(svg, "rect", &hex(theme.increase));
        let down = count_filled(svg, "rect", &hex(theme.decrease));
        let total = count_filled(svg, "rect", &hex(theme.total));
        // Six steps and the total, plus three legend swatches.
        assert_eq!(up + down + total, 6 + 1 + 3);
        assert_eq!(total, 2);
        assert!(has_text(svg, "Total"));
    });
}

#[test]
fn histogram() {
    both_themes("histogram", |_, svg, theme| {
        let bars = count_filled(svg, "rect", &hex(theme.color(0)));
        assert!((5..=40).contains(&bars), "{bars} bins");
        assert!(has_text(svg, "Count") && has_text(svg, "Order value"));
    });
}

#[test]
fn table() {
    both_themes("table", |_, svg, _| {
        for column in ["Account", "Country", "Revenue", "Growth"] {
            assert!(has_text(svg, column), "{column}");
        }
        // The title, a header and five rows of four cells, one of them null.
        assert_eq!(texts(svg).len(), 1 + 4 + 5 * 4 - 1);
        assert!(has_text(svg, "1,250,000") && has_text(svg, "\u{2212}0.03"));
    });
}

#[cfg(feature = "geo")]
#[test]
fn choropleth() {
    both_themes("choropleth", |_, svg, theme| {
        // Regions with data get a ramp colour, the rest the neutral fill.
        let polygons = elements(svg)
            .iter()
            .filter(|e| e.tag == "path" && e.fill.as_deref() != Some("none"))
            .count();
        let neutral = count_filled(svg, "path", &hex(theme.faint));
        assert!(polygons > 150, "{polygons}");
        assert!(polygons - neutral >= 25, "{} filled", polygons - neutral);
        assert!(!texts(svg).iter().any(|t| t.starts_with("Not on the map")));
        assert!(has_text(svg, "Source: Illustrative figures"));
    });
}

#[test]
fn empty_data_says_so() {
    let chart = Chart::from_json(
        r#"{"viz_config":{"title":"Nothing yet","viz_component_type":"bar"},"data":[]}"#,
    );
    let chart = chart.unwrap();
    let out = svg(&chart, false);
    assert!(has_text(&out, "Nothing yet"));
    assert!(has_text(&out, "No data to show"));
}

#[test]
fn hostile_text_is_escaped() {
    let json = r#"{"viz_config":{"title":"<script>alert(1)</script> & \"q\""},"data":[{"x":"<b>","y":1}]}"#;
    let chart = Chart::from_json(json).unwrap();
    let out = svg(&chart, false);
    assert!(!out.contains("<script>"));
    assert!(!out.contains("<b>"));
    // Characters XML forbids cannot break the document either.
    let json =
        "{\"viz_config\":{\"title\":\"a\\u0001b\\uffff'\"},\"data\":[{\"x\":\"\\u0000\",\"y\":1}]}";
    let forbidden = svg(&Chart::from_json(json).unwrap(), false);
    assert!(
        has_text(&forbidden, "a\u{FFFD}b\u{FFFD}'"),
        "{:?}",
        texts(&forbidden)
    );
    assert!(
        has_text(&out, "<script>alert(1)</script> & \"q\""),
        "{:?}",
        texts(&out)
    );
}

#[test]
fn every_kind_draws_at_tiny_and_huge_sizes() {
    for kind in CardKind::ALL {
        let chart = example(kind.as_str());
        for (w, h) in [(16, 16), (120, 80), (300, 2000), (4000, 3000)] {
            let theme = chart.theme(None);
            let svg = chart.to_svg(w, h, &theme);
            assert!(
                roxmltree::Document::parse(&svg).is_ok(),
                "{} at {w}x{h}",
                kind.as_str()
            );
        }
    }
}
