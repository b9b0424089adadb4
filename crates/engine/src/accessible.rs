//! What a screen reader gets instead of pixels: the canvas is an image named
//! by the title and a one-line summary, followed by a visually hidden table
//! of the data.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, HtmlCanvasElement, HtmlElement};
use zdr_chart::locale::Locale;
use zdr_chart::{Chart, View};

/// Enough to read the data out; more would bury the page in table rows.
pub const MAX_TABLE_ROWS: usize = 200;

/// Hidden from sight but not from assistive technology (the usual
/// "visually hidden" recipe; `display:none` would hide it from both).
pub const VISUALLY_HIDDEN: &str = "position:absolute;width:1px;height:1px;margin:-1px;padding:0;\
border:0;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap";

pub struct Description {
    document: Document,
    table: HtmlElement,
}

impl Description {
    pub fn create(document: &Document, parent: &Element) -> Result<Description, JsValue> {
        // Tables grow to fit their cells whatever their width says, so the
        // hiding is done by a box around the table.
        let hidden: HtmlElement = document.create_element("div")?.dyn_into()?;
        hidden.set_class_name("zdr-embed-sr");
        // CSSOM, not a style attribute, which a strict style-src CSP refuses.
        hidden.style().set_css_text(VISUALLY_HIDDEN);
        let table: HtmlElement = document.create_element("table")?.dyn_into()?;
        table.set_class_name("zdr-embed-data");
        hidden.append_child(&table)?;
        parent.append_child(&hidden)?;
        Ok(Description {
            document: document.clone(),
            table,
        })
    }

    /// Names the canvas by its title, at once: a card is never unnamed.
    pub fn name_now(canvas: &HtmlCanvasElement, title: &str) -> Result<(), JsValue> {
        canvas.set_attribute("aria-label", title)
    }

    /// Names the canvas for `chart`, the title and a summary of the data:
    /// written with the table, after the frame that shows the card.
    pub fn name(canvas: &HtmlCanvasElement, chart: &Chart, title: &str) -> Result<(), JsValue> {
        canvas.set_attribute("aria-label", &label(title, &chart.summary()))
    }

    /// Refills the table for `chart`. Text only (`textContent`), never
    /// markup: the data may be hostile. Called after the frame that shows
    /// the card (`LocalCanvas`): 200 rows cost the page a layout of several
    /// milliseconds, which the card's pixels need not wait for.
    pub fn fill(&self, chart: &Chart, title: &str, view: &View) -> Result<(), JsValue> {
        let data = chart.data_table_viewed(MAX_TABLE_ROWS, view);
        self.table.set_text_content(None);
        let caption = self.child(&self.table, "caption")?;
        let caption_is = caption_text(title, data.rows.len(), data.total_rows, chart.config.locale);
        caption.set_text_content(Some(&caption_is));
        let head = self.child(&self.table, "thead")?;
        let row = self.child(&head, "tr")?;
        for column in &data.columns {
            let cell = self.child(&row, "th")?;
            cell.set_attribute("scope", "col")?;
            cell.set_text_content(Some(column));
        }
        let body = self.child(&self.table, "tbody")?;
        for values in &data.rows {
            let row = self.child(&body, "tr")?;
            for value in values {
                self.child(&row, "td")?.set_text_content(Some(value));
            }
        }
        Ok(())
    }

    fn child(&self, parent: &Element, tag: &str) -> Result<Element, JsValue> {
        let element = self.document.create_element(tag)?;
        parent.append_child(&element)?;
        Ok(element)
    }
}

fn label(title: &str, summary: &str) -> String {
    let title = title.trim();
    if title.is_empty() {
        return summary.to_owned();
    }
    let stop = if title.ends_with(['.', '!', '?', ':']) {
        ""
    } else {
        "."
    };
    format!("{title}{stop} {summary}")
}

/// The caption, with the counts grouped as the card's locale groups its
/// numbers (the same marks as its axes and tooltips).
fn caption_text(title: &str, shown: usize, total: usize, locale: Locale) -> String {
    let title = if title.trim().is_empty() {
        "Chart data"
    } else {
        title.trim()
    };
    if shown < total {
        format!(
            "{title} (the first {} of {} rows)",
            locale.group(&shown.to_string()),
            locale.group(&total.to_string())
        )
    } else {
        title.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_join_title_and_summary() {
        assert_eq!(label("Sales", "Bar chart."), "Sales. Bar chart.");
        assert_eq!(label("Sales?", "Bar chart."), "Sales? Bar chart.");
        assert_eq!(label("  ", "Bar chart."), "Bar chart.");
    }

    #[test]
    fn captions_say_when_rows_were_cut() {
        let en = Locale::default();
        assert_eq!(caption_text("Sales", 3, 3, en), "Sales");
        assert_eq!(
            caption_text("Sales", 200, 12345, en),
            "Sales (the first 200 of 12,345 rows)"
        );
        let de = zdr_chart::locale::find("de-DE").unwrap_or_default();
        assert_eq!(
            caption_text("Umsatz", 200, 1_000_000, de),
            "Umsatz (the first 200 of 1.000.000 rows)"
        );
    }
}
