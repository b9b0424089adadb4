//! A value written back as compact JSON, byte for byte as serde_json's
//! `Value::to_string` wrote it (a table cell holding an array or an object
//! shows its JSON; error messages quote strings with [`write_string`]).
//! Depth is bounded by the reader's recursion limit.

use crate::json::Value;
use std::fmt::Write;

/// `value` as compact JSON.
pub(crate) fn compact(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(text) => write_string(out, text),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, key);
                out.push(':');
                write_value(out, item);
            }
            out.push('}');
        }
    }
}

/// serde_json's escaping: the quote, the backslash and C0 controls only.
pub(super) fn write_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let code = u32::from(c) as usize;
                out.push_str("\\u00");
                out.push(char::from(HEX[code >> 4]));
                out.push(char::from(HEX[code & 15]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_serde_json_writes() {
        let texts = [
            r#"null"#,
            r#"[true,false,null,0,-0,-0.0,1.5,1e300,-12345678901234567890,18446744073709551615,2.5e-8]"#,
            r#"{"b":1,"a":[{"z":{}},[]],"":"","é\"\\":"line\nbreak\ttab\r\b\f\u0001\u001f\u007f ✓ \ud83d\ude00 </>"}"#,
            r#"[[[[[[[[["deep"]]]]]]]]]"#,
            r#""\u0000\u0010 quote \" slash \/ back \\""#,
        ];
        for text in texts {
            let theirs: Option<serde_json::Value> = serde_json::from_str(text).ok();
            let ours = crate::json::parse(text).ok();
            assert!(theirs.is_some() && ours.is_some(), "{text}");
            let expected = theirs.map(|v| v.to_string()).unwrap_or_default();
            assert_eq!(compact(&ours.unwrap_or_default()), expected, "{text}");
        }
    }

    #[test]
    fn every_control_character_is_escaped_as_serde_json_does() {
        let all: String = (0u32..0x80).filter_map(char::from_u32).collect();
        let expected = serde_json::Value::String(all.clone()).to_string();
        assert_eq!(compact(&Value::String(all)), expected);
    }
}
