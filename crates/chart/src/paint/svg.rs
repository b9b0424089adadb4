//! The engine's own SVG writer: a scene as a standalone SVG document in
//! CSS pixels, with a viewBox, real arcs, escaped text and compact numbers.

use std::f64::consts::TAU;
use std::fmt::Write as _;

use crate::draw::text::FONT_FAMILY;
use crate::scene::{Align, Baseline, Color, Item, Rect, Scene, Stroke, Weight};

/// The scene as an SVG document `scene.width` × `scene.height` pixels.
pub fn write(scene: &Scene) -> String {
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
    for item in &scene.items {
        push_item(&mut out, item);
        out.push('\n');
    }
    out.push_str("</svg>\n");
    out
}

fn push_item(out: &mut String, item: &Item) {
    match item {
        Item::Rect { rect, fill } => {
            // A visible sliver rather than nothing for tiny non-zero values.
            let r = Rect::new(rect.x, rect.y, rect.w.max(1.0), rect.h.max(1.0));
            push_rect(out, &r);
            let _ = write!(out, " fill=\"{}\"/>", fill.hex());
        }
        Item::Outline { rect, stroke } => {
            push_rect(out, rect);
            out.push_str(" fill=\"none\"");
            push_stroke(out, stroke);
            out.push_str("/>");
        }
        Item::Path { points, stroke } => {
            out.push_str("<path d=\"");
            push_points(out, points);
            out.push_str("\" fill=\"none\"");
            push_stroke(out, stroke);
            out.push_str("/>");
        }
        Item::Polygon { points, fill } => {
            out.push_str("<path d=\"");
            push_points(out, points);
            let _ = write!(out, "z\" fill=\"{}\"/>", fill.hex());
        }
        Item::Circle {
            center,
            radius,
            fill,
            stroke,
        } => {
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"",
                num(center.0),
                num(center.1),
                num(*radius),
                fill.map_or_else(|| "none".to_string(), Color::hex),
            );
            if let Some(stroke) = stroke {
                push_stroke(out, stroke);
            }
            out.push_str("/>");
        }
        Item::Sector {
            center,
            outer,
            inner,
            start,
            end,
            fill,
        } => {
            out.push_str("<path d=\"");
            let evenodd = push_sector(out, *center, *inner, *outer, *start, *end);
            let _ = write!(out, "\" fill=\"{}\"", fill.hex());
            if evenodd {
                out.push_str(" fill-rule=\"evenodd\"");
            }
            out.push_str("/>");
        }
        Item::Text {
            text,
            at,
            font,
            align,
            baseline,
            vertical,
        } => {
            let (x, y) = (num(at.0), num(at.1));
            let _ = write!(
                out,
                "<text x=\"{x}\" y=\"{y}\" font-size=\"{}\" fill=\"{}\"",
                num(font.size),
                font.color.hex()
            );
            if font.weight == Weight::Bold {
                out.push_str(" font-weight=\"bold\"");
            }
            match align {
                Align::Start => {}
                Align::Middle => out.push_str(" text-anchor=\"middle\""),
                Align::End => out.push_str(" text-anchor=\"end\""),
            }
            // The em box's edges and middle, as the canvas's textBaseline
            // top, middle and bottom place text.
            out.push_str(match baseline {
                Baseline::Top => " dominant-baseline=\"text-before-edge\"",
                Baseline::Middle => " dominant-baseline=\"central\"",
                Baseline::Bottom => " dominant-baseline=\"text-after-edge\"",
            });
            if *vertical {
                let _ = write!(out, " transform=\"rotate(-90 {x} {y})\"");
            }
            out.push('>');
            out.push_str(&escape(text));
            out.push_str("</text>");
        }
    }
}

fn push_rect(out: &mut String, r: &Rect) {
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
        num(r.x),
        num(r.y),
        num(r.w),
        num(r.h)
    );
}

fn push_stroke(out: &mut String, stroke: &Stroke) {
    let _ = write!(out, " stroke=\"{}\"", stroke.color.hex());
    if hundredths(stroke.width) != 100 {
        let _ = write!(out, " stroke-width=\"{}\"", num(stroke.width));
    }
}

/// `M` to the first point, then relative steps: the deltas are taken
/// between rounded points, so rounding never accumulates along a line.
fn push_points(out: &mut String, points: &[(f64, f64)]) {
    let mut last: Option<(i64, i64)> = None;
    for &(x, y) in points {
        let p = (hundredths(x), hundredths(y));
        match last {
            None => {
                let _ = write!(out, "M{} {}", fixed(p.0), fixed(p.1));
                out.push('l');
            }
            Some(l) => {
                if p == l {
                    continue;
                }
                push_pair(out, p.0 - l.0, p.1 - l.1);
            }
        }
        last = Some(p);
    }
    if out.ends_with('l') {
        out.pop();
    }
}

/// Two numbers of a path, separated only where the second needs it.
fn push_pair(out: &mut String, dx: i64, dy: i64) {
    let (a, b) = (fixed(dx), fixed(dy));
    if !out.ends_with('l') && !a.starts_with('-') {
        out.push(' ');
    }
    out.push_str(&a);
    if !b.starts_with('-') {
        out.push(' ');
    }
    out.push_str(&b);
}

/// A ring sector with real arcs; returns true when the path needs the
/// even-odd rule (a full ring: two circles).
fn push_sector(
    out: &mut String,
    (cx, cy): (f64, f64),
    inner: f64,
    outer: f64,
    start: f64,
    end: f64,
) -> bool {
    let sweep = (end - start).clamp(0.0, TAU);
    // Scene angles count clockwise from twelve o'clock.
    let on = |r: f64, a: f64| (num(cx + r * a.sin()), num(cy - r * a.cos()));
    if sweep >= TAU - 1e-9 {
        // An arc cannot end where it starts: a full circle is two halves.
        for r in [outer, inner] {
            if r <= 0.0 {
                continue;
            }
            let (top, bottom) = (on(r, 0.0), on(r, TAU / 2.0));
            let r = num(r);
            let _ = write!(
                out,
                "M{} {}A{r} {r} 0 1 1 {} {}A{r} {r} 0 1 1 {} {}z",
                top.0, top.1, bottom.0, bottom.1, top.0, top.1
            );
        }
        return inner > 0.0;
    }
    let large = u8::from(sweep > TAU / 2.0);
    let (a, b) = (on(outer, start), on(outer, start + sweep));
    let ro = num(outer);
    let _ = write!(
        out,
        "M{} {}A{ro} {ro} 0 {large} 1 {} {}",
        a.0, a.1, b.0, b.1
    );
    if inner > 0.0 {
        let (c, d) = (on(inner, start + sweep), on(inner, start));
        let ri = num(inner);
        let _ = write!(
            out,
            "L{} {}A{ri} {ri} 0 {large} 0 {} {}z",
            c.0, c.1, d.0, d.1
        );
    } else {
        let _ = write!(out, "L{} {}z", num(cx), num(cy));
    }
    false
}

/// `v` in hundredths, held to a range any SVG reader takes.
fn hundredths(v: f64) -> i64 {
    if v.is_finite() {
        (v * 100.0).round().clamp(-1.0e9, 1.0e9) as i64
    } else {
        0
    }
}

/// A number with at most two decimals and no trailing zeros.
pub fn num(v: f64) -> String {
    fixed(hundredths(v))
}

fn fixed(h: i64) -> String {
    let sign = if h < 0 { "-" } else { "" };
    let (whole, frac) = (h.unsigned_abs() / 100, h.unsigned_abs() % 100);
    match frac {
        0 => format!("{sign}{whole}"),
        f if f % 10 == 0 => format!("{sign}{whole}.{}", f / 10),
        f => format!("{sign}{whole}.{f:02}"),
    }
}

/// Text and attribute values made safe for XML: the five special
/// characters as entities, and characters XML 1.0 forbids (control
/// characters, U+FFFE, U+FFFF) as U+FFFD.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
            &[(0.004, 0.0), (10.333, 5.0), (20.666, 2.5), (20.666, 2.5)],
        );
        assert_eq!(out, "M0 0l10.33 5 10.34-2.5");
    }
}
