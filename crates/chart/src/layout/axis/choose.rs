//! Choosing the scales and their ticks: nice numbers, calendar steps,
//! categories in bands, and how crowded category labels are set.

use crate::layout::text::{self, Weight};
use crate::model::DatePrecision;
use crate::scale::{nice_ticks, nice_ticks_exactly, time_ticks, LinearTicks, NumberFormat};

use super::{AxisSpec, Fit};

/// A continuous scale with nice ticks.
#[derive(Debug, Clone)]
pub struct Linear {
    pub lo: f64,
    pub hi: f64,
    pub ticks: Vec<f64>,
    pub labels: Vec<String>,
}

impl Linear {
    /// Ticks over the data range, the domain as `fit` says.
    pub fn new(lo: f64, hi: f64, max_ticks: usize, fit: Fit, units: Option<&str>) -> Linear {
        let (mut lo, mut hi) = if lo.is_finite() && hi.is_finite() && lo <= hi {
            (lo, hi)
        } else {
            (0.0, 1.0)
        };
        if fit == Fit::Zero {
            lo = lo.min(0.0);
            hi = hi.max(0.0);
        }
        let budget = max_ticks.clamp(2, 12);
        let mut ticks = nice_ticks(lo, hi, budget);
        if fit == Fit::Exact && hi > lo {
            // Ticks outside the ends are dropped; a denser set may be needed
            // to keep two inside, but never more than the room allows.
            for denser in budget..=budget * 3 {
                let mut inside = nice_ticks(lo, hi, denser);
                inside.values.retain(|t| (lo..=hi).contains(t));
                if inside.values.len() > budget {
                    break;
                }
                let enough = inside.values.len() >= 2;
                ticks = inside;
                if enough {
                    break;
                }
            }
            (ticks.min, ticks.max) = (lo, hi);
        }
        Linear::labelled(ticks, units)
    }

    /// Exactly `count` ticks over the data range (a right axis, its ticks
    /// on the left axis's grid lines); as [`Linear::new`] when no nice step
    /// gives that many.
    pub fn aligned(lo: f64, hi: f64, count: usize, fit: Fit, units: Option<&str>) -> Linear {
        let (lo, hi) = if fit == Fit::Zero {
            (lo.min(0.0), hi.max(0.0))
        } else {
            (lo, hi)
        };
        match nice_ticks_exactly(lo, hi, count) {
            Some(ticks) => Linear::labelled(ticks, units),
            None => Linear::new(lo, hi, count, fit, units),
        }
    }

    fn labelled(ticks: LinearTicks, units: Option<&str>) -> Linear {
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

    /// 0..=1 position of `v` in the domain; the middle of one of no width.
    pub fn unit(&self, v: f64) -> f64 {
        crate::scale::unit(v, self.lo, self.hi).unwrap_or(0.5)
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

    /// 0..=1 position of `v` in the domain; the middle of one of no width.
    pub fn unit(&self, v: f64) -> f64 {
        crate::scale::unit(v, self.lo, self.hi).unwrap_or(0.5)
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

/// Minimum room between neighbouring tick labels, in pixels.
pub(super) const LABEL_GAP: f64 = 10.0;

pub(super) fn build(spec: &AxisSpec<'_>, max_ticks: usize) -> Scale {
    match spec {
        AxisSpec::Linear { lo, hi, fit, units } => {
            Scale::Linear(Linear::new(*lo, *hi, max_ticks, *fit, *units))
        }
        AxisSpec::Time { lo, hi, precision } => {
            Scale::Time(Time::new(*lo, *hi, max_ticks, *precision))
        }
        AxisSpec::Band { labels, padding } => Scale::Band(Band {
            labels: labels.clone(),
            padding: *padding,
        }),
    }
}

/// A right axis with as many ticks as `left` (any number when it has none).
pub(super) fn build_aligned(spec: &AxisSpec<'_>, left: &Scale, max_ticks: usize) -> Scale {
    match (spec, left) {
        (AxisSpec::Linear { lo, hi, fit, units }, Scale::Linear(l)) => {
            Scale::Linear(Linear::aligned(*lo, *hi, l.ticks.len(), *fit, *units))
        }
        _ => build(spec, max_ticks),
    }
}

pub(super) fn tick_labels(scale: &Scale) -> &[String] {
    match scale {
        Scale::Linear(l) => &l.labels,
        Scale::Time(t) => &t.labels,
        Scale::Band(b) => &b.labels,
    }
}

/// How the category labels under a band axis are set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum BandLabels {
    /// Every `every`-th label, level, each cut to `max_width`.
    Level { every: usize, max_width: f64 },
    /// Turned to read upwards, cut to `length`.
    Vertical { every: usize, length: f64 },
}

pub(super) fn plan_band_labels(
    labels: &[String],
    plot_w: f64,
    size: f64,
    max_length: f64,
) -> BandLabels {
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

pub(super) fn continuous_ticks(scale: &Scale) -> (&[f64], &[String]) {
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
    fn an_exact_axis_ends_at_the_data_with_two_ticks_inside_at_least() {
        for budget in 2..=12 {
            let axis = Linear::new(1.5, 10.5, budget, Fit::Exact, None);
            assert_eq!((axis.lo, axis.hi), (1.5, 10.5));
            assert!(
                axis.ticks.len() >= 2 && axis.ticks.len() <= budget,
                "{budget}: {:?}",
                axis.ticks
            );
            assert!(axis.ticks.iter().all(|t| (1.5..=10.5).contains(t)));
        }
        let nice = Linear::new(1.5, 10.5, 5, Fit::Nice, None);
        assert!(
            nice.lo <= 0.0 && nice.hi >= 12.0,
            "{:?}",
            (nice.lo, nice.hi)
        );
    }

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
