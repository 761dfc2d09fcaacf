//! Perft for Nine Men's Morris: the number of leaves of the game tree to a
//! fixed depth, the standard check of a move generator.

use super::movegen::{apply, for_each_move};
use super::position::{Position, Rules};

/// Leaves of the game tree of `pos` cut at `depth` plies.
///
/// A move with its removal is one ply. A finished game (the side to move has
/// fewer than 3 stones, or no legal move) is a leaf and counts 1 even above
/// the cut depth; depth 0 counts the position itself.
pub fn perft(pos: &Position, rules: Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut leaves = 0;
    let mut moves = 0u32;
    for_each_move(pos, rules, |m| {
        moves += 1;
        leaves += if depth == 1 {
            1
        } else {
            perft(&apply(pos, m), rules, depth - 1)
        };
    });
    if moves == 0 {
        1
    } else {
        leaves
    }
}

/// Perft split by first move: each legal move with its leaf count.
pub fn divide(pos: &Position, rules: Rules, depth: u32) -> Vec<(super::position::Move, u64)> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    for_each_move(pos, rules, |m| {
        out.push((m, perft(&apply(pos, m), rules, depth - 1)));
    });
    out
}
