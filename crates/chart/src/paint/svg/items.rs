//! One scene item as SVG markup, for both SVG outputs: the standalone
//! document ([`super::write`]) and the fluid form page ([`super::fluid`]).
//! They differ only in how finely they place points (a [`Grid`]) and in how
//! a text names its style ([`Texts`]).

use std::f64::consts::TAU;
use std::fmt::Write as _;

use crate::scene::{Align, Baseline, Color, Font, Item, Rect, Stroke, Weight};

/// How finely an output places its points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Grid {
    /// On whole pixels, where the canvas replay puts them at a scale of 1,
    /// so that the standalone SVG covers the canvas's pixels.
    Whole,
    /// In tenths of a pixel: the fluid page stretches its plot, so a point
    /// has no pixel to snap to.
    Tenths,
}

impl Grid {
    /// `v` in this grid's units, held to a range any SVG reader takes.
    pub(crate) fn units(self, v: f64) -> i64 {
        if !v.is_finite() {
            return 0;
        }
        match self {
            Grid::Whole => v.round().clamp(-1.0e6, 1.0e6) as i64,
            Grid::Tenths => (v * 10.0).round().clamp(-1.0e9, 1.0e9) as i64,
        }
    }

    /// A number of this grid's units as SVG writes it: no trailing `.0`,
    /// no leading zero.
    pub(crate) fn written(self, u: i64) -> String {
        match self {
            Grid::Whole => u.to_string(),
            Grid::Tenths => {
                let sign = if u < 0 { "-" } else { "" };
                let (whole, tenth) = (u.unsigned_abs() / 10, u.unsigned_abs() % 10);
                match (whole, tenth) {
                    (w, 0) => format!("{sign}{w}"),
                    (0, f) => format!("{sign}.{f}"),
                    (w, f) => format!("{sign}{w}.{f}"),
                }
            }
        }
    }

    /// `v` placed on the grid and written.
    pub(crate) fn at(self, v: f64) -> String {
        self.written(self.units(v))
    }

    /// `v` placed on the grid, as a number.
    fn snapped(self, v: f64) -> f64 {
        match self {
            Grid::Whole => self.units(v) as f64,
            Grid::Tenths => self.units(v) as f64 / 10.0,
        }
    }
}

/// How a text says its size, weight, colour and anchor.
pub(crate) enum Texts<'a> {
    /// As attributes of its own (a standalone document).
    Attributes,
    /// As a class of the page's stylesheet, collected here.
    Classes(&'a mut TextStyles),
}

/// The ways text is set in a page, each a class of the stylesheet
/// (`.t0`, `.t1`, ...): a card has a handful, and its texts many.
#[derive(Debug, Default)]
pub struct TextStyles {
    list: Vec<(Font, Align)>,
}

impl TextStyles {
    pub(crate) fn class(&mut self, font: Font, align: Align) -> usize {
        let key = (font, align);
        match self.list.iter().position(|k| *k == key) {
            Some(at) => at,
            None => {
                self.list.push(key);
                self.list.len() - 1
            }
        }
    }

    /// The rules for the stylesheet: size in CSS px, weight, colour and
    /// anchor. (The baseline is placed by hand, see [`baseline_shift`].)
    pub fn css(&self) -> String {
        let mut css = String::new();
        for (i, (font, align)) in self.list.iter().enumerate() {
            let _ = write!(
                css,
                ".t{i}{{font-size:{}px;fill:{}",
                num(font.size),
                font.color.hex()
            );
            if font.weight == Weight::Bold {
                css.push_str(";font-weight:bold");
            }
            css.push_str(match align {
                Align::Start => "}",
                Align::Middle => ";text-anchor:middle}",
                Align::End => ";text-anchor:end}",
            });
        }
        css
    }
}

/// One item as SVG on `grid`, moved by `(dx, dy)`.
pub(crate) fn push_item(
    out: &mut String,
    item: &Item,
    grid: Grid,
    (dx, dy): (f64, f64),
    texts: &mut Texts<'_>,
) {
    match item {
        Item::Rect { rect, fill } => {
            // A visible sliver rather than nothing for tiny non-zero values.
            push_rect(out, rect, grid, (dx, dy), 1.0);
            let _ = write!(out, " fill=\"{}\"/>", fill.hex());
        }
        Item::Outline { rect, stroke } => {
            push_rect(out, rect, grid, (dx, dy), 0.0);
            out.push_str(" fill=\"none\"");
            push_stroke(out, stroke, grid);
            out.push_str("/>");
        }
        Item::Path { points, stroke } => {
            // A straight stroke on whole pixels is the rectangle the canvas
            // fills for it (see `bar_pixels`): the same crisp pixels.
            if grid == Grid::Whole && (dx, dy) == (0.0, 0.0) {
                if let Some((x0, y0, x1, y1)) = super::super::bar_pixels(points, stroke.width, 1.0)
                {
                    let _ = write!(
                        out,
                        "<rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                        x1 - x0,
                        y1 - y0,
                        stroke.color.hex()
                    );
                    return;
                }
            }
            out.push_str("<path d=\"");
            push_points(out, points, grid, (dx, dy));
            out.push_str("\" fill=\"none\"");
            push_stroke(out, stroke, grid);
            out.push_str("/>");
        }
        Item::Polygon { points, fill } => {
            out.push_str("<path d=\"");
            push_points(out, points, grid, (dx, dy));
            let _ = write!(out, "z\" fill=\"{}\"/>", fill.hex());
        }
        Item::Circle {
            center,
            radius,
            fill,
            stroke,
        } => {
            // On whole pixels the radius is at least one, as the canvas
            // replay draws it.
            let radius = match grid {
                Grid::Whole => grid.snapped(*radius).clamp(1.0, 1000.0),
                Grid::Tenths => *radius,
            };
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"",
                grid.at(center.0 + dx),
                grid.at(center.1 + dy),
                grid.at(radius),
                fill.map_or_else(|| "none".to_string(), Color::hex),
            );
            if let Some(stroke) = stroke {
                push_stroke(out, stroke, grid);
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
            let number = match grid {
                Grid::Whole => num,
                Grid::Tenths => tenths,
            };
            let full = push_sector(
                out,
                (center.0 + dx, center.1 + dy),
                *inner,
                *outer,
                *start,
                *end,
                number,
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
            // Anchored on the grid, as the canvas replay anchors them; the
            // baseline where the canvas puts it; turned text shifts in its
            // own frame, turning about the anchor.
            let (ax, ay) = (grid.snapped(at.0 + dx), grid.snapped(at.1 + dy));
            let (x, y) = (grid.at(ax), grid.at(ay));
            let shift = baseline_shift(*baseline) * font.size;
            let base = match grid {
                Grid::Whole => num(ay + shift),
                Grid::Tenths => grid.at(at.1 + dy + shift),
            };
            match texts {
                Texts::Attributes => {
                    let _ = write!(
                        out,
                        "<text x=\"{x}\" y=\"{base}\" font-size=\"{}\" fill=\"{}\"",
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
                }
                Texts::Classes(styles) => {
                    let class = styles.class(*font, *align);
                    let _ = write!(out, "<text class=\"t{class}\" x=\"{x}\" y=\"{base}\"");
                }
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

/// A polygon and then its own outline (a map region) as one element, when
/// `line` runs once around `polygon`, back to its start; false otherwise,
/// with nothing written.
pub(crate) fn push_outlined(
    out: &mut String,
    (polygon, fill): (&[(f64, f64)], Color),
    (line, stroke): (&[(f64, f64)], &Stroke),
    grid: Grid,
) -> bool {
    let outlines = line.len() == polygon.len() + 1
        && line.starts_with(polygon)
        && line.last() == polygon.first();
    if outlines {
        out.push_str("<path d=\"");
        push_points(out, polygon, grid, (0.0, 0.0));
        let _ = write!(out, "z\" fill=\"{}\"", fill.hex());
        push_stroke(out, stroke, grid);
        out.push_str("/>\n");
    }
    outlines
}

/// `<rect x y width height` with its corners on the grid (crisp edges, and
/// on whole pixels the canvas's pixels), at least `least` px a side.
fn push_rect(out: &mut String, r: &Rect, grid: Grid, (dx, dy): (f64, f64), least: f64) {
    let (x0, y0) = (grid.snapped(r.x + dx), grid.snapped(r.y + dy));
    let (x1, y1) = (grid.snapped(r.right() + dx), grid.snapped(r.bottom() + dy));
    let _ = write!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
        grid.at(x0),
        grid.at(y0),
        grid.at((x1 - x0).max(least)),
        grid.at((y1 - y0).max(least))
    );
}

/// The stroke's colour and, unless it is 1, its width: on whole pixels as
/// the canvas replay draws it at a scale of 1 (at least one).
pub(crate) fn push_stroke(out: &mut String, stroke: &Stroke, grid: Grid) {
    let _ = write!(out, " stroke=\"{}\"", stroke.color.hex());
    let width = match grid {
        Grid::Whole => grid.snapped(stroke.width).clamp(1.0, 64.0),
        Grid::Tenths => stroke.width,
    };
    if (width - 1.0).abs() > 0.005 {
        let _ = write!(out, " stroke-width=\"{}\"", num(width));
    }
}

/// `M` to the first point, then relative steps, taken between points
/// placed on the grid so that rounding never accumulates along a line; a
/// step that rounds to nothing is left out.
pub(crate) fn push_points(
    out: &mut String,
    points: &[(f64, f64)],
    grid: Grid,
    (dx, dy): (f64, f64),
) {
    let mut last: Option<(i64, i64)> = None;
    let mut stepped = false;
    for &(x, y) in points {
        let p = (grid.units(x + dx), grid.units(y + dy));
        match last {
            None => {
                out.push('M');
                push_pair(out, p, grid);
            }
            Some(l) if l == p => continue,
            Some(l) => {
                if !stepped {
                    out.push('l');
                    stepped = true;
                }
                push_pair(out, (p.0 - l.0, p.1 - l.1), grid);
            }
        }
        last = Some(p);
    }
}

/// Two numbers of a path; a minus sign separates a number from the one
/// before, else a space does (none after a command letter).
pub(crate) fn push_pair(out: &mut String, (a, b): (i64, i64), grid: Grid) {
    for n in [a, b] {
        if n >= 0 && !out.ends_with(|c: char| c.is_ascii_alphabetic()) {
            out.push(' ');
        }
        out.push_str(&grid.written(n));
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

/// A ring sector with real arcs, its numbers written by `number`; true for
/// a full turn, drawn as two half circles per radius.
fn push_sector(
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

/// A number with at most two decimals and no trailing zeros.
pub fn num(v: f64) -> String {
    let h = if v.is_finite() {
        (v * 100.0).round().clamp(-1.0e9, 1.0e9) as i64
    } else {
        0
    };
    let sign = if h < 0 { "-" } else { "" };
    let (whole, frac) = (h.unsigned_abs() / 100, h.unsigned_abs() % 100);
    match frac {
        0 => format!("{sign}{whole}"),
        f if f % 10 == 0 => format!("{sign}{whole}.{}", f / 10),
        f => format!("{sign}{whole}.{f:02}"),
    }
}

/// A number in tenths, as the fluid page writes its points.
pub(crate) fn tenths(v: f64) -> String {
    Grid::Tenths.at(v)
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
