//! How the data table writes a value: for a reader (the hidden table, in
//! the card's locale and units, as the tooltips write it) or for a program
//! (the CSV: numbers as JSON writes them, dates in ISO 8601, no units); and
//! which series it writes (those the reader left shown).

use crate::label;
use crate::model::{iso_date, DatePrecision, When};
use crate::number_text::write_f64;
use crate::view::View;

#[derive(Debug, Clone, Copy)]
pub(crate) struct Cells<'u> {
    /// Written for a program, not a reader.
    raw: bool,
    units: Option<&'u str>,
    view: &'u View,
}

impl<'u> Cells<'u> {
    pub fn new(raw: bool, units: Option<&'u str>, view: &'u View) -> Cells<'u> {
        Cells { raw, units, view }
    }

    /// Whether the series named `series` is written (the reader left it shown).
    pub fn shows(self, series: &str) -> bool {
        self.view.shows(series)
    }

    /// The same writer with other units (a series on the right axis).
    pub fn with_units(self, units: Option<&'u str>) -> Cells<'u> {
        Cells { units, ..self }
    }

    pub fn is_raw(self) -> bool {
        self.raw
    }

    pub fn value(self, v: f64) -> String {
        if self.raw {
            write_f64(v)
        } else {
            label::exact(v, self.units)
        }
    }

    /// A change: signed for a reader.
    pub fn change(self, delta: f64) -> String {
        if self.raw {
            write_f64(delta)
        } else {
            label::exact_change(delta, self.units)
        }
    }

    /// A number without units (a scatter's x).
    pub fn number(self, v: f64) -> String {
        if self.raw {
            write_f64(v)
        } else {
            label::number(v)
        }
    }

    /// A share of a whole: "12%" for a reader, 0.12 for a program.
    pub fn share(self, share: f64) -> String {
        if self.raw {
            write_f64(share)
        } else {
            label::percent(share)
        }
    }

    pub fn count(self, n: u64) -> String {
        if self.raw {
            n.to_string()
        } else {
            label::count(n)
        }
    }

    pub fn date(self, seconds: f64, precision: DatePrecision) -> String {
        if self.raw {
            iso_date(seconds, precision)
        } else {
            label::date(seconds, precision)
        }
    }

    /// When a headline number is of: a date or a label.
    pub fn when(self, at: &When) -> String {
        match at {
            When::Date(seconds, precision) if self.raw => iso_date(*seconds, *precision),
            _ => label::when(at),
        }
    }

    /// A range of values (a histogram's bin): "lo to hi" for a program.
    pub fn span(self, lo: f64, hi: f64) -> String {
        if self.raw {
            [write_f64(lo), " to ".into(), write_f64(hi)].concat()
        } else {
            label::value_span(lo, hi, self.units)
        }
    }

    /// A latitude or longitude: signed degrees for a program.
    pub fn degrees(self, v: f64, positive: char, negative: char) -> String {
        if self.raw {
            write_f64(v)
        } else {
            label::degrees(v, positive, negative)
        }
    }

    /// A table's cell: as given for a program, as the table shows it for a reader.
    pub fn cell(self, text: &str) -> String {
        if self.raw {
            text.to_string()
        } else {
            label::table_cell(text)
        }
    }
}
