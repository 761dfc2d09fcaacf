//! The placement phase: an alpha-beta search over placements (win / draw /
//! loss) that scores every position reaching the moving phase by probing the
//! tablebases. Move ordering puts removals first, then placements on busy
//! points (more neighbours, more own stones beside them); a transposition
//! table keyed by the canonical position under the 16 symmetries keeps
//! bounds (fixed size, two-way buckets, entries nearer the root kept). This
//! is how `solver nine start` proves the start position a draw.

use super::movegen::{apply, for_each_move, game_over};
use super::nine::ADJACENT;
use super::position::{Move, Position};
use super::probe::{ProbeError, Tablebases};
use tablebase::Outcome;

/// Bounds on a position's score (−1 loss, 0 draw, 1 win).
#[derive(Debug, Clone, Copy)]
struct Bounds {
    lower: i8,
    upper: i8,
}

/// One transposition-table entry; `key == 0` marks an empty slot (no
/// placement position has key 0: a side to move still places).
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    lower: i8,
    upper: i8,
    /// Stones still in hand: plies to the end of placement.
    depth: u8,
}

/// A fixed-size transposition table of two-entry buckets.
struct Table {
    entries: Vec<Entry>,
    shift: u32,
    filled: u64,
}

impl Table {
    fn new(bits: u32) -> Table {
        let bits = bits.clamp(4, 40);
        Table {
            entries: vec![Entry::default(); 1 << bits],
            shift: 64 - bits,
            filled: 0,
        }
    }

    fn bucket(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize & !1
    }

    fn get(&self, key: u64) -> Option<Bounds> {
        let b = self.bucket(key);
        self.entries[b..b + 2]
            .iter()
            .find(|e| e.key == key)
            .map(|e| Bounds {
                lower: e.lower,
                upper: e.upper,
            })
    }

    fn put(&mut self, key: u64, bounds: Bounds, depth: u8) {
        let b = self.bucket(key);
        let slot = match self.entries[b..b + 2].iter().position(|e| e.key == key) {
            Some(i) => b + i,
            None => {
                // An empty slot, else the entry farther from the root.
                let (x, y) = (self.entries[b], self.entries[b + 1]);
                let i = if x.key == 0 || (y.key != 0 && x.depth <= y.depth) {
                    b
                } else {
                    b + 1
                };
                if self.entries[i].key == 0 {
                    self.filled += 1;
                }
                i
            }
        };
        self.entries[slot] = Entry {
            key,
            lower: bounds.lower,
            upper: bounds.upper,
            depth,
        };
    }
}

/// Statistics of a search.
#[derive(Debug, Clone, Copy, Default)]
pub struct SearchStats {
    /// Positions visited.
    pub nodes: u64,
    /// Tablebase probes at the end of placement.
    pub probes: u64,
    /// Transposition-table hits that cut the search.
    pub tt_cuts: u64,
    /// Entries in the transposition table.
    pub tt_entries: u64,
}

/// An exact win/draw/loss search of placement positions over tablebases.
pub struct PlacementSearch<'a> {
    tb: &'a Tablebases,
    table: Table,
    stats: SearchStats,
    progress: Option<(u64, Reporter<'a>)>,
}

/// A progress callback.
type Reporter<'a> = Box<dyn FnMut(SearchStats) + 'a>;

fn score(o: Outcome) -> i8 {
    match o {
        Outcome::Win => 1,
        Outcome::Draw => 0,
        Outcome::Loss => -1,
    }
}

fn outcome(s: i8) -> Outcome {
    match s.signum() {
        1 => Outcome::Win,
        0 => Outcome::Draw,
        _ => Outcome::Loss,
    }
}

/// Transposition key: canonical mover-relative stones and both hands.
fn key(pos: &Position) -> u64 {
    let (c, _) = pos.canonical();
    c.us() as u64
        | (c.them() as u64) << 24
        | (pos.our_hand() as u64) << 48
        | (pos.their_hand() as u64) << 56
}

/// Ordering key of a move, smaller first: removals, then busy points.
fn order(pos: &Position, m: Move) -> i32 {
    let to = m.to() as usize;
    let busy = ADJACENT[to].count_ones() as i32 + 2 * (ADJACENT[to] & pos.us()).count_ones() as i32;
    -(m.removal().is_some() as i32) * 100 - busy
}

impl<'a> PlacementSearch<'a> {
    /// A search over the tablebases `tb` with a 16 MiB transposition table.
    pub fn new(tb: &'a Tablebases) -> PlacementSearch<'a> {
        PlacementSearch::with_table_mib(tb, 16)
    }

    /// A search with a transposition table of about `mib` MiB (16-byte
    /// entries, rounded down to a power of two).
    pub fn with_table_mib(tb: &'a Tablebases, mib: u64) -> PlacementSearch<'a> {
        let entries = (mib.max(1) << 20) / 16;
        PlacementSearch::with_table_bits(tb, 63 - entries.leading_zeros())
    }

    /// A search with a transposition table of `2^bits` entries (4..=40).
    pub fn with_table_bits(tb: &'a Tablebases, bits: u32) -> PlacementSearch<'a> {
        PlacementSearch {
            tb,
            table: Table::new(bits),
            stats: SearchStats::default(),
            progress: None,
        }
    }

    /// Call `report` with the statistics every `every` nodes (for long proofs).
    pub fn with_progress(
        mut self,
        every: u64,
        report: impl FnMut(SearchStats) + 'a,
    ) -> PlacementSearch<'a> {
        self.progress = Some((every.max(1), Box::new(report)));
        self
    }

    /// Statistics so far.
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            tt_entries: self.table.filled,
            ..self.stats
        }
    }

    /// The exact value of a position (placement or moving phase) for the
    /// side to move.
    pub fn value(&mut self, pos: &Position) -> Result<Outcome, ProbeError> {
        pos.validate()?;
        Ok(outcome(self.search(pos, -1, 1)?))
    }

    /// The value of every legal move for the side to move, best first.
    pub fn move_values(&mut self, pos: &Position) -> Result<Vec<(Move, Outcome)>, ProbeError> {
        pos.validate()?;
        let mut moves = Vec::new();
        for_each_move(pos, self.tb.rules(), |m| moves.push(m));
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            let child = apply(pos, m);
            out.push((m, outcome(-self.search(&child, -1, 1)?)));
        }
        out.sort_by_key(|&(m, o)| (std::cmp::Reverse(o), m));
        Ok(out)
    }

    fn search(&mut self, pos: &Position, mut alpha: i8, mut beta: i8) -> Result<i8, ProbeError> {
        self.stats.nodes += 1;
        if let Some((every, report)) = &mut self.progress {
            if self.stats.nodes.is_multiple_of(*every) {
                report(SearchStats {
                    tt_entries: self.table.filled,
                    ..self.stats
                });
            }
        }
        if game_over(pos, self.tb.rules()).is_some() {
            return Ok(-1);
        }
        if !pos.placing() {
            self.stats.probes += 1;
            return Ok(score(self.tb.probe_bits(pos.us(), pos.them())?.outcome()));
        }
        let k = key(pos);
        let known = self.table.get(k).unwrap_or(Bounds {
            lower: -1,
            upper: 1,
        });
        if known.lower >= beta || known.upper <= alpha || known.lower == known.upper {
            self.stats.tt_cuts += 1;
            return Ok(if known.lower >= beta {
                known.lower
            } else {
                known.upper
            });
        }
        alpha = alpha.max(known.lower);
        beta = beta.min(known.upper);
        let (alpha0, beta0) = (alpha, beta);
        let mut moves: Vec<Move> = Vec::with_capacity(64);
        for_each_move(pos, self.tb.rules(), |m| moves.push(m));
        moves.sort_by_key(|&m| order(pos, m));
        let mut best = -1;
        for m in moves {
            let s = -self.search(&apply(pos, m), -beta, -alpha)?;
            if s > best {
                best = s;
                alpha = alpha.max(s);
                if alpha >= beta {
                    break;
                }
            }
        }
        let mut b = known;
        if best <= alpha0 {
            b.upper = b.upper.min(best);
        } else if best >= beta0 {
            b.lower = b.lower.max(best);
        } else {
            b = Bounds {
                lower: best,
                upper: best,
            };
        }
        self.table.put(k, b, pos.hand[0] + pos.hand[1]);
        Ok(best)
    }
}
