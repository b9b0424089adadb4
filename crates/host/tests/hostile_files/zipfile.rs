//! Zip containers (the .xlsx and .ods packages) written by the `zip` crate.
//! A part whose deflate stream is made elsewhere (see `deflate.rs`) is
//! written by the crate as a stored entry holding that stream, and then the
//! real bytes of its local and central headers are patched on purpose: the
//! method becomes deflate, the CRC-32 the one of the unpacked text, and the
//! uncompressed size whatever the file is meant to claim, the truth or a lie.

use std::io::{Cursor, Write};

use zip::write::{SimpleFileOptions, ZipWriter};
use zip::CompressionMethod;

use super::deflate::Deflated;

pub enum Part {
    /// Compressed by the zip crate, sizes honest.
    Deflate(Vec<u8>),
    /// Stored as is (an ODS `mimetype` must be).
    Stored(Vec<u8>),
    /// A prepared deflate stream; the headers claim `claim` bytes unpacked
    /// (`None`: the truth).
    Raw {
        deflated: Deflated,
        claim: Option<u32>,
    },
}

pub fn zip(parts: Vec<(&str, Part)>) -> Vec<u8> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    // A fixed time: the same bytes on every run.
    let base = SimpleFileOptions::default().last_modified_time(zip::DateTime::default());
    let mut patches = Vec::new();
    for (name, part) in parts {
        match part {
            Part::Deflate(bytes) => {
                let options = base
                    .compression_method(CompressionMethod::Deflated)
                    .compression_level(Some(6));
                writer.start_file(name, options).unwrap();
                writer.write_all(&bytes).unwrap();
            }
            Part::Stored(bytes) => {
                writer
                    .start_file(name, base.compression_method(CompressionMethod::Stored))
                    .unwrap();
                writer.write_all(&bytes).unwrap();
            }
            Part::Raw { deflated, claim } => {
                writer
                    .start_file(name, base.compression_method(CompressionMethod::Stored))
                    .unwrap();
                writer.write_all(&deflated.stream).unwrap();
                let truth = u32::try_from(deflated.len).expect("under 4 GiB");
                patches.push((name.to_owned(), deflated.crc, claim.unwrap_or(truth)));
            }
        }
    }
    let mut bytes = writer.finish().unwrap().into_inner();
    for (name, crc, size) in patches {
        patch_entry(&mut bytes, &name, crc, size);
    }
    bytes
}

fn u16_at(bytes: &[u8], at: usize) -> usize {
    usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]))
}

fn u32_at(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

fn put_u16(bytes: &mut [u8], at: usize, value: u16) {
    bytes[at..at + 2].copy_from_slice(&value.to_le_bytes());
}

fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

/// The deliberate lie (or the honest claim) of one entry, written into both
/// of its headers (APPNOTE 4.3.7 and 4.3.12): method 8, `crc`, and `size` as
/// the uncompressed size. The compressed size the crate wrote stays: it is
/// the true length of the stream.
fn patch_entry(bytes: &mut [u8], name: &str, crc: u32, size: u32) {
    let end = (0..=bytes.len() - 22)
        .rev()
        .find(|&i| bytes[i..i + 4] == [0x50, 0x4b, 0x05, 0x06])
        .expect("end of central directory");
    let entries = u16_at(bytes, end + 10);
    let mut at = u32_at(bytes, end + 16);
    for _ in 0..entries {
        assert_eq!(
            bytes[at..at + 4],
            [0x50, 0x4b, 0x01, 0x02],
            "central header"
        );
        let name_len = u16_at(bytes, at + 28);
        let extra_len = u16_at(bytes, at + 30);
        let comment_len = u16_at(bytes, at + 32);
        let local = u32_at(bytes, at + 42);
        if &bytes[at + 46..at + 46 + name_len] == name.as_bytes() {
            // Central: method at 10, CRC at 16, uncompressed size at 24.
            put_u16(bytes, at + 10, 8);
            put_u32(bytes, at + 16, crc);
            put_u32(bytes, at + 24, size);
            // Local: flags at 6 (no data descriptor), method at 8, CRC at 14,
            // uncompressed size at 22.
            assert_eq!(bytes[local..local + 4], [0x50, 0x4b, 0x03, 0x04]);
            assert_eq!(u16_at(bytes, local + 6) & 0x08, 0, "data descriptor");
            put_u16(bytes, local + 8, 8);
            put_u32(bytes, local + 14, crc);
            put_u32(bytes, local + 22, size);
            return;
        }
        at += 46 + name_len + extra_len + comment_len;
    }
    panic!("no entry {name}");
}

const CONTENT_TYPES_HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>"#;

const ROOT_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;

pub const WORKBOOK: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>"#;

/// Styles whose cell format 1 is a date (built-in number format 14).
pub const STYLES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>"#;

pub const SHEET_HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">"#;

/// A worksheet part: an optional `<dimension>`, then `<sheetData>` holding `rows`.
pub fn sheet(dimension: Option<&str>, rows: &str) -> String {
    let dimension = dimension
        .map(|d| format!(r#"<dimension ref="{d}"/>"#))
        .unwrap_or_default();
    format!("{SHEET_HEAD}{dimension}<sheetData>{rows}</sheetData></worksheet>")
}

/// What goes into an .xlsx besides the fixed parts.
pub struct Workbook {
    pub sheet: Part,
    pub shared_strings: Option<Part>,
    pub styles: Option<Part>,
    /// Replaces the one-sheet `xl/workbook.xml`.
    pub workbook: Option<Part>,
}

impl Workbook {
    pub fn of(sheet: Part) -> Workbook {
        Workbook {
            sheet,
            shared_strings: None,
            styles: None,
            workbook: None,
        }
    }
}

/// An .xlsx package (ECMA-376 part 2): content types, relationships, the
/// workbook, one worksheet, and shared strings and styles when given.
pub fn xlsx(book: Workbook) -> Vec<u8> {
    let mut types = CONTENT_TYPES_HEAD.to_owned();
    let mut rels = String::from(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>"#,
    );
    if book.shared_strings.is_some() {
        types.push_str(r#"<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>"#);
        rels.push_str(r#"<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>"#);
    }
    if book.styles.is_some() {
        types.push_str(r#"<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>"#);
        rels.push_str(r#"<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>"#);
    }
    types.push_str("</Types>");
    rels.push_str("</Relationships>");
    let mut parts = vec![
        ("[Content_Types].xml", Part::Deflate(types.into_bytes())),
        ("_rels/.rels", Part::Deflate(ROOT_RELS.as_bytes().to_vec())),
        (
            "xl/workbook.xml",
            book.workbook
                .unwrap_or_else(|| Part::Deflate(WORKBOOK.as_bytes().to_vec())),
        ),
        (
            "xl/_rels/workbook.xml.rels",
            Part::Deflate(rels.into_bytes()),
        ),
        ("xl/worksheets/sheet1.xml", book.sheet),
    ];
    if let Some(strings) = book.shared_strings {
        parts.push(("xl/sharedStrings.xml", strings));
    }
    if let Some(styles) = book.styles {
        parts.push(("xl/styles.xml", styles));
    }
    zip(parts)
}
