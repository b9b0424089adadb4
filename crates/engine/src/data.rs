//! Reading a card's data: JSON text (a post, a message, the service
//! module's auto fallback), or the page's own `visualizationData` object
//! in local mode, read as columns where it can be (`js/columns.js`).

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use zdr_chart::model::{DatePrecision, GivenSeries, GivenX, MAX_SERIES};
use zdr_chart::reduce::KEPT_COLUMNS;
use zdr_chart::Chart;

use crate::error::EngineError;

#[wasm_bindgen(module = "/js/columns.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = columnsOf)]
    fn columns_of(data: &JsValue, max_series: usize, columns: usize) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_name = textOf)]
    fn text_of(data: &JsValue) -> Result<JsValue, JsValue>;
}

/// Reads `visualization_data` JSON text into a chart.
pub(crate) fn read_text(json: &str) -> Result<Rc<Chart>, EngineError> {
    Chart::from_json(json)
        .map(Rc::new)
        .map_err(|error| EngineError::InvalidData {
            reason: error.to_string(),
        })
}

/// Reads the data as given: JSON text, or the page's object.
pub(crate) fn read(data: &JsValue) -> Result<Rc<Chart>, EngineError> {
    read_releasing(data, &|| ())
}

/// [`read`]; `release` is called once the page's columns are known to
/// read (`columnsOf` checked their shape, lengths and dates, and
/// `viz_config` reads), before they are copied: an update lets go of the
/// card it shows then, so the module never holds two cards' columns at once
/// (its memory never shrinks, so a peak would stay). A `dyn`, not generic: one copy of
/// this in the module for `mountLocal` and `update` both.
pub(crate) fn read_releasing(data: &JsValue, release: &dyn Fn()) -> Result<Rc<Chart>, EngineError> {
    if let Some(text) = data.as_string() {
        return read_text(&text);
    }
    let found = columns_of(data, MAX_SERIES, KEPT_COLUMNS).map_err(not_serialisable)?;
    // Any error at all is worded by the whole text's reader instead: the
    // columns' paths (`data.x[3]`) are not the page's (`data[3].x`).
    if let Some(Found { config, series }) = Found::from_js(&found) {
        let mut series = Some(series);
        let mut copied = || {
            release();
            copy(series.take().unwrap_or_default())
        };
        if let Some(chart) = Chart::from_columns(&config, &mut copied) {
            return Ok(Rc::new(chart));
        }
    }
    let text = text_of(data).map_err(not_serialisable)?;
    match text.as_string() {
        Some(text) => read_text(&text),
        None => Err(EngineError::NotSerialisable {
            reason: "JSON.stringify produced no text (a toJSON method returned undefined?)".into(),
        }),
    }
}

/// What `columnsOf` found: `viz_config`'s text and the series, still in the page.
struct Found {
    config: String,
    series: Vec<FoundSeries>,
}

struct FoundSeries {
    name: Option<String>,
    x: js_sys::Float64Array,
    y: js_sys::Float64Array,
    /// Set when x are dates the page read (seconds since 1970).
    dates: Option<DatePrecision>,
    /// Set when the page kept a long line for pixels: the points with a value it had.
    kept_from: Option<usize>,
}

impl Found {
    fn from_js(found: &JsValue) -> Option<Found> {
        let found: &js_sys::Array = found.dyn_ref()?;
        let given: js_sys::Array = found.get(1).dyn_into().ok()?;
        let mut series = Vec::with_capacity(given.length() as usize);
        for one in given.iter() {
            let one: js_sys::Array = one.dyn_into().ok()?;
            let dates = match one.get(3).as_f64() {
                Some(code) => Some(precision_of(code)?),
                None => None,
            };
            series.push(FoundSeries {
                name: one.get(0).as_string(),
                x: one.get(1).dyn_into().ok()?,
                y: one.get(2).dyn_into().ok()?,
                dates,
                kept_from: one.get(4).as_f64().map(|n| n as usize),
            });
        }
        Some(Found {
            config: found.get(0).as_string()?,
            series,
        })
    }
}

/// The columns copied into this module's memory, once each.
fn copy(series: Vec<FoundSeries>) -> Vec<GivenSeries> {
    series
        .into_iter()
        .map(|one| GivenSeries {
            name: one.name,
            x: match one.dates {
                Some(precision) => GivenX::Dates(one.x.to_vec(), precision),
                None => GivenX::Numbers(one.x.to_vec()),
            },
            y: one.y.to_vec(),
            kept_from: one.kept_from,
        })
        .collect()
}

/// `isoDates`' precision code.
fn precision_of(code: f64) -> Option<DatePrecision> {
    Some(match code as u8 {
        0 => DatePrecision::Year,
        1 => DatePrecision::Month,
        2 => DatePrecision::Day,
        3 => DatePrecision::Time,
        _ => return None,
    })
}

fn not_serialisable(thrown: JsValue) -> EngineError {
    EngineError::NotSerialisable {
        reason: zdr_protocol::text::describe_thrown(&thrown),
    }
}
