//! timeline: one bar per item from its start to its end on a time axis.

use crate::label;
use crate::layout::axis::AxisSpec;
use crate::layout::pen::Rect;
use crate::layout::Ctx;
use crate::model::{DatePrecision, TimelineItem};
use crate::scene::hit::{HitShape, Mark, Text};
use crate::shown::finite_range;

#[inline(never)]
pub fn draw(ctx: &Ctx<'_>, body: Rect, items: &[TimelineItem], precision: DatePrecision) {
    let (lo, hi) = finite_range(items.iter().flat_map(|i| [i.start, i.end]));
    let axes = ctx.axes(
        body,
        AxisSpec::Time { lo, hi, precision },
        AxisSpec::Band {
            labels: items.iter().map(|i| i.label.clone()).collect(),
            padding: 0.3,
        },
    );
    let _marks = ctx.p.marking();
    for (i, item) in items.iter().enumerate() {
        if !item.start.is_finite() || !item.end.is_finite() {
            continue;
        }
        let (y, h) = axes.y_band(i);
        let (x0, x1) = (axes.x_at(item.start), axes.x_at(item.end));
        // Zero-length items (milestones) still show as a short mark.
        let w = (x1 - x0).abs().max(3.0);
        let bar = Rect::new(x0.min(x1), y, w, h);
        ctx.p.rect(bar, ctx.theme.color(0));
        ctx.hit(|| Mark {
            shape: HitShape::Rect(bar),
            series: None,
            label: Text::Ready(item.label.clone()),
            value: Text::Ready(label::date_span(item.start, item.end, precision)),
        });
    }
}
