//! A `.parquet` file of flat columns. The parquet crate trusts what a file
//! declares: it reserves a list's memory by its declared count, a page's by
//! its declared size, a dictionary's by its declared number of values, and
//! inflates a gzip page to its end whatever it declared. So before it reads
//! anything, the file is checked here:
//!
//! - the footer: at most [`MAX_FOOTER`] bytes, decoded first through a
//!   protocol that refuses a count or a length larger than the bytes there
//!   ([`super::thrift`]), a flat schema of at most `MAX_COLUMNS`
//!   columns (nested lists, maps and groups are refused: a few bytes of
//!   repetition levels could make one row of millions of values);
//! - every page of every column chunk, walked header by header: inside its
//!   chunk, which is inside the file; uncompressed, Snappy or gzip; at most
//!   `MAX_ROWS` values; the declared sizes of all pages together at most
//!   [`MAX_UNPACKED`]; a gzip page inflated once and counted, refused when
//!   it gives more than it declares.
//!
//! Then the crate's row reader reads at most `MAX_ROWS` + 1 rows.

use parquet::format::{CompressionCodec, FieldRepetitionType, FileMetaData, PageHeader};
use parquet::thrift::TSerializable;

use super::thrift::Bounded;
use super::{
    guarded, iso, unpack, Builder, Table, TableError, MAX_COLUMNS, MAX_ROWS, MAX_UNPACKED,
};
use zdr_limits::Stop;

/// The footer (the file's metadata) at most.
const MAX_FOOTER: usize = 1 << 20;
/// List elements the footer may hold in all, and a page header.
const MAX_FOOTER_ELEMENTS: usize = 100_000;
const MAX_HEADER_ELEMENTS: usize = 10_000;
/// Pages of the whole file at most.
const MAX_PAGES: usize = 100_000;
/// A fixed-length value's bytes at most.
const MAX_FIXED: i32 = 1024;

fn malformed(why: impl std::fmt::Display) -> TableError {
    TableError::Parquet(format!("the file is malformed: {why}"))
}

pub fn read(bytes: &[u8], stop: &Stop) -> Result<Table, TableError> {
    check(bytes, stop)?;
    guarded(TableError::Parquet, || rows(bytes, stop))
}

/// `T` decoded from the start of `bytes` through the bounded protocol, and
/// the bytes it took.
fn decode<T: TSerializable>(
    bytes: &[u8],
    budget: usize,
    what: &str,
) -> Result<(T, usize), TableError> {
    let mut protocol = Bounded::new(bytes, budget);
    let value = T::read_from_in_protocol(&mut protocol)
        .map_err(|e| malformed(format!("its {what} could not be read ({e})")))?;
    Ok((value, bytes.len() - protocol.rest().len()))
}

/// The module's checks, before the crate reads anything.
fn check(bytes: &[u8], stop: &Stop) -> Result<(), TableError> {
    let n = bytes.len();
    if n < 12 || !bytes.starts_with(b"PAR1") || !bytes.ends_with(b"PAR1") {
        return Err(TableError::Parquet(
            "the file is not a Parquet file (it does not start and end with PAR1)".into(),
        ));
    }
    let footer_len = bytes
        .get(n - 8..n - 4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes) as usize;
    if footer_len > n - 12 {
        return Err(malformed("its footer is longer than the file"));
    }
    if footer_len > MAX_FOOTER {
        return Err(TableError::Bound(format!(
            "the Parquet file's metadata is larger than {} KiB, the most it may be",
            MAX_FOOTER >> 10
        )));
    }
    let data_end = n - 8 - footer_len;
    let footer = bytes.get(data_end..n - 8).unwrap_or_default();
    let (meta, _): (FileMetaData, _) = decode(footer, MAX_FOOTER_ELEMENTS, "metadata")?;
    if meta.encryption_algorithm.is_some() {
        return Err(TableError::Parquet("the file is encrypted".into()));
    }
    schema(&meta)?;
    let mut unpacked = 0u64;
    let mut pages = 0usize;
    for group in &meta.row_groups {
        for chunk in &group.columns {
            if chunk.file_path.is_some() {
                return Err(TableError::Parquet(
                    "a column's data are in another file; send one self-contained file".into(),
                ));
            }
            let meta = chunk
                .meta_data
                .as_ref()
                .ok_or_else(|| malformed("a column chunk has no metadata"))?;
            let codec = meta.codec;
            if ![
                CompressionCodec::UNCOMPRESSED,
                CompressionCodec::SNAPPY,
                CompressionCodec::GZIP,
            ]
            .contains(&codec)
            {
                return Err(TableError::Parquet(format!(
                    "a column is compressed with {codec:?}; this host reads uncompressed, Snappy and gzip pages (write the file with one of them)"
                )));
            }
            let start = meta.dictionary_page_offset.unwrap_or(meta.data_page_offset);
            let end = start.checked_add(meta.total_compressed_size);
            let (start, end) = match (usize::try_from(start), end.map(usize::try_from)) {
                (Ok(start), Some(Ok(end))) if start >= 4 && start <= end && end <= data_end => {
                    (start, end)
                }
                _ => return Err(malformed("a column chunk lies outside the file's data")),
            };
            let mut at = start;
            while at < end {
                let area = bytes.get(at..end).unwrap_or_default();
                let (header, used): (PageHeader, _) =
                    decode(area, MAX_HEADER_ELEMENTS, "page header")?;
                at += used;
                page(bytes, at, end, &header, codec, &mut unpacked, stop)?;
                at += header.compressed_page_size as usize;
                pages += 1;
                if pages > MAX_PAGES {
                    return Err(TableError::Bound(format!(
                        "the Parquet file has more than {MAX_PAGES} pages, the most it may have"
                    )));
                }
                if pages % 64 == 0 {
                    stop.check()?;
                }
            }
        }
    }
    Ok(())
}

/// A flat schema: the root and its columns, none repeated or nested.
fn schema(meta: &FileMetaData) -> Result<(), TableError> {
    let (root, columns) = meta
        .schema
        .split_first()
        .ok_or_else(|| malformed("it has no schema"))?;
    if columns.len() > MAX_COLUMNS {
        return Err(TableError::TooManyColumns);
    }
    if root.num_children.unwrap_or(0) as usize != columns.len() {
        return Err(TableError::Parquet(
            "the file has nested columns (lists, maps or groups); this host reads flat tables"
                .into(),
        ));
    }
    for column in columns {
        if column.num_children.unwrap_or(0) != 0
            || column.repetition_type == Some(FieldRepetitionType::REPEATED)
        {
            return Err(TableError::Parquet(format!(
                "the column {:?} is nested or repeated; this host reads flat tables",
                column.name.chars().take(64).collect::<String>()
            )));
        }
        if column
            .type_length
            .is_some_and(|l| !(0..=MAX_FIXED).contains(&l))
        {
            return Err(malformed(format!(
                "the column {:?} declares values of {} bytes",
                column.name.chars().take(64).collect::<String>(),
                column.type_length.unwrap_or(0)
            )));
        }
    }
    Ok(())
}

/// One page, whose header ends at `at`, in a chunk that ends at `end`.
fn page(
    bytes: &[u8],
    at: usize,
    end: usize,
    header: &PageHeader,
    codec: CompressionCodec,
    unpacked: &mut u64,
    stop: &Stop,
) -> Result<(), TableError> {
    let (Ok(compressed), Ok(uncompressed)) = (
        usize::try_from(header.compressed_page_size),
        u64::try_from(header.uncompressed_page_size),
    ) else {
        return Err(malformed("a page declares a negative size"));
    };
    let body = at
        .checked_add(compressed)
        .filter(|&stop| stop <= end)
        .and_then(|stop| bytes.get(at..stop))
        .ok_or_else(|| malformed("a page runs past its column chunk"))?;
    *unpacked += uncompressed;
    if *unpacked > MAX_UNPACKED as u64 {
        return Err(TableError::Unpacked {
            what: "the Parquet file (its pages, by their declared sizes)".into(),
        });
    }
    let values = [
        header.data_page_header.as_ref().map(|h| h.num_values),
        header.dictionary_page_header.as_ref().map(|h| h.num_values),
        header.data_page_header_v2.as_ref().map(|h| h.num_values),
    ];
    for count in values.into_iter().flatten() {
        if count < 0 {
            return Err(malformed("a page declares a negative number of values"));
        }
        if count as usize > MAX_ROWS {
            return Err(TableError::Bound(format!(
                "a page of the Parquet file declares {count} values, more than the {MAX_ROWS} rows a table may have"
            )));
        }
    }
    // What the crate decompresses: all of a page but the levels of a v2
    // page, unless the v2 page says it is not compressed.
    let (levels, compressed_body) = match &header.data_page_header_v2 {
        Some(v2) => {
            let levels = v2
                .definition_levels_byte_length
                .checked_add(v2.repetition_levels_byte_length)
                .and_then(|l| usize::try_from(l).ok())
                .filter(|&l| l as u64 <= uncompressed && l <= body.len())
                .ok_or_else(|| malformed("a page's levels are larger than the page"))?;
            (levels, v2.is_compressed.unwrap_or(true))
        }
        None => (0, true),
    };
    if !compressed_body || codec == CompressionCodec::UNCOMPRESSED {
        return Ok(());
    }
    let data = body.get(levels..).unwrap_or_default();
    let declared = uncompressed - levels as u64;
    if codec == CompressionCodec::GZIP {
        unpack::check_gzip(data, declared, stop)?;
    } else if codec == CompressionCodec::SNAPPY {
        let real = snap::raw::decompress_len(data).map_err(malformed)?;
        if real as u64 != declared {
            return Err(malformed("a Snappy page unpacks to other than it declares"));
        }
    }
    Ok(())
}

/// The crate's rows, after the checks.
fn rows(bytes: &[u8], stop: &Stop) -> Result<Table, TableError> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;
    let error = |e: parquet::errors::ParquetError| TableError::Parquet(e.to_string());
    let reader = SerializedFileReader::new(bytes::Bytes::copy_from_slice(bytes)).map_err(error)?;
    let schema = reader.metadata().file_metadata().schema_descr();
    let mut builder = Builder::new(schema.columns().iter().map(|c| c.name()), 1, stop)?;
    let text = |field: &Field| match field {
        Field::Null => String::new(),
        Field::Bool(b) => b.to_string(),
        Field::Byte(n) => n.to_string(),
        Field::Short(n) => n.to_string(),
        Field::Int(n) => n.to_string(),
        Field::Long(n) => n.to_string(),
        Field::UByte(n) => n.to_string(),
        Field::UShort(n) => n.to_string(),
        Field::UInt(n) => n.to_string(),
        Field::ULong(n) => n.to_string(),
        Field::Float(n) => n.to_string(),
        Field::Double(n) => n.to_string(),
        Field::Str(s) => s.clone(),
        Field::Date(days) => iso(i64::from(*days), 0),
        Field::TimestampMillis(ms) => {
            iso(ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000) / 1000)
        }
        Field::TimestampMicros(us) => iso(
            us.div_euclid(86_400_000_000),
            us.rem_euclid(86_400_000_000) / 1_000_000,
        ),
        other => other.to_string(),
    };
    let mut cells: Vec<String> = Vec::new();
    for (n, row) in reader
        .get_row_iter(None)
        .map_err(error)?
        .take(MAX_ROWS + 1)
        .enumerate()
    {
        let row = row.map_err(error)?;
        cells.clear();
        cells.extend(row.get_column_iter().map(|(_, f)| text(f)));
        builder.row(cells.iter().map(String::as_str), n + 2)?;
    }
    builder.finish()
}
