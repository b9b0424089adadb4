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
use crate::model::{Card, CardKind, DataError, DataShape, KindGroup};
use crate::scene::Fit;

/// What a group of kinds does, as plain functions: each `match` on the
/// card's kind ends in one of these, so that a group's code can arrive
/// after the rest (the engine's chunks, `lazy-kinds`).
pub struct GroupCode {
    read: fn(CardKind, &DataShape, bool) -> Result<Card, DataError>,
    /// What the group makes of what it read once `viz_config` has had its
    /// say (`percent_change` first): a stacked area stacks its series.
    finish: fn(CardKind, Card, bool) -> Result<Card, DataError>,
    draw: fn(&Ctx<'_>, Rect, &Chart),
    summary: fn(&Chart, Option<&str>) -> String,
    data_table: fn(&Chart, usize, Cells<'_>) -> DataTable,
}

fn kept(_: CardKind, card: Card, _: bool) -> Result<Card, DataError> {
    Ok(card)
}

fn no_table() -> DataTable {
    DataTable::default()
}

/// Calls `$callback!` with the name of every group: its function in
/// [`groups`], its [`KindGroup::as_str`] and its chunk in the engine module,
/// whose split points are made from this list (zdr-engine's `chunks.rs`),
/// so that a new group is named in this crate only.
#[macro_export]
macro_rules! for_each_group {
    ($callback:ident) => {
        $callback! {
            bars, pie, maps, lines, scatter, table, heatmap, timeline, boxplot, histogram, treemap,
            metric,
        }
    };
}

/// The code of each group, for the engine's split points: each function
/// names one group only, so that a chunk holds that group alone.
pub mod groups {
    use super::GroupCode;

    pub fn bars() -> &'static GroupCode {
        &super::bars::CODE
    }
    pub fn pie() -> &'static GroupCode {
        &super::pie::CODE
    }
    pub fn maps() -> &'static GroupCode {
        &super::maps::CODE
    }
    pub fn lines() -> &'static GroupCode {
        &super::lines::CODE
    }
    pub fn scatter() -> &'static GroupCode {
        &super::scatter::CODE
    }
    pub fn table() -> &'static GroupCode {
        &super::table::CODE
    }
    pub fn heatmap() -> &'static GroupCode {
        &super::heatmap::CODE
    }
    pub fn timeline() -> &'static GroupCode {
        &super::timeline::CODE
    }
    pub fn boxplot() -> &'static GroupCode {
        &super::boxplot::CODE
    }
    pub fn histogram() -> &'static GroupCode {
        &super::histogram::CODE
    }
    pub fn treemap() -> &'static GroupCode {
        &super::treemap::CODE
    }
    pub fn metric() -> &'static GroupCode {
        &super::metric::CODE
    }
}

/// Every group linked in: the host, the API, the tests.
#[cfg(not(feature = "lazy-kinds"))]
fn code(group: KindGroup) -> Result<&'static GroupCode, DataError> {
    Ok(match group {
        KindGroup::Bars => groups::bars(),
        KindGroup::Pie => groups::pie(),
        KindGroup::Maps => groups::maps(),
        KindGroup::Lines => groups::lines(),
        KindGroup::Scatter => groups::scatter(),
        KindGroup::Table => groups::table(),
        KindGroup::Heatmap => groups::heatmap(),
        KindGroup::Timeline => groups::timeline(),
        KindGroup::Boxplot => groups::boxplot(),
        KindGroup::Histogram => groups::histogram(),
        KindGroup::Treemap => groups::treemap(),
        KindGroup::Metric => groups::metric(),
    })
}

/// The groups whose code has arrived ([`install`]). The engine module is
/// one thread: a `OnceLock` only because a `static` must be `Sync`.
#[cfg(feature = "lazy-kinds")]
static INSTALLED: [std::sync::OnceLock<&'static GroupCode>; KindGroup::ALL.len()] =
    [const { std::sync::OnceLock::new() }; KindGroup::ALL.len()];

#[cfg(feature = "lazy-kinds")]
fn code(group: KindGroup) -> Result<&'static GroupCode, DataError> {
    INSTALLED[group as usize]
        .get()
        .copied()
        .ok_or_else(|| DataError::unloaded(group))
}

/// Makes `group`'s code, once it has arrived, what its cards are read,
/// drawn and described with.
#[cfg(feature = "lazy-kinds")]
pub fn install(group: KindGroup, code: &'static GroupCode) {
    let _ = INSTALLED[group as usize].set(code);
}

/// True when cards of `group` can be read and drawn.
pub fn is_loaded(group: KindGroup) -> bool {
    code(group).is_ok()
}

impl Card {
    pub fn read(kind: CardKind, shape: &DataShape) -> Result<Card, DataError> {
        Card::read_with(kind, shape, false)
    }

    /// [`Card::read`]; `epoch_ms`: numbers as dates are milliseconds since
    /// 1970 (`viz_config.x_time: "epoch_ms"`), not years.
    pub fn read_with(kind: CardKind, shape: &DataShape, epoch_ms: bool) -> Result<Card, DataError> {
        check_objects(shape)?;
        (code(kind.group())?.read)(kind, shape, epoch_ms)
    }
}

/// What a kind makes of what its reader read, once `viz_config` has had
/// its say (`percent_change` first): a stacked area stacks its series
/// (`normalize`: as shares of each date's total).
pub(crate) fn finish(kind: CardKind, card: Card, normalize: bool) -> Result<Card, DataError> {
    // Only a stacked area's group remakes what was read: every other card
    // is drawn as read, so the page's columns of a line or a scatter are
    // read (copied once) before their group's code has arrived.
    match kind {
        CardKind::StackedAreaTimeseries => (code(kind.group())?.finish)(kind, card, normalize),
        _ => Ok(card),
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
    // A chart is read only once its group's code is there.
    if let Ok(code) = code(drawn_kind(chart).group()) {
        (code.draw)(ctx, body, chart)
    }
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
    match code(drawn_kind(chart).group()) {
        Ok(code) => (code.summary)(chart, units),
        Err(_) => String::new(),
    }
}

/// The card's data as at most `max_rows` rows, written by `f` (see
/// [`DataTable`]).
pub(crate) fn data_table(chart: &Chart, max_rows: usize, f: Cells<'_>) -> DataTable {
    match code(drawn_kind(chart).group()) {
        Ok(code) => (code.data_table)(chart, max_rows, f),
        Err(_) => no_table(),
    }
}

#[cfg(test)]
mod tests {
    use crate::model::KindGroup;

    #[test]
    fn the_list_of_groups_names_every_group_once_in_order() {
        macro_rules! names {
            ($($name:ident,)*) => { vec![$(stringify!($name)),*] };
        }
        let listed: Vec<&str> = crate::for_each_group!(names);
        let groups: Vec<&str> = KindGroup::ALL.iter().map(|g| g.as_str()).collect();
        assert_eq!(listed, groups);
    }
}
