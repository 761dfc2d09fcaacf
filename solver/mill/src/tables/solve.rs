//! The whole game of a small board solved in memory: the moving phase pair
//! by pair ([`crate::tables::pair::MovingPair`] on the game-agnostic retrograde
//! engine), then the placement sectors in one forward pass each
//! ([`crate::tables::placement_pass`]), in order of the stones left in hand, down
//! from the moving phase to the empty board, over the dense index of
//! [`crate::index`]. Nine Men's Morris runs the same pieces from its own
//! loop ([`crate::games::nine::files`], [`crate::games::nine::placement`]), which keeps
//! only what the next tables need in memory.
//!
//! Moving-phase values carry the distance to conversion (plies to the next
//! removal or the end of the game, as in Nine Men's Morris); placement
//! values are outcomes (win, draw, loss), as Nine's placement tables.

use crate::index::{self, Dense};
use crate::rules::board::Board;
use crate::rules::position::Position;
use crate::rules::variant::RuleSet;
use crate::tables::keys::Subspace;
use crate::tables::keys::{self, Sector, TableId};
use crate::tables::pair::{recompute, ExitMissing, MovingPair, Outcomes, Within};
use crate::tables::placement_pass;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::time::Instant;
use tablebase::resident::Wdl;
use tablebase::retro::{solve, Observer, RetroError, Silent};
use tablebase::{Outcome, Value};

/// Errors of a solve.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The retrograde engine failed.
    #[error(transparent)]
    Retro(#[from] RetroError),
    /// A subspace that a pair's removals lead into was not solved first.
    #[error(transparent)]
    Exit(#[from] ExitMissing),
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
/// pairs `(w, b)` with `w ≥ b`, in the order they are solved: the one
/// pair order of every board ([`crate::tables::pairs`]).
pub fn pairs(stones: u8) -> Vec<Subspace> {
    crate::tables::pairs(stones, 2 * stones)
}

/// The pair over the dense index (the small boards, solved whole), its
/// exits read under the rule set's count rule.
pub type DensePair<'a, B> = MovingPair<'a, B, Dense, Within<'a>>;

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
                let exits: BTreeMap<Subspace, Within> = sol
                    .moving
                    .iter()
                    .map(|(&s, v)| (s, Within::new(v, rules)))
                    .collect();
                let game = DensePair::<B>::new(rules, sub, |e| exits.get(&e))?;
                let parts = game.parts().to_vec();
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
            let partner_at = |s: u64| partner[s as usize];
            let exit_at = exit.map(|v| move |s: u64| v[s as usize]);
            let exit_at = exit_at
                .as_ref()
                .map(|f| f as &(dyn Fn(u64) -> Value + Sync));
            let bad = (0..values.len() as u64)
                .into_par_iter()
                .filter(|&slot| {
                    let (us, them) = index::position::<B>(sub, slot);
                    let exit = exit_at.map(|f| f as &dyn Fn(u64) -> Value);
                    recompute::<B, Dense>(self.rules, us, them, &partner_at, exit)
                        != values[slot as usize]
                })
                .count() as u64;
            out.push((TableId::Moving(sub), values.len() as u64, bad));
        }
        for (&sector, outcomes) in &self.placement {
            // Slot by slot from the successors ([`keys::recompute`]), not
            // by the pass that solved the sector.
            let plain = self.outcomes_of(sector.after(false))?;
            let taking = if sector.them > 0 && !sector.removal_wins() {
                Some(self.outcomes_of(sector.after(true))?)
            } else {
                None
            };
            let plain_at = |s: u64| plain.outcome(s);
            let taking_at = |s: u64| taking.as_ref().map_or(Outcome::Draw, |t| t.outcome(s));
            let bad = (0..outcomes.len() as u64)
                .into_par_iter()
                .filter(|&slot| {
                    let (us, them) = index::position::<B>(sector.subspace(), slot);
                    let o = keys::recompute::<B, Dense>(sector, us, them, &plain_at, &taking_at);
                    o != outcomes[slot as usize]
                })
                .count() as u64;
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
                .map(|v| Lookup::Moving(Within::new(v, self.rules)))
                .ok_or(SolveError::Missing(id)),
            TableId::Placement(s) => self
                .placement
                .get(&s)
                .map(|v| Lookup::Placement(v))
                .ok_or(SolveError::Missing(id)),
        }
    }

    /// Solve one placement sector from the tables its placements lead into
    /// (the placement pass of every board, [`placement_pass::solve`]).
    fn solve_sector(&self, sector: Sector) -> Result<Vec<Outcome>, SolveError> {
        let plain = self.outcomes_of(sector.after(false))?;
        let taking = if sector.them > 0 && !sector.removal_wins() {
            Some(self.outcomes_of(sector.after(true))?)
        } else {
            None
        };
        let packed =
            placement_pass::solve::<B, Dense, _, _>(sector, &plain, taking.as_ref(), &Silent);
        let n = index::size::<B>(sector.subspace());
        let outcomes = Wdl::from_packed(n, &packed).expect("the pass packs every slot");
        Ok((0..n)
            .map(|slot| outcomes.get(slot).unwrap_or(Outcome::Draw))
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
    Moving(Within<'a>),
    Placement(&'a [Outcome]),
}

impl Outcomes for Lookup<'_> {
    #[inline]
    fn outcome(&self, slot: u64) -> Outcome {
        match self {
            Lookup::Moving(v) => v.outcome(slot),
            Lookup::Placement(v) => v[slot as usize],
        }
    }
}
