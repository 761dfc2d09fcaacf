//! The perfect player's move-choice policies and the match harness
//! (`mill::duel`, `solver <game> duel`): every policy plays only moves of
//! the best value (checked against the move values of the game's own
//! probing code, `family::values::move_values`, `three::solve::Solution::
//! moves` and `analysis::Analyst`, at every position of random games), and
//! `ultra` scores more than `random` against the ε-random opponent.

mod common;

use common::cli::run_cli;
use mill::duel::games::{Family, Nine, Three};
use mill::duel::{duel, seeded, DuelOptions, Opponent, Policy, Solved};
use mill::probe::analysis::{Analyst, SearchOptions};
use mill::probe::nine::Tablebases;
use mill::probe::values::move_values;
use mill::rules::board::Six;
use mill::rules::position::Position;
use mill::rules::variant::RuleSet;
use mill::tables::solve::Solution;
use rand_free::Walk;
use tablebase::retro::Silent;
use tablebase::Value;

/// A seeded walk through a game: uniformly random legal moves (its own
/// xorshift generator, apart from the library's).
mod rand_free {
    pub struct Walk(pub u64);

    impl Walk {
        pub fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }
}

fn policies(names: &[&str]) -> Vec<Policy> {
    names.iter().map(|p| p.parse().unwrap()).collect()
}

/// The policies every game checks (`ultra:2` only on Three Men's Morris:
/// it probes the square of what `ultra` does).
const POLICIES: [&str; 4] = ["fast", "random", "ultra", "ultra:1:softmax=0.5"];

/// Walk `games` random games of `game`; at every position ask every policy
/// for its move and check it with `best(pos, move)`: `Some(true)` when the
/// move is legal and of the best value.
fn check_policies<G: Solved>(
    game: &G,
    games: u32,
    all: &[Policy],
    best: impl Fn(&G::Position, G::Move) -> bool,
) -> usize {
    let mut walk = Walk(0x9E37_79B9_7F4A_7C15);
    let mut rng = seeded(11);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = game.start();
        let mut history = vec![pos];
        for _ in 0..120 {
            if game.finish(&pos).is_some() {
                break;
            }
            let moves = game.moves(&pos).unwrap();
            for policy in all {
                let k = policy
                    .choose(game, &pos, &moves, &history, &mut rng)
                    .unwrap();
                assert!(best(&pos, moves[k].mv), "{policy} gave up value");
                checked += 1;
            }
            pos = game.play(&pos, moves[walk.below(moves.len())].mv);
            history.push(pos);
        }
    }
    checked
}

fn six_solution(stones: u8) -> (RuleSet, Solution<Six>) {
    let rules = RuleSet::new(stones, true);
    let sol = Solution::<Six>::solve(rules, true, &Silent, |_| {}).unwrap();
    (rules, sol)
}

#[test]
fn six_policies_never_give_up_value() {
    let (rules, sol) = six_solution(4);
    let game = Family::<Six, _>::new(&sol, rules);
    let checked = check_policies(&game, 10, &policies(&POLICIES), |pos, m| {
        let values = move_values(&sol, rules, pos);
        let top = values.iter().map(|&(_, v)| v).max().unwrap();
        // Placement positions: the tables know outcomes only.
        let same = |a: Value, b: Value| {
            if pos.placing() {
                a.outcome() == b.outcome()
            } else {
                a == b
            }
        };
        values.iter().any(|&(mv, v)| mv == m && same(v, top))
    });
    assert!(checked > 1000, "{checked}");
}

#[test]
fn three_policies_never_give_up_value() {
    let sol = mill::games::three::solve::Solution::solve().unwrap();
    let game = Three(&sol);
    let mut all = policies(&POLICIES);
    all.extend(policies(&["ultra:2", "ultra:3:softmax=0.25"]));
    let checked = check_policies(&game, 200, &all, |pos, m| {
        let values = sol.moves(pos);
        let top = values[0].1;
        values.iter().any(|&(mv, v)| mv == m && v == top)
    });
    assert!(checked > 3000, "{checked}");
}

/// The 4-stone game of Nine Men's Morris (every table, `--placement`):
/// the policies, `secval` included, against the analysis of `nine probe`.
#[test]
fn nine_policies_never_give_up_value() {
    let dir = std::env::temp_dir().join(format!("duel-nine4-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let (_, ok) = run_cli(&[
        "nine",
        "generate",
        "--stones",
        "4",
        "--placement",
        "--dir",
        d,
        "--quiet",
    ]);
    assert!(ok);
    let tb = Tablebases::open(&dir, mill::rules::variant::RuleSet::nine(true)).unwrap();
    let start: Position = "........................ w 4 4".parse().unwrap();
    let malom = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/malom");
    let mut game = Nine::new(&tb).from(start);
    let mut all = policies(&POLICIES);
    if malom.join("std.secval").exists() {
        game = game.with_secval(&malom).unwrap();
        all.push(Policy::SectorValue);
    } else {
        eprintln!("{} absent: secval not checked", malom.display());
    }
    let mut analyst = Analyst::new(&tb, SearchOptions::default());
    let analyst = std::sync::Mutex::new(&mut analyst);
    let checked = check_policies(&game, 6, &all, |pos, m| {
        let a = analyst.lock().unwrap().analyse(pos).unwrap();
        let top = a.moves[0];
        a.moves
            .iter()
            .any(|mv| mv.mv == m && mv.value == top.value && (mv.dtc == top.dtc))
    });
    assert!(checked > 300, "{checked}");
    let (out, ok) = run_cli(&[
        "nine", "duel", "--stones", "4", "--dir", d, "--games", "40", "--json",
    ]);
    assert!(ok);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["games"], 40);
    std::fs::remove_dir_all(&dir).ok();
}

/// Against ε = 0.2 on Six Men's Morris with 4 stones (a draw), `ultra`
/// scores more than `random`: the 95 % intervals of 400 games each do not
/// meet (measured: 0.935 against 0.819, seed 3).
#[test]
fn ultra_beats_random_on_six() {
    let (rules, sol) = six_solution(4);
    assert_eq!(sol.value(&Position::start(rules)), Some(Value::DRAW));
    let game = Family::<Six, _>::new(&sol, rules);
    let run = |policy: &str| {
        let options = DuelOptions {
            policy: policy.parse().unwrap(),
            opponent: Opponent::Epsilon(0.2),
            games: 400,
            seed: 3,
        };
        duel(&game, &options).unwrap()
    };
    let (ultra, random) = (run("ultra"), run("random"));
    assert_eq!(ultra.tally.games(), 400);
    assert_eq!(ultra.white.games(), 200);
    // A perfect player never loses a drawn game.
    assert_eq!(ultra.tally.losses + random.tally.losses, 0);
    assert!(
        ultra.interval[0] > random.interval[1],
        "ultra {:?} vs random {:?}",
        ultra.interval,
        random.interval
    );
}

/// `solver three duel --json`: the counts add up, and a seed gives the
/// same match again; `secval` needs Malom's sector values (Nine only).
#[test]
fn three_duel_cli() {
    let args = [
        "three",
        "duel",
        "--policy",
        "ultra",
        "--opponent",
        "softmax=0.5",
        "--games",
        "300",
        "--seed",
        "5",
        "--json",
    ];
    let (a, ok) = run_cli(&args);
    assert!(ok);
    let (b, _) = run_cli(&args);
    let strip = |s: &str| {
        let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
        v.as_object_mut().unwrap().remove("seconds");
        v
    };
    let (a, b) = (strip(&a), strip(&b));
    assert_eq!(a, b);
    let n = |k: &str| a[k].as_u64().unwrap();
    assert_eq!(n("wins") + n("draws") + n("losses"), 300);
    assert_eq!(a["white"]["wins"], 150, "White wins Three Men's Morris");
    let (_, ok) = run_cli(&["three", "duel", "--policy", "secval", "--games", "2"]);
    assert!(!ok);
    let (_, ok) = run_cli(&["three", "duel", "--opponent", "epsilon=2"]);
    assert!(!ok);
}

/// `solver lasker duel` and `solver morabaraba duel` over the 4-stone
/// games' tables (written by `generate`): against a perfect opponent
/// (`epsilon=0`) every game ends in the start's value as `probe` gives it
/// (a draw on both boards), against an erring one the perfect player never
/// scores below it; a missing game is a clear error.
#[test]
fn lasker_and_morabaraba_duel_cli() {
    let root = std::env::temp_dir().join(format!("duel-cli-{}", std::process::id()));
    for (game, generate) in [
        ("lasker", &["generate", "--quiet"][..]),
        ("morabaraba", &["generate", "--placement", "--quiet"][..]),
    ] {
        let dir = root.join(game);
        let dir = dir.to_str().unwrap();
        let table = ["--stones", "4", "--dir", dir];
        let args: Vec<&str> = [game]
            .iter()
            .chain(generate)
            .chain(&table)
            .copied()
            .collect();
        let (out, ok) = run_cli(&args);
        assert!(ok, "{game} generate: {out}");
        let (out, ok) = run_cli(&[&[game, "probe", "--json"][..], &table].concat());
        assert!(ok, "{game} probe: {out}");
        let start: serde_json::Value = serde_json::from_str(&out).unwrap();
        let value = start["value"].as_str().unwrap().to_string();
        let (w, d, l) = match value.as_str() {
            "draw" => (0, 1, 0),
            v if v.starts_with("win") => (1, 0, 0),
            _ => (0, 0, 1),
        };
        let duel = |opponent: &str| -> serde_json::Value {
            let cmd = [
                game,
                "duel",
                "--games",
                "40",
                "--opponent",
                opponent,
                "--json",
            ];
            let (out, ok) = run_cli(&[&cmd[..], &table].concat());
            assert!(ok, "{game} duel: {out}");
            serde_json::from_str(&out).unwrap()
        };
        let exact = duel("epsilon=0");
        for side in ["white", "black"] {
            let n = |k: &str| exact[side][k].as_u64().unwrap();
            // The start's value is White's; Black's games score the
            // policy from the other side.
            let (w, l) = if side == "white" { (w, l) } else { (l, w) };
            assert_eq!(
                (n("wins"), n("draws"), n("losses")),
                (20 * w, 20 * d, 20 * l),
                "{game}: {side} against a perfect opponent, start {value}"
            );
        }
        let erring = duel("epsilon=0.3");
        let floor = if value == "draw" { 0.5 } else { 0.0 };
        assert!(
            erring["score"].as_f64().unwrap() >= floor,
            "{game}: {erring}"
        );
        if value == "draw" {
            assert_eq!(erring["losses"], 0, "{game}: {erring}");
        }
        let (out, ok) = run_cli(&[game, "duel", "--stones", "5", "--dir", dir, "--games", "2"]);
        assert!(
            !ok,
            "{game}: a duel of the 5-stone game without its tables: {out}"
        );
    }
    std::fs::remove_dir_all(&root).ok();
}

/// Under `--quiet-limit` the duel and `play` keep the count: the 4-stone
/// game on Six's board under a 10-ply count (a draw from the start) has
/// games drawn by the count rule and none by the 100-ply rule, reported in
/// `--json`; `play` shows the count and declares the draw at the limit.
#[test]
fn six_duel_and_play_under_the_count_rule() {
    let dir = std::env::temp_dir().join(format!("duel-six4-q10-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let common = ["--stones", "4", "--quiet-limit", "10", "--dir", d];
    let (_, ok) = run_cli(&[&["six", "generate", "--quiet"][..], &common].concat());
    assert!(ok);
    let (out, ok) = run_cli(&[&["six", "duel", "--games", "60", "--json"][..], &common].concat());
    assert!(ok);
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["quiet_limit"], 10);
    assert_eq!(r["quiet_draws"], 0);
    assert!(r["count_draws"].as_u64().unwrap() > 0, "{out}");
    assert_eq!(r["losses"], 0);
    // Every game in which the perfect player stood at a win (at its count)
    // it won: none drawn by the count.
    assert!(r["stood_to_win"].as_u64().unwrap() > 0, "{out}");
    assert_eq!(r["wins_let_slip"], 0, "{out}");
    assert_eq!(r["stood_to_win"], r["wins"], "{out}");
    let (out, ok) = run_cli(&[&["six", "duel", "--games", "20"][..], &common].concat());
    assert!(
        ok && out.contains("by the count rule (10 quiet plies)"),
        "{out}"
    );
    // Nine quiet plies played; the perfect player (White) moves without a
    // removal, and the tenth quiet ply draws the game.
    let position = "WW.BBBWB.W...... w 0 0";
    let (out, ok) = common::cli::run_cli_with_input(
        &[
            &["six", "play", "--human", "black", "--quiet-plies", "9"][..],
            &common,
            &[position],
        ]
        .concat(),
        "quit\n",
    );
    assert!(ok);
    assert!(
        out.contains("count 9/10") && out.contains("count 10/10"),
        "{out}"
    );
    assert!(out.contains("Game over: a draw by the count rule"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `nine play` under `--quiet-limit`: the count is shown, the perfect
/// player moves without a removal from 9 quiet plies of 10, and the game
/// is drawn by the count rule.
#[test]
fn nine_play_under_the_count_rule() {
    let dir = std::env::temp_dir().join(format!("duel-nine3-q10-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let rule = ["--quiet-limit", "10", "--dir", d];
    let (_, ok) = run_cli(&[&["nine", "generate", "--stones", "3", "--quiet"][..], &rule].concat());
    assert!(ok);
    let (out, ok) = common::cli::run_cli_with_input(
        &[
            &["nine", "play", "--human", "black", "--quiet-plies", "9"][..],
            &rule,
            &["WWW.BBB................. w 0 0"],
        ]
        .concat(),
        "quit\n",
    );
    assert!(ok);
    assert!(
        out.contains("count 9/10") && out.contains("count 10/10"),
        "{out}"
    );
    assert!(out.contains("Game over: a draw by the count rule"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Three Men's Morris under `--quiet-limit` (solved in memory under the
/// rule): the duel has games drawn by the count and every game the
/// perfect player stood to win at its count it won; `play` shows the
/// count and ends the game at the limit.
#[test]
fn three_duel_and_play_under_the_count_rule() {
    let (out, ok) = run_cli(&[
        "three",
        "duel",
        "--games",
        "100",
        "--quiet-limit",
        "6",
        "--json",
    ]);
    assert!(ok, "{out}");
    let r: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["quiet_limit"], 6);
    assert!(r["count_draws"].as_u64().unwrap() > 0, "{out}");
    // White wins the game from the empty board: as White the perfect
    // player never loses (as Black it may, the start being lost).
    assert_eq!(r["white"]["losses"], 0, "{out}");
    assert!(r["stood_to_win"].as_u64().unwrap() > 0, "{out}");
    assert_eq!(r["wins_let_slip"], 0, "{out}");
    assert_eq!(r["stood_to_win"], r["wins"], "{out}");
    // One quiet ply played of 3: the human's slide and the perfect
    // player's answer reach the limit, a draw (the position is a loss
    // for White without the rule, in more plies than the rule leaves).
    let (out, ok) = common::cli::run_cli_with_input(
        &[
            "three",
            "play",
            "WWBW...BB w 0 0",
            "--quiet-limit",
            "3",
            "--quiet-plies",
            "1",
        ],
        "a3-b2\nquit\n",
    );
    assert!(ok, "{out}");
    assert!(
        out.contains("count 1/3") && out.contains("count 3/3"),
        "{out}"
    );
    assert!(out.contains("Game over: a draw by the count rule"), "{out}");
}
