//! Timeseries and scatter cards read straight from the JSON text:
//! a constant number of passes of the pull reader, numbers straight
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

use crate::json::{self, Reader, Token};

use super::date::{parse_date, DatePrecision};
use super::rules::{date_of, drop_gaps, gaps_as_nan, series_name, Facts, Field, KEYS};
use super::{Card, Series};
use super::{CardKind, Columns, Path, VizConfig, MAX_SERIES};

/// The card of `text`, or `None` to leave it to the tree reader. Columns
/// passed beside the text are moved into the card only once it has been
/// read without error (else the tree reader still has them all).
pub(crate) fn read(
    text: &str,
    passed: Option<&mut Columns>,
) -> Option<Result<(VizConfig, CardKind, Card), super::DataError>> {
    let columns = passed.as_deref();
    let (config_at, data_at) = top_level(text)?;
    let config_value = json::parse_at(text, config_at).ok()?;
    let config = match VizConfig::from_value(&Path::Root.key("viz_config"), &config_value) {
        Ok(config) => config,
        Err(error) => return Some(Err(error)),
    };
    let mut used = Vec::new();
    let series = series_list(text, data_at, columns, &mut used)?;
    let facts = facts(text, columns, &series)?;
    let kind = config
        .kind
        .unwrap_or_else(|| match facts.kind(series.len()) {
            CardKind::Scatter if config.epoch_ms => CardKind::Timeseries,
            kind => kind,
        });
    let mut moves = Vec::new();
    let mut card = match kind {
        kind if kind.is_dated_line() => read_timeseries(
            text,
            columns,
            &series,
            &facts.points,
            config.epoch_ms,
            &mut moves,
        )?,
        CardKind::Scatter => read_scatter(text, columns, &series, &facts.points, &mut moves)?,
        _ => return None,
    };
    if let (Some(passed), Card::Timeseries { series, .. } | Card::Scatter(series)) =
        (passed, &mut card)
    {
        move_columns(
            passed,
            series,
            &moves,
            config.epoch_ms && kind.is_dated_line(),
            kind.is_dated_line(),
        );
    }
    Some(Ok((config, kind, card)))
}

/// A series whose x (and y, if any) are columns passed beside the text:
/// `(series, x column, y column)`.
type Move = (usize, usize, Option<usize>);

fn passed_pair(s: usize, source: &Source) -> Option<Move> {
    match source {
        Source::Columns {
            x: Some(Column::Passed(x)),
            y: None,
            ..
        } => Some((s, *x, None)),
        Source::Columns {
            x: Some(Column::Passed(x)),
            y: Some(Column::Passed(y)),
            ..
        } => Some((s, *x, Some(*y))),
        _ => None,
    }
}

/// Moves the checked columns into their series: x made seconds in place
/// (timeseries), points missing x or y dropped in place (scatter).
fn move_columns(
    passed: &mut Columns,
    series: &mut [Series],
    moves: &[Move],
    epoch_ms: bool,
    timeseries: bool,
) {
    for &(s, x, y) in moves {
        let (Some(out), Some(mut xs)) = (series.get_mut(s), passed.take_column(x)) else {
            continue;
        };
        let mut ys = y
            .and_then(|y| passed.take_column(y))
            .unwrap_or_else(|| vec![f64::NAN; xs.len()]);
        if timeseries {
            for x in &mut xs {
                *x = date_of(Field::Number(*x), epoch_ms).map_or(f64::NAN, |(x, _)| x);
            }
            gaps_as_nan(&mut ys);
            let name = std::mem::take(&mut out.name);
            *out = Series::line(name, xs, ys, None);
        } else {
            drop_gaps(&mut xs, &mut ys);
            out.given = xs.len();
            (out.xs, out.ys) = (xs, ys);
        }
    }
}

/// Checks the whole text as the tree reader would and finds where the
/// values of `viz_config` and `data` start (a repeated key's last, as the
/// tree keeps it).
fn top_level(text: &str) -> Option<(usize, usize)> {
    let mut reader = Reader::new(text);
    if reader.value().ok()? != Token::Object {
        return None;
    }
    let [config, data, ..] = keys_of(&mut reader, &["viz_config", "data"])?;
    reader.finish().ok()?;
    Some((config?, data?))
}

/// Where the values of one array of a series come from.
#[derive(Clone, Copy)]
enum Column {
    /// An array in the text, starting here.
    Text(usize),
    /// A column passed beside the text.
    Passed(usize),
}

/// Where the points of a series come from.
enum Source {
    /// An array of point objects starting here.
    Points(usize),
    /// Parallel arrays: x and y (either may be absent), which of [`KEYS`]
    /// are given, and their common length.
    Columns {
        x: Option<Column>,
        y: Option<Column>,
        having: [bool; 6],
        len: usize,
    },
}

/// Where the values of the keys in `wanted` (at most 9) start in the
/// object whose `{` was just read (a repeated key's last); the rest are
/// skipped. One function for every caller: the engine is small.
fn keys_of(reader: &mut Reader<'_>, wanted: &[&str]) -> Option<[Option<usize>; 9]> {
    let mut found = [None; 9];
    let mut first = true;
    while let Some(key) = reader.has_key(first).ok()? {
        first = false;
        if let Some(slot) = wanted
            .iter()
            .position(|w| *w == key)
            .and_then(|at| found.get_mut(at))
        {
            *slot = Some(reader.offset());
        }
        reader.skip().ok()?;
    }
    Some(found)
}

/// Each series as its name as given ("" for `data: [...]` and `data: {x,
/// y}`) and where its points come from.
fn series_list(
    text: &str,
    data_at: usize,
    columns: Option<&Columns>,
    used: &mut Vec<usize>,
) -> Option<Vec<(String, Source)>> {
    let mut reader = Reader::at(text, data_at);
    match reader.value().ok()? {
        Token::Array => return Some(vec![(String::new(), Source::Points(data_at))]),
        Token::Object => {}
        _ => return None,
    }
    let [series, table_columns, rows, x, y, value, label, start, end] = keys_of(
        &mut reader,
        &[
            "series", "columns", "rows", "x", "y", "value", "label", "start", "end",
        ],
    )?;
    let Some(series_at) = series else {
        if table_columns.is_some() || rows.is_some() {
            return None;
        }
        let source = column_source(text, columns, used, [x, y, value, label, start, end])?;
        return Some(vec![(String::new(), source)]);
    };
    let mut reader = Reader::at(text, series_at);
    if reader.value().ok()? != Token::Array {
        return None;
    }
    let mut list = Vec::new();
    while reader.has_element(list.is_empty()).ok()? {
        // Past the cap the card is refused; the tree reader says so.
        if list.len() == MAX_SERIES || reader.value().ok()? != Token::Object {
            return None;
        }
        let [name_at, points_at, x, y, value, label, start, end, _] = keys_of(
            &mut reader,
            &["name", "points", "x", "y", "value", "label", "start", "end"],
        )?;
        let name = match name_at.map(|at| Reader::at(text, at).value()) {
            None | Some(Ok(Token::Null)) => format!("Series {}", list.len() + 1),
            Some(Ok(Token::String(name))) => name.into_owned(),
            Some(Ok(Token::Number(n))) => n.to_string(),
            Some(_) => return None,
        };
        let source = match points_at {
            Some(points_at) => {
                if Reader::at(text, points_at).value().ok()? != Token::Array {
                    return None;
                }
                Source::Points(points_at)
            }
            None => column_source(text, columns, used, [x, y, value, label, start, end])?,
        };
        list.push((name, source));
    }
    Some(list)
}

/// Parallel arrays starting at these offsets (in the order of
/// [`super::COLUMN_KEYS`]), checked as the tree reader checks them.
fn column_source(
    text: &str,
    columns: Option<&Columns>,
    used: &mut Vec<usize>,
    offsets: [Option<usize>; 6],
) -> Option<Source> {
    if offsets.iter().all(Option::is_none) {
        return None;
    }
    let mut len = None;
    let mut found = [None; 6];
    for (slot, at) in found.iter_mut().zip(offsets) {
        let Some(at) = at else { continue };
        let (column, count) = column_of(text, columns, used, at)?;
        if *len.get_or_insert(count) != count {
            return None;
        }
        *slot = Some(column);
    }
    let [x, y, value, _, start, end] = found;
    Some(Source::Columns {
        x,
        y,
        // In the order of KEYS: x, y, value, values, start, end.
        having: [x, y, value, None, start, end].map(|column| column.is_some()),
        len: len.unwrap_or(0),
    })
}

/// The array or `{"$column": N}` starting at `at`, and its length.
fn column_of(
    text: &str,
    columns: Option<&Columns>,
    used: &mut Vec<usize>,
    at: usize,
) -> Option<(Column, usize)> {
    let mut reader = Reader::at(text, at);
    match reader.value().ok()? {
        Token::Array => {
            let mut count = 0;
            while reader.has_element(count == 0).ok()? {
                count += 1;
                reader.skip().ok()?;
            }
            Some((Column::Text(at), count))
        }
        Token::Object => {
            let columns = columns?;
            let key = reader.has_key(true).ok()??;
            let Token::Number(crate::json::Number::PosInt(n)) = reader.value().ok()? else {
                return None;
            };
            if key != "$column" || reader.has_key(false).ok()?.is_some() {
                return None;
            }
            let n = usize::try_from(n).ok()?;
            if used.contains(&n) {
                return None;
            }
            used.push(n);
            Some((Column::Passed(n), columns.peek(n)?.len()))
        }
        _ => None,
    }
}

/// Reads one value as a [`Field`], past any contents.
fn field<'a>(reader: &mut Reader<'a>) -> Option<Field<'a>> {
    Some(match reader.value().ok()? {
        Token::Null => Field::Null,
        Token::Number(n) => Field::Number(n.as_f64()),
        Token::String(text) => Field::Text(text),
        other => {
            reader.skip_contents(&other).ok()?;
            Field::Other
        }
    })
}

/// Counts the points and gathers [`Facts`]; `None` if a point is not an object.
fn facts(text: &str, columns: Option<&Columns>, series: &[(String, Source)]) -> Option<Facts> {
    let mut facts = Facts::default();
    for (_, source) in series {
        let mut count = 0;
        if let Source::Columns { having, len, .. } = source {
            for (total, has) in facts.having.iter_mut().zip(having) {
                *total += if *has { *len } else { 0 };
            }
        }
        each_point(text, columns, source, &mut |present, x, _| {
            count += 1;
            if let Some(present) = present {
                for (having, seen) in facts.having.iter_mut().zip(present) {
                    *having += usize::from(seen);
                }
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

/// The values of one array, one at a time.
enum Values<'a, 'c> {
    Absent,
    Text(Reader<'a>, bool),
    Passed(std::slice::Iter<'c, f64>),
}

impl<'a> Values<'a, '_> {
    fn next(&mut self) -> Option<Field<'a>> {
        match self {
            Values::Absent => Some(Field::Absent),
            Values::Text(reader, first) => {
                if !reader.has_element(*first).ok()? {
                    return None;
                }
                *first = false;
                field(reader)
            }
            // As the tree reads them: anything not finite is missing.
            Values::Passed(values) => values.next().map(|&n| {
                if n.is_finite() {
                    Field::Number(n)
                } else {
                    Field::Null
                }
            }),
        }
    }
}

fn values<'a, 'c>(
    text: &'a str,
    columns: Option<&'c Columns>,
    column: Option<Column>,
) -> Option<Values<'a, 'c>> {
    Some(match column {
        None => Values::Absent,
        Some(Column::Text(at)) => {
            let mut reader = Reader::at(text, at);
            if reader.value().ok()? != Token::Array {
                return None;
            }
            Values::Text(reader, true)
        }
        Some(Column::Passed(n)) => Values::Passed(columns?.peek(n)?.iter()),
    })
}

/// Calls `point` with each point's keys of [`KEYS`] (for point objects),
/// x and y; `None` if a point is not an object or `point` says so.
fn each_point<'a>(
    text: &'a str,
    columns: Option<&Columns>,
    source: &Source,
    point: &mut dyn FnMut(Option<[bool; 6]>, Field<'a>, Field<'a>) -> Option<()>,
) -> Option<()> {
    match *source {
        Source::Points(at) => {
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
                let (present, x, y) = point_fields(&mut reader)?;
                point(Some(present), x, y)?;
            }
        }
        Source::Columns { x, y, len, .. } => {
            let (mut xs, mut ys) = (values(text, columns, x)?, values(text, columns, y)?);
            for _ in 0..len {
                point(None, xs.next()?, ys.next()?)?;
            }
        }
    }
    Some(())
}

/// Which of [`KEYS`] the point object has, and its x and y (the last of a
/// repeated key, as the tree keeps it).
fn point_fields<'a>(reader: &mut Reader<'a>) -> Option<([bool; 6], Field<'a>, Field<'a>)> {
    let mut present = [false; 6];
    let (mut x, mut y) = (Field::Absent, Field::Absent);
    let mut first = true;
    while let Some(key) = reader.has_key(first).ok()? {
        first = false;
        if let Some(seen) = KEYS
            .iter()
            .position(|k| *k == key)
            .and_then(|at| present.get_mut(at))
        {
            *seen = true;
        }
        match &*key {
            "x" => x = field(reader)?,
            "y" => y = field(reader)?,
            _ => reader.skip().ok()?,
        }
    }
    Some((present, x, y))
}

/// A number, or NaN for null or absent (a gap).
fn number_or_gap(field: &Field<'_>) -> Option<f64> {
    match field {
        Field::Absent | Field::Null => Some(f64::NAN),
        Field::Number(n) if n.is_finite() => Some(super::rules::value(*n)),
        _ => None,
    }
}

fn read_timeseries(
    text: &str,
    columns: Option<&Columns>,
    series: &[(String, Source)],
    counts: &[usize],
    epoch_ms: bool,
    moves: &mut Vec<Move>,
) -> Option<Card> {
    let mut precision = DatePrecision::Year;
    let mut out = Vec::with_capacity(series.len());
    for (s, ((name, source), &count)) in series.iter().zip(counts).enumerate() {
        // Passed columns are only checked here, and moved in afterwards.
        let moved = passed_pair(s, source);
        let capacity = if moved.is_some() { 0 } else { count };
        let mut xs = Vec::with_capacity(capacity);
        let mut ys = Vec::with_capacity(capacity);
        each_point(text, columns, source, &mut |_, x, y| {
            let (x, p) = date_of(x, epoch_ms)?;
            precision = precision.max(p);
            let y = number_or_gap(&y)?;
            if moved.is_none() {
                xs.push(x);
                ys.push(y);
            }
            Some(())
        })?;
        moves.extend(moved);
        out.push(Series::line(series_name(name, s), xs, ys, None));
    }
    Some(Card::Timeseries {
        series: out,
        precision,
    })
}

fn read_scatter(
    text: &str,
    columns: Option<&Columns>,
    series: &[(String, Source)],
    counts: &[usize],
    moves: &mut Vec<Move>,
) -> Option<Card> {
    let mut out = Vec::with_capacity(series.len());
    for (s, ((name, source), &count)) in series.iter().zip(counts).enumerate() {
        let mut xy = Series {
            name: series_name(name, s),
            ..Series::default()
        };
        // Every number or gap a passed column holds is a scatter value.
        if let Some(moved) = passed_pair(s, source) {
            moves.push(moved);
            out.push(xy);
            continue;
        }
        xy.xs.reserve_exact(count);
        xy.ys.reserve_exact(count);
        each_point(text, columns, source, &mut |_, x, y| {
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
        xy.given = xy.xs.len();
        out.push(xy);
    }
    Some(Card::Scatter(out))
}
