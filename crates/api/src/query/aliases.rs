//! Words a table's owner gives for its columns and values: a built-in
//! dataset's alias list (`datasets.json`: company names for tickers, …),
//! and a file's `file_context` ("rev means revenue", "Big Apple =
//! city:New York").

use super::words::{name_words, tokens};

/// What an alias stands for, by name (resolved against the table when the
/// question is read, so a renamed column simply stops matching).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Column(String),
    Value(String, String),
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Aliases {
    /// The alias's words (lower case, singular), and its target.
    pub entries: Vec<(Vec<String>, Target)>,
    /// What one row is ("cars", "days"): titles count rows by it.
    pub row: Option<String>,
    /// Words that say which table this is (its title, its keywords, a
    /// file's name): understood, never reported as ignored.
    pub known: Vec<String>,
}

/// Words of a table's description kept at most.
const MAX_KNOWN: usize = 200;

/// Alias entries one list may hold at most.
const MAX_ALIASES: usize = 200;

fn target(text: &str) -> Target {
    match text.split_once(['=', ':']) {
        Some((column, value)) => Target::Value(column.trim().to_owned(), value.trim().to_owned()),
        None => Target::Column(text.trim().to_owned()),
    }
}

impl Aliases {
    /// From `alias → "column"` or `alias → "column=value"` pairs.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Aliases {
        let mut out = Aliases::default();
        for (alias, to) in pairs.into_iter().take(MAX_ALIASES) {
            let words = name_words(alias);
            if !words.is_empty() && words.len() <= super::words::MAX_SPAN {
                out.entries.push((words, target(to)));
            }
        }
        out
    }

    /// The aliases a file's context gives: sentences "X means Y" or
    /// "X = Y", where one side names a column (or is "column:value") and
    /// the other is a word for it.
    pub fn from_context(context: &str) -> Aliases {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for sentence in context.split(['.', ';', '\n']).take(MAX_ALIASES) {
            let split = sentence
                .split_once(" means ")
                .or_else(|| sentence.split_once(" = "));
            // Either side may be the column ("rev means revenue", "revenue
            // = rev"): both are kept, and only one names a column of the
            // table. A side "column:value" is the value.
            if let Some((a, b)) = split {
                let (a, b) = (a.trim(), b.trim());
                let short = |t: &str| !t.is_empty() && tokens(t).len() <= super::words::MAX_SPAN;
                if !short(a) || !short(b) {
                    continue;
                }
                match (a.contains(':'), b.contains(':')) {
                    (false, true) => pairs.push((a.to_owned(), b.to_owned())),
                    (true, false) => pairs.push((b.to_owned(), a.to_owned())),
                    _ => {
                        pairs.push((a.to_owned(), b.to_owned()));
                        pairs.push((b.to_owned(), a.to_owned()));
                    }
                }
            }
        }
        let mut out = Aliases::from_pairs(pairs.iter().map(|(a, b)| (a.as_str(), b.as_str())));
        out.entries.truncate(MAX_ALIASES);
        out
    }

    /// With the words of `text` known (a title, keywords, a file's name).
    pub fn knowing(mut self, text: &str) -> Aliases {
        for token in tokens(text) {
            if self.known.len() < MAX_KNOWN && !self.known.contains(&token.word) {
                self.known.push(token.word);
            }
        }
        self
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// A context of 10,000 sentences keeps at most its bound of aliases,
    /// and a sentence longer than a name is no alias.
    #[test]
    fn a_context_keeps_at_most_its_bound() {
        let long = "rev means revenue. ".repeat(10_000);
        assert!(Aliases::from_context(&long).entries.len() <= MAX_ALIASES);
        let wordy = "a b c d e f g means revenue";
        assert!(Aliases::from_context(wordy).entries.is_empty());
        let both = Aliases::from_context("rev means revenue; Big Apple = city:New York");
        assert_eq!(both.entries.len(), 3);
        assert!(both.entries.contains(&(
            vec!["big".into(), "apple".into()],
            Target::Value("city".into(), "New York".into())
        )));
        let known = Aliases::default().knowing(&"word ".repeat(1_000));
        assert_eq!(known.known, ["word"]);
    }
}
