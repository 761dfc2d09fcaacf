//! `solver toguz calibrate` (the win/draw/loss chances of the engine's
//! score, fitted on recorded games) and `solver toguz puzzles` (positions
//! of recorded games where exactly one move keeps the win or the draw).

use super::{print_json, CliError, CliResult};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use toguz::calibrate::{self, Bin, SampleOptions};
use toguz::chances::{self, ModelKind, Wdl};
use toguz::endgame::GameResult;
use toguz::puzzles::{self, Kind, Options, Proof};
use toguz::search::Limits;
use toguz::{pgn, Side};

/// Arguments of `solver toguz calibrate`.
#[derive(clap::Args, Debug)]
pub struct CalibrateArgs {
    /// The record file (PlayOK games with result tags).
    file: PathBuf,
    /// Node budget of each position's search (one thread: reproducible).
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Score the positions after 0, N, 2N, … plies of each game.
    #[arg(long, default_value_t = 3)]
    every: usize,
    /// Hold out every K-th game (games K, 2K, … of the file) for the check.
    #[arg(long, default_value_t = 5)]
    holdout: usize,
    /// Only the first N games of the file.
    #[arg(long)]
    games: Option<usize>,
    /// The model written with --out and shown in the reliability table:
    /// score, phase (slope tapered by the stones on the board) or
    /// phase-side (and a term for White to move).
    #[arg(long, default_value = "phase")]
    model: String,
    /// Write the chosen fit as a chances file (the built-in one is
    /// solver/toguz/src/chances.txt).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Games searched at once (each with its own engine; the result does
    /// not depend on it).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// No progress lines on stderr.
    #[arg(long)]
    quiet: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

fn read_games(file: &Path) -> Result<Vec<pgn::Game>, CliError> {
    let text = std::fs::read_to_string(file).map_err(CliError::file(file))?;
    pgn::parse(&text).map_err(|e| CliError::input(format!("{}: {e}", file.display())))
}

fn pool(jobs: usize) -> Result<rayon::ThreadPool, CliError> {
    if !(1..=256).contains(&jobs) {
        return Err(CliError::from("--jobs must be 1..256"));
    }
    Ok(rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?)
}

/// Progress on stderr every `step` games (and at the end).
fn progress_line(quiet: bool, what: &'static str, start: Instant) -> impl Fn(usize, usize) + Sync {
    move |done, total| {
        if !quiet && (done % 50 == 0 || done == total) {
            eprintln!(
                "{what}: {done}/{total} games, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    }
}

fn wdl_text(w: &Wdl) -> String {
    format!("win {:.3}, draw {:.3}, loss {:.3}", w.win, w.draw, w.loss)
}

/// `solver toguz calibrate`.
pub fn calibrate(a: CalibrateArgs) -> CliResult {
    let model: ModelKind = a
        .model
        .parse()
        .map_err(|e: String| CliError::input(format!("--model: {e}")))?;
    if a.holdout < 2 {
        return Err(CliError::from(
            "--holdout must be at least 2 (one game in K is held out)",
        ));
    }
    let mut games = read_games(&a.file)?;
    if let Some(n) = a.games {
        games.truncate(n);
    }
    let opts = SampleOptions {
        nodes: a.nodes,
        every: a.every,
        ..SampleOptions::default()
    };
    let start = Instant::now();
    let pool = pool(a.jobs)?;
    let progress = progress_line(a.quiet, "calibrate", start);
    let samples = pool.install(|| calibrate::samples(&games, &opts, &|_| true, &progress))?;
    let search_seconds = start.elapsed().as_secs_f64();
    let (held, train): (Vec<_>, Vec<_>) = samples
        .iter()
        .partition(|s| calibrate::is_held_out(s.game, a.holdout));
    let report = calibrate::report(&train, &held, model, a.nodes, chances::builtin())?;
    let seconds = start.elapsed().as_secs_f64();
    let chosen = &report.fits[report.chosen];
    let mut cal = chosen.calibration.clone();
    let mut command = format!(
        "solver toguz calibrate {} --nodes {} --every {} --holdout {} --model {}",
        a.file.display(),
        a.nodes,
        a.every,
        a.holdout,
        model.name()
    );
    if let Some(n) = a.games {
        command.push_str(&format!(" --games {n}"));
    }
    if let Some(out) = &a.out {
        command.push_str(&format!(" --out {}", out.display()));
    }
    cal.origin = format!(
        "{command}\nfitted on {} positions of {} games; held out {} positions of {} games: \
         log loss {:.4} (constant baseline {:.4}), Brier {:.4} (baseline {:.4})",
        report.positions[0],
        report.games[0],
        report.positions[1],
        report.games[1],
        chosen.holdout.log_loss,
        report.baseline.log_loss,
        chosen.holdout.brier,
        report.baseline.brier
    );
    if let Some(out) = &a.out {
        std::fs::write(out, cal.to_text()).map_err(CliError::file(out))?;
    }
    if a.json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            command: &'a str,
            nodes: u64,
            every: usize,
            holdout: usize,
            search_seconds: f64,
            seconds: f64,
            #[serde(flatten)]
            report: &'a calibrate::Report,
        }
        return print_json(&Out {
            command: &command,
            nodes: a.nodes,
            every: a.every,
            holdout: a.holdout,
            search_seconds,
            seconds,
            report: &report,
        });
    }
    println!(
        "{} games with a result: {} fitted ({} positions), {} held out ({} positions); \
         {} nodes a position, every {} plies; {:.0} s ({:.0} s searching)",
        report.games[0] + report.games[1],
        report.games[0],
        report.positions[0],
        report.games[1],
        report.positions[1],
        a.nodes,
        a.every,
        seconds,
        search_seconds
    );
    println!(
        "base rates for the side to move (fitted games): {}",
        wdl_text(&report.base_rates)
    );
    println!("held-out games        log loss   Brier");
    println!(
        "  constant baseline    {:.4}    {:.4}",
        report.baseline.log_loss, report.baseline.brier
    );
    for f in &report.fits {
        println!(
            "  {:<18}   {:.4}    {:.4}   (fitted games {:.4} / {:.4})",
            f.calibration.kind.name(),
            f.holdout.log_loss,
            f.holdout.brier,
            f.train.log_loss,
            f.train.brier
        );
    }
    println!(
        "  built-in ({})   {:.4}    {:.4}",
        chances::builtin().kind.name(),
        report.builtin.log_loss,
        report.builtin.brier
    );
    let c = &chosen.calibration;
    println!(
        "chosen {}: slope_open {:.4}, slope_end {:.4} per stone, bias {:.4}, white {:.4}, draw_width {:.4}",
        c.kind.name(),
        c.slope_open,
        c.slope_end,
        c.bias,
        c.white,
        c.draw_width
    );
    println!("reliability on the held-out games (predicted chance, positions, mean predicted, observed):");
    for (name, bins) in [
        ("win", &report.reliability_win),
        ("draw", &report.reliability_draw),
        ("loss", &report.reliability_loss),
    ] {
        println!("  {name}:");
        for b in bins.iter().filter(|b: &&Bin| b.positions > 0) {
            println!(
                "    {:.1}-{:.1}  {:>7}  {:.3}  {:.3}",
                b.low, b.high, b.positions, b.predicted, b.observed
            );
        }
    }
    if let Some(out) = &a.out {
        println!("written: {}", out.display());
    }
    Ok(())
}

/// Arguments of `solver toguz puzzles`.
#[derive(clap::Args, Debug)]
pub struct PuzzlesArgs {
    /// The record file (PlayOK games).
    file: PathBuf,
    /// Only this game (1-based).
    #[arg(long)]
    game: Option<usize>,
    /// Only the first N games.
    #[arg(long, conflicts_with = "game")]
    games: Option<usize>,
    /// Node budget of the quick two-line search of every position.
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Node budget of the confirming search of every move.
    #[arg(long, default_value_t = 400_000)]
    verify_nodes: u64,
    /// Least expected score (win 1, draw ½) of the one move, from the
    /// calibrated chances (search puzzles).
    #[arg(long, default_value_t = 0.8)]
    keep: f64,
    /// Most expected score of every other move (search puzzles).
    #[arg(long, default_value_t = 0.5)]
    others: f64,
    /// Prove positions with at most this many stones with the exact solver.
    #[arg(long, default_value_t = 12)]
    solver_stones: u32,
    /// Node budget of each exact proof.
    #[arg(long, default_value_t = 200_000)]
    solver_nodes: u64,
    /// Endgame share tables (default `./toguz-tables` when it exists).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Do not use share tables, even `./toguz-tables`.
    #[arg(long, conflicts_with = "tables")]
    no_tables: bool,
    /// Games searched at once (the result does not depend on it).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// No progress lines on stderr.
    #[arg(long)]
    quiet: bool,
    /// Print the puzzles as JSON.
    #[arg(long)]
    json: bool,
}

fn result_name(r: GameResult) -> &'static str {
    match r {
        GameResult::Win => "win",
        GameResult::Draw => "draw",
        GameResult::Loss => "loss",
    }
}

/// `solver toguz puzzles`.
pub fn puzzles(a: PuzzlesArgs) -> CliResult {
    let games = read_games(&a.file)?;
    let chosen: Vec<usize> = match (a.game, a.games) {
        (Some(n), _) if n >= 1 && n <= games.len() => vec![n - 1],
        (Some(n), _) => {
            return Err(CliError::input(format!(
                "--game {n}: {} has games 1..{}",
                a.file.display(),
                games.len()
            )))
        }
        (None, Some(n)) => (0..n.min(games.len())).collect(),
        (None, None) => (0..games.len()).collect(),
    };
    if a.nodes == 0 || a.verify_nodes == 0 || a.solver_nodes == 0 {
        return Err(CliError::from(
            "--nodes, --verify-nodes and --solver-nodes must be at least 1",
        ));
    }
    let nodes = |n| Limits {
        nodes: Some(n),
        threads: 1,
        ..Limits::default()
    };
    let opts = Options {
        screen: nodes(a.nodes),
        verify: nodes(a.verify_nodes),
        keep: a.keep,
        others: a.others,
        solver_stones: a.solver_stones,
        solver_nodes: a.solver_nodes,
        ..Options::default()
    };
    let default = Path::new("toguz-tables");
    let dir = match &a.tables {
        Some(d) => Some(d.as_path()),
        None if !a.no_tables && default.is_dir() => Some(default),
        None => None,
    };
    let tables = match dir {
        Some(d) => Some(Arc::new(toguz::egtb::Tables::open(d)?)),
        None => None,
    };
    let max_stones = tables.as_ref().map(|t| t.max_stones());
    let start = Instant::now();
    let pool = pool(a.jobs)?;
    let progress = progress_line(a.quiet, "puzzles", start);
    let report = pool.install(|| {
        puzzles::find(
            &games,
            &chosen,
            &opts,
            tables,
            chances::builtin(),
            &progress,
        )
    })?;
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            seconds: f64,
            table_stones: Option<u8>,
            #[serde(flatten)]
            report: &'a puzzles::Report,
        }
        return print_json(&Out {
            seconds,
            table_stones: max_stones,
            report: &report,
        });
    }
    for p in &report.puzzles {
        let f = &p.found;
        let side = if f.side == Side::White {
            "White"
        } else {
            "Black"
        };
        let proof = match f.proof {
            Proof::Tables => "proved by the share tables".to_string(),
            Proof::Solver => "proved by the exact solver".to_string(),
            Proof::Search => format!("engine, depth {}", f.depth),
        };
        println!(
            "game {} ({} - {}), move {}, {side} to move ({proof}): {}",
            p.game,
            p.white,
            p.black,
            p.ply / 2 + 1,
            f.task
        );
        println!("  position  {}", f.position);
        println!(
            "  solution  {}   played {} ({})",
            f.solution_move,
            p.played_move,
            if p.player_found { "found" } else { "missed" }
        );
        let values: Vec<String> = f
            .moves
            .iter()
            .map(|m| match (m.result, m.score) {
                (Some(r), _) => format!("{} {}", m.notation, result_name(r)),
                (None, Some(s)) => format!(
                    "{} {:+.1} ({:.0} %)",
                    m.notation,
                    s,
                    m.chances.expected() * 100.0
                ),
                (None, None) => m.notation.clone(),
            })
            .collect();
        println!("  moves     {}", values.join(", "));
        if !p.also_in.is_empty() {
            println!("  also in games {:?}", p.also_in);
        }
    }
    let count = |k: Kind| report.puzzles.iter().filter(|p| p.found.kind == k).count();
    let by = |k: Proof| report.puzzles.iter().filter(|p| p.found.proof == k).count();
    let found = report.puzzles.iter().filter(|p| p.player_found).count();
    println!(
        "{} puzzles ({} win, {} draw; {} by the tables, {} by the exact solver, {} by search) in {} games, \
         {} positions examined; the players found {} of them; {:.0} s",
        report.puzzles.len(),
        count(Kind::Win),
        count(Kind::Draw),
        by(Proof::Tables),
        by(Proof::Solver),
        by(Proof::Search),
        report.games,
        report.positions,
        found,
        seconds
    );
    Ok(())
}
