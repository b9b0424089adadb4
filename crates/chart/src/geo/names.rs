//! Folding of region names and codes for look-ups: case, common Latin
//! accents, typographic apostrophes and white space do not matter.

/// Lower case, common Latin accents removed, typographic apostrophes
/// straightened, runs of white space collapsed to one space.
pub(super) fn fold(s: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo::{atlas, Atlas};

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
}
