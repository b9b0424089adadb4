//! The scene replayed onto a plotters drawing area, through
//! [`super::pixels`]: the one place that talks to plotters. Native tests
//! replay scenes onto plotters' SVG backend with it.
//!
//! The whole scene is one plotters element, drawn with one
//! `DrawingArea::draw`: its `draw` gets the backend and calls it as
//! plotters' own elements would (`Rectangle`, `PathElement`, `Polygon`,
//! `Circle`, `Text`: the same calls, styles and points).

use ::plotters::coord::Shift;
use ::plotters::element::{Drawable, PointCollection};
use ::plotters::prelude::{DrawingArea, DrawingBackend};
use ::plotters::style::text_anchor::{HPos, Pos, VPos};
use ::plotters::style::{
    Color as _, FontDesc, FontFamily, FontStyle, FontTransform, RGBColor, ShapeStyle,
};
use plotters_backend::{BackendCoord, DrawingErrorKind};

use super::pixels::{self, Coord, DeviceFont, Paint, Pixels};
use super::PaintError;
use crate::scene::FONT_FAMILY;
use crate::scene::{Align, Baseline, Color, Scene};

/// Paints `scene` onto `area`; `scale` is device pixels per CSS pixel.
pub fn paint<DB: DrawingBackend>(
    scene: &Scene,
    area: &DrawingArea<DB, Shift>,
    scale: f64,
) -> Result<(), PaintError> {
    let (x, y) = area.get_pixel_range();
    let replay = Replay {
        scene,
        scale,
        bounds: (x.start, y.start, x.end, y.end),
    };
    area.draw(&replay).map_err(fail)
}

/// The scene as one plotters element.
struct Replay<'a> {
    scene: &'a Scene,
    scale: f64,
    bounds: (i32, i32, i32, i32),
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
        pixels::replay(self.scene, self.bounds, self.scale, &mut Backend(backend))
    }
}

/// A plotters backend as a [`Pixels`] surface.
struct Backend<'a, DB>(&'a mut DB);

fn rgb(c: Color) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

fn style(paint: Paint) -> ShapeStyle {
    match paint {
        Paint::Fill(color) => rgb(color).filled(),
        Paint::Stroke(color, width) => ShapeStyle::from(rgb(color)).stroke_width(width),
    }
}

impl<DB: DrawingBackend> Pixels for Backend<'_, DB> {
    type Error = DrawingErrorKind<DB::ErrorType>;

    fn rect(&mut self, from: Coord, to: Coord, paint: Paint) -> Result<(), Self::Error> {
        let style = style(paint);
        self.0.draw_rect(from, to, &style, style.filled)
    }

    fn path(&mut self, points: &[Coord], color: Color, width: u32) -> Result<(), Self::Error> {
        self.0
            .draw_path(points.iter().copied(), &style(Paint::Stroke(color, width)))
    }

    fn polygon(&mut self, points: &[Coord], color: Color) -> Result<(), Self::Error> {
        self.0
            .fill_polygon(points.iter().copied(), &rgb(color).to_backend_color())
    }

    fn circle(&mut self, center: Coord, radius: u32, paint: Paint) -> Result<(), Self::Error> {
        let style = style(paint);
        self.0.draw_circle(center, radius, &style, style.filled)
    }

    fn text(&mut self, text: &str, at: Coord, font: &DeviceFont) -> Result<(), Self::Error> {
        let weight = if font.bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        let h = match font.align {
            Align::Start => HPos::Left,
            Align::Middle => HPos::Center,
            Align::End => HPos::Right,
        };
        let v = match font.baseline {
            Baseline::Top => VPos::Top,
            Baseline::Middle => VPos::Center,
            Baseline::Bottom => VPos::Bottom,
        };
        let desc = FontDesc::new(FontFamily::Name(FONT_FAMILY), font.size, weight);
        let desc = if font.vertical {
            desc.transform(FontTransform::Rotate270)
        } else {
            desc
        };
        let text_style = desc.color(&rgb(font.color)).pos(Pos::new(h, v));
        self.0.draw_text(text, &text_style, at)
    }
}

fn fail<E: std::fmt::Display>(error: E) -> PaintError {
    PaintError::Backend(error.to_string())
}

#[cfg(test)]
mod tests {
    use ::plotters::prelude::{
        Circle, IntoDrawingArea, PathElement, Polygon, Rectangle, SVGBackend, Text,
    };

    use super::*;
    use crate::scene::Font;
    use crate::scene::{Item, Rect, Stroke, Weight};

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
