//! BIFF8 workbooks ([MS-XLS]) in a compound file ([MS-CFB]), the .xls
//! format. The records are written here (no maintained crate writes
//! BIFF8); the compound file around them is written by the `cfb` crate,
//! version 3 (512-byte sectors). The lies in the container are patched into
//! the real bytes of its header, FAT and DIFAT afterwards, each where it is
//! made.

use std::io::{Cursor, Write};

/// One record: type, length, data ([MS-XLS] 2.1.4).
pub fn record(out: &mut Vec<u8>, typ: u16, data: &[u8]) {
    out.extend_from_slice(&typ.to_le_bytes());
    out.extend_from_slice(&u16::try_from(data.len()).unwrap().to_le_bytes());
    out.extend_from_slice(data);
}

fn bof(kind: u16) -> Vec<u8> {
    // BOF 2.4.21: BIFF8, the substream's kind, build 0x0DBB, year 0x07CC,
    // file history flags, lowest BIFF version 6.
    let mut data = Vec::new();
    for v in [0x0600u16, kind, 0x0DBB, 0x07CC] {
        data.extend_from_slice(&v.to_le_bytes());
    }
    data.extend_from_slice(&0u32.to_le_bytes());
    data.extend_from_slice(&6u32.to_le_bytes());
    data
}

/// A ShortXLUnicodeString of 8-bit characters.
fn short_string(text: &str) -> Vec<u8> {
    let mut data = vec![u8::try_from(text.len()).unwrap(), 0];
    data.extend_from_slice(text.as_bytes());
    data
}

/// XF 2.4.353: font 0, number format `ifmt`, a style XF or a cell XF.
fn xf(ifmt: u16, style: bool) -> Vec<u8> {
    let mut data = Vec::new();
    data.extend_from_slice(&0u16.to_le_bytes());
    data.extend_from_slice(&ifmt.to_le_bytes());
    // Locked; a style XF has fStyle and parent 0xFFF, a cell XF parent 0.
    let kind: u16 = if style { 0xFFF5 } else { 0x0001 };
    data.extend_from_slice(&kind.to_le_bytes());
    data.extend_from_slice(&[0x20, 0, 0, if style { 0 } else { 0xF8 }]);
    data.extend_from_slice(&[0; 8]);
    data.extend_from_slice(&0x20C0u16.to_le_bytes());
    data
}

/// The SST record's data 2.4.265: every string 8-bit, no rich text.
pub fn sst(strings: &[&str]) -> Vec<u8> {
    let count = u32::try_from(strings.len()).unwrap();
    let mut data = Vec::new();
    data.extend_from_slice(&count.to_le_bytes());
    data.extend_from_slice(&count.to_le_bytes());
    for s in strings {
        data.extend_from_slice(&u16::try_from(s.len()).unwrap().to_le_bytes());
        data.push(0);
        data.extend_from_slice(s.as_bytes());
    }
    data
}

/// The cell formats the cells below name: 15 is general, 16 a date.
pub const GENERAL: u16 = 15;
pub const DATE: u16 = 16;

pub fn number(out: &mut Vec<u8>, row: u16, col: u16, xf: u16, value: f64) {
    let mut data = Vec::new();
    for v in [row, col, xf] {
        data.extend_from_slice(&v.to_le_bytes());
    }
    data.extend_from_slice(&value.to_le_bytes());
    record(out, 0x0203, &data);
}

pub fn label_sst(out: &mut Vec<u8>, row: u16, col: u16, isst: u32) {
    let mut data = Vec::new();
    for v in [row, col, GENERAL] {
        data.extend_from_slice(&v.to_le_bytes());
    }
    data.extend_from_slice(&isst.to_le_bytes());
    record(out, 0x00FD, &data);
}

/// DIMENSIONS 2.4.90: first row, last row + 1, first column, last column + 1.
pub fn dimensions(rw_mic: u32, rw_mac: u32, col_mic: u16, col_mac: u16) -> Vec<u8> {
    let mut data = Vec::new();
    data.extend_from_slice(&rw_mic.to_le_bytes());
    data.extend_from_slice(&rw_mac.to_le_bytes());
    data.extend_from_slice(&col_mic.to_le_bytes());
    data.extend_from_slice(&col_mac.to_le_bytes());
    data.extend_from_slice(&0u16.to_le_bytes());
    data
}

/// The Workbook stream: the globals (fonts, formats, one sheet, the SST
/// given as record data, then `after_sst`, raw records such as CONTINUE),
/// then the sheet substream with `dims` and `cells` (records).
pub fn workbook(sst_data: &[u8], after_sst: &[u8], dims: &[u8], cells: &[u8]) -> Vec<u8> {
    let mut globals = Vec::new();
    record(&mut globals, 0x0809, &bof(0x0005));
    record(&mut globals, 0x0042, &1200u16.to_le_bytes()); // CODEPAGE: UTF-16
    let mut window = Vec::new();
    for v in [0u16, 0, 0x4000, 0x2000, 0x0038, 0, 0, 1, 0x0258] {
        window.extend_from_slice(&v.to_le_bytes());
    }
    record(&mut globals, 0x003D, &window); // WINDOW1
    let mut font = Vec::new();
    for v in [200u16, 0, 0x7FFF, 400, 0] {
        font.extend_from_slice(&v.to_le_bytes());
    }
    font.extend_from_slice(&[0, 0, 0, 0]);
    font.extend_from_slice(&short_string("Arial"));
    // Four fonts: index 4 is never used, so a file has 0-3 then 5 on.
    for _ in 0..4 {
        record(&mut globals, 0x0031, &font);
    }
    for _ in 0..15 {
        record(&mut globals, 0x00E0, &xf(0, true));
    }
    record(&mut globals, 0x00E0, &xf(0, false)); // 15: general
    record(&mut globals, 0x00E0, &xf(14, false)); // 16: m/d/yy
    record(&mut globals, 0x0293, &[0x00, 0x80, 0x00, 0xFF]); // STYLE: Normal
    let bound_sheet = globals.len() + 4;
    let mut sheet_entry = vec![0; 4]; // lbPlyPos, set below
    sheet_entry.extend_from_slice(&[0, 0]); // visible worksheet
    sheet_entry.extend_from_slice(&short_string("Sheet1"));
    record(&mut globals, 0x0085, &sheet_entry); // BOUNDSHEET8
    record(&mut globals, 0x00FC, sst_data);
    globals.extend_from_slice(after_sst);
    record(&mut globals, 0x000A, &[]); // EOF
    let position = u32::try_from(globals.len()).unwrap();
    globals[bound_sheet..bound_sheet + 4].copy_from_slice(&position.to_le_bytes());

    let mut stream = globals;
    record(&mut stream, 0x0809, &bof(0x0010));
    record(&mut stream, 0x0200, dims);
    let mut window2 = Vec::new();
    for v in [0x06B6u16, 0, 0, 0x40, 0, 0, 0, 0, 0] {
        window2.extend_from_slice(&v.to_le_bytes());
    }
    record(&mut stream, 0x023E, &window2);
    stream.extend_from_slice(cells);
    record(&mut stream, 0x000A, &[]);
    stream
}

/// Makes the (first) BOUNDSHEET8 record of a Workbook stream say that its
/// sheet starts at `position`: a deliberate lie, written in place.
pub fn move_sheet(stream: &mut [u8], position: u32) {
    let mut at = 0;
    while at + 4 <= stream.len() {
        let typ = u16::from_le_bytes([stream[at], stream[at + 1]]);
        let len = usize::from(u16::from_le_bytes([stream[at + 2], stream[at + 3]]));
        if typ == 0x0085 {
            put_u32(stream, at + 4, position);
            return;
        }
        at += 4 + len;
    }
    panic!("no BOUNDSHEET8");
}

/// The Workbook stream in a version-3 compound file, timestamps fixed so
/// that the bytes are the same on every run.
pub fn compound(stream: &[u8]) -> Vec<u8> {
    let mut file =
        cfb::CompoundFile::create_with_version(cfb::Version::V3, Cursor::new(Vec::new())).unwrap();
    {
        let mut workbook = file.create_stream("/Workbook").unwrap();
        workbook.write_all(stream).unwrap();
    }
    file.set_created_time("/", std::time::UNIX_EPOCH).unwrap();
    file.set_modified_time("/", std::time::UNIX_EPOCH).unwrap();
    file.flush().unwrap();
    file.into_inner().into_inner()
}

/// The control's table: a header, then dates, regions, sales, units.
pub fn control() -> Vec<u8> {
    let strings = ["date", "region", "sales", "units", "North", "South", "East"];
    let mut cells = Vec::new();
    for (col, isst) in (0u16..4).zip(0u32..) {
        label_sst(&mut cells, 0, col, isst);
    }
    // 45292 is 2024-01-01 in the 1900 date system.
    let rows = [
        (45292.0, 4, 120.5, 3.0),
        (45323.0, 5, 98.25, 7.0),
        (45352.0, 6, 143.0, 2.0),
    ];
    for (row, (date, region, sales, units)) in (1u16..).zip(rows) {
        number(&mut cells, row, 0, DATE, date);
        label_sst(&mut cells, row, 1, region);
        number(&mut cells, row, 2, GENERAL, sales);
        number(&mut cells, row, 3, GENERAL, units);
    }
    compound(&workbook(
        &sst(&strings),
        &[],
        &dimensions(0, 4, 0, 4),
        &cells,
    ))
}

// The compound file header's fields ([MS-CFB] 2.2), by byte offset.
pub const FAT_SECTORS: usize = 44;
pub const DIR_START: usize = 48;
pub const DIFAT_START: usize = 68;
pub const DIFAT_SECTORS: usize = 72;
/// The first of the header's 109 DIFAT entries: the first FAT sector.
pub const DIFAT_FIRST: usize = 76;

pub fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

pub fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

/// Where sector `id` starts in a version-3 file (the header is sector -1).
pub fn sector(id: u32) -> usize {
    512 + id as usize * 512
}
