//! A pull reader of JSON text: the caller asks for the next value, element
//! or key, and gets scalars as they are and containers as a start token, so
//! a consumer can read straight into its own types (issue 15) or build a
//! tree ([`super::parse`]).
//!
//! It accepts exactly what serde_json's `from_str` accepts (RFC 8259, with
//! serde_json's recursion limit of 128) and reports each rejection with
//! serde_json's message at serde_json's line and column: this is a port of
//! serde_json 1.0 (`de.rs`, `read.rs`; MIT OR Apache-2.0, Copyright David
//! Tolnay and the serde_json contributors), cut down to the reading of
//! `&str` into values.

use std::borrow::Cow;

use super::number::{self, Number};

/// What was wrong with the text, in serde_json's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    EofWhileParsingList,
    EofWhileParsingObject,
    EofWhileParsingString,
    EofWhileParsingValue,
    ExpectedColon,
    ExpectedListCommaOrEnd,
    ExpectedObjectCommaOrEnd,
    ExpectedSomeIdent,
    ExpectedSomeValue,
    InvalidEscape,
    InvalidNumber,
    NumberOutOfRange,
    ControlCharacterWhileParsingString,
    KeyMustBeAString,
    LoneLeadingSurrogateInHexEscape,
    TrailingComma,
    TrailingCharacters,
    UnexpectedEndOfHexEscape,
    RecursionLimitExceeded,
}

impl ErrorCode {
    pub fn message(self) -> &'static str {
        match self {
            ErrorCode::EofWhileParsingList => "EOF while parsing a list",
            ErrorCode::EofWhileParsingObject => "EOF while parsing an object",
            ErrorCode::EofWhileParsingString => "EOF while parsing a string",
            ErrorCode::EofWhileParsingValue => "EOF while parsing a value",
            ErrorCode::ExpectedColon => "expected `:`",
            ErrorCode::ExpectedListCommaOrEnd => "expected `,` or `]`",
            ErrorCode::ExpectedObjectCommaOrEnd => "expected `,` or `}`",
            ErrorCode::ExpectedSomeIdent => "expected ident",
            ErrorCode::ExpectedSomeValue => "expected value",
            ErrorCode::InvalidEscape => "invalid escape",
            ErrorCode::InvalidNumber => "invalid number",
            ErrorCode::NumberOutOfRange => "number out of range",
            ErrorCode::ControlCharacterWhileParsingString => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            ErrorCode::KeyMustBeAString => "key must be a string",
            ErrorCode::LoneLeadingSurrogateInHexEscape => "lone leading surrogate in hex escape",
            ErrorCode::TrailingComma => "trailing comma",
            ErrorCode::TrailingCharacters => "trailing characters",
            ErrorCode::UnexpectedEndOfHexEscape => "unexpected end of hex escape",
            ErrorCode::RecursionLimitExceeded => "recursion limit exceeded",
        }
    }
}

/// `expected value at line 1 column 9`: the line counts from 1, the column
/// is in bytes from the line's start, as serde_json counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{} at line {line} column {column}", .code.message())]
pub struct JsonError {
    pub code: ErrorCode,
    pub line: usize,
    pub column: usize,
}

/// Containers deeper than this are refused (serde_json's limit): the
/// tree builder recurses once per level.
const MAX_DEPTH: u8 = 128;

/// The start of a value: a scalar, or the opening of a container whose
/// contents come from [`Reader::has_element`] or [`Reader::has_key`].
#[derive(Debug, Clone, PartialEq)]
pub enum Token<'a> {
    Null,
    Bool(bool),
    Number(Number),
    /// Borrowed from the text unless it holds escapes.
    String(Cow<'a, str>),
    Array,
    Object,
}

pub struct Reader<'a> {
    text: &'a str,
    index: usize,
    remaining_depth: u8,
    /// Where the number being read starts (after any minus sign), for the
    /// conversions that need its text.
    number_start: usize,
}

impl<'a> Reader<'a> {
    pub fn new(text: &'a str) -> Self {
        Reader {
            text,
            index: 0,
            remaining_depth: MAX_DEPTH,
            number_start: 0,
        }
    }

    /// The next value. After [`Token::Array`] call [`Reader::has_element`]
    /// until it says `false`, after [`Token::Object`] [`Reader::has_key`]
    /// until it says `None`, reading one value after each `true` or key.
    pub fn value(&mut self) -> Result<Token<'a>, JsonError> {
        let Some(peek) = self.whitespace() else {
            return Err(self.peek_error(ErrorCode::EofWhileParsingValue));
        };
        match peek {
            b'n' => self.ident(b"null", Token::Null),
            b't' => self.ident(b"true", Token::Bool(true)),
            b'f' => self.ident(b"false", Token::Bool(false)),
            b'-' => {
                self.eat();
                self.number(false).map(Token::Number)
            }
            b'0'..=b'9' => self.number(true).map(Token::Number),
            b'"' => {
                self.eat();
                self.string().map(Token::String)
            }
            b'[' | b'{' => {
                self.remaining_depth = self.remaining_depth.saturating_sub(1);
                if self.remaining_depth == 0 {
                    return Err(self.peek_error(ErrorCode::RecursionLimitExceeded));
                }
                self.eat();
                Ok(if peek == b'[' {
                    Token::Array
                } else {
                    Token::Object
                })
            }
            _ => Err(self.peek_error(ErrorCode::ExpectedSomeValue)),
        }
    }

    /// Whether the array has another element (`first`: none read yet);
    /// `false` closes it.
    pub fn has_element(&mut self, first: bool) -> Result<bool, JsonError> {
        match self.whitespace() {
            None => Err(self.peek_error(ErrorCode::EofWhileParsingList)),
            Some(b']') => {
                self.close();
                Ok(false)
            }
            Some(_) if first => Ok(true),
            Some(b',') => {
                self.eat();
                match self.whitespace() {
                    Some(b']') => Err(self.peek_error(ErrorCode::TrailingComma)),
                    Some(_) => Ok(true),
                    None => Err(self.peek_error(ErrorCode::EofWhileParsingValue)),
                }
            }
            Some(_) => Err(self.peek_error(ErrorCode::ExpectedListCommaOrEnd)),
        }
    }

    /// The object's next key, its colon read (`first`: none read yet);
    /// `None` closes it.
    pub fn has_key(&mut self, first: bool) -> Result<Option<Cow<'a, str>>, JsonError> {
        match self.whitespace() {
            None => return Err(self.peek_error(ErrorCode::EofWhileParsingObject)),
            Some(b'}') => {
                self.close();
                return Ok(None);
            }
            Some(b'"') if first => {}
            Some(_) if first => return Err(self.peek_error(ErrorCode::KeyMustBeAString)),
            Some(b',') => {
                self.eat();
                match self.whitespace() {
                    Some(b'"') => {}
                    Some(b'}') => return Err(self.peek_error(ErrorCode::TrailingComma)),
                    Some(_) => return Err(self.peek_error(ErrorCode::KeyMustBeAString)),
                    None => return Err(self.peek_error(ErrorCode::EofWhileParsingValue)),
                }
            }
            Some(_) => return Err(self.peek_error(ErrorCode::ExpectedObjectCommaOrEnd)),
        }
        self.eat();
        let key = self.string()?;
        match self.whitespace() {
            Some(b':') => {
                self.eat();
                Ok(Some(key))
            }
            Some(_) => Err(self.peek_error(ErrorCode::ExpectedColon)),
            None => Err(self.peek_error(ErrorCode::EofWhileParsingObject)),
        }
    }

    /// A reader of the value that starts at byte `index` of `text` (an
    /// offset [`Reader::offset`] gave), to read again a part of a document
    /// already checked whole.
    pub fn at(text: &'a str, index: usize) -> Self {
        Reader {
            index,
            ..Reader::new(text)
        }
    }

    /// Where the next value starts (or whitespace before it).
    pub fn offset(&self) -> usize {
        self.index
    }

    /// Reads past the next value, checking it as [`super::parse`] would,
    /// without keeping anything of it. Recursion is bounded by the depth limit.
    pub fn skip(&mut self) -> Result<(), JsonError> {
        let token = self.value()?;
        self.skip_contents(&token)
    }

    /// Reads past the contents of the array or object whose `[` or `{`
    /// gave `token` (nothing for any other token).
    pub fn skip_contents(&mut self, token: &Token<'_>) -> Result<(), JsonError> {
        match token {
            Token::Array => {
                let mut first = true;
                while self.has_element(first)? {
                    first = false;
                    self.skip()?;
                }
            }
            Token::Object => {
                let mut first = true;
                while self.has_key(first)?.is_some() {
                    first = false;
                    self.skip()?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Only whitespace may follow the one value of a document.
    pub fn finish(&mut self) -> Result<(), JsonError> {
        match self.whitespace() {
            Some(_) => Err(self.peek_error(ErrorCode::TrailingCharacters)),
            None => Ok(()),
        }
    }

    fn close(&mut self) {
        self.eat();
        self.remaining_depth = self.remaining_depth.saturating_add(1);
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.index).copied()
    }

    fn peek_or_null(&self) -> u8 {
        self.peek().unwrap_or(0)
    }

    fn eat(&mut self) {
        self.index += 1;
    }

    fn next_byte(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.index += 1;
        Some(byte)
    }

    fn whitespace(&mut self) -> Option<u8> {
        loop {
            match self.peek() {
                Some(b' ' | b'\n' | b'\t' | b'\r') => self.eat(),
                other => return other,
            }
        }
    }

    /// An error about the byte just read.
    #[cold]
    pub(crate) fn error(&self, code: ErrorCode) -> JsonError {
        self.error_at(code, self.index)
    }

    /// An error about the byte about to be read.
    #[cold]
    fn peek_error(&self, code: ErrorCode) -> JsonError {
        self.error_at(code, (self.index + 1).min(self.text.len()))
    }

    #[cold]
    fn error_at(&self, code: ErrorCode, index: usize) -> JsonError {
        let before = self.text.as_bytes().get(..index).unwrap_or_default();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1);
        let lines = before.iter().filter(|&&b| b == b'\n').count();
        JsonError {
            code,
            line: 1 + lines,
            column: index - line_start,
        }
    }

    /// `word` at the reader, its first byte already peeked.
    fn ident(&mut self, word: &[u8], token: Token<'a>) -> Result<Token<'a>, JsonError> {
        self.eat();
        for &expected in word.iter().skip(1) {
            match self.next_byte() {
                None => return Err(self.error(ErrorCode::EofWhileParsingValue)),
                Some(next) if next != expected => {
                    return Err(self.error(ErrorCode::ExpectedSomeIdent))
                }
                Some(_) => {}
            }
        }
        Ok(token)
    }

    /// The rest of a string whose opening quote is read.
    fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        let bytes = self.text.as_bytes();
        let mut start = self.index;
        let mut unescaped: Option<String> = None;
        loop {
            while let Some(&b) = bytes.get(self.index) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.index += 1;
            }
            let Some(&b) = bytes.get(self.index) else {
                return Err(self.error(ErrorCode::EofWhileParsingString));
            };
            // Quote and backslash are ASCII, and so is the end of every
            // escape: each piece is whole characters.
            let piece = self.text.get(start..self.index).unwrap_or_default();
            self.index += 1;
            match b {
                b'"' => {
                    return Ok(match unescaped {
                        None => Cow::Borrowed(piece),
                        Some(mut text) => {
                            text.push_str(piece);
                            Cow::Owned(text)
                        }
                    })
                }
                b'\\' => {
                    let text = unescaped.get_or_insert_with(String::new);
                    text.push_str(piece);
                    self.escape(text)?;
                    start = self.index;
                }
                _ => return Err(self.error(ErrorCode::ControlCharacterWhileParsingString)),
            }
        }
    }

    /// One escape, its backslash read.
    fn escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let Some(byte) = self.next_byte() else {
            return Err(self.error(ErrorCode::EofWhileParsingString));
        };
        let c = match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(out),
            _ => return Err(self.error(ErrorCode::InvalidEscape)),
        };
        out.push(c);
        Ok(())
    }

    /// `\uXXXX`, or a surrogate pair of two; a lone surrogate is an error.
    fn unicode_escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let first = self.hex4()?;
        let code = match first {
            0xDC00..=0xDFFF => return Err(self.error(ErrorCode::LoneLeadingSurrogateInHexEscape)),
            0xD800..=0xDBFF => {
                for expected in [b'\\', b'u'] {
                    match self.peek() {
                        None => return Err(self.error(ErrorCode::EofWhileParsingString)),
                        Some(next) => {
                            self.eat();
                            if next != expected {
                                return Err(self.error(ErrorCode::UnexpectedEndOfHexEscape));
                            }
                        }
                    }
                }
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.error(ErrorCode::LoneLeadingSurrogateInHexEscape));
                }
                (((first - 0xD800) << 10) | (second - 0xDC00)) + 0x1_0000
            }
            other => other,
        };
        match char::from_u32(code) {
            Some(c) => {
                out.push(c);
                Ok(())
            }
            None => Err(self.error(ErrorCode::InvalidEscape)),
        }
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let Some(digits) = self.text.as_bytes().get(self.index..self.index + 4) else {
            self.index = self.text.len();
            return Err(self.error(ErrorCode::EofWhileParsingString));
        };
        self.index += 4;
        let mut code = 0;
        for &digit in digits {
            let Some(value) = char::from(digit).to_digit(16) else {
                return Err(self.error(ErrorCode::InvalidEscape));
            };
            code = code << 4 | value;
        }
        Ok(code)
    }

    /// A number, its minus sign (if any) read.
    fn number(&mut self, positive: bool) -> Result<Number, JsonError> {
        self.number_start = self.index;
        let Some(first) = self.next_byte() else {
            return Err(self.error(ErrorCode::EofWhileParsingValue));
        };
        let mut significand = match first {
            b'0' => {
                // There can be only one leading '0'.
                if self.peek_or_null().is_ascii_digit() {
                    return Err(self.peek_error(ErrorCode::InvalidNumber));
                }
                0
            }
            b'1'..=b'9' => u64::from(first - b'0'),
            _ => return Err(self.error(ErrorCode::InvalidNumber)),
        };
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            let digit = u64::from(c - b'0');
            if overflows_u64(significand, digit) {
                return self.long_integer(positive, significand).map(Number::Float);
            }
            self.eat();
            significand = significand * 10 + digit;
        }
        match self.peek_or_null() {
            b'.' => self.decimal(positive, significand, 0).map(Number::Float),
            b'e' | b'E' => self.exponent(positive, significand, 0).map(Number::Float),
            _ => Ok(number::integer(positive, significand)),
        }
    }

    /// Digits past u64: counted as powers of ten, as serde_json does.
    #[cold]
    fn long_integer(&mut self, positive: bool, significand: u64) -> Result<f64, JsonError> {
        let mut exponent: i32 = 0;
        loop {
            match self.peek_or_null() {
                b'0'..=b'9' => {
                    self.eat();
                    exponent = exponent.wrapping_add(1);
                }
                b'.' => return self.decimal(positive, significand, exponent),
                b'e' | b'E' => return self.exponent(positive, significand, exponent),
                _ => return self.scaled(positive, significand, exponent),
            }
        }
    }

    fn decimal(
        &mut self,
        positive: bool,
        mut significand: u64,
        exponent_before_point: i32,
    ) -> Result<f64, JsonError> {
        self.eat();
        let mut exponent_after_point: i32 = 0;
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            let digit = u64::from(c - b'0');
            if overflows_u64(significand, digit) {
                // Further digits cannot change the u64: skipped.
                while self.peek_or_null().is_ascii_digit() {
                    self.eat();
                }
                let exponent = exponent_before_point.wrapping_add(exponent_after_point);
                return self.maybe_exponent(positive, significand, exponent);
            }
            self.eat();
            significand = significand * 10 + digit;
            exponent_after_point -= 1;
        }
        if exponent_after_point == 0 {
            return Err(match self.peek() {
                Some(_) => self.peek_error(ErrorCode::InvalidNumber),
                None => self.peek_error(ErrorCode::EofWhileParsingValue),
            });
        }
        let exponent = exponent_before_point.wrapping_add(exponent_after_point);
        self.maybe_exponent(positive, significand, exponent)
    }

    fn maybe_exponent(
        &mut self,
        positive: bool,
        significand: u64,
        exponent: i32,
    ) -> Result<f64, JsonError> {
        match self.peek_or_null() {
            b'e' | b'E' => self.exponent(positive, significand, exponent),
            _ => self.scaled(positive, significand, exponent),
        }
    }

    fn exponent(
        &mut self,
        positive: bool,
        significand: u64,
        starting_exponent: i32,
    ) -> Result<f64, JsonError> {
        self.eat();
        let positive_exponent = match self.peek_or_null() {
            b'+' => {
                self.eat();
                true
            }
            b'-' => {
                self.eat();
                false
            }
            _ => true,
        };
        let mut exponent = match self.next_byte() {
            None => return Err(self.error(ErrorCode::EofWhileParsingValue)),
            Some(c @ b'0'..=b'9') => i32::from(c - b'0'),
            Some(_) => return Err(self.error(ErrorCode::InvalidNumber)),
        };
        while let c @ b'0'..=b'9' = self.peek_or_null() {
            self.eat();
            let digit = i32::from(c - b'0');
            if exponent >= i32::MAX / 10 && (exponent > i32::MAX / 10 || digit > i32::MAX % 10) {
                // Past i32: infinity is an error, anything else rounds to 0.
                if significand != 0 && positive_exponent {
                    return Err(self.error(ErrorCode::NumberOutOfRange));
                }
                while self.peek_or_null().is_ascii_digit() {
                    self.eat();
                }
                return Ok(if positive { 0.0 } else { -0.0 });
            }
            exponent = exponent * 10 + digit;
        }
        let exponent = if positive_exponent {
            starting_exponent.saturating_add(exponent)
        } else {
            starting_exponent.saturating_sub(exponent)
        };
        self.scaled(positive, significand, exponent)
    }

    fn scaled(&self, positive: bool, significand: u64, exponent: i32) -> Result<f64, JsonError> {
        let text = self.text.get(self.number_start..self.index).unwrap_or("");
        number::from_parts(positive, significand, exponent, text)
            .ok_or_else(|| self.error(ErrorCode::NumberOutOfRange))
    }
}

fn overflows_u64(significand: u64, digit: u64) -> bool {
    significand >= u64::MAX / 10 && (significand > u64::MAX / 10 || digit > u64::MAX % 10)
}
