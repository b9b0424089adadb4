//! The card types of the visualize endpoint: the spec's 13 (4.5,
//! `viz_component_type`) and the six the service's SDK added since.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CardKind {
    Bar,
    GroupedBar,
    StackedBar,
    Timeseries,
    Pie,
    Choropleth,
    Scatter,
    Boxplot,
    Heatmap,
    Timeline,
    Waterfall,
    Histogram,
    Table,
    AreaTimeseries,
    StackedAreaTimeseries,
    Treemap,
    TopLevelMetric,
    Map,
    BubbleMap,
}

impl CardKind {
    pub const ALL: [CardKind; 19] = [
        CardKind::Bar,
        CardKind::GroupedBar,
        CardKind::StackedBar,
        CardKind::Timeseries,
        CardKind::Pie,
        CardKind::Choropleth,
        CardKind::Scatter,
        CardKind::Boxplot,
        CardKind::Heatmap,
        CardKind::Timeline,
        CardKind::Waterfall,
        CardKind::Histogram,
        CardKind::Table,
        CardKind::AreaTimeseries,
        CardKind::StackedAreaTimeseries,
        CardKind::Treemap,
        CardKind::TopLevelMetric,
        CardKind::Map,
        CardKind::BubbleMap,
    ];

    /// The wire name, as in `viz_component_type`.
    pub fn as_str(self) -> &'static str {
        match self {
            CardKind::Bar => "bar",
            CardKind::GroupedBar => "grouped_bar",
            CardKind::StackedBar => "stacked_bar",
            CardKind::Timeseries => "timeseries",
            CardKind::Pie => "pie",
            CardKind::Choropleth => "choropleth",
            CardKind::Scatter => "scatter",
            CardKind::Boxplot => "boxplot",
            CardKind::Heatmap => "heatmap",
            CardKind::Timeline => "timeline",
            CardKind::Waterfall => "waterfall",
            CardKind::Histogram => "histogram",
            CardKind::Table => "table",
            CardKind::AreaTimeseries => "area_timeseries",
            CardKind::StackedAreaTimeseries => "stacked_area_timeseries",
            CardKind::Treemap => "treemap",
            CardKind::TopLevelMetric => "top_level_metric",
            CardKind::Map => "map",
            CardKind::BubbleMap => "bubble_map",
        }
    }

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
