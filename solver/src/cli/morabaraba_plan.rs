//! `solver morabaraba plan` and `generate --only KEY`: Morabaraba's
//! moving-phase pairs as the jobs of a workflow ([`mill::plan::morabaraba`]).

use super::morabaraba::RuleArgs;
use super::progress::Progress;
use super::CliResult;
use mill::board::Morabaraba;
use mill::family::moving_tables;
use mill::plan::Unit;
use mill::variant::{FullBoard, RuleSet};
use std::path::Path;

/// `solver morabaraba plan`.
pub fn plan(files: &RuleArgs, rules: RuleSet, max: u8) -> CliResult {
    let plan = mill::plan::morabaraba(rules, max);
    let mut options = Vec::new();
    if !rules.flying {
        options.push("--no-flying".to_string());
    }
    if rules.full_board == FullBoard::BlockedLoses {
        options.push("--blocked-loses".into());
    }
    if max != 12 {
        options.push(format!("--max-stones {max}"));
    }
    super::plan::print("morabaraba", &options.join(" "), &plan, files.json)
}

/// `solver morabaraba generate --only KEY`: one pair, its exits on disk.
pub fn generate_only(dir: &Path, rules: RuleSet, max: u8, key: &str, quiet: bool) -> CliResult {
    let plan = mill::plan::morabaraba(rules, max);
    let job = super::plan::ready(&plan, key, dir)?;
    let Unit::Pair(pair) = job.id else {
        unreachable!("Morabaraba's plan has only pairs")
    };
    let progress = Progress::new(quiet, job.slots, "slots");
    let result = moving_tables::generate_pair::<Morabaraba>(dir, rules, pair, &progress);
    progress.done();
    result?;
    Ok(())
}
