//! Laying a card out: the whole card, in CSS pixels with deterministic
//! text widths (see [`text`]), recorded by [`Pen`] into a
//! [`Scene`](crate::scene::Scene) that names no drawing backend. The
//! painters in [`crate::paint`] turn the scene into canvas, SVG or PNG;
//! this module never calls them (see [`crate::render`]). What is shared by
//! every card (the chrome, axes, legends, colour ramps, text) is here; each
//! kind's own layout is in its folder under `crate::kinds`.

pub(crate) mod axis;
pub(crate) mod chrome;
pub(crate) mod clip;
pub(crate) mod pen;
pub(crate) mod ramp;
pub mod text;
pub mod theme;

pub use crate::chart::Chart;
use crate::kinds::is_empty;
use crate::model::VizConfig;
use crate::scene::hit::{Mark, Recorder};
use crate::view::View;
pub use chrome::{class_layout, Sizes, REGULAR_WIDTH, SMALLEST};
use pen::Pen;
pub use pen::Rect;
pub use theme::Theme;

use crate::scene::{Fit, Scene};

impl Chart {
    /// The theme the card asks for, unless the caller decides (`dark`).
    pub fn theme(&self, dark: Option<bool>) -> Theme {
        let dark = dark.or(self.config.dark_mode).unwrap_or(false);
        Theme::new(dark).with_colors(&self.config.colors)
    }

    /// Lays the card out once for `width` × `height` CSS pixels: every
    /// mark, text and the plot area as a display list, for any painter.
    /// With `record_hits`, the scene also says where every mark landed.
    pub fn scene(&self, width: f64, height: f64, theme: &Theme, record_hits: bool) -> Scene {
        self.scene_viewed(width, height, (theme, &View::default()), record_hits)
    }

    /// [`Chart::scene`] as the reader's `view` has the card.
    pub fn scene_viewed(
        &self,
        width: f64,
        height: f64,
        (theme, view): (&Theme, &View),
        record_hits: bool,
    ) -> Scene {
        self.scene_at(width, height, (1.0, view), theme, record_hits)
    }

    /// The names of the series the reader can hide from the legend (see
    /// [`View`]): those of a card of several series drawn as lines, areas,
    /// dots or bars; none for any other card.
    pub fn toggled_series(&self) -> Vec<&str> {
        let names = crate::kinds::toggled_series(&self.card);
        if names.len() < 2 {
            return Vec::new();
        }
        names
    }

    /// [`Chart::scene`] for a painter `scale` device pixels per CSS pixel,
    /// as the reader's `view` has it: the layout is the same at every scale;
    /// only how finely long series are reduced follows it.
    pub(crate) fn scene_at(
        &self,
        width: f64,
        height: f64,
        (scale, view): (f64, &View),
        theme: &Theme,
        record_hits: bool,
    ) -> Scene {
        let hits = if record_hits {
            Recorder::on(crate::label::units(&self.config), self.config.locale)
        } else {
            Recorder::off()
        };
        self.layout(Pen::new(width, height, scale), (theme, view), hits)
    }

    /// Infallible: recording a display list cannot fail, so the card code
    /// carries no error paths (only painting onto a backend can fail).
    fn layout(&self, p: Pen, (theme, view): (&Theme, &View), hits: Recorder) -> Scene {
        self.lay_out(&p, (theme, view), &hits);
        let (width, height, plot) = (p.width, p.height, p.plot());
        let (items, roles) = p.finish();
        Scene {
            width,
            height,
            background: theme.background,
            plot,
            items,
            roles,
            fit: self.fit(),
            hits: hits.finish(),
        }
    }

    fn lay_out(&self, p: &Pen, (theme, view): (&Theme, &View), hits: &Recorder) {
        let _locale = crate::locale::scoped(self.config.locale);
        let sizes = Sizes::for_width(p.width);
        let body = chrome::draw_chrome(p, theme, &sizes, &self.config);
        if body.w < 20.0 || body.h < 20.0 {
            // No room for a chart: the title alone is the honest answer.
            return;
        }
        if is_empty(&self.card) {
            return chrome::draw_empty(p, theme, &sizes, body, "No data to show");
        }
        let ctx = Ctx {
            p,
            theme,
            sizes: &sizes,
            config: &self.config,
            hits,
            fit: self.fit(),
            view,
        };
        crate::kinds::draw(&ctx, body, self)
    }

    /// How the card's plot follows a frame of another size than it was
    /// laid out for: maps and pies keep their shape, tables widen, every
    /// other card's marks fill the plot.
    pub fn fit(&self) -> Fit {
        crate::kinds::fit(&self.card)
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
