//! Colour scales for values (heatmaps, maps) and their legend.

use crate::scene::Color;

use super::pen::{Align, Baseline, Font, Rect};
use super::text::Weight;
use super::theme::Theme;
use super::Ctx;
use crate::scale::format_value;
use crate::shown::finite_range;

/// Maps values to colours: sequential, or diverging around zero when the
/// data have both signs.
#[derive(Debug, Clone)]
pub struct ColorScale {
    pub lo: f64,
    pub hi: f64,
    diverging: bool,
    stops: [Color; 5],
}

impl ColorScale {
    pub fn new(theme: &Theme, values: impl Iterator<Item = f64>) -> ColorScale {
        let (mut lo, mut hi) = finite_range(values);
        if !lo.is_finite() || !hi.is_finite() {
            (lo, hi) = (0.0, 1.0);
        }
        let diverging = lo < 0.0 && hi > 0.0;
        if diverging {
            let m = lo.abs().max(hi.abs());
            (lo, hi) = (-m, m);
        }
        ColorScale {
            lo,
            hi,
            diverging,
            stops: if diverging {
                theme.diverging
            } else {
                theme.sequential
            },
        }
    }

    pub fn color(&self, v: f64) -> Color {
        // All values equal: the middle of the ramp.
        let t = crate::scale::unit(v, self.lo, self.hi).unwrap_or(0.6);
        Theme::ramp(&self.stops, t)
    }

    pub fn is_diverging(&self) -> bool {
        self.diverging
    }
}

/// A gradient bar with its end values, at the top of `body`; returns the
/// rest of the body.
pub fn draw_color_legend(ctx: &Ctx<'_>, body: Rect, scale: &ColorScale) -> Rect {
    let size = ctx.sizes.small;
    let width = body.w.min(220.0);
    let bar_h = 8.0;
    let steps = 44;
    let step_w = width / steps as f64;
    for k in 0..steps {
        let t = (k as f64 + 0.5) / steps as f64;
        let v = scale.lo + (scale.hi - scale.lo) * t;
        ctx.p.rect(
            Rect::new(body.x + step_w * k as f64, body.y, step_w + 0.5, bar_h),
            scale.color(v),
        );
    }
    let font = Font::new(size, Weight::Regular, ctx.theme.muted);
    let label_y = body.y + bar_h + 3.0;
    let units = ctx.units();
    ctx.p.text(
        &format_value(scale.lo, units),
        (body.x, label_y),
        font,
        Align::Start,
        Baseline::Top,
    );
    if scale.is_diverging() {
        ctx.p.text(
            &format_value(0.0, units),
            (body.x + width / 2.0, label_y),
            font,
            Align::Middle,
            Baseline::Top,
        );
    }
    ctx.p.text(
        &format_value(scale.hi, units),
        (body.x + width, label_y),
        font,
        Align::End,
        Baseline::Top,
    );
    let used = bar_h + 3.0 + size * 1.3 + 10.0;
    Rect::new(body.x, body.y + used, body.w, body.h - used)
}
