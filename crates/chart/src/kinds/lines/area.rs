//! area_timeseries: each series a line filled down to zero (or to the
//! axis's foot where zero is far off, which the card then says), and
//! stacked_area_timeseries: the series stacked date by date, as amounts or
//! (`normalize`) as shares of each date's total.

use super::line::{inside, record_points, reduce_shown, Plotted};
use crate::label;
use crate::layout::axis::{Axes, AxisSpec, Fit, Scale};
use crate::layout::chrome::Marker;
use crate::layout::clip;
use crate::layout::pen::{Align, Baseline, Font, Rect};
use crate::layout::text::Weight;
use crate::layout::theme::mix;
use crate::layout::Ctx;
use crate::model::{DatePrecision, Series, Stacked};
use crate::scene::hit::{HitShape, Mark, Text};
use crate::shown::xy_extent_within;

/// How much of a series' colour its fill takes over the background: the
/// lines stay the strongest marks, and overlapping fills still read.
const FILL: f64 = 0.35;

/// Dates drawn per device pixel column of a stack at most.
const PER_COLUMN: usize = 4;

/// Zero belongs on an area's axis unless the data sit far from it: an
/// area's height is read as an amount.
fn zero_is_near(lo: f64, hi: f64) -> bool {
    lo <= 0.0 && hi >= 0.0 || lo > 0.0 && lo < hi * 0.75 || hi < 0.0 && hi > lo * 0.75
}

#[inline(never)]
pub fn area(ctx: &Ctx<'_>, body: Rect, series: &[Series], precision: DatePrecision) {
    let legend = ctx.toggled_legend(series.iter().map(|s| s.name.as_str()), Marker::Square);
    let body = ctx.legend(body, &legend);
    let shown = |i: usize| series.get(i).is_some_and(|s| ctx.shows(&s.name));
    let zoom = ctx.view.x();
    let ((x_lo, x_hi), (y_lo, y_hi)) = xy_extent_within(series, &shown, zoom);
    let zero = zero_is_near(y_lo, y_hi);
    // Where zero is far off, a line under the plot says what the fill
    // stands on.
    let note = ctx.sizes.small * 1.3 + 6.0;
    let body = if zero {
        body
    } else {
        body.inset(0.0, 0.0, note, 0.0)
    };
    let axes = ctx.axes(
        body,
        AxisSpec::Time {
            lo: x_lo,
            hi: x_hi,
            precision,
        },
        AxisSpec::Linear {
            lo: y_lo,
            hi: y_hi,
            fit: if zero { Fit::Zero } else { Fit::Nice },
            units: ctx.units(),
        },
    );
    let foot = match &axes.y {
        Scale::Linear(l) if !zero => l.lo,
        // Comparisons, not clamp: clamp's assertion would bring float
        // formatting into the engine.
        Scale::Linear(l) if l.lo > 0.0 => l.lo,
        Scale::Linear(l) if l.hi < 0.0 => l.hi,
        _ => 0.0,
    };
    if !zero {
        ctx.p.text(
            &format!(
                "Filled down to {}, not to zero",
                label::value(foot, ctx.units())
            ),
            (body.x, body.bottom() + note),
            Font::new(ctx.sizes.small, Weight::Regular, ctx.theme.muted),
            Align::Start,
            Baseline::Bottom,
        );
    }
    let _marks = ctx.p.marking();
    let columns = (axes.plot.w * ctx.p.scale).ceil().max(1.0) as usize;
    let domain = (x_lo, x_hi);
    ctx.zoomable(axes.plot, domain, None);
    let base = axes.y_at(foot);
    // A hidden series reduces to nothing, and keeps its index (its colour).
    let reduced: Vec<(Vec<f64>, Vec<f64>)> = series
        .iter()
        .enumerate()
        .map(|(i, s)| match shown(i) {
            true => reduce_shown(s, domain, zoom.is_some(), columns),
            false => (Vec::new(), Vec::new()),
        })
        .collect();
    // Every fill first, then every line: no fill covers another series' line.
    for (i, (xs, ys)) in reduced.iter().enumerate() {
        let fill = mix(ctx.theme.background, ctx.theme.color(i), FILL);
        for run in runs(&axes, xs, ys) {
            if let (Some(&(first, _)), Some(&(last, _))) = (run.first(), run.last()) {
                let mut shape = run;
                shape.extend([(last, base), (first, base)]);
                if zoom.is_some() {
                    shape = clip::polygon(&shape, axes.plot);
                }
                ctx.p.polygon(&shape, fill);
            }
        }
    }
    for (i, (xs, ys)) in reduced.iter().enumerate() {
        let color = ctx.theme.color(i);
        for run in runs(&axes, xs, ys) {
            match run.as_slice() {
                [lone] if inside(axes.plot, *lone) => ctx.p.circle(*lone, 2.5, color),
                [_] => {}
                run if zoom.is_some() => {
                    for part in clip::polyline(run, axes.plot) {
                        ctx.p.line(&part, color, 2.0);
                    }
                }
                run => ctx.p.line(run, color, 2.0),
            }
        }
    }
    if ctx.recording() {
        let y_at = |y: f64| axes.y_at(y);
        let at = Plotted {
            axes: &axes,
            domain,
            y_at: &y_at,
            value: &Text::Value,
        };
        for (s, (xs, ys)) in series.iter().zip(&reduced) {
            if xs.is_empty() {
                continue;
            }
            let name = ctx.series(series.len(), &s.name);
            record_points(ctx, &at, (xs, ys), name, precision);
        }
    }
}

/// The runs of points with a value, in pixels: a gap ends a run.
fn runs(axes: &Axes, xs: &[f64], ys: &[f64]) -> Vec<Vec<(f64, f64)>> {
    let mut out = vec![Vec::new()];
    for (&x, &y) in xs.iter().zip(ys) {
        if !x.is_finite() {
            continue;
        }
        if y.is_finite() {
            if let Some(run) = out.last_mut() {
                run.push((axes.x_at(x), axes.y_at(y)));
            }
        } else if out.last().is_some_and(|run| !run.is_empty()) {
            out.push(Vec::new());
        }
    }
    out.retain(|run| !run.is_empty());
    out
}

#[inline(never)]
pub fn stacked(ctx: &Ctx<'_>, body: Rect, s: &Stacked) {
    let legend = ctx.toggled_legend(s.series.iter().map(|one| one.name.as_str()), Marker::Square);
    let body = ctx.legend(body, &legend);
    // The layers shown stack on each other, and their totals (and shares) are theirs alone.
    let layers: Vec<(usize, &crate::model::NamedValues)> = s
        .series
        .iter()
        .enumerate()
        .filter(|(_, one)| ctx.shows(&one.name))
        .collect();
    let totals: Vec<f64> = (0..s.dates.len())
        .map(|i| layers.iter().filter_map(|(_, one)| one.values.get(i)).sum())
        .collect();
    // Shares in percent; a date whose total is zero stacks nothing.
    let factor = |i: usize| match (s.normalize, totals.get(i)) {
        (true, Some(&t)) if t > 0.0 => 100.0 / t,
        (true, _) => 0.0,
        (false, _) => 1.0,
    };
    let top = if s.normalize {
        100.0
    } else {
        totals.iter().copied().fold(0.0, f64::max)
    };
    let units = if s.normalize { Some("%") } else { ctx.units() };
    let (first, last) = (
        s.dates.first().copied().unwrap_or(0.0),
        s.dates.last().copied().unwrap_or(0.0),
    );
    let axes = ctx.axes(
        body,
        AxisSpec::Time {
            lo: first,
            hi: last,
            precision: s.precision,
        },
        AxisSpec::Linear {
            lo: 0.0,
            hi: top,
            fit: Fit::Zero,
            units,
        },
    );
    let _marks = ctx.p.marking();
    let shown = shown_dates(s.dates.len(), axes.plot.w * ctx.p.scale);
    // A single date has no width to fill: its stack is a column.
    let lone = (shown.len() == 1).then(|| {
        let w = axes.plot.w.min(24.0);
        (axes.plot.x + (axes.plot.w - w) / 2.0, w)
    });
    let mut lower = vec![0.0; shown.len()];
    for &(layer, one) in &layers {
        let color = ctx.theme.color(layer);
        let upper: Vec<f64> = shown
            .iter()
            .zip(&lower)
            .map(|(&i, &below)| below + one.values.get(i).copied().unwrap_or(0.0) * factor(i))
            .collect();
        let x = |i: usize| axes.x_at(s.dates.get(i).copied().unwrap_or(first));
        if let Some((left, w)) = lone {
            let (top, bottom) = (
                axes.y_at(upper.first().copied().unwrap_or(0.0)),
                axes.y_at(lower.first().copied().unwrap_or(0.0)),
            );
            ctx.p.rect(Rect::new(left, top, w, bottom - top), color);
        } else {
            let mut shape: Vec<(f64, f64)> = shown
                .iter()
                .zip(&upper)
                .map(|(&i, &v)| (x(i), axes.y_at(v)))
                .collect();
            let edge = shape.clone();
            shape.extend(
                shown
                    .iter()
                    .zip(&lower)
                    .rev()
                    .map(|(&i, &v)| (x(i), axes.y_at(v))),
            );
            ctx.p.polygon(&shape, color);
            // A hairline of the background between layers of like colours.
            ctx.p.line(&edge, ctx.theme.background, 1.0);
        }
        if ctx.recording() {
            record_layer(ctx, s, one, (&shown, &lower, &upper), &axes, &totals);
        }
        lower = upper;
    }
}

/// Indices of the dates drawn: all of them, or evenly spaced ones (the
/// last always) where there are more than [`PER_COLUMN`] a device column.
fn shown_dates(count: usize, device_width: f64) -> Vec<usize> {
    let room = (device_width.ceil().max(1.0) as usize).saturating_mul(PER_COLUMN);
    let step = count.div_ceil(room.max(1)).max(1);
    let mut shown: Vec<usize> = (0..count).step_by(step).collect();
    if let Some(last) = count.checked_sub(1) {
        if shown.last() != Some(&last) {
            shown.push(last);
        }
    }
    shown
}

/// One point per date drawn (at most one per CSS column), halfway up the
/// layer: the nearest is the layer under the pointer.
fn record_layer(
    ctx: &Ctx<'_>,
    s: &Stacked,
    one: &crate::model::NamedValues,
    (shown, lower, upper): (&[usize], &[f64], &[f64]),
    axes: &Axes,
    totals: &[f64],
) {
    let units = ctx.units();
    let name = ctx.series(s.series.len(), &one.name);
    let step = shown
        .len()
        .div_ceil(axes.plot.w.ceil().max(1.0) as usize)
        .max(1);
    for (j, &i) in shown.iter().enumerate().step_by(step) {
        let (Some(&date), Some(&v), Some(&lo), Some(&hi)) = (
            s.dates.get(i),
            one.values.get(i),
            lower.get(j),
            upper.get(j),
        ) else {
            continue;
        };
        let share = v / totals.get(i).copied().unwrap_or(f64::NAN);
        ctx.hit(|| Mark {
            shape: HitShape::Point {
                x: axes.x_at(date),
                y: axes.y_at((lo + hi) / 2.0),
            },
            series: name,
            label: Text::Date(date, s.precision),
            value: if s.normalize {
                Text::Ready(label::slice(v, share, units))
            } else {
                Text::Value(v)
            },
        });
    }
}
