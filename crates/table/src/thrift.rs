//! Thrift's compact protocol over a slice, for the parquet crate's
//! generated decoders (`parquet::format`), with bounds. Those decoders
//! reserve a list's memory by the count the bytes declare
//! (`Vec::with_capacity`), and read a field by its id whatever type the
//! bytes say it has, so no check of the bytes apart from the decoding can
//! know which counts they will trust. So the footer and every page header
//! are decoded here first, through this protocol: it reads exactly as the
//! crate's own (`parquet::thrift::TCompactSliceInputProtocol`, which is not
//! public), and refuses a list whose declared count is larger than the
//! bytes that follow or than what is left of a budget of elements, a binary
//! field longer than what follows, and structs nested too deep. The crate
//! then decodes the same bytes with the same calls, and so trusts only
//! counts that were checked.

use thrift::protocol::{
    TFieldIdentifier, TInputProtocol, TListIdentifier, TMapIdentifier, TMessageIdentifier,
    TSetIdentifier, TStructIdentifier, TType,
};
use thrift::{Error, ProtocolError, ProtocolErrorKind, TransportError, TransportErrorKind};

/// Nesting of structs at most (a Parquet footer nests about six deep).
const MAX_DEPTH: usize = 16;

pub struct Bounded<'a> {
    buf: &'a [u8],
    /// List elements that may still be declared.
    budget: usize,
    last_field_id: i16,
    field_ids: Vec<i16>,
    pending_bool: Option<bool>,
}

fn invalid(message: &str) -> Error {
    Error::Protocol(ProtocolError {
        kind: ProtocolErrorKind::InvalidData,
        message: message.to_owned(),
    })
}

fn eof() -> Error {
    Error::Transport(TransportError {
        kind: TransportErrorKind::EndOfFile,
        message: "it ends early".to_owned(),
    })
}

impl<'a> Bounded<'a> {
    /// `budget`: list elements all the lists read may declare together.
    pub fn new(buf: &'a [u8], budget: usize) -> Bounded<'a> {
        Bounded {
            buf,
            budget,
            last_field_id: 0,
            field_ids: Vec::new(),
            pending_bool: None,
        }
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        self.buf
    }

    fn vlq(&mut self) -> thrift::Result<u64> {
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let byte = self.read_byte()?;
            value |= u64::from(byte & 0x7f).wrapping_shl(shift);
            shift += 7;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
            if shift > 63 {
                return Err(invalid("a number is too long"));
            }
        }
    }

    fn zig_zag(&mut self) -> thrift::Result<i64> {
        let value = self.vlq()?;
        Ok((value >> 1) as i64 ^ -((value & 1) as i64))
    }

    fn list_set(&mut self) -> thrift::Result<(TType, i32)> {
        let header = self.read_byte()?;
        let element = match header & 0x0f {
            0x01 | 0x02 => TType::Bool,
            other => u8_to_type(other)?,
        };
        let count = match header >> 4 {
            15 => self.vlq()?,
            n => u64::from(n),
        };
        // Every element takes a byte at least.
        if count > self.buf.len() as u64 || count > self.budget as u64 {
            return Err(invalid("a list declares more elements than it can hold"));
        }
        self.budget -= count as usize;
        Ok((element, count as i32))
    }
}

fn u8_to_type(b: u8) -> thrift::Result<TType> {
    Ok(match b {
        0x00 => TType::Stop,
        0x03 => TType::I08,
        0x04 => TType::I16,
        0x05 => TType::I32,
        0x06 => TType::I64,
        0x07 => TType::Double,
        0x08 => TType::String,
        0x09 => TType::List,
        0x0A => TType::Set,
        0x0B => TType::Map,
        0x0C => TType::Struct,
        _ => return Err(invalid("a field has a type that does not exist")),
    })
}

impl TInputProtocol for Bounded<'_> {
    fn read_message_begin(&mut self) -> thrift::Result<TMessageIdentifier> {
        Err(invalid("not a message"))
    }

    fn read_message_end(&mut self) -> thrift::Result<()> {
        Err(invalid("not a message"))
    }

    fn read_struct_begin(&mut self) -> thrift::Result<Option<TStructIdentifier>> {
        if self.field_ids.len() >= MAX_DEPTH {
            return Err(invalid("structs nest too deep"));
        }
        self.field_ids.push(self.last_field_id);
        self.last_field_id = 0;
        Ok(None)
    }

    fn read_struct_end(&mut self) -> thrift::Result<()> {
        self.last_field_id = self
            .field_ids
            .pop()
            .ok_or_else(|| invalid("a struct ends that did not begin"))?;
        Ok(())
    }

    fn read_field_begin(&mut self) -> thrift::Result<TFieldIdentifier> {
        let header = self.read_byte()?;
        let delta = header >> 4;
        let field_type = match header & 0x0f {
            0x01 => {
                self.pending_bool = Some(true);
                TType::Bool
            }
            0x02 => {
                self.pending_bool = Some(false);
                TType::Bool
            }
            other => u8_to_type(other)?,
        };
        if field_type == TType::Stop {
            return Ok(
                TFieldIdentifier::new::<Option<String>, String, Option<i16>>(
                    None,
                    TType::Stop,
                    None,
                ),
            );
        }
        self.last_field_id = if delta != 0 {
            self.last_field_id
                .checked_add(i16::from(delta))
                .ok_or_else(|| invalid("a field id overflows"))?
        } else {
            self.read_i16()?
        };
        Ok(TFieldIdentifier {
            name: None,
            field_type,
            id: Some(self.last_field_id),
        })
    }

    fn read_field_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn read_bool(&mut self) -> thrift::Result<bool> {
        match self.pending_bool.take() {
            Some(b) => Ok(b),
            None => match self.read_byte()? {
                0x01 => Ok(true),
                0x00 | 0x02 => Ok(false),
                _ => Err(invalid("not a boolean")),
            },
        }
    }

    fn read_bytes(&mut self) -> thrift::Result<Vec<u8>> {
        let len = usize::try_from(self.vlq()?).map_err(|_| eof())?;
        let bytes = self.buf.get(..len).ok_or_else(eof)?.to_vec();
        self.buf = self.buf.get(len..).unwrap_or_default();
        Ok(bytes)
    }

    fn read_i8(&mut self) -> thrift::Result<i8> {
        Ok(self.read_byte()? as i8)
    }

    fn read_i16(&mut self) -> thrift::Result<i16> {
        Ok(self.zig_zag()? as i16)
    }

    fn read_i32(&mut self) -> thrift::Result<i32> {
        Ok(self.zig_zag()? as i32)
    }

    fn read_i64(&mut self) -> thrift::Result<i64> {
        self.zig_zag()
    }

    fn read_double(&mut self) -> thrift::Result<f64> {
        let bytes: [u8; 8] = self
            .buf
            .get(..8)
            .and_then(|b| b.try_into().ok())
            .ok_or_else(eof)?;
        self.buf = self.buf.get(8..).unwrap_or_default();
        Ok(f64::from_le_bytes(bytes))
    }

    fn read_string(&mut self) -> thrift::Result<String> {
        String::from_utf8(self.read_bytes()?).map_err(|_| invalid("a string is not UTF-8"))
    }

    fn read_list_begin(&mut self) -> thrift::Result<TListIdentifier> {
        let (element, count) = self.list_set()?;
        Ok(TListIdentifier::new(element, count))
    }

    fn read_list_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    // Parquet's structures hold no sets or maps; the crate's own protocol
    // refuses them too.
    fn read_set_begin(&mut self) -> thrift::Result<TSetIdentifier> {
        Err(invalid("a set, which Parquet's metadata never holds"))
    }

    fn read_set_end(&mut self) -> thrift::Result<()> {
        Err(invalid("a set, which Parquet's metadata never holds"))
    }

    fn read_map_begin(&mut self) -> thrift::Result<TMapIdentifier> {
        Err(invalid("a map, which Parquet's metadata never holds"))
    }

    fn read_map_end(&mut self) -> thrift::Result<()> {
        Ok(())
    }

    fn read_byte(&mut self) -> thrift::Result<u8> {
        let (&first, rest) = self.buf.split_first().ok_or_else(eof)?;
        self.buf = rest;
        Ok(first)
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use parquet::format::{FileMetaData, PageHeader};
    use parquet::thrift::TSerializable;

    #[test]
    fn declared_counts_must_be_there_whatever_type_the_field_claims() {
        // FileMetaData's field 2 (schema, a list) sent as an i32 whose
        // varint bytes read as a list header declaring 2^31 elements: the
        // generated decoder reads a list there all the same.
        let lying = [0x15, 0x02, 0x15, 0xf5, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00];
        let mut protocol = Bounded::new(&lying, usize::MAX);
        assert!(FileMetaData::read_from_in_protocol(&mut protocol).is_err());
        // A binary field longer than the bytes.
        let binary = [0x18, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00];
        let mut protocol = Bounded::new(&binary, 100);
        assert!(PageHeader::read_from_in_protocol(&mut protocol).is_err());
        // A budget of elements.
        let list = [0x19, 0x35, 0x02, 0x04, 0x06, 0x00];
        let mut protocol = Bounded::new(&list, 2);
        assert!(protocol.read_struct_begin().is_ok());
        assert!(protocol.read_field_begin().is_ok());
        assert!(protocol.read_list_begin().is_err());
        let mut protocol = Bounded::new(&list, 3);
        protocol.read_struct_begin().unwrap();
        protocol.read_field_begin().unwrap();
        assert_eq!(protocol.read_list_begin().unwrap().size, 3);
    }
}
