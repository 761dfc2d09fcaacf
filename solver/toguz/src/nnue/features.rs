//! The network's inputs: for one point of view (White or Black), a one-hot
//! stone count of each of the 18 holes (own 1–9, then the opponent's 1–9),
//! each kazan by its exact count and each tuzdyk by its hole. Both points of
//! view use the same weights; the side to move's accumulator comes first.

use crate::board::{Board, HOLES, NO_TUZDYK};

/// Count buckets per hole (the last one holds 23 stones and more).
pub const HOLE_BUCKETS: usize = crate::linear::HOLE_BUCKETS;
/// Kazan buckets: one per count 0..=80, the last for 81 (82 ends the game).
pub const KAZAN_BUCKETS: usize = 82;
/// First hole input: `[mine/theirs][hole 0..9][bucket]`.
pub const F_HOLE: usize = 0;
/// First kazan input: `[mine/theirs][count]`.
pub const F_KAZAN: usize = F_HOLE + 2 * 9 * HOLE_BUCKETS;
/// First tuzdyk input: `[mine/theirs][hole 0..9 on the other side]`.
pub const F_TUZDYK: usize = F_KAZAN + 2 * KAZAN_BUCKETS;
/// Number of inputs.
pub const INPUTS: usize = F_TUZDYK + 2 * 9;
/// Most inputs active at once for one point of view.
pub const MAX_ACTIVE: usize = HOLES + 4;

/// Input of absolute hole `hole` (0..18) holding `n` stones, seen by `view`.
#[inline]
pub fn hole(view: usize, hole: usize, n: u8) -> usize {
    let rel = usize::from(hole / 9 != view);
    F_HOLE + (rel * 9 + hole % 9) * HOLE_BUCKETS + (n as usize).min(HOLE_BUCKETS - 1)
}

/// Input of `side`'s kazan holding `k` stones, seen by `view`.
#[inline]
pub fn kazan(view: usize, side: usize, k: u8) -> usize {
    F_KAZAN + usize::from(side != view) * KAZAN_BUCKETS + (k as usize).min(KAZAN_BUCKETS - 1)
}

/// Input of `side`'s tuzdyk on absolute hole `t`, seen by `view`.
#[inline]
pub fn tuzdyk(view: usize, side: usize, t: u8) -> usize {
    F_TUZDYK + usize::from(side != view) * 9 + t as usize % 9
}

/// Call `f` with every active input of `b` seen by `view` (0 White, 1 Black).
#[inline]
pub fn for_each_active(b: &Board, view: usize, mut f: impl FnMut(usize)) {
    for (h, &n) in b.holes.iter().enumerate() {
        f(hole(view, h, n));
    }
    for side in 0..2 {
        f(kazan(view, side, b.kazan[side]));
        if b.tuzdyk[side] != NO_TUZDYK {
            f(tuzdyk(view, side, b.tuzdyk[side]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_distinct_and_in_range() {
        let b: Board = "7,4,1,7,4,18,0,17,1/1,4,3,20,0,6,6,4,1 w 35,23 5,7"
            .parse()
            .unwrap();
        for view in 0..2 {
            let mut seen = Vec::new();
            for_each_active(&b, view, |i| seen.push(i));
            assert_eq!(seen.len(), 22);
            assert!(seen.iter().all(|&i| i < INPUTS));
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), 22, "view {view}");
        }
        // The two views of a mirrored position are the same inputs.
        let mut w = Vec::new();
        for_each_active(&b, 0, |i| w.push(i));
        let m = Board::from_parts(
            {
                let mut h = [0; HOLES];
                h[..9].copy_from_slice(&b.holes[9..]);
                h[9..].copy_from_slice(&b.holes[..9]);
                h
            },
            [b.kazan[1], b.kazan[0]],
            [
                if b.tuzdyk[1] == NO_TUZDYK {
                    NO_TUZDYK
                } else {
                    (b.tuzdyk[1] + 9) % 18
                },
                if b.tuzdyk[0] == NO_TUZDYK {
                    NO_TUZDYK
                } else {
                    (b.tuzdyk[0] + 9) % 18
                },
            ],
            b.side.opponent(),
        );
        let mut bl = Vec::new();
        for_each_active(&m, 1, |i| bl.push(i));
        w.sort_unstable();
        bl.sort_unstable();
        assert_eq!(w, bl);
    }
}
