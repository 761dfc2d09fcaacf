//! The puzzle finder's exact verdicts against the endgame share tables: on
//! positions with 6 stones on the board (kazans set so that 162 stones are
//! in play), the finder — proving every move by the exact endgame solver,
//! without tables — reports a puzzle exactly when the tables (an
//! independent retrograde analysis) say that one move wins and no other
//! does, or that nothing wins and one move alone draws, and names that move.

use std::path::PathBuf;
use std::sync::Arc;
use toguz::egtb::database::{generate, Quiet};
use toguz::egtb::index::{Layer, Tuzdyks};
use toguz::egtb::Tables;
use toguz::endgame::GameResult;
use toguz::puzzles::{Finder, Kind, Options, Proof};
use toguz::Board;

/// What the tables say the position's puzzle is: the kind and the move.
fn oracle(tables: &Tables, b: &Board) -> Option<(Kind, u8)> {
    if b.outcome().is_some() || b.move_count() < 2 {
        return None;
    }
    let mut results = Vec::new();
    for m in 0..9u8 {
        if !b.is_legal(m) {
            continue;
        }
        let child = b.after(m);
        let r = match child.outcome() {
            Some(o) => match o.sign_for(child.side) {
                1 => GameResult::Win,
                0 => GameResult::Draw,
                _ => GameResult::Loss,
            },
            None => tables.result(&child).unwrap().expect("in the tables"),
        };
        // The child's result is its mover's, the opponent of `b`'s.
        let mine = match r {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        };
        results.push((m + 1, mine));
    }
    let only = |r: GameResult| {
        let v: Vec<u8> = results
            .iter()
            .filter(|(_, x)| *x == r)
            .map(|&(h, _)| h)
            .collect();
        (v.len() == 1).then(|| v[0])
    };
    let wins = results
        .iter()
        .filter(|(_, r)| *r == GameResult::Win)
        .count();
    match (wins, only(GameResult::Win), only(GameResult::Draw)) {
        (1, Some(h), _) => Some((Kind::Win, h)),
        (0, _, Some(h)) => Some((Kind::Draw, h)),
        _ => None,
    }
}

#[test]
fn exact_puzzles_are_the_tables_single_saving_moves() {
    let dir: PathBuf = std::env::temp_dir().join(format!("toguz-puzzles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    generate(&dir, 6, &Quiet).expect("share tables up to 6 stones");
    let tables = Arc::new(Tables::open(&dir).unwrap());
    let calibration = toguz::chances::builtin();
    let mut finder = Finder::new(Options::default(), None, calibration).unwrap();
    let (mut examined, mut wins, mut draws) = (0, 0, 0);
    for tuzdyks in Tuzdyks::all().take(3) {
        let layer = Layer { stones: 6, tuzdyks };
        let step = (layer.size() / 700).max(1);
        for slot in (0..layer.size()).step_by(step as usize) {
            let Some(holes) = layer.holes(slot) else {
                continue;
            };
            let t = layer.board(holes);
            for kazans in [[78, 78], [79, 77], [77, 79]] {
                let b = Board::from_parts(t.holes, kazans, t.tuzdyk, t.side);
                let expected = oracle(&tables, &b);
                let found = finder.examine(&b).unwrap();
                let got = found.as_ref().map(|f| (f.kind, f.solution));
                assert_eq!(got, expected, "position {b}");
                if let Some(f) = found {
                    assert_eq!(f.proof, Proof::Solver, "position {b}");
                    assert_eq!(f.moves[0].hole, f.solution);
                    assert!(f.margin > 0.0, "position {b}: margin {}", f.margin);
                    match f.kind {
                        Kind::Win => wins += 1,
                        Kind::Draw => draws += 1,
                    }
                }
                examined += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{examined} positions: {wins} win puzzles, {draws} draw puzzles");
    // The check is not vacuous: both kinds occur among the positions.
    assert!(examined > 3000, "{examined} positions");
    assert!(wins > 0 && draws > 0, "{wins} win and {draws} draw puzzles");
}
