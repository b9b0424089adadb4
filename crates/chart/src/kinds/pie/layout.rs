//! pie: slices clockwise from twelve o'clock, small slices folded into
//! "Other", percentages on the slices that have room, a legend beside.

use std::f64::consts::{FRAC_PI_2, TAU};

use crate::scene::Color;

use super::slices;
use crate::label::{self, percent};
use crate::layout::chrome::{LegendEntry, Marker};
use crate::layout::pen::{Align, Baseline, Font, Rect};
use crate::layout::text::{self, Weight};
use crate::layout::Ctx;
use crate::model::Categorical;
use crate::scene::hit::{HitShape, Mark, Text};

#[inline(never)]
pub fn draw(ctx: &Ctx<'_>, body: Rect, c: &Categorical) {
    let slices = slices(c);
    let total: f64 = slices.iter().map(|s| s.value).sum();
    let colors: Vec<Color> = (0..slices.len()).map(|i| ctx.theme.color(i)).collect();
    let entries: Vec<LegendEntry> = slices
        .iter()
        .zip(&colors)
        .map(|(s, &color)| {
            LegendEntry::new(
                format!("{} {}", s.label, percent(s.value / total)),
                color,
                Marker::Square,
            )
        })
        .collect();

    // Legend on the right when the card is wide, on top when it is narrow,
    // chosen at the width class's layout (every frame of the class
    // chooses alike).
    let size = ctx.sizes.tick;
    let legend_w = entries
        .iter()
        .map(|e| text::width(&e.label, size, Weight::Regular) + size + 6.0)
        .fold(0.0, f64::max)
        .min(body.w * 0.45);
    let room = ctx.class_body(body);
    let wide = room.w - legend_w - 24.0 >= room.h * 0.8;
    let pie_area = if wide {
        let row_h = size * 1.7;
        let top = body.y + (body.h - row_h * entries.len() as f64).max(0.0) / 2.0;
        let x = body.right() - legend_w;
        for (i, e) in entries.iter().enumerate() {
            let cy = top + row_h * (i as f64 + 0.5);
            ctx.p.rect(
                Rect::new(x, cy - size * 0.45, size * 0.9, size * 0.9),
                e.color,
            );
            let label = text::ellipsize(&e.label, size, Weight::Regular, legend_w - size - 6.0);
            ctx.p.text(
                &label,
                (x + size + 5.0, cy),
                Font::new(size, Weight::Regular, ctx.theme.text),
                Align::Start,
                Baseline::Middle,
            );
        }
        Rect::new(body.x, body.y, body.w - legend_w - 24.0, body.h)
    } else {
        ctx.legend(body, &entries)
    };

    ctx.p.set_plot(pie_area);
    let _marks = ctx.p.marking();
    let (cx, cy) = pie_area.center();
    let radius = (pie_area.w.min(pie_area.h) / 2.0 - 4.0).max(4.0);
    if total <= 0.0 || !total.is_finite() {
        return;
    }
    // Canvas angles (0 at three o'clock, clockwise), as the hit map keeps
    // them; the scene counts from twelve o'clock.
    let mut angle = -FRAC_PI_2;
    let mut edges = Vec::with_capacity(slices.len());
    for (s, &color) in slices.iter().zip(&colors) {
        let sweep = s.value / total * TAU;
        let start = angle + FRAC_PI_2;
        ctx.p
            .sector((cx, cy), (0.0, radius), (start, start + sweep), color);
        edges.push(angle);
        let share = s.value / total;
        ctx.hit(|| Mark {
            shape: HitShape::Wedge {
                cx,
                cy,
                inner: 0.0,
                outer: radius,
                start: angle,
                end: angle + sweep,
            },
            series: None,
            label: Text::Ready(s.label.clone()),
            value: Text::Ready(label::slice(s.value, share, ctx.units())),
        });
        if share >= 0.06 {
            let mid = angle + sweep / 2.0;
            let at = (
                cx + radius * 0.68 * crate::math::cos(mid),
                cy + radius * 0.68 * crate::math::sin(mid),
            );
            let label = percent(share);
            if text::width(&label, ctx.sizes.tick, Weight::Bold) < radius * sweep * 0.5 {
                ctx.p.text(
                    &label,
                    at,
                    Font::new(ctx.sizes.tick, Weight::Bold, ctx.theme.text_on(color)),
                    Align::Middle,
                    Baseline::Middle,
                );
            }
        }
        angle += sweep;
    }
    // Seams between slices in the background colour.
    if slices.len() > 1 {
        for a in edges {
            ctx.p.line(
                &[
                    (cx, cy),
                    (
                        cx + radius * crate::math::cos(a),
                        cy + radius * crate::math::sin(a),
                    ),
                ],
                ctx.theme.background,
                1.5,
            );
        }
    }
}
