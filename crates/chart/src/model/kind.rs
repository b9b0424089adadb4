//! The 13 card types of the visualize endpoint (spec 4.5, `viz_component_type`).

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
}

impl CardKind {
    pub const ALL: [CardKind; 13] = [
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
        }
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
