// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! Hit-testing: every documented example drawn with `draw_mapped`, and the
//! tooltip text of known marks found at their place on the drawing.

use std::f64::consts::{FRAC_PI_2, PI};

use plotters::prelude::{IntoDrawingArea, SVGBackend};
use zdr_chart::model::{Card, CardKind, DatePrecision, Series, VizConfig};
use zdr_chart::{Chart, Hit, HitMap, HitShape};

mod common;
use common::{example, walk, NAMES};

fn mapped(chart: &Chart, (width, height): (u32, u32), scale: f64) -> HitMap {
    let mut svg = String::new();
    let area = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
    chart.draw_mapped(&area, &chart.theme(None), scale).unwrap()
}

fn map_of(name: &str) -> HitMap {
    mapped(&example(name), (800, 500), 1.0)
}

/// A point inside the shape: a point itself, the middle of a rect or of a
/// wedge's arc, an inner point of a region's largest ring.
fn inside(shape: &HitShape) -> (f64, f64) {
    match shape {
        HitShape::Point { x, y } => (*x, *y),
        HitShape::Rect(r) => r.center(),
        HitShape::Wedge {
            cx,
            cy,
            inner,
            outer,
            start,
            end,
        } => {
            let (a, r) = ((start + end) / 2.0, (inner + outer) / 2.0);
            (cx + r * a.cos(), cy + r * a.sin())
        }
        HitShape::Polygon { rings, .. } => {
            let ring = rings
                .iter()
                .max_by(|a, b| ring_area(a).total_cmp(&ring_area(b)))
                .unwrap();
            ring_interior(ring)
        }
    }
}

fn ring_area(ring: &[(f32, f32)]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            f64::from(a.0) * f64::from(b.1) - f64::from(b.0) * f64::from(a.1)
        })
        .sum::<f64>()
        .abs()
        / 2.0
}

/// The middle of the widest span of a horizontal line through the ring's
/// vertical middle: inside, whatever the ring's shape.
fn ring_interior(ring: &[(f32, f32)]) -> (f64, f64) {
    let ys = ring.iter().map(|p| f64::from(p.1));
    let (lo, hi) = ys.fold((f64::MAX, f64::MIN), |(l, h), y| (l.min(y), h.max(y)));
    // Off any vertex's height, so no crossing is counted twice.
    let y = (lo + hi) / 2.0 + 1e-4;
    let n = ring.len();
    let mut xs: Vec<f64> = (0..n)
        .filter_map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            let (x0, y0, x1, y1) = (
                f64::from(a.0),
                f64::from(a.1),
                f64::from(b.0),
                f64::from(b.1),
            );
            ((y0 > y) != (y1 > y)).then(|| x0 + (y - y0) / (y1 - y0) * (x1 - x0))
        })
        .collect();
    xs.sort_by(f64::total_cmp);
    let (a, b) = xs
        .chunks(2)
        .filter(|pair| pair.len() == 2)
        .map(|pair| (pair[0], pair[1]))
        .max_by(|p, q| (p.1 - p.0).total_cmp(&(q.1 - q.0)))
        .unwrap();
    ((a + b) / 2.0, y)
}

fn text(hit: &Hit) -> (Option<&str>, &str, &str) {
    (
        hit.series.as_deref(),
        hit.label.as_str(),
        hit.value.as_str(),
    )
}

fn find<'m>(map: &'m HitMap, label: &str, series: Option<&str>) -> &'m Hit {
    map.iter()
        .find(|h| h.label == label && h.series.as_deref() == series)
        .unwrap_or_else(|| panic!("no hit {series:?} {label:?}"))
}

/// The tooltip found at the mark's own place.
fn found_at_itself<'m>(map: &'m HitMap, hit: &Hit) -> (Option<&'m str>, &'m str, &'m str) {
    let (x, y) = inside(&hit.shape);
    let found = text(
        map.at(x, y, 1.0)
            .unwrap_or_else(|| panic!("nothing at ({x}, {y}) for {hit:?}")),
    );
    // A bubble may lie partly under a smaller one drawn over it (as a
    // reader sees it): any of its points not covered will do.
    if let HitShape::Wedge { cx, cy, outer, .. } = hit.shape {
        if found != text(hit) {
            for step in 0..48 {
                let (a, r) = (
                    f64::from(step % 16) * PI / 8.0,
                    outer * (0.3 + 0.3 * f64::from(step / 16)),
                );
                if let Some(other) = map.at(cx + r * a.cos(), cy + r * a.sin(), 0.0) {
                    if text(other) == text(hit) {
                        return text(other);
                    }
                }
            }
        }
    }
    found
}

#[test]
fn every_mark_is_found_at_its_own_place() {
    for name in NAMES {
        let map = map_of(name);
        for hit in map.iter() {
            assert_eq!(found_at_itself(&map, hit), text(hit), "{name}");
        }
    }
}

#[test]
fn bar() {
    let map = map_of("bar");
    assert_eq!(map.len(), 5, "one hit per bar");
    let second = map.iter().nth(1).unwrap();
    assert_eq!(text(second), (None, "South", "31,950"));
    assert!(matches!(second.shape, HitShape::Rect(_)));
    // Just above the bar, within the radius: still the bar.
    let HitShape::Rect(r) = second.shape else {
        unreachable!()
    };
    let (cx, _) = r.center();
    assert_eq!(map.at(cx, r.y - 4.0, 6.0).map(text), Some(text(second)));
    assert_eq!(map.at(cx, r.y - 4.0, 2.0), None);
}

#[test]
fn grouped_and_stacked_bars_name_their_series() {
    let map = map_of("grouped_bar");
    assert_eq!(map.len(), 12, "4 quarters by 3 product lines");
    let hit = find(&map, "Q2", Some("Software"));
    assert_eq!(hit.value, "950,000 USD");
    assert_eq!(
        found_at_itself(&map, hit),
        (Some("Software"), "Q2", "950,000 USD")
    );

    let map = map_of("stacked_bar");
    assert_eq!(map.len(), 20, "5 years by 4 sources");
    let hit = find(&map, "2019", Some("Wind"));
    assert_eq!(found_at_itself(&map, hit), (Some("Wind"), "2019", "80 TWh"));
}

#[test]
fn timeseries_points() {
    let map = map_of("timeseries");
    assert_eq!(map.len(), 47, "two series of 24 points, one a gap");
    let hit = find(&map, "Jan 8, 2025", Some("Web"));
    assert_eq!(hit.value, "16,359");
    let HitShape::Point { x, y } = hit.shape else {
        panic!("{hit:?}")
    };
    // Near the point, not on it: the nearest point within the radius.
    assert_eq!(map.at(x + 3.0, y - 2.0, 8.0).map(text), Some(text(hit)));
    assert!(map.at(x + 3.0, y - 200.0, 8.0).is_none());
}

#[test]
fn pie_slices_are_wedges_clockwise_from_twelve() {
    let map = map_of("pie");
    assert_eq!(map.len(), 5);
    let wedges: Vec<(f64, f64)> = map
        .iter()
        .map(|h| match h.shape {
            HitShape::Wedge { start, end, .. } => (start, end),
            _ => panic!("{h:?}"),
        })
        .collect();
    assert!((wedges[0].0 + FRAC_PI_2).abs() < 1e-9, "starts at twelve");
    assert!(
        (wedges[4].1 - 3.0 * FRAC_PI_2).abs() < 1e-9,
        "ends a turn later"
    );
    for pair in wedges.windows(2) {
        assert!((pair[0].1 - pair[1].0).abs() < 1e-9, "slices touch");
    }
    let safari = find(&map, "Safari", None);
    assert_eq!(safari.value, "18.6% (19%)");
    assert_eq!(
        found_at_itself(&map, safari),
        (None, "Safari", "18.6% (19%)")
    );
    // Chrome takes 64%: the right half of the pie is all Chrome.
    let HitShape::Wedge { cx, cy, outer, .. } = safari.shape else {
        unreachable!()
    };
    let right = map.at(cx + outer / 2.0, cy, 0.0).map(text);
    assert_eq!(right, Some((None, "Chrome", "64.2% (64%)")));
    assert!(
        map.at(cx + outer + 5.0, cy, 1.0).is_none(),
        "outside the pie"
    );
}

#[test]
fn scatter_points() {
    let map = map_of("scatter");
    assert_eq!(map.len(), 50, "every point of two series of 25");
    let hit = find(&map, "151.7", Some("Group A"));
    assert_eq!(
        found_at_itself(&map, hit),
        (Some("Group A"), "151.7", "48.1")
    );
}

#[test]
fn boxes_and_outliers() {
    let map = map_of("boxplot");
    let boxes = map
        .iter()
        .filter(|h| matches!(h.shape, HitShape::Rect(_)))
        .count();
    let outliers = map
        .iter()
        .filter(|h| h.value.starts_with("outlier"))
        .count();
    assert_eq!((boxes, outliers), (3, 2));
    let b = find(&map, "Carrier B", None);
    assert_eq!(b.value, "median 3, Q1 2, Q3 3.75, min 1, max 5");
    assert_eq!(found_at_itself(&map, b), text(b));
}

#[test]
fn heatmap_cells_timeline_bars_waterfall_steps_histogram_bins() {
    let chart = example("heatmap");
    let Card::Heatmap { values, .. } = &chart.card else {
        unreachable!()
    };
    let map = mapped(&chart, (800, 500), 1.0);
    assert_eq!(map.len(), values.iter().filter(|v| v.is_finite()).count());
    assert_eq!(
        map.iter().next().map(text),
        Some((None, "08:00, Mon", "11"))
    );

    let map = map_of("timeline");
    assert_eq!(map.len(), 5);
    let build = find(&map, "Build", None);
    assert_eq!(build.value, "Mar 16, 2026 \u{2013} Jul 31, 2026");

    let map = map_of("waterfall");
    assert_eq!(map.len(), 7, "six steps and the total");
    let price = find(&map, "Price", None);
    assert_eq!(price.value, "+340k EUR \u{2192} 1.54M EUR");
    let materials = find(&map, "Materials", None);
    assert_eq!(materials.value, "\u{2212}260k EUR \u{2192} 1.47M EUR");
    assert_eq!(find(&map, "Total", None).value, "1,280,000 EUR");

    let map = map_of("histogram");
    let counted: u64 = map.iter().map(|h| h.value.parse::<u64>().unwrap()).sum();
    assert_eq!(counted, 200, "every value in one drawn bin");
    assert_eq!(find(&map, "40 USD \u{2013} 60 USD", None).value, "45");
}

#[cfg(feature = "geo")]
#[test]
fn map_regions_with_data() {
    let map = map_of("choropleth");
    assert!(map
        .iter()
        .all(|h| matches!(h.shape, HitShape::Polygon { .. })));
    assert_eq!(map.len(), 25);
    let germany = find(&map, "Germany", None);
    assert_eq!(germany.value, "92%");
    assert_eq!(found_at_itself(&map, germany), (None, "Germany", "92%"));
}

#[test]
fn table_cells_are_marks_named_by_column_and_row() {
    let map = map_of("table");
    let rows = 5;
    assert_eq!(map.len(), rows * 4, "every cell of every row drawn");
    let cell = find(&map, "Revenue, Globex", None);
    assert_eq!(
        found_at_itself(&map, cell),
        (None, "Revenue, Globex", "980,000")
    );
    assert_eq!(find(&map, "Account", None).value, "Acme Corp");
    assert_eq!(find(&map, "Growth, Globex", None).value, "\u{2212}0.03");
}

#[test]
fn empty_cards_and_cramped_cards_have_no_hits() {
    let empty = Chart::from_json(r#"{"viz_config": {"title": "t"}, "data": []}"#).unwrap();
    assert!(mapped(&empty, (800, 500), 1.0).is_empty());
    assert!(mapped(&example("bar"), (60, 40), 1.0).is_empty());
}

#[test]
fn hits_are_in_css_pixels_at_every_device_scale() {
    for name in NAMES {
        let chart = example(name);
        let one = mapped(&chart, (800, 500), 1.0);
        let two = mapped(&chart, (1600, 1000), 2.0);
        assert_eq!(one.len(), two.len(), "{name}");
        for (a, b) in one.iter().zip(two.iter()) {
            assert_eq!(text(a), text(b), "{name}");
            let (pa, pb) = (inside(&a.shape), inside(&b.shape));
            assert!(
                (pa.0 - pb.0).abs() < 1e-6 && (pa.1 - pb.1).abs() < 1e-6,
                "{name}: {a:?} against {b:?}"
            );
        }
    }
}

#[test]
fn a_million_points_give_at_most_four_hits_per_pixel_column() {
    let chart = Chart {
        config: VizConfig {
            title: "Random walk".into(),
            ..VizConfig::default()
        },
        kind: CardKind::Timeseries,
        card: Card::Timeseries {
            series: vec![
                walk("a", 1_000_000, 0x9E37_79B9_7F4A_7C15),
                walk("b", 1_000_000, 0x2545_F491_4F6C_DD1D),
            ],
            precision: DatePrecision::Time,
        },
    };
    for (size, scale) in [((800, 500), 1.0), ((1600, 1000), 2.0)] {
        let map = mapped(&chart, size, scale);
        for name in ["a", "b"] {
            let xs: Vec<f64> = map
                .iter()
                .filter(|h| h.series.as_deref() == Some(name))
                .map(|h| match h.shape {
                    HitShape::Point { x, .. } => x,
                    _ => panic!("{h:?}"),
                })
                .collect();
            // The first and last points sit on the plot's edges.
            let (lo, hi) = xs
                .iter()
                .fold((f64::MAX, f64::MIN), |(l, h), &x| (l.min(x), h.max(x)));
            let plot_width = (hi - lo).ceil();
            assert!(plot_width > 500.0 && plot_width < 800.0, "{plot_width}");
            assert!(
                xs.len() as f64 <= 4.0 * plot_width,
                "{} hits for a plot {plot_width} px wide at scale {scale}",
                xs.len()
            );
            assert!(xs.len() as f64 > plot_width, "{} hits", xs.len());
        }
    }
}

#[test]
fn dense_scatters_and_heatmaps_keep_one_mark_per_few_pixels() {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 1_000_000) as f64 / 1_000.0
    };
    let (xs, ys): (Vec<f64>, Vec<f64>) = (0..200_000).map(|_| (next(), next())).unzip();
    let config = VizConfig {
        title: "Dense".into(),
        ..VizConfig::default()
    };
    let scatter = Chart {
        config: config.clone(),
        kind: CardKind::Scatter,
        card: Card::Scatter(vec![Series {
            name: "cloud".into(),
            given: xs.len(),
            xs,
            ys,
        }]),
    };
    let map = mapped(&scatter, (800, 500), 1.0);
    assert!(
        map.len() > 1_000 && map.len() <= 800 * 500 / 64,
        "{}",
        map.len()
    );
    let (columns, rows) = (500usize, 400usize);
    let heatmap = Chart {
        config,
        kind: CardKind::Heatmap,
        card: Card::Heatmap {
            xs: (0..columns).map(|i| format!("x{i}")).collect(),
            ys: (0..rows).map(|i| format!("y{i}")).collect(),
            values: (0..columns * rows).map(|i| (i % 97) as f64).collect(),
        },
    };
    let map = mapped(&heatmap, (800, 500), 1.0);
    assert!(
        map.len() > 1_000 && map.len() <= 800 * 500 / 16,
        "{}",
        map.len()
    );
    // Anywhere on the grid a cell is near.
    let hit = map.iter().nth(map.len() / 2).unwrap();
    let (x, y) = inside(&hit.shape);
    let near = map.at(x + 2.0, y + 2.0, 6.0).unwrap();
    assert!(
        near.label.starts_with('x') && near.label.contains(", y"),
        "{near:?}"
    );
}

/// The keyboard's walk reaches every mark of every card, and every legend
/// entry that hides a series: right from a row's first mark runs through
/// the row, down reaches the next row (on one-row cards, right alone
/// reaches every mark), and no step from anywhere leaves the walk.
#[test]
fn the_keyboard_walk_reaches_every_mark() {
    use zdr_chart::scene::Step;
    for name in NAMES {
        let map = map_of(name);
        let walk = map.walk();
        let total = map.len() + map.legend().len();
        assert_eq!(walk.len(), total, "{name}");
        if map.is_empty() {
            continue;
        }
        let mut seen = vec![false; total];
        // Up from the first mark until it goes no further: the top row.
        let mut top = walk.step(None, Step::First).unwrap();
        while let Some(up) = walk
            .step(Some(top), Step::Up)
            .filter(|&up| up != top && up >= map.len())
        {
            top = walk.step(Some(up), Step::First).unwrap();
        }
        let mut row_start = Some(top);
        while let Some(start) = row_start {
            let mut at = start;
            loop {
                assert!(!seen[at], "{name}: {at} reached twice");
                seen[at] = true;
                match walk.step(Some(at), Step::Next) {
                    Some(next) if next != at => at = next,
                    _ => break,
                }
            }
            row_start = walk
                .step(Some(start), Step::Down)
                .filter(|&down| down != start && !seen[down])
                .and_then(|down| walk.step(Some(down), Step::First))
                .filter(|&first| !seen[first]);
        }
        let reached = seen.iter().filter(|&&s| s).count();
        assert_eq!(reached, total, "{name}: every mark and entry reached");
        for from in 0..total {
            for step in [
                Step::Previous,
                Step::Next,
                Step::Up,
                Step::Down,
                Step::First,
                Step::Last,
            ] {
                let to = walk.step(Some(from), step);
                assert!(
                    to.is_some_and(|i| i < total),
                    "{name}: {step:?} from {from}"
                );
            }
        }
    }
}
