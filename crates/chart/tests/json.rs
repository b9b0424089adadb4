// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
// proptest is a native-only dev-dependency (see Cargo.toml).
#![cfg(not(target_arch = "wasm32"))]

//! zdr_chart::json against serde_json, which it replaces: the same documents
//! accepted with the same values (numbers bit for bit as `str::parse` reads
//! them: correctly rounded, which serde_json without `float_roundtrip` is
//! not always), the same documents refused with the same message at the same
//! line and column.

use proptest::prelude::*;
use zdr_chart::json::{self, Number, Value};

/// Ours as serde_json's tree, numbers kept in their kind.
fn to_serde(value: &Value) -> serde_json::Value {
    use serde_json::Value as S;
    match value {
        Value::Null => S::Null,
        Value::Bool(b) => S::Bool(*b),
        Value::Number(Number::PosInt(n)) => S::from(*n),
        Value::Number(Number::NegInt(n)) => S::from(*n),
        Value::Number(Number::Float(f)) => {
            S::Number(serde_json::Number::from_f64(*f).expect("finite"))
        }
        Value::String(text) => S::String(text.clone()),
        Value::Array(items) => S::Array(items.iter().map(to_serde).collect()),
        Value::Object(object) => S::Object(
            object
                .iter()
                .map(|(key, value)| (key.clone(), to_serde(value)))
                .collect(),
        ),
    }
}

/// Floats within a few units in the last place: serde_json without
/// `float_roundtrip` is not always correctly rounded, ours is (checked
/// bit for bit against `str::parse` by [`numbers_correctly_rounded`]), so
/// the trees are compared for structure, kinds and keys, floats nearly.
fn alike(ours: &serde_json::Value, theirs: &serde_json::Value) -> bool {
    use serde_json::Value as S;
    match (ours, theirs) {
        (S::Number(a), S::Number(b)) => {
            if a.is_u64() != b.is_u64() || a.is_i64() != b.is_i64() {
                return false;
            }
            let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
            a.to_bits() == b.to_bits()
                || (a.is_sign_negative() == b.is_sign_negative()
                    && (a - b).abs() <= a.abs().max(b.abs()) * 1e-15 + 1e-321)
        }
        (S::Array(a), S::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| alike(a, b))
        }
        (S::Object(a), S::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|((ka, a), (kb, b))| ka == kb && alike(a, b))
        }
        _ => ours == theirs,
    }
}

/// Every number token of an accepted document, read alone, is the correctly
/// rounded double of its text, as `str::parse` reads it (integers too, as
/// doubles), sign of zero included.
fn numbers_correctly_rounded(text: &str) -> Result<(), String> {
    let bytes = text.as_bytes();
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
        } else if b == b'"' {
            in_string = true;
            i += 1;
        } else if b == b'-' || b.is_ascii_digit() {
            let start = i;
            while i < bytes.len()
                && matches!(bytes[i], b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
            {
                i += 1;
            }
            let token = &text[start..i];
            let expected: f64 = token.parse().map_err(|e| format!("{token:?}: {e}"))?;
            match json::parse(token) {
                Ok(Value::Number(n)) if n.as_f64().to_bits() == expected.to_bits() => {}
                other => {
                    return Err(format!(
                        "{token:?}: read {other:?}, correctly rounded {expected:e}"
                    ))
                }
            }
        } else {
            i += 1;
        }
    }
    Ok(())
}

/// Same outcome as serde_json: the same value (floats correctly rounded,
/// which serde_json's are not always), or the same error text.
fn same_as_serde_json(text: &str) -> Result<(), String> {
    let theirs = serde_json::from_str::<serde_json::Value>(text);
    let ours = json::parse(text);
    match (ours, theirs) {
        (Ok(ours), Ok(theirs)) => {
            let ours = to_serde(&ours);
            if !alike(&ours, &theirs) {
                return Err(format!(
                    "{text:?}: read {ours} where serde_json reads {theirs}"
                ));
            }
            numbers_correctly_rounded(text)
        }
        (Err(ours), Err(theirs)) if ours.to_string() == theirs.to_string() => Ok(()),
        (ours, theirs) => Err(format!(
            "{text:?}: ours {:?}, serde_json {:?}",
            ours.map(|v| to_serde(&v).to_string())
                .map_err(|e| e.to_string()),
            theirs.map(|v| v.to_string()).map_err(|e| e.to_string())
        )),
    }
}

/// Where serde_json (without `float_roundtrip`) is one ulp off, ours is the
/// correctly rounded double, as `str::parse` and the page's `parseFloat`.
#[test]
fn numbers_off_the_fast_path_are_correctly_rounded() {
    for text in [
        "6258198606689440e-175",
        "433887102787473603e44",
        "767239501880428249e-298",
        "-1523854765561379636e-198",
        "863725189728969700e-273",
    ] {
        let theirs: f64 = serde_json::from_str(text).unwrap();
        let expected: f64 = text.parse().unwrap();
        assert_ne!(
            theirs.to_bits(),
            expected.to_bits(),
            "{text}: no longer a case where they differ"
        );
        let Value::Number(ours) = json::parse(text).unwrap() else {
            panic!("{text}")
        };
        assert_eq!(ours.as_f64().to_bits(), expected.to_bits(), "{text}");
    }
    // Overflow is still an error, underflow still zero with its sign.
    assert!(json::parse("1e309").is_err());
    assert!(json::parse("-17976931348623159e292").is_err());
    assert_eq!(
        json::parse("1e-400").unwrap(),
        Value::Number(Number::Float(0.0))
    );
    let Value::Number(n) = json::parse("-1e-400").unwrap() else {
        panic!("-1e-400")
    };
    assert_eq!(n.as_f64().to_bits(), (-0.0f64).to_bits());
}

#[test]
fn a_table_of_documents_reads_as_serde_json_reads_it() {
    let cases = [
        // Accepted.
        "null",
        "true",
        "false",
        "0",
        "-0",
        "-0.0",
        "1",
        "-1",
        "0.5",
        "1e3",
        "1E+3",
        "1e-3",
        "2.5E-8",
        "123456789012345678901234567890",
        "-123456789012345678901234567890",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "1.7976931348623157e308",
        "5e-324",
        "1e-400",
        "-1e-400",
        "0e999999999999",
        "1e-99999999999",
        "1.18446744073709551615e2",
        "0.000000000000000000000000001",
        "123456789012345678901.5e-3",
        "\"\"",
        "\"abc\"",
        "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
        "\"\\u0041\\u00e9\\u20ac\\ud83d\\ude00\"",
        "\"é ✓ 😀\"",
        "[]",
        "{}",
        " [ 1 , 2 ] ",
        "\t\r\n{\"a\" : [ true , null ] }\n",
        "{\"b\":1,\"a\":2}",
        "{\"a\":1,\"a\":2}",
        "{\"a\":{\"a\":{}},\"\":[[]]}",
        "[\"\\u0000\"]",
        "{\"é\":1,\"e\":2,\"z\":3,\"E\":4}",
        // Refused.
        "",
        " ",
        "n",
        "nul",
        "nulx",
        "tru",
        "fals",
        "True",
        "NaN",
        "Infinity",
        "-Infinity",
        "+1",
        "01",
        "-01",
        "00",
        "1.",
        "1.e5",
        "1e",
        "1e+",
        "1e-",
        "1ex",
        ".5",
        "-",
        "-x",
        "1.5.",
        "1e400",
        "-1e400",
        "1e99999999999",
        "1e2147483648",
        "0.1e2147483647",
        "18446744073709551616e308",
        "[1,]",
        "[1 2]",
        "[,1]",
        "[",
        "[1",
        "[1,",
        "{",
        "{\"a\"",
        "{\"a\":",
        "{\"a\":1",
        "{\"a\":1,",
        "{\"a\":1,}",
        "{a:1}",
        "{1:1}",
        "{\"a\" 1}",
        "{\"a\":1 \"b\":2}",
        "{,}",
        "[1]]",
        "[1] x",
        "1 2",
        "\"abc",
        "\"\\",
        "\"\\x\"",
        "\"\\u12\"",
        "\"\\u12g4\"",
        "\"\\ud800\"",
        "\"\\ud800\\u0041\"",
        "\"\\ud800x\"",
        "\"\\ud800\\\"",
        "\"\\ud800\\",
        "\"\\udc00\"",
        "\"a\nb\"",
        "\"\t\"",
        "\"\u{1f}\"",
        "// c\n1",
        "/* c */ 1",
        "[1,/**/2]",
        "\u{feff}{}",
        "{\"a\":1}\n\n  x",
        "[\n1,\n]",
        "\n\n\"\u{1}\"",
        "[\"\\é\"]",
        "[tru]",
        "{\"a\":nul}",
        "[-]",
        "[1e]",
        "[0x10]",
    ];
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|text| same_as_serde_json(text).err())
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn nesting_stops_where_serde_json_stops() {
    for depth in [1usize, 100, 126, 127, 128, 129, 10_000] {
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let inner = if open == "[" { "" } else { "1" };
            let text = format!("{}{inner}{}", open.repeat(depth), close.repeat(depth));
            same_as_serde_json(&text).unwrap();
            same_as_serde_json(&open.repeat(depth)).unwrap();
        }
    }
    assert!(json::parse(&"[".repeat(127)).is_err());
    assert!(json::parse(&format!("{}{}", "[".repeat(127), "]".repeat(127))).is_ok());
    let deep = format!("{}{}", "[".repeat(128), "]".repeat(128));
    assert_eq!(
        json::parse(&deep).err().map(|e| e.to_string()).as_deref(),
        Some("recursion limit exceeded at line 1 column 128")
    );
}

#[test]
fn a_repeated_key_keeps_its_last_value_and_keys_are_sorted() {
    let value = json::parse(r#"{"z":1,"a":2,"z":3,"m":{"b":1,"b":[2]},"a":4,"z":5}"#).unwrap();
    let object = value.as_object().unwrap();
    let keys: Vec<&str> = object.keys().map(String::as_str).collect();
    assert_eq!(keys, ["a", "m", "z"]);
    assert_eq!(object.get("z").and_then(Value::as_f64), Some(5.0));
    assert_eq!(object.get("a").and_then(Value::as_f64), Some(4.0));
    assert_eq!(
        value.get("m").and_then(|m| m.get("b")).map(to_serde),
        Some(serde_json::json!([2]))
    );
    // Many keys out of order, each repeated: the same map as serde_json's.
    let entries: Vec<String> = (0..500)
        .map(|i| format!("\"k{}\":{i}", (i * 7919) % 97))
        .collect();
    same_as_serde_json(&format!("{{{}}}", entries.join(","))).unwrap();
}

/// Decimal text of every shape a number takes: short and long mantissas,
/// points anywhere, exponents near the ends of the double's range.
fn decimal_text() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        "[1-9][0-9]{0,30}",
        prop::option::of("[0-9]{1,30}"),
        prop::option::of((any::<bool>(), 0u32..360)),
    )
        .prop_map(|(negative, int, fraction, exponent)| {
            let mut text = String::new();
            if negative {
                text.push('-');
            }
            text.push_str(&int);
            if let Some(fraction) = fraction {
                text.push('.');
                text.push_str(&fraction);
            }
            if let Some((down, e)) = exponent {
                text.push_str(if down { "e-" } else { "e" });
                text.push_str(&e.to_string());
            }
            text
        })
}

/// Any JSON document, as serde_json's tree.
fn document() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value as S;
    let leaf = prop_oneof![
        Just(S::Null),
        any::<bool>().prop_map(S::Bool),
        any::<u64>().prop_map(S::from),
        any::<i64>().prop_map(S::from),
        any::<f64>().prop_map(S::from),
        "\\PC{0,12}".prop_map(S::String),
        any::<String>().prop_map(S::String),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(S::Array),
            prop::collection::vec(("[a-c]{0,2}", inner), 0..8)
                .prop_map(|entries| S::Object(entries.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn numbers_are_correctly_rounded_doubles(text in decimal_text()) {
        prop_assert!(same_as_serde_json(&text).is_ok(), "{}", same_as_serde_json(&text).unwrap_err());
    }

    #[test]
    fn documents_and_their_damaged_copies_read_alike(
        doc in document(),
        pretty in any::<bool>(),
        cut in any::<prop::sample::Index>(),
        at in any::<prop::sample::Index>(),
        insert in prop::sample::select(vec!["", ",", "]", "}", "\"", "\\", ":", "0", "-", ".", "e", " ", "\n", "\u{0}", "é", "[", "{", "/"]),
    ) {
        let text = if pretty {
            serde_json::to_string_pretty(&doc).unwrap()
        } else {
            doc.to_string()
        };
        prop_assert!(same_as_serde_json(&text).is_ok(), "{}", same_as_serde_json(&text).unwrap_err());
        let boundaries: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        let end = boundaries[cut.index(boundaries.len())];
        let prefix = &text[..end];
        prop_assert!(same_as_serde_json(prefix).is_ok(), "{}", same_as_serde_json(prefix).unwrap_err());
        let at = boundaries[at.index(boundaries.len())];
        let damaged = format!("{}{insert}{}", &text[..at], &text[at..]);
        prop_assert!(same_as_serde_json(&damaged).is_ok(), "{}", same_as_serde_json(&damaged).unwrap_err());
    }

    #[test]
    fn any_text_reads_alike(text in "[\\[\\]{}\",:0-9.eE+\\-tfnrul\\\\ \n\t\u{1}é]{0,40}") {
        prop_assert!(same_as_serde_json(&text).is_ok(), "{}", same_as_serde_json(&text).unwrap_err());
    }
}

#[test]
fn numbers_written_back_as_serde_json_writes_them() {
    for text in [
        "0",
        "-0",
        "-0.0",
        "1.0",
        "1e300",
        "2.5e-8",
        "1e16",
        "1e15",
        "0.00001",
        "0.000001",
        "123.456",
        "18446744073709551615",
        "-9223372036854775808",
        "1e21",
        "5e-324",
    ] {
        let ours = json::parse(text).unwrap();
        let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
        let Value::Number(n) = ours else {
            panic!("{text}")
        };
        assert_eq!(n.to_string(), theirs.to_string(), "{text}");
    }
}

/// Reading speed against serde_json's `Value` on a 1,000,000-point line
/// (about 40 MB of text). Timing on a shared machine is no test: run it
/// by hand, `cargo test --release -p zdr-chart --test json -- --ignored
/// --nocapture`, and read the figures.
#[test]
#[ignore]
fn reading_a_million_points_is_no_slower_than_serde_json() {
    use std::time::Instant;
    let points: Vec<String> = (0..1_000_000)
        .map(|i| {
            format!(
                "{{\"x\": \"2024-01-{:02}T{:02}:{:02}:00Z\", \"y\": {}}}",
                1 + i % 28,
                i / 60 % 24,
                i % 60,
                f64::from(i) * 0.37 - 1234.5
            )
        })
        .collect();
    let text = format!(
        "{{\"viz_config\": {{\"title\": \"t\", \"viz_component_type\": \"timeseries\"}}, \"data\": [{}]}}",
        points.join(",")
    );
    let mut best = (f64::INFINITY, f64::INFINITY);
    for _ in 0..5 {
        let start = Instant::now();
        let theirs: serde_json::Value = serde_json::from_str(&text).unwrap();
        let serde_time = start.elapsed().as_secs_f64();
        drop(theirs);
        let start = Instant::now();
        let ours = json::parse(&text).unwrap();
        let our_time = start.elapsed().as_secs_f64();
        drop(ours);
        best = (best.0.min(our_time), best.1.min(serde_time));
    }
    println!(
        "{} bytes: zdr_chart::json {:.0} ms, serde_json::Value {:.0} ms",
        text.len(),
        best.0 * 1e3,
        best.1 * 1e3
    );
    assert!(best.0 <= best.1 * 1.1, "{best:?}");
}
