//! Probing a solved game of the family: [`Values`] is anything that knows
//! the value of a position (a whole solution in memory, Lasker's sectors,
//! moving-phase table files); [`analyse`] gives the position's
//! [`Analysis`] (its value and every legal move's, best first),
//! [`move_values`] every move's value and [`best_move`] the perfect
//! player's choice. [`TableFiles`] reads a large board's table files
//! (Morabaraba: moving-phase subspaces and placement sectors);
//! [`SearchedTables`] answers placement positions from their sectors'
//! files where they are stored, else by the placement search over the
//! moving-phase outcomes. One implementation behind `solver six|lasker|morabaraba
//! probe|play`, the web API, the Python module and any board defined as
//! data.

use crate::games::lasker::solve::LaskerSolution;
use crate::index::Indexing;
use crate::probe::analysis::{
    table_mib, Analysis, AnalysisError, MoveValue, SearchOptions, Source,
};
use crate::probe::count::Count;
use crate::rules::board::Board;
use crate::rules::position::{Move, Position};
use crate::rules::variant::RuleSet;
use crate::rules::{ending, format_position, legal_moves, Ending};
use crate::search::PlacementSearch;
use crate::tables::files::{self, FilesError};
use crate::tables::keys::Subspace;
use crate::tables::keys::{Sector, TableId};
use crate::tables::outcomes::{MovingOutcomes, OutcomesError};
use crate::tables::solve::Solution;
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
        .filter_map(|m| move_value(sol, rules, pos, m, None).map(|(v, _)| (m, v)))
        .collect()
}

/// The value of move `m` of `pos` for the side that plays it, and whether
/// its distance is known; `None` when the table of the position it leads
/// to is missing. Under the count rule (`count`: where `pos` stands in
/// it), the position it leads to is read at its own count
/// ([`Count::after`], [`Count::read`]).
fn move_value<B: Board>(
    sol: &impl Values<B>,
    rules: RuleSet,
    pos: &Position,
    m: Move,
    count: Option<Count>,
) -> Option<(Value, bool)> {
    let next = pos.apply(m);
    let converts = m.removal().is_some() || (rules.interleave && m.from().is_none());
    let (v, known) = match ending::<B>(&next, rules) {
        Some(Ending::Loss(_)) => (Value::loss(0), true),
        Some(Ending::FullBoardDraw) => (Value::DRAW, true),
        None => {
            let (v, known) = (sol.value(&next)?, sol.has_distance(&next));
            match count {
                Some(c) if known => (c.after(m).read(v), known),
                _ => (v, known),
            }
        }
    };
    Some((Value::after_move(v, converts), known || converts))
}

/// The [`Analysis`] of `pos` from `sol`: a finished game (`game-over`), or
/// the position's value and every legal move's, best first, from the
/// tables. A missing table is an error naming the position that needs it.
/// Under a count rule, `pos` is read with no quiet ply played
/// ([`analyse_at`]).
pub fn analyse<B: Board>(
    sol: &impl Values<B>,
    rules: RuleSet,
    pos: &Position,
) -> Result<Analysis<B>, AnalysisError> {
    analyse_at(sol, rules, pos, 0)
}

/// [`analyse`] after `plies` quiet plies (without a removal or a
/// placement) under the rule set's count rule: the position's value and
/// every move's read at their counts ([`Count`]); a count at its limit has
/// drawn the game (`game-over`). `plies` means nothing without a count
/// rule; past the limit it is an error.
pub fn analyse_at<B: Board>(
    sol: &impl Values<B>,
    rules: RuleSet,
    pos: &Position,
    plies: u16,
) -> Result<Analysis<B>, AnalysisError> {
    pos.validate::<B>(rules)?;
    let count = Count::of(rules, if pos.placing() { 0 } else { plies })?;
    if let Some(over) = finished::<B>(pos, rules) {
        return Ok(over.with_count(count));
    }
    if let Some(c) = count.filter(|c| c.expired()) {
        return Ok(Analysis::drawn_by_count(*pos, c));
    }
    let missing = |p: &Position| AnalysisError::NoValue(format_position::<B>(p));
    let mut value = sol.value(pos).ok_or_else(|| missing(pos))?;
    if let Some(c) = count.filter(|_| sol.has_distance(pos)) {
        value = c.read(value);
    }
    let mut moves = Vec::new();
    for m in legal_moves::<B>(pos, rules) {
        let (v, known) =
            move_value(sol, rules, pos, m, count).ok_or_else(|| missing(&pos.apply(m)))?;
        moves.push((m, v, known));
    }
    Ok(
        Analysis::from_values(*pos, (value, sol.has_distance(pos)), moves, Source::Tables)
            .with_count(count),
    )
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
        self.analyse_at(rules, pos, 0)
    }

    /// [`MovingFiles::analyse`] after `plies` quiet plies under the count
    /// rule of `rules` ([`analyse_at`]).
    pub fn analyse_at(
        &self,
        rules: RuleSet,
        pos: &Position,
        plies: u16,
    ) -> Result<Analysis<B>, AnalysisError> {
        pos.validate::<B>(rules)?;
        if pos.placing() {
            return Err(AnalysisError::NoValue(format_position::<B>(pos)));
        }
        if ending::<B>(pos, rules).is_none() {
            self.value(pos)?;
        }
        analyse_at(self, rules, pos, plies)
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

/// Every table file of a large family board (Morabaraba): moving-phase
/// values with distances ([`MovingFiles`]) and, where `generate
/// --placement` wrote them, placement sectors' outcomes (no distance),
/// each file opened on first use, its blocks cached by the reader;
/// nothing loaded whole. Thread-safe.
pub struct TableFiles<B: Board, I: Indexing> {
    moving: MovingFiles<B, I>,
    sectors: Mutex<HashMap<Sector, Arc<Table>>>,
}

impl<B: Board, I: Indexing> TableFiles<B, I> {
    /// The files of `dir` written under `rules`.
    pub fn new(dir: &Path, rules: RuleSet) -> TableFiles<B, I> {
        TableFiles {
            moving: MovingFiles::new(dir, rules),
            sectors: Mutex::new(HashMap::new()),
        }
    }

    /// The moving-phase files.
    pub fn moving(&self) -> &MovingFiles<B, I> {
        &self.moving
    }

    /// Is the file of `sector` in the directory?
    pub fn has_sector(&self, sector: Sector) -> bool {
        let open = self.sectors.lock().unwrap_or_else(|e| e.into_inner());
        open.contains_key(&sector)
            || files::directory::<B, I>(&self.moving.dir, self.moving.rules)
                .exists(TableId::Placement(sector))
    }

    /// Are the files of every placement sector of the `stones`-stone game
    /// in the directory?
    pub fn has_placement(&self, stones: u8) -> bool {
        Sector::all(stones).into_iter().all(|s| self.has_sector(s))
    }

    /// The stored value of `pos`: a moving-phase value with its distance,
    /// or a placement position's outcome from its sector's file, without
    /// distance (`Value::win(1)`, `Value::DRAW`, `Value::loss(0)`).
    pub fn value(&self, pos: &Position) -> Result<Value, OutcomesError> {
        let Some(sector) = Sector::of(pos) else {
            return self.moving.value(pos);
        };
        let table = {
            let mut open = self.sectors.lock().unwrap_or_else(|e| e.into_inner());
            match open.get(&sector) {
                Some(t) => t.clone(),
                None => {
                    let t = files::directory::<B, I>(&self.moving.dir, self.moving.rules)
                        .open(TableId::Placement(sector))
                        .map_err(FilesError::from)?;
                    let t = Arc::new(t);
                    open.insert(sector, t.clone());
                    t
                }
            }
        };
        Ok(table.get(I::slot::<B>(pos.us(), pos.them()))?)
    }
}

/// Moving-phase values with distances, placement outcomes where their
/// sector's file is there.
impl<B: Board, I: Indexing> Values<B> for TableFiles<B, I> {
    fn value(&self, pos: &Position) -> Option<Value> {
        TableFiles::value(self, pos).ok()
    }

    fn has_distance(&self, pos: &Position) -> bool {
        !pos.placing()
    }
}

/// A large family board (Morabaraba) from its table files: moving-phase
/// values with distances ([`TableFiles`]); a placement position from its
/// sector's file when `generate --placement` wrote it (and its moves' from
/// their sectors'), else by the placement search over the moving-phase
/// outcomes held two bits a slot (win/draw/loss, no distance), loaded on
/// the first search. Thread-safe; each placement search is a search of its
/// own (its transposition table sized by the plies of placement left).
pub struct SearchedTables<B: Board, I: Indexing> {
    files: TableFiles<B, I>,
    dir: PathBuf,
    /// The files' rule set (the variant's own stones a side).
    files_rules: RuleSet,
    /// The game's: its stones a side.
    rules: RuleSet,
    outcomes: Mutex<Option<Arc<MovingOutcomes<B, I>>>>,
}

impl<B: Board, I: Indexing> SearchedTables<B, I> {
    /// The `stones`-stone game over the tables of `dir` written under
    /// `rules` (the variant's own stones a side). Unless every placement
    /// sector of the game is stored, the subspaces with 3..=`stones` stones
    /// a side are loaded as outcomes for the search (once every sector is
    /// stored, only when a search is asked for).
    pub fn open(
        dir: &Path,
        rules: RuleSet,
        stones: u8,
    ) -> Result<SearchedTables<B, I>, OutcomesError> {
        let tables = SearchedTables {
            files: TableFiles::new(dir, rules),
            dir: dir.to_owned(),
            files_rules: rules,
            rules: RuleSet { stones, ..rules },
            outcomes: Mutex::new(None),
        };
        if !tables.files.has_placement(stones) {
            tables.outcomes()?;
        }
        Ok(tables)
    }

    /// The rule set of the game (its stones a side included).
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The table files.
    pub fn files(&self) -> &TableFiles<B, I> {
        &self.files
    }

    /// The moving-phase outcomes the search reads, loaded on first need.
    fn outcomes(&self) -> Result<Arc<MovingOutcomes<B, I>>, OutcomesError> {
        let mut held = self.outcomes.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(o) = held.as_ref() {
            return Ok(o.clone());
        }
        let o = Arc::new(MovingOutcomes::load(
            &self.dir,
            self.files_rules,
            self.rules.stones,
            |_| {},
        )?);
        *held = Some(o.clone());
        Ok(o)
    }

    /// The search for `pos` over `outcomes`, sized by its plies of
    /// placement left.
    fn search<'o>(
        outcomes: &'o MovingOutcomes<B, I>,
        pos: &Position,
        options: SearchOptions,
    ) -> Result<PlacementSearch<'o, MovingOutcomes<B, I>>, AnalysisError> {
        PlacementSearch::with_table_mib(outcomes, table_mib(pos, options.hash_mib))
            .with_threads(options.threads.max(1))
            .map_err(AnalysisError::Threads)
    }

    /// The analysis of a placement position from the stored sectors, `None`
    /// when its sector's file or one of its moves' is missing.
    fn stored(&self, pos: &Position) -> Option<Analysis<B>> {
        let sector = Sector::of(pos)?;
        if !self.files.has_sector(sector) {
            return None;
        }
        analyse(&self.files, self.rules, pos).ok()
    }

    /// The [`Analysis`] of `pos`: from the tables in the moving phase and
    /// where the placement sectors are stored (`source` `tables`), else by
    /// the placement search (outcomes only, `source` `search`).
    pub fn analyse(
        &self,
        pos: &Position,
        options: SearchOptions,
    ) -> Result<Analysis<B>, AnalysisError> {
        self.analyse_at(pos, 0, options)
    }

    /// [`SearchedTables::analyse`] after `plies` quiet plies under the
    /// tables' count rule ([`analyse_at`]; a placement position's count is
    /// zero, its moving-phase leaves read at zero by the search).
    pub fn analyse_at(
        &self,
        pos: &Position,
        plies: u16,
        options: SearchOptions,
    ) -> Result<Analysis<B>, AnalysisError> {
        let rules = self.rules();
        pos.validate::<B>(rules)?;
        if !pos.placing() {
            return self.files.moving.analyse_at(rules, pos, plies);
        }
        let count = Count::of(rules, 0)?;
        if let Some(over) = finished::<B>(pos, rules) {
            return Ok(over.with_count(count));
        }
        if let Some(a) = self.stored(pos) {
            return Ok(a);
        }
        let outcomes = self.outcomes()?;
        let moves = Self::search(&outcomes, pos, options)?.move_values(pos)?;
        let value = moves.first().map_or(Outcome::Loss, |m| m.1);
        let moves = moves
            .into_iter()
            .map(|(m, o)| (m, outcome_value(o), false))
            .collect();
        Ok(
            Analysis::from_values(*pos, (outcome_value(value), false), moves, Source::Search)
                .with_count(count),
        )
    }

    /// The perfect player's move (in placement without stored sectors,
    /// faster than [`SearchedTables::analyse`]: one best move, not every
    /// move's value); `None` when the game is over.
    pub fn best(
        &self,
        pos: &Position,
        options: SearchOptions,
    ) -> Result<Option<MoveValue>, AnalysisError> {
        self.best_at(pos, 0, options)
    }

    /// [`SearchedTables::best`] after `plies` quiet plies under the
    /// tables' count rule (as [`SearchedTables::analyse_at`]).
    pub fn best_at(
        &self,
        pos: &Position,
        plies: u16,
        options: SearchOptions,
    ) -> Result<Option<MoveValue>, AnalysisError> {
        let rules = self.rules();
        pos.validate::<B>(rules)?;
        if !pos.placing() || ending::<B>(pos, rules).is_some() {
            return Ok(self.analyse_at(pos, plies, options)?.best());
        }
        if let Some(a) = self.stored(pos) {
            return Ok(a.best());
        }
        let outcomes = self.outcomes()?;
        let best = Self::search(&outcomes, pos, options)?.best_move(pos)?;
        Ok(best.map(|(mv, value)| MoveValue {
            mv,
            value,
            dtc: None,
        }))
    }
}

/// The values a perfect player of a large family board (Morabaraba) reads
/// move after move where the game's placement sectors are not all stored:
/// every stored value from the files ([`TableFiles`]: moving-phase values
/// with distances, placement outcomes where their sector is stored), every
/// other placement position's outcome (no distance) by one placement search
/// kept across calls, so that its transposition table serves the whole
/// game. Thread-safe (the search is taken in turn).
pub struct SearchedValues<'o, B: Board, I: Indexing> {
    files: TableFiles<B, I>,
    search: Mutex<PlacementSearch<'o, MovingOutcomes<B, I>>>,
}

impl<'o, B: Board, I: Indexing> SearchedValues<'o, B, I> {
    /// The values of `files`, placements not stored by `search`.
    pub fn new(
        files: TableFiles<B, I>,
        search: PlacementSearch<'o, MovingOutcomes<B, I>>,
    ) -> SearchedValues<'o, B, I> {
        SearchedValues {
            files,
            search: Mutex::new(search),
        }
    }
}

impl<B: Board, I: Indexing> Values<B> for SearchedValues<'_, B, I> {
    fn value(&self, pos: &Position) -> Option<Value> {
        if let Ok(v) = self.files.value(pos) {
            return Some(v);
        }
        if !pos.placing() {
            return None;
        }
        let mut search = self.search.lock().unwrap_or_else(|e| e.into_inner());
        Some(outcome_value(search.value(pos).ok()?))
    }

    /// Placement values are outcomes only.
    fn has_distance(&self, pos: &Position) -> bool {
        !pos.placing()
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
/// [`crate::probe::analysis::best_first`]); `None` when no move has a value.
pub fn best_move<B: Board>(
    sol: &impl Values<B>,
    rules: RuleSet,
    pos: &Position,
) -> Option<(Move, Value)> {
    move_values(sol, rules, pos)
        .into_iter()
        .min_by_key(|&(m, v)| crate::probe::analysis::preference(m, v))
}

/// [`best_move`] after `plies` quiet plies under the rule set's count rule:
/// every move's value read at its count ([`analyse_at`]'s values), so that
/// the fastest win is one the count leaves time for. Without a count rule
/// (or in the placement phase, where every move restarts the count), the
/// move of [`best_move`]; `None` also when the count has drawn the game
/// or `plies` is past the limit.
pub fn best_move_at<B: Board>(
    sol: &impl Values<B>,
    rules: RuleSet,
    pos: &Position,
    plies: u16,
) -> Option<(Move, Value)> {
    let count = Count::of(rules, if pos.placing() { 0 } else { plies }).ok()?;
    if count.is_some_and(|c| c.expired()) {
        return None;
    }
    legal_moves::<B>(pos, rules)
        .into_iter()
        .filter_map(|m| move_value(sol, rules, pos, m, count).map(|(v, _)| (m, v)))
        .min_by_key(|&(m, v)| crate::probe::analysis::preference(m, v))
}
