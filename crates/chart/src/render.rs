//! A card laid out and painted in one call. The layout ([`crate::layout`])
//! and the painters ([`crate::paint`]) know nothing of each other; they
//! meet only here, through the scene.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend};

use crate::layout::Theme;
use crate::model::chart::Chart;
use crate::paint::PaintError;
use crate::scene::{device_scale, HitMap};
use crate::view::View;

impl Chart {
    /// Draws the whole card (frame, legend, marks) filling `area`.
    /// `scale` is device pixels per CSS pixel (2 on most phones): the
    /// layout is the same at every scale, only sharper.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
        scale: f64,
    ) -> Result<(), PaintError> {
        // No recording: drawing alone formats no tooltip text.
        self.replay(area, theme, scale, false).map(|_| ())
    }

    /// Draws like [`Chart::draw`] and returns where every mark landed, in
    /// CSS pixels (device pixels divided by `scale`), for tooltips. Tables,
    /// the empty state and cards too small for a chart give an empty map.
    pub fn draw_mapped<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
        scale: f64,
    ) -> Result<HitMap, PaintError> {
        self.replay(area, theme, scale, true)
    }

    /// Draws like [`Chart::draw_mapped`] onto a raster surface `size`
    /// device pixels large (the widget's canvas), as the reader's `view` has
    /// it.
    pub fn draw_on<P: crate::paint::pixels::Pixels>(
        &self,
        out: &mut P,
        (w, h): (u32, u32),
        (theme, view): (&Theme, &View),
        scale: f64,
    ) -> Result<HitMap, P::Error> {
        let scale = device_scale(scale);
        let mut scene = self.scene_at(
            f64::from(w) / scale,
            f64::from(h) / scale,
            (scale, view),
            theme,
            true,
        );
        let bounds = (
            0,
            0,
            w.min(i32::MAX as u32) as i32,
            h.min(i32::MAX as u32) as i32,
        );
        crate::paint::pixels::replay(&scene, bounds, scale, out)?;
        Ok(std::mem::take(&mut scene.hits))
    }

    /// The scene for `area` at `scale`, painted onto it by the plotters replay.
    fn replay<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        theme: &Theme,
        scale: f64,
        record_hits: bool,
    ) -> Result<HitMap, PaintError> {
        let scale = device_scale(scale);
        let (w, h) = area.dim_in_pixel();
        let mut scene = self.scene_at(
            f64::from(w) / scale,
            f64::from(h) / scale,
            (scale, &View::default()),
            theme,
            record_hits,
        );
        crate::paint::plotters::paint(&scene, area, scale)?;
        Ok(std::mem::take(&mut scene.hits))
    }

    /// The card as a standalone SVG document `width` × `height` pixels.
    pub fn to_svg(&self, width: u32, height: u32, theme: &Theme) -> String {
        self.to_svg_viewed(width, height, (theme, &View::default()))
    }

    /// [`Chart::to_svg`] as the reader's `view` has the card.
    pub fn to_svg_viewed(&self, width: u32, height: u32, (theme, view): (&Theme, &View)) -> String {
        let (width, height) = (width.clamp(16, 8192), height.clamp(16, 8192));
        let (w, h) = (f64::from(width), f64::from(height));
        let scene = self.scene_at(w, h, (1.0, view), theme, false);
        crate::paint::svg::write(&scene)
    }
}
