//! timeseries: one line per series on a time axis, gaps kept, long series
//! reduced to what the pixels can show.

use crate::label;
use crate::layout::axis::{AxisSpec, Fit};
use crate::layout::chrome::Marker;
use crate::layout::clip;
use crate::layout::pen::Rect;
use crate::layout::Ctx;
use crate::model::{DatePrecision, Series};
use crate::reduce::min_max_columns;
use crate::scene::hit::{HitShape, Mark, Text};
use crate::shown::{visible, xy_extent_within};
use crate::sides::right_flags;

/// What the legend adds to a series' name when there are two axes.
const LEFT: &str = " (left axis)";
const RIGHT: &str = " (right axis)";

/// Dots drawn for points at most, beside the lines themselves.
const MAX_MARKERS: usize = 1_000;

/// A value axis over `lo..hi`: zero belongs on it when the data sit near
/// it anyway; otherwise it hugs the data so the shape of the line reads.
fn value_axis(lo: f64, hi: f64, units: Option<&str>) -> AxisSpec<'_> {
    let zero = lo >= 0.0 && lo < hi * 0.4 || hi <= 0.0 && hi > lo * 0.4;
    AxisSpec::Linear {
        lo,
        hi,
        fit: if zero { Fit::Zero } else { Fit::Nice },
        units,
    }
}

#[inline(never)]
pub fn draw(ctx: &Ctx<'_>, body: Rect, series: &[Series], precision: DatePrecision) {
    // Series far apart in size, or named so, read against a right axis
    // (crate::sides); the legend says which axis each reads against.
    let right = right_flags(ctx.config, series);
    let is_right = |i: usize| right.get(i).copied().unwrap_or(false);
    // A series hidden from the legend is left out of the axes too.
    let shown = |i: usize| series.get(i).is_some_and(|s| ctx.shows(&s.name));
    let mut legend = ctx.toggled_legend(series.iter().map(|s| s.name.as_str()), Marker::Line);
    if !right.is_empty() {
        for (i, entry) in legend.iter_mut().enumerate() {
            entry.label.push_str(if is_right(i) { RIGHT } else { LEFT });
        }
    }
    let body = ctx.legend(body, &legend);

    // One pass over the points of each side.
    // Zoomed: the x axis is the zoom's range, the y axes those of the points in it.
    let zoom = ctx.view.x();
    let ((x_lo, x_hi), (y_lo, y_hi)) =
        xy_extent_within(series, &|i| !is_right(i) && shown(i), zoom);
    let ((r_x_lo, r_x_hi), (r_lo, r_hi)) =
        xy_extent_within(series, &|i| is_right(i) && shown(i), zoom);
    let (x_lo, x_hi) = (x_lo.min(r_x_lo), x_hi.max(r_x_hi));
    let x = AxisSpec::Time {
        lo: x_lo,
        hi: x_hi,
        precision,
    };
    let y = value_axis(y_lo, y_hi, ctx.units());
    let right_units = label::right_units(ctx.config);
    let axes = if right.is_empty() {
        ctx.axes(body, x, y)
    } else {
        ctx.axes_two(body, x, y, value_axis(r_lo, r_hi, right_units))
    };
    let _marks = ctx.p.marking();

    let columns = (axes.plot.w * ctx.p.scale).ceil().max(1.0) as usize;
    let (dom_lo, dom_hi) = match &axes.x {
        crate::layout::axis::Scale::Time(t) => (t.lo, t.hi),
        _ => (x_lo, x_hi),
    };
    ctx.zoomable(axes.plot, (dom_lo, dom_hi), None);
    // Dots mark the points of sparse lines, while the card as a whole has
    // few enough of them to stay light.
    let few = (0..series.len())
        .filter(|&i| shown(i))
        .filter_map(|i| series.get(i))
        .map(|s| s.xs.len())
        .sum::<usize>()
        <= MAX_MARKERS;
    let lone = std::cell::Cell::new(0usize);
    for (i, s) in series.iter().enumerate() {
        if !shown(i) {
            continue;
        }
        let color = ctx.theme.color(i);
        let y_at = |y| {
            if is_right(i) {
                axes.y2_at(y)
            } else {
                axes.y_at(y)
            }
        };
        // Tooltips of a right series speak its axis's units.
        let on_right_units = right_units.filter(|u| is_right(i) && Some(*u) != ctx.units());
        let (xs, ys) = reduce_shown(s, (dom_lo, dom_hi), zoom.is_some(), columns);
        let sparse = few && xs.len() <= 60 && (xs.len() as f64) < axes.plot.w / 10.0;
        let mut run: Vec<(f64, f64)> = Vec::new();
        let flush = |run: &mut Vec<(f64, f64)>| {
            match run.len() {
                0 => {}
                // A lone point between gaps would vanish as a line; past
                // MAX_MARKERS of them the card is a spray that adds nothing.
                1 => {
                    if let Some(&p) = run
                        .first()
                        .filter(|&&p| lone.get() < MAX_MARKERS && inside(axes.plot, p))
                    {
                        lone.set(lone.get() + 1);
                        ctx.p.circle(p, 2.5, color);
                    }
                }
                // A zoomed line is cut at the plot's edges.
                _ if zoom.is_some() => {
                    for part in clip::polyline(run, axes.plot) {
                        ctx.p.line(&part, color, 2.0);
                    }
                }
                _ => ctx.p.line(run, color, 2.0),
            }
            run.clear();
        };
        for (&x, &y) in xs.iter().zip(&ys) {
            if !x.is_finite() {
                continue;
            }
            if !y.is_finite() {
                flush(&mut run);
                continue;
            }
            run.push((axes.x_at(x), y_at(y)));
        }
        flush(&mut run);
        if sparse {
            for (&x, &y) in xs.iter().zip(&ys) {
                let at = (axes.x_at(x), y_at(y));
                if x.is_finite() && y.is_finite() && inside(axes.plot, at) {
                    ctx.p.circle(at, 3.5, ctx.theme.background);
                    ctx.p.circle(at, 2.5, color);
                }
            }
        }
        if ctx.recording() {
            let name = ctx.series(series.len(), &s.name);
            let value = |y: f64| match on_right_units {
                Some(units) => Text::Ready(label::exact(y, Some(units))),
                None => Text::Value(y),
            };
            let at = Plotted {
                axes: &axes,
                domain: (dom_lo, dom_hi),
                y_at: &y_at,
                value: &value,
            };
            record_points(ctx, &at, (&xs, &ys), name, precision);
        }
    }
}

/// The line `s` reduced for `columns` device columns over `domain`; a
/// zoomed one reads only the points in it (and one beyond each edge).
pub(super) fn reduce_shown(
    s: &Series,
    domain: (f64, f64),
    zoomed: bool,
    columns: usize,
) -> (Vec<f64>, Vec<f64>) {
    let n = s.xs.len().min(s.ys.len());
    let (a, b) = if zoomed {
        visible(s.xs.get(..n).unwrap_or(&[]), domain)
    } else {
        (0, n)
    };
    let (xs, ys) = (s.xs.get(a..b).unwrap_or(&[]), s.ys.get(a..b).unwrap_or(&[]));
    min_max_columns(xs, ys, domain.0, domain.1, columns)
}

/// Whether `p` is in `r` (half a pixel of slack for rounding).
pub(super) fn inside(r: Rect, (x, y): (f64, f64)) -> bool {
    x >= r.x - 0.5 && x <= r.right() + 0.5 && y >= r.y - 0.5 && y <= r.bottom() + 0.5
}

/// Where a line's points land and what their tooltips say.
pub(super) struct Plotted<'a> {
    pub axes: &'a crate::layout::axis::Axes,
    /// The x domain the line was reduced over.
    pub domain: (f64, f64),
    pub y_at: &'a dyn Fn(f64) -> f64,
    pub value: &'a dyn Fn(f64) -> Text,
}

/// The points left after reduction as hits: real data, at most four per
/// CSS pixel column, so a million points cost a few thousand hits. On a
/// dense screen the line keeps four per device column; its hits are
/// reduced once more to four per CSS column.
pub(super) fn record_points(
    ctx: &Ctx<'_>,
    at: &Plotted<'_>,
    (xs, ys): (&[f64], &[f64]),
    name: Option<u32>,
    precision: DatePrecision,
) {
    let css_columns = at.axes.plot.w.ceil().max(1.0) as usize;
    let reduced;
    let (xs, ys) = if (at.axes.plot.w * ctx.p.scale).ceil() as usize > css_columns {
        reduced = min_max_columns(xs, ys, at.domain.0, at.domain.1, css_columns);
        (reduced.0.as_slice(), reduced.1.as_slice())
    } else {
        (xs, ys)
    };
    for (&x, &y) in xs.iter().zip(ys) {
        // Not the points a zoomed line reaches the edges by.
        let shown = x >= at.domain.0 && x <= at.domain.1;
        if x.is_finite() && y.is_finite() && shown {
            ctx.hit(|| Mark {
                shape: HitShape::Point {
                    x: at.axes.x_at(x),
                    y: (at.y_at)(y),
                },
                series: name,
                label: Text::Date(x, precision),
                value: (at.value)(y),
            });
        }
    }
}
