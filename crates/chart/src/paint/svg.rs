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
    let mut items = scene.items.iter().peekable();
    while let Some(item) = items.next() {
        // A shape and then its own outline (map regions) are one element.
        if let (
            Item::Polygon { points, fill },
            Some(Item::Path {
                points: line,
                stroke,
            }),
        ) = (item, items.peek())
        {
            if outlines(points, line) {
                out.push_str("<path d=\"");
                push_points(&mut out, points);
                let _ = write!(out, "z\" fill=\"{}\"", fill.hex());
                push_stroke(&mut out, stroke);
                out.push_str("/>\n");
                items.next();
                continue;
            }
        }
        push_item(&mut out, item);
        out.push('\n');
    }
    out.push_str("</svg>\n");
    out
}

/// True when `line` runs once around `polygon`, back to its start.
fn outlines(polygon: &[(f64, f64)], line: &[(f64, f64)]) -> bool {
    line.len() == polygon.len() + 1 && line.starts_with(polygon) && line.last() == polygon.first()
}

fn push_item(out: &mut String, item: &Item) {
    match item {
        Item::Rect { rect, fill } => {
            push_rect(out, &snap(rect, 1.0));
            let _ = write!(out, " fill=\"{}\"/>", fill.hex());
        }
        Item::Outline { rect, stroke } => {
            push_rect(out, &snap(rect, 0.0));
            out.push_str(" fill=\"none\"");
            push_stroke(out, stroke);
            out.push_str("/>");
        }
        Item::Path { points, stroke } => {
            if let Some((x0, y0, x1, y1)) = super::bar_pixels(points, stroke.width, 1.0) {
                let (x0, y0, x1, y1) = (f64::from(x0), f64::from(y0), f64::from(x1), f64::from(y1));
                push_rect(out, &Rect::new(x0, y0, x1 - x0, y1 - y0));
                let _ = write!(out, " fill=\"{}\"/>", stroke.color.hex());
                return;
            }
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
            // Centre and radius on whole pixels, as the canvas replay has them.
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"",
                num(whole(center.0)),
                num(whole(center.1)),
                num(whole(*radius).clamp(1.0, 1000.0)),
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
            // A full ring is two circles, cut out by the even-odd rule.
            let evenodd =
                push_sector(out, *center, *inner, *outer, *start, *end, num) && *inner > 0.0;
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
            // Anchored on whole pixels, as the canvas replay anchors them.
            let (ax, ay) = (whole(at.0), whole(at.1));
            let shift = baseline_shift(*baseline) * font.size;
            let (x, y) = (num(ax), num(ay));
            let _ = write!(
                out,
                "<text x=\"{x}\" y=\"{}\" font-size=\"{}\" fill=\"{}\"",
                num(ay + shift),
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
            if *vertical {
                let _ = write!(out, " transform=\"rotate(-90 {x} {y})\"");
            }
            out.push('>');
            out.push_str(&escape(text));
            out.push_str("</text>");
        }
    }
}

/// How far below the anchor the alphabetic baseline goes, in em, for a
/// text set on `baseline`: where a canvas's textBaseline top, middle and
/// bottom put it, the em box's edges and middle, which for the fonts named
/// (Liberation Sans, Arial) Chromium puts 0.776 em above the baseline
/// (TextMetrics.alphabeticBaseline, at 12, 18 and 100 px). SVG's
/// dominant-baseline edges use the font's ascent instead (text 2 px lower
/// at 18 px), so writers place the baseline by hand. Turned text shifts in
/// its own frame, the rotation staying about the anchor.
pub fn baseline_shift(baseline: Baseline) -> f64 {
    match baseline {
        Baseline::Top => 0.776,
        Baseline::Middle => 0.276,
        Baseline::Bottom => -0.224,
    }
}

/// `v` on a whole pixel, as the canvas replay rounds at a scale of 1.
fn whole(v: f64) -> f64 {
    if v.is_finite() {
        v.round().clamp(-1.0e6, 1.0e6)
    } else {
        0.0
    }
}

/// A rectangle with its corners on whole pixels, as the canvas replay
/// draws it at a scale of 1: crisp edges, and the same pixels as the
/// canvas. A filled one keeps at least `least` pixels a side (a visible
/// sliver rather than nothing for tiny non-zero values).
fn snap(r: &Rect, least: f64) -> Rect {
    let (x0, y0) = (whole(r.x), whole(r.y));
    let (x1, y1) = (whole(r.right()), whole(r.bottom()));
    Rect::new(x0, y0, (x1 - x0).max(least), (y1 - y0).max(least))
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

/// The stroke as the canvas replay draws it at a scale of 1: whole pixels,
/// at least one.
fn push_stroke(out: &mut String, stroke: &Stroke) {
    let _ = write!(out, " stroke=\"{}\"", stroke.color.hex());
    let width = whole(stroke.width).clamp(1.0, 64.0);
    if width != 1.0 {
        let _ = write!(out, " stroke-width=\"{}\"", num(width));
    }
}

/// `M` to the first point, then relative steps, on whole pixels as the
/// canvas replay puts its vertices at a scale of 1: the deltas are taken
/// between rounded points, so rounding never accumulates along a line, and
/// a step that rounds to nothing is left out.
fn push_points(out: &mut String, points: &[(f64, f64)]) {
    let mut last: Option<(i64, i64)> = None;
    let mut stepped = false;
    for &(x, y) in points {
        let p = (whole(x) as i64, whole(y) as i64);
        match last {
            None => {
                out.push('M');
                push_path_number(out, p.0);
                push_path_number(out, p.1);
            }
            Some(l) => {
                if p == l {
                    continue;
                }
                if !stepped {
                    out.push('l');
                    stepped = true;
                }
                push_path_number(out, p.0 - l.0);
                push_path_number(out, p.1 - l.1);
            }
        }
        last = Some(p);
    }
}

/// A number of a path; a minus sign separates it from the number
/// before, else a space does.
fn push_path_number(out: &mut String, n: i64) {
    if n >= 0 && !out.ends_with(|c: char| c.is_ascii_alphabetic()) {
        out.push(' ');
    }
    let _ = write!(out, "{n}");
}

/// A ring sector with real arcs, its numbers written by `number` (the
/// host's page writes tenths); true for a full turn, drawn as two half
/// circles per radius.
pub fn push_sector(
    out: &mut String,
    (cx, cy): (f64, f64),
    inner: f64,
    outer: f64,
    start: f64,
    end: f64,
    number: fn(f64) -> String,
) -> bool {
    let sweep = (end - start).clamp(0.0, TAU);
    // Scene angles count clockwise from twelve o'clock.
    let on = |r: f64, a: f64| {
        (
            number(cx + r * crate::math::sin(a)),
            number(cy - r * crate::math::cos(a)),
        )
    };
    if sweep >= TAU - 1e-9 {
        // An arc cannot end where it starts: a full circle is two halves.
        for r in [outer, inner] {
            if r <= 0.0 {
                continue;
            }
            let (top, bottom) = (on(r, 0.0), on(r, TAU / 2.0));
            let r = number(r);
            let _ = write!(
                out,
                "M{} {}A{r} {r} 0 1 1 {} {}A{r} {r} 0 1 1 {} {}z",
                top.0, top.1, bottom.0, bottom.1, top.0, top.1
            );
        }
        return true;
    }
    let large = u8::from(sweep > TAU / 2.0);
    let (a, b) = (on(outer, start), on(outer, start + sweep));
    let ro = number(outer);
    let _ = write!(
        out,
        "M{} {}A{ro} {ro} 0 {large} 1 {} {}",
        a.0, a.1, b.0, b.1
    );
    if inner > 0.0 {
        let (c, d) = (on(inner, start + sweep), on(inner, start));
        let ri = number(inner);
        let _ = write!(
            out,
            "L{} {}A{ri} {ri} 0 {large} 0 {} {}z",
            c.0, c.1, d.0, d.1
        );
    } else {
        let _ = write!(out, "L{} {}z", number(cx), number(cy));
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
            &[
                (0.4, 0.0),
                (10.4, 5.0),
                (20.8, 2.5),
                (20.8, 2.6),
                (21.0, 2.6),
                (22.0, 4.0),
            ],
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
