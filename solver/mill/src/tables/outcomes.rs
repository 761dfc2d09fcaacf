//! The moving-phase outcomes of a game of the family held in memory, two
//! bits a slot: the leaves of the placement search
//! ([`crate::search::PlacementSearch`]) on any board, over either
//! index (Morabaraba's symmetry-reduced files, Six Men's Morris's dense
//! ones). This is what `solver morabaraba start` searches over.

use crate::games::morabaraba::moving::subspaces;
use crate::index::Indexing;
use crate::rules::board::Board;
use crate::rules::geometry::Bits;
use crate::rules::position::PositionError;
use crate::rules::position::{Move, Position};
use crate::rules::variant::RuleSet;
use crate::rules::{self, Ending};
use crate::search::PlacementGame;
use crate::tables::files::{self, FilesError};
use crate::tables::keys::Subspace;
use std::marker::PhantomData;
use std::path::Path;
use tablebase::format::FormatError;
use tablebase::resident::Wdl;
use tablebase::Outcome;

/// Why the outcomes cannot be loaded or a position cannot be valued.
#[derive(Debug, thiserror::Error)]
pub enum OutcomesError {
    /// The position is not legal under the rule set.
    #[error("illegal position: {0}")]
    Illegal(#[from] PositionError),
    /// A table file is missing, damaged or of another rule set.
    #[error(transparent)]
    Files(#[from] FilesError),
    /// A table's blocks cannot be read.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// A leaf lies in a subspace that was not loaded.
    #[error("subspace {0} is not loaded (tables up to {1} stones a side were)")]
    NotLoaded(Subspace, u8),
}

/// Slots of the table array: subspaces up to this many stones a side.
const SIDE: usize = 13;

/// The win/draw/loss outcome of every moving-phase position with 3..=`max`
/// stones a side of board `B` under a rule set, over index `I`.
pub struct MovingOutcomes<B: Board, I: Indexing> {
    rules: RuleSet,
    max: u8,
    /// `tables[SIDE * us + them]`.
    tables: Vec<Option<Wdl>>,
    bytes: u64,
    _board: PhantomData<fn() -> (B, I)>,
}

impl<B: Board, I: Indexing> MovingOutcomes<B, I> {
    /// Load, for the `stones`-stone game, the subspaces with 3..=`stones`
    /// stones a side from `dir`, written under the rule set `rules` (every
    /// file's label, size and block checksums checked; a moving-phase
    /// table does not depend on the stones a side, so the files of the
    /// variant's full game serve every smaller one); `loaded` hears of
    /// each subspace as it is read.
    pub fn load(
        dir: &Path,
        rules: RuleSet,
        stones: u8,
        mut loaded: impl FnMut(Subspace),
    ) -> Result<MovingOutcomes<B, I>, OutcomesError> {
        let max = stones.min(SIDE as u8 - 1);
        let game_options = if stones == rules.stones {
            String::new()
        } else {
            format!(" --stones {stones}")
        };
        let mut tables: Vec<Option<Wdl>> = (0..SIDE * SIDE).map(|_| None).collect();
        let mut bytes = 0;
        for sub in subspaces(max) {
            // A missing file's command makes every table this game needs.
            let table = files::open_moving::<B, I>(dir, rules, sub)
                .map_err(|e| e.with_generate_options(&game_options))?;
            // The leaves follow the last placement: a count of zero.
            let wdl = Wdl::load_within(&table, rules.quiet_limit)?;
            bytes += wdl.len().div_ceil(4);
            tables[SIDE * sub.us as usize + sub.them as usize] = Some(wdl);
            loaded(sub);
        }
        Ok(MovingOutcomes {
            rules: RuleSet { stones, ..rules },
            max,
            tables,
            bytes,
            _board: PhantomData,
        })
    }

    /// The rule set of the game (its stones a side included).
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Bytes held (two bits a slot).
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The outcome for the side to move of `(us, them)`.
    pub fn outcome(&self, us: Bits, them: Bits) -> Result<Outcome, OutcomesError> {
        let sub = Subspace::of(us, them);
        let inside = (sub.us as usize) < SIDE && (sub.them as usize) < SIDE;
        let table = inside
            .then(|| self.tables[SIDE * sub.us as usize + sub.them as usize].as_ref())
            .flatten()
            .ok_or(OutcomesError::NotLoaded(sub, self.max))?;
        // A slot the index does not use cannot come from a legal position.
        Ok(table.get(I::slot::<B>(us, them)).unwrap_or(Outcome::Draw))
    }
}

impl<B: Board, I: Indexing> PlacementGame for MovingOutcomes<B, I> {
    type Board = B;
    type Error = OutcomesError;

    fn validate(&self, pos: &Position) -> Result<(), OutcomesError> {
        Ok(pos.validate::<B>(self.rules)?)
    }

    #[inline]
    fn for_each_move(&self, pos: &Position, f: impl FnMut(Move)) {
        rules::for_each_move::<B>(pos, self.rules, f);
    }

    #[inline]
    fn ended(&self, pos: &Position) -> Option<i8> {
        rules::ending::<B>(pos, self.rules).map(|e| match e {
            Ending::Loss(_) => -1,
            Ending::FullBoardDraw => 0,
        })
    }

    #[inline]
    fn leaf(&self, us: Bits, them: Bits) -> Result<Outcome, OutcomesError> {
        self.outcome(us, them)
    }
}
