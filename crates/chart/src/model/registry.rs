//! What the rest of the engine knows of the card kinds, and no more: the
//! table of [`CardKind`] (each kind's wire name), the [`Card`] a kind reads
//! into, and each kind's data type with the caps on what it reads. These
//! are definitions only: how a kind reads, draws, describes and writes its
//! data is in its folder under `crate::kinds`, which sits above every other
//! module and dispatches to the kinds; nothing here calls into it.
//!
//! A new kind adds its line to the table, its `Card` variant and, if it has
//! one, its data type and caps here.

use std::fmt;

use super::{Categorical, DatePrecision, NamedValues, Series};

pub type XYSeries = Series;

/// Makes [`CardKind`], [`CardKind::ALL`], [`CardKind::as_str`] and
/// [`CardKind::group`] from one table, so that a kind cannot be in one and
/// missing from another.
macro_rules! card_kinds {
    ($($kind:ident = $name:literal in $group:ident,)*) => {
        /// The card types of the visualize endpoint: the spec's 13 (4.5,
        /// `viz_component_type`) and the six the service's SDK added since.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum CardKind {
            $($kind,)*
        }

        impl CardKind {
            pub const ALL: [CardKind; [$($name),*].len()] = [$(CardKind::$kind),*];

            /// The wire name, as in `viz_component_type`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(CardKind::$kind => $name,)*
                }
            }

            /// The group whose code reads, draws and describes the kind.
            pub fn group(self) -> KindGroup {
                match self {
                    $(CardKind::$kind => KindGroup::$group,)*
                }
            }
        }
    };
}

card_kinds! {
    Bar = "bar" in Bars,
    GroupedBar = "grouped_bar" in Bars,
    StackedBar = "stacked_bar" in Bars,
    Timeseries = "timeseries" in Lines,
    Pie = "pie" in Pie,
    Choropleth = "choropleth" in Maps,
    Scatter = "scatter" in Scatter,
    Boxplot = "boxplot" in Boxplot,
    Heatmap = "heatmap" in Heatmap,
    Timeline = "timeline" in Timeline,
    Waterfall = "waterfall" in Bars,
    Histogram = "histogram" in Histogram,
    Table = "table" in Table,
    AreaTimeseries = "area_timeseries" in Lines,
    StackedAreaTimeseries = "stacked_area_timeseries" in Lines,
    Treemap = "treemap" in Treemap,
    TopLevelMetric = "top_level_metric" in Metric,
    Map = "map" in Maps,
    BubbleMap = "bubble_map" in Maps,
}

/// The kinds whose code comes as one: a folder of `crate::kinds` each
/// (its reader, layout and words). Kinds that read the same data and share
/// a layout share a group. The engine module of a page loads a group's
/// code the first time it draws a card of it (zdr-engine's `chunks`);
/// everywhere else every group is linked in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KindGroup {
    Bars,
    Pie,
    Maps,
    Lines,
    Scatter,
    Table,
    Heatmap,
    Timeline,
    Boxplot,
    Histogram,
    Treemap,
    Metric,
}

impl KindGroup {
    pub const ALL: [KindGroup; 12] = [
        KindGroup::Bars,
        KindGroup::Pie,
        KindGroup::Maps,
        KindGroup::Lines,
        KindGroup::Scatter,
        KindGroup::Table,
        KindGroup::Heatmap,
        KindGroup::Timeline,
        KindGroup::Boxplot,
        KindGroup::Histogram,
        KindGroup::Treemap,
        KindGroup::Metric,
    ];

    /// The group's name: its folder, and its chunk's in the package.
    pub fn as_str(self) -> &'static str {
        match self {
            KindGroup::Bars => "bars",
            KindGroup::Pie => "pie",
            KindGroup::Maps => "maps",
            KindGroup::Lines => "lines",
            KindGroup::Scatter => "scatter",
            KindGroup::Table => "table",
            KindGroup::Heatmap => "heatmap",
            KindGroup::Timeline => "timeline",
            KindGroup::Boxplot => "boxplot",
            KindGroup::Histogram => "histogram",
            KindGroup::Treemap => "treemap",
            KindGroup::Metric => "metric",
        }
    }
}

impl CardKind {
    /// The types whose data is a timeseries's: dated points, read by the
    /// same readers (the streaming one and the columns handed over too).
    pub fn is_dated_line(self) -> bool {
        matches!(
            self,
            CardKind::Timeseries | CardKind::AreaTimeseries | CardKind::StackedAreaTimeseries
        )
    }

    pub fn from_name(name: &str) -> Option<CardKind> {
        CardKind::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    /// `"bar", "grouped_bar", ...` for error messages.
    pub fn list() -> String {
        CardKind::ALL
            .iter()
            .map(|kind| format!("\"{}\"", kind.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for CardKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A card ready to lay out. Missing values are `NaN` (drawn as gaps).
#[derive(Debug, Clone, PartialEq)]
pub enum Card {
    /// bar, grouped_bar, stacked_bar, pie, waterfall and choropleth.
    Categorical(Categorical),
    /// x in seconds since 1970 (UTC), sorted.
    Timeseries {
        series: Vec<Series>,
        precision: DatePrecision,
    },
    Scatter(Vec<XYSeries>),
    Boxplot(Vec<BoxStats>),
    /// `values[row * xs.len() + column]`, rows follow `ys`.
    Heatmap {
        xs: Vec<String>,
        ys: Vec<String>,
        values: Vec<f64>,
    },
    Timeline {
        items: Vec<TimelineItem>,
        precision: DatePrecision,
    },
    Histogram(Vec<f64>),
    Table {
        columns: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    /// stacked_area_timeseries (an area_timeseries is a `Timeseries`).
    Stacked(Stacked),
    Treemap(Treemap),
    /// top_level_metric.
    Metric(Metric),
    /// map and bubble_map.
    Places(Places),
}

// boxplot (`crate::kinds::boxplot`).

#[derive(Debug, Clone, PartialEq)]
pub struct BoxStats {
    pub label: String,
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub max: f64,
    /// Ends of the whiskers: the furthest values within 1.5 IQR of the box.
    pub low_whisker: f64,
    pub high_whisker: f64,
    pub outliers: Vec<f64>,
    pub count: usize,
    /// Every value, sorted: what a writer writes (the statistics alone
    /// are not the values of any one box).
    pub values: Vec<f64>,
}

// stacked_area_timeseries (`crate::kinds::lines`).

#[derive(Debug, Clone, PartialEq)]
pub struct Stacked {
    /// Every date of every series, sorted, once each (seconds since 1970).
    pub dates: Vec<f64>,
    /// One value per date, zero or more: missing is zero.
    pub series: Vec<NamedValues>,
    pub precision: DatePrecision,
    /// Each date's values as shares of its total (`viz_config.normalize`).
    pub normalize: bool,
}

// map and bubble_map (`crate::kinds::maps`).

#[derive(Debug, Clone, PartialEq)]
pub struct Places {
    /// Bubbles are sized by value; a map's points are all alike.
    pub bubbles: bool,
    /// The series' names, in order (one unnamed series when there is one).
    pub series: Vec<String>,
    pub places: Vec<Place>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    pub at: At,
    pub label: Option<String>,
    /// NaN when not given (a map's point may have none; a bubble has one).
    pub value: f64,
    /// Index into [`Places::series`].
    pub series: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum At {
    /// Degrees: latitude −90..=90, longitude −180..=180.
    LatLon(f64, f64),
    /// A region code, name or number, as a choropleth's `x`.
    Region(String),
}

// top_level_metric (`crate::kinds::metric`).

#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    /// The last value given (NaN when every value is missing).
    pub value: f64,
    /// What it is compared with: the point's `previous`, else the value
    /// before it.
    pub previous: Option<f64>,
    /// When the value is of (the last point's x), and the previous one's.
    pub at: Option<When>,
    pub previous_at: Option<When>,
    /// Every point in order (dates sorted), for the sparkline and the
    /// data table; a NaN value is a gap.
    pub points: Vec<(Option<When>, f64)>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum When {
    Date(f64, DatePrecision),
    Label(String),
}

// timeline (`crate::kinds::timeline`).

#[derive(Debug, Clone, PartialEq)]
pub struct TimelineItem {
    pub label: String,
    pub start: f64,
    pub end: f64,
}

// treemap (`crate::kinds::treemap`).

/// Leaves by group, values summed where a label repeats in its group.
#[derive(Debug, Clone, PartialEq)]
pub struct Treemap {
    /// The groups' names; one unnamed group when the data has none.
    pub groups: Vec<String>,
    pub leaves: Vec<Leaf>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Leaf {
    pub label: String,
    /// Index into [`Treemap::groups`].
    pub group: usize,
    /// Larger than zero: zero and missing values are left out.
    pub value: f64,
}

/// Each kind's caps on what it reads, re-exported as
/// `crate::model::limits::*` beside the caps every kind shares.
pub mod limits {
    /// Boxes of a boxplot (distinct `x`).
    pub const MAX_BOXES: usize = 1_000;

    /// x × y categories of a heatmap: the grid is dense; beyond this many
    /// cells each would be smaller than a pixel on any screen, and the grid
    /// alone would take megabytes.
    pub const MAX_HEATMAP_CELLS: usize = 250_000;

    /// Series × distinct dates of a stacked area: the stack is dense (a series
    /// missing on a date is zero there).
    pub const MAX_STACKED_VALUES: usize = 1_000_000;

    /// Places on a map or a bubble map: ten thousand dots already cover a
    /// world map drawn on a phone.
    pub const MAX_PLACES: usize = 10_000;

    /// Points of a top_level_metric: its sparkline is a few hundred pixels
    /// wide at most.
    pub const MAX_METRIC_POINTS: usize = 10_000;

    /// Series × categories of a pie card: the size of the value matrix the
    /// reader builds before the smallest slices are folded into "Other".
    pub const MAX_PIE_VALUES: usize = 100_000;

    /// Columns of a table card, including the distinct keys of point objects.
    pub const MAX_TABLE_COLUMNS: usize = 200;

    /// Rows × columns of a table card: the cells the reader keeps as text.
    pub const MAX_TABLE_CELLS: usize = 500_000;

    /// Rows (items) of a timeline.
    pub const MAX_TIMELINE_ROWS: usize = 2_000;

    /// Categories of a treemap as read (labels within groups): the smallest
    /// are folded into "Other" when drawn, so only the reading is bounded.
    pub const MAX_TREEMAP_VALUES: usize = 100_000;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for kind in CardKind::ALL {
            assert_eq!(CardKind::from_name(kind.as_str()), Some(kind));
        }
        assert_eq!(CardKind::from_name("line"), None);
        assert_eq!(CardKind::from_name("Bar"), None);
    }
}
