//! timeline: one bar per item from its start to its end on a time axis.

use plotters::prelude::DrawingBackend;

use super::axis::{draw_axes, AxesSpec, AxisSpec};
use super::painter::Rect;
use super::{Ctx, DrawError};
use crate::model::{DatePrecision, TimelineItem};

pub fn draw<DB: DrawingBackend>(
    ctx: &Ctx<'_, '_, DB>,
    body: Rect,
    items: &[TimelineItem],
    precision: DatePrecision,
) -> Result<(), DrawError> {
    let (lo, hi) = items
        .iter()
        .flat_map(|i| [i.start, i.end])
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    let axes = draw_axes(
        ctx.p,
        ctx.theme,
        ctx.sizes,
        body,
        &AxesSpec {
            x: AxisSpec::Time { lo, hi, precision },
            y: AxisSpec::Band {
                labels: items.iter().map(|i| i.label.clone()).collect(),
                padding: 0.3,
            },
            x_title: ctx.config.x_label.as_deref(),
            y_title: ctx.config.y_label.as_deref(),
        },
    )?;
    for (i, item) in items.iter().enumerate() {
        if !item.start.is_finite() || !item.end.is_finite() {
            continue;
        }
        let (y, h) = axes.y_band(i);
        let (x0, x1) = (axes.x_at(item.start), axes.x_at(item.end));
        // Zero-length items (milestones) still show as a short mark.
        let w = (x1 - x0).abs().max(3.0);
        ctx.p
            .rect(Rect::new(x0.min(x1), y, w, h), ctx.theme.color(0))?;
    }
    Ok(())
}
