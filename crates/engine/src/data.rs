//! Reading a card's data: JSON text (a post, a message, the service
//! module's auto fallback), or the page's own `visualizationData` object
//! in local mode, read as columns where it can be (`js/columns.js`).

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use zdr_chart::model::{DatePrecision, GivenSeries, GivenX};
use zdr_chart::Chart;

use crate::error::EngineError;

#[wasm_bindgen(module = "/js/columns.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = columnsOf)]
    fn columns_of(data: &JsValue, max_series: usize) -> Result<JsValue, JsValue>;
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
    if let Some(text) = data.as_string() {
        return read_text(&text);
    }
    let columns = columns_of(data, zdr_chart::model::MAX_SERIES).map_err(not_serialisable)?;
    // Any error at all is worded by the whole text's reader instead: the
    // columns' paths (`data.x[3]`) are not the page's (`data[3].x`).
    if let Some(chart) = read_columns(&columns) {
        return Ok(chart);
    }
    let text = text_of(data).map_err(not_serialisable)?;
    match text.as_string() {
        Some(text) => read_text(&text),
        None => Err(EngineError::NotSerialisable {
            reason: "JSON.stringify produced no text (a toJSON method returned undefined?)".into(),
        }),
    }
}

/// `[config, series]` from `columnsOf`, read; `None` on anything else.
fn read_columns(found: &JsValue) -> Option<Rc<Chart>> {
    let found: &js_sys::Array = found.dyn_ref()?;
    let config = found.get(0).as_string()?;
    let given: js_sys::Array = found.get(1).dyn_into().ok()?;
    let mut series = Vec::with_capacity(given.length() as usize);
    for one in given.iter() {
        let one: js_sys::Array = one.dyn_into().ok()?;
        let x = one.get(1);
        let x = match one.get(3).as_f64() {
            // Date strings the page read: seconds, and how precisely they were written.
            Some(precision) => GivenX::Dates(numbers(x)?, precision_of(precision)?),
            None => GivenX::Numbers(numbers(x)?),
        };
        series.push(GivenSeries {
            name: one.get(0).as_string(),
            x,
            y: numbers(one.get(2))?,
        });
    }
    Chart::from_columns(&config, series).map(Rc::new)
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

/// A Float64Array copied into this module's memory in one go.
fn numbers(array: JsValue) -> Option<Vec<f64>> {
    Some(array.dyn_into::<js_sys::Float64Array>().ok()?.to_vec())
}

fn not_serialisable(thrown: JsValue) -> EngineError {
    EngineError::NotSerialisable {
        reason: zdr_protocol::text::describe_thrown(&thrown),
    }
}
