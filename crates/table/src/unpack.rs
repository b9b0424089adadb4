//! What a compressed file unpacks to, counted as it comes out of the
//! decompressor and stopped at the limit: the sizes a zip's headers or a
//! Parquet page's header declare are never trusted. The same crates and
//! the same decoders as the readers' are used, so what is counted here is
//! what the readers will unpack.

use std::io::{Cursor, Read};

use super::{TableError, MAX_UNPACKED};
use zdr_limits::Stop;

/// Parts a workbook may have.
const MAX_PARTS: usize = 1_000;
/// What `xl/sharedStrings.xml` may unpack to: the reader keeps each of its
/// strings, so it is held to less than the rest.
const MAX_SHARED_STRINGS: u64 = 8 << 20;
/// The longest tag and the longest text between tags an XML part may have:
/// the XML reader holds one whole at a time.
const MAX_TAG: usize = 64 << 10;
const MAX_TEXT_RUN: usize = 1 << 20;

const CHUNK: usize = 64 << 10;

/// Reads `reader` to its end, handing each chunk to `each`; an error when
/// more than `limit` bytes come out. The count of what came out otherwise.
pub fn count(
    mut reader: impl Read,
    limit: u64,
    stop: &Stop,
    mut each: impl FnMut(&[u8]) -> Result<(), TableError>,
    over: impl Fn() -> TableError,
) -> Result<u64, TableError> {
    let mut buffer = vec![0u8; CHUNK];
    let mut total = 0u64;
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => return Ok(total),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                return Err(TableError::Format(format!(
                    "the file's compressed data are malformed: {e}"
                )))
            }
        };
        total += n as u64;
        if total > limit {
            return Err(over());
        }
        each(buffer.get(..n).unwrap_or_default())?;
        stop.check()?;
    }
}

/// The longest tag and text run of an XML text, found as it streams by.
#[derive(Default)]
struct Runs {
    in_tag: bool,
    run: usize,
}

impl Runs {
    fn feed(&mut self, mut bytes: &[u8], part: &str) -> Result<(), TableError> {
        loop {
            // Jump to the next delimiter of the run we are in.
            let end = if self.in_tag { b'>' } else { b'<' };
            let (run, found) = match memchr::memchr(end, bytes) {
                Some(at) => (at, true),
                None => (bytes.len(), false),
            };
            self.run += run;
            let limit = if self.in_tag { MAX_TAG } else { MAX_TEXT_RUN };
            if self.run > limit {
                let what = if self.in_tag { "a tag" } else { "a text" };
                return Err(TableError::Bound(format!(
                    "the workbook's part {part} has {what} longer than {} KiB, the most one may have",
                    limit >> 10
                )));
            }
            if !found {
                return Ok(());
            }
            (self.in_tag, self.run) = (!self.in_tag, 0);
            bytes = bytes.get(run + 1..).unwrap_or_default();
        }
    }
}

/// Unpacks every part of a workbook's zip once, counting: the parts
/// together at most [`MAX_UNPACKED`], the shared strings at most
/// [`MAX_SHARED_STRINGS`], no tag or text of an XML part beyond its bound.
pub fn check_zip(bytes: &[u8], stop: &Stop) -> Result<(), TableError> {
    let malformed = |e: zip::result::ZipError| {
        TableError::Excel(format!("the workbook's zip is malformed ({e})"))
    };
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(malformed)?;
    if zip.len() > MAX_PARTS {
        return Err(TableError::Bound(format!(
            "the workbook has {} parts; a workbook may have at most {MAX_PARTS}",
            zip.len()
        )));
    }
    let mut total = 0u64;
    for i in 0..zip.len() {
        let part = zip.by_index(i).map_err(malformed)?;
        let name: String = part.name().chars().take(100).collect();
        let xml = name.ends_with(".xml") || name.ends_with(".rels");
        let limit = if name.eq_ignore_ascii_case("xl/sharedStrings.xml") {
            MAX_SHARED_STRINGS
        } else {
            MAX_UNPACKED as u64 - total
        };
        let mut runs = Runs::default();
        let unpacked = count(
            part,
            limit,
            stop,
            |chunk| if xml { runs.feed(chunk, &name) } else { Ok(()) },
            || {
                if limit == MAX_SHARED_STRINGS {
                    TableError::Bound(format!(
                        "the workbook's shared strings unpack to more than {} MiB, the most they may (counted as they unpack)",
                        MAX_SHARED_STRINGS >> 20
                    ))
                } else {
                    TableError::Unpacked {
                        what: format!("the workbook (at its part {name}, counted as it unpacks)"),
                    }
                }
            },
        )?;
        total += unpacked;
        if total > MAX_UNPACKED as u64 {
            return Err(TableError::Unpacked {
                what: "the workbook (counted as it unpacks)".into(),
            });
        }
    }
    Ok(())
}

/// A Parquet page compressed with gzip, inflated as the reader inflates it
/// (every gzip member), counting: an error when it gives more than it
/// declares.
pub fn check_gzip(compressed: &[u8], declared: u64, stop: &Stop) -> Result<(), TableError> {
    let decoder = flate2::read::MultiGzDecoder::new(compressed);
    count(
        decoder,
        declared,
        stop,
        |_| Ok(()),
        || TableError::Unpacked {
            what: "a page of the Parquet file (it gives more than its header declares)".into(),
        },
    )
    .map(|_| ())
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_gzip_page_that_gives_more_than_it_declares_is_stopped() {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&vec![0u8; 1 << 20]).unwrap();
        let page = encoder.finish().unwrap();
        let stop = Stop::never();
        assert!(check_gzip(&page, 1 << 20, &stop).is_ok());
        assert!(matches!(
            check_gzip(&page, 4096, &stop),
            Err(TableError::Unpacked { .. })
        ));
    }

    #[test]
    fn long_tags_and_texts_are_refused() {
        let mut runs = Runs::default();
        assert!(runs.feed(b"<a b=\"1\">text</a>", "p").is_ok());
        let tag = format!("<c {}>", "a=\"\" ".repeat(MAX_TAG / 4));
        assert!(Runs::default().feed(tag.as_bytes(), "p").is_err());
        let text = format!("<t>{}</t>", "x".repeat(MAX_TEXT_RUN + 1));
        assert!(Runs::default().feed(text.as_bytes(), "p").is_err());
    }
}
