//! Reading a card's data: JSON text (a post, a message, the service
//! module's auto fallback), or the page's own `visualizationData` object
//! in local mode, read as columns where it can be (`js/columns.js`).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use zdr_chart::model::{DatePrecision, GivenSeries, GivenX, LongLine, MAX_SERIES};
use zdr_chart::reduce::{KEPT_COLUMNS, KEPT_POINTS};
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
        .map_err(|error| match error.unloaded {
            Some(group) => EngineError::Unloaded(group),
            None => EngineError::InvalidData {
                reason: error.to_string(),
            },
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
    if let Some(series) = Found::from_js(&found).and_then(Found::kept_while_copied) {
        let (config, series) = series;
        let long = series.iter().any(|one| matches!(one, Ready::Kept(_)));
        let mut series = Some(series);
        let mut copied = || {
            release();
            copy(series.take().unwrap_or_default())
        };
        if let Some(chart) = Chart::from_columns(&config, &mut copied) {
            // A spare for the next update's long line, made now: after a
            // first draw (an update's card gave its old line back).
            if let Some(spare) = long.then(spare).flatten() {
                recycle(spare.0, spare.1);
            }
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

/// Points copied from the page at a time when a long line is kept as it
/// is copied: 2 × 128 KiB of the module's memory, never the whole line.
const BLOCK: u32 = 1 << 14;

thread_local! {
    /// The block, kept from one read to the next.
    static BLOCK_BUFFER: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
    /// Room for one kept line besides the card's own: an update keeps the
    /// new line while the card shown still holds the old one (a refused
    /// update must leave it as it was), then gives the old one's back
    /// ([`recycle`]). Made with the first long line, so updates never grow
    /// the module's memory, which never shrinks.
    static SPARE: RefCell<(Vec<f64>, Vec<f64>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// A card's kept line it lets go of: the spare for the next.
pub(crate) fn recycle(xs: Vec<f64>, ys: Vec<f64>) {
    SPARE.with(|spare| {
        if let Ok(mut spare) = spare.try_borrow_mut() {
            if spare.0.capacity() < xs.capacity() {
                *spare = (xs, ys);
            }
        }
    });
}

/// The spare, with room for a kept line; `None` while it is in use.
fn spare() -> Option<(Vec<f64>, Vec<f64>)> {
    SPARE.with(|spare| {
        let (mut xs, mut ys) = std::mem::take(&mut *spare.try_borrow_mut().ok()?);
        xs.clear();
        ys.clear();
        xs.reserve(KEPT_POINTS + 4);
        ys.reserve(KEPT_POINTS + 4);
        Some((xs, ys))
    })
}

/// A series about to be copied: a long line already kept, or the rest.
enum Ready {
    Kept(GivenSeries),
    Whole(FoundSeries),
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
    /// Set when x are epoch milliseconds of a timeseries.
    epoch: bool,
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
                epoch: one.get(4).is_truthy(),
            });
        }
        Some(Found {
            config: found.get(0).as_string()?,
            series,
        })
    }

    /// `viz_config` and the series, each long line of dates already kept
    /// for pixels as it was copied a block at a time ([`LongLine`]): a
    /// million points never cross whole, and the card shown is still there
    /// when one of them is no date (`None`: the JSON text's reader then
    /// words the error).
    fn kept_while_copied(self) -> Option<(String, Vec<Ready>)> {
        let mut series = Vec::with_capacity(self.series.len());
        for one in self.series {
            let kept = BLOCK_BUFFER.with(|block| match block.try_borrow_mut() {
                Ok(mut block) => one.long_line(&mut block),
                Err(_) => Some(None),
            })?;
            series.push(match kept {
                Some(kept) => Ready::Kept(kept),
                None => Ready::Whole(one),
            });
        }
        Some((self.config, series))
    }
}

impl FoundSeries {
    /// The line kept, `Some(None)` for one to copy whole (short, not dates,
    /// or out of order), `None` when an x is no date.
    fn long_line(&self, block: &mut Vec<f64>) -> Option<Option<GivenSeries>> {
        let n = self.x.length();
        if !(self.epoch || self.dates.is_some()) || n == 0 || self.y.length() != n {
            return Some(None);
        }
        if n as usize <= KEPT_POINTS {
            return Some(None);
        }
        let (first, last) = (self.x.get_index(0), self.x.get_index(n - 1));
        let out = spare().unwrap_or_default();
        let Some(mut line) = LongLine::new(n as usize, first, last, self.dates, out) else {
            return Some(None);
        };
        block.resize(2 * BLOCK as usize, 0.0);
        let (xs, ys) = block.split_at_mut(BLOCK as usize);
        let mut start = 0;
        while start < n {
            let end = n.min(start + BLOCK);
            let len = (end - start) as usize;
            let (xs, ys) = (&mut xs[..len], &mut ys[..len]);
            self.x.subarray(start, end).copy_to(xs);
            self.y.subarray(start, end).copy_to(ys);
            if !line.read(xs, ys) {
                return None;
            }
            start = end;
        }
        Some(line.finish(self.name.clone()))
    }
}

/// The columns copied into this module's memory, once each.
fn copy(series: Vec<Ready>) -> Vec<GivenSeries> {
    series
        .into_iter()
        .map(|one| match one {
            Ready::Kept(kept) => kept,
            Ready::Whole(one) => GivenSeries {
                name: one.name,
                x: match one.dates {
                    Some(precision) => GivenX::Dates(one.x.to_vec(), precision),
                    None => GivenX::Numbers(one.x.to_vec()),
                },
                y: one.y.to_vec(),
                kept_from: None,
            },
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
