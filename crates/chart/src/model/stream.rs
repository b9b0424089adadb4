//! Timeseries and scatter cards read straight from the JSON text (issue
//! 15): a constant number of passes of the pull reader, numbers straight
//! into the card's columns, no tree of the data and nothing allocated per
//! point (a string is borrowed from the text unless it holds escapes).
//! At a million points the tree took hundreds of megabytes; this takes
//! the columns.
//!
//! Only documents that read without error are read here. Anything else
//! (another card type, another shape of `data`, any value the card would
//! refuse) answers `None`, and the tree reader ([`super::VisualizationData`])
//! reads it instead: it stays the one place every rejection is worded and
//! ordered, so the errors are the same whichever way a document goes.

use std::borrow::Cow;

use crate::json::{self, Reader, Token};

use super::card::{series_name, Card, Series};
use super::date::{epoch_seconds, parse_date, DatePrecision};
use super::{CardKind, Path, VizConfig, MAX_SERIES};

/// The card of `text`, or `None` to leave it to the tree reader.
pub(crate) fn read(text: &str) -> Option<Result<(VizConfig, CardKind, Card), super::DataError>> {
    let (config_at, data_at) = top_level(text)?;
    let config_value = json::parse_at(text, config_at).ok()?;
    let config = match VizConfig::from_value(&Path::Root.key("viz_config"), &config_value) {
        Ok(config) => config,
        Err(error) => return Some(Err(error)),
    };
    let series = point_arrays(text, data_at)?;
    let facts = facts(text, &series)?;
    let kind = config.kind.unwrap_or_else(|| facts.kind(series.len()));
    let card = match kind {
        CardKind::Timeseries => read_timeseries(text, &series, &facts.points)?,
        CardKind::Scatter => read_scatter(text, &series, &facts.points)?,
        _ => return None,
    };
    Some(Ok((config, kind, card)))
}

/// Checks the whole text as the tree reader would and finds where the
/// values of `viz_config` and `data` start (a repeated key's last, as the
/// tree keeps it).
fn top_level(text: &str) -> Option<(usize, usize)> {
    let mut reader = Reader::new(text);
    if reader.value().ok()? != Token::Object {
        return None;
    }
    let (mut config, mut data) = (None, None);
    let mut first = true;
    while let Some(key) = reader.has_key(first).ok()? {
        first = false;
        let at = reader.offset();
        match &*key {
            "viz_config" => config = Some(at),
            "data" => data = Some(at),
            _ => {}
        }
        reader.skip().ok()?;
    }
    reader.finish().ok()?;
    Some((config?, data?))
}

/// Each series as its name as given ("" for `data: [...]`) and where its
/// array of points starts.
fn point_arrays(text: &str, data_at: usize) -> Option<Vec<(String, usize)>> {
    let mut reader = Reader::at(text, data_at);
    match reader.value().ok()? {
        Token::Array => return Some(vec![(String::new(), data_at)]),
        Token::Object => {}
        _ => return None,
    }
    let mut series_at = None;
    let mut first = true;
    while let Some(key) = reader.has_key(first).ok()? {
        first = false;
        if key == "series" {
            series_at = Some(reader.offset());
        }
        reader.skip().ok()?;
    }
    let mut reader = Reader::at(text, series_at?);
    if reader.value().ok()? != Token::Array {
        return None;
    }
    let mut list = Vec::new();
    while reader.has_element(list.is_empty()).ok()? {
        // Past the cap the card is refused; the tree reader says so.
        if list.len() == MAX_SERIES || reader.value().ok()? != Token::Object {
            return None;
        }
        let (mut name_at, mut points_at) = (None, None);
        let mut first = true;
        while let Some(key) = reader.has_key(first).ok()? {
            first = false;
            match &*key {
                "name" => name_at = Some(reader.offset()),
                "points" => points_at = Some(reader.offset()),
                _ => {}
            }
            reader.skip().ok()?;
        }
        let name = match name_at.map(|at| Reader::at(text, at).value()) {
            None | Some(Ok(Token::Null)) => format!("Series {}", list.len() + 1),
            Some(Ok(Token::String(name))) => name.into_owned(),
            Some(Ok(Token::Number(n))) => n.to_string(),
            Some(_) => return None,
        };
        let points_at = points_at?;
        if Reader::at(text, points_at).value().ok()? != Token::Array {
            return None;
        }
        list.push((name, points_at));
    }
    Some(list)
}

/// A field of a point as the readers need it.
#[derive(Default)]
enum Field<'a> {
    #[default]
    Absent,
    Null,
    Number(f64),
    Text(Cow<'a, str>),
    /// true, false, an array or an object: never what x or y may be.
    Other,
}

/// Reads one value as a [`Field`], past any contents.
fn field<'a>(reader: &mut Reader<'a>) -> Option<Field<'a>> {
    Some(match reader.value().ok()? {
        Token::Null => Field::Null,
        Token::Number(n) => Field::Number(n.as_f64()),
        Token::String(text) => Field::Text(text),
        Token::Bool(_) => Field::Other,
        Token::Array => {
            let mut first = true;
            while reader.has_element(first).ok()? {
                first = false;
                reader.skip().ok()?;
            }
            Field::Other
        }
        Token::Object => {
            let mut first = true;
            while reader.has_key(first).ok()?.is_some() {
                first = false;
                reader.skip().ok()?;
            }
            Field::Other
        }
    })
}

/// The keys whose presence type inference asks about, as bits.
const KEYS: [&str; 6] = ["x", "y", "value", "values", "start", "end"];

/// What type inference needs to know of the points, and how many each series has.
#[derive(Default)]
struct Facts {
    points: Vec<usize>,
    /// Points having each of [`KEYS`] (null or not).
    having: [usize; 6],
    /// Points whose x is not null; of them, dates and numbers.
    xs: usize,
    dated_xs: usize,
    numeric_xs: usize,
}

impl Facts {
    /// [`super::card::infer_kind`]'s answer for the same points.
    fn kind(&self, series_count: usize) -> CardKind {
        let objects: usize = self.points.iter().sum();
        let all_have = |key: usize| objects > 0 && self.having[key] == objects;
        let [x, y, value, values, start, end] = [0, 1, 2, 3, 4, 5];
        if all_have(start) && all_have(end) {
            CardKind::Timeline
        } else if all_have(value) && all_have(x) && all_have(y) {
            CardKind::Heatmap
        } else if all_have(values) {
            CardKind::Boxplot
        } else if self.having[x] == 0 && all_have(y) {
            CardKind::Histogram
        } else if self.xs > 0 && self.dated_xs == self.xs {
            CardKind::Timeseries
        } else if self.xs > 0 && self.numeric_xs == self.xs {
            CardKind::Scatter
        } else if series_count > 1 {
            CardKind::GroupedBar
        } else {
            CardKind::Bar
        }
    }
}

/// Counts the points and gathers [`Facts`]; `None` if a point is not an object.
fn facts(text: &str, series: &[(String, usize)]) -> Option<Facts> {
    let mut facts = Facts::default();
    for &(_, at) in series {
        let mut count = 0;
        points(text, at, |reader| {
            count += 1;
            let mut present = [false; 6];
            let mut x = Field::Absent;
            let mut first = true;
            while let Some(key) = reader.has_key(first).ok()? {
                first = false;
                if let Some(bit) = KEYS.iter().position(|k| *k == key) {
                    if let Some(seen) = present.get_mut(bit) {
                        *seen = true;
                    }
                }
                if key == "x" {
                    x = field(reader)?;
                } else {
                    reader.skip().ok()?;
                }
            }
            for (having, seen) in facts.having.iter_mut().zip(present) {
                *having += usize::from(seen);
            }
            match x {
                Field::Absent | Field::Null => {}
                Field::Number(_) => {
                    facts.xs += 1;
                    facts.numeric_xs += 1;
                }
                Field::Text(text) => {
                    facts.xs += 1;
                    facts.dated_xs += usize::from(parse_date(&text).is_some());
                }
                Field::Other => facts.xs += 1,
            }
            Some(())
        })?;
        facts.points.push(count);
    }
    Some(facts)
}

/// Calls `point` with the reader inside each point object of the array at
/// `at` (its `{` read); `None` if one is not an object or `point` says so.
fn points<'a>(
    text: &'a str,
    at: usize,
    mut point: impl FnMut(&mut Reader<'a>) -> Option<()>,
) -> Option<()> {
    let mut reader = Reader::at(text, at);
    if reader.value().ok()? != Token::Array {
        return None;
    }
    let mut first = true;
    while reader.has_element(first).ok()? {
        first = false;
        if reader.value().ok()? != Token::Object {
            return None;
        }
        point(&mut reader)?;
    }
    Some(())
}

/// The point's x and y (the last of a repeated key, as the tree keeps it).
fn x_and_y<'a>(reader: &mut Reader<'a>) -> Option<(Field<'a>, Field<'a>)> {
    let (mut x, mut y) = (Field::Absent, Field::Absent);
    let mut first = true;
    while let Some(key) = reader.has_key(first).ok()? {
        first = false;
        match &*key {
            "x" => x = field(reader)?,
            "y" => y = field(reader)?,
            _ => reader.skip().ok()?,
        }
    }
    Some((x, y))
}

/// A number, or NaN for null or absent (a gap).
fn number_or_gap(field: &Field<'_>) -> Option<f64> {
    match field {
        Field::Absent | Field::Null => Some(f64::NAN),
        Field::Number(n) if n.is_finite() => Some(*n),
        _ => None,
    }
}

fn read_timeseries(text: &str, series: &[(String, usize)], counts: &[usize]) -> Option<Card> {
    let mut precision = DatePrecision::Year;
    let mut out = Vec::with_capacity(series.len());
    for (s, ((name, at), &count)) in series.iter().zip(counts).enumerate() {
        let mut xs = Vec::with_capacity(count);
        let mut ys = Vec::with_capacity(count);
        points(text, *at, |reader| {
            let (x, y) = x_and_y(reader)?;
            let (x, p) = match x {
                Field::Text(text) => parse_date(&text)?,
                Field::Number(year) if year.fract() == 0.0 && (0.0..=9999.0).contains(&year) => {
                    (epoch_seconds(year as u32, 1, 1, 0), DatePrecision::Year)
                }
                _ => return None,
            };
            precision = precision.max(p);
            xs.push(x);
            ys.push(number_or_gap(&y)?);
            Some(())
        })?;
        if !xs.windows(2).all(|w| w[0] <= w[1]) {
            let order = crate::order::ranked(&xs, false);
            xs = crate::order::rearranged(&xs, &order);
            ys = crate::order::rearranged(&ys, &order);
        }
        out.push(Series {
            name: series_name(name, s),
            xs,
            ys,
        });
    }
    Some(Card::Timeseries {
        series: out,
        precision,
    })
}

fn read_scatter(text: &str, series: &[(String, usize)], counts: &[usize]) -> Option<Card> {
    let mut out = Vec::with_capacity(series.len());
    for (s, ((name, at), &count)) in series.iter().zip(counts).enumerate() {
        let mut xy = Series {
            name: series_name(name, s),
            xs: Vec::with_capacity(count),
            ys: Vec::with_capacity(count),
        };
        points(text, *at, |reader| {
            let (x, y) = x_and_y(reader)?;
            let x = match x {
                Field::Text(text) => {
                    crate::number_text::parse_f64(text.trim()).filter(|n| n.is_finite())?
                }
                other => number_or_gap(&other)?,
            };
            let y = number_or_gap(&y)?;
            if !x.is_nan() && !y.is_nan() {
                xy.xs.push(x);
                xy.ys.push(y);
            }
            Some(())
        })?;
        out.push(xy);
    }
    Some(Card::Scatter(out))
}
