//! Laying a card out: the whole card, in CSS pixels with deterministic
//! text widths (see [`text`]), recorded by [`Pen`] into a
//! [`Scene`](crate::scene::Scene) that names no drawing backend. The
//! painters in [`crate::paint`] turn the scene into canvas, SVG or PNG;
//! this module never calls them (see [`crate::render`]). What is shared by
//! every card (the chrome, axes, legends, colour ramps, text) is here; each
//! kind's own layout is in its folder under `crate::kinds`, which is above
//! this module and holds the entry (`Chart::scene`, in `scene.rs`).

pub(crate) mod axis;
pub(crate) mod chrome;
pub(crate) mod clip;
pub(crate) mod pen;
pub(crate) mod ramp;
pub mod text;
pub mod theme;

pub use crate::model::chart::Chart;
use crate::model::VizConfig;
use crate::scene::hit::{Mark, Recorder};
use crate::view::View;
pub use chrome::{class_layout, Sizes, REGULAR_WIDTH, SMALLEST};
use pen::Pen;
pub use pen::Rect;
pub use theme::Theme;

use crate::scene::Fit;

impl Chart {
    /// The theme the card asks for, unless the caller decides (`dark`).
    pub fn theme(&self, dark: Option<bool>) -> Theme {
        let dark = dark.or(self.config.dark_mode).unwrap_or(false);
        Theme::new(dark).with_colors(&self.config.colors)
    }
}

/// What every card's drawing needs.
pub(crate) struct Ctx<'c> {
    pub p: &'c Pen,
    pub theme: &'c Theme,
    pub sizes: &'c Sizes,
    pub config: &'c VizConfig,
    /// Where the marks land, when the caller asked (see [`Chart::draw_mapped`]).
    pub hits: &'c Recorder,
    /// How the card's plot follows its frame.
    pub fit: Fit,
    /// The series the reader hid.
    pub view: &'c View,
}

impl Ctx<'_> {
    /// In a build without maps (no `geo` feature), what a map card says.
    #[cfg(not(feature = "geo"))]
    pub fn no_maps(&self, body: Rect) {
        chrome::draw_empty(
            self.p,
            self.theme,
            self.sizes,
            body,
            "Maps are not included in this build",
        )
    }

    pub fn units(&self) -> Option<&str> {
        crate::label::units(self.config)
    }

    /// Whether the reader left series `name` shown.
    pub fn shows(&self, name: &str) -> bool {
        self.view.shows(name)
    }

    /// Records that the card zooms: its plot and the data values at its
    /// edges (x, and y for a card that zooms in y).
    pub fn zoomable(&self, plot: Rect, x: (f64, f64), y: Option<(f64, f64)>) {
        self.hits
            .zoom_window(crate::scene::ZoomWindow { plot, x, y });
    }

    /// Records a mark for hit-testing; `make` runs only when recording.
    pub fn hit(&self, make: impl FnOnce() -> Mark) {
        self.hits.add(make);
    }

    /// The series of a mark: `None` for a card of one series (the title
    /// already names it) and when not recording.
    pub fn series(&self, count: usize, name: &str) -> Option<u32> {
        self.hits.series(count, name)
    }

    /// True when marks are recorded, for loops that exist only to record.
    pub fn recording(&self) -> bool {
        self.hits.is_on()
    }

    /// Axes titled by the card's `x_label` and `y_label`.
    pub fn axes(&self, body: Rect, x: axis::AxisSpec<'_>, y: axis::AxisSpec<'_>) -> axis::Axes {
        self.axes_turned(body, x, y, false)
    }

    /// [`Ctx::axes`]; `turned` for a chart on its side, whose categories
    /// (`x_label`) run down the y axis and values (`y_label`) across.
    pub fn axes_turned(
        &self,
        body: Rect,
        x: axis::AxisSpec<'_>,
        y: axis::AxisSpec<'_>,
        turned: bool,
    ) -> axis::Axes {
        let (mut x_title, mut y_title) = (
            self.config.x_label.as_deref(),
            self.config.y_label.as_deref(),
        );
        if turned {
            std::mem::swap(&mut x_title, &mut y_title);
        }
        self.axes_of(
            body,
            axis::AxesSpec {
                x,
                y,
                x_title,
                y_title,
                y2: None,
            },
        )
    }

    /// [`Ctx::axes`] with a right axis titled by `right_axis_label`.
    pub fn axes_two(
        &self,
        body: Rect,
        x: axis::AxisSpec<'_>,
        y: axis::AxisSpec<'_>,
        y2: axis::AxisSpec<'_>,
    ) -> axis::Axes {
        self.axes_of(
            body,
            axis::AxesSpec {
                x,
                y,
                x_title: self.config.x_label.as_deref(),
                y_title: self.config.y_label.as_deref(),
                y2: Some((y2, self.config.right_axis_label.as_deref())),
            },
        )
    }

    fn axes_of(&self, body: Rect, spec: axis::AxesSpec<'_>) -> axis::Axes {
        let axes = axis::draw_axes(self.p, self.theme, self.sizes, body, &spec);
        self.p.set_plot(axes.plot);
        axes
    }

    /// `body` as the layout of the card's width class has it (see
    /// [`chrome::class_layout`]): the room a choice between layouts is made
    /// by, so that it is the same in every frame of the class.
    pub fn class_body(&self, body: Rect) -> Rect {
        let (w, h) = chrome::class_layout(self.p.width, self.fit);
        Rect::new(
            body.x,
            body.y,
            body.w - (self.p.width - w),
            body.h - (self.p.height - h),
        )
    }

    pub fn legend(&self, body: Rect, entries: &[chrome::LegendEntry]) -> Rect {
        let (body, placed) = chrome::draw_legend(self.p, self.theme, self.sizes, body, entries);
        if self.recording() {
            for (entry, rect) in placed
                .iter()
                .filter_map(|&(i, r)| Some((entries.get(i)?, r)))
            {
                if let Some(shown) = entry.toggle {
                    self.hits.legend_key(&entry.series, rect, shown);
                }
            }
        }
        body
    }

    /// [`Ctx::series_legend`] whose entries hide and show their series
    /// (the layout leaves hidden series out; see [`View`]).
    pub fn toggled_legend<'n>(
        &self,
        names: impl ExactSizeIterator<Item = &'n str>,
        marker: chrome::Marker,
    ) -> Vec<chrome::LegendEntry> {
        let mut entries = self.series_legend(names, marker);
        for entry in &mut entries {
            entry.toggle = Some(self.shows(&entry.series));
        }
        entries
    }

    /// One legend entry per series, or none for a single series (the
    /// title already says what it is).
    pub fn series_legend<'n>(
        &self,
        names: impl ExactSizeIterator<Item = &'n str>,
        marker: chrome::Marker,
    ) -> Vec<chrome::LegendEntry> {
        if names.len() < 2 {
            return Vec::new();
        }
        names
            .enumerate()
            .map(|(i, name)| chrome::LegendEntry::new(name, self.theme.color(i), marker))
            .collect()
    }
}
