//! `solver nine malom-compare`: every position of Malom's sector files
//! against our tables.

use super::CliError;
use super::{print_json, CliResult};
use mill::games::nine::files::{scan_all, table_file_name};
use mill::index::nine::{self, Subspace};
use mill::malom::{self, SectorId};
use mill::rules::variant::RuleSet;
use mill::tables::keys::{Sector, TableId};
use serde_json::json;
use std::path::PathBuf;

/// Arguments of `solver nine malom-compare`.
#[derive(clap::Args, Debug)]
pub struct MalomArgs {
    /// Directory of Malom's `std_W_B_WF_BF.sec2` files and `std.secval`
    /// (the standard game: flying on).
    pub malom_dir: PathBuf,
    /// Our tablebase directory.
    #[arg(long, default_value = "tablebases")]
    pub dir: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Our table for a Malom sector id.
fn table_id(id: SectorId) -> TableId {
    if id.wf == 0 && id.bf == 0 {
        TableId::Moving(Subspace::new(id.w, id.b))
    } else {
        TableId::Placement(Sector::new(id.w, id.b, id.wf, id.bf))
    }
}

/// `solver nine malom-compare`.
pub fn malom_compare(args: MalomArgs) -> CliResult {
    let rules = RuleSet::nine(true);
    let ids = malom::sector_files(&args.malom_dir)?;
    if ids.is_empty() {
        return Err(CliError::from(format!(
            "{}: no Malom sector files (std_W_B_WF_BF.sec2)",
            args.malom_dir.display()
        )));
    }
    let (moving, sectors) = scan_all(&args.dir, rules)?;
    let mut rows = Vec::new();
    let mut totals = [0u64; 4];
    let mut missing = Vec::new();
    for id in ids {
        let name = format!("std_{}_{}_{}_{}", id.w, id.b, id.wf, id.bf);
        let tid = table_id(id);
        let table = match tid {
            TableId::Moving(sub) => moving.get(&sub),
            TableId::Placement(s) => sectors.get(&s),
        };
        let Some(table) = table else {
            missing.push(table_file_name(&args.dir, rules, tid).display().to_string());
            rows.push(json!({"sector": name, "missing": true}));
            continue;
        };
        let sector = malom::Sector::open(&args.malom_dir, id)?;
        let values = table.values()?;
        let sub = Subspace::new(id.w, id.b);
        let c = malom::compare(id, &sector, |h| {
            nine::position(sub, h).and(values.get(h as usize).map(|v| v.outcome()))
        });
        let positions = c.agree + c.disagree;
        for (t, v) in totals
            .iter_mut()
            .zip([positions, c.agree, c.disagree, c.unused_mismatch])
        {
            *t += v;
        }
        if !args.json {
            println!(
                "{name:<16} {positions:>11} positions: {:>11} agree, {} disagree{}",
                c.agree,
                c.disagree,
                if c.unused_mismatch > 0 {
                    format!(", {} unused-slot mismatches", c.unused_mismatch)
                } else {
                    String::new()
                }
            );
            for h in &c.examples {
                let (us, them) = nine::position(sub, *h).unwrap_or((0, 0));
                let pos = match tid {
                    TableId::Moving(_) => mill::rules::position::Position::from_mover(
                        us,
                        them,
                        mill::rules::position::Color::White,
                    ),
                    TableId::Placement(s) => s.position(us, them),
                };
                println!("    slot {h}: {pos}");
            }
        }
        rows.push(json!({
            "sector": name, "positions": positions, "agree": c.agree, "disagree": c.disagree,
            "unused_mismatch": c.unused_mismatch, "examples": c.examples,
        }));
    }
    report(rows, totals, missing, &args.dir, args.json)
}

/// The end of every `malom-compare`: the totals (`[positions, agree,
/// disagree, unused-slot mismatches]`) as JSON (with each sector's `rows`)
/// or one line, and the failure when a position disagrees or nothing was
/// compared (`dir`: our tables, `missing`: Malom's sectors we lack).
pub fn report(
    rows: Vec<serde_json::Value>,
    totals: [u64; 4],
    missing: Vec<String>,
    dir: &std::path::Path,
    as_json: bool,
) -> CliResult {
    if as_json {
        print_json(&json!({
            "sectors": rows, "positions": totals[0], "agree": totals[1],
            "disagree": totals[2], "unused_mismatch": totals[3], "missing": missing,
        }))?;
    } else {
        println!(
            "all: {} positions compared, {} agree, {} disagree; {} sectors without our table",
            totals[0],
            totals[1],
            totals[2],
            missing.len()
        );
    }
    if totals[2] + totals[3] > 0 {
        return Err(CliError::Failed(format!(
            "{} positions disagree with Malom, {} unused-slot mismatches",
            totals[2], totals[3]
        )));
    }
    if totals[0] == 0 {
        return Err(CliError::from(format!(
            "none of Malom's sectors has a table in {} (first missing: {})",
            dir.display(),
            missing.first().map_or("", String::as_str)
        )));
    }
    Ok(())
}
