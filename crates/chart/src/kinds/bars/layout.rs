//! Bars: bar and grouped_bar, stacked_bar, waterfall (and the histogram's
//! bars, through [`bar_rect`]).

use crate::label;
use crate::layout::axis::{Axes, AxisSpec, Fit};
use crate::layout::chrome::{LegendEntry, Marker};
use crate::layout::pen::{Align, Baseline, Font, Rect};
use crate::layout::text::{self, Weight};
use crate::layout::Ctx;
use crate::model::Categorical;
use crate::scene::hit::{HitShape, Mark, Text};
use crate::shown::finite_range;

/// A value label over (or under, for negatives) a bar, when it fits.
fn value_label(ctx: &Ctx<'_>, axes: &Axes, value: f64, (x, w): (f64, f64)) {
    let shown = label::value(value, ctx.units());
    let size = ctx.sizes.small;
    if text::width(&shown, size, Weight::Regular) > w + 6.0 {
        return;
    }
    let (y, zero) = (axes.y_at(value), axes.y_at(0.0));
    // Past the bar's end, unless that leaves the plot (onto the category
    // labels below, or the title above): then inside its end, in the
    // background's colour, when the bar is tall enough to hold it.
    let line = size * 1.3 + 3.0;
    let negative = value < 0.0;
    let outside_fits = if negative {
        y + line <= axes.plot.bottom()
    } else {
        y - line >= axes.plot.y
    };
    let inside = !outside_fits && (zero - y).abs() > line + 3.0;
    let (y, baseline) = if negative == inside {
        (y - 3.0, Baseline::Bottom)
    } else {
        (y + 3.0, Baseline::Top)
    };
    let color = if inside {
        ctx.theme.background
    } else {
        ctx.theme.muted
    };
    ctx.p.text(
        &shown,
        (x + w / 2.0, y),
        Font::new(size, Weight::Regular, color),
        Align::Middle,
        baseline,
    )
}

/// Rectangle between two values on the y axis.
pub(crate) fn bar_rect(axes: &Axes, x: f64, w: f64, from: f64, to: f64) -> Rect {
    let (a, b) = (axes.y_at(from), axes.y_at(to));
    Rect::new(x, a.min(b), w, (a - b).abs())
}

/// Records a bar of series `si` in category `ci`.
fn bar_hit(ctx: &Ctx<'_>, r: Rect, c: &Categorical, ci: usize, si: usize, v: f64) {
    ctx.hit(|| Mark {
        shape: HitShape::Rect(r),
        series: c
            .series
            .get(si)
            .and_then(|s| ctx.series(c.series.len(), &s.name)),
        label: Text::Ready(c.categories.get(ci).cloned().unwrap_or_default()),
        value: Text::Value(v),
    });
}

/// bar and grouped_bar: one bar per series side by side in each category.
/// When the category names do not fit level under their bars and there is
/// height for them, the chart lies on its side: names down the left, whole
/// and level, bars growing to the right.
#[inline(never)]
pub fn grouped(ctx: &Ctx<'_>, body: Rect, c: &Categorical) {
    let body = ctx.legend(
        body,
        &ctx.toggled_legend(c.series.iter().map(|s| s.name.as_str()), Marker::Square),
    );
    // The series shown, each with its index (its colour); a hidden one
    // leaves the groups and the value axis.
    let shown = shown_series(ctx, c);
    let (lo, hi) = finite_range(shown.iter().flat_map(|(_, s)| s.values.iter().copied()));
    let n = c.categories.len().max(1) as f64;
    let widest = c
        .categories
        .iter()
        .map(|l| text::width(l, ctx.sizes.tick, Weight::Regular))
        .fold(0.0, f64::max);
    // On its side when the labels would not fit upright, chosen at the
    // width class's layout (every frame of the class chooses alike).
    let room = ctx.class_body(body);
    let turned = widest + 20.0 > room.w * 0.9 / n && n * ctx.sizes.tick * 2.0 <= room.h * 0.8;
    let band = AxisSpec::Band {
        labels: c.categories.clone(),
        padding: if c.series.len() > 1 { 0.22 } else { 0.3 },
    };
    let value = AxisSpec::Linear {
        lo,
        hi,
        fit: Fit::Zero,
        units: ctx.units(),
    };
    let axes = if turned {
        ctx.axes_turned(body, value, band, true)
    } else {
        ctx.axes(body, band, value)
    };
    let _marks = ctx.p.marking();
    let groups = shown.len().max(1);
    let mut slots = Vec::new();
    for (ci, _) in c.categories.iter().enumerate() {
        let (x, w) = if turned {
            axes.y_band(ci)
        } else {
            axes.x_band(ci)
        };
        let inner = w / groups as f64;
        for (slot, &(si, s)) in shown.iter().enumerate() {
            let Some(&v) = s.values.get(ci) else { continue };
            if !v.is_finite() {
                continue;
            }
            // A hairline between neighbours in a group keeps them apart.
            let gap = if groups > 1 && inner > 6.0 { 1.0 } else { 0.0 };
            let bx = x + inner * slot as f64;
            let r = if turned {
                let (a, b) = (axes.x_at(0.0), axes.x_at(v));
                Rect::new(a.min(b), bx, (a - b).abs(), inner - gap)
            } else {
                bar_rect(&axes, bx, inner - gap, 0.0, v)
            };
            ctx.p.rect(r, ctx.theme.color(si));
            bar_hit(ctx, r, c, ci, si, v);
            slots.push((v, (bx, inner - gap), r));
        }
    }
    // Labels only when every bar can carry one: a few readable numbers.
    if slots.len() <= 24 {
        for (v, slot, r) in slots {
            if turned {
                side_label(ctx, &axes, v, r);
            } else {
                value_label(ctx, &axes, v, slot);
            }
        }
    }
}

/// A value label past the end of a bar lying on its side (inside its end
/// when past it would leave the plot), when its row is tall enough.
fn side_label(ctx: &Ctx<'_>, axes: &Axes, value: f64, r: Rect) {
    let shown = label::value(value, ctx.units());
    let size = ctx.sizes.small;
    let w = text::width(&shown, size, Weight::Regular) + 4.0;
    if r.h < size {
        return;
    }
    let negative = value < 0.0;
    let end = if negative { r.x } else { r.right() };
    let outside_fits = if negative {
        end - w >= axes.plot.x
    } else {
        end + w <= axes.plot.right()
    };
    if !outside_fits && r.w < w + 4.0 {
        return;
    }
    let (x, align) = if negative == outside_fits {
        (end - 4.0, Align::End)
    } else {
        (end + 4.0, Align::Start)
    };
    let color = if outside_fits {
        ctx.theme.muted
    } else {
        ctx.theme.background
    };
    ctx.p.text(
        &shown,
        (x, r.y + r.h / 2.0),
        Font::new(size, Weight::Regular, color),
        align,
        Baseline::Middle,
    )
}

/// Past this many segments a stacked card draws no seams: they would
/// double the marks of a chart whose segments are slivers anyway.
const MAX_SEAMS: usize = 1_000;

/// The series of `c` the reader left shown, with their indices.
fn shown_series<'c>(
    ctx: &Ctx<'_>,
    c: &'c Categorical,
) -> Vec<(usize, &'c crate::model::NamedValues)> {
    c.series
        .iter()
        .enumerate()
        .filter(|(_, s)| ctx.shows(&s.name))
        .collect()
}

/// stacked_bar: positives stack up from zero, negatives down.
#[inline(never)]
pub fn stacked(ctx: &Ctx<'_>, body: Rect, c: &Categorical) {
    let body = ctx.legend(
        body,
        &ctx.toggled_legend(c.series.iter().map(|s| s.name.as_str()), Marker::Square),
    );
    let shown = shown_series(ctx, c);
    let sums: Vec<(f64, f64)> = (0..c.categories.len())
        .map(|ci| {
            shown.iter().fold((0.0, 0.0), |(neg, pos), (_, s)| {
                match s.values.get(ci).copied().filter(|v| v.is_finite()) {
                    Some(v) if v < 0.0 => (neg + v, pos),
                    Some(v) => (neg, pos + v),
                    None => (neg, pos),
                }
            })
        })
        .collect();
    let (lo, hi) = finite_range(sums.iter().flat_map(|&(n, p)| [n, p]));
    let axes = ctx.axes(
        body,
        AxisSpec::Band {
            labels: c.categories.clone(),
            padding: 0.3,
        },
        AxisSpec::Linear {
            lo,
            hi,
            fit: Fit::Zero,
            units: ctx.units(),
        },
    );
    let _marks = ctx.p.marking();
    let seams = c.series.len() * c.categories.len() <= MAX_SEAMS;
    for ci in 0..c.categories.len() {
        let (x, w) = axes.x_band(ci);
        let (mut neg, mut pos) = (0.0, 0.0);
        for &(si, s) in &shown {
            let Some(v) = s.values.get(ci).copied().filter(|v| v.is_finite()) else {
                continue;
            };
            let (from, to) = if v < 0.0 {
                let from = neg;
                neg += v;
                (from, neg)
            } else {
                let from = pos;
                pos += v;
                (from, pos)
            };
            let r = bar_rect(&axes, x, w, from, to);
            ctx.p.rect(r, ctx.theme.color(si));
            bar_hit(ctx, r, c, ci, si, v);
            // A background-coloured seam separates the segments of bars
            // big enough to show it, in stacks few enough to need it.
            if seams && r.h > 3.0 && r.w > 3.0 && v != 0.0 {
                let seam_y = if v < 0.0 { r.bottom() } else { r.y };
                ctx.p.line(
                    &[(r.x, seam_y), (r.right(), seam_y)],
                    ctx.theme.background,
                    1.0,
                );
            }
        }
        if c.categories.len() <= 24 {
            if let Some((_, total)) = sums.get(ci) {
                if *total > 0.0 {
                    value_label(ctx, &axes, *total, (x, w));
                }
            }
        }
    }
}

/// waterfall: each value moves a running total; a final bar shows the total.
#[inline(never)]
pub fn waterfall(ctx: &Ctx<'_>, body: Rect, c: &Categorical) {
    let deltas: Vec<f64> = c
        .series
        .first()
        .map(|s| s.values.clone())
        .unwrap_or_default();
    let mut steps = Vec::with_capacity(deltas.len() + 1);
    let mut total = 0.0;
    for d in &deltas {
        let d = if d.is_finite() { *d } else { 0.0 };
        steps.push((total, total + d));
        total += d;
    }
    steps.push((0.0, total));
    let mut labels = c.categories.clone();
    labels.push("Total".to_string());
    let (lo, hi) = finite_range(steps.iter().flat_map(|&(a, b)| [a, b]));
    let legend = [
        LegendEntry::new("Increase", ctx.theme.increase, Marker::Square),
        LegendEntry::new("Decrease", ctx.theme.decrease, Marker::Square),
        LegendEntry::new("Total", ctx.theme.total, Marker::Square),
    ];
    let body = ctx.legend(body, &legend);
    let axes = ctx.axes(
        body,
        AxisSpec::Band {
            labels,
            padding: 0.25,
        },
        AxisSpec::Linear {
            lo,
            hi,
            fit: Fit::Zero,
            units: ctx.units(),
        },
    );
    let _marks = ctx.p.marking();
    let last = steps.len().saturating_sub(1);
    for (i, &(from, to)) in steps.iter().enumerate() {
        let (x, w) = axes.x_band(i);
        let color = if i == last {
            ctx.theme.total
        } else if to >= from {
            ctx.theme.increase
        } else {
            ctx.theme.decrease
        };
        let r = bar_rect(&axes, x, w, from, to);
        ctx.p.rect(r, color);
        ctx.hit(|| Mark {
            shape: HitShape::Rect(r),
            series: None,
            label: Text::Ready(match c.categories.get(i) {
                Some(category) if i < last => category.clone(),
                _ => "Total".to_string(),
            }),
            value: if i < last {
                Text::Ready(label::step(to - from, to, ctx.units()))
            } else {
                Text::Value(to)
            },
        });
        // Connector to the next bar at the level this one ends, where
        // there is a gap to draw it in.
        let (nx, _) = axes.x_band(i + 1);
        if i < last && nx - (x + w) >= 2.0 {
            let y = axes.y_at(to);
            ctx.p.line(&[(x + w, y), (nx, y)], ctx.theme.axis, 1.0);
        }
        if steps.len() <= 24 {
            let shown = if i < last {
                label::change(to - from, ctx.units())
            } else {
                label::value(to - from, ctx.units())
            };
            if text::width(&shown, ctx.sizes.small, Weight::Regular) <= w + 6.0 {
                let top = axes.y_at(from.max(to));
                ctx.p.text(
                    &shown,
                    (x + w / 2.0, top - 3.0),
                    Font::new(ctx.sizes.small, Weight::Regular, ctx.theme.muted),
                    Align::Middle,
                    Baseline::Bottom,
                );
            }
        }
    }
}
