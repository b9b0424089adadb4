//! Light and dark themes, the categorical palette and the colour ramps.

use crate::scene::Color;

use crate::model::Rgb;

/// Okabe and Ito's palette ("Color Universal Design"): distinguishable with
/// every common colour-vision deficiency. Yellow comes late because it has
/// little contrast on white.
const LIGHT_PALETTE: [Color; 8] = [
    Color(0x00, 0x72, 0xB2), // blue
    Color(0xE6, 0x9F, 0x00), // orange
    Color(0x00, 0x9E, 0x73), // bluish green
    Color(0xCC, 0x79, 0xA7), // reddish purple
    Color(0x56, 0xB4, 0xE9), // sky blue
    Color(0xD5, 0x5E, 0x00), // vermillion
    Color(0x8C, 0x8C, 0x8C), // grey
    Color(0xC9, 0xB8, 0x00), // yellow, darkened to read on white
];

/// The same hues lifted to keep contrast on a dark background.
const DARK_PALETTE: [Color; 8] = [
    Color(0x3D, 0xA5, 0xE0),
    Color(0xF0, 0xB0, 0x2A),
    Color(0x2C, 0xC2, 0x95),
    Color(0xE0, 0x8F, 0xBE),
    Color(0x8F, 0xD0, 0xF5),
    Color(0xF0, 0x7B, 0x3F),
    Color(0xB0, 0xB0, 0xB0),
    Color(0xF0, 0xE4, 0x42),
];

#[derive(Debug, Clone)]
pub struct Theme {
    pub dark: bool,
    pub background: Color,
    pub text: Color,
    pub muted: Color,
    pub grid: Color,
    pub axis: Color,
    /// Table stripes, empty map regions.
    pub faint: Color,
    pub palette: Vec<Color>,
    /// Bars that go up and down in a waterfall, and its totals.
    pub increase: Color,
    pub decrease: Color,
    pub total: Color,
    /// Sequential ramp, low to high (heatmaps, maps).
    pub sequential: [Color; 5],
    /// Diverging ramp, negative to positive through a neutral middle.
    pub diverging: [Color; 5],
}

impl Theme {
    pub fn light() -> Theme {
        Theme {
            dark: false,
            background: Color(0xFF, 0xFF, 0xFF),
            text: Color(0x1F, 0x23, 0x28),
            muted: Color(0x5F, 0x66, 0x6D),
            grid: Color(0xE3, 0xE6, 0xE9),
            axis: Color(0x9A, 0xA0, 0xA6),
            faint: Color(0xF3, 0xF4, 0xF6),
            palette: LIGHT_PALETTE.to_vec(),
            increase: LIGHT_PALETTE[0],
            decrease: LIGHT_PALETTE[5],
            total: Color(0x5F, 0x66, 0x6D),
            // Single-hue blues (ColorBrewer "Blues"): order is read by lightness.
            sequential: [
                Color(0xDE, 0xEB, 0xF7),
                Color(0x9E, 0xCA, 0xE1),
                Color(0x42, 0x92, 0xC6),
                Color(0x21, 0x71, 0xB5),
                Color(0x08, 0x45, 0x94),
            ],
            // ColorBrewer "PuOr": safe for colour-blind readers.
            diverging: [
                Color(0xB3, 0x58, 0x06),
                Color(0xF1, 0xA3, 0x40),
                Color(0xF7, 0xF7, 0xF7),
                Color(0x99, 0x8E, 0xC3),
                Color(0x54, 0x27, 0x88),
            ],
        }
    }

    pub fn dark() -> Theme {
        Theme {
            dark: true,
            background: Color(0x16, 0x1A, 0x1F),
            text: Color(0xE8, 0xEA, 0xED),
            muted: Color(0xA0, 0xA7, 0xAF),
            grid: Color(0x2E, 0x34, 0x3B),
            axis: Color(0x5C, 0x64, 0x6D),
            faint: Color(0x22, 0x27, 0x2E),
            palette: DARK_PALETTE.to_vec(),
            increase: DARK_PALETTE[0],
            decrease: DARK_PALETTE[5],
            total: Color(0xA0, 0xA7, 0xAF),
            // Dark to bright, so high values stand out on a dark page.
            sequential: [
                Color(0x1C, 0x2F, 0x45),
                Color(0x1F, 0x4E, 0x79),
                Color(0x2B, 0x7B, 0xB9),
                Color(0x6B, 0xAE, 0xD6),
                Color(0xC6, 0xE4, 0xF5),
            ],
            diverging: [
                Color(0xE0, 0x82, 0x14),
                Color(0x9A, 0x5B, 0x1A),
                Color(0x3A, 0x3F, 0x46),
                Color(0x6A, 0x5A, 0xA8),
                Color(0xB2, 0xAB, 0xD2),
            ],
        }
    }

    pub fn new(dark: bool) -> Theme {
        if dark {
            Theme::dark()
        } else {
            Theme::light()
        }
    }

    /// The card's own `colors` go first; the palette fills in after them.
    pub fn with_colors(mut self, colors: &[Rgb]) -> Theme {
        if colors.is_empty() {
            return self;
        }
        let mut palette: Vec<Color> = colors.iter().map(|c| Color(c.0, c.1, c.2)).collect();
        palette.extend(self.palette.iter().copied());
        self.palette = palette;
        self
    }

    /// Series colour `index`, cycling through the palette.
    pub fn color(&self, index: usize) -> Color {
        match self.palette.len() {
            0 => self.text,
            n => self.palette.get(index % n).copied().unwrap_or(self.text),
        }
    }

    /// Colour for `t` in 0..=1 along a five-stop ramp.
    pub fn ramp(stops: &[Color; 5], t: f64) -> Color {
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let scaled = t * 4.0;
        let index = (scaled.floor() as usize).min(3);
        let frac = scaled - index as f64;
        let (a, b) = (stops[index], stops[index + 1]);
        let mix =
            |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * frac).round() as u8;
        Color(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }

    /// Dark or light text, whichever reads better on `fill`.
    pub fn text_on(&self, fill: Color) -> Color {
        if luminance(fill) > 0.45 {
            Color(0x1F, 0x23, 0x28)
        } else {
            Color(0xFF, 0xFF, 0xFF)
        }
    }
}

/// Relative luminance (WCAG) of an sRGB colour.
pub fn luminance(c: Color) -> f64 {
    let channel = |v: u8| {
        let s = f64::from(v) / 255.0;
        if s <= 0.04045 {
            s / 12.92
        } else {
            crate::math::powf((s + 0.055) / 1.055, 2.4)
        }
    };
    0.2126 * channel(c.0) + 0.7152 * channel(c.1) + 0.0722 * channel(c.2)
}

/// WCAG contrast ratio between two colours.
pub fn contrast(a: Color, b: Color) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

/// `a` moved towards `b` by `t` (0 keeps `a`, 1 gives `b`).
pub fn mix(a: Color, b: Color, t: f64) -> Color {
    let t = t.clamp(0.0, 1.0);
    let m = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * t).round() as u8;
    Color(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_has_contrast_in_both_themes() {
        for theme in [Theme::light(), Theme::dark()] {
            assert!(contrast(theme.text, theme.background) >= 7.0);
            assert!(contrast(theme.muted, theme.background) >= 4.5);
        }
    }

    #[test]
    fn series_colours_stand_out_from_the_background() {
        for theme in [Theme::light(), Theme::dark()] {
            for (i, c) in theme.palette.iter().enumerate() {
                assert!(
                    contrast(*c, theme.background) >= 1.9,
                    "colour {i} in dark={}",
                    theme.dark
                );
            }
        }
    }

    #[test]
    fn ramp_ends_and_middle() {
        let t = Theme::light();
        assert_eq!(Theme::ramp(&t.sequential, 0.0), t.sequential[0]);
        assert_eq!(Theme::ramp(&t.sequential, 1.0), t.sequential[4]);
        assert_eq!(Theme::ramp(&t.sequential, f64::NAN), t.sequential[0]);
        assert_eq!(Theme::ramp(&t.sequential, 0.5), t.sequential[2]);
    }

    #[test]
    fn user_colours_come_first() {
        let theme = Theme::light().with_colors(&[Rgb(1, 2, 3)]);
        assert_eq!(theme.color(0), Color(1, 2, 3));
        assert_eq!(theme.color(1), LIGHT_PALETTE[0]);
    }
}
