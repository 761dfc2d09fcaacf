//! The engine against a slow, independent level-by-level oracle on random
//! game graphs with cycles, duplicates, unused slots and exits.

use super::*;

struct Graph {
    parts: usize,
    used: Vec<Vec<bool>>,
    exits: Vec<Vec<Exit>>,
    succ: Vec<Vec<Vec<u64>>>,
    pred: Vec<Vec<Vec<u64>>>,
}

struct Rng(u64);
impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn random_graph(seed: u64, parts: usize, sizes: [u64; 2]) -> Graph {
    let mut rng = Rng(seed);
    let used: Vec<Vec<bool>> = (0..parts)
        .map(|p| (0..sizes[p]).map(|_| rng.next(10) != 0).collect())
        .collect();
    let mut g = Graph {
        parts,
        exits: (0..parts)
            .map(|p| {
                (0..sizes[p])
                    .map(|_| match rng.next(12) {
                        0 => Exit::Win,
                        1 | 2 => Exit::Draw,
                        3 | 4 => Exit::Loss,
                        _ => Exit::None,
                    })
                    .collect()
            })
            .collect(),
        succ: (0..parts)
            .map(|p| vec![Vec::new(); sizes[p] as usize])
            .collect(),
        pred: (0..parts)
            .map(|p| vec![Vec::new(); sizes[p] as usize])
            .collect(),
        used,
    };
    for p in 0..parts {
        let q = if parts == 2 { 1 - p } else { p };
        for i in 0..sizes[p] as usize {
            if !g.used[p][i] {
                continue;
            }
            for _ in 0..rng.next(5) {
                let j = rng.next(sizes[q]) as usize;
                if g.used[q][j] {
                    // Some moves are reported twice, as symmetric duplicates are.
                    for _ in 0..1 + rng.next(2) {
                        g.succ[p][i].push(j as u64);
                        g.pred[q][j].push(i as u64);
                    }
                }
            }
        }
    }
    g
}

impl RetroGame for Graph {
    fn parts(&self) -> usize {
        self.parts
    }
    fn size(&self, part: usize) -> u64 {
        self.used[part].len() as u64
    }
    fn expand(&self, part: usize, idx: u64, succ: &mut impl FnMut(u64)) -> Option<Exit> {
        let i = idx as usize;
        if !self.used[part][i] {
            return None;
        }
        self.succ[part][i].iter().for_each(|&j| succ(j));
        Some(self.exits[part][i])
    }
    fn predecessors(&self, part: usize, idx: u64, pred: &mut impl FnMut(u64)) {
        self.pred[part][idx as usize].iter().for_each(|&j| pred(j));
    }
}

/// Assign values level by level straight from the definition, without
/// counters or predecessor lists.
fn oracle(g: &Graph) -> Vec<Vec<Option<Value>>> {
    let mut vals: Vec<Vec<Option<Value>>> =
        (0..g.parts).map(|p| vec![None; g.used[p].len()]).collect();
    let other = |p: usize| if g.parts == 2 { 1 - p } else { p };
    for d in 0u16..1000 {
        let mut new = Vec::new();
        for p in 0..g.parts {
            for i in 0..g.used[p].len() {
                if !g.used[p][i] || vals[p][i].is_some() {
                    continue;
                }
                let succ: Vec<Option<Value>> = g.succ[p][i]
                    .iter()
                    .map(|&j| vals[other(p)][j as usize])
                    .collect();
                let exit = g.exits[p][i];
                let wins_now = (d == 1 && exit == Exit::Win)
                    || (d >= 1 && succ.contains(&Some(Value::loss(d - 1))));
                let all_won = succ.iter().all(|v| {
                    v.is_some_and(|v| v.outcome() == crate::value::Outcome::Win && v.0 / 2 < d)
                });
                let longest = succ
                    .iter()
                    .map(|v| v.map_or(0, |v| v.0 / 2 + 1))
                    .max()
                    .unwrap_or(0);
                let exit_len = if exit == Exit::Loss { 1 } else { 0 };
                if wins_now {
                    new.push((p, i, Value::win(d)));
                } else if all_won
                    && exit != Exit::Win
                    && exit != Exit::Draw
                    && longest.max(exit_len) == d
                {
                    new.push((p, i, Value::loss(d)));
                }
            }
        }
        for (p, i, v) in new {
            vals[p][i] = Some(v);
        }
    }
    vals
}

#[test]
fn engine_matches_oracle_on_random_graphs() {
    for seed in 1..40u64 {
        let parts = 1 + (seed % 2) as usize;
        let g = random_graph(seed * 0x9E37_79B9, parts, [3000, 2200]);
        let (values, _) = solve(&g, &Silent).unwrap();
        let expected = oracle(&g);
        let mut decided = 0;
        for p in 0..parts {
            for i in 0..g.used[p].len() {
                if !g.used[p][i] {
                    continue;
                }
                let want = expected[p][i].unwrap_or(Value::DRAW);
                decided += (want != Value::DRAW) as u32;
                assert_eq!(values[p][i], want, "seed {seed} part {p} slot {i}");
            }
        }
        assert!(decided > 100, "graph {seed} too trivial");
    }
}

#[test]
fn same_result_with_one_thread() {
    let g = random_graph(77, 2, [5000, 4000]);
    let (many, _) = solve(&g, &Silent).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let (one, _) = pool.install(|| solve(&g, &Silent)).unwrap();
    assert_eq!(many, one);
}
