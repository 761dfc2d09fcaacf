//! `solver morabaraba` verbs on the placement sectors
//! ([`mill::games::morabaraba::placement`]): `generate --placement` (every
//! sector of the N-stone game after its moving phase, resumable), `stats
//! --placement`, `verify --placement`, placement positions in `probe` (from
//! their sector's file, else by the search) and `malom-compare` (Malom's
//! `mora_*.sec2` files slot by slot).

use super::morabaraba::{RuleArgs, TableArgs};
use super::nine_malom::report;
use super::progress::Progress;
use super::six::print_analysis;
use super::CliError;
use super::{print_json, CliResult};
use mill::games::morabaraba::placement::{self, SectorReport};
use mill::games::morabaraba::Index;
use mill::index::Indexing;
use mill::malom::{self, SectorId};
use mill::probe::analysis::SearchOptions;
use mill::probe::values::SearchedTables;
use mill::rules::board::Morabaraba;
use mill::rules::format_position;
use mill::rules::position::Position;
use mill::tables::files;
use mill::tables::keys::{Sector, Subspace, TableId};
use serde_json::json;
use std::path::Path;
use std::time::Instant;

fn sector_line(r: &SectorReport) -> String {
    format!(
        "{:>11} {:>12} {:>12} {:>12} {:>12} {:>12} {:>11}",
        r.sector.to_string(),
        r.slots,
        r.positions,
        r.wdl[0],
        r.wdl[1],
        r.wdl[2],
        r.bytes
    )
}

const HEADER: &str =
    "     sector        slots    positions         wins        draws       losses       bytes";

fn sector_json(r: &SectorReport) -> serde_json::Value {
    json!({
        "sector": r.sector.to_string(), "slots": r.slots, "positions": r.positions,
        "wins": r.wdl[0], "draws": r.wdl[1], "losses": r.wdl[2], "bytes": r.bytes,
        "seconds": r.seconds, "resumed": r.resumed,
    })
}

/// `generate --placement`: every placement sector of the N-stone game,
/// after its moving phase (already on disk).
pub fn generate(args: &TableArgs, quiet: bool) -> CliResult {
    let rules = args.rules();
    let stones = args.stones;
    let json = args.files.json;
    Index::warm_up::<Morabaraba>();
    let (count, total, largest) = placement::size::<Morabaraba>(stones);
    let progress = Progress::new(quiet || json, total, "slots");
    if !quiet && !json {
        progress.log(&format!(
            "placement phase of the {stones}-stone game: {count} sectors, {total} slots (largest {largest})"
        ));
        progress.log(HEADER);
    }
    let started = Instant::now();
    let reports =
        placement::generate::<Morabaraba>(&args.files.dir, rules, stones, &progress, |r| {
            progress.advance_overall(r.slots);
            if !quiet && !json {
                progress.log(&if r.resumed {
                    format!("{}  (on disk, checked)", sector_line(r))
                } else {
                    format!(
                        "{}  {:.1} s ({:.2} M slots/s)",
                        sector_line(r),
                        r.seconds,
                        r.slots as f64 / r.seconds.max(1e-9) / 1e6
                    )
                });
            }
        });
    progress.done();
    let reports = reports?;
    let seconds = started.elapsed().as_secs_f64();
    let sum = |f: fn(&SectorReport) -> u64| reports.iter().map(f).sum::<u64>();
    let (slots, positions, bytes) = (sum(|r| r.slots), sum(|r| r.positions), sum(|r| r.bytes));
    let solved = reports
        .iter()
        .filter(|r| !r.resumed)
        .map(|r| r.slots)
        .sum::<u64>();
    let wdl = [sum(|r| r.wdl[0]), sum(|r| r.wdl[1]), sum(|r| r.wdl[2])];
    if json {
        return print_json(&json!({
            "variant": "morabaraba", "flying": rules.flying, "stones": stones,
            "sectors": reports.iter().map(sector_json).collect::<Vec<_>>(),
            "slots": slots, "positions": positions, "wins": wdl[0], "draws": wdl[1],
            "losses": wdl[2], "bytes": bytes, "solved_slots": solved, "seconds": seconds,
            "peak_memory_bytes": tablebase::memory::peak_resident_bytes(),
        }));
    }
    println!(
        "{} placement sectors, {positions} positions ({slots} slots, {solved} solved now; {} wins, {} draws, {} losses) in {seconds:.1} s; {bytes} bytes in {}",
        reports.len(),
        wdl[0],
        wdl[1],
        wdl[2],
        args.files.dir.display()
    );
    if let Some(m) = tablebase::memory::peak_resident_bytes() {
        println!("Peak memory: {}", tablebase::memory::mib(m));
    }
    Ok(())
}

/// `stats --placement`: every placement sector's figures from its header.
pub fn stats(args: &TableArgs) -> CliResult {
    let rules = args.rules();
    let dir = &args.files.dir;
    let mut rows = placement::stats::<Morabaraba>(dir, rules, args.stones)?;
    // Under the count rule: each sector's outcomes at a count of zero
    // beside its table without the rule (cursed wins, blessed losses).
    let mut changes = Vec::new();
    if let Some(limit) = rules.quiet_limit {
        for r in rows.iter_mut() {
            let counted = placement::open::<Morabaraba>(dir, rules, r.sector)?;
            let plain = placement::open::<Morabaraba>(dir, rules.with_quiet_limit(None), r.sector)?;
            let c = mill::tables::count::compare(&plain, &counted, limit)
                .map_err(|e| CliError::Failed(e.to_string()))?;
            r.wdl = [c.wins, c.draws, c.losses];
            changes.push(c);
        }
    }
    let sum = |f: fn(&SectorReport) -> u64| rows.iter().map(f).sum::<u64>();
    let (slots, positions, bytes) = (sum(|r| r.slots), sum(|r| r.positions), sum(|r| r.bytes));
    let wdl = [sum(|r| r.wdl[0]), sum(|r| r.wdl[1]), sum(|r| r.wdl[2])];
    let cursed: u64 = changes.iter().map(|c| c.cursed_wins).sum();
    let blessed: u64 = changes.iter().map(|c| c.blessed_losses).sum();
    if args.files.json {
        let mut sectors: Vec<serde_json::Value> = rows.iter().map(sector_json).collect();
        let mut doc = json!({
            "variant": "morabaraba", "flying": rules.flying, "stones": args.stones,
            "slots": slots, "positions": positions, "wins": wdl[0], "draws": wdl[1],
            "losses": wdl[2], "bytes": bytes,
        });
        if let Some(limit) = rules.quiet_limit {
            for (row, c) in sectors.iter_mut().zip(&changes) {
                row["cursed_wins"] = c.cursed_wins.into();
                row["blessed_losses"] = c.blessed_losses.into();
            }
            doc["quiet_limit"] = limit.into();
            doc["cursed_wins"] = cursed.into();
            doc["blessed_losses"] = blessed.into();
        }
        doc["sectors"] = sectors.into();
        return print_json(&doc);
    }
    if let Some(limit) = rules.quiet_limit {
        println!(
            "Under the count rule of {limit} quiet plies, at a count of zero: {cursed} cursed wins and {blessed} blessed losses (won or lost without the count, drawn with it)."
        );
    }
    println!("{HEADER}");
    for r in &rows {
        println!("{}", sector_line(r));
    }
    println!(
        "{:>11} {slots:>12} {positions:>12} {:>12} {:>12} {:>12} {bytes:>11}",
        format!("{} sect.", rows.len()),
        wdl[0],
        wdl[1],
        wdl[2]
    );
    Ok(())
}

/// `verify --placement`: every sector recomputed from its successors.
pub fn verify(args: &TableArgs, sample: Option<u64>) -> CliResult {
    let rules = args.rules();
    let json = args.files.json;
    let started = Instant::now();
    let per = |slots: u64| sample.map_or(slots, |n| n.min(slots));
    let all = placement::sectors(args.stones);
    let total = all
        .iter()
        .map(|&s| per(placement::slots::<Morabaraba>(s)))
        .sum();
    let progress = super::progress::Progress::new(json, total, "slots");
    let reports = placement::verify::<Morabaraba>(
        &args.files.dir,
        rules,
        args.stones,
        sample,
        &progress,
        |r| {
            progress.advance_overall(per(placement::slots::<Morabaraba>(r.sector)));
            if !json && r.mismatches > 0 {
                progress.log(&format!(
                    "{:>11}: {} positions recomputed, {} mismatches",
                    r.sector.to_string(),
                    r.checked,
                    r.mismatches
                ));
            }
        },
    )?;
    progress.done();
    let checked: u64 = reports.iter().map(|r| r.checked).sum();
    let bad: u64 = reports.iter().map(|r| r.mismatches).sum();
    let seconds = started.elapsed().as_secs_f64();
    if json {
        print_json(&mill::games::report::verify_json(
            "morabaraba",
            rules,
            args.stones,
            reports.len(),
            [checked, bad],
            seconds,
        ))?;
    } else {
        println!(
            "{} placement sectors, {checked} outcomes recomputed from their successors, {bad} mismatches ({seconds:.1} s)",
            reports.len()
        );
    }
    if bad > 0 {
        return Err(CliError::Failed(format!(
            "{bad} stored placement outcomes differ from their recomputation"
        )));
    }
    Ok(())
}

/// A placement position in `probe`: from its sector's file when stored,
/// else by the placement search over the moving-phase tables of the game
/// the position belongs to (the most stones either side still has, board
/// and hand).
pub fn probe(pos: &Position, args: &TableArgs) -> CliResult {
    let rules = args.rules();
    let stones = (0..2)
        .map(|c| pos.stones[c].count_ones() as u8 + pos.hand[c])
        .max()
        .unwrap_or(3)
        .max(3);
    let tables = SearchedTables::<Morabaraba, Index>::open(&args.files.dir, rules, stones)?;
    let a = tables.analyse(pos, SearchOptions::default())?;
    let plain = super::six::plain_tables(rules, |r| {
        SearchedTables::<Morabaraba, Index>::open(&args.files.dir, r, stones)?
            .analyse(pos, SearchOptions::default())
    });
    print_analysis(&a, plain.as_ref(), rules, args.files.json, None)
}

/// Our table of a Malom sector: a moving-phase subspace (`W_B_0_0`) or a
/// placement sector.
fn table_id(id: SectorId) -> TableId {
    if id.wf == 0 && id.bf == 0 {
        TableId::Moving(Subspace::new(id.w, id.b))
    } else {
        TableId::Placement(Sector::new(id.w, id.b, id.wf, id.bf))
    }
}

/// `malom-compare MALOM_DIR`: every position of Malom's Morabaraba sector
/// files against our tables of the same slots (the numbering is the same:
/// Malom's scheme, the board's 16 automorphisms).
pub fn malom_compare(malom_dir: &Path, args: &RuleArgs) -> CliResult {
    let rules = args.rules();
    let ids = malom::sector_files_of(malom_dir, malom::MORABARABA)?;
    if ids.is_empty() {
        return Err(CliError::from(format!(
            "{}: no Malom Morabaraba sector files (mora_W_B_WF_BF.sec2)",
            malom_dir.display()
        )));
    }
    let set = files::directory::<Morabaraba, Index>(&args.dir, rules);
    Index::warm_up::<Morabaraba>();
    let mut rows = Vec::new();
    let mut totals = [0u64; 4];
    let mut missing = Vec::new();
    for id in ids {
        let name = format!("mora_{}_{}_{}_{}", id.w, id.b, id.wf, id.bf);
        let tid = table_id(id);
        let in_game = match tid {
            TableId::Moving(sub) => (3..=12).contains(&sub.us) && (3..=12).contains(&sub.them),
            TableId::Placement(s) => s.in_game(12),
        };
        if !in_game {
            return Err(CliError::from(format!(
                "{name}: not a table of Morabaraba (12 stones a side)"
            )));
        }
        if !set.exists(tid) {
            missing.push(set.path(tid).display().to_string());
            rows.push(json!({"sector": name, "missing": true}));
            continue;
        }
        let table = set.open(tid).map_err(files::FilesError::from)?;
        let ours = tablebase::resident::Wdl::load(&table)?;
        let sector = malom::Sector::open_of(malom_dir, malom::MORABARABA, id)?;
        let sub = Subspace::new(id.w, id.b);
        let c = malom::compare(id, &sector, |h| {
            Index::position::<Morabaraba>(sub, h).and(ours.get(h))
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
                if let Some((us, them)) = Index::position::<Morabaraba>(sub, h) {
                    let pos = match tid {
                        TableId::Moving(_) => {
                            Position::from_mover(us, them, mill::rules::position::Color::White)
                        }
                        TableId::Placement(s) => s.position(us, them),
                    };
                    println!("    slot {h}: {}", format_position::<Morabaraba>(&pos));
                }
            }
        }
        rows.push(json!({
            "sector": name, "positions": positions, "agree": c.agree, "disagree": c.disagree,
            "unused_mismatch": c.unused_mismatch, "examples": c.examples,
        }));
    }
    report(rows, totals, missing, &args.dir, args.json)
}
