//! The writer of `visualization_data`: a [`Chart`] as the JSON text the
//! readers read back to the same chart (`crates/chart/tests/write.rs`
//! holds the two as one contract, over every card kind).
//!
//! Behind the `serde` feature: the engine module reads and never writes.
//! A chart is written as it is held, which is not always the shape it was
//! read from; what each card kind is written as is in
//! `docs/data-format.md` ("Writing a card"):
//!
//! - `viz_component_type` is always written: a written card names its type
//!   rather than leave it to inference.
//! - Dates are written at the card's precision (`"2024-05"`), or as
//!   milliseconds with `x_time: "epoch_ms"`.
//! - A missing value (NaN) is `null`.
//! - A chart read with `percent_change` holds each series' change already
//!   (the reader applies it): it is written as shown, the changes with their
//!   units, labels and subtitle, and without `percent_change`, which would
//!   apply it a second time.
//!
//! This file holds what every kind's writer shares: `viz_config`, the point
//! objects and series, numbers and dates, and the categorical shape (bar,
//! pie, choropleth) that several kinds share. What a kind is written as is
//! in its folder (`kinds/<kind>/write.rs`); the chart's two keys and the
//! dispatch to the kinds are above them (`kinds/build.rs`), as the readers
//! are.

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::chart::Chart;
use super::limits::{MAX_BARS, MAX_CATEGORIES, MAX_PIE_VALUES, MAX_SERIES};
use super::{
    iso_date, parse_date, BoxStats, Card, CardKind, Categorical, DataError, DatePrecision,
    NamedValues, Series, VizConfig,
};
use crate::json::{Number, Value};

/// Refused as the reader of its text would refuse it: a card of more
/// series than can be told apart.
pub(crate) fn series_within(n: usize) -> Result<(), DataError> {
    if n > MAX_SERIES {
        return over(format!(
            "a card of {n} series; at most {MAX_SERIES} series can be told apart"
        ));
    }
    Ok(())
}

/// A card built past a limit of the readers ([`super::limits`]): past it
/// the reader of its text would refuse it.
pub(crate) fn over(what: String) -> Result<(), DataError> {
    Err(DataError::new(&super::Path::Root.key("data"), what))
}

/// The limits of the categorical cards (bar, pie, choropleth...), which
/// share their shape and its reader (`model/card.rs`).
pub(crate) fn categorical_within(c: &Categorical) -> Result<(), DataError> {
    series_within(c.series.len())?;
    let (most, cells) = if c.kind == CardKind::Pie {
        (usize::MAX, MAX_PIE_VALUES)
    } else {
        (MAX_CATEGORIES, MAX_BARS)
    };
    let n = c.categories.len();
    if n > most || n.saturating_mul(c.series.len()) > cells {
        return over(format!(
            "a {} card of {} series and {n} categories; at most {most} categories and {cells} values can be shown",
            c.kind,
            c.series.len()
        ));
    }
    Ok(())
}

/// The text a table card holds for a JSON number `n` (what the reader makes
/// of `n` written as serde_json writes an `f64`); `None` for NaN and
/// infinities, which JSON has no number for.
pub fn number_text(n: f64) -> Option<String> {
    Number::from_f64(n).map(|n| n.to_string())
}

pub(crate) struct Config<'a>(pub &'a Chart);

impl Serialize for Config<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Chart { config, kind, card } = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("title", &config.title)?;
        let texts = [
            ("subtitle", &config.subtitle),
            ("x_label", &config.x_label),
            ("y_label", &config.y_label),
            ("units", &config.units),
            ("source", &config.source),
            ("right_axis_label", &config.right_axis_label),
            ("right_axis_units", &config.right_axis_units),
        ];
        map.serialize_entry("viz_component_type", kind.as_str())?;
        for (key, text) in texts {
            if let Some(text) = text {
                map.serialize_entry(key, text)?;
            }
        }
        if config.epoch_ms {
            map.serialize_entry("x_time", "epoch_ms")?;
        }
        if let Some(names) = right_axis_series(config, card) {
            map.serialize_entry("right_axis_series", &names)?;
        }
        if config.normalize {
            map.serialize_entry("normalize", &true)?;
        }
        if config.locale != crate::locale::Locale::default() {
            map.serialize_entry("locale", config.locale.tag())?;
        }
        if let Some(dark) = config.dark_mode {
            map.serialize_entry("dark_mode", &dark)?;
        }
        if !config.colors.is_empty() {
            let colors: Vec<String> = config
                .colors
                .iter()
                .map(|c| format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2))
                .collect();
            map.serialize_entry("colors", &colors)?;
        }
        map.end()
    }
}

/// `right_axis_series` as written. After `percent_change` (written as
/// shown, without the flag) the names are those of the series still shown,
/// and none given means none: the change of every series shares one axis.
fn right_axis_series<'a>(config: &'a VizConfig, card: &'a Card) -> Option<Vec<&'a str>> {
    if !config.percent_change {
        return config
            .right_axis_series
            .as_ref()
            .map(|names| names.iter().map(String::as_str).collect());
    }
    let shown: Vec<&str> = match card {
        Card::Timeseries { series, .. } => series.iter().map(|s| s.name.as_str()).collect(),
        _ => Vec::new(),
    };
    let names = config.right_axis_series.as_deref().unwrap_or_default();
    Some(
        names
            .iter()
            .map(String::as_str)
            .filter(|name| shown.contains(name))
            .collect(),
    )
}

/// One field of a point object.
#[derive(Clone, Copy)]
pub(crate) enum Field<'a> {
    /// A number; NaN, a missing value, is `null`.
    Number(f64),
    Text(&'a str),
    /// A table cell's text: a number where the reader writes that number
    /// back as this very text, else a string.
    Cell(&'a str),
    Date(f64, DateForm),
    /// A box's values.
    Box(&'a BoxStats),
    /// A label that is not a date: a label that reads as one was a number.
    Label(&'a str),
}

#[derive(Clone, Copy)]
pub(crate) enum DateForm {
    Text(DatePrecision),
    EpochMs,
}

impl DateForm {
    pub(crate) fn of(precision: DatePrecision, epoch_ms: bool) -> DateForm {
        if epoch_ms {
            DateForm::EpochMs
        } else {
            DateForm::Text(precision)
        }
    }
}

impl Serialize for Field<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Field::Number(n) if n.is_finite() => serializer.serialize_f64(n),
            Field::Number(_) => serializer.serialize_none(),
            Field::Text(text) => serializer.serialize_str(text),
            Field::Cell(text) | Field::Label(text) => match number_of(text) {
                // A label that reads as a date can only have been a number.
                Some(n) if matches!(self, Field::Cell(_)) || parse_date(text).is_some() => {
                    n.serialize(serializer)
                }
                _ => serializer.serialize_str(text),
            },
            Field::Date(seconds, DateForm::EpochMs) => serializer.serialize_f64(epoch_ms(seconds)),
            Field::Date(seconds, DateForm::Text(precision)) => {
                serializer.serialize_str(&date_text(seconds, precision))
            }
            Field::Box(stats) => serializer.collect_seq(&stats.values),
        }
    }
}

/// A number as JSON writes it: whole numbers without a fraction.
#[derive(Clone, Copy)]
enum Written {
    Pos(u64),
    Neg(i64),
    Float(f64),
}

impl Serialize for Written {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Written::Pos(n) => serializer.serialize_u64(n),
            Written::Neg(n) => serializer.serialize_i64(n),
            Written::Float(n) => serializer.serialize_f64(n),
        }
    }
}

/// The number `text` is, when the reader writes that number back as
/// exactly `text` (so that writing it as a number loses nothing).
fn number_of(text: &str) -> Option<Written> {
    let Ok(Value::Number(n)) = crate::json::parse(text) else {
        return None;
    };
    if n.to_string() != text {
        return None;
    }
    Some(match n {
        Number::PosInt(n) => Written::Pos(n),
        Number::NegInt(n) => Written::Neg(n),
        Number::Float(n) => Written::Float(n),
    })
}

/// A point object of up to `N` fields, those `None` left out.
pub(crate) struct Obj<'a, const N: usize>(pub(crate) [(&'static str, Option<Field<'a>>); N]);

impl<const N: usize> Serialize for Obj<'_, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for (key, field) in &self.0 {
            if let Some(field) = field {
                map.serialize_entry(key, field)?;
            }
        }
        map.end()
    }
}

/// A sequence made on demand from an iterator.
pub(crate) struct Seq<F>(pub(crate) F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: IntoIterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// The `data` of a card read from series: one series called "Value" (the
/// name an unnamed series is given) as plain points, else
/// `{"series": [{"name", "points"}]}`.
pub(crate) fn series_data<S, F, P>(
    names: &[&str],
    points: F,
    serializer: S,
) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    F: Fn(usize) -> P,
    P: Serialize,
{
    if let [name] = names {
        if *name == "Value" {
            return points(0).serialize(serializer);
        }
    }
    as_series(names, points, serializer)
}

/// `{"series": [{"name", "points"}]}`, whatever the names.
pub(crate) fn as_series<S, F, P>(
    names: &[&str],
    points: F,
    serializer: S,
) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    F: Fn(usize) -> P,
    P: Serialize,
{
    let mut map = serializer.serialize_map(Some(1))?;
    map.serialize_entry(
        "series",
        &Seq(|| {
            names.iter().enumerate().map(|(s, name)| Named {
                name,
                points: points(s),
            })
        }),
    )?;
    map.end()
}

struct Named<'a, P> {
    name: &'a str,
    points: P,
}

impl<P: Serialize> Serialize for Named<'_, P> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("name", self.name)?;
        map.serialize_entry("points", &self.points)?;
        map.end()
    }
}

pub(crate) fn columns(series: &[Series], s: usize) -> (&[f64], &[f64]) {
    series
        .get(s)
        .map_or((&[][..], &[][..]), |one| (&one.xs[..], &one.ys[..]))
}

pub(crate) fn names_of(series: &[NamedValues]) -> Vec<&str> {
    series.iter().map(|s| s.name.as_str()).collect()
}

/// The categorical cards (bar, pie, choropleth...): one shape, one
/// reader (`model/card.rs`), one writer.
pub(crate) fn categorical<S: Serializer>(
    card: &Categorical,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let points = |s: usize| {
        let values = card.series.get(s).map_or(&[][..], |one| &one.values[..]);
        Seq(move || {
            card.categories
                .iter()
                .zip(values)
                .map(|(x, &y)| Obj([("x", Some(Field::Text(x))), ("y", Some(Field::Number(y)))]))
        })
    };
    series_data(&names_of(&card.series), points, serializer)
}

/// A date as text at `precision`; a time keeps its fraction of a second.
fn date_text(seconds: f64, precision: DatePrecision) -> String {
    let whole = seconds.floor();
    let fraction = seconds - whole;
    if precision < DatePrecision::Time || fraction == 0.0 {
        return iso_date(seconds, precision);
    }
    let (year, month, day, second) = super::civil_from_seconds(whole);
    let digits = fraction_digits(fraction);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}{digits}",
        second / 3600,
        second / 60 % 60,
        second % 60
    )
}

/// `.25` for a quarter: the fewest digits that read back as `fraction`.
fn fraction_digits(fraction: f64) -> String {
    let shortest = Number::Float(fraction).to_string();
    match shortest.strip_prefix('0') {
        Some(digits) if digits.starts_with('.') && !digits.contains('e') => digits.to_owned(),
        _ => {
            let fixed = format!("{fraction:.9}");
            fixed
                .trim_start_matches('0')
                .trim_end_matches('0')
                .to_owned()
        }
    }
}

/// Milliseconds whose reading (`ms / 1000`) is exactly `seconds`, where
/// the product alone is an ulp off.
fn epoch_ms(seconds: f64) -> f64 {
    let guess = seconds * 1000.0;
    nearby(guess)
        .find(|ms| ms / 1000.0 == seconds)
        .unwrap_or(guess)
}

/// `x`, then the doubles next to it, outwards, a few each way.
fn nearby(x: f64) -> impl Iterator<Item = f64> {
    (0..=64u32).flat_map(move |step| {
        let up = step_ulps(x, i64::from(step));
        let down = step_ulps(x, -i64::from(step));
        [up, down].into_iter().take(if step == 0 { 1 } else { 2 })
    })
}

/// The double `steps` ulps above `x` (below, when negative), finite `x`.
fn step_ulps(x: f64, steps: i64) -> f64 {
    if !x.is_finite() || steps == 0 {
        return x;
    }
    unordered(ordered(x).saturating_add(steps))
}

/// Doubles as integers in their order (the sign-magnitude bits made
/// monotonic), and back.
fn ordered(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    if bits < 0 {
        i64::MIN - bits
    } else {
        bits
    }
}

fn unordered(i: i64) -> f64 {
    f64::from_bits(if i < 0 { i64::MIN - i } else { i } as u64)
}
