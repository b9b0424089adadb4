//! What a reader changed of a card without changing its data: the series
//! they hid from its legend. Kept by whoever draws the card (the engine's
//! canvas) and handed to each drawing, the data table and the CSV, so all
//! of them show the same.

/// Series hidden, by name: a name, not an index, survives new data.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    hidden: Vec<String>,
}

impl View {
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
