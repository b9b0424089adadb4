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

use std::sync::OnceLock;

mod decode;
#[cfg(test)]
mod fidelity;
mod names;
mod project;

pub use decode::{decode, GeoError, MAX_POINTS};
use names::fold;
pub use project::project;

use crate::str_index::StrIndex;

static WORLD_BIN: &[u8] = include_bytes!("../../geo/world.bin");
static US_STATES_BIN: &[u8] = include_bytes!("../../geo/us-states.bin");

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

impl Region {
    /// The centre of the region's largest part (by area): the area-weighted
    /// centroid of that polygon's exterior ring, in atlas units; `None` for
    /// a region without polygons.
    #[must_use]
    pub fn centroid(&self) -> Option<(f64, f64)> {
        let mut best: Option<(f64, (f64, f64))> = None;
        for ring in self.polygons.iter().filter_map(|p| p.first()) {
            let (mut twice_area, mut cx, mut cy) = (0.0, 0.0, 0.0);
            let mut previous = ring.last().copied().unwrap_or_default();
            for &current in ring {
                let (x0, y0) = (f64::from(previous.0), f64::from(previous.1));
                let (x1, y1) = (f64::from(current.0), f64::from(current.1));
                let cross = x0 * y1 - x1 * y0;
                twice_area += cross;
                cx += (x0 + x1) * cross;
                cy += (y0 + y1) * cross;
                previous = current;
            }
            if twice_area != 0.0 && best.is_none_or(|(a, _)| twice_area.abs() > a) {
                let at = (cx / (3.0 * twice_area), cy / (3.0 * twice_area));
                best = Some((twice_area.abs(), at));
            }
        }
        best.map(|(_, at)| at)
    }
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
    index: StrIndex,
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
        self.position(code).and_then(|i| self.regions.get(i))
    }

    /// Like [`Map::lookup`], but the region's index in [`Map::regions`].
    #[must_use]
    pub fn position(&self, code: &str) -> Option<usize> {
        let code = code.trim();
        if code.is_empty() {
            return None;
        }
        let key = if is_numeric(code) {
            numeric_key(code)?
        } else {
            let folded = fold(code);
            if let Some(i) = self.index.get(&format!("c:{folded}")) {
                return Some(i);
            }
            format!("n:{folded}")
        };
        self.index.get(&key)
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

    /// A map of `regions` in the frame at `origin` of `size`, indexed for
    /// [`Map::lookup`].
    fn new(origin: (f32, f32), size: (f32, f32), regions: Vec<Region>) -> Self {
        let mut map = Self {
            x0: origin.0,
            y0: origin.1,
            width: size.0,
            height: size.1,
            regions,
            index: StrIndex::default(),
        };
        map.build_index();
        map
    }

    fn build_index(&mut self) {
        let mut index = StrIndex::default();
        for (i, region) in self.regions.iter().enumerate() {
            index.insert(format!("#{}", u32::from(region.id)), i);
            for code in [&region.code2, &region.code3] {
                if code.is_empty() {
                    continue;
                }
                if is_numeric(code) {
                    if let Some(key) = numeric_key(code) {
                        index.insert(key, i);
                    }
                } else {
                    index.insert(format!("c:{}", fold(code)), i);
                }
            }
            for name in std::iter::once(&region.name).chain(&region.aliases) {
                if !name.is_empty() {
                    index.insert(format!("n:{}", fold(name)), i);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn name(which: Atlas, code: &str) -> Option<&'static str> {
        lookup(which, code).map(|r| r.name.as_str())
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
    fn position_is_the_index_of_the_region_lookup_finds() {
        for which in [Atlas::World, Atlas::UsStates] {
            let map = atlas(which);
            for (i, region) in map.regions.iter().enumerate() {
                for key in [&region.code2, &region.code3, &region.name] {
                    assert_eq!(map.position(key), Some(i), "{key}");
                }
            }
            assert_eq!(map.position("no such place"), None);
            assert_eq!(map.position(" "), None);
        }
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
}
