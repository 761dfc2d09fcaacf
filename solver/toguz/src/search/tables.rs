//! The endgame share tables in the search: a node with few enough stones on
//! the board takes its exact result from the tables instead of searching
//! (play that never ends is a draw, as in the tables; `docs/toguz.md`).

use super::worker::Worker;
use crate::board::Board;
use crate::endgame::GameResult;

/// Score of a position the tables prove won (below mate scores, above any
/// evaluation); a proven loss scores its negation, a proven draw 0. The
/// tables hold no distance, so every proven win scores the same.
pub const TB_WIN: i32 = super::MATE_BOUND - 1_000;

impl Worker<'_> {
    /// The exact score of `b` from the tables, if they cover it (a damaged
    /// table file is treated as absent).
    #[inline]
    pub(crate) fn probe_tables(&mut self, b: &Board) -> Option<i32> {
        let tables = self.shared.tables.as_deref()?;
        if b.stones_on_board() > u32::from(tables.max_stones()) {
            return None;
        }
        let result = tables.result(b).ok()??;
        self.tb_hits += 1;
        Some(match result {
            GameResult::Win => TB_WIN,
            GameResult::Draw => 0,
            GameResult::Loss => -TB_WIN,
        })
    }
}
