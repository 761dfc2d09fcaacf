//! The whole game of a family variant solved: the moving phase pair by pair
//! on the game-agnostic retrograde engine ([`tablebase::retro`]), then the
//! placement sectors in one forward pass each, in order of the stones left
//! in hand, down from the moving phase to the empty board (the scheme of
//! Nine Men's Morris, [`crate::database`] and
//! [`crate::placement_tables`], over the dense index of
//! [`super::index`]).
//!
//! Moving-phase values carry the distance to conversion (plies to the next
//! removal or the end of the game, as in Nine Men's Morris); placement
//! values are outcomes (win, draw, loss), as Nine's placement tables.

use super::index::{self, Dense, Indexing, MoverSlots, SlideSlots};
use crate::board::Board;
use crate::geometry::Bits;
use crate::index::Subspace;
use crate::moving::{flies, for_each_move_on, for_each_unmove_on};
use crate::nine::points;
use crate::pair::{best_removal, Outcomes};
use crate::position::Position;
use crate::sector::{Sector, TableId};
use crate::variant::{FullBoard, RuleSet};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::time::Instant;
use tablebase::retro::{solve, Exit, Observer, RetroError, RetroGame};
use tablebase::{Outcome, Value};

/// Errors of a solve.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The retrograde engine failed.
    #[error(transparent)]
    Retro(#[from] RetroError),
    /// A table that a placement leads into was not solved first.
    #[error("table {0:?} is needed before it is solved")]
    Missing(TableId),
    /// The rule set has fewer than 3 or more stones than the board takes.
    #[error("{stones} stones a side do not fit a game on {points} points")]
    Stones {
        /// Stones a side.
        stones: u8,
        /// Points of the board.
        points: usize,
    },
    /// A Lasker sector that an exit leads into was not solved first.
    #[error("Lasker sector {0} is needed before it is solved")]
    LaskerMissing(String),
    /// The Lasker solver was given a rule set without interleaving.
    #[error("the rule set does not interleave placing and sliding: not Lasker Morris")]
    NotLasker,
}

/// Every moving-phase subspace of a game with `stones` stones a side, as
/// pairs `(w, b)` with `w ≥ b`, in the order they are solved (by total
/// stones: a removal leads into a pair with one stone less).
pub fn pairs(stones: u8) -> Vec<Subspace> {
    let mut out = Vec::new();
    for total in 6..=2 * stones {
        for w in (total.div_ceil(2)..=stones.min(total - 3)).rev() {
            out.push(Subspace::new(w, total - w));
        }
    }
    out
}

/// One pair of moving-phase subspaces of board `B` over index `I` as a
/// game for the retrograde engine, with the outcomes (`V`: values in
/// memory, or two bits a slot) of the solved subspaces its removals lead
/// into.
pub struct MovingPair<'a, B: Board, I: Indexing, V: Outcomes + ?Sized = [Value]> {
    rules: RuleSet,
    parts: Vec<Subspace>,
    exits: Vec<Option<&'a V>>,
    board: PhantomData<(B, I)>,
}

/// The pair over the dense index (the small boards, solved whole).
pub type DensePair<'a, B> = MovingPair<'a, B, Dense>;

impl<'a, B: Board, I: Indexing, V: Outcomes + ?Sized> MovingPair<'a, B, I, V> {
    /// The pair of `sub` (`[(w, b), (b, w)]`, or `[(w, w)]`); `lookup`
    /// gives the solved outcomes of each subspace a removal leads into.
    pub fn new(
        rules: RuleSet,
        sub: Subspace,
        mut lookup: impl FnMut(Subspace) -> Option<&'a V>,
    ) -> Result<MovingPair<'a, B, I, V>, SolveError> {
        let parts = if sub.us == sub.them {
            vec![sub]
        } else {
            vec![sub, sub.swapped()]
        };
        let mut exits = Vec::new();
        for part in &parts {
            exits.push(match part.exit() {
                None => None,
                Some(e) => Some(lookup(e).ok_or(SolveError::Missing(TableId::Moving(e)))?),
            });
        }
        Ok(MovingPair {
            rules,
            parts,
            exits,
            board: PhantomData,
        })
    }

    /// The subspaces of the pair, in the order of the engine's parts.
    pub fn parts(&self) -> &[Subspace] {
        &self.parts
    }

    /// The successors inside the pair of `(us, them)`, a position of
    /// `part` (to `succ`), and its best exit.
    #[inline(always)]
    fn expand_position(
        &self,
        part: usize,
        us: Bits,
        them: Bits,
        succ: &mut impl FnMut(u64),
    ) -> Exit {
        // Without removal the opponent's stones are the next mover's,
        // unchanged, and the successors differ from each other by one
        // stone's move: `slides` ranks them from what they share.
        let slides = I::mover::<B>(them, us.count_ones()).slides(us);
        let empty = !(us | them) & B::FULL;
        let fly = flies(us, self.rules.flying);
        // The mill-closing moves' results (the mover's stones after them):
        // at most 3 flying stones × 21 empty points, or 12 stones × 5
        // neighbours.
        let mut closing = [0; 64];
        let mut n = 0;
        let mut moves = false;
        for from in points(us) {
            let rest = us & !(1 << from);
            let to_points = B::destinations(from, empty, fly);
            moves |= to_points != 0;
            for to in points(to_points) {
                if B::in_mill(rest | 1 << to, to) {
                    closing[n] = rest | 1 << to;
                    n += 1;
                } else {
                    succ(slides.index(from, to));
                }
            }
        }
        // A full board (only after placement) is a draw under that rule.
        if !moves && (us | them) == B::FULL && self.rules.full_board == FullBoard::Draw {
            return Exit::Draw;
        }
        if n == 0 {
            Exit::None
        } else {
            self.best_removal(part, them, B::removable(them), &closing[..n])
        }
    }

    /// The best exit among the removals after the mill-closing moves that
    /// leave the mover with `closing` stones (Nine's
    /// [`crate::pair::best_removal`], over index `I`).
    #[inline(always)]
    fn best_removal(&self, part: usize, them: Bits, taken: Bits, closing: &[Bits]) -> Exit {
        let Some(table) = self.exits[part] else {
            // The opponent drops to two stones.
            return Exit::Win;
        };
        let w = closing[0].count_ones();
        best_removal(
            table,
            them,
            taken,
            closing,
            I::prefetch_mover::<B>,
            |rest| {
                let mover = I::mover::<B>(rest, w);
                move |nt| mover.index(nt)
            },
        )
    }
}

impl<B: Board, I: Indexing, V: Outcomes + ?Sized> RetroGame for MovingPair<'_, B, I, V> {
    fn parts(&self) -> usize {
        self.parts.len()
    }

    fn size(&self, part: usize) -> u64 {
        I::size::<B>(self.parts[part])
    }

    fn expand(&self, part: usize, idx: u64, succ: &mut impl FnMut(u64)) -> Option<Exit> {
        let (us, them) = I::position::<B>(self.parts[part], idx)?;
        Some(self.expand_position(part, us, them, succ))
    }

    /// Slots in order, decoded in batches: the class-table entry of each
    /// position's opponent (the next mover after a move without removal)
    /// misses the cache, so the batch's lookups are asked for first.
    fn expand_each(
        &self,
        part: usize,
        range: std::ops::Range<u64>,
        visit: &mut impl FnMut(u64, Exit, &mut Vec<u64>),
    ) {
        const BATCH: u64 = 16;
        let mut buf = Vec::new();
        let mut batch = [(0u64, 0, 0); BATCH as usize];
        let mut start = range.start;
        while start < range.end {
            let mut n = 0;
            for idx in start..(start + BATCH).min(range.end) {
                if let Some((us, them)) = I::position::<B>(self.parts[part], idx) {
                    I::prefetch_mover::<B>(them);
                    batch[n] = (idx, us, them);
                    n += 1;
                }
            }
            for &(idx, us, them) in &batch[..n] {
                buf.clear();
                let exit = self.expand_position(part, us, them, &mut |j| buf.push(j));
                visit(idx, exit, &mut buf);
            }
            start += BATCH;
        }
    }

    fn predecessors(&self, part: usize, idx: u64, pred: &mut impl FnMut(u64)) {
        let Some((us, them)) = I::position::<B>(self.parts[part], idx) else {
            return;
        };
        // At most 3 × 21 unmoves (a flying side), or 12 stones × 5
        // neighbours; gathered so that their class-table misses overlap.
        let mut prevs = [0; 64];
        let mut n = 0;
        for_each_unmove_on::<B>(us, them, self.rules.flying, |prev| {
            I::prefetch_mover::<B>(prev);
            prevs[n] = prev;
            n += 1;
        });
        for &prev in &prevs[..n] {
            pred(I::slot::<B>(prev, us));
        }
    }
}

/// What the solve reports about each table (`K` names it: a [`TableId`],
/// or a Lasker sector).
#[derive(Debug, Clone)]
pub struct TableReport<K = TableId> {
    /// The table.
    pub id: K,
    /// Slots (positions).
    pub slots: u64,
    /// Wins, draws and losses for the side to move.
    pub wdl: [u64; 3],
    /// Longest distance (plies to conversion) of a win, for moving-phase tables.
    pub longest_win: u16,
    /// Seconds (CPU under load: wall time of this table).
    pub seconds: f64,
}

/// The whole game solved in memory.
pub struct Solution<B: Board> {
    /// The rule set.
    pub rules: RuleSet,
    /// Moving-phase values by subspace.
    pub moving: BTreeMap<Subspace, Vec<Value>>,
    /// Placement outcomes by sector.
    pub placement: BTreeMap<Sector, Vec<Outcome>>,
    /// One report per table, in the order solved.
    pub reports: Vec<TableReport>,
    board: PhantomData<B>,
}

impl<K> TableReport<K> {
    /// The report of a table of values (with distances) solved in `seconds`.
    pub fn of_values(id: K, values: &[Value], seconds: f64) -> TableReport<K> {
        TableReport {
            id,
            slots: values.len() as u64,
            wdl: wdl(values.iter().map(|x| x.outcome())),
            longest_win: values
                .iter()
                .filter(|x| x.outcome() == Outcome::Win)
                .filter_map(|x| x.distance())
                .max()
                .unwrap_or(0),
            seconds,
        }
    }
}

/// Refuse a game whose stones a side (at least 3) do not fit board `B`
/// twice over.
pub(crate) fn check_stones<B: Board>(rules: RuleSet) -> Result<(), SolveError> {
    if rules.stones < 3 || 2 * rules.stones as usize > B::POINTS {
        return Err(SolveError::Stones {
            stones: rules.stones,
            points: B::POINTS,
        });
    }
    Ok(())
}

/// Count wins, draws and losses.
fn wdl(outcomes: impl Iterator<Item = Outcome>) -> [u64; 3] {
    let mut out = [0; 3];
    for o in outcomes {
        out[match o {
            Outcome::Win => 0,
            Outcome::Draw => 1,
            Outcome::Loss => 2,
        }] += 1;
    }
    out
}

impl<B: Board> Solution<B> {
    /// Solve the moving phase and, with `placement`, the placement sectors
    /// of the game under `rules`; `report` hears of every table solved.
    pub fn solve(
        rules: RuleSet,
        placement: bool,
        observer: &dyn Observer,
        mut report: impl FnMut(&TableReport),
    ) -> Result<Solution<B>, SolveError> {
        check_stones::<B>(rules)?;
        let mut sol = Solution {
            rules,
            moving: BTreeMap::new(),
            placement: BTreeMap::new(),
            reports: Vec::new(),
            board: PhantomData,
        };
        for sub in pairs(rules.stones) {
            let started = Instant::now();
            let (values, _) = {
                let game =
                    DensePair::<B>::new(rules, sub, |e| sol.moving.get(&e).map(|v| v.as_slice()))?;
                let parts = game.parts.clone();
                let (values, stats) = solve(&game, observer)?;
                (parts.into_iter().zip(values).collect::<Vec<_>>(), stats)
            };
            let seconds = started.elapsed().as_secs_f64();
            for (part, v) in values {
                let r = TableReport::of_values(TableId::Moving(part), &v, seconds);
                report(&r);
                sol.reports.push(r);
                sol.moving.insert(part, v);
            }
        }
        if placement {
            for sector in Sector::all(rules.stones) {
                let started = Instant::now();
                let outcomes = sol.solve_sector(sector)?;
                let r = TableReport {
                    id: TableId::Placement(sector),
                    slots: outcomes.len() as u64,
                    wdl: wdl(outcomes.iter().copied()),
                    longest_win: 0,
                    seconds: started.elapsed().as_secs_f64(),
                };
                report(&r);
                sol.reports.push(r);
                sol.placement.insert(sector, outcomes);
            }
        }
        Ok(sol)
    }

    /// A solution from tables loaded from files ([`super::files::load`]).
    pub fn from_tables(
        rules: RuleSet,
        moving: BTreeMap<Subspace, Vec<Value>>,
        placement: BTreeMap<Sector, Vec<Outcome>>,
    ) -> Solution<B> {
        Solution {
            rules,
            moving,
            placement,
            reports: Vec::new(),
            board: PhantomData,
        }
    }

    /// Recompute every value of every table from the values of its
    /// successors (the definition of a value) and count the slots whose
    /// stored value differs: per table, `(checked, mismatches)`.
    pub fn verify(&self) -> Result<Vec<(TableId, u64, u64)>, SolveError> {
        let mut out = Vec::new();
        for (&sub, values) in &self.moving {
            let partner = self
                .moving
                .get(&sub.swapped())
                .ok_or(SolveError::Missing(TableId::Moving(sub.swapped())))?;
            let exit = match sub.exit() {
                None => None,
                Some(e) => Some(
                    self.moving
                        .get(&e)
                        .ok_or(SolveError::Missing(TableId::Moving(e)))?,
                ),
            };
            let bad = (0..values.len() as u64)
                .into_par_iter()
                .filter(|&slot| {
                    let (us, them) = index::position::<B>(sub, slot);
                    recompute::<B>(self.rules, us, them, partner, exit.map(|v| v.as_slice()))
                        != values[slot as usize]
                })
                .count() as u64;
            out.push((TableId::Moving(sub), values.len() as u64, bad));
        }
        for (&sector, outcomes) in &self.placement {
            let again = self.solve_sector(sector)?;
            let bad = again.iter().zip(outcomes).filter(|(a, b)| a != b).count() as u64;
            out.push((TableId::Placement(sector), outcomes.len() as u64, bad));
        }
        Ok(out)
    }

    /// The outcomes of a table solved before, as a lookup by slot.
    fn outcomes_of(&self, id: TableId) -> Result<Lookup<'_>, SolveError> {
        match id {
            TableId::Moving(sub) => self
                .moving
                .get(&sub)
                .map(|v| Lookup::Moving(v))
                .ok_or(SolveError::Missing(id)),
            TableId::Placement(s) => self
                .placement
                .get(&s)
                .map(|v| Lookup::Placement(v))
                .ok_or(SolveError::Missing(id)),
        }
    }

    /// Solve one placement sector from the tables its placements lead into.
    fn solve_sector(&self, sector: Sector) -> Result<Vec<Outcome>, SolveError> {
        let plain = self.outcomes_of(sector.after(false))?;
        // A removal that leaves the opponent fewer than 3 stones wins.
        let removal_wins = sector.them + sector.them_hand <= 3;
        let taking = if sector.them > 0 && !removal_wins {
            Some(self.outcomes_of(sector.after(true))?)
        } else {
            None
        };
        let n = index::size::<B>(sector.subspace());
        Ok((0..n)
            .into_par_iter()
            .map(|slot| {
                let (us, them) = index::position::<B>(sector.subspace(), slot);
                placement_outcome::<B>(us, them, &plain, taking.as_ref(), removal_wins)
            })
            .collect())
    }

    /// The value of a position for the side to move: the moving-phase value
    /// (with its distance to conversion), or the placement outcome (a win
    /// reads as a win in 1, a loss as a loss in 0: no distance). `None`
    /// when the table was not solved or the game is over.
    pub fn value(&self, pos: &Position) -> Option<Value> {
        let (us, them) = (pos.us(), pos.them());
        let slot = index::slot::<B>(us, them) as usize;
        if pos.placing() {
            let sector = Sector::of(pos)?;
            let o = *self.placement.get(&sector)?.get(slot)?;
            Some(match o {
                Outcome::Win => Value::win(1),
                Outcome::Loss => Value::loss(0),
                Outcome::Draw => Value::DRAW,
            })
        } else {
            self.moving.get(&Subspace::of(us, them))?.get(slot).copied()
        }
    }
}

/// Solved outcomes of one table.
enum Lookup<'a> {
    Moving(&'a [Value]),
    Placement(&'a [Outcome]),
}

impl Lookup<'_> {
    #[inline]
    fn get(&self, slot: u64) -> Outcome {
        match self {
            Lookup::Moving(v) => v[slot as usize].outcome(),
            Lookup::Placement(v) => v[slot as usize],
        }
    }
}

/// The outcome of a placement position `(us, them)` from its successors:
/// `plain` holds the table placements without removal lead into, `taking`
/// the one removals lead into (`None` when no removal is possible or, with
/// `removal_wins`, every removal wins at once).
fn placement_outcome<B: Board>(
    us: Bits,
    them: Bits,
    plain: &Lookup,
    taking: Option<&Lookup>,
    removal_wins: bool,
) -> Outcome {
    let empty = !(us | them) & B::FULL;
    let taken = B::removable(them);
    let mut draw = false;
    for to in points(empty) {
        let placed = us | 1 << to;
        // The successor's outcome for the opponent, who moves next.
        if taken != 0 && B::in_mill(placed, to) {
            if removal_wins {
                return Outcome::Win;
            }
            let table = taking.expect("a removal table when the opponent has stones");
            for r in points(taken) {
                match table.get(index::slot::<B>(them & !(1 << r), placed)) {
                    Outcome::Loss => return Outcome::Win,
                    Outcome::Draw => draw = true,
                    Outcome::Win => {}
                }
            }
        } else {
            match plain.get(index::slot::<B>(them, placed)) {
                Outcome::Loss => return Outcome::Win,
                Outcome::Draw => draw = true,
                Outcome::Win => {}
            }
        }
    }
    // No empty point: blocked in placement, which loses.
    if draw {
        Outcome::Draw
    } else {
        Outcome::Loss
    }
}

/// The value of the moving-phase position `(us, them)` recomputed from its
/// successors' stored values: `partner` holds the subspace moves without
/// removal reach, `exit` the one removals reach (`None` when a removal
/// wins at once). A win takes the fastest way out, a loss the slowest; a
/// removal counts one ply (distance to conversion).
pub fn recompute<B: Board>(
    rules: RuleSet,
    us: Bits,
    them: Bits,
    partner: &[Value],
    exit: Option<&[Value]>,
) -> Value {
    recompute_in::<B, Dense>(rules, us, them, partner, exit)
}

/// [`recompute`] over index `I`.
pub fn recompute_in<B: Board, I: Indexing>(
    rules: RuleSet,
    us: Bits,
    them: Bits,
    partner: &[Value],
    exit: Option<&[Value]>,
) -> Value {
    let mut best_win: Option<u16> = None;
    let mut draw = false;
    let mut longest_loss: Option<u16> = None;
    let mut moves = false;
    for_each_move_on::<B>(us, them, rules.flying, |m| {
        moves = true;
        let (nu, nt) = m.apply(us, them);
        let slot = I::slot::<B>(nu, nt) as usize;
        let (v, conversion) = match (m.removal(), exit) {
            (Some(_), None) => (Value::loss(0), true),
            (Some(_), Some(exit)) => (exit[slot], true),
            (None, _) => (partner[slot], false),
        };
        let after = |d: u16| if conversion { 1 } else { d + 1 };
        match (v.outcome(), v.distance()) {
            (Outcome::Loss, Some(d)) => {
                best_win = Some(best_win.map_or(after(d), |b| b.min(after(d))))
            }
            (Outcome::Win, Some(d)) => {
                longest_loss = Some(longest_loss.map_or(after(d), |b| b.max(after(d))))
            }
            _ => draw = true,
        }
    });
    if !moves && (us | them) == B::FULL && rules.full_board == FullBoard::Draw {
        return Value::DRAW;
    }
    match (best_win, draw, longest_loss) {
        (Some(d), _, _) => Value::win(d),
        (None, true, _) => Value::DRAW,
        (None, false, Some(d)) => Value::loss(d),
        (None, false, None) => Value::loss(0),
    }
}
