//! Text forms: the position format, PlayOK move notation and the ASCII board.
//!
//! Position format (one line, four space-separated fields):
//!
//! ```text
//! <White holes 1..9>/<Black holes 1..9> <side w|b> <White kazan>,<Black kazan> <White tuzdyk>,<Black tuzdyk>
//! 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 w 0,0 -,-
//! ```
//!
//! A tuzdyk is written as the number (1..8) of the opponent's hole it is on,
//! or `-`. The word `start` is accepted for the start position. Checks: 18
//! holes, 162 stones in all, a tuzdyk is empty, not on hole 9, and the two
//! tuzdyks do not have the same number.
//!
//! Move notation (PlayOK): the played hole and the landing hole number, then
//! the mover's kazan total in brackets after an even capture (`76(10)`), or
//! `X` after a move that makes a tuzdyk (`25X`).

use super::board::{Board, Move, MoveEffect, Side, HOLES, NO_TUZDYK, TOTAL_STONES};
use std::fmt::Write as _;
use std::str::FromStr;

/// Why a position text was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Not four fields.
    #[error("position needs 4 fields `holes side kazans tuzdyks`, found {0}")]
    FieldCount(usize),
    /// The holes field is not `9 numbers/9 numbers`.
    #[error("holes must be 9 numbers, a slash, 9 numbers (found `{0}`)")]
    Holes(String),
    /// A number could not be read.
    #[error("bad number `{0}`")]
    Number(String),
    /// Side is neither `w` nor `b`.
    #[error("side to move must be `w` or `b` (found `{0}`)")]
    Side(String),
    /// The kazans field is not two numbers.
    #[error("kazans must be two numbers `W,B` (found `{0}`)")]
    Kazans(String),
    /// The stones do not add up to 162.
    #[error("stones add up to {0}, not 162")]
    Total(u32),
    /// A tuzdyk is invalid.
    #[error("bad tuzdyk: {0}")]
    Tuzdyk(String),
}

fn number(s: &str) -> Result<u8, PositionError> {
    s.trim()
        .parse::<u8>()
        .map_err(|_| PositionError::Number(s.to_string()))
}

fn parse_tuzdyk(s: &str, owner: Side) -> Result<u8, PositionError> {
    if s == "-" {
        return Ok(NO_TUZDYK);
    }
    let n = number(s)?;
    if !(1..=8).contains(&n) {
        return Err(PositionError::Tuzdyk(format!(
            "`{s}` is not a hole 1..8 (hole 9 can never be a tuzdyk)"
        )));
    }
    Ok((owner.opponent().index() * 9) as u8 + n - 1)
}

impl FromStr for Board {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Board, PositionError> {
        let text = text.trim();
        if text == "start" {
            return Ok(Board::start());
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 4 {
            return Err(PositionError::FieldCount(fields.len()));
        }
        let sides: Vec<&str> = fields[0].split('/').collect();
        if sides.len() != 2 {
            return Err(PositionError::Holes(fields[0].to_string()));
        }
        let mut holes = [0u8; HOLES];
        for (s, part) in sides.iter().enumerate() {
            let nums: Vec<&str> = part.split(',').collect();
            if nums.len() != 9 {
                return Err(PositionError::Holes(fields[0].to_string()));
            }
            for (i, n) in nums.iter().enumerate() {
                holes[s * 9 + i] = number(n)?;
            }
        }
        let side = match fields[1] {
            "w" => Side::White,
            "b" => Side::Black,
            other => return Err(PositionError::Side(other.to_string())),
        };
        let k: Vec<&str> = fields[2].split(',').collect();
        if k.len() != 2 {
            return Err(PositionError::Kazans(fields[2].to_string()));
        }
        let kazan = [number(k[0])?, number(k[1])?];
        let t: Vec<&str> = fields[3].split(',').collect();
        if t.len() != 2 {
            return Err(PositionError::Tuzdyk(format!(
                "field must be `W,B` with `-` for none (found `{}`)",
                fields[3]
            )));
        }
        let tuzdyk = [
            parse_tuzdyk(t[0], Side::White)?,
            parse_tuzdyk(t[1], Side::Black)?,
        ];
        if tuzdyk[0] != NO_TUZDYK && tuzdyk[1] != NO_TUZDYK && tuzdyk[0] % 9 == tuzdyk[1] % 9 {
            return Err(PositionError::Tuzdyk(
                "both tuzdyks have the same hole number".to_string(),
            ));
        }
        for (owner, &tz) in tuzdyk.iter().enumerate() {
            if tz != NO_TUZDYK && holes[tz as usize] != 0 {
                return Err(PositionError::Tuzdyk(format!(
                    "{}'s tuzdyk (hole {}) must be empty",
                    side_name(Side::from_index(owner)),
                    tz % 9 + 1
                )));
            }
        }
        let total: u32 = holes
            .iter()
            .chain(kazan.iter())
            .map(|&x| u32::from(x))
            .sum();
        if total != TOTAL_STONES {
            return Err(PositionError::Total(total));
        }
        Ok(Board::from_parts(holes, kazan, tuzdyk, side))
    }
}

impl std::fmt::Display for Board {
    /// The position text format (see the module documentation).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side_holes = |s: usize| {
            self.holes[s * 9..s * 9 + 9]
                .iter()
                .map(|h| h.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let tz = |s: usize| match self.tuzdyk[s] {
            NO_TUZDYK => "-".to_string(),
            t => (t % 9 + 1).to_string(),
        };
        write!(
            f,
            "{}/{} {} {},{} {},{}",
            side_holes(0),
            side_holes(1),
            if self.side == Side::White { "w" } else { "b" },
            self.kazan[0],
            self.kazan[1],
            tz(0),
            tz(1)
        )
    }
}

/// "White" or "Black".
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// A move as written in a PlayOK record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// Played hole, 1..9.
    pub hole: u8,
    /// Landing hole number, 1..9 (on either side); `None` when only the hole
    /// was given (accepted for typed input).
    pub landing: Option<u8>,
    /// Mover's kazan total after a capture, if written.
    pub kazan: Option<u32>,
    /// `X`: the move made a tuzdyk.
    pub tuzdyk: bool,
}

/// Why a move text was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Not of the form `76`, `76(10)`, `25X` (or a lone hole `7`).
    #[error("bad move `{0}` (expected e.g. `76`, `76(10)`, `25X`)")]
    Syntax(String),
}

impl FromStr for MoveText {
    type Err = MoveTextError;

    fn from_str(s: &str) -> Result<MoveText, MoveTextError> {
        let bad = || MoveTextError::Syntax(s.to_string());
        let b = s.as_bytes();
        let digit = |c: u8| (b'1'..=b'9').contains(&c).then(|| c - b'0');
        let hole = b.first().copied().and_then(digit).ok_or_else(bad)?;
        if b.len() == 1 {
            return Ok(MoveText {
                hole,
                landing: None,
                kazan: None,
                tuzdyk: false,
            });
        }
        let landing = digit(b[1]).ok_or_else(bad)?;
        let rest = &s[2..];
        let (kazan, tuzdyk) = if rest.is_empty() {
            (None, false)
        } else if rest == "X" || rest == "x" {
            (None, true)
        } else if let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
            (Some(inner.parse::<u32>().map_err(|_| bad())?), false)
        } else {
            return Err(bad());
        };
        Ok(MoveText {
            hole,
            landing: Some(landing),
            kazan,
            tuzdyk,
        })
    }
}

/// PlayOK notation of move `m` given its effect and the board after it.
pub fn move_notation(m: Move, effect: &MoveEffect, after: &Board) -> String {
    let mut s = String::with_capacity(8);
    let _ = write!(s, "{}{}", m + 1, effect.landing % 9 + 1);
    if effect.tuzdyk {
        s.push('X');
    } else if effect.captured > 0 {
        let mover = after.side.opponent();
        let _ = write!(s, "({})", after.kazan[mover.index()]);
    }
    s
}

/// ASCII drawing of the board: Black's row on top (holes 9..1 left to right),
/// White's row below (1..9), hole numbers, kazans, tuzdyks marked `X`.
pub fn diagram(b: &Board) -> String {
    let cell = |i: usize| {
        if b.tuzdyk.contains(&(i as u8)) {
            "   X".to_string()
        } else {
            format!("{:4}", b.holes[i])
        }
    };
    let mut s = String::new();
    s.push_str("          ");
    for n in (1..=9).rev() {
        let _ = write!(s, "{n:4}");
    }
    s.push('\n');
    let _ = write!(s, "Black {:>3} ", b.kazan[1]);
    for i in (9..18).rev() {
        s.push_str(&cell(i));
    }
    s.push('\n');
    let _ = write!(s, "White {:>3} ", b.kazan[0]);
    for i in 0..9 {
        s.push_str(&cell(i));
    }
    s.push('\n');
    s.push_str("          ");
    for n in 1..=9 {
        let _ = write!(s, "{n:4}");
    }
    s.push('\n');
    let _ = write!(
        s,
        "kazans: White {}, Black {}; {} to move",
        b.kazan[0],
        b.kazan[1],
        side_name(b.side)
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_text() {
        let b = Board::start();
        assert_eq!(
            b.to_string(),
            "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 w 0,0 -,-"
        );
        assert_eq!(b.to_string().parse::<Board>(), Ok(b));
    }

    #[test]
    fn rejects_bad_positions() {
        let err = |s: &str| s.parse::<Board>().unwrap_err();
        assert_eq!(
            err("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,8 w 0,0 -,-"),
            PositionError::Total(161)
        );
        assert!(matches!(
            err("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 w 0,0 9,-"),
            PositionError::Tuzdyk(_)
        ));
        assert!(matches!(
            err("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 w 0,0 3,-"),
            PositionError::Tuzdyk(_)
        ));
        assert!(matches!(
            err("0,9,9,9,9,9,9,9,9/0,9,9,9,9,9,9,9,9 w 9,9 1,1"),
            PositionError::Tuzdyk(_)
        ));
        assert!(matches!(err("9,9/9 w 0,0 -,-"), PositionError::Holes(_)));
        assert!(matches!(
            err("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 x 0,0 -,-"),
            PositionError::Side(_)
        ));
        assert!(matches!(err("hello"), PositionError::FieldCount(1)));
    }

    #[test]
    fn move_text() {
        let m: MoveText = "76(10)".parse().unwrap();
        assert_eq!(
            m,
            MoveText {
                hole: 7,
                landing: Some(6),
                kazan: Some(10),
                tuzdyk: false
            }
        );
        assert!("25X".parse::<MoveText>().unwrap().tuzdyk);
        assert!("07".parse::<MoveText>().is_err());
        assert!("76(".parse::<MoveText>().is_err());
        let mut b = Board::start();
        let e = b.make(6);
        assert_eq!(move_notation(6, &e, &b), "76(10)");
    }
}
