//! heatmap: a grid of cells coloured by value, values written in the cells
//! that have room.

use crate::label;
use crate::layout::axis::AxisSpec;
use crate::layout::pen::{Align, Baseline, Font, Rect};
use crate::layout::ramp::{draw_color_legend, ColorScale};
use crate::layout::text::{self, Weight};
use crate::layout::Ctx;
use crate::scene::hit::{Coarse, HitShape, Mark, Text, DENSE};

#[inline(never)]
pub fn draw(ctx: &Ctx<'_>, body: Rect, xs: &[String], ys: &[String], values: &[f64]) {
    let scale = ColorScale::new(ctx.theme, values.iter().copied());
    let body = draw_color_legend(ctx, body, &scale);
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
    );
    let _marks = ctx.p.marking();
    let columns = xs.len();
    if columns == 0 || ys.is_empty() {
        return;
    }
    // Empty cells are the plot's background, drawn once: a sparse grid
    // costs what its values cost, not what its area would.
    ctx.p.rect(axes.plot, ctx.theme.faint);
    let per_block = |count: usize, length: f64| {
        let fit = ((length / MIN_CELL).floor() as usize).max(1);
        count.div_ceil(fit).max(1)
    };
    let (kx, ky) = (
        per_block(columns, axes.plot.w),
        per_block(ys.len(), axes.plot.h),
    );
    if kx > 1 || ky > 1 {
        return draw_blocks(ctx, &axes, &scale, xs, ys, values, (kx, ky));
    }
    // Cells too small to point at one by one: one mark per 4-pixel cell
    // of the plot (a no-op for cells of 4 pixels or more) keeps the map small.
    let mut coarse = (ctx.recording() && values.len() > DENSE).then(|| Coarse::new(axes.plot, 4.0));
    // A hairline in the background colour between cells when they are big
    // enough to keep it.
    for (row, row_name) in ys.iter().enumerate() {
        let (y, h) = axes.y_band(row);
        for (col, column_name) in xs.iter().enumerate() {
            let v = values.get(row * columns + col).copied().unwrap_or(f64::NAN);
            if !v.is_finite() {
                continue;
            }
            let (x, w) = axes.x_band(col);
            let gap = if w > 6.0 && h > 6.0 { 1.0 } else { 0.0 };
            let cell = Rect::new(x, y, w - gap, h - gap);
            let fill = scale.color(v);
            ctx.p.rect(cell, fill);
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
                );
            }
        }
    }
}

/// Cells narrower or shorter than this many pixels are merged into blocks
/// of neighbouring categories. It bounds the marks by the plot's area
/// (about 3,500 at 880 × 540) whatever the grid, and a cell smaller than
/// this cannot be told from its neighbours anyway.
const MIN_CELL: f64 = 9.0;

/// `first – last` of the categories a block covers.
fn span(names: &[String], from: usize, count: usize) -> String {
    let last = (from + count).min(names.len()).saturating_sub(1);
    match (names.get(from), names.get(last)) {
        (Some(first), Some(last_name)) if last > from => format!("{first} \u{2013} {last_name}"),
        (Some(first), _) => first.clone(),
        _ => String::new(),
    }
}

/// The grid in blocks of `kx` × `ky` cells, each drawn in the colour of
/// the mean of its values; blocks without values stay background.
fn draw_blocks(
    ctx: &Ctx<'_>,
    axes: &crate::layout::axis::Axes,
    scale: &ColorScale,
    xs: &[String],
    ys: &[String],
    values: &[f64],
    (kx, ky): (usize, usize),
) {
    let (columns, rows) = (xs.len(), ys.len());
    let (bx, by) = (columns.div_ceil(kx), rows.div_ceil(ky));
    let mut sums = vec![(0.0f64, 0u32); bx * by];
    for (i, &v) in values.iter().enumerate() {
        if !v.is_finite() {
            continue;
        }
        let (row, col) = (i / columns, i % columns);
        if let Some((sum, count)) = sums.get_mut((row / ky) * bx + col / kx) {
            *sum += v;
            *count += 1;
        }
    }
    for (b, &(sum, count)) in sums.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let (c0, r0) = ((b % bx) * kx, (b / bx) * ky);
        let (c1, r1) = ((c0 + kx).min(columns) - 1, (r0 + ky).min(rows) - 1);
        let (x, _) = axes.x_band(c0);
        let (x_end, w_end) = axes.x_band(c1);
        let (y, _) = axes.y_band(r0);
        let (y_end, h_end) = axes.y_band(r1);
        let block = Rect::new(x, y, x_end + w_end - x, y_end + h_end - y);
        let mean = sum / f64::from(count);
        ctx.p.rect(block, scale.color(mean));
        ctx.hit(|| Mark {
            shape: HitShape::Rect(block),
            series: None,
            label: Text::Ready(label::cell(&span(xs, c0, kx), &span(ys, r0, ky))),
            value: Text::Value(mean),
        });
    }
}
