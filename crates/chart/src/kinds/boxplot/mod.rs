//! boxplot: one box per group (distinct x) of the values given, with
//! Tukey's whiskers. Its series are pooled: no legend, no cap on series.

pub(crate) mod describe;
pub(crate) mod layout;
#[cfg(feature = "serde")]
pub(crate) mod write;

use crate::json::Value;
use crate::kinds::Card;
use crate::model::card::{error, expected, number, series_points, Labels, Points};
use crate::model::{BoxStats, MAX_BOXES};
use crate::model::{DataError, DataShape};

pub(crate) fn read(shape: &DataShape) -> Result<Card, DataError> {
    read_groups(&series_points(shape))
}

fn read_groups(series: &[(String, Points<'_>)]) -> Result<Card, DataError> {
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
        values,
    })
}

/// The group's code, reached through `crate::kinds::code` (in the page,
/// once its chunk has loaded).
pub(crate) static CODE: super::GroupCode = super::GroupCode {
    read: |_, shape, _| read(shape),
    finish: super::kept,
    draw: |ctx, body, chart| {
        if let Card::Boxplot(boxes) = &chart.card {
            layout::draw(ctx, body, boxes)
        }
    },
    summary: |chart, units| match &chart.card {
        Card::Boxplot(boxes) => describe::summary(boxes, units),
        _ => String::new(),
    },
    data_table: |chart, max_rows, f| match &chart.card {
        Card::Boxplot(boxes) => describe::table(chart, boxes, max_rows, f),
        _ => super::no_table(),
    },
};
