//! The names a question uses, matched against a table's schema and
//! values: columns named outright, in part, by a synonym or an alias,
//! misspelled, or through one of their values. The rule passes around
//! them are in `rules.rs`. Linear in the question's tokens (at most
//! [`MAX_TOKENS`]) times the table's columns, and in the table's cells
//! once, to index its values.

use std::collections::HashMap;

use zdr_chart::geo::{self, Atlas};

use super::aliases::{Aliases, Target};
use super::lexicon::{
    is_rule_word, is_stopword, ADJECTIVES, CHARTS, COLOUR_BY, GRAINS, MONTHS, ORDER_WORDS,
    ORDINALS, PERCENTAGES, PLACE_NOUNS, SEXES, SYNONYMS, VERSUS,
};
use super::words::{
    misspelled, name_words, same_stem, singular, tokens, Token, MAX_SPAN, MAX_TOKENS,
};
use crate::table::{Cell, Kind, Table};

/// Distinct values of one column indexed at most.
const MAX_INDEXED: usize = 5_000;
/// A column with more distinct values than this holds names (titles,
/// people): its values match only where the question writes them with a
/// capital, so that "up" is no film.
const NAMES_FROM: usize = 300;
/// A number column with at most this many distinct values can group
/// ("by cylinders").
pub(super) const MAX_NUMBER_GROUPS: usize = 30;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Meaning {
    Column(usize),
    Value(usize, String),
}

/// Words `start..end` of the question and what they name.
#[derive(Debug, Clone)]
pub(super) struct Mention {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) meaning: Meaning,
}

/// A value's key: its words, lower case, singular.
fn key_of(text: &str) -> String {
    tokens(text)
        .iter()
        .map(|t| singular(&t.word))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What is known of the table's columns to match words against.
pub(super) struct Schema<'a> {
    pub(super) table: &'a Table,
    /// Each column's name words.
    pub(super) names: Vec<Vec<String>>,
    /// Value key → (column, the value as the table writes it).
    values: HashMap<String, (usize, String)>,
    /// Distinct values per column (up to [`MAX_INDEXED`] + 1).
    pub(super) distinct: Vec<usize>,
    /// Country or state code → (column, value) for place columns.
    places: HashMap<String, (usize, String)>,
    /// Part of a value's words ("premier league") → (column, value): of
    /// the values it is part of, the one of most rows.
    parts: HashMap<String, (usize, String)>,
    /// One-word values of columns of few values, in table order, that a
    /// misspelling may name (at most [`MAX_SPELLED`]).
    spelled: Vec<(String, usize, String)>,
    /// Per column, its "yes" as written where it holds only yes and no.
    yes: Vec<Option<String>>,
    /// The "no" of each column of yes and no.
    no: Vec<Option<String>>,
    /// Per column, whether it holds months' names (Apr, May …).
    month_named: Vec<bool>,
    /// Per column named as months and holding 1 to 12, the months it
    /// holds (bit `m` for month `m`); 0 for any other.
    month_numbers: Vec<u16>,
}

/// The "yes" of a column whose values are yes and no (Yes/No, Y/N, T/F,
/// True/False), as written.
/// The "no" of a column of yes and no, where it has one.
fn no_of(values: &[&str]) -> Option<String> {
    yes_of(values)?;
    values
        .iter()
        .find(|v| matches!(v.to_lowercase().as_str(), "no" | "n" | "false" | "f"))
        .map(|v| (*v).to_owned())
}

fn yes_of(values: &[&str]) -> Option<String> {
    let mut yes = None;
    for v in values {
        match v.to_lowercase().as_str() {
            "yes" | "y" | "true" | "t" => yes = Some((*v).to_owned()),
            "no" | "n" | "false" | "f" => {}
            _ => return None,
        }
    }
    yes
}

/// The months a number column named as months (`Month`, `mo`) holds, as
/// bits, where every value is a month 1 to 12 (`numbers` complete: at most
/// [`MAX_NUMBER_GROUPS`] values).
fn months_of(name: &str, numbers: &std::collections::HashSet<u64>) -> u16 {
    let named = name_words(name).iter().any(|w| w == "month" || w == "mo");
    if !named || numbers.is_empty() || numbers.len() > MAX_NUMBER_GROUPS {
        return 0;
    }
    let mut bits = 0u16;
    for n in numbers.iter().map(|b| f64::from_bits(*b)) {
        if n.fract() != 0.0 || !(1.0..=12.0).contains(&n) {
            return 0;
        }
        bits |= 1 << (n as u16);
    }
    bits
}

/// Values a misspelled word is compared with at most.
const MAX_SPELLED: usize = 2_000;

impl<'a> Schema<'a> {
    pub(super) fn new(table: &'a Table) -> Schema<'a> {
        let names = table.columns.iter().map(|c| name_words(&c.name)).collect();
        let mut values = HashMap::new();
        let mut places = HashMap::new();
        let mut distinct = Vec::new();
        let mut parts: HashMap<String, (usize, String, usize)> = HashMap::new();
        let mut spelled = Vec::new();
        let (mut yes, mut no) = (Vec::new(), Vec::new());
        let (mut month_named, mut month_numbers) = (Vec::new(), Vec::new());
        for (at, column) in table.columns.iter().enumerate() {
            let mut rows: HashMap<&str, usize> = HashMap::new();
            let mut order: Vec<&str> = Vec::new();
            let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
            let mut numbers: std::collections::HashSet<u64> = std::collections::HashSet::new();
            if matches!(column.kind, Kind::Category | Kind::Place) {
                for cell in &column.cells {
                    let Cell::Text(text) = cell else { continue };
                    if seen.len() > MAX_INDEXED {
                        break;
                    }
                    *rows.entry(text.as_str()).or_insert(0) += 1;
                    if seen.insert(text.as_str()) {
                        order.push(text.as_str());
                        values
                            .entry(key_of(text))
                            .or_insert_with(|| (at, text.clone()));
                        if column.kind == Kind::Place {
                            if let Some(region) = geo::lookup(Atlas::World, text) {
                                places
                                    .entry(region.code2.clone())
                                    .or_insert_with(|| (at, text.clone()));
                            }
                            if let Some(region) = geo::lookup(Atlas::UsStates, text) {
                                places
                                    .entry(format!("us:{}", region.code2))
                                    .or_insert_with(|| (at, text.clone()));
                            }
                        }
                    }
                }
            } else if column.kind == Kind::Number {
                for cell in &column.cells {
                    if let Cell::Number(n) = cell {
                        if numbers.len() > MAX_NUMBER_GROUPS {
                            break;
                        }
                        numbers.insert(n.to_bits());
                    }
                }
            }
            distinct.push(seen.len().max(numbers.len()));
            let flags =
                numbers.len() == 2 && [0.0f64, 1.0].iter().all(|n| numbers.contains(&n.to_bits()));
            let indexed = seen.len() <= MAX_INDEXED;
            yes.push(
                yes_of(&order)
                    .filter(|_| indexed)
                    .or(flags.then(|| "1".to_owned())),
            );
            no.push(
                no_of(&order)
                    .filter(|_| indexed)
                    .or(flags.then(|| "0".to_owned())),
            );
            month_named.push(
                !order.is_empty()
                    && seen.len() <= MAX_INDEXED
                    && order.iter().all(|v| {
                        let v = v.to_lowercase();
                        MONTHS.iter().any(|names| names.contains(&v.as_str()))
                    }),
            );
            month_numbers.push(months_of(&column.name, &numbers));
            if seen.len() <= NAMES_FROM {
                for value in &order {
                    let key = key_of(value);
                    if !key.contains(' ') && spelled.len() < MAX_SPELLED {
                        spelled.push((key, at, (*value).to_owned()));
                    }
                }
                for value in &order {
                    let count = rows.get(value).copied().unwrap_or(0);
                    // "Waiter / Waitress" is also "waiter and waitress".
                    let joined = value.replace(" / ", " and ").replace(" & ", " and ");
                    let words: Vec<String> =
                        tokens(&joined).iter().map(|t| singular(&t.word)).collect();
                    for len in 1..=words.len().min(MAX_SPAN) {
                        for part in words.windows(len) {
                            let key = part.join(" ");
                            if key.chars().count() < 4 || part.iter().all(|w| is_rule_word(w)) {
                                continue;
                            }
                            let entry = parts.entry(key).or_insert((at, (*value).to_owned(), 0));
                            if count > entry.2 {
                                *entry = (at, (*value).to_owned(), count);
                            }
                        }
                    }
                }
            }
        }
        let parts = parts
            .into_iter()
            .map(|(k, (c, v, _))| (k, (c, v)))
            .collect();
        Schema {
            table,
            names,
            values,
            distinct,
            places,
            parts,
            spelled,
            yes,
            no,
            month_named,
            month_numbers,
        }
    }

    pub(super) fn kind(&self, column: usize) -> Option<Kind> {
        self.table.columns.get(column).map(|c| c.kind)
    }

    /// The column `name` names: exactly, else by its words.
    fn column_named(&self, name: &str) -> Option<usize> {
        let lower = name.to_lowercase();
        let words = name_words(name);
        self.table
            .columns
            .iter()
            .position(|c| c.name.to_lowercase() == lower)
            .or_else(|| self.names.iter().position(|n| *n == words))
    }

    /// "By month" of a table with dates and a `Month` of their months'
    /// names: the dates by month are meant (a month's name repeats each
    /// year), so the grain word names no column.
    fn is_period_of_dates(&self, c: usize, word: &str) -> bool {
        self.month_names(c)
            && GRAINS.iter().any(|(g, _)| *g == word)
            && self.table.columns.iter().any(|c| c.kind == Kind::Time)
    }

    /// The "yes" of a column of yes and no, as the table writes it.
    pub(super) fn yes_value(&self, c: usize) -> Option<String> {
        self.yes.get(c).cloned().flatten()
    }

    /// The "no" of a column of yes and no, as the table writes it.
    fn no_value(&self, c: usize) -> Option<String> {
        self.no.get(c).cloned().flatten()
    }

    /// Whether a text column holds months' names (Apr, May …).
    fn month_names(&self, c: usize) -> bool {
        self.month_named.get(c) == Some(&true)
    }

    /// The number column named as months, 1 to 12, holding `month`.
    fn month_numbers(&self, month: usize) -> Option<usize> {
        self.month_numbers
            .iter()
            .position(|bits| month < 16 && bits & (1 << month) != 0)
    }

    /// A word of letters and digits inside a column's name ("200m" of
    /// `run200m`, "800 m" of `run800m`), the one column that holds it.
    fn holding(&self, span: &[Token]) -> Option<Meaning> {
        let word = match span {
            [one] => one.word.clone(),
            [n, unit]
                if n.word.chars().all(|c| c.is_ascii_digit())
                    && unit.word.chars().count() <= 2
                    && unit.word.chars().all(char::is_alphabetic) =>
            {
                format!("{}{}", n.word, unit.word)
            }
            _ => return None,
        };
        let mixed = word.chars().count() >= 3
            && word.chars().any(|c| c.is_ascii_digit())
            && word.chars().any(char::is_alphabetic);
        let mut holding = self
            .names
            .iter()
            .enumerate()
            .filter(|(_, n)| mixed && n.concat().contains(&word));
        match (holding.next(), holding.next()) {
            (Some((c, _)), None) => Some(Meaning::Column(c)),
            _ => None,
        }
    }

    /// What the table's own aliases (its `file_context`) say `words` are.
    fn aliased(&self, aliases: &Aliases, words: &[String]) -> Option<Meaning> {
        let (_, target) = aliases.entries.iter().find(|(alias, target)| {
            *alias == words
                && match target {
                    Target::Column(name) | Target::Value(name, _) => {
                        self.column_named(name).is_some()
                    }
                }
        })?;
        match target {
            Target::Column(name) => self.column_named(name).map(Meaning::Column),
            Target::Value(column, value) => {
                let c = self.column_named(column)?;
                let written = self
                    .values
                    .get(&key_of(value))
                    .filter(|(at, _)| *at == c)
                    .map_or(value.clone(), |(_, v)| v.clone());
                Some(Meaning::Value(c, written))
            }
        }
    }

    /// A column's name as the table writes it ("yrs.service"), or its
    /// whole name, its words in any order ("total cost" of `Cost Total
    /// $`): `Some` when the words are decided, a column or nothing ("vs"
    /// compares, even of a table with a column `vs`; a grain of a table
    /// with dates names no column of month names).
    fn named_whole(&self, span: &[Token], words: &[String], key: &str) -> Option<Option<Meaning>> {
        let column = |c: usize| (!self.is_period_of_dates(c, key)).then_some(Meaning::Column(c));
        if let [one] = span {
            let written = self
                .table
                .columns
                .iter()
                .position(|c| c.name.len() > 2 && c.name.eq_ignore_ascii_case(&one.word));
            if let Some(c) = written {
                return Some(column(c));
            }
        }
        if words.len() == 1 && VERSUS.contains(&key) {
            return Some(None);
        }
        if let Some(c) = self.names.iter().position(|n| n == words) {
            return Some(column(c));
        }
        if words.len() >= 2 {
            let mut sorted = words.to_vec();
            sorted.sort();
            let mut found = self.names.iter().enumerate().filter(|(_, n)| {
                let mut n = (*n).clone();
                n.sort();
                n == sorted
            });
            if let (Some((c, _)), None) = (found.next(), found.next()) {
                return Some(Some(Meaning::Column(c)));
            }
        }
        None
    }

    /// A place as the question writes it ("Ohio", "Britain") of the
    /// column of places that holds it, as `atlas` knows it.
    fn place(&self, span: &[Token], atlas: Atlas) -> Option<Meaning> {
        let written: Vec<&str> = span.iter().map(|t| t.word.as_str()).collect();
        let region = geo::lookup(atlas, &written.join(" "))?;
        let key = match atlas {
            Atlas::UsStates => format!("us:{}", region.code2),
            Atlas::World => region.code2.clone(),
        };
        let (c, value) = self.places.get(&key)?;
        Some(Meaning::Value(*c, value.clone()))
    }

    /// A value one word names in words of its own: a category's shortening
    /// ("herbivores" of `herbi`, the one value so begun), an ordinal
    /// ("first" of `1st`), a sex ("female" of `F`), a month's name of a
    /// column of month numbers ("July" of `Month` 5–9 is 7; "may" only as
    /// "May").
    fn word_value(&self, one: &Token) -> Option<Meaning> {
        let word = one.word.as_str();
        let mut begun = self.values.iter().filter(|(key, (c, _))| {
            let n = key.chars().count();
            n >= 4
                && word.chars().count() >= n + 2
                && word.starts_with(key.as_str())
                && self.distinct.get(*c).is_some_and(|d| *d <= NAMES_FROM)
        });
        if let (Some((_, (c, value))), None) = (begun.next(), begun.next()) {
            if !is_rule_word(word) {
                return Some(Meaning::Value(*c, value.clone()));
            }
        }
        let ordinal = ORDINALS
            .iter()
            .find(|(w, _)| *w == word)
            .and_then(|(_, short)| self.values.get(*short));
        let sex = || {
            SEXES
                .iter()
                .find(|(words, _)| words.contains(&word))
                .and_then(|(_, codes)| codes.iter().find_map(|code| self.values.get(*code)))
        };
        if let Some((c, value)) = ordinal.or_else(sex) {
            return Some(Meaning::Value(*c, value.clone()));
        }
        let month = MONTHS
            .iter()
            .position(|names| names.contains(&word))
            .filter(|_| word != "may" || one.capital)?;
        let c = self.month_numbers(month + 1)?;
        Some(Meaning::Value(c, (month + 1).to_string()))
    }

    /// A measure named by a word of it: an adjective ("heavier", "oldest")
    /// or "share" of a table with a column of percentages.
    fn measure_word(&self, span: &[Token], words: &[String]) -> Option<Meaning> {
        let ([one], [word]) = (span, words) else {
            return None;
        };
        let adjective = ADJECTIVES.iter().find_map(|(adjectives, columns)| {
            let said =
                adjectives.contains(&one.word.as_str()) || adjectives.contains(&word.as_str());
            said.then(|| columns.iter().find_map(|w| self.column_for(w)))
                .flatten()
        });
        let share = || {
            PERCENTAGES
                .contains(&one.word.as_str())
                .then(|| {
                    PERCENTAGES
                        .iter()
                        .find_map(|w| self.column_containing(&name_words(w)))
                })
                .flatten()
        };
        adjective.or_else(share).map(Meaning::Column)
    }

    /// Words that name a value or a column in part: part of a value
    /// ("Premier League"; two words or more need no capital, "waiters and
    /// waitresses" of `Waiter / Waitress`), part of a column's name
    /// ("gross"; no unit like "g"), a kind of place of the one column of
    /// places ("states" of `name` holding Alabama … Wyoming), a synonym
    /// ("hp", "miles per gallon"), and last a name the words abbreviate
    /// ("home runs" → `hr`, "test score" → `testscr`).
    fn named_in_part(
        &self,
        span: &[Token],
        words: &[String],
        key: &str,
        first_capital: bool,
    ) -> Option<Meaning> {
        let several = words.iter().filter(|w| !is_stopword(w)).count() >= 2;
        if let Some((c, value)) = self.parts.get(key).filter(|_| first_capital || several) {
            return Some(Meaning::Value(*c, value.clone()));
        }
        let short = words.len() == 1 && key.chars().count() < 3;
        if let Some(c) = self.column_containing(words).filter(|_| !short) {
            return Some(Meaning::Column(c));
        }
        if let [one] = span {
            if PLACE_NOUNS.contains(&singular(&one.word).as_str()) {
                let mut places = self
                    .table
                    .columns
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.kind == Kind::Place);
                if let (Some((c, _)), None) = (places.next(), places.next()) {
                    return Some(Meaning::Column(c));
                }
            }
        }
        for group in SYNONYMS {
            if group.iter().any(|m| name_words(m) == words) {
                if let Some(c) = group
                    .iter()
                    .find_map(|m| self.column_containing(&name_words(m)))
                {
                    return Some(Meaning::Column(c));
                }
            }
        }
        let whole: Vec<&str> = span.iter().map(|t| t.word.as_str()).collect();
        self.abbreviated(&whole)
    }

    /// The one column whose name `words` abbreviate ([`abbreviates`]).
    fn abbreviated(&self, words: &[&str]) -> Option<Meaning> {
        // Two words are shortened in either order ("enrltot" of "total
        // enrollment"). A span that starts or ends with a column's whole
        // name is that column and more ("median tip" is no `time`, "meal
        // pct by county" no `mealpct`).
        let named = |w: &str| {
            self.names
                .iter()
                .any(|n| n.len() == 1 && n[0] == singular(w))
        };
        if words.len() > 1 && (named(words[0]) || words.last().is_some_and(|w| named(w))) {
            return None;
        }
        let reversed: Vec<&str> = words.iter().rev().copied().collect();
        let either = words.len() == 2;
        let mut found = self.names.iter().enumerate().filter(|(_, name)| {
            let name = name.concat();
            abbreviates(words, &name) || (either && abbreviates(&reversed, &name))
        });
        match (found.next(), found.next()) {
            (Some((c, _)), None) => Some(Meaning::Column(c)),
            _ => self
                .lettered(words)
                .or_else(|| self.qualified(words))
                .or_else(|| self.ending(words))
                .or_else(|| self.derived(words)),
        }
    }

    /// A count's one-letter column ("runs" of `r`, "hits" of `h`): a
    /// plural word, the only column of its first letter.
    fn lettered(&self, words: &[&str]) -> Option<Meaning> {
        let [word] = words else { return None };
        let plural = word.chars().count() >= 4 && singular(word) != *word && !is_rule_word(word);
        let first = word.chars().next()?.to_string();
        let mut found = self
            .names
            .iter()
            .enumerate()
            .filter(|(_, n)| n.concat() == first);
        match (found.next(), found.next()) {
            (Some((c, _)), None) if plural => Some(Meaning::Column(c)),
            _ => None,
        }
    }

    /// A word's shortening after a letter that qualifies it ("weight" of
    /// `Bwt` and `Hwt`: the table's first such column, the thing itself
    /// more often than a part of it), or before a total's shortening
    /// ("enrollment" of `enrltot`).
    fn qualified(&self, words: &[&str]) -> Option<Meaning> {
        let [word] = words else { return None };
        self.names
            .iter()
            .position(|name| {
                let name = name.concat();
                let rest: String = name.chars().skip(1).collect();
                let before_total = TOTALS
                    .iter()
                    .find_map(|t| name.strip_suffix(t).filter(|n| n.chars().count() >= 3));
                (name.chars().count() <= 6
                    && rest.chars().count() >= 2
                    && abbreviates(&[word], &rest))
                    || before_total.is_some_and(|n| abbreviates(&[word], n))
            })
            .map(Meaning::Column)
    }

    /// A word made of a one-word header ("smoking", "smokers" of `Smoke`).
    fn derived(&self, words: &[&str]) -> Option<Meaning> {
        let [word] = words else { return None };
        let mut found = self.names.iter().enumerate().filter(|(_, n)| {
            let [name] = n.as_slice() else { return false };
            let stem = name.strip_suffix('e').unwrap_or(name);
            stem.chars().count() >= 4
                && ["ing", "er", "ers"]
                    .iter()
                    .any(|end| *word == format!("{stem}{end}"))
        });
        match (found.next(), found.next()) {
            (Some((c, _)), None) => Some(Meaning::Column(c)),
            _ => None,
        }
    }

    /// A word that ends a header run together ("poverty" of
    /// `percbelowpoverty`, "college" of `percollege`), the one so ended.
    fn ending(&self, words: &[&str]) -> Option<Meaning> {
        let [word] = words else { return None };
        let one = singular(word);
        if one.chars().count() < 5 || is_rule_word(&one) {
            return None;
        }
        let mut found = self.names.iter().enumerate().filter(|(_, n)| {
            let name = n.concat();
            let ends = |w: &str| name.len() > w.len() && name.ends_with(w);
            n.len() == 1 && (ends(&one) || ends(word))
        });
        match (found.next(), found.next()) {
            (Some((c, _)), None) => Some(Meaning::Column(c)),
            _ => None,
        }
    }

    /// The column a measure's noun names: by its words, else its
    /// shortening ("weight" of `Bwt`).
    fn column_for(&self, noun: &str) -> Option<usize> {
        let words = name_words(noun);
        self.column_containing(&words).or_else(|| {
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            match self.abbreviated(&words) {
                Some(Meaning::Column(c)) => Some(c),
                _ => None,
            }
        })
    }

    /// Columns whose name words hold `words` in a row, best covered first.
    fn column_containing(&self, words: &[String]) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        for (at, name) in self.names.iter().enumerate() {
            let holds = !words.is_empty()
                && name.len() >= words.len()
                && name.windows(words.len()).any(|w| w == words);
            if holds && best.is_none_or(|(_, len)| name.len() < len) {
                best = Some((at, name.len()));
            }
        }
        best.map(|(at, _)| at)
    }
}

/// Shortenings of a total or an average a name ends with (`enrltot`).
const TOTALS: &[&str] = &["tot", "total", "sum", "avg", "mean", "cnt", "num"];

/// Whether `words` abbreviate the name `short` (its words run together,
/// lower case) as people shorten column names: the name is the words run
/// together ("urbanpop"), their initials and heads ("hr" of "home runs",
/// "testscr" of "test score", "expnstu" of "expenditure per student"), or
/// one long word's head ("temp" of "temperature") or consonants ("lg" of
/// "league"). Each word but a short linking one gives the name at least
/// its first letter, then letters of its own in order; a name of one
/// word's letters needs three letters, or consonants only after the
/// first.
pub(super) fn abbreviates(words: &[&str], short: &str) -> bool {
    let short: Vec<char> = short.chars().filter(|c| c.is_alphanumeric()).collect();
    if short.len() < 2 || words.is_empty() || words.len() > short.len() {
        return false;
    }
    let words: Vec<Vec<char>> = words.iter().map(|w| w.chars().collect()).collect();
    let text = |w: &[char]| w.iter().collect::<String>();
    // Words of the question's own grammar ("stacked bar") name no column.
    let grammar = |w: &[char]| {
        let w = text(w);
        is_rule_word(&w)
            || COLOUR_BY.contains(&w.as_str())
            || CHARTS
                .iter()
                .any(|(name, _)| name.split(' ').any(|p| p == w))
    };
    if words.iter().any(|w| w.is_empty()) || words.iter().all(|w| grammar(w)) {
        return false;
    }
    let linking = |w: &[char]| linking_word(&text(w));
    // A linking word leads only a name of initials ("ab" of "at bats").
    let initials = words.len() > 1 && words.iter().map(|w| w[0]).eq(short.iter().copied());
    if words.last().is_some_and(|w| linking(w)) {
        return false;
    }
    if linking(&words[0]) {
        return initials;
    }
    // One word that is the name whole names it alone ("districts for
    // each county" is no `district`).
    if words.len() > 1 && words.iter().any(|w| w.starts_with(&short)) {
        return false;
    }
    if let [word] = words.as_slice() {
        // Three letters head a long word only ("mag" of "magnitude").
        let head = (short.len() >= 4 || (short.len() == 3 && word.len() >= 6))
            && word.len() >= short.len()
            && word.starts_with(&short);
        // An agent noun ("workers", "players") names the rows, never a
        // header's consonants.
        let agent = text(word).ends_with("ers") || text(word).ends_with("ors");
        let consonants = short.iter().skip(1).all(|c| !VOWELS.contains(c))
            && word.len() >= short.len() + 2
            && !agent
            && pieces(&words, &short);
        return head || consonants || head_then_consonants(word, &short);
    }
    pieces(&words, &short)
}

const VOWELS: [char; 5] = ['a', 'e', 'i', 'o', 'u'];

/// A short word of the question's grammar ("of", "per", "the") that a
/// shortened header skips; "group" or "since" give their letters
/// ("agegp" of "age group").
fn linking_word(word: &str) -> bool {
    is_stopword(word) && word.chars().count() <= 4
}

/// A long word's head, then consonants of its rest in order ("bathrms" of
/// "bathrooms"): five letters or more, two consonants at least.
fn head_then_consonants(word: &[char], short: &[char]) -> bool {
    if short.len() < 4 || word.len() < short.len() + 2 {
        return false;
    }
    let head = word.iter().zip(short).take_while(|(a, b)| a == b).count();
    // Four letters need a head of three ("dilg" of "diligence").
    let least = if short.len() == 4 { 3 } else { 2 };
    (least..=head.min(short.len() - 1)).any(|k| {
        let rest = &short[k..];
        let mut in_word = k;
        rest.iter().all(|c| {
            if VOWELS.contains(c) {
                return false;
            }
            match word[in_word..].iter().position(|w| w == c) {
                Some(p) => {
                    in_word += p + 1;
                    true
                }
                None => false,
            }
        })
    })
}

/// Whether `short` splits into one piece per word, in order, each the
/// word's first letter and then letters of the word in order (a linking
/// word may give none).
fn pieces(words: &[Vec<char>], short: &[char]) -> bool {
    let is_linking = |w: &Vec<char>| linking_word(&w.iter().collect::<String>());
    // Across a linking word each word gives two letters or more
    // ("expnstu" of "expenditure per student"; "passengers per class" is
    // no `pclass`).
    let least = if words.iter().any(is_linking) { 2 } else { 1 };
    // ends[k]: the lengths of `short` the first k words can give.
    let mut ends = vec![false; short.len() + 1];
    ends[0] = true;
    for word in words {
        let linking = is_linking(word);
        let mut next = vec![false; short.len() + 1];
        for from in (0..=short.len()).filter(|&f| ends[f]) {
            if linking {
                next[from] = true;
            }
            if short.get(from) != word.first() {
                continue;
            }
            // The word's head ("stu" of "student")...
            let head = word
                .iter()
                .zip(&short[from..])
                .take_while(|(a, b)| a == b)
                .count();
            for k in least..=head {
                next[from + k] = true;
            }
            // ...or its first letter and consonants of it in order ("scr"
            // of "score", "wt" of "weight").
            let mut at = from + 1;
            let mut in_word = 1;
            while at < short.len() && !VOWELS.contains(&short[at]) {
                match word[in_word..].iter().position(|c| *c == short[at]) {
                    Some(k) => {
                        in_word += k + 1;
                        at += 1;
                        next[at] = at - from >= least;
                    }
                    None => break,
                }
            }
        }
        ends = next;
    }
    ends[short.len()]
}

/// The question's tokens, which of them name something, and what.
pub(super) struct Reader<'s, 'a> {
    pub(super) schema: &'s Schema<'a>,
    pub(super) toks: Vec<Token>,
    /// Tokens a name took.
    pub(super) used: Vec<bool>,
    /// The names, in the question's order once matched.
    pub(super) mentions: Vec<Mention>,
}

impl<'s, 'a> Reader<'s, 'a> {
    pub(super) fn new(schema: &'s Schema<'a>, question: &str) -> Reader<'s, 'a> {
        let toks = tokens(question);
        let n = toks.len().min(MAX_TOKENS);
        Reader {
            schema,
            used: vec![false; n],
            toks,
            mentions: Vec::new(),
        }
    }
}

impl Reader<'_, '_> {
    pub(super) fn word(&self, at: usize) -> &str {
        self.toks.get(at).map_or("", |t| t.word.as_str())
    }

    /// Whether the words of `phrase` stand at `at`.
    pub(super) fn stands_at(&self, at: usize, phrase: &str) -> bool {
        phrase
            .split(' ')
            .enumerate()
            .all(|(k, w)| self.toks.get(at + k).is_some_and(|t| t.word == w))
    }

    /// Where the words of `phrase` stand in the question, first.
    pub(super) fn find(&self, phrase: &str) -> Option<usize> {
        (0..self.toks.len()).find(|&i| self.stands_at(i, phrase))
    }

    /// Whether the question has `phrase` in words no column or value took
    /// ("share price" names a column, so it asks for no share).
    pub(super) fn has(&self, phrase: &str) -> bool {
        let len = phrase.split(' ').count();
        (0..self.toks.len()).any(|i| {
            self.stands_at(i, phrase) && (i..i + len).all(|k| self.used.get(k) != Some(&true))
        })
    }

    /// The meaning of the words `start..end`, if they name something.
    fn meaning(&self, start: usize, end: usize, aliases: &Aliases) -> Option<Meaning> {
        let span = self.toks.get(start..end)?;
        let schema = self.schema;
        if let Some(column) = schema.holding(span) {
            return Some(column);
        }
        if span.iter().all(|t| t.number.is_some()) || self.grammar(span, start, end) {
            return None;
        }
        let words: Vec<String> = span.iter().map(|t| singular(&t.word)).collect();
        let key = words.join(" ");
        let first_capital = span.first().is_some_and(|t| t.capital);
        let single_rule = words.len() == 1
            && (is_rule_word(&span[0].word)
                || aliases.row.as_deref().is_some_and(|r| singular(r) == key));
        // 1. The table's own aliases.
        if let Some(meaning) = schema.aliased(aliases, &words) {
            return Some(meaning);
        }
        // 2. A column's name as the table writes it, or its whole name.
        if let Some(decided) = schema.named_whole(span, &words, &key) {
            return decided;
        }
        // 2a. A US state by its name where the table writes its code or
        // name ("Ohio" of `OH`), before a county of the same name.
        if first_capital && words.len() <= 2 && key.chars().count() >= 4 {
            if let Some(state) = schema.place(span, Atlas::UsStates) {
                return Some(state);
            }
        }
        // 3. A value (names only with a capital; never a bare rule word).
        if let Some((c, value)) = schema.values.get(&key) {
            let names = schema.distinct.get(*c).is_some_and(|d| *d > NAMES_FROM);
            let short = key.chars().count() < 3 && !first_capital;
            if (first_capital || (!names && !single_rule)) && !short {
                return Some(Meaning::Value(*c, value.clone()));
            }
        }
        if let Some(value) = span
            .first()
            .filter(|_| span.len() == 1)
            .and_then(|one| schema.word_value(one))
        {
            return Some(value);
        }
        // 4. A country as the question writes it ("US", "Britain").
        if first_capital && words.len() <= 3 {
            if let Some(country) = schema.place(span, Atlas::World) {
                return Some(country);
            }
        }
        if let Some(measure) = schema.measure_word(span, &words) {
            return Some(measure);
        }
        if words.iter().all(|w| is_stopword(w)) || single_rule {
            return None;
        }
        schema.named_in_part(span, &words, &key, first_capital)
    }

    /// Words of the question's grammar, even where a column is so named:
    /// "order by", "group by" ("sleep by order" still names `order`), and
    /// how marks are coloured ("colored by league", "a different color
    /// for each clarity"; not "color by cut").
    fn grammar(&self, span: &[Token], start: usize, end: usize) -> bool {
        let next = self.toks.get(end).map(|t| t.word.as_str());
        let [one] = span else { return false };
        let word = one.word.as_str();
        let ordering = next == Some("by") && (ORDER_WORDS.contains(&word) || word == "group");
        let noun = matches!(word, "color" | "colour");
        let marks = matches!(
            self.word(start.wrapping_sub(1)),
            "a" | "different" | "one" | "own" | "separate" | "its"
        );
        let colouring =
            matches!(next, Some("by" | "for")) && COLOUR_BY.contains(&word) && (!noun || marks);
        ordering || colouring
    }

    /// Every name in the question, longest spans first, then the
    /// misspelled ones.
    pub(super) fn match_names(&mut self, aliases: &Aliases) {
        let n = self.toks.len();
        for len in (1..=MAX_SPAN.min(n)).rev() {
            for start in 0..=n - len {
                let end = start + len;
                if self
                    .used
                    .get(start..end)
                    .is_none_or(|u| u.iter().any(|u| *u))
                {
                    continue;
                }
                if let Some(meaning) = self.meaning(start, end, aliases) {
                    let meaning = self.as_yes(start, end, meaning);
                    self.used[start..end].iter_mut().for_each(|u| *u = true);
                    self.mentions.push(Mention {
                        start,
                        end,
                        meaning,
                    });
                }
            }
        }
        // Misspellings of a column's name word or of a short value.
        for at in 0..n {
            let Some(token) = self.toks.get(at) else {
                continue;
            };
            if self.used.get(at) == Some(&true)
                || token.number.is_some()
                || is_rule_word(&token.word)
            {
                continue;
            }
            let word = singular(&token.word);
            let fits = |name: &Vec<String>| {
                name.iter()
                    .any(|w| !is_rule_word(w) && (misspelled(&word, w) || same_stem(&word, w)))
            };
            // A misspelled word beside a column named in part is the rest
            // of that name ("flipper lenght").
            let beside = self.mentions.iter().position(|m| {
                (m.end == at || m.start == at + 1)
                    && matches!(m.meaning, Meaning::Column(c) if self.schema.names.get(c).is_some_and(fits))
            });
            if let Some(i) = beside {
                if let Some(m) = self.mentions.get_mut(i) {
                    m.start = m.start.min(at);
                    m.end = m.end.max(at + 1);
                }
                self.used[at] = true;
                continue;
            }
            let column = self.schema.names.iter().position(fits);
            let value = || {
                self.schema
                    .spelled
                    .iter()
                    .find(|(key, _, _)| misspelled(&word, key))
                    .map(|(_, c, v)| Meaning::Value(*c, v.clone()))
            };
            let meaning = column.map(Meaning::Column).or_else(value);
            if let Some(meaning) = meaning.map(|m| self.as_yes(at, at + 1, m)) {
                self.used[at] = true;
                self.mentions.push(Mention {
                    start: at,
                    end: at + 1,
                    meaning,
                });
            }
        }
        self.mentions.sort_by_key(|m| m.start);
        self.values_of_named_columns();
        self.merge_parts();
        self.drop_modifiers();
        self.drop_row_nouns();
    }

    /// "airco = yes", "prefarea is yes": a value written after its column
    /// is that column's, where several columns hold it.
    fn values_of_named_columns(&mut self) {
        for i in 1..self.mentions.len() {
            let (before, now) = (&self.mentions[i - 1], &self.mentions[i]);
            let (Meaning::Column(c), Meaning::Value(_, value)) = (&before.meaning, &now.meaning)
            else {
                continue;
            };
            let between: Vec<&str> = (before.end..now.start).map(|k| self.word(k)).collect();
            let linked = matches!(
                between.as_slice(),
                ["="] | ["is"] | ["=="] | ["equal", "to"] | ["is", "equal", "to"]
            );
            let holds = self.schema.table.columns.get(*c).is_some_and(|col| {
                col.cells.iter().any(|cell| {
                    crate::recommend::text(cell).is_some_and(|t| t.eq_ignore_ascii_case(value))
                })
            });
            if linked && holds {
                let (c, value) = (*c, value.clone());
                if let Some(m) = self.mentions.get_mut(i) {
                    m.meaning = Meaning::Value(c, value);
                }
            }
        }
    }

    /// "Smokers" of a column `smoker` of Yes and No, "are full time" of
    /// `Is_full_time`: the rows where it is yes.
    fn as_yes(&self, start: usize, end: usize, meaning: Meaning) -> Meaning {
        let Meaning::Column(c) = meaning else {
            return meaning;
        };
        let plural = end == start + 1
            && self
                .toks
                .get(start)
                .is_some_and(|t| singular(&t.word) != t.word && !is_rule_word(&t.word));
        let before = self.word(start.wrapping_sub(1));
        // "Houses with a driveway", "without gas hot water".
        let article = matches!(before, "a" | "an");
        let owner = if article {
            self.word(start.wrapping_sub(2))
        } else {
            before
        };
        if owner == "without" || before == "non" {
            if let Some(no) = self.schema.no_value(c) {
                return Meaning::Value(c, no);
            }
        }
        let with = (owner == "with" && self.schema.kind(c) != Some(Kind::Number))
            || (owner == "in" && article);
        // "Black workers", "blue collar workers": the column says which rows.
        let of_rows = self.toks.get(end).is_some_and(|t| {
            (singular(&t.word) != t.word || super::words::is_plural_as_is(&t.word))
                && !is_rule_word(&t.word)
                && !self
                    .schema
                    .names
                    .iter()
                    .any(|n| n.len() == 1 && n[0] == singular(&t.word))
        });
        let copula = matches!(before, "are" | "is" | "was" | "were") || with;
        // "Passengers who survived", "customers churned": what the rows did.
        let deed = end == start + 1
            && (matches!(before, "who" | "that" | "which" | "many")
                || (self.word(start).ends_with("ed")
                    && (singular(before) != before || super::words::is_plural_as_is(before))
                    && !is_rule_word(before)));
        match self
            .schema
            .yes_value(c)
            .filter(|_| plural || copula || deed || of_rows)
        {
            Some(yes) => Meaning::Value(c, yes),
            None => meaning,
        }
    }

    /// Whether the mention's words are its column's whole name.
    fn names_whole(&self, m: &Mention) -> bool {
        let Meaning::Column(c) = m.meaning else {
            return false;
        };
        let words: Vec<String> = (m.start..m.end).map(|k| singular(self.word(k))).collect();
        self.schema.names.get(c) == Some(&words)
            || self.schema.table.columns.get(c).is_some_and(|col| {
                m.end == m.start + 1 && col.name.eq_ignore_ascii_case(self.word(m.start))
            })
    }

    /// "Students" of a table with `Student_ID`: the plural of the thing an
    /// identifier numbers is the rows, not the identifier.
    fn drop_row_nouns(&mut self) {
        let schema = self.schema;
        let toks = &self.toks;
        self.mentions.retain(|m| {
            let Meaning::Column(c) = m.meaning else {
                return true;
            };
            let Some(token) = toks.get(m.start).filter(|_| m.end == m.start + 1) else {
                return true;
            };
            let plural = singular(&token.word) != token.word;
            let identifier = schema
                .table
                .columns
                .get(c)
                .is_some_and(super::measure::is_identifier);
            let partial = schema.names.get(c).is_some_and(|n| n.len() > 1);
            !(plural && identifier && partial)
        });
    }

    /// "Employee name": a column named in part (`Employee_ID`) just before
    /// one named whole (`Name`) only says whose it is.
    fn drop_modifiers(&mut self) {
        let drop: Vec<usize> = (0..self.mentions.len().saturating_sub(1))
            .filter(|&i| {
                let (a, b) = (&self.mentions[i], &self.mentions[i + 1]);
                let part_of_name = match a.meaning {
                    Meaning::Column(c) => self.schema.names.get(c).is_some_and(|name| {
                        (a.start..a.end).all(|k| name.contains(&singular(self.word(k))))
                    }),
                    Meaning::Value(..) => false,
                };
                part_of_name
                    && matches!(b.meaning, Meaning::Column(_))
                    && b.start == a.end
                    && a.meaning != b.meaning
                    && !self.names_whole(a)
                    && self.names_whole(b)
            })
            .collect();
        for i in drop.into_iter().rev() {
            self.mentions.remove(i);
        }
    }

    /// "change in nonfarm payrolls": a column named whole (`nonfarm`) whose
    /// words are all in another's (`nonfarm_change`), named in part beside
    /// it, is part of that other's name.
    fn merge_parts(&mut self) {
        // Two columns each named whole are two ("co2 and adjusted co2").
        let columns: Vec<(usize, usize, usize)> = self
            .mentions
            .iter()
            .filter_map(|m| match m.meaning {
                Meaning::Column(c) if !self.names_whole(m) => Some((c, m.start, m.end)),
                Meaning::Column(_) | Meaning::Value(..) => None,
            })
            .collect();
        let mut drop: Vec<usize> = Vec::new();
        for &(a, a_start, a_end) in &columns {
            for &(b, b_start, b_end) in &columns {
                let (Some(small), Some(large)) =
                    (self.schema.names.get(a), self.schema.names.get(b))
                else {
                    continue;
                };
                let near = a_start.max(b_start) <= a_end.min(b_end) + 2;
                if a != b
                    && near
                    && small.len() < large.len()
                    && small.iter().all(|w| large.contains(w))
                {
                    drop.push(a);
                }
            }
        }
        self.mentions
            .retain(|m| !matches!(m.meaning, Meaning::Column(c) if drop.contains(&c)));
    }

    /// The number column mentioned at `start..end` of the question, if any.
    pub(super) fn number_column_in(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        self.mentions
            .iter()
            .enumerate()
            .find_map(|(i, m)| match m.meaning {
                Meaning::Column(c)
                    if m.start >= start
                        && m.end <= end
                        && self.schema.kind(c) == Some(Kind::Number) =>
                {
                    Some((i, c))
                }
                _ => None,
            })
    }
}

#[cfg(test)]
mod abbreviation_tests {
    use super::abbreviates;

    #[test]
    fn names_people_shorten_are_read() {
        for (words, name) in [
            (&["home", "runs"][..], "hr"),
            (&["stolen", "bases"], "sb"),
            (&["test", "score"], "testscr"),
            (&["student", "teacher", "ratio"], "str"),
            (&["expenditure", "per", "student"], "expnstu"),
            (&["urban", "population"], "urbanpop"),
            (&["urbanpop"], "urbanpop"),
            (&["temperature"], "temp"),
            (&["league"], "lg"),
            (&["body", "weight"], "bwt"),
            (&["average", "income"], "avginc"),
            (&["meal", "percentage"], "mealpct"),
            (&["reading", "score"], "readscr"),
            (&["years", "since", "phd"], "yrssincephd"),
            (&["at", "bats"], "ab"),
            (&["enrollment", "total"], "enrltot"),
            (&["bathrooms"], "bathrms"),
        ] {
            assert!(abbreviates(words, name), "{words:?} {name}");
        }
        for (words, name) in [
            (&["districts", "for", "each", "county"][..], "distcod"),
            (&["county"], "distcod"),
            (&["sort"], "so"),
            (&["delay"], "day"),
            (&["average"], "age"),
            (&["districts"], "distcod"),
            (&["districts", "for", "each", "county"], "district"),
            (&["disease", "over", "time"], "date"),
            (&["stacked", "bar"], "sb"),
            (&["each", "body", "weight"], "bwt"),
        ] {
            assert!(!abbreviates(words, name), "{words:?} {name}");
        }
    }
}
