//! The plotters backend the scene is replayed onto: a canvas 2D context.
//!
//! It draws what plotters-canvas 0.3 drew, call for call (line widths,
//! half-pixel offsets of straight lines, text anchors, how polygons, paths
//! and circles are filled or stroked), so the canvas and the SVG writer
//! still agree pixel for pixel (tests/e2e/agreement.test.mjs). What differs
//! is the text handed to the context: colours as `#rrggbb` and font sizes
//! through [`zdr_chart::scale::shortest::plain`], where plotters-canvas
//! wrote `format!("rgba({},{},{},{})")` and `format!("{}px")` with floats,
//! which linked core's float formatting (about 20 KB) into the module.

use std::f64::consts::PI;

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use zdr_chart::scale::shortest::plain;

/// Draws on the 2D context of one canvas.
pub struct CanvasBackend {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
}

/// A canvas call that threw, as the browser described it.
#[derive(Debug, thiserror::Error)]
#[error("the canvas refused to draw: {0}")]
pub struct CanvasError(String);

type Failure = DrawingErrorKind<CanvasError>;

fn thrown(error: JsValue) -> Failure {
    DrawingErrorKind::DrawingError(CanvasError(zdr_protocol::text::describe_thrown(&error)))
}

impl CanvasBackend {
    /// `None` when the canvas gives no 2D context (too large, or out of memory).
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        Some(CanvasBackend { canvas, context })
    }

    fn set_line_style(&self, style: &impl BackendStyle) {
        self.context.set_stroke_style_str(&css_color(style.color()));
        self.context.set_line_width(f64::from(style.stroke_width()));
    }

    fn set_fill(&self, color: BackendColor) {
        self.context.set_fill_style_str(&css_color(color));
    }

    /// A path through `points` from its first one; nothing for no points.
    fn trace(&self, points: impl IntoIterator<Item = BackendCoord>) -> bool {
        let mut points = points.into_iter();
        let Some((x, y)) = points.next() else {
            return false;
        };
        self.context.move_to(f64::from(x), f64::from(y));
        for (x, y) in points {
            self.context.line_to(f64::from(x), f64::from(y));
        }
        true
    }
}

/// `#rrggbb` for an opaque colour, else `rgba(r,g,b,alpha)` with the alpha
/// written as `{}` writes it: the same colour plotters-canvas asked for.
pub fn css_color(color: BackendColor) -> String {
    let (r, g, b) = color.rgb;
    if color.alpha == 1.0 {
        let mut out = String::with_capacity(7);
        out.push('#');
        for byte in [r, g, b] {
            for nibble in [byte >> 4, byte & 0xf] {
                out.push(char::from(b"0123456789abcdef"[usize::from(nibble)]));
            }
        }
        return out;
    }
    format!("rgba({r},{g},{b},{})", plain(color.alpha))
}

/// The canvas `font` shorthand: `"bold 16.5px Inter"`.
pub fn css_font(style: &str, size: f64, family: &str) -> String {
    format!("{style} {}px {family}", plain(size))
}

fn transparent(color: BackendColor) -> bool {
    color.alpha == 0.0
}

impl DrawingBackend for CanvasBackend {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        (self.canvas.width(), self.canvas.height())
    }

    fn ensure_prepared(&mut self) -> Result<(), Failure> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), Failure> {
        Ok(())
    }

    fn draw_pixel(&mut self, (x, y): BackendCoord, color: BackendColor) -> Result<(), Failure> {
        if !transparent(color) {
            self.set_fill(color);
            self.context.fill_rect(f64::from(x), f64::from(y), 1.0, 1.0);
        }
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), Failure> {
        if transparent(style.color()) {
            return Ok(());
        }
        let (from, to) = crisp_line(from, to);
        self.set_line_style(style);
        self.context.begin_path();
        self.context.move_to(from.0, from.1);
        self.context.line_to(to.0, to.1);
        self.context.stroke();
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        (x0, y0): BackendCoord,
        (x1, y1): BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Failure> {
        if transparent(style.color()) {
            return Ok(());
        }
        let (x, y) = (f64::from(x0), f64::from(y0));
        let (w, h) = (f64::from(x1 - x0), f64::from(y1 - y0));
        if fill {
            self.set_fill(style.color());
            self.context.fill_rect(x, y, w, h);
        } else {
            self.set_line_style(style);
            self.context.stroke_rect(x, y, w, h);
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Failure> {
        if transparent(style.color()) {
            return Ok(());
        }
        self.context.begin_path();
        // As plotters-canvas: the stroke style is set only for a non-empty path.
        let mut path = path.into_iter().peekable();
        if path.peek().is_some() {
            self.set_line_style(style);
        }
        self.trace(path);
        self.context.stroke();
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Failure> {
        if transparent(style.color()) {
            return Ok(());
        }
        self.context.begin_path();
        let mut path = path.into_iter().peekable();
        if path.peek().is_some() {
            self.set_fill(style.color());
        }
        if self.trace(path) {
            self.context.close_path();
        }
        self.context.fill();
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        (x, y): BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Failure> {
        if transparent(style.color()) {
            return Ok(());
        }
        if fill {
            self.set_fill(style.color());
        } else {
            self.set_line_style(style);
        }
        self.context.begin_path();
        self.context
            .arc(f64::from(x), f64::from(y), f64::from(radius), 0.0, PI * 2.0)
            .map_err(thrown)?;
        if fill {
            self.context.fill();
        } else {
            self.context.stroke();
        }
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        (x, y): BackendCoord,
    ) -> Result<(), Failure> {
        let color = style.color();
        if transparent(color) {
            return Ok(());
        }
        let degrees = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 90.0,
            FontTransform::Rotate180 => 180.0,
            FontTransform::Rotate270 => 270.0,
        };
        let rotated = degrees != 0.0;
        let (x, y) = if rotated {
            self.context.save();
            self.context
                .translate(f64::from(x), f64::from(y))
                .map_err(thrown)?;
            self.context.rotate(degrees / 180.0 * PI).map_err(thrown)?;
            (0.0, 0.0)
        } else {
            (f64::from(x), f64::from(y))
        };
        let anchor = style.anchor();
        self.context.set_text_baseline(match anchor.v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        });
        self.context.set_text_align(match anchor.h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        });
        self.set_fill(color);
        self.context.set_font(&css_font(
            style.style().as_str(),
            style.size(),
            style.family().as_str(),
        ));
        self.context.fill_text(text, x, y).map_err(thrown)?;
        if rotated {
            self.context.restore();
        }
        Ok(())
    }
}

/// A horizontal or vertical line moved half a pixel left or up, so a
/// one-pixel line covers one row of pixels instead of blurring over two.
fn crisp_line((x0, y0): BackendCoord, (x1, y1): BackendCoord) -> ((f64, f64), (f64, f64)) {
    let (mut from, mut to) = (
        (f64::from(x0), f64::from(y0)),
        (f64::from(x1), f64::from(y1)),
    );
    if x0 == x1 {
        from.0 -= 0.5;
        to.0 -= 0.5;
    }
    if y0 == y1 {
        from.1 -= 0.5;
        to.1 -= 0.5;
    }
    (from, to)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn color(rgb: (u8, u8, u8), alpha: f64) -> BackendColor {
        BackendColor { alpha, rgb }
    }

    #[test]
    fn opaque_colours_are_hex() {
        assert_eq!(css_color(color((0, 0, 0), 1.0)), "#000000");
        assert_eq!(css_color(color((255, 255, 255), 1.0)), "#ffffff");
        assert_eq!(css_color(color((0x1f, 0x77, 0xb4), 1.0)), "#1f77b4");
        assert_eq!(css_color(color((10, 160, 5), 1.0)), "#0aa005");
    }

    #[test]
    fn translucent_colours_keep_their_alpha_as_written_before() {
        for alpha in [0.5, 0.25, 0.1, 0.3, 1.0 / 3.0, 0.8 * 0.5, 1e-7, 0.0] {
            assert_eq!(
                css_color(color((1, 2, 3), alpha)),
                format!("rgba(1,2,3,{alpha})"),
            );
        }
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

    #[test]
    fn straight_lines_move_half_a_pixel() {
        assert_eq!(crisp_line((3, 0), (3, 9)), ((2.5, 0.0), (2.5, 9.0)));
        assert_eq!(crisp_line((0, 4), (8, 4)), ((0.0, 3.5), (8.0, 3.5)));
        assert_eq!(crisp_line((0, 0), (5, 7)), ((0.0, 0.0), (5.0, 7.0)));
    }
}
