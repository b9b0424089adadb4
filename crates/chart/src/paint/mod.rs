//! Painters: a [`Scene`](crate::scene::Scene) turned into pixels or text.
//!
//! - [`pixels`]: the scene in device pixels for any raster surface (the
//!   widget's canvas, in the engine);
//! - [`plotters`]: that, onto any plotters backend (native tests).
//! - [`svg`]: the engine's own SVG writers, one item writer under both: a
//!   standalone document (`toSVG()`, the API's images, the CLI) and the
//!   fluid form-mode page's markup ([`svg::fluid`]).
//! - `png` (cargo feature `png`, native only): the SVG rasterised.

/// Painting onto a backend that can fail (a plotters backend); the other
/// painters write to memory and cannot.
#[derive(Debug, thiserror::Error)]
pub enum PaintError {
    #[error("the drawing backend failed: {0}")]
    Backend(String),
}

pub mod pixels;
pub mod plotters;
#[cfg(all(feature = "png", not(target_arch = "wasm32")))]
pub mod png;
pub mod svg;

/// A straight horizontal or vertical stroke of two points (a grid line, an
/// axis, a tick) as the pixels it covers at `scale` with butt caps:
/// `(x0, y0, x1, y1)`, on whole device pixels, at least one pixel thick and
/// its stroke width (rounded) thick. Painted as a filled rectangle, a
/// one-pixel line stays one crisp row, where a stroke centred on a pixel
/// edge would smear over two half-grey ones; both painters use it, so
/// they cover the same pixels.
pub(crate) fn bar_pixels(
    points: &[(f64, f64)],
    width: f64,
    scale: f64,
) -> Option<(i32, i32, i32, i32)> {
    let [(ax, ay), (bx, by)] = points else {
        return None;
    };
    let px = |v: f64| {
        if v.is_finite() {
            (v * scale).round().clamp(-1.0e6, 1.0e6) as i32
        } else {
            0
        }
    };
    let thick = (width * scale).round().clamp(1.0, 64.0);
    let across = |c: f64| {
        let start = px(c - thick / 2.0 / scale);
        (start, start + thick as i32)
    };
    if ay == by && ax != bx {
        let (x0, x1) = (px(ax.min(*bx)), px(ax.max(*bx)));
        let (y0, y1) = across(*ay);
        Some((x0, y0, x1.max(x0 + 1), y1))
    } else if ax == bx && ay != by {
        let (y0, y1) = (px(ay.min(*by)), px(ay.max(*by)));
        let (x0, x1) = across(*ax);
        Some((x0, y0, x1, y1.max(y0 + 1)))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::bar_pixels;

    #[test]
    fn straight_strokes_cover_whole_pixels() {
        // A 1-pixel grid line between rows: the row below the edge.
        assert_eq!(
            bar_pixels(&[(10.0, 418.5), (100.4, 418.5)], 1.0, 1.0),
            Some((10, 418, 100, 419))
        );
        // At a scale of 2 it is two device rows, still whole.
        assert_eq!(
            bar_pixels(&[(10.0, 418.5), (100.4, 418.5)], 1.0, 2.0),
            Some((20, 836, 201, 838))
        );
        // Vertical, drawn bottom to top, 2 pixels wide.
        assert_eq!(
            bar_pixels(&[(50.0, 80.0), (50.0, 20.0)], 2.0, 1.0),
            Some((49, 20, 51, 80))
        );
        // Sloped lines and single points stay strokes.
        assert_eq!(bar_pixels(&[(0.0, 0.0), (5.0, 5.0)], 1.0, 1.0), None);
        assert_eq!(bar_pixels(&[(1.0, 1.0), (1.0, 1.0)], 1.0, 1.0), None);
        assert_eq!(
            bar_pixels(&[(0.0, 0.0), (5.0, 0.0), (9.0, 0.0)], 1.0, 1.0),
            None
        );
    }
}
