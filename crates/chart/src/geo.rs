//! Country and US-state boundaries for choropleth maps.
//!
//! Two atlases are embedded (see `crates/chart/geo/README.md` for the byte
//! format and `scripts/geo/convert.mjs` for how they are made):
//!
//! - [`Atlas::World`]: the countries of Natural Earth 1:110m (world-atlas
//!   2.0.2) in the Equal Earth projection, 1000 atlas units wide.
//! - [`Atlas::UsStates`]: the 50 states and DC of the US Census Bureau
//!   cartographic boundaries (us-atlas 3.0.1), Albers USA in the 975x610
//!   viewport (Alaska and Hawaii as insets).
//!
//! Coordinates are atlas units with y growing downwards; fill rings with the
//! even-odd rule (the first ring of a polygon is its exterior, the others are
//! holes). Each atlas is decoded once, on first use; a corrupt blob gives an
//! empty map, never a panic.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

static WORLD_BIN: &[u8] = include_bytes!("../geo/world.bin");
static US_STATES_BIN: &[u8] = include_bytes!("../geo/us-states.bin");

const MAGIC: &[u8; 4] = b"ZGEO";
const VERSION: u8 = 1;

/// Which embedded atlas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Atlas {
    /// World countries; codes are ISO 3166-1 alpha-2, alpha-3 or numeric.
    World,
    /// US states and DC; codes are USPS postal codes or 2-digit FIPS codes.
    UsStates,
}

/// One country or state.
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    /// World: ISO 3166-1 numeric code (900 = Kosovo, user-assigned).
    /// US: the state FIPS code (6 = California).
    pub id: u16,
    /// World: ISO 3166-1 alpha-2 ("DE"). US: USPS postal code ("CA").
    pub code2: String,
    /// World: ISO 3166-1 alpha-3 ("DEU"). US: 2-digit FIPS code ("06").
    pub code3: String,
    /// English display name.
    pub name: String,
    /// Other names accepted by [`lookup`] ("Czech Republic", "UK", ...).
    pub aliases: Vec<String>,
    /// Polygons -> rings -> points, in atlas units. Rings are open (the
    /// closing point is not repeated) and have at least three points.
    pub polygons: Vec<Vec<Vec<(f32, f32)>>>,
    /// (min x, min y, max x, max y) of all points.
    pub bbox: (f32, f32, f32, f32),
}

/// A decoded atlas: the frame `x0..x0 + width` x `y0..y0 + height` holds every
/// point of every region.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Map {
    /// Left edge of the frame in atlas units (negative for the US atlas,
    /// whose westernmost Aleutians lie left of the 975x610 viewport).
    pub x0: f32,
    /// Top edge of the frame in atlas units.
    pub y0: f32,
    pub width: f32,
    pub height: f32,
    /// Regions in ascending id order.
    pub regions: Vec<Region>,
    index: HashMap<String, usize>,
}

impl Map {
    /// A map without regions (what a corrupt atlas decodes to).
    #[must_use]
    pub fn empty() -> Self {
        Self::default()
    }

    /// Finds a region by code, numeric id or name; see [`lookup`].
    #[must_use]
    pub fn lookup(&self, code: &str) -> Option<&Region> {
        let code = code.trim();
        if code.is_empty() {
            return None;
        }
        let key = if is_numeric(code) {
            numeric_key(code)?
        } else {
            let folded = fold(code);
            let code_key = format!("c:{folded}");
            if let Some(region) = self.index.get(&code_key).and_then(|&i| self.regions.get(i)) {
                return Some(region);
            }
            format!("n:{folded}")
        };
        self.index.get(&key).and_then(|&i| self.regions.get(i))
    }

    /// Union of the regions' bounding boxes: (min x, min y, max x, max y),
    /// or `None` for an empty map.
    #[must_use]
    pub fn bbox(&self) -> Option<(f32, f32, f32, f32)> {
        self.regions
            .iter()
            .filter(|r| !r.polygons.is_empty())
            .map(|r| r.bbox)
            .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)))
    }

    fn build_index(&mut self) {
        let mut index = HashMap::new();
        for (i, region) in self.regions.iter().enumerate() {
            index.entry(format!("#{}", region.id)).or_insert(i);
            for code in [&region.code2, &region.code3] {
                if code.is_empty() {
                    continue;
                }
                if is_numeric(code) {
                    if let Some(key) = numeric_key(code) {
                        index.entry(key).or_insert(i);
                    }
                } else {
                    index.entry(format!("c:{}", fold(code))).or_insert(i);
                }
            }
            for name in std::iter::once(&region.name).chain(&region.aliases) {
                if !name.is_empty() {
                    index.entry(format!("n:{}", fold(name))).or_insert(i);
                }
            }
        }
        self.index = index;
    }
}

/// The decoded atlas (decoded on first use; empty if the blob is corrupt).
#[must_use]
pub fn atlas(which: Atlas) -> &'static Map {
    static WORLD: OnceLock<Map> = OnceLock::new();
    static US_STATES: OnceLock<Map> = OnceLock::new();
    let (cell, bytes) = match which {
        Atlas::World => (&WORLD, WORLD_BIN),
        Atlas::UsStates => (&US_STATES, US_STATES_BIN),
    };
    cell.get_or_init(|| decode(bytes).unwrap_or_default())
}

/// Finds a region, case-insensitively, by ISO alpha-2 ("DE"), alpha-3
/// ("DEU"), numeric id ("276"), US postal code ("CA"), FIPS code ("06") or
/// English name or alias ("Germany", "Czech Republic"). Surrounding white
/// space is ignored; names also match without accents ("Cote d'Ivoire").
#[must_use]
pub fn lookup(which: Atlas, code: &str) -> Option<&'static Region> {
    atlas(which).lookup(code)
}

/// Picks the atlas for a set of region codes: [`Atlas::UsStates`] when more
/// codes name a US state than a country (or, on a tie, when every code that
/// matches is a 1- or 2-digit number, i.e. a FIPS code), else
/// [`Atlas::World`]. Codes that are valid in both ("CA", "DE", "IN") count
/// for both, so an all-ambiguous list stays on the world map.
#[must_use]
pub fn guess_atlas<I, S>(codes: I) -> Atlas
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let (mut us, mut world, mut fips_like) = (0usize, 0usize, true);
    for code in codes {
        let code = code.as_ref().trim();
        let in_us = lookup(Atlas::UsStates, code).is_some();
        let in_world = lookup(Atlas::World, code).is_some();
        us += usize::from(in_us);
        world += usize::from(in_world);
        if in_us || in_world {
            fips_like &= code.len() <= 2 && is_numeric(code);
        }
    }
    if us > world || (us > 0 && us == world && fips_like) {
        Atlas::UsStates
    } else {
        Atlas::World
    }
}

fn is_numeric(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// "276", "0276" -> "#276"; `None` when not a u16.
fn numeric_key(s: &str) -> Option<String> {
    let digits = s.trim_start_matches('0');
    if digits.len() > 5 {
        return None;
    }
    let n: u16 = if digits.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    Some(format!("#{n}"))
}

/// Lower case, common Latin accents removed, typographic apostrophes
/// straightened, runs of white space collapsed to one space.
fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.trim().chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        if c == '\u{130}' {
            // İ lower-cases to i and a combining dot above, as `to_lowercase` has it.
            out.push_str("i\u{307}");
            continue;
        }
        out.push(strip_accent(lower(c)));
    }
    out
}

/// `char::to_lowercase` for the Latin letters that atlas names are written
/// in (ASCII, Latin-1, Latin Extended-A, Ș and Ț) and the three letters
/// elsewhere that lower-case into them; other characters are kept. A name
/// with any other letter matches no atlas name either way, and core's full
/// case tables (about 10 KB of the WebAssembly engine) stay out.
fn lower(c: char) -> char {
    let code = u32::from(c);
    let to = match code {
        0x41..=0x5A | 0xC0..=0xD6 | 0xD8..=0xDE => code + 0x20,
        0x100..=0x12F | 0x132..=0x137 | 0x14A..=0x177 | 0x218..=0x21B if code % 2 == 0 => code + 1,
        0x139..=0x148 | 0x179..=0x17E if code % 2 == 1 => code + 1,
        0x178 => 0xFF,
        0x212A => 0x6B,
        0x212B => 0xE5,
        0x1E9E => 0xDF,
        _ => code,
    };
    char::from_u32(to).unwrap_or(c)
}

fn strip_accent(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'č' => 'c',
        'ď' => 'd',
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'ı' => 'i',
        'ñ' | 'ń' | 'ň' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => 'o',
        'ř' => 'r',
        'ś' | 'š' | 'ş' | 'ș' => 's',
        'ť' | 'ţ' | 'ț' => 't',
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' => 'u',
        'ý' | 'ÿ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        '\u{2018}' | '\u{2019}' | '`' | '´' => '\'',
        _ => c,
    }
}

/// Why an atlas blob could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GeoError {
    /// The data ends early: a field starting at `offset` is cut off.
    Truncated { offset: usize },
    /// The blob does not start with "ZGEO".
    BadMagic,
    /// A format version this decoder does not know.
    UnsupportedVersion(u8),
    /// A field has an impossible value (zero divisor, ring with fewer than
    /// three points, point outside the grid, overlong varint, bad UTF-8, ...).
    Invalid { offset: usize, what: &'static str },
    /// Bytes follow the last region.
    TrailingBytes { offset: usize },
}

impl fmt::Display for GeoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated { offset } => write!(f, "atlas data truncated at byte {offset}"),
            Self::BadMagic => f.write_str("not an atlas (missing \"ZGEO\" magic)"),
            Self::UnsupportedVersion(v) => write!(f, "unsupported atlas format version {v}"),
            Self::Invalid { offset, what } => {
                write!(f, "invalid atlas data at byte {offset}: {what}")
            }
            Self::TrailingBytes { offset } => {
                write!(f, "unexpected bytes after the atlas at byte {offset}")
            }
        }
    }
}

impl std::error::Error for GeoError {}

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

    fn array<const N: usize>(&mut self) -> Result<[u8; N], GeoError> {
        let offset = self.pos;
        self.take(N)?
            .try_into()
            .map_err(|_| GeoError::Truncated { offset })
    }

    fn u8(&mut self) -> Result<u8, GeoError> {
        Ok(u8::from_le_bytes(self.array()?))
    }

    fn u16(&mut self) -> Result<u16, GeoError> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    fn i16(&mut self) -> Result<i16, GeoError> {
        Ok(i16::from_le_bytes(self.array()?))
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
        let n = usize::try_from(self.varint()?).map_err(|_| self.invalid("count too large"))?;
        if n > self.bytes.len().saturating_sub(self.pos) {
            return Err(GeoError::Truncated { offset: self.pos });
        }
        Ok(n)
    }

    /// u8 length + UTF-8 bytes.
    fn string(&mut self) -> Result<String, GeoError> {
        let len = usize::from(self.u8()?);
        let offset = self.pos;
        let bytes = self.take(len)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| GeoError::Invalid {
            offset,
            what: "string is not UTF-8",
        })
    }
}

/// Decodes an atlas blob (format in `crates/chart/geo/README.md`). Never
/// panics.
///
/// # Errors
///
/// A [`GeoError`] when the blob is truncated, has the wrong magic or
/// version, or is inconsistent in any way (points outside the grid, rings of
/// fewer than three points, overlong varints, bad UTF-8, trailing bytes).
pub fn decode(bytes: &[u8]) -> Result<Map, GeoError> {
    let mut r = Reader { bytes, pos: 0 };
    if &r.array::<4>().map_err(|_| GeoError::BadMagic)? != MAGIC {
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
    let origin_x = r.i16()?;
    let origin_y = r.i16()?;
    let grid_w = r.u16()?;
    let grid_h = r.u16()?;
    let region_count = usize::from(r.u16()?);

    let scale = 1.0 / f32::from(divisor);
    let to_atlas = |origin: i16, g: i64| (f32::from(origin) + g as f32) * scale;

    let mut regions = Vec::with_capacity(region_count.min(bytes.len()));
    for _ in 0..region_count {
        let id = r.u16()?;
        let code2 = r.string()?;
        let code3 = r.string()?;
        let name_count = r.u8()?;
        if name_count == 0 {
            return Err(r.invalid("region without a name"));
        }
        let name = r.string()?;
        let mut aliases = Vec::with_capacity(usize::from(name_count - 1));
        for _ in 1..name_count {
            aliases.push(r.string()?);
        }

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
                let point_count = r.count()?;
                if point_count < 3 {
                    return Err(r.invalid("ring with fewer than three points"));
                }
                let mut ring = Vec::with_capacity(point_count);
                let mut x = i64::from(r.u16()?);
                let mut y = i64::from(r.u16()?);
                for k in 0..point_count {
                    if k > 0 {
                        x += r.zigzag()?;
                        y += r.zigzag()?;
                    }
                    if !(0..=i64::from(grid_w)).contains(&x)
                        || !(0..=i64::from(grid_h)).contains(&y)
                    {
                        return Err(r.invalid("point outside the grid"));
                    }
                    let p = (to_atlas(origin_x, x), to_atlas(origin_y, y));
                    bbox = (
                        bbox.0.min(p.0),
                        bbox.1.min(p.1),
                        bbox.2.max(p.0),
                        bbox.3.max(p.1),
                    );
                    ring.push(p);
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
    if r.pos != bytes.len() {
        return Err(GeoError::TrailingBytes { offset: r.pos });
    }

    let mut map = Map {
        x0: f32::from(origin_x) * scale,
        y0: f32::from(origin_y) * scale,
        width: f32::from(grid_w) * scale,
        height: f32::from(grid_h) * scale,
        regions,
        index: HashMap::new(),
    };
    map.build_index();
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fold` as it was with core's full case tables.
    fn fold_by_core(s: &str) -> String {
        let mut out = String::new();
        let mut space = false;
        for c in s.trim().chars() {
            if c.is_whitespace() {
                space = true;
                continue;
            }
            if space {
                out.push(' ');
                space = false;
            }
            out.extend(c.to_lowercase().map(strip_accent));
        }
        out
    }

    #[test]
    fn lower_is_core_lowercase_for_latin_letters() {
        for code in (0..0x180)
            .chain(0x218..0x21C)
            .chain([0x212A, 0x212B, 0x1E9E])
        {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            assert_eq!(
                fold(&c.to_string()),
                fold_by_core(&c.to_string()),
                "U+{code:04X}"
            );
        }
    }

    #[test]
    fn every_atlas_name_and_code_folds_as_before() {
        for which in [Atlas::World, Atlas::UsStates] {
            for r in &atlas(which).regions {
                for text in [&r.name, &r.code2, &r.code3].into_iter().chain(&r.aliases) {
                    assert_eq!(fold(text), fold_by_core(text), "{text}");
                    assert_eq!(
                        fold(&text.to_uppercase()),
                        fold_by_core(&text.to_uppercase()),
                        "{text}"
                    );
                    // Folded names hold only letters `lower` knows, so a letter it
                    // leaves as it is could never have matched one.
                    assert!(
                        fold(text)
                            .chars()
                            .all(|c| u32::from(c) < 0x250 || c == '\u{307}'),
                        "{text}"
                    );
                }
            }
        }
    }

    fn name(which: Atlas, code: &str) -> Option<&'static str> {
        lookup(which, code).map(|r| r.name.as_str())
    }

    #[test]
    fn embedded_atlases_decode() {
        assert!(decode(WORLD_BIN).is_ok(), "{:?}", decode(WORLD_BIN).err());
        assert!(
            decode(US_STATES_BIN).is_ok(),
            "{:?}",
            decode(US_STATES_BIN).err()
        );
    }

    #[test]
    fn world_has_the_110m_countries() {
        let world = atlas(Atlas::World);
        // 177 Natural Earth features; N. Cyprus and Somaliland are merged
        // into Cyprus and Somalia.
        assert_eq!(world.regions.len(), 175);
        assert!((world.width - 1000.0).abs() < 0.01);
        assert!(world.height > 480.0 && world.height < 490.0);
        let mut ids: Vec<u16> = world.regions.iter().map(|r| r.id).collect();
        ids.dedup();
        assert_eq!(ids.len(), 175, "ids are unique and sorted");
    }

    #[test]
    fn germany_by_every_kind_of_code() {
        for code in [
            "DE",
            "de",
            "DEU",
            "deu",
            "276",
            "0276",
            "germany",
            "GERMANY",
            " Germany ",
        ] {
            let region = lookup(Atlas::World, code);
            assert_eq!(region.map(|r| r.id), Some(276), "{code}");
        }
        let de = lookup(Atlas::World, "DE");
        assert_eq!(
            de.map(|r| (r.code2.as_str(), r.code3.as_str())),
            Some(("DE", "DEU"))
        );
    }

    #[test]
    fn world_names_and_aliases() {
        assert_eq!(name(Atlas::World, "Czech Republic"), Some("Czechia"));
        assert_eq!(name(Atlas::World, "UK"), Some("United Kingdom"));
        assert_eq!(
            name(Atlas::World, "United States of America"),
            Some("United States")
        );
        assert_eq!(name(Atlas::World, "cote d’ivoire"), Some("Côte d'Ivoire"));
        assert_eq!(
            name(Atlas::World, "Dem. Rep. Congo"),
            Some("Democratic Republic of the Congo")
        );
        assert_eq!(name(Atlas::World, "XK"), Some("Kosovo"));
        assert_eq!(name(Atlas::World, "4"), Some("Afghanistan"));
        assert_eq!(name(Atlas::World, "ZZ"), None);
        assert_eq!(name(Atlas::World, ""), None);
        assert_eq!(name(Atlas::World, "999999"), None);
        assert_eq!(
            name(Atlas::World, "Somaliland"),
            None,
            "merged into Somalia"
        );
    }

    #[test]
    fn france_includes_french_guiana() {
        let france = lookup(Atlas::World, "FR");
        let polygons = france.map(|r| r.polygons.as_slice()).unwrap_or_default();
        assert!(polygons.len() > 1);
        // French Guiana lies far west of metropolitan France.
        let lefts: Vec<f32> = polygons
            .iter()
            .filter_map(|p| p.first())
            .map(|ring| ring.iter().fold(f32::INFINITY, |m, p| m.min(p.0)))
            .collect();
        assert!(lefts.iter().any(|&x| x < 400.0) && lefts.iter().any(|&x| x > 450.0));
    }

    #[test]
    fn us_states() {
        let us = atlas(Atlas::UsStates);
        assert_eq!(us.regions.len(), 51, "50 states and DC");
        for code in ["CA", "ca", "06", "6", "California", "california"] {
            assert_eq!(
                lookup(Atlas::UsStates, code).map(|r| r.id),
                Some(6),
                "{code}"
            );
        }
        let ca = lookup(Atlas::UsStates, "CA");
        assert_eq!(
            ca.map(|r| (r.code2.as_str(), r.code3.as_str())),
            Some(("CA", "06"))
        );
        assert_eq!(name(Atlas::UsStates, "dc"), Some("District of Columbia"));
        assert_eq!(name(Atlas::UsStates, "11"), Some("District of Columbia"));
        assert_eq!(name(Atlas::UsStates, "DEU"), None);
        assert!((us.x0 + us.width - 975.0).abs() < 0.01);
        assert!((us.y0 + us.height - 610.0).abs() < 0.01);
        assert!(us.x0 < 0.0, "the frame keeps the western Aleutians");
    }

    #[test]
    fn rings_and_bounds() {
        for which in [Atlas::World, Atlas::UsStates] {
            let map = atlas(which);
            let (x1, y1) = (map.x0 + map.width, map.y0 + map.height);
            for region in &map.regions {
                assert!(!region.polygons.is_empty(), "{}", region.name);
                assert!(
                    !region.code2.is_empty() && !region.code3.is_empty(),
                    "{}",
                    region.name
                );
                let (bx0, by0, bx1, by1) = region.bbox;
                assert!(bx0 <= bx1 && by0 <= by1, "{}", region.name);
                for ring in region.polygons.iter().flatten() {
                    assert!(ring.len() >= 3, "{}", region.name);
                    for &(x, y) in ring {
                        assert!(
                            x >= map.x0 && x <= x1 && y >= map.y0 && y <= y1,
                            "{}",
                            region.name
                        );
                        assert!(
                            x >= bx0 && x <= bx1 && y >= by0 && y <= by1,
                            "{}",
                            region.name
                        );
                    }
                }
            }
            assert!(map.bbox().is_some());
        }
    }

    #[test]
    fn antimeridian_is_cut() {
        // No edge may run across the whole map (a ring crossing +-180 degrees
        // must be split); Russia keeps Chukotka on the far left. Antarctica
        // surrounds the pole: its one crossing is its southern edge.
        let world = atlas(Atlas::World);
        for region in world.regions.iter().filter(|r| r.id != 10) {
            for ring in region.polygons.iter().flatten() {
                let closing = ring.last().zip(ring.first());
                for (a, b) in ring
                    .windows(2)
                    .map(|w| (w[0], w[1]))
                    .chain(closing.map(|(a, b)| (*a, *b)))
                {
                    assert!((a.0 - b.0).abs() < world.width / 2.0, "{}", region.name);
                }
            }
        }
        let russia = lookup(Atlas::World, "RU").map(|r| r.bbox);
        assert!(
            russia.is_some_and(|b| b.0 < 200.0 && b.2 > 800.0),
            "{russia:?}"
        );
    }

    #[test]
    fn every_lookup_key_round_trips() {
        for which in [Atlas::World, Atlas::UsStates] {
            for region in &atlas(which).regions {
                let id = region.id.to_string();
                for key in [&region.code2, &region.code3, &region.name, &id] {
                    assert_eq!(lookup(which, key).map(|r| r.id), Some(region.id), "{key}");
                }
            }
        }
    }

    #[test]
    fn guesses_the_atlas() {
        assert_eq!(guess_atlas(["CA", "TX", "NY", "FL"]), Atlas::UsStates);
        assert_eq!(guess_atlas(["06", "48", "36"]), Atlas::UsStates);
        assert_eq!(guess_atlas(["California", "Texas"]), Atlas::UsStates);
        assert_eq!(guess_atlas(["CA", "TX", "NY", "XX"]), Atlas::UsStates);
        assert_eq!(guess_atlas(["DE", "FR", "IT"]), Atlas::World);
        assert_eq!(guess_atlas(["DEU", "USA", "CAN"]), Atlas::World);
        assert_eq!(guess_atlas(["276", "250"]), Atlas::World);
        assert_eq!(
            guess_atlas(["CA", "DE"]),
            Atlas::World,
            "ambiguous stays on the world"
        );
        assert_eq!(guess_atlas(Vec::<String>::new()), Atlas::World);
        let owned = vec![String::from("tx"), String::from("wa")];
        assert_eq!(guess_atlas(&owned), Atlas::UsStates);
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
        let huge_count = b"ZGEO\x01\x00\x0a\x00\x00\x00\x00\x00\x10\x00\x10\x00\x01\x00\
            \x01\x00\x00\x00\x01\x01A\xff\xff\xff\xff\x0f";
        assert!(decode(huge_count).is_err());
    }
}
