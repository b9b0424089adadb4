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
///
/// The context's state is set only when it changes: each setter is a call
/// out of the module with a string the browser parses (a font shorthand
/// costs a font lookup), and a card's texts and marks mostly repeat it.
pub struct CanvasBackend {
    context: CanvasRenderingContext2d,
    fill: Option<Color>,
    stroke: Option<(Color, u32)>,
    /// Bold, the size's bits, the family being fixed.
    font: Option<(bool, u64)>,
    align: Option<Align>,
    baseline: Option<Baseline>,
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
        Some(CanvasBackend {
            context,
            fill: None,
            stroke: None,
            font: None,
            align: None,
            baseline: None,
        })
    }

    fn set_stroke(&mut self, color: Color, width: u32) {
        if self.stroke != Some((color, width)) {
            self.context.set_stroke_style_str(&css_color(color));
            self.context.set_line_width(f64::from(width));
            self.stroke = Some((color, width));
        }
    }

    fn set_fill(&mut self, color: Color) {
        if self.fill != Some(color) {
            self.context.set_fill_style_str(&css_color(color));
            self.fill = Some(color);
        }
    }

    fn set_text(&mut self, font: &DeviceFont) {
        if self.baseline != Some(font.baseline) {
            self.context.set_text_baseline(match font.baseline {
                Baseline::Top => "top",
                Baseline::Middle => "middle",
                Baseline::Bottom => "bottom",
            });
            self.baseline = Some(font.baseline);
        }
        if self.align != Some(font.align) {
            self.context.set_text_align(match font.align {
                Align::Start => "start",
                Align::End => "end",
                Align::Middle => "center",
            });
            self.align = Some(font.align);
        }
        self.set_fill(font.color);
        let key = (font.bold, font.size.to_bits());
        if self.font != Some(key) {
            let weight = if font.bold { "bold" } else { "normal" };
            self.context
                .set_font(&css_font(weight, font.size, FONT_FAMILY));
            self.font = Some(key);
        }
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
        self.set_text(font);
        if font.vertical {
            // A translation and a rotation only: restored by their inverses,
            // not save()/restore(), which would also restore the state
            // cached above.
            let (x, y) = (f64::from(x), f64::from(y));
            self.context.translate(x, y).map_err(thrown)?;
            self.context.rotate(-PI / 2.0).map_err(thrown)?;
            let drawn = self.context.fill_text(text, 0.0, 0.0).map_err(thrown);
            self.context
                .set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
                .map_err(thrown)?;
            drawn?;
        } else {
            self.context
                .fill_text(text, f64::from(x), f64::from(y))
                .map_err(thrown)?;
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
