//! The one place that talks to plotters: shapes in floating-point pixel
//! coordinates, rounded once, with sizes multiplied by the device scale.

use plotters::coord::Shift;
use plotters::prelude::{
    Circle, DrawingArea, DrawingBackend, PathElement, Polygon, Rectangle, Text,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{
    Color, FontDesc, FontFamily, FontStyle, FontTransform, RGBColor, ShapeStyle,
};

use super::text::{Weight, FONT_FAMILY};
use super::DrawError;

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

/// How a piece of text is set.
#[derive(Debug, Clone, Copy)]
pub struct Font {
    /// Size in CSS pixels, before the device scale.
    pub size: f64,
    pub weight: Weight,
    pub color: RGBColor,
}

impl Font {
    pub fn new(size: f64, weight: Weight, color: RGBColor) -> Font {
        Font {
            size,
            weight,
            color,
        }
    }
}

pub struct Painter<'a, DB: DrawingBackend> {
    area: &'a DrawingArea<DB, Shift>,
    /// Device pixels per CSS pixel.
    pub scale: f64,
    /// The drawing's size in CSS pixels.
    pub width: f64,
    pub height: f64,
}

fn point(x: f64, y: f64) -> (i32, i32) {
    (round(x), round(y))
}

fn round(v: f64) -> i32 {
    if v.is_finite() {
        v.round().clamp(-1.0e6, 1.0e6) as i32
    } else {
        0
    }
}

impl<'a, DB: DrawingBackend> Painter<'a, DB> {
    pub fn new(area: &'a DrawingArea<DB, Shift>, scale: f64) -> Painter<'a, DB> {
        let scale = if scale.is_finite() && scale > 0.0 {
            scale.clamp(0.25, 8.0)
        } else {
            1.0
        };
        let (w, h) = area.dim_in_pixel();
        Painter {
            area,
            scale,
            width: f64::from(w) / scale,
            height: f64::from(h) / scale,
        }
    }

    fn at(&self, x: f64, y: f64) -> (i32, i32) {
        point(x * self.scale, y * self.scale)
    }

    fn stroke_px(&self, width: f64) -> u32 {
        (width * self.scale).round().clamp(1.0, 64.0) as u32
    }

    fn fail<E: std::fmt::Debug>(error: E) -> DrawError {
        DrawError::Backend(format!("{error:?}"))
    }

    pub fn fill(&self, color: RGBColor) -> Result<(), DrawError> {
        self.area.fill(&color).map_err(Self::fail)
    }

    pub fn rect(&self, r: Rect, color: RGBColor) -> Result<(), DrawError> {
        if r.w <= 0.0 || r.h <= 0.0 {
            return Ok(());
        }
        let (x0, y0) = self.at(r.x, r.y);
        let (x1, y1) = self.at(r.right(), r.bottom());
        // A visible sliver rather than nothing for tiny non-zero values.
        let (x1, y1) = (x1.max(x0 + 1), y1.max(y0 + 1));
        self.area
            .draw(&Rectangle::new([(x0, y0), (x1, y1)], color.filled()))
            .map_err(Self::fail)
    }

    pub fn outline(&self, r: Rect, color: RGBColor, width: f64) -> Result<(), DrawError> {
        let (x0, y0) = self.at(r.x, r.y);
        let (x1, y1) = self.at(r.right(), r.bottom());
        let style = ShapeStyle::from(color).stroke_width(self.stroke_px(width));
        self.area
            .draw(&Rectangle::new([(x0, y0), (x1, y1)], style))
            .map_err(Self::fail)
    }

    pub fn line(
        &self,
        points: &[(f64, f64)],
        color: RGBColor,
        width: f64,
    ) -> Result<(), DrawError> {
        if points.len() < 2 {
            return Ok(());
        }
        let pts: Vec<(i32, i32)> = points.iter().map(|&(x, y)| self.at(x, y)).collect();
        let style = ShapeStyle::from(color).stroke_width(self.stroke_px(width));
        self.area
            .draw(&PathElement::new(pts, style))
            .map_err(Self::fail)
    }

    pub fn polygon(&self, points: &[(f64, f64)], color: RGBColor) -> Result<(), DrawError> {
        if points.len() < 3 {
            return Ok(());
        }
        let pts: Vec<(i32, i32)> = points.iter().map(|&(x, y)| self.at(x, y)).collect();
        self.area
            .draw(&Polygon::new(pts, color.filled()))
            .map_err(Self::fail)
    }

    pub fn circle(
        &self,
        (x, y): (f64, f64),
        radius: f64,
        color: RGBColor,
    ) -> Result<(), DrawError> {
        let r = (radius * self.scale).round().clamp(1.0, 1000.0) as u32;
        self.area
            .draw(&Circle::new(self.at(x, y), r, color.filled()))
            .map_err(Self::fail)
    }

    pub fn ring(
        &self,
        (x, y): (f64, f64),
        radius: f64,
        color: RGBColor,
        width: f64,
    ) -> Result<(), DrawError> {
        let r = (radius * self.scale).round().clamp(1.0, 1000.0) as u32;
        let style = ShapeStyle::from(color).stroke_width(self.stroke_px(width));
        self.area
            .draw(&Circle::new(self.at(x, y), r, style))
            .map_err(Self::fail)
    }

    /// Text at (x, y); `vertical` turns it to read bottom to top.
    pub fn text(
        &self,
        content: &str,
        (x, y): (f64, f64),
        font: Font,
        align: Align,
        baseline: Baseline,
    ) -> Result<(), DrawError> {
        self.text_turned(content, (x, y), font, align, baseline, false)
    }

    pub fn text_turned(
        &self,
        content: &str,
        (x, y): (f64, f64),
        font: Font,
        align: Align,
        baseline: Baseline,
        vertical: bool,
    ) -> Result<(), DrawError> {
        if content.is_empty() {
            return Ok(());
        }
        let style = match font.weight {
            Weight::Regular => FontStyle::Normal,
            Weight::Bold => FontStyle::Bold,
        };
        let h = match align {
            Align::Start => HPos::Left,
            Align::Middle => HPos::Center,
            Align::End => HPos::Right,
        };
        let v = match baseline {
            Baseline::Top => VPos::Top,
            Baseline::Middle => VPos::Center,
            Baseline::Bottom => VPos::Bottom,
        };
        // plotters sets SVG and canvas fonts at size / 1.24.
        let desc = FontDesc::new(
            FontFamily::Name(FONT_FAMILY),
            font.size * self.scale * 1.24,
            style,
        );
        let desc = if vertical {
            desc.transform(FontTransform::Rotate270)
        } else {
            desc
        };
        let text_style = desc.color(&font.color).pos(Pos::new(h, v));
        self.area
            .draw(&Text::new(content, self.at(x, y), text_style))
            .map_err(Self::fail)
    }
}
