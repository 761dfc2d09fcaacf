//! Three Men's Morris: the retrograde solution against an independent
//! brute force. The oracle builds its board from coordinates (rows, columns,
//! diagonals; adjacency = neighbours on a line), enumerates every position
//! reachable from the empty board with plain arrays, and computes values by
//! forward value iteration, level by level. Every reachable position, and
//! every move from it, must get the same value and distance.

use mill::games::three::solve::Solution;
use mill::games::three::{for_each_move, for_each_unmove, parse_move, Board, Position};
use std::collections::HashMap;
use tablebase::{Outcome, Value};

/// Oracle state: cells in reading order (a3 b3 c3 a2 b2 c2 a1 b1 c1), 0
/// empty, 1 White, 2 Black; and the side to move (1 or 2).
type State = ([u8; 9], u8);

struct Oracle {
    lines: Vec<[usize; 3]>,
    adjacent: Vec<Vec<usize>>,
}

impl Oracle {
    fn new() -> Oracle {
        // Point (file x, rank y) is cell 3 * (2 - y) + x.
        let cell = |x: usize, y: usize| 3 * (2 - y) + x;
        let mut lines = Vec::new();
        for i in 0..3 {
            lines.push([cell(0, i), cell(1, i), cell(2, i)]);
            lines.push([cell(i, 0), cell(i, 1), cell(i, 2)]);
        }
        lines.push([cell(0, 0), cell(1, 1), cell(2, 2)]);
        lines.push([cell(0, 2), cell(1, 1), cell(2, 0)]);
        let mut adjacent = vec![Vec::new(); 9];
        for l in &lines {
            for w in [[l[0], l[1]], [l[1], l[2]]] {
                adjacent[w[0]].push(w[1]);
                adjacent[w[1]].push(w[0]);
            }
        }
        Oracle { lines, adjacent }
    }

    fn has_line(&self, cells: &[u8; 9], who: u8) -> bool {
        self.lines
            .iter()
            .any(|l| l.iter().all(|&p| cells[p] == who))
    }

    /// Moves as (text, successor).
    fn moves(&self, (cells, side): &State) -> Vec<(String, State)> {
        let mut out = Vec::new();
        if self.has_line(cells, 3 - side) {
            return out;
        }
        let names = ["a3", "b3", "c3", "a2", "b2", "c2", "a1", "b1", "c1"];
        let mine = cells.iter().filter(|&&c| c == *side).count();
        for to in 0..9 {
            if cells[to] != 0 {
                continue;
            }
            if mine < 3 {
                let mut next = *cells;
                next[to] = *side;
                out.push((names[to].to_string(), (next, 3 - side)));
            } else {
                for &from in &self.adjacent[to] {
                    if cells[from] == *side {
                        let mut next = *cells;
                        next[from] = 0;
                        next[to] = *side;
                        out.push((format!("{}-{}", names[from], names[to]), (next, 3 - side)));
                    }
                }
            }
        }
        out
    }

    fn text((cells, side): &State) -> String {
        let board: String = cells.iter().map(|c| ['.', 'W', 'B'][*c as usize]).collect();
        let count = |who: u8| 3 - cells.iter().filter(|&&c| c == who).count();
        let s = if *side == 1 { 'w' } else { 'b' };
        format!("{board} {s} {} {}", count(1), count(2))
    }
}

/// Every reachable state, its successors, and its value by value iteration.
struct Solved {
    states: Vec<State>,
    succ: Vec<Vec<(String, usize)>>,
    value: Vec<Option<Value>>,
}

fn brute_force() -> Solved {
    let oracle = Oracle::new();
    let mut id: HashMap<State, usize> = HashMap::new();
    let mut states = vec![([0u8; 9], 1u8)];
    id.insert(states[0], 0);
    let mut succ = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let mut list = Vec::new();
        for (text, next) in oracle.moves(&states[i]) {
            let j = *id.entry(next).or_insert_with(|| {
                states.push(next);
                states.len() - 1
            });
            list.push((text, j));
        }
        succ.push(list);
        i += 1;
    }
    let n = states.len();
    let mut value: Vec<Option<Value>> = vec![None; n];
    for v in 0..n {
        if succ[v].is_empty() {
            value[v] = Some(Value::loss(0));
        }
    }
    for level in 1u16.. {
        let mut new = Vec::new();
        for v in 0..n {
            if value[v].is_some() {
                continue;
            }
            let vals: Vec<Option<Value>> = succ[v].iter().map(|&(_, j)| value[j]).collect();
            if vals.contains(&Some(Value::loss(level - 1))) {
                new.push((v, Value::win(level)));
            } else if vals
                .iter()
                .all(|x| x.is_some_and(|x| x.outcome() == Outcome::Win))
            {
                new.push((v, Value::loss(level)));
            }
        }
        if new.is_empty() {
            break;
        }
        for (v, x) in new {
            value[v] = Some(x);
        }
    }
    Solved {
        states,
        succ,
        value,
    }
}

#[test]
fn retrograde_solution_matches_brute_force_on_every_reachable_position() {
    let sol = Solution::solve().unwrap();
    let bf = brute_force();
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for (v, state) in bf.states.iter().enumerate() {
        let text = Oracle::text(state);
        let pos: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let expected = bf.value[v].unwrap_or(Value::DRAW);
        assert_eq!(sol.value(&pos), expected, "{text}");
        match expected.outcome() {
            Outcome::Win => wins += 1,
            Outcome::Loss => losses += 1,
            Outcome::Draw => draws += 1,
        }
        // Every move, with the value it has for the mover.
        let mut got: Vec<(String, Value)> = sol
            .moves(&pos)
            .into_iter()
            .map(|(m, x)| (m.to_string(), x))
            .collect();
        let mut want: Vec<(String, Value)> = bf.succ[v]
            .iter()
            .map(|(t, j)| {
                let x = bf.value[*j].unwrap_or(Value::DRAW);
                let mover = match (x.outcome(), x.distance()) {
                    (Outcome::Loss, Some(d)) => Value::win(d + 1),
                    (Outcome::Win, Some(d)) => Value::loss(d + 1),
                    _ => Value::DRAW,
                };
                (t.clone(), mover)
            })
            .collect();
        got.sort_by_key(|(t, x)| (t.clone(), x.0));
        want.sort_by_key(|(t, x)| (t.clone(), x.0));
        assert_eq!(got, want, "{text}");
        // The perfect move achieves the position's value.
        if let Some(m) = sol.best_move(&pos) {
            let best = sol.moves(&pos)[0].1;
            assert_eq!(best, expected, "{text}");
            assert_eq!(parse_move(&pos, &m.to_string()), Ok(m));
        }
    }
    let totals = sol.reachable().positions;
    assert_eq!(totals.positions, bf.states.len() as u64);
    assert_eq!(
        (totals.wins, totals.losses, totals.draws),
        (wins, losses, draws)
    );
}

#[test]
fn first_player_wins_only_by_opening_in_the_centre() {
    // Literature: the first player wins, and only by opening on b2.
    let sol = Solution::solve().unwrap();
    let start = Position::start();
    assert_eq!(sol.value(&start).outcome(), Outcome::Win);
    for (m, v) in sol.moves(&start) {
        let centre = m.to_string() == "b2";
        assert_eq!(v.outcome() == Outcome::Win, centre, "{m}: {v}");
    }
}

#[test]
fn unmoves_invert_moves() {
    let board = Board::get();
    let bf = brute_force();
    for (cells, side) in &bf.states {
        let bits = |who: u8| {
            (0..9)
                .filter(|&p| cells[p] == who)
                .fold(0u32, |a, p| a | 1 << p)
        };
        let (us, them) = (bits(*side), bits(3 - side));
        if board.has_line(them) {
            continue;
        }
        for_each_move(us, them, |m| {
            let after = m.apply(us);
            if !board.has_line(after) {
                let mut found = false;
                for_each_unmove(them, after, |prev| found |= prev == us);
                assert!(found, "{us:#x} {them:#x} {m}");
            }
        });
        for_each_unmove(us, them, |prev| {
            let mut found = false;
            for_each_move(prev, us, |m| found |= m.apply(prev) == them);
            assert!(found, "{us:#x} {them:#x} {prev:#x}");
        });
    }
}
