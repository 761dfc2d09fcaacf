//! The command line's error type: every library error the commands can meet,
//! kept typed until the one line `solver` prints, and the exit status each
//! kind of error gives (2 for bad input, 1 for everything else).

use std::path::PathBuf;

/// Why a command failed. The library errors are carried as they are; the
/// command line adds only its own kinds (bad arguments, files it reads or
/// writes itself).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// An argument, position or move given by the user is not valid (the
    /// message says what and how to write it).
    #[error("{0}")]
    Input(String),
    /// The command ran but its result is a failure: a check found values
    /// that disagree, or the work does not fit this machine.
    #[error("{0}")]
    Failed(String),
    /// A file the command reads or writes itself (a record, a weights file,
    /// an SVG picture) could not be used.
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Standard input or output failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The worker threads could not be started.
    #[error("cannot start the worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The web server could not start (address in use, runtime).
    #[error("{0}")]
    Server(String),
    /// A JSON document could not be written.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A table file (header, block, checksum).
    #[error(transparent)]
    Format(#[from] tablebase::format::FormatError),
    /// The retrograde engine.
    #[error(transparent)]
    Retro(#[from] tablebase::retro::RetroError),
    /// Nine Men's Morris: a table directory.
    #[error(transparent)]
    Database(#[from] mill::games::nine::files::DatabaseError),
    /// Nine Men's Morris: a probe.
    #[error(transparent)]
    Probe(#[from] mill::probe::nine::ProbeError),
    /// Nine Men's Morris: an analysis (tables or placement search).
    #[error(transparent)]
    Analysis(#[from] mill::probe::analysis::AnalysisError),
    /// Nine Men's Morris: a search under a ply limit (`probe --turns-left`).
    #[error(transparent)]
    Horizon(#[from] mill::probe::horizon::HorizonError),
    /// Nine Men's Morris: Malom's files.
    #[error(transparent)]
    Malom(#[from] mill::malom::MalomError),
    /// A match of the perfect player against a fallible opponent.
    #[error(transparent)]
    Duel(#[from] mill::duel::DuelError),
    /// A family board: the tables of a whole game.
    #[error(transparent)]
    Files(#[from] mill::tables::files::FilesError),
    /// A family board: the moving-phase tables kept one file a subspace.
    #[error(transparent)]
    Tables(#[from] mill::games::morabaraba::moving::TablesError),
    /// A family board: a solve.
    #[error(transparent)]
    Solve(#[from] mill::tables::solve::SolveError),
    /// Lasker Morris: the sector tables on disk.
    #[error(transparent)]
    Lasker(#[from] mill::games::lasker::tables::LaskerError),
    /// A family board: outcomes for the placement search.
    #[error(transparent)]
    Outcomes(#[from] mill::tables::outcomes::OutcomesError),
    /// A family board: plies to the end.
    #[error(transparent)]
    Depth(#[from] mill::tables::depth::DepthError),
    /// Toguz Kumalak: a PlayOK record.
    #[error(transparent)]
    Pgn(#[from] toguz::pgn::PgnError),
    /// Toguz Kumalak: an engine set-up.
    #[error(transparent)]
    Spec(#[from] toguz::selfplay::SpecError),
    /// Toguz Kumalak: a weights file.
    #[error(transparent)]
    Weights(#[from] toguz::linear::WeightsError),
    /// Toguz Kumalak: the endgame share tables.
    #[error(transparent)]
    Egtb(#[from] toguz::egtb::database::EgtbError),
    /// Toguz Kumalak: fitting the win/draw/loss chances.
    #[error(transparent)]
    Calibrate(#[from] toguz::calibrate::CalibrateError),
    /// Toguz Kumalak: a chances file.
    #[error(transparent)]
    Chances(#[from] toguz::chances::ChancesError),
    /// Toguz Kumalak: the puzzle finder.
    #[error(transparent)]
    Puzzle(#[from] toguz::puzzles::PuzzleError),
}

impl CliError {
    /// The process exit status for this error: 2 when the user's input was
    /// wrong (as for clap's own usage errors), 1 otherwise (a check that
    /// failed, a missing or damaged table, an I/O error).
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            _ => 1,
        }
    }

    /// An error in the user's input.
    pub fn input(message: impl Into<String>) -> CliError {
        CliError::Input(message.into())
    }

    /// A file error with its path.
    pub fn file(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> CliError {
        let path = path.into();
        move |source| CliError::File { path, source }
    }
}

/// Messages of the command line itself (checks of arguments and of what
/// the user typed) are input errors.
impl From<String> for CliError {
    fn from(message: String) -> CliError {
        CliError::Input(message)
    }
}

impl From<&str> for CliError {
    fn from(message: &str) -> CliError {
        CliError::Input(message.to_string())
    }
}
