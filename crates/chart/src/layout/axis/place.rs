//! Placing the measured axes in the scene: titles, grid lines, ticks and
//! their labels.

use crate::layout::chrome::Sizes;
use crate::layout::pen::{Align, Baseline, Font, Pen, Rect};
use crate::layout::text::{self, Weight};
use crate::layout::theme::Theme;

use super::choose::{continuous_ticks, Band, BandLabels, Scale};
use super::measure::AxesLayout;
use super::Axes;

/// Paints `layout`, measured for `body`.
pub fn place(p: &Pen, theme: &Theme, sizes: &Sizes, body: Rect, layout: &AxesLayout) {
    let AxesLayout {
        axes,
        x_title,
        y_title,
        y2_title,
        y_label_w,
        band_plan,
        x_every,
    } = layout;
    let (plot, y_label_w) = (axes.plot, *y_label_w);
    let tick_font = Font::new(sizes.tick, Weight::Regular, theme.muted);
    let title_font = Font::new(sizes.tick, Weight::Bold, theme.muted);
    if let Some((t, at)) = y_title {
        p.text(t, *at, title_font, Align::Start, Baseline::Top);
    }
    if let Some((t, at)) = y2_title {
        p.text(t, *at, title_font, Align::End, Baseline::Top);
    }
    // The right axis: labels at the right ends of the left axis's grid lines.
    if let Some(scale) = &axes.y2 {
        let (ticks, labels) = continuous_ticks(scale);
        for (v, label) in ticks.iter().zip(labels) {
            let y = axes.y2_at(*v);
            if (plot.y - 0.5..=plot.bottom() + 0.5).contains(&y) {
                p.text(
                    label,
                    (plot.right() + 8.0, y),
                    tick_font,
                    Align::Start,
                    Baseline::Middle,
                );
            }
        }
    }
    if let Some((t, at)) = x_title {
        p.text(t, *at, title_font, Align::Middle, Baseline::Bottom);
    }
    y_labels(p, theme, sizes, axes, y_label_w);
    match (&axes.x, *band_plan) {
        (Scale::Band(b), Some(plan)) => band_x_labels(p, theme, sizes, body, (axes, b, plan)),
        (scale, _) => continuous_x_labels(p, theme, sizes, body, (axes, scale, *x_every)),
    }
    // The baseline under the marks.
    if !matches!(axes.y, Scale::Band(_)) {
        let zero_inside = matches!(&axes.y, Scale::Linear(l) if l.lo < 0.0 && l.hi > 0.0);
        if !zero_inside {
            grid_line(
                p,
                &[(plot.x, plot.bottom()), (plot.right(), plot.bottom())],
                theme.axis,
            );
        }
    }
}

/// The grid and the y labels.
fn y_labels(p: &Pen, theme: &Theme, sizes: &Sizes, axes: &Axes, y_label_w: f64) {
    let plot = axes.plot;
    let tick_font = Font::new(sizes.tick, Weight::Regular, theme.muted);
    match &axes.y {
        Scale::Band(b) => {
            for (i, label) in b.labels.iter().enumerate() {
                let (y, h) = axes.y_band(i);
                if h < sizes.tick * 0.9
                    && i % ((sizes.tick / h.max(0.1)).ceil() as usize).max(1) != 0
                {
                    continue;
                }
                let t = text::ellipsize(label, sizes.tick, Weight::Regular, y_label_w);
                p.text(
                    &t,
                    (plot.x - 8.0, y + h / 2.0),
                    Font::new(sizes.tick, Weight::Regular, theme.text),
                    Align::End,
                    Baseline::Middle,
                );
            }
        }
        scale => {
            let (ticks, labels) = continuous_ticks(scale);
            for (v, label) in ticks.iter().zip(labels) {
                let y = axes.y_at(*v);
                if !(plot.y - 0.5..=plot.bottom() + 0.5).contains(&y) {
                    continue;
                }
                let color = if *v == 0.0 { theme.axis } else { theme.grid };
                grid_line(p, &[(plot.x, y), (plot.right(), y)], color);
                p.text(
                    label,
                    (plot.x - 8.0, y),
                    tick_font,
                    Align::End,
                    Baseline::Middle,
                );
            }
        }
    }
}

/// The x labels of categories, as `plan` lays them.
fn band_x_labels(
    p: &Pen,
    theme: &Theme,
    sizes: &Sizes,
    body: Rect,
    (axes, b, plan): (&Axes, &Band, BandLabels),
) {
    let label_y = axes.plot.bottom() + 6.0;
    for (i, label) in b.labels.iter().enumerate() {
        let (x, w) = axes.x_band(i);
        let cx = x + w / 2.0;
        match plan {
            BandLabels::Level { every, max_width } => {
                if i % every != 0 {
                    continue;
                }
                let t = text::ellipsize(label, sizes.tick, Weight::Regular, max_width);
                if overhangs(cx, &t, sizes, body) {
                    continue;
                }
                p.text(
                    &t,
                    (cx, label_y),
                    Font::new(sizes.tick, Weight::Regular, theme.text),
                    Align::Middle,
                    Baseline::Top,
                );
            }
            BandLabels::Vertical { every, length } => {
                if i % every != 0 {
                    continue;
                }
                let t = text::ellipsize(label, sizes.tick, Weight::Regular, length);
                p.text_turned(
                    &t,
                    (cx, label_y),
                    Font::new(sizes.tick, Weight::Regular, theme.text),
                    Align::End,
                    Baseline::Middle,
                    true,
                );
            }
        }
    }
}

/// The x ticks and labels of a continuous scale, every `x_every`th
/// labelled (zero's kept); on a chart on its side, the grid too.
fn continuous_x_labels(
    p: &Pen,
    theme: &Theme,
    sizes: &Sizes,
    body: Rect,
    (axes, scale, x_every): (&Axes, &Scale, usize),
) {
    let plot = axes.plot;
    let label_y = plot.bottom() + 6.0;
    let tick_font = Font::new(sizes.tick, Weight::Regular, theme.muted);
    let (ticks, labels) = continuous_ticks(scale);
    // Thinned labels keep zero's.
    let zero = ticks.iter().position(|t| *t == 0.0).unwrap_or(0);
    for (i, (v, label)) in ticks.iter().zip(labels).enumerate() {
        let x = axes.x_at(*v);
        if !(plot.x - 0.5..=plot.right() + 0.5).contains(&x) {
            continue;
        }
        if matches!(axes.y, Scale::Band(_)) {
            grid_line(p, &[(x, plot.y), (x, plot.bottom())], theme.grid);
        } else {
            p.line(
                &[(x, plot.bottom()), (x, plot.bottom() + 4.0)],
                theme.axis,
                1.0,
            );
        }
        if i.abs_diff(zero) % x_every.max(1) != 0 || overhangs(x, label, sizes, body) {
            continue;
        }
        p.text(label, (x, label_y), tick_font, Align::Middle, Baseline::Top);
    }
}

/// A grid or axis line across the plot: it stretches with the plot's
/// marks, where the ticks and labels beside it are chrome.
fn grid_line(p: &Pen, points: &[(f64, f64)], color: crate::scene::Color) {
    let _grid = p.marking();
    p.line(points, color, 1.0);
}

/// A centred label at `x` reaching past the card's padding would be cut
/// off at the edge: better left out.
fn overhangs(x: f64, label: &str, sizes: &Sizes, body: Rect) -> bool {
    let half = text::width(label, sizes.tick, Weight::Regular) / 2.0;
    x - half < body.x - sizes.pad / 2.0 || x + half > body.right() + sizes.pad / 2.0
}
