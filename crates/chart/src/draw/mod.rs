//! Drawing a card onto any plotters drawing area.
//!
//! Layout is computed here in CSS pixels with deterministic text widths
//! (see [`text`]); `Painter` turns it into plotters elements at the
//! device scale. The same code draws SVG on the server and a canvas in the
//! page.

mod axis;
pub(crate) mod bars;
mod boxplot;
mod frame;
mod heatmap;
mod hit;
mod lines;
#[cfg(feature = "geo")]
mod map;
mod painter;
pub(crate) mod pie;
mod ramp;
mod scatter;
pub(crate) mod table;
pub mod text;
pub mod theme;
mod timeline;

use plotters::coord::Shift;
use plotters::prelude::SVGBackend;
use plotters::prelude::{DrawingArea, DrawingBackend, IntoDrawingArea};
use serde_json::Value;

use crate::model::{Card, CardKind, DataError, VisualizationData, VizConfig};
pub use frame::Sizes;
pub use hit::{Hit, HitMap, HitShape};
use hit::{Mark, Recorder};
use painter::Painter;
pub use painter::Rect;
pub use theme::Theme;

/// A card ready to draw: its settings and its data, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub config: VizConfig,
    pub kind: CardKind,
    pub card: Card,
}

#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    #[error(transparent)]
    Data(#[from] DataError),
    #[error("the drawing backend failed: {0}")]
    Backend(String),
}

impl Chart {
    pub fn from_json(text: &str) -> Result<Chart, DataError> {
        Chart::from_data(&VisualizationData::from_json(text)?)
    }

    pub fn from_value(value: &Value) -> Result<Chart, DataError> {
        Chart::from_data(&VisualizationData::from_value(value)?)
    }

    pub fn from_data(data: &VisualizationData) -> Result<Chart, DataError> {
        Ok(Chart {
            config: data.config.clone(),
            kind: data.kind(),
            card: data.card()?,
        })
    }

    /// The data read as `kind`, whatever `viz_component_type` says: one
    /// document reaches every reader and drawer (as a fuzzer wants).
    pub fn from_data_as(data: &VisualizationData, kind: CardKind) -> Result<Chart, DataError> {
        Ok(Chart {
            config: data.config.clone(),
            kind,
            card: Card::read(kind, &data.data)?,
        })
    }

    /// The theme the card asks for, unless the caller decides (`dark`).
    pub fn theme(&self, dark: Option<bool>) -> Theme {
        let dark = dark.or(self.config.dark_mode).unwrap_or(false);
        Theme::new(dark).with_colors(&self.config.colors)
    }

    /// Draws the whole card (frame, legend, marks) filling `area`.
    /// `scale` is device pixels per CSS pixel (2 on most phones): the
    /// layout is the same at every scale, only sharper.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
        scale: f64,
    ) -> Result<(), DrawError> {
        // No recording: drawing alone formats no tooltip text.
        self.render(area, theme, scale, &Recorder::off())
    }

    /// Draws like [`Chart::draw`] and returns where every mark landed, in
    /// CSS pixels (device pixels divided by `scale`), for tooltips. Tables,
    /// the empty state and cards too small for a chart give an empty map.
    pub fn draw_mapped<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
        scale: f64,
    ) -> Result<HitMap, DrawError> {
        let hits = Recorder::on(crate::label::units(&self.config));
        self.render(area, theme, scale, &hits)?;
        Ok(hits.finish())
    }

    fn render<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
        scale: f64,
        hits: &Recorder,
    ) -> Result<(), DrawError> {
        let p = Painter::new(area, scale);
        let sizes = Sizes::for_width(p.width);
        p.fill(theme.background)?;
        let body = frame::draw_frame(&p, theme, &sizes, &self.config)?;
        if body.w < 20.0 || body.h < 20.0 {
            // No room for a chart: the title alone is the honest answer.
            return Ok(());
        }
        if is_empty(&self.card) {
            return frame::draw_empty(&p, theme, &sizes, body, "No data to show");
        }
        let ctx = Ctx {
            p: &p,
            theme,
            sizes: &sizes,
            config: &self.config,
            hits,
        };
        match &self.card {
            Card::Categorical(c) => match c.kind {
                CardKind::Pie => pie::draw(&ctx, body, c),
                CardKind::Waterfall => bars::waterfall(&ctx, body, c),
                CardKind::StackedBar => bars::stacked(&ctx, body, c),
                CardKind::Choropleth => draw_map(&ctx, body, c),
                _ => bars::grouped(&ctx, body, c),
            },
            Card::Timeseries { series, precision } => lines::draw(&ctx, body, series, *precision),
            Card::Scatter(series) => scatter::draw(&ctx, body, series),
            Card::Boxplot(boxes) => boxplot::draw(&ctx, body, boxes),
            Card::Heatmap { xs, ys, values } => heatmap::draw(&ctx, body, xs, ys, values),
            Card::Timeline { items, precision } => timeline::draw(&ctx, body, items, *precision),
            Card::Histogram(values) => bars::histogram(&ctx, body, values),
            Card::Table { columns, rows } => table::draw(&ctx, body, columns, rows),
        }
    }

    /// The card as a standalone SVG document `width` × `height` pixels.
    pub fn to_svg(&self, width: u32, height: u32, theme: &Theme) -> Result<String, DrawError> {
        let (width, height) = (width.clamp(16, 8192), height.clamp(16, 8192));
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
            self.draw(&area, theme, 1.0)?;
            area.present()
                .map_err(|e| DrawError::Backend(format!("{e:?}")))?;
        }
        Ok(out)
    }
}

#[cfg(feature = "geo")]
fn draw_map<DB: DrawingBackend>(
    ctx: &Ctx<'_, '_, DB>,
    body: Rect,
    c: &crate::model::Categorical,
) -> Result<(), DrawError> {
    map::draw(ctx, body, c)
}

#[cfg(not(feature = "geo"))]
fn draw_map<DB: DrawingBackend>(
    ctx: &Ctx<'_, '_, DB>,
    body: Rect,
    _c: &crate::model::Categorical,
) -> Result<(), DrawError> {
    frame::draw_empty(
        ctx.p,
        ctx.theme,
        ctx.sizes,
        body,
        "Maps are not included in this build",
    )
}

/// What every card's drawing needs.
pub(crate) struct Ctx<'c, 'a, DB: DrawingBackend> {
    pub p: &'c Painter<'a, DB>,
    pub theme: &'c Theme,
    pub sizes: &'c Sizes,
    pub config: &'c VizConfig,
    /// Where the marks land, when the caller asked (see [`Chart::draw_mapped`]).
    pub hits: &'c Recorder,
}

impl<DB: DrawingBackend> Ctx<'_, '_, DB> {
    pub fn units(&self) -> Option<&str> {
        crate::label::units(self.config)
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
    pub fn axes(
        &self,
        body: Rect,
        x: axis::AxisSpec<'_>,
        y: axis::AxisSpec<'_>,
    ) -> Result<axis::Axes, DrawError> {
        let spec = axis::AxesSpec {
            x,
            y,
            x_title: self.config.x_label.as_deref(),
            y_title: self.config.y_label.as_deref(),
        };
        axis::draw_axes(self.p, self.theme, self.sizes, body, &spec)
    }

    pub fn legend(&self, body: Rect, entries: &[frame::LegendEntry]) -> Result<Rect, DrawError> {
        frame::draw_legend(self.p, self.theme, self.sizes, body, entries)
    }

    /// One legend entry per series, or none for a single series (the
    /// title already says what it is).
    pub fn series_legend<'n>(
        &self,
        names: impl ExactSizeIterator<Item = &'n str>,
        marker: frame::Marker,
    ) -> Vec<frame::LegendEntry> {
        if names.len() < 2 {
            return Vec::new();
        }
        names
            .enumerate()
            .map(|(i, name)| frame::LegendEntry::new(name, self.theme.color(i), marker))
            .collect()
    }
}

/// Smallest and largest finite value; (inf, -inf) when there is none,
/// which the scales read as "no data".
pub(crate) fn finite_range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}

/// The x and y ranges of the points whose x and y are both finite.
pub(crate) fn xy_extent(series: &[crate::model::Series]) -> ((f64, f64), (f64, f64)) {
    let points = || {
        series.iter().flat_map(|s| {
            s.xs.iter()
                .zip(&s.ys)
                .filter(|(x, y)| x.is_finite() && y.is_finite())
        })
    };
    (
        finite_range(points().map(|(x, _)| *x)),
        finite_range(points().map(|(_, y)| *y)),
    )
}

/// True when there is nothing a reader could see.
pub(crate) fn is_empty(card: &Card) -> bool {
    match card {
        Card::Categorical(c) => {
            c.categories.is_empty()
                || c.series
                    .iter()
                    .all(|s| s.values.iter().all(|v| !v.is_finite()))
        }
        Card::Timeseries { series, .. } | Card::Scatter(series) => series.iter().all(|s| {
            s.xs.iter()
                .zip(&s.ys)
                .all(|(x, y)| !x.is_finite() || !y.is_finite())
        }),
        Card::Boxplot(boxes) => boxes.is_empty(),
        Card::Heatmap { values, .. } => values.iter().all(|v| !v.is_finite()),
        Card::Timeline { items, .. } => items.is_empty(),
        Card::Histogram(values) => values.iter().all(|v| !v.is_finite()),
        Card::Table { columns, rows } => columns.is_empty() && rows.is_empty(),
    }
}
