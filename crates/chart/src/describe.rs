//! The card in words, for readers who cannot see it: a one-line summary
//! for an aria-label and the data as a table for a visually hidden
//! `<table>`. Values are written exactly as the tooltips write them.
//!
//! The card's title is left to the caller, who puts it before the summary.
//!
//! What every kind's words share is here; the entries
//! (`Chart::summary`, `Chart::data_table`, `Chart::to_csv`) end in a kind,
//! so they are in `crate::kinds` (`words.rs`), above this module.

pub(crate) mod cells;
pub(crate) mod csv;
pub(crate) mod summary;
pub(crate) mod table;

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

/// The longest summary, in characters.
pub const MAX_SUMMARY: usize = 400;
