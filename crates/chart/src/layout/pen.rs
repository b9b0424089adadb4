//! The layout's pen: shapes in CSS pixels, recorded as [`Item`]s of a
//! scene. Nothing here knows a drawing backend; rounding to device pixels
//! is the painters' business (see [`crate::paint`]).

use std::cell::{Cell, RefCell};

use crate::scene::{device_scale, Color, Item, Role, Stroke};
pub use crate::scene::{Align, Baseline, Font, Rect};

pub struct Pen {
    items: RefCell<Vec<Item>>,
    roles: RefCell<Vec<Role>>,
    /// Whether what is drawn now are the plot's marks (see [`Pen::marks`]).
    marking: Cell<bool>,
    plot: Cell<Option<Rect>>,
    /// Device pixels per CSS pixel the scene will be painted at: only
    /// decides how finely long series are reduced, never the layout.
    pub scale: f64,
    /// The drawing's size in CSS pixels.
    pub width: f64,
    pub height: f64,
}

/// The largest drawing laid out, in CSS pixels a side.
const MAX_SIZE: f64 = 32_768.0;

/// Non-finite coordinates become 0 and huge ones are held near the
/// drawing, so no painter sees a NaN or an overflowing number.
fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v.clamp(-1.0e6, 1.0e6)
    } else {
        0.0
    }
}

fn point((x, y): (f64, f64)) -> (f64, f64) {
    (finite(x), finite(y))
}

fn rect(r: Rect) -> Rect {
    Rect::new(finite(r.x), finite(r.y), finite(r.w), finite(r.h))
}

fn stroke(color: Color, width: f64) -> Stroke {
    Stroke {
        color,
        width: if width.is_finite() {
            width.clamp(0.0, 64.0)
        } else {
            1.0
        },
    }
}

impl Pen {
    pub fn new(width: f64, height: f64, scale: f64) -> Pen {
        let size = |v: f64| {
            if v.is_finite() {
                v.clamp(1.0, MAX_SIZE)
            } else {
                1.0
            }
        };
        let (width, height, scale) = (size(width), size(height), device_scale(scale));
        Pen {
            items: RefCell::new(Vec::new()),
            roles: RefCell::new(Vec::new()),
            marking: Cell::new(false),
            plot: Cell::new(None),
            scale,
            width,
            height,
        }
    }

    /// The plot area of the card (see [`crate::scene::Scene::plot`]).
    pub fn set_plot(&self, plot: Rect) {
        self.plot.set(Some(rect(plot)));
    }

    pub fn plot(&self) -> Option<Rect> {
        self.plot.get()
    }

    /// From now until the guard is dropped, what is drawn are the plot's
    /// marks: shapes are [`Role::Mark`]s and texts [`Role::Label`]s pinned
    /// to them. Everything drawn outside is [`Role::Chrome`].
    pub fn marking(&self) -> Marking<'_> {
        Marking {
            painter: self,
            was: self.marking.replace(true),
        }
    }

    /// The items recorded so far, in painting order, and their roles.
    pub fn finish(self) -> (Vec<Item>, Vec<Role>) {
        (self.items.into_inner(), self.roles.into_inner())
    }

    fn push(&self, item: Item) {
        let role = match (self.marking.get(), &item) {
            (false, _) => Role::Chrome,
            (true, Item::Text { .. }) => Role::Label,
            (true, _) => Role::Mark,
        };
        self.items.borrow_mut().push(item);
        self.roles.borrow_mut().push(role);
    }

    pub fn rect(&self, r: Rect, color: Color) {
        let r = rect(r);
        // An empty rectangle is nothing; a tiny one stays, and painters
        // show it as at least a sliver.
        if r.w <= 0.0 || r.h <= 0.0 {
            return;
        }
        self.push(Item::Rect {
            rect: r,
            fill: color,
        })
    }

    pub fn outline(&self, r: Rect, color: Color, width: f64) {
        self.push(Item::Outline {
            rect: rect(r),
            stroke: stroke(color, width),
        })
    }

    pub fn line(&self, points: &[(f64, f64)], color: Color, width: f64) {
        if points.len() < 2 {
            return;
        }
        self.push(Item::Path {
            points: points.iter().copied().map(point).collect(),
            stroke: stroke(color, width),
        })
    }

    // Only maps fill polygons (pie slices are sectors).
    #[cfg_attr(not(feature = "geo"), allow(dead_code))]
    pub fn polygon(&self, points: &[(f64, f64)], color: Color) {
        if points.len() < 3 {
            return;
        }
        self.push(Item::Polygon {
            points: points.iter().copied().map(point).collect(),
            fill: color,
        })
    }

    pub fn circle(&self, center: (f64, f64), radius: f64, color: Color) {
        self.push(Item::Circle {
            center: point(center),
            radius: finite(radius).max(0.0),
            fill: Some(color),
            stroke: None,
        })
    }

    pub fn ring(&self, center: (f64, f64), radius: f64, color: Color, width: f64) {
        self.push(Item::Circle {
            center: point(center),
            radius: finite(radius).max(0.0),
            fill: None,
            stroke: Some(stroke(color, width)),
        })
    }

    /// A filled slice of a ring between `start` and `end`, radians
    /// clockwise from twelve o'clock.
    pub fn sector(
        &self,
        center: (f64, f64),
        (inner, outer): (f64, f64),
        (start, end): (f64, f64),
        color: Color,
    ) {
        let (start, end) = (finite(start), finite(end));
        if end <= start {
            return;
        }
        let outer = finite(outer).max(0.0);
        self.push(Item::Sector {
            center: point(center),
            outer,
            // Not `clamp`: with a bound known only at run time it keeps its
            // "min > max" panic message, which links core's float formatting.
            inner: finite(inner).max(0.0).min(outer),
            start,
            end: end.min(start + std::f64::consts::TAU),
            fill: color,
        })
    }

    /// Text at (x, y).
    pub fn text(
        &self,
        content: &str,
        at: (f64, f64),
        font: Font,
        align: Align,
        baseline: Baseline,
    ) {
        self.text_turned(content, at, font, align, baseline, false)
    }

    /// Text at (x, y); `vertical` turns it to read bottom to top.
    pub fn text_turned(
        &self,
        content: &str,
        at: (f64, f64),
        font: Font,
        align: Align,
        baseline: Baseline,
        vertical: bool,
    ) {
        if content.is_empty() {
            return;
        }
        self.push(Item::Text {
            text: content.to_string(),
            at: point(at),
            font,
            align,
            baseline,
            vertical,
        })
    }
}

/// See [`Pen::marking`].
pub struct Marking<'p> {
    painter: &'p Pen,
    was: bool,
}

impl Drop for Marking<'_> {
    fn drop(&mut self) {
        self.painter.marking.set(self.was);
    }
}
