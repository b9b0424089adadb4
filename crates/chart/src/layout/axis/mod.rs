//! Axes of the cartesian cards, in three steps: choosing the scales and
//! their ticks ([`choose`]), measuring the room their labels and titles
//! take and so the plot rectangle ([`measure`]), and placing their lines
//! and labels in the scene ([`place`]).

mod choose;
mod measure;
mod place;

use super::chrome::Sizes;
use super::pen::{Pen, Rect};
use super::theme::Theme;
use crate::model::DatePrecision;

pub use choose::Scale;
use measure::measure;

/// How a linear axis's domain meets the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Out to the nice ticks around the data.
    Nice,
    /// Out to the nice ticks, zero included (bars start there).
    Zero,
    /// The data's own ends, ticks inside them (a histogram's outer edges).
    Exact,
}

/// What a card asks of one axis; ticks are chosen once the room is known.
#[derive(Debug, Clone)]
pub enum AxisSpec<'a> {
    Linear {
        lo: f64,
        hi: f64,
        fit: Fit,
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

/// The laid-out axes: the plot rectangle and the scales.
#[derive(Debug, Clone)]
pub struct Axes {
    pub plot: Rect,
    pub x: Scale,
    pub y: Scale,
    /// A second value axis on the right, its ticks on the left axis's grid.
    pub y2: Option<Scale>,
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

    /// Vertical pixel of a value read against the right axis (the left one
    /// without it).
    pub fn y2_at(&self, v: f64) -> f64 {
        self.plot.bottom() - unit(self.y2.as_ref().unwrap_or(&self.y), v) * self.plot.h
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

/// The axes of a card and their titles.
pub struct AxesSpec<'a> {
    pub x: AxisSpec<'a>,
    pub y: AxisSpec<'a>,
    pub x_title: Option<&'a str>,
    pub y_title: Option<&'a str>,
    /// A right value axis (a linear one) and its title.
    pub y2: Option<(AxisSpec<'a>, Option<&'a str>)>,
}

/// Lays out the axes around `body` and places them: returns where the marks go.
pub fn draw_axes(p: &Pen, theme: &Theme, sizes: &Sizes, body: Rect, spec: &AxesSpec<'_>) -> Axes {
    let layout = measure(sizes, body, spec);
    place::place(p, theme, sizes, body, &layout);
    layout.axes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::text::{self, Weight};
    use crate::scene::Item;

    #[test]
    fn measuring_paints_nothing_and_places_what_painting_draws() {
        let sizes = Sizes::for_width(800.0);
        let body = Rect::new(16.0, 60.0, 768.0, 400.0);
        let regions = ["North", "South", "East"];
        let spec = AxesSpec {
            x: AxisSpec::Band {
                labels: regions.iter().map(|r| r.to_string()).collect(),
                padding: 0.2,
            },
            y: AxisSpec::Linear {
                lo: 0.0,
                hi: 52_900.0,
                fit: Fit::Zero,
                units: None,
            },
            x_title: Some("Region"),
            y_title: Some("Units sold"),
            y2: None,
        };
        let layout = measure(&sizes, body, &spec);
        let plot = layout.axes.plot;
        // The y title takes a line above the plot, the x title one below.
        let (title, at) = layout.y_title.clone().unwrap_or_default();
        assert_eq!((title.as_str(), at), ("Units sold", (body.x, body.y)));
        assert!(plot.y > body.y + sizes.tick);
        assert!(layout
            .x_title
            .as_ref()
            .is_some_and(|(_, (_, y))| *y > plot.bottom()));
        // The widest y label ("60k") fits left of the plot.
        let widest = text::width("60k", sizes.tick, Weight::Regular);
        assert!(plot.x >= body.x + widest + 8.0, "{plot:?}");

        let p = Pen::new(800.0, 500.0, 1.0);
        let axes = draw_axes(&p, &Theme::light(), &sizes, body, &spec);
        assert_eq!(axes.plot, plot);
        let texts: Vec<(String, (f64, f64))> = p
            .finish()
            .0
            .into_iter()
            .filter_map(|item| match item {
                Item::Text { text, at, .. } => Some((text, at)),
                _ => None,
            })
            .collect();
        assert!(texts.contains(&(title, at)));
        for (i, region) in regions.iter().enumerate() {
            let (x, w) = layout.axes.x_band(i);
            let centred = (x + w / 2.0, plot.bottom() + 6.0);
            assert!(texts.contains(&(region.to_string(), centred)), "{region}");
        }
    }

    #[test]
    fn long_units_go_to_the_axis_title_once_and_short_ones_stay_on_the_ticks() {
        let sizes = Sizes::for_width(800.0);
        let body = Rect::new(16.0, 60.0, 768.0, 400.0);
        let layout = |units, title| {
            measure(
                &sizes,
                body,
                &AxesSpec {
                    x: AxisSpec::Band {
                        labels: vec!["A".into(), "B".into()],
                        padding: 0.2,
                    },
                    y: AxisSpec::Linear {
                        lo: -1500.0,
                        hi: 500.0,
                        fit: Fit::Zero,
                        units: Some(units),
                    },
                    x_title: None,
                    y_title: title,
                    y2: None,
                },
            )
        };
        let long = layout(" thousand jobs ", Some("Change"));
        let title = long.y_title.map(|(t, _)| t);
        assert_eq!(title.as_deref(), Some("Change (thousand jobs)"));
        let ticks = choose::tick_labels(&long.axes.y);
        assert!(ticks.contains(&"\u{2212}1,500".to_owned()), "{ticks:?}");
        assert!(ticks.iter().all(|t| !t.contains("jobs")), "{ticks:?}");
        let untitled = layout("people", None).y_title.map(|(t, _)| t);
        assert_eq!(untitled.as_deref(), Some("people"));
        let short = layout("USD", Some("Change"));
        assert_eq!(short.y_title.map(|(t, _)| t).as_deref(), Some("Change"));
        assert!(choose::tick_labels(&short.axes.y)
            .iter()
            .any(|t| t.ends_with(" USD")));
    }
}
