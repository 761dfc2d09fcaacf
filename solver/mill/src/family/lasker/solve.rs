//! Lasker Morris solved sector pair by sector pair on the game-agnostic
//! retrograde engine ([`tablebase::retro`]): slides without removal stay
//! in the pair (the engine walks their cycles), placements and removals
//! are exits into pairs solved before ([`super::sector::pairs`]), a removal
//! that leaves the opponent fewer than 3 stones wins at once.
//!
//! Values carry the distance to conversion: plies to the next placement or
//! removal, or to the end of the game.

use super::moves::{apply, for_each_move, for_each_unmove};
use super::sector::{pairs, LaskerSector};
use crate::board::Board;
use crate::family::index;
use crate::family::solve::{check_stones, SolveError, TableReport};
use crate::geometry::Bits;
use crate::position::Position;
use crate::variant::RuleSet;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::time::Instant;
use tablebase::retro::{solve, Exit, Observer, RetroGame};
use tablebase::{Outcome, Value};

/// Solved tables by sector.
pub type Tables = BTreeMap<LaskerSector, Vec<Value>>;

/// The tables a sector's exits lead into.
struct Exits<'a> {
    /// A placement without removal.
    place: Option<&'a [Value]>,
    /// A placement with a removal (`None`: it wins, or cannot happen).
    place_removal: Option<&'a [Value]>,
    /// A board move with a removal (`None`: it wins, or cannot happen).
    slide_removal: Option<&'a [Value]>,
}

impl<'a> Exits<'a> {
    fn new(tables: &'a Tables, s: LaskerSector) -> Result<Exits<'a>, SolveError> {
        let get = |e: Option<LaskerSector>| -> Result<Option<&'a [Value]>, SolveError> {
            match e {
                None => Ok(None),
                Some(e) => tables
                    .get(&e)
                    .map(|v| Some(v.as_slice()))
                    .ok_or_else(|| SolveError::LaskerMissing(format!("{e:?}"))),
            }
        };
        Ok(Exits {
            place: get(s.after_placement(false))?,
            place_removal: if s.them > 0 {
                get(s.after_placement(true))?
            } else {
                None
            },
            slide_removal: get(s.after_slide_removal())?,
        })
    }

    /// The value, for the opponent to move, of the successor `(nu, nt)` of
    /// a move that leaves the pair (`removal`, `placement`); a removal
    /// without a table wins at once.
    #[inline]
    fn value<B: Board>(&self, placement: bool, removal: bool, nu: Bits, nt: Bits) -> Value {
        let table = match (placement, removal) {
            (true, false) => self.place,
            (true, true) => self.place_removal,
            (false, _) => self.slide_removal,
        };
        match table {
            Some(t) => t[index::slot::<B>(nu, nt) as usize],
            None => Value::loss(0),
        }
    }
}

/// One sector pair as a game for the retrograde engine.
pub struct LaskerPair<'a, B: Board> {
    rules: RuleSet,
    parts: Vec<LaskerSector>,
    exits: Vec<Exits<'a>>,
    board: PhantomData<B>,
}

impl<'a, B: Board> LaskerPair<'a, B> {
    /// The pair of `s` (`[s, s.swapped()]`, or `[s]` when they are equal),
    /// with the solved tables its exits lead into.
    pub fn new(
        rules: RuleSet,
        s: LaskerSector,
        tables: &'a Tables,
    ) -> Result<LaskerPair<'a, B>, SolveError> {
        let parts = if s == s.swapped() {
            vec![s]
        } else {
            vec![s, s.swapped()]
        };
        let exits = parts
            .iter()
            .map(|&p| Exits::new(tables, p))
            .collect::<Result<_, _>>()?;
        Ok(LaskerPair {
            rules,
            parts,
            exits,
            board: PhantomData,
        })
    }
}

impl<B: Board> RetroGame for LaskerPair<'_, B> {
    fn parts(&self) -> usize {
        self.parts.len()
    }

    fn size(&self, part: usize) -> u64 {
        self.parts[part].size::<B>()
    }

    fn expand(&self, part: usize, idx: u64, succ: &mut impl FnMut(u64)) -> Option<Exit> {
        let s = self.parts[part];
        let (us, them) = index::position::<B>(s.subspace(), idx);
        let exits = &self.exits[part];
        let mut best = Exit::None;
        for_each_move::<B>(us, them, s.us_hand, self.rules, |m| {
            let (nu, nt) = apply(us, them, m);
            let placement = m.from().is_none();
            if !placement && m.removal().is_none() {
                succ(index::slot::<B>(nu, nt));
            } else if best != Exit::Win {
                let v = exits.value::<B>(placement, m.removal().is_some(), nu, nt);
                best = best.max(match v.outcome() {
                    Outcome::Loss => Exit::Win,
                    Outcome::Draw => Exit::Draw,
                    Outcome::Win => Exit::Loss,
                });
            }
        });
        Some(best)
    }

    fn predecessors(&self, part: usize, idx: u64, pred: &mut impl FnMut(u64)) {
        let s = self.parts[part];
        let (us, them) = index::position::<B>(s.subspace(), idx);
        for_each_unmove::<B>(us, them, s.them_hand, self.rules, |prev| {
            pred(index::slot::<B>(prev, us));
        });
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
            let game = LaskerPair::<B>::new(rules, s, &sol.tables)?;
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
        LaskerSector::new(
            pos.us().count_ones() as u8,
            pos.them().count_ones() as u8,
            pos.our_hand(),
            pos.their_hand(),
        )
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
            let exits = Exits::new(&self.tables, s)?;
            let bad = (0..values.len() as u64)
                .into_par_iter()
                .filter(|&slot| {
                    let (us, them) = index::position::<B>(s.subspace(), slot);
                    recompute::<B>(self.rules, s, us, them, partner, &exits)
                        != values[slot as usize]
                })
                .count() as u64;
            out.push((s, values.len() as u64, bad));
        }
        Ok(out)
    }
}

/// The value of `(us, them)` in sector `s` from its successors: a win takes
/// the fastest way out, a loss the slowest, a placement or removal counts
/// one ply (it converts).
fn recompute<B: Board>(
    rules: RuleSet,
    s: LaskerSector,
    us: Bits,
    them: Bits,
    partner: &[Value],
    exits: &Exits,
) -> Value {
    let mut best_win: Option<u16> = None;
    let mut draw = false;
    let mut longest_loss: Option<u16> = None;
    for_each_move::<B>(us, them, s.us_hand, rules, |m| {
        let (nu, nt) = apply(us, them, m);
        let placement = m.from().is_none();
        let conversion = placement || m.removal().is_some();
        let v = if conversion {
            exits.value::<B>(placement, m.removal().is_some(), nu, nt)
        } else {
            partner[index::slot::<B>(nu, nt) as usize]
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
    match (best_win, draw, longest_loss) {
        (Some(d), _, _) => Value::win(d),
        (None, true, _) => Value::DRAW,
        (None, false, Some(d)) => Value::loss(d),
        (None, false, None) => Value::loss(0),
    }
}
