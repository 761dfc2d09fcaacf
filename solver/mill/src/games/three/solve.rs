//! Three Men's Morris solved in memory with the generic retrograde engine
//! ([`tablebase::retro`]): the index (symmetry classes of mover-relative
//! positions), the [`RetroGame`] adapter, probing (values of positions and
//! of moves, the perfect move) and the totals over positions reachable
//! from the empty board.
//!
//! A position is `(us, them)`, the stones of the side to move and of the
//! other side. Stones in hand and colour are implied by the counts (no
//! captures): the mover has as many stones as the other side or one fewer.
//! A move that makes a line leaves the engine's space as an exit (a win in
//! one ply); a position where `them` has a line has ended (a loss in 0).

use crate::games::three::{
    for_each_move, for_each_unmove, Board, Move, Position, FULL, POINTS, STONES,
};
use crate::rules::geometry::Bits;
use crate::rules::position::Color;
use tablebase::retro::{solve as retro_solve, Exit, RetroError, RetroGame, Silent};
use tablebase::{Outcome, Value};

/// Number of base-3 codes of a board (each point empty, ours, theirs).
pub const CODES: usize = 19_683;
const NONE: u32 = u32::MAX;

/// The index: symmetry classes of valid mover-relative positions.
#[derive(Debug, Clone)]
pub struct Classes {
    /// Σ 3^p over the points of a bitboard.
    pow3: [u16; 1 << POINTS],
    /// Class of each base-3 code; [`u32::MAX`] for codes that are no
    /// position.
    class_of: Vec<u32>,
    /// Canonical representative `(us, them)` of each class.
    reps: Vec<(Bits, Bits)>,
}

/// Is `(us, them)` a position (mover-relative)? Disjoint, the other side
/// has as many stones or one more (at most 3), and the mover has no line.
fn valid(board: &Board, us: Bits, them: Bits) -> bool {
    let (nu, nt) = (us.count_ones(), them.count_ones());
    us & them == 0 && nt <= STONES && (nt == nu || nt == nu + 1) && !board.has_line(us)
}

impl Classes {
    /// Enumerate all positions and group them by the 8 board symmetries.
    pub fn build() -> Classes {
        let board = Board::get();
        let mut pow3 = [0u16; 1 << POINTS];
        for (bits, out) in pow3.iter_mut().enumerate() {
            *out = (0..POINTS)
                .filter(|p| bits >> p & 1 == 1)
                .map(|p| 3u16.pow(p as u32))
                .sum();
        }
        let mut classes = Classes {
            pow3,
            class_of: vec![NONE; CODES],
            reps: Vec::new(),
        };
        for us in 0..=FULL {
            for them in 0..=FULL {
                if !valid(board, us, them) {
                    continue;
                }
                let (cu, ct) = classes.canonical(us, them);
                let canon = classes.code(cu, ct);
                if classes.class_of[canon] == NONE {
                    classes.class_of[canon] = classes.reps.len() as u32;
                    classes.reps.push((cu, ct));
                }
                let own = classes.code(us, them);
                classes.class_of[own] = classes.class_of[canon];
            }
        }
        classes
    }

    /// Base-3 code of a position.
    #[inline]
    pub fn code(&self, us: Bits, them: Bits) -> usize {
        self.pow3[us as usize] as usize + 2 * self.pow3[them as usize] as usize
    }

    /// The image of `(us, them)` under the symmetry with the smallest code.
    #[inline]
    pub fn canonical(&self, us: Bits, them: Bits) -> (Bits, Bits) {
        let board = Board::get();
        (0..board.symmetry.len())
            .map(|s| (board.transform(s, us), board.transform(s, them)))
            .min_by_key(|&(u, t)| self.code(u, t))
            .expect("the identity is a symmetry")
    }

    /// Class index of a position, `None` if it is not one.
    #[inline]
    pub fn class(&self, us: Bits, them: Bits) -> Option<u32> {
        let c = self.class_of[self.code(us, them)];
        (c != NONE).then_some(c)
    }

    /// Number of classes.
    pub fn len(&self) -> usize {
        self.reps.len()
    }

    /// Is the index empty? (Never, for the real board.)
    pub fn is_empty(&self) -> bool {
        self.reps.is_empty()
    }

    /// Representative `(us, them)` of a class.
    pub fn representative(&self, class: u32) -> (Bits, Bits) {
        self.reps[class as usize]
    }
}

/// Three Men's Morris as a one-part [`RetroGame`] over symmetry classes.
pub struct ThreeGame<'a> {
    classes: &'a Classes,
    board: &'static Board,
}

impl<'a> ThreeGame<'a> {
    /// The game over an index.
    pub fn new(classes: &'a Classes) -> Self {
        ThreeGame {
            classes,
            board: Board::get(),
        }
    }

    #[inline]
    fn class(&self, us: Bits, them: Bits) -> u64 {
        self.classes.class_of[self.classes.code(us, them)] as u64
    }
}

impl RetroGame for ThreeGame<'_> {
    fn parts(&self) -> usize {
        1
    }

    fn size(&self, _part: usize) -> u64 {
        self.classes.len() as u64
    }

    fn expand(&self, _part: usize, idx: u64, succ: &mut impl FnMut(u64)) -> Option<Exit> {
        let (us, them) = self.classes.reps[idx as usize];
        if self.board.has_line(them) {
            return Some(Exit::None);
        }
        let mut exit = Exit::None;
        for_each_move(us, them, |m| {
            let after = m.apply(us);
            if self.board.has_line(after) {
                exit = Exit::Win;
            } else {
                succ(self.class(them, after));
            }
        });
        Some(exit)
    }

    fn predecessors(&self, _part: usize, idx: u64, pred: &mut impl FnMut(u64)) {
        let (us, them) = self.classes.reps[idx as usize];
        if self.board.has_line(them) {
            return; // Reached only by a winning move, an exit.
        }
        for_each_unmove(us, them, |prev| pred(self.class(prev, us)));
    }
}

/// Totals by value (from the side to move's view).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// All counted positions.
    pub positions: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Losses for the side to move (including finished games).
    pub losses: u64,
    /// Draws.
    pub draws: u64,
}

impl Counts {
    fn add(&mut self, v: Value) {
        self.positions += 1;
        match v.outcome() {
            Outcome::Win => self.wins += 1,
            Outcome::Loss => self.losses += 1,
            Outcome::Draw => self.draws += 1,
        }
    }
}

/// Totals over the positions reachable from the empty board by legal play
/// (a position is the board and the side to move; finished games count).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Positions.
    pub positions: Counts,
    /// Classes of positions under the 8 board symmetries.
    pub classes: Counts,
}

/// The complete solution: the value of every position.
#[derive(Debug, Clone)]
pub struct Solution {
    classes: Classes,
    values: Vec<Value>,
    levels: u32,
}

impl Solution {
    /// Solve the game with the retrograde engine.
    pub fn solve() -> Result<Solution, RetroError> {
        let classes = Classes::build();
        let (mut values, stats) = retro_solve(&ThreeGame::new(&classes), &Silent)?;
        Ok(Solution {
            values: values.pop().unwrap_or_default(),
            classes,
            levels: stats.levels,
        })
    }

    /// The index.
    pub fn classes(&self) -> &Classes {
        &self.classes
    }

    /// Levels the engine walked.
    pub fn levels(&self) -> u32 {
        self.levels
    }

    /// Value of a mover-relative position, `None` if it is not one.
    pub fn value_of(&self, us: Bits, them: Bits) -> Option<Value> {
        self.classes
            .class(us, them)
            .map(|c| self.values[c as usize])
    }

    /// Value of a (validated) position for the side to move.
    pub fn value(&self, pos: &Position) -> Value {
        self.value_of(pos.us(), pos.them())
            .expect("a validated position is in the index")
    }

    /// Value of a move for the side that plays it.
    pub fn move_value(&self, pos: &Position, m: Move) -> Value {
        let after = m.apply(pos.us());
        if Board::get().has_line(after) {
            return Value::win(1);
        }
        let next = self
            .value_of(pos.them(), after)
            .expect("a legal move leads to a position");
        Value::after_move(next, false)
    }

    /// Every legal move with its value for the mover, best first (fastest
    /// win, then draws, then the slowest loss; ties in reading order).
    pub fn moves(&self, pos: &Position) -> Vec<(Move, Value)> {
        let mut out: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .map(|m| (m, self.move_value(pos, m)))
            .collect();
        out.sort_by_key(|&(m, v)| (std::cmp::Reverse(v), m));
        out
    }

    /// A perfect move, `None` when the game has ended.
    pub fn best_move(&self, pos: &Position) -> Option<Move> {
        self.moves(pos).first().map(|&(m, _)| m)
    }

    /// Totals by value over the positions reachable from the empty board.
    pub fn reachable(&self) -> Totals {
        let board = Board::get();
        let mut seen = vec![false; 2 * CODES];
        let mut seen_class = vec![false; 2 * self.classes.len()];
        let mut totals = Totals::default();
        let mut stack: Vec<(Bits, Bits, Color)> = vec![(0, 0, Color::White)];
        seen[0] = true;
        while let Some((us, them, side)) = stack.pop() {
            let class = self
                .classes
                .class(us, them)
                .expect("reachable positions are indexed");
            let v = self.values[class as usize];
            totals.positions.add(v);
            let class_slot = 2 * class as usize + side.index();
            if !seen_class[class_slot] {
                seen_class[class_slot] = true;
                totals.classes.add(v);
            }
            if board.has_line(them) {
                continue;
            }
            for_each_move(us, them, |m| {
                let after = m.apply(us);
                let slot = 2 * self.classes.code(them, after) + side.other().index();
                if !seen[slot] {
                    seen[slot] = true;
                    stack.push((them, after, side.other()));
                }
            });
        }
        totals
    }
}
