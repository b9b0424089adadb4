//! A question read against a table's schema and values into a [`Plan`]:
//! columns named outright, in part, by a synonym or an alias, misspelled,
//! or through one of their values; then the filters, the aggregation, the
//! ranking, the tasks and the chart word around them. Linear in the
//! question's tokens (at most [`MAX_TOKENS`]) times the table's columns,
//! and in the table's cells once, to index its values.

use std::collections::HashMap;

use zdr_chart::geo::{self, Atlas};

use super::aliases::{Aliases, Target};
use super::lexicon::{
    is_adjective, is_rule_word, is_stopword, ADJECTIVES, AGGREGATES, CHARTS, COMPARES,
    CORRELATIONS, CUMULATIVES, DISTRIBUTIONS, GRAINS, HEADLINES, RANKS, SHARES, SYNONYMS, TRENDS,
};
use super::plan::{format_number, Aggregate, Filter, Plan, Rank, Task, Test};
use super::words::{misspelled, name_words, singular, tokens, Token, MAX_SPAN, MAX_TOKENS};
use crate::table::{Cell, Kind, Table};

/// Distinct values of one column indexed at most.
const MAX_INDEXED: usize = 5_000;
/// A column with more distinct values than this holds names (titles,
/// people): its values match only where the question writes them with a
/// capital, so that "up" is no film.
const NAMES_FROM: usize = 300;
/// A number column with at most this many distinct values can group
/// ("by cylinders").
const MAX_NUMBER_GROUPS: usize = 30;

#[derive(Debug, Clone, PartialEq)]
enum Meaning {
    Column(usize),
    Value(usize, String),
}

#[derive(Debug, Clone)]
struct Mention {
    start: usize,
    end: usize,
    meaning: Meaning,
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
struct Schema<'a> {
    table: &'a Table,
    /// Each column's name words.
    names: Vec<Vec<String>>,
    /// Value key → (column, the value as the table writes it).
    values: HashMap<String, (usize, String)>,
    /// Distinct values per column (up to [`MAX_INDEXED`] + 1).
    distinct: Vec<usize>,
    /// Country or state code → (column, value) for place columns.
    places: HashMap<String, (usize, String)>,
    /// Part of a value's words ("premier league") → (column, value): of
    /// the values it is part of, the one of most rows.
    parts: HashMap<String, (usize, String)>,
    /// One-word values of columns of few values, in table order, that a
    /// misspelling may name (at most [`MAX_SPELLED`]).
    spelled: Vec<(String, usize, String)>,
}

/// Values a misspelled word is compared with at most.
const MAX_SPELLED: usize = 2_000;

impl<'a> Schema<'a> {
    fn new(table: &'a Table) -> Schema<'a> {
        let names = table.columns.iter().map(|c| name_words(&c.name)).collect();
        let mut values = HashMap::new();
        let mut places = HashMap::new();
        let mut distinct = Vec::new();
        let mut parts: HashMap<String, (usize, String, usize)> = HashMap::new();
        let mut spelled = Vec::new();
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
            if seen.len() <= NAMES_FROM {
                for value in &order {
                    let key = key_of(value);
                    if !key.contains(' ') && spelled.len() < MAX_SPELLED {
                        spelled.push((key, at, (*value).to_owned()));
                    }
                }
                for value in &order {
                    let count = rows.get(value).copied().unwrap_or(0);
                    let words: Vec<String> =
                        tokens(value).iter().map(|t| singular(&t.word)).collect();
                    for len in 1..words.len().min(MAX_SPAN + 1) {
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
        }
    }

    fn kind(&self, column: usize) -> Option<Kind> {
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

struct Reader<'s, 'a> {
    schema: &'s Schema<'a>,
    toks: Vec<Token>,
    used: Vec<bool>,
    mentions: Vec<Mention>,
}

impl Reader<'_, '_> {
    fn word(&self, at: usize) -> &str {
        self.toks.get(at).map_or("", |t| t.word.as_str())
    }

    /// Where the words of `phrase` stand in the question, first.
    fn find(&self, phrase: &str) -> Option<usize> {
        let words: Vec<&str> = phrase.split(' ').collect();
        (0..self.toks.len()).find(|&i| {
            words
                .iter()
                .enumerate()
                .all(|(k, w)| self.toks.get(i + k).is_some_and(|t| t.word == *w))
        })
    }

    /// Whether the question has `phrase` in words no column or value took
    /// ("share price" names a column, so it asks for no share).
    fn has(&self, phrase: &str) -> bool {
        let len = phrase.split(' ').count();
        let words: Vec<&str> = phrase.split(' ').collect();
        (0..self.toks.len()).any(|i| {
            words
                .iter()
                .enumerate()
                .all(|(k, w)| self.toks.get(i + k).is_some_and(|t| t.word == *w))
                && (i..i + len).all(|k| self.used.get(k) != Some(&true))
        })
    }

    /// The meaning of the words `start..end`, if they name something.
    fn meaning(&self, start: usize, end: usize, aliases: &Aliases) -> Option<Meaning> {
        let span = self.toks.get(start..end)?;
        if span.iter().all(|t| t.number.is_some()) {
            return None;
        }
        let words: Vec<String> = span.iter().map(|t| singular(&t.word)).collect();
        let key = words.join(" ");
        let schema = self.schema;
        let first_capital = span.first().is_some_and(|t| t.capital);
        let single_rule = words.len() == 1
            && (is_rule_word(&span[0].word)
                || aliases.row.as_deref().is_some_and(|r| singular(r) == key));
        // 1. The table's own aliases.
        for (alias, target) in &aliases.entries {
            if *alias == words {
                match target {
                    Target::Column(name) => {
                        if let Some(c) = schema.column_named(name) {
                            return Some(Meaning::Column(c));
                        }
                    }
                    Target::Value(column, value) => {
                        if let Some(c) = schema.column_named(column) {
                            let written = schema
                                .values
                                .get(&key_of(value))
                                .filter(|(at, _)| *at == c)
                                .map_or(value.clone(), |(_, v)| v.clone());
                            return Some(Meaning::Value(c, written));
                        }
                    }
                }
            }
        }
        // 2. A column's whole name.
        if let Some(c) = schema.names.iter().position(|n| *n == words) {
            return Some(Meaning::Column(c));
        }
        // 3. A value (names only with a capital; never a bare rule word).
        if let Some((c, value)) = schema.values.get(&key) {
            let names = schema.distinct.get(*c).is_some_and(|d| *d > NAMES_FROM);
            let short = key.chars().count() < 3 && !first_capital;
            if (first_capital || (!names && !single_rule)) && !short {
                return Some(Meaning::Value(*c, value.clone()));
            }
        }
        // 4. A country as the question writes it ("US", "Britain").
        if first_capital && words.len() <= 3 {
            let written: Vec<&str> = span.iter().map(|t| t.word.as_str()).collect();
            if let Some(region) = geo::lookup(Atlas::World, &written.join(" ")) {
                if let Some((c, value)) = schema.places.get(&region.code2) {
                    return Some(Meaning::Value(*c, value.clone()));
                }
            }
        }
        // 4a. An adjective of a measure ("heavier", "oldest", "paid").
        if let [word] = words.as_slice() {
            for (adjectives, columns) in ADJECTIVES {
                if adjectives.contains(&span[0].word.as_str())
                    || adjectives.contains(&word.as_str())
                {
                    if let Some(c) = columns
                        .iter()
                        .find_map(|w| schema.column_containing(&name_words(w)))
                    {
                        return Some(Meaning::Column(c));
                    }
                }
            }
        }
        if words.iter().all(|w| is_stopword(w)) || single_rule {
            return None;
        }
        // 4b. Part of a value ("Premier League", "Bundesliga").
        if let Some((c, value)) = schema.parts.get(&key).filter(|_| first_capital) {
            return Some(Meaning::Value(*c, value.clone()));
        }
        // 5. Part of a column's name ("gross", "budget"; no unit like "g").
        let short = words.len() == 1 && key.chars().count() < 3;
        if let Some(c) = schema.column_containing(&words).filter(|_| !short) {
            return Some(Meaning::Column(c));
        }
        // 6. A synonym of a column's name ("hp", "miles per gallon").
        for group in SYNONYMS {
            if group.iter().any(|m| name_words(m) == words) {
                for member in group.iter() {
                    if let Some(c) = schema.column_containing(&name_words(member)) {
                        return Some(Meaning::Column(c));
                    }
                }
            }
        }
        None
    }

    fn match_names(&mut self, aliases: &Aliases) {
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
                    .any(|w| !is_rule_word(w) && misspelled(&word, w))
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
            if let Some(meaning) = meaning {
                self.used[at] = true;
                self.mentions.push(Mention {
                    start: at,
                    end: at + 1,
                    meaning,
                });
            }
        }
        self.mentions.sort_by_key(|m| m.start);
        self.merge_parts();
    }

    /// "change in nonfarm payrolls": a column named whole (`nonfarm`) whose
    /// words are all in another's (`nonfarm_change`), named in part beside
    /// it, is part of that other's name.
    fn merge_parts(&mut self) {
        let columns: Vec<(usize, usize, usize)> = self
            .mentions
            .iter()
            .filter_map(|m| match m.meaning {
                Meaning::Column(c) => Some((c, m.start, m.end)),
                Meaning::Value(..) => None,
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
    fn number_column_in(&self, start: usize, end: usize) -> Option<(usize, usize)> {
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

fn year_like(n: f64) -> bool {
    n.fract() == 0.0 && (1000.0..=2999.0).contains(&n)
}

/// Reads `question` against `table`.
pub fn understand(question: &str, table: &Table, aliases: &Aliases) -> Plan {
    let schema = Schema::new(table);
    let toks = tokens(question);
    let n = toks.len().min(MAX_TOKENS);
    let mut r = Reader {
        schema: &schema,
        used: vec![false; n],
        toks,
        mentions: Vec::new(),
    };
    r.match_names(aliases);
    let mut plan = Plan::default();
    let time_column = super::measure::date_column(table);
    // Tokens the rules below have read (numbers of a filter or a rank).
    let mut read = vec![false; n];
    // Mentions a filter took (their column is filtered, not shown).
    let mut taken: Vec<usize> = Vec::new();

    // The chart word, longest first.
    for &(phrase, kind) in CHARTS {
        if let Some(at) = r.find(phrase) {
            // "table" is a chart word only as "a table", "as table", "in a table".
            if phrase == "table"
                && !matches!(r.word(at.wrapping_sub(1)), "a" | "as" | "in" | "into")
            {
                continue;
            }
            if phrase == "map" && r.used.get(at) == Some(&true) {
                continue;
            }
            plan.chart = Some((kind, phrase));
            break;
        }
    }

    // Ranking: "top 5", "5 highest", "the highest", "bottom 3".
    let mut ranked_period = false;
    for at in 0..n {
        let word = r.word(at).to_owned();
        if let Some((_, descending)) = RANKS.iter().find(|(w, _)| *w == word) {
            // "heaviest" names its measure and ranks by it.
            if r.used.get(at) == Some(&true) && !is_adjective(&word) {
                continue;
            }
            let after = r.toks.get(at + 1).and_then(|t| t.number);
            let before = at
                .checked_sub(1)
                .and_then(|b| r.toks.get(b))
                .and_then(|t| t.number);
            let limit = match (after, before) {
                (Some(n), _) => {
                    read[at + 1] = true;
                    Some(n)
                }
                (None, Some(n)) => {
                    read[at - 1] = true;
                    Some(n)
                }
                _ => None,
            };
            // "highest temperature by month" is a maximum per month.
            let over_time = TRENDS.iter().any(|t| r.has(t))
                || GRAINS
                    .iter()
                    .any(|(g, _)| r.has(&format!("by {g}")) || r.has(&format!("per {g}")));
            if limit.is_none()
                && over_time
                && matches!(word.as_str(), "highest" | "lowest" | "most" | "least")
            {
                plan.aggregate = Some(if *descending {
                    Aggregate::Max
                } else {
                    Aggregate::Min
                });
                continue;
            }
            plan.rank = Some(Rank {
                limit: limit
                    .filter(|n| n.fract() == 0.0 && *n >= 1.0 && *n <= 1000.0)
                    .map(|n| n as usize),
                descending: *descending,
            });
            plan.add(Task::Rank);
            // "the wettest month", "top 5 days": periods ranked.
            let next = if limit.is_some() && after.is_some() {
                at + 2
            } else {
                at + 1
            };
            if let Some((_, grain)) = GRAINS.iter().find(|(w, _)| *w == r.word(next)) {
                if let Some(t) = time_column {
                    plan.grain = Some(*grain);
                    plan.time = Some(t);
                    ranked_period = true;
                }
            }
            break;
        }
    }

    // Comparisons of numbers and dates.
    for at in 0..n {
        if read.get(at) == Some(&true) {
            continue;
        }
        let w = r.word(at).to_owned();
        let next = r.word(at + 1).to_owned();
        let (test, skip): (fn(f64, f64) -> Test, usize) = match (w.as_str(), next.as_str()) {
            (
                "more" | "greater" | "higher" | "larger" | "bigger" | "longer" | "older"
                | "heavier" | "taller" | "faster" | "richer",
                "than",
            ) => (|a, _| Test::Gt(a), 2),
            (
                "less" | "fewer" | "lower" | "smaller" | "shorter" | "younger" | "lighter"
                | "slower" | "cheaper" | "poorer",
                "than",
            ) => (|a, _| Test::Lt(a), 2),
            ("at", "least") | ("no", "less") => (|a, _| Test::Ge(a), 2),
            ("at", "most") | ("no", "more") | ("up", "to") => (|a, _| Test::Le(a), 2),
            ("over" | "above" | "exceeding" | "exceeds" | ">", _) => (|a, _| Test::Gt(a), 1),
            ("under" | "below" | "<", _) => (|a, _| Test::Lt(a), 1),
            (">=", _) => (|a, _| Test::Ge(a), 1),
            ("<=", _) => (|a, _| Test::Le(a), 1),
            ("between", _) | ("from", _) => (|a, b| Test::Between(a, b), 1),
            ("since", _) => (|a, _| Test::Ge(a), 1),
            ("after", _) => (|a, _| Test::Gt(a), 1),
            ("before", _) => (|a, _| Test::Lt(a), 1),
            ("until" | "till" | "through", _) => (|a, _| Test::Le(a), 1),
            ("in" | "during" | "of", _) => (|a, _| Test::Between(a, a), 1),
            _ => continue,
        };
        // The number within four words ("under the age of 30"); "in",
        // "of" and "during" take the next word only ("in the 2000s" is a
        // decade, read below).
        let reach = if matches!(w.as_str(), "in" | "during" | "of") {
            1
        } else {
            4
        };
        let Some(first) = (at + skip..(at + skip + reach).min(n))
            .find(|&i| r.toks.get(i).is_some_and(|t| t.number.is_some()))
        else {
            continue;
        };
        if read.get(first) == Some(&true) {
            continue;
        }
        let a = r.toks.get(first).and_then(|t| t.number).unwrap_or(0.0);
        let between = matches!(w.as_str(), "between" | "from");
        let (b, last) = if between {
            let joined = matches!(r.word(first + 1), "and" | "to" | "through");
            match r.toks.get(first + 2).and_then(|t| t.number) {
                Some(b) if joined => (b, first + 2),
                _ => continue,
            }
        } else {
            (a, first)
        };
        // "in 2005", "of 1990" only ever name a year.
        let year_only = matches!(
            w.as_str(),
            "in" | "during" | "of" | "since" | "after" | "before" | "until" | "till" | "through"
        );
        // A column between the words and the number, or just after it;
        // one just before counts unless the numbers are years and the
        // table has dates ("fertility in China between 1960 and 1990").
        let years = year_like(a) && year_like(b) && time_column.is_some();
        let column = r
            .number_column_in(at, at + 1)
            .or_else(|| r.number_column_in(at + skip, first))
            .or_else(|| r.number_column_in(last + 1, last + 3))
            .or_else(|| {
                (!years)
                    .then(|| r.number_column_in(at.saturating_sub(3), at))
                    .flatten()
            });
        let (column, mention) = match column {
            Some((i, c)) if !year_only || !year_like(a) => (c, Some(i)),
            _ if year_like(a) && year_like(b) && time_column.is_some() => {
                (time_column.unwrap_or(0), None)
            }
            _ if year_only => continue,
            _ => {
                // A lone comparison applies to the one measure named.
                let named: Vec<(usize, usize)> = r
                    .mentions
                    .iter()
                    .enumerate()
                    .filter_map(|(i, m)| match m.meaning {
                        Meaning::Column(c) if schema.kind(c) == Some(Kind::Number) => Some((i, c)),
                        _ => None,
                    })
                    .collect();
                match named.as_slice() {
                    [(i, c)] => (*c, Some(*i)),
                    _ => continue,
                }
            }
        };
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        plan.filters.push(Filter {
            column,
            test: test(lo, hi),
        });
        if let Some(i) = mention {
            taken.push(i);
        }
        for i in at..=last {
            if let Some(slot) = read.get_mut(i) {
                *slot = true;
            }
        }
    }
    // "4 cylinders", "8-cylinder": a number then a column of few numbers.
    for (i, m) in r.mentions.iter().enumerate() {
        let Meaning::Column(c) = m.meaning else {
            continue;
        };
        let before = m.start.checked_sub(1);
        let Some(value) = before.and_then(|b| r.toks.get(b)).and_then(|t| t.number) else {
            continue;
        };
        let few = schema
            .distinct
            .get(c)
            .is_some_and(|d| *d <= MAX_NUMBER_GROUPS);
        if schema.kind(c) == Some(Kind::Number)
            && few
            && before.is_some_and(|b| read.get(b) == Some(&false))
            && !taken.contains(&i)
        {
            plan.filters.push(Filter {
                column: c,
                test: Test::In(vec![format_number(value)]),
            });
            taken.push(i);
            if let Some(b) = before {
                read[b] = true;
            }
        }
    }
    // A bare year, or a decade ("the 1990s"), with a date column.
    if let Some(t) = time_column {
        for at in 0..n {
            if read.get(at) == Some(&true) || r.used.get(at) == Some(&true) {
                continue;
            }
            let word = r.word(at);
            let decade = word
                .strip_suffix('s')
                .and_then(|d| d.parse::<f64>().ok())
                .filter(|d| year_like(*d) && *d % 10.0 == 0.0);
            let test = match (decade, r.toks.get(at).and_then(|t| t.number)) {
                (Some(d), _) => Test::Between(d, d + 9.0),
                (None, Some(y)) if year_like(y) => Test::Between(y, y),
                _ => continue,
            };
            plan.filters.push(Filter { column: t, test });
            read[at] = true;
        }
    }

    // Aggregation words, the first that stands.
    if plan.aggregate.is_none() {
        plan.aggregate = AGGREGATES
            .iter()
            .filter_map(|(w, a)| {
                r.find(w)
                    .filter(|at| r.used.get(*at) != Some(&true))
                    .map(|at| (at, *a))
            })
            .min_by_key(|(at, _)| *at)
            .map(|(_, a)| a);
    }
    // Tasks.
    let grain = GRAINS
        .iter()
        .filter_map(|(w, g)| {
            let at = r.find(w)?;
            let before = r.word(at.wrapping_sub(1));
            let ok = w.ends_with("ly")
                || *w == "annual"
                || matches!(
                    before,
                    "by" | "per" | "each" | "every" | "a" | "over" | "the" | "across"
                );
            let free = r.used.get(at) != Some(&true) || r.mentions.iter().any(|m| {
                m.start <= at
                    && at < m.end
                    && matches!(m.meaning, Meaning::Column(c) if schema.kind(c) == Some(Kind::Time))
            });
            (ok && free).then_some((at, *g))
        })
        .min_by_key(|(at, _)| *at)
        .map(|(_, g)| g);
    if !ranked_period {
        plan.grain = grain;
    }
    let trend_word = TRENDS.iter().any(|t| r.has(t));
    if trend_word || grain.is_some() {
        plan.add(Task::Trend);
    }
    if DISTRIBUTIONS.iter().any(|t| r.has(t)) {
        plan.add(Task::Distribution);
    }
    if SHARES.iter().any(|t| r.has(t)) {
        plan.add(Task::Share);
    }
    plan.cumulative = CUMULATIVES.iter().any(|t| r.has(t));
    plan.headline = HEADLINES.iter().any(|t| r.has(t));
    if CORRELATIONS.iter().any(|t| r.has(t)) {
        plan.add(Task::Correlation);
    }
    let compare_word = COMPARES.iter().any(|t| r.has(t));

    // Roles of the columns named.
    let mut lead_time: Option<usize> = None;
    // Categories named after "by": groups, whatever values of them a
    // word also names ("deaths by type" where a type is "Death").
    let mut grouped: Vec<usize> = Vec::new();
    let mut valued: Vec<(usize, Vec<String>)> = Vec::new();
    for (i, m) in r.mentions.iter().enumerate() {
        let by = matches!(
            r.word(m.start.wrapping_sub(1)),
            "by" | "per" | "each" | "across" | "among" | "between"
        ) || (r.word(m.start.wrapping_sub(2)) == "for"
            && r.word(m.start.wrapping_sub(1)) == "each");
        match &m.meaning {
            Meaning::Value(c, v) => match valued.iter_mut().find(|(col, _)| col == c) {
                Some((_, values)) => {
                    if !values.contains(v) {
                        values.push(v.clone());
                    }
                }
                None => valued.push((*c, vec![v.clone()])),
            },
            Meaning::Column(_) if taken.contains(&i) => {}
            Meaning::Column(c) => match schema.kind(*c) {
                // "years with more than …", "months when …": rows listed.
                Some(Kind::Time)
                    if m.start <= 1
                        && matches!(r.word(m.end), "with" | "when" | "where" | "that" | "in") =>
                {
                    lead_time = Some(*c);
                }
                Some(Kind::Time) if !plan.filters.iter().any(|f| f.column == *c) || by => {
                    // "by site and year": the date as a second group.
                    if r.word(m.start.wrapping_sub(1)) == "and" && !plan.dimensions.is_empty() {
                        plan.time_group = true;
                    }
                    plan.time = Some(*c);
                }
                Some(Kind::Time) => {}
                Some(Kind::Number) => {
                    let few = schema
                        .distinct
                        .get(*c)
                        .is_some_and(|d| *d <= MAX_NUMBER_GROUPS);
                    if by && few && !plan.has(Task::Rank) {
                        push(&mut plan.dimensions, *c);
                    } else {
                        push(&mut plan.measures, *c);
                    }
                }
                Some(Kind::Category | Kind::Place) => {
                    if by {
                        push(&mut grouped, *c);
                    }
                    push(&mut plan.dimensions, *c)
                }
                None => {}
            },
        }
    }
    // "by disaster type": words no column has, after "by", and a table
    // of one category: that category, and the answer says so.
    // Only beside a measure named, and never in a ranking ("top region by
    // revenue": "by" names the measure there).
    let measured = !plan.measures.is_empty() || plan.aggregate == Some(Aggregate::Count);
    if plan.dimensions.is_empty() && plan.split.is_none() && measured && !plan.has(Task::Rank) {
        let categories: Vec<usize> = (0..table.columns.len())
            .filter(|c| matches!(schema.kind(*c), Some(Kind::Category | Kind::Place)))
            .collect();
        let after_by = (0..n).find(|&at| {
            matches!(r.word(at), "by" | "per")
                && r.used.get(at + 1) == Some(&false)
                && r.toks
                    .get(at + 1)
                    .is_some_and(|t| t.number.is_none() && !is_rule_word(&t.word))
        });
        if let (Some(at), [only]) = (after_by, categories.as_slice()) {
            if !valued.iter().any(|(c, _)| c == only) {
                let words: Vec<String> = (at + 1..n)
                    .take_while(|i| {
                        r.used.get(*i) == Some(&false)
                            && r.toks
                                .get(*i)
                                .is_some_and(|t| t.number.is_none() && !is_stopword(&t.word))
                    })
                    .filter_map(|i| r.toks.get(i).map(|t| t.word.clone()))
                    .collect();
                for i in at + 1..at + 1 + words.len() {
                    if let Some(u) = r.used.get_mut(i) {
                        *u = true;
                    }
                }
                plan.guessed = Some((words.join(" "), *only));
                plan.dimensions.push(*only);
            }
        }
    }
    for (column, values) in valued {
        if grouped.contains(&column) {
            continue;
        }
        // A column named and one of its values: the value is the filter.
        plan.dimensions.retain(|d| *d != column);
        if values.len() >= 2 {
            plan.split = Some(column);
            plan.add(Task::Compare);
        }
        plan.filters.push(Filter {
            column,
            test: Test::In(values),
        });
    }
    if plan.time.is_some() {
        plan.add(Task::Trend);
    }
    // "X vs Y" of two measures is a correlation.
    if compare_word
        && plan.split.is_none()
        && plan.measures.len() >= 2
        && plan.dimensions.is_empty()
    {
        plan.add(Task::Correlation);
    }
    if plan.has(Task::Trend) && plan.time.is_none() {
        plan.time = time_column;
    }

    // No measure named: a table of one measure shows it; a comparison's
    // column is what a list of rows or a rate shows.
    let counting = plan.aggregate == Some(Aggregate::Count);
    if plan.measures.is_empty() && !counting && !plan.is_empty() {
        let compared = plan.filters.iter().find(|f| {
            !matches!(f.test, Test::In(_)) && schema.kind(f.column) == Some(Kind::Number)
        });
        let numbers: Vec<usize> = (0..table.columns.len())
            .filter(|c| schema.kind(*c) == Some(Kind::Number))
            .collect();
        if let (Some(f), Some(t)) = (compared, lead_time) {
            plan.listing = plan.chart.is_none();
            plan.measures.push(f.column);
            push(&mut plan.dimensions, t);
        } else if let Some(f) = compared {
            let alone =
                plan.dimensions.is_empty() && !plan.has(Task::Trend) && plan.aggregate.is_none();
            if alone && plan.chart.is_none() {
                plan.listing = true;
                plan.measures.push(f.column);
            } else if !super::measure::is_flow(table, f.column) {
                plan.measures.push(f.column);
            }
        } else if let [only] = numbers.as_slice() {
            if !plan.filters.iter().any(|f| f.column == *only) {
                plan.measures.push(*only);
            }
        }
        plan.inferred_measure = !plan.measures.is_empty();
    }

    // What nothing read.
    for (at, token) in r.toks.iter().enumerate() {
        let w = token.word.as_str();
        if r.used.get(at) == Some(&true)
            || read.get(at) == Some(&true)
            || token.number.is_some()
            || is_rule_word(w)
            || w.chars().count() < 3
            || RANKS.iter().any(|(k, _)| *k == w)
            || CHARTS.iter().any(|(k, _)| k.split(' ').any(|p| p == w))
            || ["compare", "against", "when", "which"].contains(&w)
            || aliases.known.iter().any(|k| k == w)
            || aliases
                .row
                .as_deref()
                .is_some_and(|r| singular(r) == singular(w))
        {
            continue;
        }
        if !plan.ignored.iter().any(|i| i == w) && plan.ignored.len() < 12 {
            plan.ignored.push(token.word.clone());
        }
    }
    plan
}

fn push(list: &mut Vec<usize>, c: usize) {
    if !list.contains(&c) {
        list.push(c);
    }
}
