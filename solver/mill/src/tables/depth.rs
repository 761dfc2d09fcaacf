//! Distance to the end of the game (plies to mate, DTM) of every won or
//! lost position of a solved game, and the positions reachable from the
//! start: the figures the literature quotes ("mate in N", the deepest win
//! reachable from the start).
//!
//! The tables of [`crate::tables::solve`] hold outcomes and, in the moving phase,
//! the distance to conversion. With the outcomes known, the distance to the
//! end follows pair by pair in the order of the solve: a win takes its
//! fastest losing successor, a loss its slowest successor; inside a pair
//! positions are finished in increasing distance (a bucket queue: the first
//! losing successor finished gives a win its least distance, the last
//! winning successor a loss its greatest), removals read the pairs solved
//! before. Placement sectors follow in one forward pass each. Every slot
//! of the dense index is one position, so moves and unmoves are counted
//! without de-duplication.

use crate::index;
use crate::rules::board::Board;
use crate::rules::geometry::points;
use crate::rules::geometry::Bits;
use crate::rules::moving::{for_each_move_on, for_each_unmove_on};
use crate::rules::position::{Color, Position};
use crate::tables::keys::Subspace;
use crate::tables::keys::{Sector, TableId};
use crate::tables::solve::{pairs, Solution};
use std::collections::BTreeMap;
use tablebase::Outcome;

/// No distance: a draw (or a slot not reached).
pub const NONE: u16 = u16::MAX;

/// Errors of the distance computation.
#[derive(Debug, thiserror::Error)]
pub enum DepthError {
    /// A table needed is missing from the solution.
    #[error("table {0:?} is missing from the solution")]
    Missing(TableId),
    /// A won or lost position got no distance: the outcomes are inconsistent.
    #[error("{0:?} slot {1}: {2} position without a distance (inconsistent outcomes)")]
    Inconsistent(TableId, u64, &'static str),
}

/// Plies to the end of the game of every won or lost position.
pub struct Depths {
    /// By moving-phase subspace.
    pub moving: BTreeMap<Subspace, Vec<u16>>,
    /// By placement sector.
    pub placement: BTreeMap<Sector, Vec<u16>>,
}

/// The deepest win reachable from the start.
#[derive(Debug, Clone)]
pub struct DeepestWin {
    /// Plies to the end of the game with best play.
    pub plies: u16,
    /// A position with that distance (the first found).
    pub position: Position,
    /// Positions reachable from the start (by any play).
    pub reachable: u64,
    /// The deepest reachable win of the moving phase alone.
    pub moving_plies: u16,
    /// The deepest win of all positions, reachable or not.
    pub any_plies: u16,
    /// A position with that distance (the first found).
    pub any_position: Position,
}

impl<B: Board> Solution<B> {
    fn moving_table(&self, sub: Subspace) -> Result<&[tablebase::Value], DepthError> {
        self.moving
            .get(&sub)
            .map(|v| v.as_slice())
            .ok_or(DepthError::Missing(TableId::Moving(sub)))
    }

    /// The distance to the end of every won or lost position.
    pub fn depths(&self) -> Result<Depths, DepthError> {
        let mut moving: BTreeMap<Subspace, Vec<u16>> = BTreeMap::new();
        for sub in pairs(self.rules.stones) {
            let parts = if sub.us == sub.them {
                vec![sub]
            } else {
                vec![sub, sub.swapped()]
            };
            let solved = self.pair_depths(&parts, &moving)?;
            for (p, d) in parts.into_iter().zip(solved) {
                moving.insert(p, d);
            }
        }
        let mut placement: BTreeMap<Sector, Vec<u16>> = BTreeMap::new();
        for sector in Sector::all(self.rules.stones) {
            let d = self.sector_depths(sector, &moving, &placement)?;
            placement.insert(sector, d);
        }
        Ok(Depths { moving, placement })
    }

    fn pair_depths(
        &self,
        parts: &[Subspace],
        done: &BTreeMap<Subspace, Vec<u16>>,
    ) -> Result<Vec<Vec<u16>>, DepthError> {
        let flying = self.rules.flying;
        let n = parts.len();
        let other = |p: usize| if n == 2 { 1 - p } else { p };
        let values: Vec<&[tablebase::Value]> = parts
            .iter()
            .map(|&s| self.moving_table(s))
            .collect::<Result<_, _>>()?;
        let mut depth: Vec<Vec<u16>> = parts
            .iter()
            .map(|&s| vec![NONE; index::size::<B>(s) as usize])
            .collect();
        // Per loss: in-pair successors not yet finished, and the longest exit.
        let mut count: Vec<Vec<u8>> = depth.iter().map(|d| vec![0; d.len()]).collect();
        let mut exit_max: Vec<Vec<u16>> = depth.iter().map(|d| vec![0; d.len()]).collect();
        let mut buckets: Vec<Vec<(u8, u32)>> = Vec::new();
        let push = |buckets: &mut Vec<Vec<(u8, u32)>>, d: u16, part: usize, slot: u64| {
            if buckets.len() <= d as usize {
                buckets.resize_with(d as usize + 1, Vec::new);
            }
            buckets[d as usize].push((part as u8, slot as u32));
        };
        for (part, &sub) in parts.iter().enumerate() {
            let exit = match sub.exit() {
                None => None,
                Some(e) => Some((
                    self.moving_table(e)?,
                    done.get(&e)
                        .ok_or(DepthError::Missing(TableId::Moving(e)))?
                        .as_slice(),
                )),
            };
            for slot in 0..values[part].len() as u64 {
                let outcome = values[part][slot as usize].outcome();
                if outcome == Outcome::Draw {
                    continue;
                }
                let (us, them) = index::position::<B>(sub, slot);
                let mut inside = 0u32;
                let mut best_exit = NONE;
                let mut longest_exit = 0u16;
                for_each_move_on::<B>(us, them, flying, |m| {
                    if m.removal().is_none() {
                        inside += 1;
                        return;
                    }
                    let (nu, nt) = m.apply(us, them);
                    let (o, d) = match exit {
                        None => (Outcome::Loss, 0),
                        Some((v, d)) => {
                            let s = index::slot::<B>(nu, nt) as usize;
                            (v[s].outcome(), d[s])
                        }
                    };
                    match o {
                        Outcome::Loss => best_exit = best_exit.min(d + 1),
                        Outcome::Win => longest_exit = longest_exit.max(d + 1),
                        Outcome::Draw => {}
                    }
                });
                if outcome == Outcome::Win {
                    if best_exit != NONE {
                        push(&mut buckets, best_exit, part, slot);
                    }
                } else {
                    count[part][slot as usize] = inside.min(255) as u8;
                    exit_max[part][slot as usize] = longest_exit;
                    if inside == 0 {
                        push(&mut buckets, longest_exit, part, slot);
                    }
                }
            }
        }
        let mut d = 0usize;
        while d < buckets.len() {
            let list = std::mem::take(&mut buckets[d]);
            for (part, slot) in list {
                let (part, slot) = (part as usize, slot as u64);
                if depth[part][slot as usize] != NONE {
                    continue;
                }
                depth[part][slot as usize] = d as u16;
                let lost = values[part][slot as usize].outcome() == Outcome::Loss;
                let (us, them) = index::position::<B>(parts[part], slot);
                let q_part = other(part);
                for_each_unmove_on::<B>(us, them, flying, |prev| {
                    let q = index::slot::<B>(prev, us);
                    let qi = q as usize;
                    if depth[q_part][qi] != NONE {
                        return;
                    }
                    match values[q_part][qi].outcome() {
                        Outcome::Win if lost => push(&mut buckets, d as u16 + 1, q_part, q),
                        Outcome::Loss if !lost => {
                            count[q_part][qi] -= 1;
                            if count[q_part][qi] == 0 {
                                let at = (d as u16 + 1).max(exit_max[q_part][qi]);
                                push(&mut buckets, at, q_part, q);
                            }
                        }
                        _ => {}
                    }
                });
            }
            d += 1;
        }
        for (part, &sub) in parts.iter().enumerate() {
            for (slot, &dd) in depth[part].iter().enumerate() {
                let o = values[part][slot].outcome();
                if o != Outcome::Draw && dd == NONE {
                    return Err(DepthError::Inconsistent(
                        TableId::Moving(sub),
                        slot as u64,
                        o.as_str(),
                    ));
                }
            }
        }
        Ok(depth)
    }

    fn sector_depths(
        &self,
        sector: Sector,
        moving: &BTreeMap<Subspace, Vec<u16>>,
        placement: &BTreeMap<Sector, Vec<u16>>,
    ) -> Result<Vec<u16>, DepthError> {
        let outcomes = self
            .placement
            .get(&sector)
            .ok_or(DepthError::Missing(TableId::Placement(sector)))?;
        let lookup = |id: TableId| -> Result<(Vec<Outcome>, &[u16]), DepthError> {
            match id {
                TableId::Moving(s) => Ok((
                    self.moving_table(s)?.iter().map(|v| v.outcome()).collect(),
                    moving.get(&s).ok_or(DepthError::Missing(id))?.as_slice(),
                )),
                TableId::Placement(s) => Ok((
                    self.placement
                        .get(&s)
                        .ok_or(DepthError::Missing(id))?
                        .clone(),
                    placement.get(&s).ok_or(DepthError::Missing(id))?.as_slice(),
                )),
            }
        };
        let plain = lookup(sector.after(false))?;
        let removal_wins = sector.them + sector.them_hand <= 3;
        let taking = if sector.them > 0 && !removal_wins {
            Some(lookup(sector.after(true))?)
        } else {
            None
        };
        let mut out = vec![NONE; outcomes.len()];
        for (slot, &o) in outcomes.iter().enumerate() {
            if o == Outcome::Draw {
                continue;
            }
            let (us, them) = index::position::<B>(sector.subspace(), slot as u64);
            let empty = !(us | them) & B::FULL;
            let taken = B::removable(them);
            let mut best = NONE;
            let mut longest = 0u16;
            let mut note = |succ: Outcome, d: u16| match succ {
                Outcome::Loss => best = best.min(d + 1),
                Outcome::Win => longest = longest.max(d + 1),
                Outcome::Draw => {}
            };
            for to in points(empty) {
                let placed: Bits = us | 1 << to;
                if taken != 0 && B::in_mill(placed, to) {
                    if removal_wins {
                        note(Outcome::Loss, 0);
                        continue;
                    }
                    let (t, d) = taking
                        .as_ref()
                        .ok_or(DepthError::Missing(sector.after(true)))?;
                    for r in points(taken) {
                        let s = index::slot::<B>(them & !(1 << r), placed) as usize;
                        note(t[s], d[s]);
                    }
                } else {
                    let s = index::slot::<B>(them, placed) as usize;
                    note(plain.0[s], plain.1[s]);
                }
            }
            out[slot] = if o == Outcome::Win { best } else { longest };
            if out[slot] == NONE {
                return Err(DepthError::Inconsistent(
                    TableId::Placement(sector),
                    slot as u64,
                    o.as_str(),
                ));
            }
        }
        Ok(out)
    }

    /// The deepest win (in plies to the end) among the positions reachable
    /// from the start by any play, with the count of those positions.
    pub fn deepest_reachable_win(&self, depths: &Depths) -> Result<DeepestWin, DepthError> {
        let stones = self.rules.stones;
        let flying = self.rules.flying;
        let mut seen: BTreeMap<TableId, Vec<bool>> = BTreeMap::new();
        for id in super::files::tables(self.rules) {
            let size = match id {
                TableId::Moving(s) => index::size::<B>(s),
                TableId::Placement(s) => index::size::<B>(s.subspace()),
            };
            seen.insert(id, vec![false; size as usize]);
        }
        let start = TableId::Placement(Sector::new(0, 0, stones, stones));
        let mark = |seen: &mut BTreeMap<TableId, Vec<bool>>,
                    id: TableId,
                    slot: u64|
         -> Result<bool, DepthError> {
            let bits = seen.get_mut(&id).ok_or(DepthError::Missing(id))?;
            let fresh = !bits[slot as usize];
            bits[slot as usize] = true;
            Ok(fresh)
        };
        mark(&mut seen, start, 0)?;
        // Placement: sectors with more stones in hand come first.
        let mut sectors = Sector::all(stones);
        sectors.reverse();
        for sector in sectors {
            let id = TableId::Placement(sector);
            let marked: Vec<usize> = ones(&seen[&id]).collect();
            let removal_ends = sector.them + sector.them_hand <= 3;
            for slot in marked {
                let (us, them) = index::position::<B>(sector.subspace(), slot as u64);
                let empty = !(us | them) & B::FULL;
                let taken = B::removable(them);
                for to in points(empty) {
                    let placed = us | 1 << to;
                    if taken != 0 && B::in_mill(placed, to) {
                        if removal_ends {
                            continue;
                        }
                        for r in points(taken) {
                            let s = index::slot::<B>(them & !(1 << r), placed);
                            mark(&mut seen, sector.after(true), s)?;
                        }
                    } else {
                        mark(
                            &mut seen,
                            sector.after(false),
                            index::slot::<B>(them, placed),
                        )?;
                    }
                }
            }
        }
        // Moving phase: pairs with more stones first; a worklist per pair.
        let mut order = pairs(stones);
        order.reverse();
        for sub in order {
            let parts = if sub.us == sub.them {
                vec![sub]
            } else {
                vec![sub, sub.swapped()]
            };
            let mut work: Vec<(Subspace, u64)> = Vec::new();
            for &p in &parts {
                work.extend(ones(&seen[&TableId::Moving(p)]).map(|s| (p, s as u64)));
            }
            let mut next = Vec::new();
            while let Some((p, slot)) = work.pop() {
                let (us, them) = index::position::<B>(p, slot);
                next.clear();
                for_each_move_on::<B>(us, them, flying, |m| next.push(m));
                for &m in &next {
                    let (nu, nt) = m.apply(us, them);
                    if m.removal().is_none() {
                        let q = p.swapped();
                        let s = index::slot::<B>(nu, nt);
                        if mark(&mut seen, TableId::Moving(q), s)? {
                            work.push((q, s));
                        }
                    } else if let Some(e) = p.exit() {
                        mark(&mut seen, TableId::Moving(e), index::slot::<B>(nu, nt))?;
                    }
                }
            }
        }
        let mut best: Option<(u16, TableId, u64)> = None;
        let mut moving_best = 0u16;
        let mut reachable = 0u64;
        for (&id, bits) in &seen {
            for slot in ones(bits) {
                reachable += 1;
                let (won, d) = match id {
                    TableId::Moving(s) => (
                        self.moving_table(s)?[slot].outcome() == Outcome::Win,
                        depths.moving[&s][slot],
                    ),
                    TableId::Placement(s) => (
                        self.placement[&s][slot] == Outcome::Win,
                        depths.placement[&s][slot],
                    ),
                };
                if won {
                    if matches!(id, TableId::Moving(_)) {
                        moving_best = moving_best.max(d);
                    }
                    if best.is_none_or(|(b, _, _)| d > b) {
                        best = Some((d, id, slot as u64));
                    }
                }
            }
        }
        let mut any: Option<(u16, TableId, u64)> = None;
        let mut deeper = |d: u16, id: TableId, slot: usize| {
            if any.is_none_or(|(b, _, _)| d > b) {
                any = Some((d, id, slot as u64));
            }
        };
        for (s, d) in &depths.moving {
            let v = self.moving_table(*s)?;
            for (slot, &dd) in d.iter().enumerate() {
                if v[slot].outcome() == Outcome::Win {
                    deeper(dd, TableId::Moving(*s), slot);
                }
            }
        }
        for (s, d) in &depths.placement {
            for (slot, &dd) in d.iter().enumerate() {
                if self.placement[s][slot] == Outcome::Win {
                    deeper(dd, TableId::Placement(*s), slot);
                }
            }
        }
        let (any_plies, any_id, any_slot) = any.unwrap_or((0, start, 0));
        let (plies, id, slot) = best.unwrap_or((0, start, 0));
        let position = position_of::<B>(id, slot);
        let any_position = position_of::<B>(any_id, any_slot);
        Ok(DeepestWin {
            plies,
            position,
            reachable,
            moving_plies: moving_best,
            any_plies,
            any_position,
        })
    }
}

impl Depths {
    /// The distance to the end of a position (`None` for a draw or a table
    /// not solved).
    pub fn of<B: Board>(&self, pos: &Position) -> Option<u16> {
        let (us, them) = (pos.us(), pos.them());
        let slot = index::slot::<B>(us, them) as usize;
        let d = if pos.placing() {
            *self.placement.get(&Sector::of(pos)?)?.get(slot)?
        } else {
            *self.moving.get(&Subspace::of(us, them))?.get(slot)?
        };
        (d != NONE).then_some(d)
    }
}

/// The indices of the set flags.
fn ones(flags: &[bool]) -> impl Iterator<Item = usize> + '_ {
    flags.iter().enumerate().filter(|(_, &f)| f).map(|(i, _)| i)
}

/// The position in `slot` of a table (a moving-phase position is shown
/// with White to move).
fn position_of<B: Board>(id: TableId, slot: u64) -> Position {
    match id {
        TableId::Moving(s) => {
            let (us, them) = index::position::<B>(s, slot);
            Position::from_mover(us, them, Color::White)
        }
        TableId::Placement(s) => {
            let (us, them) = index::position::<B>(s.subspace(), slot);
            let to_move = s.to_move();
            let mut stones = [0; 2];
            stones[to_move.index()] = us;
            stones[to_move.other().index()] = them;
            let mut hand = [0; 2];
            hand[to_move.index()] = s.us_hand;
            hand[to_move.other().index()] = s.them_hand;
            Position {
                stones,
                hand,
                to_move,
            }
        }
    }
}
