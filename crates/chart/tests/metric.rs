// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! top_level_metric: the headline number whole and inside its card at
//! every size, its comparison told by shape and sign as well as colour,
//! the sparkline only for a series, and hostile values drawn finite.

use zdr_chart::layout::text::width;
use zdr_chart::layout::theme::contrast;
use zdr_chart::scene::{Align, Baseline, Color, Item, Rect, Role, Scene};
use zdr_chart::{Chart, HitShape};

mod common;
use common::example;

/// The sizes a headline number must read at.
const SIZES: [(f64, f64); 5] = [
    (160.0, 100.0),
    (360.0, 200.0),
    (800.0, 400.0),
    (1600.0, 400.0),
    (1600.0, 900.0),
];

const MINUS: char = '\u{2212}';

/// A card of `data` (a JSON array of points) with `config` (extra
/// `viz_config` members, each with a trailing comma).
fn card(config: &str, data: &str) -> Chart {
    let json = format!(
        "{{\"viz_config\":{{{config}\"title\":\"Revenue\",\"viz_component_type\":\"top_level_metric\"}},\"data\":{data}}}"
    );
    Chart::from_json(&json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// Monthly points of `values` (null for a gap), from January 2025.
fn monthly(values: &[Option<f64>]) -> String {
    let points: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let y = v.map_or("null".to_string(), |v| format!("{v:e}"));
            format!(
                "{{\"x\":\"{}-{:02}\",\"y\":{y}}}",
                2025 + i / 12,
                i % 12 + 1
            )
        })
        .collect();
    format!("[{}]", points.join(","))
}

fn scene(chart: &Chart, (w, h): (f64, f64), dark: bool) -> Scene {
    chart.scene(w, h, &chart.theme(Some(dark)), true)
}

/// The box a text covers: its measured width, and from its ascent to its
/// descent (the painters put the baseline 0.776 em under a top anchor).
fn text_box(item: &Item) -> Option<Rect> {
    let Item::Text {
        text,
        at,
        font,
        align,
        baseline,
        vertical: false,
    } = item
    else {
        return None;
    };
    let w = width(text, font.size, font.weight);
    let x = match align {
        Align::Start => at.0,
        Align::Middle => at.0 - w / 2.0,
        Align::End => at.0 - w,
    };
    let shift = match baseline {
        Baseline::Top => 0.776,
        Baseline::Middle => 0.276,
        Baseline::Bottom => -0.224,
    };
    let base = at.1 + shift * font.size;
    Some(Rect::new(x, base - 0.776 * font.size, w, font.size))
}

fn texts(scene: &Scene) -> Vec<(&str, Rect, f64, Color)> {
    scene
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Text { text, font, .. } => {
                Some((text.as_str(), text_box(item)?, font.size, font.color))
            }
            _ => None,
        })
        .collect()
}

fn within(inner: &Rect, outer: &Rect) -> bool {
    let e = 1e-6;
    inner.x >= outer.x - e
        && inner.y >= outer.y - e
        && inner.right() <= outer.right() + e
        && inner.bottom() <= outer.bottom() + e
}

/// Overlap of two text boxes beyond a pixel; figures need no room under
/// their baseline, so a box may reach into the descent of the one above.
fn overlap(a: &Rect, b: &Rect) -> bool {
    let e = 1.0;
    let (a_bottom, b_bottom) = (a.y + a.h * 0.93, b.y + b.h * 0.93);
    a.x < b.right() - e && b.x < a.right() - e && a.y < b_bottom - e && b.y < a_bottom - e
}

/// The largest text: the headline number.
fn number(scene: &Scene) -> (&str, Rect, f64) {
    let (text, rect, size, _) = texts(scene)
        .into_iter()
        .max_by(|a, b| a.2.total_cmp(&b.2))
        .expect("a text");
    (text, rect, size)
}

/// The comparison's marks: the filled triangles (chrome polygons).
fn arrows(scene: &Scene) -> Vec<(Vec<(f64, f64)>, Color)> {
    scene
        .placed()
        .filter_map(|(role, item)| match item {
            Item::Polygon { points, fill } if role == Role::Chrome => Some((points.clone(), *fill)),
            _ => None,
        })
        .collect()
}

/// +1 for a triangle pointing up (one vertex above a level base), -1 down.
fn pointing(points: &[(f64, f64)]) -> i8 {
    assert_eq!(points.len(), 3, "{points:?}");
    let top = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let at_top = points.iter().filter(|p| (p.1 - top).abs() < 1e-9).count();
    if at_top == 1 {
        1
    } else {
        -1
    }
}

fn marks(scene: &Scene) -> Vec<&Item> {
    scene
        .placed()
        .filter(|(role, _)| *role == Role::Mark)
        .map(|(_, item)| item)
        .collect()
}

/// Everything the texts of `scene` must keep: all inside the frame (and
/// its margin), none over another.
fn assert_texts_fit(scene: &Scene, what: &str) {
    let frame = Rect::new(0.0, 0.0, scene.width, scene.height);
    let margin = if scene.width < 420.0 { 10.0 } else { 16.0 };
    let inner = frame.inset(margin, margin, margin, margin);
    let all = texts(scene);
    for (text, rect, ..) in &all {
        assert!(
            within(rect, &inner),
            "{what}: {text:?} at {rect:?} outside {inner:?}"
        );
    }
    for (i, a) in all.iter().enumerate() {
        for b in all.iter().skip(i + 1) {
            assert!(!overlap(&a.1, &b.1), "{what}: {a:?} over {b:?}");
        }
    }
}

fn assert_finite(scene: &Scene, what: &str) {
    let ok = |v: f64| v.is_finite();
    let rect = |r: &Rect| ok(r.x) && ok(r.y) && ok(r.w) && ok(r.h);
    for item in &scene.items {
        let fine = match item {
            Item::Rect { rect: r, .. } | Item::Outline { rect: r, .. } => rect(r),
            Item::Path { points, .. } | Item::Polygon { points, .. } => {
                points.iter().all(|p| ok(p.0) && ok(p.1))
            }
            Item::Circle { center, radius, .. } => ok(center.0) && ok(center.1) && ok(*radius),
            Item::Sector { center, outer, .. } => ok(center.0) && ok(center.1) && ok(*outer),
            Item::Text { at, font, .. } => ok(at.0) && ok(at.1) && ok(font.size),
        };
        assert!(fine, "{what}: {item:?}");
    }
    for hit in scene.hits.iter() {
        let fine = match &hit.shape {
            HitShape::Point { x, y } => ok(*x) && ok(*y),
            HitShape::Rect(r) => rect(r),
            _ => false,
        };
        assert!(fine, "{what}: {hit:?}");
        assert!(!hit.value.is_empty(), "{what}: {hit:?}");
    }
}

#[test]
fn the_number_is_whole_and_inside_the_card_at_every_size() {
    // The documented example (a two-line title at 160 px, and a source).
    let documented = example("top_level_metric");
    // A short title and no source: a 160 × 100 card still has a body.
    let short = card(
        "\"units\":\"M USD\",",
        &monthly(&[Some(1.36), Some(1.42), Some(1.48)]),
    );
    for (name, chart) in [("example", &documented), ("short", &short)] {
        for size in SIZES {
            for dark in [false, true] {
                let what = format!("{name} {size:?} dark={dark}");
                let scene = scene(chart, size, dark);
                if name == "example" && size.0 < 200.0 {
                    // The frame keeps its title and source and leaves no
                    // body: nothing else is drawn (layout::lay_out).
                    continue;
                }
                let (text, rect, font) = number(&scene);
                let all: Vec<&str> = texts(&scene).iter().map(|t| t.0).collect();
                // Whole, or the number with its units set apart.
                assert!(
                    text == "1.48 M USD" || text == "1.48" && all.contains(&"M USD"),
                    "{what}: {text:?} in {all:?}"
                );
                assert!(font >= 20.0 || size.0 < 200.0, "{what}: {font}");
                assert!(font <= 96.0, "{what}: {font}");
                assert!(rect.w > 0.0, "{what}");
                assert_texts_fit(&scene, &what);
                assert_finite(&scene, &what);
            }
        }
    }
}

#[test]
fn the_number_grows_with_the_card() {
    let chart = example("top_level_metric");
    let sizes: Vec<f64> = [(360.0, 200.0), (800.0, 400.0), (1600.0, 900.0)]
        .iter()
        .map(|&size| number(&scene(&chart, size, false)).2)
        .collect();
    assert!(
        sizes.windows(2).all(|w| w[0] < w[1] || w[1] >= 96.0),
        "{sizes:?}"
    );
}

#[test]
fn long_units_keep_the_number_large() {
    let chart = card(
        "\"units\":\"requests per second, all regions\",",
        &monthly(&[Some(13_600.0), Some(14_200.0), Some(12_480.0)]),
    );
    for size in SIZES {
        let scene = scene(&chart, size, false);
        let what = format!("{size:?}");
        assert_texts_fit(&scene, &what);
        let (text, _, font) = number(&scene);
        assert!(text.starts_with("12.5k"), "{what}: {text}");
        if size.0 >= 360.0 {
            assert!(font >= 32.0, "{what}: {font}");
        }
        // The units are said somewhere, whole or cut.
        let all = texts(&scene);
        assert!(
            all.iter().any(|t| t.0.contains("requests")),
            "{what}: {all:?}"
        );
    }
}

#[test]
fn a_rise_points_up_with_a_plus_in_green() {
    let chart = example("top_level_metric");
    for dark in [false, true] {
        let scene = scene(&chart, (800.0, 400.0), dark);
        let arrows = arrows(&scene);
        assert_eq!(arrows.len(), 1, "dark={dark}");
        let (points, fill) = &arrows[0];
        assert_eq!(pointing(points), 1);
        // Green: more green than red, readable on the background.
        assert!(fill.1 > fill.0, "{fill:?}");
        assert!(contrast(*fill, scene.background) >= 4.5, "{fill:?}");
        let all = texts(&scene);
        let percent = all.iter().find(|t| t.0.ends_with('%')).unwrap();
        assert_eq!(percent.0, "+4.2%");
        assert_eq!(percent.3, *fill, "the percent in the arrow's colour");
        assert!(all.iter().any(|t| t.0 == "+0.06 M USD"), "{all:?}");
        assert!(all.iter().any(|t| t.0 == "vs Nov 2025"), "{all:?}");
        assert!(all.iter().any(|t| t.0 == "Dec 2025"), "{all:?}");
    }
}

#[test]
fn a_fall_points_down_with_a_minus_in_red() {
    let chart = card(
        "\"units\":\"$\",",
        &monthly(&[Some(5200.0), Some(4800.0), Some(3900.0)]),
    );
    for dark in [false, true] {
        let scene = scene(&chart, (360.0, 200.0), dark);
        let arrows = arrows(&scene);
        assert_eq!(arrows.len(), 1, "dark={dark}");
        let (points, fill) = &arrows[0];
        assert_eq!(pointing(points), -1);
        assert!(fill.0 > fill.1, "{fill:?}");
        assert!(contrast(*fill, scene.background) >= 4.5, "{fill:?}");
        let all = texts(&scene);
        let percent = all.iter().find(|t| t.0.ends_with('%')).unwrap();
        assert_eq!(percent.0, format!("{MINUS}19%"));
        assert_eq!(percent.3, *fill);
        // Up and down differ in more than hue: the shape and the sign.
        let up = scene_of_example_arrow(dark);
        assert_ne!(pointing(&up.0), pointing(points));
        assert_ne!(up.1, *fill);
    }
}

fn scene_of_example_arrow(dark: bool) -> (Vec<(f64, f64)>, Color) {
    let scene = scene(&example("top_level_metric"), (360.0, 200.0), dark);
    arrows(&scene).remove(0)
}

#[test]
fn no_change_is_neutral_and_says_so() {
    let chart = card("", &monthly(&[Some(3.0), Some(3.0), Some(3.0)]));
    for dark in [false, true] {
        let scene = scene(&chart, (800.0, 400.0), dark);
        let theme = chart.theme(Some(dark));
        assert!(arrows(&scene).is_empty());
        let all = texts(&scene);
        let said = all.iter().find(|t| t.0 == "No change").unwrap();
        assert_eq!(said.3, theme.muted);
        assert!(!all
            .iter()
            .any(|t| t.0.starts_with('+') || t.0.starts_with(MINUS)));
    }
}

#[test]
fn a_lone_value_has_no_comparison_and_no_sparkline() {
    let chart = card("", "[{\"x\":\"2025-12-31\",\"y\":48210}]");
    for size in SIZES {
        let scene = scene(&chart, size, false);
        let what = format!("{size:?}");
        assert!(arrows(&scene).is_empty(), "{what}");
        assert!(marks(&scene).is_empty(), "{what}");
        let all = texts(&scene);
        assert!(
            !all.iter().any(|t| t.0 == "No change"
                || t.0.starts_with("vs ")
                || t.0.starts_with("from ")
                || t.0.starts_with('+')
                || t.0.starts_with(MINUS)),
            "{what}: {all:?}"
        );
        assert_eq!(number(&scene).0, "48.2k", "{what}");
        assert_texts_fit(&scene, &what);
        // The hit map reaches the number itself.
        assert_eq!(scene.hits.len(), 1, "{what}");
        let hit = scene.hits.iter().next().unwrap();
        assert_eq!(
            (hit.label.as_str(), hit.value.as_str()),
            ("Dec 31, 2025", "48,210")
        );
    }
}

#[test]
fn a_value_with_its_own_previous_is_compared_with_it() {
    let chart = card(
        "\"units\":\"%\",",
        "[{\"x\":\"2025-06\",\"y\":3.42,\"previous\":3.1}]",
    );
    let scene = scene(&chart, (800.0, 400.0), false);
    assert_eq!(pointing(&arrows(&scene)[0].0), 1);
    let all = texts(&scene);
    assert!(all.iter().any(|t| t.0 == "from 3.1%"), "{all:?}");
    assert!(marks(&scene).is_empty());
}

#[test]
fn a_sparkline_only_for_three_values_or_more() {
    // The values, and the lines drawn (none: no sparkline).
    let cases: [(&[Option<f64>], usize); 6] = [
        (&[Some(1.0)], 0),
        (&[Some(1.0), Some(2.0)], 0),
        (&[Some(1.0), None, Some(2.0)], 0),
        (&[Some(1.0), Some(3.0), Some(2.0)], 1),
        // A lone point between gaps is a dot.
        (&[Some(1.0), None, Some(3.0), Some(2.0)], 1),
        (&[Some(1.0), Some(4.0), None, Some(3.0), Some(2.0)], 2),
    ];
    for (values, runs) in cases {
        let drawn = runs > 0;
        let chart = card("", &monthly(values));
        let scene = scene(&chart, (800.0, 400.0), false);
        let marks = marks(&scene);
        assert_eq!(!marks.is_empty(), drawn, "{values:?}");
        if drawn {
            // The plot is the sparkline, under the number, inside the card.
            let plot = scene.plot.unwrap();
            let (_, number, _) = number(&scene);
            assert!(plot.y >= number.bottom(), "{plot:?} under {number:?}");
            assert!(within(&plot, &Rect::new(0.0, 0.0, 800.0, 400.0)));
            // One line per run between gaps.
            let lines = marks
                .iter()
                .filter(|m| matches!(m, Item::Path { .. }))
                .count();
            assert_eq!(lines, runs, "{values:?}");
        }
    }
}

#[test]
fn the_last_point_is_found_at_its_dot() {
    let chart = example("top_level_metric");
    for size in [(360.0, 200.0), (800.0, 400.0), (1600.0, 400.0)] {
        let scene = scene(&chart, size, false);
        // The last dot: the coloured circle drawn last.
        let dot = scene
            .items
            .iter()
            .rev()
            .find_map(|item| match item {
                Item::Circle {
                    center,
                    fill: Some(fill),
                    ..
                } if *fill != scene.background => Some(*center),
                _ => None,
            })
            .unwrap();
        let plot = scene.plot.unwrap();
        assert!(
            (dot.0 - plot.right()).abs() < 8.0,
            "{size:?}: {dot:?} {plot:?}"
        );
        let hit = scene.hits.at(dot.0 + 2.0, dot.1 - 2.0, 8.0).unwrap();
        assert_eq!(
            (hit.label.as_str(), hit.value.as_str()),
            ("Dec 2025", "1.48 M USD"),
            "{size:?}"
        );
        // Every point of the series has its own.
        let points = scene
            .hits
            .iter()
            .filter(|h| matches!(h.shape, HitShape::Point { .. }))
            .count();
        assert_eq!(points, 12, "{size:?}");
        // And the number itself is reached.
        let (_, rect, _) = number(&scene);
        let (cx, cy) = rect.center();
        let hit = scene.hits.at(cx, cy, 0.0).unwrap();
        assert_eq!(
            (hit.label.as_str(), hit.value.as_str()),
            ("Dec 2025", "1.48 M USD")
        );
        // Nothing else: the number and the points.
        assert_eq!(scene.hits.len(), 13, "{size:?}");
    }
}

#[test]
fn hostile_values_are_drawn_finite() {
    let many: Vec<Option<f64>> = (0..10_000)
        .map(|i| Some(((i as f64) * 0.37).sin() * 1e6 - (i % 97) as f64))
        .collect();
    let cases: Vec<(&str, String)> = vec![
        ("huge", monthly(&[Some(1e300), Some(-1e300), Some(1e300)])),
        ("huge down", monthly(&[Some(-1e300), Some(1e300), Some(-1e300)])),
        ("extremes", monthly(&[Some(f64::MAX), Some(-f64::MAX), Some(f64::MAX)])),
        ("tiny", monthly(&[Some(1e-300), Some(-1e-300), Some(5e-324)])),
        ("from zero", monthly(&[Some(0.0), Some(0.0), Some(12.0)])),
        ("flat", monthly(&[Some(7.0); 40])),
        ("negative", monthly(&[Some(-3.0), Some(-8.0), Some(-1.5), Some(-2.0)])),
        ("gaps", monthly(&[Some(1.0), None, None, Some(2.0), None, Some(3.0), Some(1.0)])),
        ("many", monthly(&many)),
        (
            "same date",
            "[{\"x\":\"2025-01-01\",\"y\":1},{\"x\":\"2025-01-01\",\"y\":2},{\"x\":\"2025-01-01\",\"y\":3}]"
                .to_string(),
        ),
        (
            "labels",
            "[{\"x\":\"Q1\",\"y\":1},{\"y\":2},{\"x\":3,\"y\":4}]".to_string(),
        ),
        ("no x", "[{\"y\":1},{\"y\":2},{\"value\":3}]".to_string()),
    ];
    for (name, data) in &cases {
        let chart = card("\"units\":\"EUR\",", data);
        for size in SIZES {
            for dark in [false, true] {
                let what = format!("{name} {size:?} dark={dark}");
                let scene = scene(&chart, size, dark);
                assert_finite(&scene, &what);
                assert_texts_fit(&scene, &what);
                if let Some(plot) = scene.plot {
                    assert!(
                        within(&plot, &Rect::new(0.0, 0.0, size.0, size.1)),
                        "{what}: {plot:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn previous_zero_has_no_percent() {
    let chart = card("", &monthly(&[Some(4.0), Some(0.0), Some(12.0)]));
    let scene = scene(&chart, (800.0, 400.0), false);
    let all = texts(&scene);
    assert!(!all.iter().any(|t| t.0.ends_with('%')), "{all:?}");
    assert!(all.iter().any(|t| t.0 == "+12"), "{all:?}");
    assert_eq!(pointing(&arrows(&scene)[0].0), 1);
}

#[test]
fn a_flat_series_is_a_level_line() {
    let chart = card("", &monthly(&[Some(7.0); 12]));
    let scene = scene(&chart, (800.0, 400.0), false);
    let line = marks(&scene)
        .into_iter()
        .find_map(|m| match m {
            Item::Path { points, .. } => Some(points.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(line.len(), 12);
    assert!(line.windows(2).all(|w| w[0].1 == w[1].1 && w[0].0 < w[1].0));
}

#[test]
fn a_long_series_is_reduced_to_the_pixels() {
    let values: Vec<Option<f64>> = (0..10_000).map(|i| Some((i as f64 * 0.1).sin())).collect();
    let chart = card("", &monthly(&values));
    for scale_size in [(360.0, 200.0), (1600.0, 400.0)] {
        let scene = scene(&chart, scale_size, false);
        let plot = scene.plot.unwrap();
        let points: usize = marks(&scene)
            .iter()
            .map(|m| match m {
                Item::Path { points, .. } => points.len(),
                _ => 0,
            })
            .sum();
        assert!(points > 0);
        assert!(
            points as f64 <= 2.0 * plot.w + 8.0,
            "{points} points over {} px",
            plot.w
        );
        assert!(scene.hits.len() as f64 <= 2.0 * plot.w + 8.0);
    }
}

#[test]
fn a_german_card_reads_in_german_and_fits() {
    let chart = card(
        "\"units\":\"\u{20ac}\",\"locale\":\"de-DE\",",
        &monthly(&[Some(1_360_000.0), Some(1_420_000.0), Some(1_480_000.0)]),
    );
    for size in SIZES {
        for dark in [false, true] {
            let what = format!("{size:?} dark={dark}");
            let scene = scene(&chart, size, dark);
            assert_texts_fit(&scene, &what);
            let (text, ..) = number(&scene);
            assert!(text.starts_with("1,48"), "{what}: {text}");
            if size.0 >= 360.0 {
                let all = texts(&scene);
                assert!(all.iter().any(|t| t.0 == "+4,2\u{a0}%"), "{what}: {all:?}");
            }
        }
    }
}

#[test]
fn every_colour_reads_on_a_dark_card() {
    let chart = example("top_level_metric");
    for dark in [false, true] {
        let scene = scene(&chart, (800.0, 400.0), dark);
        let theme = chart.theme(Some(dark));
        assert_eq!(scene.background, theme.background);
        for (text, _, _, color) in texts(&scene) {
            assert!(
                contrast(color, scene.background) >= 4.5,
                "dark={dark}: {text:?} in {color:?}"
            );
        }
        // The line, its dot and the arrow stand out; the area under the
        // line is a tint, lighter than the line yet not the background.
        for (role, item) in scene.placed() {
            let (color, least) = match item {
                Item::Path { stroke, .. } => (stroke.color, 3.0),
                Item::Polygon { fill, .. } if role == Role::Chrome => (*fill, 4.5),
                Item::Polygon { fill, .. } => (*fill, 1.05),
                Item::Circle {
                    fill: Some(fill), ..
                } if *fill != scene.background => (*fill, 3.0),
                _ => continue,
            };
            assert!(
                contrast(color, scene.background) >= least,
                "dark={dark}: {item:?}"
            );
        }
    }
}

#[test]
fn a_wide_short_card_puts_the_sparkline_beside_the_texts() {
    let chart = example("top_level_metric");
    let scene = scene(&chart, (1600.0, 150.0), false);
    let plot = scene.plot.unwrap();
    assert!(!marks(&scene).is_empty());
    let (_, number, _) = number(&scene);
    assert!(plot.x >= number.right(), "{plot:?} right of {number:?}");
    assert_texts_fit(&scene, "1600x150");
}
