//! `solver three` subcommands: solve the whole game, probe a position, play
//! the perfect player. One function per subcommand.

use super::duel::PolicyArgs;
use super::CliError;
use super::{print_json, CliResult};
use clap::Subcommand;
use mill::duel::games::{Three, ThreeCounted};
use mill::games::three::count::CountedThree;
use mill::games::three::solve::Solution;
use mill::games::three::{parse_move, report, Position};
use mill::probe::count::{Count, Label};
use mill::rules::position::Color;
use serde_json::json;
use std::io::{BufRead, Write};
use std::time::Instant;
use tablebase::Value;

/// Arguments of `solver three`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands of `solver three`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve the whole game: the value of the empty board and of each first
    /// move, and totals of reachable positions by value.
    Solve {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position and list its legal moves (`--svg FILE` also writes
    /// the board as an SVG picture, for papers and docs).
    Show {
        /// Position text, e.g. "W...B.... w 2 2"; the empty board when omitted.
        position: Vec<String>,
        /// Write the board picture to this SVG file.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Count the leaves of the game tree to DEPTH plies (a finished game is
    /// a leaf), with the count below each first move.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position text; the empty board when omitted.
        position: Vec<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The value of the empty board and of every opening move (what
    /// `probe` says of the empty board).
    Start {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        policy: super::duel::PolicyArgs,
        /// The count rule (as --quiet-limit of `probe`).
        #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u16).range(1..=10000))]
        quiet_limit: Option<u16>,
    },
    /// The value of a position and of each of its legal moves.
    Probe {
        /// Position text, e.g. "......... w 3 3" (quoted or as separate
        /// words); the empty board when omitted.
        position: Vec<String>,
        /// Moves to play from the position first, e.g. "b2 a1 c3".
        #[arg(long, default_value = "")]
        moves: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        policy: super::duel::PolicyArgs,
        #[command(flatten)]
        count: CountArgs,
    },
    /// Play against the perfect player in the terminal (moves on stdin,
    /// `quit` to stop).
    Play {
        /// The colour you play.
        #[arg(long = "as", value_enum, default_value = "white")]
        side: Side,
        /// Start position text; the empty board when omitted.
        position: Vec<String>,
        /// Print one JSON object per ply instead of drawings.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        policy: super::duel::PolicyArgs,
        #[command(flatten)]
        count: CountArgs,
    },
    /// The perfect player with a move-choice policy against a fallible
    /// opponent: N games from the empty board, both colours, in parallel;
    /// wins, draws, losses and the score with its 95 % interval.
    Duel(DuelCommand),
}

/// The count rule on Three Men's Morris (`docs/rules.md`, "The count
/// rule"): the game has no removals, so only a placement restarts the
/// count.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct CountArgs {
    /// The count rule: the game is drawn once PLIES plies in a row pass
    /// without a placement (100 is "fifty moves", docs/rules.md). The
    /// game is solved under it in memory; without it endless play is a
    /// draw and nothing else is.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u16).range(1..=10000))]
    pub quiet_limit: Option<u16>,
    /// Under --quiet-limit: plies already played without a placement (the
    /// count; 0 right after one, and in the placement phase).
    #[arg(long, value_name = "Q", default_value_t = 0, requires = "quiet_limit")]
    pub quiet_plies: u16,
}

/// Options of `solver three duel`.
#[derive(clap::Args, Debug)]
pub struct DuelCommand {
    #[command(flatten)]
    pub duel: super::duel::DuelArgs,
    /// The count rule (as --quiet-limit of `probe`): every game is drawn
    /// once PLIES plies in a row pass without a placement.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u16).range(1..=10000))]
    pub quiet_limit: Option<u16>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// A colour on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Side {
    /// White (moves first from the empty board).
    White,
    /// Black.
    Black,
}

/// Run a `solver three` subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {
        Command::Solve { json } => solve(json),
        Command::Show {
            position,
            svg,
            json,
        } => show(&position, svg.as_deref(), json),
        Command::Perft {
            depth,
            position,
            json,
        } => perft(depth, &position, json),
        Command::Start {
            json,
            policy,
            quiet_limit,
        } => {
            let count = CountArgs {
                quiet_limit,
                quiet_plies: 0,
            };
            probe(&[], "", json, &policy, count)
        }
        Command::Probe {
            position,
            moves,
            json,
            policy,
            count,
        } => probe(&position, &moves, json, &policy, count),
        Command::Play {
            side,
            position,
            json,
            policy,
            count,
        } => play(side, &position, json, &policy, count),
        Command::Duel(d) => {
            let sol = solution()?;
            match d.quiet_limit {
                None => super::duel::run("Three Men's Morris", &Three(&sol), &d.duel, d.json),
                Some(limit) => {
                    let counted = CountedThree::new(&sol, limit);
                    let game = ThreeCounted(&sol, &counted);
                    super::duel::run("Three Men's Morris", &game, &d.duel, d.json)
                }
            }
        }
    }
}

fn solution() -> Result<Solution, CliError> {
    Ok(Solution::solve()?)
}

/// "win in 5", "draw", "loss in 0".
fn describe(v: Value) -> String {
    v.to_string()
}

/// `solver three solve`.
fn solve(json: bool) -> CliResult {
    let started = Instant::now();
    let sol = solution()?;
    let solve_ms = started.elapsed().as_secs_f64() * 1e3;
    if json {
        return print_json(&report::solve_json(&sol, solve_ms));
    }
    let start = Position::start();
    let value = sol.value(&start);
    let mut first = sol.moves(&start);
    first.sort_by_key(|&(m, _)| m.to);
    let totals = sol.reachable();
    println!(
        "Three Men's Morris solved in {solve_ms:.1} ms ({} symmetry classes indexed, {} levels).",
        sol.classes().len(),
        sol.levels()
    );
    print!("{}", start.draw());
    println!("Empty board, White to move: {}", describe(value));
    println!("White's first moves:");
    for (m, v) in &first {
        println!("  {m}  {}", describe(*v));
    }
    let (p, c) = (&totals.positions, &totals.classes);
    println!(
        "Reachable positions (board and side to move, from the side to move's view): \
         {} = {} wins + {} draws + {} losses",
        p.positions, p.wins, p.draws, p.losses
    );
    println!(
        "Reachable symmetry classes: {} = {} wins + {} draws + {} losses",
        c.positions, c.wins, c.draws, c.losses
    );
    Ok(())
}

/// `solver three perft`: the same report as the other boards' `perft`.
fn perft(depth: u32, words: &[String], json: bool) -> CliResult {
    let pos = super::parse_position(words, Position::start())?;
    let started = Instant::now();
    let split = pos.divide(depth);
    let total = if split.is_empty() {
        pos.perft(depth)
    } else {
        split.iter().map(|(_, n)| n).sum()
    };
    let seconds = started.elapsed().as_secs_f64();
    if json {
        let moves: serde_json::Map<String, serde_json::Value> = split
            .iter()
            .map(|(m, n)| (m.to_string(), json!(n)))
            .collect();
        return print_json(&json!({
            "position": pos.to_string(),
            "depth": depth,
            "leaves": total,
            "moves": moves,
            "seconds": seconds,
        }));
    }
    print!("{}", pos.draw());
    println!("{pos}");
    for (m, n) in &split {
        println!("{:<10} {n}", m.to_string());
    }
    println!("perft {depth}: {total} leaves ({seconds:.3} s)");
    Ok(())
}

/// `solver three show`.
fn show(words: &[String], svg: Option<&std::path::Path>, json: bool) -> CliResult {
    let pos = super::parse_position(words, Position::start())?;
    if let Some(file) = svg {
        super::write_file(file, &mill::rules::svg::three_svg(&pos))?;
    }
    let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    if json {
        return print_json(&json!({
            "position": pos.to_string(),
            "to_move": pos.to_move.name(),
            "finished": pos.finished(),
            "moves": moves,
        }));
    }
    print!("{}", pos.draw());
    println!("{pos}");
    if pos.finished() {
        println!("The game is over: {} has lost.", name(pos.to_move));
    } else {
        println!(
            "{} to move; legal moves: {}",
            name(pos.to_move),
            moves.join(" ")
        );
    }
    Ok(())
}

/// Play the moves of `list` (space-separated) from `pos`, `quiet` quiet
/// plies into the count: the position after them and the count after
/// them (a placement restarts it, a slide adds one).
fn play_moves(mut pos: Position, list: &str, mut quiet: u16) -> Result<(Position, u16), CliError> {
    for (i, text) in list.split_whitespace().enumerate() {
        let m = parse_move(&pos, text).map_err(|e| format!("move {} ({text}): {e}", i + 1))?;
        quiet = if m.from.is_none() {
            0
        } else {
            quiet.saturating_add(1)
        };
        pos = pos.play(m);
    }
    Ok((pos, quiet))
}

/// The solution under the count rule of `count`, when it has one, with
/// the count of `pos` after `plies` quiet plies (a count past the limit
/// is an input error).
fn counted(
    sol: &Solution,
    count: CountArgs,
    pos: &Position,
    plies: u16,
) -> Result<Option<(CountedThree, Count)>, CliError> {
    let Some(limit) = count.quiet_limit else {
        return Ok(None);
    };
    if plies > limit {
        return Err(CliError::input(format!(
            "{plies} quiet plies is past the count rule's limit of {limit}"
        )));
    }
    let counted = CountedThree::new(sol, limit);
    let at = counted.count(pos, plies);
    Ok(Some((counted, at)))
}

/// `solver three probe`: under `--quiet-limit`, every value read at the
/// count and each one the rule changed marked against the game without
/// it (cursed wins, blessed losses).
fn probe(
    words: &[String],
    moves: &str,
    json: bool,
    policy: &PolicyArgs,
    count: CountArgs,
) -> CliResult {
    let start = super::parse_position(words, Position::start())?;
    let (pos, plies) = play_moves(start, moves, count.quiet_plies)?;
    let sol = solution()?;
    let rule = counted(&sol, count, &pos, plies)?;
    let plain_value = sol.value(&pos);
    let plain_moves = sol.moves(&pos);
    let (value, list) = match &rule {
        None => (plain_value, plain_moves.clone()),
        Some((c, at)) => (
            c.value_at(&sol, &pos, at.plies),
            c.moves_at(&sol, &pos, at.plies)
                .into_iter()
                .map(|(m, v, _)| (m, v))
                .collect(),
        ),
    };
    let choice = if policy.is_default() {
        None
    } else {
        let mut rng = policy.rng();
        match &rule {
            None => policy.policy.pick(&Three(&sol), &pos, &[], &mut rng)?,
            Some((c, at)) => {
                policy
                    .policy
                    .pick_at(&ThreeCounted(&sol, c), &pos, at.plies, &[], &mut rng)?
            }
        }
        .map(|c| c.mv)
    };
    if json {
        let mut doc = match &rule {
            None => report::probe_json(&sol, &pos),
            Some((c, at)) => {
                let mut doc = report::probe_json_at(c, &sol, &pos, at.plies);
                mill::games::count::mark(&mut doc, &report::probe_json(&sol, &pos));
                doc
            }
        };
        if let Some(m) = choice {
            doc["choice"] = json!({"policy": policy.policy.to_string(), "move": m.to_string()});
        }
        return print_json(&doc);
    }
    let marked = |plain: Value, now: Value| {
        let label = rule.as_ref().and(Label::of(plain.outcome(), now.outcome()));
        label.map_or(String::new(), |l| format!(" ({})", l.words()))
    };
    print!("{}", pos.draw());
    println!("{pos}");
    println!(
        "{} to move: {}{}",
        name(pos.to_move),
        describe(value),
        marked(plain_value, value)
    );
    if let Some((_, at)) = &rule {
        println!("{}", super::six::count_text(*at));
    }
    if pos.finished() {
        println!("The game is over: {} has lost.", name(pos.to_move));
    }
    for (m, v) in &list {
        let before = plain_moves.iter().find(|(p, _)| p == m).map(|&(_, v)| v);
        let mark = before.map_or(String::new(), |b| marked(b, *v));
        println!("  {m:<6} {}{mark}", describe(*v));
    }
    if let Some(m) = choice {
        println!("The {} policy plays {m}.", policy.policy);
    }
    Ok(())
}

fn name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `solver three play`: under `--quiet-limit` the count is shown before
/// every move, the perfect player reads every move at its count, and the
/// game is drawn at the limit.
fn play(
    side: Side,
    words: &[String],
    json: bool,
    policy: &PolicyArgs,
    count: CountArgs,
) -> CliResult {
    let human = match side {
        Side::White => Color::White,
        Side::Black => Color::Black,
    };
    let sol = solution()?;
    let mut pos = super::parse_position(words, Position::start())?;
    let rule = counted(&sol, count, &pos, count.quiet_plies)?;
    let game = rule.as_ref().map(|(c, _)| ThreeCounted(&sol, c));
    // Quiet plies played (none in the placement phase).
    let mut quiet = rule.as_ref().map_or(0, |(_, at)| at.plies);
    let value_at = |pos: &Position, quiet: u16| match &rule {
        None => sol.value(pos),
        Some((c, _)) => c.value_at(&sol, pos, c.count(pos, quiet).plies),
    };
    let report = |pos: &Position, quiet: u16, last: Option<String>| -> CliResult {
        let value = value_at(pos, quiet);
        let at = rule.as_ref().map(|(c, _)| c.count(pos, quiet));
        if json {
            let mut doc = json!({
                "last_move": last,
                "position": pos.to_string(),
                "to_move": pos.to_move.name(),
                "value": value.outcome().as_str(),
                "plies": value.distance(),
            });
            if let Some(at) = at {
                doc["quiet_limit"] = at.limit.into();
                doc["quiet_plies"] = at.plies.into();
            }
            println!("{}", serde_json::to_string(&doc)?);
        } else {
            if let Some(m) = last {
                println!("{} played {m}", name(pos.to_move.other()));
            }
            print!("{}", pos.draw());
            if let Some(at) = at {
                println!("count {}/{}", at.plies, at.limit);
            }
            println!(
                "{} to move ({} with perfect play)",
                name(pos.to_move),
                describe(value)
            );
        }
        Ok(())
    };
    report(&pos, quiet, None)?;
    let mut rng = policy.rng();
    // Positions since the last placement (for `ultra`).
    let mut history = vec![pos];
    let drawn = |pos: &Position, quiet: u16| {
        rule.as_ref()
            .is_some_and(|(c, _)| c.count(pos, quiet).expired())
    };
    while !pos.finished() && !drawn(&pos, quiet) {
        let m = if pos.to_move == human {
            if !json {
                print!("your move> ");
                std::io::stdout().flush()?;
            }
            let Some(line) = lines_next()? else {
                return Ok(());
            };
            let line = line.trim();
            if line == "quit" {
                return Ok(());
            }
            match parse_move(&pos, line) {
                Ok(m) => m,
                Err(e) => {
                    if json {
                        println!("{}", json!({ "error": e.to_string() }));
                    } else {
                        println!("{e}");
                    }
                    continue;
                }
            }
        } else {
            let choice = match &game {
                None if policy.is_default() => sol.best_move(&pos),
                None => policy
                    .policy
                    .pick(&Three(&sol), &pos, &history, &mut rng)?
                    .map(|c| c.mv),
                Some(g) => policy
                    .policy
                    .pick_at(g, &pos, quiet, &history, &mut rng)?
                    .map(|c| c.mv),
            };
            choice.ok_or("no move in an unfinished game")?
        };
        if m.from.is_none() {
            history.clear();
            quiet = 0;
        } else {
            quiet = quiet.saturating_add(1);
        }
        pos = pos.play(m);
        history.push(pos);
        report(&pos, quiet, Some(m.to_string()))?;
    }
    if !json {
        if pos.finished() {
            println!("Game over: {} wins.", name(pos.to_move.other()));
        } else {
            println!(
                "Game over: a draw by the count rule ({} plies without a placement).",
                count.quiet_limit.unwrap_or(0)
            );
        }
    }
    Ok(())
}

/// The next line of standard input, `None` at its end.
fn lines_next() -> Result<Option<String>, CliError> {
    let mut line = String::new();
    if std::io::stdin().lock().read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line))
}
