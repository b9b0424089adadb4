//! choropleth: countries or US states filled by value on a sequential (or
//! diverging) ramp; regions without data stay neutral; codes that match no
//! region are named under the map.

use std::collections::HashMap;

use super::hit::{HitShape, Mark, Text};
use super::painter::{Align, Baseline, Font, Rect};
use super::ramp::{draw_color_legend, ColorScale};
use super::text::{self, Weight};
use super::{Ctx, DrawError};
use crate::geo::{atlas, guess_atlas, Atlas, Region};
use crate::model::Categorical;

/// Antarctica fills a sixth of a world map and rarely carries data.
const ANTARCTICA: u16 = 10;

pub fn draw(ctx: &Ctx<'_>, body: Rect, c: &Categorical) -> Result<(), DrawError> {
    let which = guess_atlas(&c.categories);
    let map = atlas(which);
    let values = c.series.first().map(|s| s.values.as_slice()).unwrap_or(&[]);
    let mut by_region: HashMap<u16, f64> = HashMap::new();
    let mut unknown: Vec<&str> = Vec::new();
    for (code, &v) in c.categories.iter().zip(values) {
        match map.lookup(code) {
            Some(region) => {
                if v.is_finite() {
                    by_region.insert(region.id, v);
                }
            }
            None => unknown.push(code),
        }
    }
    let scale = ColorScale::new(ctx.theme, by_region.values().copied());
    let mut body = draw_color_legend(ctx, body, &scale)?;
    if !unknown.is_empty() {
        let note = format!("Not on the map: {}", unknown.join(", "));
        let note = text::ellipsize(&note, ctx.sizes.small, Weight::Regular, body.w);
        ctx.p.text(
            &note,
            (body.x, body.bottom()),
            Font::new(ctx.sizes.small, Weight::Regular, ctx.theme.muted),
            Align::Start,
            Baseline::Bottom,
        )?;
        body = body.inset(0.0, 0.0, ctx.sizes.small * 1.3 + 6.0, 0.0);
    }

    ctx.p.set_plot(body);
    let regions: Vec<&Region> = map
        .regions
        .iter()
        .filter(|r| {
            !(which == Atlas::World && r.id == ANTARCTICA && !by_region.contains_key(&r.id))
        })
        .collect();
    let Some((x0, y0, x1, y1)) = regions
        .iter()
        .map(|r| r.bbox)
        .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)))
    else {
        return Ok(());
    };
    let (bw, bh) = (f64::from(x1 - x0).max(1.0), f64::from(y1 - y0).max(1.0));
    let k = (body.w / bw).min(body.h / bh);
    let ox = body.x + (body.w - bw * k) / 2.0 - f64::from(x0) * k;
    let oy = body.y + (body.h - bh * k) / 2.0 - f64::from(y0) * k;

    // Large regions first, so the ones they enclose (Lesotho in South
    // Africa) are drawn over them.
    let area = |r: &Region| f64::from(r.bbox.2 - r.bbox.0) * f64::from(r.bbox.3 - r.bbox.1);
    let areas: Vec<f64> = regions.iter().map(|r| area(r)).collect();
    for region in crate::order::ranked(&areas, true)
        .iter()
        .filter_map(|&i| regions.get(i))
    {
        let value = by_region.get(&region.id).copied();
        let fill = match value {
            Some(v) => scale.color(v),
            None => ctx.theme.faint,
        };
        // Regions with data answer tooltips; neutral ones say nothing.
        let mut rings: Vec<Vec<(f32, f32)>> = Vec::new();
        for polygon in &region.polygons {
            let Some(exterior) = polygon.first() else {
                continue;
            };
            let points: Vec<(f64, f64)> = exterior
                .iter()
                .map(|&(x, y)| (ox + f64::from(x) * k, oy + f64::from(y) * k))
                .collect();
            ctx.p.polygon(&points, fill)?;
            if value.is_some() && ctx.recording() {
                rings.push(points.iter().map(|&(x, y)| (x as f32, y as f32)).collect());
            }
            let mut closed = points;
            if let Some(&first) = closed.first() {
                closed.push(first);
            }
            ctx.p.line(&closed, ctx.theme.background, 0.5)?;
        }
        if let Some(v) = value {
            let (bx0, by0, bx1, by1) = region.bbox;
            let bounds = Rect::new(
                ox + f64::from(bx0) * k,
                oy + f64::from(by0) * k,
                f64::from(bx1 - bx0) * k,
                f64::from(by1 - by0) * k,
            );
            ctx.hit(|| Mark {
                shape: HitShape::Polygon { bounds, rings },
                series: None,
                label: Text::Ready(region.name.clone()),
                value: Text::Value(v),
            });
        }
    }
    Ok(())
}
