//! Probing the share tables: a directory opened once (memory-mapped files,
//! blocks decompressed on demand), then the shares and the game result of
//! any position with few enough stones on the board.

use super::database::{scan, EgtbError};
use super::graph::unpack;
use super::index::{key, Layer, Tuzdyks, CONFIGS};
use crate::board::{Board, WIN_STONES};
use crate::endgame::GameResult;
use std::path::Path;
use tablebase::reader::Table;

/// What the side to move can secure of the stones on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Share {
    /// Stones on the board.
    pub stones: u8,
    /// The most stones the side to move can be sure to collect.
    pub mover: u8,
    /// The most stones the opponent can be sure to collect.
    pub opponent: u8,
}

impl Share {
    /// The game result for the side to move with these kazans (the
    /// mover's, the opponent's): a win when the mover can reach 82, a loss
    /// when the opponent can, otherwise a draw (81–81, or play that never
    /// ends with both below 82).
    pub fn result(self, kazan_mover: u8, kazan_opponent: u8) -> GameResult {
        if kazan_mover as u32 + self.mover as u32 >= WIN_STONES as u32 {
            GameResult::Win
        } else if kazan_opponent as u32 + self.opponent as u32 >= WIN_STONES as u32 {
            GameResult::Loss
        } else {
            GameResult::Draw
        }
    }
}

/// An opened table directory.
pub struct Tables {
    /// By [`Layer::ordinal`].
    tables: Vec<Option<Table>>,
    max_stones: u8,
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables")
            .field("max_stones", &self.max_stones)
            .finish()
    }
}

impl Tables {
    /// Open every table of `dir`; the tables answer for boards with up to
    /// [`Tables::max_stones`] stones (the largest `n` such that every table
    /// with at most `n` stones is there). An error when there is none.
    pub fn open(dir: &Path) -> Result<Tables, EgtbError> {
        let found = scan(dir)?;
        let mut max = None;
        for stones in 0..=super::index::MAX_STONES {
            if Tuzdyks::all().all(|tuzdyks| found.contains_key(&Layer { stones, tuzdyks })) {
                max = Some(stones);
            } else {
                break;
            }
        }
        let Some(max_stones) = max else {
            return Err(super::database::directory(dir)
                .missing(Layer {
                    stones: 0,
                    tuzdyks: Tuzdyks::NONE,
                })
                .into());
        };
        let mut tables: Vec<Option<Table>> = (0..(max_stones as usize + 1) * CONFIGS)
            .map(|_| None)
            .collect();
        for (layer, table) in found {
            if layer.stones <= max_stones {
                tables[layer.ordinal()] = Some(table);
            }
        }
        Ok(Tables { tables, max_stones })
    }

    /// Most stones on the board the tables answer for.
    pub fn max_stones(&self) -> u8 {
        self.max_stones
    }

    /// Bytes of all opened files.
    pub fn bytes(&self) -> u64 {
        self.tables.iter().flatten().map(Table::bytes).sum()
    }

    /// The shares of `b` (whose kazans do not matter), or `None` with more
    /// stones on the board than the tables hold.
    pub fn share(&self, b: &Board) -> Result<Option<Share>, EgtbError> {
        if b.stones_on_board() > self.max_stones as u32 {
            return Ok(None);
        }
        let Some(k) = key(b) else { return Ok(None) };
        let table = self.tables[k.layer.ordinal()]
            .as_ref()
            .expect("every table up to max_stones is open");
        let (mover, opponent) = unpack(table.get_raw(k.slot)? as u8);
        Ok(Some(Share {
            stones: k.layer.stones,
            mover,
            opponent,
        }))
    }

    /// The game result of `b` for its side to move, or `None` beyond the
    /// tables. A finished game is scored by the rules.
    pub fn result(&self, b: &Board) -> Result<Option<GameResult>, EgtbError> {
        if let Some(o) = b.outcome() {
            return Ok(Some(match o.sign_for(b.side) {
                1 => GameResult::Win,
                0 => GameResult::Draw,
                _ => GameResult::Loss,
            }));
        }
        let me = b.side.index();
        Ok(self
            .share(b)?
            .map(|s| s.result(b.kazan[me], b.kazan[1 - me])))
    }
}
