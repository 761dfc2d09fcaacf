//! The table graphs of the mill games ([`tablebase::plan`]): one job per
//! unit that a game's `generate` solves and writes on its own — a Nine
//! Men's Morris subspace pair or placement sector, a Morabaraba pair, a
//! Lasker sector pair, and the whole game for the boards solved in memory
//! at once (Six Men's Morris) — listed from the same enumerations
//! the generators walk, with the jobs each reads and an estimate of its
//! peak memory and CPU time.
//!
//! The estimates are linear models in the slots a job holds, with the
//! costs measured on the 2-core development machine (figures in
//! `docs/results.md` and `docs/workflow.md`); a scheduler should treat them
//! as requests, not promises.

use crate::games::lasker::{self};
use crate::games::morabaraba::Index as MorabarabaIndex;
use crate::games::nine::files;
use crate::index::nine;
use crate::index::Dense;
use crate::index::Indexing;
use crate::rules::board::{Board, Morabaraba, Nine};
use crate::rules::variant::RuleSet;
use crate::tables::files::{self as family_files, FamilyTables};
use crate::tables::keys::{Sector, Subspace, TableId};
use crate::tables::{self, parts, Size, SizeError};
use tablebase::plan::{Job, Plan};
use tablebase::set::TableSet;

/// A unit of a mill game's generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A moving-phase subspace pair (one subspace when `us == them`).
    Pair(Subspace),
    /// A placement sector (Nine Men's Morris).
    Sector(Sector),
    /// Every table of the game, solved in one process.
    Whole,
    /// A Lasker Morris sector pair (its greater sector).
    Lasker(lasker::sector::LaskerSector),
}

/// The key of the whole-game job.
pub const WHOLE: &str = "all";

/// Bytes a process needs besides its tables (code, thread stacks, the
/// allocator's slack, the retrograde engine's queues): measured as the
/// peak of the smallest jobs.
const BASE_BYTES: u64 = 64 << 20;

/// Nine's index tables (class table on huge pages, stabilisers).
const NINE_INDEX_BYTES: u64 = 96 << 20;

/// The symmetric index's tables on 24 points (a 2^24-entry class table).
const SYMMETRIC_INDEX_BYTES: u64 = 80 << 20;

/// Bytes a slot of a moving-phase pair holds at the peak: the engine's
/// 16-bit state, the values copied out of it piece by piece, the
/// allocator's slack. Measured with `generate --only` on Nine's 5-stone
/// pairs (2.2 bytes a slot for 4-5, 3.4 for 5-5 over a 100 MB base;
/// docs/workflow.md); the whole-run peak of Nine's 8-9/9-8 pair, 4.26 GB
/// for 1.07 × 10^9 slots, also counts the mapped files of every earlier
/// table, which a job alone does not touch.
const PAIR_BYTES_PER_SLOT: u64 = 3;

/// CPU seconds a slot of a moving-phase pair costs on Nine's board: the
/// whole moving phase from an empty directory took 6,254 s of CPU for its
/// 9,193,626,407 slots (8,904,593,601 positions; docs/results.md). Slots,
/// not positions: counting positions takes a minute for the whole game.
const NINE_MOVING_CPU: f64 = 0.68e-6;

/// CPU seconds a slot of a placement sector costs: 6,170 s for the 455
/// sectors' 1.87 × 10^10 slots (docs/results.md).
const NINE_PLACEMENT_CPU: f64 = 0.33e-6;

/// CPU seconds a slot of a Morabaraba pair costs: 2,945 s for the pairs
/// with 18..24 stones, 3,610,527,024 slots (docs/results.md).
const MORABARABA_CPU: f64 = 0.82e-6;

/// CPU seconds a slot of a Morabaraba placement sector costs: 78.6 s for
/// the 6-stone game's 118 sectors, 284,391,930 slots (docs/results.md).
const MORABARABA_PLACEMENT_CPU: f64 = 0.28e-6;

/// CPU seconds a slot of a Lasker pair costs over the symmetry-reduced
/// index (docs/results.md): 0.42 µs measured for the whole 4-stone game,
/// at most 0.71 µs for the 6-stone game's pairs with empty hands on the
/// loaded machine; 0.7 µs is asked for. With 3 stones every side flies:
/// 2.8 µs, as measured over the dense index.
fn lasker_cpu(stones: u8) -> f64 {
    if stones <= 3 {
        2.8e-6
    } else {
        0.7e-6
    }
}

/// CPU seconds a slot of Six Men's Morris (and any small board solved
/// whole over the dense index) costs: 18.1 s of CPU for the whole game's
/// 49,985,420 slots, 78 MB peak (docs/workflow.md). Every table is held
/// as one byte a slot, the pair being solved as two more.
const SMALL_BOARD_CPU: f64 = 0.4e-6;

/// A job of a mill game.
pub type MillJob = Job<Unit>;

/// The key of the pair that solves subspace `sub`: its one name, `W-B`
/// with `W ≥ B` on every board ([`tables::pair_of`]).
fn pair_key(sub: Subspace) -> String {
    tables::pair_of(sub).to_string()
}

/// Nine Men's Morris under `rules`: the moving-phase pairs of `size` (as
/// `solver nine generate --stones K --max-stones N`), then, with
/// `placement`, every placement sector of the `size.stones`-stone game.
pub fn nine(rules: RuleSet, size: Size, placement: bool) -> Result<Plan<Unit>, SizeError> {
    if placement {
        size.check_placement()?;
    }
    let stones = size.stones;
    let set = files::directory(std::path::Path::new(""), rules);
    let file = |id: TableId| set.set().file_name(id);
    let mut jobs = Vec::new();
    for pair in size.pairs() {
        let parts = parts(pair);
        let slots: u64 = parts.iter().map(|&s| nine::size(s)).sum();
        let exits: Vec<Subspace> = parts.iter().filter_map(|s| s.exit()).collect();
        let exit_slots: u64 = exits.iter().map(|&s| nine::size(s)).sum();
        let mut inputs: Vec<String> = exits.iter().map(|&s| pair_key(s)).collect();
        inputs.dedup();
        jobs.push(Job {
            id: Unit::Pair(pair),
            key: pair_key(pair),
            inputs,
            outputs: parts.iter().map(|&s| file(TableId::Moving(s))).collect(),
            slots,
            memory: BASE_BYTES + NINE_INDEX_BYTES + PAIR_BYTES_PER_SLOT * slots + exit_slots / 4,
            cpu_seconds: slots as f64 * NINE_MOVING_CPU,
        });
    }
    if placement {
        for sector in Sector::all(stones) {
            let slots = nine::size(sector.subspace());
            let reads = sector_reads(sector);
            let read_slots: u64 = reads.iter().map(|&id| nine::size(subspace(id))).sum();
            let inputs = read_keys(&reads);
            jobs.push(Job {
                id: Unit::Sector(sector),
                key: sector.to_string(),
                inputs,
                outputs: vec![file(TableId::Placement(sector))],
                slots,
                // One byte a slot of codes, a quarter byte a slot packed,
                // the successors as two-bit outcomes.
                memory: BASE_BYTES + NINE_INDEX_BYTES + slots + slots / 4 + read_slots / 4,
                cpu_seconds: slots as f64 * NINE_PLACEMENT_CPU,
            });
        }
    }
    Ok(Plan {
        command: "solver nine generate --only KEY".into(),
        jobs,
        notes: vec![
            "a pair W-B (W ≥ B) writes the subspaces W-B and B-W; a sector W-B-WF-BF is Malom's".into(),
            format!(
                "estimates: {:.2} µs of CPU a slot of a pair, {:.2} µs a slot of a sector; memory {PAIR_BYTES_PER_SLOT} bytes a slot of a pair plus a quarter byte a slot of its exits, 1.25 bytes a slot of a sector plus a quarter byte a slot of its successors, plus {} MiB",
                NINE_MOVING_CPU * 1e6,
                NINE_PLACEMENT_CPU * 1e6,
                (BASE_BYTES + NINE_INDEX_BYTES) >> 20
            ),
        ],
    })
}

/// The subspace whose slots a table uses.
fn subspace(id: TableId) -> Subspace {
    match id {
        TableId::Moving(sub) => sub,
        TableId::Placement(s) => s.subspace(),
    }
}

/// A small board solved whole in memory (Six Men's Morris): one job
/// writing every table, as `solver six generate` does.
pub fn small_board<B: Board>(rules: RuleSet) -> Plan<Unit> {
    let set = FamilyTables::<B, Dense>::new(rules);
    let ids = family_files::tables(rules);
    let slots: u64 = ids.iter().map(|&id| set.slots(id)).sum();
    let largest_pair = tables::pairs(rules.stones, 2 * rules.stones)
        .into_iter()
        .map(|p| {
            parts(p)
                .iter()
                .map(|&s| set.slots(TableId::Moving(s)))
                .sum::<u64>()
        })
        .max()
        .unwrap_or(0);
    Plan {
        command: format!("solver {} generate --only {WHOLE}", B::NAME),
        jobs: vec![Job {
            id: Unit::Whole,
            key: WHOLE.into(),
            inputs: vec![],
            outputs: ids.iter().map(|&id| set.file_name(id)).collect(),
            slots,
            memory: BASE_BYTES + slots + 2 * largest_pair,
            cpu_seconds: slots as f64 * SMALL_BOARD_CPU,
        }],
        notes: vec![
            format!(
                "the whole game is one job: `solver {} generate` solves every table in memory and writes them at the end (seconds), so there is nothing to split",
                B::NAME
            ),
            format!(
                "estimates: {} µs of CPU a slot; memory one byte a slot, two more a slot of the largest pair, plus {} MiB",
                SMALL_BOARD_CPU * 1e6,
                BASE_BYTES >> 20
            ),
        ],
    }
}

/// Morabaraba under `rules`: the moving-phase pairs of `size` (as `solver
/// morabaraba generate --stones K --max-stones N`), over the
/// symmetry-reduced index, then, with `placement`, every placement sector
/// of the `size.stones`-stone game (as `generate --placement`).
pub fn morabaraba(rules: RuleSet, size: Size, placement: bool) -> Result<Plan<Unit>, SizeError> {
    if placement {
        size.check_placement()?;
    }
    let set = FamilyTables::<Morabaraba, MorabarabaIndex>::new(rules);
    let slots_of = MorabarabaIndex::size::<Morabaraba>;
    let mut jobs = Vec::new();
    for pair in size.pairs() {
        let parts = parts(pair);
        let slots: u64 = parts.iter().map(|&s| slots_of(s)).sum();
        let exits: Vec<Subspace> = parts.iter().filter_map(|s| s.exit()).collect();
        let exit_slots: u64 = exits.iter().map(|&s| slots_of(s)).sum();
        let mut inputs: Vec<String> = exits.iter().map(|&s| pair_key(s)).collect();
        inputs.dedup();
        jobs.push(Job {
            id: Unit::Pair(pair),
            key: pair_key(pair),
            inputs,
            outputs: parts
                .iter()
                .map(|&s| set.file_name(TableId::Moving(s)))
                .collect(),
            slots,
            memory: BASE_BYTES
                + SYMMETRIC_INDEX_BYTES
                + PAIR_BYTES_PER_SLOT * slots
                + exit_slots / 4,
            cpu_seconds: slots as f64 * MORABARABA_CPU,
        });
    }
    if placement {
        for sector in Sector::all(size.stones) {
            let slots = slots_of(sector.subspace());
            let reads = sector_reads(sector);
            let read_slots: u64 = reads.iter().map(|&id| slots_of(subspace(id))).sum();
            jobs.push(Job {
                id: Unit::Sector(sector),
                key: sector.to_string(),
                inputs: read_keys(&reads),
                outputs: vec![set.file_name(TableId::Placement(sector))],
                slots,
                memory: BASE_BYTES + SYMMETRIC_INDEX_BYTES + slots + slots / 4 + read_slots / 4,
                cpu_seconds: slots as f64 * MORABARABA_PLACEMENT_CPU,
            });
        }
    }
    let what = if placement {
        "; a sector W-B-WF-BF is Malom's numbering"
    } else {
        "; the placement phase is searched, not stored (add --placement for its sectors)"
    };
    Ok(Plan {
        command: "solver morabaraba generate --only KEY".into(),
        jobs,
        notes: vec![
            format!("a pair W-B (W ≥ B) writes the subspaces W-B and B-W{what}"),
            format!(
                "estimates: {:.2} µs of CPU a slot of a pair, {:.2} µs a slot of a sector; memory {PAIR_BYTES_PER_SLOT} bytes a slot of the pair plus a quarter byte a slot of its exits, 1.25 bytes a slot of a sector plus a quarter byte a slot of its successors, plus {} MiB",
                MORABARABA_CPU * 1e6,
                MORABARABA_PLACEMENT_CPU * 1e6,
                (BASE_BYTES + SYMMETRIC_INDEX_BYTES) >> 20
            ),
        ],
    })
}

/// The tables a placement sector reads: where its placements lead without
/// a removal and, unless no lookup is made there, after one.
fn sector_reads(sector: Sector) -> Vec<TableId> {
    let mut reads = vec![sector.after(false)];
    if sector.them > 0 && !sector.removal_wins() {
        reads.push(sector.after(true));
    }
    reads
}

/// The job keys of the tables `reads`.
fn read_keys(reads: &[TableId]) -> Vec<String> {
    let mut keys: Vec<String> = reads
        .iter()
        .map(|&id| match id {
            TableId::Moving(sub) => pair_key(sub),
            TableId::Placement(s) => s.to_string(),
        })
        .collect();
    keys.dedup();
    keys
}

/// Lasker Morris under `rules` (`rules.stones` a side, 10 by default):
/// one job per sector pair over Nine Men's Morris's symmetry-reduced
/// index, as `solver lasker generate` solves them, each reading the pairs
/// its placements and removals lead into from their files.
pub fn lasker(rules: RuleSet) -> Plan<Unit> {
    let set = lasker::files::LaskerTables::<Nine>::new(rules);
    let mut jobs = Vec::new();
    for pair in lasker::sector::pairs::<Nine>(rules.stones) {
        let parts = lasker::solve::pair_parts(pair);
        let slots: u64 = parts.iter().map(|s| s.slots()).sum();
        let exits: Vec<lasker::sector::LaskerSector> = parts
            .iter()
            .flat_map(|&s| lasker::solve::exit_sectors(s))
            .flatten()
            .collect();
        let exit_slots: u64 = exits.iter().map(|s| s.slots()).sum();
        jobs.push(Job {
            id: Unit::Lasker(pair),
            key: lasker::tables::pair_key(pair),
            inputs: lasker::tables::inputs(pair)
                .into_iter()
                .map(lasker::tables::pair_key)
                .collect(),
            outputs: parts.iter().map(|&s| set.file_name(s)).collect(),
            slots,
            memory: BASE_BYTES + NINE_INDEX_BYTES + PAIR_BYTES_PER_SLOT * slots + exit_slots / 4,
            cpu_seconds: slots as f64 * lasker_cpu(rules.stones),
        });
    }
    Plan {
        command: "solver lasker generate --only KEY".into(),
        jobs,
        notes: vec![
            "a pair A-B-HA-HB (the greater of a sector and its colour swap) writes the sectors A-B-HA-HB and B-A-HB-HA: stones on the board of the side to move and of its opponent, then in hand; Nine Men's Morris's symmetry-reduced index (Malom's numbering)".into(),
            format!(
                "estimates: {} µs of CPU a slot; memory {PAIR_BYTES_PER_SLOT} bytes a slot of the pair plus a quarter byte a slot of its exits, plus {} MiB",
                lasker_cpu(rules.stones) * 1e6,
                (BASE_BYTES + NINE_INDEX_BYTES) >> 20
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_plan_runs_in_order_and_covers_every_table() {
        let rules = RuleSet::nine(true);
        let plan = nine(rules, Size::game(9), true).unwrap();
        plan.check().unwrap();
        // 49 subspaces in 28 pairs, 455 sectors (docs/results.md).
        let pairs = plan
            .jobs
            .iter()
            .filter(|j| matches!(j.id, Unit::Pair(_)))
            .count();
        assert_eq!(pairs, 28);
        let files: usize = plan.jobs.iter().map(|j| j.outputs.len()).sum();
        assert_eq!(files, 49 + 455);
        assert!(nine(rules, Size::new(7, Some(12)), true).is_err());
        // Nine Men's Morris with at most 9 stones in all: 10 subspaces.
        let small = nine(rules, Size::new(9, Some(9)), false).unwrap();
        let files: usize = small.jobs.iter().map(|j| j.outputs.len()).sum();
        assert_eq!(files, 10);
    }

    #[test]
    fn family_plans_run_in_order() {
        let plan = morabaraba(RuleSet::new(12, true), Size::game(6), false).unwrap();
        plan.check().unwrap();
        assert_eq!(plan.jobs.len(), 10);
        assert_eq!(plan.jobs[0].key, "3-3");
        assert_eq!(plan.jobs[1].inputs, vec!["3-3".to_string()]);
        // The 6-stone game's 118 placement sectors after its 10 pairs
        // (docs/results.md), each reading only jobs listed before it.
        let whole = morabaraba(RuleSet::new(12, true), Size::game(6), true).unwrap();
        whole.check().unwrap();
        assert_eq!(whole.jobs.len(), 10 + 118);
        // The placement sectors read every pair of their game.
        assert!(morabaraba(RuleSet::new(12, true), Size::new(12, Some(20)), true).is_err());
        // The full game: 55 pairs, 1,125 sectors (docs/results.md).
        assert_eq!(
            morabaraba(RuleSet::new(12, true), Size::game(12), true)
                .unwrap()
                .jobs
                .len(),
            55 + 1125
        );
        let six = small_board::<crate::rules::board::Six>(RuleSet::new(6, true));
        six.check().unwrap();
        let l = lasker(RuleSet::lasker(3));
        l.check().unwrap();
        // 16 sectors in 10 pairs (4 sectors are their own swap).
        assert_eq!(l.jobs.len(), 10);
        let files: usize = l.jobs.iter().map(|j| j.outputs.len()).sum();
        assert_eq!(files, 16);
        lasker(RuleSet::lasker(10)).check().unwrap();
    }
}
