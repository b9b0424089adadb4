// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! The treemap's layout: cells that tile the plot in proportion to their
//! values, small ones folded into "Other (n)", labels inside their cells in
//! a colour that reads on them, and a hit map that names every cell.

use zdr_chart::layout::text::width;
use zdr_chart::layout::theme::{contrast, Theme};
use zdr_chart::scale::format_value;
use zdr_chart::scene::{Align, Baseline, Item, Rect, Role, Scene};
use zdr_chart::{Chart, Hit, HitShape};

mod common;
use common::{example, list, post};

/// Sizes from a phone's sliver to a wall, light and dark.
const SIZES: [(f64, f64); 6] = [
    (160.0, 140.0),
    (360.0, 300.0),
    (420.0, 360.0),
    (800.0, 500.0),
    (1200.0, 600.0),
    (1600.0, 1000.0),
];

fn chart(data: &str) -> Chart {
    Chart::from_json(&post("treemap", data)).unwrap()
}

/// `(label, value)` leaves, ungrouped.
fn flat(leaves: &[(&str, f64)]) -> Chart {
    chart(&list(leaves.len(), |i| {
        format!("{{\"x\":\"{}\",\"y\":{:e}}}", leaves[i].0, leaves[i].1)
    }))
}

/// `(group, label, value)` leaves.
fn grouped(leaves: &[(&str, &str, f64)]) -> Chart {
    chart(&list(leaves.len(), |i| {
        let (g, x, y) = leaves[i];
        format!("{{\"x\":\"{x}\",\"y\":{y:e},\"group\":\"{g}\"}}")
    }))
}

fn languages() -> Chart {
    flat(&LANGUAGES)
}

const LANGUAGES: [(&str, f64); 12] = [
    ("Python", 30.0),
    ("JavaScript", 25.0),
    ("TypeScript", 18.0),
    ("Java", 16.0),
    ("C#", 12.0),
    ("C++", 11.0),
    ("Go", 9.0),
    ("Rust", 7.0),
    ("PHP", 6.0),
    ("Ruby", 5.0),
    ("Kotlin", 4.0),
    ("Swift", 3.5),
];

/// A long tail: 300 products, 1000 / (i + 1)^1.3 dollars each.
fn tail() -> (Chart, Vec<f64>) {
    let values: Vec<f64> = (0..300)
        .map(|i| 1000.0 / f64::powf(i as f64 + 1.0, 1.3))
        .collect();
    let chart = chart(&list(values.len(), |i| {
        format!("{{\"x\":\"Item {i}\",\"y\":{:e}}}", values[i])
    }));
    (chart, values)
}

fn mapped(chart: &Chart, (w, h): (f64, f64), dark: bool) -> Scene {
    chart.scene(w, h, &chart.theme(Some(dark)), true)
}

fn rect_of(hit: &Hit) -> Rect {
    match &hit.shape {
        HitShape::Rect(r) => *r,
        other => panic!("a treemap's marks are rectangles, not {other:?}"),
    }
}

fn area(r: &Rect) -> f64 {
    r.w * r.h
}

fn overlap(a: &Rect, b: &Rect) -> f64 {
    let w = a.right().min(b.right()) - a.x.max(b.x);
    let h = a.bottom().min(b.bottom()) - a.y.max(b.y);
    w.max(0.0) * h.max(0.0)
}

fn within(inner: &Rect, outer: &Rect) -> bool {
    let e = 1e-6;
    inner.x >= outer.x - e
        && inner.y >= outer.y - e
        && inner.right() <= outer.right() + e
        && inner.bottom() <= outer.bottom() + e
}

/// The marks' rectangles tile the plot: inside it, apart, and all of it.
fn assert_tiles(scene: &Scene, what: &str) {
    let plot = scene.plot.unwrap();
    let rects: Vec<Rect> = scene.hits.iter().map(rect_of).collect();
    assert!(!rects.is_empty(), "{what}: no marks");
    for (i, a) in rects.iter().enumerate() {
        assert!(within(a, &plot), "{what}: {a:?} outside {plot:?}");
        for b in &rects[i + 1..] {
            assert!(overlap(a, b) < 1e-6, "{what}: {a:?} overlaps {b:?}");
        }
    }
    let sum: f64 = rects.iter().map(area).sum();
    assert!(
        (sum - area(&plot)).abs() <= area(&plot) * 1e-9,
        "{what}: {sum} of {}",
        area(&plot)
    );
}

/// The hit of `label`, the only one.
fn hit<'s>(scene: &'s Scene, label: &str) -> &'s Hit {
    let mut found = scene.hits.iter().filter(|h| h.label == label);
    let hit = found.next().unwrap_or_else(|| panic!("no mark {label}"));
    assert!(found.next().is_none(), "two marks {label}");
    hit
}

/// What a pie's tooltip says of a slice: "1,250 (38%)".
fn slice(value: f64, share: f64, units: Option<&str>) -> String {
    let percent = if share < 0.01 {
        "<1%".to_string()
    } else {
        format_value((share * 100.0).round(), Some("%"))
    };
    format!("{} ({percent})", format_value(value, units))
}

#[test]
fn cells_tile_the_plot_at_every_size() {
    let charts = [
        ("languages", languages()),
        ("tail", tail().0),
        ("gdp", example("treemap")),
    ];
    for (name, chart) in &charts {
        for size in SIZES {
            for dark in [false, true] {
                assert_tiles(&mapped(chart, size, dark), &format!("{name} {size:?}"));
            }
        }
    }
}

#[test]
fn areas_follow_the_values() {
    let total: f64 = LANGUAGES.iter().map(|l| l.1).sum();
    for size in SIZES {
        let scene = mapped(&languages(), size, false);
        let plot = area(&scene.plot.unwrap());
        for (label, value) in LANGUAGES {
            let share = area(&rect_of(hit(&scene, label))) / plot;
            assert!(
                (share - value / total).abs() < 1e-9,
                "{label} at {size:?}: {share} of the plot for {value} of {total}"
            );
        }
        // Largest first, from the top left.
        let first = rect_of(scene.hits.iter().next().unwrap());
        assert_eq!(scene.hits.iter().next().unwrap().label, "Python");
        let plot = scene.plot.unwrap();
        assert!(
            (first.x, first.y) == (plot.x, plot.y),
            "{first:?} in {plot:?}"
        );
    }
}

#[test]
fn cells_are_squarish() {
    // Squarified: no cell of a dozen values is a sliver on a common card.
    for size in [(800.0, 500.0), (360.0, 300.0), (1600.0, 600.0)] {
        let scene = mapped(&languages(), size, false);
        for h in scene.hits.iter() {
            let r = rect_of(h);
            let ratio = (r.w / r.h).max(r.h / r.w);
            assert!(ratio < 4.0, "{} at {size:?}: {r:?}", h.label);
        }
    }
}

#[test]
fn groups_hold_their_cells_in_proportion() {
    let chart = example("treemap");
    let t = match &chart.card {
        zdr_chart::model::Card::Treemap(t) => t.clone(),
        other => panic!("{other:?}"),
    };
    for size in SIZES {
        let scene = mapped(&chart, size, false);
        let plot = scene.plot.unwrap();
        for (g, name) in t.groups.iter().enumerate() {
            let leaves: Vec<_> = t.leaves.iter().filter(|l| l.group == g).collect();
            let group_total: f64 = leaves.iter().map(|l| l.value).sum();
            // The group's marks: its header (when it has room) and its cells.
            let marks: Vec<&Hit> = scene
                .hits
                .iter()
                .filter(|h| h.series.as_deref() == Some(name) || h.label == *name)
                .collect();
            let cells: Vec<&Hit> = marks.iter().copied().filter(|h| h.label != *name).collect();
            assert_eq!(cells.len(), leaves.len(), "{name} at {size:?}");
            let whole: f64 = marks.iter().map(|h| area(&rect_of(h))).sum();
            assert!(
                (whole / area(&plot) - group_total / t.total()).abs() < 1e-9,
                "{name} at {size:?}"
            );
            // Within the group, cells in proportion to each other.
            let inner: f64 = cells.iter().map(|h| area(&rect_of(h))).sum();
            for leaf in &leaves {
                let cell = cells.iter().find(|h| h.label == leaf.label).unwrap();
                let share = area(&rect_of(cell)) / inner;
                assert!((share - leaf.value / group_total).abs() < 1e-9);
            }
            // Every cell of the group lies inside the group's bounds.
            let x0 = marks.iter().map(|h| rect_of(h).x).fold(f64::MAX, f64::min);
            let x1 = marks.iter().map(|h| rect_of(h).right()).fold(0.0, f64::max);
            let y0 = marks.iter().map(|h| rect_of(h).y).fold(f64::MAX, f64::min);
            let y1 = marks
                .iter()
                .map(|h| rect_of(h).bottom())
                .fold(0.0, f64::max);
            assert!(((x1 - x0) * (y1 - y0) - whole).abs() < 1e-6 * area(&plot));
        }
    }
}

#[test]
fn small_cells_fold_into_other_with_their_count_and_total() {
    let (chart, values) = tail();
    let total: f64 = values.iter().sum();
    for size in SIZES {
        let scene = mapped(&chart, size, false);
        // At most 30 cells; the rest, 270, are one.
        assert_eq!(scene.hits.len(), 31, "{size:?}");
        let folded: f64 = values[30..].iter().sum();
        let other = hit(&scene, "Other (270)");
        assert_eq!(other.value, slice(folded, folded / total, None));
        assert!(other.series.is_none());
        let plot = area(&scene.plot.unwrap());
        assert!((area(&rect_of(other)) / plot - folded / total).abs() < 1e-9);
        assert_eq!(
            hit(&scene, "Item 0").value,
            slice(1000.0, 1000.0 / total, None)
        );
        assert!(scene.hits.iter().all(|h| h.label != "Item 30"));
    }
    // Under 0.3% of the whole is folded, but never one leaf alone.
    let mut leaves = vec![("Big", 1000.0), ("Tiny", 1.0)];
    let scene = mapped(&flat(&leaves), (800.0, 500.0), false);
    assert_eq!(scene.hits.len(), 2);
    hit(&scene, "Tiny");
    leaves.push(("Tinier", 0.5));
    let scene = mapped(&flat(&leaves), (800.0, 500.0), false);
    assert_eq!(scene.hits.len(), 2);
    assert_eq!(
        hit(&scene, "Other (2)").value,
        slice(1.5, 1.5 / 1001.5, None)
    );
}

#[test]
fn each_group_folds_its_own_small_cells() {
    let mut leaves = vec![
        ("A", "a big", 500.0),
        ("B", "b big", 400.0),
        ("B", "b small", 1.0),
    ];
    let names: Vec<String> = (0..5).map(|i| format!("a{i}")).collect();
    for name in &names {
        leaves.push(("A", name, 1.0));
    }
    let scene = mapped(&grouped(&leaves), (800.0, 500.0), false);
    assert_tiles(&scene, "groups");
    let other = hit(&scene, "Other (5)");
    assert_eq!(other.series.as_deref(), Some("A"));
    assert_eq!(other.value, slice(5.0, 5.0 / 906.0, None));
    // B's one small leaf is kept: folding one is pointless.
    assert_eq!(hit(&scene, "b small").series.as_deref(), Some("B"));
    // Headers name the groups, with their totals.
    assert_eq!(hit(&scene, "A").value, slice(505.0, 505.0 / 906.0, None));
}

#[test]
fn groups_too_small_to_see_are_folded_together() {
    // 40 groups of one leaf: 10 large, 30 under 0.3% of the whole.
    let leaves: Vec<(String, String, f64)> = (0..40)
        .map(|i| {
            let v = if i % 4 == 0 { 1000.0 } else { 0.1 };
            (format!("Region {i}"), format!("L{i}"), v)
        })
        .collect();
    let borrowed: Vec<(&str, &str, f64)> = leaves
        .iter()
        .map(|(g, x, v)| (g.as_str(), x.as_str(), *v))
        .collect();
    let scene = mapped(&grouped(&borrowed), (800.0, 500.0), false);
    assert_tiles(&scene, "40 groups");
    let other = hit(&scene, "Other (30)");
    assert!(other.series.is_none());
    assert_eq!(other.value, slice(3.0, 3.0 / 10003.0, None));
    assert_eq!(hit(&scene, "L0").series.as_deref(), Some("Region 0"));
    assert!(scene.hits.iter().all(|h| h.label != "L1"));
}

#[test]
fn the_hit_map_names_a_cell_and_its_value() {
    let chart = example("treemap");
    let scene = mapped(&chart, (800.0, 500.0), false);
    let us = rect_of(hit(&scene, "United States"));
    let (x, y) = us.center();
    let found = scene.hits.at(x, y, 0.0).unwrap();
    assert_eq!(found.label, "United States");
    assert_eq!(found.series.as_deref(), Some("Americas"));
    assert_eq!(found.value, "27.4 trillion USD (32%)");
    // Ungrouped: no series, the title names the whole.
    let scene = mapped(&languages(), (800.0, 500.0), true);
    let (x, y) = rect_of(hit(&scene, "Rust")).center();
    let found = scene.hits.at(x, y, 0.0).unwrap();
    assert_eq!(
        (found.label.as_str(), found.series.as_deref()),
        ("Rust", None)
    );
    assert_eq!(found.value, slice(7.0, 7.0 / 146.5, None));
}

/// The box a text takes: its anchor moved by its alignment, a font size high.
fn text_box(at: (f64, f64), size: f64, w: f64, align: Align, baseline: Baseline) -> Rect {
    let x = match align {
        Align::Start => at.0,
        Align::Middle => at.0 - w / 2.0,
        Align::End => at.0 - w,
    };
    let y = match baseline {
        Baseline::Top => at.1,
        Baseline::Middle => at.1 - size / 2.0,
        Baseline::Bottom => at.1 - size,
    };
    Rect::new(x, y, w, size)
}

/// Every label of the plot inside the mark it names (a cell's label inside
/// the cell as drawn, a header inside its band), in a colour that reads on
/// what is under it.
fn assert_labels_fit(scene: &Scene, theme: &Theme, what: &str) {
    let cells: Vec<(Rect, zdr_chart::scene::Color)> = scene
        .placed()
        .filter_map(|(role, item)| match item {
            Item::Rect { rect, fill } if role == Role::Mark => Some((*rect, *fill)),
            _ => None,
        })
        .collect();
    let hits: Vec<Rect> = scene.hits.iter().map(rect_of).collect();
    let mut labels = 0;
    for (role, item) in scene.placed() {
        let Item::Text {
            text,
            at,
            font,
            align,
            baseline,
            ..
        } = item
        else {
            continue;
        };
        if role != Role::Label {
            continue;
        }
        labels += 1;
        let w = width(text, font.size, font.weight);
        let b = text_box(*at, font.size, w, *align, *baseline);
        let under = cells
            .iter()
            .rev()
            .find(|(r, _)| r.x <= at.0 && at.0 <= r.right() && r.y <= at.1 && at.1 <= r.bottom());
        match under {
            Some((cell, fill)) => {
                assert!(
                    within(&b, cell),
                    "{what}: {text:?} {b:?} overflows {cell:?}"
                );
                assert!(
                    contrast(font.color, *fill) >= 4.5,
                    "{what}: {text:?} in {:?} on {fill:?}",
                    font.color
                );
            }
            None => {
                // A header, on the background of its band.
                assert!(
                    hits.iter().any(|h| within(&b, h)),
                    "{what}: {text:?} {b:?} in no mark"
                );
                assert!(
                    contrast(font.color, theme.background) >= 4.5,
                    "{what}: {text:?}"
                );
            }
        }
    }
    assert!(
        labels > 0 || scene.width < 300.0,
        "{what}: nothing labelled"
    );
}

#[test]
fn labels_stay_inside_their_cells_and_read_on_them() {
    let charts = [
        ("languages", languages()),
        ("tail", tail().0),
        ("gdp", example("treemap")),
        (
            "long names",
            flat(&[
                (
                    "A name far too long for any cell of this treemap at all",
                    5.0,
                ),
                ("Short", 4.0),
                ("Mid-length name", 3.0),
                ("WWWWWWWWWWWWWWWWWWWWWWWW", 2.0),
                ("i", 1.0),
            ]),
        ),
    ];
    for (name, chart) in &charts {
        for size in SIZES {
            for dark in [false, true] {
                let theme = chart.theme(Some(dark));
                let scene = chart.scene(size.0, size.1, &theme, true);
                assert_labels_fit(&scene, &theme, &format!("{name} {size:?} dark={dark}"));
            }
        }
    }
}

#[test]
fn labels_name_cells_that_have_room_and_the_value_under_them() {
    let scene = mapped(&example("treemap"), (1200.0, 600.0), false);
    let texts: Vec<&str> = scene
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    for expected in [
        "United States",
        "27.4 trillion USD",
        "China",
        "Americas",
        "Europe",
    ] {
        assert!(texts.contains(&expected), "{expected} in {texts:?}");
    }
}

#[test]
fn roles_cells_are_marks_and_their_texts_labels() {
    let scene = mapped(&example("treemap"), (800.0, 500.0), false);
    let plot = scene.plot.unwrap();
    for (role, item) in scene.placed() {
        match item {
            Item::Rect { rect, .. } if within(rect, &plot) => {
                assert_eq!(role, Role::Mark, "{rect:?}");
            }
            Item::Text { text, at, .. } if within(&Rect::new(at.0, at.1, 0.0, 0.0), &plot) => {
                assert_eq!(role, Role::Label, "{text}");
            }
            _ => {}
        }
    }
    assert_eq!(scene.fit, zdr_chart::scene::Fit::Stretch);
}

#[test]
fn cells_of_one_colour_are_set_apart() {
    // Neighbouring cells never touch: a seam of the background between.
    let scene = mapped(&languages(), (800.0, 500.0), false);
    let cells: Vec<Rect> = scene
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Rect { rect, .. } => Some(*rect),
            _ => None,
        })
        .collect();
    assert_eq!(cells.len(), LANGUAGES.len());
    for (i, a) in cells.iter().enumerate() {
        for b in &cells[i + 1..] {
            let gap_x = (b.x - a.right()).max(a.x - b.right());
            let gap_y = (b.y - a.bottom()).max(a.y - b.bottom());
            assert!(gap_x.max(gap_y) >= 0.99, "{a:?} touches {b:?}");
        }
    }
}

#[test]
fn equal_values_keep_the_data_order() {
    let names: Vec<String> = (0..10).map(|i| format!("Same {i}")).collect();
    let leaves: Vec<(&str, f64)> = names.iter().map(|n| (n.as_str(), 7.0)).collect();
    let scene = mapped(&flat(&leaves), (800.0, 500.0), false);
    let labels: Vec<&str> = scene.hits.iter().map(|h| h.label.as_str()).collect();
    assert_eq!(labels, names);
}

/// Every coordinate of the scene and of its marks finite, every mark in
/// the plot.
fn assert_finite(scene: &Scene, what: &str) {
    let ok = |v: f64| v.is_finite();
    let rect = |r: &Rect| ok(r.x) && ok(r.y) && ok(r.w) && ok(r.h);
    for item in &scene.items {
        let fine = match item {
            Item::Rect { rect: r, .. } | Item::Outline { rect: r, .. } => rect(r),
            Item::Text { at, .. } => ok(at.0) && ok(at.1),
            _ => true,
        };
        assert!(fine, "{what}: {item:?}");
    }
    if let Some(plot) = scene.plot {
        for h in scene.hits.iter() {
            let r = rect_of(h);
            assert!(rect(&r) && within(&r, &plot), "{what}: {r:?}");
        }
    }
}

#[test]
fn hostile_data_draw_finite_and_few() {
    let many = |n: usize, group: &dyn Fn(usize) -> String, value: &dyn Fn(usize) -> String| {
        chart(&list(n, |i| {
            format!(
                "{{\"x\":\"L{i}\",\"y\":{},\"group\":\"{}\"}}",
                value(i),
                group(i)
            )
        }))
    };
    let none = |_: usize| String::new();
    let cases = [
        ("one leaf", flat(&[("Only", 5.0)])),
        (
            "100,000 leaves",
            many(100_000, &none, &|i| format!("{}", 1 + i % 977)),
        ),
        (
            "100,000 groups",
            many(100_000, &|i| format!("G{i}"), &|i| {
                format!("{}", 1 + i % 13)
            }),
        ),
        ("100,000 equal", many(100_000, &none, &|_| "1".into())),
        (
            "1e-300 to 1e300",
            many(11, &none, &|i| format!("1e{}", -300 + 60 * i as i32)),
        ),
        (
            "near the largest",
            many(5, &|i| format!("G{}", i % 2), &|_| "1.7e308".into()),
        ),
        ("smallest", many(3, &none, &|_| "5e-324".into())),
    ];
    for (what, chart) in &cases {
        for size in [(160.0, 140.0), (800.0, 500.0), (1600.0, 1000.0)] {
            let start = std::time::Instant::now();
            let scene = mapped(chart, size, true);
            assert!(start.elapsed().as_secs_f64() < 2.0, "{what}: slow");
            assert_finite(&scene, what);
            assert!(!scene.hits.is_empty(), "{what} at {size:?}: nothing drawn");
            // Folded: a reader sees at most a few dozen cells.
            assert!(
                scene.hits.len() <= 100,
                "{what}: {} marks",
                scene.hits.len()
            );
            let theme = chart.theme(Some(true));
            assert_labels_fit(&scene, &theme, what);
        }
    }
    // All equal and each too small to see: one "Other" is the whole.
    let scene = mapped(&cases[3].1, (800.0, 500.0), false);
    assert_eq!(scene.hits.len(), 1);
    assert_eq!(hit(&scene, "Other (100,000)").value, "100k (100%)");
}

#[test]
fn a_legend_names_the_groups_only_when_the_plot_cannot() {
    let legend = |scene: &Scene| {
        scene
            .placed()
            .filter(|(role, item)| {
                *role == Role::Chrome && matches!(item, Item::Text { text, .. } if text == "Fruit")
            })
            .count()
    };
    let roomy = grouped(&[
        ("Fruit", "Apples", 40.0),
        ("Fruit", "Pears", 12.0),
        ("Vegetables", "Carrots", 22.0),
        ("Dairy", "Milk", 30.0),
    ]);
    for size in [(360.0, 300.0), (800.0, 500.0)] {
        assert_eq!(legend(&mapped(&roomy, size, false)), 0, "{size:?}");
    }
    // A group of 1% has no room for its name: a legend names them all.
    let cramped = grouped(&[
        ("Fruit", "Apples", 40.0),
        ("Vegetables", "Carrots", 59.0),
        ("Dairy", "Milk", 1.0),
    ]);
    for size in [(360.0, 300.0), (800.0, 500.0)] {
        assert_eq!(legend(&mapped(&cramped, size, false)), 1, "{size:?}");
    }
}
