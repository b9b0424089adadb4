//! A scene written as markup that fits any frame without scaling its text:
//! margins, text, dots, ticks and legends keep their size in CSS pixels,
//! and only the plot area stretches.
//!
//! Every point of the scene is moved along each axis by a fraction `f` of
//! the frame's growth: 0 left of (above) the plot, 1 right of (below) it,
//! and in between linearly inside it. A point then sits at `v - f·W` px
//! plus `f·100%` of the frame, which SVG says without CSS: a nested
//! `<svg x="f%" y="g%">` holds items shifted by `-f·W`, `-g·H`.
//!
//! Shapes that lie inside the plot (bars, lines, areas, gridlines, axis
//! lines) go instead into a layer of their own that the page's stylesheet
//! places over the plot area with `calc(100% - margins)`: an outermost
//! `<svg>` in HTML is a CSS box, so it takes `left`, `top`, `width` and
//! `height` in both Chromium and Firefox (a nested `<svg>` does not: both
//! ignore CSS geometry on it). That layer's viewBox is the plot rectangle
//! and `preserveAspectRatio="none"` stretches it; strokes do not grow
//! (`vector-effect: non-scaling-stroke`, set by the stylesheet). Maps keep
//! their proportions (`xMidYMid meet`); pies keep their radius and stay
//! centred in their area.

use std::fmt::Write as _;
use std::ops::Range;

use zdr_chart::paint::svg::{escape, num};
use zdr_chart::scene::{Align, Baseline, Color, Item, Rect, Scene, Stroke, Weight};

/// How far outside the plot a shape may reach and still count as inside
/// it: half an axis line's width, and rounding.
const EPS: f64 = 1.0;

/// Where a layout's stretching layer goes, in CSS px from the frame's
/// edges: the plot's margins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Margins {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

/// How the marks inside the plot follow the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marks {
    /// Stretched to fill the plot area (axes charts, tables).
    Stretch,
    /// Scaled uniformly, centred (maps keep their shape).
    KeepShape,
}

/// One layout written for the page: its markup and, when it has a
/// stretching layer, that layer's margins (for the stylesheet).
pub struct Written {
    pub markup: String,
    pub margins: Option<Margins>,
}

/// Which layer an item goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layer {
    /// Inside the plot, stretched with it.
    Plot,
    /// Anchored: kept at its size in CSS px.
    Fixed,
}

/// Writes `scene` as a sequence of layers (outermost `<svg>` elements, in
/// painting order); `marks` says how shapes inside the plot follow it.
pub fn write(scene: &Scene, marks: Marks) -> Written {
    let geometry = Geometry::of(scene);
    let mut out = String::with_capacity(512 + scene.items.len() * 72);
    let mut has_plot_layer = false;
    let mut start = 0;
    while start < scene.items.len() {
        let layer = geometry.layer(&scene.items[start]);
        let mut end = start + 1;
        while end < scene.items.len() && geometry.layer(&scene.items[end]) == layer {
            end += 1;
        }
        match layer {
            Layer::Plot => {
                has_plot_layer = true;
                geometry.push_plot_layer(&mut out, &scene.items[start..end], marks);
            }
            Layer::Fixed => geometry.push_fixed_layer(&mut out, scene, start..end),
        }
        start = end;
    }
    Written {
        markup: out,
        margins: has_plot_layer.then(|| geometry.margins()),
    }
}

/// The scene's size and plot area, and how each point follows the frame.
struct Geometry {
    width: f64,
    height: f64,
    plot: Rect,
    /// A pie stays whole at its laid-out radius, centred in its area.
    pie: bool,
}

impl Geometry {
    fn of(scene: &Scene) -> Geometry {
        let whole = Rect::new(0.0, 0.0, scene.width, scene.height);
        Geometry {
            width: scene.width,
            height: scene.height,
            plot: scene.plot.unwrap_or(whole),
            pie: scene
                .items
                .iter()
                .any(|item| matches!(item, Item::Sector { .. })),
        }
    }

    fn margins(&self) -> Margins {
        Margins {
            left: self.plot.x,
            top: self.plot.y,
            right: self.width - self.plot.right(),
            bottom: self.height - self.plot.bottom(),
        }
    }

    fn layer(&self, item: &Item) -> Layer {
        let inside = |b: Rect| {
            b.x >= self.plot.x - EPS
                && b.y >= self.plot.y - EPS
                && b.right() <= self.plot.right() + EPS
                && b.bottom() <= self.plot.bottom() + EPS
        };
        match item {
            Item::Rect { .. } | Item::Outline { .. } | Item::Path { .. } | Item::Polygon { .. }
                if !self.pie && inside(bounds(item)) =>
            {
                Layer::Plot
            }
            _ => Layer::Fixed,
        }
    }

    /// The fractions of the frame's growth by which a point at `(x, y)`
    /// moves, for an item whose bounds are `b`.
    fn fractions(&self, (x, y): (f64, f64), b: Rect) -> (f64, f64) {
        let p = self.plot;
        if b.bottom() <= p.y + EPS {
            // Above the plot (title, legend, colour ramp): laid out from the
            // left edge, so it keeps its place there (or at the right edge).
            return (if x > p.right() + EPS { 1.0 } else { 0.0 }, 0.0);
        }
        if self.pie {
            let side = |v: f64, lo: f64, hi: f64| {
                if v < lo - EPS {
                    0.0
                } else if v > hi + EPS {
                    1.0
                } else {
                    0.5
                }
            };
            return (side(x, p.x, p.right()), side(y, p.y, p.bottom()));
        }
        (fraction(x, p.x, p.right()), fraction(y, p.y, p.bottom()))
    }

    fn push_plot_layer(&self, out: &mut String, items: &[Item], marks: Marks) {
        let p = self.plot;
        let aspect = match marks {
            Marks::Stretch => "none",
            Marks::KeepShape => "xMidYMid meet",
        };
        let _ = writeln!(
            out,
            "<svg class=\"p\" viewBox=\"{} {} {} {}\" preserveAspectRatio=\"{aspect}\">",
            num(p.x),
            num(p.y),
            num(p.w.max(0.01)),
            num(p.h.max(0.01)),
        );
        for item in items {
            push_item(out, item, (0.0, 0.0));
            out.push('\n');
        }
        out.push_str("</svg>\n");
    }

    /// Anchored items in one frame-sized layer; neighbours that move by the
    /// same fractions share one nested `<svg>`.
    fn push_fixed_layer(&self, out: &mut String, scene: &Scene, range: Range<usize>) {
        out.push_str("<svg>\n");
        let mut open: Option<(f64, f64)> = None;
        for item in &scene.items[range] {
            let b = bounds(item);
            let (fx, fy) = self.fractions(anchor(item, b), b);
            let fractions = (round4(fx), round4(fy));
            if open != Some(fractions) {
                if open.is_some_and(|f| f != (0.0, 0.0)) {
                    out.push_str("</svg>\n");
                }
                if fractions != (0.0, 0.0) {
                    out.push_str("<svg");
                    if fractions.0 != 0.0 {
                        let _ = write!(out, " x=\"{}%\"", num(fractions.0 * 100.0));
                    }
                    if fractions.1 != 0.0 {
                        let _ = write!(out, " y=\"{}%\"", num(fractions.1 * 100.0));
                    }
                    out.push_str(">\n");
                }
                open = Some(fractions);
            }
            push_item(
                out,
                item,
                (-fractions.0 * self.width, -fractions.1 * self.height),
            );
            out.push('\n');
        }
        if open.is_some_and(|f| f != (0.0, 0.0)) {
            out.push_str("</svg>\n");
        }
        out.push_str("</svg>\n");
    }
}

/// Rounded so that neighbours a hair apart share a nested `<svg>`; 1e-4 of
/// a 1,600 px frame is a sixth of a pixel.
fn round4(f: f64) -> f64 {
    (f * 10_000.0).round() / 10_000.0
}

/// 0 before `lo`, 1 after `hi`, linear between (a plot of no width counts
/// its points before it).
fn fraction(v: f64, lo: f64, hi: f64) -> f64 {
    if hi - lo < 1e-6 {
        return if v <= lo { 0.0 } else { 1.0 };
    }
    ((v - lo) / (hi - lo)).clamp(0.0, 1.0)
}

/// The point an item is held by: a text's anchor, a circle's or a sector's
/// centre, else the middle of its bounds (so a tick follows its value).
fn anchor(item: &Item, b: Rect) -> (f64, f64) {
    match item {
        Item::Text { at, .. } => *at,
        Item::Circle { center, .. } | Item::Sector { center, .. } => *center,
        _ => b.center(),
    }
}

/// An item's extent; a text's is its anchor point (its glyphs are sized in
/// CSS px wherever it goes).
fn bounds(item: &Item) -> Rect {
    let of_points = |points: &[(f64, f64)], pad: f64| {
        let mut iter = points.iter().filter(|p| p.0.is_finite() && p.1.is_finite());
        let Some(&(x, y)) = iter.next() else {
            return Rect::default();
        };
        let (mut x0, mut y0, mut x1, mut y1) = (x, y, x, y);
        for &(x, y) in iter {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        Rect::new(x0 - pad, y0 - pad, x1 - x0 + 2.0 * pad, y1 - y0 + 2.0 * pad)
    };
    match item {
        Item::Rect { rect, .. } => *rect,
        Item::Outline { rect, stroke } => rect.inset(
            -stroke.width / 2.0,
            -stroke.width / 2.0,
            -stroke.width / 2.0,
            -stroke.width / 2.0,
        ),
        Item::Path { points, stroke } => of_points(points, stroke.width / 2.0),
        Item::Polygon { points, .. } => of_points(points, 0.0),
        Item::Circle { center, radius, .. } => of_points(&[*center], *radius),
        Item::Sector { center, outer, .. } => of_points(&[*center], *outer),
        Item::Text { at, .. } => of_points(&[*at], 0.0),
    }
}

/// One item as SVG, moved by `(dx, dy)`.
fn push_item(out: &mut String, item: &Item, (dx, dy): (f64, f64)) {
    let x = |v: f64| num(v + dx);
    let y = |v: f64| num(v + dy);
    match item {
        Item::Rect { rect, fill } => {
            // A visible sliver rather than nothing for tiny non-zero values.
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                x(rect.x),
                y(rect.y),
                num(rect.w.max(1.0)),
                num(rect.h.max(1.0)),
                fill.hex()
            );
        }
        Item::Outline { rect, stroke } => {
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\"",
                x(rect.x),
                y(rect.y),
                num(rect.w),
                num(rect.h)
            );
            push_stroke(out, stroke);
            out.push_str("/>");
        }
        Item::Path { points, stroke } => {
            out.push_str("<path d=\"");
            push_points(out, points, (dx, dy));
            out.push_str("\" fill=\"none\"");
            push_stroke(out, stroke);
            out.push_str("/>");
        }
        Item::Polygon { points, fill } => {
            out.push_str("<path d=\"");
            push_points(out, points, (dx, dy));
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
                x(center.0),
                y(center.1),
                num(*radius),
                fill.map_or_else(|| "none".to_string(), Color::hex)
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
            let full = push_sector(
                out,
                (center.0 + dx, center.1 + dy),
                *inner,
                *outer,
                *start,
                *end,
            );
            let _ = write!(out, "\" fill=\"{}\"", fill.hex());
            if full && *inner > 0.0 {
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
            let (tx, ty) = (x(at.0), y(at.1));
            let _ = write!(
                out,
                "<text x=\"{tx}\" y=\"{ty}\" font-size=\"{}px\" fill=\"{}\"",
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
                let _ = write!(out, " transform=\"rotate(-90 {tx} {ty})\"");
            }
            out.push('>');
            out.push_str(&escape(text));
            out.push_str("</text>");
        }
    }
}

fn push_stroke(out: &mut String, stroke: &Stroke) {
    let _ = write!(out, " stroke=\"{}\"", stroke.color.hex());
    if (stroke.width - 1.0).abs() > 0.005 {
        let _ = write!(out, " stroke-width=\"{}\"", num(stroke.width));
    }
}

/// `M` to the first point, then `L` to each next one that differs once
/// rounded.
fn push_points(out: &mut String, points: &[(f64, f64)], (dx, dy): (f64, f64)) {
    let mut last: Option<(String, String)> = None;
    for &(px, py) in points {
        let p = (num(px + dx), num(py + dy));
        if last.as_ref() == Some(&p) {
            continue;
        }
        out.push(if last.is_none() { 'M' } else { 'L' });
        out.push_str(&p.0);
        if !p.1.starts_with('-') {
            out.push(' ');
        }
        out.push_str(&p.1);
        last = Some(p);
    }
}

/// A ring sector with real arcs (angles clockwise from twelve o'clock);
/// true for a full turn, drawn as two half circles per radius.
fn push_sector(
    out: &mut String,
    (cx, cy): (f64, f64),
    inner: f64,
    outer: f64,
    start: f64,
    end: f64,
) -> bool {
    use std::f64::consts::TAU;
    let sweep = (end - start).clamp(0.0, TAU);
    let on = |r: f64, a: f64| (num(cx + r * a.sin()), num(cy - r * a.cos()));
    if sweep >= TAU - 1e-9 {
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
        return true;
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
