//! Every mill game for Python through one class, `Game`: Nine Men's
//! Morris with and without flying, Six Men's Morris, Lasker Morris and
//! Morabaraba, each from its tables in a directory
//! ([`mill::games::MillGame`], the object behind the web API's
//! `/api/{game}/…`). Positions and moves are texts; answers are the dicts
//! of the API's JSON (one analysis schema for every game: `position`,
//! `value`, `dtc`, `source`, `moves`).

use super::args::int_in;
use super::{move_error, position_error, SolverError, TablebaseError};
use mill::games::{self, GameError, MillGame};
use mill::probe::analysis::SearchOptions;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::PathBuf;

/// The exception for a game's error (`moving`: a bad text is a move's).
fn game_error(e: GameError, moving: bool) -> PyErr {
    match e {
        GameError::Input(m) if moving => move_error(m),
        GameError::Input(m) => position_error(m),
        GameError::IllegalMove { .. } => move_error(e.to_string()),
        GameError::NoTables { .. } | GameError::MissingTable { .. } | GameError::Damaged(_) => {
            TablebaseError::new_err(e.to_string())
        }
        GameError::Other(m) => SolverError::new_err(m),
    }
}

/// A JSON value as the Python object `json.loads` makes of it.
fn to_python<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (value.to_string(),))
}

/// A mill game and its tables: `Game(game, directory)` with `game` one of
/// `"nine"`, `"nine-noflying"`, `"six"`, `"lasker"`, `"morabaraba"`,
/// `"three"` (no tables: solved in memory) and the directory of its tables (`solver <game> generate --dir DIR`; Six, Lasker
/// and Morabaraba serve the largest game whose tables are all there, e.g.
/// `--stones 4`). Positions are texts (`docs/notation.md`), the start
/// position when omitted; answers are the web API's JSON objects as dicts.
/// The tables are opened when first needed: a missing table is a
/// `TablebaseError` naming the command that makes it.
///
/// With `quiet_limit=PLIES` the game is played under the count rule
/// (`docs/rules.md`): its tables are those of `generate --quiet-limit
/// PLIES` (they may share the directory with the tables without the
/// rule), `probe` and `best_move` take the quiet plies already played,
/// and `probe` marks each value the rule changes (`label`: `"cursed-win"`,
/// `"blessed-loss"`, or `None`; `plain_value`) when the tables without the
/// rule are there too.
#[pyclass(name = "Game", module = "mill_solver", frozen)]
pub struct PyGame {
    /// The game without a count rule (every question without one).
    game: Box<dyn MillGame>,
    /// The game under the count rule, when asked for.
    counted: Option<Box<dyn MillGame>>,
    dir: PathBuf,
}

impl PyGame {
    fn position(&self, position: Option<&str>) -> String {
        position.map_or_else(|| self.game.start(), str::to_string)
    }

    /// The game that answers: the count rule's when there is one.
    fn answering(&self) -> &dyn MillGame {
        self.counted.as_deref().unwrap_or(self.game.as_ref())
    }

    /// `quiet_plies` checked: a whole number, 0 without a count rule.
    fn plies(&self, quiet_plies: Option<&Bound<'_, PyAny>>) -> PyResult<u16> {
        let Some(q) = quiet_plies else {
            return Ok(0);
        };
        let Some(limit) = self.counted.as_ref().and_then(|c| c.rules().quiet_limit) else {
            let plies = int_in(q, "quiet_plies", 0, 0).map_err(|_| {
                PyValueError::new_err(
                    "quiet_plies needs a game under the count rule: Game(..., quiet_limit=PLIES)",
                )
            })?;
            return Ok(plies as u16);
        };
        Ok(int_in(q, "quiet_plies", 0, i128::from(limit))? as u16)
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(
        signature = (game, directory, *, hash_mib = None, threads = None, quiet_limit = None),
        text_signature = "(game, directory, *, hash_mib=256, threads=None, quiet_limit=None)"
    )]
    fn new(
        game: &str,
        directory: PathBuf,
        hash_mib: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
        quiet_limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyGame> {
        let mut options = SearchOptions {
            hash_mib: 256,
            ..SearchOptions::default()
        };
        if let Some(h) = hash_mib {
            options.hash_mib = int_in(h, "hash_mib", 1, 1 << 16)? as u64;
        }
        if let Some(t) = threads {
            options.threads = int_in(t, "threads", 1, 256)? as usize;
        }
        let limit = quiet_limit
            .map(|l| int_in(l, "quiet_limit", 1, 10_000).map(|l| l as u16))
            .transpose()?;
        let open = |limit| {
            games::open_with(game, &directory, options, limit)
                .map_err(|e| PyValueError::new_err(e.to_string()))?
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "game must be one of {}, found {game:?}",
                        games::GAMES.join(", ")
                    ))
                })
        };
        Ok(PyGame {
            game: open(None)?,
            counted: limit.map(|l| open(Some(l))).transpose()?,
            dir: directory,
        })
    }

    /// The count rule's limit in plies (`None`: played without one).
    #[getter]
    fn quiet_limit(&self) -> Option<u16> {
        self.counted.as_ref().and_then(|c| c.rules().quiet_limit)
    }

    /// The game's name (`"six"`).
    #[getter]
    fn name(&self) -> &'static str {
        self.game.id()
    }

    /// The game's name in words (`"Six Men's Morris"`).
    #[getter]
    fn title(&self) -> &'static str {
        self.game.title()
    }

    /// The directory of its tables.
    #[getter]
    fn directory(&self) -> PathBuf {
        self.dir.clone()
    }

    /// Stones a side of the game served (the largest whose tables are all
    /// in the directory; the variant's own count without tables).
    #[getter]
    fn stones(&self) -> u8 {
        self.game.rules().stones
    }

    /// Whether a side with three stones flies.
    #[getter]
    fn flying(&self) -> bool {
        self.game.rules().flying
    }

    /// The start position's text.
    fn start(&self) -> String {
        self.game.start()
    }

    /// The point names in reading order (the order of the position text).
    fn reading(&self) -> Vec<&'static str> {
        self.game.reading()
    }

    /// The position (no tables needed): `position`, `to_move`, `hand`,
    /// `on_board`, `flying`, `moves` (every legal move), `game_over`.
    #[pyo3(signature = (position = None))]
    fn show<'py>(&self, py: Python<'py>, position: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let answer = self
            .game
            .show(&self.position(position))
            .map_err(|e| game_error(e, false))?;
        to_python(py, &answer)
    }

    /// The position after each move of `moves` (a list of move texts, or
    /// one string of them separated by spaces), played from `position`.
    #[pyo3(signature = (position, moves))]
    fn play(&self, position: Option<&str>, moves: &Bound<'_, PyAny>) -> PyResult<String> {
        let list: Vec<String> = match moves.extract::<String>() {
            Ok(text) => text.split_whitespace().map(str::to_string).collect(),
            Err(_) => moves.extract()?,
        };
        let mut pos = self.position(position);
        for m in &list {
            pos = self.game.play(&pos, m).map_err(|e| game_error(e, true))?;
        }
        Ok(pos)
    }

    /// The analysis of `position` (after `moves`, when given): `position`,
    /// `value` (`"win"`, `"draw"`, `"loss"` for the side to move), `dtc`
    /// (plies to conversion, `None` when not known), `source` (`"tables"`,
    /// `"search"`, `"game-over"`), `moves` (every legal move, best first:
    /// `move`, `value`, `dtc`). The GIL is released while it runs.
    ///
    /// Under the count rule (`Game(..., quiet_limit=L)`), `quiet_plies`
    /// is the count at `position` (plies since the last removal or
    /// placement, 0 to L; `moves` advance it) and the answer adds
    /// `quiet_limit`, `quiet_plies` (each move's too: the count after it)
    /// and the marks `label` and `plain_value` (see `Game`).
    #[pyo3(signature = (position = None, moves = None, *, quiet_plies = None))]
    fn probe<'py>(
        &self,
        py: Python<'py>,
        position: Option<&str>,
        moves: Option<&Bound<'py, PyAny>>,
        quiet_plies: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut plies = self.plies(quiet_plies)?;
        let Some(counted) = self.counted.as_deref() else {
            let pos = match moves {
                Some(m) => self.play(position, m)?,
                None => self.position(position),
            };
            let answer = py
                .allow_threads(|| self.game.analysis_text(&pos))
                .map_err(|e| game_error(e, false))?;
            return py.import("json")?.call_method1("loads", (answer,));
        };
        let mut pos = self.position(position);
        if let Some(m) = moves {
            let list: Vec<String> = match m.extract::<String>() {
                Ok(text) => text.split_whitespace().map(str::to_string).collect(),
                Err(_) => m.extract()?,
            };
            for mv in &list {
                (pos, plies) = games::count::play_counted(counted, &pos, mv, plies)
                    .map_err(|e| game_error(e, true))?;
            }
        }
        let answer = py
            .allow_threads(|| {
                games::count::analyse_marked(counted, self.game.as_ref(), &pos, plies)
            })
            .map_err(|e| game_error(e, false))?;
        to_python(py, &answer)
    }

    /// The perfect player's move (`move`, `value`, `dtc`), `None` when the
    /// game is over. Under the count rule, after `quiet_plies` quiet
    /// plies: the fastest win the count leaves time for (`None` also once
    /// the count has drawn the game).
    #[pyo3(signature = (position = None, *, quiet_plies = None))]
    fn best_move<'py>(
        &self,
        py: Python<'py>,
        position: Option<&str>,
        quiet_plies: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let plies = self.plies(quiet_plies)?;
        let pos = self.position(position);
        let game = self.answering();
        let answer = py
            .allow_threads(|| game.best_at(&pos, plies))
            .map_err(|e| game_error(e, false))?;
        to_python(py, &answer["best"])
    }

    /// The tables' counts: the object of `solver <game> stats --json`.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let answer = py
            .allow_threads(|| self.game.stats())
            .map_err(|e| game_error(e, false))?;
        to_python(py, &answer)
    }

    /// The board as SVG (as the web board draws it).
    #[pyo3(signature = (position = None))]
    fn svg(&self, position: Option<&str>) -> PyResult<String> {
        self.game
            .svg(&self.position(position))
            .map_err(|e| game_error(e, false))
    }

    fn __repr__(&self) -> String {
        let limit = self
            .quiet_limit()
            .map_or_else(String::new, |l| format!(", quiet_limit={l}"));
        format!(
            "Game('{}', '{}', stones={}{limit})",
            self.game.id(),
            self.dir.display(),
            self.game.rules().stones
        )
    }
}

/// Add `Game` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()
}
