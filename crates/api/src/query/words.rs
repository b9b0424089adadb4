//! The question as tokens: lower-cased words and numbers with where they
//! stand, and the small pieces of spelling the matcher needs (a singular,
//! an edit distance, a number with its scale).

use super::lexicon::{NUMBER_WORDS, SCALES};

/// Tokens read of a question at most: a question is a sentence, and every
/// step of the matcher is linear in them (spans are at most [`MAX_SPAN`]).
pub const MAX_TOKENS: usize = 64;
/// Words a column name, an alias or a value may span.
pub const MAX_SPAN: usize = 5;

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    /// Lower case, as matched.
    pub word: String,
    /// The word begins with a capital letter in the question (a name).
    pub capital: bool,
    /// Its value when the token is a number ("60m", "$1,200", "1.5").
    pub number: Option<f64>,
}

/// The tokens of `text`: runs of letters, digits and `.,$%'` inside words,
/// at most [`MAX_TOKENS`]; "million", "billion" and "thousand" scale the
/// number before them.
pub fn tokens(text: &str) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, out: &mut Vec<Token>| {
        let raw = current.trim_matches(|c: char| matches!(c, '.' | ',' | '\'' | '’'));
        if !raw.is_empty() && out.len() < MAX_TOKENS {
            let word = raw.to_lowercase();
            let word = word
                .strip_suffix("'s")
                .or_else(|| word.strip_suffix("’s"))
                .unwrap_or(&word)
                .to_owned();
            let scale = SCALES
                .iter()
                .find(|(w, _)| *w == word)
                .map(|(_, scale)| *scale);
            match (scale, out.last_mut()) {
                (
                    Some(scale),
                    Some(Token {
                        number: Some(n), ..
                    }),
                ) => *n *= scale,
                _ => out.push(Token {
                    number: number(&word),
                    capital: raw.chars().next().is_some_and(char::is_uppercase),
                    word,
                }),
            }
        }
        current.clear();
    };
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || matches!(c, '.' | ',' | '$' | '%' | '\'' | '’' | '-' | '_') {
            // "8-cylinder", "life_expectancy": parts are words of their own;
            // "-500" is a number.
            let thousands = c == ',' && current.chars().last().is_some_and(|l| l.is_ascii_digit());
            let sign =
                c == '-' && current.is_empty() && chars.peek().is_some_and(char::is_ascii_digit);
            if sign {
                current.push(c);
            } else if matches!(c, '-' | '_') || (c == ',' && !thousands) {
                flush(&mut current, &mut out);
            } else {
                current.push(c);
            }
        } else if matches!(c, '<' | '>' | '=' | '!') {
            // "UrbanPop > 70", "cut != Fair", "lg = AL": the sign is a word.
            flush(&mut current, &mut out);
            let mut sign = String::from(c);
            while let Some(next) = chars.next_if(|n| matches!(n, '<' | '>' | '=' | '!')) {
                sign.push(next);
            }
            if let Some(token) = sign_token(&sign).filter(|_| out.len() < MAX_TOKENS) {
                out.push(token);
            }
        } else {
            flush(&mut current, &mut out);
        }
    }
    flush(&mut current, &mut out);
    out
}

/// A comparison sign as the rules read it (`<>` is `!=`, `==` is `=`); a
/// lone `!` is none.
fn sign_token(sign: &str) -> Option<Token> {
    let word = match sign {
        "!" => return None,
        "<>" => "!=",
        "==" => "=",
        "=>" => ">=",
        "=<" => "<=",
        other => other,
    };
    Some(Token {
        word: word.to_owned(),
        number: None,
        capital: false,
    })
}

/// "60m" → 60e6, "$1,200" → 1200, "2.5k" → 2500, "45%" → 45; words that
/// are not numbers → `None`. Number words one to twenty read too.
pub fn number(word: &str) -> Option<f64> {
    if let Some(at) = NUMBER_WORDS.iter().position(|w| *w == word) {
        return Some((at + 1) as f64);
    }
    let w = word.trim_start_matches('$').trim_end_matches('%');
    let (digits, scale) = match w.char_indices().last() {
        Some((at, 'k')) => (&w[..at], 1e3),
        Some((at, 'm')) => (&w[..at], 1e6),
        Some((at, 'b')) => (&w[..at], 1e9),
        _ => (w, 1.0),
    };
    let digits = digits.strip_suffix("bn").unwrap_or(digits);
    let (sign, digits) = match digits.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, digits),
    };
    if digits.is_empty() || !digits.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let plain: String = digits.chars().filter(|c| *c != ',').collect();
    plain
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite())
        .map(|n| sign * n * scale)
}

/// A word's singular, for matching "regions" to `region` and "movies" to
/// `movie`: the few English endings that matter here.
pub fn singular(word: &str) -> String {
    let n = word.chars().count();
    if n > 4 {
        if let Some(stem) = word.strip_suffix("ies") {
            return format!("{stem}y");
        }
        if let Some(stem) = word.strip_suffix("sses") {
            return format!("{stem}ss");
        }
        if let Some(stem) = word
            .strip_suffix("ches")
            .or_else(|| word.strip_suffix("shes"))
            .or_else(|| word.strip_suffix("xes"))
        {
            return format!("{stem}{}", &word[stem.len()..word.len() - 2]);
        }
    }
    if n > 3 && word.ends_with('s') && !word.ends_with("ss") && !word.ends_with("us") {
        return word[..word.len() - 1].to_owned();
    }
    word.to_owned()
}

/// Words that are plural as they stand (a title says "5 bacteria").
const PLURALS: &[&str] = &[
    "bacteria", "criteria", "data", "media", "people", "children", "men", "women", "sheep", "fish",
    "deer", "staff", "police", "cattle",
];

/// Whether a word is plural as it stands ("people", "women").
pub fn is_plural_as_is(word: &str) -> bool {
    PLURALS.contains(&word)
}

/// A name's plural for a title ("regions", "countries"): its last word's.
pub fn plural(name: &str) -> String {
    let last = name.rsplit(' ').next().unwrap_or(name);
    let vowel_y = last.len() > 1
        && last.ends_with('y')
        && !last[..last.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u']);
    let lower = last.to_lowercase();
    if last.ends_with('s')
        || last.ends_with(')')
        || last.chars().any(|c| c.is_ascii_digit())
        || PLURALS.contains(&lower.as_str())
    {
        name.to_owned()
    } else if vowel_y {
        format!("{}ies", &name[..name.len() - 1])
    } else if last.ends_with("ch") || last.ends_with("sh") || last.ends_with('x') {
        format!("{name}es")
    } else {
        format!("{name}s")
    }
}

/// The words of a name as they are matched: split at `_`, `-`, spaces,
/// punctuation and lower-to-upper case changes, lower case, singular.
pub fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && previous_lower {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = c.is_lowercase() || c.is_ascii_digit();
            current.extend(c.to_lowercase());
        } else {
            previous_lower = false;
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words.iter().map(|w| singular(w)).collect()
}

/// Whether `a` is `b` misspelled: one edit for words of 4 to 7 letters,
/// two from 8 (Damerau–Levenshtein, so a swap is one edit).
pub fn misspelled(a: &str, b: &str) -> bool {
    let n = a.chars().count().min(b.chars().count());
    let allowed = match n {
        0..=3 => return false,
        4..=7 => 1,
        _ => 2,
    };
    // Short words share their first two letters ("sales" is not "scales");
    // a word the rules know is no misspelling ("rate" is not `Rape`).
    let head = if n <= 5 { 2 } else { 1 };
    a != b
        && !super::lexicon::RATES.contains(&a)
        && a.chars().take(head).eq(b.chars().take(head))
        && strsim::damerau_levenshtein(a, b) <= allowed
}

/// Whether two words share their stem ("survival" and `survived`,
/// "embarkation" and `embarked`): six letters or more, most of the shorter.
pub fn same_stem(a: &str, b: &str) -> bool {
    let shared = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let shorter = a.chars().count().min(b.chars().count());
    a != b && shared >= 6 && shared * 10 >= shorter * 7
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_people_write_them() {
        let t =
            tokens("Movies that grossed more than 60M, budget under $1,200.5 and 2 million votes");
        let numbers: Vec<f64> = t.iter().filter_map(|t| t.number).collect();
        assert_eq!(numbers, [60e6, 1200.5, 2e6]);
        assert_eq!(number("five"), Some(5.0));
        assert_eq!(number("45%"), Some(45.0));
        assert_eq!(number("m"), None);
        let below: Vec<f64> = tokens("change below -500, not 8-cylinder")
            .iter()
            .filter_map(|t| t.number)
            .collect();
        assert_eq!(below, [-500.0, 8.0]);
    }

    #[test]
    fn names_split_into_singular_words() {
        assert_eq!(name_words("Miles_per_Gallon"), ["mile", "per", "gallon"]);
        assert_eq!(name_words("Worldwide Gross"), ["worldwide", "gross"]);
        assert_eq!(name_words("lifeExpectancy"), ["life", "expectancy"]);
        assert_eq!(singular("countries"), "country");
        assert_eq!(singular("matches"), "match");
        assert_eq!(plural("region"), "regions");
        assert_eq!(plural("country"), "countries");
        assert_eq!(plural("home team"), "home teams");
        assert_eq!(plural("day"), "days");
        assert!(misspelled("horsepowr", "horsepower"));
        assert!(misspelled("fertilty", "fertility"));
        assert!(!misspelled("sales", "scales"));
    }

    #[test]
    fn tokens_keep_capitals_and_stop_at_the_bound() {
        let t = tokens("life expectancy in Japan's cities");
        assert!(t[3].capital && t[3].word == "japan");
        assert_eq!(tokens(&"word ".repeat(1000)).len(), MAX_TOKENS);
    }
}
