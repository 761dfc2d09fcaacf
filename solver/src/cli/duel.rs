//! `solver <game> duel`: the perfect player with a move-choice policy
//! against a fallible opponent ([`mill::duel`]), and the `--policy` option
//! of the verbs where the perfect player moves. Written once for every
//! game: each game's module passes its [`Solved`] game.

use super::{print_json, CliResult};
use mill::duel::{duel, seeded, ChaCha8Rng, DuelOptions, DuelReport, Opponent, Policy, Solved};
use serde_json::json;
use std::time::Instant;

/// Options of a `duel` verb.
#[derive(clap::Args, Debug, Clone)]
pub struct DuelArgs {
    /// The perfect player's choice among its moves of the best value:
    /// fast (the first in move order), random, ultra (the move most likely
    /// to make the opponent err; ultra:K looks K opponent moves ahead,
    /// ultra:K:MODEL assumes another opponent), secval (Malom's sector
    /// values; Nine Men's Morris only).
    #[arg(long, default_value = "ultra")]
    pub policy: Policy,
    /// The fallible opponent: epsilon=E (a random legal move with
    /// probability E, else a random best move) or softmax=T (moves weighted
    /// by exp(utility / T), utility from value and distance).
    #[arg(long, default_value = "epsilon=0.2")]
    pub opponent: Opponent,
    /// Games from the start, half with each colour.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Seed of the random numbers (a match is reproducible from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The `--policy` option of the verbs where the perfect player moves
/// (`play`, `probe`, `start`).
#[derive(clap::Args, Debug, Clone)]
pub struct PolicyArgs {
    /// Which of the best moves the perfect player picks: fast (default:
    /// the first in move order), random, ultra[:K[:MODEL]] or secval (see
    /// `duel --help`).
    #[arg(long, default_value = "fast")]
    pub policy: Policy,
    /// Seed of the policy's random choices.
    #[arg(long = "policy-seed", default_value_t = 1)]
    pub seed: u64,
    /// Directory of Malom's `std.secval` (for `--policy secval`, Nine
    /// Men's Morris).
    #[arg(
        long = "policy-malom",
        value_name = "DIR",
        default_value = "../shared/data/malom"
    )]
    pub malom: std::path::PathBuf,
}

impl PolicyArgs {
    /// The generator of the policy's random choices.
    pub fn rng(&self) -> ChaCha8Rng {
        seeded(self.seed)
    }

    /// Is this today's default (`fast`), so that the verb answers as before?
    pub fn is_default(&self) -> bool {
        self.policy == Policy::Fast
    }
}

/// Run a match of `game` (named `name` in the report) and print it.
pub fn run<G: Solved + Sync>(name: &str, game: &G, args: &DuelArgs, json_out: bool) -> CliResult {
    let options = DuelOptions {
        policy: args.policy,
        opponent: args.opponent,
        games: args.games,
        seed: args.seed,
    };
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let started = Instant::now();
    let report = duel(game, &options)?;
    let seconds = started.elapsed().as_secs_f64();
    if json_out {
        let mut doc = serde_json::to_value(&report)?;
        if let Some(map) = doc.as_object_mut() {
            map.insert("game".into(), json!(name));
            map.insert("seconds".into(), json!(seconds));
            map.insert("quiet_limit".into(), json!(game.quiet_limit()));
        }
        return print_json(&doc);
    }
    print_report(name, &report, seconds, game.quiet_limit());
    Ok(())
}

fn print_report(name: &str, r: &DuelReport, seconds: f64, quiet_limit: Option<u16>) {
    println!(
        "{name}: policy {} against {}, {} games from the start (seed {}), {seconds:.1} s",
        r.policy, r.opponent, r.games, r.seed
    );
    println!(
        "{:<14} {:>8} {:>8} {:>8} {:>8}",
        "policy side", "wins", "draws", "losses", "score"
    );
    for (label, t) in [("White", &r.white), ("Black", &r.black), ("both", &r.tally)] {
        println!(
            "{label:<14} {:>8} {:>8} {:>8} {:>8.4}",
            t.wins,
            t.draws,
            t.losses,
            t.score()
        );
    }
    println!(
        "score {:.4}, 95 % interval {:.4}..{:.4}",
        r.score, r.interval[0], r.interval[1]
    );
    println!(
        "stood at a win in {} games and let {} of them slip",
        r.stood_to_win, r.wins_let_slip
    );
    match quiet_limit {
        None => println!(
            "{:.1} plies and {:.2} opponent errors a game; drawn by repetition {}, by 50 quiet moves {}",
            r.mean_plies, r.mean_errors, r.repetitions, r.quiet_draws
        ),
        Some(limit) => println!(
            "{:.1} plies and {:.2} opponent errors a game; drawn by repetition {}, by the count rule ({limit} quiet plies) {}",
            r.mean_plies, r.mean_errors, r.repetitions, r.count_draws
        ),
    }
}
