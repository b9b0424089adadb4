//! scatter: points on two linear axes; dense clouds are thinned to one
//! point per few pixels, which looks the same and draws fast.

use plotters::prelude::DrawingBackend;

use super::axis::{draw_axes, AxesSpec, AxisSpec};
use super::frame::{draw_legend, LegendEntry, Marker};
use super::painter::Rect;
use super::{Ctx, DrawError};
use crate::model::Series;
use crate::reduce::thin_points;

pub fn draw<DB: DrawingBackend>(
    ctx: &Ctx<'_, '_, DB>,
    body: Rect,
    series: &[Series],
) -> Result<(), DrawError> {
    let legend: Vec<LegendEntry> = if series.len() > 1 {
        series
            .iter()
            .enumerate()
            .map(|(i, s)| LegendEntry::new(s.name.clone(), ctx.theme.color(i), Marker::Dot))
            .collect()
    } else {
        Vec::new()
    };
    let body = draw_legend(ctx.p, ctx.theme, ctx.sizes, body, &legend)?;
    let (mut x_lo, mut x_hi, mut y_lo, mut y_hi) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for s in series {
        for (&x, &y) in s.xs.iter().zip(&s.ys) {
            if x.is_finite() && y.is_finite() {
                x_lo = x_lo.min(x);
                x_hi = x_hi.max(x);
                y_lo = y_lo.min(y);
                y_hi = y_hi.max(y);
            }
        }
    }
    let axes = draw_axes(
        ctx.p,
        ctx.theme,
        ctx.sizes,
        body,
        &AxesSpec {
            x: AxisSpec::Linear {
                lo: x_lo,
                hi: x_hi,
                zero: false,
                units: None,
            },
            y: AxisSpec::Linear {
                lo: y_lo,
                hi: y_hi,
                zero: false,
                units: ctx.units(),
            },
            x_title: ctx.config.x_label.as_deref(),
            y_title: ctx.config.y_label.as_deref(),
        },
    )?;
    let (xd, yd) = match (&axes.x, &axes.y) {
        (super::axis::Scale::Linear(x), super::axis::Scale::Linear(y)) => {
            ((x.lo, x.hi), (y.lo, y.hi))
        }
        _ => ((x_lo, x_hi), (y_lo, y_hi)),
    };
    let (w, h) = (axes.plot.w.max(1.0) as u32, axes.plot.h.max(1.0) as u32);
    for (i, s) in series.iter().enumerate() {
        let color = ctx.theme.color(i);
        let radius = if s.xs.len() > 2_000 { 2.0 } else { 3.5 };
        for k in thin_points(&s.xs, &s.ys, xd, yd, w, h, radius) {
            let (Some(&x), Some(&y)) = (s.xs.get(k), s.ys.get(k)) else {
                continue;
            };
            let at = (axes.x_at(x), axes.y_at(y));
            // A rim in the background colour keeps overlapping points apart.
            ctx.p.circle(at, radius + 1.0, ctx.theme.background)?;
            ctx.p.circle(at, radius, color)?;
        }
    }
    Ok(())
}
