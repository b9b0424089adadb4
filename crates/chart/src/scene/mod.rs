//! A card laid out once, as a display list that names no drawing backend.
//!
//! The layout ([`crate::layout`]) produces a [`Scene`] in CSS pixels, each
//! item with its [`Role`]; the painters in [`crate::paint`] read only the
//! scene: the widget's canvas pixels, the standalone SVG (`toSVG()`, the
//! API's images, the CLI), the form page's fluid SVG, and PNG (native
//! only). The scene also holds the contracts both sides keep: the font
//! family the layout measured for, the device scale, and the hit map.

pub mod hit;

pub use hit::{Hit, HitMap, HitShape, LegendKey, Step, Target, Walk, ZoomWindow};

/// The font stack the layout measured its texts for (the width tables of
/// `layout::text`, metrically Helvetica's) and every painter sets them in.
pub const FONT_FAMILY: &str = "Helvetica, Arial, Liberation Sans, sans-serif";

/// Device pixels per CSS pixel, held to what a screen can have.
pub fn device_scale(scale: f64) -> f64 {
    if scale.is_finite() && scale > 0.0 {
        scale.clamp(0.25, 8.0)
    } else {
        1.0
    }
}

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

/// How a piece of text is set: the family is always [`FONT_FAMILY`],
/// whose widths the layout measured.
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

/// What an item is to the card's layout: how it follows when a painter
/// fits the card to a frame of another size than it was laid out for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Role {
    /// A mark of the plot (a bar, a line, a dot, a region, a grid line):
    /// it stretches or scales with the plot area, as the [`Fit`] says.
    Mark,
    /// Chrome (a title, a legend, an axis's ticks and labels): it keeps its
    /// size in CSS pixels, and its place relative to the plot's edges.
    #[default]
    Chrome,
    /// A text on a mark (a value, a slice's share, a cell's number): it
    /// keeps its size and goes wherever its mark goes.
    Label,
}

/// How a card's plot follows a frame of another size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fit {
    /// The marks fill the plot area however it stretches (axes, heatmaps).
    #[default]
    Stretch,
    /// The marks scale uniformly into the plot area, centred: a map keeps
    /// its shape.
    Scale,
    /// As `Scale`, and chrome inside the plot area stays at its centre: a
    /// pie stays round with its labels around it.
    ScaleCentred,
    /// The plot only widens: rows of text keep their height and their
    /// place from the top (tables).
    Rows,
}

impl Fit {
    /// Whether the plot keeps its aspect ratio (pies, maps).
    pub fn keeps_aspect(self) -> bool {
        matches!(self, Fit::Scale | Fit::ScaleCentred)
    }

    /// Whether the card is best laid out at the smallest frame and grown
    /// from there: its marks are sized in pixels (a pie's radius, a table's
    /// rows), so a frame should only ever add room around them.
    pub fn grows_from_smallest(self) -> bool {
        matches!(self, Fit::ScaleCentred | Fit::Rows)
    }
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
    /// Each item's role, in the order of `items` (an item without one is
    /// chrome).
    pub roles: Vec<Role>,
    /// How the plot follows a frame of another size.
    pub fit: Fit,
    /// Where every mark landed, for tooltips; empty unless asked for.
    pub hits: HitMap,
}

impl Scene {
    /// The items with their roles, in painting order.
    pub fn placed(&self) -> impl Iterator<Item = (Role, &Item)> {
        let roles = self
            .roles
            .iter()
            .copied()
            .chain(std::iter::repeat(Role::Chrome));
        roles.zip(&self.items)
    }
}
