//! Every mill game as one object, [`MillGame`]: the
//! rules of a board, its tables found in a directory, and the JSON answers
//! every front end prints — `show`, the [`Analysis`] (`probe`), the
//! perfect move (`best`), `stats` and the SVG board — with what a server
//! needs to schedule a question ([`MillGame::searches`],
//! [`MillGame::resident`]). The web server routes `/api/{game}/…` to one
//! and the Python module's `Game` wraps one, so a board written as data
//! (points, edges, mills, stones: [`crate::data_board!`]) gets both by
//! [`SolvedGame::open`]. Nine Men's Morris is [`NineGame`]
//! ([`nine::game`]), Three Men's Morris (solved in memory, no files)
//! [`ThreeGame`] ([`three::game`]).
//!
//! A game looks at its directory when it is made (the server's start, the
//! Python object's creation): the largest game (stones a side) whose table
//! files are all there is served, its tables loaded when first needed;
//! without tables, `show` and `svg` still answer (under the variant's own
//! stone count) and the other questions are a [`GameError::NoTables`]
//! naming the command that makes them.

pub mod count;
pub mod lasker;
pub mod morabaraba;
pub mod nine;
pub mod report;
pub mod three;

pub use nine::game::NineGame;
pub use three::game::ThreeGame;

use crate::duel::games::Family;
use crate::duel::{seeded, Policy};
use crate::games::lasker::files::LaskerFiles;
use crate::games::nine::files::DatabaseError;
use crate::index::Dense;
use crate::probe::analysis::{Analysis, AnalysisError, MoveValue, SearchOptions};
use crate::probe::nine::{ProbeError, Residency};
use crate::probe::values::{analyse_at, SearchedTables, Values};
use crate::rules::board::{Board, Morabaraba, Nine, Six};
use crate::rules::notation::parse_move;
use crate::rules::position::Position;
use crate::rules::variant::RuleSet;
use crate::rules::{format_position, move_text, parse_position};
use crate::tables::files::{self, FilesError};
use crate::tables::keys::TableId;
use crate::tables::keys::{Sector, Subspace};
use crate::tables::outcomes::OutcomesError;
use crate::tables::solve::Solution;
use crate::tables::Size;
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tablebase::format::FormatError;
use tablebase::set::SetError;

/// Why a game cannot answer. Messages name table files by their names,
/// never by the directory they are in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A position or move text that cannot be parsed, an illegal position
    /// or move: the question is wrong.
    #[error("{0}")]
    Input(String),
    /// The directory holds no complete set of the game's tables.
    #[error(
        "there are no {title} tables in the tablebase directory (generate them with `{command}`)"
    )]
    NoTables {
        /// The game's name in words.
        title: String,
        /// The command that makes them.
        command: String,
    },
    /// The position needs a table the directory lacks.
    #[error(
        "this position needs {table}, which is not in the tablebase directory (generate it with `{command}`)"
    )]
    MissingTable {
        /// The table (a file name, or the tables of a larger game).
        table: String,
        /// The command that makes it.
        command: String,
    },
    /// A move text that is not a legal move of the position.
    #[error("move `{text}`: {reason}")]
    IllegalMove {
        /// The move as given.
        text: String,
        /// Why it is not legal (or not a move).
        reason: String,
    },
    /// A table failed its checks or could not be read.
    #[error("{0}")]
    Damaged(String),
    /// Anything else (the search threads could not start).
    #[error("{0}")]
    Other(String),
}

/// A file's name without its directory.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || "a tablebase file".to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// A table error in one line, files named by their names only.
fn set_error(e: &SetError, command: &str) -> GameError {
    let format = |f: &FormatError| match f {
        FormatError::Io { path, source } => format!("{}: {source}", file_name(path)),
        FormatError::Damaged { path, what } => {
            format!("{}: damaged tablebase file: {what}", file_name(path))
        }
    };
    GameError::Damaged(match e {
        SetError::Missing { path, .. } => {
            return GameError::MissingTable {
                table: format!("the table {}", file_name(path)),
                command: command.to_string(),
            }
        }
        SetError::Format(f) => format(f),
        SetError::UnknownFile(path) => format!(
            "{}: unknown file in the tablebase directory",
            file_name(path)
        ),
        SetError::Mismatch {
            path,
            expected,
            found,
            ..
        } => format!(
            "{}: holds `{found}` but its name says `{expected}`",
            file_name(path)
        ),
        SetError::WrongEntries { path, found } => format!(
            "{}: holds {found:?} entries, the wrong kind for its table",
            file_name(path)
        ),
        SetError::Dir { source, .. } => format!("the tablebase directory: {source}"),
    })
}

fn files_error(e: &FilesError, command: &str) -> GameError {
    match e {
        FilesError::Set(s) => set_error(s, command),
        FilesError::Format(f) => set_error(&SetError::Format(clone_format(f)), command),
    }
}

/// A format error rebuilt (it holds an `io::Error`, which is not `Clone`).
fn clone_format(f: &FormatError) -> FormatError {
    match f {
        FormatError::Io { path, source } => FormatError::Io {
            path: path.clone(),
            source: std::io::Error::new(source.kind(), source.to_string()),
        },
        FormatError::Damaged { path, what } => FormatError::Damaged {
            path: path.clone(),
            what: what.clone(),
        },
    }
}

/// An analysis error as the game's error (`command` makes missing tables).
pub fn analysis_error(e: &AnalysisError, command: &str) -> GameError {
    match e {
        AnalysisError::Illegal(p) => GameError::Input(format!("illegal position: {p}")),
        AnalysisError::Outcomes(o) => match o {
            OutcomesError::Illegal(p) => GameError::Input(format!("illegal position: {p}")),
            OutcomesError::Files(f) => files_error(f, command),
            OutcomesError::Format(f) => files_error(&FilesError::Format(clone_format(f)), command),
            OutcomesError::NotLoaded(sub, _) => GameError::MissingTable {
                table: format!("the table of subspace {sub}"),
                command: command.to_string(),
            },
        },
        AnalysisError::NoValue(p) => GameError::MissingTable {
            table: format!("the table of {p}"),
            command: command.to_string(),
        },
        AnalysisError::Probe(p) => probe_error(p, command),
        AnalysisError::Threads(t) => GameError::Other(format!("cannot start the search: {t}")),
        AnalysisError::Count(c) => GameError::Input(c.to_string()),
    }
}

/// A Nine Men's Morris probing error as the game's error.
pub(crate) fn probe_error(e: &ProbeError, command: &str) -> GameError {
    match e {
        ProbeError::Table(DatabaseError::Set(s)) => set_error(s, command),
        ProbeError::Table(DatabaseError::Format(f)) => {
            set_error(&SetError::Format(clone_format(f)), command)
        }
        ProbeError::Table(other) => GameError::Damaged(other.to_string()),
        ProbeError::NoDirectory(_) => GameError::NoTables {
            title: "Nine Men's Morris".into(),
            command: command.to_string(),
        },
        other => GameError::Input(other.to_string()),
    }
}

/// `{"position", "best"}`: the perfect player's move (`move`, `value`,
/// `dtc`) in board `B`'s coordinates, or null when the game is over.
pub fn best_json<B: Board>(pos: &Position, best: Option<MoveValue>) -> Json {
    json!({
        "position": format_position::<B>(pos),
        "best": best.map(|m| m.to_json::<B>()),
    })
}

/// An analysis as JSON text.
pub(crate) fn serialised<B: Board>(a: &Analysis<B>) -> Result<String, GameError> {
    serde_json::to_string(a).map_err(|e| GameError::Other(e.to_string()))
}

/// One mill game with its tables, answering in JSON. Object-safe, so that
/// the server and the Python module hold any board as a `dyn MillGame`.
pub trait MillGame: Send + Sync {
    /// The name in API paths and on the command line (`six`).
    fn id(&self) -> &'static str;
    /// The name in words (`Six Men's Morris`).
    fn title(&self) -> &'static str;
    /// The rule set of the game served (its stones a side are those of
    /// the largest game whose tables are present).
    fn rules(&self) -> RuleSet;
    /// The start position's text.
    fn start(&self) -> String;
    /// The point names in reading order (the order of the position text).
    fn reading(&self) -> Vec<&'static str>;
    /// The legal moves and the state of a position (no tables needed).
    fn show(&self, position: &str) -> Result<Json, GameError>;
    /// The [`Analysis`] of a position as JSON text (`position`, `value`,
    /// `dtc`, `source`, `moves`), serialised straight from the analysis
    /// (no JSON tree built: what a server sends). Under the count rule
    /// ([`RuleSet::quiet_limit`]), with no quiet ply played.
    fn analysis_text(&self, position: &str) -> Result<String, GameError> {
        self.analysis_text_at(position, 0)
    }
    /// [`MillGame::analysis_text`] after `plies` quiet plies (without a
    /// removal or a placement) under the count rule of the tables served
    /// (`docs/rules.md`, "The count rule"): every value read at its count,
    /// the answer with `quiet_limit`, `quiet_plies` and each move's
    /// `quiet_plies` after it. Without a count rule only 0 plies is
    /// accepted; plies past the limit are an input error.
    fn analysis_text_at(&self, position: &str, plies: u16) -> Result<String, GameError>;
    /// The [`Analysis`] of a position as a JSON object
    /// ([`MillGame::analysis_text`] read back).
    fn analyse(&self, position: &str) -> Result<Json, GameError> {
        self.analyse_at(position, 0)
    }
    /// [`MillGame::analysis_text_at`] read back.
    fn analyse_at(&self, position: &str, plies: u16) -> Result<Json, GameError> {
        let text = self.analysis_text_at(position, plies)?;
        serde_json::from_str(&text).map_err(|e| GameError::Other(e.to_string()))
    }
    /// The perfect player's move: `{"position", "best"}`.
    fn best(&self, position: &str) -> Result<Json, GameError> {
        self.best_at(position, 0)
    }
    /// [`MillGame::best`] after `plies` quiet plies under the count rule
    /// (as [`MillGame::analysis_text_at`]): the fastest win the count
    /// leaves time for; `best` is null once the count has drawn the game.
    fn best_at(&self, position: &str, plies: u16) -> Result<Json, GameError>;
    /// The move `policy` picks among the best moves (`seed` makes a random
    /// choice reproducible; [`crate::duel::policy`]): `{"position", "best",
    /// "policy"}`. By default only `fast` ([`MillGame::best`]) is served,
    /// another policy is an input error; games whose tables hold every
    /// value serve them all.
    fn best_by(&self, position: &str, policy: &Policy, seed: u64) -> Result<Json, GameError> {
        self.best_by_at(position, policy, seed, 0)
    }
    /// [`MillGame::best_by`] after `plies` quiet plies under the count
    /// rule (as [`MillGame::best_at`]).
    fn best_by_at(
        &self,
        position: &str,
        policy: &Policy,
        _seed: u64,
        plies: u16,
    ) -> Result<Json, GameError> {
        if *policy != Policy::Fast {
            return Err(GameError::Input(format!(
                "the {policy} style is not available for {} (only fast)",
                self.title()
            )));
        }
        let mut answer = self.best_at(position, plies)?;
        answer["policy"] = "fast".into();
        Ok(answer)
    }
    /// The tables' counts (the object of `solver <game> stats --json`).
    fn stats(&self) -> Result<Json, GameError>;
    /// The board as SVG (no tables needed).
    fn svg(&self, position: &str) -> Result<String, GameError>;
    /// A legal move of a position: the move as the library writes it and
    /// the position after it (texts in, texts out).
    fn play_move(&self, position: &str, mv: &str) -> Result<(String, String), GameError>;
    /// The position after a legal move (texts in, text out).
    fn play(&self, position: &str, mv: &str) -> Result<String, GameError> {
        Ok(self.play_move(position, mv)?.1)
    }
    /// Does answering `position` ([`MillGame::analyse`], [`MillGame::best`])
    /// run a placement search? Such questions take turns (a server queues
    /// them); table questions run side by side. May open a table file;
    /// `false` for a text that is not a legal position.
    fn searches(&self, _position: &str) -> bool {
        false
    }
    /// Is `position` answered from memory alone (its tables and its moves'
    /// loaded whole): no file access, no decompression, no search, so a
    /// server may answer it in place. `false` when unsure.
    fn resident(&self, _position: &str) -> bool {
        false
    }
}

/// The rules layer every board shares: parse, show, svg, play, under
/// `rules` (the game served) or, failing that, `largest` (the variant's
/// own game: a legal position of it needs tables the directory lacks).
struct RulesLayer<B> {
    rules: RuleSet,
    largest: RuleSet,
    command: String,
    _board: std::marker::PhantomData<fn() -> B>,
}

impl<B: Board> RulesLayer<B> {
    fn parse(&self, text: &str) -> Result<Position, GameError> {
        match parse_position::<B>(text, self.rules) {
            Ok(p) => Ok(p),
            Err(e) => {
                if self.largest.stones > self.rules.stones
                    && parse_position::<B>(text, self.largest).is_ok()
                {
                    return Err(GameError::MissingTable {
                        table: format!(
                            "the tables of a game with more than {} stones a side",
                            self.rules.stones
                        ),
                        command: self.command.clone(),
                    });
                }
                Err(GameError::Input(format!("bad position: {e}")))
            }
        }
    }

    fn show(&self, text: &str) -> Result<Json, GameError> {
        let pos = self.parse_shown(text)?;
        Ok(report::show_json::<B>(&pos, self.rules_of(&pos)))
    }

    /// Parse for the rules layer alone: positions of the variant's own
    /// game are shown even when their tables are missing.
    fn parse_shown(&self, text: &str) -> Result<Position, GameError> {
        parse_position::<B>(text, self.rules)
            .or_else(|_| parse_position::<B>(text, self.largest))
            .map_err(|e| GameError::Input(format!("bad position: {e}")))
    }

    fn rules_of(&self, pos: &Position) -> RuleSet {
        if pos.validate::<B>(self.rules).is_ok() {
            self.rules
        } else {
            self.largest
        }
    }

    fn svg(&self, text: &str) -> Result<String, GameError> {
        let pos = self.parse_shown(text)?;
        Ok(crate::rules::svg::board_svg(
            B::geometry(),
            pos.stones,
            &format_position::<B>(&pos),
        ))
    }

    fn play_move(&self, text: &str, mv: &str) -> Result<(String, String), GameError> {
        let pos = self.parse_shown(text)?;
        let m =
            parse_move::<B>(&pos, self.rules_of(&pos), mv).map_err(|e| GameError::IllegalMove {
                text: mv.trim().to_string(),
                reason: e.to_string(),
            })?;
        Ok((move_text::<B>(m), format_position::<B>(&pos.apply(m))))
    }

    fn reading(&self) -> Vec<&'static str> {
        let g = B::geometry();
        g.reading_order
            .iter()
            .map(|&p| g.names[p as usize])
            .collect()
    }
}

/// The largest of `candidates` (stone counts, largest first) whose tables
/// are all present, as its rule set.
fn detect(candidates: impl Iterator<Item = u8>, present: impl Fn(u8) -> bool) -> Option<u8> {
    candidates.into_iter().find(|&k| present(k))
}

/// A game whose tables are loaded whole into memory on first use (Six Men's
/// Morris and any small board defined as data: [`Solution`]), or opened
/// mapped (Lasker Morris's sectors: [`LaskerFiles`]).
pub struct SolvedGame<B: Board, S> {
    id: &'static str,
    title: &'static str,
    dir: PathBuf,
    found: bool,
    rules: RulesLayer<B>,
    load: fn(&Path, RuleSet) -> Result<S, FilesError>,
    stats: fn(&Path, RuleSet) -> Result<Json, FilesError>,
    solution: OnceLock<Result<S, GameError>>,
}

impl<B: Board, S: Values<B> + Send + Sync> SolvedGame<B, S> {
    fn no_tables(&self) -> GameError {
        GameError::NoTables {
            title: self.title.to_string(),
            command: self.rules.command.clone(),
        }
    }

    fn solution(&self) -> Result<&S, GameError> {
        if !self.found {
            return Err(self.no_tables());
        }
        self.solution
            .get_or_init(|| {
                (self.load)(&self.dir, self.rules.rules)
                    .map_err(|e| files_error(&e, &self.rules.command))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    fn analysis(&self, text: &str, plies: u16) -> Result<Analysis<B>, GameError> {
        let pos = self.rules.parse(text)?;
        let sol = self.solution()?;
        analyse_at(sol, self.rules.rules, &pos, plies)
            .map_err(|e| analysis_error(&e, &self.rules.command))
    }
}

impl<B: Board> SolvedGame<B, Solution<B>> {
    /// A board solved whole (moving phase and placement) by
    /// `solver <board> generate`, its tables in `dir`: the game with the
    /// most stones a side (at most `B::STONES`) whose tables are all there.
    pub fn open(
        id: &'static str,
        title: &'static str,
        dir: &Path,
        flying: bool,
    ) -> SolvedGame<B, Solution<B>> {
        SolvedGame::open_with(id, title, dir, flying, None)
    }

    /// [`SolvedGame::open`] under the count rule of `quiet_limit` plies
    /// (its tables, `generate --quiet-limit`, are files of their own and
    /// may share the directory with the tables without the rule).
    pub fn open_with(
        id: &'static str,
        title: &'static str,
        dir: &Path,
        flying: bool,
        quiet_limit: Option<u16>,
    ) -> SolvedGame<B, Solution<B>> {
        let with = |k: u8| RuleSet::new(k, flying).with_quiet_limit(quiet_limit);
        let largest = with(B::STONES);
        let tables = |k: u8| {
            let rules = with(k);
            let set = files::directory::<B, Dense>(dir, rules);
            files::tables(rules).into_iter().all(|id| set.exists(id))
        };
        let stones = detect((3..=B::STONES).rev(), tables);
        let served = with(stones.unwrap_or(B::STONES));
        let command = format!(
            "solver {} generate{}",
            B::NAME,
            served.generate_options(B::STONES)
        );
        SolvedGame {
            id,
            title,
            dir: dir.to_owned(),
            found: stones.is_some(),
            rules: RulesLayer {
                rules: served,
                largest,
                command,
                _board: std::marker::PhantomData,
            },
            load: files::load::<B>,
            stats: report::solution_stats_json::<B>,
            solution: OnceLock::new(),
        }
    }
}

/// Lasker Morris (the Nine Men's Morris board, placing and sliding
/// interleaved) from the sector tables of `solver lasker generate
/// --stones K` in `dir`: the largest K whose sectors are all there.
pub fn lasker(dir: &Path, flying: bool) -> SolvedGame<Nine, LaskerFiles> {
    lasker_with(dir, flying, None)
}

/// [`lasker`] under the count rule of `quiet_limit` plies.
pub fn lasker_with(
    dir: &Path,
    flying: bool,
    quiet_limit: Option<u16>,
) -> SolvedGame<Nine, LaskerFiles> {
    let with = |k: u8| {
        RuleSet {
            flying,
            ..RuleSet::lasker(k)
        }
        .with_quiet_limit(quiet_limit)
    };
    let tables = |k: u8| {
        let rules = with(k);
        let set = lasker::files::directory::<Nine>(dir, rules);
        lasker::sector::sectors::<Nine>(k)
            .into_iter()
            .all(|s| set.exists(s))
    };
    let stones = detect((3..=10).rev(), tables);
    let next = stones.map_or(4, |k| k + 1).min(10);
    SolvedGame {
        id: "lasker",
        title: "Lasker Morris",
        dir: dir.to_owned(),
        found: stones.is_some(),
        rules: RulesLayer {
            rules: with(stones.unwrap_or(10)),
            largest: with(10),
            command: format!(
                "solver lasker generate --stones {next}{}",
                with(next).generate_options(next)
            ),
            _board: std::marker::PhantomData,
        },
        load: lasker::files::load,
        stats: report::lasker_stats_json::<Nine>,
        solution: OnceLock::new(),
    }
}

/// Six Men's Morris (16 points, 6 stones, flying) from the tables of
/// `solver six generate` in `dir`.
pub fn six(dir: &Path) -> SolvedGame<Six, Solution<Six>> {
    SolvedGame::open("six", "Six Men's Morris", dir, true)
}

impl<B: Board, S: Values<B> + Send + Sync> MillGame for SolvedGame<B, S> {
    fn id(&self) -> &'static str {
        self.id
    }

    fn title(&self) -> &'static str {
        self.title
    }

    fn rules(&self) -> RuleSet {
        self.rules.rules
    }

    fn start(&self) -> String {
        format_position::<B>(&Position::start(self.rules.rules))
    }

    fn reading(&self) -> Vec<&'static str> {
        self.rules.reading()
    }

    fn show(&self, position: &str) -> Result<Json, GameError> {
        self.rules.show(position)
    }

    fn analysis_text_at(&self, position: &str, plies: u16) -> Result<String, GameError> {
        serialised(&self.analysis(position, plies)?)
    }

    fn best_at(&self, position: &str, plies: u16) -> Result<Json, GameError> {
        let a = self.analysis(position, plies)?;
        Ok(best_json::<B>(&a.position, a.best()))
    }

    fn best_by_at(
        &self,
        position: &str,
        policy: &Policy,
        seed: u64,
        plies: u16,
    ) -> Result<Json, GameError> {
        // The analysis checks the position, the count and that its tables
        // are there.
        let a = self.analysis(position, plies)?;
        let best = if *policy == Policy::Fast {
            a.best()
        } else {
            let game = Family::<B, S>::new(self.solution()?, self.rules.rules_of(&a.position));
            policy
                .pick_at(&game, &a.position, plies, &[], &mut seeded(seed))
                .map_err(|e| GameError::Other(e.to_string()))?
                .map(|c| MoveValue::new(c.mv, c.value, c.has_distance))
        };
        let mut answer = best_json::<B>(&a.position, best);
        answer["policy"] = policy.to_string().into();
        Ok(answer)
    }

    fn stats(&self) -> Result<Json, GameError> {
        if !self.found {
            return Err(self.no_tables());
        }
        (self.stats)(&self.dir, self.rules.rules).map_err(|e| files_error(&e, &self.rules.command))
    }

    fn svg(&self, position: &str) -> Result<String, GameError> {
        self.rules.svg(position)
    }

    fn play_move(&self, position: &str, mv: &str) -> Result<(String, String), GameError> {
        self.rules.play_move(position, mv)
    }
}

/// Morabaraba (24 points with diagonals, 12 stones, a full board draws)
/// from the moving-phase tables of `solver morabaraba generate
/// --stones N` in `dir`: the N-stone game for the largest N whose
/// subspaces are all there, placement positions by the placement search
/// over them (as `solver morabaraba start`).
pub struct SearchedGame {
    dir: PathBuf,
    files_rules: RuleSet,
    stones: Option<u8>,
    rules: RulesLayer<Morabaraba>,
    options: SearchOptions,
    tables: OnceLock<Result<SearchedTables<Morabaraba, morabaraba::Index>, GameError>>,
}

/// Morabaraba from `dir`, placement searches sized by `options` (its
/// outcomes are loaded on first use: 2 bits a slot, 4.3 GB for the
/// 12-stone game).
pub fn morabaraba(dir: &Path, options: SearchOptions) -> SearchedGame {
    morabaraba_with(dir, options, None)
}

/// [`morabaraba`] under the count rule of `quiet_limit` plies.
pub fn morabaraba_with(
    dir: &Path,
    options: SearchOptions,
    quiet_limit: Option<u16>,
) -> SearchedGame {
    let files_rules = RuleSet::new(12, true).with_quiet_limit(quiet_limit);
    let set = files::directory::<Morabaraba, morabaraba::Index>(dir, files_rules);
    let tables = |n: u8| {
        morabaraba::moving::subspaces(n)
            .into_iter()
            .all(|s: Subspace| set.exists(TableId::Moving(s)))
    };
    let stones = detect((3..=12).rev(), tables);
    SearchedGame {
        dir: dir.to_owned(),
        files_rules,
        stones,
        rules: RulesLayer {
            rules: RuleSet {
                stones: stones.unwrap_or(12),
                ..files_rules
            },
            largest: files_rules,
            command: format!(
                "solver morabaraba generate --stones {}{}",
                stones.map_or(4, |n| n + 1).min(12),
                files_rules.generate_options(files_rules.stones)
            ),
            _board: std::marker::PhantomData,
        },
        options,
        tables: OnceLock::new(),
    }
}

impl SearchedGame {
    fn tables(&self) -> Result<&SearchedTables<Morabaraba, morabaraba::Index>, GameError> {
        let Some(stones) = self.stones else {
            return Err(GameError::NoTables {
                title: "Morabaraba".into(),
                command: self.rules.command.clone(),
            });
        };
        self.tables
            .get_or_init(|| {
                SearchedTables::open(&self.dir, self.files_rules, stones)
                    .map_err(|e| analysis_error(&e.into(), &self.rules.command))
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

impl MillGame for SearchedGame {
    fn id(&self) -> &'static str {
        "morabaraba"
    }

    fn title(&self) -> &'static str {
        "Morabaraba"
    }

    fn rules(&self) -> RuleSet {
        self.rules.rules
    }

    fn start(&self) -> String {
        format_position::<Morabaraba>(&Position::start(self.rules.rules))
    }

    fn reading(&self) -> Vec<&'static str> {
        self.rules.reading()
    }

    fn show(&self, position: &str) -> Result<Json, GameError> {
        self.rules.show(position)
    }

    fn analysis_text_at(&self, position: &str, plies: u16) -> Result<String, GameError> {
        let pos = self.rules.parse(position)?;
        let tables = self.tables()?;
        let a = tables
            .analyse_at(&pos, plies, self.options)
            .map_err(|e| analysis_error(&e, &self.rules.command))?;
        serialised(&a)
    }

    /// A placement position whose sector is not stored.
    fn searches(&self, position: &str) -> bool {
        let (Ok(pos), Ok(tables)) = (self.rules.parse(position), self.tables()) else {
            return false;
        };
        pos.validate::<Morabaraba>(self.rules.rules).is_ok()
            && pos.placing()
            && Sector::of(&pos).is_none_or(|s| !tables.files().has_sector(s))
    }

    fn best_at(&self, position: &str, plies: u16) -> Result<Json, GameError> {
        let pos = self.rules.parse(position)?;
        let tables = self.tables()?;
        let best = tables
            .best_at(&pos, plies, self.options)
            .map_err(|e| analysis_error(&e, &self.rules.command))?;
        Ok(best_json::<Morabaraba>(&pos, best))
    }

    fn stats(&self) -> Result<Json, GameError> {
        let Some(max) = self.stones else {
            return Err(GameError::NoTables {
                title: "Morabaraba".into(),
                command: self.rules.command.clone(),
            });
        };
        let rows =
            morabaraba::moving::stats::<Morabaraba>(&self.dir, self.files_rules, Size::game(max))
                .map_err(|e| match e {
                morabaraba::moving::TablesError::Files(f) => files_error(&f, &self.rules.command),
                other => GameError::Damaged(other.to_string()),
            })?;
        Ok(report::moving_stats_json(
            "morabaraba",
            &rows,
            self.files_rules,
            max,
            &[],
        ))
    }

    fn svg(&self, position: &str) -> Result<String, GameError> {
        self.rules.svg(position)
    }

    fn play_move(&self, position: &str, mv: &str) -> Result<(String, String), GameError> {
        self.rules.play_move(position, mv)
    }
}

/// Nine Men's Morris (with flying, or without) from the tables of `dir`,
/// each kept as two-bit outcomes once used ([`nine::game::NineGame`]).
pub fn nine(dir: &Path, flying: bool, options: SearchOptions) -> NineGame {
    nine_with(dir, flying, options, None)
}

/// [`nine`] under the count rule of `quiet_limit` plies.
pub fn nine_with(
    dir: &Path,
    flying: bool,
    options: SearchOptions,
    quiet_limit: Option<u16>,
) -> NineGame {
    let rules = RuleSet::nine(flying).with_quiet_limit(quiet_limit);
    NineGame::open(dir, rules, options, Residency::Outcomes)
}

/// The names [`open`] knows.
pub const GAMES: [&str; 6] = [
    "nine",
    "nine-noflying",
    "six",
    "lasker",
    "morabaraba",
    "three",
];

/// The game named `id` (one of [`GAMES`]; Lasker Morris with flying) with
/// its tables in `dir` (Three Men's Morris has none: it is solved in memory), placement searches sized by `options`; `None` for
/// another name.
pub fn open(id: &str, dir: &Path, options: SearchOptions) -> Option<Box<dyn MillGame>> {
    open_with(id, dir, options, None).ok()?
}

/// The game named `id` as [`open`], under the count rule of `quiet_limit`
/// plies when given (its tables, written by `generate --quiet-limit`, may
/// share `dir` with the tables without the rule; Three Men's Morris is
/// solved in memory under it). `Ok(None)` for another name.
pub fn open_with(
    id: &str,
    dir: &Path,
    options: SearchOptions,
    quiet_limit: Option<u16>,
) -> Result<Option<Box<dyn MillGame>>, GameError> {
    let limit = quiet_limit;
    Ok(Some(match id {
        "nine" => Box::new(nine_with(dir, true, options, limit)),
        "nine-noflying" => Box::new(nine_with(dir, false, options, limit)),
        "six" => Box::new(SolvedGame::<Six, _>::open_with(
            "six",
            "Six Men's Morris",
            dir,
            true,
            limit,
        )),
        "lasker" => Box::new(lasker_with(dir, true, limit)),
        "morabaraba" => Box::new(morabaraba_with(dir, options, limit)),
        "three" => Box::new(limit.map_or_else(ThreeGame::new, ThreeGame::with_quiet_limit)),
        _ => return Ok(None),
    }))
}
