//! Nine Men's Morris forward move generation for every phase: placement
//! (here), sliding and flying (delegated to [`super::moving`]), each with the
//! removal a closed mill brings; applying a move; the game-over test.

use super::moving;
use super::nine::{in_mill, points, removable};
use super::position::{GameOver, Move, Position, Rules};

/// Call `f` for every legal move of the side to move, without allocating.
///
/// A move that closes a mill (one or two at once) is reported once per
/// opponent stone it may remove; stones in mills are protected unless every
/// opponent stone is in a mill. If the opponent has no stone on the board, a
/// move closing a mill removes nothing. A side with fewer than 3 stones has
/// lost and gets no moves.
#[inline]
pub fn for_each_move(pos: &Position, rules: Rules, mut f: impl FnMut(Move)) {
    if pos.material(pos.to_move) < 3 {
        return;
    }
    let (us, them) = (pos.us(), pos.them());
    if pos.placing() {
        let taken = removable(them);
        for to in points(pos.empty()) {
            let m = Move::place(to as u8);
            if taken != 0 && in_mill(us | 1 << to, to) {
                for r in points(taken) {
                    f(m.with_removal(r as u8));
                }
            } else {
                f(m);
            }
        }
    } else {
        moving::for_each_move(us, them, rules.flying, |s| {
            let m = Move::shift(s.from, s.to);
            f(match s.removal() {
                Some(r) => m.with_removal(r),
                None => m,
            });
        });
    }
}

/// Every legal move, in generation order.
pub fn legal_moves(pos: &Position, rules: Rules) -> Vec<Move> {
    let mut moves = Vec::new();
    for_each_move(pos, rules, |m| moves.push(m));
    moves
}

/// Does the side to move have a legal move?
#[inline]
pub fn has_move(pos: &Position, rules: Rules) -> bool {
    if pos.material(pos.to_move) < 3 {
        false
    } else if pos.placing() {
        pos.empty() != 0
    } else {
        moving::has_move(pos.us(), pos.them(), rules.flying)
    }
}

/// Has the game ended, and why? (The side to move has then lost.)
pub fn game_over(pos: &Position, rules: Rules) -> Option<GameOver> {
    if pos.material(pos.to_move) < 3 {
        Some(GameOver::TooFewStones)
    } else if !has_move(pos, rules) {
        Some(GameOver::Blocked)
    } else {
        None
    }
}

/// The position after the legal move `m` ([`Position::apply`]).
#[inline]
pub fn apply(pos: &Position, m: Move) -> Position {
    pos.apply(m)
}
