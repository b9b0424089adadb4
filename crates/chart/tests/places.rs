// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
// The atlases are the `geo` feature's.
#![cfg(feature = "geo")]

//! map and bubble_map: places projected onto the atlases the way the
//! atlases were made, drawn where they project, bubbles sized by area, the
//! legends, the tooltips, the atlas chosen, and hostile data.

use zdr_chart::geo::{atlas, lookup, project, Atlas, Region};
use zdr_chart::layout::text::{width, Weight};
use zdr_chart::model::{Card, MAX_PLACES};
use zdr_chart::scene::{Color, Item, Rect, Role, Scene};
use zdr_chart::{Chart, HitShape};

mod common;
use common::{example, list, post};

// ---------------------------------------------------------------------------
// Projections

/// Even-odd inside any polygon of the region (holes count).
fn in_region(region: &Region, (x, y): (f64, f64)) -> bool {
    region.polygons.iter().any(|polygon| {
        let mut inside = false;
        for ring in polygon {
            let mut previous = *ring.last().unwrap();
            for &current in ring {
                let (x0, y0) = (f64::from(previous.0), f64::from(previous.1));
                let (x1, y1) = (f64::from(current.0), f64::from(current.1));
                if (y0 > y) != (y1 > y) && x < x0 + (y - y0) / (y1 - y0) * (x1 - x0) {
                    inside = !inside;
                }
                previous = current;
            }
        }
        inside
    })
}

/// Which regions of `which` hold the point: those it is inside, or (a
/// coastal city outside the simplified coast) within the atlas's stated
/// tolerance of (half a pixel at 1,600 px, see geo/README.md).
fn regions_at(which: Atlas, lat: f64, lon: f64) -> Vec<&'static str> {
    let at = project(which, lat, lon).unwrap_or_else(|| panic!("{lat},{lon} is off the map"));
    let inside: Vec<&str> = atlas(which)
        .regions
        .iter()
        .filter(|r| in_region(r, at))
        .map(|r| r.code2.as_str())
        .collect();
    if !inside.is_empty() {
        return inside;
    }
    atlas(which)
        .regions
        .iter()
        .filter(|r| edge_distance(r, at) <= 0.3125)
        .map(|r| r.code2.as_str())
        .collect()
}

#[test]
fn cities_fall_in_their_country_on_the_world_atlas() {
    for (city, lat, lon, code) in [
        ("Paris", 48.86, 2.35, "FR"),
        ("Tokyo", 35.68, 139.69, "JP"),
        ("Sydney", -33.87, 151.21, "AU"),
        ("São Paulo", -23.55, -46.63, "BR"),
        ("Nairobi", -1.29, 36.82, "KE"),
        ("Denver", 39.74, -104.99, "US"),
        ("Moscow", 55.76, 37.62, "RU"),
        ("Buenos Aires", -34.6, -58.38, "AR"),
        ("Reykjavík", 64.15, -21.94, "IS"),
        ("Anchorage", 61.22, -149.9, "US"),
        ("Suva", -18.14, 178.44, "FJ"),
    ] {
        assert_eq!(regions_at(Atlas::World, lat, lon), [code], "{city}");
    }
    // Sydney is on the coast, which 1:110m draws a kilometre inland of it:
    // every other city is strictly inside.
    for (lat, lon) in [
        (48.86, 2.35),
        (35.68, 139.69),
        (-23.55, -46.63),
        (-1.29, 36.82),
    ] {
        let at = project(Atlas::World, lat, lon).unwrap();
        assert!(atlas(Atlas::World).regions.iter().any(|r| in_region(r, at)));
    }
}

#[test]
fn cities_fall_in_their_state_on_the_us_atlas() {
    for (city, lat, lon, code) in [
        ("Denver", 39.74, -104.99, "CO"),
        ("Chicago", 41.88, -87.63, "IL"),
        ("Miami", 25.76, -80.19, "FL"),
        ("Seattle", 47.61, -122.33, "WA"),
        ("Anchorage", 61.22, -149.9, "AK"),
        ("Honolulu", 21.31, -157.86, "HI"),
        ("Fairbanks", 64.84, -147.72, "AK"),
        ("Hilo", 19.72, -155.08, "HI"),
        ("Austin", 30.27, -97.74, "TX"),
        ("Bangor", 44.8, -68.77, "ME"),
    ] {
        assert_eq!(regions_at(Atlas::UsStates, lat, lon), [code], "{city}");
    }
}

#[test]
fn what_is_off_the_us_map_projects_to_nothing() {
    // The insets' extents are rectangles: Vancouver and Toronto are on the
    // US map, as in d3; Mexico City, Iceland and the Caribbean are not.
    for (lat, lon) in [
        (48.86, 2.35),
        (19.5, -80.0),
        (19.43, -99.13),
        (64.15, -21.94),
    ] {
        assert_eq!(project(Atlas::UsStates, lat, lon), None, "{lat},{lon}");
    }
    assert!(project(Atlas::UsStates, 49.28, -123.12).is_some());
    // Every coordinate is on the world map, in its frame.
    let world = atlas(Atlas::World);
    for lat in [-90.0, -45.5, 0.0, 60.0, 90.0] {
        for lon in [-180.0, -1.0, 0.0, 179.9, 180.0] {
            let (x, y) = project(Atlas::World, lat, lon).unwrap();
            assert!(
                x >= -1e-9 && x <= f64::from(world.width) + 1e-3,
                "{lat},{lon}: {x}"
            );
            assert!(
                y >= -1e-9 && y <= f64::from(world.height) + 0.1,
                "{lat},{lon}: {y}"
            );
        }
    }
    assert_eq!(project(Atlas::World, f64::NAN, 0.0), None);
}

#[test]
fn region_centroids_lie_in_compact_regions() {
    for (which, code) in [
        (Atlas::World, "FR"),
        (Atlas::World, "DE"),
        (Atlas::World, "BR"),
        (Atlas::World, "AU"),
        (Atlas::UsStates, "CO"),
        (Atlas::UsStates, "TX"),
        (Atlas::UsStates, "AK"),
    ] {
        let region = lookup(which, code).unwrap();
        let at = region.centroid().unwrap();
        assert!(in_region(region, at), "{code}: {at:?}");
    }
}

// ---------------------------------------------------------------------------
// Drawing

fn lay_out(chart: &Chart, w: f64, h: f64) -> Scene {
    chart.scene(w, h, &chart.theme(Some(false)), true)
}

fn read(json: &str) -> Chart {
    Chart::from_json(json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// The (lat, lon, label) of every place of a card.
fn located(chart: &Chart) -> Vec<(f64, f64, String)> {
    let Card::Places(p) = &chart.card else {
        panic!("not a map")
    };
    p.places
        .iter()
        .filter_map(|place| match place.at {
            zdr_chart::model::At::LatLon(lat, lon) => {
                Some((lat, lon, place.label.clone().unwrap_or_default()))
            }
            zdr_chart::model::At::Region(_) => None,
        })
        .collect()
}

/// The base map's polygons: (count, bounding box).
fn base_map(scene: &Scene, faint: Color) -> (usize, Rect) {
    let mut count = 0;
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for item in &scene.items {
        if let Item::Polygon { points, fill } = item {
            assert_eq!(*fill, faint, "the base map is drawn in the faint colour");
            count += 1;
            for &(x, y) in points {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    (count, Rect::new(x0, y0, x1 - x0, y1 - y0))
}

fn polygons(which: Atlas, antarctica: bool) -> usize {
    atlas(which)
        .regions
        .iter()
        .filter(|r| antarctica || r.id != 10)
        .map(|r| r.polygons.len())
        .sum()
}

/// (min x, min y, max x, max y) of the atlas regions drawn.
fn atlas_frame(which: Atlas, antarctica: bool) -> (f64, f64, f64, f64) {
    atlas(which)
        .regions
        .iter()
        .filter(|r| antarctica || r.id != 10)
        .map(|r| r.bbox)
        .map(|b| {
            (
                f64::from(b.0),
                f64::from(b.1),
                f64::from(b.2),
                f64::from(b.3),
            )
        })
        .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)))
        .unwrap()
}

fn hit_point(scene: &Scene, label: &str) -> (f64, f64) {
    let hit = scene
        .hits
        .iter()
        .find(|h| h.label == label)
        .unwrap_or_else(|| panic!("no hit for {label}"));
    match hit.shape {
        HitShape::Point { x, y } => (x, y),
        HitShape::Wedge { cx, cy, .. } => (cx, cy),
        _ => panic!("{label}: {:?}", hit.shape),
    }
}

fn circles(scene: &Scene) -> Vec<((f64, f64), f64, Color, Role)> {
    scene
        .placed()
        .filter_map(|(role, item)| match item {
            Item::Circle {
                center,
                radius,
                fill: Some(fill),
                ..
            } => Some((*center, *radius, *fill, role)),
            _ => None,
        })
        .collect()
}

fn texts(scene: &Scene) -> Vec<(String, (f64, f64), Role)> {
    scene
        .placed()
        .filter_map(|(role, item)| match item {
            Item::Text { text, at, .. } => Some((text.clone(), *at, role)),
            _ => None,
        })
        .collect()
}

#[test]
fn dots_are_drawn_where_their_places_project() {
    let chart = example("map");
    let theme = chart.theme(Some(false));
    for (w, h) in [(400.0, 300.0), (800.0, 500.0), (1200.0, 700.0)] {
        let scene = lay_out(&chart, w, h);
        let plot = scene.plot.unwrap();
        // A world map without Antarctica, fitted uniformly into the plot.
        let (count, drawn) = base_map(&scene, theme.faint);
        assert_eq!(count, polygons(Atlas::World, false), "{w}x{h}");
        let (x0, y0, x1, y1) = atlas_frame(Atlas::World, false);
        let k = drawn.w / (x1 - x0);
        assert!((drawn.h / (y1 - y0) - k).abs() < 1e-6, "uniform scale");
        assert!(drawn.x >= plot.x - 1e-3 && drawn.right() <= plot.right() + 1e-3);
        assert!(drawn.y >= plot.y - 1e-3 && drawn.bottom() <= plot.bottom() + 1e-3);
        let dots = circles(&scene);
        for (lat, lon, label) in located(&chart) {
            let (ax, ay) = project(Atlas::World, lat, lon).unwrap();
            let want = (drawn.x + (ax - x0) * k, drawn.y + (ay - y0) * k);
            let got = hit_point(&scene, &label);
            assert!(
                (got.0 - want.0).abs() < 0.01 && (got.1 - want.1).abs() < 0.01,
                "{label} at {w}x{h}: {got:?}, want {want:?}"
            );
            assert!(plot.x <= got.0 && got.0 <= plot.right(), "{label}");
            assert!(plot.y <= got.1 && got.1 <= plot.bottom(), "{label}");
            // A dot in a series colour is drawn there, a mark of the plot.
            assert!(
                dots.iter().any(|(c, r, fill, role)| *c == got
                    && *r >= 2.0
                    && *role == Role::Mark
                    && (0..3).any(|s| *fill == theme.color(s))),
                "{label}: no dot"
            );
        }
    }
}

#[test]
fn each_series_has_its_colour_and_a_legend() {
    let chart = example("map");
    let theme = chart.theme(Some(false));
    let scene = lay_out(&chart, 800.0, 500.0);
    let plot = scene.plot.unwrap();
    let dots = circles(&scene);
    for (s, cities) in [
        (0, ["New York", "São Paulo"]),
        (1, ["London", "Stockholm"]),
        (2, ["Tokyo", "Sydney"]),
    ] {
        for city in cities {
            let at = hit_point(&scene, city);
            assert!(dots
                .iter()
                .any(|(c, _, fill, _)| *c == at && *fill == theme.color(s)));
            let hit = scene.hits.iter().find(|h| h.label == city).unwrap();
            let series = ["Americas", "Europe", "Asia Pacific"][s];
            assert_eq!(hit.series.as_deref(), Some(series), "{city}");
        }
    }
    // The legend: the series' names beside dots of their colours, above the
    // plot, as chrome.
    let texts = texts(&scene);
    for (s, name) in ["Americas", "Europe", "Asia Pacific"].iter().enumerate() {
        let (_, at, role) = texts.iter().find(|(t, ..)| t == name).unwrap();
        assert_eq!(*role, Role::Chrome);
        assert!(at.1 < plot.y, "{name}");
        assert!(dots.iter().any(|(c, _, fill, role)| *fill == theme.color(s)
            && *role == Role::Chrome
            && (c.1 - at.1).abs() < 1.0));
    }
    // One series: no legend.
    let one = read(&post(
        "map",
        r#"[{"lat":48.86,"lon":2.35,"label":"Paris"},{"lat":52.52,"lon":13.4,"label":"Berlin"}]"#,
    ));
    let scene = lay_out(&one, 800.0, 500.0);
    assert!(texts_of(&scene)
        .iter()
        .all(|t| t == "t" || t == "Paris" || t == "Berlin"));
}

fn texts_of(scene: &Scene) -> Vec<String> {
    texts(scene).into_iter().map(|(t, ..)| t).collect()
}

#[test]
fn labels_are_beside_their_dots_and_never_overlap() {
    for name in ["map", "bubble_map"] {
        let chart = example(name);
        for (w, h) in [(400.0, 300.0), (800.0, 500.0), (1200.0, 700.0)] {
            let scene = lay_out(&chart, w, h);
            let plot = scene.plot.unwrap();
            let size = if w < 420.0 { 10.0 } else { 11.0 };
            let mut boxes: Vec<Rect> = Vec::new();
            for (text, at, role) in texts(&scene) {
                if role != Role::Label || text.contains("people") {
                    continue;
                }
                // Beside its own place's mark.
                let mark = hit_point(&scene, &text);
                assert!((mark.1 - at.1).abs() < 1e-9, "{name} {text}");
                assert!((mark.0 - at.0).abs() < 80.0, "{name} {text}");
                let tw = width(&text, size, Weight::Regular);
                let x = if at.0 > mark.0 { at.0 } else { at.0 - tw };
                let b = Rect::new(x, at.1 - size * 0.6, tw, size * 1.2);
                assert!(b.x >= plot.x && b.right() <= plot.right(), "{name} {text}");
                assert!(
                    b.y >= plot.y && b.bottom() <= plot.bottom(),
                    "{name} {text}"
                );
                for other in &boxes {
                    let apart = b.right() <= other.x
                        || other.right() <= b.x
                        || b.bottom() <= other.y
                        || other.bottom() <= b.y;
                    assert!(apart, "{name} {w}x{h}: {text} overlaps another label");
                }
                boxes.push(b);
            }
            assert!(boxes.len() >= 5, "{name} {w}x{h}: {} labels", boxes.len());
        }
    }
}

#[test]
fn bubble_areas_are_proportional_to_values() {
    let chart = example("bubble_map");
    let theme = chart.theme(Some(false));
    let Card::Places(p) = &chart.card else {
        panic!()
    };
    for (w, h) in [(400.0, 300.0), (1200.0, 700.0)] {
        let scene = lay_out(&chart, w, h);
        let bubbles = circles(&scene);
        // Each place's bubble: the circle in the series colour at its place.
        let radius = |label: &str| {
            let at = hit_point(&scene, label);
            let found: Vec<f64> = bubbles
                .iter()
                .filter(|(c, _, fill, role)| {
                    *c == at && *fill == theme.color(0) && *role == Role::Mark
                })
                .map(|b| b.1)
                .collect();
            assert_eq!(found.len(), 1, "{label}");
            found[0]
        };
        let sized: Vec<(f64, f64)> = p
            .places
            .iter()
            .map(|place| (place.value, radius(place.label.as_deref().unwrap())))
            .collect();
        let (v0, r0) = sized[0];
        for &(v, r) in &sized {
            let ratio = (r * r / (r0 * r0)) / (v / v0);
            assert!((ratio - 1.0).abs() < 0.01, "{w}x{h}: {v} -> {r}");
        }
        // The largest bubble: a twelfth of the map at most, and whole in
        // the plot.
        let plot = scene.plot.unwrap();
        assert!(r0 <= plot.w.min(plot.h) / 12.0 + 1e-9 && r0 >= 5.0, "{r0}");
        for (label, (v, r)) in p.places.iter().zip(&sized) {
            let (x, y) = hit_point(&scene, label.label.as_deref().unwrap());
            assert!(
                x - r >= plot.x - 1e-6 && x + r <= plot.right() + 1e-6,
                "{v}"
            );
            assert!(
                y - r >= plot.y - 1e-6 && y + r <= plot.bottom() + 1e-6,
                "{v}"
            );
        }
    }
}

#[test]
fn the_size_legend_measures_with_the_bubbles_scale() {
    let chart = example("bubble_map");
    let theme = chart.theme(Some(false));
    for (w, h) in [(400.0, 300.0), (800.0, 500.0), (1200.0, 700.0)] {
        let scene = lay_out(&chart, w, h);
        let texts = texts(&scene);
        let new_york = {
            let at = hit_point(&scene, "New York");
            circles(&scene)
                .into_iter()
                .find(|(c, _, fill, _)| *c == at && *fill == theme.color(0))
                .unwrap()
                .1
        };
        // Rings: a circle in the muted colour with the background inside.
        let rings: Vec<f64> = circles(&scene)
            .into_iter()
            .filter(|(_, _, fill, _)| *fill == theme.muted)
            .map(|c| c.1)
            .collect();
        let values = [
            (8.0, "8 M people"),
            (2.0, "2 M people"),
            (0.5, "0.5 M people"),
        ];
        let shown: Vec<&(f64, &str)> = values
            .iter()
            .filter(|(_, t)| texts.iter().any(|(text, ..)| text == t))
            .collect();
        assert!(shown.len() >= 2, "{w}x{h}: {texts:?}");
        assert_eq!(rings.len(), shown.len(), "{w}x{h}");
        for (r, (v, _)) in rings.iter().zip(&shown) {
            let ratio = (r * r) / (new_york * new_york) / (v / 8.26);
            assert!((ratio - 1.0).abs() < 0.01, "{w}x{h}: {v} -> {r}");
        }
        // Outside the map's frame, inside the plot: marks of the plot, which
        // scale with the bubbles.
        let plot = scene.plot.unwrap();
        for (_, label, role) in texts.iter().filter(|(t, ..)| t.ends_with("M people")) {
            assert_eq!(*role, Role::Label);
            assert!(plot.x <= label.0 && label.0 <= plot.right(), "{label:?}");
        }
    }
    // A map of dots has no size legend.
    let map = example("map");
    let muted = map.theme(Some(false)).muted;
    let scene = lay_out(&map, 800.0, 500.0);
    assert!(circles(&scene).iter().all(|(_, _, fill, _)| *fill != muted));
}

#[test]
fn the_tooltip_under_a_place_names_it() {
    let chart = example("map");
    let scene = lay_out(&chart, 800.0, 500.0);
    assert_eq!(scene.hits.len(), 12);
    for (_, _, label) in located(&chart) {
        let at = hit_point(&scene, &label);
        let hit = scene.hits.at(at.0 + 1.0, at.1 - 1.0, 6.0).unwrap();
        assert_eq!(hit.label, label);
        // No value: the value line says where it is.
        assert!(hit.value.contains('°'), "{}", hit.value);
    }
    let chart = example("bubble_map");
    let scene = lay_out(&chart, 800.0, 500.0);
    assert_eq!(scene.hits.len(), 17);
    for (city, value) in [
        ("Chicago", "2.66 M people"),
        ("Denver", "0.72 M people"),
        ("Seattle", "0.75 M people"),
        ("Anchorage", "0.29 M people"),
        ("Honolulu", "0.35 M people"),
        ("Miami", "0.44 M people"),
    ] {
        let at = hit_point(&scene, city);
        let hit = scene.hits.at(at.0, at.1, 0.0).unwrap();
        assert_eq!((hit.label.as_str(), hit.value.as_str()), (city, value));
    }
    // New York's bubble away from Philadelphia's, which lies over it.
    let ny = scene.hits.iter().find(|h| h.label == "New York").unwrap();
    let HitShape::Wedge { cx, cy, outer, .. } = ny.shape else {
        panic!()
    };
    assert_eq!(
        scene.hits.at(cx, cy - outer * 0.8, 0.0).unwrap().label,
        "New York"
    );
    let philly = hit_point(&scene, "Philadelphia");
    assert_eq!(
        scene.hits.at(philly.0, philly.1, 0.0).unwrap().label,
        "Philadelphia"
    );
    // Off every bubble: nothing.
    assert!(scene.hits.at(cx, cy - outer - 3.0, 0.0).is_none() || outer < 4.0);
}

#[test]
fn bubbles_at_regions_sit_at_their_centre_and_say_its_name() {
    let chart = read(&post(
        "bubble_map",
        r#"[{"x":"CO","value":5},{"x":"TX","value":20},{"x":"Alaska","value":1},{"x":"ZZ","value":3}]"#,
    ));
    let theme = chart.theme(Some(false));
    let scene = lay_out(&chart, 800.0, 500.0);
    let (count, _) = base_map(&scene, theme.faint);
    assert_eq!(count, polygons(Atlas::UsStates, true));
    assert_eq!(scene.hits.len(), 3);
    for (name, value) in [("Colorado", "5"), ("Texas", "20"), ("Alaska", "1")] {
        let at = hit_point(&scene, name);
        let hit = scene.hits.at(at.0, at.1, 0.0).unwrap();
        assert_eq!((hit.label.as_str(), hit.value.as_str()), (name, value));
    }
    assert!(
        texts_of(&scene).contains(&"Not on the map: ZZ".to_string()),
        "{:?}",
        texts_of(&scene)
    );
    // Colorado's bubble is inside Colorado as drawn: its centroid, fitted as
    // the map is.
    let (_, drawn) = base_map(&scene, theme.faint);
    let (x0, y0, x1, _) = atlas_frame(Atlas::UsStates, true);
    let k = drawn.w / (x1 - x0);
    let co = hit_point(&scene, "Colorado");
    let back = ((co.0 - drawn.x) / k + x0, (co.1 - drawn.y) / k + y0);
    assert!(in_region(lookup(Atlas::UsStates, "CO").unwrap(), back));
}

/// The atlas a card is drawn on, by its base map.
fn drawn_atlas(json: &str) -> Atlas {
    let chart = read(json);
    let scene = lay_out(&chart, 640.0, 400.0);
    let (count, _) = base_map(&scene, chart.theme(Some(false)).faint);
    if count == polygons(Atlas::UsStates, true) {
        Atlas::UsStates
    } else {
        assert!(
            count == polygons(Atlas::World, false) || count == polygons(Atlas::World, true),
            "{count}"
        );
        Atlas::World
    }
}

#[test]
fn the_us_atlas_when_every_place_is_on_it() {
    let us = Atlas::UsStates;
    let world = Atlas::World;
    let map = |points: &str| drawn_atlas(&post("map", points));
    let bubbles = |points: &str| drawn_atlas(&post("bubble_map", points));
    assert_eq!(drawn_atlas(&zdr_test_support::example("bubble_map")), us);
    assert_eq!(drawn_atlas(&zdr_test_support::example("map")), world);
    assert_eq!(
        map(r#"[{"lat":61.22,"lon":-149.9},{"lat":21.31,"lon":-157.86}]"#),
        us,
        "Anchorage and Honolulu are in the insets"
    );
    assert_eq!(map(r#"[{"lat":39.74,"lon":-104.99}]"#), us);
    assert_eq!(
        map(r#"[{"lat":39.74,"lon":-104.99},{"lat":48.86,"lon":2.35}]"#),
        world
    );
    assert_eq!(
        map(r#"[{"lat":43.65,"lon":-79.38},{"lat":19.5,"lon":-80}]"#),
        world,
        "the Caribbean is off the US map"
    );
    assert_eq!(
        bubbles(r#"[{"x":"CA","value":1},{"x":"TX","value":2},{"x":"NY","value":3}]"#),
        us
    );
    assert_eq!(
        bubbles(r#"[{"x":"DE","value":1},{"x":"FRA","value":2}]"#),
        world
    );
    // Codes and coordinates: the US only if both are.
    assert_eq!(
        bubbles(r#"[{"x":"TX","value":1},{"lat":39.74,"lon":-104.99,"value":2}]"#),
        us
    );
    assert_eq!(
        bubbles(r#"[{"x":"DEU","value":1},{"lat":39.74,"lon":-104.99,"value":2}]"#),
        world
    );
    assert_eq!(
        bubbles(r#"[{"x":"TX","value":1},{"lat":48.86,"lon":2.35,"value":2}]"#),
        world
    );
    // Antarctica only when a place is down there.
    let south = read(&post("map", r#"[{"lat":-80,"lon":0}]"#));
    let scene = lay_out(&south, 640.0, 400.0);
    let faint = south.theme(Some(false)).faint;
    assert_eq!(base_map(&scene, faint).0, polygons(Atlas::World, true));
}

// ---------------------------------------------------------------------------
// Roles and hostile data

fn finite_scene(scene: &Scene, what: &str) {
    let ok = |v: f64| v.is_finite() && v.abs() < 1e6;
    for item in &scene.items {
        let fine = match item {
            Item::Circle { center, radius, .. } => ok(center.0) && ok(center.1) && ok(*radius),
            Item::Polygon { points, .. } | Item::Path { points, .. } => {
                points.iter().all(|p| ok(p.0) && ok(p.1))
            }
            Item::Text { at, .. } => ok(at.0) && ok(at.1),
            Item::Rect { rect, .. } | Item::Outline { rect, .. } => {
                ok(rect.x) && ok(rect.y) && ok(rect.w) && ok(rect.h)
            }
            Item::Sector { .. } => true,
        };
        assert!(fine, "{what}: {item:?}");
    }
    for hit in scene.hits.iter() {
        let fine = match hit.shape {
            HitShape::Point { x, y } => ok(x) && ok(y),
            HitShape::Wedge { cx, cy, outer, .. } => ok(cx) && ok(cy) && ok(outer),
            _ => false,
        };
        assert!(fine, "{what}: {:?}", hit.shape);
    }
}

/// The role contract of tests/scene.rs: marks (circles by their centre) in
/// the plot, labels are texts drawn with the marks.
fn roles_kept(scene: &Scene, what: &str) {
    let plot = scene.plot.unwrap();
    let grown = Rect::new(plot.x - 1.0, plot.y - 1.0, plot.w + 2.0, plot.h + 2.0);
    let mut marks = 0;
    for (role, item) in scene.placed() {
        match (role, item) {
            (Role::Label, Item::Text { .. }) | (Role::Chrome, _) => {}
            (Role::Label, other) => panic!("{what}: a label that is no text: {other:?}"),
            (Role::Mark, Item::Text { .. }) => panic!("{what}: a text as a mark"),
            (Role::Mark, Item::Circle { center, .. }) => {
                marks += 1;
                assert!(
                    center.0 >= grown.x
                        && center.0 <= grown.right()
                        && center.1 >= grown.y
                        && center.1 <= grown.bottom(),
                    "{what}: {item:?} off {plot:?}"
                );
            }
            (Role::Mark, _) => marks += 1,
        }
    }
    assert!(marks > 0, "{what}");
}

#[test]
fn every_item_keeps_its_role() {
    for name in ["map", "bubble_map"] {
        let chart = example(name);
        assert_eq!(chart.fit(), zdr_chart::scene::Fit::Scale);
        for (w, h) in [
            (320.0, 240.0),
            (320.0, 300.0),
            (400.0, 300.0),
            (420.0, 360.0),
            (900.0, 560.0),
            (1200.0, 700.0),
        ] {
            for dark in [false, true] {
                let theme = chart.theme(Some(dark));
                let with = chart.scene(w, h, &theme, true);
                let without = chart.scene(w, h, &theme, false);
                assert_eq!(with.items, without.items, "{name}: recording changed it");
                roles_kept(&with, &format!("{name} {w}x{h}"));
                finite_scene(&with, name);
            }
        }
    }
}

#[test]
fn hostile_places_draw_finite_and_bounded() {
    let many_at_one = list(MAX_PLACES, |i| {
        format!(
            r#"{{"lat":48.86,"lon":2.35,"label":"p{i}","value":{}}}"#,
            i % 7
        )
    });
    let corners = r#"[{"lat":90,"lon":180,"value":0},{"lat":-90,"lon":-180,"value":1e300},
        {"lat":90,"lon":-180,"value":1},{"lat":-90,"lon":180,"value":0}]"#;
    let spread = list(MAX_PLACES, |i| {
        let (lat, lon) = ((i % 181) as f64 - 90.0, ((i * 7) % 361) as f64 - 180.0);
        format!(
            r#"{{"lat":{lat},"lon":{lon},"value":{}}}"#,
            if i % 2 == 0 { 0.0 } else { 1e300 }
        )
    });
    let cases = [
        ("10,000 dots at one point", post("map", &many_at_one)),
        (
            "10,000 bubbles at one point",
            post("bubble_map", &many_at_one),
        ),
        ("poles and the antimeridian", post("map", corners)),
        ("bubbles at the poles", post("bubble_map", corners)),
        ("10,000 bubbles, 0 and 1e300", post("bubble_map", &spread)),
        ("10,000 dots everywhere", post("map", &spread)),
        ("one place", post("map", r#"[{"lat":0,"lon":0}]"#)),
        (
            "one bubble",
            post("bubble_map", r#"[{"lat":0,"lon":0,"value":0}]"#),
        ),
        (
            "only off the US extents",
            post("map", r#"[{"lat":19.5,"lon":-80},{"lat":55,"lon":-60}]"#),
        ),
        (
            "all zero",
            post(
                "bubble_map",
                r#"[{"x":"FR","value":0},{"x":"DE","value":0}]"#,
            ),
        ),
        (
            "no region known",
            post("bubble_map", r#"[{"x":"ZZ","value":3}]"#),
        ),
    ];
    for (what, json) in cases {
        let chart = read(&json);
        for (w, h) in [(320.0, 240.0), (1200.0, 700.0)] {
            let started = std::time::Instant::now();
            let scene = lay_out(&chart, w, h);
            let took = started.elapsed();
            finite_scene(&scene, what);
            if !what.starts_with("no region") {
                roles_kept(&scene, what);
            }
            // One mark per few pixels at most: the map's polygons, two or
            // three circles a place, a legend.
            assert!(scene.items.len() < 16_000, "{what}: {}", scene.items.len());
            assert!(scene.hits.len() <= MAX_PLACES, "{what}");
            assert!(took.as_secs_f64() < 5.0, "{what}: {took:?}");
            let _ = zdr_chart::paint::svg::write(&scene);
        }
    }
    // Every zero bubble is still a mark with its tooltip.
    let chart = read(&post(
        "bubble_map",
        r#"[{"lat":48.86,"lon":2.35,"label":"Zero","value":0},{"lat":52.52,"lon":13.4,"label":"Big","value":1e300}]"#,
    ));
    let scene = lay_out(&chart, 800.0, 500.0);
    let zero = hit_point(&scene, "Zero");
    let hit = scene.hits.at(zero.0, zero.1, 0.0).unwrap();
    assert_eq!((hit.label.as_str(), hit.value.as_str()), ("Zero", "0"));
}

/// How far the point is from the region's outline, in atlas units.
fn edge_distance(region: &Region, (x, y): (f64, f64)) -> f64 {
    let mut best = f64::MAX;
    for ring in region.polygons.iter().flatten() {
        let mut previous = *ring.last().unwrap();
        for &current in ring {
            let (x0, y0) = (f64::from(previous.0), f64::from(previous.1));
            let (x1, y1) = (f64::from(current.0), f64::from(current.1));
            let (dx, dy) = (x1 - x0, y1 - y0);
            let t =
                (((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy).max(1e-12)).clamp(0.0, 1.0);
            best = best.min(((x0 + t * dx - x).powi(2) + (y0 + t * dy - y).powi(2)).sqrt());
            previous = current;
        }
    }
    best
}
