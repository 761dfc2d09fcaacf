//! A pair of moving-phase subspaces `(w, b)` and `(b, w)` of any board as a
//! game for the retrograde engine, and the forward recomputation of a
//! stored value from its successors that `verify` uses: one implementation
//! for every game of the family, monomorphised per board `B` and index `I`
//! (Nine Men's Morris: [`crate::rules::board::Nine`] over
//! [`crate::index::nine::NineIndex`]).
//!
//! A move without removal from `(w, b)` lands in `(b, w)` and back; a move
//! with removal leaves the pair into the solved subspace `(b − 1, w)` (or
//! wins at once when the opponent drops to two stones).

use crate::index::{Indexing, MoverSlots, SlideSlots};
use crate::rules::board::Board;
use crate::rules::geometry::{points, Bits};
use crate::rules::moving::{flies, for_each_move_on, for_each_unmove_on};
use crate::rules::variant::{FullBoard, RuleSet};
use crate::tables::keys::Subspace;
use std::marker::PhantomData;
use tablebase::resident::Wdl;
use tablebase::{Exit, Outcome, RetroGame, Value};

/// Looks up the outcomes of a solved subspace by slot: all a pair needs of
/// the subspaces its removals lead into.
pub trait Outcomes: Sync {
    /// The stored outcome of `slot` for its side to move.
    fn outcome(&self, slot: u64) -> Outcome;

    /// A hint that `slot` will be looked up soon.
    fn prefetch(&self, _slot: u64) {}
}

impl Outcomes for [Value] {
    #[inline]
    fn outcome(&self, slot: u64) -> Outcome {
        self[slot as usize].outcome()
    }
}

impl Outcomes for Vec<Value> {
    #[inline]
    fn outcome(&self, slot: u64) -> Outcome {
        self[slot as usize].outcome()
    }
}

/// A subspace's values as the positions whose removals (or placements)
/// lead into it read them: under a count rule at a count of zero, since
/// the removal restarts it (a win or loss further than the limit from its
/// conversion is a draw there, [`Value::within`]); without one, as stored.
pub struct Within<'a> {
    values: &'a [Value],
    limit: u16,
}

impl<'a> Within<'a> {
    /// `values` read under the count rule of `rules` (if any).
    pub fn new(values: &'a [Value], rules: RuleSet) -> Within<'a> {
        Within {
            values,
            limit: rules.quiet_limit.unwrap_or(u16::MAX),
        }
    }

    /// The value of `slot` at a count of zero.
    #[inline]
    pub fn value(&self, slot: u64) -> Value {
        self.values[slot as usize].within(self.limit)
    }
}

impl Outcomes for Within<'_> {
    #[inline]
    fn outcome(&self, slot: u64) -> Outcome {
        self.value(slot).outcome()
    }
}

/// Two bits a slot: an exit table of the largest pair (8-8 for 8-9) takes
/// 256 MB instead of 2 GB, and more of it stays in the cache.
impl Outcomes for Wdl {
    #[inline]
    fn outcome(&self, slot: u64) -> Outcome {
        self.get(slot).unwrap_or(Outcome::Draw)
    }

    #[inline]
    fn prefetch(&self, slot: u64) {
        Wdl::prefetch(self, slot)
    }
}

/// A subspace that a pair's removals lead into was not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("subspace {0} is needed before this pair is solved")]
pub struct ExitMissing(pub Subspace);

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

impl<'a, B: Board, I: Indexing, V: Outcomes + ?Sized> MovingPair<'a, B, I, V> {
    /// The pair of `sub` (`[(w, b), (b, w)]`, or `[(w, w)]`); `lookup`
    /// gives the solved outcomes of each subspace a removal leads into
    /// (asked only for subspaces where the game goes on, see
    /// [`Subspace::exit`]).
    pub fn new(
        rules: RuleSet,
        sub: Subspace,
        mut lookup: impl FnMut(Subspace) -> Option<&'a V>,
    ) -> Result<MovingPair<'a, B, I, V>, ExitMissing> {
        let parts = if sub.us == sub.them {
            vec![sub]
        } else {
            vec![sub, sub.swapped()]
        };
        let mut exits = Vec::new();
        for part in &parts {
            exits.push(match part.exit() {
                None => None,
                Some(e) => Some(lookup(e).ok_or(ExitMissing(e))?),
            });
        }
        Ok(MovingPair {
            rules,
            parts,
            exits,
            board: PhantomData,
        })
    }

    /// The moves of subspace `sub` alone, for a forward sweep over its
    /// positions ([`RetroGame::expand_each`] of part 0; its successors
    /// index `sub`'s partner): `exit` holds the outcomes of the subspace its
    /// removals lead into. Not a pair for the engine when `sub` is not
    /// symmetric, since the partner's moves are missing.
    pub fn forward(
        rules: RuleSet,
        sub: Subspace,
        exit: Option<&'a V>,
    ) -> Result<MovingPair<'a, B, I, V>, ExitMissing> {
        let exits = match (sub.exit(), exit) {
            (Some(e), None) => return Err(ExitMissing(e)),
            (Some(_), exit) => vec![exit],
            (None, _) => vec![None],
        };
        Ok(MovingPair {
            rules,
            parts: vec![sub],
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
    /// leave the mover with `closing` stones ([`best_removal`]).
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

    /// Slots in order ([`Indexing::for_each_position`]), in batches: the
    /// index entry of each position's opponent (the next mover after a
    /// move without removal) misses the cache, so the batch's lookups are
    /// asked for first.
    fn expand_each(
        &self,
        part: usize,
        range: std::ops::Range<u64>,
        visit: &mut impl FnMut(u64, Exit, &mut Vec<u64>),
    ) {
        const BATCH: usize = 16;
        let mut buf = Vec::new();
        let mut batch = [(0u64, 0, 0); BATCH];
        let mut n = 0;
        let mut flush = |batch: &[(u64, Bits, Bits)]| {
            for &(_, _, them) in batch {
                I::prefetch_mover::<B>(them);
            }
            for &(idx, us, them) in batch {
                buf.clear();
                let exit = self.expand_position(part, us, them, &mut |j| buf.push(j));
                visit(idx, exit, &mut buf);
            }
        };
        I::for_each_position::<B>(self.parts[part], range, |idx, us, them| {
            batch[n] = (idx, us, them);
            n += 1;
            if n == BATCH {
                flush(&batch);
                n = 0;
            }
        });
        flush(&batch[..n]);
    }

    fn predecessors(&self, part: usize, idx: u64, pred: &mut impl FnMut(u64)) {
        let Some((us, them)) = I::position::<B>(self.parts[part], idx) else {
            return;
        };
        // At most 3 × 21 unmoves (a flying side), or 12 stones × 5
        // neighbours; gathered so that their index lookups overlap.
        let mut prevs = [0; 64];
        let mut n = 0;
        for_each_unmove_on::<B>(us, them, self.rules.flying, |prev| {
            prevs[n] = prev;
            n += 1;
        });
        I::for_each_slot::<B>(&prevs[..n], us, pred);
    }
}

/// The best exit among the removals after the mill-closing moves that
/// leave the mover with `closing` stones: every removable stone of `taken`
/// taken from `them` after each, looked up in `table`. The removals leave
/// `them` with one stone less, the same few patterns for every move, so
/// `mover(rest)` (the slot of a position whose side to move has `rest`,
/// given the opponent's stones) is prepared once a pattern; every cache
/// miss (`prefetch` of the pattern's class entry, then the exit slots) is
/// asked for before the first is waited on.
#[inline(always)]
fn best_removal<V: Outcomes + ?Sized, S: Fn(Bits) -> u64>(
    table: &V,
    them: Bits,
    taken: Bits,
    closing: &[Bits],
    prefetch: impl Fn(Bits),
    mover: impl Fn(Bits) -> S,
) -> Exit {
    for r in points(taken) {
        prefetch(them & !(1 << r));
    }
    let mut slots = [0u64; 64];
    let mut best = Exit::None;
    for r in points(taken) {
        let slot_of = mover(them & !(1 << r));
        for (slot, &nt) in slots.iter_mut().zip(closing) {
            *slot = slot_of(nt);
            table.prefetch(*slot);
        }
        for &slot in &slots[..closing.len()] {
            best = best.max(match table.outcome(slot) {
                Outcome::Loss => return Exit::Win,
                Outcome::Draw => Exit::Draw,
                Outcome::Win => Exit::Loss,
            });
        }
    }
    best
}

/// The value of the moving-phase position `(us, them)` of board `B`
/// recomputed from its successors' stored values, looked up by slot of
/// index `I`: `partner` in the subspace moves without removal reach, `exit`
/// in the one removals reach (`None` when a removal wins at once). A win
/// takes the fastest way out, a loss the slowest; a removal counts one ply
/// (distance to conversion). Under a count rule the exit's value is read
/// at a count of zero ([`Value::within`]). The definition of a stored
/// value, which `verify` checks every table against.
pub fn recompute<B: Board, I: Indexing>(
    rules: RuleSet,
    us: Bits,
    them: Bits,
    partner: &dyn Fn(u64) -> Value,
    exit: Option<&dyn Fn(u64) -> Value>,
) -> Value {
    let mut best = BestValue::default();
    let mut moves = false;
    for_each_move_on::<B>(us, them, rules.flying, |m| {
        moves = true;
        let (nu, nt) = m.apply(us, them);
        let slot = I::slot::<B>(nu, nt);
        // The successor's value for the opponent, and the plies it adds.
        let (v, conversion) = match (m.removal(), exit) {
            (Some(_), None) => (Value::loss(0), true),
            (Some(_), Some(exit)) => {
                // A removal restarts the count rule's count.
                let v = exit(slot);
                (rules.quiet_limit.map_or(v, |l| v.within(l)), true)
            }
            (None, _) => (partner(slot), false),
        };
        best.add(v, conversion);
    });
    if !moves && (us | them) == B::FULL && rules.full_board == FullBoard::Draw {
        return Value::DRAW;
    }
    best.value()
}

/// The side to move's choice among its moves, folded one move at a time:
/// the fastest win, else a draw, else the slowest loss (plies to
/// conversion; without any move, a loss in 0). The rule every stored
/// value obeys, which `recompute` and the verify sweep state.
#[derive(Debug, Clone, Copy, Default)]
pub struct BestValue {
    win: Option<u16>,
    draw: bool,
    loss: Option<u16>,
}

impl BestValue {
    /// A move into a position worth `v` to the opponent: one ply more than
    /// its distance, or one ply when the move converts (its distance
    /// counts from the conversion).
    #[inline]
    pub fn add(&mut self, v: Value, conversion: bool) {
        let after = |d: u16| if conversion { 1 } else { d + 1 };
        match (v.outcome(), v.distance()) {
            (Outcome::Loss, Some(d)) => {
                self.win = Some(self.win.map_or(after(d), |b| b.min(after(d))))
            }
            (Outcome::Win, Some(d)) => {
                self.loss = Some(self.loss.map_or(after(d), |b| b.max(after(d))))
            }
            _ => self.draw = true,
        }
    }

    /// The value of the position.
    pub fn value(self) -> Value {
        match (self.win, self.draw, self.loss) {
            (Some(d), _, _) => Value::win(d),
            (None, true, _) => Value::DRAW,
            (None, false, Some(d)) => Value::loss(d),
            (None, false, None) => Value::loss(0),
        }
    }
}
