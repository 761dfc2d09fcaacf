//! Replays the 1,230 PlayOK games of `../shared/data/toguz/playok-games.pgn`
//! under the rules (skips with a message when the shared data is absent), and
//! checks that the text format round-trips on every position reached.

use std::path::PathBuf;
use toguz::{pgn, Board};

fn record() -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/toguz/playok-games.pgn");
    match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(e) => {
            println!("skipping: cannot read {}: {e}", path.display());
            None
        }
    }
}

#[test]
fn all_playok_games_replay() {
    let Some(text) = record() else { return };
    let games = pgn::parse(&text).expect("record parses");
    assert_eq!(games.len(), 1230);
    let mut failures = Vec::new();
    let mut finished = 0;
    for (i, g) in games.iter().enumerate() {
        match pgn::replay(g) {
            Ok(r) => finished += usize::from(r.outcome.is_some()),
            Err(m) => failures.push(format!("{}: {:?}", g.describe(i), m)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failed: {:?}",
        failures.len(),
        &failures[..failures.len().min(5)]
    );
    // Games marked {zero} end by atsyrau, so at least those end by the rules.
    let zero = games
        .iter()
        .filter(|g| g.comments.iter().any(|c| c == "zero"))
        .count();
    assert!(
        finished >= zero,
        "{finished} finished by rule, {zero} marked zero"
    );
}

#[test]
fn damaged_records_are_caught() {
    let Some(text) = record() else { return };
    let games = pgn::parse(&text).expect("record parses");
    let mut caught = 0;
    for g in games.iter().take(50) {
        // Change the first capture total, then the first landing hole.
        let mut bad = g.clone();
        if let Some(mv) = bad.moves.iter_mut().find(|m| m.contains('(')) {
            *mv = mv.replace('(', "(1");
            assert!(pgn::replay(&bad).is_err(), "altered total not caught");
            caught += 1;
        }
        let mut bad = g.clone();
        let mv = &mut bad.moves[0];
        let landing = mv.as_bytes()[1];
        let other = if landing == b'1' { '2' } else { '1' };
        mv.replace_range(1..2, &other.to_string());
        assert!(pgn::replay(&bad).is_err(), "altered landing not caught");
        caught += 1;
    }
    assert!(caught > 50);
}

#[test]
fn position_text_round_trips_on_game_positions() {
    let Some(text) = record() else { return };
    let games = pgn::parse(&text).expect("record parses");
    let mut checked = 0;
    for g in games.iter().take(200) {
        let mut b = Board::start();
        for mv in &g.moves {
            let hole = mv.as_bytes()[0] - b'1';
            b.make(hole);
            assert_eq!(b.hash(), b.compute_hash());
            let back: Board = b.to_string().parse().expect("own text parses");
            assert_eq!(back, b);
            checked += 1;
        }
    }
    assert!(checked > 10_000);
}

/// `selfplay::record_endgames` (the endgame suites of `toguz match
/// --opening-stones`) against a plain walk of each game: the first
/// position with at most N stones on the board, before its move is made.
#[test]
fn endgame_starts_are_each_games_first_position_under_the_stone_limit() {
    let Some(text) = record() else { return };
    let games = pgn::parse(&text).expect("record parses");
    for limit in [162, 40, 20, 12] {
        let mut want = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for g in &games {
            let mut b = Board::start();
            for m in g.moves.iter().map(Some).chain([None]) {
                if b.outcome().is_some() {
                    break;
                }
                if b.stones_on_board() <= limit {
                    if seen.insert(b.hash()) {
                        want.push(b);
                    }
                    break;
                }
                let Some(m) = m else { break };
                let hole = m.as_bytes()[0] - b'0';
                b.make(hole - 1);
            }
        }
        let got = toguz::selfplay::record_endgames(&games, limit);
        assert_eq!(got.len(), want.len(), "limit {limit}");
        assert!(got == want, "limit {limit}");
        if limit == 162 {
            assert!(got == vec![Board::start()]);
        } else {
            assert!(!got.is_empty() && got.iter().all(|b| b.stones_on_board() <= limit));
        }
    }
}
