//! `solver nine generate | stats | verify`: the tablebase commands.

use super::progress::{pair_positions, Progress};
use super::{print_json, CliResult};
use crate::morris::database::{self, file_name, pairs, rules_name, scan};
use crate::morris::position::Rules;
use serde_json::json;
use std::path::PathBuf;

/// Where the tablebases are and which rule set.
#[derive(clap::Args, Debug, Clone)]
pub struct TableArgs {
    /// Tablebase directory.
    #[arg(long, default_value = "tablebases")]
    pub dir: PathBuf,
    /// The rule set without flying (its files are separate).
    #[arg(long)]
    pub no_flying: bool,
}

impl TableArgs {
    /// The rule set.
    pub fn rules(&self) -> Rules {
        Rules {
            flying: !self.no_flying,
        }
    }
}

/// Which subspaces a long job covers and how it runs.
#[derive(clap::Args, Debug, Clone)]
pub struct JobArgs {
    /// Only subspaces with at most N stones in all (w + b ≤ N, 6..=18).
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u8).range(6..=18))]
    pub max_stones: u8,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bars or log lines.
    #[arg(long)]
    pub quiet: bool,
}

/// Arguments of `solver nine generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    #[command(flatten)]
    pub tables: TableArgs,
    #[command(flatten)]
    pub job: JobArgs,
}

/// Arguments of `solver nine stats`.
#[derive(clap::Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    pub tables: TableArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `solver nine verify` (the tables that removals of the
/// verified subspaces lead into must be present).
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub tables: TableArgs,
    #[command(flatten)]
    pub job: JobArgs,
    /// Check N random slots of each subspace instead of all (a quick check
    /// of a full set: every table is still read and its checksums checked).
    #[arg(long, value_name = "N")]
    pub sample: Option<u64>,
    /// Only subspaces with at least N stones in all (with --max-stones, a
    /// band of subspaces: e.g. the largest with --min-stones 17).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(6..=18))]
    pub min_stones: u8,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Run `f` on a rayon pool of `threads` threads (default: all cores).
pub fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> Result<T, String> {
    match threads {
        None => Ok(f()),
        Some(0) => Err("--threads must be at least 1".into()),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map(|pool| pool.install(f))
            .map_err(|e| e.to_string()),
    }
}

/// `solver nine generate`.
pub fn generate(args: GenerateArgs) -> CliResult {
    let rules = args.tables.rules();
    // Cheap checks first: the index tables behind the progress total take a second.
    if args.job.threads == Some(0) {
        return Err("--threads must be at least 1".into());
    }
    if args.tables.dir.exists() && !args.tables.dir.is_dir() {
        return Err(format!("{}: not a directory", args.tables.dir.display()));
    }
    let total: u64 = pairs(args.job.max_stones)
        .into_iter()
        .map(pair_positions)
        .sum();
    let progress = Progress::new(args.job.quiet, total, "slots");
    let dir = args.tables.dir.clone();
    let result = with_threads(args.job.threads, || {
        database::generate(&dir, rules, args.job.max_stones, &progress)
    })?;
    progress.done();
    result.map_err(|e| e.to_string())?;
    if !args.job.quiet {
        eprintln!(
            "tablebases ({}) for up to {} stones are complete in {}",
            rules_name(rules),
            args.job.max_stones,
            dir.display()
        );
    }
    Ok(())
}

/// `solver nine stats`.
pub fn stats(args: StatsArgs) -> CliResult {
    let rules = args.tables.rules();
    let tables = scan(&args.tables.dir, rules).map_err(|e| e.to_string())?;
    if tables.is_empty() {
        return Err(format!(
            "no {} tablebases in {}",
            rules_name(rules),
            args.tables.dir.display()
        ));
    }
    if args.json {
        return print_json(&crate::morris::report::stats_json(&tables, rules));
    }
    let mut totals = [0u64; 5];
    for table in tables.values() {
        let h = table.header();
        let row = [h.positions, h.wins, h.losses, h.draws, table.bytes()];
        for (t, v) in totals.iter_mut().zip(row) {
            *t += v;
        }
    }
    println!(
        "{:>5} {:>13} {:>13} {:>13} {:>13} {:>7} {:>8} {:>13}",
        "w-b", "positions", "wins", "losses", "draws", "max_win", "max_loss", "bytes"
    );
    for (sub, table) in &tables {
        let h = table.header();
        println!(
            "{:>5} {:>13} {:>13} {:>13} {:>13} {:>7} {:>8} {:>13}",
            sub.to_string(),
            h.positions,
            h.wins,
            h.losses,
            h.draws,
            h.max_win,
            h.max_loss,
            table.bytes()
        );
    }
    println!(
        "{:>5} {:>13} {:>13} {:>13} {:>13} {:>7} {:>8} {:>13}",
        "all", totals[0], totals[1], totals[2], totals[3], "", "", totals[4]
    );
    Ok(())
}

/// `solver nine verify`.
pub fn verify(args: VerifyArgs) -> CliResult {
    let rules = args.tables.rules();
    let dir = &args.tables.dir;
    let tables = scan(dir, rules).map_err(|e| e.to_string())?;
    if tables.is_empty() {
        return Err(format!(
            "no {} tablebases in {}",
            rules_name(rules),
            dir.display()
        ));
    }
    let chosen: Vec<_> = tables
        .iter()
        .filter(|(s, _)| (args.min_stones..=args.job.max_stones).contains(&(s.us + s.them)))
        .collect();
    let per =
        |s: &crate::morris::index::Subspace| args.sample.map_or(s.size(), |n| n.min(s.size()));
    let total: u64 = chosen.iter().map(|(s, _)| per(s)).sum();
    let progress = Progress::new(args.job.quiet, total, "slots");
    let mut report = Vec::new();
    let mut failures = 0u64;
    for &(sub, table) in &chosen {
        table.verify().map_err(|e| e.to_string())?;
        let (checked, bad) = with_threads(args.job.threads, || {
            database::verify(&tables, rules, *sub, 10, args.sample, &progress)
        })?
        .map_err(|e| e.to_string())?;
        progress.advance_overall(per(sub));
        failures += bad.len() as u64;
        for m in &bad {
            let (us, them) = crate::morris::index::position(*sub, m.slot).unwrap_or((0, 0));
            progress.log(&format!(
                "{sub} slot {}: stored {} but successors give {} ({})",
                m.slot,
                m.stored,
                m.recomputed,
                describe(us, them)
            ));
        }
        progress.log(&format!(
            "{sub}: {checked} positions checked, {} mismatches",
            bad.len()
        ));
        report.push(
            json!({"white": sub.us, "black": sub.them, "checked": checked, "mismatches": bad.len(),
            "file": file_name(dir, rules, *sub).display().to_string()}),
        );
    }
    progress.done();
    if args.json {
        print_json(&json!({"subspaces": report, "mismatches": failures}))?;
    } else {
        println!("{} subspaces verified, {failures} mismatches", chosen.len());
    }
    if failures > 0 {
        return Err(format!(
            "{failures} stored values disagree with their successors"
        ));
    }
    Ok(())
}

/// A moving-phase position (White to move) in the text format.
fn describe(us: u32, them: u32) -> String {
    crate::morris::position::Position::from_mover(us, them, crate::morris::position::Color::White)
        .to_string()
}
