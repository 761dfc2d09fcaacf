//! `solver <game> plan` and `generate --only KEY`, for every game with
//! tables: the table graph printed (a table, or JSON for a workflow
//! engine: `scripts/workflow/Snakefile` reads it), and the check that one
//! job's key exists and its inputs are on disk before it runs.

use super::{print_json, CliError, CliResult};
use serde_json::json;
use std::path::{Path, PathBuf};
use tablebase::plan::{Job, Plan, Progress};

/// The `--json` option of every `plan` verb.
#[derive(clap::Args, Debug, Clone)]
pub struct PlanFormat {
    /// Print JSON (for scripts and the Snakemake workflow).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub progress: ProgressArgs,
}

/// The `--progress DIR` option of every `plan` verb.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ProgressArgs {
    /// Also show how far a run writing into DIR has got: the jobs whose
    /// files are all there are done; jobs, slots and waves done, the CPU
    /// estimated for the rest, and the job a resumed `generate` solves
    /// next (a wave: jobs that read no job of their own wave or a later
    /// one, which may run at once).
    #[arg(long, value_name = "DIR")]
    pub progress: Option<PathBuf>,
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
/// it was made for (a script passes them to `generate --only` unchanged);
/// with `progress`, which of its jobs are done in that directory.
pub fn print<K>(
    game: &str,
    options: &str,
    plan: &Plan<K>,
    json: bool,
    progress: &ProgressArgs,
) -> CliResult {
    plan.check()
        .map_err(|e| CliError::Failed(format!("the {game} plan does not run in order: {e}")))?;
    let (cpu, memory) = plan.totals();
    let waves = plan.waves();
    let done = match &progress.progress {
        Some(dir) if !dir.is_dir() => {
            return Err(CliError::input(format!(
                "--progress {}: not a directory",
                dir.display()
            )))
        }
        Some(dir) => Some((dir, plan.progress(dir))),
        None => None,
    };
    if json {
        let jobs: Vec<_> = plan
            .jobs
            .iter()
            .enumerate()
            .map(|(i, j)| {
                let mut job = json!({
                    "key": j.key,
                    "inputs": j.inputs,
                    "outputs": j.outputs,
                    "slots": j.slots,
                    "memory_bytes": j.memory,
                    "cpu_seconds": (j.cpu_seconds * 1000.0).round() / 1000.0,
                    "wave": waves[i],
                });
                if let Some((_, p)) = &done {
                    job["done"] = json!(p.done[i]);
                }
                job
            })
            .collect();
        let mut out = json!({
            "game": game,
            "options": options,
            "command": plan.command,
            "jobs": jobs,
            "total_cpu_seconds": cpu.round(),
            "max_memory_bytes": memory,
            "waves": waves.iter().max().map_or(0, |w| w + 1),
            "critical_path_cpu_seconds": plan.critical_path().round(),
            "notes": plan.notes,
        });
        if let Some((dir, p)) = &done {
            out["progress"] = json!({
                "dir": dir.display().to_string(),
                "jobs_done": p.jobs_done,
                "slots_done": p.slots_done,
                "slots": p.slots,
                "waves_done": p.waves_done,
                "cpu_seconds_left": p.cpu_seconds_left.round(),
                "next": p.next.map(|i| plan.jobs[i].key.clone()),
            });
        }
        return print_json(&out);
    }
    println!(
        "{} jobs ({game}{}{options}): {:.0} s of CPU in all (estimated), at most {} a job, {} waves, {:.0} s of CPU on the costliest chain of jobs; one job: `{}`",
        plan.jobs.len(),
        if options.is_empty() { "" } else { " " },
        cpu,
        bytes_text(memory),
        waves.iter().max().map_or(0, |w| w + 1),
        plan.critical_path(),
        plan.command
    );
    println!(
        "{:<14} {:>5} {:>14} {:>10} {:>10} {:>5}{}  inputs",
        "key",
        "files",
        "slots",
        "memory",
        "CPU s",
        "wave",
        if done.is_some() { "  done" } else { "" }
    );
    for (i, j) in plan.jobs.iter().enumerate() {
        let mark = match &done {
            Some((_, p)) if p.done[i] => "  done",
            Some(_) => "     -",
            None => "",
        };
        println!(
            "{:<14} {:>5} {:>14} {:>10} {:>10.1} {:>5}{mark}  {}",
            j.key,
            j.outputs.len(),
            j.slots,
            bytes_text(j.memory),
            j.cpu_seconds,
            waves[i],
            inputs_text(j)
        );
    }
    for note in &plan.notes {
        println!("note: {note}");
    }
    if let Some((dir, p)) = &done {
        println!("{}", progress_text(plan, dir, p));
    }
    Ok(())
}

/// One paragraph: how far the run in `dir` has got.
fn progress_text<K>(plan: &Plan<K>, dir: &Path, p: &Progress) -> String {
    let share = |a: f64, b: f64| if b > 0.0 { 100.0 * a / b } else { 100.0 };
    let next = match p.next {
        Some(i) => format!("next job: {}", plan.jobs[i].key),
        None => "complete".into(),
    };
    format!(
        "progress in {}: {} of {} jobs done ({:.1} %), {} of {} slots ({:.2} %), {} of {} waves complete; about {:.0} s of CPU left (estimated); {next}",
        dir.display(),
        p.jobs_done,
        plan.jobs.len(),
        share(p.jobs_done as f64, plan.jobs.len() as f64),
        p.slots_done,
        p.slots,
        share(p.slots_done as f64, p.slots as f64),
        p.waves_done,
        p.waves,
        p.cpu_seconds_left
    )
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
/// A moving-phase pair may be named either way round (`3-4` is the pair
/// `4-3`: the name before every board's pairs were named `W ≥ B`).
pub fn ready<'p, K>(plan: &'p Plan<K>, key: &str, dir: &Path) -> Result<&'p Job<K>, CliError> {
    let pair = key
        .split_once('-')
        .and_then(|(w, b)| Some((w.parse::<u8>().ok()?, b.parse::<u8>().ok()?)))
        .map(|(w, b)| format!("{}-{}", w.max(b), w.min(b)));
    plan.ready(pair.as_deref().unwrap_or(key), dir)
        .map_err(|e| CliError::input(format!("--only {key}: {e}")))
}
