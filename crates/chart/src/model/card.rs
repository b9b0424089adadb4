//! What every kind's reader shares: the data as points (objects, table
//! rows or columns) read one at a time, error paths, labels by first
//! appearance, dates, and the two data shapes several kinds read
//! ([`Categorical`], [`Series`]). Each kind's own reader is in its folder
//! under `crate::kinds`, whose `Card::read` picks it.

use crate::json::{Object, Value};
use crate::str_index::StrIndex;

use super::date::{parse_date, DatePrecision};
use super::error::{describe, Path};
use super::limits::MAX_SERIES;
use super::rules::{date_of, series_name, sort_by_x, Facts, Field, KEYS};
use super::{CardKind, DataError, DataShape, RawSeries};

#[derive(Debug, Clone, PartialEq)]
pub struct Categorical {
    pub kind: CardKind,
    pub categories: Vec<String>,
    /// Each series has one value per category.
    pub series: Vec<NamedValues>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NamedValues {
    pub name: String,
    pub values: Vec<f64>,
}

/// Columnar x/y, as the drawing hot path wants it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    pub name: String,
    pub xs: Vec<f64>,
    pub ys: Vec<f64>,
    /// How many points with a value were given. A line of more than
    /// [`crate::reduce::KEPT_POINTS`] keeps fewer (what pixels can show).
    pub given: usize,
}

impl Series {
    /// A timeseries's series as its card holds it, whichever reader read it:
    /// sorted by date, and a long one kept to what pixels can show
    /// ([`crate::reduce::kept_for_pixels`]), so that a million points cost a
    /// card no more than 32,768 do, and every reader draws the same lines.
    /// `kept_from`: the caller kept it so already, from that many values.
    pub(crate) fn line(
        name: String,
        mut xs: Vec<f64>,
        mut ys: Vec<f64>,
        kept_from: Option<usize>,
    ) -> Series {
        let given = match kept_from {
            Some(given) => given,
            None => {
                sort_by_x(&mut xs, &mut ys);
                // Every x is a date here: the values count.
                let given = ys.iter().filter(|y| y.is_finite()).count();
                (xs, ys) = crate::reduce::kept_for_pixels(xs, ys);
                given
            }
        };
        Series {
            name,
            xs,
            ys,
            given,
        }
    }
}

/// Where a value sits, for error paths.
#[derive(Clone, Copy)]
pub(crate) enum Loc {
    Point(usize),
    SeriesPoint(usize, usize),
    /// Element `i` of the arrays of `data` (no series) or `data.series[s]`.
    Column(Option<usize>, usize),
    Cell(usize, usize),
    /// A timeline table row: the columns of label, start and end.
    TimelineRow(usize, [usize; 3]),
}

impl Loc {
    /// The path of the point's field `key`, built by [`Path`] as every
    /// other error path is.
    pub(crate) fn field(self, key: &str) -> String {
        self.field_in(key, |path| path.to_string())
    }

    /// The path of element `index` of the point's field `key`.
    pub(crate) fn field_index(self, key: &str, index: usize) -> String {
        self.field_in(key, |path| path.index(index).to_string())
    }

    fn field_in<T>(self, key: &str, finish: impl FnOnce(&Path<'_>) -> T) -> T {
        let root = Path::Root;
        let data = root.key("data");
        let (r, c) = match self {
            Loc::Point(i) => return finish(&data.index(i).key(key)),
            Loc::SeriesPoint(s, i) => {
                return finish(&data.key("series").index(s).key("points").index(i).key(key))
            }
            Loc::Column(None, i) => return finish(&data.key(key).index(i)),
            Loc::Column(Some(s), i) => {
                return finish(&data.key("series").index(s).key(key).index(i))
            }
            // Table rows become points whose x is the first cell.
            Loc::Cell(r, _) if key == "x" => (r, 0),
            Loc::Cell(r, c) => (r, c),
            Loc::TimelineRow(r, [l, s, e]) => {
                let c = match key {
                    "start" => s,
                    "end" => e,
                    _ => l,
                };
                (r, c)
            }
        };
        finish(&data.key("rows").index(r).index(c))
    }

    fn whole(self) -> String {
        let root = Path::Root;
        let data = root.key("data");
        match self {
            Loc::Point(i) => data.index(i).to_string(),
            Loc::SeriesPoint(s, i) => data
                .key("series")
                .index(s)
                .key("points")
                .index(i)
                .to_string(),
            Loc::Cell(r, c) => data.key("rows").index(r).index(c).to_string(),
            // Made from the arrays: always an object.
            Loc::Column(None, _) => data.to_string(),
            Loc::Column(Some(s), _) => data.key("series").index(s).to_string(),
            Loc::TimelineRow(r, _) => data.key("rows").index(r).to_string(),
        }
    }
}

/// Distinct labels in first-seen order, found by hash (tens of thousands
/// of categories must not cost a quadratic search).
#[derive(Default)]
pub(crate) struct Labels(pub(crate) StrIndex);

impl Labels {
    pub(crate) fn at(&mut self, label: &str) -> usize {
        match self.0.get(label) {
            Some(at) => at,
            None => self.0.insert(label.to_owned(), self.0.len()),
        }
    }
}

pub(crate) fn error(path: String, message: impl Into<String>) -> DataError {
    DataError {
        path,
        message: message.into(),
        unloaded: None,
    }
}

pub(crate) fn expected(path: String, what: &str, found: &Value) -> DataError {
    error(path, format!("expected {what}, found {}", describe(found)))
}

/// Stands in for the cells a table row lacks.
pub(crate) static NULL: Value = Value::Null;

/// Where the fields of a point come from. Table rows are read in place,
/// without building an object per cell.
#[derive(Clone, Copy)]
pub(crate) enum Fields<'a> {
    Object(&'a Object),
    /// A table row as a point: `x` is its first cell, `y` one value column's.
    Row {
        x: &'a Value,
        y: &'a Value,
    },
    /// A timeline table row: the cells of its label, start and end columns.
    Timeline {
        label: &'a Value,
        start: &'a Value,
        end: &'a Value,
    },
}

impl<'a> Fields<'a> {
    fn get(self, key: &str) -> Option<&'a Value> {
        match (self, key) {
            (Fields::Object(object), _) => object.get(key),
            (Fields::Row { x, .. }, "x") => Some(x),
            (Fields::Row { y, .. }, "y") => Some(y),
            (Fields::Timeline { label, .. }, "label") => Some(label),
            (Fields::Timeline { start, .. }, "start") => Some(start),
            (Fields::Timeline { end, .. }, "end") => Some(end),
            _ => None,
        }
    }
}

/// One point of a series, as key/value fields.
pub(crate) struct PointRef<'a> {
    pub(crate) loc: Loc,
    pub(crate) fields: Fields<'a>,
}

impl<'a> PointRef<'a> {
    /// The field as it came, `null` included.
    pub(crate) fn raw(&self, key: &str) -> Option<&'a Value> {
        self.fields.get(key)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&'a Value> {
        self.raw(key).filter(|value| !value.is_null())
    }

    pub(crate) fn required(&self, key: &str) -> Result<&'a Value, DataError> {
        self.get(key)
            .ok_or_else(|| error(self.loc.field(key), "is required"))
    }

    /// A number, or NaN for `null`/absent (a gap).
    pub(crate) fn number_or_gap(&self, key: &str) -> Result<f64, DataError> {
        match self.raw(key) {
            None | Some(Value::Null) => Ok(f64::NAN),
            Some(value) => {
                number(value).ok_or_else(|| expected(self.loc.field(key), "a number", value))
            }
        }
    }

    pub(crate) fn label(&self, key: &str) -> Result<String, DataError> {
        let value = self.required(key)?;
        label(value).ok_or_else(|| expected(self.loc.field(key), "a string or a number", value))
    }
}

pub(crate) fn number(value: &Value) -> Option<f64> {
    value
        .as_f64()
        .filter(|n| n.is_finite())
        .map(super::rules::value)
}

pub(crate) fn label(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The series of a card, each as (name, points). Tables become one series per value column.
pub(crate) fn series_points(shape: &DataShape) -> Vec<(String, Points<'_>)> {
    match shape {
        DataShape::Points(points) => vec![(
            String::new(),
            Points::Objects {
                points,
                series: None,
                columnar: false,
            },
        )],
        DataShape::Columns(points) => vec![(
            String::new(),
            Points::Objects {
                points,
                series: None,
                columnar: true,
            },
        )],
        DataShape::Series(series) => series
            .iter()
            .enumerate()
            .map(
                |(
                    s,
                    RawSeries {
                        name,
                        points,
                        columnar,
                    },
                )| {
                    (
                        name.clone(),
                        Points::Objects {
                            points,
                            series: Some(s),
                            columnar: *columnar,
                        },
                    )
                },
            )
            .collect(),
        DataShape::Table { columns, rows } => columns
            .iter()
            .enumerate()
            .skip(1)
            .map(|(column, name)| (name.clone(), Points::Column { rows, column }))
            .collect(),
    }
}

/// The points of one series, made one at a time as they are read: nothing
/// is built per point or per cell before a reader asks for it.
#[derive(Clone, Copy)]
pub(crate) enum Points<'a> {
    /// Point objects, of `data` (no series) or of `data.series[s]`.
    Objects {
        points: &'a [Value],
        series: Option<usize>,
        columnar: bool,
    },
    /// One value column of a table, with the first column as x.
    Column {
        rows: &'a [Vec<Value>],
        column: usize,
    },
}

impl<'a> Points<'a> {
    pub(crate) fn len(self) -> usize {
        match self {
            Points::Objects { points, .. } => points.len(),
            Points::Column { rows, .. } => rows.len(),
        }
    }

    fn get(self, i: usize) -> Option<PointRef<'a>> {
        static EMPTY: Object = Object::new();
        match self {
            Points::Objects {
                points,
                series,
                columnar,
            } => points.get(i).map(|value| PointRef {
                loc: match (series, columnar) {
                    (series, true) => Loc::Column(series, i),
                    (Some(s), false) => Loc::SeriesPoint(s, i),
                    (None, false) => Loc::Point(i),
                },
                fields: Fields::Object(value.as_object().unwrap_or(&EMPTY)),
            }),
            Points::Column { rows, column } => rows.get(i).map(|row| PointRef {
                loc: Loc::Cell(i, column),
                fields: Fields::Row {
                    x: row.first().unwrap_or(&NULL),
                    y: row.get(column).unwrap_or(&NULL),
                },
            }),
        }
    }
}

pub(crate) struct PointIter<'a> {
    points: Points<'a>,
    next: usize,
}

impl<'a> Iterator for PointIter<'a> {
    type Item = PointRef<'a>;

    fn next(&mut self) -> Option<PointRef<'a>> {
        let point = self.points.get(self.next)?;
        self.next += 1;
        Some(point)
    }
}

impl<'a> IntoIterator for Points<'a> {
    type Item = PointRef<'a>;
    type IntoIter = PointIter<'a>;

    fn into_iter(self) -> PointIter<'a> {
        PointIter {
            points: self,
            next: 0,
        }
    }
}

impl<'a> IntoIterator for &Points<'a> {
    type Item = PointRef<'a>;
    type IntoIter = PointIter<'a>;

    fn into_iter(self) -> PointIter<'a> {
        (*self).into_iter()
    }
}

/// Points must be objects; checked once up front so readers can assume it.
pub(crate) fn check_objects(shape: &DataShape) -> Result<(), DataError> {
    let check = |points: &[Value], loc: &dyn Fn(usize) -> Loc| {
        points.iter().enumerate().try_for_each(|(i, value)| {
            if value.is_object() {
                Ok(())
            } else {
                Err(expected(
                    loc(i).whole(),
                    "a point object such as {\"x\": \"Jan\", \"y\": 3}",
                    value,
                ))
            }
        })
    };
    match shape {
        DataShape::Points(points) => check(points, &Loc::Point),
        DataShape::Columns(_) => Ok(()),
        DataShape::Series(series) => series
            .iter()
            .enumerate()
            .try_for_each(|(s, raw)| check(&raw.points, &|i| Loc::SeriesPoint(s, i))),
        DataShape::Table { .. } => Ok(()),
    }
}

/// Cards that draw one mark set per series refuse more series than a
/// legend can tell apart, before any series is read.
pub(crate) fn check_series_count(shape: &DataShape) -> Result<(), DataError> {
    let (path, count) = match shape {
        DataShape::Points(_) | DataShape::Columns(_) => return Ok(()),
        DataShape::Series(series) => ("data.series", series.len()),
        DataShape::Table { columns, .. } => ("data.columns", columns.len().saturating_sub(1)),
    };
    if count > MAX_SERIES {
        return Err(error(
            path.into(),
            format!("a card of {count} series; at most {MAX_SERIES} series can be told apart"),
        ));
    }
    Ok(())
}

/// What a kind reading [`Categorical`] data allows.
pub(crate) struct CategoricalRules {
    /// Distinct categories at most.
    pub max_categories: usize,
    /// Series × categories at most: the dense matrix the reader builds.
    pub max_cells: usize,
    /// Refuse a negative value, naming the mark ("a pie slice").
    pub refuse_negative: Option<&'static str>,
}

/// Categories (x) with one value per series each, repeated categories
/// added up: bar, grouped_bar, stacked_bar, waterfall, pie and choropleth.
pub(crate) fn read_categorical(
    kind: CardKind,
    shape: &DataShape,
    rules: &CategoricalRules,
) -> Result<Categorical, DataError> {
    check_series_count(shape)?;
    let series = &series_points(shape);
    let mut categories = Labels::default();
    // Categories counted against the caps so far.
    let mut checked = 0;
    let mut rows: Vec<Vec<(usize, f64)>> = Vec::with_capacity(series.len());
    let caps = (rules.max_categories, rules.max_cells);
    for (_, points) in series {
        let mut row = Vec::with_capacity(points.len());
        for point in points {
            let x = point.label("x")?;
            let y = point.number_or_gap("y")?;
            if let Some(mark) = rules.refuse_negative.filter(|_| y < 0.0) {
                // The number as it came (no float formatting in the engine).
                let found = point.raw("y").map(describe).unwrap_or_default();
                return Err(error(
                    point.loc.field("y"),
                    format!("{mark} cannot be negative, found {found}"),
                ));
            }
            let at = categories.at(&x);
            if at + 1 > checked {
                checked = at + 1;
                check_categories(kind, checked, caps, series.len())?;
            }
            row.push((at, y));
        }
        rows.push(row);
    }
    let series = series
        .iter()
        .zip(rows)
        .enumerate()
        .map(|(s, ((name, _), row))| {
            let mut values = vec![f64::NAN; categories.0.len()];
            // Repeated categories add up: data often arrives unaggregated.
            for (at, y) in row {
                if let Some(slot) = values.get_mut(at) {
                    *slot = if slot.is_nan() {
                        y
                    } else if y.is_nan() {
                        *slot
                    } else {
                        *slot + y
                    };
                }
            }
            NamedValues {
                name: series_name(name, s),
                values,
            }
        })
        .collect();
    Ok(Categorical {
        kind,
        categories: categories.0.into_keys(),
        series,
    })
}

/// Refuses the category that takes a categorical card past its caps, so
/// the dense series × categories matrix is never built too big.
fn check_categories(
    kind: CardKind,
    categories: usize,
    (max_categories, max_cells): (usize, usize),
    series: usize,
) -> Result<(), DataError> {
    if categories > max_categories {
        return Err(error(
            "data".into(),
            format!(
                "a {kind} card of more than {max_categories} categories (distinct x); at most {max_categories} can be shown"
            ),
        ));
    }
    if categories.saturating_mul(series) > max_cells {
        return Err(error(
            "data".into(),
            format!(
                "a {kind} card of {series} series and at least {categories} categories (distinct x) has more than {max_cells} values; at most {max_cells} can be shown"
            ),
        ));
    }
    Ok(())
}

/// A date string, or a whole number read as a year; with `epoch_ms`, a
/// number of milliseconds since 1970 and nothing else.
pub(crate) fn date_value(
    point: &PointRef<'_>,
    key: &str,
    epoch_ms: bool,
) -> Result<(f64, DatePrecision), DataError> {
    let value = point.required(key)?;
    // The streaming reader's rules, so both readers read dates alike.
    let field = match value {
        Value::String(text) => Field::Text(text.as_str().into()),
        Value::Number(n) => Field::Number(n.as_f64()),
        _ => Field::Other,
    };
    date_of(field, epoch_ms).ok_or_else(|| {
        expected(
            point.loc.field(key),
            if epoch_ms {
                "milliseconds since 1970-01-01T00:00Z between years 0 and 9999 (viz_config.x_time is \"epoch_ms\")"
            } else {
                "a date such as \"2024-05-01\", \"2024-05\", \"2024\" or \"2024-05-01T12:00:00Z\""
            },
            value,
        )
    })
}

/// What the data looks like, when `viz_component_type` does not say.
pub fn infer_kind(shape: &DataShape) -> CardKind {
    let (first_points, series_count): (Vec<&Value>, usize) = match shape {
        DataShape::Points(points) | DataShape::Columns(points) => (points.iter().collect(), 1),
        DataShape::Series(series) => (
            series.iter().flat_map(|s| s.points.iter()).collect(),
            series.len(),
        ),
        DataShape::Table { columns, rows } => {
            let numeric_values = rows.iter().all(|row| {
                row.iter()
                    .skip(1)
                    .all(|cell| cell.is_null() || cell.is_number())
            });
            if columns.len() < 2 || !numeric_values {
                return CardKind::Table;
            }
            let dated = !rows.is_empty()
                && rows.iter().all(|row| {
                    row.first()
                        .and_then(Value::as_str)
                        .is_some_and(|t| parse_date(t).is_some())
                });
            return match (dated, columns.len()) {
                (true, _) => CardKind::Timeseries,
                (false, 2) => CardKind::Bar,
                (false, _) => CardKind::GroupedBar,
            };
        }
    };
    // The streaming reader's rules, so both readers infer alike.
    let mut facts = Facts::default();
    let mut objects = 0;
    for object in first_points.iter().filter_map(|p| p.as_object()) {
        objects += 1;
        for (having, key) in facts.having.iter_mut().zip(KEYS) {
            *having += usize::from(object.contains_key(key));
        }
        match object.get("x") {
            None | Some(Value::Null) => {}
            Some(Value::Number(_)) => {
                facts.xs += 1;
                facts.numeric_xs += 1;
            }
            Some(Value::String(text)) => {
                facts.xs += 1;
                facts.dated_xs += usize::from(parse_date(text).is_some());
            }
            Some(_) => facts.xs += 1,
        }
    }
    facts.points.push(objects);
    facts.kind(series_count)
}
