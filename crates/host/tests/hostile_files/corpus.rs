//! The hostile files, made in code on every run (nothing binary is
//! committed), the same bytes every time, and the benign controls that the
//! host must accept. Each hostile file attacks a size, a count or a shape
//! that the file itself claims and a reader might trust: calamine 0.30
//! (xlsx, xls, and the ods it falls back to), parquet 55, the csv crate.

use parquet::basic::{Compression, GzipLevel};
use parquet::format::{CompressionCodec, Encoding, Type};

use super::deflate::{self, Piece};
use super::pq::{self, Chunk};
use super::xls;
use super::zipfile::{self, Part, Workbook};

/// What the presigned upload takes (spec section 8: 100 KB).
pub const MAX_UPLOAD: usize = 100 * 1024;
/// What the file connector takes (spec section 8: 5 MB).
pub const MAX_CONNECTOR: usize = 5 * 1024 * 1024;

pub struct HostileFile {
    /// A short id.
    pub name: &'static str,
    /// The name uploaded: its extension is the format claimed.
    pub file_name: String,
    pub bytes: Vec<u8>,
    /// One line: what the attack is.
    pub what: &'static str,
    /// A well-formed table for all its lies (a declared size that is
    /// wrong, deep markup around the cells, a claim the reader never needs):
    /// it may be read, or refused, as long as every other bound holds.
    pub may_be_read: bool,
    /// A file at the host's bounds that must be read: how its cleaned
    /// table's description starts (`100000 rows`).
    pub read_as: Option<&'static str>,
}

fn file(name: &'static str, extension: &str, bytes: Vec<u8>, what: &'static str) -> HostileFile {
    HostileFile {
        name,
        file_name: format!("{name}.{extension}"),
        bytes,
        what,
        may_be_read: false,
        read_as: None,
    }
}

/// These files, each marked as one that may be read.
const MAY_BE_READ: [&str; 8] = [
    "xlsx-sparse-column",
    "xlsx-dimension-lie",
    "xlsx-deep-sheet",
    "xlsx-deep-shared-strings",
    "xlsx-deep-workbook",
    "xls-dimensions-u32",
    "xls-cfb-fat-length",
    "xls-cfb-difat-count",
];

/// The benign files, one or two of every format: each must be accepted.
pub fn controls() -> Vec<HostileFile> {
    vec![
        file(
            "control",
            "csv",
            control_csv(),
            "a small CSV: dates, regions, sales, units",
        ),
        file(
            "control",
            "xlsx",
            control_xlsx(),
            "a real .xlsx: header row, dates (styled serials), text (shared and inline), numbers",
        ),
        file(
            "control",
            "xls",
            xls::control(),
            "a real BIFF8 .xls in a CFB container: header row, dates, text (SST), numbers",
        ),
        file(
            "control",
            "parquet",
            pq::control(Compression::SNAPPY),
            "a real .parquet, snappy: date, UTF-8, double and optional int64 columns",
        ),
        file(
            "control-gzip",
            "parquet",
            pq::control(Compression::GZIP(GzipLevel::default())),
            "the same .parquet, gzip",
        ),
    ]
}

/// Every hostile file, each at most 5 MB.
pub fn corpus() -> Vec<HostileFile> {
    let mut files = all();
    for file in &mut files {
        file.may_be_read = MAY_BE_READ.contains(&file.name);
    }
    files.extend(super::bounds::bounds());
    files
}

fn all() -> Vec<HostileFile> {
    let mut files = Vec::new();
    files.extend(sparse_xlsx());
    files.extend(zip_bombs());
    files.extend(deep_xml());
    files.extend(xls_files());
    files.extend(parquet_files());
    files.extend(csv_files());
    files.extend(format_lies());
    files
}

fn control_csv() -> Vec<u8> {
    b"date,region,sales,units\n2024-01-01,North,120.5,3\n2024-02-01,South,98.25,7\n\
      2024-03-01,East,143,2\n2024-04-01,West,77,\n2024-05-01,North,101.75,5\n"
        .to_vec()
}

fn control_xlsx() -> Vec<u8> {
    let strings = ["date", "region", "sales", "units", "North", "South", "East"];
    let shared: String = strings
        .iter()
        .map(|s| format!("<si><t>{s}</t></si>"))
        .collect();
    let shared = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="10" uniqueCount="7">{shared}</sst>"#
    );
    let mut rows = String::from(r#"<row r="1">"#);
    for (i, col) in ["A", "B", "C", "D"].iter().enumerate() {
        rows.push_str(&format!(r#"<c r="{col}1" t="s"><v>{i}</v></c>"#));
    }
    rows.push_str("</row>");
    // Serial 45292 is 2024-01-01; style 1 is a date format.
    let data = [
        (45292, "4", 120.5, 3),
        (45323, "5", 98.25, 7),
        (45352, "6", 143.0, 2),
    ];
    for (r, (date, region, sales, units)) in (2..).zip(data) {
        rows.push_str(&format!(
            r#"<row r="{r}"><c r="A{r}" s="1"><v>{date}</v></c><c r="B{r}" t="s"><v>{region}</v></c><c r="C{r}"><v>{sales}</v></c><c r="D{r}"><v>{units}</v></c></row>"#
        ));
    }
    rows.push_str(r#"<row r="5"><c r="A5" s="1"><v>45383</v></c><c r="B5" t="inlineStr"><is><t>West</t></is></c><c r="C5"><v>77</v></c></row>"#);
    zipfile::xlsx(Workbook {
        sheet: Part::Deflate(zipfile::sheet(Some("A1:D5"), &rows).into_bytes()),
        shared_strings: Some(Part::Deflate(shared.into_bytes())),
        styles: Some(Part::Deflate(zipfile::STYLES.as_bytes().to_vec())),
        workbook: None,
    })
}

/// An .xlsx whose only worksheet is `sheet`, everything honest.
fn plain_xlsx(sheet: String) -> Vec<u8> {
    zipfile::xlsx(Workbook::of(Part::Deflate(sheet.into_bytes())))
}

const A1: &str = r#"<c r="A1" t="inlineStr"><is><t>a</t></is></c>"#;

fn sparse_xlsx() -> Vec<HostileFile> {
    let corners = zipfile::sheet(
        Some("A1:XFD1048576"),
        &format!(r#"<row r="1">{A1}</row><row r="1048576"><c r="XFD1048576"><v>1</v></c></row>"#),
    );
    let column = zipfile::sheet(
        Some("A1:A1048576"),
        &format!(r#"<row r="1">{A1}</row><row r="1048576"><c r="A1048576"><v>1</v></c></row>"#),
    );
    let dimension = zipfile::sheet(
        Some("A1:XFD1048576"),
        &format!(
            r#"<row r="1">{A1}<c r="B1" t="inlineStr"><is><t>b</t></is></c></row><row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>2</v></c></row>"#
        ),
    );
    let wide = zipfile::sheet(
        None,
        &format!(
            r#"<row r="1">{A1}<c r="GS1"><v>1</v></c></row><row r="2"><c r="A2"><v>1</v></c></row>"#
        ),
    );
    vec![
        file("xlsx-sparse-corners", "xlsx", plain_xlsx(corners), "cells only at A1 and XFD1048576: a reader that fills the rectangle between makes 17 billion cells"),
        file("xlsx-sparse-column", "xlsx", plain_xlsx(column), "cells only at A1 and A1048576: a million empty rows between"),
        file("xlsx-dimension-lie", "xlsx", plain_xlsx(dimension), "<dimension ref=\"A1:XFD1048576\"/> declared, four cells present"),
        file("xlsx-column-201", "xlsx", plain_xlsx(wide), "a cell at column 201 (GS1) of row 1: one past the 200-column limit"),
    ]
}

/// One row of one numeric cell, no positions. 27 bytes: repeats this close
/// together cost deflate few bits each, so 1.9 GB pack into under 5 MB.
const BOMB_ROW: &str = "<row><c><v>1</v></c></row>";

/// Worksheets that unpack to about `target` bytes of rows, and the pieces
/// they are made of (built once, shared by every size).
struct SheetBomb {
    head: Piece,
    rows: Piece,
    tail: Piece,
}

impl SheetBomb {
    fn new() -> SheetBomb {
        SheetBomb {
            head: Piece::new(format!("{}<sheetData>", zipfile::SHEET_HEAD).as_bytes()),
            rows: Piece::new(BOMB_ROW.repeat(10_000).as_bytes()),
            tail: Piece::new(b"</sheetData></worksheet>"),
        }
    }

    /// About `unpacked` bytes of sheet, or (when `packed` is given instead)
    /// as many rows as fit in about that many packed bytes.
    fn sheet(&self, unpacked: u64, packed: Option<usize>) -> deflate::Deflated {
        let times = match packed {
            Some(packed) => (packed / self.rows.packed()) as u64,
            None => unpacked / self.rows.unpacked(),
        };
        deflate::assemble(&[(&self.head, 1), (&self.rows, times), (&self.tail, 1)])
    }

    /// An .xlsx whose sheet part claims 4 KB unpacked in both zip headers.
    fn lying_xlsx(&self, unpacked: u64, packed: Option<usize>) -> Vec<u8> {
        zipfile::xlsx(Workbook::of(Part::Raw {
            deflated: self.sheet(unpacked, packed),
            claim: Some(4096),
        }))
    }
}

fn zip_bombs() -> Vec<HostileFile> {
    let bomb = SheetBomb::new();
    let si = Piece::new(b"<si><t>a</t></si>".repeat(4096).as_slice());
    let sst_sheet = zipfile::sheet(
        None,
        r#"<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>2</v></c></row>"#,
    );
    // `thousands` x 4096 entries, honest sizes.
    let sst_bomb = |thousands: u64| {
        let sst_head = format!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{n}" uniqueCount="{n}">"#,
            n = thousands * 4096
        );
        let sst = deflate::assemble(&[
            (&Piece::new(sst_head.as_bytes()), 1),
            (&si, thousands),
            (&Piece::new(b"</sst>"), 1),
        ]);
        zipfile::xlsx(Workbook {
            shared_strings: Some(Part::Raw {
                deflated: sst,
                claim: None,
            }),
            ..Workbook::of(Part::Deflate(sst_sheet.clone().into_bytes()))
        })
    };
    vec![
        file("xlsx-zip-lie-1.9g", "xlsx", bomb.lying_xlsx(1_900_000_000, None), "the sheet part deflates from 1.9 GB of rows (70 million cells) while both zip headers claim 4 KB"),
        file("xlsx-zip-lie-190m", "xlsx", bomb.lying_xlsx(0, Some(500_000)), "about 0.5 MB whose sheet part unpacks to 192 MB of rows (7 million cells); headers claim 4 KB"),
        file("xlsx-zip-lie-small", "xlsx", bomb.lying_xlsx(0, Some(95_000)), "under 100 KB (the upload's limit), sheet part unpacks to 36 MB (1.3 million cells); headers claim 4 KB"),
        file("xlsx-honest-60mb-sheet", "xlsx", zipfile::xlsx(Workbook::of(Part::Raw { deflated: bomb.sheet(60_000_000, None), claim: None })), "honest sizes just under the host's 64 MiB check: 60 MB of rows, 2.2 million cells, in 150 KB"),
        file("xlsx-shared-strings-bomb", "xlsx", sst_bomb(3_500_000 / 4096), "honest sizes: 3.5 million tiny <si> entries (56 MB unpacked) in sharedStrings.xml, two cells use them"),
        file("xlsx-shared-strings-bomb-small", "xlsx", sst_bomb(1_800_000 / 4096), "the same with 1.8 million entries (29 MB unpacked), under 100 KB"),
    ]
}

/// `<x>` nested `depth` levels, as deflate pieces.
struct Deep {
    open: Piece,
    close: Piece,
    times: u64,
}

impl Deep {
    fn new(depth: u64) -> Deep {
        Deep {
            open: Piece::new(b"<x>".repeat(1000).as_slice()),
            close: Piece::new(b"</x>".repeat(1000).as_slice()),
            times: depth / 1000,
        }
    }

    /// `head`, the nesting, `tail`: honest sizes.
    fn part(&self, head: &str, tail: &str) -> Part {
        Part::Raw {
            deflated: deflate::assemble(&[
                (&Piece::new(head.as_bytes()), 1),
                (&self.open, self.times),
                (&self.close, self.times),
                (&Piece::new(tail.as_bytes()), 1),
            ]),
            claim: None,
        }
    }
}

fn deep_xml() -> Vec<HostileFile> {
    let deep = Deep::new(1_000_000);
    let table = format!(r#"<row r="1">{A1}</row><row r="2"><c r="A2"><v>1</v></c></row>"#);
    let sheet = deep.part(
        &format!("{}<sheetData>{table}", zipfile::SHEET_HEAD),
        "</sheetData></worksheet>",
    );
    let honest_sheet = || Part::Deflate(zipfile::sheet(None, &table).into_bytes());
    let strings = deep.part(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>a</t></si>"#,
        "</sst>",
    );
    let workbook_head = zipfile::WORKBOOK.replace("</workbook>", "");
    let workbook = deep.part(&workbook_head, "</workbook>");
    vec![
        file(
            "xlsx-deep-sheet",
            "xlsx",
            zipfile::xlsx(Workbook::of(sheet)),
            "the worksheet nests an element a million levels deep inside <sheetData>",
        ),
        file(
            "xlsx-deep-shared-strings",
            "xlsx",
            zipfile::xlsx(Workbook {
                shared_strings: Some(strings),
                ..Workbook::of(honest_sheet())
            }),
            "sharedStrings.xml nests an element a million levels deep",
        ),
        file(
            "xlsx-deep-workbook",
            "xlsx",
            zipfile::xlsx(Workbook {
                workbook: Some(workbook),
                ..Workbook::of(honest_sheet())
            }),
            "workbook.xml nests an element a million levels deep",
        ),
    ]
}

fn xls_files() -> Vec<HostileFile> {
    let a = xls::sst(&["a"]);
    let mut corners = Vec::new();
    xls::number(&mut corners, 0, 0, xls::GENERAL, 1.0);
    xls::number(&mut corners, 65535, 255, xls::GENERAL, 2.0);
    let huge = xls::compound(&xls::workbook(
        &a,
        &[],
        &xls::dimensions(0, 65536, 0, 256),
        &corners,
    ));
    let mut one = Vec::new();
    xls::label_sst(&mut one, 0, 0, 0);
    xls::number(&mut one, 1, 0, xls::GENERAL, 1.0);
    let u32_rows = xls::compound(&xls::workbook(
        &a,
        &[],
        &xls::dimensions(0, u32::MAX, 0, 256),
        &one,
    ));

    let control = xls::control();
    let patched = |patch: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = control.clone();
        patch(&mut bytes);
        bytes
    };
    // Each lie below is written into the real container on purpose.
    let fat_len = patched(&|b| xls::put_u32(b, xls::FAT_SECTORS, 0x7FFF_FFFF));
    let difat_count = patched(&|b| xls::put_u32(b, xls::DIFAT_SECTORS, u32::MAX));
    let difat_loop = patched(&|b| {
        // A new last sector, a DIFAT sector whose "next" entry is itself.
        let id = u32::try_from((b.len() - 512) / 512).unwrap();
        let mut sector = vec![0xFF; 512];
        sector[508..].copy_from_slice(&id.to_le_bytes());
        b.extend_from_slice(&sector);
        xls::put_u32(b, xls::DIFAT_START, id);
        xls::put_u32(b, xls::DIFAT_SECTORS, 1);
    });
    let fat_loop = patched(&|b| {
        // The directory's chain: its first sector's FAT entry names itself.
        let dir = xls::u32_at(b, xls::DIR_START);
        let fat = xls::u32_at(b, xls::DIFAT_FIRST);
        xls::put_u32(b, xls::sector(fat) + 4 * dir as usize, dir);
    });
    let far = patched(&|b| xls::put_u32(b, xls::DIR_START, 0x0010_0000));
    let very_far = patched(&|b| xls::put_u32(b, xls::DIR_START, 0xFFFF_FF00));

    // SST: one empty string whose ExtRst claims 2 GB, then empty CONTINUE
    // records for it to be sought in: calamine takes each from the front
    // of a Vec (remove(0)), quadratic in their number.
    let mut flood_sst = Vec::new();
    flood_sst.extend_from_slice(&1u32.to_le_bytes());
    flood_sst.extend_from_slice(&1u32.to_le_bytes());
    flood_sst.extend_from_slice(&[0, 0, 0x04]);
    flood_sst.extend_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
    let flood = |records: usize| {
        let continues = [0x3C, 0, 0, 0].repeat(records);
        xls::compound(&xls::workbook(
            &flood_sst,
            &continues,
            &xls::dimensions(0, 2, 0, 1),
            &one,
        ))
    };
    let mut past_end = xls::workbook(&a, &[], &xls::dimensions(0, 2, 0, 1), &one);
    xls::move_sheet(&mut past_end, 0x7FFF_FFFF);
    let past_end = xls::compound(&past_end);
    vec![
        file("xls-huge-dimensions", "xls", huge, "DIMENSIONS claims 65,536 rows x 256 columns, cells at (0,0) and (65535,255)"),
        file("xls-dimensions-u32", "xls", u32_rows, "DIMENSIONS claims 4,294,967,295 rows x 256 columns (BIFF8 rows are 32-bit there)"),
        file("xls-cfb-fat-length", "xls", fat_len, "the CFB header claims 2^31 FAT sectors"),
        file("xls-cfb-difat-count", "xls", difat_count, "the CFB header claims 2^32-1 DIFAT sectors"),
        file("xls-cfb-difat-loop", "xls", difat_loop, "a DIFAT sector whose next-sector entry is itself: an endless DIFAT chain"),
        file("xls-cfb-fat-loop", "xls", fat_loop, "the directory's FAT chain loops onto itself"),
        file("xls-cfb-sector-far", "xls", far, "the directory starts at sector 1,048,576: 512 MB past a 3 KB file"),
        file("xls-cfb-sector-very-far", "xls", very_far, "the directory starts at sector 0xFFFFFF00: 2 TB past the file"),
        file("xls-sheet-past-end", "xls", past_end, "BOUNDSHEET8 says the sheet starts 2 GB into a 400-byte stream"),
        file("xls-continue-flood", "xls", flood(1_150_000), "an SST string whose ExtRst claims 2 GB, then 1.15 million empty CONTINUE records (quadratic)"),
        file("xls-continue-flood-small", "xls", flood(24_000), "the same with 24,000 CONTINUE records: under 100 KB"),
    ]
}

fn int64(name: &str) -> Vec<parquet::format::SchemaElement> {
    vec![pq::root(1), pq::leaf(name, Type::INT64)]
}

fn chunk(type_: Type, codec: CompressionCodec, num_values: i64) -> Chunk {
    Chunk {
        path: vec!["v".into()],
        type_,
        codec,
        num_values,
        pages: Vec::new(),
        declared_uncompressed: None,
    }
}

fn parquet_files() -> Vec<HostileFile> {
    let zeros = Piece::new(&[0u8; 1 << 20]);
    let gzip_bomb = |times: u64| {
        let (body, _) = deflate::gzip(&[(&zeros, times)]);
        let header = pq::data_page(
            512,
            Encoding::PLAIN,
            4096,
            i32::try_from(body.len()).unwrap(),
        );
        pq::file(
            int64("v"),
            512,
            vec![Chunk {
                pages: vec![(header, body)],
                ..chunk(Type::INT64, CompressionCodec::GZIP, 512)
            }],
        )
    };
    // Raw snappy (a length, then one literal of 8 zero bytes), handwritten:
    // the page header around it claims far more.
    let snappy_8 = vec![0x08, 0x1C, 0, 0, 0, 0, 0, 0, 0, 0];
    let claims = |claim: i32| {
        pq::file(
            int64("v"),
            1,
            vec![Chunk {
                pages: vec![(
                    pq::data_page(1, Encoding::PLAIN, claim, 10),
                    snappy_8.clone(),
                )],
                // The chunk's total stays modest, as the page's own claim is the lie.
                declared_uncompressed: Some(64),
                ..chunk(Type::INT64, CompressionCodec::SNAPPY, 1)
            }],
        )
    };
    let dictionary = pq::file(
        int64("v"),
        1,
        vec![Chunk {
            pages: vec![
                (
                    pq::dictionary_page(i32::MAX, 8, 8),
                    vec![7, 0, 0, 0, 0, 0, 0, 0],
                ),
                // bit width 1, an RLE run of 1 (header 1 << 1), index 0.
                (
                    pq::data_page(1, Encoding::RLE_DICTIONARY, 3, 3),
                    vec![1, 0x02, 0],
                ),
            ],
            ..chunk(Type::INT64, CompressionCodec::UNCOMPRESSED, 1)
        }],
    );
    let billion: i32 = 1_000_000_000;
    // bit width 1, an RLE run of a billion (ULEB128 of 2e9), index 0.
    let mut run = vec![1];
    let mut header = u64::try_from(billion).unwrap() << 1;
    while header >= 0x80 {
        run.push((header as u8) | 0x80);
        header >>= 7;
    }
    run.push(header as u8);
    run.push(0);
    let run_len = i32::try_from(run.len()).unwrap();
    let billion_rows = pq::file(
        vec![pq::root(1), pq::leaf("v", Type::INT32)],
        i64::from(billion),
        vec![Chunk {
            pages: vec![
                (pq::dictionary_page(1, 4, 4), vec![7, 0, 0, 0]),
                (
                    pq::data_page(billion, Encoding::RLE_DICTIONARY, run_len, run_len),
                    run,
                ),
            ],
            ..chunk(
                Type::INT32,
                CompressionCodec::UNCOMPRESSED,
                i64::from(billion),
            )
        }],
    );
    let deep = |depth: usize| {
        let mut schema = vec![pq::root(1)];
        schema.extend((0..depth).map(|_| pq::group("g", 1)));
        schema.push(pq::leaf("v", Type::INT32));
        pq::file(schema, 0, Vec::new())
    };
    // The footer's first list (the schema) claims 2^31 - 16 elements.
    // Thrift compact, handwritten: field 1 i32 (0x15) version 1 (zigzag 2),
    // field 2 list (0x19), list header 0xFC (size follows, of structs),
    // the size as ULEB128, and nothing after it.
    let mut claim = vec![0x15, 0x02, 0x19, 0xFC];
    claim.extend_from_slice(&[0xF0, 0xFF, 0xFF, 0xFF, 0x07]);
    let mut list_claim = b"PAR1".to_vec();
    list_claim.extend_from_slice(&claim);
    list_claim.extend_from_slice(&u32::try_from(claim.len()).unwrap().to_le_bytes());
    list_claim.extend_from_slice(b"PAR1");
    let past_end = pq::file(
        int64("v"),
        1,
        vec![Chunk {
            pages: vec![(
                pq::data_page(1, Encoding::PLAIN, 8, 1 << 30),
                vec![1, 0, 0, 0, 0, 0, 0, 0],
            )],
            ..chunk(Type::INT64, CompressionCodec::UNCOMPRESSED, 1)
        }],
    );
    vec![
        file(
            "parquet-gzip-bomb",
            "parquet",
            gzip_bomb(900),
            "a gzip page of 0.9 MB that inflates to 900 MB; its header declares 4 KB",
        ),
        file(
            "parquet-gzip-bomb-small",
            "parquet",
            gzip_bomb(95),
            "the same under 100 KB: inflates to 95 MB, declares 4 KB",
        ),
        file(
            "parquet-page-claims-2g",
            "parquet",
            claims(i32::MAX),
            "a snappy page header claiming uncompressed_page_size 2^31-1 for 8 bytes",
        ),
        file(
            "parquet-page-claims-1g",
            "parquet",
            claims(1 << 30),
            "a snappy page header claiming uncompressed_page_size 1 GiB for 8 bytes",
        ),
        file(
            "parquet-dictionary-2g-values",
            "parquet",
            dictionary,
            "a dictionary page claiming 2^31-1 values, holding one",
        ),
        file(
            "parquet-billion-rows",
            "parquet",
            billion_rows,
            "honest and tiny: a billion rows as one RLE run over a one-value dictionary",
        ),
        file(
            "parquet-deep-schema",
            "parquet",
            deep(100_000),
            "a schema nested 100,000 groups deep",
        ),
        file(
            "parquet-deep-schema-small",
            "parquet",
            deep(9_000),
            "a schema nested 9,000 groups deep, under 100 KB",
        ),
        file(
            "parquet-100k-columns",
            "parquet",
            wide_parquet(100_000),
            "100,000 columns, every column chunk pointing at one shared page",
        ),
        file(
            "parquet-footer-list-claim",
            "parquet",
            list_claim,
            "the footer's schema list claims 2^31-16 elements in 9 bytes",
        ),
        file(
            "parquet-page-past-end",
            "parquet",
            past_end,
            "a page header claiming a compressed size of 1 GiB, past the end of the file",
        ),
    ]
}

/// `columns` INT32 columns in one row group of one row; every chunk points
/// at the same page, so the file stays under 5 MB.
fn wide_parquet(columns: usize) -> Vec<u8> {
    let name = |i: usize| {
        // Base 36, to keep the names (and the footer) short.
        let mut n = i;
        let mut s = Vec::new();
        loop {
            s.push(b"0123456789abcdefghijklmnopqrstuvwxyz"[n % 36]);
            n /= 36;
            if n == 0 {
                break;
            }
        }
        s.reverse();
        format!("c{}", String::from_utf8(s).unwrap())
    };
    let mut schema = vec![pq::root(i32::try_from(columns).unwrap())];
    schema.extend((0..columns).map(|i| pq::leaf(&name(i), Type::INT32)));
    let header = pq::thrift(&pq::data_page(1, Encoding::PLAIN, 4, 4));
    let mut body = b"PAR1".to_vec();
    body.extend_from_slice(&header);
    body.extend_from_slice(&42i32.to_le_bytes());
    let page_len = i64::try_from(header.len() + 4).unwrap();
    let chunks = (0..columns)
        .map(|i| {
            pq::column_chunk(pq::ChunkMeta {
                type_: Type::INT32,
                encodings: vec![Encoding::PLAIN],
                path: vec![name(i)],
                codec: CompressionCodec::UNCOMPRESSED,
                num_values: 1,
                uncompressed: page_len,
                compressed: page_len,
                start: 4,
                data: 4,
                dictionary: None,
            })
        })
        .collect();
    let size = page_len * i64::try_from(columns).unwrap();
    pq::footer(body, schema, 1, vec![pq::row_group(chunks, 1, size)])
}

fn csv_files() -> Vec<HostileFile> {
    let columns = |n: usize| {
        let mut text = "c,".repeat(n).into_bytes();
        text.pop();
        text.extend_from_slice(b"\n1\n");
        text
    };
    let endless = b"abcdefghij".repeat(500_000);
    let mut empty = (1..=200)
        .map(|i| format!("c{i}"))
        .collect::<Vec<_>>()
        .join(",")
        .into_bytes();
    empty.push(b'\n');
    let blank_row = format!("{}\n", ",".repeat(199));
    while empty.len() + blank_row.len() <= 5_000_000 {
        empty.extend_from_slice(blank_row.as_bytes());
    }
    let mut cell = b"name,note\nx,".to_vec();
    cell.extend_from_slice(&b"lorem ipsum ".repeat(4 * 1024 * 1024 / 12));
    cell.push(b'\n');
    vec![
        file(
            "csv-million-columns",
            "csv",
            columns(1_000_000),
            "a header of a million columns (2 MB)",
        ),
        file(
            "csv-50k-columns",
            "csv",
            columns(49_999),
            "a header of 50,000 columns, under 100 KB",
        ),
        file(
            "csv-endless-line",
            "csv",
            endless,
            "one line of 5 MB without a newline",
        ),
        file(
            "csv-empty-cells",
            "csv",
            empty,
            "a 200-column header, then 5 MB of rows of empty cells",
        ),
        file("csv-4mb-cell", "csv", cell, "one cell holding 4 MB of text"),
    ]
}

/// Deterministic noise (xorshift64*).
fn noise(len: usize, mut state: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

fn format_lies() -> Vec<HostileFile> {
    let bomb = SheetBomb::new();
    let zeros = Piece::new(&[0u8; 1 << 20]);
    let plain_bomb = zipfile::zip(vec![(
        "data.bin",
        Part::Raw {
            deflated: deflate::assemble(&[(&zeros, 90)]),
            claim: Some(4096),
        },
    )]);
    // PAR1, noise, then a footer length that points into the noise, PAR1.
    let mut random = b"PAR1".to_vec();
    random.extend(noise(60_000, 0x9E37_79B9_7F4A_7C15));
    random.extend_from_slice(&50_000u32.to_le_bytes());
    random.extend_from_slice(b"PAR1");
    let ods = zipfile::zip(vec![
        ("mimetype", Part::Stored(b"application/vnd.oasis.opendocument.spreadsheet".to_vec())),
        ("META-INF/manifest.xml", Part::Deflate(br#"<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#.to_vec())),
        ("content.xml", Part::Deflate(br#"<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body><office:spreadsheet><table:table table:name="Sheet1"><table:table-row table:number-rows-repeated="1048576"><table:table-cell office:value-type="float" office:value="1" table:number-columns-repeated="16384"><text:p>1</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet></office:body></office:document-content>"#.to_vec())),
    ]);
    vec![
        file(
            "lie-csv-as-xlsx",
            "xlsx",
            control_csv(),
            "CSV text named .xlsx",
        ),
        file(
            "lie-zip-bomb-as-csv",
            "csv",
            bomb.lying_xlsx(0, Some(95_000)),
            "a lying-size zip bomb (36 MB inside) named .csv",
        ),
        file(
            "lie-xlsx-as-parquet",
            "parquet",
            control_xlsx(),
            "a real .xlsx named .parquet",
        ),
        file(
            "lie-zip-as-xls",
            "xls",
            plain_bomb,
            "a plain zip, one entry inflating to 90 MB while claiming 4 KB, named .xls",
        ),
        file(
            "lie-lying-xlsx-as-xls",
            "xls",
            bomb.lying_xlsx(0, Some(500_000)),
            "the 192 MB lying-size .xlsx named .xls (calamine's auto-detection opens it as xlsx)",
        ),
        file(
            "lie-ods-as-xlsx",
            "xlsx",
            ods,
            "an OpenDocument sheet named .xlsx: one cell repeated 16,384 columns x 1,048,576 rows",
        ),
        file(
            "lie-random-as-parquet",
            "parquet",
            random,
            "60 KB of noise framed as Parquet, its footer length pointing into the noise",
        ),
    ]
}
