//! Deflate streams that unpack to far more than they take, made in
//! milliseconds and without ever holding what they unpack to.
//!
//! A piece of text is compressed once, by flate2, and ended with a full
//! flush: its blocks then end on a byte boundary and refer to nothing
//! before them, so the same bytes may be repeated any number of times and
//! every copy unpacks to the same text again. The stream is its pieces,
//! each repeated, and one final empty block. The CRC-32 of the whole is
//! combined from the pieces' (crc32fast's `combine`), never computed over
//! the gigabytes themselves.

use crc32fast::Hasher;
use flate2::{Compress, Compression, FlushCompress, Status};

/// A raw deflate stream, with the CRC-32 and the length of what it unpacks to.
pub struct Deflated {
    pub stream: Vec<u8>,
    pub crc: u32,
    pub len: u64,
}

/// A piece of text compressed once, ready to be repeated.
pub struct Piece {
    block: Vec<u8>,
    crc: Hasher,
    len: u64,
}

impl Piece {
    pub fn new(text: &[u8]) -> Piece {
        let block = compressed(text, FlushCompress::Full);
        // A full flush ends with an empty stored block: 00 00 ff ff.
        assert!(block.ends_with(&[0, 0, 0xff, 0xff]), "no full flush");
        let mut crc = Hasher::new();
        crc.update(text);
        Piece {
            block,
            crc,
            len: text.len() as u64,
        }
    }

    /// How many bytes one copy takes in the stream.
    pub fn packed(&self) -> usize {
        self.block.len()
    }

    /// How many bytes one copy unpacks to.
    pub fn unpacked(&self) -> u64 {
        self.len
    }
}

/// The stream of `pieces` one after the other, each `(piece, times)`
/// repeated `times`, then one final empty block.
pub fn assemble(pieces: &[(&Piece, u64)]) -> Deflated {
    let mut stream = Vec::new();
    let mut crc = Hasher::new();
    let mut len = 0u64;
    for &(piece, times) in pieces {
        for _ in 0..times {
            stream.extend_from_slice(&piece.block);
        }
        crc.combine(&repeated_crc(&piece.crc, times));
        len += piece.len * times;
    }
    stream.extend(compressed(&[], FlushCompress::Finish));
    Deflated {
        stream,
        crc: crc.finalize(),
        len,
    }
}

/// `pieces` one after the other, each `(text, times)` repeated `times`.
pub fn deflate(pieces: &[(&[u8], u64)]) -> Deflated {
    let made: Vec<(Piece, u64)> = pieces
        .iter()
        .map(|&(text, times)| (Piece::new(text), times))
        .collect();
    let refs: Vec<(&Piece, u64)> = made.iter().map(|(p, t)| (p, *t)).collect();
    assemble(&refs)
}

/// The same as a gzip member (RFC 1952): header, stream, CRC-32, length.
pub fn gzip(pieces: &[(&Piece, u64)]) -> (Vec<u8>, u64) {
    let deflated = assemble(pieces);
    // ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL=2 (best) OS=255 (unknown).
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff];
    out.extend_from_slice(&deflated.stream);
    out.extend_from_slice(&deflated.crc.to_le_bytes());
    // ISIZE is the length modulo 2^32.
    out.extend_from_slice(&(deflated.len as u32).to_le_bytes());
    (out, deflated.len)
}

/// `text` compressed by a fresh compressor and ended with `flush`.
fn compressed(text: &[u8], flush: FlushCompress) -> Vec<u8> {
    let mut compress = Compress::new(Compression::best(), false);
    let mut out: Vec<u8> = Vec::with_capacity(text.len() / 4 + 4096);
    loop {
        if out.capacity() - out.len() < 1024 {
            out.reserve(64 * 1024);
        }
        let read = usize::try_from(compress.total_in()).unwrap();
        let status = compress
            .compress_vec(&text[read..], &mut out, flush)
            .expect("deflate");
        let all_in = usize::try_from(compress.total_in()).unwrap() == text.len();
        let done = match flush {
            FlushCompress::Finish => status == Status::StreamEnd,
            // zlib's rule: a flush is complete when it left output room unused.
            _ => all_in && out.len() < out.capacity(),
        };
        if done {
            return out;
        }
    }
}

/// The CRC-32 state of a text (`once`) repeated `times`, by doubling.
fn repeated_crc(once: &Hasher, times: u64) -> Hasher {
    let mut power = once.clone();
    let mut acc = Hasher::new();
    let mut n = times;
    while n > 0 {
        if n & 1 == 1 {
            acc.combine(&power);
        }
        let copy = power.clone();
        power.combine(&copy);
        n >>= 1;
    }
    acc
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    #[test]
    fn repeated_pieces_inflate_to_what_they_claim() {
        let head = b"<head>".as_slice();
        let body = b"<row><c><v>1</v></c></row>".repeat(50);
        let tail = b"</tail>".as_slice();
        let made = deflate(&[(head, 1), (&body, 37), (tail, 1)]);
        let mut expected = head.to_vec();
        for _ in 0..37 {
            expected.extend_from_slice(&body);
        }
        expected.extend_from_slice(tail);
        let mut got = Vec::new();
        flate2::read::DeflateDecoder::new(made.stream.as_slice())
            .read_to_end(&mut got)
            .unwrap();
        assert_eq!(got, expected);
        assert_eq!(made.len, expected.len() as u64);
        assert_eq!(made.crc, crc32fast::hash(&expected));

        let (gz, len) = gzip(&[(&Piece::new(&body), 3)]);
        let mut got = Vec::new();
        flate2::read::MultiGzDecoder::new(gz.as_slice())
            .read_to_end(&mut got)
            .unwrap();
        assert_eq!(got, body.repeat(3));
        assert_eq!(len, got.len() as u64);
    }
}
