//! The engine's SVG writers, both from one item writer ([`items`]): a scene
//! as a standalone SVG document in CSS pixels (`toSVG()`, the API's card
//! images, the CLI), and as the fluid markup of the form-mode page
//! ([`fluid`]), whose plot stretches with the frame while its text keeps
//! its size.

pub mod fluid;
mod items;

use std::fmt::Write as _;

use crate::scene::Scene;
use crate::scene::FONT_FAMILY;
use items::{push_item, push_outlined, Grid, Texts};

pub use items::{baseline_shift, escape, num, TextStyles};

/// The scene as an SVG document `scene.width` × `scene.height` pixels, its
/// points on whole pixels as the canvas replay puts them at a scale of 1.
pub fn write(scene: &Scene) -> String {
    use crate::scene::Item;
    let mut out = String::with_capacity(256 + scene.items.len() * 64);
    let (w, h) = (num(scene.width), num(scene.height));
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"{}\" xml:space=\"preserve\">\n\
         <rect width=\"{w}\" height=\"{h}\" fill=\"{}\"/>\n",
        escape(FONT_FAMILY),
        scene.background.hex()
    );
    let mut items = scene.items.iter().peekable();
    while let Some(item) = items.next() {
        if let (
            Item::Polygon { points, fill },
            Some(Item::Path {
                points: line,
                stroke,
            }),
        ) = (item, items.peek())
        {
            if push_outlined(&mut out, (points, *fill), (line, stroke), Grid::Whole) {
                items.next();
                continue;
            }
        }
        push_item(
            &mut out,
            item,
            Grid::Whole,
            (0.0, 0.0),
            &mut Texts::Attributes,
        );
        out.push('\n');
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::items::push_points;
    use super::*;
    use crate::scene::{Align, Baseline, Color, Item, Rect, Weight};
    use std::f64::consts::TAU;

    #[test]
    fn numbers_are_compact() {
        assert_eq!(num(0.0), "0");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(12.345), "12.35");
        assert_eq!(num(-3.07), "-3.07");
        assert_eq!(num(100.0), "100");
        assert_eq!(num(f64::NAN), "0");
    }

    #[test]
    fn escapes_markup_and_forbidden_characters() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>\u{1}"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;\u{FFFD}"
        );
    }

    #[test]
    fn paths_step_relatively_without_drift() {
        let mut out = String::new();
        push_points(
            &mut out,
            &[
                (0.4, 0.0),
                (10.4, 5.0),
                (20.8, 2.5),
                (20.8, 2.6),
                (21.0, 2.6),
                (22.0, 4.0),
            ],
            Grid::Whole,
            (0.0, 0.0),
        );
        // 10 then 21 (not 10 + 10): no drift; points that round to the same
        // pixel are left out; a minus sign needs no space.
        assert_eq!(out, "M0 0l10 5 11-2 1 1");
    }

    fn scene(items: Vec<Item>) -> Scene {
        Scene {
            width: 100.0,
            height: 80.0,
            background: Color(255, 255, 255),
            items,
            ..Scene::default()
        }
    }

    fn sector(inner: f64, start: f64, end: f64) -> Item {
        Item::Sector {
            center: (50.0, 50.0),
            outer: 40.0,
            inner,
            start,
            end,
            fill: Color(0, 0x72, 0xb2),
        }
    }

    #[test]
    fn sectors_are_real_arcs() {
        use std::f64::consts::{FRAC_PI_2, PI};
        let quarter = write(&scene(vec![sector(0.0, 0.0, FRAC_PI_2)]));
        // From twelve o'clock clockwise to three, then to the centre.
        assert!(
            quarter.contains("<path d=\"M50 10A40 40 0 0 1 90 50L50 50z\" fill=\"#0072b2\"/>"),
            "{quarter}"
        );
        let most = write(&scene(vec![sector(0.0, 0.0, 1.5 * PI)]));
        assert!(most.contains("A40 40 0 1 1 10 50L50 50z"), "{most}");
        let ring = write(&scene(vec![sector(20.0, FRAC_PI_2, PI)]));
        assert!(
            ring.contains("M90 50A40 40 0 0 1 50 90L50 70A20 20 0 0 0 70 50z"),
            "{ring}"
        );
        // A whole circle cannot be one arc; a whole ring is two circles.
        let whole = write(&scene(vec![sector(0.0, 0.0, TAU)]));
        assert!(
            whole.contains("M50 10A40 40 0 1 1 50 90A40 40 0 1 1 50 10z\" fill"),
            "{whole}"
        );
        let donut = write(&scene(vec![sector(20.0, 0.0, TAU)]));
        assert!(
            donut.contains("z\" fill=\"#0072b2\" fill-rule=\"evenodd\""),
            "{donut}"
        );
    }

    #[test]
    fn text_is_anchored_and_turned() {
        use crate::scene::Font;
        let text = |align, baseline, vertical| Item::Text {
            text: "Q1 & <Q2>".to_string(),
            at: (10.0, 70.5),
            font: Font::new(12.0, Weight::Bold, Color(1, 2, 3)),
            align,
            baseline,
            vertical,
        };
        let out = write(&scene(vec![
            text(Align::End, Baseline::Middle, true),
            text(Align::Start, Baseline::Top, false),
        ]));
        assert!(
            out.contains(
                "<text x=\"10\" y=\"74.31\" font-size=\"12\" fill=\"#010203\" font-weight=\"bold\" \
             text-anchor=\"end\" transform=\"rotate(-90 10 71)\">\
             Q1 &amp; &lt;Q2&gt;</text>"
            ),
            "{out}"
        );
        assert!(
            out.contains(
                "<text x=\"10\" y=\"80.31\" font-size=\"12\" fill=\"#010203\" font-weight=\"bold\">"
            ),
            "{out}"
        );
    }

    #[test]
    fn a_tiny_bar_stays_visible() {
        let out = write(&scene(vec![Item::Rect {
            rect: Rect::new(5.0, 6.0, 0.2, 30.0),
            fill: Color(9, 9, 9),
        }]));
        assert!(
            out.contains("<rect x=\"5\" y=\"6\" width=\"1\" height=\"30\" fill=\"#090909\"/>"),
            "{out}"
        );
    }
}
