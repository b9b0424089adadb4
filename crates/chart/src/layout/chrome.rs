//! The chrome around every card: title, subtitle, legend, source line, and
//! the body rectangle left for the chart itself.

use crate::scene::{Color, Fit};

use super::pen::{Align, Baseline, Font, Pen, Rect};
use super::text::{self, Weight};
use super::theme::Theme;
use crate::model::VizConfig;

/// Type sizes and spacing, chosen from the drawing's width.
#[derive(Debug, Clone, Copy)]
pub struct Sizes {
    pub title: f64,
    pub subtitle: f64,
    pub tick: f64,
    pub small: f64,
    pub pad: f64,
}

/// The width from which a card is set in the regular type scale; below it,
/// in the compact one.
pub const REGULAR_WIDTH: f64 = 420.0;

/// The smallest frame a card is made for.
pub const SMALLEST: (f64, f64) = (320.0, 240.0);

/// The size one layout of a card is made at to serve every frame of the
/// width class of `width` (the form page lays each class out once and lets
/// its plot grow): the class's narrowest width, and for cards whose marks
/// are sized in pixels the smallest height, so that a frame only ever adds
/// room around them; for the others a little more, which gives their plot
/// room for ticks.
///
/// Every layout makes its choices (a bar chart on its side or upright, a
/// pie's legend beside it or above) at this size, so that a card drawn in
/// the page and the same card in the form page choose alike.
pub fn class_layout(width: f64, fit: Fit) -> (f64, f64) {
    let regular = width >= REGULAR_WIDTH;
    let height = if fit.grows_from_smallest() {
        SMALLEST.1
    } else if regular {
        360.0
    } else {
        300.0
    };
    (if regular { REGULAR_WIDTH } else { SMALLEST.0 }, height)
}

impl Sizes {
    pub fn for_width(width: f64) -> Sizes {
        if width < REGULAR_WIDTH {
            Sizes {
                title: 15.0,
                subtitle: 12.0,
                tick: 11.0,
                small: 10.0,
                pad: 10.0,
            }
        } else {
            Sizes {
                title: 18.0,
                subtitle: 13.5,
                tick: 12.0,
                small: 11.0,
                pad: 16.0,
            }
        }
    }
}

/// How a legend entry shows its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    Square,
    Line,
    Dot,
}

#[derive(Debug, Clone)]
pub struct LegendEntry {
    pub label: String,
    pub color: Color,
    pub marker: Marker,
    /// The series it names (the label may add to the name).
    pub series: String,
    /// For an entry that hides and shows its series: whether it is shown.
    /// A hidden one is drawn hollow and muted.
    pub toggle: Option<bool>,
}

impl LegendEntry {
    pub fn new(label: impl Into<String>, color: Color, marker: Marker) -> LegendEntry {
        let label = label.into();
        LegendEntry {
            series: label.clone(),
            label,
            color,
            marker,
            toggle: None,
        }
    }
}

/// Draws title, subtitle and source; returns the rectangle between them.
pub fn draw_chrome(p: &Pen, theme: &Theme, sizes: &Sizes, config: &VizConfig) -> Rect {
    let outer =
        Rect::new(0.0, 0.0, p.width, p.height).inset(sizes.pad, sizes.pad, sizes.pad, sizes.pad);
    let mut y = outer.y;
    let title_lines = text::wrap(&config.title, sizes.title, Weight::Bold, outer.w, 2);
    for line in &title_lines {
        p.text(
            line,
            (outer.x, y),
            Font::new(sizes.title, Weight::Bold, theme.text),
            Align::Start,
            Baseline::Top,
        );
        y += sizes.title * 1.25;
    }
    if let Some(subtitle) = config.subtitle.as_deref().filter(|s| !s.trim().is_empty()) {
        y += 2.0;
        for line in text::wrap(subtitle, sizes.subtitle, Weight::Regular, outer.w, 2) {
            p.text(
                &line,
                (outer.x, y),
                Font::new(sizes.subtitle, Weight::Regular, theme.muted),
                Align::Start,
                Baseline::Top,
            );
            y += sizes.subtitle * 1.3;
        }
    }
    let mut bottom = outer.bottom();
    if let Some(source) = config.source.as_deref().filter(|s| !s.trim().is_empty()) {
        let line = text::ellipsize(
            &format!("Source: {source}"),
            sizes.small,
            Weight::Regular,
            outer.w,
        );
        p.text(
            &line,
            (outer.x, bottom),
            Font::new(sizes.small, Weight::Regular, theme.muted),
            Align::Start,
            Baseline::Bottom,
        );
        bottom -= sizes.small * 1.3 + 8.0;
    }
    let top = if title_lines.is_empty() { y } else { y + 12.0 };
    Rect::new(outer.x, top, outer.w, bottom - top)
}

/// Lays the entries out in rows at the top of `body` (at most three rows,
/// then "+N more"); returns what is left of the body below them, and where
/// each entry drawn went (its index and its box).
pub fn draw_legend(
    p: &Pen,
    theme: &Theme,
    sizes: &Sizes,
    body: Rect,
    entries: &[LegendEntry],
) -> (Rect, Vec<(usize, Rect)>) {
    let mut placed = Vec::new();
    if entries.is_empty() {
        return (body, placed);
    }
    let size = sizes.tick;
    let swatch = size * 0.9;
    let gap = 16.0;
    let row_h = size * 1.5;
    let max_label = (body.w * 0.45).max(40.0);
    let mut rows = 1usize;
    let mut x = body.x;
    let mut y = body.y;
    for (i, entry) in entries.iter().enumerate() {
        let label = text::ellipsize(&entry.label, size, Weight::Regular, max_label);
        let w = swatch + 5.0 + text::width(&label, size, Weight::Regular);
        if x > body.x && x + w > body.right() {
            if rows == 3 {
                let more = format!("+{} more", entries.len() - i);
                p.text(
                    &more,
                    (x, y + row_h / 2.0),
                    Font::new(size, Weight::Regular, theme.muted),
                    Align::Start,
                    Baseline::Middle,
                );
                break;
            }
            rows += 1;
            x = body.x;
            y += row_h;
        }
        let cy = y + row_h / 2.0;
        let shown = entry.toggle != Some(false);
        match entry.marker {
            // A hidden series' square or dot is hollow: its state is a
            // shape, not only a shade.
            Marker::Square | Marker::Dot if !shown => p.outline(
                Rect::new(
                    x + 0.75,
                    cy - swatch / 2.0 + 0.75,
                    swatch - 1.5,
                    swatch - 1.5,
                ),
                entry.color,
                1.5,
            ),
            Marker::Square => p.rect(Rect::new(x, cy - swatch / 2.0, swatch, swatch), entry.color),
            Marker::Line if !shown => p.outline(
                Rect::new(x - 0.25, cy - 2.0, swatch + 0.5, 4.0),
                entry.color,
                1.0,
            ),
            Marker::Line => p.rect(Rect::new(x - 1.0, cy - 1.5, swatch + 2.0, 3.0), entry.color),
            Marker::Dot => p.circle((x + swatch / 2.0, cy), swatch / 2.0, entry.color),
        }
        let color = if shown { theme.text } else { theme.muted };
        p.text(
            &label,
            (x + swatch + 5.0, cy),
            Font::new(size, Weight::Regular, color),
            Align::Start,
            Baseline::Middle,
        );
        placed.push((i, Rect::new(x - 2.0, y, w + 4.0, row_h)));
        x += w + gap;
    }
    let used = rows as f64 * row_h + 8.0;
    let rest = Rect::new(body.x, body.y + used, body.w, body.h - used);
    (rest, placed)
}

/// The message shown where a chart would be when there is nothing to draw.
pub fn draw_empty(p: &Pen, theme: &Theme, sizes: &Sizes, body: Rect, message: &str) {
    let (cx, cy) = body.center();
    let t = text::ellipsize(message, sizes.subtitle, Weight::Regular, body.w);
    // A faint dashed-looking box says "the chart goes here".
    p.outline(body.inset(2.0, 2.0, 2.0, 2.0), theme.grid, 1.0);
    p.text(
        &t,
        (cx, cy),
        Font::new(sizes.subtitle, Weight::Regular, theme.muted),
        Align::Middle,
        Baseline::Middle,
    )
}
