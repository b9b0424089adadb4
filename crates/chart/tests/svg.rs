// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Every documented example drawn to SVG, in both themes, and checked for
//! what a reader would look for: the title, the marks, the axis labels and
//! the legend entries.

use zdr_chart::draw::theme::Theme;
use zdr_chart::model::CardKind;
use zdr_chart::Chart;

mod common;
use common::example;

fn svg(chart: &Chart, dark: bool) -> String {
    let theme = chart.theme(Some(dark));
    chart.to_svg(800, 500, &theme).unwrap()
}

fn hex(c: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// Elements `<tag ...>` whose fill is `color`.
fn count_filled(svg: &str, tag: &str, color: &str) -> usize {
    svg.split('<')
        .filter(|el| el.starts_with(tag) && el.contains(&format!("fill=\"{color}\"")))
        .count()
}

/// The text content of every `<text>` element.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|el| {
            let start = el.find('>')? + 1;
            let end = el.find("</text>")?;
            Some(
                el.get(start..end)?
                    .trim()
                    .replace("&amp;", "&")
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&#39;", "'"),
            )
        })
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
            let stroke = format!("stroke=\"{}\"", hex(theme.color(i)));
            let lines = svg
                .split('<')
                .filter(|el| el.starts_with("polyline") && el.contains(&stroke))
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
                count_filled(svg, "polygon", &hex(theme.color(i))),
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
        let rects = svg.split('<').filter(|el| el.starts_with("rect")).count();
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
        let polygons = svg
            .split('<')
            .filter(|el| el.starts_with("polygon"))
            .count();
        let neutral = count_filled(svg, "polygon", &hex(theme.faint));
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
    assert!(has_text(&out, "<script>alert(1)</script> & \"q\""));
}

#[test]
fn every_kind_draws_at_tiny_and_huge_sizes() {
    for kind in CardKind::ALL {
        let chart = example(kind.as_str());
        for (w, h) in [(16, 16), (120, 80), (300, 2000), (4000, 3000)] {
            let theme = chart.theme(None);
            assert!(
                chart.to_svg(w, h, &theme).is_ok(),
                "{} at {w}x{h}",
                kind.as_str()
            );
        }
    }
}
