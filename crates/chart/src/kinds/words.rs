//! The description's entry: a card in words, each kind giving its noun,
//! its summary's details and its data table ([`super::summary`],
//! [`super::data_table`]) in the words `crate::describe` shares, which
//! knows no kind.

use super::{data_table, drawn_kind, is_empty, noun, summary};
use crate::describe::cells::Cells;
use crate::describe::summary::cap;
use crate::describe::{csv, DataTable, MAX_SUMMARY};
use crate::label;
use crate::model::chart::Chart;
use crate::view::View;

impl Chart {
    /// One line: what the card is and what its data span, e.g. "Line
    /// chart, 2 series (Web, Mobile), 47 points from Jan 1, 2025 to Jun 22,
    /// 2025, values from 11.1k to 21.4k." or "Pie chart, 5 slices: Chrome
    /// 64%, Safari 19%, Other 9%, Edge 5%, Firefox 3%." Never empty; lists
    /// stop after five names and the whole line after [`MAX_SUMMARY`]
    /// characters.
    pub fn summary(&self) -> String {
        let _locale = crate::locale::scoped(self.config.locale);
        summary_line(self)
    }

    /// The data as a table of at most `max_rows` rows (see [`DataTable`]).
    pub fn data_table(&self, max_rows: usize) -> DataTable {
        self.data_table_viewed(max_rows, &View::default())
    }

    /// [`Chart::data_table`] as the reader's `view` shows the card: without
    /// the series hidden from its legend.
    pub fn data_table_viewed(&self, max_rows: usize, view: &View) -> DataTable {
        let _locale = crate::locale::scoped(self.config.locale);
        table(self, max_rows, (false, view))
    }

    /// The card's data as CSV (RFC 4180), as `view` shows it: the columns of
    /// [`DataTable`], every row, numbers as JSON writes them, dates in ISO 8601.
    pub fn to_csv(&self, view: &View) -> String {
        csv::write(&table(self, usize::MAX, (true, view)))
    }
}

/// `"<noun>, <details>."`, cut at [`MAX_SUMMARY`] characters.
fn summary_line(chart: &Chart) -> String {
    let noun = noun(drawn_kind(chart));
    let text = if is_empty(&chart.card) {
        format!("{noun}, no data.")
    } else {
        let details = summary(chart, label::units(&chart.config));
        format!("{noun}, {details}.")
    };
    cap(text, MAX_SUMMARY)
}

/// The table of `chart` as the reader's `view` shows it; `raw` writes it
/// for a program (see [`Cells`]).
fn table(chart: &Chart, max_rows: usize, (raw, view): (bool, &View)) -> DataTable {
    let f = Cells::new(raw, label::units(&chart.config), view);
    data_table(chart, max_rows, f)
}
