//! Morabaraba's rules layer through the family engine, checked against a
//! separate, simple implementation of the rules written here from the text
//! of `RULES.md` (the Nine Men's Morris board plus four diagonal lines,
//! edges and mills; 12 stones; a full board after placement ends the game):
//! perft from the start and from hand-made positions.

use solver::morris::board::{Board, Morabaraba};
use solver::morris::family::game::{self, Ending};
use solver::morris::position::{Color, Position};
use solver::morris::variant::RuleSet;

const N: usize = 24;

/// The board of `RULES.md`, by name: points in alphabetical order.
const POINTS: [&str; N] = [
    "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3", "d5", "d6", "d7", "e3",
    "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7",
];
/// The lines of the board: each is a mill, consecutive points are adjacent.
const LINES: [[&str; 3]; 20] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a7", "a4", "a1"],
    ["b6", "b4", "b2"],
    ["c5", "c4", "c3"],
    ["d7", "d6", "d5"],
    ["d3", "d2", "d1"],
    ["e5", "e4", "e3"],
    ["f6", "f4", "f2"],
    ["g7", "g4", "g1"],
    ["a7", "b6", "c5"],
    ["g7", "f6", "e5"],
    ["g1", "f2", "e3"],
    ["a1", "b2", "c3"],
];

fn at(name: &str) -> usize {
    POINTS.iter().position(|p| *p == name).unwrap()
}

/// The oracle's view of the rules.
struct Rules {
    neighbours: Vec<Vec<usize>>,
    mills: Vec<[usize; 3]>,
    flying: bool,
}

impl Rules {
    fn new(flying: bool) -> Rules {
        let mut neighbours = vec![Vec::new(); N];
        for [a, b, c] in LINES {
            for (p, q) in [(a, b), (b, c)] {
                neighbours[at(p)].push(at(q));
                neighbours[at(q)].push(at(p));
            }
        }
        let mills = LINES
            .iter()
            .map(|m| [at(m[0]), at(m[1]), at(m[2])])
            .collect();
        Rules {
            neighbours,
            mills,
            flying,
        }
    }
}

/// A position: cells (0 empty, 1 White, 2 Black), hands, side to move (0 or 1).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct State {
    cells: [u8; N],
    hand: [u8; 2],
    turn: usize,
}

impl State {
    fn on_board(&self, side: usize) -> usize {
        self.cells
            .iter()
            .filter(|&&c| c as usize == side + 1)
            .count()
    }

    /// Is the stone on `p` in a mill of its colour?
    fn in_mill(&self, rules: &Rules, p: usize) -> bool {
        let c = self.cells[p];
        rules
            .mills
            .iter()
            .any(|m| m.contains(&p) && m.iter().all(|&q| self.cells[q] == c))
    }

    /// Every successor, one per move (a move with each possible removal).
    fn successors(&self, rules: &Rules) -> Vec<State> {
        let me = self.turn;
        if self.on_board(me) + (self.hand[me] as usize) < 3 {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut moved = |mut s: State, to: usize| {
            let opp = 1 - me;
            s.turn = opp;
            if s.in_mill(rules, to) && s.on_board(opp) > 0 {
                let theirs: Vec<usize> =
                    (0..N).filter(|&p| s.cells[p] as usize == opp + 1).collect();
                let free: Vec<usize> = theirs
                    .iter()
                    .copied()
                    .filter(|&p| !s.in_mill(rules, p))
                    .collect();
                for p in if free.is_empty() { theirs } else { free } {
                    let mut t = s.clone();
                    t.cells[p] = 0;
                    out.push(t);
                }
            } else {
                out.push(s);
            }
        };
        if self.hand[me] > 0 {
            for to in 0..N {
                if self.cells[to] == 0 {
                    let mut s = self.clone();
                    s.cells[to] = me as u8 + 1;
                    s.hand[me] -= 1;
                    moved(s, to);
                }
            }
        } else {
            let flies = rules.flying && self.on_board(me) == 3;
            for from in 0..N {
                if self.cells[from] as usize != me + 1 {
                    continue;
                }
                for to in 0..N {
                    let reach = flies || rules.neighbours[from].contains(&to);
                    if reach && self.cells[to] == 0 {
                        let mut s = self.clone();
                        s.cells[from] = 0;
                        s.cells[to] = me as u8 + 1;
                        moved(s, to);
                    }
                }
            }
        }
        out
    }

    fn start(stones: u8) -> State {
        State {
            cells: [0; N],
            hand: [stones, stones],
            turn: 0,
        }
    }

    /// The engine's position of this state (bits by the engine's layout).
    fn position(&self) -> Position {
        let g = Morabaraba::geometry();
        let mut stones = [0u32; 2];
        for (i, name) in POINTS.iter().enumerate() {
            if self.cells[i] > 0 {
                stones[self.cells[i] as usize - 1] |= 1 << g.point(name).unwrap();
            }
        }
        Position {
            stones,
            hand: self.hand,
            to_move: if self.turn == 0 {
                Color::White
            } else {
                Color::Black
            },
        }
    }
}

fn oracle_perft(s: &State, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let next = s.successors(rules);
    if next.is_empty() {
        return 1;
    }
    next.iter().map(|t| oracle_perft(t, rules, depth - 1)).sum()
}

/// A state from a board picture in the engine's reading order (that of
/// Nine Men's Morris).
fn state(board: &str, turn: usize, hand: [u8; 2]) -> State {
    const READING: [&str; N] = [
        "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4",
        "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
    ];
    let mut cells = [0; N];
    for (ch, name) in board.chars().zip(READING) {
        cells[at(name)] = match ch {
            'W' => 1,
            'B' => 2,
            _ => 0,
        };
    }
    State { cells, hand, turn }
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
        let oracle = Rules::new(flying);
        for (s, depth) in &positions {
            let rules = RuleSet::new(12, flying);
            let pos = s.position();
            game::validate::<Morabaraba>(&pos, rules).unwrap();
            let text = game::format_position::<Morabaraba>(&pos);
            assert_eq!(
                game::parse_position::<Morabaraba>(&text, rules).unwrap(),
                pos
            );
            for d in 1..=*depth {
                assert_eq!(
                    game::perft::<Morabaraba>(&pos, rules, d),
                    oracle_perft(s, &oracle, d),
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
    let pos = s.position();
    game::validate::<Morabaraba>(&pos, rules).unwrap();
    let moves = game::legal_moves::<Morabaraba>(&pos, rules);
    assert_eq!(moves.len(), oracle_perft(&s, &Rules::new(true), 1) as usize);
    for m in moves {
        let next = game::apply(&pos, m);
        let full = next.stones[0] | next.stones[1] == Morabaraba::FULL;
        // The oracle: no successor from a full board.
        let oracle_next: Vec<State> = s.successors(&Rules::new(true));
        assert!(oracle_next.iter().any(|t| t.position() == next));
        if full {
            assert!(oracle_next
                .iter()
                .all(|t| t.successors(&Rules::new(true)).is_empty() || t.cells.contains(&0)));
            assert_eq!(
                game::ending::<Morabaraba>(&next, rules),
                Some(Ending::FullBoardDraw)
            );
        }
    }
}
