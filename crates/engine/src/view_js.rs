//! A card's zoom as the page sees it: `{ x: [from, to], y: [lo, hi] }`,
//! read by `setView` and given to `onViewChange`. On a time axis the ends
//! are `Date`s (read also as milliseconds since 1970 or ISO 8601 text);
//! on a scatter, numbers in the data's units.

use wasm_bindgen::{JsCast, JsValue};
use zdr_chart::View;
use zdr_protocol::text::describe;

use crate::error::EngineError;

/// A range as given: `None` for absent, `null` or `undefined`.
type Range = Option<(f64, f64)>;

/// Reads `view` (`null` or `{}`: the whole data) for a card whose x is
/// time (`time`).
pub fn read(view: &JsValue, time: bool) -> Result<(Range, Range), EngineError> {
    if view.is_undefined() || view.is_null() {
        return Ok((None, None));
    }
    if !view.is_object() {
        return Err(wrong(format!(
            "the view must be an object such as {{ x: [from, to] }}, or null, found {}",
            describe(view)
        )));
    }
    let range = |key: &'static str, time: bool| -> Result<Range, EngineError> {
        let value = js_sys::Reflect::get(view, &key.into()).unwrap_or(JsValue::UNDEFINED);
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        let pair = value
            .dyn_ref::<js_sys::Array>()
            .filter(|a| a.length() == 2)
            .ok_or_else(|| {
                wrong(format!(
                    "{key} must be an array of two values [from, to], found {}",
                    describe(&value)
                ))
            })?;
        let end = |i: u32| {
            end_value(&pair.get(i), time).ok_or_else(|| {
                let expected = if time {
                    "a Date, milliseconds since 1970 or an ISO 8601 date"
                } else {
                    "a finite number"
                };
                wrong(format!(
                    "{key}[{i}] must be {expected}, found {}",
                    describe(&pair.get(i))
                ))
            })
        };
        let (a, b) = (end(0)?, end(1)?);
        Ok(Some((a.min(b), a.max(b))))
    };
    Ok((range("x", time)?, range("y", false)?))
}

/// One end: seconds since 1970 on a time axis, else the number.
fn end_value(value: &JsValue, time: bool) -> Option<f64> {
    let seconds = |ms: f64| ms / 1000.0;
    let v = if let Some(date) = value.dyn_ref::<js_sys::Date>() {
        seconds(date.get_time())
    } else if let Some(number) = value.as_f64() {
        if time {
            seconds(number)
        } else {
            number
        }
    } else if let (Some(text), true) = (value.as_string(), time) {
        zdr_chart::model::parse_date(text.get(..64).unwrap_or(&text))?.0
    } else {
        return None;
    };
    v.is_finite().then_some(v)
}

/// The view for `onViewChange`: `{ x, y }`, each `[from, to]` or `null`.
pub fn write(view: &View, time: bool) -> JsValue {
    let object = js_sys::Object::new();
    let pair = |range: Range, time: bool| -> JsValue {
        match range {
            None => JsValue::NULL,
            Some((lo, hi)) => {
                let end = |v: f64| -> JsValue {
                    if time {
                        js_sys::Date::new(&JsValue::from_f64(v * 1000.0)).into()
                    } else {
                        JsValue::from_f64(v)
                    }
                };
                js_sys::Array::of2(&end(lo), &end(hi)).into()
            }
        }
    };
    // Own data properties of a fresh plain object: cannot fail.
    let _ = js_sys::Reflect::set(&object, &"x".into(), &pair(view.x(), time));
    let _ = js_sys::Reflect::set(&object, &"y".into(), &pair(view.y(), false));
    object.into()
}

fn wrong(problem: String) -> EngineError {
    EngineError::Argument { problem }
}
