//! The scene replayed onto a plotters drawing area: the one place that
//! talks to plotters. Coordinates are multiplied by the device scale and
//! rounded once, here.

use std::f64::consts::TAU;

use ::plotters::coord::Shift;
use ::plotters::prelude::{
    Circle, DrawingArea, DrawingBackend, PathElement, Polygon, Rectangle, Text,
};
use ::plotters::style::text_anchor::{HPos, Pos, VPos};
use ::plotters::style::{
    Color as _, FontDesc, FontFamily, FontStyle, FontTransform, RGBColor, ShapeStyle,
};

use crate::draw::text::FONT_FAMILY;
use crate::draw::DrawError;
use crate::scene::{Align, Baseline, Color, Font, Item, Rect, Scene, Stroke, Weight};

/// Paints `scene` onto `area`; `scale` is device pixels per CSS pixel.
pub fn paint<DB: DrawingBackend>(
    scene: &Scene,
    area: &DrawingArea<DB, Shift>,
    scale: f64,
) -> Result<(), DrawError> {
    let replay = Replay {
        area,
        scale: crate::draw::device_scale(scale),
    };
    area.fill(&rgb(scene.background)).map_err(fail)?;
    for item in &scene.items {
        replay.item(item)?;
    }
    Ok(())
}

struct Replay<'a, DB: DrawingBackend> {
    area: &'a DrawingArea<DB, Shift>,
    scale: f64,
}

fn rgb(c: Color) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

fn fail<E: std::fmt::Display>(error: E) -> DrawError {
    DrawError::Backend(error.to_string())
}

fn round(v: f64) -> i32 {
    if v.is_finite() {
        v.round().clamp(-1.0e6, 1.0e6) as i32
    } else {
        0
    }
}

impl<DB: DrawingBackend> Replay<'_, DB> {
    fn at(&self, (x, y): (f64, f64)) -> (i32, i32) {
        (round(x * self.scale), round(y * self.scale))
    }

    fn stroke_px(&self, width: f64) -> u32 {
        (width * self.scale).round().clamp(1.0, 64.0) as u32
    }

    fn radius_px(&self, radius: f64) -> u32 {
        (radius * self.scale).round().clamp(1.0, 1000.0) as u32
    }

    fn style(&self, stroke: &Stroke) -> ShapeStyle {
        ShapeStyle::from(rgb(stroke.color)).stroke_width(self.stroke_px(stroke.width))
    }

    fn item(&self, item: &Item) -> Result<(), DrawError> {
        let area = self.area;
        match item {
            Item::Rect { rect, fill } => {
                let (x0, y0) = self.at((rect.x, rect.y));
                let (x1, y1) = self.at((rect.right(), rect.bottom()));
                // A visible sliver rather than nothing for tiny non-zero values.
                let (x1, y1) = (x1.max(x0 + 1), y1.max(y0 + 1));
                area.draw(&Rectangle::new([(x0, y0), (x1, y1)], rgb(*fill).filled()))
            }
            Item::Outline { rect, stroke } => {
                let (x0, x1) = self.corners(rect);
                area.draw(&Rectangle::new([x0, x1], self.style(stroke)))
            }
            Item::Path { points, stroke } => {
                if let Some((x0, y0, x1, y1)) = super::bar_pixels(points, stroke.width, self.scale)
                {
                    let fill = rgb(stroke.color).filled();
                    return area
                        .draw(&Rectangle::new([(x0, y0), (x1, y1)], fill))
                        .map_err(fail);
                }
                let pts: Vec<(i32, i32)> = points.iter().map(|&p| self.at(p)).collect();
                area.draw(&PathElement::new(pts, self.style(stroke)))
            }
            Item::Polygon { points, fill } => {
                let pts: Vec<(i32, i32)> = points.iter().map(|&p| self.at(p)).collect();
                area.draw(&Polygon::new(pts, rgb(*fill).filled()))
            }
            Item::Circle {
                center,
                radius,
                fill,
                stroke,
            } => {
                let (c, r) = (self.at(*center), self.radius_px(*radius));
                if let Some(fill) = fill {
                    area.draw(&Circle::new(c, r, rgb(*fill).filled()))
                        .map_err(fail)?;
                }
                match stroke {
                    Some(stroke) => area.draw(&Circle::new(c, r, self.style(stroke))),
                    None => Ok(()),
                }
            }
            Item::Sector {
                center,
                outer,
                inner,
                start,
                end,
                fill,
            } => {
                let pts = self.sector(*center, *inner, *outer, *start, *end);
                area.draw(&Polygon::new(pts, rgb(*fill).filled()))
            }
            Item::Text {
                text,
                at,
                font,
                align,
                baseline,
                vertical,
            } => return self.text(text, *at, font, *align, *baseline, *vertical),
        }
        .map_err(fail)
    }

    fn corners(&self, r: &Rect) -> ((i32, i32), (i32, i32)) {
        (self.at((r.x, r.y)), self.at((r.right(), r.bottom())))
    }

    /// The sector as a polygon whose edges stray at most a quarter of a
    /// device pixel from the true arc: round to the eye at this scale.
    fn sector(
        &self,
        (cx, cy): (f64, f64),
        inner: f64,
        outer: f64,
        start: f64,
        end: f64,
    ) -> Vec<(i32, i32)> {
        let sweep = (end - start).clamp(0.0, TAU);
        let steps = |r: f64| {
            let r = (r * self.scale).max(1.0);
            // The angle whose chord lies a quarter pixel inside the arc.
            let step = 2.0 * crate::math::acos((1.0 - 0.25 / r).max(-1.0));
            ((sweep / step.max(1e-3)).ceil() as usize).clamp(2, 720)
        };
        // Scene angles count clockwise from twelve o'clock.
        let on =
            |r: f64, a: f64| self.at((cx + r * crate::math::sin(a), cy - r * crate::math::cos(a)));
        let n = steps(outer);
        let mut pts: Vec<(i32, i32)> = (0..=n)
            .map(|k| on(outer, start + sweep * k as f64 / n as f64))
            .collect();
        if inner > 0.0 {
            let m = steps(inner);
            pts.extend(
                (0..=m)
                    .rev()
                    .map(|k| on(inner, start + sweep * k as f64 / m as f64)),
            );
        } else {
            pts.push(self.at((cx, cy)));
        }
        pts
    }

    fn text(
        &self,
        content: &str,
        at: (f64, f64),
        font: &Font,
        align: Align,
        baseline: Baseline,
        vertical: bool,
    ) -> Result<(), DrawError> {
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
        // The canvas backend sets the font at the size given, in pixels (only
        // plotters' SVG backend divides by 1.24), so the scene's CSS size
        // times the device scale is the canvas size: the canvas and the SVG
        // writer then draw text alike (tests/e2e/agreement.test.mjs).
        let desc = FontDesc::new(FontFamily::Name(FONT_FAMILY), font.size * self.scale, style);
        let desc = if vertical {
            desc.transform(FontTransform::Rotate270)
        } else {
            desc
        };
        let text_style = desc.color(&rgb(font.color)).pos(Pos::new(h, v));
        self.area
            .draw(&Text::new(content, self.at(at), text_style))
            .map_err(fail)
    }
}
