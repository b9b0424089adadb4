//! boxplot: quartile box, median, whiskers to 1.5 IQR, outliers as rings.

use crate::label;
use crate::layout::axis::{AxisSpec, Fit};
use crate::layout::pen::Rect;
use crate::layout::theme::mix;
use crate::layout::Ctx;
use crate::model::BoxStats;
use crate::scene::hit::{HitShape, Mark, Text};
use crate::shown::finite_range;

#[inline(never)]
pub fn draw(ctx: &Ctx<'_>, body: Rect, boxes: &[BoxStats]) {
    let (lo, hi) = finite_range(boxes.iter().flat_map(|b| {
        [b.low_whisker, b.high_whisker]
            .into_iter()
            .chain(b.outliers.iter().copied())
    }));
    let axes = ctx.axes(
        body,
        AxisSpec::Band {
            labels: boxes.iter().map(|b| b.label.clone()).collect(),
            padding: 0.45,
        },
        AxisSpec::Linear {
            lo,
            hi,
            fit: Fit::Nice,
            units: ctx.units(),
        },
    );
    let _marks = ctx.p.marking();
    let color = ctx.theme.color(0);
    let fill = mix(color, ctx.theme.background, 0.75);
    let mut rings = 0usize;
    for (i, b) in boxes.iter().enumerate() {
        let (x, w) = axes.x_band(i);
        let cx = x + w / 2.0;
        let (y_q1, y_q3) = (axes.y_at(b.q1), axes.y_at(b.q3));
        let (y_lo, y_hi) = (axes.y_at(b.low_whisker), axes.y_at(b.high_whisker));
        let r = Rect::new(x, y_q3.min(y_q1), w, (y_q1 - y_q3).abs());
        if w < COMPACT_BELOW {
            // Too narrow for caps, an outline and a median to be told
            // apart: the whisker span and the box, two marks instead of seven.
            ctx.p.line(&[(cx, y_hi), (cx, y_lo)], color, 1.0);
            ctx.p.rect(r, color);
        } else {
            let cap = w * 0.25;
            ctx.p.line(&[(cx, y_hi), (cx, y_q3)], color, 1.5);
            ctx.p.line(&[(cx, y_q1), (cx, y_lo)], color, 1.5);
            ctx.p
                .line(&[(cx - cap, y_hi), (cx + cap, y_hi)], color, 1.5);
            ctx.p
                .line(&[(cx - cap, y_lo), (cx + cap, y_lo)], color, 1.5);
            ctx.p.rect(r, fill);
            ctx.p.outline(r, color, 1.5);
            let y_med = axes.y_at(b.median);
            ctx.p.line(&[(x, y_med), (x + w, y_med)], color, 3.0);
        }
        // The whole glyph, whiskers included, answers for the box.
        let glyph = Rect::new(x, y_hi.min(y_lo), w, (y_lo - y_hi).abs());
        ctx.hit(|| Mark {
            shape: HitShape::Rect(glyph),
            series: None,
            label: Text::Ready(b.label.clone()),
            value: Text::Ready(label::box_stats(b, ctx.units())),
        });
        // Outliers come sorted: one ring per pixel row is all that shows.
        let mut last_y = f64::NAN;
        for &o in &b.outliers {
            let at = (cx, axes.y_at(o));
            if (at.1 - last_y).abs() < 1.0 || rings >= MAX_RINGS {
                continue;
            }
            last_y = at.1;
            rings += 1;
            ctx.p.ring(at, 3.0, color, 1.25);
            ctx.hit(|| Mark {
                shape: HitShape::Point { x: at.0, y: at.1 },
                series: None,
                label: Text::Ready(b.label.clone()),
                value: Text::Ready(label::outlier(o, ctx.units())),
            });
        }
    }
}

/// Boxes narrower than this many pixels are drawn as a line and a bar.
const COMPACT_BELOW: f64 = 4.0;

/// Outlier rings drawn in one card at most: past this they cover the plot
/// and only add bytes; the boxes still summarise every value.
const MAX_RINGS: usize = 2_000;
