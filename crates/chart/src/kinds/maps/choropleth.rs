//! choropleth: countries or US states filled by value on a sequential (or
//! diverging) ramp; regions without data stay neutral; codes that match no
//! region are named under the map.

use crate::geo::{atlas, guess_atlas, Atlas, Region};
use crate::layout::pen::{Align, Baseline, Font, Rect};
use crate::layout::ramp::{draw_color_legend, ColorScale};
use crate::layout::text::{self, Weight};
use crate::layout::Ctx;
use crate::model::Categorical;
use crate::scene::hit::{HitShape, Mark, Text};
use crate::scene::Color;

/// Antarctica fills a sixth of a world map and rarely carries data.
const ANTARCTICA: u16 = 10;

#[inline(never)]
pub fn draw(ctx: &Ctx<'_>, body: Rect, c: &Categorical) {
    let which = guess_atlas(&c.categories);
    let map = atlas(which);
    let values = c.series.first().map(|s| s.values.as_slice()).unwrap_or(&[]);
    // Values by region index: at most one per region, the last one wins.
    let mut by_region: Vec<Option<f64>> = vec![None; map.regions.len()];
    // Strings, not &str: one copy of `join` in the module serves every list.
    let mut unknown: Vec<String> = Vec::new();
    for (code, &v) in c.categories.iter().zip(values) {
        match map.position(code) {
            Some(i) => {
                if let (true, Some(slot)) = (v.is_finite(), by_region.get_mut(i)) {
                    *slot = Some(v);
                }
            }
            None => unknown.push(code.clone()),
        }
    }
    let scale = ColorScale::new(ctx.theme, by_region.iter().flatten().copied());
    let mut body = draw_color_legend(ctx, body, &scale);
    if !unknown.is_empty() {
        body = not_on_the_map(ctx, body, &unknown);
    }

    ctx.p.set_plot(body);
    let _marks = ctx.p.marking();
    let regions: Vec<(&Region, Option<f64>)> = map
        .regions
        .iter()
        .zip(by_region)
        .filter(|(r, v)| !(which == Atlas::World && r.id == ANTARCTICA && v.is_none()))
        .collect();
    let Some((x0, y0, x1, y1)) = regions
        .iter()
        .map(|(r, _)| r.bbox)
        .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)))
    else {
        return;
    };
    let fit = Fitted::new((x0, y0, x1, y1), body);

    // Large regions first, so the ones they enclose (Lesotho in South
    // Africa) are drawn over them.
    let areas: Vec<f64> = regions.iter().map(|(r, _)| area(r)).collect();
    for &(region, value) in crate::order::ranked(&areas, true)
        .iter()
        .filter_map(|&i| regions.get(i))
    {
        let fill = match value {
            Some(v) => scale.color(v),
            None => ctx.theme.faint,
        };
        // Regions with data answer tooltips; neutral ones say nothing.
        let rings = draw_region(ctx, region, &fit, fill, value.is_some() && ctx.recording());
        if let Some(v) = value {
            let (bx0, by0, bx1, by1) = region.bbox;
            let bounds = Rect::new(
                fit.ox + f64::from(bx0) * fit.k,
                fit.oy + f64::from(by0) * fit.k,
                f64::from(bx1 - bx0) * fit.k,
                f64::from(by1 - by0) * fit.k,
            );
            ctx.hit(|| Mark {
                shape: HitShape::Polygon { bounds, rings },
                series: None,
                label: Text::Ready(region.name.clone()),
                value: Text::Value(v),
            });
        }
    }
}

/// Atlas units onto the page: (x, y) lands at (ox + x k, oy + y k).
#[derive(Debug, Clone, Copy)]
pub(super) struct Fitted {
    pub ox: f64,
    pub oy: f64,
    pub k: f64,
}

impl Fitted {
    /// The atlas frame `(x0, y0, x1, y1)` scaled uniformly into `body`,
    /// centred.
    pub fn new((x0, y0, x1, y1): (f32, f32, f32, f32), body: Rect) -> Fitted {
        let (bw, bh) = (f64::from(x1 - x0).max(1.0), f64::from(y1 - y0).max(1.0));
        let k = (body.w / bw).min(body.h / bh);
        let ox = body.x + (body.w - bw * k) / 2.0 - f64::from(x0) * k;
        let oy = body.y + (body.h - bh * k) / 2.0 - f64::from(y0) * k;
        Fitted { ox, oy, k }
    }

    pub fn at(&self, (x, y): (f64, f64)) -> (f64, f64) {
        (self.ox + x * self.k, self.oy + y * self.k)
    }
}

/// The area of a region's bounding box: regions are drawn largest first,
/// so the ones they enclose (Lesotho in South Africa) are drawn over them.
pub(super) fn area(r: &Region) -> f64 {
    f64::from(r.bbox.2 - r.bbox.0) * f64::from(r.bbox.3 - r.bbox.1)
}

/// Fills each part of `region` and outlines it in the background colour;
/// returns the outer rings as drawn when `keep_rings` (for its hit shape).
pub(super) fn draw_region(
    ctx: &Ctx<'_>,
    region: &Region,
    fit: &Fitted,
    fill: Color,
    keep_rings: bool,
) -> Vec<Vec<(f32, f32)>> {
    let mut rings: Vec<Vec<(f32, f32)>> = Vec::new();
    for polygon in &region.polygons {
        let Some(exterior) = polygon.first() else {
            continue;
        };
        let points: Vec<(f64, f64)> = exterior
            .iter()
            .map(|&(x, y)| fit.at((f64::from(x), f64::from(y))))
            .collect();
        ctx.p.polygon(&points, fill);
        if keep_rings {
            rings.push(points.iter().map(|&(x, y)| (x as f32, y as f32)).collect());
        }
        let mut closed = points;
        if let Some(&first) = closed.first() {
            closed.push(first);
        }
        ctx.p.line(&closed, ctx.theme.background, 0.5);
    }
    rings
}

/// "Not on the map: ZZ, XX" under a map whose codes name no region; the
/// room left above it.
pub(super) fn not_on_the_map(ctx: &Ctx<'_>, body: Rect, unknown: &[String]) -> Rect {
    let note = format!("Not on the map: {}", unknown.join(", "));
    let note = text::ellipsize(&note, ctx.sizes.small, Weight::Regular, body.w);
    ctx.p.text(
        &note,
        (body.x, body.bottom()),
        Font::new(ctx.sizes.small, Weight::Regular, ctx.theme.muted),
        Align::Start,
        Baseline::Bottom,
    );
    body.inset(0.0, 0.0, ctx.sizes.small * 1.3 + 6.0, 0.0)
}
