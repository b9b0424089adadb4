//! `viz_config.percent_change`: a timeseries shown as each series' change
//! since its first value, for series of different units or magnitudes read
//! on one axis ("+12.5%"). The change is `(y − first) / |first|`, so a
//! series that starts below zero still rises when its values do. A series
//! whose first value is zero, or that has no value at all, has no change to
//! show: it is left out, and the subtitle says so, naming it.

use crate::model::{Card, VizConfig};

use crate::scale::format::SIGNED_PERCENT;

pub(crate) fn since_start(config: &mut VizConfig, card: &mut Card) {
    let Card::Timeseries { series, .. } = card else {
        return;
    };
    let mut note = String::from("Change since the first value");
    let mut left_out = "; left out, starting at zero or without values: ";
    for mut s in std::mem::take(series) {
        match s.ys.iter().copied().find(|y| y.is_finite()) {
            Some(first) if first != 0.0 => {
                for y in &mut s.ys {
                    *y = (*y - first) / first.abs() * 100.0;
                }
                series.push(s);
            }
            _ => {
                note.push_str(left_out);
                note.push_str(&s.name);
                left_out = ", ";
            }
        }
    }
    config.units = Some(SIGNED_PERCENT.into());
    // Both axes show the same change: the right one's own units are gone.
    config.right_axis_units = None;
    // The axis says what it measures now: "Price, change since start".
    let label = config.y_label.as_deref().map_or("", str::trim);
    config.y_label = Some(if label.is_empty() {
        "Change since start".into()
    } else {
        [label, ", change since start"].concat()
    });
    let given = config.subtitle.as_deref().map_or("", str::trim);
    if !given.is_empty() {
        note = [given, " · ", &note].concat();
    }
    config.subtitle = Some(note);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use crate::model::Card;
    use crate::scale::format::format_value;
    use crate::Chart;

    const DATA: &str = r#"{"viz_config": {"title": "Prices", "viz_component_type": "timeseries", "percent_change": true, "subtitle": "Monthly"},
        "data": {"series": [
            {"name": "Gold", "points": [{"x": "2024-01", "y": 2000}, {"x": "2024-02", "y": 2250}, {"x": "2024-03", "y": 1900}]},
            {"name": "Debt", "points": [{"x": "2024-01", "y": -200}, {"x": "2024-02", "y": -100}]},
            {"name": "Start-up", "points": [{"x": "2024-01", "y": 0}, {"x": "2024-02", "y": 5}]},
            {"name": "Empty", "points": [{"x": "2024-01", "y": null}]}
        ]}}"#;

    #[test]
    fn series_become_their_change_since_the_first_value_by_every_reader() {
        for chart in [
            Chart::from_json(DATA).unwrap(),
            Chart::from_json_tree(DATA).unwrap(),
        ] {
            let Card::Timeseries { series, .. } = &chart.card else {
                panic!("{:?}", chart.card)
            };
            let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
            assert_eq!(names, ["Gold", "Debt"]);
            assert_eq!(series[0].ys, [0.0, 12.5, -5.0]);
            // From −200 to −100 is a rise: +50%, not −50%.
            assert_eq!(series[1].ys, [0.0, 50.0]);
            assert_eq!(chart.config.units.as_deref(), Some("+%"));
            assert_eq!(chart.config.y_label.as_deref(), Some("Change since start"));
            assert_eq!(
                chart.config.subtitle.as_deref(),
                Some("Monthly · Change since the first value; left out, starting at zero or without values: Start-up, Empty")
            );
        }
    }

    #[test]
    fn signed_percent_units_write_every_sign() {
        let units = Some("+%");
        assert_eq!(format_value(12.5, units), "+12.5%");
        assert_eq!(format_value(-3.0, units), "\u{2212}3%");
        assert_eq!(format_value(0.0, units), "0%");
    }

    #[test]
    fn only_timeseries_cards_take_it() {
        let bar = r#"{"viz_config": {"title": "t", "viz_component_type": "bar", "percent_change": true}, "data": [{"x": "a", "y": 1}]}"#;
        let error = Chart::from_json(bar).unwrap_err().to_string();
        assert!(
            error.contains("viz_config.percent_change: applies to timeseries cards only"),
            "{error}"
        );
        let wrong = r#"{"viz_config": {"title": "t", "percent_change": "yes"}, "data": [{"x": "2024", "y": 1}]}"#;
        let error = Chart::from_json(wrong).unwrap_err().to_string();
        assert!(
            error.contains("viz_config.percent_change: expected true or false"),
            "{error}"
        );
    }
}
