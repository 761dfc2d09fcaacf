//! `solver lasker malom-compare`: every position of Malom's Lasker Morris
//! sector files (`lask_W_B_WF_BF.sec2` with `lask.secval`) against our
//! sector tables of the same slots. Our Lasker sectors are numbered by
//! Nine Men's Morris's symmetry-reduced index, which is Malom's, with the
//! side to move as White in both (`mill::malom`), so slot `h` of Malom's
//! sector is slot `h` of ours. Only win, draw or loss is compared: Malom
//! counts plies to the end of the game, our files the plies to the next
//! placement or removal.

use super::lasker::TableArgs;
use super::nine_malom::report;
use super::CliError;
use super::CliResult;
use mill::games::lasker::files;
use mill::games::lasker::sector::LaskerSector;
use mill::index::nine;
use mill::malom::{self, SectorId};
use mill::rules::board::Nine;
use mill::rules::format_position;
use mill::rules::position::{Color, Position};
use mill::tables::files::FilesError;
use serde_json::json;
use std::path::Path;

/// Our sector of a Malom sector id (the same four counts, side to move first).
fn sector(id: SectorId) -> LaskerSector {
    LaskerSector::new(id.w, id.b, id.wf, id.bf)
}

/// `solver lasker malom-compare MALOM_DIR`.
pub fn malom_compare(malom_dir: &Path, args: &TableArgs) -> CliResult {
    let rules = super::lasker::rules(&args.common);
    let ids = malom::sector_files_of(malom_dir, malom::LASKER)?;
    if ids.is_empty() {
        return Err(CliError::input(format!(
            "{}: no Malom Lasker Morris sector files (lask_W_B_WF_BF.sec2)",
            malom_dir.display()
        )));
    }
    nine::warm_up();
    let set = files::directory::<Nine>(&args.dir, rules);
    let mut rows = Vec::new();
    let mut totals = [0u64; 4];
    let mut missing = Vec::new();
    for id in ids {
        let name = format!("lask_{}_{}_{}_{}", id.w, id.b, id.wf, id.bf);
        let s = sector(id);
        if !s.in_game::<Nine>(rules.stones) {
            return Err(CliError::input(format!(
                "{name}: not a sector of the {}-stone game (--stones)",
                rules.stones
            )));
        }
        let path = files::file_name(&args.dir, rules, s);
        if !path.is_file() {
            missing.push(path.display().to_string());
            rows.push(json!({"sector": name, "missing": true}));
            continue;
        }
        let values = set.open(s).map_err(FilesError::from)?.values()?;
        let theirs = malom::Sector::open_of(malom_dir, malom::LASKER, id)?;
        let sub = s.subspace();
        let c = malom::compare(id, &theirs, |h| {
            nine::position(sub, h).and(values.get(h as usize).map(|v| v.outcome()))
        });
        let positions = c.agree + c.disagree;
        for (t, v) in totals
            .iter_mut()
            .zip([positions, c.agree, c.disagree, c.unused_mismatch])
        {
            *t += v;
        }
        if !args.common.json {
            println!(
                "{name:<18} {positions:>11} positions: {:>11} agree, {} disagree{}",
                c.agree,
                c.disagree,
                if c.unused_mismatch > 0 {
                    format!(", {} unused-slot mismatches", c.unused_mismatch)
                } else {
                    String::new()
                }
            );
            for &h in &c.examples {
                if let Some((us, them)) = nine::position(sub, h) {
                    let mut pos = Position::from_mover(us, them, Color::White);
                    pos.hand = [s.us_hand, s.them_hand];
                    println!("    slot {h}: {}", format_position::<Nine>(&pos));
                }
            }
        }
        rows.push(json!({
            "sector": name, "positions": positions, "agree": c.agree, "disagree": c.disagree,
            "unused_mismatch": c.unused_mismatch, "examples": c.examples,
        }));
    }
    report(rows, totals, missing, &args.dir, args.common.json)
}
