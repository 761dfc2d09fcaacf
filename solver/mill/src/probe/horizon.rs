//! Values under a ply limit: can the side to move force a win of Nine Men's
//! Morris within `n` more plies? OpenSpiel's `nine_mens_morris` declares a
//! draw once 200 turns have been played (a move with its removal is one
//! turn, one of our plies), so its value of a position is not the tables'
//! value but this one, with `n` the turns left.
//!
//! The tables hold the distance to conversion (DTC), not to the end of the
//! game: a win with a small DTC may still take too long once the game goes
//! on after the conversion. This module answers exactly, by an AND/OR
//! search over the moving-phase tables ([`Horizon`]):
//!
//! * the side the tables call the winner (the attacker) only tries moves
//!   the tables call wins — a drawn or lost position can never become a
//!   forced win under a limit, since the limit only takes wins away — in
//!   order of their DTC; the defender tries every move;
//! * a position whose DTC exceeds the plies left is refuted at once: DTC is
//!   a lower bound on the plies to a forced win (see [`Horizon::forced`]);
//! * a memo keyed by the position's slot keeps, for each position, the
//!   length of the shortest proof found (a forced win within `l` plies is
//!   one within every `n ≥ l`) and the most plies known to be too few;
//!   storing the proof's length rather than the plies asked for lets a
//!   question with many plies left be reused deeper in the tree.
//!
//! A draw of the tables is a draw under any limit, a win of the tables is
//! a win under the limit exactly when the search forces it within the
//! plies left (else a draw), and a loss is a loss exactly when the
//! opponent forces it (else a draw). The search counts the positions it
//! expands; past its node budget it stops with [`HorizonError::Budget`]
//! instead of guessing.

use crate::index::nine::{self, Subspace};
use crate::probe::nine::{ProbeError, Tablebases};
use crate::rules::board::Nine;
use crate::rules::ending;
use crate::rules::moving::{self, Slide};
use crate::rules::position::{Move, Position};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use tablebase::{Outcome, Value};

/// Errors of a search under a ply limit.
#[derive(Debug, thiserror::Error)]
pub enum HorizonError {
    /// A probe failed (a missing or damaged table, an illegal position),
    /// or the position is still in the placement phase.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The search expanded more positions than its budget allows: the
    /// answer is unknown (never guessed).
    #[error(
        "the search under the ply limit expanded {nodes} positions, its budget, without an answer"
    )]
    Budget {
        /// Positions expanded when the search stopped.
        nodes: u64,
    },
}

/// The default node budget of [`Horizon::new`]: positions expanded by one
/// search before it gives up with [`HorizonError::Budget`].
pub const DEFAULT_BUDGET: u64 = 5_000_000;

/// One legal move's value under the ply limit, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveWithin {
    /// The move.
    pub mv: Move,
    /// Its value without a limit (the tables'; a conversion is at
    /// distance 1).
    pub table: Value,
    /// Its value when the game is a draw after the plies left.
    pub within: Outcome,
}

/// A position's value under a ply limit ([`Horizon::analyse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Within {
    /// The position.
    pub position: Position,
    /// Plies left, this position's move included (OpenSpiel: `200 − turn`).
    pub plies: u16,
    /// The value without a limit (the tables').
    pub table: Value,
    /// The value under the limit, for the side to move.
    pub within: Outcome,
    /// Every legal move with both values, best under the limit first (then
    /// by the tables' order of preference); empty when the game is over or
    /// no ply is left.
    pub moves: Vec<MoveWithin>,
    /// Positions the search expanded.
    pub nodes: u64,
}

impl Within {
    /// The answer as JSON: `position`, `plies`, `value` (under the limit),
    /// `table_value`, `dtc` (the tables' distance to conversion, `null` for
    /// a draw), `nodes`, `moves` (each `move`, `value`, `table_value`,
    /// `dtc`).
    pub fn to_json(&self) -> serde_json::Value {
        let moves: Vec<_> = self
            .moves
            .iter()
            .map(|m| {
                serde_json::json!({
                    "move": m.mv.to_string(),
                    "value": m.within.as_str(),
                    "table_value": m.table.outcome().as_str(),
                    "dtc": m.table.distance(),
                })
            })
            .collect();
        serde_json::json!({
            "position": self.position.to_string(),
            "plies": self.plies,
            "value": self.within.as_str(),
            "table_value": self.table.outcome().as_str(),
            "dtc": self.table.distance(),
            "nodes": self.nodes,
            "moves": moves,
        })
    }
}

/// What the memo knows of one position: the claim "the tables' winner
/// forces the win within `n` plies" holds for every `n ≥ holds` (a proof of
/// that length was found) and fails for every `n < fails_below`.
#[derive(Clone, Copy)]
struct Bounds {
    holds: u16,
    fails_below: u16,
}

/// A multiplicative hash for the memo's integer keys (slots are already
/// well spread; SipHash would cost more than the lookup).
#[derive(Default)]
struct SlotHasher(u64);

impl Hasher for SlotHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ (n >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The search under a ply limit over a set of moving-phase tables. Its
/// memo lives as long as the `Horizon`, so one `Horizon` answering the
/// positions of one game reuses what it proved (every answer is exact
/// whatever the memo holds).
pub struct Horizon<'t> {
    tables: &'t Tablebases,
    flying: bool,
    budget: u64,
    nodes: u64,
    memo: HashMap<u64, Bounds, BuildHasherDefault<SlotHasher>>,
}

impl<'t> Horizon<'t> {
    /// A search over `tables` with the [`DEFAULT_BUDGET`].
    pub fn new(tables: &'t Tablebases) -> Horizon<'t> {
        Horizon {
            tables,
            flying: tables.rules().flying,
            budget: DEFAULT_BUDGET,
            nodes: 0,
            memo: HashMap::default(),
        }
    }

    /// The same with at most `budget` positions expanded per question.
    pub fn with_budget(mut self, budget: u64) -> Horizon<'t> {
        self.budget = budget;
        self
    }

    /// The value of a legal moving-phase position and of each of its moves
    /// when the game is a draw after `plies` more plies (this position's
    /// move included). A finished game is a loss (also with no ply left);
    /// with no ply left and the game not over, a draw without moves.
    pub fn analyse(&mut self, pos: &Position, plies: u16) -> Result<Within, HorizonError> {
        self.nodes = 0;
        let table = self.tables.probe(pos)?;
        let mut out = Within {
            position: *pos,
            plies,
            table,
            within: Outcome::Draw,
            moves: Vec::new(),
            nodes: 0,
        };
        if ending::<Nine>(pos, self.tables.rules()).is_some() {
            out.within = Outcome::Loss;
            return Ok(out);
        }
        if plies == 0 {
            return Ok(out);
        }
        let mut slides = Vec::new();
        moving::for_each_move(pos.us(), pos.them(), self.flying, |s| slides.push(s));
        for s in slides {
            let (us, them) = s.apply(pos.us(), pos.them());
            let (child, within) = match self.child(us, them)? {
                None => (Value::loss(0), Outcome::Win),
                Some(v) => {
                    let forced =
                        v.outcome() != Outcome::Draw && self.forced(us, them, plies - 1)?;
                    let within = match (v.outcome(), forced) {
                        (Outcome::Loss, true) => Outcome::Win,
                        (Outcome::Win, true) => Outcome::Loss,
                        _ => Outcome::Draw,
                    };
                    (v, within)
                }
            };
            out.moves.push(MoveWithin {
                mv: slide_move(s),
                table: Value::after_move(child, s.removal().is_some()),
                within,
            });
        }
        out.moves.sort_by_key(|m| {
            (
                std::cmp::Reverse(m.within),
                crate::probe::analysis::preference(m.mv, m.table),
            )
        });
        out.within = out.moves.first().map_or(Outcome::Loss, |m| m.within);
        out.nodes = self.nodes;
        Ok(out)
    }

    /// The best move under the limit and its value, searching only as far
    /// as that choice needs (much less than [`Horizon::analyse`], which
    /// values every move): a move that wins before the limit when there is
    /// one (the tables' wins in order of preference, the first proved);
    /// else a drawing move — a win of the tables (the opponent cannot win
    /// from a position the tables call lost for it), a draw of the tables,
    /// or a loss of the tables the opponent cannot force in time (the
    /// slowest first); else the slowest loss. `None` when the game is over
    /// or no ply is left.
    pub fn best(&mut self, pos: &Position, plies: u16) -> Result<Option<MoveWithin>, HorizonError> {
        self.nodes = 0;
        self.tables.probe(pos)?;
        if plies == 0 || ending::<Nine>(pos, self.tables.rules()).is_some() {
            return Ok(None);
        }
        let mut moves = Vec::new();
        let mut slides = Vec::new();
        moving::for_each_move(pos.us(), pos.them(), self.flying, |s| slides.push(s));
        for s in slides {
            let (us, them) = s.apply(pos.us(), pos.them());
            let child = self.child(us, them)?;
            let table = Value::after_move(child.unwrap_or(Value::loss(0)), s.removal().is_some());
            moves.push((slide_move(s), table, us, them, child.is_none()));
        }
        moves.sort_by_key(|m| crate::probe::analysis::preference(m.0, m.1));
        let Some(&(first, first_value, ..)) = moves.first() else {
            return Ok(None);
        };
        let pick =
            |mv: Move, table: Value, within: Outcome| Ok(Some(MoveWithin { mv, table, within }));
        match first_value.outcome() {
            Outcome::Win => {
                for &(mv, table, us, them, over) in &moves {
                    if table.outcome() != Outcome::Win {
                        break;
                    }
                    if over || self.prove(us, them, plies - 1)?.is_some() {
                        return pick(mv, table, Outcome::Win);
                    }
                }
                pick(first, first_value, Outcome::Draw)
            }
            Outcome::Draw => pick(first, first_value, Outcome::Draw),
            Outcome::Loss => {
                for &(mv, table, us, them, over) in &moves {
                    if over {
                        // Not in a position the tables call lost.
                        return pick(mv, table, Outcome::Win);
                    }
                    if self.prove(us, them, plies - 1)?.is_none() {
                        return pick(mv, table, Outcome::Draw);
                    }
                }
                pick(first, first_value, Outcome::Loss)
            }
        }
    }

    /// Positions the last question expanded.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The tables' value of the position `(us, them)` (mover-relative,
    /// `us` to move) reached by a move, or `None` when the game is over
    /// there (the side to move has fewer than 3 stones or no move: it has
    /// lost).
    fn child(&self, us: u32, them: u32) -> Result<Option<Value>, HorizonError> {
        if us.count_ones() < 3 || !moving::has_move(us, them, self.flying) {
            return Ok(None);
        }
        Ok(Some(self.tables.probe_bits(us, them)?))
    }

    /// Does the side the tables call the winner of `(us, them)` (`us` to
    /// move, the game not over) force its win within `n` plies? For a won
    /// position: can `us` win within `n` plies; for a lost one: must `us`
    /// lose within `n`. A drawn position: never.
    ///
    /// Why a DTC above `n` refutes at once: suppose the winner has a
    /// strategy that ends every game in its win within `k` plies. Along
    /// each game it allows, within those `k` plies, either the game ends
    /// (a block: the tables' distance 0) or a stone is removed (a
    /// conversion, by either side) — a game cannot end otherwise — and the
    /// position after that conversion is still won for the winner (its
    /// strategy goes on winning from there). The tables' DTC is exactly the
    /// fewest plies within which the winner can force "a conversion into a
    /// position it wins, or the end of the game" against every defence
    /// (the retrograde analysis minimises it for the winner and maximises
    /// it for the loser, counting either side's conversion, see
    /// [`Value::after_move`]); that strategy forces this event within `k`,
    /// so DTC ≤ `k`. Hence DTC > `n` means no forced win within `n`.
    pub fn forced(&mut self, us: u32, them: u32, n: u16) -> Result<bool, HorizonError> {
        Ok(self.prove(us, them, n)?.is_some())
    }

    /// [`Horizon::forced`] with the proof's length: `Some(l)` when the
    /// winner forces its win within `l ≤ n` plies by the strategy found
    /// (the memo keeps `l`, not `n`, so that a later question with fewer
    /// plies left reuses the proof), `None` when it cannot within `n`.
    fn prove(&mut self, us: u32, them: u32, n: u16) -> Result<Option<u16>, HorizonError> {
        let value = self.tables.probe_bits(us, them)?;
        let attacker = match value.outcome() {
            Outcome::Draw => return Ok(None),
            o => o == Outcome::Win,
        };
        if value.distance().unwrap_or(0) > n {
            return Ok(None);
        }
        let key = key(us, them);
        let known = self.memo.get(&key).copied().unwrap_or(Bounds {
            holds: u16::MAX,
            fails_below: 0,
        });
        if n >= known.holds {
            return Ok(Some(known.holds));
        }
        if n < known.fails_below {
            return Ok(None);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(HorizonError::Budget { nodes: self.budget });
        }
        let result = if attacker {
            self.attack(us, them, n)?
        } else {
            self.defend(us, them, n)?
        };
        let entry = self.memo.entry(key).or_insert(known);
        match result {
            Some(l) => entry.holds = entry.holds.min(l),
            None => entry.fails_below = entry.fails_below.max(n + 1),
        }
        Ok(result)
    }

    /// The winner to move (`n ≥ 1`: its DTC is at least 1 and at most
    /// `n`): some move the tables call a win whose position the loser
    /// cannot hold for `n − 1` plies.
    fn attack(&mut self, us: u32, them: u32, n: u16) -> Result<Option<u16>, HorizonError> {
        let mut tries: Vec<(u16, u32, u32)> = Vec::new();
        let mut over = false;
        moving::for_each_move(us, them, self.flying, |s| {
            if over {
                return;
            }
            let (cu, ct) = s.apply(us, them);
            if cu.count_ones() < 3 || !moving::has_move(cu, ct, self.flying) {
                over = true;
            } else {
                tries.push((0, cu, ct));
            }
        });
        if over {
            return Ok(Some(1));
        }
        let mut candidates = Vec::with_capacity(tries.len());
        for (_, cu, ct) in tries {
            let v = self.tables.probe_bits(cu, ct)?;
            if v.outcome() == Outcome::Loss && v.distance().unwrap_or(0) < n {
                candidates.push((v.distance().unwrap_or(0), cu, ct));
            }
        }
        candidates.sort_unstable_by_key(|c| c.0);
        for (_, cu, ct) in candidates {
            if let Some(l) = self.prove(cu, ct, n - 1)? {
                return Ok(Some(l + 1));
            }
        }
        Ok(None)
    }

    /// The loser to move (`n ≥ 1`): every move leads to a position the
    /// winner wins within `n − 1` plies. Moves whose DTC already escapes
    /// the limit are looked at first, then the slowest.
    fn defend(&mut self, us: u32, them: u32, n: u16) -> Result<Option<u16>, HorizonError> {
        let mut replies: Vec<(u32, u32)> = Vec::new();
        let mut ends = false;
        moving::for_each_move(us, them, self.flying, |s| {
            let (cu, ct) = s.apply(us, them);
            if cu.count_ones() < 3 || !moving::has_move(cu, ct, self.flying) {
                ends = true;
            }
            replies.push((cu, ct));
        });
        if ends {
            // A move of the loser that ends the game wins it: the tables
            // would not call this position lost.
            return Ok(None);
        }
        let mut order = Vec::with_capacity(replies.len());
        for (cu, ct) in replies {
            let v = self.tables.probe_bits(cu, ct)?;
            match (v.outcome(), v.distance()) {
                (Outcome::Win, Some(d)) if d < n => order.push((d, cu, ct)),
                _ => return Ok(None),
            }
        }
        order.sort_unstable_by_key(|c| std::cmp::Reverse(c.0));
        let mut longest = 0;
        for (_, cu, ct) in order {
            match self.prove(cu, ct, n - 1)? {
                Some(l) => longest = longest.max(l),
                None => return Ok(None),
            }
        }
        Ok(Some(longest + 1))
    }

    /// Positions remembered in the memo.
    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }
}

/// The memo key of a position: its subspace and symmetry-reduced slot.
#[inline]
fn key(us: u32, them: u32) -> u64 {
    let sub = Subspace::of(us, them);
    (u64::from(sub.us) * 10 + u64::from(sub.them)) << 40 | nine::index(us, them)
}

/// Our move of a moving-phase slide.
fn slide_move(s: Slide) -> Move {
    let m = Move::shift(s.from, s.to);
    match s.removal() {
        Some(r) => m.with_removal(r),
        None => m,
    }
}
