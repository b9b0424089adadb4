//! Light or dark: the `darkMode` option, else the card's `viz_config.dark_mode`,
//! else the reader's `prefers-color-scheme`, followed live.

use gloo_events::EventListener;
use web_sys::{MediaQueryList, Window};
use zdr_chart::Chart;

pub struct ColorScheme {
    option: Option<bool>,
    system: Option<MediaQueryList>,
}

impl ColorScheme {
    pub fn new(window: &Window, option: Option<bool>) -> ColorScheme {
        // The query is kept even when the option decides: an update may
        // drop viz_config.dark_mode, and then the system preference applies.
        let system = window
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten();
        ColorScheme { option, system }
    }

    pub fn is_dark(&self, chart: &Chart) -> bool {
        self.option
            .or(chart.config.dark_mode)
            .unwrap_or_else(|| self.system.as_ref().is_some_and(MediaQueryList::matches))
    }

    /// Calls `changed` when the reader switches their system theme; `None`
    /// when the option fixes the scheme for good.
    pub fn on_change(&self, changed: impl Fn() + 'static) -> Option<EventListener> {
        if self.option.is_some() {
            return None;
        }
        let system = self.system.as_ref()?;
        Some(EventListener::new(system, "change", move |_event| {
            changed()
        }))
    }
}
