//! Move ordering for the placement search. Cheap, table-driven scores,
//! larger first: the transposition-table move, then mill closings (taking
//! a stone from an open two of the opponent first), then blocks of the
//! opponent's open twos, then our new open twos, then the history of
//! moves that cut off before, then busy points.
//!
//! A second ordering, [`MoveOrder::Shuffled`], keeps the classes (closings,
//! blocks, twos) but orders the moves inside a class by a seeded
//! pseudo-random key instead of history and mobility: the same proof
//! reached along different paths, to check a new result twice.

use crate::rules::board::Board;
use crate::rules::position::{Move, Position};

/// Number of the mills through `point` (other than `point` itself) where
/// `mine` has `want` stones and `other` none.
#[inline(always)]
fn lines_with<B: Board>(point: usize, mine: u32, other: u32, want: u32) -> i32 {
    B::mills_at(point)
        .iter()
        .filter(|&&line| {
            let line = line & !(1 << point);
            (line & mine).count_ones() == want && line & other == 0
        })
        .count() as i32
}

/// History scores: how often a placement on a point cut off, by colour.
#[derive(Clone)]
pub(super) struct History([[u32; 32]; 2]);

impl History {
    pub fn new() -> History {
        History([[0; 32]; 2])
    }

    /// Credit the placement `m` of the side to move in `pos`, found
    /// `depth` plies from the end of placement, with a cutoff.
    pub fn reward(&mut self, pos: &Position, m: Move, depth: u8) {
        let h = &mut self.0[pos.to_move.index()][m.to() as usize];
        *h = h.saturating_add(1 << depth.min(20));
    }

    fn get(&self, pos: &Position, to: usize) -> u32 {
        self.0[pos.to_move.index()][to]
    }
}

/// How the search orders the moves of a node (after the transposition
/// table's move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MoveOrder {
    /// Classes (mill closings, blocks, open twos), then the history of
    /// cutoffs, then busy points: the fast default.
    #[default]
    Heuristic,
    /// The same classes, then a pseudo-random key seeded by the value
    /// (no history, no mobility).
    Shuffled(u64),
}

/// A 32-bit pseudo-random key of the move `m` of `pos` under `seed`
/// (splitmix64 of the move, the side to move and the seed).
#[inline]
fn shuffle_key(pos: &Position, m: Move, seed: u64) -> i64 {
    let removal = m.removal().map_or(31, u64::from);
    let mut z = seed
        ^ (u64::from(m.to()) | removal << 8 | (pos.to_move.index() as u64) << 16)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) & 0xFFFF_FFFF) as i64
}

/// Ordering score of the placement `m` in `pos` under `order`; larger is
/// tried first.
#[inline]
pub(super) fn score<B: Board>(pos: &Position, m: Move, history: &History, order: MoveOrder) -> i64 {
    let to = m.to() as usize;
    let (class, removal_mobility) = class::<B>(pos, m);
    match order {
        MoveOrder::Heuristic => {
            let us = pos.us();
            class
                + removal_mobility
                + ((history.get(pos, to) as i64) << 4)
                + B::adjacent(to).count_ones() as i64
                + 2 * (B::adjacent(to) & us).count_ones() as i64
        }
        MoveOrder::Shuffled(seed) => class + shuffle_key(pos, m, seed),
    }
}

/// The class of the placement `m` in `pos` (from bit 32 up: closings by the
/// threat they kill, then blocks, then open twos) and, for a closing, the
/// free points around the stone it takes.
#[inline]
fn class<B: Board>(pos: &Position, m: Move) -> (i64, i64) {
    let (us, them) = (pos.us(), pos.them());
    let to = m.to() as usize;
    let mut s: i64 = 0;
    let mut mobility = 0;
    if let Some(r) = m.removal() {
        let r = r as usize;
        // Taking a stone that is one of two in an open line kills a threat.
        let threat = lines_with::<B>(r, them, us & !(1 << to), 1);
        s += 1 << 40;
        s += (threat as i64) << 36;
        mobility = (B::adjacent(r) & !(us | them)).count_ones() as i64;
    }
    let blocks = lines_with::<B>(to, them, us, 2);
    let twos = lines_with::<B>(to, us, them, 1);
    s += (blocks as i64) << 34;
    s += (twos as i64) << 32;
    (s, mobility)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nine::bits::MILLS_AT;
    use crate::rules::board::Nine;
    use crate::rules::position::Color;

    fn score(pos: &Position, m: Move, history: &History, order: MoveOrder) -> i64 {
        super::score::<Nine>(pos, m, history, order)
    }

    fn pos(white: &[usize], black: &[usize], to_move: Color) -> Position {
        let bits = |ps: &[usize]| ps.iter().map(|&p| 1u32 << p).sum();
        Position {
            stones: [bits(white), bits(black)],
            hand: [5, 5],
            to_move,
        }
    }

    #[test]
    fn closings_then_blocks_then_twos_then_quiet() {
        // Mills are the lines of MILLS_AT; pick one of point 0's mills.
        let line = MILLS_AT[0][0];
        let pts: Vec<usize> = (0..24).filter(|p| line >> p & 1 == 1).collect();
        let other = MILLS_AT[0][1];
        let opts: Vec<usize> = (0..24).filter(|p| other >> p & 1 == 1 && *p != 0).collect();
        let h = History::new();
        // White holds two of `line`; Black two of `other` (both through 0).
        let white: Vec<usize> = pts.iter().copied().filter(|&p| p != 0).collect();
        let p = pos(&white, &opts, Color::White);
        let free = (0..24)
            .find(|&q| (p.us() | p.them()) >> q & 1 == 0 && q != 0)
            .unwrap();
        for order in [MoveOrder::Heuristic, MoveOrder::Shuffled(7)] {
            let close = score(&p, Move::place(0).with_removal(opts[0] as u8), &h, order);
            let quiet = score(&p, Move::place(free as u8), &h, order);
            assert!(close > quiet);
        }
        // For Black, point 0 both blocks White's mill and makes a mill.
        let p = pos(&white, &opts[..1], Color::Black);
        for order in [MoveOrder::Heuristic, MoveOrder::Shuffled(7)] {
            let block = score(&p, Move::place(0), &h, order);
            let quiet = score(&p, Move::place(free as u8), &h, order);
            assert!(block > quiet);
        }
    }

    #[test]
    fn shuffles_differ_by_seed_inside_a_class() {
        // On an empty board every placement is quiet: one class, so the
        // order is the key's, and two seeds give two different orders.
        let p = pos(&[], &[], Color::White);
        let h = History::new();
        let order_of = |order| {
            let mut ms: Vec<u8> = (0..24).collect();
            ms.sort_by_key(|&q| std::cmp::Reverse(score(&p, Move::place(q), &h, order)));
            ms
        };
        let (a, b) = (
            order_of(MoveOrder::Shuffled(1)),
            order_of(MoveOrder::Shuffled(2)),
        );
        assert_ne!(a, b);
        assert_ne!(a, order_of(MoveOrder::Heuristic));
        assert_eq!(a, order_of(MoveOrder::Shuffled(1)));
    }
}
