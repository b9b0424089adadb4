//! The card kinds, one folder each, and the one place every kind is
//! reached through. A kind's folder holds what is its own: its reader
//! with the `impl` blocks of its data type (`mod.rs`), its layout with the
//! marks it records for tooltips (`layout.rs`), and its summary and data
//! table (`describe.rs`). Kinds that read the same data and share a layout
//! share a folder, a file per kind where they differ: [`bars`], [`lines`],
//! [`maps`]. Shared machinery (axes, scales, text, legend, the scene, the
//! painters, JSON) is below: `crate::layout`, `crate::describe`,
//! `crate::model`.
//!
//! A kind's writer (`write.rs`, the `serde` feature) is in its folder too;
//! `crate::model::write` holds what the writers share.
//!
//! The kinds are the top layer: nothing else in the crate names this
//! module. What the layers below need of a kind (the table of
//! [`CardKind`], the [`Card`] enum, each kind's data type and caps) is in
//! one file, `crate::model::registry`; the entries that end in a kind
//! (reading a [`Chart`], laying it out, describing it, building and
//! writing it) are `impl` blocks here, in `chart.rs`, `scene.rs`,
//! `words.rs` and `build.rs`. Besides its folder and the registry, a kind
//! is named only here: its arm in each function below. Each function is a
//! `match`: a missing arm is a compile error, so a new kind cannot be half
//! registered.

pub(crate) mod bars;
pub(crate) mod boxplot;
#[cfg(feature = "serde")]
mod build;
mod chart;
pub(crate) mod heatmap;
pub(crate) mod histogram;
pub(crate) mod lines;
pub(crate) mod maps;
pub(crate) mod metric;
pub(crate) mod pie;
pub(crate) mod scatter;
mod scene;
pub(crate) mod table;
pub(crate) mod timeline;
pub(crate) mod treemap;
mod words;

use crate::describe::cells::Cells;
use crate::describe::DataTable;
use crate::layout::{Ctx, Rect};
use crate::model::card::check_objects;
use crate::model::chart::Chart;
use crate::model::{Card, CardKind, Categorical, DataError, DataShape, Places};
use crate::scene::Fit;

impl Card {
    pub fn read(kind: CardKind, shape: &DataShape) -> Result<Card, DataError> {
        Card::read_with(kind, shape, false)
    }

    /// [`Card::read`]; `epoch_ms`: numbers as dates are milliseconds since
    /// 1970 (`viz_config.x_time: "epoch_ms"`), not years.
    pub fn read_with(kind: CardKind, shape: &DataShape, epoch_ms: bool) -> Result<Card, DataError> {
        check_objects(shape)?;
        match kind {
            CardKind::Bar | CardKind::GroupedBar | CardKind::StackedBar | CardKind::Waterfall => {
                bars::read(kind, shape)
            }
            CardKind::Pie => pie::read(shape),
            CardKind::Choropleth => maps::read_choropleth(shape),
            CardKind::Map | CardKind::BubbleMap => maps::read::read(kind, shape),
            // A stacked area is read as a timeseries, then stacked
            // ([`finish`]).
            CardKind::Timeseries | CardKind::AreaTimeseries | CardKind::StackedAreaTimeseries => {
                lines::read(shape, epoch_ms)
            }
            CardKind::Scatter => scatter::read(shape),
            CardKind::Table => table::read(shape),
            CardKind::Heatmap => heatmap::read(shape),
            CardKind::Timeline => timeline::read(shape, epoch_ms),
            // Their series are pooled: no legend, no cap on series.
            CardKind::Boxplot => boxplot::read(shape),
            CardKind::Histogram => histogram::read(shape),
            CardKind::Treemap => treemap::read(shape),
            CardKind::TopLevelMetric => metric::read(shape),
        }
    }
}

/// What a kind makes of what its reader read, once `viz_config` has had
/// its say (`percent_change` first): a stacked area stacks its series
/// (`normalize`: as shares of each date's total).
pub(crate) fn finish(kind: CardKind, card: Card, normalize: bool) -> Result<Card, DataError> {
    match card {
        Card::Timeseries { series, precision } if kind == CardKind::StackedAreaTimeseries => {
            lines::stacked::stack(series, precision, normalize).map(Card::Stacked)
        }
        card => Ok(card),
    }
}

/// Refuses a card built rather than read (`Chart::build`, the `serde`
/// feature) where the reader of its text would refuse it: past a kind's
/// limits.
#[cfg(feature = "serde")]
pub(crate) fn within_limits(card: &Card) -> Result<(), DataError> {
    use crate::model::write::{categorical_within, series_within};
    match card {
        Card::Categorical(c) => categorical_within(c),
        Card::Timeseries { series, .. } | Card::Scatter(series) => series_within(series.len()),
        Card::Boxplot(boxes) => boxplot::write::within_limits(boxes),
        Card::Heatmap { xs, ys, .. } => heatmap::write::within_limits(xs, ys),
        Card::Timeline { items, .. } => timeline::write::within_limits(items),
        Card::Table { columns, rows } => table::write::within_limits(columns, rows),
        Card::Treemap(t) => treemap::write::within_limits(t),
        Card::Metric(m) => metric::write::within_limits(m),
        Card::Places(p) => maps::write::within_limits(p),
        // Its reader keeps every value (they are only counted in bins).
        Card::Histogram(_) => Ok(()),
        // Chart::new stacks it, within MAX_STACKED_VALUES.
        Card::Stacked(_) => Ok(()),
    }
}

/// The card's `data` as `visualization_data` (the `serde` feature;
/// `model/write.rs` writes `viz_config` and holds what the kinds' writers
/// share).
#[cfg(feature = "serde")]
pub(crate) fn write<S: serde::Serializer>(chart: &Chart, s: S) -> Result<S::Ok, S::Error> {
    let ms = chart.config.epoch_ms;
    match &chart.card {
        Card::Categorical(c) => crate::model::write::categorical(c, s),
        Card::Timeseries { series, precision } => lines::write::line(series, *precision, ms, s),
        Card::Scatter(series) => scatter::write::write(series, s),
        Card::Boxplot(boxes) => boxplot::write::write(boxes, s),
        Card::Heatmap { xs, ys, values } => heatmap::write::write(xs, ys, values, s),
        Card::Timeline { items, precision } => timeline::write::write(items, *precision, ms, s),
        Card::Histogram(values) => histogram::write::write(values, s),
        Card::Table { columns, rows } => table::write::write(columns, rows, s),
        Card::Stacked(stacked) => lines::write::stacked(stacked, ms, s),
        Card::Treemap(t) => treemap::write::write(t, s),
        Card::Metric(m) => metric::write::write(m, s),
        Card::Places(p) => maps::write::write(p, s),
    }
}

/// Lays the card out in `body`. Each kind's layout is `#[inline(never)]`
/// (and wasm-opt is told to keep big functions of one caller apart:
/// scripts/build.sh): inlined here, every kind's code made one 64 KB
/// function, and a browser compiles a wasm function whole on its first
/// call, so a page's first line card compiled the pie, the map and the
/// table too (5 ms).
pub(crate) fn draw(ctx: &Ctx<'_>, body: Rect, chart: &Chart) {
    match &chart.card {
        Card::Categorical(c) => match c.kind {
            CardKind::Pie => pie::layout::draw(ctx, body, c),
            CardKind::Waterfall => bars::layout::waterfall(ctx, body, c),
            CardKind::StackedBar => bars::layout::stacked(ctx, body, c),
            CardKind::Choropleth => draw_choropleth(ctx, body, c),
            _ => bars::layout::grouped(ctx, body, c),
        },
        Card::Timeseries { series, precision } if chart.kind == CardKind::AreaTimeseries => {
            lines::area::area(ctx, body, series, *precision)
        }
        Card::Timeseries { series, precision } => lines::line::draw(ctx, body, series, *precision),
        Card::Scatter(series) => scatter::layout::draw(ctx, body, series),
        Card::Boxplot(boxes) => boxplot::layout::draw(ctx, body, boxes),
        Card::Heatmap { xs, ys, values } => heatmap::layout::draw(ctx, body, xs, ys, values),
        Card::Timeline { items, precision } => timeline::layout::draw(ctx, body, items, *precision),
        Card::Histogram(values) => histogram::layout::draw(ctx, body, values),
        Card::Table { columns, rows } => table::layout::draw(ctx, body, columns, rows),
        Card::Stacked(s) => lines::area::stacked(ctx, body, s),
        Card::Treemap(t) => treemap::layout::draw(ctx, body, t),
        Card::Metric(m) => metric::layout::draw(ctx, body, m),
        Card::Places(places) => draw_places(ctx, body, places),
    }
}

#[cfg(feature = "geo")]
fn draw_choropleth(ctx: &Ctx<'_>, body: Rect, c: &Categorical) {
    maps::choropleth::draw(ctx, body, c)
}

#[cfg(feature = "geo")]
fn draw_places(ctx: &Ctx<'_>, body: Rect, places: &Places) {
    maps::places::draw(ctx, body, places)
}

#[cfg(not(feature = "geo"))]
fn draw_choropleth(ctx: &Ctx<'_>, body: Rect, _c: &Categorical) {
    ctx.no_maps(body)
}

#[cfg(not(feature = "geo"))]
fn draw_places(ctx: &Ctx<'_>, body: Rect, _places: &Places) {
    ctx.no_maps(body)
}

/// How the card's plot follows a frame of another size than it was
/// laid out for: maps and pies keep their shape, tables widen, every
/// other card's marks fill the plot.
pub(crate) fn fit(card: &Card) -> Fit {
    match card {
        Card::Categorical(c) if c.kind == CardKind::Choropleth => Fit::Scale,
        Card::Places(_) => Fit::Scale,
        Card::Categorical(c) if c.kind == CardKind::Pie => Fit::ScaleCentred,
        Card::Table { .. } => Fit::Rows,
        _ => Fit::Stretch,
    }
}

/// The names of the series the reader can hide from the legend: those of
/// a card drawn as lines, areas, dots or bars (two or more, checked by the
/// caller).
pub(crate) fn toggled_series(card: &Card) -> Vec<&str> {
    match card {
        Card::Timeseries { series, .. } | Card::Scatter(series) => {
            series.iter().map(|s| s.name.as_str()).collect()
        }
        Card::Categorical(c)
            if !matches!(
                c.kind,
                CardKind::Pie | CardKind::Waterfall | CardKind::Choropleth
            ) =>
        {
            c.series.iter().map(|s| s.name.as_str()).collect()
        }
        Card::Stacked(s) => s.series.iter().map(|one| one.name.as_str()).collect(),
        _ => Vec::new(),
    }
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
        Card::Stacked(s) => s.dates.is_empty() || s.series.is_empty(),
        Card::Treemap(t) => t.leaves.is_empty(),
        Card::Metric(m) => !m.value.is_finite(),
        Card::Places(p) => p.places.is_empty(),
    }
}

/// The type the drawing follows: the data's shape decides, the stated
/// type only tells the categorical cards apart.
pub(crate) fn drawn_kind(chart: &Chart) -> CardKind {
    match &chart.card {
        Card::Categorical(c) => c.kind,
        Card::Timeseries { .. } if chart.kind == CardKind::AreaTimeseries => chart.kind,
        Card::Timeseries { .. } => CardKind::Timeseries,
        Card::Scatter(_) => CardKind::Scatter,
        Card::Boxplot(_) => CardKind::Boxplot,
        Card::Heatmap { .. } => CardKind::Heatmap,
        Card::Timeline { .. } => CardKind::Timeline,
        Card::Histogram(_) => CardKind::Histogram,
        Card::Table { .. } => CardKind::Table,
        Card::Stacked(_) => CardKind::StackedAreaTimeseries,
        Card::Treemap(_) => CardKind::Treemap,
        Card::Metric(_) => CardKind::TopLevelMetric,
        Card::Places(p) if p.bubbles => CardKind::BubbleMap,
        Card::Places(_) => CardKind::Map,
    }
}

/// What the reader would call the card.
pub(crate) fn noun(kind: CardKind) -> &'static str {
    match kind {
        CardKind::Bar => "Bar chart",
        CardKind::GroupedBar => "Grouped bar chart",
        CardKind::StackedBar => "Stacked bar chart",
        CardKind::Timeseries => "Line chart",
        CardKind::Pie => "Pie chart",
        CardKind::Choropleth => "Map",
        CardKind::Scatter => "Scatter plot",
        CardKind::Boxplot => "Box plot",
        CardKind::Heatmap => "Heatmap",
        CardKind::Timeline => "Timeline",
        CardKind::Waterfall => "Waterfall chart",
        CardKind::Histogram => "Histogram",
        CardKind::Table => "Table",
        CardKind::AreaTimeseries => "Area chart",
        CardKind::StackedAreaTimeseries => "Stacked area chart",
        CardKind::Treemap => "Treemap",
        CardKind::TopLevelMetric => "Headline number",
        CardKind::Map => "Map of places",
        CardKind::BubbleMap => "Bubble map",
    }
}

/// The summary's details: what the card's data span (see
/// [`Chart::summary`]), for a card with something to see.
pub(crate) fn summary(chart: &Chart, units: Option<&str>) -> String {
    match &chart.card {
        Card::Categorical(c) => match c.kind {
            CardKind::Pie => pie::describe::summary(c),
            CardKind::Waterfall => bars::describe::waterfall_summary(c, units),
            CardKind::Choropleth => maps::describe::choropleth_summary(c, units),
            CardKind::StackedBar => bars::describe::stacked_summary(c, units),
            _ => bars::describe::summary(c, units),
        },
        Card::Timeseries { series, precision } => {
            lines::describe::summary(chart, series, *precision)
        }
        Card::Scatter(series) => scatter::describe::summary(chart, series, units),
        Card::Boxplot(boxes) => boxplot::describe::summary(boxes, units),
        Card::Heatmap { xs, ys, values } => heatmap::describe::summary(xs, ys, values, units),
        Card::Timeline { items, precision } => timeline::describe::summary(items, *precision),
        Card::Histogram(values) => histogram::describe::summary(values, units),
        Card::Stacked(s) => lines::describe::stacked_summary(s, units),
        Card::Treemap(t) => treemap::describe::summary(t, units),
        Card::Metric(m) => metric::describe::summary(m, units),
        Card::Places(p) => maps::describe::places_summary(p, units),
        Card::Table { columns, rows } => table::describe::summary(columns, rows),
    }
}

/// The card's data as at most `max_rows` rows, written by `f` (see
/// [`DataTable`]).
pub(crate) fn data_table(chart: &Chart, max_rows: usize, f: Cells<'_>) -> DataTable {
    use crate::describe::table::{x_name, y_name};
    match &chart.card {
        Card::Categorical(c) => match c.kind {
            CardKind::Pie => pie::describe::table(chart, c, max_rows, f),
            CardKind::Waterfall => bars::describe::waterfall_table(chart, c, max_rows, f),
            CardKind::Choropleth => maps::describe::choropleth_table(chart, c, max_rows, f),
            _ => bars::describe::table(chart, c, max_rows, f),
        },
        Card::Timeseries { series, precision } => {
            let names = (x_name(chart, "Date"), y_name(chart, "Value"));
            lines::describe::table(series, *precision, names, max_rows, (&chart.config, f))
        }
        Card::Scatter(all) => scatter::describe::table(chart, all, max_rows, f),
        Card::Boxplot(boxes) => boxplot::describe::table(chart, boxes, max_rows, f),
        Card::Heatmap { xs, ys, values } => {
            heatmap::describe::table(chart, (xs, ys, values), max_rows, f)
        }
        Card::Timeline { items, precision } => {
            timeline::describe::table(items, *precision, max_rows, f)
        }
        Card::Histogram(values) => histogram::describe::table(chart, values, max_rows, f),
        Card::Stacked(s) => lines::describe::stacked_table(s, x_name(chart, "Date"), max_rows, f),
        Card::Treemap(t) => {
            let names = (x_name(chart, "Category"), y_name(chart, "Value"));
            treemap::describe::table(t, names, max_rows, f)
        }
        Card::Metric(m) => {
            let names = (x_name(chart, "When"), y_name(chart, "Value"));
            metric::describe::table(m, names, max_rows, f)
        }
        Card::Places(p) => maps::describe::places_table(p, y_name(chart, "Value"), max_rows, f),
        Card::Table { columns, rows } => table::describe::table(columns, rows, max_rows, f),
    }
}
