//! Axes of the cartesian cards: scales, tick labels that never overlap,
//! grid lines and axis titles, and the plot rectangle they leave.

use super::frame::Sizes;
use super::painter::{Align, Baseline, Font, Painter, Rect};
use super::text::{self, Weight};
use super::theme::Theme;
use super::DrawError;
use crate::model::DatePrecision;
use crate::scale::{nice_ticks, time_ticks, NumberFormat};

/// A continuous scale with nice ticks.
#[derive(Debug, Clone)]
pub struct Linear {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
    pub labels: Vec<String>,
}

impl Linear {
    /// Ticks over the data range; `zero` pulls zero into the domain (bars).
    pub fn new(lo: f64, hi: f64, max_ticks: usize, zero: bool, units: Option<&str>) -> Linear {
        let (mut lo, mut hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
            (lo, hi)
        } else {
            (0.0, 1.0)
        };
        if zero {
            lo = lo.min(0.0);
            hi = hi.max(0.0);
        }
        let ticks = nice_ticks(lo, hi, max_ticks.clamp(2, 12));
        let max_abs = ticks.min.abs().max(ticks.max.abs());
        let format = NumberFormat::for_axis(ticks.step, max_abs, units);
        let labels = ticks.values.iter().map(|v| format.format(*v)).collect();
        Linear {
            lo: ticks.min,
            hi: ticks.max,
            ticks: ticks.values,
            labels,
        }
    }

    /// 0..=1 position of `v` in the domain.
    pub fn unit(&self, v: f64) -> f64 {
        let span = self.hi - self.lo;
        if span > 0.0 && span.is_finite() {
            (v - self.lo) / span
        } else {
            0.5
        }
    }
}

/// A time scale: the domain is the data's own range, ticks on calendar steps.
#[derive(Debug, Clone)]
pub struct Time {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
    pub labels: Vec<String>,
}

impl Time {
    pub fn new(lo: f64, hi: f64, max_ticks: usize, precision: DatePrecision) -> Time {
        let (mut lo, mut hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
            (lo, hi)
        } else {
            (0.0, 86_400.0)
        };
        if hi - lo < 1.0 {
            // One instant: centre it in a span of its own precision.
            let half = match precision {
                DatePrecision::Year => 183.0 * 86_400.0,
                DatePrecision::Month => 15.0 * 86_400.0,
                DatePrecision::Day => 86_400.0,
                _ => 1_800.0,
            };
            lo -= half;
            hi += half;
        }
        // A coarse unit can leave a narrow axis with one tick (quarters on
        // January to June data): ask for finer steps until there are three.
        let mut wanted = max_ticks.clamp(2, 12);
        let mut t = time_ticks(lo, hi, wanted, precision);
        while t.values.len() < 3 && wanted < 8 {
            wanted += 1;
            t = time_ticks(lo, hi, wanted, precision);
        }
        Time {
            lo,
            hi,
            ticks: t.values,
            labels: t.labels,
        }
    }

    pub fn unit(&self, v: f64) -> f64 {
        let span = self.hi - self.lo;
        if span > 0.0 {
            (v - self.lo) / span
        } else {
            0.5
        }
    }
}

/// Categories in equal bands.
#[derive(Debug, Clone)]
pub struct Band {
    pub labels: Vec<String>,
    /// Fraction of each band left empty between bars.
    pub padding: f64,
}

impl Band {
    pub fn count(&self) -> usize {
        self.labels.len().max(1)
    }
}

#[derive(Debug, Clone)]
pub enum Scale {
    Linear(Linear),
    Time(Time),
    Band(Band),
}

/// What a card asks of one axis; ticks are chosen once the room is known.
#[derive(Debug, Clone)]
pub enum AxisSpec<'a> {
    Linear {
        lo: f64,
        hi: f64,
        zero: bool,
        units: Option<&'a str>,
    },
    Time {
        lo: f64,
        hi: f64,
        precision: DatePrecision,
    },
    Band {
        labels: Vec<String>,
        padding: f64,
    },
}

/// The laid-out axes: the plot rectangle and both scales.
#[derive(Debug, Clone)]
pub struct Axes {
    pub plot: Rect,
    pub x: Scale,
    pub y: Scale,
}

impl Axes {
    /// Horizontal pixel of a continuous x value.
    pub fn x_at(&self, v: f64) -> f64 {
        self.plot.x + unit(&self.x, v) * self.plot.w
    }

    /// Vertical pixel of a continuous y value (up is larger).
    pub fn y_at(&self, v: f64) -> f64 {
        self.plot.bottom() - unit(&self.y, v) * self.plot.h
    }

    /// Left edge and width of band `i` on the x axis.
    pub fn x_band(&self, i: usize) -> (f64, f64) {
        band_slot(&self.x, i, self.plot.x, self.plot.w)
    }

    /// Top edge and height of band `i` on the y axis (first at the top).
    pub fn y_band(&self, i: usize) -> (f64, f64) {
        band_slot(&self.y, i, self.plot.y, self.plot.h)
    }
}

fn unit(scale: &Scale, v: f64) -> f64 {
    match scale {
        Scale::Linear(l) => l.unit(v),
        Scale::Time(t) => t.unit(v),
        Scale::Band(_) => 0.5,
    }
}

fn band_slot(scale: &Scale, i: usize, start: f64, length: f64) -> (f64, f64) {
    match scale {
        Scale::Band(b) => {
            let step = length / b.count() as f64;
            let inner = step * (1.0 - b.padding.clamp(0.0, 0.9));
            (start + step * i as f64 + (step - inner) / 2.0, inner)
        }
        _ => (start, length),
    }
}

/// Minimum room between neighbouring tick labels, in pixels.
const LABEL_GAP: f64 = 10.0;

fn build(spec: &AxisSpec<'_>, max_ticks: usize) -> Scale {
    match spec {
        AxisSpec::Linear {
            lo,
            hi,
            zero,
            units,
        } => Scale::Linear(Linear::new(*lo, *hi, max_ticks, *zero, *units)),
        AxisSpec::Time { lo, hi, precision } => {
            Scale::Time(Time::new(*lo, *hi, max_ticks, *precision))
        }
        AxisSpec::Band { labels, padding } => Scale::Band(Band {
            labels: labels.clone(),
            padding: *padding,
        }),
    }
}

fn tick_labels(scale: &Scale) -> &[String] {
    match scale {
        Scale::Linear(l) => &l.labels,
        Scale::Time(t) => &t.labels,
        Scale::Band(b) => &b.labels,
    }
}

/// How the category labels under a band axis are set.
#[derive(Debug, Clone, Copy, PartialEq)]
enum BandLabels {
    /// Every `every`-th label, level, each cut to `max_width`.
    Level { every: usize, max_width: f64 },
    /// Turned to read upwards, cut to `length`.
    Vertical { every: usize, length: f64 },
}

fn plan_band_labels(labels: &[String], plot_w: f64, size: f64, max_length: f64) -> BandLabels {
    let n = labels.len().max(1);
    let step = plot_w / n as f64;
    let widest = labels
        .iter()
        .map(|l| text::width(l, size, Weight::Regular))
        .fold(0.0, f64::max);
    if widest + LABEL_GAP <= step {
        return BandLabels::Level {
            every: 1,
            max_width: step - 4.0,
        };
    }
    // Short labels that only collide: thin them out before turning them.
    if widest <= 90.0 && widest + LABEL_GAP <= plot_w / 2.0 {
        let every = ((widest + LABEL_GAP) / step).ceil().max(1.0) as usize;
        if n / every >= 4 || n <= 8 {
            return BandLabels::Level {
                every,
                max_width: widest + 2.0,
            };
        }
    }
    let line = size * 1.3;
    let every = (line / step).ceil().max(1.0) as usize;
    BandLabels::Vertical {
        every,
        length: widest.min(max_length),
    }
}

/// Both axes of a card and their titles.
pub struct AxesSpec<'a> {
    pub x: AxisSpec<'a>,
    pub y: AxisSpec<'a>,
    pub x_title: Option<&'a str>,
    pub y_title: Option<&'a str>,
}

/// Lays out and draws the axes around `body`: returns where the marks go.
pub fn draw_axes(
    p: &Painter,
    theme: &Theme,
    sizes: &Sizes,
    body: Rect,
    spec: &AxesSpec<'_>,
) -> Result<Axes, DrawError> {
    let (x_spec, y_spec) = (&spec.x, &spec.y);
    let (x_title, y_title) = (spec.x_title, spec.y_title);
    let tick_font = Font::new(sizes.tick, Weight::Regular, theme.muted);
    let title_font = Font::new(sizes.tick, Weight::Bold, theme.muted);
    let line = sizes.tick * 1.3;

    // The y title sits above the plot, level, where it is read first.
    let mut top = body.y;
    if let Some(title) = y_title.filter(|t| !t.trim().is_empty()) {
        let t = text::ellipsize(title, sizes.tick, Weight::Bold, body.w);
        p.text(&t, (body.x, top), title_font, Align::Start, Baseline::Top)?;
        top += line + 6.0;
    }
    let mut bottom = body.bottom();
    if let Some(title) = x_title.filter(|t| !t.trim().is_empty()) {
        let t = text::ellipsize(title, sizes.tick, Weight::Bold, body.w);
        p.text(
            &t,
            (body.x + body.w / 2.0, bottom),
            title_font,
            Align::Middle,
            Baseline::Bottom,
        )?;
        bottom -= line + 4.0;
    }

    // First pass: the y labels' width decides where the plot starts.
    let guess_h = (bottom - top - line - 8.0).max(10.0);
    let y_first = build(y_spec, (guess_h / 40.0) as usize + 1);
    let y_label_w = match &y_first {
        Scale::Band(b) => b
            .labels
            .iter()
            .map(|l| text::width(l, sizes.tick, Weight::Regular))
            .fold(0.0, f64::max)
            .min(body.w * 0.35),
        other => tick_labels(other)
            .iter()
            .map(|l| text::width(l, sizes.tick, Weight::Regular))
            .fold(0.0, f64::max),
    };
    let left = body.x + y_label_w + 8.0;
    // Room on the right for the last x label to hang over the plot's edge.
    let right = body.right() - 8.0;
    let plot_w = (right - left).max(10.0);

    // The x axis: labels decide how much height they need.
    // Dates are shorter than most numbers with units: room for a few more.
    let spacing = if matches!(x_spec, AxisSpec::Time { .. }) {
        75.0
    } else {
        90.0
    };
    let x_first = build(x_spec, ((plot_w / spacing) as usize).max(2));
    let (x_scale, band_plan, x_label_h) = match x_first {
        Scale::Band(b) => {
            let plan = plan_band_labels(
                &b.labels,
                plot_w,
                sizes.tick,
                (body.h * 0.3).clamp(24.0, 140.0),
            );
            let h = match plan {
                BandLabels::Level { .. } => line,
                BandLabels::Vertical { length, .. } => length,
            };
            (Scale::Band(b), Some(plan), h)
        }
        continuous => {
            // Widen the spacing until the labels fit side by side.
            let mut scale = continuous;
            for _ in 0..4 {
                let widest = tick_labels(&scale)
                    .iter()
                    .map(|l| text::width(l, sizes.tick, Weight::Regular))
                    .fold(0.0, f64::max);
                let count = tick_labels(&scale).len().max(1);
                if (widest + LABEL_GAP * 2.0) * count as f64 <= plot_w {
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

    let axes = Axes {
        plot,
        x: x_scale,
        y: y_scale,
    };

    // Grid and y labels.
    match &axes.y {
        Scale::Band(b) => {
            for (i, label) in b.labels.iter().enumerate() {
                let (y, h) = axes.y_band(i);
                if h < sizes.tick * 0.9
                    && i % ((sizes.tick / h.max(0.1)).ceil() as usize).max(1) != 0
                {
                    continue;
                }
                let t = text::ellipsize(label, sizes.tick, Weight::Regular, y_label_w);
                p.text(
                    &t,
                    (plot.x - 8.0, y + h / 2.0),
                    Font::new(sizes.tick, Weight::Regular, theme.text),
                    Align::End,
                    Baseline::Middle,
                )?;
            }
        }
        scale => {
            let (ticks, labels) = continuous_ticks(scale);
            for (v, label) in ticks.iter().zip(labels) {
                let y = axes.y_at(*v);
                if !(plot.y - 0.5..=plot.bottom() + 0.5).contains(&y) {
                    continue;
                }
                let color = if *v == 0.0 { theme.axis } else { theme.grid };
                p.line(&[(plot.x, y), (plot.right(), y)], color, 1.0)?;
                p.text(
                    label,
                    (plot.x - 8.0, y),
                    tick_font,
                    Align::End,
                    Baseline::Middle,
                )?;
            }
        }
    }

    // x labels.
    let label_y = plot.bottom() + 6.0;
    match (&axes.x, band_plan) {
        (Scale::Band(b), Some(plan)) => {
            for (i, label) in b.labels.iter().enumerate() {
                let (x, w) = axes.x_band(i);
                let cx = x + w / 2.0;
                match plan {
                    BandLabels::Level { every, max_width } => {
                        if i % every != 0 {
                            continue;
                        }
                        let t = text::ellipsize(label, sizes.tick, Weight::Regular, max_width);
                        if overhangs(cx, &t, sizes, body) {
                            continue;
                        }
                        p.text(
                            &t,
                            (cx, label_y),
                            Font::new(sizes.tick, Weight::Regular, theme.text),
                            Align::Middle,
                            Baseline::Top,
                        )?;
                    }
                    BandLabels::Vertical { every, length } => {
                        if i % every != 0 {
                            continue;
                        }
                        let t = text::ellipsize(label, sizes.tick, Weight::Regular, length);
                        p.text_turned(
                            &t,
                            (cx, label_y),
                            Font::new(sizes.tick, Weight::Regular, theme.text),
                            Align::End,
                            Baseline::Middle,
                            true,
                        )?;
                    }
                }
            }
        }
        (scale, _) => {
            let (ticks, labels) = continuous_ticks(scale);
            for (v, label) in ticks.iter().zip(labels) {
                let x = axes.x_at(*v);
                if !(plot.x - 0.5..=plot.right() + 0.5).contains(&x) {
                    continue;
                }
                if matches!(axes.y, Scale::Band(_)) {
                    p.line(&[(x, plot.y), (x, plot.bottom())], theme.grid, 1.0)?;
                } else {
                    p.line(
                        &[(x, plot.bottom()), (x, plot.bottom() + 4.0)],
                        theme.axis,
                        1.0,
                    )?;
                }
                if overhangs(x, label, sizes, body) {
                    continue;
                }
                p.text(label, (x, label_y), tick_font, Align::Middle, Baseline::Top)?;
            }
        }
    }
    // The baseline under the marks.
    if !matches!(axes.y, Scale::Band(_)) {
        let zero_inside = matches!(&axes.y, Scale::Linear(l) if l.lo < 0.0 && l.hi > 0.0);
        if !zero_inside {
            p.line(
                &[(plot.x, plot.bottom()), (plot.right(), plot.bottom())],
                theme.axis,
                1.0,
            )?;
        }
    }
    Ok(axes)
}

/// A centred label at `x` reaching past the card's padding would be cut
/// off at the edge: better left out.
fn overhangs(x: f64, label: &str, sizes: &Sizes, body: Rect) -> bool {
    let half = text::width(label, sizes.tick, Weight::Regular) / 2.0;
    x - half < body.x - sizes.pad / 2.0 || x + half > body.right() + sizes.pad / 2.0
}

fn continuous_ticks(scale: &Scale) -> (&[f64], &[String]) {
    match scale {
        Scale::Linear(l) => (&l.ticks, &l.labels),
        Scale::Time(t) => (&t.ticks, &t.labels),
        Scale::Band(_) => (&[], &[]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn band_labels_thin_or_turn_when_crowded() {
        let few: Vec<String> = ["A", "B", "C"].iter().map(|s| s.to_string()).collect();
        assert!(matches!(
            plan_band_labels(&few, 300.0, 12.0, 120.0),
            BandLabels::Level { every: 1, .. }
        ));
        let many: Vec<String> = (0..200).map(|i| format!("{i}")).collect();
        let plan = plan_band_labels(&many, 600.0, 12.0, 120.0);
        assert!(
            matches!(plan, BandLabels::Level { every, .. } if every > 1),
            "{plan:?}"
        );
        let long: Vec<String> = (0..12)
            .map(|i| format!("A rather long category {i}"))
            .collect();
        assert!(matches!(
            plan_band_labels(&long, 600.0, 12.0, 120.0),
            BandLabels::Vertical { .. }
        ));
    }
}
