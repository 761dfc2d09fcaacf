//! An independent implementation of the rules of the mill family, written
//! from the text of `docs/rules.md` for the tests: a board is its points by
//! name, its edges and its mills; a position is an array of cells. Nothing
//! here calls the engine's move generation, index or solver; the only
//! engine type used is [`Position`], to hand a state over for comparison.
//!
//! It offers a move counter (perft), a forward, definition-level solver of
//! a whole small game from the start, and one of the moving phase
//! subspace by subspace (values with distance to conversion).

#![allow(dead_code)]

use mill::rules::position::{Color, Position};
use std::collections::HashMap;

/// Most points of a board of the family.
pub const MAX_POINTS: usize = 24;

/// The 16 lines of the Nine Men's Morris board (`docs/rules.md`): each is a
/// mill, and consecutive points of a line are adjacent (32 edges).
pub const NINE_LINES: [[&str; 3]; 16] = [
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
];

/// Morabaraba's four diagonal lines through the corners (`docs/rules.md`):
/// mills, and edges between consecutive points, like the others.
pub const DIAGONALS: [[&str; 3]; 4] = [
    ["a7", "b6", "c5"],
    ["g7", "f6", "e5"],
    ["g1", "f2", "e3"],
    ["a1", "b2", "c3"],
];

/// The engine's reading order of the 24-point boards (that of Nine Men's
/// Morris).
pub const READING_24: [&str; MAX_POINTS] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];

/// A board: points by name (the oracle's own numbering is the order given),
/// the engine's reading order (for pictures), adjacency and mills.
#[derive(Clone, Debug)]
pub struct Board {
    /// Point names; a point's number is its place here.
    pub names: Vec<&'static str>,
    /// The order of the points in a board picture.
    pub reading: Vec<&'static str>,
    /// Adjacent points of each point.
    pub neighbours: Vec<Vec<usize>>,
    /// The mills, as three points each.
    pub mills: Vec<[usize; 3]>,
}

impl Board {
    /// A board from its lists (edges as pairs of names).
    pub fn new(
        names: &[&'static str],
        reading: &[&'static str],
        edges: &[[&'static str; 2]],
        mills: &[[&'static str; 3]],
    ) -> Board {
        assert!(names.len() <= MAX_POINTS);
        let mut board = Board {
            names: names.to_vec(),
            reading: reading.to_vec(),
            neighbours: vec![Vec::new(); names.len()],
            mills: Vec::new(),
        };
        for [a, b] in edges {
            let (a, b) = (board.at(a), board.at(b));
            board.neighbours[a].push(b);
            board.neighbours[b].push(a);
        }
        board.mills = mills
            .iter()
            .map(|m| [board.at(m[0]), board.at(m[1]), board.at(m[2])])
            .collect();
        board
    }

    /// A board drawn as lines of three: each line is a mill and its
    /// consecutive points are adjacent; points are numbered in order of
    /// first appearance.
    pub fn from_lines(lines: &[[&'static str; 3]], reading: &[&'static str]) -> Board {
        let mut names: Vec<&'static str> = Vec::new();
        for p in lines.iter().flatten() {
            if !names.contains(p) {
                names.push(p);
            }
        }
        let edges: Vec<[&'static str; 2]> = lines
            .iter()
            .flat_map(|[a, b, c]| [[*a, *b], [*b, *c]])
            .collect();
        Board::new(&names, reading, &edges, lines)
    }

    /// The number of a point.
    pub fn at(&self, name: &str) -> usize {
        self.names
            .iter()
            .position(|p| *p == name)
            .unwrap_or_else(|| panic!("no point {name}"))
    }

    /// Number of points.
    pub fn points(&self) -> usize {
        self.names.len()
    }
}

/// The oracle's view of a rule set.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The board.
    pub board: Board,
    /// A side with exactly three stones (none in hand) moves to any empty point.
    pub flying: bool,
}

/// A position: cells (0 empty, 1 White, 2 Black), hands, side to move (0 or 1).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct State {
    /// The cells, by the oracle's point numbers (unused beyond the board).
    pub cells: [u8; MAX_POINTS],
    /// Stones in hand, White and Black.
    pub hand: [u8; 2],
    /// Side to move: 0 White, 1 Black.
    pub turn: usize,
}

impl State {
    /// Stones of `side` on the board.
    pub fn on_board(&self, side: usize) -> usize {
        self.cells
            .iter()
            .filter(|&&c| c as usize == side + 1)
            .count()
    }

    /// Is the stone on `p` in a mill of its colour?
    pub fn in_mill(&self, rules: &Rules, p: usize) -> bool {
        let c = self.cells[p];
        rules
            .board
            .mills
            .iter()
            .any(|m| m.contains(&p) && m.iter().all(|&q| self.cells[q] == c))
    }

    /// Every successor, one per move (a move with each possible removal).
    pub fn successors(&self, rules: &Rules) -> Vec<State> {
        let n = rules.board.points();
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
                    (0..n).filter(|&p| s.cells[p] as usize == opp + 1).collect();
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
            for to in 0..n {
                if self.cells[to] == 0 {
                    let mut s = self.clone();
                    s.cells[to] = me as u8 + 1;
                    s.hand[me] -= 1;
                    moved(s, to);
                }
            }
        } else {
            let flies = rules.flying && self.on_board(me) == 3;
            for from in 0..n {
                if self.cells[from] as usize != me + 1 {
                    continue;
                }
                for to in 0..n {
                    let reach = flies || rules.board.neighbours[from].contains(&to);
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

    /// The start: empty board, `stones` in each hand, White to move.
    pub fn start(stones: u8) -> State {
        State {
            cells: [0; MAX_POINTS],
            hand: [stones, stones],
            turn: 0,
        }
    }

    /// A state from a board picture (`W`, `B`, `.`) in the board's reading order.
    pub fn picture(board: &Board, text: &str, turn: usize, hand: [u8; 2]) -> State {
        let mut cells = [0; MAX_POINTS];
        for (ch, name) in text.chars().zip(&board.reading) {
            cells[board.at(name)] = match ch {
                'W' => 1,
                'B' => 2,
                _ => 0,
            };
        }
        State { cells, hand, turn }
    }

    /// The engine's position of this state; `bit` gives the engine's bit of
    /// a point name.
    pub fn position(&self, board: &Board, bit: impl Fn(&str) -> u8) -> Position {
        let mut stones = [0u32; 2];
        for (i, name) in board.names.iter().enumerate() {
            if self.cells[i] > 0 {
                stones[self.cells[i] as usize - 1] |= 1 << bit(name);
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

/// Leaves of the game tree cut at `depth` (a finished game is a leaf).
pub fn perft(s: &State, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let next = s.successors(rules);
    if next.is_empty() {
        return 1;
    }
    next.iter().map(|t| perft(t, rules, depth - 1)).sum()
}

/// A solved value: `Some((won, distance))`, `None` for a draw.
pub type Solved = Option<(bool, u32)>;

/// Every position reachable from the start of the `stones`-stone game,
/// solved by definition: a position without moves is lost in 0; a position
/// with a successor lost in d is won in d + 1 (the least such d); one whose
/// successors are all won is lost in 1 + the largest of their distances;
/// what is never decided is a draw.
pub fn forward_solve(stones: u8, rules: &Rules) -> (Vec<State>, Vec<Solved>) {
    let mut ids: HashMap<State, usize> = HashMap::new();
    let mut states = vec![State::start(stones)];
    ids.insert(states[0].clone(), 0);
    let mut succ: Vec<Vec<usize>> = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let next = states[i].successors(rules);
        let mut list = Vec::new();
        for t in next {
            let id = *ids.entry(t.clone()).or_insert_with(|| {
                states.push(t);
                states.len() - 1
            });
            list.push(id);
        }
        succ.push(list);
        i += 1;
    }
    let mut value: Vec<Solved> = succ
        .iter()
        .map(|s| s.is_empty().then_some((false, 0)))
        .collect();
    let mut level = 1;
    loop {
        let mut changed = Vec::new();
        for (p, s) in succ.iter().enumerate() {
            if value[p].is_some() || s.is_empty() {
                continue;
            }
            if s.iter().any(|&q| value[q] == Some((false, level - 1))) {
                changed.push((p, (true, level)));
            } else if s.iter().all(|&q| matches!(value[q], Some((true, _)))) {
                let longest = s.iter().map(|&q| value[q].unwrap().1).max().unwrap();
                if longest == level - 1 {
                    changed.push((p, (false, level)));
                }
            }
        }
        if changed.is_empty() {
            break;
        }
        for (p, v) in changed {
            value[p] = Some(v);
        }
        level += 1;
    }
    (states, value)
}

/// C(n, k), from Pascal's triangle.
fn choose(n: usize, k: usize) -> usize {
    static TABLE: std::sync::OnceLock<Vec<Vec<usize>>> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = vec![vec![0usize; 34]; 34];
        for i in 0..34 {
            t[i][0] = 1;
            for j in 1..=i {
                t[i][j] = t[i - 1][j - 1] + t[i - 1][j];
            }
        }
        t
    });
    if k > n {
        0
    } else {
        t[n][k]
    }
}

/// Rank of a set of points among the sets of its size (combinatorial
/// number system: the sum of C(p_i, i) over its points p_1 < p_2 < …).
fn rank(bits: u32) -> usize {
    let mut r = 0;
    let mut rest = bits;
    let mut i = 1;
    while rest != 0 {
        let p = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        r += choose(p, i);
        i += 1;
    }
    r
}

/// Every `k`-point set of `n` points, in increasing order.
fn sets(n: usize, k: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(choose(n, k));
    if k == 0 {
        return vec![0];
    }
    let mut x: u32 = (1 << k) - 1;
    while x < 1 << n {
        out.push(x);
        // The next set of k points (Gosper).
        let c = x & x.wrapping_neg();
        let r = x + c;
        x = (((r ^ x) >> 2) / c) | r;
    }
    out
}

/// The moving-phase values of one subspace: `us` stones of the side to
/// move, `them` of the other, stored by `rank(us) × C(n, them) + rank(them)`.
pub struct Subspace {
    /// Stones of the side to move.
    pub us: usize,
    /// Stones of the other side.
    pub them: usize,
    values: Vec<Solved>,
    modulus: usize,
}

impl Subspace {
    /// The value of the position (side to move's stones first), as bit
    /// sets over the oracle's point numbers.
    pub fn get(&self, us: u32, them: u32) -> Solved {
        self.values[rank(us) * self.modulus + rank(them)]
    }

    /// Every position of the subspace with its value.
    pub fn for_each(&self, n: usize, mut f: impl FnMut(u32, u32, Solved)) {
        let theirs = sets(n, self.them);
        for us in sets(n, self.us) {
            for &them in &theirs {
                if us & them == 0 {
                    f(us, them, self.get(us, them));
                }
            }
        }
    }
}

/// The board as bit sets for the moving-phase solver: the adjacent points
/// of each point, the mills through each point.
struct Masks {
    n: usize,
    adjacent: Vec<u32>,
    mills_at: Vec<Vec<u32>>,
}

impl Masks {
    fn new(board: &Board) -> Masks {
        let bits = |ps: &[usize]| ps.iter().fold(0u32, |acc, &p| acc | 1 << p);
        Masks {
            n: board.points(),
            adjacent: board.neighbours.iter().map(|v| bits(v)).collect(),
            mills_at: (0..board.points())
                .map(|p| {
                    board
                        .mills
                        .iter()
                        .filter(|m| m.contains(&p))
                        .map(|m| bits(m))
                        .collect()
                })
                .collect(),
        }
    }

    /// Is the stone on `p` in a mill of the stones `bits`?
    fn in_mill(&self, bits: u32, p: usize) -> bool {
        self.mills_at[p].iter().any(|&m| m & !bits == 0)
    }
}

/// The moving-phase successors of `(us, them)` into `out`: `(next_us,
/// next_them, removal)`, from the next mover's view.
fn moves(masks: &Masks, flying: bool, us: u32, them: u32, out: &mut Vec<(u32, u32, bool)>) {
    out.clear();
    let n = masks.n;
    let empty = !(us | them) & ((1u32 << n) - 1);
    let flies = flying && us.count_ones() == 3;
    let theirs: Vec<usize> = (0..n).filter(|&p| them >> p & 1 == 1).collect();
    let free: Vec<usize> = theirs
        .iter()
        .copied()
        .filter(|&p| !masks.in_mill(them, p))
        .collect();
    let removable = if free.is_empty() { &theirs } else { &free };
    for from in (0..n).filter(|&p| us >> p & 1 == 1) {
        let reach = if flies {
            empty
        } else {
            masks.adjacent[from] & empty
        };
        for to in (0..n).filter(|&p| reach >> p & 1 == 1) {
            let moved = us & !(1 << from) | 1 << to;
            if masks.in_mill(moved, to) {
                for &r in removable {
                    out.push((them & !(1 << r), moved, true));
                }
            } else {
                out.push((them, moved, false));
            }
        }
    }
}

/// The moving phase with 3..=`max` stones a side solved by definition,
/// subspaces of one stone total at a time (moves without removal stay in
/// the total, removals leave it for the total below, solved before).
/// Values are distances to conversion: a move that removes a stone counts
/// one ply and ends the count; a position without moves is lost in 0; one
/// with a successor lost in d is won in d + 1 (the least d); one whose
/// successors are all won is lost in 1 + the largest of their distances;
/// the rest are draws.
pub fn solve_moving(rules: &Rules, max: usize) -> Vec<Subspace> {
    let n = rules.board.points();
    let masks = Masks::new(&rules.board);
    let mut next = Vec::new();
    let mut solved: Vec<Subspace> = Vec::new();
    for total in 6..=2 * max {
        let group: Vec<(usize, usize)> = (3..=max)
            .filter(|&w| total >= w + 3 && total - w <= max)
            .map(|w| (w, total - w))
            .collect();
        let mut subs: Vec<Subspace> = group
            .iter()
            .map(|&(w, b)| Subspace {
                us: w,
                them: b,
                values: vec![None; choose(n, w) * choose(n, b)],
                modulus: choose(n, b),
            })
            .collect();
        let find = |subs: &[Subspace], w: usize, b: usize| {
            subs.iter().position(|s| s.us == w && s.them == b).unwrap()
        };
        // The value of a successor for the side that moved into it, as a
        // level: Some((won by the next mover, level)).
        let mut undecided: Vec<(usize, u32, u32)> = Vec::new();
        for (i, &(w, b)) in group.iter().enumerate() {
            let theirs = sets(n, b);
            for us in sets(n, w) {
                for &them in &theirs {
                    if us & them == 0 {
                        undecided.push((i, us, them));
                    }
                }
            }
        }
        let mut level = 0u32;
        loop {
            let mut changed = Vec::new();
            for &(i, us, them) in &undecided {
                if level == 0 {
                    // A side without a move has lost.
                    let empty = !(us | them) & ((1u32 << n) - 1);
                    let flies = rules.flying && us.count_ones() == 3;
                    let blocked = !(0..n).any(|p| {
                        us >> p & 1 == 1
                            && (if flies {
                                empty
                            } else {
                                masks.adjacent[p] & empty
                            }) != 0
                    });
                    if blocked {
                        changed.push((i, us, them, (false, 0)));
                    }
                    continue;
                }
                moves(&masks, rules.flying, us, them, &mut next);
                if next.is_empty() {
                    continue;
                }
                let (w, b) = group[i];
                let mut win = false;
                let mut all_won = true;
                let mut longest = 0;
                for &(nu, nt, removal) in &next {
                    // The successor's value for its side to move, and the
                    // level at which it counts.
                    let v: Solved = if removal {
                        if b == 3 {
                            Some((false, 0))
                        } else {
                            let e = solved
                                .iter()
                                .find(|s| s.us == b - 1 && s.them == w)
                                .expect("the total below is solved");
                            e.get(nu, nt).map(|(won, _)| (won, 0))
                        }
                    } else {
                        subs[find(&subs, b, w)].get(nu, nt)
                    };
                    match v {
                        Some((false, d)) if d == level - 1 => {
                            win = true;
                            break;
                        }
                        Some((true, d)) => longest = longest.max(d),
                        _ => all_won = false,
                    }
                }
                if win {
                    changed.push((i, us, them, (true, level)));
                } else if all_won && longest == level - 1 {
                    changed.push((i, us, them, (false, level)));
                }
            }
            if changed.is_empty() && level > 0 {
                break;
            }
            for &(i, us, them, v) in &changed {
                let s = &mut subs[i];
                let at = rank(us) * s.modulus + rank(them);
                s.values[at] = Some(v);
            }
            undecided.retain(|&(i, us, them)| subs[i].get(us, them).is_none());
            level += 1;
        }
        solved.extend(subs);
    }
    solved
}

/// Orbits of (white set, black set) pairs of `w` and `b` points under a
/// permutation group, by Burnside's lemma: the mean over the group of the
/// colourings each permutation fixes (a fixed colouring paints each cycle
/// in one colour).
pub fn burnside(group: &[Vec<u8>], w: usize, b: usize) -> u64 {
    let mut fixed_total = 0u64;
    for perm in group {
        let mut seen = vec![false; perm.len()];
        let mut cycles = Vec::new();
        for start in 0..perm.len() {
            let mut len = 0;
            let mut p = start;
            while !seen[p] {
                seen[p] = true;
                p = perm[p] as usize;
                len += 1;
            }
            if len > 0 {
                cycles.push(len);
            }
        }
        // ways[x][y]: colourings of the cycles so far with x white, y black.
        let mut ways = vec![vec![0u64; b + 1]; w + 1];
        ways[0][0] = 1;
        for len in cycles {
            let mut next = ways.clone();
            for x in 0..=w {
                for y in 0..=b {
                    let n = ways[x][y];
                    if x + len <= w {
                        next[x + len][y] += n;
                    }
                    if y + len <= b {
                        next[x][y + len] += n;
                    }
                }
            }
            ways = next;
        }
        fixed_total += ways[w][b];
    }
    assert_eq!(fixed_total % group.len() as u64, 0);
    fixed_total / group.len() as u64
}
