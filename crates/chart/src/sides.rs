//! Two y-axes for a timeseries: which series read against the right one.
//!
//! `viz_config.right_axis_series` names them (an empty list keeps every
//! series on the left). Without it, the rule: each series' magnitude is its
//! largest |y|; sorted, the widest ratio between neighbours splits them in
//! two when it is more than [`RIGHT_AXIS_RATIO`]. The group of the first
//! series stays on the left, the other reads against the right axis. Series
//! shown as their change since start (`percent_change`) share one unit and
//! one axis.

use crate::model::{DataError, Path, Series, VizConfig};

/// Magnitudes further apart than this go on two axes.
pub const RIGHT_AXIS_RATIO: f64 = 10.0;

/// One flag per series, true for the right axis; empty when there is one
/// axis.
pub fn right_flags(config: &VizConfig, series: &[Series]) -> Vec<bool> {
    let mut flags = Vec::with_capacity(series.len());
    match &config.right_axis_series {
        Some(names) => {
            for s in series {
                flags.push(names.contains(&s.name));
            }
        }
        None if config.percent_change => {}
        None => by_magnitude(series, &mut flags),
    }
    if flags.contains(&true) && flags.contains(&false) {
        flags
    } else {
        Vec::new()
    }
}

/// The largest |y| of a series; 0 for one without values.
fn magnitude(s: &Series) -> f64 {
    let mut m = 0.0f64;
    for y in &s.ys {
        if y.is_finite() && y.abs() > m {
            m = y.abs();
        }
    }
    m
}

fn by_magnitude(series: &[Series], flags: &mut Vec<bool>) {
    let mut m = Vec::with_capacity(series.len());
    for s in series {
        m.push(magnitude(s));
    }
    // The widest gap between neighbours in size (at most 200 series: no
    // sort needed): below it is small, from it on large.
    let mut split = None;
    let mut widest = RIGHT_AXIS_RATIO;
    for &b in &m {
        let mut below = 0.0f64;
        for &a in &m {
            if a < b && a > below {
                below = a;
            }
        }
        if below > 0.0 && b / below > widest {
            widest = b / below;
            split = Some(b);
        }
    }
    let (Some(split), Some(&first)) = (split, m.first()) else {
        return;
    };
    let first_large = first >= split;
    // A series without values stays with the first.
    for m in m {
        flags.push(m > 0.0 && (m >= split) != first_large);
    }
}

/// Refuses a name in `right_axis_series` that no series has: a misspelt
/// name would otherwise leave its series on the left without a word.
pub(crate) fn check(config: &VizConfig, series: &[Series]) -> Result<(), DataError> {
    let Some(names) = &config.right_axis_series else {
        return Ok(());
    };
    for (i, name) in names.iter().enumerate() {
        if !series.iter().any(|s| &s.name == name) {
            let root = Path::Root;
            let viz = root.key("viz_config");
            let path = viz.key("right_axis_series");
            return Err(DataError::new(
                &path.index(i),
                ["no series is named \"", name, "\""].concat(),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn series(name: &str, ys: &[f64]) -> Series {
        Series {
            name: name.into(),
            xs: (0..ys.len()).map(|i| i as f64).collect(),
            ys: ys.to_vec(),
            given: ys.len(),
        }
    }

    #[test]
    fn magnitudes_apart_by_more_than_the_ratio_split_with_the_first_on_the_left() {
        let config = VizConfig::default();
        let revenue = series("Revenue", &[1.2e6, 1.5e6]);
        let margin = series("Margin", &[12.0, 14.5]);
        let cost = series("Cost", &[0.8e6, f64::NAN]);
        assert_eq!(
            right_flags(&config, &[revenue.clone(), margin.clone(), cost.clone()]),
            [false, true, false]
        );
        // The first series decides which group stays left.
        assert_eq!(
            right_flags(&config, &[margin.clone(), revenue.clone()]),
            [false, true]
        );
        // Within the ratio: one axis. Exactly 10 apart is not more than 10.
        let near = series("Near", &[150.0]);
        assert!(right_flags(&config, &[series("A", &[15.0]), near]).is_empty());
        // A series without values stays with the first.
        let empty = series("Empty", &[f64::NAN]);
        assert_eq!(
            right_flags(&config, &[revenue.clone(), empty, margin.clone()]),
            [false, false, true]
        );
        // Change since start: one unit, one axis.
        let change = VizConfig {
            percent_change: true,
            ..VizConfig::default()
        };
        assert!(right_flags(&change, &[revenue, margin]).is_empty());
    }

    #[test]
    fn named_series_go_right_and_an_empty_list_keeps_one_axis() {
        let a = series("A", &[1.0]);
        let b = series("B", &[2.0]);
        let named = |names: &[&str]| VizConfig {
            right_axis_series: Some(names.iter().map(|n| n.to_string()).collect()),
            ..VizConfig::default()
        };
        let both = [a.clone(), b.clone()];
        assert_eq!(right_flags(&named(&["A"]), &both), [true, false]);
        assert!(right_flags(&named(&[]), &both).is_empty());
        let far = [a, series("B", &[1e6])];
        assert!(right_flags(&named(&[]), &far).is_empty());
        assert_eq!(right_flags(&VizConfig::default(), &far), [false, true]);

        let error = check(&named(&["A", "C"]), &both).unwrap_err().to_string();
        assert_eq!(
            error,
            "viz_config.right_axis_series[1]: no series is named \"C\""
        );
        assert!(check(&named(&["B"]), &both).is_ok());
        // Every series named: nothing is left for the left axis, so one axis.
        assert!(check(&named(&["B", "A"]), &both).is_ok());
        assert!(right_flags(&named(&["B", "A"]), &both).is_empty());
    }

    #[test]
    fn every_reader_refuses_what_the_card_cannot_do() {
        let series = r#"{"series": [{"name": "A", "points": [{"x": "2024", "y": 1}]}, {"name": "B", "points": [{"x": "2024", "y": 2}]}]}"#;
        let too_many = format!(
            r#"{{"title": "t", "right_axis_series": [{}]}}"#,
            vec!["\"A\""; 201].join(",")
        );
        let cases = [
            (
                r#"{"title": "t", "viz_component_type": "bar", "right_axis_series": ["A"]}"#,
                r#"[{"x": "a", "y": 1}]"#,
                "viz_config.right_axis_series: applies to timeseries cards only",
            ),
            (
                r#"{"title": "t", "right_axis_series": "A"}"#,
                series,
                "viz_config.right_axis_series: expected an array of at most 200 series names, found",
            ),
            (
                &*too_many,
                series,
                "viz_config.right_axis_series: expected an array of at most 200 series names",
            ),
            (
                r#"{"title": "t", "right_axis_series": ["A", 2]}"#,
                series,
                "viz_config.right_axis_series[1]: expected a series name, found",
            ),
            (
                r#"{"title": "t", "viz_component_type": "timeseries", "right_axis_series": ["C"]}"#,
                series,
                "viz_config.right_axis_series[0]: no series is named \"C\"",
            ),
            (
                r#"{"title": "t", "viz_component_type": "timeseries", "right_axis_units": 5}"#,
                series,
                "viz_config.right_axis_units: expected a string",
            ),
        ];
        for (config, data, want) in cases {
            let json = format!(r#"{{"viz_config": {config}, "data": {data}}}"#);
            for read in [crate::Chart::from_json, crate::Chart::from_json_tree] {
                let error = read(&json).unwrap_err().to_string();
                assert!(error.contains(want), "{error} for {config}");
            }
        }
    }
}
