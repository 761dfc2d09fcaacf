//! `solver <game> plan` and `generate --only KEY`, for every game with
//! tables: the table graph printed (a table, or JSON for a workflow
//! engine: `scripts/workflow/Snakefile` reads it), and the check that one
//! job's key exists and its inputs are on disk before it runs.

use super::{print_json, CliError, CliResult};
use serde_json::json;
use std::path::Path;
use tablebase::plan::{Job, Plan};

/// The `--json` option of every `plan` verb.
#[derive(clap::Args, Debug, Clone)]
pub struct PlanFormat {
    /// Print JSON (for scripts and the Snakemake workflow).
    #[arg(long)]
    pub json: bool,
}

/// The `--only KEY` option of every `generate` verb.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct OnlyArgs {
    /// Build only the job KEY of `solver <game> plan` (with the same size
    /// options), its inputs being in the directory already: one node of
    /// the table graph, for a workflow engine.
    #[arg(long, value_name = "KEY")]
    pub only: Option<String>,
}

/// Print a plan: `game` and `options` say which command and size options
/// it was made for (a script passes them to `generate --only` unchanged).
pub fn print<K>(game: &str, options: &str, plan: &Plan<K>, json: bool) -> CliResult {
    plan.check()
        .map_err(|e| CliError::Failed(format!("the {game} plan does not run in order: {e}")))?;
    let (cpu, memory) = plan.totals();
    if json {
        let jobs: Vec<_> = plan
            .jobs
            .iter()
            .map(|j| {
                json!({
                    "key": j.key,
                    "inputs": j.inputs,
                    "outputs": j.outputs,
                    "slots": j.slots,
                    "memory_bytes": j.memory,
                    "cpu_seconds": (j.cpu_seconds * 1000.0).round() / 1000.0,
                })
            })
            .collect();
        return print_json(&json!({
            "game": game,
            "options": options,
            "command": plan.command,
            "jobs": jobs,
            "total_cpu_seconds": cpu.round(),
            "max_memory_bytes": memory,
            "notes": plan.notes,
        }));
    }
    println!(
        "{} jobs ({game}{}{options}): {:.0} s of CPU in all (estimated), at most {} a job; one job: `{}`",
        plan.jobs.len(),
        if options.is_empty() { "" } else { " " },
        cpu,
        bytes_text(memory),
        plan.command
    );
    println!(
        "{:<14} {:>5} {:>14} {:>10} {:>10}  inputs",
        "key", "files", "slots", "memory", "CPU s"
    );
    for j in &plan.jobs {
        println!(
            "{:<14} {:>5} {:>14} {:>10} {:>10.1}  {}",
            j.key,
            j.outputs.len(),
            j.slots,
            bytes_text(j.memory),
            j.cpu_seconds,
            inputs_text(j)
        );
    }
    for note in &plan.notes {
        println!("note: {note}");
    }
    Ok(())
}

fn inputs_text<K>(job: &Job<K>) -> String {
    match job.inputs.len() {
        0 => "-".into(),
        1..=4 => job.inputs.join(" "),
        n => format!("{} … {} ({n})", job.inputs[0], job.inputs[n - 1]),
    }
}

fn bytes_text(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.2} GiB", bytes as f64 / (1u64 << 30) as f64)
    } else {
        format!("{} MiB", bytes.div_ceil(1 << 20))
    }
}

/// The job `key` of `plan`, once its inputs' files are in `dir`: an
/// unknown key or a missing input is the user's error (exit status 2).
pub fn ready<'p, K>(plan: &'p Plan<K>, key: &str, dir: &Path) -> Result<&'p Job<K>, CliError> {
    plan.ready(key, dir)
        .map_err(|e| CliError::input(format!("--only {key}: {e}")))
}
