//! Three Men's Morris rules: the 3×3 board (from [`crate::rules::geometry`]),
//! positions, placement and sliding moves, the line that wins at once, text
//! formats (`docs/three.md`) and the ASCII drawing. The complete solution
//! lives in [`solve`], the game served to front ends in [`game`].
//!
//! Bits are the points in reading order: `a3 b3 c3 a2 b2 c2 a1 b1 c1` is
//! bit 0..9, so a bitboard is a `u32` below `1 << 9`.

pub mod count;
pub mod game;
pub mod report;
pub mod solve;

use crate::rules::geometry::{Bits, Geometry, THREE_NAMES};
use crate::rules::notation::{coordinates, draw, format_fields, parse_fields, PositionTextError};
use crate::rules::position::Color;
use std::fmt;
use std::sync::OnceLock;

/// Stones per side.
pub const STONES: u32 = 3;
/// Number of points.
pub const POINTS: usize = 9;
/// All points.
pub const FULL: Bits = (1 << POINTS) - 1;

/// The board's tables, built once from [`Geometry::three`].
#[derive(Debug, Clone)]
pub struct Board {
    /// Adjacent points of each point.
    pub adjacent: [Bits; POINTS],
    /// The 8 lines (rows, columns, diagonals).
    pub lines: [Bits; 8],
    /// `symmetry[s][bits]`: bitboard `bits` under symmetry `s` (0..8, 0 is
    /// the identity).
    pub symmetry: Vec<[u16; 1 << POINTS]>,
}

impl Board {
    /// The shared tables.
    pub fn get() -> &'static Board {
        static BOARD: OnceLock<Board> = OnceLock::new();
        BOARD.get_or_init(|| {
            let g = Geometry::three();
            let mut adjacent = [0; POINTS];
            adjacent.copy_from_slice(&g.adjacent);
            let mut lines = [0; 8];
            lines.copy_from_slice(&g.mills);
            let symmetry = (0..g.symmetries.len())
                .map(|s| {
                    let mut t = [0u16; 1 << POINTS];
                    for (bits, out) in t.iter_mut().enumerate() {
                        *out = g.transform(s, bits as Bits) as u16;
                    }
                    t
                })
                .collect();
            Board {
                adjacent,
                lines,
                symmetry,
            }
        })
    }

    /// Do the stones `bits` include a complete line?
    #[inline]
    pub fn has_line(&self, bits: Bits) -> bool {
        for &l in &self.lines {
            if bits & l == l {
                return true;
            }
        }
        false
    }

    /// Bitboard `bits` under symmetry `s`.
    #[inline]
    pub fn transform(&self, s: usize, bits: Bits) -> Bits {
        self.symmetry[s][bits as usize] as Bits
    }
}

/// Iterate over the set bits of a bitboard.
#[inline]
pub fn points(mut bits: Bits) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let p = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            p
        })
    })
}

/// A move: place a stone (`from` is `None`) or slide one along a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Origin of a slide; `None` for a placement.
    pub from: Option<u8>,
    /// Destination point.
    pub to: u8,
}

impl Move {
    /// The mover's stones after the move.
    #[inline]
    pub fn apply(self, us: Bits) -> Bits {
        match self.from {
            Some(f) => us & !(1 << f) | 1 << self.to,
            None => us | 1 << self.to,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.from {
            write!(f, "{}-", THREE_NAMES[from as usize])?;
        }
        f.write_str(THREE_NAMES[self.to as usize])
    }
}

/// Call `f` for every legal move of the side to move with stones `us`
/// against `them` (mover-relative; no check for a finished game): a
/// placement while the mover has fewer than 3 stones, else a slide to an
/// adjacent empty point.
#[inline]
pub fn for_each_move(us: Bits, them: Bits, mut f: impl FnMut(Move)) {
    let empty = !(us | them) & FULL;
    if us.count_ones() < STONES {
        for to in points(empty) {
            f(Move { from: None, to });
        }
    } else {
        let board = Board::get();
        for from in points(us) {
            for to in points(board.adjacent[from as usize] & empty) {
                f(Move {
                    from: Some(from),
                    to,
                });
            }
        }
    }
}

/// Call `f` with every stone set the opponent (`them`, who just moved) had
/// before its last move, for a reachable non-finished `(us, them)`
/// (mover-relative, `them` has as many stones as `us` or one more): the
/// predecessors are `(prev, us)`. Predecessors where the mover already had
/// a line are skipped (the game had ended there).
#[inline]
pub fn for_each_unmove(us: Bits, them: Bits, mut f: impl FnMut(Bits)) {
    let board = Board::get();
    // An unplacement: any stone of the opponent may have been placed last.
    for p in points(them) {
        f(them & !(1 << p));
    }
    // An unslide: both sides had all stones on the board.
    if them.count_ones() == STONES && us.count_ones() == STONES {
        let empty = !(us | them) & FULL;
        for to in points(them) {
            for from in points(board.adjacent[to as usize] & empty) {
                let prev = them & !(1 << to) | 1 << from;
                if !board.has_line(prev) {
                    f(prev);
                }
            }
        }
    }
}

/// A Three Men's Morris position: stones by colour and the side to move.
/// Stones in hand follow (3 minus stones on the board: no captures).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Stones by colour ([`Color::index`]), bits in reading order.
    pub stones: [Bits; 2],
    /// The side to move.
    pub to_move: Color,
}

/// Why a Three Men's Morris position is not legal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Both colours on one point.
    #[error("a point holds both a white and a black stone")]
    Overlap,
    /// Stones in hand do not complement the stones on the board to 3.
    #[error("{0} has {1} stones on the board and {2} in hand; they must add up to 3")]
    Hand(&'static str, u32, u8),
    /// Counts that White-moves-first placement cannot produce.
    #[error(
        "{0} to move with White {1} and Black {2} stones placed: White places first, \
         so White to move has as many stones as Black, Black to move one fewer"
    )]
    Order(&'static str, u32, u32),
    /// The side to move has a line: the game ended before.
    #[error("{0} (to move) already has a line, so the game ended before")]
    MoverHasLine(&'static str),
}

impl Position {
    /// The start: empty board, White to move.
    pub fn start() -> Position {
        Position {
            stones: [0, 0],
            to_move: Color::White,
        }
    }

    /// Stones of the side to move.
    pub fn us(&self) -> Bits {
        self.stones[self.to_move.index()]
    }

    /// Stones of the opponent.
    pub fn them(&self) -> Bits {
        self.stones[self.to_move.other().index()]
    }

    /// Stones in hand of `color`.
    pub fn hand(&self, color: Color) -> u8 {
        (STONES - self.stones[color.index()].count_ones()) as u8
    }

    /// Check the invariants (see `docs/three.md`).
    pub fn validate(&self) -> Result<(), PositionError> {
        let [w, b] = self.stones;
        if w & b != 0 {
            return Err(PositionError::Overlap);
        }
        let (nw, nb) = (w.count_ones(), b.count_ones());
        let ok = match self.to_move {
            Color::White => nw == nb,
            Color::Black => nw == nb + 1 || (nw == STONES && nb == STONES),
        };
        if nw > STONES || nb > STONES || !ok {
            return Err(PositionError::Order(self.to_move.name(), nw, nb));
        }
        if Board::get().has_line(self.us()) {
            return Err(PositionError::MoverHasLine(self.to_move.name()));
        }
        Ok(())
    }

    /// Has the game ended? The side to move has then lost: the opponent has
    /// a line, or there is no legal move.
    pub fn finished(&self) -> bool {
        if Board::get().has_line(self.them()) {
            return true;
        }
        let mut any = false;
        for_each_move(self.us(), self.them(), |_| any = true);
        !any
    }

    /// Legal moves (none once the game has ended).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        if !Board::get().has_line(self.them()) {
            for_each_move(self.us(), self.them(), |m| moves.push(m));
        }
        moves
    }

    /// The position after a legal move.
    pub fn play(&self, m: Move) -> Position {
        let mut next = *self;
        next.stones[self.to_move.index()] = m.apply(self.us());
        next.to_move = self.to_move.other();
        next
    }

    /// The leaves of the game tree `depth` plies deep (a finished game is
    /// a leaf where it ends), as the other boards' `perft` counts them.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if moves.is_empty() {
            return 1;
        }
        moves.iter().map(|&m| self.play(m).perft(depth - 1)).sum()
    }

    /// [`Position::perft`] split by the first move (empty when the game is
    /// over or `depth` is 0).
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        self.legal_moves()
            .into_iter()
            .map(|m| (m, self.play(m).perft(depth - 1)))
            .collect()
    }

    /// The board as ASCII with coordinates, `W`/`B` stones and `.` empty.
    pub fn draw(&self) -> String {
        let board = Board::get();
        let pts: Vec<_> = (0..POINTS)
            .map(|p| {
                let ch = if self.stones[0] >> p & 1 == 1 {
                    'W'
                } else if self.stones[1] >> p & 1 == 1 {
                    'B'
                } else {
                    '.'
                };
                (coordinates(THREE_NAMES[p]), ch)
            })
            .collect();
        let mut edges = Vec::new();
        for (p, name) in THREE_NAMES.iter().enumerate() {
            for q in points(board.adjacent[p]) {
                if (q as usize) > p {
                    edges.push((coordinates(name), coordinates(THREE_NAMES[q as usize])));
                }
            }
        }
        draw(3, 3, 4, &pts, &edges)
    }
}

/// Error of parsing a Three Men's Morris position.
pub type ThreeTextError = PositionTextError<PositionError>;

impl std::str::FromStr for Position {
    type Err = ThreeTextError;

    /// Parse `......... w 3 3` (see `docs/three.md`).
    fn from_str(text: &str) -> Result<Position, ThreeTextError> {
        let (stones, to_move, hand) = parse_fields(text, &THREE_NAMES)?;
        for (c, name) in ["white", "black"].into_iter().enumerate() {
            let n = stones[c].count_ones();
            if n + hand[c] as u32 != STONES {
                return Err(PositionTextError::Invalid(PositionError::Hand(
                    name, n, hand[c],
                )));
            }
        }
        let pos = Position { stones, to_move };
        pos.validate().map_err(PositionTextError::Invalid)?;
        Ok(pos)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hand = [self.hand(Color::White), self.hand(Color::Black)];
        f.write_str(&format_fields(POINTS, (self.stones, self.to_move, hand)))
    }
}

/// Why a move text is not a legal move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not `b2` or `a1-b2`.
    #[error("'{0}' is not a move: write b2 (place) or a1-b2 (slide)")]
    Syntax(String),
    /// Unknown point name.
    #[error("'{0}' is not a point of the board (a1..c3)")]
    Point(String),
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// A slide while stones are in hand.
    #[error("{0} has stones in hand and must place one (e.g. b2)")]
    MustPlace(&'static str),
    /// A placement with no stones in hand.
    #[error("{0} has placed all stones and must slide one (e.g. a1-b2)")]
    MustSlide(&'static str),
    /// Destination occupied.
    #[error("{0} is not empty")]
    Occupied(&'static str),
    /// Origin without a stone of the mover.
    #[error("{1} has no stone on {0}")]
    NotOwn(&'static str, &'static str),
    /// Not adjacent along a line.
    #[error("{0} and {1} are not adjacent")]
    NotAdjacent(&'static str, &'static str),
}

fn point(name: &str) -> Result<u8, MoveError> {
    THREE_NAMES
        .iter()
        .position(|n| *n == name)
        .map(|p| p as u8)
        .ok_or_else(|| MoveError::Point(name.to_string()))
}

/// Parse a move text against a position: the legal move or why not.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    let (from, to) = match text.split_once('-') {
        Some((a, b)) => (Some(a), b),
        None => (None, text),
    };
    let well_formed = |s: &str| {
        let b = s.as_bytes();
        b.len() == 2 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit()
    };
    if !well_formed(to) || !from.iter().all(|s| well_formed(s)) {
        return Err(MoveError::Syntax(text.to_string()));
    }
    let to = point(to)?;
    let from = from.map(point).transpose()?;
    if pos.finished() {
        return Err(MoveError::GameOver);
    }
    let me = pos.to_move.name();
    let placing = pos.us().count_ones() < STONES;
    match (from, placing) {
        (Some(_), true) => return Err(MoveError::MustPlace(me)),
        (None, false) => return Err(MoveError::MustSlide(me)),
        _ => {}
    }
    if (pos.us() | pos.them()) >> to & 1 == 1 {
        return Err(MoveError::Occupied(THREE_NAMES[to as usize]));
    }
    if let Some(f) = from {
        let name = THREE_NAMES[f as usize];
        if pos.us() >> f & 1 == 0 {
            return Err(MoveError::NotOwn(name, me));
        }
        if Board::get().adjacent[f as usize] >> to & 1 == 0 {
            return Err(MoveError::NotAdjacent(name, THREE_NAMES[to as usize]));
        }
    }
    Ok(Move { from, to })
}
