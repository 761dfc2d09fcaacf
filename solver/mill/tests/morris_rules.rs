//! Nine Men's Morris rules layer against an independent brute-force oracle:
//! plain arrays built from the names, mills and edges lists of `rules/geometry.rs`
//! (no bitboards), in reading order rather than the engine's bit layout. The
//! oracle parses the position text itself and prints its moves as text, so
//! move lists and perft counts are compared end to end.

use mill::rules::board::Nine;
use mill::rules::{ending, legal_moves, perft};
use std::rc::Rc;

use mill::rules::geometry::{NINE_EDGES, NINE_MILLS, NINE_READING};
use mill::rules::notation::parse_move;
use mill::rules::position::Position;
use mill::rules::variant::RuleSet;

/// The oracle's board: 24 cells in reading order, 0 empty, 1 White, 2 Black.
#[derive(Clone)]
struct Oracle {
    cells: [u8; 24],
    hand: [u8; 3],
    side: u8,
    geo: Rc<Geo>,
    flying: bool,
}

/// Adjacency lists and mills in reading-order indices.
struct Geo {
    adjacent: Vec<Vec<usize>>,
    mills: Vec<[usize; 3]>,
}

fn idx(name: &str) -> usize {
    NINE_READING.iter().position(|n| *n == name).unwrap()
}

impl Oracle {
    fn parse(text: &str, flying: bool) -> Oracle {
        let f: Vec<&str> = text.split(' ').collect();
        let mut cells = [0u8; 24];
        for (i, c) in f[0].chars().enumerate() {
            cells[i] = match c {
                'W' => 1,
                'B' => 2,
                _ => 0,
            };
        }
        let mut adjacent = vec![Vec::new(); 24];
        for [a, b] in NINE_EDGES {
            adjacent[idx(a)].push(idx(b));
            adjacent[idx(b)].push(idx(a));
        }
        let mills = NINE_MILLS
            .iter()
            .map(|m| [idx(m[0]), idx(m[1]), idx(m[2])])
            .collect();
        Oracle {
            cells,
            hand: [0, f[2].parse().unwrap(), f[3].parse().unwrap()],
            side: if f[1] == "w" { 1 } else { 2 },
            geo: Rc::new(Geo { adjacent, mills }),
            flying,
        }
    }

    fn count(&self, colour: u8) -> usize {
        self.cells.iter().filter(|&&c| c == colour).count()
    }

    fn in_mill(&self, p: usize) -> bool {
        let c = self.cells[p];
        self.geo
            .mills
            .iter()
            .any(|m| m.contains(&p) && m.iter().all(|&q| self.cells[q] == c))
    }

    /// Every legal move as (text, successor).
    fn moves(&self) -> Vec<(String, Oracle)> {
        let me = self.side;
        let you = 3 - me;
        let mut out = Vec::new();
        if self.count(me) + (self.hand[me as usize] as usize) < 3 {
            return out;
        }
        let mut shifts: Vec<(Option<usize>, usize)> = Vec::new();
        if self.hand[me as usize] > 0 {
            for p in 0..24 {
                if self.cells[p] == 0 {
                    shifts.push((None, p));
                }
            }
        } else {
            let fly = self.flying && self.count(me) == 3;
            for s in 0..24 {
                if self.cells[s] != me {
                    continue;
                }
                for t in 0..24 {
                    if self.cells[t] == 0 && (fly || self.geo.adjacent[s].contains(&t)) {
                        shifts.push((Some(s), t));
                    }
                }
            }
        }
        for (from, to) in shifts {
            let mut next = self.clone();
            match from {
                Some(s) => next.cells[s] = 0,
                None => next.hand[me as usize] -= 1,
            }
            next.cells[to] = me;
            next.side = you;
            let text = match from {
                Some(s) => format!("{}-{}", NINE_READING[s], NINE_READING[to]),
                None => NINE_READING[to].to_string(),
            };
            let theirs: Vec<usize> = (0..24).filter(|&q| next.cells[q] == you).collect();
            if next.in_mill(to) && !theirs.is_empty() {
                let free: Vec<usize> = theirs
                    .iter()
                    .copied()
                    .filter(|&q| !next.in_mill(q))
                    .collect();
                let victims = if free.is_empty() { theirs } else { free };
                for v in victims {
                    let mut after = next.clone();
                    after.cells[v] = 0;
                    out.push((format!("{text}x{}", NINE_READING[v]), after));
                }
            } else {
                out.push((text, next));
            }
        }
        out
    }

    fn finished(&self) -> bool {
        self.moves().is_empty()
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            return 1;
        }
        moves.iter().map(|(_, next)| next.perft(depth - 1)).sum()
    }

    fn text(&self) -> String {
        let board: String = self
            .cells
            .iter()
            .map(|c| match c {
                1 => 'W',
                2 => 'B',
                _ => '.',
            })
            .collect();
        let side = if self.side == 1 { 'w' } else { 'b' };
        format!("{board} {side} {} {}", self.hand[1], self.hand[2])
    }
}

fn rules(flying: bool) -> RuleSet {
    RuleSet::nine(flying)
}

/// Positions from the start, the placement phase, the moving phase and the
/// flying endgame (all legal under `docs/notation.md`).
/// Each with the deepest perft compared (the oracle is slow).
const POSITIONS: [(&str, u32); 8] = [
    ("........................ w 9 9", 5),
    ("W.......B............... w 8 8", 4),
    ("WW.B....W..B...B......W. b 5 6", 4),
    ("WWWB.B..W..B...BW.B...W. b 3 4", 5),
    ("WW.BB.W..B.W.BW..B.W..B. w 0 0", 5),
    ("W..B.B.WWB....B.W.W.B... b 0 0", 5),
    ("W..B....W.B.....W..B.... w 0 0", 3),
    ("WWWBB..B...............B w 0 0", 3),
];

#[test]
fn perft_matches_the_oracle() {
    for flying in [true, false] {
        for &(text, max) in &POSITIONS {
            let pos: Position = text.parse().unwrap();
            let oracle = Oracle::parse(text, flying);
            assert_eq!(oracle.text(), pos.to_string());
            for depth in 1..=max {
                assert_eq!(
                    perft::<Nine>(&pos, rules(flying), depth),
                    oracle.perft(depth),
                    "{text} flying {flying} depth {depth}"
                );
            }
        }
    }
}

/// A small deterministic generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn move_lists_match_the_oracle_along_random_games() {
    let mut rng = Rng(0x51ED_2701_AB12_9F33);
    let mut positions = 0;
    let mut finished = 0;
    for game in 0..400 {
        let flying = game % 3 != 0;
        let mut pos = Position::start(rules(flying));
        for _ply in 0..200 {
            let oracle = Oracle::parse(&pos.to_string(), flying);
            let mut expected: Vec<String> = oracle.moves().into_iter().map(|(t, _)| t).collect();
            let moves = legal_moves::<Nine>(&pos, rules(flying));
            let mut got: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "{pos}");
            assert_eq!(
                ending::<Nine>(&pos, rules(flying)).is_some(),
                oracle.finished()
            );
            positions += 1;
            if moves.is_empty() {
                finished += 1;
                break;
            }
            // Successors agree too, and every move parses back from its text.
            let m = moves[rng.next() as usize % moves.len()];
            let next = pos.apply(m);
            let (_, onext) = oracle
                .moves()
                .into_iter()
                .find(|(t, _)| *t == m.to_string())
                .unwrap();
            assert_eq!(next.to_string(), onext.text());
            assert_eq!(
                parse_move::<Nine>(&pos, rules(flying), &m.to_string()),
                Ok(m)
            );
            pos = next;
        }
    }
    assert!(
        positions > 10_000 && finished > 10,
        "{positions} {finished}"
    );
}
