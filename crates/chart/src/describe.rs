//! The card in words, for readers who cannot see it: a one-line summary
//! for an aria-label and the data as a table for a visually hidden
//! `<table>`. Values are written exactly as the tooltips write them.
//!
//! The card's title is left to the caller, who puts it before the summary.

pub(crate) mod cells;
mod csv;
pub(crate) mod summary;
pub(crate) mod table;

use crate::chart::Chart;
use crate::view::View;

/// The data of a card as rows of text.
///
/// Shapes, by card type:
/// - bar, grouped and stacked bar: Category | one column per series
/// - pie: Slice | Value | Share (every slice, none folded into "Other")
/// - waterfall: Step | Change | Running total, and a last "Total" row
/// - choropleth: Region | Value (region names where the atlas knows them)
/// - timeseries: wide, Date | one column per series, when every series has
///   the same dates (always true for one series); otherwise long,
///   Series | Date | Value
/// - scatter: x | y for one series, Series | x | y for several (long form,
///   since points rarely share an x)
/// - boxplot: Group | Min | Q1 | Median | Q3 | Max
/// - heatmap: x | y | Value, row by row, missing cells as "–"
/// - timeline: Item | Start | End
/// - histogram: Bin | Count, the bins the chart draws
/// - table: its own columns and cells, as the table shows them
///
/// The x and y headers are the card's `x_label` and `y_label` when it has
/// them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DataTable {
    pub columns: Vec<String>,
    /// Each row has one cell per column.
    pub rows: Vec<Vec<String>>,
    /// Rows in all, of which `rows` holds the first few.
    pub total_rows: usize,
}

impl Chart {
    /// One line: what the card is and what its data span, e.g. "Line
    /// chart, 2 series (Web, Mobile), 47 points from Jan 1, 2025 to Jun 22,
    /// 2025, values from 11.1k to 21.4k." or "Pie chart, 5 slices: Chrome
    /// 64%, Safari 19%, Other 9%, Edge 5%, Firefox 3%." Never empty; lists
    /// stop after five names and the whole line after [`MAX_SUMMARY`]
    /// characters.
    pub fn summary(&self) -> String {
        let _locale = crate::locale::scoped(self.config.locale);
        summary::summary(self)
    }

    /// The data as a table of at most `max_rows` rows (see [`DataTable`]).
    pub fn data_table(&self, max_rows: usize) -> DataTable {
        self.data_table_viewed(max_rows, &View::default())
    }

    /// [`Chart::data_table`] as the reader's `view` shows the card: without
    /// the series hidden from its legend.
    pub fn data_table_viewed(&self, max_rows: usize, view: &View) -> DataTable {
        let _locale = crate::locale::scoped(self.config.locale);
        table::data_table(self, max_rows, (false, view))
    }

    /// The card's data as CSV (RFC 4180), as `view` shows it: the columns of
    /// [`DataTable`], every row, numbers as JSON writes them, dates in ISO 8601.
    pub fn to_csv(&self, view: &View) -> String {
        csv::write(&table::data_table(self, usize::MAX, (true, view)))
    }
}

/// The longest summary, in characters.
pub const MAX_SUMMARY: usize = 400;
