// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The scene a card is laid out into, asserted on its items rather than on
//! any painter's text; and the plotters replay of it.

use std::f64::consts::TAU;

use plotters::prelude::{IntoDrawingArea, SVGBackend};
use zdr_chart::layout::theme::Theme;
use zdr_chart::scene::{Color, Font, Item, Rect, Scene, Weight};
use zdr_chart::Chart;

mod common;
use common::{example, NAMES};

fn scene(chart: &Chart, width: f64, height: f64, theme: &Theme) -> Scene {
    chart.scene(width, height, theme, false)
}

fn rects(scene: &Scene, fill: Color) -> Vec<Rect> {
    scene
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Rect { rect, fill: f } if *f == fill => Some(*rect),
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

#[test]
fn a_bar_card_has_one_rect_per_bar_in_the_theme_colour() {
    let chart = example("bar");
    for dark in [false, true] {
        let theme = chart.theme(Some(dark));
        let scene = scene(&chart, 800.0, 500.0, &theme);
        assert_eq!(scene.background, theme.background);
        let bars = rects(&scene, theme.color(0));
        assert_eq!(bars.len(), 5, "dark={dark}");
        let plot = scene.plot.unwrap();
        for bar in &bars {
            assert!(within(bar, &plot), "{bar:?} outside {plot:?}");
        }
        // Left to right, in the data's order.
        assert!(bars.windows(2).all(|w| w[0].x < w[1].x));
    }
}

#[test]
fn pie_slices_are_sectors_that_make_a_whole() {
    let chart = example("pie");
    let theme = chart.theme(None);
    let scene = scene(&chart, 800.0, 500.0, &theme);
    let sectors: Vec<(f64, f64, Color)> = scene
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Sector {
                start, end, fill, ..
            } => Some((*start, *end, *fill)),
            _ => None,
        })
        .collect();
    assert_eq!(sectors.len(), 5);
    assert!(!scene
        .items
        .iter()
        .any(|item| matches!(item, Item::Polygon { .. })));
    // From twelve o'clock, each slice starting where the last ended.
    assert_eq!(sectors[0].0, 0.0);
    for (i, pair) in sectors.windows(2).enumerate() {
        assert!((pair[0].1 - pair[1].0).abs() < 1e-9, "gap after slice {i}");
    }
    let total: f64 = sectors.iter().map(|(start, end, _)| end - start).sum();
    assert!((total - TAU).abs() < 1e-9, "{total}");
    for (i, (_, _, fill)) in sectors.iter().enumerate() {
        assert_eq!(*fill, theme.color(i));
    }
}

#[test]
fn every_example_has_its_plot_inside_the_frame() {
    for name in NAMES {
        let chart = example(name);
        let theme = chart.theme(None);
        for (w, h) in [(800.0, 500.0), (360.0, 300.0), (1400.0, 900.0)] {
            let scene = scene(&chart, w, h, &theme);
            assert_eq!((scene.width, scene.height), (w, h));
            let plot = scene.plot.unwrap_or_else(|| panic!("{name}: no plot"));
            assert!(plot.w > 0.0 && plot.h > 0.0, "{name}: {plot:?}");
            let frame = Rect::new(0.0, 0.0, w, h);
            assert!(within(&plot, &frame), "{name} at {w}x{h}: {plot:?}");
            // The title stays above the plot.
            let title = scene.items.iter().find_map(|item| match item {
                Item::Text { text, at, .. } if *text == chart.config.title => Some(*at),
                _ => None,
            });
            assert!(title.is_some_and(|(_, y)| y < plot.y), "{name}");
        }
    }
}

#[test]
fn a_card_too_small_for_a_chart_has_no_plot() {
    let chart = example("bar");
    let scene = scene(&chart, 40.0, 40.0, &chart.theme(None));
    assert_eq!(scene.plot, None);
}

#[test]
fn texts_carry_the_resolved_font() {
    let chart = example("bar");
    let theme = chart.theme(None);
    for (width, size) in [(800.0, 18.0), (360.0, 15.0)] {
        let scene = scene(&chart, width, 500.0, &theme);
        let title = scene.items.iter().find_map(|item| match item {
            Item::Text { text, font, .. } if *text == chart.config.title => Some(*font),
            _ => None,
        });
        assert_eq!(title, Some(Font::new(size, Weight::Bold, theme.text)));
        // Category labels: regular, in the text colour, at the tick size.
        let north = scene.items.iter().find_map(|item| match item {
            Item::Text { text, font, .. } if text == "North" => Some(*font),
            _ => None,
        });
        let north = north.unwrap();
        assert_eq!((north.weight, north.color), (Weight::Regular, theme.text));
        assert!(north.size < size);
    }
}

#[test]
fn hits_are_recorded_only_when_asked() {
    for name in NAMES {
        let chart = example(name);
        let theme = chart.theme(None);
        let with = chart.scene(800.0, 500.0, &theme, true);
        let without = chart.scene(800.0, 500.0, &theme, false);
        assert!(without.hits.is_empty(), "{name}");
        assert_eq!(
            with.items, without.items,
            "{name}: recording changed the drawing"
        );
        // The replay's map is the scene's.
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
        let mapped = chart.draw_mapped(&area, &theme, 1.0).unwrap();
        assert_eq!(mapped.len(), with.hits.len(), "{name}");
        if name != "table" {
            assert!(!with.hits.is_empty(), "{name}");
        }
    }
}

/// Attributes `names` of every plotters SVG element `<tag ...>` filled with `fill`.
fn plotters_elements(svg: &str, tag: &str, fill: Color) -> Vec<Vec<f64>> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let fill = format!("#{:02X}{:02X}{:02X}", fill.0, fill.1, fill.2);
    doc.descendants()
        .filter(|n| n.has_tag_name(tag) && n.attribute("fill") == Some(fill.as_str()))
        .map(|n| {
            ["x", "y", "width", "height"]
                .iter()
                .filter_map(|a| n.attribute(*a)?.parse().ok())
                .collect()
        })
        .collect()
}

#[test]
fn the_replay_paints_every_item_at_device_pixels() {
    let chart = example("bar");
    let theme = chart.theme(None);
    let bars = rects(&scene(&chart, 800.0, 500.0, &theme), theme.color(0));
    for scale in [1.0, 2.0] {
        let mut svg = String::new();
        {
            let size = ((800.0 * scale) as u32, (500.0 * scale) as u32);
            let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            chart.draw(&area, &theme, scale).unwrap();
            area.present().unwrap();
        }
        let painted = plotters_elements(&svg, "rect", theme.color(0));
        assert_eq!(painted.len(), bars.len(), "scale {scale}");
        for (bar, rect) in bars.iter().zip(&painted) {
            // Corners rounded once, at the device scale.
            assert_eq!(rect[0], (bar.x * scale).round(), "scale {scale}");
            assert_eq!(rect[1], (bar.y * scale).round(), "scale {scale}");
            let right = (bar.right() * scale).round();
            assert_eq!(rect[0] + rect[2], right, "scale {scale}");
        }
    }
}

#[test]
fn the_replay_draws_sectors_round_at_any_scale() {
    let chart = example("pie");
    let theme = chart.theme(None);
    let scene = scene(&chart, 800.0, 500.0, &theme);
    let Some(Item::Sector { center, outer, .. }) = scene
        .items
        .iter()
        .find(|item| matches!(item, Item::Sector { .. }))
    else {
        panic!("no sector");
    };
    for scale in [1.0, 3.0] {
        let mut svg = String::new();
        {
            let size = ((800.0 * scale) as u32, (500.0 * scale) as u32);
            let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            zdr_chart::paint::plotters::paint(&scene, &area, scale).unwrap();
            area.present().unwrap();
        }
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let fill = theme.color(0);
        let fill = format!("#{:02X}{:02X}{:02X}", fill.0, fill.1, fill.2);
        let polygon = doc
            .descendants()
            .find(|n| n.has_tag_name("polygon") && n.attribute("fill") == Some(fill.as_str()))
            .unwrap();
        let points: Vec<(f64, f64)> = polygon
            .attribute("points")
            .unwrap()
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let (cx, cy, r) = (center.0 * scale, center.1 * scale, outer * scale);
        let on_arc: Vec<f64> = points
            .iter()
            .map(|(x, y)| ((x - cx).powi(2) + (y - cy).powi(2)).sqrt())
            .filter(|d| *d > r / 2.0)
            .collect();
        // Vertices on the circle, within rounding.
        assert!(on_arc.iter().all(|d| (d - r).abs() <= 1.0), "scale {scale}");
        // Chords short enough to stray at most a quarter pixel from the arc
        // (L²/8r), plus a pixel of rounding at each end.
        let arc: Vec<&(f64, f64)> = points
            .iter()
            .filter(|(x, y)| ((x - cx).powi(2) + (y - cy).powi(2)).sqrt() > r / 2.0)
            .collect();
        let longest = arc
            .windows(2)
            .map(|w| ((w[0].0 - w[1].0).powi(2) + (w[0].1 - w[1].1).powi(2)).sqrt())
            .fold(0.0, f64::max);
        assert!(
            longest <= (2.0 * r).sqrt() + 2.0,
            "scale {scale}: {longest}"
        );
        assert!(arc.len() > 10, "scale {scale}: {}", arc.len());
    }
}

#[test]
fn the_svg_writer_writes_every_item() {
    for name in NAMES {
        let chart = example(name);
        let theme = chart.theme(None);
        let scene = scene(&chart, 800.0, 500.0, &theme);
        let svg = zdr_chart::paint::svg::write(&scene);
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let count = |tag: &str| doc.descendants().filter(|n| n.has_tag_name(tag)).count();
        let items = |f: fn(&Item) -> bool| scene.items.iter().filter(|i| f(i)).count();
        assert_eq!(
            count("text"),
            items(|i| matches!(i, Item::Text { .. })),
            "{name}"
        );
        // Straight two-point strokes (grid lines, axes, ticks) are
        // written as the rectangles of pixels they cover.
        let straight = |i: &Item| match i {
            Item::Path { points, .. } => {
                points.len() == 2
                    && points[0] != points[1]
                    && (points[0].0 == points[1].0 || points[0].1 == points[1].1)
            }
            _ => false,
        };
        assert_eq!(
            count("rect"),
            1 + items(|i| matches!(i, Item::Rect { .. } | Item::Outline { .. }))
                + scene.items.iter().filter(|i| straight(i)).count(),
            "{name}"
        );
        assert_eq!(
            count("circle"),
            items(|i| matches!(i, Item::Circle { .. })),
            "{name}"
        );
        assert_eq!(svg, chart.to_svg(800, 500, &theme), "{name}");
    }
}

/// Every filled rectangle as `[x, y, width, height, fill]`, in document order.
fn filled_rects(doc: &roxmltree::Document<'_>) -> Vec<(Vec<f64>, String)> {
    doc.descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill").is_some_and(|f| f != "none"))
        .map(|n| {
            let at: Vec<f64> = ["x", "y", "width", "height"]
                .iter()
                .map(|a| n.attribute(*a).and_then(|v| v.parse().ok()).unwrap_or(0.0))
                .collect();
            (at, n.attribute("fill").unwrap().to_ascii_lowercase())
        })
        .collect()
}

#[test]
fn the_svg_writer_and_the_replay_fill_the_same_pixels() {
    for name in NAMES {
        let chart = example(name);
        let theme = chart.theme(None);
        let scene = scene(&chart, 640.0, 400.0, &theme);
        let written = zdr_chart::paint::svg::write(&scene);
        let mut replayed = String::new();
        {
            let area = SVGBackend::with_string(&mut replayed, (640, 400)).into_drawing_area();
            zdr_chart::paint::plotters::paint(&scene, &area, 1.0).unwrap();
            area.present().unwrap();
        }
        let written = roxmltree::Document::parse(&written).unwrap();
        let replayed = roxmltree::Document::parse(&replayed).unwrap();
        // Rectangles on the same whole pixels, slivers included.
        assert_eq!(filled_rects(&written), filled_rects(&replayed), "{name}");
        // Dots of the same size on the same pixels.
        let dots = |doc: &roxmltree::Document<'_>| -> Vec<Vec<f64>> {
            doc.descendants()
                .filter(|n| n.has_tag_name("circle"))
                .map(|n| {
                    ["cx", "cy", "r"]
                        .iter()
                        .filter_map(|a| n.attribute(*a)?.parse().ok())
                        .collect()
                })
                .collect()
        };
        assert_eq!(dots(&written), dots(&replayed), "{name}");
        // Lines as wide, through the same pixels (a map's outlines are written
        // with their regions, so maps are left out here).
        if !matches!(name, "choropleth" | "map" | "bubble_map") {
            let lines = |doc: &roxmltree::Document<'_>| -> Vec<(String, Vec<(i64, i64)>)> {
                doc.descendants()
                    .filter_map(|n| {
                        let width = n.attribute("stroke-width").unwrap_or("1").to_string();
                        match n.tag_name().name() {
                            "polyline" => Some((width, polyline(n.attribute("points")?))),
                            "path" if n.attribute("fill") == Some("none") => {
                                Some((width, relative_path(n.attribute("d")?)))
                            }
                            _ => None,
                        }
                    })
                    .collect()
            };
            assert_eq!(lines(&written), lines(&replayed), "{name}");
        }
        // Texts anchored on the same whole pixels.
        let anchors = |doc: &roxmltree::Document<'_>| -> Vec<f64> {
            doc.descendants()
                .filter(|n| n.has_tag_name("text"))
                .filter_map(|n| n.attribute("x")?.parse().ok())
                .collect()
        };
        assert_eq!(anchors(&written), anchors(&replayed), "{name}");
    }
}

/// plotters' `points="x,y x,y"`, consecutive repeats left out as the
/// writer leaves them out.
fn polyline(points: &str) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for pair in points.split_whitespace() {
        let (x, y) = pair.split_once(',').unwrap();
        let p = (x.parse().unwrap(), y.parse().unwrap());
        if out.last() != Some(&p) {
            out.push(p);
        }
    }
    out
}

/// The writer's `M x y l dx dy ...` as absolute points.
fn relative_path(d: &str) -> Vec<(i64, i64)> {
    let (start, steps) = d.trim_start_matches('M').split_once('l').unwrap_or((d, ""));
    let numbers = |text: &str| -> Vec<i64> {
        text.replace('-', " -")
            .split_whitespace()
            .map(|n| n.parse().unwrap())
            .collect()
    };
    let first = numbers(start.trim_start_matches('M'));
    let mut at = (first[0], first[1]);
    let mut out = vec![at];
    for step in numbers(steps).chunks(2) {
        at = (at.0 + step[0], at.1 + step[1]);
        out.push(at);
    }
    out
}

/// Category names that cannot stand level under their bars turn the card on
/// its side: one bar per row, top to bottom in the data's order, growing
/// right from zero (left for a negative), and every name whole at the left.
#[test]
fn bars_whose_names_do_not_fit_lie_on_their_side() {
    let names = [
        "Electricity and heat production",
        "Road transportation",
        "Manufacturing and construction",
        "Agriculture, forestry and land use",
    ];
    let values = [1450.0, 1230.0, 880.0, -120.0];
    let data: Vec<String> = names
        .iter()
        .zip(values)
        .map(|(x, y)| format!(r#"{{"x": "{x}", "y": {y}}}"#))
        .collect();
    let json = format!(
        r#"{{"viz_config": {{"title": "Emissions", "viz_component_type": "bar"}}, "data": [{}]}}"#,
        data.join(",")
    );
    let chart = Chart::from_json(&json).unwrap();
    let theme = chart.theme(Some(false));
    let turned = scene(&chart, 800.0, 500.0, &theme);
    let bars = rects(&turned, theme.color(0));
    assert_eq!(bars.len(), 4);
    assert!(
        bars.windows(2).all(|w| w[0].y < w[1].y),
        "top to bottom: {bars:?}"
    );
    let plot = turned.plot.unwrap();
    let zero = bars[0].x;
    assert!(bars[..3]
        .iter()
        .all(|b| (b.x - zero).abs() < 1e-6 && b.w > b.h));
    assert!(bars[0].w > bars[1].w && bars[1].w > bars[2].w);
    assert!(
        (bars[3].right() - zero).abs() < 1e-6,
        "the negative bar ends at zero"
    );
    let texts: Vec<&str> = turned
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Text { text, at, .. } if at.0 < plot.x => Some(text.as_str()),
            _ => None,
        })
        .collect();
    for name in names {
        assert!(texts.contains(&name), "{name} whole at the left: {texts:?}");
    }

    // Short names stay under upright bars.
    let chart = example("bar");
    let upright = scene(&chart, 800.0, 500.0, &theme);
    let bars = rects(&upright, theme.color(0));
    assert!(bars.windows(2).all(|w| w[0].x < w[1].x) && bars.iter().all(|b| b.h > b.w));
}

/// Revenue in millions and a margin in percent over the same months.
fn revenue_and_margin(extra: &str) -> Chart {
    let months = [
        "2024-01", "2024-02", "2024-03", "2024-04", "2024-05", "2024-06",
    ];
    let revenue = [1.2e6, 1.35e6, 1.1e6, 1.6e6, 1.75e6, 1.9e6];
    let margin = [12.0, 14.5, 9.0, 16.0, 18.5, 21.0];
    let points = |ys: &[f64]| -> String {
        let points: Vec<String> = months
            .iter()
            .zip(ys)
            .map(|(x, y)| format!(r#"{{"x": "{x}", "y": {y}}}"#))
            .collect();
        points.join(",")
    };
    let json = format!(
        r#"{{"viz_config": {{"title": "Sales", "viz_component_type": "timeseries", "units": "$", "y_label": "Revenue"{extra}}},
            "data": {{"series": [{{"name": "Revenue", "points": [{}]}}, {{"name": "Margin", "points": [{}]}}]}}}}"#,
        points(&revenue),
        points(&margin)
    );
    Chart::from_json(&json).unwrap()
}

fn texts_at(scene: &Scene) -> Vec<(String, (f64, f64))> {
    scene
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Text { text, at, .. } => Some((text.clone(), *at)),
            _ => None,
        })
        .collect()
}

#[test]
fn series_of_different_magnitude_read_against_two_axes() {
    let chart = revenue_and_margin(r#", "right_axis_units": "%", "right_axis_label": "Margin""#);
    let theme = chart.theme(Some(false));
    let scene = scene(&chart, 800.0, 500.0, &theme);
    let plot = scene.plot.unwrap();
    let texts = texts_at(&scene);
    let text = |t: &str| texts.iter().find(|(s, _)| s == t).map(|(_, at)| *at);
    // The legend says which axis each series reads against.
    assert!(text("Revenue (left axis)").is_some(), "{texts:?}");
    assert!(text("Margin (right axis)").is_some(), "{texts:?}");
    // Left ticks in dollars left of the plot, right ticks in percent right of it,
    // as many of them, on the same grid lines.
    let left: Vec<_> = texts
        .iter()
        .filter(|(t, at)| at.0 < plot.x && t.starts_with('$'))
        .collect();
    let right: Vec<_> = texts
        .iter()
        .filter(|(t, at)| at.0 > plot.right() && t.ends_with('%'))
        .collect();
    assert!(left.len() >= 3, "{texts:?}");
    assert_eq!(left.len(), right.len(), "{left:?} {right:?}");
    for (l, r) in left.iter().zip(&right) {
        assert!((l.1 .1 - r.1 .1).abs() < 1e-6, "{l:?} level with {r:?}");
    }
    assert!(
        right
            .iter()
            .any(|(t, _)| t == "0%" || t == "5%" || t == "10%"),
        "{right:?}"
    );
    // Each title at its own side.
    assert!(text("Revenue").is_some_and(|at| at.0 < plot.x));
    assert!(text("Margin").is_some_and(|at| at.0 > plot.right()));
    // Both lines fill the plot's height: each is drawn on its own scale.
    let lines: Vec<&Vec<(f64, f64)>> = scene
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Path { points, stroke } if stroke.width == 2.0 => Some(points),
            _ => None,
        })
        .collect();
    assert_eq!(lines.len(), 2);
    for line in lines {
        let (top, bottom) = line
            .iter()
            .fold((f64::MAX, f64::MIN), |(t, b), p| (t.min(p.1), b.max(p.1)));
        assert!(bottom - top > plot.h * 0.3, "{top} {bottom} in {plot:?}");
    }
    // The data table gives each series in its axis's units.
    let table = chart.data_table(10);
    assert_eq!(table.columns, ["Date", "Revenue", "Margin"]);
    assert_eq!(table.rows[0][1], "$1,200,000");
    assert_eq!(table.rows[0][2], "12%");
    // So does the summary, axis by axis.
    let summary = chart.summary();
    assert!(
        summary.contains("left axis from $1.1M to $1.9M, right axis from 9% to 21%"),
        "{summary}"
    );

    // Told otherwise: one axis, no axis in the legend.
    let one = revenue_and_margin(r#", "right_axis_series": []"#);
    let texts = texts_at(&scene_of(&one));
    assert!(texts.iter().any(|(t, _)| t == "Revenue"));
    assert!(!texts.iter().any(|(t, _)| t.contains("axis")), "{texts:?}");
    // Named: the first series on the right.
    let named = revenue_and_margin(r#", "right_axis_series": ["Revenue"]"#);
    let texts = texts_at(&scene_of(&named));
    assert!(
        texts.iter().any(|(t, _)| t == "Revenue (right axis)"),
        "{texts:?}"
    );
    // Change since start: one axis of percents.
    let change = revenue_and_margin(r#", "percent_change": true"#);
    let texts = texts_at(&scene_of(&change));
    assert!(!texts.iter().any(|(t, _)| t.contains("axis")), "{texts:?}");
}

fn scene_of(chart: &Chart) -> Scene {
    scene(chart, 800.0, 500.0, &chart.theme(Some(false)))
}

/// Every item says what it is, and the roles keep their contract for every
/// card type at the sizes the form page lays out at and a large one: the
/// plot's marks lie in the plot (a dot by its centre), labels are texts
/// drawn with the marks, and the fit follows the card.
#[test]
fn every_item_has_a_role_that_keeps_its_contract() {
    use zdr_chart::scene::{Fit, Role};
    for name in NAMES {
        let chart = example(name);
        for (w, h) in [
            (320.0, 240.0),
            (320.0, 300.0),
            (420.0, 360.0),
            (900.0, 560.0),
        ] {
            let scene = scene(&chart, w, h, &chart.theme(None));
            assert_eq!(scene.roles.len(), scene.items.len(), "{name} {w}x{h}");
            assert_eq!(scene.fit, chart.fit(), "{name}");
            let plot = scene.plot.unwrap_or_default();
            let grown = Rect::new(plot.x - 1.0, plot.y - 1.0, plot.w + 2.0, plot.h + 2.0);
            let mut marks = 0;
            for (role, item) in scene.placed() {
                match (role, item) {
                    (Role::Label, Item::Text { .. }) | (Role::Chrome, _) => {}
                    (Role::Label, other) => panic!("{name}: a label that is no text: {other:?}"),
                    (Role::Mark, Item::Text { .. }) => panic!("{name}: a text as a mark"),
                    (Role::Mark, Item::Circle { center, .. }) => {
                        marks += 1;
                        let at = Rect::new(center.0, center.1, 0.0, 0.0);
                        assert!(within(&at, &grown), "{name} {w}x{h}: {item:?} off {plot:?}");
                    }
                    (Role::Mark, Item::Rect { rect, .. }) => {
                        marks += 1;
                        assert!(
                            within(rect, &grown),
                            "{name} {w}x{h}: {item:?} off {plot:?}"
                        );
                    }
                    (Role::Mark, _) => marks += 1,
                }
            }
            assert!(marks > 0, "{name} {w}x{h}: no marks");
        }
    }
    assert_eq!(example("pie").fit(), Fit::ScaleCentred);
    assert_eq!(example("choropleth").fit(), Fit::Scale);
    assert_eq!(example("table").fit(), Fit::Rows);
    assert_eq!(example("bar").fit(), Fit::Stretch);
}
