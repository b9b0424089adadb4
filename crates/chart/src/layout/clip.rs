//! Lines and areas cut at the plot's edges: a zoomed card draws the parts
//! of its series inside the plot only, and a line leaving it ends on the
//! edge rather than over the axes.

use super::pen::Rect;

/// The parts of the polyline `points` inside `r`, each a run of at least
/// two points (Liang–Barsky on each segment).
pub fn polyline(points: &[(f64, f64)], r: Rect) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut run: Vec<(f64, f64)> = Vec::new();
    for pair in points.windows(2) {
        let [a, b] = pair else { continue };
        match segment(*a, *b, r) {
            Some((p, q)) => {
                // A segment starting where the run ends continues it.
                if run.last() != Some(&p) {
                    if run.len() > 1 {
                        runs.push(std::mem::take(&mut run));
                    }
                    run.clear();
                    run.push(p);
                }
                run.push(q);
            }
            None => {
                if run.len() > 1 {
                    runs.push(std::mem::take(&mut run));
                }
                run.clear();
            }
        }
    }
    if run.len() > 1 {
        runs.push(run);
    }
    runs
}

/// The part of the segment `a`–`b` inside `r`, if any.
fn segment(a: (f64, f64), b: (f64, f64), r: Rect) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - r.x),
        (dx, r.right() - a.0),
        (-dy, a.1 - r.y),
        (dy, r.bottom() - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                if t > t1 {
                    return None;
                }
                t0 = t0.max(t);
            } else {
                if t < t0 {
                    return None;
                }
                t1 = t1.min(t);
            }
        }
    }
    let at = |t: f64| (a.0 + t * dx, a.1 + t * dy);
    Some((at(t0), at(t1)))
}

/// One side of the clip rectangle: which points are inside it, and where
/// a segment crosses it.
type Edge<'e> = (
    &'e dyn Fn((f64, f64)) -> bool,
    &'e dyn Fn((f64, f64), (f64, f64)) -> (f64, f64),
);

/// The polygon `points` cut to `r` (Sutherland–Hodgman: `r` is convex).
pub fn polygon(points: &[(f64, f64)], r: Rect) -> Vec<(f64, f64)> {
    let edges: [Edge<'_>; 4] = [
        (&|p| p.0 >= r.x, &|a, b| at_x(a, b, r.x)),
        (&|p| p.0 <= r.right(), &|a, b| at_x(a, b, r.right())),
        (&|p| p.1 >= r.y, &|a, b| at_y(a, b, r.y)),
        (&|p| p.1 <= r.bottom(), &|a, b| at_y(a, b, r.bottom())),
    ];
    let mut out = points.to_vec();
    for (inside, cross) in edges {
        let input = std::mem::take(&mut out);
        let Some(&last) = input.last() else { break };
        let mut previous = last;
        for &current in &input {
            match (inside(current), inside(previous)) {
                (true, true) => out.push(current),
                (true, false) => {
                    out.push(cross(previous, current));
                    out.push(current);
                }
                (false, true) => out.push(cross(previous, current)),
                (false, false) => {}
            }
            previous = current;
        }
    }
    out
}

fn at_x(a: (f64, f64), b: (f64, f64), x: f64) -> (f64, f64) {
    let t = if b.0 == a.0 {
        0.0
    } else {
        (x - a.0) / (b.0 - a.0)
    };
    (x, a.1 + t * (b.1 - a.1))
}

fn at_y(a: (f64, f64), b: (f64, f64), y: f64) -> (f64, f64) {
    let t = if b.1 == a.1 {
        0.0
    } else {
        (y - a.1) / (b.1 - a.1)
    };
    (a.0 + t * (b.0 - a.0), y)
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: Rect = Rect {
        x: 0.0,
        y: 0.0,
        w: 10.0,
        h: 10.0,
    };

    #[test]
    fn lines_end_on_the_edges() {
        assert_eq!(
            polyline(&[(-10.0, 5.0), (5.0, 5.0), (20.0, 5.0)], R),
            [vec![(0.0, 5.0), (5.0, 5.0), (10.0, 5.0)]]
        );
        // Out and back in: two runs.
        let runs = polyline(&[(2.0, 2.0), (2.0, 20.0), (4.0, 20.0), (4.0, 2.0)], R);
        assert_eq!(
            runs,
            [vec![(2.0, 2.0), (2.0, 10.0)], vec![(4.0, 10.0), (4.0, 2.0)]]
        );
        assert!(polyline(&[(20.0, 20.0), (30.0, 30.0)], R).is_empty());
        assert!(polyline(&[(f64::NAN, 1.0), (2.0, 2.0)], R).len() <= 1);
    }

    #[test]
    fn areas_are_cut_to_the_plot() {
        let cut = polygon(&[(-5.0, 5.0), (15.0, 5.0), (15.0, 15.0), (-5.0, 15.0)], R);
        for (x, y) in &cut {
            assert!(
                (0.0..=10.0).contains(x) && (0.0..=10.0).contains(y),
                "{cut:?}"
            );
        }
        assert_eq!(cut.len(), 4);
        assert!(polygon(&[(20.0, 20.0), (30.0, 20.0), (30.0, 30.0)], R).is_empty());
    }
}
