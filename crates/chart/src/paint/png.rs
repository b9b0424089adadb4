//! PNG from a scene: the SVG writer's output rasterised by resvg with the
//! system's fonts, so the picture is the one a browser shows for the SVG.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use crate::scene::Scene;

/// Pixels a picture may have at most (a 8192 × 8192 card): 256 MiB of
/// pixmap, which a CLI can afford and no input can exceed.
const MAX_PIXELS: f64 = 8192.0 * 8192.0;

#[derive(Debug, thiserror::Error)]
pub enum PngError {
    #[error("a {width} × {height} picture at scale {scale} is too large: at most {MAX_PIXELS} pixels, choose a smaller size or scale")]
    TooLarge { width: f64, height: f64, scale: f64 },
    #[error("the SVG could not be read for rasterising: {0}")]
    Svg(#[from] usvg::Error),
    #[error("the PNG could not be encoded: {0}")]
    Encode(String),
}

/// The system's fonts, read once per process.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_system_fonts();
            // The widths the layout measured are Helvetica's, which
            // Liberation Sans shares; a generic family falls back to it.
            db.set_sans_serif_family("Liberation Sans");
            Arc::new(db)
        })
        .clone()
}

/// `scene` as PNG bytes, `scale` device pixels per CSS pixel.
pub fn write(scene: &Scene, scale: f64) -> Result<Vec<u8>, PngError> {
    let scale = crate::scene::device_scale(scale);
    let (w, h) = (
        (scene.width * scale).ceil().max(1.0),
        (scene.height * scale).ceil().max(1.0),
    );
    let too_large = || PngError::TooLarge {
        width: scene.width,
        height: scene.height,
        scale,
    };
    // Both are at least 1 (max drops NaN), so the product is never NaN.
    if w * h > MAX_PIXELS {
        return Err(too_large());
    }
    let mut pixmap = tiny_skia::Pixmap::new(w as u32, h as u32).ok_or_else(too_large)?;
    let svg = super::svg::write(scene);
    let options = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&svg, &options)?;
    let transform = tiny_skia::Transform::from_scale(scale as f32, scale as f32);
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}
