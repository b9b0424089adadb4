//! The atlases against the previous ones (format version 1, kept in
//! `geo/v1/` for this test only): nothing visible was lost, and neighbours
//! still share their borders point for point.
//!
//! The converter proves the bound against the source data itself (it stops
//! if any source point lies farther than the tolerance from the output); the
//! version-1 atlases, rounded to 0.1 unit and simplified at 0.1 (world) and
//! 0.5 unit (US), are the independent witness here.

use super::{atlas, Atlas, Map};

/// The stated tolerance: half a CSS pixel when the atlas fills the largest
/// frame, 1,600 px wide (world: 1000 units wide; US: 1033 units with the
/// Aleutians).
const HALF_PIXEL: [(Atlas, f64); 2] = [
    (Atlas::World, 0.5 * 1000.0 / 1600.0),
    (Atlas::UsStates, 0.5 * 1033.0 / 1600.0),
];

/// How far version 1 itself was from the source: its Douglas-Peucker
/// tolerance plus half a diagonal of its 0.1-unit grid.
fn v1_error(which: Atlas) -> f64 {
    let dp = if which == Atlas::World { 0.1 } else { 0.5 };
    dp + 0.05 * std::f64::consts::SQRT_2
}

type Rings = Vec<Vec<(f64, f64)>>;

/// Regions of a version-1 blob: (id, polygons of rings in atlas units).
fn read_v1(bytes: &[u8]) -> Vec<(u16, Vec<Rings>)> {
    let mut pos = 0usize;
    let mut u8_at = || {
        let b = bytes.get(pos).copied().unwrap_or(0);
        pos += 1;
        b
    };
    let mut take = |n: usize| (0..n).map(|_| u8_at()).collect::<Vec<u8>>();
    let u16_of = |b: &[u8]| u16::from(b[0]) | u16::from(b[1]) << 8;
    let header = take(18);
    assert_eq!(&header[..5], b"ZGEO\x01");
    let divisor = f64::from(u16_of(&header[6..]));
    let origin = (
        f64::from(u16_of(&header[8..]) as i16),
        f64::from(u16_of(&header[10..]) as i16),
    );
    let count = u16_of(&header[16..]);
    let varint = |take: &mut dyn FnMut(usize) -> Vec<u8>| {
        let (mut v, mut shift) = (0u32, 0);
        loop {
            let b = take(1)[0];
            v |= u32::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                return v;
            }
        }
    };
    let mut regions = Vec::new();
    for _ in 0..count {
        let id = u16_of(&take(2));
        for _ in 0..2 {
            let n = take(1)[0];
            take(usize::from(n));
        }
        let names = take(1)[0];
        for _ in 0..names {
            let n = take(1)[0];
            take(usize::from(n));
        }
        let mut polygons = Vec::new();
        for _ in 0..varint(&mut take) {
            let mut rings = Vec::new();
            for _ in 0..varint(&mut take) {
                let n = varint(&mut take);
                let first = take(4);
                let (mut x, mut y) = (i64::from(u16_of(&first)), i64::from(u16_of(&first[2..])));
                let mut ring = Vec::new();
                for k in 0..n {
                    if k > 0 {
                        let zz = |v: u32| (i64::from(v) >> 1) ^ -(i64::from(v) & 1);
                        x += zz(varint(&mut take));
                        y += zz(varint(&mut take));
                    }
                    ring.push((
                        (origin.0 + x as f64) / divisor,
                        (origin.1 + y as f64) / divisor,
                    ));
                }
                rings.push(ring);
            }
            polygons.push(rings);
        }
        regions.push((id, polygons));
    }
    regions
}

fn current(map: &Map, id: u16) -> Vec<Rings> {
    map.regions
        .iter()
        .find(|r| r.id == id)
        .map(|r| {
            r.polygons
                .iter()
                .map(|p| {
                    p.iter()
                        .map(|ring| {
                            ring.iter()
                                .map(|&(x, y)| (f64::from(x), f64::from(y)))
                                .collect()
                        })
                        .collect()
                })
                .collect()
        })
        .unwrap_or_default()
}

fn segment_distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a.0 + t * dx - p.0).hypot(a.1 + t * dy - p.1)
}

/// Distance from `p` to the nearest edge of any ring of `polygons`.
fn outline_distance(p: (f64, f64), polygons: &[Rings]) -> f64 {
    let mut best = f64::INFINITY;
    for ring in polygons.iter().flatten() {
        for (i, &a) in ring.iter().enumerate() {
            let b = ring.get(i + 1).or(ring.first()).copied().unwrap_or(a);
            best = best.min(segment_distance(p, a, b));
        }
    }
    best
}

/// [min x, min y, max x, max y] of a polygon's rings.
fn bounds(polygon: &Rings) -> [f64; 4] {
    polygon
        .iter()
        .flatten()
        .fold([f64::MAX, f64::MAX, f64::MIN, f64::MIN], |b, p| {
            [b[0].min(p.0), b[1].min(p.1), b[2].max(p.0), b[3].max(p.1)]
        })
}

fn v1_blob(which: Atlas) -> &'static [u8] {
    match which {
        Atlas::World => include_bytes!("../../geo/v1/world.bin"),
        Atlas::UsStates => include_bytes!("../../geo/v1/us-states.bin"),
    }
}

#[test]
fn no_visible_loss_against_the_previous_atlas() {
    for (which, tolerance) in HALF_PIXEL {
        let map = atlas(which);
        let old = read_v1(v1_blob(which));
        assert_eq!(old.len(), map.regions.len(), "{which:?}: same regions");
        let bound = tolerance + v1_error(which);
        let mut worst = 0.0f64;
        for (id, old_polygons) in &old {
            let new_polygons = current(map, *id);
            // Every old boundary point is still drawn, within the bound.
            for &p in old_polygons.iter().flatten().flatten() {
                let d = outline_distance(p, &new_polygons);
                worst = worst.max(d);
                assert!(d <= bound, "{which:?} {id}: old point {p:?} is {d} away");
            }
            // Every new point is on the old outline, except on islets that
            // version 1 simplified away. Both versions keep only source points
            // (rounded: at most 0.295 and 0.071 unit away), so a polygon v1
            // kept has a box within 0.37 unit of the new polygon's box.
            let boxes: Vec<[f64; 4]> = old_polygons.iter().map(bounds).collect();
            for polygon in &new_polygons {
                let [x0, y0, x1, y1] = bounds(polygon);
                let m = 0.37;
                let dropped_in_v1 = !boxes.iter().any(|b| {
                    (b[0] - x0).abs() <= m
                        && (b[1] - y0).abs() <= m
                        && (b[2] - x1).abs() <= m
                        && (b[3] - y1).abs() <= m
                });
                for &p in polygon.iter().flatten() {
                    let d = outline_distance(p, old_polygons);
                    assert!(
                        dropped_in_v1 || d <= bound,
                        "{which:?} {id}: new point {p:?} is {d} away"
                    );
                }
            }
        }
        assert!(
            worst > 0.0,
            "{which:?}: the atlases differ, the test measured something"
        );
    }
}

#[test]
fn neighbours_share_their_borders_edge_for_edge() {
    // Where an edge of one region runs along another region's outline (both
    // ends and the middle within `near`), the other region has that very
    // edge: one border, stored once, no gap or sliver between the two.
    for (which, near) in [(Atlas::UsStates, 0.1), (Atlas::World, 0.05)] {
        let map = atlas(which);
        let mut shared = 0usize;
        for a in &map.regions {
            let a_polygons = current(map, a.id);
            for b in map.regions.iter().filter(|b| b.id != a.id) {
                let (ab, bb) = (a.bbox, b.bbox);
                if ab.2 < bb.0 || bb.2 < ab.0 || ab.3 < bb.1 || bb.3 < ab.1 {
                    continue;
                }
                let b_polygons = current(map, b.id);
                let b_edges: Vec<((f64, f64), (f64, f64))> = b_polygons
                    .iter()
                    .flatten()
                    .flat_map(|ring| {
                        ring.iter()
                            .zip(ring.iter().skip(1).chain(ring.first()))
                            .map(|(&p, &q)| (p, q))
                    })
                    .collect();
                for ring in a_polygons.iter().flatten() {
                    for (&p, &q) in ring.iter().zip(ring.iter().skip(1).chain(ring.first())) {
                        let mid = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
                        if [p, q, mid]
                            .iter()
                            .all(|&x| outline_distance(x, &b_polygons) <= near)
                        {
                            assert!(
                                b_edges.contains(&(q, p)) || b_edges.contains(&(p, q)),
                                "{which:?}: {} runs along {} from {p:?} to {q:?} without sharing the edge",
                                a.name,
                                b.name
                            );
                            shared += 1;
                        }
                    }
                }
            }
        }
        assert!(shared > 100, "{which:?}: {shared} shared border edges");
    }
}
