//! Reading the data as each card type needs it: columnar, typed, validated.

use crate::json::{Object, Value};
use crate::str_index::StrIndex;

use super::date::{parse_date, DatePrecision};
use super::error::{describe, Path};
use super::limits::{
    MAX_BARS, MAX_BOXES, MAX_CATEGORIES, MAX_HEATMAP_CELLS, MAX_PIE_VALUES, MAX_SERIES,
    MAX_TABLE_CELLS, MAX_TABLE_COLUMNS, MAX_TIMELINE_ROWS,
};
use super::rules::{date_of, series_name, sort_by_x, Facts, Field, KEYS};
use super::{CardKind, DataError, DataShape, RawSeries};

mod metric;
mod places;
mod stacked;
mod treemap;

pub use metric::{Metric, When};
pub use places::{At, Place, Places};
pub(crate) use stacked::stack;
pub use stacked::Stacked;
pub use treemap::{Leaf, Treemap};

/// A card ready to lay out. Missing values are `NaN` (drawn as gaps).
#[derive(Debug, Clone, PartialEq)]
pub enum Card {
    /// bar, grouped_bar, stacked_bar, pie, waterfall and choropleth.
    Categorical(Categorical),
    /// x in seconds since 1970 (UTC), sorted.
    Timeseries {
        series: Vec<Series>,
        precision: DatePrecision,
    },
    Scatter(Vec<XYSeries>),
    Boxplot(Vec<BoxStats>),
    /// `values[row * xs.len() + column]`, rows follow `ys`.
    Heatmap {
        xs: Vec<String>,
        ys: Vec<String>,
        values: Vec<f64>,
    },
    Timeline {
        items: Vec<TimelineItem>,
        precision: DatePrecision,
    },
    Histogram(Vec<f64>),
    Table {
        columns: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    /// stacked_area_timeseries (an area_timeseries is a `Timeseries`).
    Stacked(Stacked),
    Treemap(Treemap),
    /// top_level_metric.
    Metric(Metric),
    /// map and bubble_map.
    Places(Places),
}

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
    pub(super) fn line(
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

pub type XYSeries = Series;

#[derive(Debug, Clone, PartialEq)]
pub struct BoxStats {
    pub label: String,
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub max: f64,
    /// Ends of the whiskers: the furthest values within 1.5 IQR of the box.
    pub low_whisker: f64,
    pub high_whisker: f64,
    pub outliers: Vec<f64>,
    pub count: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TimelineItem {
    pub label: String,
    pub start: f64,
    pub end: f64,
}

/// Where a value sits, for error paths.
#[derive(Clone, Copy)]
enum Loc {
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
    fn field(self, key: &str) -> String {
        self.field_in(key, |path| path.to_string())
    }

    /// The path of element `index` of the point's field `key`.
    fn field_index(self, key: &str, index: usize) -> String {
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
struct Labels(StrIndex);

impl Labels {
    fn at(&mut self, label: &str) -> usize {
        match self.0.get(label) {
            Some(at) => at,
            None => self.0.insert(label.to_owned(), self.0.len()),
        }
    }
}

fn error(path: String, message: impl Into<String>) -> DataError {
    DataError {
        path,
        message: message.into(),
    }
}

fn expected(path: String, what: &str, found: &Value) -> DataError {
    error(path, format!("expected {what}, found {}", describe(found)))
}

/// Stands in for the cells a table row lacks.
static NULL: Value = Value::Null;

/// Where the fields of a point come from. Table rows are read in place,
/// without building an object per cell.
#[derive(Clone, Copy)]
enum Fields<'a> {
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
struct PointRef<'a> {
    loc: Loc,
    fields: Fields<'a>,
}

impl<'a> PointRef<'a> {
    /// The field as it came, `null` included.
    fn raw(&self, key: &str) -> Option<&'a Value> {
        self.fields.get(key)
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.raw(key).filter(|value| !value.is_null())
    }

    fn required(&self, key: &str) -> Result<&'a Value, DataError> {
        self.get(key)
            .ok_or_else(|| error(self.loc.field(key), "is required"))
    }

    /// A number, or NaN for `null`/absent (a gap).
    fn number_or_gap(&self, key: &str) -> Result<f64, DataError> {
        match self.raw(key) {
            None | Some(Value::Null) => Ok(f64::NAN),
            Some(value) => {
                number(value).ok_or_else(|| expected(self.loc.field(key), "a number", value))
            }
        }
    }

    fn label(&self, key: &str) -> Result<String, DataError> {
        let value = self.required(key)?;
        label(value).ok_or_else(|| expected(self.loc.field(key), "a string or a number", value))
    }
}

fn number(value: &Value) -> Option<f64> {
    value
        .as_f64()
        .filter(|n| n.is_finite())
        .map(super::rules::value)
}

fn label(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The series of a card, each as (name, points). Tables become one series per value column.
fn series_points(shape: &DataShape) -> Vec<(String, Points<'_>)> {
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
enum Points<'a> {
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
    fn len(self) -> usize {
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

struct PointIter<'a> {
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
fn check_objects(shape: &DataShape) -> Result<(), DataError> {
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
fn check_series_count(shape: &DataShape) -> Result<(), DataError> {
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

impl Card {
    pub fn read(kind: CardKind, shape: &DataShape) -> Result<Card, DataError> {
        Card::read_with(kind, shape, false)
    }

    /// [`Card::read`]; `epoch_ms`: numbers as dates are milliseconds since
    /// 1970 (`viz_config.x_time: "epoch_ms"`), not years.
    pub fn read_with(kind: CardKind, shape: &DataShape, epoch_ms: bool) -> Result<Card, DataError> {
        check_objects(shape)?;
        match kind {
            CardKind::Table => read_table(shape),
            CardKind::Heatmap => read_heatmap(shape),
            CardKind::Timeline => read_timeline(shape, epoch_ms),
            // Their series are pooled: no legend, no cap on series.
            CardKind::Boxplot => read_boxplot(&series_points(shape)),
            CardKind::Histogram => read_histogram(&series_points(shape)),
            CardKind::Treemap => treemap::read(shape),
            CardKind::TopLevelMetric => metric::read(shape),
            CardKind::Map | CardKind::BubbleMap => places::read(kind, shape),
            _ => {
                check_series_count(shape)?;
                let series = series_points(shape);
                match kind {
                    kind if kind.is_dated_line() => read_timeseries(&series, epoch_ms),
                    CardKind::Scatter => read_scatter(&series),
                    _ => read_categorical(kind, &series),
                }
            }
        }
    }
}

fn read_categorical(kind: CardKind, series: &[(String, Points<'_>)]) -> Result<Card, DataError> {
    let mut categories = Labels::default();
    // Categories counted against the caps so far.
    let mut checked = 0;
    let mut rows: Vec<Vec<(usize, f64)>> = Vec::with_capacity(series.len());
    // Pie folds its smallest slices into "Other"; only the matrix bounds it.
    let caps = if kind == CardKind::Pie {
        (usize::MAX, MAX_PIE_VALUES)
    } else {
        (MAX_CATEGORIES, MAX_BARS)
    };
    for (_, points) in series {
        let mut row = Vec::with_capacity(points.len());
        for point in points {
            let x = point.label("x")?;
            let y = point.number_or_gap("y")?;
            if kind == CardKind::Pie && y < 0.0 {
                // The number as it came (no float formatting in the engine).
                let found = point.raw("y").map(describe).unwrap_or_default();
                return Err(error(
                    point.loc.field("y"),
                    format!("a pie slice cannot be negative, found {found}"),
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
    Ok(Card::Categorical(Categorical {
        kind,
        categories: categories.0.into_keys(),
        series,
    }))
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
fn date_value(
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

fn read_timeseries(series: &[(String, Points<'_>)], epoch_ms: bool) -> Result<Card, DataError> {
    let mut precision = DatePrecision::Year;
    let mut out = Vec::with_capacity(series.len());
    for (s, (name, points)) in series.iter().enumerate() {
        let mut xs = Vec::with_capacity(points.len());
        let mut ys = Vec::with_capacity(points.len());
        for point in points {
            let (x, p) = date_value(&point, "x", epoch_ms)?;
            precision = precision.max(p);
            xs.push(x);
            ys.push(point.number_or_gap("y")?);
        }
        // The streaming reader's: one instance of it in the engine.
        out.push(Series::line(series_name(name, s), xs, ys, None));
    }
    Ok(Card::Timeseries {
        series: out,
        precision,
    })
}

fn read_scatter(series: &[(String, Points<'_>)]) -> Result<Card, DataError> {
    let mut out = Vec::with_capacity(series.len());
    for (s, (name, points)) in series.iter().enumerate() {
        let mut xy = Series {
            name: series_name(name, s),
            ..Series::default()
        };
        for point in points {
            let x = match point.raw("x") {
                Some(Value::String(text)) => crate::number_text::parse_f64(text.trim())
                    .filter(|n| n.is_finite())
                    .ok_or_else(|| {
                        expected(
                            point.loc.field("x"),
                            "a number",
                            &Value::String(text.clone()),
                        )
                    })?,
                _ => point.number_or_gap("x")?,
            };
            let y = point.number_or_gap("y")?;
            if !x.is_nan() && !y.is_nan() {
                xy.xs.push(x);
                xy.ys.push(y);
            }
        }
        xy.given = xy.xs.len();
        out.push(xy);
    }
    Ok(Card::Scatter(out))
}

fn read_boxplot(series: &[(String, Points<'_>)]) -> Result<Card, DataError> {
    let mut labels = Labels::default();
    let mut groups: Vec<Vec<f64>> = Vec::new();
    for (_, points) in series {
        for point in points {
            let at = labels.at(&point.label("x")?);
            if at == groups.len() {
                if at == MAX_BOXES {
                    return Err(error(
                        "data".into(),
                        format!(
                            "a boxplot of more than {MAX_BOXES} boxes (distinct x); at most {MAX_BOXES} can be shown"
                        ),
                    ));
                }
                groups.push(Vec::new());
            }
            let Some(group) = groups.get_mut(at) else {
                continue;
            };
            match point.get("values") {
                Some(Value::Array(values)) => {
                    for (i, value) in values.iter().enumerate() {
                        match value {
                            Value::Null => {}
                            other => group.push(number(other).ok_or_else(|| {
                                expected(point.loc.field_index("values", i), "a number", other)
                            })?),
                        }
                    }
                }
                Some(other) => {
                    return Err(expected(
                        point.loc.field("values"),
                        "an array of numbers",
                        other,
                    ))
                }
                None => {
                    let y = point.number_or_gap("y")?;
                    if !y.is_nan() {
                        group.push(y);
                    }
                }
            }
        }
    }
    Ok(Card::Boxplot(
        labels
            .0
            .into_keys()
            .into_iter()
            .zip(groups)
            .filter_map(|(label, values)| box_stats(label, values))
            .collect(),
    ))
}

/// Tukey's box: quartiles by linear interpolation, whiskers at 1.5 IQR.
pub fn box_stats(label: String, mut values: Vec<f64>) -> Option<BoxStats> {
    values.retain(|v| v.is_finite());
    if values.is_empty() {
        return None;
    }
    let values = crate::order::rearranged(&values, &crate::order::ranked(&values, false));
    let quantile = |q: f64| {
        let pos = q * (values.len() - 1) as f64;
        let low = pos.floor() as usize;
        let high = pos.ceil() as usize;
        let (a, b) = (values[low], values[high.min(values.len() - 1)]);
        a + (b - a) * (pos - low as f64)
    };
    let (q1, median, q3) = (quantile(0.25), quantile(0.5), quantile(0.75));
    let iqr = q3 - q1;
    let (low_fence, high_fence) = (q1 - 1.5 * iqr, q3 + 1.5 * iqr);
    let inside = values
        .iter()
        .copied()
        .filter(|v| *v >= low_fence && *v <= high_fence);
    let low_whisker = inside.clone().fold(f64::INFINITY, f64::min);
    let high_whisker = inside.fold(f64::NEG_INFINITY, f64::max);
    Some(BoxStats {
        label,
        min: values[0],
        q1,
        median,
        q3,
        max: values[values.len() - 1],
        low_whisker,
        high_whisker,
        outliers: values
            .iter()
            .copied()
            .filter(|v| *v < low_fence || *v > high_fence)
            .collect(),
        count: values.len(),
    })
}

fn read_histogram(series: &[(String, Points<'_>)]) -> Result<Card, DataError> {
    let mut values = Vec::new();
    for (_, points) in series {
        for point in points {
            let y = point.number_or_gap("y")?;
            if !y.is_nan() {
                values.push(y);
            }
        }
    }
    Ok(Card::Histogram(values))
}

fn read_heatmap(shape: &DataShape) -> Result<Card, DataError> {
    let mut xs = Labels::default();
    let mut ys = Labels::default();
    let mut cells: Vec<(usize, usize, f64)> = Vec::new();
    match shape {
        DataShape::Table { columns, rows } => {
            // A matrix: the first column names the rows, the others are the x categories.
            for column in columns.iter().skip(1) {
                xs.at(column);
            }
            for (r, row) in rows.iter().enumerate() {
                let row_label = row.first().and_then(label).unwrap_or_default();
                let y = ys.at(&row_label);
                for (c, cell) in row.iter().enumerate().skip(1) {
                    let value = match cell {
                        Value::Null => f64::NAN,
                        other => number(other).ok_or_else(|| {
                            let root = Path::Root;
                            let path = root.key("data").key("rows").index(r).index(c).to_string();
                            expected(path, "a number", other)
                        })?,
                    };
                    cells.push((c - 1, y, value));
                }
            }
        }
        _ => {
            for (_, points) in series_points(shape) {
                for point in points {
                    let x = xs.at(&point.label("x")?);
                    let y = ys.at(&point.label("y")?);
                    cells.push((x, y, point.number_or_gap("value")?));
                }
            }
        }
    }
    let (xs, ys) = (xs.0.into_keys(), ys.0.into_keys());
    let size = xs.len().saturating_mul(ys.len());
    if size > MAX_HEATMAP_CELLS {
        return Err(error(
            "data".into(),
            format!(
                "a heatmap of {} x and {} y categories has {size} cells; at most {MAX_HEATMAP_CELLS} can be drawn",
                xs.len(),
                ys.len()
            ),
        ));
    }
    let mut values = vec![f64::NAN; size];
    for (x, y, value) in cells {
        if let Some(slot) = values.get_mut(y * xs.len() + x) {
            *slot = value;
        }
    }
    Ok(Card::Heatmap { xs, ys, values })
}

fn read_timeline(shape: &DataShape, epoch_ms: bool) -> Result<Card, DataError> {
    let mut precision = DatePrecision::Year;
    let mut items = Vec::new();
    let mut push = |point: &PointRef<'_>| -> Result<(), DataError> {
        let label = point.label("label")?;
        let (start, p1) = date_value(point, "start", epoch_ms)?;
        let (end, p2) = date_value(point, "end", epoch_ms)?;
        if end < start {
            return Err(error(point.loc.field("end"), "is before \"start\""));
        }
        if items.len() == MAX_TIMELINE_ROWS {
            return Err(error(
                "data".into(),
                format!(
                    "a timeline of more than {MAX_TIMELINE_ROWS} rows; at most {MAX_TIMELINE_ROWS} can be shown"
                ),
            ));
        }
        precision = precision.max(p1).max(p2);
        items.push(TimelineItem { label, start, end });
        Ok(())
    };
    match shape {
        DataShape::Table { columns, rows } => {
            let find = |name: &str, fallback: usize| {
                columns.iter().position(|c| c == name).unwrap_or(fallback)
            };
            let (l, s, e) = (find("label", 0), find("start", 1), find("end", 2));
            for (r, row) in rows.iter().enumerate() {
                let cell = |at: usize| row.get(at).unwrap_or(&NULL);
                push(&PointRef {
                    loc: Loc::TimelineRow(r, [l, s, e]),
                    fields: Fields::Timeline {
                        label: cell(l),
                        start: cell(s),
                        end: cell(e),
                    },
                })?;
            }
        }
        _ => {
            for (_, points) in series_points(shape) {
                for point in points {
                    push(&point)?;
                }
            }
        }
    }
    Ok(Card::Timeline { items, precision })
}

fn text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        other => super::json_text::compact(other),
    }
}

fn check_table(rows: usize, columns: usize) -> Result<(), DataError> {
    if columns > MAX_TABLE_COLUMNS {
        return Err(error(
            "data".into(),
            format!(
                "a table of {columns} columns; at most {MAX_TABLE_COLUMNS} columns can be shown"
            ),
        ));
    }
    let cells = rows.saturating_mul(columns);
    if cells > MAX_TABLE_CELLS {
        return Err(error(
            "data".into(),
            format!(
                "a table of {rows} rows and {columns} columns has {cells} cells; at most {MAX_TABLE_CELLS} can be shown"
            ),
        ));
    }
    Ok(())
}

fn read_table(shape: &DataShape) -> Result<Card, DataError> {
    match shape {
        DataShape::Table { columns, rows } => {
            check_table(rows.len(), columns.len())?;
            Ok(Card::Table {
                columns: columns.clone(),
                rows: rows
                    .iter()
                    .map(|row| row.iter().map(text).collect())
                    .collect(),
            })
        }
        DataShape::Points(points) | DataShape::Columns(points) => {
            // Keys in first-seen order, found by hash, and given up on as
            // soon as there are too many: every point may bring new ones.
            let mut columns = Labels::default();
            for point in points {
                let Some(object) = point.as_object() else {
                    continue;
                };
                for key in object.keys() {
                    if columns.at(key) == MAX_TABLE_COLUMNS {
                        return Err(error(
                            "data".into(),
                            format!(
                                "a table of more than {MAX_TABLE_COLUMNS} columns (distinct keys); at most {MAX_TABLE_COLUMNS} columns can be shown"
                            ),
                        ));
                    }
                }
            }
            let columns = columns.0.into_keys();
            check_table(points.len(), columns.len())?;
            let rows = points
                .iter()
                .map(|point| {
                    columns
                        .iter()
                        .map(|column| point.get(column).map(text).unwrap_or_default())
                        .collect()
                })
                .collect();
            Ok(Card::Table { columns, rows })
        }
        DataShape::Series(series) => {
            let count = series.iter().map(|raw| raw.points.len()).sum();
            check_table(count, 3)?;
            Ok(Card::Table {
                columns: vec!["series".into(), "x".into(), "y".into()],
                rows: series
                    .iter()
                    .flat_map(|raw| {
                        raw.points.iter().map(move |point| {
                            vec![
                                raw.name.clone(),
                                point.get("x").map(text).unwrap_or_default(),
                                point.get("y").map(text).unwrap_or_default(),
                            ]
                        })
                    })
                    .collect(),
            })
        }
    }
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
