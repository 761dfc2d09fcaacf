//! Lasker Morris through the family engine, checked against a separate,
//! simple implementation of the rules written here from the text of
//! `docs/rules.md` ("Lasker Morris": the Nine Men's Morris board from its
//! picture and mill list, 10 stones, a side with stones in hand places or
//! moves, flying at 3 stones on the board plus in hand): perft from the
//! start and from hand-made positions, and the solved tables of the
//! reduced games (K stones a side) sector by sector against a
//! definition-level fixpoint over every position of the sector pair.
//!
//! The sector check takes the values of the moves that leave a pair (a
//! placement or a removal) from the tables of the pairs solved before and
//! recomputes everything inside the pair by definition; checked for every
//! sector, in the solver's order, it proves the whole game by induction.
//!
//! The generator on disk (`solver lasker generate`: Nine Men's Morris's
//! symmetry-reduced index, pair by pair, exits read from the files) is
//! checked against that in-memory dense solution: every position of the
//! 3-stone game here, of the 4- and 5-stone games with `--ignored`; its
//! positions against Burnside's count of the board's symmetry classes.

mod common;

use common::cli::{run_cli, run_cli_with_input};
use common::oracle::{self, Board as Board24};
use mill::games::lasker::files;
use mill::games::lasker::sector::{sectors, LaskerSector};
use mill::games::lasker::solve::LaskerSolution;
use mill::games::lasker::tables;
use mill::rules;
use mill::rules::board::{Board, Nine};
use mill::rules::position::{Color, Position};
use mill::rules::variant::RuleSet;
use mill::tables::files::FilesError;
use mill::tables::solve::Solution;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tablebase::retro::Silent;
use tablebase::{Outcome, Value};

/// The oracle's board: Nine Men's Morris's 16 lines of `docs/rules.md`, each a
/// mill whose consecutive points are adjacent.
fn board24() -> Board24 {
    Board24::from_lines(&oracle::NINE_LINES, &oracle::READING_24)
}

/// A position, mover-relative: cells 0 empty, 1 the side to move, 2 the
/// opponent; hands `[mover, opponent]`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct State {
    cells: [u8; 24],
    hand: [u8; 2],
}

/// A successor: a state with the opponent to move, or a game won on the
/// spot (the opponent keeps fewer than 3 stones).
#[derive(Debug)]
enum Next {
    State {
        state: State,
        /// A placement or a removal: the move leaves the sector pair.
        converts: bool,
    },
    Won,
}

impl State {
    fn count(&self, who: u8) -> usize {
        self.cells.iter().filter(|&&c| c == who).count()
    }

    fn in_mill(&self, board: &Board24, p: usize) -> bool {
        let c = self.cells[p];
        board
            .mills
            .iter()
            .any(|m| m.contains(&p) && m.iter().all(|&q| self.cells[q] == c))
    }

    /// The state seen from the other side.
    fn flipped(&self) -> State {
        let mut cells = self.cells;
        for c in cells.iter_mut() {
            *c = [0, 2, 1][*c as usize];
        }
        State {
            cells,
            hand: [self.hand[1], self.hand[0]],
        }
    }

    /// Every move, one entry per move and removal, from the rule text.
    fn successors(&self, board: &Board24) -> Vec<Next> {
        let mine = self.count(1) + self.hand[0] as usize;
        if mine < 3 {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut moved = |s: State, to: usize, placement: bool| {
            if s.in_mill(board, to) && s.count(2) > 0 {
                let theirs: Vec<usize> = (0..24).filter(|&p| s.cells[p] == 2).collect();
                let free: Vec<usize> = theirs
                    .iter()
                    .copied()
                    .filter(|&p| !s.in_mill(board, p))
                    .collect();
                for p in if free.is_empty() { theirs } else { free } {
                    let mut t = s.clone();
                    t.cells[p] = 0;
                    if t.count(2) + (t.hand[1] as usize) < 3 {
                        out.push(Next::Won);
                    } else {
                        out.push(Next::State {
                            state: t.flipped(),
                            converts: true,
                        });
                    }
                }
            } else {
                out.push(Next::State {
                    state: s.flipped(),
                    converts: placement,
                });
            }
        };
        if self.hand[0] > 0 {
            for to in 0..24 {
                if self.cells[to] == 0 {
                    let mut s = self.clone();
                    s.cells[to] = 1;
                    s.hand[0] -= 1;
                    moved(s, to, true);
                }
            }
        }
        let flies = mine == 3;
        for from in 0..24 {
            if self.cells[from] != 1 {
                continue;
            }
            for to in 0..24 {
                if self.cells[to] == 0 && (flies || board.neighbours[from].contains(&to)) {
                    let mut s = self.clone();
                    s.cells[from] = 0;
                    s.cells[to] = 1;
                    moved(s, to, false);
                }
            }
        }
        out
    }

    /// The engine's position (the side to move plays White).
    fn position(&self, board: &Board24) -> Position {
        let g = Nine::geometry();
        let mut stones = [0u32; 2];
        for p in 0..24 {
            if self.cells[p] > 0 {
                stones[self.cells[p] as usize - 1] |= 1 << g.point(board.names[p]).unwrap();
            }
        }
        Position {
            stones,
            hand: self.hand,
            to_move: Color::White,
        }
    }
}

fn oracle_perft(s: &State, board: &Board24, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let next = s.successors(board);
    if next.is_empty() {
        return 1;
    }
    next.iter()
        .map(|n| match n {
            Next::Won => 1,
            Next::State { state, .. } => oracle_perft(state, board, depth - 1),
        })
        .sum()
}

fn state(board: &Board24, mover: &[&str], opponent: &[&str], hand: [u8; 2]) -> State {
    let mut cells = [0; 24];
    for n in mover {
        cells[board.at(n)] = 1;
    }
    for n in opponent {
        cells[board.at(n)] = 2;
    }
    State { cells, hand }
}

#[test]
fn perft_matches_the_oracle() {
    let board = board24();
    let rules = RuleSet::lasker(10);
    let positions = [
        (state(&board, &[], &[], [10, 10]), 5),
        // Both sides with stones in hand and on the board, mills to close.
        (
            state(
                &board,
                &["a7", "d7", "b4", "e3"],
                &["a1", "d1", "f4"],
                [6, 7],
            ),
            3,
        ),
        // 1 on the board and 2 in hand: the mover flies (3 in all); the
        // opponent, 3 on the board and 2 in hand, slides.
        (state(&board, &["d6"], &["a4", "b4", "d5"], [2, 2]), 3),
        // A mill closes while the opponent has no stone on the board.
        (state(&board, &["a7", "d7", "f6"], &[], [1, 4]), 3),
        // Every opponent stone in a mill: any of them may go.
        (
            state(
                &board,
                &["b6", "d6", "e4"],
                &["c5", "d5", "e5", "b2"],
                [0, 0],
            ),
            3,
        ),
    ];
    for (s, depth) in &positions {
        let pos = s.position(&board);
        pos.validate::<Nine>(rules).unwrap();
        let text = rules::format_position::<Nine>(&pos);
        assert_eq!(rules::parse_position::<Nine>(&text, rules).unwrap(), pos);
        for d in 1..=*depth {
            assert_eq!(
                rules::perft::<Nine>(&pos, rules, d),
                oracle_perft(s, &board, d),
                "{text} depth {d}"
            );
        }
    }
}

/// Every position of the sector pair of `sector`, enumerated from the
/// rule text (the mover's stones, then the opponent's, on free points).
fn pair_states(sector: LaskerSector) -> Vec<State> {
    fn place(cells: &mut [u8; 24], from: usize, n: usize, who: u8, f: &mut dyn FnMut(&[u8; 24])) {
        if n == 0 {
            return f(cells);
        }
        for p in from..24 {
            if cells[p] == 0 {
                cells[p] = who;
                place(cells, p + 1, n - 1, who, f);
                cells[p] = 0;
            }
        }
    }
    let mut out = Vec::new();
    let mut parts = vec![sector];
    if sector.swapped() != sector {
        parts.push(sector.swapped());
    }
    for s in parts {
        let hand = [s.us_hand, s.them_hand];
        place(&mut [0; 24], 0, s.us as usize, 1, &mut |cells| {
            place(&mut cells.clone(), 0, s.them as usize, 2, &mut |cells| {
                out.push(State {
                    cells: *cells,
                    hand,
                });
            });
        });
    }
    out
}

/// Check the pair of `sector` against the definition: values of moves that
/// leave the pair come from the solution's tables (or win on the spot);
/// inside the pair a position with a successor lost in d is won in d + 1
/// (the least d), one whose successors all win is lost in 1 + the greatest
/// d, a move that leaves the pair counting as a successor at distance 0; a
/// position never decided is a draw. Returns the positions checked.
fn check_pair(sol: &LaskerSolution<Nine>, board: &Board24, sector: LaskerSector) -> usize {
    let states = pair_states(sector);
    let ids: HashMap<State, usize> = states
        .iter()
        .enumerate()
        .map(|(i, s)| (s.clone(), i))
        .collect();
    // Per position: successors inside the pair, and the outcomes (for the
    // side to move) of the moves leaving it.
    let mut inside: Vec<Vec<u32>> = Vec::with_capacity(states.len());
    // (a move leaving wins, one draws, one loses)
    let mut outside: Vec<(bool, bool, bool)> = Vec::with_capacity(states.len());
    for s in &states {
        let (mut list, mut win, mut draw, mut loss) = (Vec::new(), false, false, false);
        for n in s.successors(board) {
            match n {
                Next::Won => win = true,
                Next::State {
                    state,
                    converts: false,
                } => list.push(ids[&state] as u32),
                Next::State {
                    state,
                    converts: true,
                } => {
                    let v = sol.value(&state.position(board)).expect("exit table");
                    match v.outcome() {
                        Outcome::Loss => win = true,
                        Outcome::Draw => draw = true,
                        Outcome::Win => loss = true,
                    }
                }
            }
        }
        inside.push(list);
        outside.push((win, draw, loss));
    }
    // value: Some((won, distance)).
    let mut value: Vec<Option<(bool, u32)>> = (0..states.len())
        .map(|i| {
            let (win, _, loss) = outside[i];
            if win {
                Some((true, 1))
            } else if inside[i].is_empty() && !outside[i].1 {
                Some((false, if loss { 1 } else { 0 }))
            } else {
                None
            }
        })
        .collect();
    let mut level = 1;
    loop {
        let mut changed = Vec::new();
        for (p, s) in inside.iter().enumerate() {
            if value[p].is_some() {
                continue;
            }
            if s.iter()
                .any(|&q| value[q as usize] == Some((false, level - 1)))
            {
                changed.push((p, (true, level)));
            } else if !outside[p].1
                && s.iter()
                    .all(|&q| matches!(value[q as usize], Some((true, _))))
            {
                let longest = s
                    .iter()
                    .map(|&q| value[q as usize].unwrap().1)
                    .max()
                    .unwrap();
                if longest == level - 1 {
                    changed.push((p, (false, level)));
                }
            }
        }
        if changed.is_empty() && value.iter().all(|v| v.is_none_or(|(_, d)| d < level)) {
            break;
        }
        for (p, v) in changed {
            value[p] = Some(v);
        }
        level += 1;
    }
    for (s, v) in states.iter().zip(&value) {
        let pos = s.position(board);
        let expected = match v {
            None => Value::DRAW,
            Some((true, d)) => Value::win(*d as u16),
            Some((false, d)) => Value::loss(*d as u16),
        };
        assert_eq!(
            sol.value(&pos),
            Some(expected),
            "{sector:?} {}",
            rules::format_position::<Nine>(&pos)
        );
    }
    states.len()
}

/// The 3-stone game, solved once for the tests of this file.
fn three_stones() -> &'static LaskerSolution<Nine> {
    static SOLUTION: OnceLock<LaskerSolution<Nine>> = OnceLock::new();
    SOLUTION
        .get_or_init(|| LaskerSolution::<Nine>::solve(RuleSet::lasker(3), &Silent, |_| {}).unwrap())
}

/// Check every sector pair of at most `max_slots` slots of a solved game
/// against the definition; returns the positions checked.
fn check_sectors(sol: &LaskerSolution<Nine>, max_slots: u64) -> usize {
    let board = board24();
    let mut checked = 0;
    for s in sectors::<Nine>(sol.rules.stones) {
        if s >= s.swapped() && s.size::<Nine>() <= max_slots {
            checked += check_pair(sol, &board, s);
        }
    }
    checked
}

/// The sectors with both hands empty are the moving phase of Nine Men's
/// Morris with K stones and flying: equal to the family's moving-phase
/// tables of the standard rules (the generic moving-phase generator of
/// `morris::moving`, not Lasker's).
fn check_moving_phase(sol: &LaskerSolution<Nine>) {
    let stones = sol.rules.stones;
    let nine = Solution::<Nine>::solve(RuleSet::new(stones, true), false, &Silent, |_| {}).unwrap();
    let mut compared = 0;
    for (sub, values) in &nine.moving {
        let s = LaskerSector::new(sub.us, sub.them, 0, 0);
        assert!(sol.tables[&s] == *values, "{s:?}");
        compared += 1;
    }
    assert_eq!(compared, (stones as usize - 2).pow(2));
}

/// Every stored value equals its recomputation from its successors.
fn check_verify(sol: &LaskerSolution<Nine>) {
    for (s, n, bad) in sol.verify().unwrap() {
        assert_eq!(bad, 0, "{s:?}: {bad} of {n}");
    }
}

/// The sectors of up to 50,000 slots of the 3-stone game (every sector
/// but the three with 3 stones of one side and 2 or 3 of the other on the
/// board), the start among them.
#[test]
fn three_stone_game_small_sectors_match_the_definition() {
    let sol = three_stones();
    assert_eq!(
        sol.tables.values().map(|t| t.len() as u128).sum::<u128>(),
        mill::games::lasker::sector::positions::<Nine>(3)
    );
    assert!(check_sectors(sol, 50_000) > 50_000);
}

/// Every sector of the 3-stone game (the largest, 3 against 3 on the
/// board, is Nine Men's Morris' flying endgame): by induction over the
/// solving order, the whole game equals the definition.
#[test]
#[ignore = "about 1 min and 1 GB; run with --ignored"]
fn three_stone_game_every_sector_matches_the_definition() {
    let sol = three_stones();
    assert_eq!(
        check_sectors(sol, u64::MAX) as u128,
        sol.tables.values().map(|t| t.len() as u128).sum::<u128>()
    );
    check_verify(sol);
    check_moving_phase(sol);
}

/// The 4-stone game: the sectors of up to 3 million slots against the
/// definition (the others, up to 51 million slots, are too big for the
/// oracle's hash map), every value against its successors.
#[test]
#[ignore = "several minutes and 2 GB; run with --ignored"]
fn four_stone_game_matches_the_definition() {
    let sol = LaskerSolution::<Nine>::solve(RuleSet::lasker(4), &Silent, |_| {}).unwrap();
    assert!(check_sectors(&sol, 3_000_000) > 1_000_000);
    check_verify(&sol);
    check_moving_phase(&sol);
}

/// A fresh directory for a test's tables.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lasker-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Generate the game under `rules` on disk into `dir` (the reduced index).
fn generate_on_disk(dir: &Path, rules: RuleSet) -> Vec<tables::PairReport> {
    tables::generate(dir, rules, &Silent, |_| {}).unwrap()
}

/// Every position of every sector of the dense solution `dense` (each
/// symmetric image apart) against its symmetry class's slot in the files
/// of `dir`: the same value and distance. Returns the positions compared.
fn files_equal_dense(dense: &LaskerSolution<Nine>, dir: &Path) -> u64 {
    let rules = dense.rules;
    let mut compared = 0;
    for s in sectors::<Nine>(rules.stones) {
        let reduced = files::open::<Nine>(dir, rules, s)
            .unwrap()
            .values()
            .unwrap();
        let values = &dense.tables[&s];
        let bad = (0..values.len() as u64)
            .into_par_iter()
            .filter(|&slot| {
                let (us, them) = mill::index::position::<Nine>(s.subspace(), slot);
                reduced[mill::index::nine::index(us, them) as usize] != values[slot as usize]
            })
            .count();
        assert_eq!(bad, 0, "{s:?}: {bad} of {} positions differ", values.len());
        compared += values.len() as u64;
    }
    compared
}

/// Burnside's count of the positions of `(w, b)` stones up to the board's
/// symmetries, from the symmetries of the geometry, not from the index's
/// tables.
fn burnside(w: usize, b: usize) -> u64 {
    oracle::burnside(&Nine::geometry().symmetries, w, b)
}

/// The generator on disk equals the dense solution in memory on every
/// position of the 3-stone game; its files hold one position per symmetry
/// class (Burnside); a second run finds every pair on disk and solves
/// nothing; a pair generated alone (`--only`) writes the same bytes.
#[test]
fn three_stone_game_on_disk_equals_the_dense_solution() {
    let dense = three_stones();
    let dir = temp_dir("reduced3");
    let first = generate_on_disk(&dir, dense.rules);
    assert!(first.iter().all(|r| !r.resumed));
    assert_eq!(
        files_equal_dense(dense, &dir) as u128,
        mill::games::lasker::sector::positions::<Nine>(3)
    );
    for r in &first {
        for p in &r.parts {
            let s = p.sector;
            assert_eq!(
                p.positions,
                burnside(s.us as usize, s.them as usize),
                "{s:?}"
            );
        }
    }
    let again = generate_on_disk(&dir, dense.rules);
    assert!(again.iter().all(|r| r.resumed));
    // One pair alone, its exits from the files: the same bytes.
    let pair = LaskerSector::new(3, 3, 0, 0);
    let path = files::file_name(&dir, dense.rules, pair);
    let before = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let r = tables::generate_pair(&dir, dense.rules, pair, &Silent).unwrap();
    assert!(!r.resumed);
    assert!(std::fs::read(&path).unwrap() == before);
    // A damaged block is found on resumption and the pair solved again.
    let mut bytes = before.clone();
    let n = bytes.len();
    bytes[n - 1] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let third = generate_on_disk(&dir, dense.rules);
    let redone: Vec<_> = third.iter().filter(|r| !r.resumed).collect();
    assert_eq!(redone.len(), 1);
    assert_eq!(redone[0].pair, pair);
    assert!(std::fs::read(&path).unwrap() == before);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same for the 4- or 5-stone game (`LASKER_STONES`, default 4; the
/// 5-stone game: about 30 min of CPU and 4 GB for the dense solution).
#[test]
#[ignore = "4 stones: 2 min of CPU; LASKER_STONES=5: 30 min, 4 GB"]
fn larger_game_on_disk_equals_the_dense_solution() {
    let stones: u8 = std::env::var("LASKER_STONES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    let rules = RuleSet::lasker(stones);
    let dir = temp_dir(&format!("reduced{stones}"));
    generate_on_disk(&dir, rules);
    let dense = LaskerSolution::<Nine>::solve(rules, &Silent, |_| {}).unwrap();
    let compared = files_equal_dense(&dense, &dir);
    assert_eq!(
        compared as u128,
        mill::games::lasker::sector::positions::<Nine>(stones)
    );
    eprintln!("{stones}-stone game: {compared} positions equal");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn files_refuse_another_rule_set() {
    let dir = temp_dir("files");
    let rules = RuleSet::lasker(3);
    generate_on_disk(&dir, rules);
    let s = LaskerSector::new(3, 2, 0, 1);
    // The same file under another stone count, without flying, or as a
    // table of the wrong size is refused.
    for other in [
        RuleSet::lasker(4),
        RuleSet {
            flying: false,
            ..RuleSet::lasker(3)
        },
    ] {
        std::fs::copy(
            files::file_name(&dir, rules, s),
            files::file_name(&dir, other, s),
        )
        .unwrap();
        let err = files::open::<Nine>(&dir, other, s).unwrap_err();
        assert!(
            matches!(
                err,
                FilesError::Set(tablebase::set::SetError::Mismatch { .. })
            ),
            "{err}"
        );
    }
    let wrong = LaskerSector::new(3, 3, 0, 0);
    std::fs::copy(
        files::file_name(&dir, rules, s),
        files::file_name(&dir, rules, wrong),
    )
    .unwrap();
    assert!(matches!(
        files::open::<Nine>(&dir, rules, wrong).unwrap_err(),
        FilesError::Set(tablebase::set::SetError::Mismatch { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A value as the CLI writes it ("win in 5", "draw").
fn six_value_text(v: Value) -> String {
    match (v.outcome(), v.distance()) {
        (Outcome::Draw, _) => "draw".to_string(),
        (o, Some(d)) => format!("{} in {d}", o.as_str()),
        (o, None) => o.as_str().to_string(),
    }
}

#[test]
fn cli_perft_start_and_probe() {
    let board = board24();
    let (out, ok) = run_cli(&["lasker", "perft", "3", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["leaves"].as_u64().unwrap(),
        oracle_perft(&state(&board, &[], &[], [10, 10]), &board, 3)
    );
    // A bad position is one error line and a failure.
    assert!(!run_cli(&["lasker", "show", "WWWWWWWWWWW............. w 0 0"]).1);
    // The 3-stone game's files: the start value is the definition's (the
    // start's sector pair is checked against it above).
    let dir = temp_dir("cli");
    let d = dir.to_str().unwrap();
    let sol = three_stones();
    let (_, ok) = run_cli(&["lasker", "generate", "--stones", "3", "--dir", d, "--quiet"]);
    assert!(ok);
    let start = State {
        cells: [0; 24],
        hand: [3, 3],
    };
    let expected = sol.value(&start.position(&board)).unwrap();
    let (out, ok) = run_cli(&["lasker", "start", "--stones", "3", "--dir", d, "--json"]);
    assert!(ok, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"], expected.outcome().as_str());
    assert_eq!(v["dtc"].as_u64(), expected.distance().map(u64::from));
    assert_eq!(v["moves"].as_array().unwrap().len(), 24);
    let (out, ok) = run_cli(&["lasker", "stats", "--stones", "3", "--dir", d, "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // Every position of the game: for each side 3 stones on the board and
    // in hand, any split, placed on 24 points.
    let choose = |n: u64, k: u64| (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
    let all: u64 = (0..=3u64)
        .flat_map(|a| (0..=3u64).map(move |b| (a, b)))
        .map(|(a, b)| choose(24, a) * choose(24 - a, b))
        .sum();
    assert_eq!(v["game_positions"].as_u64().unwrap(), all);
    // The files hold one position per symmetry class.
    let classes: u64 = (0..=3usize)
        .flat_map(|a| (0..=3usize).map(move |b| (a, b)))
        .map(|(a, b)| burnside(a, b))
        .sum();
    assert_eq!(v["positions"].as_u64().unwrap(), classes);
    // `verify` recomputes every value from the files.
    let (out, ok) = run_cli(&["lasker", "verify", "--stones", "3", "--dir", d, "--json"]);
    assert!(ok, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["mismatches"].as_u64(), Some(0));
    assert_eq!(v["checked"].as_u64(), Some(classes));
    // Tables of another stone count are not there.
    assert!(!run_cli(&["lasker", "start", "--stones", "4", "--dir", d]).1);
    // Play as Black: the program, White, opens with a move that keeps the
    // start's value (the fastest win); `quit` ends the game.
    let (out, ok) = run_cli_with_input(
        &[
            "lasker", "play", "--stones", "3", "--human", "black", "--dir", d,
        ],
        "quit\n",
    );
    assert!(ok, "{out}");
    let opening = out.lines().find(|l| l.starts_with("White plays")).unwrap();
    assert!(
        opening.ends_with(&format!("({})", six_value_text(expected))),
        "{opening}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With both hands empty Lasker Morris is Nine Men's Morris's moving
/// phase, so Malom's standard sectors `std_3_3_0_0`, `std_3_4_0_0` and
/// `std_4_3_0_0` (`../shared/data/malom/`), named as Lasker files, are an
/// independent oracle for our Lasker sectors `3-3-0-0`, `3-4-0-0`,
/// `4-3-0-0`: `malom-compare` finds every position equal, one per
/// symmetry class (Burnside), and finds the tables of the game without
/// flying different (exit status 1).
#[test]
fn malom_compare_on_the_moving_sectors() {
    let malom = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/malom");
    if !malom.join("std_4_3_0_0.sec2").exists() {
        eprintln!("skipped: {} has no std_4_3_0_0.sec2", malom.display());
        return;
    }
    let dir = temp_dir("malom");
    let theirs = dir.join("malom");
    std::fs::create_dir_all(&theirs).unwrap();
    for s in ["3_3", "3_4", "4_3"] {
        std::fs::copy(
            malom.join(format!("std_{s}_0_0.sec2")),
            theirs.join(format!("lask_{s}_0_0.sec2")),
        )
        .unwrap();
    }
    std::fs::copy(malom.join("std.secval"), theirs.join("lask.secval")).unwrap();
    let compare = |rules: RuleSet, flag: Option<&str>| {
        let ours = dir.join(format!("ours-{}", rules.flying));
        for pair in [LaskerSector::new(3, 3, 0, 0), LaskerSector::new(4, 3, 0, 0)] {
            tables::generate_pair(&ours, rules, pair, &Silent).unwrap();
        }
        let mut args = vec![
            "lasker",
            "malom-compare",
            theirs.to_str().unwrap(),
            "--stones",
            "4",
            "--dir",
            ours.to_str().unwrap(),
            "--json",
        ];
        args.extend(flag);
        let (out, ok) = run_cli(&args);
        (serde_json::from_str::<serde_json::Value>(&out).unwrap(), ok)
    };
    let (v, ok) = compare(RuleSet::lasker(4), None);
    assert!(ok, "{v}");
    let classes = burnside(3, 3) + 2 * burnside(4, 3);
    assert_eq!(v["positions"].as_u64(), Some(classes));
    assert_eq!(v["agree"].as_u64(), Some(classes));
    assert_eq!(v["unused_mismatch"].as_u64(), Some(0));
    assert_eq!(v["sectors"].as_array().unwrap().len(), 3);
    let no_flying = RuleSet {
        flying: false,
        ..RuleSet::lasker(4)
    };
    let (v, ok) = compare(no_flying, Some("--no-flying"));
    assert!(!ok, "the game without flying agreed everywhere: {v}");
    assert!(v["disagree"].as_u64().unwrap() > 0);
    // A directory without Malom's files is the user's error.
    let (_, ok) = run_cli(&["lasker", "malom-compare", dir.to_str().unwrap()]);
    assert!(!ok);
    std::fs::remove_dir_all(&dir).unwrap();
}
