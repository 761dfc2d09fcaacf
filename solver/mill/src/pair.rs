//! A pair of Nine Men's Morris moving-phase subspaces `(w, b)` and `(b, w)`
//! as a game for the retrograde engine, and the forward recomputation of a
//! stored value from its successors that `solver nine verify` uses.
//!
//! A move without removal from `(w, b)` lands in `(b, w)` and back; a move
//! with removal leaves the pair into the solved subspace `(b − 1, w)` (or
//! wins at once when the opponent drops to two stones).

use super::geometry::Bits;
use super::index::{self, Subspace};
use super::moving::{flies, for_each_move};
use super::nine;
use super::position::Rules;
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

/// One pair of subspaces, with the solved tables its removals lead into.
pub struct Pair<'a, V: Outcomes> {
    /// The rules.
    pub rules: Rules,
    /// The subspaces: `[(w, b), (b, w)]`, or just `[(w, w)]`.
    pub subspaces: Vec<Subspace>,
    /// For each part, the outcomes of the subspace its removals reach
    /// (`None` when a removal ends the game).
    pub exits: Vec<Option<&'a V>>,
}

impl<'a, V: Outcomes> Pair<'a, V> {
    /// The pair containing `sub`, with the exit tables from `lookup`
    /// (called with each exit subspace that has at least three stones).
    pub fn new(
        rules: Rules,
        sub: Subspace,
        mut lookup: impl FnMut(Subspace) -> &'a V,
    ) -> Pair<'a, V> {
        let subspaces = if sub.us == sub.them {
            vec![sub]
        } else {
            vec![sub, sub.swapped()]
        };
        let exits = subspaces
            .iter()
            .map(|s| s.exit().map(&mut lookup))
            .collect();
        Pair {
            rules,
            subspaces,
            exits,
        }
    }
}

impl<V: Outcomes> Pair<'_, V> {
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
        // stone's move: `Slides` ranks them from what they share.
        let slides = index::Mover::new(them, us.count_ones()).slides(us);
        let empty = !(us | them) & nine::FULL;
        let fly = flies(us, self.rules.flying);
        // The mill-closing moves' results (the mover's stones after them).
        let mut closing = [0; 64];
        let mut n = 0;
        for from in nine::points(us) {
            let rest = us & !(1 << from);
            for to in nine::points(nine::destinations(from, empty, fly)) {
                if nine::in_mill(rest | 1 << to, to) {
                    closing[n] = rest | 1 << to;
                    n += 1;
                } else {
                    succ(slides.index(from, to));
                }
            }
        }
        let taken = nine::removable(them);
        if n == 0 {
            Exit::None
        } else {
            self.best_removal(part, them, taken, &closing[..n])
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
        best_removal(table, them, taken, closing, index::prefetch_class, |rest| {
            let mover = index::Mover::new(rest, w);
            move |nt| mover.index(nt)
        })
    }
}

/// The best exit among the removals after the mill-closing moves that
/// leave the mover with `closing` stones: every removable stone of `taken`
/// taken from `them` after each, looked up in `table`. The removals leave
/// `them` with one stone less, the same few patterns for every move, so
/// `mover(rest)` (the slot of a position whose side to move has `rest`,
/// given the opponent's stones) is prepared once a pattern; every cache
/// miss (`prefetch` of the pattern's class entry, then the exit slots) is
/// asked for before the first is waited on. Shared by Nine's pair and the
/// family's.
#[inline(always)]
pub(crate) fn best_removal<V: Outcomes + ?Sized, S: Fn(Bits) -> u64>(
    table: &V,
    them: Bits,
    taken: Bits,
    closing: &[Bits],
    prefetch: impl Fn(Bits),
    mover: impl Fn(Bits) -> S,
) -> Exit {
    for r in nine::points(taken) {
        prefetch(them & !(1 << r));
    }
    let mut slots = [0u64; 64];
    let mut best = Exit::None;
    for r in nine::points(taken) {
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

impl<V: Outcomes> RetroGame for Pair<'_, V> {
    fn parts(&self) -> usize {
        self.subspaces.len()
    }

    fn size(&self, part: usize) -> u64 {
        self.subspaces[part].size()
    }

    fn expand(&self, part: usize, idx: u64, succ: &mut impl FnMut(u64)) -> Option<Exit> {
        let (us, them) = index::position(self.subspaces[part], idx)?;
        Some(self.expand_position(part, us, them, succ))
    }

    /// Slots in order: the positions come from stepping through the
    /// opponent's patterns ([`index::for_each_position`]) instead of
    /// decoding every slot.
    fn expand_each(
        &self,
        part: usize,
        range: std::ops::Range<u64>,
        visit: &mut impl FnMut(u64, Exit, &mut Vec<u64>),
    ) {
        // Positions go through in batches: the class-table entry of each
        // one's opponent (the next mover after a move without removal)
        // misses the cache, so the batch's lookups are asked for first.
        const BATCH: usize = 16;
        let mut buf = Vec::new();
        let mut batch = [(0u64, 0, 0); BATCH];
        let mut n = 0;
        let mut flush = |batch: &[(u64, Bits, Bits)]| {
            for &(_, _, them) in batch {
                index::prefetch_class(them);
            }
            for &(idx, us, them) in batch {
                buf.clear();
                let exit = self.expand_position(part, us, them, &mut |j| buf.push(j));
                visit(idx, exit, &mut buf);
            }
        };
        index::for_each_position(self.subspaces[part], range, |idx, us, them| {
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
        if let Some((us, them)) = index::position(self.subspaces[part], idx) {
            // At most 3 × 21 unmoves (a flying side); gathered so that the
            // index lookups overlap.
            let mut prevs = [0; 64];
            let mut n = 0;
            super::moving::for_each_unmove(us, them, self.rules.flying, |prev| {
                prevs[n] = prev;
                n += 1;
            });
            index::for_each_index(&prevs[..n], us, pred);
        }
    }
}

/// The value of `(us, them)` recomputed from the stored values of its
/// successors: `partner` holds the subspace moves without removal reach,
/// `exit` the one removals reach (`None` when a removal wins at once).
pub fn recompute(
    rules: Rules,
    us: Bits,
    them: Bits,
    partner: &dyn Fn(u64) -> Value,
    exit: Option<&dyn Fn(u64) -> Value>,
) -> Value {
    let mut best_win: Option<u16> = None;
    let mut draw = false;
    let mut longest_loss: Option<u16> = None;
    for_each_move(us, them, rules.flying, |m| {
        let (nu, nt) = m.apply(us, them);
        // The successor's value for the opponent, and the plies it adds.
        let (v, conversion) = match (m.removal(), exit) {
            (Some(_), None) => (Value::loss(0), true),
            (Some(_), Some(exit)) => (exit(index::index(nu, nt)), true),
            (None, _) => (partner(index::index(nu, nt)), false),
        };
        let after = |d: u16| if conversion { 1 } else { d + 1 };
        match (v.outcome(), v.distance()) {
            (Outcome::Loss, Some(d)) => {
                best_win = Some(best_win.map_or(after(d), |b| b.min(after(d))));
            }
            (Outcome::Win, Some(d)) => {
                longest_loss = Some(longest_loss.map_or(after(d), |b| b.max(after(d))));
            }
            _ => draw = true,
        }
    });
    match (best_win, draw, longest_loss) {
        (Some(d), _, _) => Value::win(d),
        (None, true, _) => Value::DRAW,
        (None, false, Some(d)) => Value::loss(d),
        (None, false, None) => Value::loss(0),
    }
}
