//! The atlas byte format (version 2, `crates/chart/geo/README.md`): a name
//! table, then per region its rings as lists of shared arcs. Every read and
//! every invariant is checked, so a corrupt blob is an error, never a panic,
//! and what it decodes to is bounded by its length (an arc serves at most
//! two rings).

use super::{Map, Region};

const MAGIC: &[u8; 4] = b"ZGEO";
pub(super) const VERSION: u8 = 2;

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
    /// three points, point outside the grid, arcs that do not join, overlong
    /// varint, bad UTF-8, ...).
    #[error("invalid atlas data at byte {offset}: {what}")]
    Invalid { offset: usize, what: &'static str },
    /// Bytes follow the last region.
    #[error("unexpected bytes after the atlas at byte {offset}")]
    TrailingBytes { offset: usize },
}

/// Checked little-endian reader.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

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
        let b = self.take(2)?;
        Ok(u16::from(b.first().copied().unwrap_or(0))
            | u16::from(b.get(1).copied().unwrap_or(0)) << 8)
    }

    fn invalid(&self, what: &'static str) -> GeoError {
        GeoError::Invalid {
            offset: self.pos,
            what,
        }
    }

    /// Unsigned LEB128, at most 5 bytes, must fit in u32.
    fn varint(&mut self) -> Result<u32, GeoError> {
        let mut value: u32 = 0;
        for shift in [0u32, 7, 14, 21, 28] {
            let byte = self.u8()?;
            let bits = u32::from(byte & 0x7f);
            if shift == 28 && bits > 0x0f {
                return Err(self.invalid("varint overflows 32 bits"));
            }
            value |= bits << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.invalid("varint longer than 5 bytes"))
    }

    fn zigzag(&mut self) -> Result<i64, GeoError> {
        let v = i64::from(self.varint()?);
        Ok((v >> 1) ^ -(v & 1))
    }

    /// A count, bounded by the bytes left (every item takes at least one).
    fn count(&mut self) -> Result<usize, GeoError> {
        let n = self.varint()? as usize;
        if n > self.bytes.len().saturating_sub(self.pos) {
            return Err(GeoError::Truncated { offset: self.pos });
        }
        Ok(n)
    }
}

type Point = (i64, i64);

/// The geometry stream's state: every arc decoded so far (as a range of
/// `points`), how many rings use it, and the grid every point must lie in.
struct Arcs {
    points: Vec<Point>,
    ranges: Vec<(usize, usize)>,
    uses: Vec<u8>,
    grid: Point,
    cursor: Point,
}

impl Arcs {
    fn delta(&self, r: &mut Reader<'_>, from: Point) -> Result<Point, GeoError> {
        let p = (from.0 + r.zigzag()?, from.1 + r.zigzag()?);
        if !(0..=self.grid.0).contains(&p.0) || !(0..=self.grid.1).contains(&p.1) {
            return Err(r.invalid("point outside the grid"));
        }
        Ok(p)
    }

    /// One ring: its start, then items that are either a new arc (its points
    /// after the current one; the ring's last arc ends at the start, which is
    /// not stored again) or an earlier arc, forwards or backwards.
    fn ring(&mut self, r: &mut Reader<'_>) -> Result<Vec<Point>, GeoError> {
        let items = r.count()?;
        if items == 0 {
            return Err(r.invalid("ring without arcs"));
        }
        let start = self.delta(r, self.cursor)?;
        let mut ring = vec![start];
        for item in 1..=items {
            let tag = r.varint()?;
            let current = ring.last().copied().unwrap_or(start);
            let from = self.points.len();
            if tag & 1 == 0 {
                let n = (tag >> 1) as usize;
                if n > r.bytes.len().saturating_sub(r.pos) {
                    return Err(GeoError::Truncated { offset: r.pos });
                }
                if n == 0 && item < items {
                    return Err(r.invalid("empty arc"));
                }
                self.points.push(current);
                let mut p = current;
                for _ in 0..n {
                    p = self.delta(r, p)?;
                    self.points.push(p);
                }
                if item == items {
                    self.points.push(start);
                }
                self.ranges.push((from, self.points.len()));
                self.uses.push(1);
                ring.extend(self.points.get(from + 1..).unwrap_or_default());
            } else {
                let back = (tag >> 2) as usize;
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
                let mut points: Vec<Point> = arc.to_vec();
                if tag & 2 != 0 {
                    points.reverse();
                }
                if points.first() != Some(&current) {
                    return Err(r.invalid("arcs of a ring do not join"));
                }
                ring.extend(points.get(1..).unwrap_or_default());
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
/// that do not join, rings of fewer than three points, overlong varints, bad
/// UTF-8, trailing bytes).
pub fn decode(bytes: &[u8]) -> Result<Map, GeoError> {
    let mut r = Reader { bytes, pos: 0 };
    if r.take(4).ok() != Some(MAGIC.as_slice()) {
        return Err(GeoError::BadMagic);
    }
    let version = r.u8()?;
    if version != VERSION {
        return Err(GeoError::UnsupportedVersion(version));
    }
    let _kind = r.u8()?;
    let divisor = r.u16()?;
    if divisor == 0 {
        return Err(r.invalid("divisor is zero"));
    }
    let origin_x = r.u16()? as i16;
    let origin_y = r.u16()? as i16;
    let grid_w = r.u16()?;
    let grid_h = r.u16()?;
    let region_count = usize::from(r.u16()?);

    let text_len = r.count()?;
    let text_at = r.pos;
    let text = std::str::from_utf8(r.take(text_len)?).map_err(|_| GeoError::Invalid {
        offset: text_at,
        what: "names are not UTF-8",
    })?;
    let mut lines = text.split_terminator('\n');

    let scale = 1.0 / f32::from(divisor);
    let to_atlas = |(x, y): Point| {
        (
            (f32::from(origin_x) + x as f32) * scale,
            (f32::from(origin_y) + y as f32) * scale,
        )
    };
    let mut arcs = Arcs {
        points: Vec::new(),
        ranges: Vec::new(),
        uses: Vec::new(),
        grid: (i64::from(grid_w), i64::from(grid_h)),
        cursor: (0, 0),
    };
    let mut regions = Vec::with_capacity(region_count.min(bytes.len()));
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
        id += r.varint()?;
        let id = u16::try_from(id).map_err(|_| r.invalid("region id too large"))?;

        let polygon_count = r.count()?;
        let mut polygons = Vec::with_capacity(polygon_count);
        let mut bbox = (
            f32::INFINITY,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
        );
        for _ in 0..polygon_count {
            let ring_count = r.count()?;
            if ring_count == 0 {
                return Err(r.invalid("polygon without rings"));
            }
            let mut rings = Vec::with_capacity(ring_count);
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

    /// A version-2 blob on a 10x10 grid, divisor 1, with `text` as the name
    /// table and `geometry` as the region stream.
    fn blob(regions: u8, text: &str, geometry: &[u8]) -> Vec<u8> {
        let mut b = b"ZGEO\x02\x00\x01\x00\x00\x00\x00\x00\x0a\x00\x0a\x00".to_vec();
        b.extend([regions, 0, text.len() as u8]);
        b.extend(text.as_bytes());
        b.extend(geometry);
        b
    }

    const TWO_NAMES: &str = "A\tAA\tAlpha\nB\tBB\tBeta\tB-land\n";
    /// Square A (0,0)-(2,2), stored as the shared edge (2,0)->(2,2) (arc 0)
    /// and the rest of its outline (arc 1); square B (2,0)-(4,2) reuses
    /// arc 0 backwards (tag 7: one arc back, reversed) and adds arc 2.
    const A: [u8; 14] = [1, 1, 1, 2, 4, 0, 2, 0, 4, 4, 3, 0, 0, 3];
    const B: [u8; 12] = [1, 1, 1, 2, 0, 4, 7, 4, 4, 0, 0, 4];

    fn two_squares(b: &[u8]) -> Vec<u8> {
        blob(2, TWO_NAMES, &[A.as_slice(), b].concat())
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
        let map = decode(&two_squares(&B));
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
        // B reusing the edge forwards: (2,0)->(2,2) does not start at (2,2).
        let mut b = B;
        b[6] = 5;
        assert_eq!(
            invalid(&two_squares(&b)),
            Some("arcs of a ring do not join")
        );
    }

    #[test]
    fn arc_references_are_checked() {
        let mut b = B;
        b[6] = 11; // three arcs back: there are only two before it
        assert_eq!(
            invalid(&two_squares(&b)),
            Some("reference to an arc not yet defined")
        );
        // A third ring on the same edge: a third use of an arc is corrupt.
        let names = "A\tAA\tAlpha\nB\tBB\tBeta\nC\tCC\tGamma\n";
        let third = [1, 1, 1, 2, 0, 0, 11, 4, 4, 0, 0, 4];
        let bytes = blob(3, names, &[A.as_slice(), &B, &third].concat());
        assert_eq!(invalid(&bytes), Some("arc used by more than two rings"));
    }

    #[test]
    fn rings_must_close_and_have_three_points() {
        // B as the reversed edge only: it ends at (2,0), not at its start.
        let open = [1, 1, 1, 1, 0, 4, 7];
        assert_eq!(invalid(&two_squares(&open)), Some("ring does not close"));
        // A ring of two points: start, then back along an arc of one point.
        let thin = [1, 1, 1, 1, 0, 0, 2, 2, 0];
        assert_eq!(
            invalid(&blob(1, "A\tAA\tAlpha\n", &thin)),
            Some("ring with fewer than three points")
        );
    }

    #[test]
    fn points_stay_in_the_grid() {
        let mut b = B;
        b[8] = 40; // dx = +20 leaves the 10x10 grid
        assert_eq!(invalid(&two_squares(&b)), Some("point outside the grid"));
    }

    #[test]
    fn names_are_checked() {
        let one_line = "A\tAA\tAlpha\n";
        assert_eq!(
            invalid(&blob(2, one_line, &[A.as_slice(), &B].concat())),
            Some("fewer name lines than regions")
        );
        assert_eq!(
            invalid(&blob(1, TWO_NAMES, &A)),
            Some("more name lines than regions")
        );
        assert_eq!(
            invalid(&blob(1, "A\tAA\n", &A)),
            Some("name line without codes and a name")
        );
        let mut bad_utf8 = blob(1, "A\tAA\tAlpha\n", &A);
        if let Some(b) = bad_utf8.get_mut(20) {
            *b = 0xff;
        }
        assert_eq!(invalid(&bad_utf8), Some("names are not UTF-8"));
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
        assert_eq!(decode(b"ZGEO\x01"), Err(GeoError::UnsupportedVersion(1)));
        // Counts larger than the bytes left are refused before allocating.
        let huge_text =
            b"ZGEO\x02\x00\x01\x00\x00\x00\x00\x00\x10\x00\x10\x00\x01\x00\xff\xff\xff\xff\x0f";
        assert!(matches!(decode(huge_text), Err(GeoError::Truncated { .. })));
        let huge_arc = blob(
            1,
            "A\tAA\tAlpha\n",
            &[1, 1, 1, 1, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0x0f],
        );
        assert!(matches!(decode(&huge_arc), Err(GeoError::Truncated { .. })));
    }
}
