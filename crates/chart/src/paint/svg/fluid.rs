//! A scene written as markup that fits any frame without scaling its text:
//! margins, text, dots, ticks and legends keep their size in CSS pixels,
//! and only the plot area stretches. What follows how is read from the
//! scene, never guessed from coordinates: each item's [`Role`] and the
//! scene's [`Fit`].
//!
//! Chrome and labels move along each axis by a fraction `f` of the frame's
//! growth: 0 left of (above) the plot, 1 right of (below) it, and in
//! between linearly inside it. A point then sits at `v - f·W` px plus
//! `f·100%` of the frame, which SVG says without CSS: a nested
//! `<svg x="f%" y="g%">` holds items shifted by `-f·W`, `-g·H`.
//!
//! The plot's marks (bars, lines, areas, grid and axis lines) go instead
//! into a layer of their own that the page's stylesheet places over the
//! plot area with `calc(100% - margins)`: an outermost `<svg>` in HTML is a
//! CSS box, so it takes `left`, `top`, `width` and `height` in both
//! Chromium and Firefox (a nested `<svg>` does not: both ignore CSS
//! geometry on it). That layer's viewBox is the plot rectangle and
//! `preserveAspectRatio="none"` stretches it; strokes do not grow
//! (`vector-effect: non-scaling-stroke`, set by the stylesheet). Plots that
//! keep their aspect ratio (maps, pies) scale uniformly (`xMidYMid meet`),
//! their labels pinned to where their marks land.

use std::fmt::Write as _;

use super::items::{
    baseline_shift, escape, num, push_item, push_outlined, push_pair, push_points, tenths, Grid,
    TextStyles, Texts,
};
use crate::scene::{Color, Fit, Item, Rect, Role, Scene, Stroke};

/// How far outside the plot a point may be and still count as inside it:
/// half an axis line's width, and rounding.
const EPS: f64 = 1.0;

/// Where a layout's stretching layer goes, in CSS px from the frame's
/// edges: the plot's margins (and its height, when it keeps it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Margins {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    /// The plot's own height, for marks that only widen.
    pub height: Option<f64>,
}

/// One layout written for the page: its markup and, when it has a
/// stretching layer, that layer's margins (for the stylesheet).
pub struct Written {
    pub markup: String,
    pub margins: Option<Margins>,
    /// The box (`.q`) of the texts pinned to marks that keep their shape:
    /// its CSS declarations, for the stylesheet.
    pub pinned: Option<String>,
    /// A map's regions, written once for the page (`#s`) when this layout
    /// is the first to draw them; its layer refers to them.
    pub shapes: Option<Shapes>,
}

/// Marks both layouts draw alike (a map's regions, scaled uniformly into
/// each layout's plot area): the markup of `<g id="s">` and the viewBox
/// they are drawn in, so that the page carries them once.
pub struct Shapes {
    pub view_box: String,
    pub markup: String,
}

/// Which layer an item goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layer {
    /// Inside the plot, stretched with it.
    Plot,
    /// Anchored: kept at its size in CSS px.
    Fixed,
}

/// How many later layers a shape may be moved back past: enough for the
/// gridline-tick-gridline rhythm of an axis, and a bound on the work.
const LOOK_BACK: usize = 8;

/// Items of one layer and the union of their bounds.
struct Group<'s> {
    layer: Layer,
    items: Vec<&'s Item>,
    bounds: Rect,
}

/// Writes `scene` as a sequence of layers (outermost `<svg>` elements);
/// each item follows the frame as its role and the scene's fit say;
/// `styles` collects the
/// ways its texts are set.
///
/// Switching layers costs markup, so a shape joins the last layer of its
/// kind unless a later layer holds something it overlaps (painting order
/// matters only where shapes overlap). Texts go last, above every mark, as
/// the layout draws them after the marks they label.
pub fn write(scene: &Scene, styles: &mut TextStyles, shared: Option<&Shapes>) -> Written {
    let geometry = Geometry::of(scene);
    let mut groups: Vec<Group<'_>> = Vec::new();
    let mut texts: Vec<&Item> = Vec::new();
    let mut pinned: Vec<&Item> = Vec::new();
    for (role, item) in scene.placed() {
        if let Item::Text { vertical, .. } = item {
            if geometry.keep_shape && role == Role::Label && !vertical {
                pinned.push(item);
            } else {
                texts.push(item);
            }
            continue;
        }
        let layer = geometry.layer(role, item);
        let b = bounds(item).inset(-1.0, -1.0, -1.0, -1.0);
        let home = groups.iter().rposition(|g| g.layer == layer).filter(|&at| {
            groups.len() - at <= LOOK_BACK
                && groups[at + 1..]
                    .iter()
                    .all(|later| !intersects(later.bounds, b))
        });
        match home {
            Some(at) => {
                let group = &mut groups[at];
                group.items.push(item);
                group.bounds = union(group.bounds, b);
            }
            None => groups.push(Group {
                layer,
                items: vec![item],
                bounds: b,
            }),
        }
    }
    if !texts.is_empty() {
        groups.push(Group {
            layer: Layer::Fixed,
            items: texts,
            bounds: Rect::default(),
        });
    }
    // Shapes that only scale uniformly look the same in both layouts, up
    // to their scale: the page can carry them once, when they are one
    // layer with no text pinned to them.
    let shareable = geometry.keep_shape
        && pinned.is_empty()
        && groups.iter().filter(|g| g.layer == Layer::Plot).count() == 1;
    let mut shapes = None;
    let mut out = String::with_capacity(512 + scene.items.len() * 48);
    let mut has_plot_layer = false;
    for group in &groups {
        match group.layer {
            Layer::Plot if shareable => {
                has_plot_layer = true;
                let view_box = match shared {
                    Some(shared) => shared.view_box.clone(),
                    None => {
                        let mut markup = String::new();
                        geometry.push_plot_items(&mut markup, &group.items, styles);
                        // Their own extent, so that each layout fits them
                        // to its plot area as tightly as its own would.
                        let extent = group
                            .items
                            .iter()
                            .map(|i| bounds(i))
                            .reduce(union)
                            .unwrap_or(geometry.plot);
                        let drawn = Shapes {
                            view_box: view_box(extent),
                            markup,
                        };
                        let view_box = drawn.view_box.clone();
                        shapes = Some(drawn);
                        view_box
                    }
                };
                let _ = writeln!(
                    out,
                    "<svg class=\"p\" viewBox=\"{view_box}\" preserveAspectRatio=\"xMidYMid meet\">\n<use href=\"#s\"/>\n</svg>"
                );
            }
            Layer::Plot => {
                has_plot_layer = true;
                geometry.push_plot_layer(&mut out, &group.items, styles);
            }
            Layer::Fixed => geometry.push_fixed_layer(&mut out, &group.items, styles),
        }
    }
    if !pinned.is_empty() {
        // Texts in the box the plot's marks are scaled into: percentages of
        // it are places on the marks, whatever the scale; the text keeps
        // its size.
        out.push_str("<svg class=\"q\">\n");
        let p = geometry.plot;
        for item in &pinned {
            if let Item::Text {
                text,
                at,
                font,
                align,
                baseline,
                ..
            } = item
            {
                let class = styles.class(*font, *align);
                let _ = write!(
                    out,
                    "<text class=\"t{class}\" x=\"{}%\" y=\"{}%\"",
                    num(fraction(at.0, p.x, p.right()) * 100.0),
                    num(fraction(at.1, p.y, p.bottom()) * 100.0),
                );
                let shift = tenths(baseline_shift(*baseline) * font.size);
                if shift != "0" {
                    let _ = write!(out, " dy=\"{shift}\"");
                }
                out.push('>');
                out.push_str(&escape(text));
                out.push_str("</text>\n");
            }
        }
        out.push_str("</svg>\n");
    }
    Written {
        markup: out,
        margins: (has_plot_layer || !pinned.is_empty()).then(|| geometry.margins()),
        pinned: (!pinned.is_empty()).then(|| geometry.fitted_box()),
        shapes,
    }
}

fn intersects(a: Rect, b: Rect) -> bool {
    a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom()
}

fn union(a: Rect, b: Rect) -> Rect {
    let (x, y) = (a.x.min(b.x), a.y.min(b.y));
    Rect::new(
        x,
        y,
        a.right().max(b.right()) - x,
        a.bottom().max(b.bottom()) - y,
    )
}

/// The scene's size and plot area, and how each point follows the frame.
struct Geometry {
    width: f64,
    height: f64,
    plot: Rect,
    /// Chrome inside the plot area stays at its centre (a pie's).
    centred: bool,
    /// Rows keep their height and their place from the top.
    rows: bool,
    /// The plot's marks scale uniformly, centred (maps, pies).
    keep_shape: bool,
}

impl Geometry {
    fn of(scene: &Scene) -> Geometry {
        let whole = Rect::new(0.0, 0.0, scene.width, scene.height);
        Geometry {
            width: scene.width,
            height: scene.height,
            plot: scene.plot.unwrap_or(whole),
            centred: scene.fit == Fit::ScaleCentred,
            rows: scene.fit == Fit::Rows,
            keep_shape: scene.fit.keeps_aspect(),
        }
    }

    /// The CSS box a plot's marks are scaled into (`xMidYMid meet`): the
    /// plot's proportions at the lesser of its growth across and down,
    /// centred in its area. `--w` and `--h` are the plot area's size in the
    /// frame (see `chart_page`).
    fn fitted_box(&self) -> String {
        let (w, h) = (self.plot.w.max(0.01), self.plot.h.max(0.01));
        let width = format!("min(var(--w), var(--h)*{})", ratio(w / h));
        let height = format!("min(var(--h), var(--w)*{})", ratio(h / w));
        format!(
            "left:calc({}px + (var(--w) - {width})/2);top:calc({}px + (var(--h) - {height})/2);\
             width:{width};height:{height}",
            num(self.plot.x),
            num(self.plot.y),
        )
    }

    fn margins(&self) -> Margins {
        Margins {
            left: self.plot.x,
            top: self.plot.y,
            right: self.width - self.plot.right(),
            bottom: self.height - self.plot.bottom(),
            height: self.rows.then_some(self.plot.h),
        }
    }

    /// A mark stretches or scales with the plot; chrome, and a mark that
    /// cannot (an outlined circle: its outline would scale; a pie's slice
    /// in a plot that stretches), keeps its size.
    fn layer(&self, role: Role, item: &Item) -> Layer {
        match (role, item) {
            (Role::Mark, Item::Circle { fill: None, .. }) => Layer::Fixed,
            (Role::Mark, Item::Sector { .. }) if !self.keep_shape => Layer::Fixed,
            (Role::Mark, _) => Layer::Plot,
            (Role::Chrome | Role::Label, _) => Layer::Fixed,
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
        if self.centred {
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
        let fy = if self.rows {
            0.0
        } else {
            fraction(y, p.y, p.bottom())
        };
        (fraction(x, p.x, p.right()), fy)
    }

    fn push_plot_layer(&self, out: &mut String, items: &[&Item], styles: &mut TextStyles) {
        let aspect = if self.keep_shape {
            "xMidYMid meet"
        } else {
            "none"
        };
        let _ = writeln!(
            out,
            "<svg class=\"p\" viewBox=\"{}\" preserveAspectRatio=\"{aspect}\">",
            self.view_box()
        );
        self.push_plot_items(out, items, styles);
        out.push_str("</svg>\n");
    }

    /// The plot rectangle as a viewBox.
    fn view_box(&self) -> String {
        view_box(self.plot)
    }

    /// The items of a stretching layer, in plot coordinates.
    fn push_plot_items(&self, out: &mut String, items: &[&Item], styles: &mut TextStyles) {
        // Where the plot keeps its shape, a circle is a mark of the map
        // (a bubble's area is its value): it scales with the plot as every
        // other mark does, so it is written as itself, not as a dot that
        // keeps its size.
        let marks = if self.keep_shape {
            items.iter().map(|&item| Mark::Item(item)).collect()
        } else {
            gather_dots(items)
        };
        let mut marks = marks.iter().peekable();
        while let Some(mark) = marks.next() {
            let item = match mark {
                Mark::Dots(first, centers) => {
                    if let Item::Circle {
                        radius,
                        fill: Some(fill),
                        stroke,
                        ..
                    } = first
                    {
                        push_dots(out, centers, *radius, *fill, stroke.as_ref());
                    }
                    continue;
                }
                Mark::Item(item) => *item,
            };
            // A shape and then its own outline (map regions) are one element.
            if let (
                Item::Polygon { points, fill },
                Some(Mark::Item(Item::Path {
                    points: line,
                    stroke,
                })),
            ) = (item, marks.peek())
            {
                if push_outlined(out, (points, *fill), (line, stroke), Grid::Tenths) {
                    marks.next();
                    continue;
                }
            }
            if let Item::Path { points, stroke } = item {
                // Neighbouring lines of one stroke (gridlines, a pie's
                // seams) are one path of several lines.
                out.push_str("<path d=\"");
                push_points(out, points, Grid::Tenths, (0.0, 0.0));
                while let Some(Mark::Item(Item::Path {
                    points: next,
                    stroke: same,
                })) = marks.peek()
                {
                    if same != stroke {
                        break;
                    }
                    push_points(out, next, Grid::Tenths, (0.0, 0.0));
                    marks.next();
                }
                out.push_str("\" fill=\"none\"");
                super::items::push_stroke(out, stroke, Grid::Tenths);
                out.push_str("/>\n");
                continue;
            }
            push_item(
                out,
                item,
                Grid::Tenths,
                (0.0, 0.0),
                &mut Texts::Classes(styles),
            );
            out.push('\n');
        }
    }

    /// Anchored items in one frame-sized layer; neighbours that move by the
    /// same fractions share one nested `<svg>`.
    fn push_fixed_layer(&self, out: &mut String, items: &[&Item], styles: &mut TextStyles) {
        out.push_str("<svg>\n");
        let mut open: Option<(f64, f64)> = None;
        for &item in items {
            let b = bounds(item);
            let (fx, fy) = self.fractions(anchor(item, b), b);
            let fractions = (round4(fx), round4(fy));
            if let Item::Text {
                text,
                at,
                font,
                align,
                baseline,
                vertical: false,
            } = item
            {
                // A text says `f%` plus px itself (x and dx): no nested <svg>.
                if open.is_some_and(|f| f != (0.0, 0.0)) {
                    out.push_str("</svg>\n");
                    open = Some((0.0, 0.0));
                }
                let class = styles.class(*font, *align);
                let _ = write!(out, "<text class=\"t{class}\"");
                push_position(out, "x", at.0, fractions.0, self.width);
                let base = at.1 + baseline_shift(*baseline) * font.size;
                push_position(out, "y", base, fractions.1, self.height);
                out.push('>');
                out.push_str(&escape(text));
                out.push_str("</text>\n");
                continue;
            }
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
                Grid::Tenths,
                (-fractions.0 * self.width, -fractions.1 * self.height),
                &mut Texts::Classes(styles),
            );
            out.push('\n');
        }
        if open.is_some_and(|f| f != (0.0, 0.0)) {
            out.push_str("</svg>\n");
        }
        out.push_str("</svg>\n");
    }
}

/// How many dots a dot may be moved back past, at most: the overlap test
/// is pairwise, so this bounds its work.
const DOTS_PASSED: usize = 256;

/// What a stretching layer writes: an item, or dots of one kind.
enum Mark<'s> {
    Item(&'s Item),
    /// The first dot of its kind, and the centres of all it stands for.
    Dots(&'s Item, Vec<(f64, f64)>),
}

/// The layer's items with dots of one kind gathered: a dot joins the last
/// earlier one of its kind (radius, colours) when it overlaps nothing
/// painted between them, so that the order seen is the same.
fn gather_dots<'s>(items: &[&'s Item]) -> Vec<Mark<'s>> {
    let mut marks: Vec<Mark<'s>> = Vec::with_capacity(items.len());
    // Per mark: the bounds of everything it stands for.
    let mut extents: Vec<Vec<Rect>> = Vec::with_capacity(items.len());
    for &item in items {
        let b = bounds(item);
        let Item::Circle {
            center,
            radius,
            fill: Some(fill),
            stroke,
        } = item
        else {
            marks.push(Mark::Item(item));
            extents.push(vec![b]);
            continue;
        };
        // Back to the last dot of this kind, past at most DOTS_PASSED items
        // (so each dot costs bounded work), none of which it overlaps.
        let mut passed = 0;
        let mut joins = None;
        for (at, (m, extent)) in marks.iter().zip(&extents).enumerate().rev() {
            if matches!(m, Mark::Dots(Item::Circle { radius: r, fill: Some(f), stroke: s, .. }, _)
                if r == radius && f == fill && s == stroke)
            {
                joins = Some(at);
                break;
            }
            passed += extent.len();
            if passed > DOTS_PASSED || extent.iter().any(|e| intersects(*e, b)) {
                break;
            }
        }
        match joins.and_then(|at| Some((marks.get_mut(at)?, extents.get_mut(at)?))) {
            Some((Mark::Dots(_, centers), extent)) => {
                centers.push(*center);
                extent.push(b);
            }
            _ => {
                marks.push(Mark::Dots(item, vec![*center]));
                extents.push(vec![b]);
            }
        }
    }
    marks
}

/// Filled circles in a stretching layer, as round caps of lines of no
/// length (`.d`): a stroke that does not scale, so they stay round and
/// their size in CSS px. An outlined circle is its outline's disc under
/// its fill's.
fn push_dots(
    out: &mut String,
    centers: &[(f64, f64)],
    radius: f64,
    fill: Color,
    stroke: Option<&Stroke>,
) {
    let discs = match stroke {
        Some(s) => vec![
            (radius * 2.0 + s.width, s.color),
            (radius * 2.0 - s.width, fill),
        ],
        None => vec![(radius * 2.0, fill)],
    };
    for (width, color) in discs {
        if width <= 0.0 {
            continue;
        }
        out.push_str("<path class=\"d\" d=\"");
        for &(x, y) in centers {
            out.push('M');
            push_pair(
                out,
                (Grid::Tenths.units(x), Grid::Tenths.units(y)),
                Grid::Tenths,
            );
            out.push_str("h0");
        }
        let _ = writeln!(
            out,
            "\" stroke=\"{}\" stroke-width=\"{}\"/>",
            color.hex(),
            num(width)
        );
    }
}

/// ` x="v"`, or ` x="f%" dx="v - f·size"` for a point that moves by the
/// fraction `f` of the frame's growth.
fn push_position(out: &mut String, name: &str, v: f64, f: f64, size: f64) {
    if f == 0.0 {
        let _ = write!(out, " {name}=\"{}\"", tenths(v));
        return;
    }
    let _ = write!(out, " {name}=\"{}%\"", num(f * 100.0));
    let shift = tenths(v - f * size);
    if shift != "0" {
        let _ = write!(out, " d{name}=\"{shift}\"");
    }
}

fn view_box(r: Rect) -> String {
    format!(
        "{} {} {} {}",
        num(r.x),
        num(r.y),
        num(r.w.max(0.01)),
        num(r.h.max(0.01))
    )
}

/// A factor for CSS: six decimals, no exponent.
fn ratio(v: f64) -> String {
    // Four decimals: a ten-thousandth of a 1,600 px plot is a sixth of a px.
    let v = if v.is_finite() { v } else { 0.0 };
    let text = format!("{v:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "" | "-0" | "0" => "0".to_string(),
        t => t.replacen("0.", ".", 1),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Align, Baseline, Font, Weight};

    const INK: Color = Color(0x20, 0x20, 0x20);

    fn text(s: &str, at: (f64, f64)) -> Item {
        Item::Text {
            text: s.into(),
            at,
            font: Font::new(12.0, Weight::Regular, INK),
            align: Align::Middle,
            baseline: Baseline::Top,
            vertical: false,
        }
    }

    /// `scene` fitted as `fit`, with the roles a layout would give its
    /// items: what lies in the plot is a mark (a text there, a label),
    /// the rest chrome.
    fn laid_out(mut scene: Scene, fit: Fit) -> Scene {
        let p = scene.plot.unwrap_or_default();
        let inside = |b: Rect| {
            b.x >= p.x - EPS
                && b.y >= p.y - EPS
                && b.right() <= p.right() + EPS
                && b.bottom() <= p.bottom() + EPS
        };
        scene.roles = scene
            .items
            .iter()
            .map(|item| match item {
                Item::Text { at, .. } if inside(Rect::new(at.0, at.1, 0.0, 0.0)) => Role::Label,
                Item::Circle { center, .. } if inside(Rect::new(center.0, center.1, 0.0, 0.0)) => {
                    Role::Mark
                }
                Item::Text { .. } | Item::Circle { .. } => Role::Chrome,
                _ if inside(bounds(item)) => Role::Mark,
                _ => Role::Chrome,
            })
            .collect();
        scene.fit = fit;
        scene
    }

    /// 400 x 300 with the plot at x 50..350, y 40..240: margins 50, 40,
    /// 50 and 60 px.
    fn scene(items: Vec<Item>) -> Scene {
        Scene {
            width: 400.0,
            height: 300.0,
            plot: Some(Rect::new(50.0, 40.0, 300.0, 200.0)),
            items,
            ..Scene::default()
        }
    }

    #[test]
    fn marks_inside_the_plot_stretch_and_the_margins_are_kept() {
        let bar = Item::Rect {
            rect: Rect::new(60.0, 100.0, 40.0, 140.0),
            fill: INK,
        };
        let axis = Item::Path {
            points: vec![(50.0, 240.0), (350.0, 240.0)],
            stroke: Stroke {
                color: INK,
                width: 1.0,
            },
        };
        let written = write(
            &laid_out(scene(vec![bar.clone(), axis]), Fit::Stretch),
            &mut TextStyles::default(),
            None,
        );
        assert_eq!(
            written.markup,
            "<svg class=\"p\" viewBox=\"50 40 300 200\" preserveAspectRatio=\"none\">\n\
             <rect x=\"60\" y=\"100\" width=\"40\" height=\"140\" fill=\"#202020\"/>\n\
             <path d=\"M50 240l300 0\" fill=\"none\" stroke=\"#202020\"/>\n</svg>\n"
        );
        assert_eq!(
            written.margins,
            Some(Margins {
                left: 50.0,
                top: 40.0,
                right: 50.0,
                bottom: 60.0,
                height: None,
            })
        );
        let shapes = write(
            &laid_out(scene(vec![bar]), Fit::Scale),
            &mut TextStyles::default(),
            None,
        )
        .markup;
        assert!(
            shapes.contains("preserveAspectRatio=\"xMidYMid meet\""),
            "{shapes}"
        );
    }

    #[test]
    fn anchored_items_move_by_their_share_of_the_plot() {
        let items = vec![
            // The title, above the plot: fixed from the top left.
            text("Title", (16.0, 10.0)),
            // A y tick label, left of the plot halfway down.
            text("50", (45.0, 140.0)),
            // An x label under the middle of the plot.
            text("East", (200.0, 250.0)),
            // A ring (an outlier mark) in the plot's bottom right corner.
            Item::Circle {
                center: (350.0, 240.0),
                radius: 3.0,
                fill: None,
                stroke: Some(Stroke {
                    color: INK,
                    width: 1.0,
                }),
            },
            // A tick mark crossing the plot's bottom edge, a quarter in.
            Item::Path {
                points: vec![(125.0, 236.0), (125.0, 246.0)],
                stroke: Stroke {
                    color: INK,
                    width: 1.0,
                },
            },
        ];
        let mut styles = TextStyles::default();
        let written = write(&laid_out(scene(items), Fit::Stretch), &mut styles, None);
        let lines: Vec<&str> = written.markup.lines().collect();
        assert_eq!(
            lines,
            [
                "<svg>",
                "<svg x=\"100%\" y=\"100%\">",
                "<circle cx=\"-50\" cy=\"-60\" r=\"3\" fill=\"none\" stroke=\"#202020\"/>",
                "</svg>",
                // Held by its middle (y 241, below the plot): 125 - 100 + 25%.
                "<svg x=\"25%\" y=\"100%\">",
                "<path d=\"M25-64l0 10\" fill=\"none\" stroke=\"#202020\"/>",
                "</svg>",
                "</svg>",
                // Texts last, above the marks.
                "<svg>",
                "<text class=\"t0\" x=\"16\" y=\"19.3\">Title</text>",
                // y' = 140 - 150 + 50% of the frame: the middle of the
                // plot for any height with margins 40 and 60.
                "<text class=\"t0\" x=\"45\" y=\"50%\" dy=\"-.7\">50</text>",
                "<text class=\"t0\" x=\"50%\" y=\"100%\" dy=\"-40.7\">East</text>",
                "</svg>",
            ]
        );
        assert_eq!(
            styles.css(),
            ".t0{font-size:12px;fill:#202020;text-anchor:middle}"
        );
        assert_eq!(written.margins, None, "no stretching layer, no rule");
    }

    /// Where `markup`'s anchored item lands in a frame `w` x `h`: the px
    /// of the item plus the nested `<svg>`'s percentages of the frame.
    fn landed(markup: &str, attribute: &str, (w, h): (f64, f64)) -> (f64, f64) {
        let number = |name: &str, unit: &str| -> f64 {
            markup
                .split(&format!(" {name}=\""))
                .nth(1)
                .and_then(|rest| rest.split(&format!("{unit}\"")).next())
                .and_then(|v| v.parse().ok())
                .unwrap_or(0.0)
        };
        let (fx, fy) = (number("x", "%") / 100.0, number("y", "%") / 100.0);
        let inner = markup.rsplit("<svg").next().unwrap_or_default();
        let (x, y) = (
            number_in(inner, &format!("{attribute}x")),
            number_in(inner, &format!("{attribute}y")),
        );
        (x + fx * w, y + fy * h)
    }

    fn number_in(markup: &str, name: &str) -> f64 {
        markup
            .split(&format!(" {name}=\""))
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(f64::NAN)
    }

    #[test]
    fn in_any_frame_a_point_keeps_its_place_relative_to_the_plot() {
        // A ring at 30% across and 75% down the plot.
        let dot = Item::Circle {
            center: (140.0, 190.0),
            radius: 2.0,
            fill: None,
            stroke: Some(Stroke {
                color: INK,
                width: 1.0,
            }),
        };
        let markup = write(
            &laid_out(scene(vec![dot]), Fit::Stretch),
            &mut TextStyles::default(),
            None,
        )
        .markup;
        for (w, h) in [(400.0, 300.0), (320.0, 240.0), (1600.0, 1200.0)] {
            // The plot in that frame: margins fixed, the rest its size.
            let (pw, ph) = (w - 100.0, h - 100.0);
            let want = (50.0 + 0.3 * pw, 40.0 + 0.75 * ph);
            let got = landed(&markup, "c", (w, h));
            assert!(
                (got.0 - want.0).abs() < 0.05 && (got.1 - want.1).abs() < 0.05,
                "{w}x{h}: {got:?} for {want:?} in {markup}"
            );
        }
    }

    #[test]
    fn a_pie_scales_its_slices_and_keeps_its_legend_beside_its_middle() {
        let slice = Item::Sector {
            center: (200.0, 140.0),
            outer: 90.0,
            inner: 0.0,
            start: 0.0,
            end: 1.0,
            fill: INK,
        };
        let legend = text("Chrome 64%", (360.0, 130.0));
        let written = write(
            &laid_out(scene(vec![slice, legend]), Fit::ScaleCentred),
            &mut TextStyles::default(),
            None,
        );
        let lines: Vec<&str> = written.markup.lines().collect();
        // Scaled uniformly, the slices are shapes the page carries once.
        assert_eq!(
            lines[..2],
            [
                "<svg class=\"p\" viewBox=\"110 50 180 180\" preserveAspectRatio=\"xMidYMid meet\">",
                "<use href=\"#s\"/>"
            ],
            "{}",
            written.markup
        );
        let shapes = written.shapes.map(|s| s.markup).unwrap_or_default();
        assert!(
            shapes.starts_with("<path d=\"M200 50A90 90 0 0 1 "),
            "{shapes}"
        );
        // Chrome beside the plot: at the right edge, at the plot's middle.
        assert!(
            lines.contains(
                &"<text class=\"t0\" x=\"100%\" dx=\"-40\" y=\"50%\" dy=\"-10.7\">Chrome 64%</text>"
            ),
            "{}",
            written.markup
        );
    }

    fn line(points: Vec<(f64, f64)>) -> Item {
        Item::Path {
            points,
            stroke: Stroke {
                color: INK,
                width: 1.0,
            },
        }
    }

    /// The tags in each outermost layer, in order.
    fn layers(markup: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut depth = 0;
        for l in markup.lines() {
            if l.starts_with("<svg") {
                if depth == 0 {
                    out.push(String::new());
                }
                depth += 1;
            } else if l.starts_with("</svg") {
                depth -= 1;
            } else if let Some(layer) = out.last_mut() {
                if !layer.is_empty() {
                    layer.push(' ');
                }
                layer.push_str(l.split(' ').next().unwrap_or_default());
            }
        }
        out
    }

    #[test]
    fn shapes_join_earlier_layers_only_past_what_they_do_not_overlap() {
        let grid = line(vec![(50.0, 100.0), (350.0, 100.0)]);
        // A tick left of the plot: it overlaps nothing inside it.
        let tick = line(vec![(44.0, 100.0), (50.0, 100.0)]);
        let bar = Item::Rect {
            rect: Rect::new(60.0, 120.0, 40.0, 120.0),
            fill: INK,
        };
        let label = text("A", (200.0, 120.0));
        let markup = write(
            &laid_out(scene(vec![grid.clone(), tick, label, bar]), Fit::Stretch),
            &mut TextStyles::default(),
            None,
        )
        .markup;
        // The bar joins the gridline's layer; the text comes last.
        assert_eq!(
            layers(&markup),
            ["<path <rect", "<path", "<text"],
            "{markup}"
        );

        // A ring on a line, then a line over the ring: the second line must
        // be painted after the ring, so it opens a layer of its own.
        let dot = Item::Circle {
            center: (200.0, 100.0),
            radius: 3.0,
            fill: None,
            stroke: Some(Stroke {
                color: INK,
                width: 1.0,
            }),
        };
        let over = line(vec![(50.0, 90.0), (350.0, 110.0)]);
        let markup = write(
            &laid_out(scene(vec![grid, dot, over]), Fit::Stretch),
            &mut TextStyles::default(),
            None,
        )
        .markup;
        assert_eq!(layers(&markup), ["<path", "<circle", "<path"], "{markup}");
    }

    fn disc(center: (f64, f64), radius: f64, fill: Color) -> Item {
        Item::Circle {
            center,
            radius,
            fill: Some(fill),
            stroke: None,
        }
    }

    #[test]
    fn dots_are_round_caps_gathered_by_kind_where_nothing_between_overlaps() {
        const HALO: Color = Color(255, 255, 255);
        // A halo then a dot per point, as scatter plots draw them: the two
        // far apart points become one path of halos and one of dots.
        let far = vec![
            disc((100.0, 100.0), 3.5, HALO),
            disc((100.0, 100.0), 2.5, INK),
            disc((300.0, 200.0), 3.5, HALO),
            disc((300.0, 200.0), 2.5, INK),
        ];
        let markup = write(
            &laid_out(scene(far), Fit::Stretch),
            &mut TextStyles::default(),
            None,
        )
        .markup;
        assert_eq!(
            markup,
            "<svg class=\"p\" viewBox=\"50 40 300 200\" preserveAspectRatio=\"none\">\n\
             <path class=\"d\" d=\"M100 100h0M300 200h0\" stroke=\"#ffffff\" stroke-width=\"7\"/>\n\
             <path class=\"d\" d=\"M100 100h0M300 200h0\" stroke=\"#202020\" stroke-width=\"5\"/>\n\
             </svg>\n"
        );
        // Overlapping points keep their order: the second halo covers the
        // first dot.
        let near = vec![
            disc((100.0, 100.0), 3.5, HALO),
            disc((100.0, 100.0), 2.5, INK),
            disc((103.0, 100.0), 3.5, HALO),
            disc((103.0, 100.0), 2.5, INK),
        ];
        let markup = write(
            &laid_out(scene(near), Fit::Stretch),
            &mut TextStyles::default(),
            None,
        )
        .markup;
        assert_eq!(markup.matches("<path class=\"d\"").count(), 4, "{markup}");
    }

    #[test]
    fn a_shape_keeping_plot_scales_its_marks_and_pins_its_texts_where_they_land() {
        let slice = Item::Sector {
            center: (200.0, 140.0),
            outer: 90.0,
            inner: 0.0,
            start: 0.0,
            end: 1.0,
            fill: INK,
        };
        // A label 60 px right of the plot's middle, 30 px above it.
        let label = text("64%", (260.0, 110.0));
        let written = write(
            &laid_out(scene(vec![slice, label]), Fit::Scale),
            &mut TextStyles::default(),
            None,
        );
        assert!(
            written
                .markup
                .starts_with("<svg class=\"p\" viewBox=\"50 40 300 200\" preserveAspectRatio=\"xMidYMid meet\">\n<path d=\"M200 50A90 90"),
            "{}",
            written.markup
        );
        // 70% across and 35% down the plot, wherever the plot is drawn.
        assert!(
            written.markup.ends_with(
                "<svg class=\"q\">\n<text class=\"t0\" x=\"70%\" y=\"35%\" dy=\"9.3\">64%</text>\n</svg>\n"
            ),
            "{}",
            written.markup
        );
        // The box: the plot's 3:2 at the lesser of its growth across and
        // down, centred where the plot is.
        assert_eq!(
            written.pinned.as_deref(),
            Some(
                "left:calc(50px + (var(--w) - min(var(--w), var(--h)*1.5))/2);\
                 top:calc(40px + (var(--h) - min(var(--h), var(--w)*.6667))/2);\
                 width:min(var(--w), var(--h)*1.5);height:min(var(--h), var(--w)*.6667)"
            )
        );
    }

    #[test]
    // A failed expectation in a test is a test failure.
    #[allow(clippy::panic)]
    fn a_maps_regions_are_written_once_and_drawn_by_reference() {
        let region = Item::Polygon {
            points: vec![(60.0, 60.0), (120.0, 60.0), (90.0, 110.0)],
            fill: INK,
        };
        let first = write(
            &laid_out(scene(vec![region.clone()]), Fit::Scale),
            &mut TextStyles::default(),
            None,
        );
        let Some(shapes) = first.shapes else {
            panic!("no shapes to share: {}", first.markup);
        };
        // Their own extent, fitted into each layout's plot area.
        assert_eq!(shapes.view_box, "60 60 60 50");
        assert_eq!(
            shapes.markup,
            "<path d=\"M60 60l60 0-30 50z\" fill=\"#202020\"/>\n"
        );
        let layer = "<svg class=\"p\" viewBox=\"60 60 60 50\" preserveAspectRatio=\"xMidYMid meet\">\n<use href=\"#s\"/>\n</svg>\n";
        assert_eq!(first.markup, layer);
        // The second layout refers to the first one's, whatever it laid out.
        let moved = Item::Polygon {
            points: vec![(70.0, 60.0), (130.0, 60.0), (100.0, 110.0)],
            fill: INK,
        };
        let second = write(
            &laid_out(scene(vec![moved]), Fit::Scale),
            &mut TextStyles::default(),
            Some(&shapes),
        );
        assert!(second.shapes.is_none());
        assert_eq!(second.markup, layer);
        // Stretched marks are never shared: each layout has its own plot.
        let bars = write(
            &laid_out(scene(vec![region]), Fit::Stretch),
            &mut TextStyles::default(),
            Some(&shapes),
        );
        assert!(
            bars.shapes.is_none() && !bars.markup.contains("<use"),
            "{}",
            bars.markup
        );
    }

    #[test]
    fn rows_widen_and_keep_their_height_and_their_place_from_the_top() {
        let stripe = Item::Rect {
            rect: Rect::new(50.0, 140.0, 300.0, 20.0),
            fill: INK,
        };
        let cell = text("Globex", (200.0, 150.0));
        let written = write(
            &laid_out(scene(vec![stripe, cell]), Fit::Rows),
            &mut TextStyles::default(),
            None,
        );
        assert_eq!(written.margins.and_then(|m| m.height), Some(200.0));
        // Across: half way along the plot; down: where it was laid out.
        assert!(
            written
                .markup
                .contains("<text class=\"t0\" x=\"50%\" y=\"159.3\">Globex</text>"),
            "{}",
            written.markup
        );
    }

    #[test]
    fn a_region_and_its_outline_are_one_element() {
        let region = vec![(60.0, 60.0), (120.0, 60.0), (90.0, 110.0)];
        let mut outline = region.clone();
        outline.push(region[0]);
        let items = vec![
            Item::Polygon {
                points: region,
                fill: Color(1, 2, 3),
            },
            line(outline),
        ];
        let markup = write(
            &laid_out(scene(items), Fit::Stretch),
            &mut TextStyles::default(),
            None,
        )
        .markup;
        assert!(
            markup.contains(
                "<path d=\"M60 60l60 0-30 50z\" fill=\"#010203\" stroke=\"#202020\"/>\n</svg>"
            ),
            "{markup}"
        );
        assert_eq!(markup.matches("<path").count(), 1, "{markup}");
    }

    #[test]
    fn text_is_escaped_and_vertical_text_turns_about_its_anchor() {
        let mut turned = text("<b>&\"", (20.0, 140.0));
        if let Item::Text { vertical, .. } = &mut turned {
            *vertical = true;
        }
        let markup = write(
            &laid_out(scene(vec![turned]), Fit::Stretch),
            &mut TextStyles::default(),
            None,
        )
        .markup;
        assert!(
            markup
                .contains("y=\"-.7\" transform=\"rotate(-90 20 -10)\">&lt;b&gt;&amp;&quot;</text>"),
            "{markup}"
        );
    }
}
