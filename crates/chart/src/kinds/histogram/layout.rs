//! histogram: counts of the values in nice-width bins, drawn as bars.

use super::bins;
use crate::kinds::bars::layout::bar_rect;
use crate::label;
use crate::layout::axis::{draw_axes, AxesSpec, AxisSpec, Fit};
use crate::layout::pen::Rect;
use crate::layout::Ctx;
use crate::scene::hit::{HitShape, Mark, Text};

/// histogram: counts of the values in nice-width bins.
#[inline(never)]
pub fn draw(ctx: &Ctx<'_>, body: Rect, values: &[f64]) {
    let (edges, counts) = bins(values, (body.w / 8.0) as usize);
    let (Some(&first), Some(&last)) = (edges.first(), edges.last()) else {
        return;
    };
    let max = counts.iter().copied().max().unwrap_or(0) as f64;
    let y_title = ctx.config.y_label.as_deref().or(Some("Count"));
    let axes = draw_axes(
        ctx.p,
        ctx.theme,
        ctx.sizes,
        body,
        &AxesSpec {
            x: AxisSpec::Linear {
                lo: first,
                hi: last,
                fit: Fit::Exact,
                units: ctx.units(),
            },
            y: AxisSpec::Linear {
                lo: 0.0,
                hi: max.max(1.0),
                fit: Fit::Zero,
                units: None,
            },
            x_title: ctx.config.x_label.as_deref(),
            y_title,
            y2: None,
        },
    );
    ctx.p.set_plot(axes.plot);
    let _marks = ctx.p.marking();
    for (i, &count) in counts.iter().enumerate() {
        let (Some(&a), Some(&b)) = (edges.get(i), edges.get(i + 1)) else {
            continue;
        };
        if count == 0 {
            continue;
        }
        let (x0, x1) = (axes.x_at(a), axes.x_at(b));
        let gap = if x1 - x0 > 4.0 { 1.0 } else { 0.0 };
        let r = bar_rect(&axes, x0 + gap / 2.0, x1 - x0 - gap, 0.0, count as f64);
        ctx.p.rect(r, ctx.theme.color(0));
        ctx.hit(|| Mark {
            shape: HitShape::Rect(r),
            series: None,
            label: Text::Ready(label::value_span(a, b, ctx.units())),
            value: Text::Ready(label::count(count)),
        });
    }
}
