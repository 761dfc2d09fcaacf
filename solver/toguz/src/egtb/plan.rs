//! The share tables as a graph of jobs ([`tablebase::plan`]): one job per
//! stone count, the 73 tables with exactly that many stones on the board
//! (37 pairs solved one after the other), reading every table with fewer
//! stones (a capture can take any number of stones). Estimates are linear
//! in the slots, with the cost measured on the development machine
//! (`docs/toguz.md`).

use super::database::{directory, pair_positions, pairs, LowerTables};
use super::index::{Layer, Tuzdyks};
use tablebase::plan::{Job, Plan};
use tablebase::set::TableSet;

/// CPU seconds a slot costs per stone on the board (a pair with `n`
/// stones is solved as `n` threshold games): the tables up to 12 stones
/// took 4,301 s of user CPU for 2.96 × 10^10 slot-stones (2 threads on
/// the shared machine, `docs/toguz.md`).
const CPU_PER_SLOT_STONE: f64 = 0.145e-6;

/// Bytes a slot of a pair's move graph holds: successor and predecessor
/// rows of about 3.5 moves in the pair, 4 bytes each, their starts and the
/// exit summary (36-38 bytes measured at 11 and 12 stones). A table that
/// is its own swap holds its rows once.
const GRAPH_BYTES_PER_SLOT: u64 = 38;

/// Bytes a slot of the engine's game holds during the threshold solves
/// (its 16-bit state, the 16-bit value returned, the two shares kept).
const SOLVE_BYTES_PER_SLOT: u64 = 6;
/// Bytes a slot of the part being built holds besides the finished rows:
/// its successor rows gathered by chunk before they are joined (about 3.5
/// moves of 4 bytes, a count and the exit summary). With it the 13-stone
/// run's peak, 7.21 GB, is met (the pair without tuzdyks: 4,513 MiB of
/// graph, 478 MiB of lower tables).
const BUILD_BYTES_PER_SLOT: u64 = 17;
const BASE_BYTES: u64 = 64 << 20;

/// The tables with `stones` stones.
fn layers(stones: u8) -> impl Iterator<Item = Layer> {
    Tuzdyks::all().map(move |tuzdyks| Layer { stones, tuzdyks })
}

/// Estimated peak bytes of solving the pair of `pair`: its move graph,
/// then either the lower tables it reads and a part's rows being joined
/// (while the graph is built) or the threshold games' states (after; the
/// lower tables are dropped).
pub fn pair_memory(pair: Layer) -> u64 {
    let own = pair.swapped() == pair;
    let engine_slots = if own {
        2 * pair.size()
    } else {
        pair_positions(pair)
    };
    let lower: u64 = LowerTables::needed(pair).into_iter().map(Layer::size).sum();
    let largest_part = pair.size().max(pair.swapped().size());
    BASE_BYTES
        + GRAPH_BYTES_PER_SLOT * pair_positions(pair)
        + (lower + BUILD_BYTES_PER_SLOT * largest_part).max(SOLVE_BYTES_PER_SLOT * engine_slots)
}

/// Every table with at most `max_stones` stones, one job per stone count
/// (key: the count), as `solver toguz generate --max-stones N` builds them.
pub fn plan(max_stones: u8) -> Plan<u8> {
    let set = directory(std::path::Path::new(""));
    let mut jobs = Vec::new();
    for stones in 0..=max_stones {
        let slots: u64 = layers(stones).map(Layer::size).sum();
        let memory = pairs(stones)
            .into_iter()
            .map(pair_memory)
            .max()
            .unwrap_or(BASE_BYTES);
        jobs.push(Job {
            id: stones,
            key: stones.to_string(),
            inputs: (0..stones).map(|s| s.to_string()).collect(),
            outputs: layers(stones).map(|l| set.set().file_name(l)).collect(),
            slots,
            memory,
            cpu_seconds: slots as f64 * stones.max(1) as f64 * CPU_PER_SLOT_STONE,
        });
    }
    Plan {
        command: "solver toguz generate --only KEY".into(),
        jobs,
        notes: vec![
            "a job is a stone count: its 73 tables (37 pairs), reading every table with fewer stones".into(),
            format!(
                "estimates: {:.3} µs of CPU a slot per stone; memory {GRAPH_BYTES_PER_SLOT} bytes a slot of the largest pair's move graph, plus the lower tables it reads (one byte a slot) and {BUILD_BYTES_PER_SLOT} bytes a slot of the part being built, or {SOLVE_BYTES_PER_SLOT} bytes a slot of its threshold games, plus {} MiB",
                CPU_PER_SLOT_STONE * 1e6,
                BASE_BYTES >> 20
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_runs_in_order() {
        let p = plan(6);
        p.check().unwrap();
        assert_eq!(p.jobs.len(), 7);
        assert!(p.jobs.iter().all(|j| j.outputs.len() == 73));
        assert_eq!(p.jobs[3].inputs, vec!["0", "1", "2"]);
    }
}
