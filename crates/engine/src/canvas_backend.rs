//! The canvas the scene is replayed onto ([`zdr_chart::paint::pixels`]):
//! a canvas 2D context, without plotters.
//!
//! It draws what plotters-canvas 0.3 drew, call for call (line widths,
//! text anchors, how polygons, paths and circles are filled or stroked), so
//! the canvas and the SVG writer still agree pixel for pixel
//! (tests/e2e/agreement.test.mjs). Colours go to the context as `#rrggbb`
//! and font sizes through [`zdr_chart::scale::shortest::plain`]: no float
//! formatting in the module (core's is about 20 KB).

use std::f64::consts::PI;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use zdr_chart::paint::pixels::{Coord, DeviceFont, Paint, Pixels};
use zdr_chart::scale::shortest::plain;
use zdr_chart::scene::FONT_FAMILY;
use zdr_chart::scene::{Align, Baseline, Color};

/// Draws on the 2D context of one canvas.
pub struct CanvasBackend {
    context: CanvasRenderingContext2d,
}

/// A canvas call that threw, as the browser described it.
#[derive(Debug, thiserror::Error)]
#[error("the canvas refused to draw: {0}")]
pub struct CanvasError(String);

fn thrown(error: JsValue) -> CanvasError {
    CanvasError(zdr_protocol::text::describe_thrown(&error))
}

impl CanvasBackend {
    /// `None` when the canvas gives no 2D context (too large, or out of memory).
    pub fn new(canvas: &HtmlCanvasElement) -> Option<Self> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        Some(CanvasBackend { context })
    }

    fn set_stroke(&self, color: Color, width: u32) {
        self.context.set_stroke_style_str(&css_color(color));
        self.context.set_line_width(f64::from(width));
    }

    fn set_fill(&self, color: Color) {
        self.context.set_fill_style_str(&css_color(color));
    }

    /// A path through `points` from its first one.
    fn trace(&self, points: &[Coord]) {
        for (i, &(x, y)) in points.iter().enumerate() {
            if i == 0 {
                self.context.move_to(f64::from(x), f64::from(y));
            } else {
                self.context.line_to(f64::from(x), f64::from(y));
            }
        }
    }
}

/// `#rrggbb`.
pub fn css_color(Color(r, g, b): Color) -> String {
    let mut out = String::with_capacity(7);
    out.push('#');
    for byte in [r, g, b] {
        for nibble in [byte >> 4, byte & 0xf] {
            out.push(char::from(b"0123456789abcdef"[usize::from(nibble)]));
        }
    }
    out
}

/// The canvas `font` shorthand: `"bold 16.5px Inter"`.
pub fn css_font(style: &str, size: f64, family: &str) -> String {
    [style, " ", &plain(size), "px ", family].concat()
}

impl Pixels for CanvasBackend {
    type Error = CanvasError;

    fn rect(&mut self, (x0, y0): Coord, (x1, y1): Coord, paint: Paint) -> Result<(), CanvasError> {
        let (x, y) = (f64::from(x0), f64::from(y0));
        let (w, h) = (f64::from(x1 - x0), f64::from(y1 - y0));
        match paint {
            Paint::Fill(color) => {
                self.set_fill(color);
                self.context.fill_rect(x, y, w, h);
            }
            Paint::Stroke(color, width) => {
                self.set_stroke(color, width);
                self.context.stroke_rect(x, y, w, h);
            }
        }
        Ok(())
    }

    fn path(&mut self, points: &[Coord], color: Color, width: u32) -> Result<(), CanvasError> {
        self.context.begin_path();
        self.set_stroke(color, width);
        self.trace(points);
        self.context.stroke();
        Ok(())
    }

    fn polygon(&mut self, points: &[Coord], color: Color) -> Result<(), CanvasError> {
        self.context.begin_path();
        self.set_fill(color);
        self.trace(points);
        self.context.close_path();
        self.context.fill();
        Ok(())
    }

    fn circle(&mut self, (x, y): Coord, radius: u32, paint: Paint) -> Result<(), CanvasError> {
        match paint {
            Paint::Fill(color) => self.set_fill(color),
            Paint::Stroke(color, width) => self.set_stroke(color, width),
        }
        self.context.begin_path();
        self.context
            .arc(f64::from(x), f64::from(y), f64::from(radius), 0.0, PI * 2.0)
            .map_err(thrown)?;
        match paint {
            Paint::Fill(_) => self.context.fill(),
            Paint::Stroke(..) => self.context.stroke(),
        }
        Ok(())
    }

    fn text(&mut self, text: &str, (x, y): Coord, font: &DeviceFont) -> Result<(), CanvasError> {
        let (x, y) = if font.vertical {
            self.context.save();
            self.context
                .translate(f64::from(x), f64::from(y))
                .map_err(thrown)?;
            self.context.rotate(270.0 / 180.0 * PI).map_err(thrown)?;
            (0.0, 0.0)
        } else {
            (f64::from(x), f64::from(y))
        };
        self.context.set_text_baseline(match font.baseline {
            Baseline::Top => "top",
            Baseline::Middle => "middle",
            Baseline::Bottom => "bottom",
        });
        self.context.set_text_align(match font.align {
            Align::Start => "start",
            Align::End => "end",
            Align::Middle => "center",
        });
        self.set_fill(font.color);
        let weight = if font.bold { "bold" } else { "normal" };
        self.context
            .set_font(&css_font(weight, font.size, FONT_FAMILY));
        self.context.fill_text(text, x, y).map_err(thrown)?;
        if font.vertical {
            self.context.restore();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_hex() {
        assert_eq!(css_color(Color(0, 0, 0)), "#000000");
        assert_eq!(css_color(Color(255, 255, 255)), "#ffffff");
        assert_eq!(css_color(Color(0x1f, 0x77, 0xb4)), "#1f77b4");
        assert_eq!(css_color(Color(10, 160, 5)), "#0aa005");
    }

    #[test]
    fn font_sizes_are_written_as_before() {
        for (size, scale) in [(12.0, 1.0), (12.0, 1.25), (13.0, 1.1), (11.0, 2.0 / 3.0)] {
            let px = size * scale;
            assert_eq!(
                css_font("bold", px, "Inter, sans-serif"),
                format!("bold {px}px Inter, sans-serif")
            );
        }
        assert_eq!(css_font("normal", 16.5, "x"), "normal 16.5px x");
        assert_eq!(css_font("normal", 12.0, "x"), "normal 12px x");
    }
}
