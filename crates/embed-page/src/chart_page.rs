//! The form-mode chart page: the card laid out for two width classes, the
//! frame's width choosing one by media query, each written by
//! [`zdr_chart::paint::svg::fluid`] so that it fills any frame with its text at the
//! size the widget's local mode draws it at.
//!
//! The classes follow the engine's type scale (`Sizes::for_width`: smaller
//! type below 420 px). Each is laid out at the small end of its range, so
//! a frame only ever adds room to the plot and nothing laid out can
//! collide or overflow when it grows.

use std::fmt::Write as _;

use zdr_chart::layout::{class_layout, REGULAR_WIDTH, SMALLEST};
use zdr_chart::scene::FONT_FAMILY;
use zdr_chart::scene::{Color, Fit};

use crate::html::{push_head, push_tail, style_hash, Page};
use zdr_chart::paint::svg::fluid::{Margins, Written};
use zdr_chart::paint::svg::TextStyles;

/// A width class: its CSS class, the media query that shows it (none for
/// the default) and the size it is laid out at.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    pub class: &'static str,
    pub media: Option<&'static str>,
    pub width: f64,
    pub height: f64,
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
            media: Some("(max-width:419.98px)"),
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
        if let Some(media) = layout.media {
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
