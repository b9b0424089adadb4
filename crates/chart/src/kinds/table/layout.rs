//! table: a header, striped rows, numbers aligned right, and a note of the
//! rows that did not fit.

use crate::label::table_cell;
use crate::layout::pen::{Align, Baseline, Font, Rect};
use crate::layout::text::{self, Weight};
use crate::layout::Ctx;
use crate::scene::hit::{HitShape, Mark, Text};

/// A cell reads as a number: digits with optional sign, separators,
/// decimals, currency or percent.
fn numeric(cell: &str) -> bool {
    let t = cell.trim();
    !t.is_empty()
        && t.chars().any(|c| c.is_ascii_digit())
        && t.chars().all(|c| {
            c.is_ascii_digit()
                || matches!(
                    c,
                    '.' | ',' | '-' | '+' | '%' | '$' | '€' | '£' | '\u{2212}' | ' ' | 'e' | 'E'
                )
        })
}

/// Each cell of a drawn row as a mark, so a keyboard or a finger can read
/// the table cell by cell: named by its column and the row's first cell.
fn record_row(
    ctx: &Ctx<'_>,
    (x, y, row_h): (f64, f64, f64),
    widths: &[f64],
    columns: &[String],
    row: &[String],
) {
    let mut left = x;
    for (c, w) in widths.iter().enumerate() {
        let column = cell(columns, c);
        let label = match c {
            0 => column.to_string(),
            _ => crate::label::cell(column, &table_cell(cell(row, 0))),
        };
        let value = table_cell(cell(row, c));
        ctx.hit(|| Mark {
            shape: HitShape::Rect(Rect::new(left, y, *w, row_h)),
            series: None,
            label: Text::Ready(label),
            value: Text::Ready(value),
        });
        left += w;
    }
}

fn cell(row: &[String], c: usize) -> &str {
    row.get(c).map(String::as_str).unwrap_or("")
}

/// The narrowest column drawn, in pixels (about five characters).
const MIN_COLUMN: f64 = 56.0;

#[inline(never)]
pub fn draw(ctx: &Ctx<'_>, body: Rect, columns: &[String], rows: &[Vec<String>]) {
    ctx.p.set_plot(body);
    let _marks = ctx.p.marking();
    let size = ctx.sizes.tick;
    let row_h = (size * 2.1).round();
    let pad = 8.0;
    let all = columns
        .len()
        .max(rows.iter().map(Vec::len).max().unwrap_or(0))
        .max(1);
    // Columns narrower than a few characters show nothing but ellipses:
    // the first ones that fit are drawn, and the note counts the rest.
    let fit = ((body.w / MIN_COLUMN).floor() as usize).max(1);
    let count = all.min(fit);
    let hidden_columns = all - count;

    // Natural width per column (header and the rows that can show), then
    // shared out: narrow columns keep theirs, wide ones split the rest.
    let visible = ((body.h / row_h).floor() as usize).saturating_sub(1);
    let shown = rows.len().min(visible);
    let natural: Vec<f64> = (0..count)
        .map(|c| {
            let head = text::width(cell(columns, c), size, Weight::Bold);
            rows.iter()
                .take(shown)
                .map(|r| text::width(&table_cell(cell(r, c)), size, Weight::Regular))
                .fold(head, f64::max)
                + pad * 2.0
        })
        .collect();
    let total: f64 = natural.iter().sum();
    let widths: Vec<f64> = if total <= body.w {
        // Spread the spare room so the table spans the card, but keep
        // narrow tables from turning into wide gaps.
        let grow = (body.w / total.max(1.0)).min(1.6);
        natural.iter().map(|w| w * grow).collect()
    } else {
        let fair = body.w / count as f64;
        let small: f64 = natural.iter().filter(|w| **w <= fair).sum();
        let big = natural.iter().filter(|w| **w > fair).count().max(1);
        let share = (body.w - small) / big as f64;
        natural.iter().map(|w| w.min(share)).collect()
    };
    let right_align: Vec<bool> = (0..count)
        .map(|c| {
            let mut cells = rows
                .iter()
                .take(shown)
                .map(|r| cell(r, c))
                .filter(|s| !s.is_empty());
            let first = cells.next();
            first.is_some_and(numeric) && cells.all(numeric)
        })
        .collect();

    let draw_row = |y: f64, row: &[String], font: Font| {
        let mut x = body.x;
        for (c, w) in widths.iter().enumerate() {
            // Half a pixel of slack: a column sized to its text must not cut it.
            let content = text::ellipsize(
                &table_cell(cell(row, c)),
                font.size,
                font.weight,
                w - pad * 2.0 + 0.5,
            );
            let right = right_align.get(c).copied().unwrap_or(false);
            let (tx, align) = if right {
                (x + w - pad, Align::End)
            } else {
                (x + pad, Align::Start)
            };
            ctx.p.text(
                &content,
                (tx, y + row_h / 2.0),
                font,
                align,
                Baseline::Middle,
            );
            x += w;
        }
    };

    let table_w: f64 = widths.iter().sum();
    draw_row(
        body.y,
        columns,
        Font::new(size, Weight::Bold, ctx.theme.text),
    );
    ctx.p.line(
        &[(body.x, body.y + row_h), (body.x + table_w, body.y + row_h)],
        ctx.theme.axis,
        1.0,
    );
    let more = rows.len() - shown;
    // The last visible line tells how many rows and columns were left out.
    let note = more > 0 || hidden_columns > 0;
    let shown = if note && shown == visible {
        shown.saturating_sub(1)
    } else {
        shown
    };
    for (i, row) in rows.iter().take(shown).enumerate() {
        let y = body.y + row_h * (i as f64 + 1.0);
        if i % 2 == 1 {
            ctx.p
                .rect(Rect::new(body.x, y, table_w, row_h), ctx.theme.faint);
        }
        draw_row(y, row, Font::new(size, Weight::Regular, ctx.theme.text));
        if ctx.recording() {
            record_row(ctx, (body.x, y, row_h), &widths, columns, row);
        }
    }
    let hidden = rows.len() - shown;
    if hidden > 0 || hidden_columns > 0 {
        let y = body.y + row_h * (shown as f64 + 1.0);
        let counted = |n: usize, one: &str, many: &str| {
            (n > 0).then(|| format!("{n} more {}", if n == 1 { one } else { many }))
        };
        let note = [
            counted(hidden, "row", "rows"),
            counted(hidden_columns, "column", "columns"),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
        ctx.p.text(
            &format!("\u{2026} {note}"),
            (body.x + pad, y + row_h / 2.0),
            Font::new(ctx.sizes.small, Weight::Regular, ctx.theme.muted),
            Align::Start,
            Baseline::Middle,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::numeric;

    #[test]
    fn numbers_are_recognised() {
        for yes in ["12", "1,234.5", "-3", "45%", "$9.99", "1e6", "\u{2212}2"] {
            assert!(numeric(yes), "{yes}");
        }
        for no in ["", "abc", "12 apples", "2025-01-01T00:00", "-", "%"] {
            assert!(!numeric(no), "{no}");
        }
    }
}
