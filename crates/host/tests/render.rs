// A failed expectation in a test is a test failure, which is what panics mean here.
#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

//! `zdr-host render`: a card file to an SVG or PNG file, offline.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_zdr-host");

/// The documented example `name`'s file, as a user passes it.
fn example(name: &str) -> String {
    zdr_test_support::examples_dir()
        .join(format!("{name}.json"))
        .to_string_lossy()
        .into_owned()
}

#[test]
fn renders_a_card_to_svg() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bar.svg");
    let status = Command::new(BIN)
        .args(["render", "--input", &example("bar"), "--output"])
        .arg(&out)
        .args(["--width", "640", "--height", "400", "--dark-mode", "true"])
        .status()
        .unwrap();
    assert!(status.success());
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(
        svg.starts_with(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"400\" viewBox=\"0 0 640 400\""
        ),
        "{}",
        &svg[..120]
    );
    assert!(svg.contains("Unit sales by region"));
    assert!(svg.contains("fill=\"#161a1f\""), "the dark background");
}

#[test]
fn renders_every_card_type_to_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in zdr_test_support::examples() {
        let title = zdr_chart::Chart::from_json(&text).unwrap().config.title;
        for ext in ["svg", "png"] {
            let out = dir.path().join(format!("{name}.{ext}"));
            let status = Command::new(BIN)
                .args(["render", "--input", &example(&name), "--output"])
                .arg(&out)
                .args(["--width", "640", "--height", "400"])
                .status()
                .unwrap();
            assert!(status.success(), "{name}.{ext}");
            let bytes = std::fs::read(&out).unwrap();
            if ext == "svg" {
                let svg = String::from_utf8(bytes).unwrap();
                assert!(svg.contains(&title), "{name}: its title");
                assert!(!svg.contains("Not drawn yet"), "{name}: drawn");
            } else {
                assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{name}.png");
            }
        }
    }
}

#[test]
fn renders_a_card_to_png_at_a_scale() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bar.PNG");
    let status = Command::new(BIN)
        .args(["render", "--input", &example("bar"), "--output"])
        .arg(&out)
        .args(["--width", "640", "--height", "400", "--scale", "2"])
        .status()
        .unwrap();
    assert!(status.success());
    let png = std::fs::read(&out).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    // The header chunk (IHDR) comes first: width and height, big-endian.
    let size = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    assert_eq!(&png[12..16], b"IHDR");
    assert_eq!((size(16), size(20)), (1280, 800));
    assert!(png.len() > 10_000, "{} bytes: a blank picture?", png.len());
}

#[test]
fn bad_input_and_other_formats_fail_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"viz_config":{},"data":[]}"#).unwrap();
    let output = Command::new(BIN)
        .args(["render", "--input"])
        .arg(&bad)
        .arg("--output")
        .arg(dir.path().join("x.svg"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("viz_config.title"), "{stderr}");
    assert!(!dir.path().join("x.svg").exists());

    let output = Command::new(BIN)
        .args(["render", "--input", &example("bar"), "--output"])
        .arg(dir.path().join("x.gif"))
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains(".svg"));
}
