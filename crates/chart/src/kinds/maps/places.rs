//! map and bubble_map: places at latitude and longitude (or, for bubbles,
//! at the centre of a region named by a code) on the world or the US
//! atlas. A map marks each place with a dot in its series' colour; a
//! bubble map with a circle whose area is its value, and a legend of
//! reference sizes.
//!
//! The base map, the marks and the size legend are all the plot's marks:
//! where a painter scales the plot (maps keep their shape), the reference
//! circles scale with the bubbles they measure.

use std::f64::consts::{FRAC_PI_2, TAU};

use super::choropleth::{area, draw_region, not_on_the_map, Fitted};
use crate::geo::{atlas, guess_atlas, project, Atlas, Region};
use crate::label;
use crate::layout::chrome::Marker;
use crate::layout::pen::{Align, Baseline, Font, Rect};
use crate::layout::text::{self, Weight};
use crate::layout::theme::mix;
use crate::layout::Ctx;
use crate::model::{At, Places};
use crate::scene::hit::{Coarse, HitShape, Mark, Text, DENSE};

/// Antarctica's id: left off a world map unless a place lies that far south.
const ANTARCTICA: u16 = 10;
/// Dots drawn in one card at most; past it, one per few pixels.
const MAX_DOTS: usize = 4_000;
/// Bubbles drawn at most: each is three circles, and past a thousand they
/// only cover each other (the largest of a grid cell is kept).
const MAX_BUBBLES: usize = 1_000;
/// Past this many places, dots are drawn smaller and without a rim.
const DENSE_RIMS: usize = 1_000;
/// Places whose label is tried at most (the most important first).
const MAX_LABELS: usize = 300;

/// The atlas the places are drawn on: the US atlas when every place is on
/// it (coordinates inside the lower 48's, Alaska's or Hawaii's inset,
/// codes naming states), else the world.
fn choose_atlas(data: &Places) -> Atlas {
    let codes = || {
        data.places.iter().filter_map(|p| match &p.at {
            At::Region(code) => Some(code.as_str()),
            At::LatLon(..) => None,
        })
    };
    let mut located = data.places.iter().filter_map(|p| match p.at {
        At::LatLon(lat, lon) => Some((lat, lon)),
        At::Region(_) => None,
    });
    if located.clone().next().is_none() {
        return guess_atlas(codes());
    }
    let us = located.all(|(lat, lon)| project(Atlas::UsStates, lat, lon).is_some())
        && codes().all(|c| atlas(Atlas::UsStates).lookup(c).is_some());
    if us {
        Atlas::UsStates
    } else {
        Atlas::World
    }
}

/// A place as drawn: which, where and how big.
struct Drawn {
    /// Index into the card's places.
    index: usize,
    at: (f64, f64),
    radius: f64,
}

/// A bounding box in atlas units: x0, y0, x1, y1.
type Bounds = (f32, f32, f32, f32);

fn union(a: Bounds, b: Bounds) -> Bounds {
    (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))
}

/// How bubbles are sized: the largest value, and the radius (atlas units)
/// it would have before the map is fitted.
#[derive(Clone, Copy)]
struct Sizing {
    vmax: f64,
    largest: f64,
}

impl Sizing {
    /// The largest bubble's radius in CSS px once the map is fitted.
    fn max_r(self, fit: &Fitted) -> f64 {
        (self.largest * fit.k).min(60.0)
    }
}

#[inline(never)]
pub fn draw(ctx: &Ctx<'_>, body: Rect, data: &Places) {
    let which = choose_atlas(data);
    let map = atlas(which);
    let (spots, unknown) = locate(data, which, map);

    let legend = ctx.series_legend(data.series.iter().map(String::as_str), Marker::Dot);
    let mut body = ctx.legend(body, &legend);
    if !unknown.is_empty() {
        body = not_on_the_map(ctx, body, &unknown);
    }

    ctx.p.set_plot(body);
    let _marks = ctx.p.marking();
    let regions = shown_regions(map, which, &spots);
    // The frame holds every region and every place.
    let points = spots.iter().flatten().map(|&(x, y)| {
        let (x, y) = (x as f32, y as f32);
        (x, y, x, y)
    });
    let Some(frame) = regions.iter().map(|r| r.bbox).chain(points).reduce(union) else {
        return;
    };

    // Bubbles: the largest is a twelfth of the map's width or height (at
    // most 60 px), and the frame holds every bubble whole.
    let vmax = data
        .places
        .iter()
        .zip(&spots)
        .filter(|(p, at)| at.is_some() && p.value.is_finite())
        .fold(0.0f64, |m, (p, _)| m.max(p.value));
    let largest = f64::from((frame.2 - frame.0).min(frame.3 - frame.1)).max(1.0) / 12.0;
    let sizing = Sizing { vmax, largest };
    let bubbles = data.bubbles && vmax > 0.0;
    let frame = if bubbles {
        with_bubbles(data, &spots, frame, sizing)
    } else {
        frame
    };
    let (fit, sizes) = if bubbles {
        fit_with_key(ctx, body, frame, sizing)
    } else {
        (Fitted::new(frame, body), None)
    };

    let areas: Vec<f64> = regions.iter().map(|r| area(r)).collect();
    for region in crate::order::ranked(&areas, true)
        .iter()
        .filter_map(|&i| regions.get(i))
    {
        draw_region(ctx, region, &fit, ctx.theme.faint, false);
    }

    let dense = spots.iter().flatten().count() > DENSE_RIMS;
    let drawn = draw_marks(ctx, data, (which, &spots), (&fit, body), sizing);

    let mut taken: Vec<Rect> = Vec::new();
    if let Some((key, corner)) = &sizes {
        taken.push(key.draw(ctx, *corner));
    }
    // Among thousands, a few names say little and hide the dots.
    if !dense {
        draw_labels(ctx, data, &drawn, body, taken);
    }
}

/// Each place in atlas units, or None when it is not on the map; and the
/// region codes the atlas does not know.
fn locate(
    data: &Places,
    which: Atlas,
    map: &crate::geo::Map,
) -> (Vec<Option<(f64, f64)>>, Vec<String>) {
    let mut unknown: Vec<String> = Vec::new();
    let spots = data
        .places
        .iter()
        .map(|place| match &place.at {
            At::LatLon(lat, lon) => project(which, *lat, *lon),
            At::Region(code) => {
                let at = map.lookup(code).and_then(Region::centroid);
                if at.is_none() {
                    unknown.push(code.clone());
                }
                at
            }
        })
        .collect();
    (spots, unknown)
}

/// The regions drawn: Antarctica only when a place is down there.
fn shown_regions<'m>(
    map: &'m crate::geo::Map,
    which: Atlas,
    spots: &[Option<(f64, f64)>],
) -> Vec<&'m Region> {
    let south = map
        .regions
        .iter()
        .find(|r| which == Atlas::World && r.id == ANTARCTICA)
        .map_or(f64::INFINITY, |r| f64::from(r.bbox.1));
    let far_south = spots.iter().flatten().any(|&(_, y)| y >= south);
    map.regions
        .iter()
        .filter(|r| far_south || !(which == Atlas::World && r.id == ANTARCTICA))
        .collect()
}

/// `frame` grown to hold every bubble whole, at its unfitted size.
fn with_bubbles(
    data: &Places,
    spots: &[Option<(f64, f64)>],
    mut frame: Bounds,
    sizing: Sizing,
) -> Bounds {
    for (place, spot) in data.places.iter().zip(spots) {
        if let (Some((x, y)), true) = (spot, place.value >= 0.0) {
            let r = sizing.largest * (place.value / sizing.vmax).sqrt();
            let b = (
                (x - r) as f32,
                (y - r) as f32,
                (x + r) as f32,
                (y + r) as f32,
            );
            frame = union(frame, b);
        }
    }
    frame
}

/// The key of bubble sizes and its top left corner.
type Placed = (SizeKey, (f64, f64));

/// The map fitted beside or under its key of bubble sizes, as the width
/// class's layout chooses, and the key with its top left corner (none when
/// the bubbles are too small for one).
fn fit_with_key(
    ctx: &Ctx<'_>,
    body: Rect,
    frame: Bounds,
    sizing: Sizing,
) -> (Fitted, Option<Placed>) {
    let span = |fit: &Fitted| {
        (
            f64::from(frame.2 - frame.0).max(1.0) * fit.k,
            f64::from(frame.3 - frame.1).max(1.0) * fit.k,
        )
    };
    let gap = 12.0;
    let room = |r: Rect, key: &SizeKey, beside: bool| {
        if beside {
            r.inset(0.0, key.w + gap, 0.0, 0.0)
        } else {
            r.inset(0.0, 0.0, key.h + gap, 0.0)
        }
    };
    let vmax = sizing.vmax;
    let class = ctx.class_body(body);
    let first = Fitted::new(frame, class);
    let key = SizeKey::new(ctx, vmax, sizing.max_r(&first));
    let (w, h) = span(&first);
    let beside = class.w - w >= key.w + gap
        || (class.h - h < key.h + gap
            && Fitted::new(frame, room(class, &key, true)).k
                > Fitted::new(frame, room(class, &key, false)).k);
    let key = SizeKey::new(ctx, vmax, sizing.max_r(&Fitted::new(frame, body)));
    let fit = Fitted::new(frame, room(body, &key, beside));
    let key = SizeKey::new(ctx, vmax, sizing.max_r(&fit));
    let (x0, y0) = fit.at((f64::from(frame.0), f64::from(frame.1)));
    let (w, h) = span(&fit);
    let corner = if beside {
        (x0 + w + gap, y0 + h - key.h)
    } else {
        (x0, y0 + h + gap)
    };
    let sizes = (!key.rows.is_empty() && key.max_r >= 3.0).then_some((key, corner));
    (fit, sizes)
}

/// Too many places to draw: one per cell of a grid, the finest (from the
/// size of a dot) that keeps at most `limit` cells taken.
fn thinning(spots: &[Option<(f64, f64)>], fit: &Fitted, body: Rect, limit: usize) -> Coarse {
    let mut cell = 4.0;
    loop {
        let mut grid = Coarse::new(body, cell);
        let taken = spots
            .iter()
            .flatten()
            .filter(|&&spot| grid.first(fit.at(spot)))
            .count();
        if taken <= limit || cell > body.w.max(body.h) {
            return Coarse::new(body, cell);
        }
        cell *= 1.5;
    }
}

/// The dots or bubbles, recorded for tooltips: bubbles largest first, so
/// that small ones stay on top; dots in the data's order.
fn draw_marks(
    ctx: &Ctx<'_>,
    data: &Places,
    (which, spots): (Atlas, &[Option<(f64, f64)>]),
    (fit, body): (&Fitted, Rect),
    sizing: Sizing,
) -> Vec<Drawn> {
    let keys: Vec<f64> = data
        .places
        .iter()
        .map(|p| if p.value.is_finite() { p.value } else { -1.0 })
        .collect();
    let order = if data.bubbles {
        crate::order::ranked(&keys, true)
    } else {
        (0..data.places.len()).collect()
    };
    let count = spots.iter().flatten().count();
    let dense = count > DENSE_RIMS;
    let limit = if data.bubbles { MAX_BUBBLES } else { MAX_DOTS };
    let mut shared = (count > limit).then(|| thinning(spots, fit, body, limit));
    let max_radius = sizing.max_r(fit);
    let mut coarse = (ctx.recording() && count > DENSE).then(|| Coarse::new(body, 8.0));
    let mut drawn: Vec<Drawn> = Vec::new();
    for &index in &order {
        let (Some(place), Some(Some(spot))) = (data.places.get(index), spots.get(index)) else {
            continue;
        };
        let at = fit.at(*spot);
        if !shared.as_mut().is_none_or(|grid| grid.first(at)) {
            continue;
        }
        let color = ctx.theme.color(place.series);
        let radius = if data.bubbles {
            let v = place.value;
            if !(v >= 0.0 && v.is_finite()) {
                continue;
            }
            bubble(ctx, at, max_radius * (v / sizing.vmax).sqrt(), color)
        } else {
            let r = if dense { 2.0 } else { 4.0 };
            if !dense {
                ctx.p.circle(at, r + 1.5, ctx.theme.background);
            }
            ctx.p.circle(at, r, color);
            r
        };
        if coarse.as_mut().is_none_or(|c| c.first(at)) {
            ctx.hit(|| hit(ctx, data, which, index, at, radius));
        }
        drawn.push(Drawn { index, at, radius });
    }
    drawn
}

/// One bubble of radius `r` at `at`; the radius it takes (at least 1).
fn bubble(ctx: &Ctx<'_>, at: (f64, f64), r: f64, color: crate::scene::Color) -> f64 {
    // Too small to see as a disc: a dot says the place is there.
    if r < 1.0 {
        ctx.p.circle(at, 1.0, color);
    } else {
        ctx.p.circle(at, r + 1.0, ctx.theme.background);
        ctx.p.circle(at, r, color);
        if r > 3.0 {
            ctx.p
                .circle(at, r - 1.0, mix(color, ctx.theme.background, 0.35));
        }
    }
    r.max(1.0)
}

/// What a place's tooltip says: its label (or its region's name, or its
/// coordinates) and its value.
fn hit(ctx: &Ctx<'_>, data: &Places, which: Atlas, index: usize, at: (f64, f64), r: f64) -> Mark {
    let place = data.places.get(index);
    let coordinates = place.and_then(|p| match p.at {
        At::LatLon(lat, lon) => Some(format!(
            "{}, {}",
            label::degrees(lat, 'N', 'S'),
            label::degrees(lon, 'E', 'W')
        )),
        At::Region(_) => None,
    });
    let name = place.and_then(|p| {
        p.label.clone().or_else(|| match &p.at {
            At::Region(code) => atlas(which).lookup(code).map(|r| r.name.clone()),
            At::LatLon(..) => None,
        })
    });
    let value = place.map_or(f64::NAN, |p| p.value);
    let series = place.map_or(0, |p| p.series);
    let named = name.is_some();
    Mark {
        shape: if data.bubbles {
            HitShape::Wedge {
                cx: at.0,
                cy: at.1,
                inner: 0.0,
                outer: r.max(4.0),
                start: -FRAC_PI_2,
                end: -FRAC_PI_2 + TAU,
            }
        } else {
            HitShape::Point { x: at.0, y: at.1 }
        },
        series: ctx.series(
            data.series.len(),
            data.series.get(series).map_or("", String::as_str),
        ),
        label: Text::Ready(name.or_else(|| coordinates.clone()).unwrap_or_default()),
        value: if value.is_finite() {
            Text::Value(value)
        } else {
            Text::Ready(coordinates.filter(|_| named).unwrap_or_default())
        },
    }
}

/// Labels beside their marks where they fit: inside the plot, over no
/// other label and no other mark; the largest values (then the earliest
/// places) first. The rest are left to the tooltip.
fn draw_labels(ctx: &Ctx<'_>, data: &Places, drawn: &[Drawn], plot: Rect, mut taken: Vec<Rect>) {
    let size = ctx.sizes.small;
    let font = Font::new(size, Weight::Regular, ctx.theme.text);
    let keys: Vec<f64> = drawn
        .iter()
        .map(|d| {
            data.places
                .get(d.index)
                .map_or(f64::NAN, |p| p.value)
                .max(f64::MIN)
        })
        .collect();
    // Over a mark (its rim included), or another label.
    let covers = |d: &Drawn, r: &Rect| {
        let dx = (r.x - d.at.0).max(d.at.0 - r.right()).max(0.0);
        let dy = (r.y - d.at.1).max(d.at.1 - r.bottom()).max(0.0);
        dx * dx + dy * dy < (d.radius + 1.5) * (d.radius + 1.5)
    };
    let overlaps = |a: &Rect, b: &Rect| {
        a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom()
    };
    let mut tried = 0;
    for i in crate::order::ranked(&keys, true) {
        let Some(d) = drawn.get(i) else {
            continue;
        };
        let Some(name) = data.places.get(d.index).and_then(|p| p.label.as_deref()) else {
            continue;
        };
        if name.trim().is_empty() {
            continue;
        }
        tried += 1;
        if tried > MAX_LABELS {
            break;
        }
        let name = text::ellipsize(name, size, Weight::Regular, 140.0);
        let w = text::width(&name, size, Weight::Regular);
        let gap = d.radius + 3.0;
        // A label points into the map: where its dot lies decides the
        // side, as a fraction of the plot, so every mode and frame size
        // picks the same one, and a map the page shrinks keeps its labels
        // inside the frame (they keep their size).
        let sides = [(d.at.0 + gap, Align::Start), (d.at.0 - gap - w, Align::End)];
        let inward = if d.at.0 > plot.x + plot.w * 0.5 {
            &sides[1..]
        } else {
            &sides[..1]
        };
        for &(x, align) in inward {
            let rect = Rect::new(x, d.at.1 - size * 0.6, w, size * 1.2);
            let inside = rect.x >= plot.x
                && rect.right() <= plot.right()
                && rect.y >= plot.y
                && rect.bottom() <= plot.bottom();
            if !inside
                || taken.iter().any(|t| overlaps(t, &rect))
                || drawn
                    .iter()
                    .enumerate()
                    .any(|(j, other)| j != i && covers(other, &rect))
            {
                continue;
            }
            let anchor = if align == Align::Start { x } else { x + w };
            ctx.p
                .text(&name, (anchor, d.at.1), font, align, Baseline::Middle);
            taken.push(rect);
            break;
        }
    }
}

/// The legend of a bubble map's sizes: nested circles for two or three
/// round values, each labelled at its top.
struct SizeKey {
    /// (value, radius, label), the largest first.
    rows: Vec<(f64, f64, String)>,
    max_r: f64,
    w: f64,
    h: f64,
}

impl SizeKey {
    fn new(ctx: &Ctx<'_>, vmax: f64, max_r: f64) -> SizeKey {
        let units = ctx.units();
        let size = ctx.sizes.small;
        let mut rows: Vec<(f64, f64, String)> = Vec::new();
        let mut v = round_down(vmax);
        for _ in 0..3 {
            let r = max_r * (v / vmax).sqrt();
            // Each label a line below the last.
            let last = rows.last().map_or(f64::INFINITY, |row| row.1);
            if !(r.is_finite() && r >= 3.0 && 2.0 * (last - r) >= size * 1.2) {
                break;
            }
            rows.push((v, r, label::value(v, units)));
            v = round_down(v / 4.0);
        }
        let top = rows.first().map_or(0.0, |row| row.1);
        let labels = rows
            .iter()
            .map(|row| text::width(&row.2, size, Weight::Regular))
            .fold(0.0, f64::max);
        SizeKey {
            max_r: top,
            w: 2.0 * top + 8.0 + labels,
            h: 2.0 * top + size * 0.6,
            rows,
        }
    }

    /// Draws the key with its top left at `corner`; returns its bounds.
    fn draw(&self, ctx: &Ctx<'_>, corner: (f64, f64)) -> Rect {
        let size = ctx.sizes.small;
        let cx = corner.0 + self.max_r;
        let bottom = corner.1 + self.h;
        let line = ctx.theme.muted;
        for (_, r, _) in &self.rows {
            ctx.p.circle((cx, bottom - r), *r, line);
            ctx.p
                .circle((cx, bottom - r), r - 1.0, ctx.theme.background);
        }
        let x = cx + self.max_r + 4.0;
        for (_, r, text) in &self.rows {
            let y = bottom - 2.0 * r;
            ctx.p.line(&[(cx, y), (x, y)], line, 1.0);
            ctx.p.text(
                text,
                (x + 3.0, y),
                Font::new(size, Weight::Regular, ctx.theme.muted),
                Align::Start,
                Baseline::Middle,
            );
        }
        Rect::new(corner.0, corner.1, self.w, self.h)
    }
}

/// The largest round number at most `v`: one significant digit, or 1.5,
/// 2.5 (8.26 gives 8; 0.29 gives 0.25; 1,300 gives 1,000).
fn round_down(v: f64) -> f64 {
    let power = crate::math::powf(10.0, crate::math::log10(v).floor());
    if !(power.is_finite() && power > 0.0) {
        return v;
    }
    let m = v / power;
    let steps = [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0];
    let step = steps
        .iter()
        .copied()
        .take_while(|&s| s <= m * (1.0 + 1e-9))
        .last()
        .unwrap_or(1.0);
    step * power
}
