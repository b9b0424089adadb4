//! Latitude and longitude onto the embedded atlases, in atlas units: the
//! same projections the atlases were made with (`scripts/geo/convert.mjs`
//! for the world, d3-geo's `geoAlbersUsa` for us-atlas's states).

use super::Atlas;
use crate::math::{atan2, cos, sin};
use std::f64::consts::PI;

const RADIANS: f64 = PI / 180.0;

// Equal Earth (Šavrič, Patterson, Jenny 2018), as the converter has it.
const A1: f64 = 1.340264;
const A2: f64 = -0.081106;
const A3: f64 = 0.000893;
const A4: f64 = 0.003796;

/// The point (`lat`, `lon`), in degrees, on atlas `which`: `None` when it
/// is off the map (the US atlas shows the lower 48, Alaska and Hawaii
/// only) or not a finite coordinate.
#[must_use]
pub fn project(which: Atlas, lat: f64, lon: f64) -> Option<(f64, f64)> {
    if !lat.is_finite() || !lon.is_finite() {
        return None;
    }
    match which {
        Atlas::World => Some(equal_earth(lat, lon)),
        Atlas::UsStates => albers_usa(lat, lon),
    }
}

/// Equal Earth on the unit sphere, y up.
fn equal_earth_raw(lat: f64, lon: f64) -> (f64, f64) {
    let m = 3f64.sqrt() / 2.0;
    let lambda = lon.clamp(-180.0, 180.0) * RADIANS;
    let s = m * sin(lat.clamp(-90.0, 90.0) * RADIANS);
    // asin(s); |s| <= sqrt(3)/2, so the root is never of a negative.
    let t = atan2(s, (1.0 - s * s).sqrt());
    let t2 = t * t;
    let t6 = t2 * t2 * t2;
    let x = lambda * cos(t) / (m * (A1 + 3.0 * A2 * t2 + t6 * (7.0 * A3 + 9.0 * A4 * t2)));
    let y = t * (A1 + A2 * t2 + t6 * (A3 + A4 * t2));
    (x, y)
}

/// The world atlas: Equal Earth scaled so the globe is 1000 units wide,
/// y down from the North Pole's line.
fn equal_earth(lat: f64, lon: f64) -> (f64, f64) {
    let x_max = PI / (3f64.sqrt() / 2.0 * A1);
    let y_max = equal_earth_raw(90.0, 0.0).1;
    let scale = 1000.0 / (2.0 * x_max);
    let (x, y) = equal_earth_raw(lat, lon);
    ((x + x_max) * scale, (y_max - y) * scale)
}

/// One of d3's conic equal-area projections of `geoAlbersUsa`: rotated by
/// `rotate` degrees of longitude, `center` (unrotated, degrees) at
/// `translate`, `scale` pixels per radian, shown only inside `clip`.
struct Conic {
    rotate: f64,
    center: (f64, f64),
    parallels: (f64, f64),
    scale: f64,
    translate: (f64, f64),
    /// (x0, y0, x1, y1).
    clip: (f64, f64, f64, f64),
}

impl Conic {
    fn raw(&self, lambda: f64, phi: f64) -> (f64, f64) {
        let (y0, y1) = (self.parallels.0 * RADIANS, self.parallels.1 * RADIANS);
        let sy0 = sin(y0);
        let n = (sy0 + sin(y1)) / 2.0;
        let c = 1.0 + sy0 * (2.0 * n - sy0);
        let r0 = c.sqrt() / n;
        // c - 2n sin(phi) >= 0 for these parallels (n < 1/2, c > 1).
        let r = (c - 2.0 * n * sin(phi)).max(0.0).sqrt() / n;
        let a = lambda * n;
        (r * sin(a), r0 - r * cos(a))
    }

    fn point(&self, lat: f64, lon: f64) -> Option<(f64, f64)> {
        let mut lambda = lon + self.rotate;
        if lambda > 180.0 {
            lambda -= 360.0;
        } else if lambda < -180.0 {
            lambda += 360.0;
        }
        let (cx, cy) = self.raw(self.center.0 * RADIANS, self.center.1 * RADIANS);
        let (px, py) = self.raw(lambda * RADIANS, lat * RADIANS);
        let (k, (tx, ty)) = (self.scale, self.translate);
        let (x, y) = (tx + k * (px - cx), ty - k * (py - cy));
        let (x0, y0, x1, y1) = self.clip;
        (x >= x0 && x <= x1 && y >= y0 && y <= y1).then_some((x, y))
    }
}

/// d3-geo's `geoAlbersUsa().scale(1300).translate([487.5, 305])`, as
/// us-atlas's `states-albers-10m` was projected: the lower 48, then
/// Alaska and Hawaii in their insets; `None` outside all three.
fn albers_usa(lat: f64, lon: f64) -> Option<(f64, f64)> {
    const EPSILON: f64 = 1e-6;
    let (k, x, y) = (1300.0, 487.5, 305.0);
    let lower48 = Conic {
        rotate: 96.0,
        center: (-0.6, 38.7),
        parallels: (29.5, 45.5),
        scale: k,
        translate: (x, y),
        clip: (x - 0.455 * k, y - 0.238 * k, x + 0.455 * k, y + 0.238 * k),
    };
    let alaska = Conic {
        rotate: 154.0,
        center: (-2.0, 58.5),
        parallels: (55.0, 65.0),
        scale: k * 0.35,
        translate: (x - 0.307 * k, y + 0.201 * k),
        clip: (
            x - 0.425 * k + EPSILON,
            y + 0.120 * k + EPSILON,
            x - 0.214 * k - EPSILON,
            y + 0.234 * k - EPSILON,
        ),
    };
    let hawaii = Conic {
        rotate: 157.0,
        center: (-3.0, 19.9),
        parallels: (8.0, 18.0),
        scale: k,
        translate: (x - 0.205 * k, y + 0.212 * k),
        clip: (
            x - 0.214 * k + EPSILON,
            y + 0.166 * k + EPSILON,
            x - 0.115 * k - EPSILON,
            y + 0.234 * k - EPSILON,
        ),
    };
    lower48
        .point(lat, lon)
        .or_else(|| alaska.point(lat, lon))
        .or_else(|| hawaii.point(lat, lon))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(a: (f64, f64), b: (f64, f64), tolerance: f64) -> bool {
        (a.0 - b.0).abs() <= tolerance && (a.1 - b.1).abs() <= tolerance
    }

    #[test]
    fn equal_earth_is_the_converters() {
        // scripts/geo/convert.mjs's equalEarth and buildWorld scaling, in node.
        let cases = [
            ((-33.87, 151.21), (885.553828380, 366.150625893)),
            ((48.86, 2.35), (505.434063938, 72.774497630)),
            ((35.68, 139.69), (852.752217116, 114.476304528)),
            ((12.3, -45.6), (374.724625693, 197.513396388)),
            ((-90.0, -180.0), (203.766555099, 486.716975387)),
            ((90.0, 180.0), (796.233444901, 0.0)),
        ];
        for ((lat, lon), want) in cases {
            let got = equal_earth(lat, lon);
            assert!(near(got, want, 1e-6), "{lat},{lon}: {got:?}, want {want:?}");
        }
    }

    #[test]
    fn equal_earth_frames_the_globe() {
        // The converter's frame: 1000 wide, 486.7 high, the equator halfway.
        assert!(near(equal_earth(0.0, -180.0), (0.0, 243.35), 0.05));
        assert!(near(equal_earth(0.0, 180.0), (1000.0, 243.35), 0.05));
        assert!(near(equal_earth(90.0, 0.0), (500.0, 0.0), 1e-9));
        assert!(near(equal_earth(-90.0, 0.0), (500.0, 486.7), 0.05));
        for lat in [-90.0, -45.0, 0.0, 45.0, 90.0] {
            for lon in [-180.0, -90.0, 0.0, 90.0, 180.0] {
                let (x, y) = equal_earth(lat, lon);
                assert!(x.is_finite() && y.is_finite());
            }
        }
    }

    #[test]
    fn albers_usa_matches_d3() {
        // d3-geo 3.1.1: geoAlbersUsa().scale(1300).translate([487.5, 305]).
        let cases = [
            ((39.74, -104.99), (342.852254, 273.866835)),
            ((40.71, -74.01), (869.667069, 215.818532)),
            ((47.61, -122.33), (97.679499, 46.245136)),
            ((24.5, -81.8), (794.175692, 605.734212)),
            ((61.22, -149.9), (112.277634, 544.262730)),
            ((71.3, -156.8), (89.363772, 464.959999)),
            ((51.9, -176.6), (-12.492993, 600.075701)),
            ((55.0, -130.0), (203.623969, 574.732725)),
            ((21.31, -157.86), (266.923995, 549.120404)),
            ((18.9, -155.7), (313.178460, 603.538003)),
        ];
        for ((lat, lon), want) in cases {
            let got = albers_usa(lat, lon);
            assert!(
                got.is_some_and(|got| near(got, want, 1e-5)),
                "{lat},{lon}: {got:?}, want {want:?}"
            );
        }
        assert_eq!(
            albers_usa(19.5, -80.0),
            None,
            "the Caribbean is off the map"
        );
        assert_eq!(albers_usa(48.86, 2.35), None, "Paris is not on the US map");
        assert_eq!(albers_usa(-33.87, 151.21), None);
        assert_eq!(albers_usa(90.0, 180.0), None);
    }
}
