//! Probing a solved game of the family: [`Values`] is anything that knows
//! the value of a position (a whole solution in memory, Lasker's sectors,
//! moving-phase table files); [`analyse`] gives the position's
//! [`Analysis`] (its value and every legal move's, best first),
//! [`move_values`] every move's value and [`best_move`] the perfect
//! player's choice. [`SearchedTables`] is a board whose placement phase is
//! searched, not stored (Morabaraba): moving-phase values from the files,
//! placement positions by the placement search over the moving-phase
//! outcomes. One implementation behind `solver six|lasker|morabaraba
//! probe|play`, the web API, the Python module and any board defined as
//! data.

use super::files;
use super::index::Indexing;
use super::lasker::solve::LaskerSolution;
use super::outcomes::{MovingOutcomes, OutcomesError};
use super::solve::Solution;
use crate::analysis::{table_mib, Analysis, AnalysisError, MoveValue, SearchOptions, Source};
use crate::board::Board;
use crate::index::Subspace;
use crate::placement::PlacementSearch;
use crate::position::{Move, Position};
use crate::rules::{ending, format_position, legal_moves, Ending};
use crate::variant::RuleSet;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tablebase::reader::Table;
use tablebase::{Outcome, Value};

/// Solved tables as the probing verbs see them.
pub trait Values<B: Board> {
    /// The value of a position for the side to move, `None` when its
    /// table is missing.
    fn value(&self, pos: &Position) -> Option<Value>;
    /// Does the value of `pos` carry a distance (to conversion)?
    fn has_distance(&self, pos: &Position) -> bool;
}

impl<B: Board> Values<B> for Solution<B> {
    fn value(&self, pos: &Position) -> Option<Value> {
        Solution::value(self, pos)
    }

    /// Placement tables hold outcomes only.
    fn has_distance(&self, pos: &Position) -> bool {
        !pos.placing()
    }
}

impl<B: Board> Values<B> for LaskerSolution<B> {
    fn value(&self, pos: &Position) -> Option<Value> {
        LaskerSolution::value(self, pos)
    }

    /// Every Lasker value carries its distance to conversion.
    fn has_distance(&self, _pos: &Position) -> bool {
        true
    }
}

/// Every legal move of `pos` with its value for the side to move (the
/// successor's value from the mover's side, [`Value::after_move`]: a
/// removal converts, so its distance to conversion is one ply, and so does
/// a placement under Lasker's rules). Moves whose table is missing are left
/// out.
pub fn move_values<B: Board>(
    sol: &impl Values<B>,
    rules: RuleSet,
    pos: &Position,
) -> Vec<(Move, Value)> {
    legal_moves::<B>(pos, rules)
        .into_iter()
        .filter_map(|m| move_value(sol, rules, pos, m).map(|(v, _)| (m, v)))
        .collect()
}

/// The value of move `m` of `pos` for the side that plays it, and whether
/// its distance is known; `None` when the table of the position it leads
/// to is missing.
fn move_value<B: Board>(
    sol: &impl Values<B>,
    rules: RuleSet,
    pos: &Position,
    m: Move,
) -> Option<(Value, bool)> {
    let next = pos.apply(m);
    let converts = m.removal().is_some() || (rules.interleave && m.from().is_none());
    let (v, known) = match ending::<B>(&next, rules) {
        Some(Ending::Loss(_)) => (Value::loss(0), true),
        Some(Ending::FullBoardDraw) => (Value::DRAW, true),
        None => (sol.value(&next)?, sol.has_distance(&next)),
    };
    Some((Value::after_move(v, converts), known || converts))
}

/// The [`Analysis`] of `pos` from `sol`: a finished game (`game-over`), or
/// the position's value and every legal move's, best first, from the
/// tables. A missing table is an error naming the position that needs it.
pub fn analyse<B: Board>(
    sol: &impl Values<B>,
    rules: RuleSet,
    pos: &Position,
) -> Result<Analysis<B>, AnalysisError> {
    pos.validate::<B>(rules)?;
    if let Some(over) = finished::<B>(pos, rules) {
        return Ok(over);
    }
    let missing = |p: &Position| AnalysisError::NoValue(format_position::<B>(p));
    let value = sol.value(pos).ok_or_else(|| missing(pos))?;
    let mut moves = Vec::new();
    for m in legal_moves::<B>(pos, rules) {
        let (v, known) = move_value(sol, rules, pos, m).ok_or_else(|| missing(&pos.apply(m)))?;
        moves.push((m, v, known));
    }
    Ok(Analysis::from_values(
        *pos,
        (value, sol.has_distance(pos)),
        moves,
        Source::Tables,
    ))
}

/// The analysis of a finished game: lost for the side to move (distance
/// 0), or a full board the rule set scores a draw; `None` while the game
/// goes on.
fn finished<B: Board>(pos: &Position, rules: RuleSet) -> Option<Analysis<B>> {
    let (value, dtc) = match ending::<B>(pos, rules)? {
        Ending::Loss(_) => (Outcome::Loss, Some(0)),
        Ending::FullBoardDraw => (Outcome::Draw, None),
    };
    Some(Analysis::new(
        *pos,
        value,
        dtc,
        Vec::new(),
        Source::GameOver,
    ))
}

/// Moving-phase values with distances read from a family board's table
/// files over index `I` (each file opened on first use, its blocks cached
/// by the reader; nothing loaded whole): what `solver morabaraba probe`
/// reads. Thread-safe.
pub struct MovingFiles<B: Board, I: Indexing> {
    dir: PathBuf,
    /// The rule set the files were written under.
    rules: RuleSet,
    tables: Mutex<HashMap<Subspace, Arc<Table>>>,
    _board: std::marker::PhantomData<fn() -> (B, I)>,
}

impl<B: Board, I: Indexing> MovingFiles<B, I> {
    /// The files of `dir` written under `rules`.
    pub fn new(dir: &Path, rules: RuleSet) -> MovingFiles<B, I> {
        MovingFiles {
            dir: dir.to_owned(),
            rules,
            tables: Mutex::new(HashMap::new()),
            _board: std::marker::PhantomData,
        }
    }

    /// The moving-phase value of `pos` from its table file.
    pub fn value(&self, pos: &Position) -> Result<Value, OutcomesError> {
        let (us, them) = (pos.us(), pos.them());
        let sub = Subspace::of(us, them);
        let table = {
            let mut open = self.tables.lock().unwrap_or_else(|e| e.into_inner());
            match open.get(&sub) {
                Some(t) => t.clone(),
                None => {
                    let t = Arc::new(files::open_moving::<B, I>(&self.dir, self.rules, sub)?);
                    open.insert(sub, t.clone());
                    t
                }
            }
        };
        Ok(table.get(I::slot::<B>(us, them))?)
    }

    /// The [`Analysis`] of a moving-phase position under `rules` (a
    /// missing or damaged table is the typed error naming its file).
    pub fn analyse(&self, rules: RuleSet, pos: &Position) -> Result<Analysis<B>, AnalysisError> {
        pos.validate::<B>(rules)?;
        if pos.placing() {
            return Err(AnalysisError::NoValue(format_position::<B>(pos)));
        }
        if ending::<B>(pos, rules).is_none() {
            self.value(pos)?;
        }
        analyse(self, rules, pos)
    }
}

/// Moving-phase values from the files (placement positions have none).
impl<B: Board, I: Indexing> Values<B> for MovingFiles<B, I> {
    fn value(&self, pos: &Position) -> Option<Value> {
        if pos.placing() {
            return None;
        }
        MovingFiles::value(self, pos).ok()
    }

    fn has_distance(&self, pos: &Position) -> bool {
        !pos.placing()
    }
}

/// A family board whose placement phase is searched, not stored
/// (Morabaraba): moving-phase values with distances from the table files
/// ([`MovingFiles`]), placement positions valued by the placement search
/// over the moving-phase outcomes held two bits a slot (win/draw/loss, no
/// distance). Thread-safe; each placement question runs a search of its
/// own (its transposition table sized by the plies of placement left).
pub struct SearchedTables<B: Board, I: Indexing> {
    files: MovingFiles<B, I>,
    outcomes: MovingOutcomes<B, I>,
}

impl<B: Board, I: Indexing> SearchedTables<B, I> {
    /// The `stones`-stone game over the tables of `dir` written under
    /// `rules` (the variant's own stones a side): the subspaces with
    /// 3..=`stones` stones a side are loaded as outcomes.
    pub fn open(
        dir: &Path,
        rules: RuleSet,
        stones: u8,
    ) -> Result<SearchedTables<B, I>, OutcomesError> {
        Ok(SearchedTables {
            files: MovingFiles::new(dir, rules),
            outcomes: MovingOutcomes::load(dir, rules, stones, |_| {})?,
        })
    }

    /// The rule set of the game (its stones a side included).
    pub fn rules(&self) -> RuleSet {
        self.outcomes.rules()
    }

    /// The search for `pos`, sized by its plies of placement left.
    fn search(
        &self,
        pos: &Position,
        options: SearchOptions,
    ) -> Result<PlacementSearch<'_, MovingOutcomes<B, I>>, AnalysisError> {
        PlacementSearch::with_table_mib(&self.outcomes, table_mib(pos, options.hash_mib))
            .with_threads(options.threads.max(1))
            .map_err(AnalysisError::Threads)
    }

    /// The [`Analysis`] of `pos`: from the tables in the moving phase, by
    /// the placement search before it (outcomes only, `source` `search`).
    pub fn analyse(
        &self,
        pos: &Position,
        options: SearchOptions,
    ) -> Result<Analysis<B>, AnalysisError> {
        let rules = self.rules();
        pos.validate::<B>(rules)?;
        if !pos.placing() {
            return self.files.analyse(rules, pos);
        }
        if let Some(over) = finished::<B>(pos, rules) {
            return Ok(over);
        }
        let moves = self.search(pos, options)?.move_values(pos)?;
        let value = moves.first().map_or(Outcome::Loss, |m| m.1);
        let moves = moves
            .into_iter()
            .map(|(m, o)| (m, outcome_value(o), false))
            .collect();
        Ok(Analysis::from_values(
            *pos,
            (outcome_value(value), false),
            moves,
            Source::Search,
        ))
    }

    /// The perfect player's move (faster than [`SearchedTables::analyse`]
    /// in placement: one best move, not every move's value); `None` when
    /// the game is over.
    pub fn best(
        &self,
        pos: &Position,
        options: SearchOptions,
    ) -> Result<Option<MoveValue>, AnalysisError> {
        let rules = self.rules();
        pos.validate::<B>(rules)?;
        if !pos.placing() || ending::<B>(pos, rules).is_some() {
            return Ok(self.analyse(pos, options)?.best());
        }
        let best = self.search(pos, options)?.best_move(pos)?;
        Ok(best.map(|(mv, value)| MoveValue {
            mv,
            value,
            dtc: None,
        }))
    }
}

/// An outcome as a value without a meaningful distance.
fn outcome_value(o: Outcome) -> Value {
    match o {
        Outcome::Win => Value::win(1),
        Outcome::Draw => Value::DRAW,
        Outcome::Loss => Value::loss(1),
    }
}

/// A perfect move and its value: the fastest win, else a draw, else the
/// slowest loss (equal values in the order of
/// [`crate::analysis::best_first`]); `None` when no move has a value.
pub fn best_move<B: Board>(
    sol: &impl Values<B>,
    rules: RuleSet,
    pos: &Position,
) -> Option<(Move, Value)> {
    move_values(sol, rules, pos)
        .into_iter()
        .min_by_key(|&(m, v)| crate::analysis::preference(m, v))
}
