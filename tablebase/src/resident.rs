//! Whole tables decompressed into memory, for searches that probe many
//! scattered positions: [`Resident`] keeps every value at its stored width
//! (one or two bytes a slot), [`Wdl`] only the outcome (two bits a slot, a
//! quarter of a one-byte table). Both decompress the blocks in parallel
//! straight into their place in the final array, checking each block's
//! checksum.

use crate::format::{EntryKind, FormatError, OUTCOME_DRAW, OUTCOME_LOSS, OUTCOME_WIN};
use crate::huge::HugeArray;
use crate::reader::Table;
use crate::value::{Outcome, Value};
use rayon::prelude::*;

/// A whole table in memory: one or two bytes a slot.
#[derive(Debug)]
pub struct Resident {
    wide: bool,
    bytes: HugeArray<u8>,
}

impl Resident {
    /// Decompress all of `table` (an [`EntryKind::Outcome`] table one byte
    /// a slot, as [`Table::get`] reads it).
    pub fn load(table: &Table) -> Result<Resident, FormatError> {
        let h = table.header();
        if h.kind == EntryKind::Outcome {
            let values = table.values()?;
            let mut bytes = HugeArray::zeroed(values.len());
            bytes
                .par_iter_mut()
                .zip(values.par_iter())
                .for_each(|(b, v)| *b = v.0 as u8);
            return Ok(Resident { wide: false, bytes });
        }
        let width = h.entry_bytes as usize;
        let mut bytes = HugeArray::zeroed(h.slots as usize * width);
        bytes
            .par_chunks_mut(h.block_slots as usize * width)
            .enumerate()
            .try_for_each_init(context, |dctx, (b, out)| {
                table.load_block_into(b, out, dctx.as_mut())
            })?;
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

/// A reusable decompression context, if one can be made.
fn context() -> Option<zstd::bulk::Decompressor<'static>> {
    zstd::bulk::Decompressor::new().ok()
}

/// Two-bit outcome codes, those of the file format's outcome tables.
const DRAW: u8 = OUTCOME_DRAW;
const WIN: u8 = OUTCOME_WIN;
const LOSS: u8 = OUTCOME_LOSS;

fn code(v: u16) -> u8 {
    match Value(v).outcome() {
        Outcome::Draw => DRAW,
        Outcome::Win => WIN,
        Outcome::Loss => LOSS,
    }
}

/// The outcome codes of four one-byte values (little-endian in `x`),
/// packed two bits each, without branches: odd is a loss, even and
/// non-zero a win, zero a draw.
#[inline(always)]
fn pack4(x: u32) -> u8 {
    let odd = x & 0x0101_0101;
    let nonzero = ((((x & 0x7F7F_7F7F) + 0x7F7F_7F7F) | x) & 0x8080_8080) >> 7;
    let c = (nonzero & !odd) | odd << 1;
    let t = c | c >> 6;
    ((t | t >> 12) & 0xFF) as u8
}

/// [`pack4`] for four two-byte values.
#[inline(always)]
fn pack4_wide(x: u64) -> u8 {
    const LOW: u64 = 0x0001_0001_0001_0001;
    const REST: u64 = 0x7FFF_7FFF_7FFF_7FFF;
    let odd = x & LOW;
    let nonzero = ((((x & REST) + REST) | x) >> 15) & LOW;
    let c = (nonzero & !odd) | odd << 1;
    let t = c | c >> 14;
    ((t | t >> 28) & 0xFF) as u8
}

/// The outcome code of every one-byte value.
fn byte_codes() -> [u8; 256] {
    std::array::from_fn(|v| code(v as u16))
}

/// A whole table's outcomes in memory: two bits a slot.
#[derive(Debug)]
pub struct Wdl {
    slots: u64,
    bits: HugeArray<u8>,
}

impl Wdl {
    /// Decompress all of `table`, keeping only outcomes.
    pub fn load(table: &Table) -> Result<Wdl, FormatError> {
        Wdl::load_within(table, None)
    }

    /// Decompress all of `table`, keeping only the outcomes under a count
    /// rule of `limit` plies with none of them played yet: a value further
    /// from its conversion than `limit` plies is a draw
    /// ([`Value::within`]). `None` (no count rule) is [`Wdl::load`]; so is
    /// a table whose longest win and loss are within the limit, or one of
    /// outcomes (they carry no distance).
    pub fn load_within(table: &Table, limit: Option<u16>) -> Result<Wdl, FormatError> {
        let h = table.header();
        let limit = limit.filter(|&l| h.max_win > l || h.max_loss > l);
        let width = h.entry_bytes as usize;
        let block = h.block_slots as usize;
        debug_assert!(block.is_multiple_of(4));
        let mut bits = HugeArray::zeroed((h.slots as usize).div_ceil(4));
        if h.kind == EntryKind::Outcome {
            // Stored as they are kept: decompress into place.
            bits.par_chunks_mut(block / 4)
                .enumerate()
                .try_for_each_init(context, |dctx, (b, out)| {
                    table.load_block_into(b, out, dctx.as_mut())
                })?;
            return Ok(Wdl {
                slots: h.slots,
                bits,
            });
        }
        let codes = byte_codes();
        bits.par_chunks_mut(block / 4)
            .enumerate()
            .try_for_each_init(
                || (Vec::new(), context()),
                |(raw, dctx): &mut (Vec<u8>, _), (b, out)| {
                    let n = table.block_len(b);
                    raw.resize(n * width, 0);
                    table.load_block_into(b, raw, dctx.as_mut())?;
                    if let Some(limit) = limit {
                        // Under a count rule, value by value.
                        let value = |k: usize| match width {
                            1 => Value(raw[k] as u16),
                            _ => Value(u16::from_le_bytes([raw[2 * k], raw[2 * k + 1]])),
                        };
                        for (i, byte) in out.iter_mut().enumerate() {
                            *byte = (4 * i..(4 * i + 4).min(n)).fold(0, |p, k| {
                                p | code(value(k).within(limit).0) << (2 * (k - 4 * i))
                            });
                        }
                    } else if width == 1 {
                        for (byte, four) in out.iter_mut().zip(raw.chunks(4)) {
                            *byte = match four.try_into() {
                                Ok(four) => pack4(u32::from_le_bytes(four)),
                                Err(_) => four
                                    .iter()
                                    .enumerate()
                                    .fold(0, |p, (k, &v)| p | codes[v as usize] << (2 * k)),
                            };
                        }
                    } else {
                        for (byte, four) in out.iter_mut().zip(raw.chunks(8)) {
                            *byte = match four.try_into() {
                                Ok(four) => pack4_wide(u64::from_le_bytes(four)),
                                Err(_) => four.chunks_exact(2).enumerate().fold(0, |p, (k, v)| {
                                    p | code(u16::from_le_bytes([v[0], v[1]])) << (2 * k)
                                }),
                            };
                        }
                    }
                    Ok(())
                },
            )?;
        debug_assert_eq!(table.block_count(), bits.len().div_ceil(block / 4));
        Ok(Wdl {
            slots: h.slots,
            bits,
        })
    }

    /// Outcomes of `slots` slots packed as a table stores them (two-bit
    /// codes, four to a byte, low bits first); `None` unless `packed` has
    /// exactly the bytes that takes.
    pub fn from_packed(slots: u64, packed: &[u8]) -> Option<Wdl> {
        if packed.len() as u64 != slots.div_ceil(4) {
            return None;
        }
        let mut bits = HugeArray::zeroed(packed.len());
        bits.copy_from_slice(packed);
        Some(Wdl { slots, bits })
    }

    /// Number of slots.
    pub fn len(&self) -> u64 {
        self.slots
    }

    /// Whether the table has no slots.
    pub fn is_empty(&self) -> bool {
        self.slots == 0
    }

    /// Ask the processor to bring `slot`'s byte into the cache (a hint:
    /// nothing happens beyond the table or on other architectures).
    #[inline(always)]
    pub fn prefetch(&self, slot: u64) {
        if let Some(byte) = self.bits.get((slot / 4) as usize) {
            crate::huge::prefetch(byte);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack4_equals_the_per_value_codes() {
        let codes = byte_codes();
        let mut x: u32 = 0x1234_5678;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let want = (0..4).fold(0, |p, k| {
                p | codes[(x >> (8 * k) & 0xFF) as usize] << (2 * k)
            });
            assert_eq!(pack4(x), want, "{x:#x}");
        }
        assert_eq!(pack4(0), 0);
        let mut y: u64 = 0x1234_5678_9ABC_DEF0;
        for _ in 0..100_000 {
            y ^= y << 13;
            y ^= y >> 7;
            y ^= y << 17;
            // Values of the format stay below 2^15; test the full range.
            let want = (0..4).fold(0, |p, k| p | code((y >> (16 * k)) as u16) << (2 * k));
            assert_eq!(pack4_wide(y), want, "{y:#x}");
        }
        assert_eq!(
            pack4_wide(0x0100_0000_0003_0002),
            WIN | LOSS << 2 | WIN << 6
        );
        assert_eq!(pack4(0x0201_0002), WIN | LOSS << 4 | WIN << 6);
    }
}
