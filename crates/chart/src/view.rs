//! What a reader changed of a card without changing its data: the series
//! they hid from its legend, and the range they zoomed into. Kept by
//! whoever draws the card (the engine's canvas) and handed to each drawing,
//! the data table and the CSV, so all of them show the same.

/// Series hidden, by name (a name, not an index, survives new data), and
/// the zoomed x (and, on a scatter, y) range in the data's units: seconds
/// since 1970 on a time axis.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct View {
    hidden: Vec<String>,
    x: Option<(f64, f64)>,
    y: Option<(f64, f64)>,
}

impl View {
    /// The zoomed x range, if any: `lo < hi`, both finite.
    pub fn x(&self) -> Option<(f64, f64)> {
        self.x
    }

    /// The zoomed y range of a scatter, if any.
    pub fn y(&self) -> Option<(f64, f64)> {
        self.y
    }

    /// Whether the reader zoomed in.
    pub fn is_zoomed(&self) -> bool {
        self.x.is_some() || self.y.is_some()
    }

    /// Zooms to `x` (and `y`); a range that is empty, reversed or not
    /// finite means the whole data on that axis. True when it changed.
    pub fn zoom(&mut self, x: Option<(f64, f64)>, y: Option<(f64, f64)>) -> bool {
        let range = |r: Option<(f64, f64)>| {
            r.filter(|(lo, hi)| lo.is_finite() && hi.is_finite() && lo < hi)
        };
        let (x, y) = (range(x), range(y));
        let changed = (x, y) != (self.x, self.y);
        self.x = x;
        self.y = y;
        changed
    }

    /// Whether the series named `series` is drawn.
    pub fn shows(&self, series: &str) -> bool {
        !self.hidden.iter().any(|name| name == series)
    }

    pub fn hidden(&self) -> &[String] {
        &self.hidden
    }

    /// Shows or hides `series`, one of `names` (the card's series that can
    /// be hidden, [`crate::Chart::toggled_series`]). False, and nothing
    /// changes, for a name the card does not have, and for hiding the last
    /// series shown: a card never goes blank this way.
    pub fn set(&mut self, series: &str, visible: bool, names: &[&str]) -> bool {
        if !names.contains(&series) {
            return false;
        }
        if visible {
            self.hidden.retain(|name| name != series);
            return true;
        }
        if !self.shows(series) {
            return true;
        }
        let others_shown = names.iter().any(|&n| n != series && self.shows(n));
        if others_shown {
            self.hidden.push(series.to_string());
        }
        others_shown
    }

    /// Forgets the hidden names new data no longer have, so that a series
    /// of the same name stays hidden across an update and nothing else does.
    pub fn keep_only(&mut self, names: &[&str]) {
        self.hidden.retain(|name| names.contains(&name.as_str()));
        // New data may have only hidden series left: show them all again.
        if !names.is_empty() && names.iter().all(|n| !self.shows(n)) {
            self.hidden.clear();
        }
        // A zoom was into the old data's range.
        self.x = None;
        self.y = None;
    }
}

#[cfg(test)]
mod tests {
    use super::View;

    #[test]
    fn the_last_series_shown_stays() {
        let names = ["Web", "Mobile"];
        let mut view = View::default();
        assert!(view.set("Web", false, &names));
        assert!(!view.shows("Web") && view.shows("Mobile"));
        assert!(!view.set("Mobile", false, &names), "the last one stays");
        assert!(view.shows("Mobile"));
        assert!(view.set("Web", false, &names), "already hidden");
        assert!(
            !view.set("Tablet", false, &names),
            "not a series of the card"
        );
        assert!(view.set("Web", true, &names));
        assert_eq!(view, View::default());
    }

    #[test]
    fn new_data_keep_what_they_still_have() {
        let mut view = View::default();
        assert!(view.set("Web", false, &["Web", "Mobile"]));
        view.keep_only(&["Web", "Tablet"]);
        assert!(!view.shows("Web"));
        view.keep_only(&["Mobile", "Tablet"]);
        assert_eq!(view.hidden(), &[] as &[String]);
        assert!(view.set("Mobile", false, &["Mobile", "Tablet"]));
        view.keep_only(&["Mobile"]);
        assert!(view.shows("Mobile"), "never all hidden");
    }
}
