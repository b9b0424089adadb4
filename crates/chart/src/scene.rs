//! A card laid out once, as a display list that names no drawing backend.
//!
//! Layout (`draw`) produces a [`Scene`] in CSS pixels; painters replay it:
//! onto any plotters backend (the widget's canvas), as SVG text (the host,
//! `toSVG()`, the CLI), or as PNG (native only). Only the plotters replay is
//! generic over a backend, so the layout code is compiled once.

use crate::draw::HitMap;

/// An opaque sRGB colour. The engine's own type: no plotters type is part
/// of the public API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Color(pub u8, pub u8, pub u8);

impl Color {
    /// `#rrggbb`, for CSS and SVG.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// A rectangle in CSS pixels; never of negative size.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect {
            x,
            y,
            w: w.max(0.0),
            h: h.max(0.0),
        }
    }
    pub fn right(&self) -> f64 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }
    pub fn center(&self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
    /// Shrinks by the given insets, never below zero size.
    pub fn inset(&self, top: f64, right: f64, bottom: f64, left: f64) -> Rect {
        Rect::new(
            self.x + left,
            self.y + top,
            self.w - left - right,
            self.h - top - bottom,
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    Regular,
    Bold,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Start,
    Middle,
    End,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Baseline {
    Top,
    Middle,
    Bottom,
}

/// How a piece of text is set: the family is always
/// [`crate::draw::text::FONT_FAMILY`], whose widths the layout measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Font {
    /// Size in CSS pixels (the CSS `font-size`).
    pub size: f64,
    pub weight: Weight,
    pub color: Color,
}

impl Font {
    pub fn new(size: f64, weight: Weight, color: Color) -> Font {
        Font {
            size,
            weight,
            color,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stroke {
    pub color: Color,
    /// Width in CSS pixels.
    pub width: f64,
}

/// One thing to paint, in CSS pixels, in painting order.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A filled rectangle.
    Rect { rect: Rect, fill: Color },
    /// A rectangle's outline.
    Outline { rect: Rect, stroke: Stroke },
    /// An open polyline.
    Path {
        points: Vec<(f64, f64)>,
        stroke: Stroke,
    },
    /// A filled closed polygon.
    Polygon {
        points: Vec<(f64, f64)>,
        fill: Color,
    },
    /// A circle, filled, stroked or both.
    Circle {
        center: (f64, f64),
        radius: f64,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    },
    /// A filled ring sector (a pie slice when `inner` is 0). Angles in
    /// radians, clockwise from twelve o'clock; `end` > `start`.
    Sector {
        center: (f64, f64),
        outer: f64,
        inner: f64,
        start: f64,
        end: f64,
        fill: Color,
    },
    /// One line of text anchored at `at`; `vertical` reads bottom to top.
    Text {
        text: String,
        at: (f64, f64),
        font: Font,
        align: Align,
        baseline: Baseline,
        vertical: bool,
    },
}

/// A whole card, laid out for one size.
#[derive(Debug, Clone, Default)]
pub struct Scene {
    /// The size laid out for, in CSS pixels.
    pub width: f64,
    pub height: f64,
    pub background: Color,
    /// The plot area (inside the axes, or the region a pie, map or table
    /// fills), when the card has one: what a responsive painter may stretch
    /// while the margins around it keep their size in CSS pixels.
    pub plot: Option<Rect>,
    pub items: Vec<Item>,
    /// Where every mark landed, for tooltips; empty unless asked for.
    pub hits: HitMap,
}
