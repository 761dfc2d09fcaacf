//! The full answer about one Nine Men's Morris position — its value, its
//! distance to conversion and every legal move with its value — from
//! whatever knows it: the tablebases in the moving phase, the placement
//! tables before it when the directory has them, else the placement search
//! over the moving-phase tables. One implementation behind `solver nine probe`,
//! `play`, the web API and the Python module, so all of them answer alike.

use super::movegen::game_over;
use super::placement::PlacementSearch;
use super::position::{Move, Position};
use super::probe::{ProbeError, Tablebases};
use serde_json::{json, Value as Json};
use tablebase::{Outcome, Value};

/// Errors of analysing a position.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// Probing failed: an illegal position, a missing or damaged table.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The search's thread pool could not be built.
    #[error("cannot start the search threads: {0}")]
    Threads(String),
}

/// How the placement search behind an [`Analyst`] is sized.
#[derive(Clone, Copy, Debug)]
pub struct SearchOptions {
    /// The transposition table holds at most this many MiB (smaller for
    /// late placement positions, see [`table_mib`]).
    pub hash_mib: u64,
    /// Search threads.
    pub threads: usize,
}

impl Default for SearchOptions {
    /// 1 GiB and all cores.
    fn default() -> SearchOptions {
        SearchOptions {
            hash_mib: 1024,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// One legal move and the value of the position it leads to, from the
/// mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move (with its removal, if it closes a mill).
    pub mv: Move,
    /// Win, draw or loss for the side that plays it.
    pub value: Outcome,
    /// Plies to conversion when known (moving phase), `None` otherwise.
    pub dtc: Option<u16>,
}

/// Where an [`Analysis`] came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The game is over: the side to move has lost.
    GameOver,
    /// The tablebases (moving phase or placement sectors).
    Tables,
    /// The placement search over the tablebases.
    Search,
}

impl Source {
    /// The name used in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::GameOver => "game-over",
            Source::Tables => "tables",
            Source::Search => "search",
        }
    }
}

/// The answer about one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The position analysed.
    pub position: Position,
    /// Its value for the side to move.
    pub value: Outcome,
    /// Plies to conversion when known.
    pub dtc: Option<u16>,
    /// Every legal move, best first.
    pub moves: Vec<MoveValue>,
    /// Where the answer came from.
    pub source: Source,
}

impl Analysis {
    /// The best move, if the side to move has one.
    pub fn best(&self) -> Option<MoveValue> {
        self.moves.first().copied()
    }

    /// The JSON object of `solver nine probe --json` and the web API:
    /// `position`, `value`, `dtc`, `source`, `moves` (`move`, `value`, `dtc`).
    /// The same object as serialising the analysis (its `Serialize`), which
    /// the web server does straight into the response.
    pub fn to_json(&self) -> Json {
        serde_json::to_value(self).unwrap_or_else(|e| json!({ "error": e.to_string() }))
    }
}

/// Keys in sorted order, as a `serde_json` object prints them.
impl serde::Serialize for Analysis {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(5))?;
        map.serialize_entry("dtc", &self.dtc)?;
        map.serialize_entry("moves", &self.moves)?;
        map.serialize_entry("position", &self.position.to_string())?;
        map.serialize_entry("source", self.source.as_str())?;
        map.serialize_entry("value", self.value.as_str())?;
        map.end()
    }
}

/// `{"dtc", "move", "value"}`, keys in sorted order.
impl serde::Serialize for MoveValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("dtc", &self.dtc)?;
        map.serialize_entry("move", &self.mv.to_string())?;
        map.serialize_entry("value", self.value.as_str())?;
        map.end()
    }
}

/// Transposition table size for searching `pos`: `2^plies` MiB for the
/// plies of placement left, at most `max` (a small game needs a small
/// table, and little time to allocate it).
pub fn table_mib(pos: &Position, max: u64) -> u64 {
    let plies = u32::from(pos.hand[0] + pos.hand[1]);
    max.min(1 << plies.min(40))
}

fn split(v: Value) -> (Outcome, Option<u16>) {
    (v.outcome(), v.distance())
}

/// Answers positions: tablebase probes in the moving phase, the placement
/// search (created at the first placement position, its transposition
/// table kept between positions) before. Not shareable between threads
/// (the search is parallel inside); make one per thread or lock it.
pub struct Analyst<'a> {
    tb: &'a Tablebases,
    options: SearchOptions,
    search: Option<PlacementSearch<'a, Tablebases>>,
}

impl<'a> Analyst<'a> {
    /// An analyst over `tb`.
    pub fn new(tb: &'a Tablebases, options: SearchOptions) -> Analyst<'a> {
        Analyst {
            tb,
            options,
            search: None,
        }
    }

    /// The tablebases.
    pub fn tablebases(&self) -> &'a Tablebases {
        self.tb
    }

    /// The placement search, sized for `pos` when first needed (a late
    /// placement position does not need the full table).
    fn placement(
        &mut self,
        pos: &Position,
    ) -> Result<&mut PlacementSearch<'a, Tablebases>, AnalysisError> {
        if self.search.is_none() {
            let mib = table_mib(pos, self.options.hash_mib);
            let search = PlacementSearch::with_table_mib(self.tb, mib)
                .with_threads(self.options.threads.max(1))
                .map_err(AnalysisError::Threads)?;
            self.search = Some(search);
        }
        Ok(self.search.as_mut().expect("just created"))
    }

    /// Value, distance and every move's value of `pos`.
    pub fn analyse(&mut self, pos: &Position) -> Result<Analysis, AnalysisError> {
        let tb = self.tb;
        pos.validate().map_err(ProbeError::from)?;
        if game_over(pos, tb.rules()).is_some() {
            return Ok(Analysis {
                position: *pos,
                value: Outcome::Loss,
                dtc: Some(0),
                moves: Vec::new(),
                source: Source::GameOver,
            });
        }
        if pos.placing() {
            // Outcomes only, best first: from the placement tables when the
            // directory has them, else by the search.
            let (moves, source) = if tb.has_table(pos) {
                (tb.move_outcomes(pos)?, Source::Tables)
            } else {
                (self.placement(pos)?.move_values(pos)?, Source::Search)
            };
            return Ok(Analysis {
                position: *pos,
                value: moves.first().map_or(Outcome::Loss, |m| m.1),
                dtc: None,
                moves: moves
                    .into_iter()
                    .map(|(mv, value)| MoveValue {
                        mv,
                        value,
                        dtc: None,
                    })
                    .collect(),
                source,
            });
        }
        let (value, dtc) = split(tb.probe(pos)?);
        let moves = tb
            .best_moves(pos)?
            .into_iter()
            .map(|(mv, v)| {
                let (value, dtc) = split(v);
                MoveValue { mv, value, dtc }
            })
            .collect();
        Ok(Analysis {
            position: *pos,
            value,
            dtc,
            moves,
            source: Source::Tables,
        })
    }

    /// The perfect player's move: the first of [`Analyst::analyse`]'s moves,
    /// found faster in the placement phase (one best move, not every
    /// move's value). `None` when the game is over.
    pub fn best(&mut self, pos: &Position) -> Result<Option<MoveValue>, AnalysisError> {
        if pos.placing() && !self.tb.has_table(pos) {
            pos.validate().map_err(ProbeError::from)?;
            if game_over(pos, self.tb.rules()).is_some() {
                return Ok(None);
            }
            let best = self.placement(pos)?.best_move(pos)?;
            return Ok(best.map(|(mv, value)| MoveValue {
                mv,
                value,
                dtc: None,
            }));
        }
        Ok(self.analyse(pos)?.best())
    }
}
