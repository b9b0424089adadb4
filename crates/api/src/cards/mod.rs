//! The cards the API makes, one builder per card kind, side by side: each
//! takes what was worked out of a table (sums per category, points per
//! date, rows) and returns the typed card of `zdr_chart`, which writes
//! itself as `visualization_data` once, when the answer is sent. The
//! recommender (`recommend`) and the question's plan (`query::build`)
//! decide what to show; how a kind holds it is said only here.
//!
//! A card the types allow is one the engine draws: nothing is written to
//! be read again to find out.

mod area;
mod bars;
mod boxplot;
mod heatmap;
mod histogram;
mod line;
mod metric;
mod places;
mod scatter;
mod table;
mod timeline;
mod treemap;

pub(crate) use area::{running, stacked};
pub(crate) use bars::{bars, categorical};
pub(crate) use boxplot::boxplot;
pub(crate) use heatmap::heatmap;
pub(crate) use histogram::histogram;
pub(crate) use line::{line, Line};
pub(crate) use metric::{metric, MetricPoint};
pub(crate) use places::places;
pub(crate) use scatter::{scatter, scatter_groups};
pub(crate) use table::table;
pub(crate) use timeline::timeline;
pub(crate) use treemap::treemap;

use zdr_chart::model::{Card, CardKind, VizConfig};
use zdr_chart::Chart;

/// A card proposed for a table: its chart, and the words that go with it.
#[derive(Debug, Clone)]
pub struct Suggestion {
    pub description: String,
    /// `high`, `medium` or `low`.
    pub confidence: &'static str,
    pub chart: Chart,
}

/// The axis titles of a card.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    pub x: Option<String>,
    pub y: Option<String>,
}

impl Labels {
    pub fn none() -> Labels {
        Labels::default()
    }

    pub fn xy(x: &str, y: &str) -> Labels {
        Labels {
            x: Some(x.to_owned()),
            y: Some(y.to_owned()),
        }
    }

    pub fn x(x: &str) -> Labels {
        Labels {
            x: Some(x.to_owned()),
            y: None,
        }
    }
}

/// What every card says besides its data: its type, title, description,
/// confidence and theme.
pub struct About {
    pub kind: CardKind,
    pub title: String,
    pub description: String,
    pub confidence: &'static str,
    pub dark: bool,
}

impl Suggestion {
    /// The card of `card` as `about` says, with axis titles `labels`;
    /// `Err` says why the engine would not draw it (a stacked area of
    /// values below zero).
    pub fn new(about: About, labels: Labels, card: Card) -> Result<Suggestion, String> {
        let config = VizConfig {
            title: about.title,
            x_label: labels.x,
            y_label: labels.y,
            dark_mode: about.dark.then_some(true),
            ..VizConfig::default()
        };
        let chart = Chart::build(config, about.kind, card).map_err(|e| e.to_string())?;
        Ok(Suggestion {
            description: about.description,
            confidence: about.confidence,
            chart,
        })
    }

    pub fn kind(&self) -> CardKind {
        self.chart.kind
    }

    pub fn title(&self) -> &str {
        &self.chart.config.title
    }

    pub fn retitle(&mut self, title: String) {
        self.chart.config.title = title;
    }

    /// The same data as another kind of the same shape (a line as an
    /// area), titled and described anew.
    pub fn retyped(
        self,
        kind: CardKind,
        title: String,
        description: String,
    ) -> Result<Suggestion, String> {
        let mut config = self.chart.config;
        config.title = title;
        let chart = Chart::build(config, kind, self.chart.card).map_err(|e| e.to_string())?;
        Ok(Suggestion {
            description,
            confidence: self.confidence,
            chart,
        })
    }
}

/// A value as the reader keeps one: −0 is 0.
fn value(y: f64) -> f64 {
    y + 0.0
}

/// A series's name as the engine names an unnamed one, so that the card
/// holds what its text reads back as.
fn series_name(name: String, index: usize) -> String {
    match (name.is_empty(), index) {
        (false, _) => name,
        (true, 0) => "Value".to_owned(),
        (true, i) => format!("Series {}", i + 1),
    }
}

/// What a card kind needs of a table: said when it is asked for and the
/// table cannot give it.
pub(crate) fn needs(kind: CardKind) -> &'static str {
    match kind {
        CardKind::Timeseries => "a column of dates and one of numbers",
        CardKind::Bar | CardKind::Pie | CardKind::Waterfall => {
            "a column of categories and one of numbers (a pie: 2 to 7 categories, none negative)"
        }
        CardKind::Choropleth => {
            "a column of places (countries or US states, by ISO or postal code or English name) and one of numbers"
        }
        CardKind::GroupedBar | CardKind::StackedBar | CardKind::Heatmap => {
            "two columns of categories and one of numbers"
        }
        CardKind::Scatter => "two columns of numbers",
        CardKind::Histogram => "a column of numbers",
        CardKind::Boxplot => {
            "a column of 2 to 30 categories, one of numbers, and about 5 rows or more per category"
        }
        CardKind::Timeline => {
            "a column of distinct labels and two of dates, the second never before the first, in at most 2000 rows"
        }
        CardKind::Table => "any table",
        CardKind::AreaTimeseries => "a column of dates and one of numbers",
        CardKind::StackedAreaTimeseries => {
            "a column of dates and numbers of zero or more, in several columns or split by a column of categories"
        }
        CardKind::Treemap => "a column of categories and one of numbers of zero or more",
        CardKind::TopLevelMetric => "a column of numbers",
        CardKind::Map => "columns of latitude and longitude",
        CardKind::BubbleMap => {
            "columns of latitude and longitude, or of places, and one of numbers of zero or more"
        }
    }
}

/// A card kind as an answer names it ("Shown: sales by month, as a line
/// chart").
pub(crate) fn word(kind: CardKind) -> &'static str {
    match kind {
        CardKind::Timeseries => "a line chart",
        CardKind::Bar => "a bar chart",
        CardKind::Pie => "a pie chart",
        CardKind::Choropleth => "a map",
        CardKind::GroupedBar => "grouped bars",
        CardKind::StackedBar => "stacked bars",
        CardKind::Heatmap => "a heatmap",
        CardKind::Scatter => "a scatter plot",
        CardKind::Histogram => "a histogram",
        CardKind::Boxplot => "a box plot",
        CardKind::Waterfall => "a waterfall",
        CardKind::Timeline => "a timeline",
        CardKind::Table => "a table",
        CardKind::AreaTimeseries => "an area chart",
        CardKind::StackedAreaTimeseries => "stacked areas",
        CardKind::Treemap => "a treemap",
        CardKind::TopLevelMetric => "a headline number",
        CardKind::Map => "a map of places",
        CardKind::BubbleMap => "a bubble map",
    }
}
