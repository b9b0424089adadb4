//! treemap: the groups as rectangles of the plot (largest first), each
//! group's categories as rectangles of its own under a header with its
//! name, both squarified (Bruls, Huizing and van Wijk, "Squarified
//! treemaps", 2000). Categories too small to read are folded into one
//! "Other (n)" cell per group; labels are written where they fit, and the
//! value is in the tooltip.

use crate::label;
use crate::layout::chrome::{LegendEntry, Marker};
use crate::layout::pen::{Align, Baseline, Font, Rect};
use crate::layout::text::{self, Weight};
use crate::layout::theme::{contrast, mix};
use crate::layout::Ctx;
use crate::model::Treemap;
use crate::order::ranked;
use crate::scene::hit::{HitShape, Mark, Text};
use crate::scene::Color;

/// Cells at most (a group's one folded leaf is kept beside them, as
/// folding one is pointless): more cannot be told apart or labelled.
const MOST: usize = 30;
/// The share of the whole under which a cell is folded: 0.3% of a plot
/// of 880 × 540 is a cell of 38 px a side, too small for a label.
const LEAST: f64 = 0.003;

/// A rectangle drawn: a leaf, or `folded` leaves as one "Other (n)".
struct Cell {
    leaf: Option<usize>,
    folded: usize,
    /// The value over the largest leaf's: sums of 100,000 values near
    /// `f64::MAX` stay finite.
    weight: f64,
}

/// A group's cells, largest first; the block of no group is the groups
/// folded into one "Other" cell.
struct Block {
    group: Option<usize>,
    /// The group's rank, which picks its colour.
    rank: usize,
    weight: f64,
    cells: Vec<Cell>,
}

/// `cell` among `cells` (largest first) where its weight belongs, after
/// the cells as large: squarifying keeps its rows square that way.
fn insert<T>(cells: &mut Vec<T>, cell: T, weight: impl Fn(&T) -> f64) {
    let w = weight(&cell);
    let at = cells.iter().position(|c| weight(c) < w);
    cells.insert(at.unwrap_or(cells.len()), cell);
}

/// What is drawn of `t`: blocks largest first, the whole's weight, and the
/// value of a weight of 1 (the largest leaf's).
fn fold(t: &Treemap) -> (Vec<Block>, f64, f64) {
    let value = |l: &crate::model::Leaf| l.value.min(f64::MAX);
    let top = t.leaves.iter().fold(0.0, |top, l| value(l).max(top));
    let weights: Vec<f64> = t.leaves.iter().map(|l| value(l) / top).collect();
    let whole: f64 = weights.iter().sum();
    let mut sums = vec![0.0; t.groups.len()];
    for (leaf, w) in t.leaves.iter().zip(&weights) {
        if let Some(sum) = sums.get_mut(leaf.group) {
            *sum += w;
        }
    }
    // Small: past the most there is room for, or under the least share;
    // both rise with the rank, so what is folded comes after what is kept.
    let small = |rank: usize, w: f64| rank >= MOST || w < LEAST * whole;
    let order = ranked(&sums, true);
    let folding = order
        .iter()
        .enumerate()
        .filter(|&(rank, &g)| small(rank, sums.get(g).copied().unwrap_or(0.0)))
        .count()
        > 1;
    let mut slot = vec![usize::MAX; sums.len()];
    let mut blocks: Vec<Block> = Vec::new();
    for (rank, &g) in order.iter().enumerate() {
        let weight = sums.get(g).copied().unwrap_or(0.0);
        if !(folding && small(rank, weight)) {
            if let Some(s) = slot.get_mut(g) {
                *s = blocks.len();
            }
            blocks.push(Block {
                group: Some(g),
                rank: blocks.len(),
                weight,
                cells: Vec::new(),
            });
        }
    }
    // Per block: how many leaves are folded, their weight, the last one.
    let mut others = vec![(0usize, 0.0, 0usize); blocks.len()];
    let mut rest = Cell {
        leaf: None,
        folded: 0,
        weight: 0.0,
    };
    let mut kept = 0;
    for i in ranked(&weights, true) {
        let (w, group) = match (weights.get(i), t.leaves.get(i)) {
            (Some(&w), Some(leaf)) => (w, leaf.group),
            _ => continue,
        };
        let at = slot.get(group).copied().unwrap_or(usize::MAX);
        match (blocks.get_mut(at), others.get_mut(at)) {
            (Some(block), Some(_)) if !small(kept, w) => {
                kept += 1;
                block.cells.push(Cell {
                    leaf: Some(i),
                    folded: 0,
                    weight: w,
                });
            }
            (Some(_), Some(other)) => *other = (other.0 + 1, other.1 + w, i),
            _ => {
                rest.folded += 1;
                rest.weight += w;
            }
        }
    }
    for (block, (folded, weight, last)) in blocks.iter_mut().zip(others) {
        if folded > 0 {
            let cell = Cell {
                leaf: (folded == 1).then_some(last),
                folded,
                weight,
            };
            insert(&mut block.cells, cell, |c| c.weight);
        }
    }
    blocks.retain(|b| !b.cells.is_empty());
    if rest.folded > 0 {
        let block = Block {
            group: None,
            rank: 0,
            weight: rest.weight,
            cells: vec![rest],
        };
        insert(&mut blocks, block, |b| b.weight);
    }
    (blocks, whole, top)
}

/// `weights` (largest first squarifies best) as rectangles tiling `r`, in
/// their order: rows along the shorter side of what is left, each grown
/// while its worst aspect ratio improves. Linear in the weights.
fn squarify(weights: &[f64], r: Rect) -> Vec<Rect> {
    let mut out = Vec::with_capacity(weights.len());
    let mut rest = r;
    let mut left: f64 = weights.iter().sum();
    let mut i = 0;
    while i < weights.len() {
        let wide = rest.w >= rest.h;
        let (side, long) = if wide {
            (rest.h, rest.w)
        } else {
            (rest.w, rest.h)
        };
        // Area per unit of weight, and the worst ratio of a row of weight
        // `s` whose largest is `hi` and smallest `lo`.
        let k = rest.w * rest.h / left;
        let worst = |s: f64, hi: f64, lo: f64| {
            let (a, b) = (
                side * side * hi / (s * s * k),
                s * s * k / (side * side * lo),
            );
            if a > b {
                a
            } else {
                b
            }
        };
        let first = weights.get(i).copied().unwrap_or(0.0);
        let (mut s, mut hi, mut lo) = (first, first, first);
        let mut end = i + 1;
        while let Some(&w) = weights.get(end) {
            let (s2, hi2, lo2) = (s + w, hi.max(w), lo.min(w));
            if worst(s2, hi2, lo2) > worst(s, hi, lo) {
                break;
            }
            (s, hi, lo) = (s2, hi2, lo2);
            end += 1;
        }
        // The last row takes all that is left, so rounding leaves no seam.
        let share = s / left;
        let share = if end < weights.len() && (0.0..1.0).contains(&share) {
            share
        } else {
            1.0
        };
        let thick = long * share;
        let mut at = 0.0;
        for j in i..end {
            let w = weights.get(j).copied().unwrap_or(0.0);
            let next = if j + 1 < end && s > 0.0 {
                at + side * w / s
            } else {
                side
            };
            out.push(if wide {
                Rect::new(rest.x, rest.y + at, thick, next - at)
            } else {
                Rect::new(rest.x + at, rest.y, next - at, thick)
            });
            at = next;
        }
        rest = if wide {
            Rect::new(rest.x + thick, rest.y, rest.w - thick, rest.h)
        } else {
            Rect::new(rest.x, rest.y + thick, rest.w, rest.h - thick)
        };
        left -= s;
        i = end;
    }
    out
}

/// `text` cut to `room` if what is left still reads (4 characters and
/// more, or the whole of it).
fn fitted(text: &str, size: f64, weight: Weight, room: f64) -> Option<String> {
    let cut = text::ellipsize(text, size, weight, room);
    (cut == text || cut.chars().count() > 4).then_some(cut)
}

/// The part of `a` inside `b`.
fn clip(a: Rect, b: Rect) -> Rect {
    let (x, y) = (a.x.max(b.x), a.y.max(b.y));
    Rect::new(
        x,
        y,
        a.right().min(b.right()) - x,
        a.bottom().min(b.bottom()) - y,
    )
}

#[inline(never)]
pub fn draw(ctx: &Ctx<'_>, body: Rect, t: &Treemap) {
    let (blocks, whole, top) = fold(t);
    let (theme, sizes) = (ctx.theme, ctx.sizes);
    let grouped = t.grouped();
    let band = sizes.tick + 8.0;
    let name = |b: &Block| b.group.and_then(|g| t.groups.get(g)).filter(|_| grouped);
    // A group's header: its name, when the group has room for it.
    let header = |b: &Block, r: Rect| {
        let name = name(b)?;
        (r.h >= band * 3.0)
            .then(|| fitted(name, sizes.tick, Weight::Bold, r.w - 2.0 * (PAD + 1.0)))
            .flatten()
    };
    let block_weights: Vec<f64> = blocks.iter().map(|b| b.weight).collect();
    let color = |b: &Block| theme.color(b.rank);
    // Groups are named on the plot when each has room for its name, else
    // in a legend: decided at the width class's size, as every frame of
    // the class decides alike (and not in a frame too small for one).
    let unnamed = squarify(&block_weights, ctx.class_body(body))
        .into_iter()
        .zip(&blocks)
        .any(|(r, b)| name(b).is_some() && header(b, r).is_none());
    let plot = if unnamed && body.h >= 120.0 {
        let entries: Vec<LegendEntry> = blocks
            .iter()
            .filter_map(|b| Some(LegendEntry::new(name(b)?, color(b), Marker::Square)))
            .collect();
        ctx.legend(body, &entries)
    } else {
        body
    };
    ctx.p.set_plot(plot);
    let _marks = ctx.p.marking();
    let units = ctx.units();
    let slice = |weight: f64| label::slice(weight * top, weight / whole, units);
    for (b, area) in blocks.iter().zip(squarify(&block_weights, plot)) {
        // Groups apart by a wider seam than cells; the hit areas tile the
        // plot whole, so a pointer on a seam still finds a mark.
        let drawn = if grouped {
            area.inset(1.0, 1.0, 1.0, 1.0)
        } else {
            area
        };
        let mut inner = area;
        let group = name(b);
        if let Some(title) = header(b, area) {
            inner = area.inset(band, 0.0, 0.0, 0.0);
            let (x, y) = (drawn.x + PAD, area.y + band / 2.0);
            write(
                ctx,
                &title,
                (x, y),
                Font::new(sizes.tick, Weight::Bold, theme.text),
            );
            // The group's total beside its name, when both fit.
            let total = label::value(b.weight * top, units);
            let after = text::width(&title, sizes.tick, Weight::Bold) + PAD * 1.5;
            if after + text::width(&total, sizes.small, Weight::Regular) <= drawn.w - 2.0 * PAD {
                let font = Font::new(sizes.small, Weight::Regular, theme.muted);
                write(ctx, &total, (x + after, y), font);
            }
            if ctx.recording() {
                let head = Rect::new(area.x, area.y, area.w, band);
                mark(
                    ctx,
                    head,
                    None,
                    group.cloned().unwrap_or_default(),
                    slice(b.weight),
                );
            }
        }
        let base = color(b);
        let weights: Vec<f64> = b.cells.iter().map(|c| c.weight).collect();
        // Lighter as the cells get smaller, by the logarithm of their
        // value (equal values alike): neighbours of one colour read apart.
        let (lo, hi) = b
            .cells
            .iter()
            .filter(|c| c.leaf.is_some())
            .fold((f64::MAX, 0.0), |(lo, hi), c| {
                (c.weight.min(lo), c.weight.max(hi))
            });
        let steps = if grouped { 0.3 } else { 0.5 };
        for (c, r) in b.cells.iter().zip(squarify(&weights, inner)) {
            let leaf = c.leaf.and_then(|i| t.leaves.get(i));
            let (from, amount) = match (leaf, b.group) {
                (Some(_), Some(_)) => {
                    let log = crate::math::log2;
                    let t = (log(hi) - log(c.weight)) / (log(hi) - log(lo));
                    (base, if t > 0.0 { steps * t.min(1.0) } else { 0.0 })
                }
                // A group's "Other" in its colour, receding; else a grey
                // between the axis and the background.
                (None, Some(_)) if grouped => (base, 0.6),
                _ => (theme.axis, 0.35),
            };
            let fill = mix(from, theme.background, amount);
            if r.w * r.h <= 0.0 {
                continue;
            }
            let cell = clip(r, drawn).inset(0.5, 0.5, 0.5, 0.5);
            ctx.p.rect(cell, fill);
            let text = match leaf {
                Some(leaf) => leaf.label.clone(),
                None => ["Other (", &label::count(c.folded as u64), ")"].concat(),
            };
            label_cell(ctx, cell, &text, c.weight * top, fill);
            if ctx.recording() {
                let series = group.and_then(|n| ctx.series(t.groups.len(), n));
                mark(ctx, r, series, text, slice(c.weight));
            }
        }
    }
}

/// Room left between a cell's edge and its text.
const PAD: f64 = 4.0;

fn mark(ctx: &Ctx<'_>, r: Rect, series: Option<u32>, label: String, value: String) {
    ctx.hit(|| Mark {
        shape: HitShape::Rect(r),
        series,
        label: Text::Ready(label),
        value: Text::Ready(value),
    });
}

/// A header's text at `at`, its middle on `at`'s height.
fn write(ctx: &Ctx<'_>, text: &str, at: (f64, f64), font: Font) {
    ctx.p.text(text, at, font, Align::Start, Baseline::Middle);
}

/// The name, the value under it; else the name alone; else the value
/// alone, inside `cell` in a colour that reads on `fill`.
fn label_cell(ctx: &Ctx<'_>, cell: Rect, name: &str, value: f64, fill: Color) {
    let (tick, small) = (ctx.sizes.tick, ctx.sizes.small);
    let (room, bottom) = (cell.w - 2.0 * PAD, cell.bottom() - PAD);
    // Dark text, else white, at 4.5:1 at least; black where neither
    // reaches it (a fill of luminance 0.18 to 0.25).
    let ink = [Color(0x1F, 0x23, 0x28), Color(0xFF, 0xFF, 0xFF)]
        .into_iter()
        .find(|&c| contrast(c, fill) >= 4.5)
        .unwrap_or(Color(0, 0, 0));
    let mut y = cell.y + PAD;
    let mut put = |text: &str, size: f64| {
        let fits = y + size <= bottom && text::width(text, size, Weight::Regular) <= room;
        if fits {
            let font = Font::new(size, Weight::Regular, ink);
            ctx.p
                .text(text, (cell.x + PAD, y), font, Align::Start, Baseline::Top);
            y += size * 1.25;
        }
        fits
    };
    if let Some(name) = fitted(name, tick, Weight::Regular, room) {
        put(&name, tick);
    }
    // With the card's units, or without when they do not fit.
    if !put(&label::value(value, ctx.units()), small) {
        put(&label::value(value, None), small);
    }
}
