//! A pair of Nine Men's Morris moving-phase subspaces `(w, b)` and `(b, w)`
//! as a game for the retrograde engine, and the forward recomputation of a
//! stored value from its successors that `solver nine verify` uses.
//!
//! A move without removal from `(w, b)` lands in `(b, w)` and back; a move
//! with removal leaves the pair into the solved subspace `(b − 1, w)` (or
//! wins at once when the opponent drops to two stones).

use super::geometry::Bits;
use super::index::{self, Subspace};
use super::moving::for_each_move;
use super::position::Rules;
use tablebase::{Exit, Outcome, RetroGame, Value};

/// Looks up solved values of a subspace by slot.
pub trait Values: Sync {
    /// The stored value of `slot`.
    fn value(&self, slot: u64) -> Value;
}

impl Values for Vec<Value> {
    fn value(&self, slot: u64) -> Value {
        self[slot as usize]
    }
}

/// One pair of subspaces, with the solved tables its removals lead into.
pub struct Pair<'a, V: Values> {
    /// The rules.
    pub rules: Rules,
    /// The subspaces: `[(w, b), (b, w)]`, or just `[(w, w)]`.
    pub subspaces: Vec<Subspace>,
    /// For each part, the solved values of the subspace its removals reach
    /// (`None` when a removal ends the game).
    pub exits: Vec<Option<&'a V>>,
}

impl<'a, V: Values> Pair<'a, V> {
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
            .map(|s| exit_subspace(*s).map(&mut lookup))
            .collect();
        Pair {
            rules,
            subspaces,
            exits,
        }
    }

    /// The outcome for the mover of a removal leading to `(nu, nt)` from part `part`.
    #[inline]
    fn exit_outcome(&self, part: usize, nu: Bits, nt: Bits) -> Exit {
        match self.exits[part] {
            None => Exit::Win,
            Some(table) => match table.value(index::index(nu, nt)).outcome() {
                Outcome::Loss => Exit::Win,
                Outcome::Draw => Exit::Draw,
                Outcome::Win => Exit::Loss,
            },
        }
    }
}

/// The subspace a removal from `sub` leads to, if the game goes on.
pub fn exit_subspace(sub: Subspace) -> Option<Subspace> {
    (sub.them > 3).then(|| Subspace::new(sub.them - 1, sub.us))
}

impl<V: Values> RetroGame for Pair<'_, V> {
    fn parts(&self) -> usize {
        self.subspaces.len()
    }

    fn size(&self, part: usize) -> u64 {
        self.subspaces[part].size()
    }

    fn expand(&self, part: usize, idx: u64, succ: &mut impl FnMut(u64)) -> Option<Exit> {
        let (us, them) = index::position(self.subspaces[part], idx)?;
        let mut best = Exit::None;
        // Without removal the opponent's stones are the next mover's, unchanged.
        let next = index::Mover::new(them, us.count_ones());
        for_each_move(us, them, self.rules.flying, |m| {
            let (nu, nt) = m.apply(us, them);
            if m.removal().is_none() {
                succ(next.index(nt));
            } else if best != Exit::Win {
                best = best.max(self.exit_outcome(part, nu, nt));
            }
        });
        Some(best)
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
