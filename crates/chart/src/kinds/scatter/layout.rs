//! scatter: points on two linear axes; dense clouds are thinned to one
//! point per few pixels, which looks the same and draws fast.

use crate::layout::axis::{AxisSpec, Fit};
use crate::layout::chrome::Marker;
use crate::layout::pen::Rect;
use crate::layout::Ctx;
use crate::model::Series;
use crate::reduce::thin_points;
use crate::scene::hit::{Coarse, HitShape, Mark, Text, DENSE};
use crate::shown::xy_extent_of;

/// Past this many points in a card, dots are drawn without a rim.
const DENSE_RIMS: usize = 1_000;

/// Dots drawn in one card at most (about 75 bytes each in SVG).
const MAX_DOTS: usize = 4_000;

#[inline(never)]
pub fn draw(ctx: &Ctx<'_>, body: Rect, series: &[Series]) {
    let legend = ctx.toggled_legend(series.iter().map(|s| s.name.as_str()), Marker::Dot);
    let body = ctx.legend(body, &legend);
    let shown = |i: usize| series.get(i).is_some_and(|s| ctx.shows(&s.name));
    let ((x_lo, x_hi), (y_lo, y_hi)) = xy_extent_of(series, &shown);
    // Zoomed: the axes are the zoom's ranges, exactly.
    let fit = |zoom: Option<(f64, f64)>, lo: f64, hi: f64| match zoom {
        Some((lo, hi)) => (lo, hi, Fit::Exact),
        None => (lo, hi, Fit::Nice),
    };
    let (x_lo, x_hi, x_fit) = fit(ctx.view.x(), x_lo, x_hi);
    let (y_lo, y_hi, y_fit) = fit(ctx.view.y(), y_lo, y_hi);
    let axes = ctx.axes(
        body,
        AxisSpec::Linear {
            lo: x_lo,
            hi: x_hi,
            fit: x_fit,
            units: None,
        },
        AxisSpec::Linear {
            lo: y_lo,
            hi: y_hi,
            fit: y_fit,
            units: ctx.units(),
        },
    );
    let _marks = ctx.p.marking();
    let (xd, yd) = match (&axes.x, &axes.y) {
        (crate::layout::axis::Scale::Linear(x), crate::layout::axis::Scale::Linear(y)) => {
            ((x.lo, x.hi), (y.lo, y.hi))
        }
        _ => ((x_lo, x_hi), (y_lo, y_hi)),
    };
    ctx.zoomable(axes.plot, xd, Some(yd));
    let (w, h) = (axes.plot.w.max(1.0) as u32, axes.plot.h.max(1.0) as u32);
    // In a dense cloud the rims only double the marks; in a very dense one
    // the series share one grid, coarse enough to keep the dots in bound.
    let total = (0..series.len())
        .filter(|&i| shown(i))
        .filter_map(|i| series.get(i))
        .map(|s| s.xs.len())
        .sum::<usize>();
    let rim = total <= DENSE_RIMS;
    let mut shared = (total > MAX_DOTS).then(|| {
        let cell = (axes.plot.w.max(1.0) * axes.plot.h.max(1.0) / MAX_DOTS as f64).sqrt();
        Coarse::new(axes.plot, cell)
    });
    for (i, s) in series.iter().enumerate() {
        if !shown(i) {
            continue;
        }
        let color = ctx.theme.color(i);
        let radius = if s.xs.len() > 2_000 { 2.0 } else { 3.5 };
        let name = ctx.series(series.len(), &s.name);
        let kept = thin_points(&s.xs, &s.ys, xd, yd, w, h, radius);
        // A pointer cannot single out one of thousands of dots anyway.
        let mut coarse =
            (ctx.recording() && kept.len() > DENSE).then(|| Coarse::new(axes.plot, 8.0));
        for k in kept {
            let (Some(&x), Some(&y)) = (s.xs.get(k), s.ys.get(k)) else {
                continue;
            };
            let at = (axes.x_at(x), axes.y_at(y));
            if !shared.as_mut().is_none_or(|grid| grid.first(at)) {
                continue;
            }
            // A rim in the background colour keeps overlapping points apart.
            if rim {
                ctx.p.circle(at, radius + 1.0, ctx.theme.background);
            }
            ctx.p.circle(at, radius, color);
            if coarse.as_mut().is_none_or(|c| c.first(at)) {
                ctx.hit(|| Mark {
                    shape: HitShape::Point { x: at.0, y: at.1 },
                    series: name,
                    label: Text::Number(x),
                    value: Text::Value(y),
                });
            }
        }
    }
}
