//! `solver six` subcommands: Six Men's Morris (16 points, 6 stones) through
//! the family engine ([`mill::games`]), flying on or off. The
//! verbs are written once, generic over the board, for the family's
//! variants to share.

use super::duel::PolicyArgs;
use super::CliError;
use super::{print_json, CliResult};
use clap::Subcommand;
use mill::games::report;
use mill::probe::analysis::{Analysis, Source};
use mill::probe::count::Count;
pub(crate) use mill::probe::values::Values;
use mill::probe::values::{analyse_at, best_move_at};
use mill::rules::board::{Board, Six};
use mill::rules::position::{Color, Move, Position};
use mill::rules::variant::RuleSet;
use mill::rules::{
    self, divide, draw, ending, format_position, legal_moves, move_text, parse_position, Ending,
};
use mill::tables::files;
use mill::tables::keys::TableId;
use mill::tables::solve::Solution;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;
use tablebase::retro::Silent;
use tablebase::{Outcome, Value};

/// Arguments of `solver six`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

/// Options every `solver six` verb shares.
#[derive(clap::Args, Debug, Clone)]
pub struct Common {
    /// Play without flying (a side with 3 stones slides like any other).
    /// Six Men's Morris sources do not fix the rule: both are supported.
    #[arg(long)]
    pub no_flying: bool,
    /// The game with K stones a side instead of the variant's own count (6
    /// for Six Men's Morris, 12 for Morabaraba, 10 for Lasker Morris); its
    /// tables are named apart (`six-flying-5-…`, `lasker-flying-4-…`).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(3..=12))]
    pub stones: Option<u8>,
    /// The count rule: the game is drawn once PLIES plies in a row pass
    /// without a removal or a placement (100 is "fifty moves",
    /// docs/rules.md). Its tables are files of their own (`-qPLIES` in
    /// the name), written by `generate --quiet-limit PLIES`; without it
    /// endless play is a draw and nothing else is.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u16).range(1..=10000))]
    pub quiet_limit: Option<u16>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `show`: a position and the common options.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// Position text; the start position when omitted.
    pub position: Vec<String>,
    #[command(flatten)]
    pub common: Common,
}

/// Arguments of `perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies (a move with its removal is one ply).
    pub depth: u32,
    /// Position text; the start position when omitted.
    pub position: Vec<String>,
    #[command(flatten)]
    pub common: Common,
}

/// Options of the verbs that use the tablebase directory.
#[derive(clap::Args, Debug, Clone)]
pub struct TableArgs {
    /// Tablebase directory.
    #[arg(long, default_value = "six-tables")]
    pub dir: PathBuf,
    #[command(flatten)]
    pub common: Common,
}

/// A colour on the command line.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl Side {
    /// The colour.
    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// The game options of every mill board's `play` verb.
#[derive(clap::Args, Debug, Clone)]
pub struct GameArgs {
    /// The colour you play.
    #[arg(long, value_enum, default_value = "white")]
    pub human: Side,
    /// Starting position text; the start position when omitted.
    pub position: Vec<String>,
    /// Stop after this many plies (a drawn game never ends by itself).
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Under --quiet-limit: plies already played without a removal or a
    /// placement when the game starts (the count rule's count; the game is
    /// drawn once it reaches the limit).
    #[arg(long, value_name = "Q", default_value_t = 0)]
    pub quiet_plies: u16,
    #[command(flatten)]
    pub policy: super::duel::PolicyArgs,
}

/// Arguments of `solver six play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub tables: TableArgs,
}

/// Subcommands of `solver six`.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Draw a position (16 characters W, B or . in reading order a5 c5 e5
    /// b4 c4 d4 a3 b3 d3 e3 b2 c2 d2 a1 c1 e1, side to move, hands) and list
    /// its legal moves.
    Show(ShowArgs),
    /// Count the leaves of the game tree to DEPTH plies (a finished game is
    /// a leaf), with the count below each first move.
    Perft(PerftArgs),
    /// Solve the whole game (moving phase, then placement) and write every
    /// table to the directory.
    Generate {
        #[command(flatten)]
        tables: TableArgs,
        /// Worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// No per-table lines.
        #[arg(long)]
        quiet: bool,
        #[command(flatten)]
        only: super::plan::OnlyArgs,
    },
    /// The table graph of `generate` (one job: the whole game is solved in
    /// memory at once), its files, estimated memory and CPU (`--json` for
    /// the Snakemake workflow).
    Plan {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        progress: super::plan::ProgressArgs,
    },
    /// Per-table counts (positions, wins, draws, losses, longest win) of a
    /// directory.
    Stats(TableArgs),
    /// Recompute every stored value from its successors and report mismatches.
    Verify(TableArgs),
    /// Value of a position and of each of its moves.
    Probe {
        /// Position text.
        position: Vec<String>,
        #[command(flatten)]
        tables: TableArgs,
        #[command(flatten)]
        policy: super::duel::PolicyArgs,
        /// Under --quiet-limit: plies already played without a removal or
        /// a placement (the count; 0 right after one).
        #[arg(long, value_name = "Q", default_value_t = 0, requires = "quiet_limit")]
        quiet_plies: u16,
    },
    /// Play against the perfect player in the terminal (moves as `c5`,
    /// `c5-c4`, `c5-c4xe1`).
    Play(PlayArgs),
    /// The value of the start position and of every opening move; with
    /// --deepest also the deepest win reachable from the start (plies to
    /// the end of the game, computed from the tables).
    Start {
        #[command(flatten)]
        tables: TableArgs,
        /// Also compute the distance to the end of every won or lost
        /// position and the deepest win reachable from the start.
        #[arg(long)]
        deepest: bool,
        #[command(flatten)]
        policy: super::duel::PolicyArgs,
    },
    /// The perfect player with a move-choice policy against a fallible
    /// opponent: N games from the start, both colours, in parallel;
    /// wins, draws, losses and the score with its 95 % interval.
    Duel {
        #[command(flatten)]
        tables: TableArgs,
        #[command(flatten)]
        duel: super::duel::DuelArgs,
    },
}

/// Run a `solver six` subcommand.
pub fn run(args: Args) -> CliResult {
    match args.command {
        Command::Show(a) => show::<Six>(&a, rules::<Six>(&a.common)),
        Command::Perft(a) => perft::<Six>(&a, rules::<Six>(&a.common)),
        Command::Generate {
            tables,
            threads,
            quiet,
            only,
        } => {
            if let Some(key) = &only.only {
                let plan = mill::tables::plan::small_board::<Six>(rules::<Six>(&tables.common));
                super::plan::ready(&plan, key, &tables.dir)?;
            }
            generate::<Six>(&tables, threads, quiet)
        }
        Command::Plan { common, progress } => {
            let plan = mill::tables::plan::small_board::<Six>(rules::<Six>(&common));
            super::plan::print(
                "six",
                &common_options(&common),
                &plan,
                common.json,
                &progress,
            )
        }
        Command::Stats(t) => stats::<Six>(&t),
        Command::Verify(t) => verify::<Six>(&t),
        Command::Probe {
            position,
            tables,
            policy,
            quiet_plies,
        } => probe::<Six>(&position, &tables, &policy, quiet_plies),
        Command::Start {
            tables,
            deepest,
            policy,
        } => start::<Six>(&tables, deepest, &policy),
        Command::Play(args) => play::<Six>(&args),
        Command::Duel { tables, duel } => run_duel::<Six>(&tables, &duel),
    }
}

/// The rule options of `common` as `generate` takes them (what `plan
/// --json` reports).
pub(crate) fn common_options(common: &Common) -> String {
    let mut out = Vec::new();
    if common.no_flying {
        out.push("--no-flying".to_string());
    }
    if let Some(k) = common.stones {
        out.push(format!("--stones {k}"));
    }
    out.join(" ")
}

/// The standard rule set of board `B`'s variant, with flying as asked.
pub(crate) fn rules<B: Board>(common: &Common) -> RuleSet {
    let stones = match B::NAME {
        "six" => 6,
        "morabaraba" => 12,
        _ => 9,
    };
    RuleSet::new(common.stones.unwrap_or(stones), !common.no_flying)
        .with_quiet_limit(common.quiet_limit)
}

pub(crate) fn position<B: Board>(words: &[String], rules: RuleSet) -> Result<Position, CliError> {
    if words.is_empty() {
        Ok(Position::start(rules))
    } else {
        parse_position::<B>(&words.join(" "), rules)
            .map_err(|e| CliError::input(format!("bad position: {e}")))
    }
}

pub(crate) fn side(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

pub(crate) fn ending_text(e: Ending) -> String {
    report::ending_text(e)
}

pub(crate) fn show<B: Board>(args: &ShowArgs, rules: RuleSet) -> CliResult {
    let (words, common) = (&args.position, &args.common);
    let pos = position::<B>(words, rules)?;
    let moves: Vec<String> = legal_moves::<B>(&pos, rules)
        .into_iter()
        .map(move_text::<B>)
        .collect();
    let over = ending::<B>(&pos, rules);
    if common.json {
        return print_json(&report::show_json::<B>(&pos, rules));
    }
    print!("{}", draw::<B>(&pos));
    println!("{}", format_position::<B>(&pos));
    println!(
        "{} to move; in hand: White {}, Black {}; flying {}",
        side(pos.to_move),
        pos.hand[0],
        pos.hand[1],
        if rules.flying { "on" } else { "off" }
    );
    match over {
        Some(e) => println!("Game over: {}.", ending_text(e)),
        None => println!("{} legal moves: {}", moves.len(), moves.join(" ")),
    }
    Ok(())
}

pub(crate) fn perft<B: Board>(args: &PerftArgs, rules: RuleSet) -> CliResult {
    let (depth, words, common) = (args.depth, &args.position, &args.common);
    let pos = position::<B>(words, rules)?;
    let started = Instant::now();
    let split = divide::<B>(&pos, rules, depth);
    let total = if split.is_empty() {
        rules::perft::<B>(&pos, rules, depth)
    } else {
        split.iter().map(|(_, n)| n).sum()
    };
    let seconds = started.elapsed().as_secs_f64();
    if common.json {
        let moves: serde_json::Map<String, serde_json::Value> = split
            .iter()
            .map(|(m, n)| (move_text::<B>(*m), json!(n)))
            .collect();
        return print_json(&json!({
            "position": format_position::<B>(&pos),
            "depth": depth,
            "flying": rules.flying,
            "leaves": total,
            "moves": moves,
            "seconds": seconds,
        }));
    }
    print!("{}", draw::<B>(&pos));
    println!("{}", format_position::<B>(&pos));
    for (m, n) in &split {
        println!("{:<10} {n}", move_text::<B>(*m));
    }
    println!("perft {depth}: {total} leaves ({seconds:.3} s)");
    Ok(())
}

fn table_name(id: TableId) -> String {
    match id {
        TableId::Moving(s) => format!("moving {}-{}", s.us, s.them),
        TableId::Placement(s) => format!(
            "placement {}-{} in hand {}-{}",
            s.us, s.them, s.us_hand, s.them_hand
        ),
    }
}

fn generate<B: Board>(args: &TableArgs, threads: Option<usize>, quiet: bool) -> CliResult {
    let rules = rules::<B>(&args.common);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()?;
    let started = Instant::now();
    let json = args.common.json;
    let sol = pool.install(|| {
        Solution::<B>::solve(rules, true, &Silent, |r| {
            if !quiet && !json {
                println!(
                    "{:<32} {:>10} slots  W {:>9} D {:>9} L {:>9}  longest win {:>3}  {:.2} s",
                    table_name(r.id),
                    r.slots,
                    r.wdl[0],
                    r.wdl[1],
                    r.wdl[2],
                    r.longest_win,
                    r.seconds
                );
            }
        })
    });
    let sol = sol?;
    let solved = started.elapsed().as_secs_f64();
    let bytes = pool.install(|| files::write::<B>(&args.dir, &sol))?;
    let slots: u64 = sol.reports.iter().map(|r| r.slots).sum();
    let start = sol.value(&Position::start(rules));
    if json {
        return print_json(&json!({
            "variant": B::NAME,
            "flying": rules.flying,
            "tables": sol.reports.len(),
            "slots": slots,
            "bytes": bytes,
            "seconds": solved,
            "peak_memory_bytes": tablebase::memory::peak_resident_bytes(),
            "start": start.map(|v| v.to_string()),
        }));
    }
    println!(
        "{} tables, {slots} slots solved in {solved:.1} s; {bytes} bytes written to {}",
        sol.reports.len(),
        args.dir.display()
    );
    if let Some(m) = tablebase::memory::peak_resident_bytes() {
        println!("Peak memory: {}", tablebase::memory::mib(m));
    }
    if let Some(v) = start {
        println!("Start position: {v}");
    }
    Ok(())
}

fn load<B: Board>(args: &TableArgs) -> Result<(RuleSet, Solution<B>), CliError> {
    let rules = rules::<B>(&args.common);
    let sol = files::load::<B>(&args.dir, rules)?;
    Ok((rules, sol))
}

/// The name of a game in a match's report: `NAME (K stones, flying on)`.
pub(crate) fn game_name(name: &str, rules: RuleSet) -> String {
    format!(
        "{name} ({} stones, flying {})",
        rules.stones,
        if rules.flying { "on" } else { "off" }
    )
}

/// `solver <family game> duel` over the game's tables.
pub(crate) fn run_duel<B: Board>(tables: &TableArgs, args: &super::duel::DuelArgs) -> CliResult {
    let (rules, sol) = load::<B>(tables)?;
    let name = game_name(B::NAME, rules);
    let game = mill::duel::games::Family::<B, _>::new(&sol, rules);
    super::duel::run(&name, &game, args, tables.common.json)
}

fn stats<B: Board>(args: &TableArgs) -> CliResult {
    let rules = rules::<B>(&args.common);
    let doc = report::solution_stats_json::<B>(&args.dir, rules)?;
    if args.common.json {
        return print_json(&doc);
    }
    print_stats_table(&doc);
    Ok(())
}

/// A `stats --json` document as a table: one line a table and the total;
/// under the count rule its wins, draws and losses at a count of zero and
/// the cursed wins and blessed losses beside them.
pub(crate) fn print_stats_table(doc: &serde_json::Value) {
    let counted = doc.get("quiet_limit").is_some();
    let n = |row: &serde_json::Value, key: &str| row[key].as_u64().unwrap_or(0);
    let line = |name: &str, row: &serde_json::Value, longest: String| {
        let mut text = format!(
            "{:<36} {:>10} {:>10} {:>10} {:>10} {:>5} {:>10}",
            name,
            n(row, "positions"),
            n(row, "wins"),
            n(row, "draws"),
            n(row, "losses"),
            longest,
            n(row, "bytes")
        );
        if counted {
            // Unknown without the tables without the rule.
            let changed = |key: &str| row[key].as_u64().map_or("-".to_string(), |v| v.to_string());
            text += &format!(
                " {:>10} {:>10}",
                changed("cursed_wins"),
                changed("blessed_losses")
            );
        }
        println!("{text}");
    };
    if let Some(limit) = doc.get("quiet_limit") {
        println!(
            "Under the count rule of {limit} quiet plies, at a count of zero (cursed: won without the count, drawn with it; blessed: lost without it, drawn with it; `-`: the table without the rule is not in the directory)."
        );
    }
    let mut head = format!(
        "{:<36} {:>10} {:>10} {:>10} {:>10} {:>5} {:>10}",
        "table", "positions", "wins", "draws", "losses", "win", "bytes"
    );
    if counted {
        head += &format!(" {:>10} {:>10}", "cursed", "blessed");
    }
    println!("{head}");
    for row in doc["tables"].as_array().into_iter().flatten() {
        let longest = row["longest_win"]
            .as_u64()
            .map_or(String::new(), |d| d.to_string());
        line(row["table"].as_str().unwrap_or("?"), row, longest);
    }
    line("total", doc, String::new());
}

fn verify<B: Board>(args: &TableArgs) -> CliResult {
    let (rules, sol) = load::<B>(args)?;
    let started = Instant::now();
    let report = sol.verify()?;
    let checked: u64 = report.iter().map(|r| r.1).sum();
    let bad: u64 = report.iter().map(|r| r.2).sum();
    let seconds = started.elapsed().as_secs_f64();
    if args.common.json {
        print_json(&mill::games::report::verify_json(
            B::NAME,
            rules,
            rules.stones,
            report.len(),
            [checked, bad],
            seconds,
        ))?;
    } else {
        for (id, n, b) in &report {
            if *b > 0 {
                println!("{}: {b} of {n} values differ", table_name(*id));
            }
        }
        println!(
            "{} tables, {checked} values recomputed from their successors, {bad} mismatches ({seconds:.1} s)",
            report.len()
        );
    }
    if bad > 0 {
        Err(CliError::Failed(format!(
            "{bad} stored values differ from their recomputation"
        )))
    } else {
        Ok(())
    }
}

fn start<B: Board>(args: &TableArgs, deepest: bool, policy: &PolicyArgs) -> CliResult {
    if !deepest {
        return probe::<B>(&[], args, policy, 0);
    }
    let (rules, sol) = load::<B>(args)?;
    let started = Instant::now();
    let depths = sol.depths()?;
    let win = sol.deepest_reachable_win(&depths)?;
    let seconds = started.elapsed().as_secs_f64();
    let start = Position::start(rules);
    let value = sol
        .value(&start)
        .ok_or("the start position's table is missing")?;
    if args.common.json {
        return print_json(&json!({
            "variant": B::NAME,
            "stones": rules.stones,
            "flying": rules.flying,
            "start": value.outcome().as_str(),
            "reachable_positions": win.reachable,
            "deepest_reachable_win_plies": win.plies,
            "deepest_reachable_win_position": format_position::<B>(&win.position),
            "deepest_reachable_moving_phase_win_plies": win.moving_plies,
            "deepest_win_plies": win.any_plies,
            "deepest_win_position": format_position::<B>(&win.any_position),
            "seconds": seconds,
        }));
    }
    print_position_value(&sol, None, rules, &start, false, None, 0)?;
    println!(
        "{} positions reachable from the start (any play); the deepest reachable win takes {} plies to the end of the game with best play ({} in the moving phase alone):",
        win.reachable, win.plies, win.moving_plies
    );
    print!("{}", draw::<B>(&win.position));
    println!("{}", format_position::<B>(&win.position));
    println!(
        "The deepest win of all positions, reachable or not: {} plies:",
        win.any_plies
    );
    print!("{}", draw::<B>(&win.any_position));
    println!("{}", format_position::<B>(&win.any_position));
    println!("({seconds:.1} s)");
    Ok(())
}

fn probe<B: Board>(
    words: &[String],
    args: &TableArgs,
    policy: &PolicyArgs,
    plies: u16,
) -> CliResult {
    let (rules, sol) = load::<B>(args)?;
    let pos = position::<B>(words, rules)?;
    let plain = plain_tables(rules, |r| files::load::<B>(&args.dir, r));
    print_position_value(
        &sol,
        plain.as_ref(),
        rules,
        &pos,
        args.common.json,
        Some(policy),
        plies,
    )
}

/// The move `policy` plays in `pos` after `quiet` quiet plies (the count
/// rule's count; through [`mill::duel`]), `None` when the game is over.
pub(crate) fn policy_move<B: Board>(
    sol: &impl Values<B>,
    rules: RuleSet,
    pos: &Position,
    quiet: u16,
    history: &[Position],
    policy: &PolicyArgs,
    rng: &mut mill::duel::ChaCha8Rng,
) -> Result<Option<(mill::rules::position::Move, Value)>, CliError> {
    let game = mill::duel::games::Family::<B, _>::new(sol, rules);
    Ok(policy
        .policy
        .pick_at(&game, pos, quiet, history, rng)?
        .map(|c| (c.mv, c.value)))
}

fn play<B: Board>(args: &PlayArgs) -> CliResult {
    let (rules, sol) = load::<B>(&args.tables)?;
    play_with::<B>(&args.game, rules, &sol)
}

/// A game in the terminal against the perfect player of `sol`: the human
/// types moves, the program answers with a best move (fastest win, then a
/// draw, then the slowest loss) and its value ([`play_game`]).
pub(crate) fn play_with<B: Board>(
    args: &GameArgs,
    rules: RuleSet,
    sol: &impl Values<B>,
) -> CliResult {
    let mut rng = args.policy.rng();
    play_game::<B>(args, rules, &mut |pos, quiet, history| {
        let chosen = if args.policy.is_default() {
            best_move_at(sol, rules, pos, quiet)
        } else {
            policy_move::<B>(sol, rules, pos, quiet, history, &args.policy, &mut rng)?
        };
        let Some((m, v)) = chosen else {
            return Ok(None);
        };
        // Placement tables and searches know outcomes, not distances.
        let value = if sol.has_distance(&pos.apply(m)) {
            v.to_string()
        } else {
            v.outcome().as_str().to_string()
        };
        Ok(Some((m, value)))
    })
}

/// The program's side of [`play_game`]: its move at a position after a
/// number of quiet plies, with the positions since the last placement or
/// removal (for `ultra`), and the move's value in words; `None` when no
/// move has a value.
pub(crate) type Player<'a> =
    dyn FnMut(&Position, u16, &[Position]) -> Result<Option<(Move, String)>, CliError> + 'a;

/// The one game loop of every mill board's `play`: the board drawn before
/// every move; the human types moves (a bad one is reported and asked
/// again; `quit`, `q` or the end of the input stop), `program` answers
/// ("White plays d6-d5 (win in 7)"); the game ends by the rules ("Black
/// has no legal move and loses; White wins."), at `max_plies`, or under a
/// count rule at its limit, the count shown before every move
/// (`count 37/100`).
pub(crate) fn play_game<B: Board>(
    args: &GameArgs,
    rules: RuleSet,
    program: &mut Player<'_>,
) -> CliResult {
    use std::io::{BufRead, Write};
    let mut pos = position::<B>(&args.position, rules)?;
    let human = args.human.color();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    // Positions since the last placement or removal (for `ultra`).
    let mut history = vec![pos];
    // Quiet plies played (the count rule's count; a placement position's
    // is zero).
    let mut quiet = if pos.placing() { 0 } else { args.quiet_plies };
    Count::of(rules, quiet).map_err(|e| CliError::from(e.to_string()))?;
    let mut plies = 0;
    loop {
        print!("{}", draw::<B>(&pos));
        println!("{}", format_position::<B>(&pos));
        // At most the limit: the game ends there.
        let count = Count::of(rules, quiet).unwrap_or(None);
        if let Some(c) = count {
            println!("count {}/{}", c.plies, c.limit);
        }
        match ending::<B>(&pos, rules) {
            Some(Ending::Loss(o)) => {
                println!(
                    "Game over: {} has {} and loses; {} wins.",
                    side(pos.to_move),
                    o.describe(),
                    side(pos.to_move.other())
                );
                return Ok(());
            }
            Some(e) => {
                println!("Game over: {}.", ending_text(e));
                return Ok(());
            }
            None => {}
        }
        if let Some(c) = count.filter(|c| c.expired()) {
            println!(
                "Game over: a draw by the count rule ({} plies without a removal or a placement).",
                c.limit
            );
            return Ok(());
        }
        if plies == args.max_plies {
            println!("{plies} plies played: stopped (a draw by agreement).");
            return Ok(());
        }
        let m = if pos.to_move == human {
            print!("Your move ({}), or `quit`: ", side(human));
            std::io::stdout().flush()?;
            let Some(line) = lines.next() else {
                println!();
                return Ok(());
            };
            let line = line?;
            let text = line.trim();
            if text == "quit" || text == "q" {
                return Ok(());
            }
            match mill::rules::notation::parse_move::<B>(&pos, rules, text) {
                Ok(m) => m,
                Err(e) => {
                    println!("{e}");
                    continue;
                }
            }
        } else {
            let (m, value) =
                program(&pos, quiet, &history)?.ok_or("no move has a value in the tables")?;
            println!(
                "{} plays {} ({value})",
                side(pos.to_move),
                move_text::<B>(m)
            );
            m
        };
        if m.from().is_none() || m.removal().is_some() {
            history.clear();
            quiet = 0;
        } else {
            quiet = quiet.saturating_add(1);
        }
        pos = pos.apply(m);
        history.push(pos);
        plies += 1;
    }
}

/// Value of `pos` and of every move, from the side to move's view: the
/// [`Analysis`] of `sol`, as JSON or in words; with a `policy` other than
/// the default, also the move it picks. Under a count rule, `plain` (the
/// same game's tables without it, when the directory has them) marks the
/// cursed wins and blessed losses.
#[allow(clippy::too_many_arguments)]
pub(crate) fn print_position_value<B: Board, V: Values<B>>(
    sol: &V,
    plain: Option<&V>,
    rules: RuleSet,
    pos: &Position,
    json: bool,
    policy: Option<&PolicyArgs>,
    plies: u16,
) -> CliResult {
    let choice = match policy.filter(|p| !p.is_default()) {
        Some(p) => policy_move::<B>(sol, rules, pos, plies, &[], p, &mut p.rng())?
            .map(|(m, _)| (p.policy.to_string(), move_text::<B>(m))),
        None => None,
    };
    let a = analyse_at(sol, rules, pos, plies)?;
    let before = plain.and_then(|p| analyse_at(p, rules.with_quiet_limit(None), pos, 0).ok());
    print_analysis(&a, before.as_ref(), rules, json, choice)
}

/// The tables of `rules` without its count rule, when `rules` has one and
/// `load` finds them (to mark what the rule changed); `None` otherwise.
pub(crate) fn plain_tables<V, E>(
    rules: RuleSet,
    load: impl FnOnce(RuleSet) -> Result<V, E>,
) -> Option<V> {
    rules.quiet_limit?;
    load(rules.with_quiet_limit(None)).ok()
}

/// Where a position stands in the count rule, in words.
pub(crate) fn count_text(c: mill::probe::count::Count) -> String {
    if c.expired() {
        format!(
            "Count rule: {} quiet plies of {}: the game is drawn.",
            c.plies, c.limit
        )
    } else {
        format!(
            "Count rule: {} quiet plies of {} played; a win or loss stands only within the {} left.",
            c.plies,
            c.limit,
            c.left()
        )
    }
}

/// An analysis as JSON (`--json`) or in words, with the move a policy
/// picks (`(policy, move)`) when one was asked for.
pub(crate) fn print_analysis<B: Board>(
    a: &Analysis<B>,
    plain: Option<&Analysis<B>>,
    rules: RuleSet,
    json: bool,
    choice: Option<(String, String)>,
) -> CliResult {
    if json {
        let mut doc = a.to_json();
        if let Some(p) = plain {
            mill::games::count::mark(&mut doc, &p.to_json());
        }
        if let Some((p, m)) = &choice {
            doc["choice"] = json!({"policy": p, "move": m});
        }
        return print_json(&doc);
    }
    let (label, labels) = plain.map_or((None, Vec::new()), |p| a.labels(p));
    let pos = &a.position;
    print!("{}", draw::<B>(pos));
    println!("{}", format_position::<B>(pos));
    println!(
        "{} to move, flying {}: {}{}{}",
        side(pos.to_move),
        if rules.flying { "on" } else { "off" },
        outcome_text(a.value, a.dtc),
        label_text(label, true),
        match a.source {
            Source::Search => " (by the placement search: no placement table holds it)",
            Source::Tables if pos.placing() => " (from the placement tables)",
            _ => "",
        }
    );
    if let Some(c) = a.count {
        println!("{}", count_text(c));
    }
    if let Some(e) = ending::<B>(pos, rules) {
        println!("Game over: {}.", ending_text(e));
    }
    for (i, m) in a.moves.iter().enumerate() {
        println!(
            "  {:<12} {}{}",
            move_text::<B>(m.mv),
            outcome_text(m.value, m.dtc),
            label_text(labels.get(i).copied().flatten(), false)
        );
    }
    if a.dtc.is_some() {
        println!(
            "(distances in plies to the next {}removal or the end of the game)",
            if rules.interleave { "placement, " } else { "" }
        );
    }
    if let Some((p, m)) = &choice {
        println!("The {p} policy plays {m}.");
    }
    Ok(())
}

/// What the count rule made of a value, after it in words: ` (a cursed
/// win: a win without the count rule)` for the position (`whole`), ` (cursed
/// win)` for a move; empty for no label.
pub(crate) fn label_text(label: Option<mill::probe::count::Label>, whole: bool) -> String {
    use mill::probe::count::Label;
    match (label, whole) {
        (None, _) => String::new(),
        (Some(Label::CursedWin), true) => " (a cursed win: a win without the count rule)".into(),
        (Some(Label::BlessedLoss), true) => {
            " (a blessed loss: a loss without the count rule)".into()
        }
        (Some(l), false) => format!(" ({})", l.words()),
    }
}

/// An outcome and its distance in words: "win in 5", "draw", "loss".
pub(crate) fn outcome_text(o: Outcome, dtc: Option<u16>) -> String {
    match (o, dtc) {
        (Outcome::Draw, _) => "draw".to_string(),
        (o, Some(d)) => format!("{} in {d}", o.as_str()),
        (o, None) => o.as_str().to_string(),
    }
}
