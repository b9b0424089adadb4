//! JSON text read without serde: a pull [`Reader`] and, built from it, a
//! lean tree ([`Value`]) that the model reads `visualization_data` from.
//!
//! Same acceptance, errors, numbers and key order as the serde_json
//! `Value` it replaces (whose deserializer, B-tree map and number writer
//! were about 30 KB of the WebAssembly engine): objects keep their keys
//! sorted, and a repeated key's last value wins.

pub(crate) mod number;
mod reader;

pub use number::Number;
pub use reader::{ErrorCode, JsonError, Reader, Token};

/// A JSON value; objects are [`Object`]s.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Object),
}

impl Value {
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(n.as_f64()),
            _ => None,
        }
    }

    /// `self[key]` of an object; `None` for anything else.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object().and_then(|object| object.get(key))
    }

    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(object) => Some(object),
            _ => None,
        }
    }
}

/// An object's entries, sorted by key, each key once: what serde_json's
/// `Map` (a `BTreeMap`) holds, in a plain vector.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object {
    entries: Vec<(String, Value)>,
}

impl Object {
    pub const fn new() -> Self {
        Object {
            entries: Vec::new(),
        }
    }

    /// Entries in the order they came: sorted, the last of a repeated key kept.
    pub fn from_entries(mut entries: Vec<(String, Value)>) -> Self {
        if entries.windows(2).any(|pair| pair[0].0 >= pair[1].0) {
            entries = sorted_last_wins(entries);
        }
        Object { entries }
    }

    /// Entries already sorted by key, each key once: kept as given, so
    /// [`Object::from_entries`] stays the parser's alone (and inlined there).
    pub(crate) fn from_sorted(entries: Vec<(String, Value)>) -> Self {
        debug_assert!(entries.windows(2).all(|pair| pair[0].0 < pair[1].0));
        Object { entries }
    }

    /// Not inlined: every field read calls it, and each inlined copy of
    /// the binary search is its own hundred bytes of the engine.
    #[inline(never)]
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.position(key)
            .ok()
            .and_then(|at| self.entries.get(at))
            .map(|(_, value)| value)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_ok()
    }

    /// The value of `key`, taken out (null left in its place).
    pub fn take(&mut self, key: &str) -> Option<Value> {
        let at = self.position(key).ok()?;
        self.entries
            .get_mut(at)
            .map(|(_, value)| std::mem::take(value))
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.entries.iter().map(|(key, _)| key)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.entries.iter().map(|(key, value)| (key, value))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn position(&self, key: &str) -> Result<usize, usize> {
        self.entries
            .binary_search_by(|(probe, _)| probe.as_str().cmp(key))
    }
}

/// Sorted by key (a heap sort of the indices by key, then index: no
/// standard sort is instantiated for it), keeping the last of each key.
fn sorted_last_wins(mut entries: Vec<(String, Value)>) -> Vec<(String, Value)> {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    let key = |i: usize| entries.get(i).map(|(key, _)| key.as_str());
    crate::order::heap_sort(&mut order, |a, b| (key(a), a) < (key(b), b));
    let mut sorted = Vec::with_capacity(entries.len());
    for (at, &i) in order.iter().enumerate() {
        let next = order.get(at + 1).and_then(|&j| entries.get(j));
        let repeated = next.map(|(key, _)| key) == entries.get(i).map(|(key, _)| key);
        if let (false, Some(entry)) = (repeated, entries.get_mut(i)) {
            sorted.push(std::mem::take(entry));
        }
    }
    sorted
}

/// Reads a whole document into a tree.
pub fn parse(text: &str) -> Result<Value, JsonError> {
    let mut reader = Reader::new(text);
    let value = read_value(&mut reader)?;
    reader.finish()?;
    Ok(value)
}

/// Reads the one value at byte `index` of a document already checked
/// whole (an offset from [`Reader::offset`]) into a tree.
pub fn parse_at(text: &str, index: usize) -> Result<Value, JsonError> {
    read_value(&mut Reader::at(text, index))
}

/// Recursion is bounded by the reader's depth limit.
fn read_value(reader: &mut Reader<'_>) -> Result<Value, JsonError> {
    Ok(match reader.value()? {
        Token::Null => Value::Null,
        Token::Bool(b) => Value::Bool(b),
        Token::Number(n) => Value::Number(n),
        Token::String(text) => Value::String(text.into_owned()),
        Token::Array => {
            let mut items = Vec::new();
            while reader.has_element(items.is_empty())? {
                items.push(read_value(reader)?);
            }
            Value::Array(items)
        }
        Token::Object => {
            let mut entries = Vec::new();
            while let Some(key) = reader.has_key(entries.is_empty())? {
                let value = read_value(reader)?;
                // Most objects are points of two keys (a vector's first
                // growth makes room for four); an empty one takes nothing.
                if entries.capacity() == 0 {
                    entries.reserve_exact(2);
                }
                entries.push((key.into_owned(), value));
            }
            Value::Object(Object::from_entries(entries))
        }
    })
}

/// The number that `text` is as a whole JSON document, if it is one.
pub(crate) fn parse_number(text: &str) -> Result<Option<Number>, JsonError> {
    match parse(text)? {
        Value::Number(n) => Ok(Some(n)),
        _ => Ok(None),
    }
}
