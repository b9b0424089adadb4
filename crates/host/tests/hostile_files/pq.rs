//! Parquet files. The honest ones come from the parquet crate's own writer
//! (`SerializedFileWriter`); the lying ones are laid out here from its
//! Thrift types (`parquet::format`), serialized by its compact protocol, so
//! that each claim (a page's sizes, a dictionary's count, a chunk's totals,
//! the schema) can be set to exactly the lie wanted while everything else
//! in the file stays well formed.

use std::sync::Arc;

use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::format::{
    ColumnChunk, ColumnMetaData, CompressionCodec, DataPageHeader, DictionaryPageHeader, Encoding,
    FieldRepetitionType, FileMetaData, PageHeader, PageType, RowGroup, SchemaElement, Type,
};
use parquet::schema::parser::parse_message_type;
use parquet::thrift::{TCompactOutputProtocol, TSerializable};

/// A real file: dates, regions, sales, and units with a gap, 5 rows.
pub fn control(compression: Compression) -> Vec<u8> {
    let schema = parse_message_type(
        "message sales { required int32 date (DATE); required binary region (UTF8); \
         required double sales; optional int64 units; }",
    )
    .unwrap();
    let properties = WriterProperties::builder()
        .set_compression(compression)
        .build();
    let mut writer =
        SerializedFileWriter::new(Vec::new(), Arc::new(schema), Arc::new(properties)).unwrap();
    let mut group = writer.next_row_group().unwrap();
    let mut index = 0;
    while let Some(mut column) = group.next_column().unwrap() {
        match index {
            // Days since 1970: 2024-01-01 and the first of the next months.
            0 => column.typed::<Int32Type>().write_batch(
                &[19723, 19754, 19783, 19814, 19844],
                None,
                None,
            ),
            1 => {
                let regions: Vec<ByteArray> = ["North", "South", "East", "West", "North"]
                    .iter()
                    .map(|r| ByteArray::from(*r))
                    .collect();
                column
                    .typed::<ByteArrayType>()
                    .write_batch(&regions, None, None)
            }
            2 => column.typed::<DoubleType>().write_batch(
                &[120.5, 98.25, 143.0, 77.0, 101.75],
                None,
                None,
            ),
            _ => {
                column
                    .typed::<Int64Type>()
                    .write_batch(&[3, 7, 2, 9], Some(&[1, 1, 1, 0, 1]), None)
            }
        }
        .unwrap();
        column.close().unwrap();
        index += 1;
    }
    group.close().unwrap();
    writer.into_inner().unwrap()
}

/// A value in Thrift's compact protocol, as Parquet writes its headers.
pub fn thrift<T: TSerializable>(value: &T) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut protocol = TCompactOutputProtocol::new(&mut out);
        value.write_to_out_protocol(&mut protocol).unwrap();
    }
    out
}

pub fn root(children: i32) -> SchemaElement {
    SchemaElement {
        type_: None,
        type_length: None,
        repetition_type: None,
        name: "schema".into(),
        num_children: Some(children),
        converted_type: None,
        scale: None,
        precision: None,
        field_id: None,
        logical_type: None,
    }
}

pub fn group(name: &str, children: i32) -> SchemaElement {
    SchemaElement {
        repetition_type: Some(FieldRepetitionType::REQUIRED),
        name: name.into(),
        ..root(children)
    }
}

pub fn leaf(name: &str, type_: Type) -> SchemaElement {
    SchemaElement {
        type_: Some(type_),
        repetition_type: Some(FieldRepetitionType::REQUIRED),
        name: name.into(),
        num_children: None,
        ..root(0)
    }
}

pub fn data_page(
    num_values: i32,
    encoding: Encoding,
    uncompressed: i32,
    compressed: i32,
) -> PageHeader {
    PageHeader {
        type_: PageType::DATA_PAGE,
        uncompressed_page_size: uncompressed,
        compressed_page_size: compressed,
        crc: None,
        data_page_header: Some(DataPageHeader {
            num_values,
            encoding,
            definition_level_encoding: Encoding::RLE,
            repetition_level_encoding: Encoding::RLE,
            statistics: None,
        }),
        index_page_header: None,
        dictionary_page_header: None,
        data_page_header_v2: None,
    }
}

pub fn dictionary_page(num_values: i32, uncompressed: i32, compressed: i32) -> PageHeader {
    PageHeader {
        type_: PageType::DICTIONARY_PAGE,
        data_page_header: None,
        dictionary_page_header: Some(DictionaryPageHeader {
            num_values,
            encoding: Encoding::PLAIN,
            is_sorted: None,
        }),
        ..data_page(0, Encoding::PLAIN, uncompressed, compressed)
    }
}

/// One column chunk of a raw file: its pages as (header, body) and what
/// its metadata says.
pub struct Chunk {
    pub path: Vec<String>,
    pub type_: Type,
    pub codec: CompressionCodec,
    pub num_values: i64,
    pub pages: Vec<(PageHeader, Vec<u8>)>,
    /// The chunk's total_uncompressed_size when it is to lie; by default
    /// the sum of the pages' claims, as a writer would put it.
    pub declared_uncompressed: Option<i64>,
}

/// A file laid out by hand: "PAR1", the chunks of one row group (none when
/// `chunks` is empty), the footer, its length, "PAR1".
pub fn file(schema: Vec<SchemaElement>, num_rows: i64, chunks: Vec<Chunk>) -> Vec<u8> {
    let mut out = b"PAR1".to_vec();
    let mut columns = Vec::new();
    for chunk in chunks {
        let start = out.len() as i64;
        let mut dictionary_offset = None;
        let mut data_offset = None;
        let mut uncompressed = 0i64;
        let mut encodings = vec![Encoding::RLE];
        for (header, body) in &chunk.pages {
            let at = out.len() as i64;
            if header.type_ == PageType::DICTIONARY_PAGE {
                dictionary_offset.get_or_insert(at);
                encodings.push(Encoding::PLAIN);
            } else {
                data_offset.get_or_insert(at);
                if let Some(data) = &header.data_page_header {
                    encodings.push(data.encoding);
                }
            }
            let head = thrift(header);
            uncompressed += head.len() as i64 + i64::from(header.uncompressed_page_size);
            out.extend_from_slice(&head);
            out.extend_from_slice(body);
        }
        encodings.dedup();
        let compressed = out.len() as i64 - start;
        columns.push(column_chunk(ChunkMeta {
            type_: chunk.type_,
            encodings,
            path: chunk.path,
            codec: chunk.codec,
            num_values: chunk.num_values,
            uncompressed: chunk.declared_uncompressed.unwrap_or(uncompressed),
            compressed,
            start,
            data: data_offset.unwrap_or(start),
            dictionary: dictionary_offset,
        }));
    }
    let row_groups = if columns.is_empty() {
        Vec::new()
    } else {
        let size = out.len() as i64 - 4;
        vec![row_group(columns, num_rows, size)]
    };
    footer(out, schema, num_rows, row_groups)
}

pub fn row_group(columns: Vec<ColumnChunk>, num_rows: i64, size: i64) -> RowGroup {
    RowGroup {
        columns,
        total_byte_size: size,
        num_rows,
        sorting_columns: None,
        file_offset: Some(4),
        total_compressed_size: Some(size),
        ordinal: Some(0),
    }
}

/// `body` followed by the file metadata, its length and the magic.
pub fn footer(
    mut body: Vec<u8>,
    schema: Vec<SchemaElement>,
    num_rows: i64,
    row_groups: Vec<RowGroup>,
) -> Vec<u8> {
    let meta = FileMetaData {
        version: 1,
        schema,
        num_rows,
        row_groups,
        key_value_metadata: None,
        created_by: Some("zdr-host hostile corpus".into()),
        column_orders: None,
        encryption_algorithm: None,
        footer_signing_key_metadata: None,
    };
    let meta = thrift(&meta);
    body.extend_from_slice(&meta);
    body.extend_from_slice(&u32::try_from(meta.len()).unwrap().to_le_bytes());
    body.extend_from_slice(b"PAR1");
    body
}

/// What a column chunk's metadata says; [`column_chunk`] fills in the rest
/// as absent.
pub struct ChunkMeta {
    pub type_: Type,
    pub encodings: Vec<Encoding>,
    pub path: Vec<String>,
    pub codec: CompressionCodec,
    pub num_values: i64,
    pub uncompressed: i64,
    pub compressed: i64,
    /// Where the chunk, its first data page and its dictionary page start.
    pub start: i64,
    pub data: i64,
    pub dictionary: Option<i64>,
}

pub fn column_chunk(meta: ChunkMeta) -> ColumnChunk {
    ColumnChunk {
        file_path: None,
        file_offset: meta.start,
        meta_data: Some(ColumnMetaData {
            type_: meta.type_,
            encodings: meta.encodings,
            path_in_schema: meta.path,
            codec: meta.codec,
            num_values: meta.num_values,
            total_uncompressed_size: meta.uncompressed,
            total_compressed_size: meta.compressed,
            key_value_metadata: None,
            data_page_offset: meta.data,
            index_page_offset: None,
            dictionary_page_offset: meta.dictionary,
            statistics: None,
            encoding_stats: None,
            bloom_filter_offset: None,
            bloom_filter_length: None,
            size_statistics: None,
        }),
        offset_index_offset: None,
        offset_index_length: None,
        column_index_offset: None,
        column_index_length: None,
        crypto_metadata: None,
        encrypted_column_metadata: None,
    }
}
