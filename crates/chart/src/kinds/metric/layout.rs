//! top_level_metric: the headline number in the card's locale and units,
//! its change from the value before (an arrow, a sign and a colour), and a
//! sparkline of the series it ends.
//!
//! The number and its texts are chrome; the sparkline, when there is one,
//! is the plot. It goes under the texts, which is the choice of both width
//! classes' layouts (every class body has the height for it); only a card
//! too short for it puts it beside them, or leaves it out.

use crate::label;
use crate::layout::pen::{Align, Baseline, Font, Rect};
use crate::layout::text::{self, Weight};
use crate::layout::theme::mix;
use crate::layout::Ctx;
use crate::model::{Metric, When};
use crate::reduce::min_max_columns;
use crate::scene::hit::{HitShape, Mark, Text};
use crate::scene::Color;

/// The headline number's largest and smallest comfortable sizes, in px.
const LARGEST: f64 = 96.0;
const SMALLEST: f64 = 20.0;
/// The least room a sparkline is drawn in.
const SPARK_H: f64 = 28.0;
const SPARK_W: f64 = 96.0;
/// How far below its top a number's figures (and a decimal comma) end,
/// in ems.
const FIGURES: f64 = 0.93;
/// How much shorter than its class's layout a frame may be (see
/// `chrome::class_layout`).
const SHRINK: f64 = 120.0;

/// Up and down, readable as text on either theme's background (WCAG 4.5:1).
const UP: [Color; 2] = [Color(0x1A, 0x7F, 0x37), Color(0x3F, 0xB9, 0x50)];
const DOWN: [Color; 2] = [Color(0xCF, 0x22, 0x2E), Color(0xF8, 0x51, 0x49)];

/// What is said: the number, how it changed, and when it is of.
struct Parts {
    whole: String,
    /// The number and its units apart, when the units follow it: a long
    /// unit can then be set smaller than the number.
    split: Option<(String, String)>,
    change: Option<Change>,
    at: Option<String>,
}

struct Change {
    /// 1 up, -1 down, 0 unchanged.
    sign: i8,
    /// The percent change (or the change when there is no percent).
    lead: String,
    /// The change itself, after the percent.
    more: Option<String>,
    /// "vs Nov 2025", "from 1.42M USD".
    context: String,
}

impl Parts {
    fn of(m: &Metric, units: Option<&str>) -> Parts {
        let whole = label::value(m.value, units);
        let bare = label::value(m.value, None);
        let split = whole
            .strip_prefix(bare.as_str())
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .map(|u| (bare.clone(), u.to_string()));
        let change = m.previous.filter(|p| p.is_finite()).map(|previous| {
            let delta = m.value - previous;
            let sign = if delta > 0.0 {
                1
            } else if delta < 0.0 {
                -1
            } else {
                0
            };
            let change = label::change(delta, units);
            let (lead, more) = match (sign, label::percent_change(m.value, previous)) {
                (0, _) => ("No change".to_string(), None),
                (_, Some(percent)) => (percent, Some(change)),
                (_, None) => (change, None),
            };
            let context = match &m.previous_at {
                Some(at) => format!("vs {}", label::when(at)),
                None => format!("from {}", label::value(previous, units)),
            };
            Change {
                sign,
                lead,
                more,
                context,
            }
        });
        Parts {
            whole,
            split,
            change,
            at: m.at.as_ref().map(label::when),
        }
    }
}

/// One run of text in the comparison's line.
struct Piece {
    text: String,
    weight: Weight,
    color: Color,
}

/// Where the number's units go.
#[derive(Default)]
enum Units {
    /// In the number's text (or there are none).
    #[default]
    Within,
    /// Apart, smaller, after the number on its baseline (text, size).
    After(String, f64),
    /// Apart, on a line of their own under it.
    Under(String, f64),
}

/// The number as set: its size, its units, its width and height (with its
/// units, and the gap under it when rows follow).
#[derive(Default)]
struct Number {
    size: f64,
    units: Units,
    w: f64,
    h: f64,
}

/// How the texts are set in the room they were given.
#[derive(Default)]
struct Plan {
    number: Number,
    /// The comparison and the date beside the number rather than under it.
    beside: bool,
    /// The comparison's size and pieces (none when it is not shown).
    cmp_size: f64,
    cmp: Vec<Piece>,
    at: bool,
    w: f64,
    h: f64,
}

impl Plan {
    /// Everything there was to say is said, at a readable size.
    fn good(&self, parts: &Parts) -> bool {
        self.number.size >= SMALLEST && (parts.change.is_none() || !self.cmp.is_empty())
    }
}

#[inline(never)]
pub fn draw(ctx: &Ctx<'_>, body: Rect, m: &Metric) {
    let parts = Parts::of(m, ctx.units());
    let gap = ctx.sizes.pad.max(12.0);
    let finite = m.points.iter().filter(|(_, v)| v.is_finite()).count();
    let mut spark = None;
    let mut plan = None;
    if finite >= 3 {
        // Under the texts, which get at most a little over half the height.
        let h = (body.h * 0.55).min(body.h - SPARK_H - gap);
        let under = fit(ctx, &parts, body.w, h);
        if under.good(&parts) {
            spark = Some(Rect::new(
                body.x,
                body.y + under.h + gap,
                body.w,
                body.bottom() - (body.y + under.h + gap),
            ));
            plan = Some(under);
        } else {
            // A wide short card: beside them.
            let beside = fit(ctx, &parts, body.w * 0.6, body.h);
            let left = body.w - beside.w - gap * 2.0;
            if beside.good(&parts) && left >= SPARK_W {
                spark = Some(Rect::new(
                    body.right() - left,
                    body.y,
                    left,
                    body.h.min(left * 0.5).max(SPARK_H.min(body.h)),
                ));
                plan = Some(beside);
            }
        }
    }
    let plan = plan.unwrap_or_else(|| fit(ctx, &parts, body.w, body.h));
    let free = body.h - plan.h;
    let top = body.y
        + match spark {
            // Beside a sparkline, the texts stand in the middle of its height.
            Some(s) if s.x > body.x => ((s.h - plan.h) / 2.0).max(0.0),
            Some(_) => 0.0,
            // Alone, towards the middle of a tall card, keeping under them
            // the room a shorter frame of the class takes from the plot.
            None => ((free - SHRINK) / 2.0).max(0.0),
        };
    draw_texts(ctx, m, &parts, &plan, (body.x, top));
    match spark {
        Some(area) => sparkline(ctx, m, area),
        // No marks: the room under the texts is the plot, so that a frame
        // that grows keeps them where they are.
        None => ctx.p.set_plot(Rect::new(
            body.x,
            top + plan.h,
            body.w,
            body.bottom() - top - plan.h,
        )),
    }
}

/// The texts as large as `w` × `h` lets them be: the number under its
/// cap, then as much of the comparison and the date as fits, under the
/// number or beside it, whichever leaves the number larger.
fn fit(ctx: &Ctx<'_>, parts: &Parts, w: f64, h: f64) -> Plan {
    let (title, subtitle) = (ctx.sizes.title, ctx.sizes.subtitle);
    // Most said first: the comparison at the title's size under a large
    // number, else at the subtitle's; then without the date; then without
    // the comparison; the number alone is taken at any size.
    let tries = [
        (title, true, true),
        (subtitle, true, true),
        (title, true, false),
        (subtitle, true, false),
        (subtitle, false, true),
        (subtitle, false, false),
    ];
    let mut last = None;
    for (cmp_size, with_cmp, with_at) in tries {
        if with_cmp && parts.change.is_none() || with_at && parts.at.is_none() {
            continue;
        }
        let rows = (with_cmp, with_at);
        let under = arrange(ctx, parts, (w, h), cmp_size, rows, false);
        let beside = arrange(ctx, parts, (w, h), cmp_size, rows, true);
        // Under the number unless beside makes it much larger.
        let plan = match (under, beside) {
            (Some(u), Some(b)) if b.number.size > u.number.size * 1.25 => Some(b),
            (Some(u), _) => Some(u),
            (None, b) => b,
        };
        let least = if cmp_size > subtitle { 56.0 } else { SMALLEST };
        match plan {
            Some(plan) if plan.number.size >= least => return plan,
            Some(plan) => last = Some(plan),
            None => {}
        }
    }
    last.unwrap_or_default()
}

/// The comparison's pieces that fit `w` at `size`, most first: the
/// percent, the change, what it is compared with.
fn comparison(ctx: &Ctx<'_>, c: &Change, size: f64, w: f64) -> Vec<Piece> {
    let color = change_color(ctx, c.sign);
    let mut pieces: Vec<Piece> = [
        Some((&c.lead, Weight::Bold, color)),
        c.more.as_ref().map(|more| (more, Weight::Regular, color)),
        Some((&c.context, Weight::Regular, ctx.theme.muted)),
    ]
    .into_iter()
    .flatten()
    .map(|(text, weight, color)| Piece {
        text: text.clone(),
        weight,
        color,
    })
    .collect();
    while !pieces.is_empty() && row_width(&pieces, size) > w {
        pieces.pop();
    }
    pieces
}

/// The mark before the comparison, and the space after it.
fn mark_width(size: f64) -> f64 {
    size * 1.05
}

fn row_width(pieces: &[Piece], size: f64) -> f64 {
    let texts: f64 = pieces
        .iter()
        .map(|p| text::width(&p.text, size, p.weight))
        .sum();
    mark_width(size) + texts + size * 0.5 * pieces.len().saturating_sub(1) as f64
}

fn change_color(ctx: &Ctx<'_>, sign: i8) -> Color {
    let dark = usize::from(ctx.theme.dark);
    match sign {
        1 => UP[dark],
        -1 => DOWN[dark],
        _ => ctx.theme.muted,
    }
}

/// The number and the rows that go with it in `w` × `h`, or none when
/// the rows alone do not fit.
fn arrange(
    ctx: &Ctx<'_>,
    parts: &Parts,
    (w, h): (f64, f64),
    cmp_size: f64,
    (with_cmp, with_at): (bool, bool),
    beside: bool,
) -> Option<Plan> {
    let at_size = ctx.sizes.tick;
    // The rows' room across: the whole width under the number, at most
    // half of it beside.
    let row_room = if beside { w * 0.5 } else { w };
    let cmp = match (&parts.change, with_cmp) {
        (Some(c), true) => {
            let pieces = comparison(ctx, c, cmp_size, row_room);
            if pieces.is_empty() {
                return None;
            }
            pieces
        }
        _ => Vec::new(),
    };
    let at_w = match (&parts.at, with_at) {
        (Some(at), true) => {
            let at_w = text::width(at, at_size, Weight::Regular);
            if at_w > row_room {
                return None;
            }
            at_w
        }
        _ => 0.0,
    };
    let cmp_w = if cmp.is_empty() {
        0.0
    } else {
        row_width(&cmp, cmp_size)
    };
    let rows_w = cmp_w.max(at_w);
    let rows_h = rows_height(
        !cmp.is_empty(),
        with_at && parts.at.is_some(),
        cmp_size,
        at_size,
    );
    if beside && (rows_w == 0.0 || rows_h > h) {
        return None;
    }
    let gap = cmp_size * 1.2;
    // Beside the rows, the number keeps its units: a card has the width
    // for that arrangement only when it needs no splitting.
    let number = if beside {
        number(ctx, parts, (w - rows_w - gap, h), false, false)
    } else if rows_h > 0.0 {
        number(ctx, parts, (w, h - rows_h), true, true)
    } else {
        number(ctx, parts, (w, h), false, true)
    }?;
    let (pw, ph) = if beside {
        (number.w + gap + rows_w, number.h.max(rows_h))
    } else {
        (number.w.max(rows_w), number.h + rows_h)
    };
    Some(Plan {
        number,
        beside,
        cmp_size,
        cmp,
        at: with_at && parts.at.is_some(),
        w: pw,
        h: ph,
    })
}

fn rows_height(cmp: bool, at: bool, cmp_size: f64, at_size: f64) -> f64 {
    let cmp_h = if cmp { cmp_size * 1.3 } else { 0.0 };
    let at_h = if at { at_size * 1.3 } else { 0.0 };
    let between = if cmp && at { 2.0 } else { 0.0 };
    cmp_h + at_h + between
}

/// The number as large as fits `w` × `h` (under [`LARGEST`]), with a gap
/// under it when `rows` follow: its units within its text, or (when
/// `apart` allows and it keeps the number larger) apart and smaller, after
/// it or under it.
fn number(
    ctx: &Ctx<'_>,
    parts: &Parts,
    (w, h): (f64, f64),
    rows: bool,
    apart: bool,
) -> Option<Number> {
    if w <= 0.0 || h <= 0.0 {
        return None;
    }
    // What follows the number starts under its figures, 4 px down; alone,
    // it takes its whole size.
    let (k, gap) = if rows { (FIGURES, 4.0) } else { (1.0, 0.0) };
    // The size at which text of `em` per px fits across, and `per` of its
    // size fits `h` down.
    let fits = |em: f64, h: f64, per: f64| (w / em.max(0.01)).min(h / per).clamp(0.0, LARGEST);
    let set = |em: f64, h: f64| fits(em, h - gap, k);
    let em = text::width(&parts.whole, 1.0, Weight::Bold);
    let size = set(em, h);
    let whole = Number {
        size,
        units: Units::Within,
        w: em * size,
        h: k * size + gap,
    };
    let Some((bare, units)) = parts.split.as_ref().filter(|_| apart) else {
        return Some(whole);
    };
    if size >= ((h - gap) / k).min(LARGEST).min(40.0) {
        return Some(whole);
    }
    let bare_em = text::width(bare, 1.0, Weight::Bold);
    let units_em = text::width(units, 1.0, Weight::Regular);
    // After it, at under half its size and a fifth of it apart.
    let after = set(bare_em + 0.2 + 0.45 * units_em, h);
    let after_size = (after * 0.45).max(ctx.sizes.small);
    let after_w = bare_em * after + after * 0.2 + units_em * after_size;
    // Under it, at the subtitle's size, on a line of their own.
    let under_size = ctx.sizes.subtitle;
    let line = under_size * 1.3 + 2.0;
    let under = fits(bare_em, h - gap - line, FIGURES);
    let best = if after_w <= w && after >= under * 0.8 {
        Number {
            size: after,
            units: Units::After(units.clone(), after_size),
            w: after_w,
            h: k * after + gap,
        }
    } else {
        let shown = text::ellipsize(units, under_size, Weight::Regular, w);
        let shown_w = text::width(&shown, under_size, Weight::Regular);
        Number {
            size: under,
            units: Units::Under(shown, under_size),
            w: (bare_em * under).max(shown_w),
            h: FIGURES * under + line + gap,
        }
    };
    Some(if best.size > size * 1.1 { best } else { whole })
}

fn draw_texts(ctx: &Ctx<'_>, m: &Metric, parts: &Parts, plan: &Plan, (x, y): (f64, f64)) {
    let (p, theme) = (ctx.p, ctx.theme);
    let n = &plan.number;
    let size = n.size;
    let number = match (&n.units, &parts.split) {
        (Units::After(..) | Units::Under(..), Some((bare, _))) => bare,
        _ => &parts.whole,
    };
    p.text(
        number,
        (x, y),
        Font::new(size, Weight::Bold, theme.text),
        Align::Start,
        Baseline::Top,
    );
    let mut below = y + size * FIGURES;
    match &n.units {
        Units::Within => {}
        // On the number's baseline.
        Units::After(units, units_size) => p.text(
            units,
            (x + n.w, y + 0.776 * size + 0.224 * units_size),
            Font::new(*units_size, Weight::Regular, theme.text),
            Align::End,
            Baseline::Bottom,
        ),
        Units::Under(units, units_size) => {
            p.text(
                units,
                (x, below + 2.0),
                Font::new(*units_size, Weight::Regular, theme.text),
                Align::Start,
                Baseline::Top,
            );
            below += units_size * 1.3 + 2.0;
        }
    }
    let number_box = Rect::new(x, y, n.w, below - y);
    ctx.hit(|| Mark {
        shape: HitShape::Rect(number_box),
        series: None,
        label: Text::Ready(parts.at.clone().unwrap_or_else(|| "Latest".into())),
        value: Text::Value(m.value),
    });

    let at_size = ctx.sizes.tick;
    let rows_h = rows_height(!plan.cmp.is_empty(), plan.at, plan.cmp_size, at_size);
    let (x, mut y) = if plan.beside {
        // The rows' middle on the middle of the number's figures.
        let gap = plan.cmp_size * 1.2;
        (x + n.w + gap, y + (size * 0.84 - rows_h) / 2.0)
    } else {
        (x, below + 4.0)
    };
    if let Some(change) = parts.change.as_ref().filter(|_| !plan.cmp.is_empty()) {
        let c = plan.cmp_size;
        let cy = y + c * 0.65;
        draw_change_mark(ctx, change.sign, (x, cy), c);
        let mut at = x + mark_width(c);
        for piece in &plan.cmp {
            p.text(
                &piece.text,
                (at, cy),
                Font::new(c, piece.weight, piece.color),
                Align::Start,
                Baseline::Middle,
            );
            at += text::width(&piece.text, c, piece.weight) + c * 0.5;
        }
        y += c * 1.3 + 2.0;
    }
    if let Some(at) = parts.at.as_ref().filter(|_| plan.at) {
        p.text(
            at,
            (x, y + at_size * 0.65),
            Font::new(at_size, Weight::Regular, theme.muted),
            Align::Start,
            Baseline::Middle,
        );
    }
}

/// ▲ up, ▼ down, a bar for no change: drawn, so no font has to have them,
/// on the middle of the figures of text of `size` set at `cy`.
fn draw_change_mark(ctx: &Ctx<'_>, sign: i8, (x, cy): (f64, f64), size: f64) {
    let color = change_color(ctx, sign);
    let (w, h) = (size * 0.72, size * 0.62);
    let mid = cy - size * 0.08;
    let (top, bottom) = (mid - h / 2.0, mid + h / 2.0);
    match sign {
        1 => ctx
            .p
            .polygon(&[(x, bottom), (x + w, bottom), (x + w / 2.0, top)], color),
        -1 => ctx
            .p
            .polygon(&[(x, top), (x + w, top), (x + w / 2.0, bottom)], color),
        _ => ctx.p.rect(
            Rect::new(x, mid - size * 0.08, w, (size * 0.16).max(1.5)),
            color,
        ),
    }
}

/// The series as a line scaled to its own extent, gaps kept, its last
/// point marked; `area` is the plot.
fn sparkline(ctx: &Ctx<'_>, m: &Metric, area: Rect) {
    ctx.p.set_plot(area);
    let _marks = ctx.p.marking();
    let n = m.points.len();
    let last = n.saturating_sub(1) as f64;
    let date = |i: usize| match m.points.get(i) {
        Some((Some(When::Date(seconds, _)), _)) if seconds.is_finite() => Some(*seconds),
        _ => None,
    };
    // The extents of the values, and of the dates when every point has one.
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut first, mut end, mut dated) = (f64::INFINITY, f64::NEG_INFINITY, true);
    for (i, (_, v)) in m.points.iter().enumerate() {
        if v.is_finite() {
            lo = lo.min(*v);
            hi = hi.max(*v);
        }
        match date(i) {
            Some(d) => {
                first = first.min(d);
                end = end.max(d);
            }
            None => dated = false,
        }
    }
    // Halves, so that no difference of two finite values overflows.
    let share = |v: f64, lo: f64, hi: f64| {
        if hi > lo {
            (v / 2.0 - lo / 2.0) / (hi / 2.0 - lo / 2.0)
        } else {
            0.5
        }
    };
    let r = 4.5;
    let inner = area.inset(r, r, r, r);
    // Along time when the dates span some; else in order, evenly.
    let x_at = |i: f64| {
        let t = match date(i as usize) {
            Some(d) if dated && end > first => share(d, first, end),
            _ => share(i, 0.0, last),
        };
        inner.x + t * inner.w
    };
    let y_at = |v: f64| inner.bottom() - share(v, lo, hi) * inner.h;

    let xs: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let ys: Vec<f64> = m.points.iter().map(|p| p.1).collect();
    // At most two points per device pixel across; a value that is not
    // finite is a gap.
    let columns = (inner.w * ctx.p.scale / 2.0).ceil().max(1.0) as usize;
    let (kx, ky) = min_max_columns(&xs, &ys, 0.0, last, columns);

    let color = ctx.theme.color(0);
    let fill = mix(color, ctx.theme.background, 0.86);
    let width = if inner.h >= 60.0 { 2.5 } else { 2.0 };
    // Each run between gaps: a tint under it, the line, or a dot alone.
    let mut run: Vec<(f64, f64)> = Vec::new();
    let mut dot = None;
    let flush = |run: &mut Vec<(f64, f64)>| {
        if let [lone] = run.as_slice() {
            ctx.p.circle(*lone, width, color);
        } else if let (Some(&(x0, _)), Some(&(x1, _))) = (run.first(), run.last()) {
            let line = run.clone();
            run.extend([(x1, inner.bottom()), (x0, inner.bottom())]);
            ctx.p.polygon(run, fill);
            ctx.p.line(&line, color, width);
        }
        run.clear();
    };
    for (&i, &v) in kx.iter().zip(&ky) {
        if v.is_finite() {
            let at = (x_at(i), y_at(v));
            run.push(at);
            dot = Some(at);
        } else {
            flush(&mut run);
        }
    }
    flush(&mut run);
    if let Some(dot) = dot {
        ctx.p.circle(dot, r, ctx.theme.background);
        ctx.p.circle(dot, r - 1.5, color);
    }
    if ctx.recording() {
        // A tooltip for each point kept, at most two per CSS pixel across.
        let css = (inner.w / 2.0).ceil().max(1.0) as usize;
        let (hx, hy) = min_max_columns(&kx, &ky, 0.0, last, css);
        for (&i, &v) in hx.iter().zip(&hy) {
            if !v.is_finite() {
                continue;
            }
            let label = match m.points.get(i as usize).and_then(|p| p.0.as_ref()) {
                Some(When::Date(seconds, precision)) => Text::Date(*seconds, *precision),
                Some(When::Label(text)) => Text::Ready(text.clone()),
                None => Text::Ready(String::new()),
            };
            ctx.hit(|| Mark {
                shape: HitShape::Point {
                    x: x_at(i),
                    y: y_at(v),
                },
                series: None,
                label,
                value: Text::Value(v),
            });
        }
    }
}
