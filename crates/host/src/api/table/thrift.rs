//! A check of Thrift compact-protocol bytes before the parquet crate's
//! generated decoder reads them: that decoder reserves a list's memory by
//! the count the bytes declare (`Vec::with_capacity`), and the protocol
//! reads a binary field into a buffer of its declared length. Here every
//! declared count and length is checked against the bytes that are really
//! there, the nesting is bounded, and so is the number of list elements in
//! all, so that the decoder's reservations follow what is actually read.

/// Nesting of structs and collections at most (a Parquet footer nests
/// about six deep).
const MAX_DEPTH: usize = 16;

#[derive(Debug, PartialEq)]
pub struct Malformed(pub &'static str);

/// Elements of all lists, sets and maps of one check at most.
pub struct Budget(pub usize);

struct Walk<'a> {
    bytes: &'a [u8],
    at: usize,
    budget: &'a mut Budget,
}

/// Checks the struct at the start of `bytes`; the bytes it takes.
pub fn check_struct(bytes: &[u8], budget: &mut Budget) -> Result<usize, Malformed> {
    let mut walk = Walk {
        bytes,
        at: 0,
        budget,
    };
    walk.structure(0)?;
    Ok(walk.at)
}

impl Walk<'_> {
    fn byte(&mut self) -> Result<u8, Malformed> {
        let b = *self.bytes.get(self.at).ok_or(Malformed("it ends early"))?;
        self.at += 1;
        Ok(b)
    }

    fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }

    fn varint(&mut self) -> Result<u64, Malformed> {
        let mut value = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f).checked_shl(shift).unwrap_or(0);
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(Malformed("a number is too long"))
    }

    fn skip(&mut self, n: u64) -> Result<(), Malformed> {
        if n > self.left() as u64 {
            return Err(Malformed("a length is larger than what follows"));
        }
        self.at += n as usize;
        Ok(())
    }

    /// `count` elements that each take at least a byte.
    fn elements(&mut self, count: u64) -> Result<(), Malformed> {
        if count > self.left() as u64 {
            return Err(Malformed("a count is larger than what follows"));
        }
        self.budget.0 = self
            .budget
            .0
            .checked_sub(count as usize)
            .ok_or(Malformed("it holds too many elements"))?;
        Ok(())
    }

    fn value(&mut self, kind: u8, depth: usize) -> Result<(), Malformed> {
        if depth > MAX_DEPTH {
            return Err(Malformed("it nests too deep"));
        }
        match kind {
            // true, false (as a field; in a collection, a byte follows)
            1 | 2 => Ok(()),
            3 => self.skip(1),
            4..=6 => self.varint().map(|_| ()),
            7 => self.skip(8),
            8 => {
                let len = self.varint()?;
                self.skip(len)
            }
            9 | 10 => {
                let header = self.byte()?;
                let element = header & 0x0f;
                let count = match header >> 4 {
                    15 => self.varint()?,
                    n => u64::from(n),
                };
                self.elements(count)?;
                for _ in 0..count {
                    if matches!(element, 1 | 2) {
                        self.skip(1)?;
                    } else {
                        self.value(element, depth + 1)?;
                    }
                }
                Ok(())
            }
            11 => {
                let count = self.varint()?;
                if count == 0 {
                    return Ok(());
                }
                let types = self.byte()?;
                self.elements(count)?;
                for _ in 0..count {
                    for kind in [types >> 4, types & 0x0f] {
                        if matches!(kind, 1 | 2) {
                            self.skip(1)?;
                        } else {
                            self.value(kind, depth + 1)?;
                        }
                    }
                }
                Ok(())
            }
            12 => self.structure(depth + 1),
            _ => Err(Malformed("it holds a type that does not exist")),
        }
    }

    fn structure(&mut self, depth: usize) -> Result<(), Malformed> {
        if depth > MAX_DEPTH {
            return Err(Malformed("it nests too deep"));
        }
        loop {
            let header = self.byte()?;
            if header == 0 {
                return Ok(());
            }
            if header >> 4 == 0 {
                // The field id, written whole (a zigzag i16).
                self.varint()?;
            }
            self.value(header & 0x0f, depth)?;
        }
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn declared_counts_and_lengths_must_be_there() {
        // A struct with field 1, a list of 3 i32 (1, 2, 3), then stop.
        let good = [0x19, 0x35, 0x02, 0x04, 0x06, 0x00];
        assert_eq!(check_struct(&good, &mut Budget(100)), Ok(6));
        // The same list claiming 2^31 elements.
        let lying = [0x19, 0xf5, 0xff, 0xff, 0xff, 0xff, 0x07, 0x02, 0x00];
        assert!(check_struct(&lying, &mut Budget(usize::MAX)).is_err());
        // A binary field claiming 4 GB.
        let binary = [0x18, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00];
        assert!(check_struct(&binary, &mut Budget(100)).is_err());
        // More elements than the budget.
        assert!(check_struct(&good, &mut Budget(2)).is_err());
        // Structs nested beyond the bound.
        let mut deep = vec![0x1c; MAX_DEPTH + 2];
        deep.extend(vec![0u8; MAX_DEPTH + 3]);
        assert_eq!(
            check_struct(&deep, &mut Budget(100)),
            Err(Malformed("it nests too deep"))
        );
    }
}
