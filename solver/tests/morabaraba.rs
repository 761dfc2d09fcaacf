//! Morabaraba's rules layer through the family engine, checked against a
//! separate, simple implementation of the rules written here from the text
//! of `docs/rules.md` (the Nine Men's Morris board plus four diagonal lines,
//! edges and mills; 12 stones; a full board after placement ends the game,
//! `tests/common/oracle.rs`): perft from the start and from hand-made
//! positions; the symmetry-reduced index against Burnside's lemma; the
//! moving-phase tables of the small subspaces against the oracle's forward,
//! definition-level solver; the placement search over those tables
//! against the oracle's solve of the whole 3-stone game and a plain
//! minimax; files refused under another rule set.

mod common;

use common::cli::{run_cli, run_cli_with_input};
use common::oracle::{self, Rules, State};
use mill::games::morabaraba::moving;
use mill::index::symmetric::{self, Symmetric};
use mill::rules::board::{Board, Morabaraba, Six};
use mill::rules::position::Position;
use mill::rules::variant::{FullBoard, RuleSet};
use mill::rules::{self, Ending};
use mill::search::{MoveOrder, PlacementSearch};
use mill::tables::files;
use mill::tables::keys::Subspace;
use mill::tables::keys::TableId;
use mill::tables::outcomes::MovingOutcomes;
use mill::tables::pair::{recompute, MovingPair};
use mill::tables::Size;
use tablebase::retro::{solve, Silent};
use tablebase::{Outcome, Value};

const N: usize = 24;

/// The board of `docs/rules.md`: Nine Men's Morris's lines and the four
/// diagonals, each a mill whose consecutive points are adjacent.
fn board() -> oracle::Board {
    let lines: Vec<[&str; 3]> = oracle::NINE_LINES
        .iter()
        .chain(&oracle::DIAGONALS)
        .copied()
        .collect();
    oracle::Board::from_lines(&lines, &oracle::READING_24)
}

fn model(flying: bool) -> Rules {
    Rules {
        board: board(),
        flying,
    }
}

/// The engine's bit of a point.
fn bit(name: &str) -> u8 {
    Morabaraba::geometry().point(name).unwrap()
}

/// The engine's position of an oracle state.
fn position(s: &State) -> Position {
    s.position(&board(), bit)
}

/// A state from a board picture in the engine's reading order.
fn state(picture: &str, turn: usize, hand: [u8; 2]) -> State {
    State::picture(&board(), picture, turn, hand)
}

#[test]
fn perft_matches_the_oracle() {
    let positions = [
        (State::start(12), 4),
        // Moving phase: a diagonal mill to close (b6 to c5 after a7, b6).
        (state("W..W.B...B.WB...BW..W.B.", 0, [0, 0]), 3),
        // Placement with a diagonal mill ready: a7, b6 placed, c5 empty.
        (state("W..W.B..B..W....B.......", 0, [9, 9]), 3),
        // White flies with three stones.
        (state("W...B..W.B...B....W..B..", 0, [0, 0]), 3),
    ];
    for flying in [true, false] {
        let model = model(flying);
        for (s, depth) in &positions {
            let rules = RuleSet::new(12, flying);
            let pos = position(s);
            pos.validate::<Morabaraba>(rules).unwrap();
            let text = rules::format_position::<Morabaraba>(&pos);
            assert_eq!(
                rules::parse_position::<Morabaraba>(&text, rules).unwrap(),
                pos
            );
            for d in 1..=*depth {
                assert_eq!(
                    rules::perft::<Morabaraba>(&pos, rules, d),
                    oracle::perft(s, &model, d),
                    "{text} depth {d} flying {flying}"
                );
            }
        }
    }
}

#[test]
fn a_full_board_after_placement_is_a_draw() {
    // 23 stones, Black places the last one on the only empty point (g1)
    // without closing a mill: the board is full, White cannot move.
    let s = state("WBWBWBBWBWBWBWBWBWWBWWB.", 1, [0, 1]);
    let rules = RuleSet::new(12, true);
    let pos = position(&s);
    pos.validate::<Morabaraba>(rules).unwrap();
    let moves = rules::legal_moves::<Morabaraba>(&pos, rules);
    assert_eq!(moves.len(), oracle::perft(&s, &model(true), 1) as usize);
    for m in moves {
        let next = pos.apply(m);
        let full = next.stones[0] | next.stones[1] == Morabaraba::FULL;
        // The oracle: no successor from a full board.
        let oracle_next: Vec<State> = s.successors(&model(true));
        assert!(oracle_next.iter().any(|t| position(t) == next));
        if full {
            assert!(oracle_next
                .iter()
                .all(|t| t.successors(&model(true)).is_empty() || t.cells.contains(&0)));
            assert_eq!(
                rules::ending::<Morabaraba>(&next, rules),
                Some(Ending::FullBoardDraw)
            );
        }
    }
}

/// The index's positions of subspace `(w, b)` against Burnside's count.
fn check_burnside(w: usize, b: usize) -> u64 {
    let group = &Morabaraba::geometry().symmetries;
    let sub = Subspace::new(w as u8, b as u8);
    let n = symmetric::positions::<Morabaraba>(sub);
    assert_eq!(n, oracle::burnside(group, w, b), "{sub}");
    n
}

/// The symmetry-reduced index holds one position per orbit: its class
/// counts and the positions of the subspaces up to 6 stones a side and of
/// the full board equal Burnside's count over the board's automorphism
/// group (all subspaces: the ignored test below).
#[test]
fn index_counts_match_burnside() {
    let group = &Morabaraba::geometry().symmetries;
    assert_eq!(group.len(), 16);
    for w in 0..=N {
        assert_eq!(
            symmetric::classes::<Morabaraba>(w) as u64,
            oracle::burnside(group, w, 0),
            "{w} stones"
        );
    }
    for w in 3..=6 {
        for b in 3..=6 {
            check_burnside(w, b);
        }
    }
    check_burnside(12, 12);
    check_burnside(12, 11);
}

#[test]
#[ignore = "about a minute: every subspace's positions counted; run with --ignored"]
fn every_subspace_matches_burnside() {
    let mut total = 0;
    for w in 3..=12 {
        for b in 3..=12 {
            total += check_burnside(w, b);
        }
    }
    // The moving phase of Morabaraba (docs/rules.md: about 1.65 × 10^10).
    assert!((16_400_000_000..16_600_000_000).contains(&total), "{total}");
}

/// Every position, mapped to its canonical image, lands on a used slot that
/// holds that image, for random positions of every subspace.
#[test]
fn canonical_images_have_valid_slots() {
    let mut x: u64 = 0x0123_4567_89AB_CDEF;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for w in 3..=12u32 {
        for b in 3..=12u32 {
            for _ in 0..200 {
                // Random w points for us, then b of the rest for them.
                let (mut us, mut them) = (0u32, 0u32);
                while us.count_ones() < w {
                    us |= 1 << (next() % 24);
                }
                while them.count_ones() < b {
                    let p = next() % 24;
                    if us >> p & 1 == 0 {
                        them |= 1 << p;
                    }
                }
                let sub = Subspace::of(us, them);
                let slot = symmetric::slot::<Morabaraba>(us, them);
                assert!(slot < symmetric::size::<Morabaraba>(sub));
                let (cu, ct) = symmetric::canonical::<Morabaraba>(us, them);
                assert_eq!(symmetric::position::<Morabaraba>(sub, slot), Some((cu, ct)));
                // The canonical image is an image.
                assert!((0..16).any(|op| Morabaraba::transform(op, us) == cu
                    && Morabaraba::transform(op, them) == ct));
            }
        }
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("morabaraba-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The tables of every subspace with 3..=`max` stones a side equal the
/// oracle's forward, definition-level solve, position by position (every
/// position of the dense space, looked up through its canonical slot),
/// outcome and distance to conversion; and every used slot is met.
fn tables_match_the_forward_solver(max: u8, flying: bool) {
    let dir = temp_dir(&format!("forward-{max}-{flying}"));
    let rules = RuleSet::new(12, flying);
    moving::generate::<Morabaraba>(&dir, rules, Size::game(max), &Silent, |_| {}).unwrap();
    let model = model(flying);
    let bits: Vec<u8> = model.board.names.iter().map(|n| bit(n)).collect();
    let to_engine = |set: u32| {
        (0..N)
            .filter(|&p| set >> p & 1 == 1)
            .fold(0u32, |acc, p| acc | 1 << bits[p])
    };
    for sub in oracle::solve_moving(&model, max as usize) {
        let s = Subspace::new(sub.us as u8, sub.them as u8);
        let table = files::open_moving::<Morabaraba, Symmetric>(&dir, rules, s)
            .unwrap()
            .values()
            .unwrap();
        let mut met = vec![false; table.len()];
        sub.for_each(N, |us, them, v| {
            let (eu, et) = (to_engine(us), to_engine(them));
            let slot = symmetric::slot::<Morabaraba>(eu, et) as usize;
            met[slot] = true;
            let expected = match v {
                None => Value::DRAW,
                Some((true, d)) => Value::win(d as u16),
                Some((false, d)) => Value::loss(d as u16),
            };
            assert_eq!(table[slot], expected, "{s} us {eu:#x} them {et:#x}");
        });
        let used = met.iter().filter(|&&m| m).count() as u64;
        assert_eq!(used, symmetric::positions::<Morabaraba>(s), "{s}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn three_stones_match_the_forward_solver() {
    tables_match_the_forward_solver(3, true);
}

#[test]
#[ignore = "about 25 s of CPU; run with --ignored"]
fn three_stones_without_flying_match_the_forward_solver() {
    tables_match_the_forward_solver(3, false);
}

#[test]
#[ignore = "minutes: 4-3 and 3-4 by the forward solver; run with --ignored"]
fn four_three_matches_the_forward_solver() {
    // 4-4 is left out: the forward solver's dense arrays would take 450 MB.
    tables_match_the_forward_solver(4, true);
}

#[test]
fn files_refuse_another_rule_set() {
    let dir = temp_dir("files");
    let rules = RuleSet::new(12, true);
    let reports =
        moving::generate::<Morabaraba>(&dir, rules, Size::game(3), &Silent, |_| {}).unwrap();
    assert!(!reports[0].resumed);
    // A second run finds the tables and keeps them.
    let again =
        moving::generate::<Morabaraba>(&dir, rules, Size::game(3), &Silent, |_| {}).unwrap();
    assert!(again[0].resumed);
    let sub = Subspace::new(3, 3);
    let id = TableId::Moving(sub);
    let blocked = RuleSet {
        full_board: FullBoard::BlockedLoses,
        ..rules
    };
    for other in [RuleSet::new(12, false), blocked] {
        std::fs::copy(
            files::file_name::<Morabaraba>(&dir, rules, id),
            files::file_name::<Morabaraba>(&dir, other, id),
        )
        .unwrap();
        let err = files::open_moving::<Morabaraba, Symmetric>(&dir, other, sub).unwrap_err();
        assert!(
            matches!(
                err,
                files::FilesError::Set(tablebase::set::SetError::Mismatch { .. })
            ),
            "{err}"
        );
    }
    // A Six Men's Morris file under Morabaraba's name is refused too.
    let six = files::file_name::<Six>(&dir, RuleSet::new(6, true), id);
    let six_values = vec![Value::DRAW; mill::index::size::<Six>(sub) as usize];
    files::write_moving::<Six>(&dir, RuleSet::new(6, true), sub, &six_values, 0).unwrap();
    std::fs::rename(&six, files::file_name::<Morabaraba>(&dir, rules, id)).unwrap();
    assert!(files::open_moving::<Morabaraba, Symmetric>(&dir, rules, sub).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// 12-12 (a full board, reached only right after placement): the side to
/// move has no move; the pair solves every such position to a draw, or to
/// a loss under the rule option "the blocked side loses". No move is
/// possible, so the table its removals would lead into is never read.
#[test]
fn full_board_subspace_is_a_draw() {
    let sub = Subspace::new(12, 12);
    for (full_board, expected) in [
        (FullBoard::Draw, Value::DRAW),
        (FullBoard::BlockedLoses, Value::loss(0)),
    ] {
        let rules = RuleSet {
            full_board,
            ..RuleSet::new(12, true)
        };
        let game = MovingPair::<Morabaraba, Symmetric>::new(rules, sub, |_| Some(&[])).unwrap();
        let (values, _) = solve(&game, &Silent).unwrap();
        let mut used = 0;
        for (slot, v) in values[0].iter().enumerate() {
            if let Some((us, them)) = symmetric::position::<Morabaraba>(sub, slot as u64) {
                assert_eq!(us | them, Morabaraba::FULL);
                assert_eq!(*v, expected, "slot {slot}");
                assert_eq!(
                    recompute::<Morabaraba, Symmetric>(rules, us, them, &|_| Value::DRAW, None),
                    expected
                );
                used += 1;
            }
        }
        // The oracle agrees: a full board has no successor.
        let group = &Morabaraba::geometry().symmetries;
        assert_eq!(used, oracle::burnside(group, 12, 12));
        let s = state("WBWBWBBWBWBWBWBWBWWBWWBW", 0, [0, 0]);
        assert!(s.successors(&model(true)).is_empty());
    }
}

#[test]
fn cli_generate_stats_verify_probe() {
    let dir = temp_dir("cli");
    let d = dir.to_str().unwrap();
    let table = ["--stones", "3", "--dir", d];
    let with = |verb: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["morabaraba"].iter().map(|s| s.to_string()).collect();
        v.extend(verb.iter().map(|s| s.to_string()));
        v.extend(table.iter().map(|s| s.to_string()));
        v
    };
    let run = |args: Vec<String>| {
        let refs: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        run_cli(&refs)
    };
    let (out, ok) = run(with(&["generate", "--json"]));
    assert!(ok, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let group = &Morabaraba::geometry().symmetries;
    assert_eq!(
        v["positions"].as_u64().unwrap(),
        oracle::burnside(group, 3, 3)
    );
    let (out, ok) = run(with(&["stats", "--json"]));
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // Every board's statistics: the 3-3 subspace with both longest
    // distances (the longest loss, like the longest win, from its file).
    let rows = v["tables"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (v["variant"].as_str(), v["stones"].as_u64()),
        (Some("morabaraba"), Some(3))
    );
    assert_eq!(rows[0]["positions"], v["positions"]);
    assert!(rows[0]["longest_loss"].as_u64().is_some(), "{v}");
    let (out, ok) = run(with(&["verify", "--json"]));
    assert!(ok, "{out}");
    let checked: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        checked["checked"].as_u64().unwrap(),
        oracle::burnside(group, 3, 3)
    );
    assert_eq!(checked["mismatches"], 0);
    // A planted error in the moving phase: verify finds it and fails,
    // the table file as it was restores it.
    let rules = RuleSet::new(12, true);
    let sub = Subspace::new(3, 3);
    let set = files::directory::<Morabaraba, <Morabaraba as Board>::Index>(&dir, rules);
    let path = set.path(TableId::Moving(sub));
    let original = std::fs::read(&path).unwrap();
    let table =
        files::open_moving::<Morabaraba, <Morabaraba as Board>::Index>(&dir, rules, sub).unwrap();
    let mut values = table.values().unwrap();
    let positions = table.header().positions;
    drop(table);
    let slot = values
        .iter()
        .position(|v| v.outcome() == Outcome::Win)
        .unwrap();
    values[slot] = Value::DRAW;
    let header = tablebase::format::summarize(&values, positions);
    set.write_values(TableId::Moving(sub), &header, &values, 1)
        .unwrap();
    let (out, ok) = run(with(&["verify", "--json"]));
    assert!(!ok, "a planted error passed: {out}");
    let mut docs = serde_json::Deserializer::from_str(&out).into_iter::<serde_json::Value>();
    let v = docs.next().unwrap().unwrap();
    assert!(v["mismatches"].as_u64().unwrap() >= 1, "{v}");
    std::fs::write(&path, original).unwrap();
    // White closes the diagonal a7-b6-c5 (d5 to c5) and leaves Black two
    // stones: a win in one ply, as the oracle sees it.
    let picture = "W..W...W............B.BB";
    let s = state(picture, 0, [0, 0]);
    assert!(s.successors(&model(true)).iter().any(|t| t.on_board(1) < 3));
    let text = format!("{picture} w 0 0");
    let (out, ok) = run(with(&["probe", &text, "--json"]));
    assert!(ok, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"], "win");
    assert_eq!(v["dtc"], 1);
    // A placement position of the 4-stone game: its search needs the
    // 4-stone tables, which are not there: one error.
    let (_, ok) = run(with(&["probe", "W..W...W............B.BB w 1 1"]));
    assert!(!ok);
    // 4-stone tables were not generated: a clear failure, no panic.
    let (_, ok) = run_cli(&[
        "morabaraba",
        "probe",
        "WW.W...W............B.BB b 0 0",
        "--dir",
        d,
    ]);
    assert!(!ok);
    // The 3-stone game's start by the CLI's search: the library's value.
    let rules = RuleSet::new(12, true);
    let tb = MovingOutcomes::<Morabaraba, Symmetric>::load(&dir, rules, 3, |_| {}).unwrap();
    let expected = PlacementSearch::new(&tb)
        .value(&Position::start(tb.rules()))
        .unwrap();
    let (out, ok) = run_cli(&["morabaraba", "start", "--stones", "3", "--dir", d, "--json"]);
    assert!(ok, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"], expected.as_str());
    assert!(v["nodes"].as_u64().unwrap() > 0);
    // The 4-stone game needs the 4-stone tables: a clear failure.
    let (_, ok) = run_cli(&["morabaraba", "start", "--stones", "4", "--dir", d]);
    assert!(!ok);
    // Play as Black: the program, White, opens with a move of the start's
    // value; `quit` ends the game.
    let (out, ok) = run_cli_with_input(
        &[
            "morabaraba",
            "play",
            "--stones",
            "3",
            "--human",
            "black",
            "--dir",
            d,
        ],
        "quit\n",
    );
    assert!(ok, "{out}");
    let opening = out.lines().find(|l| l.starts_with("White plays")).unwrap();
    assert!(
        opening.ends_with(&format!("({})", expected.as_str())),
        "{opening}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The outcome of an oracle value.
fn outcome_of(v: oracle::Solved) -> Outcome {
    match v {
        None => Outcome::Draw,
        Some((true, _)) => Outcome::Win,
        Some((false, _)) => Outcome::Loss,
    }
}

/// The placement search over the 3..3-stone tables equals the oracle's
/// forward solve of the whole 3-stone game (placement included, no tables):
/// the start, with both move orderings and on two threads, and every 25th
/// reachable placement position (19,667 of them).
#[test]
#[ignore = "about 2 minutes (the oracle solves the whole 3-stone game); run with --ignored"]
fn three_stone_game_search_matches_the_forward_solver() {
    let dir = temp_dir("start-3");
    let rules = RuleSet::new(12, true);
    moving::generate::<Morabaraba>(&dir, rules, Size::game(3), &Silent, |_| {}).unwrap();
    let tb = MovingOutcomes::<Morabaraba, Symmetric>::load(&dir, rules, 3, |_| {}).unwrap();
    let (states, values) = oracle::forward_solve(3, &model(true));
    let start = outcome_of(values[0]);
    for order in [MoveOrder::Heuristic, MoveOrder::Shuffled(1)] {
        for threads in [1, 2] {
            let mut search = PlacementSearch::new(&tb)
                .with_order(order)
                .with_threads(threads)
                .unwrap()
                .with_split_depth(3);
            assert_eq!(search.value(&Position::start(tb.rules())).unwrap(), start);
        }
    }
    let mut search = PlacementSearch::new(&tb);
    let mut checked = [0u64; 3];
    for (s, &v) in states.iter().zip(&values).step_by(25) {
        if s.hand[s.turn] == 0 {
            continue;
        }
        let pos = position(s);
        let expected = outcome_of(v);
        assert_eq!(
            search.value(&pos).unwrap(),
            expected,
            "{}",
            rules::format_position::<Morabaraba>(&pos)
        );
        checked[expected as usize] += 1;
    }
    // Wins and losses met many times; no position of the 3-stone game is a
    // draw (with the diagonals, 3-3 is never drawn either).
    assert!(checked[0] > 1000 && checked[2] > 1000, "{checked:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A plain minimax over the family's moves (no symmetry, no table, no
/// ordering) with the stored outcomes at the end of placement.
fn minimax(tb: &MovingOutcomes<Morabaraba, Symmetric>, pos: &Position) -> i8 {
    let rules = tb.rules();
    if !pos.placing() {
        if pos.material(pos.to_move) < 3 {
            return -1;
        }
        return match tb.outcome(pos.us(), pos.them()).unwrap() {
            Outcome::Win => 1,
            Outcome::Draw => 0,
            Outcome::Loss => -1,
        };
    }
    let moves = rules::legal_moves::<Morabaraba>(pos, rules);
    if moves.is_empty() {
        return -1;
    }
    moves
        .iter()
        .map(|&m| -minimax(tb, &pos.apply(m)))
        .max()
        .unwrap()
}

/// In the 4-stone game, the search equals a plain minimax on random
/// positions with at most three stones left in hand (both sides), until
/// each outcome has been met 20 times.
#[test]
fn four_stone_game_search_matches_plain_minimax() {
    let dir = temp_dir("start-4");
    let rules = RuleSet::new(12, true);
    moving::generate::<Morabaraba>(&dir, rules, Size::game(4), &Silent, |_| {}).unwrap();
    let tb = MovingOutcomes::<Morabaraba, Symmetric>::load(&dir, rules, 4, |_| {}).unwrap();
    let mut search = PlacementSearch::new(&tb);
    let mut x: u64 = 0x0123_4567_89AB_CDEF;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let mut seen = [0u32; 3];
    let mut tried = 0;
    // Until every outcome has been met 20 times (losses are rare).
    while seen.iter().any(|&c| c < 20) {
        tried += 1;
        assert!(
            tried < 100_000,
            "too few positions of each outcome: {seen:?}"
        );
        // Play random placements from the start until at most 3 are in hand.
        let mut pos = Position::start(tb.rules());
        let stop = next(3) + 1;
        while u64::from(pos.hand[0] + pos.hand[1]) > stop {
            let moves = rules::legal_moves::<Morabaraba>(&pos, tb.rules());
            if moves.is_empty() {
                break;
            }
            pos = pos.apply(moves[next(moves.len() as u64) as usize]);
        }
        if !pos.placing() || pos.validate::<Morabaraba>(tb.rules()).is_err() {
            continue;
        }
        let expected = minimax(&tb, &pos);
        let found = search.value(&pos).unwrap();
        assert_eq!(
            found as i8 - 1,
            expected,
            "{}",
            rules::format_position::<Morabaraba>(&pos)
        );
        seen[(expected + 1) as usize] += 1;
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
