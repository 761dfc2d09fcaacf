//! Probing Nine Men's Morris tablebases: the value and distance to
//! conversion of any legal moving-phase position (either side to move, any
//! orientation), and the value of every legal move; with placement tables
//! (see [`crate::games::nine::placement`]), the win/draw/loss of every position
//! of the game ([`Tablebases::outcome`], [`Tablebases::move_outcomes`]).
//!
//! ```no_run
//! use mill::rules::position::Position;
//! use mill::rules::variant::RuleSet;
//! use mill::probe::nine::Tablebases;
//!
//! let tb = Tablebases::open("tablebases".as_ref(), RuleSet::nine(true))?;
//! let pos: Position = "WWW...........BBB....... w 0 0".parse()?;
//! let value = tb.probe(&pos)?;
//! println!("{value}");
//! for (m, v) in tb.best_moves(&pos)? {
//!     println!("{m} {v}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::games::nine::files::{
    file_name, missing, open_checked, open_table, sector_file_name, DatabaseError,
};
use crate::index::nine::{self, Subspace};
use crate::probe::count::Count;
use crate::rules::board::Nine;
use crate::rules::geometry::Bits;
use crate::rules::position::{Color, Move, Position, PositionError};
use crate::rules::variant::RuleSet;
use crate::rules::{ending, for_each_move};
use crate::search::PlacementGame;
use crate::tables::keys::{Sector, TableId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use tablebase::format::FormatError;
use tablebase::reader::Table;
use tablebase::resident::{Resident, Wdl};
use tablebase::{Outcome, Value};

/// Errors of probing.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// The position is not legal.
    #[error("illegal position: {0}")]
    Illegal(#[from] PositionError),
    /// A tablebase file is missing, damaged or of another rule set.
    #[error(transparent)]
    Table(#[from] DatabaseError),
    /// The position is still in the placement phase (use the placement
    /// search, or [`Tablebases::outcome`] with placement tables).
    #[error(
        "the position is in the placement phase; distances are known for the moving phase only"
    )]
    Placement,
    /// The tablebase directory does not exist.
    #[error("{0}: no such tablebase directory")]
    NoDirectory(PathBuf),
}

/// How much of each table a [`Tablebases`] keeps in memory once it is
/// first used ([`Tablebases::keeping`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Residency {
    /// Memory-mapped files and their block caches only: least memory,
    /// slowest placement searches.
    Mapped,
    /// Two-bit outcomes whole (2.2 GB for all 49 subspaces), for the
    /// placement search ([`Tablebases::in_memory_wdl`]); distances from
    /// the files.
    #[default]
    Outcomes,
    /// Whole tables with distances (about 9 GB for all 49) and the
    /// placement sectors' outcomes (4.5 GB for all 455): the fastest
    /// probes ([`Tablebases::in_memory`]).
    Values,
}

/// How much of the tables is kept in memory (slot `10 * us + them`).
enum Memory {
    /// Only the memory map and the block caches.
    Mapped,
    /// Whole tables at their stored width.
    Full(Box<[OnceLock<Resident>; 100]>),
    /// Whole tables, outcomes only.
    Wdl(Box<[OnceLock<Wdl>; 100]>),
}

/// A tablebase directory opened for probing. Files are opened lazily and
/// memory-mapped; each keeps a small cache of decompressed blocks. With
/// [`Tablebases::in_memory`], each table is instead decompressed whole on
/// first use (about one byte a slot: 9 GB for all 49), or with
/// [`Tablebases::in_memory_wdl`] as two-bit outcomes (2.2 GB), for searches
/// that probe millions of scattered positions. Shareable between threads.
pub struct Tablebases {
    dir: PathBuf,
    rules: RuleSet,
    tables: RwLock<HashMap<Subspace, Arc<Table>>>,
    /// Placement sectors opened so far (`None`: no such file).
    sectors: RwLock<HashMap<Sector, Option<Arc<Table>>>>,
    /// Whole tables in memory, if asked for.
    memory: Memory,
    /// Placement sectors' outcomes in memory (with [`Memory::Wdl`]), by
    /// [`sector_cell`].
    sector_cells: OnceLock<Vec<OnceLock<Wdl>>>,
    /// Held while a table is loaded whole, so it is loaded once.
    loading: Mutex<()>,
    /// The pool that loads whole tables (see [`Tablebases::loader`]).
    loader: OnceLock<Option<rayon::ThreadPool>>,
}

impl Tablebases {
    /// Open a tablebase directory for a rule set.
    pub fn open(dir: &Path, rules: RuleSet) -> Result<Tablebases, ProbeError> {
        if !dir.is_dir() {
            return Err(ProbeError::NoDirectory(dir.to_owned()));
        }
        Ok(Tablebases {
            dir: dir.to_owned(),
            rules,
            tables: RwLock::new(HashMap::new()),
            sectors: RwLock::new(HashMap::new()),
            memory: Memory::Mapped,
            sector_cells: OnceLock::new(),
            loading: Mutex::new(()),
            loader: OnceLock::new(),
        })
    }

    /// Keep each table whole in memory once it is first probed, at its
    /// stored width (one or two bytes a slot: about 9 GB for all 49), and
    /// each placement sector's outcomes (two bits a slot: 4.5 GB for all
    /// 455).
    pub fn in_memory(mut self) -> Tablebases {
        self.memory = Memory::Full(Box::new(std::array::from_fn(|_| OnceLock::new())));
        self
    }

    /// Keep each table's outcomes (not distances) in memory once it is first
    /// probed: two bits a slot, about 2.2 GB for all 49. For win/draw/loss
    /// searches through [`Tablebases::probe_outcome`]; distances are still
    /// read from the files.
    pub fn in_memory_wdl(mut self) -> Tablebases {
        self.memory = Memory::Wdl(Box::new(std::array::from_fn(|_| OnceLock::new())));
        self
    }

    /// Keep as much of each table in memory as `residency` says.
    pub fn keeping(self, residency: Residency) -> Tablebases {
        match residency {
            Residency::Mapped => self,
            Residency::Outcomes => self.in_memory_wdl(),
            Residency::Values => self.in_memory(),
        }
    }

    /// The in-memory form of a subspace's table, loaded on first use.
    #[inline]
    fn cell<'s, T: Send>(
        &'s self,
        cells: &'s [OnceLock<T>; 100],
        sub: Subspace,
        load: impl FnOnce(&Table) -> Result<T, FormatError> + Send,
    ) -> Result<&'s T, ProbeError> {
        if !(3..=9).contains(&sub.us) || !(3..=9).contains(&sub.them) {
            // No such table: the error the mapped path gives.
            return Err(missing(&self.dir, self.rules, TableId::Moving(sub)).into());
        }
        let cell = &cells[10 * sub.us as usize + sub.them as usize];
        self.fill(cell, || self.table(sub), load)
    }

    /// The content of `cell`, loaded from `table()` on first use.
    fn fill<'s, T: Send>(
        &'s self,
        cell: &'s OnceLock<T>,
        table: impl FnOnce() -> Result<Arc<Table>, ProbeError>,
        load: impl FnOnce(&Table) -> Result<T, FormatError> + Send,
    ) -> Result<&'s T, ProbeError> {
        if let Some(r) = cell.get() {
            return Ok(r);
        }
        let _guard = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = cell.get() {
            return Ok(r);
        }
        let table = table()?;
        // A load is itself parallel. It runs on a pool of its own, entered
        // from a plain thread that blocks until it is done: threads of any
        // other pool (a search's, or the global one where callers may be
        // searching) would, while waiting for it, either steal tasks that
        // want this lock again or sit blocked on the lock with the load's
        // tasks queued behind them.
        let loaded = std::thread::scope(|s| {
            s.spawn(|| match self.loader() {
                Some(pool) => pool.install(|| load(&table)),
                None => load(&table),
            })
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
        })
        .map_err(DatabaseError::from)?;
        Ok(cell.get_or_init(|| loaded))
    }

    /// The pool that loads whole tables (one thread a core), made on first
    /// use; `None` if no pool can be made (the load then runs on the
    /// loading thread, through the global pool).
    fn loader(&self) -> Option<&rayon::ThreadPool> {
        self.loader
            .get_or_init(|| rayon::ThreadPoolBuilder::new().build().ok())
            .as_ref()
    }

    /// The subspaces a game can reach from `pos`: each side has at most
    /// the stones it has now (board and hand), and at least 3.
    pub fn reachable(pos: &Position) -> Vec<Subspace> {
        let (w, b) = (
            pos.material(Color::White).min(9) as u8,
            pos.material(Color::Black).min(9) as u8,
        );
        let mut subs = Vec::new();
        for us in 3..=9u8 {
            for them in 3..=9u8 {
                if (us <= w && them <= b) || (us <= b && them <= w) {
                    subs.push(Subspace::new(us, them));
                }
            }
        }
        subs
    }

    /// Open the tables of `subs` (header and block table): the first
    /// missing, damaged or mismatched file is the error.
    pub fn check_complete(&self, subs: &[Subspace]) -> Result<(), ProbeError> {
        for &sub in subs {
            self.table(sub)?;
        }
        Ok(())
    }

    /// Load the tables of `subs` into memory now (with
    /// [`Tablebases::in_memory`] or [`Tablebases::in_memory_wdl`]; nothing
    /// to do otherwise), so that a search is timed without its loading.
    pub fn preload(&self, subs: &[Subspace]) -> Result<(), ProbeError> {
        for &sub in subs {
            match &self.memory {
                Memory::Mapped => return Ok(()),
                Memory::Full(cells) => drop(self.cell(cells, sub, Resident::load)?),
                Memory::Wdl(cells) => drop(self.cell(cells, sub, Wdl::load)?),
            }
        }
        Ok(())
    }

    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The table of a subspace, opened on first use.
    pub fn table(&self, sub: Subspace) -> Result<Arc<Table>, ProbeError> {
        if let Some(t) = self
            .tables
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&sub)
        {
            return Ok(t.clone());
        }
        let path = file_name(&self.dir, self.rules, sub);
        if !path.exists() {
            return Err(missing(&self.dir, self.rules, TableId::Moving(sub)).into());
        }
        let table = Arc::new(open_checked(&path, self.rules, sub)?);
        let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
        Ok(tables.entry(sub).or_insert(table).clone())
    }

    /// Value of a moving-phase position given mover-relative bitboards
    /// (each side 3..=9 stones).
    #[inline]
    pub fn probe_bits(&self, us: u32, them: u32) -> Result<Value, ProbeError> {
        if let Memory::Full(cells) = &self.memory {
            let r = self.cell(cells, Subspace::of(us, them), Resident::load)?;
            // Slots come from the index, so they are in range.
            return Ok(r.get(nine::index(us, them)).unwrap_or(Value::DRAW));
        }
        let table = self.table(Subspace::of(us, them))?;
        Ok(table
            .get(nine::index(us, them))
            .map_err(DatabaseError::from)?)
    }

    /// Outcome of a moving-phase position given mover-relative bitboards
    /// (each side 3..=9 stones); from the two-bit tables of
    /// [`Tablebases::in_memory_wdl`] when those are kept. Under a count
    /// rule, at a count of zero (as a placement or a removal leaves it):
    /// what the placement search and the placement phase's moves read.
    #[inline]
    pub fn probe_outcome(&self, us: u32, them: u32) -> Result<Outcome, ProbeError> {
        let limit = self.rules.quiet_limit;
        if let Memory::Wdl(cells) = &self.memory {
            let load = |t: &Table| Wdl::load_within(t, limit);
            let r = self.cell(cells, Subspace::of(us, them), load)?;
            return Ok(r.get(nine::index(us, them)).unwrap_or(Outcome::Draw));
        }
        let v = self.probe_bits(us, them)?;
        Ok(limit.map_or(v, |l| v.within(l)).outcome())
    }

    /// The table of a placement sector, opened on first use; `None` when
    /// the directory has no such file.
    pub fn sector_table(&self, sector: Sector) -> Result<Option<Arc<Table>>, ProbeError> {
        if let Some(t) = self
            .sectors
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&sector)
        {
            return Ok(t.clone());
        }
        let path = sector_file_name(&self.dir, self.rules, sector);
        let table = if path.exists() {
            Some(Arc::new(open_table(
                &path,
                self.rules,
                TableId::Placement(sector),
            )?))
        } else {
            None
        };
        let mut sectors = self.sectors.write().unwrap_or_else(|e| e.into_inner());
        Ok(sectors.entry(sector).or_insert(table).clone())
    }

    /// Are there tables for this position: the moving-phase subspace, or
    /// the placement sector? (`false` for an illegal position.)
    pub fn has_table(&self, pos: &Position) -> bool {
        if pos.validate::<Nine>(self.rules).is_err() {
            return false;
        }
        match Sector::of(pos) {
            Some(sector) => matches!(self.sector_table(sector), Ok(Some(_))),
            None => self.table(Subspace::of(pos.us(), pos.them())).is_ok(),
        }
    }

    /// Win, draw or loss of a legal position of any phase for the side to
    /// move, from the tables (moving phase, or placement sectors). A
    /// finished game is a loss; a missing table is an error.
    pub fn outcome(&self, pos: &Position) -> Result<Outcome, ProbeError> {
        pos.validate::<Nine>(self.rules)?;
        self.outcome_of_legal(pos)
    }

    fn outcome_of_legal(&self, pos: &Position) -> Result<Outcome, ProbeError> {
        if ending::<Nine>(pos, self.rules).is_some() {
            return Ok(Outcome::Loss);
        }
        let Some(sector) = Sector::of(pos) else {
            return self.probe_outcome(pos.us(), pos.them());
        };
        let slot = nine::index(pos.us(), pos.them());
        if let Memory::Wdl(_) | Memory::Full(_) = &self.memory {
            let cells = self
                .sector_cells
                .get_or_init(|| (0..SECTOR_CELLS).map(|_| OnceLock::new()).collect());
            let wdl = self.fill(
                &cells[sector_cell(sector)],
                || self.existing_sector(sector),
                Wdl::load,
            )?;
            return Ok(wdl.get(slot).unwrap_or(Outcome::Draw));
        }
        let table = self.existing_sector(sector)?;
        Ok(table.get(slot).map_err(DatabaseError::from)?.outcome())
    }

    /// The table of a sector, or the error that names its missing file.
    fn existing_sector(&self, sector: Sector) -> Result<Arc<Table>, ProbeError> {
        self.sector_table(sector)?
            .ok_or_else(|| missing(&self.dir, self.rules, TableId::Placement(sector)).into())
    }

    /// Every legal move of a legal position of any phase with its outcome
    /// for the side to move, best first (wins, draws, losses; generation
    /// order within each), from the tables.
    pub fn move_outcomes(&self, pos: &Position) -> Result<Vec<(Move, Outcome)>, ProbeError> {
        pos.validate::<Nine>(self.rules)?;
        let mut moves = Vec::new();
        for_each_move::<Nine>(pos, self.rules, |m| moves.push(m));
        let mut out = moves
            .into_iter()
            .map(|m| Ok((m, self.outcome_of_legal(&pos.apply(m))?.flip())))
            .collect::<Result<Vec<_>, ProbeError>>()?;
        out.sort_by_key(|&(_, o)| std::cmp::Reverse(o));
        Ok(out)
    }

    /// Value of a legal moving-phase position for the side to move, with the
    /// distance to conversion in plies. A finished game is a loss in 0.
    pub fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        pos.validate::<Nine>(self.rules)?;
        if ending::<Nine>(pos, self.rules).is_some() {
            return Ok(Value::loss(0));
        }
        if pos.placing() {
            return Err(ProbeError::Placement);
        }
        self.probe_bits(pos.us(), pos.them())
    }

    /// Whether probing `pos` and every move of it reads memory only: the
    /// tables are kept whole ([`Tablebases::in_memory`]) and every table
    /// the probe reads is loaded (for a moving-phase position its own and
    /// its moves' subspaces, for a placement position its moves' sectors
    /// or subspaces). Then [`Tablebases::probe`], [`Tablebases::move_values`]
    /// and [`Tablebases::move_outcomes`] do no file access, no
    /// decompression and no load (a server may answer it on an async
    /// worker). `false` in the other memory modes, where a probe may read
    /// and decompress a block, and for an illegal position.
    pub fn resident(&self, pos: &Position) -> bool {
        let Memory::Full(cells) = &self.memory else {
            return false;
        };
        if pos.validate::<Nine>(self.rules).is_err() {
            return false;
        }
        let subspace = |p: &Position| {
            let (us, them) = (p.us().count_ones(), p.them().count_ones());
            (3..=9).contains(&us)
                && (3..=9).contains(&them)
                && cells[10 * us as usize + them as usize].get().is_some()
        };
        let sector = |s: Sector| {
            self.sector_cells
                .get()
                .is_some_and(|c| c[sector_cell(s)].get().is_some())
        };
        // What `probe` reads; for a placement position, the sector file
        // whose presence `has_table` asks (opened already: no file access).
        if !pos.placing() && ending::<Nine>(pos, self.rules).is_none() && !subspace(pos) {
            return false;
        }
        if let Some(own) = Sector::of(pos) {
            let sectors = self.sectors.read().unwrap_or_else(|e| e.into_inner());
            if !matches!(sectors.get(&own), Some(Some(_))) {
                return false;
            }
        }
        let mut all = true;
        for_each_move::<Nine>(pos, self.rules, |m| {
            let child = pos.apply(m);
            all &= ending::<Nine>(&child, self.rules).is_some()
                || match Sector::of(&child) {
                    Some(s) => sector(s),
                    None => subspace(&child),
                };
        });
        all
    }

    /// Value of every legal move of a moving-phase position, for the side
    /// to move, in generation order: a removal converts (distance 1); any
    /// other move adds one ply to the value of the position it leads to.
    pub fn move_values(&self, pos: &Position) -> Result<Vec<(Move, Value)>, ProbeError> {
        self.move_values_at(pos, None)
    }

    /// [`Tablebases::move_values`] of a position standing at `count` in
    /// the count rule: each move's successor read at its own count
    /// ([`Count::after`], [`Count::read`]).
    pub fn move_values_at(
        &self,
        pos: &Position,
        count: Option<Count>,
    ) -> Result<Vec<(Move, Value)>, ProbeError> {
        pos.validate::<Nine>(self.rules)?;
        if pos.placing() {
            return Err(ProbeError::Placement);
        }
        let mut moves = Vec::new();
        for_each_move::<Nine>(pos, self.rules, |m| moves.push(m));
        moves
            .into_iter()
            .map(|m| {
                let child = pos.apply(m);
                let v = if ending::<Nine>(&child, self.rules).is_some() {
                    Value::loss(0)
                } else {
                    let v = self.probe_bits(child.us(), child.them())?;
                    count.map_or(v, |c| c.after(m).read(v))
                };
                Ok((m, Value::after_move(v, m.removal().is_some())))
            })
            .collect()
    }

    /// Every legal move with its value, best first: the perfect move of a
    /// DTC-optimal player leads (win: fastest conversion; draw: keep the
    /// draw; loss: slowest).
    pub fn best_moves(&self, pos: &Position) -> Result<Vec<(Move, Value)>, ProbeError> {
        let mut moves = self.move_values(pos)?;
        moves.sort_by_key(|&(m, v)| crate::probe::analysis::preference(m, v));
        Ok(moves)
    }
}

/// Number of [`sector_cell`]s.
const SECTOR_CELLS: usize = 2000;

/// The in-memory cell of a placement sector: board counts and hands below
/// 10, hands equal or one apart.
fn sector_cell(s: Sector) -> usize {
    ((s.us as usize * 10 + s.them as usize) * 10 + s.us_hand as usize) * 2
        + (s.us_hand - s.them_hand) as usize
}

/// The placement search over Nine Men's Morris's tables: the moving-phase
/// outcome of every position where placement ends.
impl PlacementGame for Tablebases {
    type Board = crate::rules::board::Nine;
    type Error = ProbeError;

    fn validate(&self, pos: &Position) -> Result<(), ProbeError> {
        Ok(pos.validate::<Nine>(self.rules)?)
    }

    #[inline]
    fn for_each_move(&self, pos: &Position, f: impl FnMut(Move)) {
        for_each_move::<Nine>(pos, self.rules(), f);
    }

    #[inline]
    fn ended(&self, pos: &Position) -> Option<i8> {
        ending::<Nine>(pos, self.rules()).map(|_| -1)
    }

    #[inline]
    fn leaf(&self, us: Bits, them: Bits) -> Result<Outcome, ProbeError> {
        self.probe_outcome(us, them)
    }
}
