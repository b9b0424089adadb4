//! heatmap: a grid of cells coloured by value, values written in the cells
//! that have room.

use plotters::prelude::DrawingBackend;

use super::axis::AxisSpec;
use super::hit::{Coarse, HitShape, Mark, Text, DENSE};
use super::painter::{Align, Baseline, Font, Rect};
use super::ramp::{draw_color_legend, ColorScale};
use super::text::{self, Weight};
use super::{Ctx, DrawError};
use crate::label;

pub fn draw<DB: DrawingBackend>(
    ctx: &Ctx<'_, '_, DB>,
    body: Rect,
    xs: &[String],
    ys: &[String],
    values: &[f64],
) -> Result<(), DrawError> {
    let scale = ColorScale::new(ctx.theme, values.iter().copied());
    let body = draw_color_legend(ctx, body, &scale)?;
    let axes = ctx.axes(
        body,
        AxisSpec::Band {
            labels: xs.to_vec(),
            padding: 0.0,
        },
        AxisSpec::Band {
            labels: ys.to_vec(),
            padding: 0.0,
        },
    )?;
    let columns = xs.len();
    if columns == 0 {
        return Ok(());
    }
    // Cells too small to point at one by one: one mark per 4-pixel cell
    // of the plot (a no-op for cells of 4 pixels or more) keeps the map small.
    let mut coarse = (ctx.recording() && values.len() > DENSE).then(|| Coarse::new(axes.plot, 4.0));
    // A hairline in the background colour between cells when they are big
    // enough to keep it.
    for (row, row_name) in ys.iter().enumerate() {
        let (y, h) = axes.y_band(row);
        for (col, column_name) in xs.iter().enumerate() {
            let (x, w) = axes.x_band(col);
            let v = values.get(row * columns + col).copied().unwrap_or(f64::NAN);
            let gap = if w > 6.0 && h > 6.0 { 1.0 } else { 0.0 };
            let cell = Rect::new(x, y, w - gap, h - gap);
            if !v.is_finite() {
                ctx.p.rect(cell, ctx.theme.faint)?;
                continue;
            }
            let fill = scale.color(v);
            ctx.p.rect(cell, fill)?;
            let shown = label::value(v, ctx.units());
            if coarse.as_mut().is_none_or(|c| c.first(cell.center())) {
                ctx.hit(|| Mark {
                    shape: HitShape::Rect(cell),
                    series: None,
                    label: Text::Ready(label::cell(column_name, row_name)),
                    value: Text::Value(v),
                });
            }
            let size = ctx.sizes.small;
            if text::width(&shown, size, Weight::Regular) + 6.0 <= w && size * 1.4 <= h {
                ctx.p.text(
                    &shown,
                    cell.center(),
                    Font::new(size, Weight::Regular, ctx.theme.text_on(fill)),
                    Align::Middle,
                    Baseline::Middle,
                )?;
            }
        }
    }
    Ok(())
}
