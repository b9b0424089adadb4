// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
#![cfg(all(feature = "png", not(target_arch = "wasm32")))]

//! PNG from a scene (`--features png`): the pixels where the scene put its
//! marks and its title.

use resvg::tiny_skia::Pixmap;
use zdr_chart::paint::png::{self, PngError};
use zdr_chart::scene::{Color, Item};

mod common;
use common::example;

fn pixel(pixmap: &Pixmap, (x, y): (f64, f64), scale: f64) -> Color {
    let p = pixmap
        .pixel((x * scale) as u32, (y * scale) as u32)
        .unwrap()
        .demultiply();
    Color(p.red(), p.green(), p.blue())
}

#[test]
fn bars_and_title_land_where_the_scene_put_them() {
    let chart = example("bar");
    let theme = chart.theme(None);
    let scene = chart.scene(800.0, 500.0, &theme, false);
    let bar = scene
        .items
        .iter()
        .find_map(|item| match item {
            Item::Rect { rect, fill } if *fill == theme.color(0) => Some(*rect),
            _ => None,
        })
        .unwrap();
    for scale in [1.0, 2.0] {
        let bytes = png::write(&scene, scale).unwrap();
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
        let pixmap = Pixmap::decode_png(&bytes).unwrap();
        assert_eq!(
            (pixmap.width(), pixmap.height()),
            ((800.0 * scale) as u32, (500.0 * scale) as u32)
        );
        assert_eq!(pixel(&pixmap, bar.center(), scale), theme.color(0));
        assert_eq!(pixel(&pixmap, (3.0, 3.0), scale), theme.background);
        // The title is set in a real font: some of its box is ink.
        let ink = (16..200)
            .flat_map(|x| (16..34).map(move |y| (f64::from(x), f64::from(y))))
            .filter(|&at| pixel(&pixmap, at, scale) != theme.background)
            .count();
        assert!(ink > 100, "scale {scale}: {ink} pixels of title ink");
    }
}

#[test]
fn pictures_past_the_pixel_budget_are_refused() {
    let chart = example("bar");
    let scene = chart.scene(8000.0, 8000.0, &chart.theme(None), false);
    assert!(matches!(
        png::write(&scene, 2.0),
        Err(PngError::TooLarge { .. })
    ));
}
