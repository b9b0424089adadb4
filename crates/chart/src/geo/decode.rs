//! The atlas byte format (version 3, `crates/chart/geo/README.md`): a name
//! table, then a range-coded stream of the regions' rings as lists of shared
//! arcs. Every read and every invariant is checked, so a corrupt blob is an
//! error, never a panic, and what it decodes to is bounded (at most
//! [`MAX_POINTS`] arc points, and an arc serves at most two rings).

use super::{Map, Region};

const MAGIC: &[u8; 4] = b"ZGEO";
pub(super) const VERSION: u8 = 3;
/// Arc points an atlas may hold: the embedded ones have 6,273 and 5,568.
pub const MAX_POINTS: usize = 1 << 16;

/// Why an atlas blob could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GeoError {
    /// The data ends early: a field starting at `offset` is cut off.
    #[error("atlas data truncated at byte {offset}")]
    Truncated { offset: usize },
    /// The blob does not start with "ZGEO".
    #[error("not an atlas (missing \"ZGEO\" magic)")]
    BadMagic,
    /// A format version this decoder does not know.
    #[error("unsupported atlas format version {0}")]
    UnsupportedVersion(u8),
    /// A field has an impossible value (zero divisor, ring with fewer than
    /// three points, point outside the grid, arcs that do not join, too many
    /// points, bad UTF-8, ...).
    #[error("invalid atlas data at byte {offset}: {what}")]
    Invalid { offset: usize, what: &'static str },
    /// Bytes follow the last region.
    #[error("unexpected bytes after the atlas at byte {offset}")]
    TrailingBytes { offset: usize },
}

/// Checked reader: little-endian fields, then the range decoder of LZMA
/// (11-bit probabilities adapting by 1/32) over the rest of the bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    range: u32,
    code: u32,
}

/// Adaptive probabilities of one field kind: 32 for the unary bit length of
/// `v + 1`, then 32 per length for the bits below its leading one.
type Model = [u16; 32 + 32 * 32];

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], GeoError> {
        let truncated = GeoError::Truncated { offset: self.pos };
        let end = self.pos.checked_add(n).ok_or(truncated.clone())?;
        let slice = self.bytes.get(self.pos..end).ok_or(truncated)?;
        self.pos = end;
        Ok(slice)
    }

    fn u8(&mut self) -> Result<u8, GeoError> {
        Ok(self.take(1)?.first().copied().unwrap_or(0))
    }

    fn u16(&mut self) -> Result<u16, GeoError> {
        Ok(u16::from(self.u8()?) | u16::from(self.u8()?) << 8)
    }

    fn invalid(&self, what: &'static str) -> GeoError {
        GeoError::Invalid {
            offset: self.pos,
            what,
        }
    }

    /// Starts the range decoder at the current byte.
    fn start_range(&mut self) -> Result<(), GeoError> {
        if self.u8()? != 0 {
            return Err(self.invalid("range coder does not start with 0"));
        }
        self.range = u32::MAX;
        for _ in 0..4 {
            self.code = self.code << 8 | u32::from(self.u8()?);
        }
        Ok(())
    }

    fn bit(&mut self, p: &mut u16) -> Result<u32, GeoError> {
        let bound = (self.range >> 11) * u32::from(*p);
        let bit = if self.code < bound {
            self.range = bound;
            *p += (2048 - *p) >> 5;
            0
        } else {
            self.code -= bound;
            self.range -= bound;
            *p -= *p >> 5;
            1
        };
        while self.range < 1 << 24 {
            self.range <<= 8;
            self.code = self.code << 8 | u32::from(self.u8()?);
        }
        Ok(bit)
    }

    /// An integer below 2^31: its bit length in unary, then its bits.
    fn uint(&mut self, model: &mut Model) -> Result<u32, GeoError> {
        let mut n = 0;
        while self.bit(model.get_mut(n).ok_or(self.invalid("number too large"))?)? == 1 {
            n += 1;
            if n > 30 {
                return Err(self.invalid("number too large"));
            }
        }
        let mut x = 1u32;
        for k in (0..n).rev() {
            let p = model
                .get_mut(32 + 32 * n + k)
                .ok_or(self.invalid("number too large"))?;
            x = x << 1 | self.bit(p)?;
        }
        Ok(x - 1)
    }
}

type Point = (i64, i64);

/// The geometry stream's state: its models, every arc decoded so far (as a
/// range of `points`), how many rings use it, and the grid every point must
/// lie in.
struct Arcs {
    models: Vec<Model>,
    points: Vec<Point>,
    ranges: Vec<(usize, usize)>,
    uses: Vec<u8>,
    grid: Point,
    cursor: Point,
    dx: i64,
    previous: Point,
}

/// Model numbers in `Arcs::models`.
const ID: usize = 0;
const COUNT: usize = 1;
const TAG: usize = 2;
const DX: usize = 3;
/// |dy| per bit length of the |dx| before it, 0..=6.
const DY: usize = 4;
/// Signs of dx and dy per sign of the previous one (-1, 0, 1).
const SIGN_X: usize = 11;
const SIGN_Y: usize = 14;
/// |dx| and |dy| of a ring's start.
const START_X: usize = 17;
const START_Y: usize = 18;
const MODELS: usize = 19;

impl Arcs {
    fn uint(&mut self, r: &mut Reader<'_>, model: usize) -> Result<u32, GeoError> {
        match self.models.get_mut(model) {
            Some(m) => r.uint(m),
            None => Err(r.invalid("no such model")),
        }
    }

    /// A count; its loop ends by error once the point budget is spent.
    fn count(&mut self, r: &mut Reader<'_>) -> Result<usize, GeoError> {
        Ok(self.uint(r, COUNT)? as usize)
    }

    /// One coordinate delta: magnitude, then sign (see the converter).
    fn delta(&mut self, r: &mut Reader<'_>, y: bool, start: bool) -> Result<i64, GeoError> {
        let model = if start {
            if y {
                START_Y
            } else {
                START_X
            }
        } else if y {
            DY + (63 - (self.dx.unsigned_abs() + 1).leading_zeros() as usize).min(6)
        } else {
            DX
        };
        let magnitude = i64::from(self.uint(r, model)?);
        let previous = if y { self.previous.1 } else { self.previous.0 };
        let sign_model = if y { SIGN_Y } else { SIGN_X } + (previous.signum() + 1) as usize;
        let v = match (magnitude, self.models.get_mut(sign_model)) {
            (0, _) => 0,
            (m, Some(model)) => {
                if r.bit(&mut model[0])? == 1 {
                    -m
                } else {
                    m
                }
            }
            (_, None) => return Err(r.invalid("no such model")),
        };
        if y {
            self.previous.1 = v;
        } else {
            self.previous.0 = v;
            self.dx = v;
        }
        Ok(v)
    }

    fn point(&mut self, r: &mut Reader<'_>, from: Point, start: bool) -> Result<Point, GeoError> {
        let p = (
            from.0 + self.delta(r, false, start)?,
            from.1 + self.delta(r, true, start)?,
        );
        if !(0..=self.grid.0).contains(&p.0) || !(0..=self.grid.1).contains(&p.1) {
            return Err(r.invalid("point outside the grid"));
        }
        Ok(p)
    }

    /// One ring: its start, then items that are either a new arc (its points
    /// after the current one; the ring's last arc ends at the start, which is
    /// not stored again) or an earlier arc, forwards or backwards.
    fn ring(&mut self, r: &mut Reader<'_>) -> Result<Vec<Point>, GeoError> {
        let items = self.count(r)?;
        if items == 0 {
            return Err(r.invalid("ring without arcs"));
        }
        let start = self.point(r, self.cursor, true)?;
        let mut ring = vec![start];
        for item in 1..=items {
            let tag = self.uint(r, TAG)? as usize;
            let current = ring.last().copied().unwrap_or(start);
            let from = self.points.len();
            if tag & 1 == 0 {
                let n = tag >> 1;
                if n == 0 && item < items {
                    return Err(r.invalid("empty arc"));
                }
                if from + n + 2 > MAX_POINTS {
                    return Err(r.invalid("too many points"));
                }
                self.points.push(current);
                let mut p = current;
                for _ in 0..n {
                    p = self.point(r, p, false)?;
                    self.points.push(p);
                }
                if item == items {
                    self.points.push(start);
                }
                self.ranges.push((from, self.points.len()));
                self.uses.push(1);
                ring.extend(self.points.get(from + 1..).unwrap_or_default());
            } else {
                let back = tag >> 2;
                let index = self
                    .ranges
                    .len()
                    .checked_sub(back + 1)
                    .ok_or(r.invalid("reference to an arc not yet defined"))?;
                let (Some(&(a, b)), Some(uses)) =
                    (self.ranges.get(index), self.uses.get_mut(index))
                else {
                    return Err(r.invalid("reference to an arc not yet defined"));
                };
                *uses += 1;
                if *uses > 2 {
                    return Err(r.invalid("arc used by more than two rings"));
                }
                let arc = self.points.get(a..b).unwrap_or_default();
                let reversed = tag & 2 != 0;
                let first = if reversed { arc.last() } else { arc.first() };
                if first != Some(&current) {
                    return Err(r.invalid("arcs of a ring do not join"));
                }
                if reversed {
                    ring.extend(arc.iter().rev().skip(1));
                } else {
                    ring.extend(arc.iter().skip(1));
                }
            }
        }
        if ring.pop() != Some(start) {
            return Err(r.invalid("ring does not close"));
        }
        if ring.len() < 3 {
            return Err(r.invalid("ring with fewer than three points"));
        }
        self.cursor = start;
        Ok(ring)
    }
}

/// Decodes an atlas blob (format in `crates/chart/geo/README.md`). Never
/// panics.
///
/// # Errors
///
/// A [`GeoError`] when the blob is truncated, has the wrong magic or
/// version, or is inconsistent in any way (points outside the grid, arcs
/// that do not join, rings of fewer than three points, too many points, bad
/// UTF-8, trailing bytes).
pub fn decode(bytes: &[u8]) -> Result<Map, GeoError> {
    let mut r = Reader {
        bytes,
        pos: 0,
        range: 0,
        code: 0,
    };
    if r.take(4).ok() != Some(MAGIC.as_slice()) {
        return Err(GeoError::BadMagic);
    }
    let version = r.u8()?;
    if version != VERSION {
        return Err(GeoError::UnsupportedVersion(version));
    }
    let _kind = r.u8()?;
    // Grid steps per 10 atlas units.
    let divisor = r.u16()?;
    if divisor == 0 {
        return Err(r.invalid("divisor is zero"));
    }
    let origin_x = r.u16()? as i16;
    let origin_y = r.u16()? as i16;
    let grid_w = r.u16()?;
    let grid_h = r.u16()?;
    let region_count = usize::from(r.u16()?);

    let text_len = usize::from(r.u16()?);
    let text_at = r.pos;
    let text = std::str::from_utf8(r.take(text_len)?).map_err(|_| GeoError::Invalid {
        offset: text_at,
        what: "names are not UTF-8",
    })?;
    let mut lines = text.split_terminator('\n');
    r.start_range()?;

    let scale = 10.0 / f32::from(divisor);
    let to_atlas = |(x, y): Point| {
        (
            (f32::from(origin_x) + x as f32) * scale,
            (f32::from(origin_y) + y as f32) * scale,
        )
    };
    let mut arcs = Arcs {
        models: vec![[1024; 32 + 32 * 32]; MODELS],
        points: Vec::new(),
        ranges: Vec::new(),
        uses: Vec::new(),
        grid: (i64::from(grid_w), i64::from(grid_h)),
        cursor: (0, 0),
        dx: 0,
        previous: (0, 0),
    };
    let mut regions = Vec::new();
    let mut id: u32 = 0;
    for _ in 0..region_count {
        let mut fields = lines
            .next()
            .ok_or(r.invalid("fewer name lines than regions"))?
            .split('\t')
            .map(str::to_string);
        let (Some(code2), Some(code3), Some(name)) = (fields.next(), fields.next(), fields.next())
        else {
            return Err(r.invalid("name line without codes and a name"));
        };
        let aliases = fields.collect();
        id += arcs.uint(&mut r, ID)?;
        let id = u16::try_from(id).map_err(|_| r.invalid("region id too large"))?;

        let polygon_count = arcs.count(&mut r)?;
        let mut polygons = Vec::new();
        let mut bbox = (
            f32::INFINITY,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
        );
        for _ in 0..polygon_count {
            let ring_count = arcs.count(&mut r)?;
            if ring_count == 0 {
                return Err(r.invalid("polygon without rings"));
            }
            let mut rings = Vec::new();
            for _ in 0..ring_count {
                let ring: Vec<(f32, f32)> = arcs.ring(&mut r)?.into_iter().map(to_atlas).collect();
                for &(x, y) in &ring {
                    bbox = (bbox.0.min(x), bbox.1.min(y), bbox.2.max(x), bbox.3.max(y));
                }
                rings.push(ring);
            }
            polygons.push(rings);
        }
        if polygons.is_empty() {
            bbox = (0.0, 0.0, 0.0, 0.0);
        }
        regions.push(Region {
            id,
            code2,
            code3,
            name,
            aliases,
            polygons,
            bbox,
        });
    }
    if lines.next().is_some() {
        return Err(GeoError::Invalid {
            offset: text_at,
            what: "more name lines than regions",
        });
    }
    if r.pos != bytes.len() {
        return Err(GeoError::TrailingBytes { offset: r.pos });
    }
    Ok(Map::new(
        to_atlas((0, 0)),
        (f32::from(grid_w) * scale, f32::from(grid_h) * scale),
        regions,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::{US_STATES_BIN, WORLD_BIN};

    /// The converter's range encoder (scripts/geo/convert.mjs), to write
    /// blobs for the tests.
    struct Encoder {
        low: u64,
        range: u32,
        cache: u8,
        pending: u32,
        out: Vec<u8>,
        models: Vec<Model>,
        dx: i64,
        previous: Point,
        cursor: Point,
    }

    /// An item of a ring: a new arc through these points (the last item's
    /// closing point, the ring's start, is implied), or an earlier arc.
    enum Item {
        New(Vec<Point>),
        Old {
            back: u32,
            reversed: bool,
            end: Point,
        },
    }

    impl Encoder {
        fn new() -> Self {
            Self {
                low: 0,
                range: u32::MAX,
                cache: 0,
                pending: 1,
                out: Vec::new(),
                models: vec![[1024; 32 + 32 * 32]; MODELS],
                dx: 0,
                previous: (0, 0),
                cursor: (0, 0),
            }
        }

        fn shift_low(&mut self) {
            if self.low < 0xff00_0000 || self.low >= 1 << 32 {
                let carry = (self.low >> 32) as u8;
                let mut byte = self.cache;
                while self.pending > 0 {
                    self.out.push(byte.wrapping_add(carry));
                    byte = 0xff;
                    self.pending -= 1;
                }
                self.cache = (self.low >> 24) as u8;
            }
            self.pending += 1;
            self.low = (self.low & 0x00ff_ffff) << 8;
        }

        fn bit(&mut self, model: usize, i: usize, bit: u32) {
            let p = self.models[model][i];
            let bound = (self.range >> 11) * u32::from(p);
            if bit == 1 {
                self.low += u64::from(bound);
                self.range -= bound;
                self.models[model][i] = p - (p >> 5);
            } else {
                self.range = bound;
                self.models[model][i] = p + ((2048 - p) >> 5);
            }
            while self.range < 1 << 24 {
                self.range <<= 8;
                self.shift_low();
            }
        }

        fn uint(&mut self, model: usize, v: u32) {
            let x = u64::from(v) + 1;
            let n = 63 - x.leading_zeros() as usize;
            for i in 0..n {
                self.bit(model, i, 1);
            }
            self.bit(model, n, 0);
            for k in (0..n).rev() {
                self.bit(model, 32 + 32 * n + k, ((x >> k) & 1) as u32);
            }
        }

        fn delta(&mut self, y: bool, v: i64, start: bool) {
            let model = if start {
                if y {
                    START_Y
                } else {
                    START_X
                }
            } else if y {
                DY + (63 - (self.dx.unsigned_abs() + 1).leading_zeros() as usize).min(6)
            } else {
                DX
            };
            self.uint(model, v.unsigned_abs() as u32);
            let previous = if y { self.previous.1 } else { self.previous.0 };
            let sign = if y { SIGN_Y } else { SIGN_X } + (previous.signum() + 1) as usize;
            if v != 0 {
                self.bit(sign, 0, u32::from(v < 0));
            }
            if y {
                self.previous.1 = v;
            } else {
                self.previous.0 = v;
                self.dx = v;
            }
        }

        fn point(&mut self, from: Point, to: Point, start: bool) {
            self.delta(false, to.0 - from.0, start);
            self.delta(true, to.1 - from.1, start);
        }

        /// A region of one polygon of one ring.
        fn region(&mut self, id_delta: u32, start: Point, items: &[Item]) {
            self.uint(ID, id_delta);
            self.uint(COUNT, 1);
            self.uint(COUNT, 1);
            self.uint(COUNT, items.len() as u32);
            self.point(self.cursor, start, true);
            self.cursor = start;
            let mut current = start;
            for item in items {
                match item {
                    Item::New(points) => {
                        self.uint(TAG, 2 * points.len() as u32);
                        for &p in points {
                            self.point(current, p, false);
                            current = p;
                        }
                    }
                    Item::Old {
                        back,
                        reversed,
                        end,
                    } => {
                        self.uint(TAG, back << 2 | u32::from(*reversed) << 1 | 1);
                        current = *end;
                    }
                }
            }
        }

        fn finish(mut self) -> Vec<u8> {
            for _ in 0..5 {
                self.shift_low();
            }
            self.out
        }
    }

    /// A version-3 blob on a 10x10 grid of 1 unit (divisor 10), with `text` as the name
    /// table and `geometry` as the range-coded region stream.
    fn blob(regions: u8, text: &str, geometry: Encoder) -> Vec<u8> {
        let mut b = b"ZGEO\x03\x00\x0a\x00\x00\x00\x00\x00\x0a\x00\x0a\x00".to_vec();
        b.extend([regions, 0, text.len() as u8, 0]);
        b.extend(text.as_bytes());
        b.extend(geometry.finish());
        b
    }

    const TWO_NAMES: &str = "A\tAA\tAlpha\nB\tBB\tBeta\tB-land\n";

    /// Square A (0,0)-(2,2), stored as the shared edge (2,0)->(2,2) (arc 0)
    /// and the rest of its outline (arc 1); square B (2,0)-(4,2) reuses
    /// arc 0 as given by `edge` and adds arc 2.
    fn two_squares(edge: Item, b_rest: Vec<Point>) -> Encoder {
        let mut e = Encoder::new();
        let a = [Item::New(vec![(2, 2)]), Item::New(vec![(0, 2), (0, 0)])];
        e.region(1, (2, 0), &a);
        e.region(1, (2, 2), &[edge, Item::New(b_rest)]);
        e
    }

    fn shared_backwards() -> Item {
        Item::Old {
            back: 1,
            reversed: true,
            end: (2, 0),
        }
    }

    fn ring(map: &Map, region: usize) -> Vec<(f32, f32)> {
        map.regions
            .get(region)
            .and_then(|r| r.polygons.first())
            .and_then(|p| p.first())
            .cloned()
            .unwrap_or_default()
    }

    #[test]
    fn embedded_atlases_decode() {
        for blob in [WORLD_BIN, US_STATES_BIN] {
            assert!(decode(blob).is_ok(), "{:?}", decode(blob).err());
        }
    }

    #[test]
    fn rings_are_rebuilt_from_shared_arcs() {
        let bytes = blob(
            2,
            TWO_NAMES,
            two_squares(shared_backwards(), vec![(4, 0), (4, 2)]),
        );
        let map = decode(&bytes);
        assert!(map.is_ok(), "{map:?}");
        let map = map.unwrap_or_default();
        assert_eq!(
            ring(&map, 0),
            [(2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (0.0, 0.0)]
        );
        // The shared edge, reversed: from (2,2) back to (2,0).
        assert_eq!(
            ring(&map, 1),
            [(2.0, 2.0), (2.0, 0.0), (4.0, 0.0), (4.0, 2.0)]
        );
        let ids: Vec<u16> = map.regions.iter().map(|r| r.id).collect();
        assert_eq!(ids, [1, 2]);
        let b = map.regions.get(1);
        assert_eq!(
            b.map(|r| (r.code2.as_str(), r.code3.as_str(), r.name.as_str())),
            Some(("B", "BB", "Beta"))
        );
        assert_eq!(
            b.map(|r| r.aliases.clone()),
            Some(vec!["B-land".to_string()])
        );
        assert_eq!(b.map(|r| r.bbox), Some((2.0, 0.0, 4.0, 2.0)));
        assert_eq!(map.lookup("b-land").map(|r| r.id), Some(2));
        assert_eq!(map.lookup("AA").map(|r| r.id), Some(1));
    }

    fn invalid(bytes: &[u8]) -> Option<&'static str> {
        match decode(bytes) {
            Err(GeoError::Invalid { what, .. }) => Some(what),
            _ => None,
        }
    }

    #[test]
    fn an_arc_used_forwards_must_start_where_the_ring_is() {
        // The edge forwards runs (2,0)->(2,2): it does not start at (2,2).
        let forwards = Item::Old {
            back: 1,
            reversed: false,
            end: (2, 2),
        };
        let bytes = blob(2, TWO_NAMES, two_squares(forwards, vec![(4, 0), (4, 2)]));
        assert_eq!(invalid(&bytes), Some("arcs of a ring do not join"));
    }

    #[test]
    fn arc_references_are_checked() {
        let too_far = Item::Old {
            back: 2,
            reversed: true,
            end: (2, 0),
        };
        let bytes = blob(2, TWO_NAMES, two_squares(too_far, vec![(4, 0), (4, 2)]));
        assert_eq!(invalid(&bytes), Some("reference to an arc not yet defined"));
        // A third ring on the same edge: a third use of an arc is corrupt.
        let names = "A\tAA\tAlpha\nB\tBB\tBeta\nC\tCC\tGamma\n";
        let mut e = two_squares(shared_backwards(), vec![(4, 0), (4, 2)]);
        let again = Item::Old {
            back: 2,
            reversed: true,
            end: (2, 0),
        };
        e.region(1, (2, 2), &[again, Item::New(vec![(4, 0), (4, 2)])]);
        assert_eq!(
            invalid(&blob(3, names, e)),
            Some("arc used by more than two rings")
        );
    }

    #[test]
    fn rings_must_close_and_have_three_points() {
        // B as the reversed edge only: it ends at (2,0), not at its start.
        let mut e = Encoder::new();
        e.region(
            1,
            (2, 0),
            &[Item::New(vec![(2, 2)]), Item::New(vec![(0, 2), (0, 0)])],
        );
        e.region(1, (2, 2), &[shared_backwards()]);
        assert_eq!(invalid(&blob(2, TWO_NAMES, e)), Some("ring does not close"));
        // A ring of two points: start, then back along an arc of one point.
        let mut e = Encoder::new();
        e.region(1, (0, 0), &[Item::New(vec![(1, 0)])]);
        assert_eq!(
            invalid(&blob(1, "A\tAA\tAlpha\n", e)),
            Some("ring with fewer than three points")
        );
    }

    #[test]
    fn points_stay_in_the_grid() {
        let bytes = blob(
            2,
            TWO_NAMES,
            two_squares(shared_backwards(), vec![(24, 0), (4, 2)]),
        );
        assert_eq!(invalid(&bytes), Some("point outside the grid"));
    }

    #[test]
    fn points_are_bounded() {
        // An arc that claims more points than an atlas may hold is refused
        // before any of them is read.
        let mut e = Encoder::new();
        e.uint(ID, 1);
        e.uint(COUNT, 1);
        e.uint(COUNT, 1);
        e.uint(COUNT, 1);
        e.point((0, 0), (0, 0), true);
        e.uint(TAG, 2 * MAX_POINTS as u32);
        assert_eq!(
            invalid(&blob(1, "A\tAA\tAlpha\n", e)),
            Some("too many points")
        );
        // A number of more than 31 bits.
        let mut e = Encoder::new();
        for i in 0..32 {
            e.bit(ID, i, 1);
        }
        assert_eq!(
            invalid(&blob(1, "A\tAA\tAlpha\n", e)),
            Some("number too large")
        );
    }

    fn square(id_delta: u32) -> Encoder {
        let mut e = Encoder::new();
        e.region(id_delta, (0, 0), &[Item::New(vec![(1, 0), (1, 1), (0, 1)])]);
        e
    }

    #[test]
    fn names_are_checked() {
        assert!(decode(&blob(1, "A\tAA\tAlpha\n", square(1))).is_ok());
        assert_eq!(
            invalid(&blob(2, "A\tAA\tAlpha\n", square(1))),
            Some("fewer name lines than regions")
        );
        assert_eq!(
            invalid(&blob(1, TWO_NAMES, square(1))),
            Some("more name lines than regions")
        );
        assert_eq!(
            invalid(&blob(1, "A\tAA\n", square(1))),
            Some("name line without codes and a name")
        );
        let mut bad_utf8 = blob(1, "A\tAA\tAlpha\n", square(1));
        if let Some(b) = bad_utf8.get_mut(21) {
            *b = 0xff;
        }
        assert_eq!(invalid(&bad_utf8), Some("names are not UTF-8"));
        assert_eq!(
            invalid(&blob(1, "A\tAA\tAlpha\n", square(70_000))),
            Some("region id too large")
        );
    }

    #[test]
    fn truncated_blobs_are_errors() {
        for blob in [WORLD_BIN, US_STATES_BIN] {
            let lengths = (0..blob.len().min(600)).chain((600..blob.len()).step_by(101));
            for len in lengths {
                let prefix = blob.get(..len).unwrap_or_default();
                assert!(decode(prefix).is_err(), "prefix of {len} bytes");
            }
            let mut longer = blob.to_vec();
            longer.push(0);
            assert!(matches!(
                decode(&longer),
                Err(GeoError::TrailingBytes { .. })
            ));
        }
    }

    #[test]
    fn corrupt_blobs_do_not_panic() {
        // Deterministic pseudo-random byte flips; any result but a panic.
        let mut state: u32 = 0x2545_f491;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        for blob in [WORLD_BIN, US_STATES_BIN] {
            for _ in 0..200 {
                let mut bytes = blob.to_vec();
                for _ in 0..4 {
                    let i = next() as usize % bytes.len().max(1);
                    if let Some(b) = bytes.get_mut(i) {
                        *b ^= (next() & 0xff) as u8 | 1;
                    }
                }
                let _ = decode(&bytes);
            }
        }
        assert_eq!(decode(b""), Err(GeoError::BadMagic));
        assert_eq!(decode(b"ZGEO\x02"), Err(GeoError::UnsupportedVersion(2)));
        // The name table's length is checked against the bytes left.
        let huge_text = b"ZGEO\x03\x00\x01\x00\x00\x00\x00\x00\x10\x00\x10\x00\x01\x00\xff\xff";
        assert!(matches!(decode(huge_text), Err(GeoError::Truncated { .. })));
        // The range coder starts with a zero byte.
        let mut bad_start = blob(1, "A\tAA\tAlpha\n", square(1));
        if let Some(b) = bad_start.get_mut(31) {
            *b = 1;
        }
        assert_eq!(
            invalid(&bad_start),
            Some("range coder does not start with 0")
        );
    }
}
