//! The integer network: first-layer weights (one column of [`ACC`] i16 per
//! input), clipped ReLU, a dense layer of [`HIDDEN`] units, clipped ReLU, one
//! output, plus a direct kazan-difference term; its binary file format
//! (header with the command that made it, checksum) and the built-in net
//! (`solver/toguz/src/nnue.bin`).
//!
//! Fixed point: the accumulator is in units of 1/[`QA`], clipped to
//! 0..=QA (0..1) and brought to units of 1/[`QX`] for the dense layer,
//! whose weights are in 1/[`QB`] (so the hidden units are in 1/(QX × QB),
//! clipped to 0..1); the output weights are in centi-stones × [`QO`]. One stone of kazan
//! difference is worth about 100, as in the linear model.

use super::accumulator::Accumulator;
use super::features::{self, INPUTS, MAX_ACTIVE};
use crate::board::Board;
use std::sync::OnceLock;

/// Width of the first layer (per point of view).
pub const ACC: usize = 64;
/// Units of the hidden dense layer.
pub const HIDDEN: usize = 16;
/// Fixed-point unit of the first layer (1.0 = QA).
pub const QA: i32 = 512;
/// Fixed-point unit of the dense layer's inputs: the clipped accumulator
/// divided by `QA / QX` (1.0 = QX).
pub const QX: i32 = 128;
/// Fixed-point unit of the dense weights (1.0 = QB).
pub const QB: i32 = 2048;
/// Fixed-point factor of the output weights (centi-stones × QO).
pub const QO: i32 = 16;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"TOGUZNN1";

/// Largest output weight magnitude a file may hold (keeps the i32 sums
/// exact).
const MAX_OUT_WEIGHT: i32 = 1 << 20;

/// Integer weights of the network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// First layer: one column per input.
    pub w1: Vec<[i16; ACC]>,
    /// First-layer bias.
    pub b1: [i16; ACC],
    /// Dense layer: per hidden unit, weights of the side to move's
    /// accumulator then the opponent's.
    pub w2: Vec<[i16; 2 * ACC]>,
    /// Dense-layer bias (units QX × QB).
    pub b2: [i32; HIDDEN],
    /// Output weights (centi-stones × QO per hidden unit at 1.0).
    pub w3: [i32; HIDDEN],
    /// Output bias (centi-stones × QO × QX).
    pub b3: i32,
    /// Per stone of kazan difference (centi-stones × QO).
    pub w_kazan: i32,
    /// How it was made (the command line of `solver toguz train-net`).
    pub origin: String,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({})", self.origin)
    }
}

/// A network file that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// The file does not start with [`MAGIC`].
    #[error("not a Toguz network file (no `TOGUZNN1` at the start)")]
    Magic,
    /// The file ends before its data does.
    #[error("truncated network file")]
    Truncated,
    /// The header is not UTF-8.
    #[error("the network file's header is not text")]
    Header,
    /// Layer sizes other than this build's.
    #[error("network of {inputs} inputs, {acc} x {hidden}; this build reads {INPUTS} inputs, {ACC} x {HIDDEN}")]
    Shape {
        /// Inputs in the file.
        inputs: u32,
        /// First-layer width in the file.
        acc: u32,
        /// Hidden units in the file.
        hidden: u32,
    },
    /// The checksum does not match the data.
    #[error("network file damaged (checksum mismatch)")]
    Checksum,
    /// Bytes after the checksum.
    #[error("network file has trailing bytes")]
    Trailing,
    /// Weights so large that the integer sums could overflow.
    #[error("network weights out of range ({0})")]
    Range(&'static str),
    /// Reading the file failed.
    #[error("{0}")]
    Io(String),
}

/// FNV-1a over `bytes`.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], NetError> {
        let end = self.at.checked_add(n).ok_or(NetError::Truncated)?;
        let s = self.bytes.get(self.at..end).ok_or(NetError::Truncated)?;
        self.at = end;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, NetError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().map_err(|_| NetError::Truncated)?,
        ))
    }
    fn i32(&mut self) -> Result<i32, NetError> {
        Ok(self.u32()? as i32)
    }
    fn i16(&mut self) -> Result<i16, NetError> {
        let s = self.take(2)?;
        Ok(i16::from_le_bytes([s[0], s[1]]))
    }
}

impl Network {
    /// All weights zero.
    pub fn zero(origin: &str) -> Network {
        Network {
            w1: vec![[0; ACC]; INPUTS],
            b1: [0; ACC],
            w2: vec![[0; 2 * ACC]; HIDDEN],
            b2: [0; HIDDEN],
            w3: [0; HIDDEN],
            b3: 0,
            w_kazan: 0,
            origin: origin.to_string(),
        }
    }

    /// Check that no accumulator or sum can overflow: the bias plus the
    /// largest column of each input group that can be active at once
    /// stays within i16, and the later layers within i32.
    pub fn check(&self) -> Result<(), NetError> {
        if self.w1.len() != INPUTS || self.w2.len() != HIDDEN {
            return Err(NetError::Range("layer sizes"));
        }
        for h in 0..ACC {
            // 18 holes, 2 kazans, 2 tuzdyks: bound each by the largest
            // weight of its group.
            let max = |r: std::ops::Range<usize>| {
                self.w1[r]
                    .iter()
                    .map(|c| i32::from(c[h]).abs())
                    .max()
                    .unwrap_or(0)
            };
            let bound = i32::from(self.b1[h]).abs()
                + 18 * max(features::F_HOLE..features::F_KAZAN)
                + 2 * max(features::F_KAZAN..features::F_TUZDYK)
                + 2 * max(features::F_TUZDYK..INPUTS);
            if bound > i32::from(i16::MAX) {
                return Err(NetError::Range("first layer"));
            }
        }
        const { assert!(MAX_ACTIVE == 22) };
        for k in 0..HIDDEN {
            let s: i64 = self.w2[k].iter().map(|&w| i64::from(w).abs()).sum::<i64>()
                * i64::from(QX)
                + i64::from(self.b2[k]).abs();
            if s > i64::from(i32::MAX) / 2 {
                return Err(NetError::Range("dense layer"));
            }
            if self.w3[k].abs() > MAX_OUT_WEIGHT {
                return Err(NetError::Range("output layer"));
            }
        }
        if self.b3.abs() > MAX_OUT_WEIGHT * QX || self.w_kazan.abs() > MAX_OUT_WEIGHT {
            return Err(NetError::Range("output bias"));
        }
        Ok(())
    }

    /// The evaluation of the position whose accumulator is `acc`, for
    /// `side` to move, with kazan difference `kazan_diff` (side to move's
    /// minus the opponent's): centi-stones.
    #[inline]
    pub fn output(&self, acc: &Accumulator, side: usize, kazan_diff: i32) -> i32 {
        let mut x = [0i16; 2 * ACC];
        let (me, opp) = (&acc.v[side], &acc.v[1 - side]);
        const SHIFT: u32 = (QA / QX).trailing_zeros();
        for i in 0..ACC {
            x[i] = me[i].clamp(0, QA as i16) >> SHIFT;
            x[ACC + i] = opp[i].clamp(0, QA as i16) >> SHIFT;
        }
        let mut out = i64::from(self.b3 + self.w_kazan * kazan_diff * QX) * i64::from(QB);
        for k in 0..HIDDEN {
            let w = &self.w2[k];
            let mut z = 0i32;
            for j in 0..2 * ACC {
                z += i32::from(x[j]) * i32::from(w[j]);
            }
            // The hidden unit in units of QX × QB (no rounding here: the
            // output weights are large).
            let h = (z + self.b2[k]).clamp(0, QX * QB);
            out += i64::from(h) * i64::from(self.w3[k]);
        }
        (out / (i64::from(QX) * i64::from(QB) * i64::from(QO))) as i32
    }

    /// Evaluate a position that is not finished (centi-stones for the side
    /// to move), computing the accumulator from scratch.
    pub fn evaluate(&self, b: &Board) -> i32 {
        let acc = Accumulator::refresh(self, b);
        let me = b.side.index();
        self.output(
            &acc,
            me,
            i32::from(b.kazan[me]) - i32::from(b.kazan[1 - me]),
        )
    }

    /// The binary form: [`MAGIC`], header length and header (the origin),
    /// inputs / first-layer width / hidden units as u32, then the weights
    /// little-endian (w1, b1 as i16; w2 as i16; b2, w3, b3, w_kazan as
    /// i32), then an FNV-1a checksum (u64) of everything before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(INPUTS * ACC * 2 + 4096);
        v.extend_from_slice(MAGIC);
        v.extend_from_slice(&(self.origin.len() as u32).to_le_bytes());
        v.extend_from_slice(self.origin.as_bytes());
        for n in [INPUTS, ACC, HIDDEN] {
            v.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for c in self.w1.iter().chain(std::iter::once(&self.b1)) {
            for w in c {
                v.extend_from_slice(&w.to_le_bytes());
            }
        }
        for c in &self.w2 {
            for w in c {
                v.extend_from_slice(&w.to_le_bytes());
            }
        }
        for w in self
            .b2
            .iter()
            .chain(&self.w3)
            .chain([&self.b3, &self.w_kazan])
        {
            v.extend_from_slice(&w.to_le_bytes());
        }
        let sum = fnv(&v);
        v.extend_from_slice(&sum.to_le_bytes());
        v
    }

    /// Read the binary form (see [`Network::to_bytes`]); damaged, foreign
    /// or out-of-range files are refused.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetError::Magic);
        }
        if bytes.len() < MAGIC.len() + 8 {
            return Err(NetError::Truncated);
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut r = Reader {
            bytes,
            at: MAGIC.len(),
        };
        let len = r.u32()? as usize;
        let origin = std::str::from_utf8(r.take(len)?)
            .map_err(|_| NetError::Header)?
            .to_string();
        let (inputs, acc, hidden) = (r.u32()?, r.u32()?, r.u32()?);
        if (inputs as usize, acc as usize, hidden as usize) != (INPUTS, ACC, HIDDEN) {
            return Err(NetError::Shape {
                inputs,
                acc,
                hidden,
            });
        }
        let mut n = Network::zero(&origin);
        for c in n.w1.iter_mut() {
            for w in c.iter_mut() {
                *w = r.i16()?;
            }
        }
        for w in n.b1.iter_mut() {
            *w = r.i16()?;
        }
        for c in n.w2.iter_mut() {
            for w in c.iter_mut() {
                *w = r.i16()?;
            }
        }
        for w in n.b2.iter_mut().chain(n.w3.iter_mut()) {
            *w = r.i32()?;
        }
        n.b3 = r.i32()?;
        n.w_kazan = r.i32()?;
        match r.at.cmp(&body.len()) {
            std::cmp::Ordering::Greater => return Err(NetError::Truncated),
            std::cmp::Ordering::Less => return Err(NetError::Trailing),
            std::cmp::Ordering::Equal => {}
        }
        let want = u64::from_le_bytes(sum.try_into().map_err(|_| NetError::Truncated)?);
        if fnv(body) != want {
            return Err(NetError::Checksum);
        }
        n.check()?;
        Ok(n)
    }

    /// Read a network file and keep it for the rest of the program (engine
    /// configurations refer to it by `&'static`).
    pub fn load(path: &std::path::Path) -> Result<&'static Network, NetError> {
        let bytes =
            std::fs::read(path).map_err(|e| NetError::Io(format!("{}: {e}", path.display())))?;
        let n = Network::from_bytes(&bytes)?;
        Ok(Box::leak(Box::new(n)))
    }
}

/// The network shipped with the engine (`solver/toguz/src/nnue.bin`; the
/// command that made it is in its header).
pub fn builtin() -> Result<&'static Network, NetError> {
    static N: OnceLock<Result<Network, NetError>> = OnceLock::new();
    N.get_or_init(|| Network::from_bytes(include_bytes!("../nnue.bin")))
        .as_ref()
        .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_net() -> Network {
        let mut n = Network::zero("solver toguz train-net --seed 1\nsecond line");
        for (i, c) in n.w1.iter_mut().enumerate() {
            for (h, w) in c.iter_mut().enumerate() {
                *w = ((i * 31 + h * 7) % 61) as i16 - 30;
            }
        }
        n.b1[3] = 40;
        n.w2[2][5] = -17;
        n.b2[1] = 1000;
        n.w3 = [5; HIDDEN];
        n.b3 = -12;
        n.w_kazan = 1600;
        n
    }

    #[test]
    fn file_round_trips() {
        let n = sample_net();
        let back = Network::from_bytes(&n.to_bytes()).unwrap();
        assert_eq!(back, n);
        assert_eq!(back.origin, n.origin);
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = sample_net().to_bytes();
        assert_eq!(Network::from_bytes(b"hello"), Err(NetError::Magic));
        assert_eq!(Network::from_bytes(&bytes[..0]), Err(NetError::Magic));
        for cut in [8, 11, 40, bytes.len() / 2, bytes.len() - 1] {
            assert!(Network::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        // Every flipped byte after the magic is caught.
        for at in (8..bytes.len()).step_by(97) {
            let mut b = bytes.clone();
            b[at] ^= 0x20;
            assert!(Network::from_bytes(&b).is_err(), "byte {at}");
        }
        let mut b = bytes.clone();
        b.push(0);
        assert!(Network::from_bytes(&b).is_err());
        // Right checksum, wrong shape.
        let mut body = bytes[..bytes.len() - 8].to_vec();
        let at = 12 + sample_net().origin.len() + 4;
        body[at] = 65;
        let sum = fnv(&body);
        body.extend_from_slice(&sum.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&body),
            Err(NetError::Shape { acc: 65, .. })
        ));
        // Right checksum, weights that could overflow the accumulator.
        let mut n = sample_net();
        n.w1[0][0] = 30000;
        assert_eq!(
            Network::from_bytes(&n.to_bytes()),
            Err(NetError::Range("first layer"))
        );
    }

    #[test]
    fn builtin_net_loads_and_scores_material() {
        let n = builtin().expect("built-in network");
        assert!(!n.origin.is_empty());
        // Ten stones up with the rest equal is clearly good for the mover.
        let b: Board = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 w 0,0 -,-"
            .parse()
            .unwrap();
        let up = Board::from_parts(
            {
                let mut h = b.holes;
                h[0] = 0;
                h[9] = 8;
                h
            },
            [10, 0],
            b.tuzdyk,
            b.side,
        );
        assert!(
            n.evaluate(&up) > n.evaluate(&b) + 300,
            "{} {}",
            n.evaluate(&up),
            n.evaluate(&b)
        );
    }
}
