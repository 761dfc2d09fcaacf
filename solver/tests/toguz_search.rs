//! Search checks against independent computations: a naive negamax written
//! here, the rules' own game end, and the determinism of one thread.

use toguz::eval::{evaluate, EvalParams};
use toguz::search::{Config, Engine, Features, Limits, MATE};
use toguz::{Board, Outcome};

/// Plain negamax over all moves, same terminal scoring as the engine.
fn negamax(b: &Board, depth: i32, ply: i32, eval: &EvalParams) -> i32 {
    if let Some(o) = b.outcome() {
        return match o {
            Outcome::Draw => 0,
            Outcome::Win(s) if s == b.side => MATE - ply,
            Outcome::Win(_) => -MATE + ply,
        };
    }
    if depth == 0 {
        return evaluate(b, eval);
    }
    (0..9)
        .filter(|&m| b.is_legal(m))
        .map(|m| -negamax(&b.after(m), depth - 1, ply + 1, eval))
        .max()
        .expect("a position that is not over has a move")
}

/// Positions reached by pseudo-random play from the start.
fn positions(count: usize, plies: usize) -> Vec<Board> {
    let mut x: u64 = 0xDEAD_BEEF_1234_5677;
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Board::start();
        for _ in 0..plies {
            let legal: Vec<u8> = (0..9).filter(|&m| b.is_legal(m)).collect();
            if legal.is_empty() {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            b.make(legal[(x % legal.len() as u64) as usize]);
        }
        if b.outcome().is_none() {
            out.push(b);
        }
    }
    out
}

fn single(depth: i32) -> Limits {
    Limits {
        depth: Some(depth),
        threads: 1,
        ..Limits::default()
    }
}

#[test]
fn pvs_with_ordering_equals_negamax() {
    let config = Config {
        features: Features {
            tt: false,
            quiescence: false,
            lmr: false,
            ..Features::ALL
        },
        endgame_stones: 0,
        tt_mb: 1,
        // The hand-set evaluation, which the negamax below calls.
        learned: None,
        nnue: None,
        ..Config::default()
    };
    for (i, b) in positions(12, 10).iter().enumerate() {
        let depth = 4 + (i % 2) as i32;
        let mut engine = Engine::new(config);
        let r = engine.search(b, &single(depth), &mut |_| {});
        assert_eq!(r.score, negamax(b, depth, 0, &config.eval), "position {b}");
        // The best move's subtree has the root score.
        let m = r.best.expect("move") - 1;
        assert_eq!(-negamax(&b.after(m), depth - 1, 1, &config.eval), r.score);
    }
}

#[test]
fn single_thread_is_deterministic() {
    let b = Board::start();
    let run = || {
        let mut e = Engine::new(Config {
            tt_mb: 8,
            ..Config::default()
        });
        e.search(&b, &single(9), &mut |_| {})
    };
    let (r1, r2) = (run(), run());
    let key = |r: &toguz::search::SearchResult| {
        r.iterations
            .iter()
            .map(|i| (i.depth, i.score, i.pv.clone(), i.nodes, i.main_nodes))
            .collect::<Vec<_>>()
    };
    assert_eq!(key(&r1), key(&r2));
    assert_eq!(r1.best, r2.best);
    assert_eq!(r1.depth, 9);
}

#[test]
fn finds_a_winning_capture() {
    // White has 78; playing hole 9 (6 stones) lands on Black's hole 5 (odd
    // count 3 + 1 = 4: even capture) and reaches 82.
    let b: Board = "1,0,0,0,0,0,0,0,6/1,1,1,1,3,1,1,1,1 w 78,66 -,-"
        .parse()
        .expect("position");
    let mut e = Engine::new(Config::default());
    let r = e.search(&b, &single(6), &mut |_| {});
    assert_eq!(r.best, Some(9));
    assert_eq!(r.score, MATE - 1);
    let after = b.after(8);
    assert_eq!(after.outcome(), Some(Outcome::Win(toguz::Side::White)));
}

/// Result (+1/0/-1 for the side to move) by full-width search to the end,
/// `None` if it depends on a line longer than `depth`.
fn brute(b: &Board, depth: u32) -> Option<i32> {
    if let Some(o) = b.outcome() {
        return Some(match o {
            Outcome::Draw => 0,
            Outcome::Win(s) if s == b.side => 1,
            Outcome::Win(_) => -1,
        });
    }
    if depth == 0 {
        return None;
    }
    let mut best = Some(-1);
    for m in (0..9).filter(|&m| b.is_legal(m)) {
        match brute(&b.after(m), depth - 1) {
            Some(v) if -v == 1 => return Some(1),
            Some(v) => best = best.map(|x: i32| x.max(-v)),
            None => best = None,
        }
    }
    best
}

#[test]
fn endgame_reports_exact_result() {
    use toguz::endgame::GameResult;
    use toguz::Side;
    let mut checked = 0;
    let mut x: u64 = 0x1234_5678_9ABC_DEF1;
    for round in 0..300 {
        // 6 stones scattered, kazans near 81 each.
        let mut holes = [0u8; 18];
        for _ in 0..6 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            holes[(x % 18) as usize] += 1;
        }
        let w = 76 + round % 7;
        let b = Board::from_parts(holes, [w as u8, (156 - w) as u8], [255, 255], Side::White);
        if b.outcome().is_some() {
            continue;
        }
        let Some(truth) = brute(&b, 12) else { continue };
        let mut e = Engine::new(Config {
            tt_mb: 1,
            ..Config::default()
        });
        let r = e.search(&b, &single(2), &mut |_| {});
        let exact = r.exact.expect("6 stones are solved");
        let expected = match truth {
            1 => GameResult::Win,
            0 => GameResult::Draw,
            _ => GameResult::Loss,
        };
        assert_eq!(exact.result, expected, "position {b}");
        // The reported best move keeps the result.
        let m = r.best.expect("move") - 1;
        if let Some(v) = brute(&b.after(m), 11) {
            assert_eq!(-v, truth, "best move of {b}");
        }
        checked += 1;
        if checked == 30 {
            break;
        }
    }
    assert_eq!(checked, 30, "only {checked} endgames checked");
}

#[test]
fn two_threads_reach_the_depth_with_a_legal_move() {
    let b = positions(1, 20)[0];
    let mut e = Engine::new(Config {
        tt_mb: 8,
        ..Config::default()
    });
    let r = e.search(
        &b,
        &Limits {
            depth: Some(9),
            threads: 2,
            ..Limits::default()
        },
        &mut |_| {},
    );
    assert_eq!(r.depth, 9);
    assert!(b.is_legal(r.best.expect("move") - 1));
}

#[test]
fn cli_json_exact_counts_holes_from_one_and_says_win_draw_loss() {
    // White's only stones are the two in hole 9: its only move, and the
    // endgame is solved at once; the CLI says it as the web API does.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(["toguz", "search", "--time", "0.2", "--no-tables", "--json"])
        .arg("0,0,0,0,0,0,0,0,2/0,0,0,0,0,0,0,0,2 w 79,79 -,-")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["best"], 9, "{json}");
    let exact = &json["exact"];
    assert!(exact.is_object(), "no exact result: {json}");
    assert_eq!(exact["best"], 9, "{json}");
    let result = exact["result"].as_str().unwrap();
    assert!(["win", "draw", "loss"].contains(&result), "{json}");
}
