//! The `visualization_data` contract: `{ viz_config, data }`, read with errors
//! that name the JSON path. See `docs/data-format.md` and
//! `schema/visualization_data.schema.json`. Unknown keys are ignored.

pub(crate) mod card;
pub(crate) mod chart;
mod date;
mod error;
pub(crate) mod given;
pub(crate) mod json_text;
pub mod limits;
mod registry;
pub(crate) mod rules;
mod stream;
#[cfg(feature = "serde")]
pub(crate) mod write;

use crate::json::{Object, Value};

pub use card::{Categorical, NamedValues, Series};
pub use date::{
    civil_from_days, civil_from_seconds, days_from_civil, iso_date, parse_date, DatePrecision,
};
pub use error::{describe, DataError, Path};
pub use given::{GivenSeries, GivenX, LongLine};
pub use limits::*;
pub use registry::{Card, CardKind, XYSeries};
// And each kind's own data type, whichever kinds there are (the registry's
// `limits` is shadowed by this module's, which re-exports it).
pub use registry::*;
#[cfg(feature = "serde")]
pub use write::number_text;

/// A parsed card: its configuration and its data, still in the shape it came in.
#[derive(Debug, Clone, PartialEq)]
pub struct VisualizationData {
    pub config: VizConfig,
    pub data: DataShape,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct VizConfig {
    pub title: String,
    pub subtitle: Option<String>,
    /// `viz_component_type`; inferred from the data when absent.
    pub kind: Option<CardKind>,
    pub x_label: Option<String>,
    pub y_label: Option<String>,
    /// Appended to formatted values, e.g. "%" or "USD".
    pub units: Option<String>,
    pub source: Option<String>,
    pub dark_mode: Option<bool>,
    /// Series colours overriding the palette, as `#rrggbb`.
    pub colors: Vec<Rgb>,
    /// `x_time: "epoch_ms"`: numbers given as timeseries x and timeline
    /// start/end are milliseconds since 1970-01-01T00:00Z, not years.
    pub epoch_ms: bool,
    /// `percent_change: true`: a timeseries shows each series as its change
    /// since its first value ([`crate::change`]).
    pub percent_change: bool,
    /// `right_axis_series`: the timeseries series read against a right
    /// y-axis; `Some` of none keeps every series on the left; `None` leaves
    /// it to the rule of [`crate::sides`].
    pub right_axis_series: Option<Vec<String>>,
    /// The right axis's title.
    pub right_axis_label: Option<String>,
    /// The right axis's units; `units` when absent.
    pub right_axis_units: Option<String>,
    /// `locale`: how numbers and dates are written (en-US when absent).
    pub locale: crate::locale::Locale,
    /// `normalize: true`: a stacked area shows each date's values as
    /// shares of its total (100% stacked).
    pub normalize: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// The accepted shapes of `data`.
#[derive(Debug, Clone, PartialEq)]
pub enum DataShape {
    /// `data: [{x, y}, ...]`: one series (the spec's shape).
    Points(Vec<Value>),
    /// `data: {series: [{name, points: [...]}, ...]}`.
    Series(Vec<RawSeries>),
    /// `data: {x: [...], y: [...]}`: one series given as parallel
    /// arrays, made into point objects of the keys given.
    Columns(Vec<Value>),
    /// `data: {columns: [...], rows: [[...], ...]}`.
    Table {
        columns: Vec<String>,
        rows: Vec<Vec<Value>>,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct RawSeries {
    pub name: String,
    pub points: Vec<Value>,
    /// Given as parallel arrays (`{name, x: [...], y: [...]}`): errors
    /// name `x[3]`, not `points[3].x`.
    pub columnar: bool,
}

/// The keys a series may give as parallel arrays instead of points.
pub const COLUMN_KEYS: [&str; 6] = ["x", "y", "value", "label", "start", "end"];

/// Columns passed beside the text ([`crate::Chart::from_json_with_columns`]),
/// each taken at most once by a `{"$column": N}` in place of an array.
pub(crate) struct Columns(Vec<Option<Vec<f64>>>);

impl Columns {
    pub(crate) fn new(columns: Vec<Vec<f64>>) -> Self {
        Columns(columns.into_iter().map(Some).collect())
    }

    pub(crate) fn peek(&self, index: usize) -> Option<&[f64]> {
        self.0.get(index)?.as_deref()
    }

    pub(crate) fn take_column(&mut self, index: usize) -> Option<Vec<f64>> {
        self.0.get_mut(index)?.take()
    }

    /// Column `N` of `{"$column": N}` at `path`, taken out.
    pub(crate) fn take(&mut self, path: &Path<'_>, object: &Object) -> Result<Vec<f64>, DataError> {
        let count = self.0.len();
        let index = match (object.len(), object.get("$column")) {
            (1, Some(Value::Number(crate::json::Number::PosInt(n)))) => *n,
            (1, Some(other)) => {
                return Err(DataError::expected(
                    &path.key("$column"),
                    &format!("a column number below {count}"),
                    other,
                ))
            }
            _ => {
                return Err(DataError::new(
                    path,
                    "expected an array, or {\"$column\": N} alone",
                ))
            }
        };
        let slot = usize::try_from(index)
            .ok()
            .and_then(|at| self.0.get_mut(at));
        match slot {
            Some(slot) => slot.take().ok_or_else(|| {
                DataError::new(
                    &path.key("$column"),
                    format!("column {index} is already used; each column can be used once"),
                )
            }),
            None => Err(DataError::new(
                &path.key("$column"),
                format!("column {index} was not passed: there are {count} columns"),
            )),
        }
    }
}

impl VisualizationData {
    /// Parses JSON text, as posted in the `visualization_data` form field.
    pub fn from_json(text: &str) -> Result<Self, DataError> {
        Self::from_json_in(text, None)
    }

    /// [`VisualizationData::from_json`], with columns passed beside the
    /// text for `{"$column": N}` (none: such an object is just an object).
    pub(crate) fn from_json_in(
        text: &str,
        columns: Option<&mut Columns>,
    ) -> Result<Self, DataError> {
        let value = crate::json::parse(text).map_err(|error| DataError {
            path: "visualization_data".into(),
            message: format!("is not valid JSON: {error}"),
            unloaded: None,
        })?;
        Self::from_owned_in(value, columns)
    }

    /// Reads a parsed document, moving its data arrays into the card
    /// rather than copying them: the tree is the largest thing a post
    /// costs, and it is held once.
    pub fn from_owned(value: Value) -> Result<Self, DataError> {
        Self::from_owned_in(value, None)
    }

    fn from_owned_in(value: Value, columns: Option<&mut Columns>) -> Result<Self, DataError> {
        let root = Path::Root;
        let mut object = match value {
            Value::Object(object) => object,
            other => {
                return Err(DataError::expected(
                    &root,
                    "an object with \"viz_config\" and \"data\"",
                    &other,
                ))
            }
        };
        let config_path = root.key("viz_config");
        let config = match object.get("viz_config") {
            Some(config) => VizConfig::from_value(&config_path, config)?,
            None => return Err(DataError::new(&config_path, "is required")),
        };
        let data_path = root.key("data");
        let data = match take(&mut object, "data") {
            Some(data) => DataShape::from_owned(&data_path, data, columns)?,
            None => return Err(DataError::new(&data_path, "is required")),
        };
        Ok(VisualizationData { config, data })
    }

    /// The card type: `viz_component_type`, or what the data looks like.
    pub fn kind(&self) -> CardKind {
        self.config.kind.unwrap_or_else(|| {
            match card::infer_kind(&self.data) {
                // Numbers declared to be times.
                CardKind::Scatter if self.config.epoch_ms => CardKind::Timeseries,
                kind => kind,
            }
        })
    }
}

/// The configuration, type and card of `text` read without a tree of the
/// data, where that is possible; `None` leaves the text to
/// [`VisualizationData::from_json`].
pub(crate) fn read_streaming(
    text: &str,
    columns: Option<&mut Columns>,
) -> Option<Result<(VizConfig, CardKind, Card), DataError>> {
    stream::read(text, columns)
}

impl VizConfig {
    fn from_value(path: &Path<'_>, value: &Value) -> Result<Self, DataError> {
        let object = value
            .as_object()
            .ok_or_else(|| DataError::expected(path, "an object", value))?;
        let title_path = path.key("title");
        let title = match object.get("title") {
            Some(Value::String(title)) => title.clone(),
            Some(other) => return Err(DataError::expected(&title_path, "a string", other)),
            None => return Err(DataError::new(&title_path, "is required")),
        };
        let kind_path = path.key("viz_component_type");
        let kind = match object.get("viz_component_type") {
            None | Some(Value::Null) => None,
            Some(Value::String(name)) => Some(CardKind::from_name(name).ok_or_else(|| {
                DataError::new(
                    &kind_path,
                    format!(
                        "must be one of {}, found {}",
                        CardKind::list(),
                        describe(&Value::String(name.clone()))
                    ),
                )
            })?),
            Some(other) => return Err(DataError::expected(&kind_path, "a string", other)),
        };
        let time_path = path.key("x_time");
        let epoch_ms = match object.get("x_time") {
            None | Some(Value::Null) => false,
            Some(Value::String(name)) if name == "epoch_ms" => true,
            Some(other @ Value::String(_)) => {
                return Err(DataError::new(
                    &time_path,
                    format!("must be \"epoch_ms\", found {}", describe(other)),
                ))
            }
            Some(other) => return Err(DataError::expected(&time_path, "a string", other)),
        };
        let mut fields = Fields {
            path,
            object,
            error: None,
        };
        let percent_change = fields.keep(optional_bool(path, object, "percent_change"));
        let right_axis_series = fields.keep(names(path, object, "right_axis_series"));
        let normalize = fields.keep(optional_bool(path, object, "normalize"));
        if normalize == Some(true) && kind.is_some_and(|k| k != CardKind::StackedAreaTimeseries) {
            fields.fail(DataError::new(
                &path.key("normalize"),
                "applies to stacked_area_timeseries cards only",
            ));
        }
        for (key, given) in [
            ("percent_change", percent_change == Some(true)),
            ("right_axis_series", right_axis_series.is_some()),
        ] {
            if given && kind.is_some_and(|k| k != CardKind::Timeseries) {
                fields.fail(DataError::new(
                    &path.key(key),
                    "applies to timeseries cards only",
                ));
            }
        }
        let config = VizConfig {
            title,
            subtitle: fields.text("subtitle"),
            kind,
            x_label: fields.text("x_label"),
            y_label: fields.text("y_label"),
            units: fields.text("units"),
            source: fields.text("source"),
            dark_mode: fields.keep(optional_bool(path, object, "dark_mode")),
            colors: fields.keep(colors(path, object)),
            epoch_ms,
            percent_change: percent_change == Some(true),
            right_axis_series,
            right_axis_label: fields.text("right_axis_label"),
            right_axis_units: fields.text("right_axis_units"),
            locale: fields.keep(locale(path, object)),
            normalize: normalize == Some(true),
        };
        match fields.error {
            Some(error) => Err(error),
            None => Ok(config),
        }
    }
}

/// Reads the optional fields of `viz_config`, keeping the first error for
/// the end: a `?` after each field would drop every field read before it,
/// and those drops, one set per field, were 2 KB of the engine.
struct Fields<'a> {
    path: &'a Path<'a>,
    object: &'a Object,
    error: Option<DataError>,
}

impl Fields<'_> {
    fn fail(&mut self, error: DataError) {
        self.error.get_or_insert(error);
    }

    /// The value read, or its default after an error (which is kept).
    fn keep<T: Default>(&mut self, read: Result<T, DataError>) -> T {
        read.unwrap_or_else(|error| {
            self.fail(error);
            T::default()
        })
    }

    #[inline(never)]
    fn text(&mut self, key: &str) -> Option<String> {
        let read = optional_string(self.path, self.object, key);
        self.keep(read)
    }
}

fn optional_string(
    path: &Path<'_>,
    object: &Object,
    key: &str,
) -> Result<Option<String>, DataError> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(DataError::expected(&path.key(key), "a string", other)),
    }
}

/// `locale`: a tag of [`crate::locale`]'s list, or a language of it.
fn locale(path: &Path<'_>, object: &Object) -> Result<crate::locale::Locale, DataError> {
    let Some(tag) = optional_string(path, object, "locale")? else {
        return Ok(crate::locale::Locale::default());
    };
    crate::locale::find(&tag).ok_or_else(|| {
        DataError::new(
            &path.key("locale"),
            [
                "\"",
                // Echoed, but never more than a tag's length.
                &tag.chars().take(40).collect::<String>(),
                "\" is not a locale charts are written in; use one of ",
                &crate::locale::tags(),
                " (a language alone, such as \"de\", picks the first of its own)",
            ]
            .concat(),
        )
    })
}

/// An array of at most [`MAX_SERIES`] strings (series names).
fn names(path: &Path<'_>, object: &Object, key: &str) -> Result<Option<Vec<String>>, DataError> {
    let list_path = path.key(key);
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) if items.len() <= MAX_SERIES => {
            let mut names = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                match item {
                    Value::String(name) => names.push(name.clone()),
                    other => {
                        return Err(DataError::expected(
                            &list_path.index(index),
                            "a series name",
                            other,
                        ))
                    }
                }
            }
            Ok(Some(names))
        }
        Some(other) => Err(DataError::expected(
            &list_path,
            "an array of at most 200 series names",
            other,
        )),
    }
}

fn optional_bool(path: &Path<'_>, object: &Object, key: &str) -> Result<Option<bool>, DataError> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(on)) => Ok(Some(*on)),
        Some(other) => Err(DataError::expected(&path.key(key), "true or false", other)),
    }
}

fn colors(path: &Path<'_>, object: &Object) -> Result<Vec<Rgb>, DataError> {
    let colors_path = path.key("colors");
    match object.get("colors") {
        None | Some(Value::Null) => Ok(Vec::new()),
        // Loops rather than collecting Results: each such collect is its
        // own kilobyte of wasm.
        Some(Value::Array(items)) => {
            let mut colors = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                colors.push(item.as_str().and_then(parse_hex_color).ok_or_else(|| {
                    DataError::expected(
                        &colors_path.index(index),
                        "a colour such as \"#1f77b4\"",
                        item,
                    )
                })?);
            }
            Ok(colors)
        }
        Some(other) => Err(DataError::expected(
            &colors_path,
            "an array of colours",
            other,
        )),
    }
}

/// `#rgb` or `#rrggbb`.
pub fn parse_hex_color(text: &str) -> Option<Rgb> {
    let digits = text
        .strip_prefix('#')?
        .chars()
        .map(|c| c.to_digit(16))
        .collect::<Option<Vec<u32>>>()?;
    let channel = |high: u32, low: u32| u8::try_from(high << 4 | low).ok();
    match digits[..] {
        [r, g, b] => Some(Rgb(channel(r, r)?, channel(g, g)?, channel(b, b)?)),
        [r1, r2, g1, g2, b1, b2] => Some(Rgb(channel(r1, r2)?, channel(g1, g2)?, channel(b1, b2)?)),
        _ => None,
    }
}

impl DataShape {
    fn from_owned(
        path: &Path<'_>,
        value: Value,
        mut columns: Option<&mut Columns>,
    ) -> Result<Self, DataError> {
        match value {
            Value::Array(points) => Ok(DataShape::Points(points)),
            Value::Object(mut object) if object.contains_key("series") => {
                let series_path = path.key("series");
                match take(&mut object, "series") {
                    Some(Value::Array(list)) => {
                        let mut series = Vec::with_capacity(list.len());
                        for (index, item) in list.into_iter().enumerate() {
                            series.push(RawSeries::from_owned(
                                &series_path.index(index),
                                index,
                                item,
                                columns.as_deref_mut(),
                            )?);
                        }
                        Ok(DataShape::Series(series))
                    }
                    Some(found) => Err(DataError::expected(
                        &series_path,
                        "an array of series",
                        &found,
                    )),
                    None => Err(DataError::new(&series_path, "is required")),
                }
            }
            Value::Object(object) if object.contains_key("columns") || object.contains_key("rows") => {
                table(path, object)
            }
            Value::Object(mut object) if has_columns(&object) => {
                columns_to_points(path, &mut object, columns).map(DataShape::Columns)
            }
            Value::Object(_) => Err(DataError::new(
                path,
                "must be an array of points, {\"x\": [...], \"y\": [...]}, {\"series\": [...]} or {\"columns\": [...], \"rows\": [...]}",
            )),
            other => Err(DataError::expected(path, "an array or an object", &other)),
        }
    }
}

impl RawSeries {
    fn from_owned(
        path: &Path<'_>,
        index: usize,
        value: Value,
        columns: Option<&mut Columns>,
    ) -> Result<Self, DataError> {
        let mut object = match value {
            Value::Object(object) => object,
            other => {
                return Err(DataError::expected(
                    path,
                    "an object with \"name\" and \"points\"",
                    &other,
                ))
            }
        };
        let name = match object.get("name") {
            None | Some(Value::Null) => format!("Series {}", index + 1),
            Some(Value::String(name)) => name.clone(),
            Some(Value::Number(n)) => n.to_string(),
            Some(other) => return Err(DataError::expected(&path.key("name"), "a string", other)),
        };
        if !object.contains_key("points") && has_columns(&object) {
            let points = columns_to_points(path, &mut object, columns)?;
            return Ok(RawSeries {
                name,
                points,
                columnar: true,
            });
        }
        let points = take_array(path, &mut object, "points", "an array of points")?;
        Ok(RawSeries {
            name,
            points,
            columnar: false,
        })
    }
}

fn has_columns(object: &Object) -> bool {
    COLUMN_KEYS.iter().any(|key| object.contains_key(key))
}

/// Parallel arrays as point objects of the keys given, each element what
/// the same field of a point would hold. Every array is as long as the
/// first (in the order of [`COLUMN_KEYS`]).
fn columns_to_points(
    path: &Path<'_>,
    object: &mut Object,
    mut columns: Option<&mut Columns>,
) -> Result<Vec<Value>, DataError> {
    let mut found: [Vec<Value>; 6] = Default::default();
    let mut first: Option<(&str, usize)> = None;
    for (key, slot) in COLUMN_KEYS.iter().zip(found.iter_mut()) {
        let key_path = path.key(key);
        let items = match (take(object, key), columns.as_deref_mut()) {
            (None, _) => continue,
            (Some(Value::Array(items)), _) => items,
            (Some(Value::Object(reference)), Some(columns))
                if reference.contains_key("$column") =>
            {
                columns
                    .take(&key_path, &reference)?
                    .into_iter()
                    .map(|n| crate::json::Number::from_f64(n).map_or(Value::Null, Value::Number))
                    .collect()
            }
            (Some(other), _) => {
                return Err(DataError::expected(&key_path, "an array of values", &other))
            }
        };
        let (first_key, len) = *first.get_or_insert((key, items.len()));
        if items.len() != len {
            return Err(DataError::new(
                &key_path,
                format!(
                    "has {} values, but {} has {len}: the arrays of a series must be as long as each other",
                    items.len(),
                    path.key(first_key),
                ),
            ));
        }
        *slot = items;
    }
    // The keys in sorted order, as an object keeps them: end, label,
    // start, value, x, y.
    const SORTED: [usize; 6] = [5, 3, 4, 2, 0, 1];
    let len = first.map_or(0, |(_, len)| len);
    let mut points = Vec::with_capacity(len);
    for i in 0..len {
        let mut entries = Vec::new();
        for at in SORTED {
            if let (Some(key), Some(value)) = (
                COLUMN_KEYS.get(at),
                found.get_mut(at).and_then(|items| items.get_mut(i)),
            ) {
                entries.push(((*key).to_owned(), std::mem::take(value)));
            }
        }
        points.push(Value::Object(Object::from_sorted(entries)));
    }
    Ok(points)
}

fn table(path: &Path<'_>, mut object: Object) -> Result<DataShape, DataError> {
    let columns_path = path.key("columns");
    let mut columns: Vec<String> = Vec::new();
    for (index, item) in take_array(path, &mut object, "columns", "an array of column names")?
        .into_iter()
        .enumerate()
    {
        columns.push(match item {
            Value::String(name) => name,
            Value::Number(n) => n.to_string(),
            other => {
                return Err(DataError::expected(
                    &columns_path.index(index),
                    "a column name",
                    &other,
                ))
            }
        });
    }
    let rows_path = path.key("rows");
    let mut rows = Vec::new();
    for (index, row) in take_array(path, &mut object, "rows", "an array of rows")?
        .into_iter()
        .enumerate()
    {
        let row_path = rows_path.index(index);
        rows.push(match row {
            Value::Array(cells) if cells.len() == columns.len() => cells,
            Value::Array(cells) => {
                return Err(DataError::new(
                    &row_path,
                    format!(
                        "has {} cells, but there are {} columns",
                        cells.len(),
                        columns.len()
                    ),
                ))
            }
            other => return Err(DataError::expected(&row_path, "an array of cells", &other)),
        });
    }
    Ok(DataShape::Table { columns, rows })
}

/// `object[key]`, taken out of `object` (null left in its place): the
/// data arrays move into the card instead of being copied.
fn take(object: &mut Object, key: &str) -> Option<Value> {
    object.take(key)
}

/// `object[key]` as an array, taken out of `object`; absent or not an
/// array is an error at `path.key`.
fn take_array(
    path: &Path<'_>,
    object: &mut Object,
    key: &str,
    what: &str,
) -> Result<Vec<Value>, DataError> {
    match take(object, key) {
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(DataError::expected(&path.key(key), what, &other)),
        None => Err(DataError::new(&path.key(key), "is required")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_of_three_and_six_digits() {
        assert_eq!(parse_hex_color("#fff"), Some(Rgb(255, 255, 255)));
        assert_eq!(parse_hex_color("#1f77b4"), Some(Rgb(0x1f, 0x77, 0xb4)));
        assert_eq!(parse_hex_color("#1F77B4"), Some(Rgb(0x1f, 0x77, 0xb4)));
        assert_eq!(parse_hex_color("#a0C"), Some(Rgb(0xaa, 0x00, 0xcc)));
        for bad in [
            "", "#", "fff", "#ff", "#ffff", "#1f77b4a", "#ggg", "#ééé", "#+ff", "# ff", "#ff ",
            "#٣٣٣",
        ] {
            assert_eq!(parse_hex_color(bad), None, "{bad}");
        }
    }
}
