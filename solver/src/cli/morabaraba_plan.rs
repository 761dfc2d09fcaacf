//! `solver morabaraba plan` and `generate --only KEY`: Morabaraba's
//! moving-phase pairs and placement sectors as the jobs of a workflow
//! ([`mill::tables::plan::morabaraba`]).

use super::morabaraba::TableArgs;
use super::progress::Progress;
use super::size::MaxStones;
use super::CliError;
use super::CliResult;
use mill::games::morabaraba::{moving, placement};
use mill::rules::board::Morabaraba;
use mill::rules::variant::FullBoard;
use mill::tables::plan::Unit;

/// `solver morabaraba plan`.
pub fn plan(
    tables: &TableArgs,
    max: &MaxStones,
    placement: bool,
    progress: &super::plan::ProgressArgs,
) -> CliResult {
    let rules = tables.rules();
    let size = max.of(tables.stones);
    let plan = mill::tables::plan::morabaraba(rules, size, placement)
        .map_err(|e| CliError::input(e.to_string()))?;
    let mut options = Vec::new();
    if !rules.flying {
        options.push("--no-flying".to_string());
    }
    if rules.full_board == FullBoard::BlockedLoses {
        options.push("--blocked-loses".into());
    }
    options.extend(size.options(12));
    if placement {
        options.push("--placement".into());
    }
    super::plan::print(
        "morabaraba",
        &options.join(" "),
        &plan,
        tables.files.json,
        progress,
    )
}

/// `solver morabaraba generate --only KEY`: one pair or placement sector,
/// the tables it reads on disk.
pub fn generate_only(
    tables: &TableArgs,
    max: &MaxStones,
    placement: bool,
    key: &str,
    quiet: bool,
) -> CliResult {
    let (dir, rules) = (&tables.files.dir, tables.rules());
    let plan = mill::tables::plan::morabaraba(rules, max.of(tables.stones), placement)
        .map_err(|e| CliError::input(e.to_string()))?;
    let job = super::plan::ready(&plan, key, dir)?;
    let progress = Progress::new(quiet, job.slots, "slots");
    let result = match job.id {
        Unit::Pair(pair) => {
            moving::generate_pair::<Morabaraba>(dir, rules, pair, &progress).map(drop)
        }
        Unit::Sector(sector) => {
            placement::generate_sector::<Morabaraba>(dir, rules, sector, &progress).map(drop)
        }
        Unit::Whole | Unit::Lasker(_) => unreachable!("Morabaraba's plan has pairs and sectors"),
    };
    progress.done();
    result?;
    Ok(())
}
