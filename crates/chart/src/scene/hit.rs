//! Where every mark landed, so the page can answer "what is under the
//! pointer?" for tooltips without knowing how each card is laid out.
//!
//! Positions are CSS pixels of the drawing (device pixels divided by the
//! device scale), the same units as pointer events in the page.

use std::cell::{OnceCell, RefCell};
use std::f64::consts::TAU;

use super::Rect;
use crate::label;
use crate::model::DatePrecision;

mod walk;

pub use walk::{Step, Target, Walk};

/// The area of one mark.
#[derive(Debug, Clone, PartialEq)]
pub enum HitShape {
    /// A point of a line or a scatter: found by distance, never contained.
    Point { x: f64, y: f64 },
    /// A bar, a box, a heatmap cell, a timeline bar, a histogram bin.
    Rect(Rect),
    /// A pie slice around (`cx`, `cy`) between the radii `inner` and
    /// `outer`. Angles are radians as canvas `arc()` takes them: 0 points
    /// right (three o'clock) and angles grow clockwise on screen (y down),
    /// so the first slice starts at −π/2 (twelve o'clock). The slice covers
    /// `start..=end`, with `start <= end <= start + 2π`.
    Wedge {
        cx: f64,
        cy: f64,
        inner: f64,
        outer: f64,
        start: f64,
        end: f64,
    },
    /// A map region: the outer rings of its parts (islands are parts), as
    /// drawn, and their bounding box. f32 halves the memory of a world map
    /// and still places a vertex within a thousandth of a pixel.
    Polygon {
        bounds: Rect,
        rings: Vec<Vec<(f32, f32)>>,
    },
}

/// A legend entry that hides and shows its series (see [`crate::View`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LegendKey {
    /// The series it names.
    pub series: String,
    /// The entry's box: its marker and its label.
    pub rect: Rect,
    /// Whether the series is drawn.
    pub shown: bool,
}

/// A zoomable card's plot in the data's units: what a pointer's pixels
/// are as x (and, on a scatter, y) values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ZoomWindow {
    pub plot: Rect,
    /// The x values at the plot's left and right edges.
    pub x: (f64, f64),
    /// The y values at the plot's bottom and top edges, when the card
    /// zooms in y too (a scatter).
    pub y: Option<(f64, f64)>,
}

impl ZoomWindow {
    /// The x value at a pixel column (CSS pixels of the card).
    pub fn x_of(&self, px: f64) -> f64 {
        let t = if self.plot.w > 0.0 {
            (px - self.plot.x) / self.plot.w
        } else {
            0.5
        };
        self.x.0 + t * (self.x.1 - self.x.0)
    }

    /// The y value at a pixel row, on a card that zooms in y.
    pub fn y_of(&self, py: f64) -> Option<f64> {
        let (lo, hi) = self.y?;
        let t = if self.plot.h > 0.0 {
            (self.plot.bottom() - py) / self.plot.h
        } else {
            0.5
        };
        Some(lo + t * (hi - lo))
    }
}

/// One mark and what a tooltip says about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub shape: HitShape,
    /// The series name when the card has several series, else `None`.
    pub series: Option<String>,
    /// The x value or category as the axis would show it.
    pub label: String,
    /// The value, formatted with the card's units.
    pub value: String,
}

/// Every mark of a drawn card, in drawing order (later is on top).
///
/// The text of a mark is written the first time the mark is asked for
/// (by [`HitMap::at`] or [`HitMap::iter`]): formatting costs about half a
/// microsecond a value, and most marks are never pointed at. The map is
/// therefore not `Sync`.
#[derive(Debug, Clone, Default)]
pub struct HitMap {
    entries: Vec<Entry>,
    /// Names of the series, when the card has several.
    series: Vec<String>,
    units: Option<String>,
    /// The card's locale: tooltips are written when asked for, after the
    /// layout that set it is over.
    locale: crate::locale::Locale,
    /// The legend entries that hide and show their series, as drawn.
    legend: Vec<LegendKey>,
    /// Where a zoomable card's plot is, in its data's units.
    zoom_window: Option<ZoomWindow>,
}

#[derive(Debug, Clone)]
struct Entry {
    mark: Mark,
    hit: OnceCell<Box<Hit>>,
}

/// A mark as the drawing records it: the shape now, the text as data.
#[derive(Debug, Clone)]
pub(crate) struct Mark {
    pub shape: HitShape,
    /// Index into the map's series names (see [`Recorder::series`]).
    pub series: Option<u32>,
    pub label: Text,
    pub value: Text,
}

/// Text kept as data until a tooltip asks for it.
#[derive(Debug, Clone)]
pub(crate) enum Text {
    Ready(String),
    /// A date at the data's precision.
    Date(f64, DatePrecision),
    /// A value with the card's units.
    Value(f64),
    /// A number without units (a scatter's x).
    Number(f64),
}

impl HitMap {
    /// The mark under (`x`, `y`), in CSS pixels: the topmost area (rect,
    /// wedge, polygon) that contains it; else the nearest point within
    /// `radius`; else the nearest rect within `radius` (thin or zero-height
    /// bars). Non-finite coordinates find nothing; a negative or NaN radius
    /// counts as zero.
    pub fn at(&self, x: f64, y: f64, radius: f64) -> Option<&Hit> {
        if !x.is_finite() || !y.is_finite() {
            return None;
        }
        let shapes = || self.entries.iter().map(|e| &e.mark.shape);
        if let Some(i) = shapes().rposition(|s| s.contains(x, y)) {
            return self.entries.get(i).map(|e| self.hit(e));
        }
        let radius = if radius >= 0.0 { radius } else { 0.0 };
        let limit = radius * radius;
        let nearest = |distance2: fn(&HitShape, f64, f64) -> Option<f64>| {
            let mut best: Option<(f64, usize)> = None;
            for (i, shape) in shapes().enumerate() {
                if let Some(d2) = distance2(shape, x, y) {
                    // Ties go to the later mark: it is drawn on top.
                    if d2 <= limit && best.is_none_or(|(b, _)| d2 <= b) {
                        best = Some((d2, i));
                    }
                }
            }
            best.map(|(_, i)| i)
        };
        nearest(HitShape::point_distance2)
            .or_else(|| nearest(HitShape::rect_distance2))
            .and_then(|i| self.entries.get(i))
            .map(|e| self.hit(e))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// A zoomable card's plot in its data's units (timeseries, area and
    /// scatter cards); `None` for any other.
    pub fn zoom_window(&self) -> Option<&ZoomWindow> {
        self.zoom_window.as_ref()
    }

    /// A crosshair's column: for each series, its point nearest the pixel
    /// column `x` within `radius` (CSS pixels), in the series' order. Only
    /// points (lines, areas, scatters) take part.
    pub fn column_at(&self, x: f64, radius: f64) -> Vec<&Hit> {
        // Slot 0 for marks of no series, slot s + 1 for series s: in order
        // without a sort.
        let mut best: Vec<Option<(f64, usize)>> = vec![None; self.series.len() + 1];
        for (i, entry) in self.entries.iter().enumerate() {
            let HitShape::Point { x: px, .. } = entry.mark.shape else {
                continue;
            };
            let d = (px - x).abs();
            let slot = entry.mark.series.map_or(0, |s| s as usize + 1);
            if let Some(slot) = best.get_mut(slot).filter(|_| d <= radius) {
                if slot.is_none_or(|(b, _)| d < b) {
                    *slot = Some((d, i));
                }
            }
        }
        best.iter()
            .flatten()
            .filter_map(|&(_, i)| self.entries.get(i))
            .map(|e| self.hit(e))
            .collect()
    }

    /// The legend entries that hide and show a series, in legend order.
    pub fn legend(&self) -> &[LegendKey] {
        &self.legend
    }

    /// The mark at `index` in drawing order.
    pub fn get(&self, index: usize) -> Option<&Hit> {
        self.entries.get(index).map(|e| self.hit(e))
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every mark in drawing order.
    pub fn iter(&self) -> impl Iterator<Item = &Hit> {
        self.entries.iter().map(|e| self.hit(e))
    }

    fn hit<'m>(&'m self, entry: &'m Entry) -> &'m Hit {
        entry.hit.get_or_init(|| {
            let mark = &entry.mark;
            Box::new(Hit {
                shape: mark.shape.clone(),
                series: mark
                    .series
                    .and_then(|i| self.series.get(i as usize).cloned()),
                label: self.text(&mark.label),
                value: self.text(&mark.value),
            })
        })
    }

    fn text(&self, text: &Text) -> String {
        let _locale = crate::locale::scoped(self.locale);
        match text {
            Text::Ready(text) => text.clone(),
            Text::Date(seconds, precision) => label::date(*seconds, *precision),
            Text::Value(v) => label::exact(*v, self.units.as_deref()),
            Text::Number(v) => label::number(*v),
        }
    }
}

impl HitShape {
    /// True when (`x`, `y`) lies inside an area shape; points contain nothing.
    fn contains(&self, x: f64, y: f64) -> bool {
        match self {
            HitShape::Point { .. } => false,
            HitShape::Rect(r) => in_rect(r, x, y),
            HitShape::Wedge {
                cx,
                cy,
                inner,
                outer,
                start,
                end,
            } => {
                let (dx, dy) = (x - cx, y - cy);
                let r2 = dx * dx + dy * dy;
                if r2 > outer * outer || r2 < inner * inner {
                    return false;
                }
                let sweep = end - start;
                sweep >= TAU || turn_from(*start, crate::math::atan2(dy, dx)) <= sweep
            }
            HitShape::Polygon { bounds, rings } => {
                in_rect(bounds, x, y) && rings.iter().any(|ring| in_ring(ring, x, y))
            }
        }
    }

    fn point_distance2(&self, x: f64, y: f64) -> Option<f64> {
        match self {
            HitShape::Point { x: px, y: py } => Some((x - px).powi(2) + (y - py).powi(2)),
            _ => None,
        }
    }

    fn rect_distance2(&self, x: f64, y: f64) -> Option<f64> {
        match self {
            HitShape::Rect(r) => {
                let dx = (r.x - x).max(x - r.right()).max(0.0);
                let dy = (r.y - y).max(y - r.bottom()).max(0.0);
                Some(dx * dx + dy * dy)
            }
            _ => None,
        }
    }

    /// Every coordinate finite: a shape made of NaN would match nothing
    /// and only cost time.
    fn is_finite(&self) -> bool {
        let rect = |r: &Rect| [r.x, r.y, r.w, r.h].iter().all(|v| v.is_finite());
        match self {
            HitShape::Point { x, y } => x.is_finite() && y.is_finite(),
            HitShape::Rect(r) => rect(r),
            HitShape::Wedge {
                cx,
                cy,
                inner,
                outer,
                start,
                end,
            } => [cx, cy, inner, outer, start, end]
                .iter()
                .all(|v| v.is_finite()),
            HitShape::Polygon { bounds, rings } => {
                rect(bounds)
                    && rings
                        .iter()
                        .flatten()
                        .all(|(x, y)| x.is_finite() && y.is_finite())
            }
        }
    }
}

/// `(angle - start).rem_euclid(TAU)`, the angle past `start` in [0, TAU),
/// without `%` on floats: that is libm's `fmod`, which brings a u128
/// division (about 2 KB) into the engine for this one line. Bit for bit
/// the same while |angle - start| < 2 TAU (atan2 minus a scene angle in
/// [0, TAU] always is); beyond, at most a rounding apart.
fn turn_from(start: f64, angle: f64) -> f64 {
    let a = angle - start;
    let r = a - TAU * (a / TAU).floor();
    // Rounding can leave r just outside [0, TAU): one turn puts it back.
    if r < 0.0 {
        r + TAU
    } else if r >= TAU {
        r - TAU
    } else {
        r
    }
}

fn in_rect(r: &Rect, x: f64, y: f64) -> bool {
    x >= r.x && x <= r.right() && y >= r.y && y <= r.bottom()
}

/// Even-odd rule, as the ring is filled.
fn in_ring(ring: &[(f32, f32)], x: f64, y: f64) -> bool {
    let mut inside = false;
    let mut previous = match ring.last() {
        Some(&p) => p,
        None => return false,
    };
    for &current in ring {
        let (x0, y0) = (f64::from(previous.0), f64::from(previous.1));
        let (x1, y1) = (f64::from(current.0), f64::from(current.1));
        if (y0 > y) != (y1 > y) && x < x0 + (y - y0) / (y1 - y0) * (x1 - x0) {
            inside = !inside;
        }
        previous = current;
    }
    inside
}

/// Collects marks while a card is drawn; switched off for plain drawing so
/// that `Chart::draw` records nothing.
pub(crate) struct Recorder {
    map: Option<RefCell<HitMap>>,
}

impl Recorder {
    pub fn off() -> Recorder {
        Recorder { map: None }
    }

    /// Recording, with `units` for the values, written in `locale`.
    pub fn on(units: Option<&str>, locale: crate::locale::Locale) -> Recorder {
        Recorder {
            map: Some(RefCell::new(HitMap {
                units: units.map(str::to_string),
                locale,
                ..HitMap::default()
            })),
        }
    }

    pub fn is_on(&self) -> bool {
        self.map.is_some()
    }

    /// The index of series `name` for [`Mark::series`]: `None` for a card
    /// of one series (the title already names it) or when not recording.
    pub fn series(&self, count: usize, name: &str) -> Option<u32> {
        if count < 2 {
            return None;
        }
        let mut map = self.map.as_ref()?.try_borrow_mut().ok()?;
        let at = match map.series.iter().rposition(|n| n == name) {
            Some(at) => at,
            None => {
                map.series.push(name.to_string());
                map.series.len() - 1
            }
        };
        u32::try_from(at).ok()
    }

    /// Records that the card can zoom, and its plot in data units.
    pub fn zoom_window(&self, frame: ZoomWindow) {
        let Some(cell) = &self.map else { return };
        if let Ok(mut map) = cell.try_borrow_mut() {
            map.zoom_window = Some(frame);
        }
    }

    /// Records a legend entry that hides and shows `series`.
    pub fn legend_key(&self, series: &str, rect: Rect, shown: bool) {
        let Some(cell) = &self.map else { return };
        if let Ok(mut map) = cell.try_borrow_mut() {
            map.legend.push(LegendKey {
                series: series.to_string(),
                rect,
                shown,
            });
        }
    }

    /// Adds the mark `make` builds; `make` runs only when recording.
    pub fn add(&self, make: impl FnOnce() -> Mark) {
        let Some(cell) = &self.map else { return };
        let mark = make();
        if !mark.shape.is_finite() {
            return;
        }
        if let Ok(mut map) = cell.try_borrow_mut() {
            map.entries.push(Entry {
                mark,
                hit: OnceCell::new(),
            });
        }
    }

    pub fn finish(self) -> HitMap {
        self.map.map(RefCell::into_inner).unwrap_or_default()
    }
}

/// More marks of one kind than this cannot be told apart by a pointer:
/// dense scatters and heatmaps record one mark per [`Coarse`] cell.
pub(crate) const DENSE: usize = 4_000;
/// Cells per side at most (a plot wider than 8,192 px gets wider cells).
const MAX_CELLS: usize = 1_024;

/// One flag per cell of a coarse grid over the plot: was a mark recorded
/// there yet? Keeps a dense drawing's hit map to one mark per cell.
pub(crate) struct Coarse {
    plot: Rect,
    columns: usize,
    rows: usize,
    taken: Vec<bool>,
}

impl Coarse {
    /// A grid of `cell`-pixel cells over `plot`.
    pub fn new(plot: Rect, cell: f64) -> Coarse {
        let cell = if cell.is_finite() && cell >= 1.0 {
            cell
        } else {
            1.0
        };
        let side = |length: f64| ((length / cell).ceil().max(1.0) as usize).min(MAX_CELLS);
        let (columns, rows) = (side(plot.w), side(plot.h));
        Coarse {
            plot,
            columns,
            rows,
            taken: vec![false; columns * rows],
        }
    }

    /// True for the first point in its cell; points off the plot count in
    /// the nearest cell on its edge.
    pub fn first(&mut self, (x, y): (f64, f64)) -> bool {
        let cell = |v: f64, start: f64, length: f64, count: usize| {
            let at = (v - start) / length.max(1.0) * count as f64;
            // NaN casts to 0; the clamp keeps the far edge in the last cell.
            (at.max(0.0) as usize).min(count.saturating_sub(1))
        };
        let column = cell(x, self.plot.x, self.plot.w, self.columns);
        let row = cell(y, self.plot.y, self.plot.h, self.rows);
        match self.taken.get_mut(row * self.columns + column) {
            Some(taken) if *taken => false,
            Some(taken) => {
                *taken = true;
                true
            }
            None => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::f64::consts::{FRAC_PI_2, PI};

    use super::*;

    #[test]
    fn turns_match_rem_euclid() {
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let edges = [0.0, -0.0, TAU, -TAU, PI, -PI, 2.0 * TAU, -2.0 * TAU + 1e-12];
        for a in edges
            .into_iter()
            .chain((0..100_000).map(|_| (next() * 3.0 - 2.0) * TAU))
        {
            if a > -2.0 * TAU && a < 2.0 * TAU {
                // Bit for bit, but for the sign of a zero (-0.0 <= sweep as 0.0 is).
                let (ours, exact) = (turn_from(0.0, a), a.rem_euclid(TAU));
                assert!(ours.to_bits() == exact.to_bits() || ours == exact, "{a}");
            }
        }
        for a in [1e3, -1e3, 12_345.678, -9.9e9, 1e15] {
            let (ours, exact) = (turn_from(0.0, a), a.rem_euclid(TAU));
            assert!((0.0..TAU).contains(&ours), "{a}: {ours}");
            // a - TAU × floor(a / TAU) loses what a's magnitude rounds away.
            let tolerance = a.abs() * 4.0 * f64::EPSILON;
            assert!(
                (ours - exact).abs() <= tolerance,
                "{a}: {ours} against {exact}"
            );
        }
        assert!(turn_from(0.0, f64::NAN).is_nan());
        assert!(turn_from(f64::INFINITY, 1.0).is_nan());
        assert_eq!(turn_from(FRAC_PI_2, 0.0), 1.5 * PI);
    }

    fn mark(shape: HitShape, label: &str) -> Mark {
        Mark {
            shape,
            series: None,
            label: Text::Ready(label.to_string()),
            value: Text::Value(1.0),
        }
    }

    fn map(shapes: Vec<(HitShape, &str)>) -> HitMap {
        let recorder = Recorder::on(None, Default::default());
        for (shape, label) in shapes {
            recorder.add(|| mark(shape, label));
        }
        recorder.finish()
    }

    fn label(map: &HitMap, x: f64, y: f64, radius: f64) -> Option<&str> {
        map.at(x, y, radius).map(|h| h.label.as_str())
    }

    #[test]
    fn areas_contain_and_the_topmost_wins() {
        let m = map(vec![
            (HitShape::Rect(Rect::new(0.0, 0.0, 100.0, 100.0)), "under"),
            (HitShape::Rect(Rect::new(40.0, 40.0, 20.0, 20.0)), "over"),
        ]);
        assert_eq!(label(&m, 50.0, 50.0, 0.0), Some("over"));
        assert_eq!(label(&m, 10.0, 10.0, 0.0), Some("under"));
        assert_eq!(label(&m, 105.0, 50.0, 0.0), None);
        assert_eq!(label(&m, 105.0, 50.0, 6.0), Some("under"));
    }

    #[test]
    fn nearest_point_within_the_radius() {
        let m = map(vec![
            (HitShape::Point { x: 10.0, y: 10.0 }, "a"),
            (HitShape::Point { x: 20.0, y: 10.0 }, "b"),
            (HitShape::Rect(Rect::new(100.0, 0.0, 10.0, 0.0)), "flat"),
        ]);
        assert_eq!(label(&m, 14.0, 12.0, 8.0), Some("a"));
        assert_eq!(label(&m, 16.0, 12.0, 8.0), Some("b"));
        assert_eq!(label(&m, 16.0, 40.0, 8.0), None);
        // A zero-height bar is still found near its line.
        assert_eq!(label(&m, 105.0, 3.0, 8.0), Some("flat"));
        assert_eq!(label(&m, 105.0, 0.0, 0.0), Some("flat"));
    }

    #[test]
    fn wedges_follow_the_canvas_arc_convention() {
        // The right half of a circle: from twelve o'clock clockwise to six.
        let right = HitShape::Wedge {
            cx: 0.0,
            cy: 0.0,
            inner: 0.0,
            outer: 10.0,
            start: -FRAC_PI_2,
            end: FRAC_PI_2,
        };
        // The rest, ending where the first slice started, a full turn on.
        let left = HitShape::Wedge {
            cx: 0.0,
            cy: 0.0,
            inner: 2.0,
            outer: 10.0,
            start: FRAC_PI_2,
            end: 3.0 * FRAC_PI_2,
        };
        let m = map(vec![(right, "right"), (left, "left")]);
        assert_eq!(label(&m, 5.0, -1.0, 0.0), Some("right"));
        assert_eq!(label(&m, 5.0, 1.0, 0.0), Some("right"));
        assert_eq!(label(&m, -5.0, 1.0, 0.0), Some("left"));
        assert_eq!(label(&m, -5.0, -1.0, 0.0), Some("left"));
        assert_eq!(label(&m, -1.0, 0.0, 0.0), None, "inside the hole");
        assert_eq!(label(&m, 11.0, 0.0, 0.0), None);
        let whole = HitShape::Wedge {
            cx: 0.0,
            cy: 0.0,
            inner: 0.0,
            outer: 10.0,
            start: -FRAC_PI_2,
            end: -FRAC_PI_2 + 2.0 * PI,
        };
        let m = map(vec![(whole, "all")]);
        for a in 0..16 {
            let a = f64::from(a) * PI / 8.0;
            assert_eq!(label(&m, 5.0 * a.cos(), 5.0 * a.sin(), 0.0), Some("all"));
        }
    }

    #[test]
    fn polygons_use_their_rings() {
        // An L shape and an island.
        let l = vec![
            (0.0, 0.0),
            (10.0, 0.0),
            (10.0, 4.0),
            (4.0, 4.0),
            (4.0, 10.0),
            (0.0, 10.0),
        ];
        let island = vec![(20.0, 20.0), (22.0, 20.0), (22.0, 22.0)];
        let shape = HitShape::Polygon {
            bounds: Rect::new(0.0, 0.0, 22.0, 22.0),
            rings: vec![l, island],
        };
        let m = map(vec![(shape, "region")]);
        assert_eq!(label(&m, 2.0, 8.0, 0.0), Some("region"));
        assert_eq!(label(&m, 8.0, 2.0, 0.0), Some("region"));
        assert_eq!(label(&m, 8.0, 8.0, 0.0), None);
        assert_eq!(label(&m, 21.5, 20.5, 0.0), Some("region"));
        assert_eq!(label(&m, 20.5, 21.5, 0.0), None);
    }

    #[test]
    fn hostile_coordinates_find_nothing_and_never_panic() {
        let m = map(vec![
            (HitShape::Point { x: 0.0, y: 0.0 }, "p"),
            (HitShape::Rect(Rect::new(0.0, 0.0, 5.0, 5.0)), "r"),
            (
                HitShape::Point {
                    x: f64::NAN,
                    y: 0.0,
                },
                "nan",
            ),
            (
                HitShape::Polygon {
                    bounds: Rect::new(0.0, 0.0, 1.0, 1.0),
                    rings: vec![vec![], vec![(0.0, 0.0)]],
                },
                "empty",
            ),
        ]);
        assert_eq!(m.len(), 3, "a shape with NaN is not recorded");
        for v in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(label(&m, v, 1.0, 5.0), None);
            assert_eq!(label(&m, 1.0, v, 5.0), None);
        }
        assert_eq!(label(&m, -3.0, 0.0, f64::NAN), None);
        assert_eq!(label(&m, -3.0, 0.0, -1.0), None);
        assert_eq!(label(&m, -3.0, 0.0, f64::INFINITY), Some("p"));
        assert!(HitMap::default().at(0.0, 0.0, 10.0).is_none());
    }

    #[test]
    fn a_recorder_that_is_off_builds_nothing() {
        let recorder = Recorder::off();
        let mut built = false;
        recorder.add(|| {
            built = true;
            mark(HitShape::Point { x: 0.0, y: 0.0 }, "p")
        });
        assert!(!built && !recorder.is_on());
        assert_eq!(recorder.series(3, "a"), None);
        assert!(recorder.finish().is_empty());
    }

    #[test]
    fn a_coarse_grid_keeps_the_first_point_per_cell() {
        let mut grid = Coarse::new(Rect::new(10.0, 10.0, 100.0, 50.0), 8.0);
        assert!(grid.first((11.0, 11.0)));
        assert!(!grid.first((17.0, 17.0)), "same cell");
        assert!(grid.first((19.0, 11.0)), "next cell");
        assert!(grid.first((110.0, 60.0)), "far corner");
        assert!(!grid.first((500.0, 500.0)), "off the plot: the corner cell");
        assert!(grid.first((f64::NAN, 30.0)));
        let mut one = Coarse::new(Rect::new(0.0, 0.0, 0.0, 0.0), f64::NAN);
        assert!(one.first((0.0, 0.0)) && !one.first((5.0, 5.0)));
    }

    #[test]
    fn text_is_written_when_asked_for() {
        let recorder = Recorder::on(Some("$"), Default::default());
        let (a, b) = (recorder.series(2, "A"), recorder.series(2, "B"));
        assert_eq!((a, b, recorder.series(2, "A")), (Some(0), Some(1), Some(0)));
        assert_eq!(recorder.series(1, "alone"), None);
        recorder.add(|| Mark {
            shape: HitShape::Point { x: 0.0, y: 0.0 },
            series: b,
            label: Text::Date(86_400.0, DatePrecision::Day),
            value: Text::Value(-1250.0),
        });
        recorder.add(|| Mark {
            shape: HitShape::Point { x: 50.0, y: 0.0 },
            series: a,
            label: Text::Number(1234.5),
            value: Text::Ready("ready".into()),
        });
        let map = recorder.finish();
        let texts: Vec<(Option<&str>, &str, &str)> = map
            .iter()
            .map(|h| (h.series.as_deref(), h.label.as_str(), h.value.as_str()))
            .collect();
        assert_eq!(
            texts,
            [
                (Some("B"), "Jan 2, 1970", "\u{2212}$1,250"),
                (Some("A"), "1,234.5", "ready")
            ]
        );
        let found = map.at(1.0, 1.0, 5.0);
        assert_eq!(found.map(|h| h.label.as_str()), Some("Jan 2, 1970"));
        let first = map.iter().next().map(|h| h as *const Hit);
        assert_eq!(
            found.map(|h| h as *const Hit),
            first,
            "built once, then kept"
        );
    }
}
