//! Whole tables decompressed into memory, for searches that probe many
//! scattered positions: [`Resident`] keeps every value at its stored width
//! (one or two bytes a slot), [`Wdl`] only the outcome (two bits a slot, a
//! quarter of a one-byte table). Both decompress the blocks in parallel
//! straight into their place in the final array, checking each block's
//! checksum.

use crate::format::FormatError;
use crate::reader::Table;
use crate::value::{Outcome, Value};
use rayon::prelude::*;

/// A whole table in memory: one or two bytes a slot.
#[derive(Debug, Clone)]
pub struct Resident {
    wide: bool,
    bytes: Vec<u8>,
}

impl Resident {
    /// Decompress all of `table`.
    pub fn load(table: &Table) -> Result<Resident, FormatError> {
        let h = table.header();
        let width = h.entry_bytes as usize;
        let mut bytes = vec![0u8; h.slots as usize * width];
        bytes
            .par_chunks_mut(h.block_slots as usize * width)
            .enumerate()
            .try_for_each(|(b, out)| table.load_block_into(b, out))?;
        Ok(Resident {
            wide: width == 2,
            bytes,
        })
    }

    /// Number of slots.
    pub fn len(&self) -> u64 {
        (self.bytes.len() / if self.wide { 2 } else { 1 }) as u64
    }

    /// Whether the table has no slots.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The value in `slot`, or `None` beyond the table.
    #[inline]
    pub fn get(&self, slot: u64) -> Option<Value> {
        let i = slot as usize;
        if self.wide {
            let b = self.bytes.get(2 * i..2 * i + 2)?;
            Some(Value(u16::from_le_bytes([b[0], b[1]])))
        } else {
            self.bytes.get(i).map(|&b| Value(b as u16))
        }
    }
}

/// Two-bit outcome codes.
const DRAW: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;

fn code(v: u16) -> u8 {
    match Value(v).outcome() {
        Outcome::Draw => DRAW,
        Outcome::Win => WIN,
        Outcome::Loss => LOSS,
    }
}

/// The outcome code of every one-byte value.
fn byte_codes() -> [u8; 256] {
    std::array::from_fn(|v| code(v as u16))
}

/// A whole table's outcomes in memory: two bits a slot.
#[derive(Debug, Clone)]
pub struct Wdl {
    slots: u64,
    bits: Vec<u8>,
}

impl Wdl {
    /// Decompress all of `table`, keeping only outcomes.
    pub fn load(table: &Table) -> Result<Wdl, FormatError> {
        let h = table.header();
        let width = h.entry_bytes as usize;
        let block = h.block_slots as usize;
        debug_assert!(block.is_multiple_of(4));
        let codes = byte_codes();
        let mut bits = vec![0u8; (h.slots as usize).div_ceil(4)];
        bits.par_chunks_mut(block / 4)
            .enumerate()
            .try_for_each_init(Vec::new, |raw: &mut Vec<u8>, (b, out)| {
                let n = table.block_len(b);
                raw.resize(n * width, 0);
                table.load_block_into(b, raw)?;
                for (i, byte) in out.iter_mut().enumerate() {
                    let mut packed = 0;
                    for k in 0..4.min(n.saturating_sub(4 * i)) {
                        let slot = 4 * i + k;
                        let c = if width == 1 {
                            codes[raw[slot] as usize]
                        } else {
                            code(u16::from_le_bytes([raw[2 * slot], raw[2 * slot + 1]]))
                        };
                        packed |= c << (2 * k);
                    }
                    *byte = packed;
                }
                Ok(())
            })?;
        debug_assert_eq!(table.block_count(), bits.len().div_ceil(block / 4));
        Ok(Wdl {
            slots: h.slots,
            bits,
        })
    }

    /// Number of slots.
    pub fn len(&self) -> u64 {
        self.slots
    }

    /// Whether the table has no slots.
    pub fn is_empty(&self) -> bool {
        self.slots == 0
    }

    /// The outcome in `slot`, or `None` beyond the table.
    #[inline]
    pub fn get(&self, slot: u64) -> Option<Outcome> {
        if slot >= self.slots {
            return None;
        }
        Some(
            match self.bits[(slot / 4) as usize] >> (2 * (slot % 4)) & 3 {
                WIN => Outcome::Win,
                LOSS => Outcome::Loss,
                _ => Outcome::Draw,
            },
        )
    }
}
