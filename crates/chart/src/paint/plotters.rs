//! The scene replayed onto a plotters drawing area: the one place that
//! talks to plotters. Coordinates are multiplied by the device scale and
//! rounded once, here.
//!
//! The whole scene is one plotters element, drawn with one
//! `DrawingArea::draw`: its `draw` gets the backend and calls it as
//! plotters' own elements would (`Rectangle`, `PathElement`, `Polygon`,
//! `Circle`, `Text`: the same calls, styles and points, each point shifted
//! to the area and truncated to it as `DrawingArea` does). One element
//! type instead of five, each with its own `DrawingArea::draw`, is less
//! code in the WebAssembly engine.

use std::f64::consts::TAU;
use std::ops::Range;

use ::plotters::coord::Shift;
use ::plotters::element::{Drawable, PointCollection};
use ::plotters::prelude::{DrawingArea, DrawingBackend};
use ::plotters::style::text_anchor::{HPos, Pos, VPos};
use ::plotters::style::{
    Color as _, FontDesc, FontFamily, FontStyle, FontTransform, RGBColor, ShapeStyle,
};
use plotters_backend::{BackendCoord, DrawingErrorKind};

use crate::draw::text::FONT_FAMILY;
use crate::draw::DrawError;
use crate::scene::{Align, Baseline, Color, Font, Item, Rect, Scene, Stroke, Weight};

/// Paints `scene` onto `area`; `scale` is device pixels per CSS pixel.
pub fn paint<DB: DrawingBackend>(
    scene: &Scene,
    area: &DrawingArea<DB, Shift>,
    scale: f64,
) -> Result<(), DrawError> {
    area.fill(&rgb(scene.background)).map_err(fail)?;
    let (x, y) = area.get_pixel_range();
    let replay = Replay {
        scene,
        scale: crate::draw::device_scale(scale),
        x,
        y,
    };
    area.draw(&replay).map_err(fail)
}

/// The scene as one plotters element, and where the area lies on the backend.
struct Replay<'a> {
    scene: &'a Scene,
    scale: f64,
    x: Range<i32>,
    y: Range<i32>,
}

/// No key points: the element places its own, from the scene.
impl<'a, 'b> PointCollection<'a, (i32, i32)> for &'a Replay<'b> {
    type Point = &'a (i32, i32);
    type IntoIter = std::iter::Empty<&'a (i32, i32)>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::empty()
    }
}

impl<DB: DrawingBackend> Drawable<DB> for Replay<'_> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        _: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        for item in &self.scene.items {
            self.item(item, backend)?;
        }
        Ok(())
    }
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

/// plotters' `Rectangle` element: corners ordered, no margin.
fn rectangle<DB: DrawingBackend>(
    backend: &mut DB,
    (a, b): (BackendCoord, BackendCoord),
    style: &ShapeStyle,
) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
    let upper_left = (a.0.min(b.0), a.1.min(b.1));
    let bottom_right = (a.0.max(b.0), a.1.max(b.1));
    backend.draw_rect(upper_left, bottom_right, style, style.filled)
}

impl Replay<'_> {
    /// A point of the scene on the backend: scaled, rounded, shifted to the
    /// area and truncated to it, as `DrawingArea` maps an element's points.
    fn at(&self, (x, y): (f64, f64)) -> BackendCoord {
        let shifted = |v: f64, range: &Range<i32>| {
            (round(v * self.scale) + range.start)
                .min(range.end)
                .max(range.start)
        };
        (shifted(x, &self.x), shifted(y, &self.y))
    }

    /// A pixel rectangle of the scene's device pixels on the backend.
    fn pixels(&self, (x0, y0, x1, y1): (i32, i32, i32, i32)) -> (BackendCoord, BackendCoord) {
        let place = |v: i32, range: &Range<i32>| (v + range.start).min(range.end).max(range.start);
        (
            (place(x0, &self.x), place(y0, &self.y)),
            (place(x1, &self.x), place(y1, &self.y)),
        )
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

    fn item<DB: DrawingBackend>(
        &self,
        item: &Item,
        backend: &mut DB,
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        match item {
            Item::Rect { rect, fill } => {
                let (x0, y0) = (round(rect.x * self.scale), round(rect.y * self.scale));
                let (x1, y1) = (
                    round(rect.right() * self.scale),
                    round(rect.bottom() * self.scale),
                );
                // A visible sliver rather than nothing for tiny non-zero values.
                let (x1, y1) = (x1.max(x0 + 1), y1.max(y0 + 1));
                rectangle(backend, self.pixels((x0, y0, x1, y1)), &rgb(*fill).filled())
            }
            Item::Outline { rect, stroke } => {
                rectangle(backend, self.corners(rect), &self.style(stroke))
            }
            Item::Path { points, stroke } => {
                if let Some(bar) = super::bar_pixels(points, stroke.width, self.scale) {
                    let fill = rgb(stroke.color).filled();
                    return rectangle(backend, self.pixels(bar), &fill);
                }
                backend.draw_path(points.iter().map(|&p| self.at(p)), &self.style(stroke))
            }
            Item::Polygon { points, fill } => backend.fill_polygon(
                points.iter().map(|&p| self.at(p)),
                &rgb(*fill).to_backend_color(),
            ),
            Item::Circle {
                center,
                radius,
                fill,
                stroke,
            } => {
                let (c, r) = (self.at(*center), self.radius_px(*radius));
                if let Some(fill) = fill {
                    backend.draw_circle(c, r, &rgb(*fill).filled(), true)?;
                }
                match stroke {
                    Some(stroke) => backend.draw_circle(c, r, &self.style(stroke), false),
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
                backend.fill_polygon(pts, &rgb(*fill).to_backend_color())
            }
            Item::Text {
                text,
                at,
                font,
                align,
                baseline,
                vertical,
            } => self.text(backend, text, *at, font, (*align, *baseline), *vertical),
        }
    }

    fn corners(&self, r: &Rect) -> (BackendCoord, BackendCoord) {
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

    fn text<DB: DrawingBackend>(
        &self,
        backend: &mut DB,
        content: &str,
        at: (f64, f64),
        font: &Font,
        (align, baseline): (Align, Baseline),
        vertical: bool,
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
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
        backend.draw_text(content, &text_style, self.at(at))
    }
}

#[cfg(test)]
mod tests {
    use ::plotters::prelude::{
        Circle, IntoDrawingArea, PathElement, Polygon, Rectangle, SVGBackend, Text,
    };

    use super::*;
    use crate::scene::Font;

    const INK: Color = Color(20, 40, 60);
    const PAPER: Color = Color(250, 250, 250);

    fn stroke(width: f64) -> Stroke {
        Stroke { color: INK, width }
    }

    fn text(content: &str, at: (f64, f64), vertical: bool) -> Item {
        Item::Text {
            text: content.into(),
            at,
            font: Font::new(12.0, Weight::Bold, INK),
            align: Align::Middle,
            baseline: Baseline::Top,
            vertical,
        }
    }

    /// Points beyond the area on purpose: the area truncates them.
    fn items() -> Vec<Item> {
        let rect = |x, y, w, h| Rect { x, y, w, h };
        vec![
            Item::Rect {
                rect: rect(5.0, 5.0, 30.0, 0.2),
                fill: INK,
            },
            Item::Outline {
                rect: rect(2.0, 3.0, 40.0, 20.0),
                stroke: stroke(2.0),
            },
            Item::Path {
                points: vec![(0.0, 0.0), (50.0, 40.0), (400.0, 10.0)],
                stroke: stroke(1.0),
            },
            Item::Path {
                points: vec![(10.0, 50.5), (60.0, 50.5)],
                stroke: stroke(1.0),
            },
            Item::Polygon {
                points: vec![(0.0, 0.0), (30.0, 0.0), (15.0, -25.0)],
                fill: INK,
            },
            Item::Circle {
                center: (70.0, 70.0),
                radius: 5.0,
                fill: Some(PAPER),
                stroke: Some(stroke(1.0)),
            },
            text("across", (40.0, 30.0), false),
            text("up", (90.0, 60.0), true),
        ]
    }

    /// The same items drawn with plotters' own elements, one `draw` each,
    /// as this painter did before it became one element.
    fn with_elements(area: &DrawingArea<SVGBackend<'_>, Shift>) {
        let ink = rgb(INK);
        let style = |width| ShapeStyle::from(ink).stroke_width(width);
        let font = |vertical| {
            let desc = FontDesc::new(FontFamily::Name(FONT_FAMILY), 12.0, FontStyle::Bold);
            let desc = if vertical {
                desc.transform(FontTransform::Rotate270)
            } else {
                desc
            };
            desc.color(&ink).pos(Pos::new(HPos::Center, VPos::Top))
        };
        let drawn = [
            area.fill(&rgb(PAPER)),
            area.draw(&Rectangle::new([(5, 5), (35, 6)], ink.filled())),
            area.draw(&Rectangle::new([(2, 3), (42, 23)], style(2))),
            area.draw(&PathElement::new(
                vec![(0, 0), (50, 40), (400, 10)],
                style(1),
            )),
            area.draw(&Rectangle::new([(10, 50), (60, 51)], ink.filled())),
            area.draw(&Polygon::new(
                vec![(0, 0), (30, 0), (15, -25)],
                ink.filled(),
            )),
            area.draw(&Circle::new((70, 70), 5, rgb(PAPER).filled())),
            area.draw(&Circle::new((70, 70), 5, style(1))),
            area.draw(&Text::new("across", (40, 30), font(false))),
            area.draw(&Text::new("up", (90, 60), font(true))),
        ];
        assert!(drawn.iter().all(Result::is_ok));
    }

    fn svg(draw: impl Fn(&DrawingArea<SVGBackend, Shift>)) -> String {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (120, 90)).into_drawing_area();
            // A sub-area: its points are shifted and truncated by the area.
            draw(&root.margin(10, 10, 20, 20));
        }
        out
    }

    #[test]
    fn one_element_draws_what_plotters_elements_drew() {
        let scene = Scene {
            width: 120.0,
            height: 90.0,
            background: PAPER,
            items: items(),
            ..Scene::default()
        };
        let ours = svg(|area| assert!(paint(&scene, area, 1.0).is_ok()));
        let theirs = svg(with_elements);
        assert!(ours.contains("<text"), "{ours}");
        assert_eq!(ours, theirs);
    }
}
