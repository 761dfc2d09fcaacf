//! The share tables as a graph of jobs ([`tablebase::plan`]): one job per
//! stone count, the 73 tables with exactly that many stones on the board
//! (37 pairs solved one after the other), reading every table with fewer
//! stones (a capture can take any number of stones). Estimates are linear
//! in the slots, with the cost measured on the development machine
//! (`docs/workflow.md`).

use super::database::{directory, pairs};
use super::index::{Layer, Tuzdyks};
use tablebase::plan::{Job, Plan};
use tablebase::set::TableSet;

/// CPU seconds a slot costs: 74.5 s of CPU for the 60,053,851 slots up to
/// 8 stones (2 threads, shared machine; `docs/workflow.md`).
const CPU_PER_SLOT: f64 = 1.3e-6;

/// Bytes a slot of the stone count being solved holds at the peak (the
/// move graph of the largest pair, its threshold games) and a slot of the
/// lower tables held as one byte.
const BYTES_PER_SLOT: u64 = 64;
const BASE_BYTES: u64 = 64 << 20;

/// The tables with `stones` stones.
fn layers(stones: u8) -> impl Iterator<Item = Layer> {
    Tuzdyks::all().map(move |tuzdyks| Layer { stones, tuzdyks })
}

/// Every table with at most `max_stones` stones, one job per stone count
/// (key: the count), as `solver toguz generate --max-stones N` builds them.
pub fn plan(max_stones: u8) -> Plan<u8> {
    let set = directory(std::path::Path::new(""));
    let mut jobs = Vec::new();
    let mut lower_slots = 0u64;
    for stones in 0..=max_stones {
        let slots: u64 = layers(stones).map(Layer::size).sum();
        let largest_pair: u64 = pairs(stones)
            .into_iter()
            .map(super::database::pair_positions)
            .max()
            .unwrap_or(0);
        jobs.push(Job {
            id: stones,
            key: stones.to_string(),
            inputs: (0..stones).map(|s| s.to_string()).collect(),
            outputs: layers(stones).map(|l| set.set().file_name(l)).collect(),
            slots,
            memory: BASE_BYTES + BYTES_PER_SLOT * largest_pair + lower_slots + slots,
            cpu_seconds: slots as f64 * CPU_PER_SLOT,
        });
        lower_slots += slots;
    }
    Plan {
        command: "solver toguz generate --only KEY".into(),
        jobs,
        notes: vec![
            "a job is a stone count: its 73 tables (37 pairs), reading every table with fewer stones".into(),
            format!(
                "estimates: {} µs of CPU a slot; memory {BYTES_PER_SLOT} bytes a slot of the largest pair, one byte a slot of this and every lower stone count, plus {} MiB",
                CPU_PER_SLOT * 1e6,
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
