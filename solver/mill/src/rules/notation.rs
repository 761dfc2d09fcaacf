//! Text formats of the mill games (specified in `docs/notation.md`): the
//! one-line position format shared by every board, Nine Men's Morris
//! positions and moves in standard coordinates (`d6`, `d6-d5`,
//! `d6-d5xg7`), parsing a move on any board against a position with a
//! reason when it is illegal, and the ASCII board drawing.

use crate::rules::board::{Board, Nine};
use crate::rules::geometry::{points, Bits, NINE_NAMES, NINE_READING};
use crate::rules::position::{Color, Move, Position, PositionError};
use crate::rules::variant::RuleSet;
use crate::rules::{ending, for_each_move, Ending};
use std::fmt;

/// A syntax error in a position text, or a position that breaks the rules
/// (`E` is the game's validation error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionTextError<E: std::error::Error> {
    /// Wrong number of space-separated fields.
    #[error(
        "a position has 4 fields (board, side to move, White's and Black's stones in hand), found {0}"
    )]
    Fields(usize),
    /// The board field has the wrong length.
    #[error("the board has {expected} characters (W, B or .), found {found}")]
    BoardLength {
        /// Points of the board.
        expected: usize,
        /// Characters given.
        found: usize,
    },
    /// A board character other than `W`, `B` or `.`.
    #[error("board character {index} ('{ch}', point {point}) must be W, B or .")]
    BoardChar {
        /// 1-based position in the board field.
        index: usize,
        /// The character found.
        ch: char,
        /// The point it stands for.
        point: &'static str,
    },
    /// The side to move is not `w` or `b`.
    #[error("side to move must be w or b, found '{0}'")]
    Side(String),
    /// A stones-in-hand field is not a small number.
    #[error("{0}'s stones in hand must be a number, found '{1}'")]
    Hand(&'static str, String),
    /// The position is well-formed but not legal.
    #[error("{0}")]
    Invalid(E),
}

/// The fields of a position text: stones by colour as bits in reading order,
/// side to move, stones in hand by colour.
pub type Fields = ([Bits; 2], Color, [u8; 2]);

/// Split and check the syntax of a position text over a board whose points,
/// in reading order, are `reading`.
pub fn parse_fields<E: std::error::Error>(
    text: &str,
    reading: &[&'static str],
) -> Result<Fields, PositionTextError<E>> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 4 {
        return Err(PositionTextError::Fields(fields.len()));
    }
    let board: Vec<char> = fields[0].chars().collect();
    if board.len() != reading.len() {
        return Err(PositionTextError::BoardLength {
            expected: reading.len(),
            found: board.len(),
        });
    }
    let mut stones = [0; 2];
    for (i, &ch) in board.iter().enumerate() {
        match ch {
            'W' => stones[0] |= 1 << i,
            'B' => stones[1] |= 1 << i,
            '.' => {}
            _ => {
                return Err(PositionTextError::BoardChar {
                    index: i + 1,
                    ch,
                    point: reading[i],
                })
            }
        }
    }
    let side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(PositionTextError::Side(other.to_string())),
    };
    let mut hand = [0; 2];
    for (i, name) in ["White", "Black"].into_iter().enumerate() {
        hand[i] = fields[2 + i]
            .parse::<u8>()
            .map_err(|_| PositionTextError::Hand(name, fields[2 + i].to_string()))?;
    }
    Ok((stones, side, hand))
}

/// Format position fields (stones as bits in reading order).
pub fn format_fields(points: usize, (stones, side, hand): Fields) -> String {
    let board: String = (0..points)
        .map(|i| {
            if stones[0] >> i & 1 == 1 {
                'W'
            } else if stones[1] >> i & 1 == 1 {
                'B'
            } else {
                '.'
            }
        })
        .collect();
    let side = match side {
        Color::White => 'w',
        Color::Black => 'b',
    };
    format!("{board} {side} {} {}", hand[0], hand[1])
}

/// Bit index (Malom layout) of each reading-order character, computed once
/// (every position parsed or written uses it).
fn nine_reading_bits() -> [u8; 24] {
    static BITS: std::sync::OnceLock<[u8; 24]> = std::sync::OnceLock::new();
    *BITS.get_or_init(|| {
        let mut bits = [0; 24];
        for (i, name) in NINE_READING.iter().enumerate() {
            bits[i] = point(name).expect("reading order names board points");
        }
        bits
    })
}

/// Permute bits: bit `i` of `x` goes to bit `map[i]`.
fn scatter(x: Bits, map: &[u8]) -> Bits {
    (0..map.len())
        .filter(|&i| x >> i & 1 == 1)
        .fold(0, |acc, i| acc | 1 << map[i])
}

/// Nine Men's Morris point index of a name such as `"d6"`.
pub fn point(name: &str) -> Option<u8> {
    NINE_NAMES.iter().position(|n| *n == name).map(|p| p as u8)
}

/// Position of a Nine Men's Morris point in reading order (`a7` is 0, `g1`
/// is 23); used to list moves in reading order.
pub fn reading_rank(p: u8) -> usize {
    NINE_READING
        .iter()
        .position(|n| *n == point_name(p))
        .unwrap_or(usize::MAX)
}

/// Sort key of a move: reading order of origin (placements first),
/// destination and removal.
pub fn move_order(m: &Move) -> (usize, usize, usize) {
    let key = |p: Option<u8>| p.map_or(0, |p| reading_rank(p) + 1);
    (key(m.from()), reading_rank(m.to()), key(m.removal()))
}

/// Name of a Nine Men's Morris point index.
pub fn point_name(p: u8) -> &'static str {
    NINE_NAMES[p as usize]
}

/// Error of parsing a Nine Men's Morris position.
pub type NineTextError = PositionTextError<PositionError>;

impl std::str::FromStr for Position {
    type Err = NineTextError;

    /// Parse `........................ w 9 9` (see `docs/notation.md`).
    fn from_str(text: &str) -> Result<Position, NineTextError> {
        let (stones, to_move, hand) = parse_fields(text, &NINE_READING)?;
        let map = nine_reading_bits();
        let pos = Position {
            stones: [scatter(stones[0], &map), scatter(stones[1], &map)],
            hand,
            to_move,
        };
        pos.validate::<Nine>(RuleSet::nine(true))
            .map_err(PositionTextError::Invalid)?;
        Ok(pos)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let map = nine_reading_bits();
        let gather = |x: Bits| {
            (0..24)
                .filter(|&i| x >> map[i] & 1 == 1)
                .fold(0, |acc, i| acc | 1 << i)
        };
        let fields = (
            [gather(self.stones[0]), gather(self.stones[1])],
            self.to_move,
            self.hand,
        );
        f.write_str(&format_fields(24, fields))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.from() {
            write!(f, "{}-", point_name(from))?;
        }
        f.write_str(point_name(self.to()))?;
        if let Some(r) = self.removal() {
            write!(f, "x{}", point_name(r))?;
        }
        Ok(())
    }
}

/// Why a move text is not a legal move in a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not of the form `d6`, `d6-d5`, `d6xg7` or `d6-d5xg7`.
    #[error("'{0}' is not a move: write d6 (place), d6-d5 (slide or fly), and xg7 for a removal")]
    Syntax(String),
    /// A name that is no point of the board.
    #[error("'{0}' is not a point of the board")]
    Point(String),
    /// The game has ended (how: "white has no legal move").
    #[error("the game is over: {0}")]
    GameOver(String),
    /// A slide while the mover still has stones in hand.
    #[error("{0} has stones in hand and must place one (write just the point, e.g. d6)")]
    MustPlace(&'static str),
    /// A placement while the mover has no stones in hand.
    #[error("{0} has no stones in hand and must move a stone (e.g. d6-d5)")]
    MustShift(&'static str),
    /// The destination is occupied.
    #[error("{0} is not empty")]
    Occupied(&'static str),
    /// The origin holds no stone of the mover.
    #[error("{1} has no stone on {0}")]
    NotOwn(&'static str, &'static str),
    /// A slide between points that are not adjacent.
    #[error("{0} and {1} are not adjacent ({2})")]
    NotAdjacent(&'static str, &'static str, &'static str),
    /// A mill is closed but no removal given.
    #[error("{0} closes a mill: add the stone to remove, e.g. {0}x{1}")]
    MissingRemoval(String, &'static str),
    /// A removal without a mill.
    #[error("{0} closes no mill, so no stone may be removed")]
    UnexpectedRemoval(String),
    /// The removed point holds no opponent stone.
    #[error("{1} has no stone on {0} to remove")]
    NothingToRemove(&'static str, &'static str),
    /// Not a legal move for a reason the checks above do not name.
    #[error("{0} is not a legal move here")]
    Illegal(String),
    /// The removed stone is protected by a mill.
    #[error("{0} stands in a mill and {1} has stones outside mills, which must be taken first")]
    Protected(&'static str, &'static str),
}

/// Split a move text into (origin, destination, removal) names.
fn split_move(text: &str) -> Result<(Option<&str>, &str, Option<&str>), MoveError> {
    let syntax = || MoveError::Syntax(text.to_string());
    let (main, removal) = match text.split_once('x') {
        Some((a, r)) => (a, Some(r)),
        None => (text, None),
    };
    let (from, to) = match main.split_once('-') {
        Some((a, b)) => (Some(a), b),
        None => (None, main),
    };
    // A point name: a file letter and a rank number (`d6`, `a10`).
    let well_formed = |s: &str| {
        let b = s.as_bytes();
        (2..=3).contains(&b.len())
            && b[0].is_ascii_lowercase()
            && b[1..].iter().all(u8::is_ascii_digit)
    };
    if !well_formed(to)
        || !from.iter().all(|s| well_formed(s))
        || !removal.iter().all(|s| well_formed(s))
    {
        return Err(syntax());
    }
    Ok((from, to, removal))
}

/// Parse a move text (`d6`, `d6-d5`, `d6-d5xg7`) against a position of
/// board `B` under `rules`: the legal move it names, or the reason why it
/// names none.
pub fn parse_move<B: Board>(pos: &Position, rules: RuleSet, text: &str) -> Result<Move, MoveError> {
    let g = B::geometry();
    let name = |p: u8| g.names[p as usize];
    let lookup = |s: &str| g.point(s).ok_or_else(|| MoveError::Point(s.to_string()));
    let (from, to, removal) = split_move(text.trim())?;
    let to = lookup(to)?;
    let from = from.map(lookup).transpose()?;
    let removal = removal.map(lookup).transpose()?;
    let me = pos.to_move.name();
    let you = pos.to_move.other().name();
    match ending::<B>(pos, rules) {
        Some(Ending::Loss(over)) => {
            return Err(MoveError::GameOver(format!("{me} has {}", over.describe())))
        }
        Some(draw) => return Err(MoveError::GameOver(draw.describe().to_string())),
        None => {}
    }
    let (us, them) = (pos.us(), pos.them());
    let mut after = us;
    let mut m = match from {
        None if !pos.placing() => return Err(MoveError::MustShift(me)),
        // Under Lasker's rules a side with stones in hand may also move.
        Some(_) if pos.placing() && !rules.interleave => return Err(MoveError::MustPlace(me)),
        None => Move::place(to),
        Some(from) => {
            if us >> from & 1 == 0 {
                return Err(MoveError::NotOwn(name(from), me));
            }
            after &= !(1 << from);
            Move::shift(from, to)
        }
    };
    if pos.empty::<B>() >> to & 1 == 0 {
        return Err(MoveError::Occupied(name(to)));
    }
    if let Some(from) = m.from() {
        let flies = rules.flies(us.count_ones(), pos.our_hand());
        if !flies && B::adjacent(from as usize) >> to & 1 == 0 {
            let why = if !rules.flying {
                "flying is off"
            } else {
                "only a side with exactly 3 stones may fly"
            };
            return Err(MoveError::NotAdjacent(name(from), name(to), why));
        }
    }
    after |= 1 << to;
    let closes = B::in_mill(after, to as usize) && them != 0;
    let plain = crate::rules::move_text::<B>(m);
    match (closes, removal) {
        (true, None) => {
            let example = points(B::removable(them)).next().unwrap_or(0) as u8;
            return Err(MoveError::MissingRemoval(plain, name(example)));
        }
        (false, Some(_)) => return Err(MoveError::UnexpectedRemoval(plain)),
        (true, Some(r)) => {
            if them >> r & 1 == 0 {
                return Err(MoveError::NothingToRemove(name(r), you));
            }
            if B::removable(them) >> r & 1 == 0 {
                return Err(MoveError::Protected(name(r), you));
            }
            m = m.with_removal(r);
        }
        (false, None) => {}
    }
    // The diagnosis above mirrors the generator; the generator decides.
    let mut legal = false;
    for_each_move::<B>(pos, rules, |l| legal |= l == m);
    if legal {
        Ok(m)
    } else {
        Err(MoveError::Illegal(crate::rules::move_text::<B>(m)))
    }
}

/// A point of a drawing: (file, rank), both 0-based.
pub type Cell = (usize, usize);

/// Draw a board as ASCII: points at `(file, rank)` with their character,
/// edges between points (horizontal, vertical or diagonal), files labelled
/// `a..` below and ranks `1..` on the left. `step` is the column distance
/// between files (the row distance between ranks is 2).
pub fn draw(
    files: usize,
    ranks: usize,
    step: usize,
    points: &[(Cell, char)],
    edges: &[(Cell, Cell)],
) -> String {
    let width = (files - 1) * step + 1;
    let height = 2 * (ranks - 1) + 1;
    let mut grid = vec![vec![' '; width]; height];
    let at = |(f, r): (usize, usize)| (2 * (ranks - 1 - r), f * step);
    for &(a, b) in edges {
        let ((r0, c0), (r1, c1)) = (at(a), at(b));
        if r0 == r1 {
            for cell in &mut grid[r0][c0.min(c1) + 1..c0.max(c1)] {
                *cell = '-';
            }
        } else if c0 == c1 {
            for row in grid.iter_mut().take(r0.max(r1)).skip(r0.min(r1) + 1) {
                row[c0] = '|';
            }
        } else {
            // Diagonal between neighbouring ranks: one character midway.
            let (r, c) = ((r0 + r1) / 2, (c0 + c1) / 2);
            let down_right = (r1 > r0) == (c1 > c0);
            grid[r][c] = if down_right { '\\' } else { '/' };
        }
    }
    for &(p, ch) in points {
        let (r, c) = at(p);
        grid[r][c] = ch;
    }
    let mut out = String::new();
    for (i, row) in grid.iter().enumerate() {
        let label = if i % 2 == 0 {
            format!("{}", ranks - i / 2)
        } else {
            " ".to_string()
        };
        let line: String = row.iter().collect();
        out.push_str(&format!("{label} {}\n", line.trim_end()));
    }
    let mut footer = vec![' '; width];
    for f in 0..files {
        footer[f * step] = (b'a' + f as u8) as char;
    }
    out.push_str(&format!(
        "  {}\n",
        footer.iter().collect::<String>().trim_end()
    ));
    out
}

/// (file, rank) of a point name, both 0-based.
pub fn coordinates(name: &str) -> (usize, usize) {
    let b = name.as_bytes();
    ((b[0] - b'a') as usize, (b[1] - b'1') as usize)
}
