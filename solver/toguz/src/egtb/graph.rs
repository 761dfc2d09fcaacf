//! One pair of tables `(n, t)` and `(n, t swapped)` as a game for the
//! retrograde engine, once per target: the moves that keep all `n` stones
//! on the board go from one table to the other (the successor and
//! predecessor lists are built once per pair, in compressed rows), every
//! other move leaves the pair into a solved table with fewer stones.
//!
//! Threshold game `x` (see `docs/toguz.md`): in part 0 the mover wins by
//! collecting `x` more stones and loses if the opponent collects `n + 1 − x`
//! first (the two targets add up to `n + 1`, so at most one is reached);
//! part 1 holds the positions after a move, where the targets are swapped.
//! A position that leaves the pair is summarised by two numbers over its
//! leaving moves, `win_below` (the move wins for targets `x ≤` it) and
//! `loss_from` (it loses for `x ≥` it), from which [`Exit`] follows for
//! every target; a mover without stones (atsyrau: the opponent takes the
//! `n` stones in its holes) is such a position too.

use super::index::Layer;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use tablebase::{Exit, RetroGame};

/// The shares of a solved table: byte = mover's share | opponent's share << 4.
pub type Shares = Vec<u8>;

/// Pack the two shares of a slot.
#[inline]
pub fn pack(mover: u8, opponent: u8) -> u8 {
    mover | opponent << 4
}

/// Unpack a slot: (mover's share, opponent's share).
#[inline]
pub fn unpack(b: u8) -> (u8, u8) {
    (b & 15, b >> 4)
}

/// Successor and predecessor rows of one part.
struct Part {
    layer: Layer,
    succ_start: Vec<u32>,
    succ: Vec<u32>,
    pred_start: Vec<u32>,
    pred: Vec<u32>,
    /// Per slot: (win_below, loss_from); loss_from 0 = no leaving move.
    exits: Vec<(u8, u8)>,
}

/// A pair of tables with its moves, ready for the threshold solves. A
/// table that is its own swap (no tuzdyks) is both parts of the engine's
/// game, with the targets swapped: its rows are held once.
pub struct PairGraph {
    /// One part per distinct table: `[layer, swapped]`, or `[layer]`.
    parts: Vec<Part>,
}

/// Shares of every solved table with fewer stones, by [`Layer::ordinal`].
pub trait Lower: Sync {
    /// The packed shares of `slot` in `layer`.
    fn shares(&self, layer: Layer, slot: u64) -> u8;
}

const CHUNK: u64 = 1 << 12;

impl PairGraph {
    /// Build the pair of `layer` and its swapped table (twice the same table
    /// when the tuzdyks are symmetric, for the two targets).
    pub fn build(layer: Layer, lower: &dyn Lower) -> PairGraph {
        let layers = if layer.swapped() == layer {
            vec![layer]
        } else {
            vec![layer, layer.swapped()]
        };
        let mut parts: Vec<Part> = layers
            .into_iter()
            .map(|l| Part {
                layer: l,
                succ_start: Vec::new(),
                succ: Vec::new(),
                pred_start: Vec::new(),
                pred: Vec::new(),
                exits: Vec::new(),
            })
            .collect();
        for part in &mut parts {
            forward(part, lower);
        }
        // A part's predecessors are the other part's successors reversed
        // (its own, for a table that is its own swap).
        let last = parts.len() - 1;
        let rows: Vec<_> = (0..parts.len())
            .map(|p| transpose(&parts[last - p], parts[p].exits.len()))
            .collect();
        for (part, (start, pred)) in parts.iter_mut().zip(rows) {
            part.pred_start = start;
            part.pred = pred;
        }
        PairGraph { parts }
    }

    /// The rows of part `p` of the engine's game (0 or 1).
    #[inline]
    fn part(&self, p: usize) -> &Part {
        &self.parts[p.min(self.parts.len() - 1)]
    }

    /// Slots of part `p`.
    pub fn size(&self, p: usize) -> u64 {
        self.part(p).exits.len() as u64
    }

    /// The layer of part `p`.
    pub fn layer(&self, p: usize) -> Layer {
        self.part(p).layer
    }

    /// The game for target `x` (1..=n) of part 0.
    pub fn threshold(&self, x: u8) -> Threshold<'_> {
        let n = self.parts[0].layer.stones;
        Threshold {
            g: self,
            target: [x, n + 1 - x],
        }
    }

    /// Heap bytes held.
    pub fn bytes(&self) -> usize {
        self.parts
            .iter()
            .map(|p| {
                4 * (p.succ_start.len() + p.succ.len() + p.pred_start.len() + p.pred.len())
                    + 2 * p.exits.len()
            })
            .sum()
    }
}

/// One chunk's successor counts, successors and exit summaries.
type ChunkRows = (Vec<u8>, Vec<u32>, Vec<(u8, u8)>);

/// Successor rows and exit summaries of one part.
fn forward(part: &mut Part, lower: &dyn Lower) {
    let layer = part.layer;
    let n = layer.stones;
    let partner = layer.swapped();
    let size = layer.size();
    let rows: Vec<ChunkRows> = (0..size.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * CHUNK..((c + 1) * CHUNK).min(size);
            let len = (range.end - range.start) as usize;
            let (mut counts, mut succ, mut exits) = (
                Vec::with_capacity(len),
                Vec::with_capacity(len * 6),
                Vec::with_capacity(len),
            );
            for slot in range {
                let holes = layer.holes(slot).expect("slot in range");
                let board = layer.board(holes);
                let mut buf = [0u32; 9];
                let mut k = 0;
                let (mut win_below, mut loss_from) = (0u8, 0u8);
                let mask = board.legal_mask();
                if mask == 0 {
                    // Atsyrau: the opponent takes all n stones, which
                    // reaches its target n + 1 − x for every x ≥ 1.
                    loss_from = 1;
                }
                let mut m = mask;
                while m != 0 {
                    let hole = m.trailing_zeros() as u8;
                    m &= m - 1;
                    let child = board.after(hole);
                    let (a, b) = (child.kazan[0], child.kazan[1]);
                    let key = super::index::key(&child).expect("fewer stones");
                    if a == 0 && b == 0 {
                        debug_assert_eq!(key.layer, partner);
                        buf[k] = key.slot as u32;
                        k += 1;
                    } else {
                        let (v, u) = unpack(lower.shares(key.layer, key.slot));
                        win_below = win_below.max(a + u);
                        loss_from = loss_from.max(n + 1 - b - v);
                    }
                }
                let row = &mut buf[..k];
                row.sort_unstable();
                let mut last = u32::MAX;
                let mut count = 0u8;
                for &j in row.iter() {
                    if j != last {
                        succ.push(j);
                        count += 1;
                        last = j;
                    }
                }
                counts.push(count);
                exits.push((win_below, loss_from));
            }
            (counts, succ, exits)
        })
        .collect();
    let total: usize = rows.iter().map(|r| r.1.len()).sum();
    part.succ = Vec::with_capacity(total);
    part.succ_start = Vec::with_capacity(size as usize + 1);
    part.exits = Vec::with_capacity(size as usize);
    let mut at = 0u32;
    for (counts, succ, exits) in rows {
        for c in counts {
            part.succ_start.push(at);
            at += c as u32;
        }
        part.succ.extend_from_slice(&succ);
        part.exits.extend_from_slice(&exits);
    }
    part.succ_start.push(at);
}

/// The predecessor rows (starts, predecessors) of a part of `size` slots
/// from the successor rows of `from`, the part its predecessors are in.
fn transpose(from: &Part, size: usize) -> (Vec<u32>, Vec<u32>) {
    let counts: Vec<AtomicU32> = (0..size + 1).map(|_| AtomicU32::new(0)).collect();
    from.succ.par_iter().for_each(|&j| {
        counts[j as usize].fetch_add(1, Relaxed);
    });
    let mut start = Vec::with_capacity(size + 1);
    let mut at = 0u32;
    for c in &counts {
        start.push(at);
        at += c.load(Relaxed);
    }
    // Reuse the counters as fill cursors.
    for (c, s) in counts.iter().zip(&start) {
        c.store(*s, Relaxed);
    }
    let pred: Vec<AtomicU32> = (0..at).map(|_| AtomicU32::new(0)).collect();
    let n = from.exits.len() as u64;
    (0..n.div_ceil(CHUNK)).into_par_iter().for_each(|c| {
        for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
            let (s, e) = (from.succ_start[i as usize], from.succ_start[i as usize + 1]);
            for &j in &from.succ[s as usize..e as usize] {
                let at = counts[j as usize].fetch_add(1, Relaxed);
                pred[at as usize].store(i as u32, Relaxed);
            }
        }
    });
    (start, pred.into_iter().map(AtomicU32::into_inner).collect())
}

/// The pair for one target (see the module comment).
pub struct Threshold<'a> {
    g: &'a PairGraph,
    /// The mover's target in each part.
    target: [u8; 2],
}

impl RetroGame for Threshold<'_> {
    fn parts(&self) -> usize {
        2
    }

    fn size(&self, part: usize) -> u64 {
        self.g.size(part)
    }

    #[inline]
    fn expand(&self, part: usize, idx: u64, succ: &mut impl FnMut(u64)) -> Option<Exit> {
        let p = self.g.part(part);
        let i = idx as usize;
        for &j in &p.succ[p.succ_start[i] as usize..p.succ_start[i + 1] as usize] {
            succ(j as u64);
        }
        let (win_below, loss_from) = p.exits[i];
        let x = self.target[part];
        Some(if x <= win_below {
            Exit::Win
        } else if x < loss_from {
            Exit::Draw
        } else if loss_from > 0 {
            Exit::Loss
        } else {
            Exit::None
        })
    }

    #[inline]
    fn predecessors(&self, part: usize, idx: u64, pred: &mut impl FnMut(u64)) {
        let p = self.g.part(part);
        let i = idx as usize;
        for &j in &p.pred[p.pred_start[i] as usize..p.pred_start[i + 1] as usize] {
            pred(j as u64);
        }
    }
}

/// Solve a pair: the packed shares of each part, from the `n` threshold
/// games (a win for target `x` means the mover secures `x`; a loss means
/// the opponent secures the other target, `n + 1 − x`).
pub fn solve_pair(g: &PairGraph) -> Result<[Shares; 2], tablebase::retro::RetroError> {
    let n = g.layer(0).stones;
    let mut mover = [vec![0u8; g.size(0) as usize], vec![0u8; g.size(1) as usize]];
    let mut opponent = mover.clone();
    for x in 1..=n {
        let game = g.threshold(x);
        let (values, _) = tablebase::solve(&game, &tablebase::Silent)?;
        for part in 0..2 {
            let own = game.target[part];
            let other = n + 1 - own;
            let (mv, op) = (&mut mover[part], &mut opponent[part]);
            values[part]
                .par_iter()
                .zip(mv.par_iter_mut().zip(op.par_iter_mut()))
                .for_each(|(v, (m, o))| match v.outcome() {
                    tablebase::Outcome::Win => *m = (*m).max(own),
                    tablebase::Outcome::Loss => *o = (*o).max(other),
                    tablebase::Outcome::Draw => {}
                });
        }
    }
    let packed = |p: usize| -> Shares {
        mover[p]
            .iter()
            .zip(&opponent[p])
            .map(|(&m, &o)| pack(m, o))
            .collect()
    };
    Ok([packed(0), packed(1)])
}
