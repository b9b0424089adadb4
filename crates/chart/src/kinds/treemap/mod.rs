//! treemap: categories of one measure, optionally in one level of groups.

pub(crate) mod describe;
pub(crate) mod layout;
#[cfg(feature = "serde")]
pub(crate) mod write;

use crate::json::Value;
use crate::model::card::{error, series_points, Labels, Points, NULL};
use crate::model::{DataError, DataShape};
use crate::model::{Leaf, Treemap, MAX_TREEMAP_VALUES};

impl Treemap {
    pub fn total(&self) -> f64 {
        self.leaves.iter().map(|l| l.value).sum()
    }

    /// True when the leaves are grouped (more than the one unnamed group).
    pub fn grouped(&self) -> bool {
        self.groups.len() > 1 || self.groups.first().is_some_and(|g| !g.is_empty())
    }
}

pub(crate) fn read(shape: &DataShape) -> Result<crate::kinds::Card, DataError> {
    let mut groups = Labels::default();
    let mut leaves = Labels::default();
    let mut values: Vec<(usize, f64)> = Vec::new();
    let mut add = |group: &str, label: String, value: f64| -> Result<(), DataError> {
        let group = groups.at(group);
        // A label is one leaf per group: keyed by the group's number, which
        // holds no unit separator.
        let at = leaves.at(&[&group.to_string(), "\u{1f}", &label].concat());
        if at == values.len() {
            if at == MAX_TREEMAP_VALUES {
                return Err(error(
                    "data".into(),
                    format!("a treemap of more than {MAX_TREEMAP_VALUES} categories; at most {MAX_TREEMAP_VALUES} are read (the smallest are folded into \"Other\")"),
                ));
            }
            values.push((group, 0.0));
        }
        if let Some(slot) = values.get_mut(at) {
            slot.1 += value;
        }
        Ok(())
    };
    match shape {
        DataShape::Table { columns, rows } => {
            let group_at = columns.iter().position(|c| c == "group");
            let mut others = (0..columns.len()).filter(|&c| Some(c) != group_at);
            let (label_at, value_at) = match (others.next(), others.next()) {
                (Some(l), Some(v)) => (l, v),
                _ => {
                    return Err(error(
                        "data.columns".into(),
                        "a treemap table needs a label column and a value column (and may have a \"group\" column)",
                    ))
                }
            };
            for (r, row) in rows.iter().enumerate() {
                let cell = |at: usize| row.get(at).unwrap_or(&NULL);
                let path = |at: usize| format!("data.rows[{r}][{at}]");
                let label = crate::model::card::label(cell(label_at)).ok_or_else(|| {
                    crate::model::card::expected(path(label_at), "a label", cell(label_at))
                })?;
                let group = match group_at.map(cell) {
                    None | Some(Value::Null) => String::new(),
                    Some(value) => crate::model::card::label(value).ok_or_else(|| {
                        crate::model::card::expected(
                            path(group_at.unwrap_or(0)),
                            "a group name",
                            value,
                        )
                    })?,
                };
                let value = match cell(value_at) {
                    Value::Null => continue,
                    value => crate::model::card::number(value).ok_or_else(|| {
                        crate::model::card::expected(path(value_at), "a number", value)
                    })?,
                };
                check_value(value, || path(value_at))?;
                if value > 0.0 {
                    add(&group, label, value)?;
                }
            }
        }
        _ => {
            let series = series_points(shape);
            let named = series.len() > 1;
            for (name, points) in &series {
                read_points(*points, named.then_some(name.as_str()), &mut add)?;
            }
        }
    }
    let groups = groups.0.into_keys();
    let leaves = leaves
        .0
        .into_keys()
        .into_iter()
        .zip(values)
        .map(|(key, (group, value))| Leaf {
            label: key
                .split_once('\u{1f}')
                .map(|(_, l)| l.to_owned())
                .unwrap_or(key),
            group,
            value,
        })
        .collect();
    Ok(crate::kinds::Card::Treemap(Treemap { groups, leaves }))
}

fn read_points(
    points: Points<'_>,
    series: Option<&str>,
    add: &mut dyn FnMut(&str, String, f64) -> Result<(), DataError>,
) -> Result<(), DataError> {
    for point in points {
        let label = point.label("x")?;
        let value = point.number_or_gap("y")?;
        if value.is_nan() {
            continue;
        }
        check_value(value, || point.loc.field("y"))?;
        let group = match (series, point.get("group")) {
            (_, Some(value)) => crate::model::card::label(value).ok_or_else(|| {
                crate::model::card::expected(point.loc.field("group"), "a group name", value)
            })?,
            (Some(name), None) => name.to_owned(),
            (None, None) => String::new(),
        };
        if value > 0.0 {
            add(&group, label, value)?;
        }
    }
    Ok(())
}

fn check_value(value: f64, path: impl FnOnce() -> String) -> Result<(), DataError> {
    if value < 0.0 {
        return Err(error(
            path(),
            "a treemap cell's value is its area and cannot be negative",
        ));
    }
    Ok(())
}

/// The group's code, reached through `crate::kinds::code` (in the page,
/// once its chunk has loaded).
pub(crate) static CODE: super::GroupCode = super::GroupCode {
    read: |_, shape, _| read(shape),
    finish: super::kept,
    draw: |ctx, body, chart| {
        if let crate::kinds::Card::Treemap(t) = &chart.card {
            layout::draw(ctx, body, t)
        }
    },
    summary: |chart, units| match &chart.card {
        crate::kinds::Card::Treemap(t) => describe::summary(t, units),
        _ => String::new(),
    },
    data_table: |chart, max_rows, f| {
        use crate::describe::table::{x_name, y_name};
        match &chart.card {
            crate::kinds::Card::Treemap(t) => {
                let names = (x_name(chart, "Category"), y_name(chart, "Value"));
                describe::table(t, names, max_rows, f)
            }
            _ => super::no_table(),
        }
    },
};
