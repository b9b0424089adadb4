//! The form-mode chart page: the card laid out for two width classes, the
//! frame's width choosing one by media query, each written by
//! [`zdr_chart::paint::svg::fluid`] so that it fills any frame with its text at the
//! size the widget's local mode draws it at.
//!
//! The classes follow the engine's type scale (`Sizes::for_width`: smaller
//! type below 420 px). Each is laid out at the small end of its range, so
//! a frame only ever adds room to the plot and nothing laid out can
//! collide or overflow when it grows.
//!
//! When the post says the frame's size (the widget's `frame_size` field,
//! [`FrameSize`]), the card is laid out once at exactly that size, as local
//! mode lays it out there, and shown in every frame at least that large;
//! a frame made smaller after the post falls back to the class layouts.

use std::fmt::Write as _;

use zdr_chart::layout::{class_layout, REGULAR_WIDTH, SMALLEST};
use zdr_chart::scene::FONT_FAMILY;
use zdr_chart::scene::{Color, Fit};

use crate::html::{push_head, push_tail, style_hash, Page};
use zdr_chart::paint::svg::fluid::{Margins, Written};
use zdr_chart::paint::svg::TextStyles;

/// A width class: its CSS class, the media query that shows it (none for
/// the default) and the size it is laid out at.
#[derive(Debug, Clone)]
pub struct Layout {
    pub class: &'static str,
    pub media: Option<String>,
    pub width: f64,
    pub height: f64,
}

/// The frame a post was made for, as the widget measured it: whole CSS px
/// within the range of frames the page is made for
/// (`docs/service-pages.md`: 320 to 1,600 × 240 to 1,200 px).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameSize {
    pub width: u16,
    pub height: u16,
}

impl FrameSize {
    pub const WIDTHS: (u16, u16) = (320, 1600);
    pub const HEIGHTS: (u16, u16) = (240, 1200);

    /// `WIDTHxHEIGHT` in decimal digits (`600x420`); anything else, or a
    /// size outside the range, is no size: the post then gets the class
    /// layouts, as a form written by hand does.
    pub fn parse(text: &[u8]) -> Option<FrameSize> {
        let at = text.iter().position(|&b| b == b'x')?;
        let (width, height) = (text.get(..at)?, text.get(at + 1..)?);
        let size = FrameSize {
            width: whole(width)?,
            height: whole(height)?,
        };
        let within = |v: u16, (low, high): (u16, u16)| (low..=high).contains(&v);
        (within(size.width, Self::WIDTHS) && within(size.height, Self::HEIGHTS)).then_some(size)
    }
}

/// One to four decimal digits (every size in range has four at most).
fn whole(digits: &[u8]) -> Option<u16> {
    if digits.is_empty() || digits.len() > 4 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    digits.iter().try_fold(0u16, |n, &d| {
        n.checked_mul(10)?.checked_add(u16::from(d - b'0'))
    })
}

/// The layouts for a card: frames 420 px wide and more (the engine's
/// regular type), then narrower ones (its compact type), each at the size
/// the engine makes its class's layout at ([`class_layout`]): a frame only
/// ever adds room to it, or in the smallest frames takes up to 120 px from
/// the plot, never from the text or the margins.
pub fn layouts(fit: Fit) -> [Layout; 2] {
    let (regular, compact) = (
        class_layout(REGULAR_WIDTH, fit),
        class_layout(SMALLEST.0, fit),
    );
    [
        Layout {
            class: "regular",
            media: None,
            width: regular.0,
            height: regular.1,
        },
        Layout {
            class: "compact",
            media: Some("(max-width:419.98px)".into()),
            width: compact.0,
            height: compact.1,
        },
    ]
}

/// The layouts for a card posted with its frame's size: that size, shown
/// in every frame at least as large (it only adds room there, as a class
/// layout does), and the compact class layout for a frame made smaller
/// after the post, the one layout that fits every smaller frame. A third
/// layout (the regular class for frames from 420 px up to the posted size)
/// would take the page past its budget of two layouts' bytes.
pub fn sized_layouts(fit: Fit, frame: FrameSize) -> [Layout; 2] {
    let (width, height) = (f64::from(frame.width), f64::from(frame.height));
    let compact = class_layout(SMALLEST.0, fit);
    // Half a pixel of slack: a frame of a fractional width reports it rounded.
    let smaller = format!(
        "(max-width:{}px),(max-height:{}px)",
        zdr_chart::paint::svg::num(width - 0.5),
        zdr_chart::paint::svg::num(height - 0.5)
    );
    [
        Layout {
            class: "sized",
            media: None,
            width,
            height,
        },
        Layout {
            class: "compact",
            media: Some(smaller),
            width: compact.0,
            height: compact.1,
        },
    ]
}

/// Writes the page from the layouts, in the order of [`layouts`]; later
/// ones win where their media query matches.
pub fn chart_page(
    title: &str,
    background: Color,
    layouts: &[(Layout, Written)],
    styles: &TextStyles,
) -> Page {
    let mut style = stylesheet(background, layouts);
    style.push_str(&styles.css());
    let label = crate::html::escape(title);
    let body_len: usize = layouts.iter().map(|(_, w)| w.markup.len() + 96).sum();
    let mut html = String::with_capacity(style.len() + body_len + label.len() * 2 + 512);
    push_head(&mut html, "", title, &style, "");
    if let Some(shapes) = layouts.iter().find_map(|(_, w)| w.shapes.as_ref()) {
        // Drawn by reference from each layout's plot layer.
        html.push_str("<svg class=\"s\"><defs><g id=\"s\">\n");
        html.push_str(&shapes.markup);
        html.push_str("</g></defs></svg>\n");
    }
    for (layout, written) in layouts {
        let _ = writeln!(
            html,
            "<div class=\"card {}\" role=\"img\" aria-label=\"{label}\">",
            layout.class
        );
        html.push_str(&written.markup);
        html.push_str("</div>\n");
    }
    push_tail(&mut html);
    Page {
        style_hash: style_hash(&style),
        html,
    }
}

fn stylesheet(background: Color, layouts: &[(Layout, Written)]) -> String {
    let mut style = format!(
        "html,body{{margin:0;height:100%;background:{};overflow:hidden}}\
         .card{{position:relative;width:100%;height:100%}}\
         .card>svg{{position:absolute;left:0;top:0;width:100%;height:100%;overflow:visible}}\
         .card svg svg{{overflow:visible}}\
         .card text{{font-family:{FONT_FAMILY};white-space:pre}}\
         .p *{{vector-effect:non-scaling-stroke}}.d{{stroke-linecap:round}}\
         svg.s{{position:absolute;width:0;height:0}}#s *{{vector-effect:non-scaling-stroke}}",
        background.hex()
    );
    for (layout, written) in layouts {
        if let Some(margins) = written.margins {
            push_plot_rule(&mut style, layout.class, margins);
        }
        if let (Some(m), Some(fitted)) = (written.margins, &written.pinned) {
            // The plot area's size in the frame, and the box its marks are
            // scaled into, which pinned texts are placed in.
            let _ = write!(
                style,
                ".{class}{{--w:calc(100vw - {}px);--h:calc(100vh - {}px)}}.{class} .q{{{fitted}}}",
                zdr_chart::paint::svg::num(m.left + m.right),
                zdr_chart::paint::svg::num(m.top + m.bottom),
                class = layout.class,
            );
        }
    }
    for (layout, _) in layouts {
        if let Some(media) = &layout.media {
            let _ = write!(style, ".{}{{display:none}}", layout.class);
            let _ = write!(
                style,
                "@media {media}{{.card{{display:none}}.card.{}{{display:block}}}}",
                layout.class
            );
        }
    }
    style
}

/// The stretching layer of one class over its plot area: fixed margins,
/// the rest of the frame (never below nothing), or its own height.
fn push_plot_rule(style: &mut String, class: &str, m: Margins) {
    use zdr_chart::paint::svg::num;
    let _ = write!(
        style,
        ".{class} .p{{left:{}px;top:{}px;width:max(0px,calc(100% - {}px));",
        num(m.left),
        num(m.top),
        num(m.left + m.right),
    );
    let _ = match m.height {
        Some(h) => write!(style, "height:{}px}}", num(h)),
        None => write!(
            style,
            "height:max(0px,calc(100% - {}px))}}",
            num(m.top + m.bottom)
        ),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_size_is_two_whole_numbers_in_range_or_none() {
        let size = |text: &str| FrameSize::parse(text.as_bytes()).map(|s| (s.width, s.height));
        assert_eq!(size("600x420"), Some((600, 420)));
        assert_eq!(size("320x240"), Some((320, 240)));
        assert_eq!(size("1600x1200"), Some((1600, 1200)));
        for wrong in [
            "",
            "x",
            "600x",
            "x420",
            "600X420",
            "600x420x1",
            "600 x420",
            "+600x420",
            "-600x420",
            "600.5x420",
            "319x420",
            "1601x420",
            "600x239",
            "600x1201",
            "00600x420",
            "99999x420",
            "600x4200000000000000000",
        ] {
            assert_eq!(size(wrong), None, "{wrong:?}");
        }
    }

    #[test]
    fn a_sized_layout_falls_back_to_the_compact_one_in_any_smaller_frame() {
        let fit = Fit::Stretch;
        let shape = |width, height| {
            sized_layouts(fit, FrameSize { width, height })
                .map(|l| (l.class, l.media, l.width, l.height))
        };
        let smaller = |w, h| Some(format!("(max-width:{w}px),(max-height:{h}px)"));
        assert_eq!(
            shape(600, 420),
            [
                ("sized", None, 600.0, 420.0),
                ("compact", smaller("599.5", "419.5"), 320.0, 300.0),
            ]
        );
        assert_eq!(
            shape(360, 300),
            [
                ("sized", None, 360.0, 300.0),
                ("compact", smaller("359.5", "299.5"), 320.0, 300.0),
            ]
        );
    }
}
