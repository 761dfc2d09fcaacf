//! Lasker Morris solved sector pair by sector pair on the game-agnostic
//! retrograde engine ([`tablebase::retro`]): slides without removal stay
//! in the pair (the engine walks their cycles), placements and removals
//! are exits into pairs solved before ([`crate::games::lasker::sector::pairs`]), a removal
//! that leaves the opponent fewer than 3 stones wins at once.
//!
//! [`LaskerPair`] is generic over the index (the dense one of the reduced
//! games in memory, [`LaskerSolution`]; Nine Men's Morris's
//! symmetry-reduced one of the generator on disk, [`crate::games::lasker::tables`]) and
//! over how the exit tables are held (values, or two-bit outcomes).
//!
//! Values carry the distance to conversion: plies to the next placement or
//! removal, or to the end of the game.

use crate::games::lasker::moves::{apply, for_each_move, for_each_unmove};
use crate::games::lasker::sector::{pairs, LaskerSector};
use crate::index::{self, Dense, Indexing, MoverSlots};
use crate::rules::board::Board;
use crate::rules::geometry::Bits;
use crate::rules::position::Position;
use crate::rules::variant::RuleSet;
use crate::tables::pair::{BestValue, Outcomes, Within};
use crate::tables::solve::{check_stones, SolveError, TableReport};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::time::Instant;
use tablebase::retro::{solve, Exit, Observer, RetroGame};
use tablebase::{Outcome, Value};

/// Solved tables by sector.
pub type Tables = BTreeMap<LaskerSector, Vec<Value>>;

/// The tables a sector's exits lead into, as `V` (values, or outcomes at
/// two bits a slot): `None` where the move wins at once or cannot happen.
pub struct Exits<'a, V: ?Sized> {
    /// A placement without removal.
    place: Option<&'a V>,
    /// A placement with a removal.
    place_removal: Option<&'a V>,
    /// A board move with a removal.
    slide_removal: Option<&'a V>,
}

/// The sectors the moves of `s` that leave its pair lead into: a placement
/// without removal, with one, and a board move with one (`None` where the
/// move wins at once or cannot happen).
pub fn exit_sectors(s: LaskerSector) -> [Option<LaskerSector>; 3] {
    [
        s.after_placement(false),
        if s.them > 0 {
            s.after_placement(true)
        } else {
            None
        },
        s.after_slide_removal(),
    ]
}

impl<'a, V: ?Sized> Exits<'a, V> {
    /// The exit tables of sector `s`, from `lookup` (an error names the
    /// first sector it lacks).
    pub fn new(
        s: LaskerSector,
        mut lookup: impl FnMut(LaskerSector) -> Option<&'a V>,
    ) -> Result<Exits<'a, V>, SolveError> {
        let mut get = |e: Option<LaskerSector>| -> Result<Option<&'a V>, SolveError> {
            match e {
                None => Ok(None),
                Some(e) => lookup(e)
                    .map(Some)
                    .ok_or_else(|| SolveError::LaskerMissing(format!("{e:?}"))),
            }
        };
        let [place, place_removal, slide_removal] = exit_sectors(s);
        Ok(Exits {
            place: get(place)?,
            place_removal: get(place_removal)?,
            slide_removal: get(slide_removal)?,
        })
    }

    /// The table of a move that leaves the pair (`placement`, `removal`);
    /// `None`: the move wins at once.
    #[inline]
    fn table(&self, placement: bool, removal: bool) -> Option<&'a V> {
        match (placement, removal) {
            (true, false) => self.place,
            (true, true) => self.place_removal,
            (false, _) => self.slide_removal,
        }
    }
}

impl<V: Outcomes + ?Sized> Exits<'_, V> {
    /// The outcome, for the opponent to move, of the successor in `slot`
    /// of a move that leaves the pair; a removal without a table wins at
    /// once (the opponent has lost).
    #[inline]
    fn outcome(&self, placement: bool, removal: bool, slot: impl FnOnce() -> u64) -> Outcome {
        match self.table(placement, removal) {
            Some(t) => t.outcome(slot()),
            None => Outcome::Loss,
        }
    }
}

impl Exits<'_, [Value]> {
    /// The value, for the opponent to move, of the successor in `slot` of a
    /// move that leaves the pair; a removal without a table wins at once.
    #[inline]
    fn value(&self, placement: bool, removal: bool, slot: impl FnOnce() -> u64) -> Value {
        match self.table(placement, removal) {
            Some(t) => t[slot() as usize],
            None => Value::loss(0),
        }
    }
}

/// One sector pair of board `B` over index `I` as a game for the
/// retrograde engine, with the solved tables its exits lead into as `V`
/// (values in memory, or two-bit outcomes read from files).
pub struct LaskerPair<'a, B: Board, I: Indexing, V: Outcomes + ?Sized = [Value]> {
    rules: RuleSet,
    parts: Vec<LaskerSector>,
    exits: Vec<Exits<'a, V>>,
    board: PhantomData<(B, I)>,
}

/// The sectors of the pair of `s`: `[s, s.swapped()]`, or `[s]` when they
/// are equal.
pub fn pair_parts(s: LaskerSector) -> Vec<LaskerSector> {
    if s == s.swapped() {
        vec![s]
    } else {
        vec![s, s.swapped()]
    }
}

impl<'a, B: Board, I: Indexing, V: Outcomes + ?Sized> LaskerPair<'a, B, I, V> {
    /// The pair of `s` (`[s, s.swapped()]`, or `[s]` when they are equal),
    /// with the solved tables its exits lead into from `lookup`.
    pub fn new(
        rules: RuleSet,
        s: LaskerSector,
        mut lookup: impl FnMut(LaskerSector) -> Option<&'a V>,
    ) -> Result<LaskerPair<'a, B, I, V>, SolveError> {
        let parts = pair_parts(s);
        let exits = parts
            .iter()
            .map(|&p| Exits::new(p, &mut lookup))
            .collect::<Result<_, _>>()?;
        Ok(LaskerPair {
            rules,
            parts,
            exits,
            board: PhantomData,
        })
    }

    /// The sectors of the pair, in the order of the engine's parts.
    pub fn parts(&self) -> &[LaskerSector] {
        &self.parts
    }

    /// The successors inside the pair of `(us, them)`, a position of
    /// `part`, and its best exit.
    #[inline(always)]
    fn expand_position(
        &self,
        part: usize,
        us: Bits,
        them: Bits,
        succ: &mut impl FnMut(u64),
    ) -> Exit {
        let s = self.parts[part];
        let exits = &self.exits[part];
        // The next mover is the opponent, with the same stones after a
        // board move or a placement without removal: one half of the slot
        // computed once for all of them.
        let n = us.count_ones();
        let slides = I::mover::<B>(them, n);
        let placed = I::mover::<B>(them, n + 1);
        let mut best = Exit::None;
        for_each_move::<B>(us, them, s.us_hand, self.rules, |m| {
            let (nu, nt) = apply(us, them, m);
            let placement = m.from().is_none();
            let removal = m.removal().is_some();
            if !placement && !removal {
                succ(slides.index(nt));
            } else if best != Exit::Win {
                let slot = || {
                    if removal {
                        I::slot::<B>(nu, nt)
                    } else {
                        placed.index(nt)
                    }
                };
                best = best.max(match exits.outcome(placement, removal, slot) {
                    Outcome::Loss => Exit::Win,
                    Outcome::Draw => Exit::Draw,
                    Outcome::Win => Exit::Loss,
                });
            }
        });
        best
    }
}

impl<B: Board, I: Indexing, V: Outcomes + ?Sized> RetroGame for LaskerPair<'_, B, I, V> {
    fn parts(&self) -> usize {
        self.parts.len()
    }

    fn size(&self, part: usize) -> u64 {
        I::size::<B>(self.parts[part].subspace())
    }

    fn expand(&self, part: usize, idx: u64, succ: &mut impl FnMut(u64)) -> Option<Exit> {
        let (us, them) = I::position::<B>(self.parts[part].subspace(), idx)?;
        Some(self.expand_position(part, us, them, succ))
    }

    /// Slots in order, stepping from one position to the next
    /// ([`Indexing::for_each_position`]) instead of decoding each slot.
    fn expand_each(
        &self,
        part: usize,
        range: std::ops::Range<u64>,
        visit: &mut impl FnMut(u64, Exit, &mut Vec<u64>),
    ) {
        let mut buf = Vec::new();
        I::for_each_position::<B>(self.parts[part].subspace(), range, |idx, us, them| {
            buf.clear();
            let exit = self.expand_position(part, us, them, &mut |j| buf.push(j));
            visit(idx, exit, &mut buf);
        });
    }

    fn predecessors(&self, part: usize, idx: u64, pred: &mut impl FnMut(u64)) {
        let s = self.parts[part];
        let Some((us, them)) = I::position::<B>(s.subspace(), idx) else {
            return;
        };
        // At most 3 flying stones × 21 empty points, or 10 stones × 4
        // neighbours; gathered so that their index lookups overlap.
        let mut prevs = [0; 64];
        let mut n = 0;
        for_each_unmove::<B>(us, them, s.them_hand, self.rules, |prev| {
            prevs[n] = prev;
            n += 1;
        });
        I::for_each_slot::<B>(&prevs[..n], us, pred);
    }
}

/// What the solve reports about each sector.
pub type SectorReport = TableReport<LaskerSector>;

/// The `stones`-stone Lasker game solved in memory.
pub struct LaskerSolution<B: Board> {
    /// The rule set.
    pub rules: RuleSet,
    /// Values by sector.
    pub tables: Tables,
    /// One report per sector, in the order solved.
    pub reports: Vec<SectorReport>,
    board: PhantomData<B>,
}

impl<B: Board> LaskerSolution<B> {
    /// Solve every sector of the game under `rules` (which must interleave);
    /// `report` hears of every sector solved.
    pub fn solve(
        rules: RuleSet,
        observer: &dyn Observer,
        mut report: impl FnMut(&SectorReport),
    ) -> Result<LaskerSolution<B>, SolveError> {
        if !rules.interleave {
            return Err(SolveError::NotLasker);
        }
        check_stones::<B>(rules)?;
        let mut sol = LaskerSolution {
            rules,
            tables: BTreeMap::new(),
            reports: Vec::new(),
            board: PhantomData,
        };
        for s in pairs::<B>(rules.stones) {
            let started = Instant::now();
            // Exits read at a count of zero under a count rule.
            let within: BTreeMap<LaskerSector, Within> = sol
                .tables
                .iter()
                .map(|(&k, v)| (k, Within::new(v, rules)))
                .collect();
            let game = LaskerPair::<B, Dense, Within>::new(rules, s, |e| within.get(&e))?;
            let parts = game.parts.clone();
            let (values, _) = solve(&game, observer)?;
            let seconds = started.elapsed().as_secs_f64();
            for (part, v) in parts.into_iter().zip(values) {
                let r = SectorReport::of_values(part, &v, seconds);
                report(&r);
                sol.reports.push(r);
                sol.tables.insert(part, v);
            }
        }
        Ok(sol)
    }

    /// A solution from tables loaded from files.
    pub fn from_tables(rules: RuleSet, tables: Tables) -> LaskerSolution<B> {
        LaskerSolution {
            rules,
            tables,
            reports: Vec::new(),
            board: PhantomData,
        }
    }

    /// The sector of a position.
    pub fn sector_of(pos: &Position) -> LaskerSector {
        LaskerSector::of(pos)
    }

    /// The value of a position for the side to move, with its distance to
    /// conversion; `None` when its sector is not solved (or not in the game).
    pub fn value(&self, pos: &Position) -> Option<Value> {
        let table = self.tables.get(&Self::sector_of(pos))?;
        table
            .get(index::slot::<B>(pos.us(), pos.them()) as usize)
            .copied()
    }

    /// Recompute every value from its successors' stored values (the
    /// definition of a value) and count the slots that differ: per sector,
    /// `(sector, checked, mismatches)`.
    pub fn verify(&self) -> Result<Vec<(LaskerSector, u64, u64)>, SolveError> {
        let mut out = Vec::new();
        for (&s, values) in &self.tables {
            let partner = self
                .tables
                .get(&s.swapped())
                .ok_or_else(|| SolveError::LaskerMissing(format!("{:?}", s.swapped())))?;
            let exits = Exits::new(s, |e| self.tables.get(&e).map(Vec::as_slice))?;
            let bad = (0..values.len() as u64)
                .into_par_iter()
                .filter(|&slot| {
                    let (us, them) = index::position::<B>(s.subspace(), slot);
                    recompute::<B, Dense>(self.rules, s, us, them, partner, &exits)
                        != values[slot as usize]
                })
                .count() as u64;
            out.push((s, values.len() as u64, bad));
        }
        Ok(out)
    }
}

/// The value of `(us, them)` in sector `s` from its successors' stored
/// values, looked up by slot of index `I` (`partner`: the swapped sector,
/// which board moves without removal reach; `exits`: the sectors the other
/// moves reach): a win takes the fastest way out, a loss the slowest, a
/// placement or removal counts one ply (it converts). The definition of a
/// stored value, which `verify` checks every table against.
pub fn recompute<B: Board, I: Indexing>(
    rules: RuleSet,
    s: LaskerSector,
    us: Bits,
    them: Bits,
    partner: &[Value],
    exits: &Exits<[Value]>,
) -> Value {
    let mut best = BestValue::default();
    for_each_move::<B>(us, them, s.us_hand, rules, |m| {
        let (nu, nt) = apply(us, them, m);
        let placement = m.from().is_none();
        let removal = m.removal().is_some();
        let conversion = placement || removal;
        let slot = || I::slot::<B>(nu, nt);
        let v = if conversion {
            // A placement or removal restarts the count rule's count.
            let v = exits.value(placement, removal, slot);
            rules.quiet_limit.map_or(v, |l| v.within(l))
        } else {
            partner[slot() as usize]
        };
        best.add(v, conversion);
    });
    best.value()
}
