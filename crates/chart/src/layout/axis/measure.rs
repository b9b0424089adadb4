//! Measuring the axes: how much room titles and tick labels take, and so
//! the plot rectangle, before anything is painted.

use std::borrow::Cow;

use crate::layout::chrome::Sizes;
use crate::layout::pen::Rect;
use crate::layout::text::{self, Weight};

use super::choose::{
    build, build_aligned, plan_band_labels, tick_labels, BandLabels, Scale, LABEL_GAP,
};
use super::{Axes, AxesSpec, AxisSpec, Fit};

/// Where everything of the axes goes.
pub struct AxesLayout {
    pub axes: Axes,
    /// The axis titles, cut to fit, and where they are anchored (the
    /// right axis's at its end).
    pub x_title: Option<(String, (f64, f64))>,
    pub y_title: Option<(String, (f64, f64))>,
    pub y2_title: Option<(String, (f64, f64))>,
    /// The room left of the plot for the y labels.
    pub y_label_w: f64,
    /// How a band x axis sets its labels.
    pub(super) band_plan: Option<BandLabels>,
    /// A value x axis labels every this many ticks (1: all).
    pub(super) x_every: usize,
}

/// Units longer than this many characters ("thousand jobs", "people") are
/// written once in the axis title instead of on every tick; short ones ("$",
/// "%", "kg", "USD") stay on the ticks, where they read best.
pub const LONG_UNITS: usize = 4;

/// An axis without its long units, and its title with them: "Jobs (thousand
/// jobs)", or the units alone when there is no title.
fn units_to_title<'s, 'a>(
    spec: &'s AxisSpec<'a>,
    title: Option<&str>,
) -> (Cow<'s, AxisSpec<'a>>, Option<String>) {
    match spec {
        AxisSpec::Linear {
            lo,
            hi,
            fit,
            units: Some(units),
        } if units.trim().chars().nth(LONG_UNITS).is_some() => {
            let units = units.trim();
            let title = match title.map(str::trim).filter(|t| !t.is_empty()) {
                Some(title) => [title, " (", units, ")"].concat(),
                None => units.to_owned(),
            };
            let bare = AxisSpec::Linear {
                lo: *lo,
                hi: *hi,
                fit: *fit,
                units: None,
            };
            (Cow::Owned(bare), Some(title))
        }
        other => (Cow::Borrowed(other), title.map(str::to_owned)),
    }
}

/// The axes laid out around `body`: titles, tick labels and the plot.
pub fn measure(sizes: &Sizes, body: Rect, spec: &AxesSpec<'_>) -> AxesLayout {
    let (x_spec, x_title) = units_to_title(&spec.x, spec.x_title);
    let (y_spec, y_title) = units_to_title(&spec.y, spec.y_title);
    let (y2_spec, y2_title) = match &spec.y2 {
        Some((y2, title)) => {
            let (y2, title) = units_to_title(y2, *title);
            (Some(y2), title)
        }
        None => (None, None),
    };
    let (x_spec, y_spec) = (&*x_spec, &*y_spec);
    let (x_title, y_title) = (x_title.as_deref(), y_title.as_deref());
    let line = sizes.tick * 1.3;

    // The y titles sit above the plot, level, where they are read first:
    // the left one at the left, the right one at the right, half each.
    let mut top = body.y;
    let titled = |t: Option<&str>| t.filter(|t| !t.trim().is_empty()).map(str::to_owned);
    let (y_title, y2_title) = (titled(y_title), titled(y2_title.as_deref()));
    let room = if y_title.is_some() && y2_title.is_some() {
        body.w / 2.0 - 8.0
    } else {
        body.w
    };
    let cut = |t: String| text::ellipsize(&t, sizes.tick, Weight::Bold, room);
    let y_title = y_title.map(|t| (cut(t), (body.x, top)));
    let y2_title = y2_title.map(|t| (cut(t), (body.right(), top)));
    if y_title.is_some() || y2_title.is_some() {
        top += line + 6.0;
    }
    let mut bottom = body.bottom();
    let x_title = x_title.filter(|t| !t.trim().is_empty()).map(|title| {
        let t = text::ellipsize(title, sizes.tick, Weight::Bold, body.w);
        let at = (body.x + body.w / 2.0, bottom);
        bottom -= line + 4.0;
        (t, at)
    });

    // First pass: the y labels' width decides where the plot starts.
    let guess_h = (bottom - top - line - 8.0).max(10.0);
    let y_first = build(y_spec, (guess_h / 40.0) as usize + 1);
    let y_label_w = match &y_first {
        Scale::Band(b) => b
            .labels
            .iter()
            .map(|l| text::width(l, sizes.tick, Weight::Regular))
            .fold(0.0, f64::max)
            .min(body.w * 0.45),
        other => tick_labels(other)
            .iter()
            .map(|l| text::width(l, sizes.tick, Weight::Regular))
            .fold(0.0, f64::max),
    };
    let left = body.x + y_label_w + 8.0;
    // Room on the right for the last x label to hang over the plot's edge,
    // or for the right axis's labels.
    let y2_first = y2_spec
        .as_deref()
        .map(|y2| build(y2, (guess_h / 40.0) as usize + 1));
    let y2_label_w = y2_first.as_ref().map_or(0.0, |y2| {
        tick_labels(y2)
            .iter()
            .map(|l| text::width(l, sizes.tick, Weight::Regular))
            .fold(0.0, f64::max)
    });
    let right = body.right() - 8.0 - y2_label_w;
    let plot_w = (right - left).max(10.0);

    let XAxis {
        scale: x_scale,
        band_plan,
        label_h: x_label_h,
        every: x_every,
    } = x_axis(sizes, x_spec, plot_w, (body.h, line));
    let plot_bottom = bottom - x_label_h - 8.0;
    let plot = Rect::new(
        left,
        top + line / 2.0,
        plot_w,
        plot_bottom - top - line / 2.0,
    );
    let y_scale = match y_first {
        Scale::Band(b) => Scale::Band(b),
        _ => build(y_spec, (plot.h / 40.0) as usize + 1),
    };

    let y2 = y2_spec
        .as_deref()
        .map(|y2| build_aligned(y2, &y_scale, (plot.h / 40.0) as usize + 1));
    let axes = Axes {
        plot,
        x: x_scale,
        y: y_scale,
        y2,
    };
    AxesLayout {
        axes,
        x_title,
        y_title,
        y2_title,
        y_label_w,
        band_plan,
        x_every,
    }
}

/// The x axis measured for a plot `plot_w` wide.
struct XAxis {
    scale: Scale,
    band_plan: Option<BandLabels>,
    /// The height its labels take.
    label_h: f64,
    /// A value axis labels every this many ticks.
    every: usize,
}

/// The x axis: its labels decide how much height they need. `line` is a
/// tick label's line height; `body_h` the card body's height.
fn x_axis(sizes: &Sizes, x_spec: &AxisSpec<'_>, plot_w: f64, (body_h, line): (f64, f64)) -> XAxis {
    // Dates are shorter than most numbers with units: room for a few more.
    let spacing = if matches!(x_spec, AxisSpec::Time { .. }) {
        75.0
    } else {
        90.0
    };
    // A zero-based value axis across (bars on their side) keeps a domain
    // that hugs the values whatever the room: at least 5 ticks, its labels
    // thinned below when crowded, never fewer ticks.
    let zero_based = matches!(x_spec, AxisSpec::Linear { fit: Fit::Zero, .. });
    let least = if zero_based { 5 } else { 2 };
    let x_first = build(x_spec, ((plot_w / spacing) as usize).max(least));
    let mut every = 1;
    let (scale, band_plan, label_h) = match x_first {
        Scale::Band(b) => {
            let plan = plan_band_labels(
                &b.labels,
                plot_w,
                sizes.tick,
                (body_h * 0.3).clamp(24.0, 140.0),
            );
            let h = match plan {
                BandLabels::Level { .. } => line,
                BandLabels::Vertical { length, .. } => length,
            };
            (Scale::Band(b), Some(plan), h)
        }
        continuous => {
            // Widen the spacing until the labels fit side by side. A
            // zero-based axis keeps its ticks and labels every other one (or
            // fewer): fewer ticks would stretch the domain far past the
            // values (0 to 2,000 for bars up to 1,450).
            let mut scale = continuous;
            for _ in 0..4 {
                let widest = tick_labels(&scale)
                    .iter()
                    .map(|l| text::width(l, sizes.tick, Weight::Regular))
                    .fold(0.0, f64::max);
                let count = tick_labels(&scale).len().max(1);
                let needed = (widest + LABEL_GAP * 2.0) * count as f64;
                if needed <= plot_w {
                    break;
                }
                if zero_based {
                    every = (needed / plot_w).ceil() as usize;
                    break;
                }
                let fit = (plot_w / (widest + LABEL_GAP * 2.0)).floor() as usize;
                scale = build(x_spec, fit.max(2).min(count.saturating_sub(1).max(2)));
                if fit < 2 {
                    break;
                }
            }
            (scale, None, line)
        }
    };
    XAxis {
        scale,
        band_plan,
        label_h,
        every,
    }
}
