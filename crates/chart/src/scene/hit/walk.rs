//! Moving from mark to mark with a keyboard: the hit map read as rows of
//! marks, one row per series, each in reading order.
//!
//! Left and right go along a row (a series, or a one-series card's
//! categories); up and down go to the neighbouring series, to its mark
//! nearest in x. A card of one row (a map, a treemap, a table, a heatmap)
//! has no series to change, so up and down move on screen instead: to the
//! nearest mark above or below. The legend entries that hide and show a
//! series are the first row, above the series: indices past the marks'
//! ([`HitMap::target`]).

use super::{Hit, HitMap, HitShape, LegendKey};

/// What a walk's index is on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target<'m> {
    Mark(&'m Hit),
    Legend(&'m LegendKey),
}

/// One key's move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Left: the previous mark of the row.
    Previous,
    /// Right: the next mark of the row.
    Next,
    /// Up: the previous series, or the mark above.
    Up,
    /// Down: the next series, or the mark below.
    Down,
    /// Home: the row's first mark.
    First,
    /// End: the row's last mark.
    Last,
}

/// The hit map's marks in walking order, worked out once per drawing.
#[derive(Debug, Clone, Default)]
pub struct Walk {
    /// Mark indices, row after row.
    order: Vec<usize>,
    /// Where each mark is in `order`.
    place: Vec<usize>,
    /// The start of each row in `order`, and `order.len()` at the end.
    rows: Vec<usize>,
    /// Each mark's centre, for up and down.
    centres: Vec<(f64, f64)>,
    /// The first row is the legend's.
    legend: bool,
}

impl HitMap {
    /// The order a keyboard walks this map's marks in.
    pub fn walk(&self) -> Walk {
        let marks = self.entries.len();
        let total = marks + self.legend.len();
        let centres: Vec<(f64, f64)> = self
            .entries
            .iter()
            .map(|e| e.mark.shape.centre())
            .chain(self.legend.iter().map(|key| key.rect.center()))
            .collect();
        // Points (lines, scatters) go left to right whatever order they were
        // drawn in; a map's regions west to east; bars, slices, cells, rows
        // and legend entries keep the order they were laid out in, which is
        // the data's.
        let keys: Vec<f64> = (0..total)
            .map(|i| match self.entries.get(i).map(|e| &e.mark.shape) {
                Some(HitShape::Point { .. } | HitShape::Polygon { .. }) => {
                    centres.get(i).map_or(0.0, |c| c.0)
                }
                _ => i as f64,
            })
            .collect();
        // The legend is row 0, marks of no series row 1, series s row s + 2.
        let row_of = |i: usize| match self.entries.get(i) {
            Some(e) => e.mark.series.map_or(1, |s| s as usize + 2),
            None => 0,
        };
        let rows_count = (0..total).map(row_of).max().map_or(0, |m| m + 1);
        // A counting sort by row after the sort by key keeps each row in key order.
        let mut starts = vec![0usize; rows_count + 1];
        for i in 0..total {
            if let Some(count) = starts.get_mut(row_of(i) + 1) {
                *count += 1;
            }
        }
        for r in 1..starts.len() {
            starts[r] += starts[r - 1];
        }
        let mut next = starts.clone();
        let mut order = vec![0usize; total];
        for i in crate::order::ranked(&keys, false) {
            if let Some(at) = next.get_mut(row_of(i)) {
                if let Some(slot) = order.get_mut(*at) {
                    *slot = i;
                }
                *at += 1;
            }
        }
        let mut place = vec![0usize; order.len()];
        for (at, &i) in order.iter().enumerate() {
            if let Some(slot) = place.get_mut(i) {
                *slot = at;
            }
        }
        // Series without marks (all hidden or empty) leave empty rows out.
        starts.dedup();
        Walk {
            order,
            place,
            rows: starts,
            centres,
            legend: marks < total,
        }
    }

    /// The mark or legend entry at a walk's index.
    pub fn target(&self, index: usize) -> Option<Target<'_>> {
        match index.checked_sub(self.entries.len()) {
            None => self.get(index).map(Target::Mark),
            Some(key) => self.legend.get(key).map(Target::Legend),
        }
    }
}

impl Walk {
    /// The mark `step` leads to from `from` (`None`: no mark yet, where
    /// any step starts at the first mark, and End at the last). `None` for
    /// a map without marks; a step past an edge stays where it is.
    pub fn step(&self, from: Option<usize>, step: Step) -> Option<usize> {
        // A walk starts on the marks, not on the legend above them.
        let marks_start = if self.legend {
            self.rows.get(1).copied().filter(|&s| s < self.order.len())
        } else {
            Some(0)
        };
        let first = self.order.get(marks_start.unwrap_or(0)).copied()?;
        let Some(at) = from.and_then(|i| self.place.get(i).copied()) else {
            return match step {
                Step::Last => self.order.last().copied(),
                _ => Some(first),
            };
        };
        let row = self
            .rows
            .partition_point(|&start| start <= at)
            .saturating_sub(1);
        let (start, end) = self.row(row)?;
        let to = match step {
            Step::Previous => at.saturating_sub(1).max(start),
            Step::Next => (at + 1).min(end - 1),
            Step::First => start,
            Step::Last => end - 1,
            Step::Up | Step::Down if self.rows.len() > 2 => {
                let target = if step == Step::Up {
                    row.checked_sub(1)
                } else {
                    Some(row + 1)
                };
                match target.and_then(|r| self.row(r)) {
                    Some((s, e)) => self.nearest_in_x(at, s, e),
                    None => at,
                }
            }
            Step::Up | Step::Down => self.nearest_vertically(at, step == Step::Up),
        };
        self.order.get(to).copied()
    }

    fn row(&self, row: usize) -> Option<(usize, usize)> {
        let start = *self.rows.get(row)?;
        let end = *self.rows.get(row + 1)?;
        (end > start).then_some((start, end))
    }

    fn centre(&self, at: usize) -> (f64, f64) {
        self.order
            .get(at)
            .and_then(|&i| self.centres.get(i))
            .copied()
            .unwrap_or((0.0, 0.0))
    }

    /// The place in `start..end` whose mark is nearest `at`'s in x.
    fn nearest_in_x(&self, at: usize, start: usize, end: usize) -> usize {
        let (x, y) = self.centre(at);
        let cost = |p: usize| {
            let (px, py) = self.centre(p);
            ((px - x).abs(), (py - y).abs())
        };
        (start..end)
            .min_by(|&a, &b| {
                let (ca, cb) = (cost(a), cost(b));
                ca.0.total_cmp(&cb.0).then(ca.1.total_cmp(&cb.1))
            })
            .unwrap_or(at)
    }

    /// The nearest mark whose centre is above (or below) `at`'s, sideways
    /// distance counting double so that a move goes as straight as it can.
    fn nearest_vertically(&self, at: usize, up: bool) -> usize {
        let (x, y) = self.centre(at);
        let mut best: Option<(f64, usize)> = None;
        for p in 0..self.order.len() {
            let (px, py) = self.centre(p);
            let dy = if up { y - py } else { py - y };
            if dy < 0.5 {
                continue;
            }
            let cost = dy * dy + 4.0 * (px - x) * (px - x);
            if best.is_none_or(|(b, _)| cost < b) {
                best = Some((cost, p));
            }
        }
        best.map_or(at, |(_, p)| p)
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

impl HitShape {
    /// Where a ring around the mark is centred, and what a move measures from.
    pub fn centre(&self) -> (f64, f64) {
        match self {
            HitShape::Point { x, y } => (*x, *y),
            HitShape::Rect(r) => r.center(),
            HitShape::Polygon { bounds, .. } => bounds.center(),
            HitShape::Wedge {
                cx,
                cy,
                inner,
                outer,
                start,
                end,
            } => {
                let middle = (start + end) / 2.0;
                let radius = (inner + outer) / 2.0;
                (
                    cx + radius * crate::math::cos(middle),
                    cy + radius * crate::math::sin(middle),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Mark, Recorder, Text};
    use super::*;
    use crate::scene::Rect;

    fn map(marks: &[(HitShape, Option<&str>, &str)]) -> HitMap {
        let recorder = Recorder::on(None, Default::default());
        for (shape, series, label) in marks {
            let series = series.and_then(|name| recorder.series(2, name));
            recorder.add(|| Mark {
                shape: shape.clone(),
                series,
                label: Text::Ready((*label).to_string()),
                value: Text::Value(1.0),
            });
        }
        recorder.finish()
    }

    fn point(x: f64, y: f64) -> HitShape {
        HitShape::Point { x, y }
    }

    fn label(map: &HitMap, at: Option<usize>) -> &str {
        at.and_then(|i| map.iter().nth(i))
            .map_or("", |h| h.label.as_str())
    }

    /// Walks `steps` from nothing and names each mark reached.
    fn walk<'m>(map: &'m HitMap, steps: &[Step]) -> Vec<&'m str> {
        let walk = map.walk();
        let mut at = None;
        steps
            .iter()
            .map(|&s| {
                at = walk.step(at, s);
                label(map, at)
            })
            .collect()
    }

    #[test]
    fn points_go_left_to_right_whatever_their_drawing_order() {
        let m = map(&[
            (point(30.0, 5.0), None, "c"),
            (point(10.0, 5.0), None, "a"),
            (point(20.0, 9.0), None, "b"),
        ]);
        use Step::*;
        assert_eq!(
            walk(&m, &[Next, Next, Next, Next, Previous, First, Last]),
            ["a", "b", "c", "c", "b", "a", "c"]
        );
        assert_eq!(walk(&m, &[Last]), ["c"]);
    }

    #[test]
    fn up_and_down_change_series_at_the_nearest_x() {
        let m = map(&[
            (point(0.0, 10.0), Some("one"), "1a"),
            (point(10.0, 10.0), Some("one"), "1b"),
            (point(20.0, 10.0), Some("one"), "1c"),
            (point(1.0, 50.0), Some("two"), "2a"),
            (point(19.0, 50.0), Some("two"), "2c"),
        ]);
        use Step::*;
        assert_eq!(
            walk(&m, &[Next, Next, Next, Down, Down, Up, Previous, Up]),
            ["1a", "1b", "1c", "2c", "2c", "1c", "1b", "1b"]
        );
    }

    #[test]
    fn one_row_cards_move_up_and_down_on_screen() {
        let cell = |x, y| HitShape::Rect(Rect::new(x, y, 10.0, 10.0));
        // A 2×2 grid laid out row by row, as a heatmap or table draws it.
        let m = map(&[
            (cell(0.0, 0.0), None, "top left"),
            (cell(10.0, 0.0), None, "top right"),
            (cell(0.0, 10.0), None, "bottom left"),
            (cell(10.0, 10.0), None, "bottom right"),
        ]);
        use Step::*;
        assert_eq!(
            walk(&m, &[Next, Next, Down, Previous, Up, Up]),
            [
                "top left",
                "top right",
                "bottom right",
                "bottom left",
                "top left",
                "top left"
            ]
        );
    }

    #[test]
    fn an_empty_map_goes_nowhere() {
        let walk = HitMap::default().walk();
        assert!(walk.is_empty());
        for step in [Step::Next, Step::Up, Step::Last] {
            assert_eq!(walk.step(None, step), None);
            assert_eq!(walk.step(Some(3), step), None);
        }
    }

    #[test]
    fn a_stale_index_starts_again() {
        let m = map(&[(point(0.0, 0.0), None, "a"), (point(5.0, 0.0), None, "b")]);
        assert_eq!(m.walk().step(Some(99), Step::Next), Some(0));
    }
}
