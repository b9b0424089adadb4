//! The scene in device pixels, for any raster surface: each item's points
//! multiplied by the device scale and rounded once, here, then handed to a
//! [`Pixels`] surface, which only draws.
//!
//! Two surfaces implement it: plotters' backends ([`super::plotters`], what
//! the native tests replay onto) and the widget's canvas (in the engine,
//! without plotters: its drawing area, styles and text descriptions were
//! about 1.5 KB of the compressed engine). Both get the same calls with the
//! same coordinates as plotters' own elements made, so the canvas and the
//! SVG writer agree pixel for pixel (tests/e2e/agreement.test.mjs).

use std::f64::consts::TAU;

use crate::scene::{Align, Baseline, Color, Font, Item, Rect, Scene, Weight};

/// A point in device pixels.
pub type Coord = (i32, i32);

/// How a rectangle or circle is painted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Paint {
    Fill(Color),
    /// An outline of this many device pixels.
    Stroke(Color, u32),
}

/// A text's style in device pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeviceFont {
    /// Device pixels.
    pub size: f64,
    pub bold: bool,
    pub color: Color,
    pub align: Align,
    pub baseline: Baseline,
    /// Turned a quarter to the left, reading bottom to top.
    pub vertical: bool,
}

/// What a raster surface draws.
pub trait Pixels {
    type Error;
    /// The rectangle between two corners, top-left first.
    fn rect(&mut self, from: Coord, to: Coord, paint: Paint) -> Result<(), Self::Error>;
    /// An open polyline (not empty).
    fn path(&mut self, points: &[Coord], color: Color, width: u32) -> Result<(), Self::Error>;
    /// A filled polygon (not empty).
    fn polygon(&mut self, points: &[Coord], color: Color) -> Result<(), Self::Error>;
    fn circle(&mut self, center: Coord, radius: u32, paint: Paint) -> Result<(), Self::Error>;
    fn text(&mut self, text: &str, at: Coord, font: &DeviceFont) -> Result<(), Self::Error>;
}

/// Paints `scene` onto the part `(x0, y0)..(x1, y1)` of `out` (device
/// pixels; the whole surface for the canvas); `scale` is device pixels per
/// CSS pixel.
pub fn replay<P: Pixels + ?Sized>(
    scene: &Scene,
    (x0, y0, x1, y1): (i32, i32, i32, i32),
    scale: f64,
    out: &mut P,
) -> Result<(), P::Error> {
    out.rect((x0, y0), (x1, y1), Paint::Fill(scene.background))?;
    let device = Device {
        scale: crate::scene::device_scale(scale),
        x: (x0, x1),
        y: (y0, y1),
    };
    for item in &scene.items {
        device.item(item, out)?;
    }
    Ok(())
}

fn round(v: f64) -> i32 {
    if v.is_finite() {
        v.round().clamp(-1.0e6, 1.0e6) as i32
    } else {
        0
    }
}

struct Device {
    scale: f64,
    /// The part of the surface drawn on: start and end, across and down.
    x: (i32, i32),
    y: (i32, i32),
}

/// `v` moved to the part starting at `start` and kept within it.
fn place(v: i32, (start, end): (i32, i32)) -> i32 {
    v.saturating_add(start).min(end).max(start)
}

impl Device {
    /// A point of the scene: scaled, rounded and kept on the surface (as
    /// plotters' drawing area truncates an element's points).
    fn at(&self, (x, y): (f64, f64)) -> Coord {
        (
            place(round(x * self.scale), self.x),
            place(round(y * self.scale), self.y),
        )
    }

    /// Device pixels `(x0, y0, x1, y1)` of the scene, on the surface, as corners.
    fn pixels(&self, (x0, y0, x1, y1): (i32, i32, i32, i32)) -> (Coord, Coord) {
        (
            (place(x0, self.x), place(y0, self.y)),
            (place(x1, self.x), place(y1, self.y)),
        )
    }

    fn stroke_px(&self, width: f64) -> u32 {
        (width * self.scale).round().clamp(1.0, 64.0) as u32
    }

    fn item<P: Pixels + ?Sized>(&self, item: &Item, out: &mut P) -> Result<(), P::Error> {
        match item {
            Item::Rect { rect: r, fill } => {
                let (x0, y0) = (round(r.x * self.scale), round(r.y * self.scale));
                let (x1, y1) = (
                    round(r.right() * self.scale),
                    round(r.bottom() * self.scale),
                );
                // A visible sliver rather than nothing for tiny non-zero values.
                let (a, b) = self.pixels((x0, y0, x1.max(x0 + 1), y1.max(y0 + 1)));
                rect(out, a, b, Paint::Fill(*fill))
            }
            Item::Outline { rect: r, stroke } => {
                let (a, b) = self.corners(r);
                rect(
                    out,
                    a,
                    b,
                    Paint::Stroke(stroke.color, self.stroke_px(stroke.width)),
                )
            }
            Item::Path { points, stroke } => {
                if let Some(bar) = super::bar_pixels(points, stroke.width, self.scale) {
                    let (a, b) = self.pixels(bar);
                    return rect(out, a, b, Paint::Fill(stroke.color));
                }
                let points: Vec<Coord> = points.iter().map(|&p| self.at(p)).collect();
                if points.is_empty() {
                    return Ok(());
                }
                out.path(&points, stroke.color, self.stroke_px(stroke.width))
            }
            Item::Polygon { points, fill } => {
                let points: Vec<Coord> = points.iter().map(|&p| self.at(p)).collect();
                if points.is_empty() {
                    return Ok(());
                }
                out.polygon(&points, *fill)
            }
            Item::Circle {
                center,
                radius,
                fill,
                stroke,
            } => {
                let c = self.at(*center);
                let r = (radius * self.scale).round().clamp(1.0, 1000.0) as u32;
                if let Some(fill) = fill {
                    out.circle(c, r, Paint::Fill(*fill))?;
                }
                match stroke {
                    Some(s) => out.circle(c, r, Paint::Stroke(s.color, self.stroke_px(s.width))),
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
            } => out.polygon(&self.sector(*center, *inner, *outer, *start, *end), *fill),
            Item::Text {
                text,
                at,
                font,
                align,
                baseline,
                vertical,
            } => out.text(
                text,
                self.at(*at),
                &self.font(font, *align, *baseline, *vertical),
            ),
        }
    }

    fn corners(&self, r: &Rect) -> (Coord, Coord) {
        (self.at((r.x, r.y)), self.at((r.right(), r.bottom())))
    }

    /// The scene's CSS size times the device scale: the canvas sets the
    /// font at the size given, in pixels, as the SVG writer writes it.
    fn font(&self, font: &Font, align: Align, baseline: Baseline, vertical: bool) -> DeviceFont {
        DeviceFont {
            size: font.size * self.scale,
            bold: font.weight == Weight::Bold,
            color: font.color,
            align,
            baseline,
            vertical,
        }
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
    ) -> Vec<Coord> {
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
        let mut pts: Vec<Coord> = (0..=n)
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
}

/// plotters' `Rectangle` element: corners ordered.
fn rect<P: Pixels + ?Sized>(out: &mut P, a: Coord, b: Coord, paint: Paint) -> Result<(), P::Error> {
    out.rect(
        (a.0.min(b.0), a.1.min(b.1)),
        (a.0.max(b.0), a.1.max(b.1)),
        paint,
    )
}
