//! `solver nine generate | stats | verify`: the tablebase commands.

use super::progress::{pair_positions, Progress};
use super::CliError;
use super::{print_json, CliResult};
use mill::games::nine::files::{self, file_name, rules_name, scan_all, sector_file_name};
use mill::games::nine::placement;
use mill::index::nine::{self, Subspace};
use mill::rules::variant::RuleSet;
use mill::tables::keys::Sector;
use mill::tables::plan::Unit;
use mill::tables::Size;
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
    /// The count rule: the game is drawn once PLIES plies in a row pass
    /// without a removal or a placement (100 is "fifty moves",
    /// docs/rules.md). Its tables are files of their own (`-qPLIES` in
    /// the name), written by `generate --quiet-limit PLIES`; without it
    /// endless play is a draw and nothing else is.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u16).range(1..=10000))]
    pub quiet_limit: Option<u16>,
}

impl TableArgs {
    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        RuleSet::nine(!self.no_flying).with_quiet_limit(self.quiet_limit)
    }
}

/// Which subspaces a long job covers and how it runs.
#[derive(clap::Args, Debug, Clone)]
pub struct JobArgs {
    #[command(flatten)]
    pub max: super::size::MaxStones,
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
    /// The game with K stones a side (3..=9): only subspaces with at most K
    /// stones a side and, with --placement, the placement sectors of that
    /// game (`--stones 4 --placement` builds the whole 4-stone game).
    #[arg(long, value_name = "K", default_value_t = 9, value_parser = clap::value_parser!(u8).range(3..=9))]
    pub stones: u8,
    /// Also build the placement-phase tables (every position with stones in
    /// hand), after the moving phase they start from: the whole game.
    #[arg(long)]
    pub placement: bool,
    /// Print JSON (no progress): the tables of this run's game as `stats
    /// --json` lists them, with the run's `seconds` and
    /// `peak_memory_bytes`.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub only: super::plan::OnlyArgs,
}

/// Arguments of `solver nine plan`: the size options of `generate`.
#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// The rule set without flying (its files are separate).
    #[arg(long)]
    pub no_flying: bool,
    /// The count rule: the game is drawn once PLIES plies in a row pass
    /// without a removal or a placement (100 is "fifty moves",
    /// docs/rules.md). Its tables are files of their own (`-qPLIES` in
    /// the name), written by `generate --quiet-limit PLIES`; without it
    /// endless play is a draw and nothing else is.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u16).range(1..=10000))]
    pub quiet_limit: Option<u16>,
    #[command(flatten)]
    pub max: super::size::MaxStones,
    /// The game with K stones a side (3..=9).
    #[arg(long, value_name = "K", default_value_t = 9, value_parser = clap::value_parser!(u8).range(3..=9))]
    pub stones: u8,
    /// The placement sectors too: the whole game.
    #[arg(long)]
    pub placement: bool,
    #[command(flatten)]
    pub format: super::plan::PlanFormat,
}

/// The table graph of Nine Men's Morris for these size options.
fn nine_plan(
    rules: RuleSet,
    size: Size,
    placement: bool,
) -> Result<tablebase::plan::Plan<Unit>, CliError> {
    mill::tables::plan::nine(rules, size, placement).map_err(|e| CliError::input(e.to_string()))
}

/// The size options as `generate` takes them (what `plan --json` reports).
fn size_options(rules: RuleSet, size: Size, placement: bool) -> String {
    let mut out = Vec::new();
    if !rules.flying {
        out.push("--no-flying".to_string());
    }
    if let Some(limit) = rules.quiet_limit {
        out.push(format!("--quiet-limit {limit}"));
    }
    out.extend(size.options(9));
    if placement {
        out.push("--placement".into());
    }
    out.join(" ")
}

/// `solver nine plan`.
pub fn plan(args: PlanArgs) -> CliResult {
    let rules = RuleSet::nine(!args.no_flying).with_quiet_limit(args.quiet_limit);
    let size = args.max.of(args.stones);
    let plan = nine_plan(rules, size, args.placement)?;
    let options = size_options(rules, size, args.placement);
    super::plan::print(
        "nine",
        &options,
        &plan,
        args.format.json,
        &args.format.progress,
    )
}

/// `solver nine generate --only KEY`: one job of the plan.
fn generate_only(args: &GenerateArgs, key: &str) -> CliResult {
    let rules = args.tables.rules();
    let dir = &args.tables.dir;
    let plan = nine_plan(rules, args.job.max.of(args.stones), args.placement)?;
    let job = super::plan::ready(&plan, key, dir)?;
    let progress = Progress::new(args.job.quiet, job.slots, "slots");
    let result = with_threads(args.job.threads, || match job.id {
        Unit::Pair(pair) => files::generate_pairs(dir, rules, &[pair], &progress).map(drop),
        Unit::Sector(sector) => {
            placement::generate_sectors(dir, rules, &[sector], &progress).map(drop)
        }
        Unit::Whole | Unit::Lasker(_) => unreachable!("Nine's plan has only pairs and sectors"),
    })?;
    progress.done();
    result?;
    Ok(())
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
    /// Only these moving-phase subspaces (side to move's stones first, as
    /// `8-9`; repeat the option for more), and no placement sector unless
    /// `--sector` names some: to
    /// finish a cut-off verify or split one between machines.
    #[arg(long = "subspace", value_name = "W-B", value_parser = parse_subspace)]
    pub subspaces: Vec<Subspace>,
    /// Only these placement sectors (Malom's `W-B-WF-BF`: the side to
    /// move's stones on the board, the opponent's, then in hand; repeat the
    /// option for more), and no moving subspace unless `--subspace` names
    /// some.
    #[arg(long = "sector", value_name = "W-B-WF-BF", value_parser = parse_sector)]
    pub sectors: Vec<Sector>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// A subspace as `W-B` (3..=9 stones a side).
fn parse_subspace(text: &str) -> Result<Subspace, CliError> {
    let bad = || format!("`{text}` is not a subspace (W-B, 3 to 9 stones a side: e.g. 8-9)");
    let (w, b) = text.split_once('-').ok_or_else(bad)?;
    let (w, b): (u8, u8) = (
        w.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if (3..=9).contains(&w) && (3..=9).contains(&b) {
        Ok(Subspace::new(w, b))
    } else {
        Err(bad().into())
    }
}

/// A placement sector of the standard game as `W-B-WF-BF`.
fn parse_sector(text: &str) -> Result<Sector, CliError> {
    let bad = || {
        format!("`{text}` is not a placement sector of Nine Men's Morris (W-B-WF-BF, e.g. 5-5-2-2)")
    };
    let parts: Vec<u8> = text
        .split('-')
        .map(|p| p.trim().parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let [w, b, wf, bf] = parts[..] else {
        return Err(bad().into());
    };
    let sector = Sector::new(w, b, wf, bf);
    if Sector::all(9).contains(&sector) {
        Ok(sector)
    } else {
        Err(bad().into())
    }
}

/// Run `f` on a rayon pool of `threads` threads (default: all cores).
pub fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> Result<T, CliError> {
    match threads {
        None => Ok(f()),
        Some(0) => Err(CliError::from("--threads must be at least 1")),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map(|pool| pool.install(f))
            .map_err(CliError::from),
    }
}

/// `solver nine generate`.
pub fn generate(args: GenerateArgs) -> CliResult {
    let rules = args.tables.rules();
    let dir = args.tables.dir.clone();
    // Cheap checks first: the index tables behind the progress total take a second.
    if args.job.threads == Some(0) {
        return Err(CliError::from("--threads must be at least 1"));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::from(format!(
            "{}: not a directory",
            dir.display()
        )));
    }
    if let Some(key) = &args.only.only {
        return generate_only(&args, key);
    }
    let k = args.stones;
    let size = args.job.max.of(k);
    if args.placement {
        size.check_placement()
            .map_err(|e| CliError::input(e.to_string()))?;
    }
    let todo = size.pairs();
    let sectors = if args.placement {
        Sector::all(k)
    } else {
        Vec::new()
    };
    let total: u64 = todo.iter().map(|&p| pair_positions(p)).sum::<u64>()
        + sectors
            .iter()
            .map(|s| nine::size(s.subspace()))
            .sum::<u64>();
    let quiet = args.job.quiet || args.json;
    let started = std::time::Instant::now();
    let progress = Progress::new(quiet, total, "slots");
    let result = with_threads(args.job.threads, || {
        files::generate_pairs(&dir, rules, &todo, &progress)?;
        if args.placement {
            placement::generate(&dir, rules, k, &progress)?;
        }
        Ok::<(), files::DatabaseError>(())
    })?;
    progress.done();
    result?;
    if args.json {
        // The tables of this run's game (the directory may hold others).
        let (mut moving, mut placed) = scan_all(&dir, rules)?;
        moving.retain(|&s, _| size.contains(s));
        placed.retain(|s, _| sectors.contains(s));
        let mut doc = mill::games::nine::report::stats_json(&(moving, placed), rules);
        doc["seconds"] = started.elapsed().as_secs_f64().into();
        doc["peak_memory_bytes"] = tablebase::memory::peak_resident_bytes().into();
        return print_json(&doc);
    }
    if !quiet {
        let what = if args.placement {
            format!("the whole {k}-stone game (moving and placement phase)")
        } else if k < 9 {
            format!("the moving phase of the {k}-stone game")
        } else {
            format!("up to {} stones", size.max_total)
        };
        eprintln!(
            "tablebases ({}) for {what} are complete in {}",
            rules_name(rules),
            dir.display()
        );
        if let Some(m) = tablebase::memory::peak_resident_bytes() {
            eprintln!("Peak memory: {}", tablebase::memory::mib(m));
        }
    }
    Ok(())
}

/// `solver nine stats`.
pub fn stats(args: StatsArgs) -> CliResult {
    let rules = args.tables.rules();
    let all = scan_all(&args.tables.dir, rules)?;
    let (tables, sectors) = &all;
    if tables.is_empty() && sectors.is_empty() {
        return Err(CliError::from(format!(
            "no {} tablebases in {}",
            rules_name(rules),
            args.tables.dir.display()
        )));
    }
    let j = if rules.quiet_limit.is_some() {
        let plain = scan_all(&args.tables.dir, rules.with_quiet_limit(None))?;
        mill::games::nine::report::counted_stats_json(&all, &plain, rules)?
    } else {
        mill::games::nine::report::stats_json(&all, rules)
    };
    if args.json {
        return print_json(&j);
    }
    let counted = j.get("quiet_limit").is_some();
    if let Some(limit) = j.get("quiet_limit") {
        println!(
            "Under the count rule of {limit} quiet plies, at a count of zero; the first columns: won (cursed) or lost (blessed) without the count, drawn with it (`-`: the table without the rule is not in the directory)."
        );
    }
    let row = |name: String, r: &serde_json::Value, distances: bool| {
        let n = |k: &str| r[k].as_u64().map_or(String::new(), |v| v.to_string());
        if counted {
            let changed = |k: &str| r[k].as_u64().map_or("-".to_string(), |v| v.to_string());
            print!(
                "{:>13} {:>13} ",
                changed("cursed_wins"),
                changed("blessed_losses")
            );
        }
        if distances {
            println!(
                "{name:>9} {:>13} {:>13} {:>13} {:>13} {:>7} {:>8} {:>13}",
                n("positions"),
                n("wins"),
                n("losses"),
                n("draws"),
                n("longest_win"),
                n("longest_loss"),
                n("bytes")
            );
        } else {
            println!(
                "{name:>9} {:>13} {:>13} {:>13} {:>13} {:>13}",
                n("positions"),
                n("wins"),
                n("losses"),
                n("draws"),
                n("bytes")
            );
        }
    };
    // The rows of one kind, in the order of the tables (subspaces, then sectors).
    let rows = |kind: &'static str| {
        j["tables"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(move |r| r["kind"] == kind)
    };
    let head = |names: &str| {
        if counted {
            print!("{:>13} {:>13} ", "cursed", "blessed");
        }
        println!("{names}");
    };
    if !tables.is_empty() {
        head(&format!(
            "{:>9} {:>13} {:>13} {:>13} {:>13} {:>7} {:>8} {:>13}",
            "w-b", "positions", "wins", "losses", "draws", "max_win", "max_loss", "bytes"
        ));
        for (sub, r) in tables.keys().zip(rows("moving")) {
            row(sub.to_string(), r, true);
        }
        row("all".into(), &j["by_kind"]["moving"], true);
    }
    if !sectors.is_empty() {
        println!();
        println!("placement sectors (stones on the board, then in hand, of the side to move and of the opponent; win/draw/loss only)");
        head(&format!(
            "{:>9} {:>13} {:>13} {:>13} {:>13} {:>13}",
            "w-b-wf-bf", "positions", "wins", "losses", "draws", "bytes"
        ));
        for (sector, r) in sectors.keys().zip(rows("placement")) {
            row(sector.to_string(), r, false);
        }
        row("all".into(), &j["by_kind"]["placement"], false);
    }
    Ok(())
}

/// `solver nine verify`.
pub fn verify(args: VerifyArgs) -> CliResult {
    let rules = args.tables.rules();
    let dir = &args.tables.dir;
    let all = scan_all(dir, rules)?;
    let (tables, sectors) = &all;
    if tables.is_empty() && sectors.is_empty() {
        return Err(CliError::from(format!(
            "no {} tablebases in {}",
            rules_name(rules),
            dir.display()
        )));
    }
    let started = std::time::Instant::now();
    let band = args.min_stones..=args.job.max.of(9).max_total;
    let only = !args.subspaces.is_empty() || !args.sectors.is_empty();
    let listed = |s: &Subspace| !only || args.subspaces.contains(s);
    // In the generator's pair order, so that each table is loaded once.
    let mut chosen: Vec<_> = tables
        .iter()
        .filter(|(s, _)| band.contains(&(s.us + s.them)) && listed(s))
        .collect();
    chosen.sort_by_key(|(s, _)| s.solving_order());
    let chosen_subspaces: Vec<Subspace> = chosen.iter().map(|(s, _)| **s).collect();
    let mut subspace_check = files::SubspaceCheck::new(tables, rules);
    if let Some(missing) = args.subspaces.iter().find(|s| !tables.contains_key(s)) {
        return Err(CliError::from(format!(
            "subspace {missing} is not in {}",
            dir.display()
        )));
    }
    if let Some(missing) = args.sectors.iter().find(|s| !sectors.contains_key(s)) {
        return Err(CliError::from(format!(
            "sector {missing} is not in {}",
            dir.display()
        )));
    }
    // Sectors by their stones in all, on the board and in hand, in the
    // generator's order (by stones in hand), so that the successor tables
    // held at once are those the generator held.
    let mut chosen_sectors: Vec<Sector> = sectors
        .keys()
        .filter(|s| {
            band.contains(&(s.us + s.them + s.hands())) && (!only || args.sectors.contains(s))
        })
        .copied()
        .collect();
    chosen_sectors.sort_by_key(|s| s.solving_order());
    let per = |size: u64| args.sample.map_or(size, |n| n.min(size));
    let total: u64 = chosen
        .iter()
        .map(|(s, _)| per(nine::size(**s)))
        .sum::<u64>()
        + chosen_sectors
            .iter()
            .map(|s| per(nine::size(s.subspace())))
            .sum::<u64>();
    let progress = Progress::new(args.job.quiet, total, "slots");
    let mut report = Vec::new();
    let mut failures = 0u64;
    for (i, &(sub, table)) in chosen.iter().enumerate() {
        table.verify()?;
        let later = &chosen_subspaces[i + 1..];
        let (checked, bad) = with_threads(args.job.threads, || {
            subspace_check.verify(*sub, later, 10, args.sample, &progress)
        })??;
        progress.advance_overall(per(nine::size(*sub)));
        failures += bad.len() as u64;
        for m in &bad {
            let (us, them) = mill::index::nine::position(*sub, m.slot).unwrap_or((0, 0));
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
            json!({"kind": "moving", "white": sub.us, "black": sub.them, "checked": checked,
            "mismatches": bad.len(), "file": file_name(dir, rules, *sub).display().to_string()}),
        );
    }
    let mut sector_check = placement::SectorCheck::new(&all.1, dir, rules);
    for (i, &sector) in chosen_sectors.iter().enumerate() {
        let later = &chosen_sectors[i + 1..];
        let (checked, bad) = with_threads(args.job.threads, || {
            sector_check.verify(sector, later, 10, args.sample, &progress)
        })??;
        progress.advance_overall(per(nine::size(sector.subspace())));
        failures += bad.len() as u64;
        for m in &bad {
            let (us, them) = mill::index::nine::position(m.subspace, m.slot).unwrap_or((0, 0));
            progress.log(&format!(
                "{sector} slot {}: stored {} but successors give {} ({})",
                m.slot,
                m.stored.outcome(),
                m.recomputed.outcome(),
                sector.position(us, them)
            ));
        }
        progress.log(&format!(
            "{sector}: {checked} positions checked, {} mismatches",
            bad.len()
        ));
        report.push(json!({
            "kind": "placement", "white": sector.us, "black": sector.them, "white_hand": sector.us_hand,
            "black_hand": sector.them_hand, "checked": checked, "mismatches": bad.len(),
            "file": sector_file_name(dir, rules, sector).display().to_string(),
        }));
    }
    progress.done();
    let count = chosen.len() + chosen_sectors.len();
    if args.json {
        let checked = report.iter().filter_map(|r| r["checked"].as_u64()).sum();
        let stones = mill::games::nine::report::largest_game(
            chosen_subspaces.iter().copied(),
            chosen_sectors.iter().copied(),
        );
        let seconds = started.elapsed().as_secs_f64();
        let mut doc = mill::games::report::verify_json(
            "nine",
            rules,
            stones,
            count,
            [checked, failures],
            seconds,
        );
        doc["results"] = report.into();
        print_json(&doc)?;
    } else {
        println!("{count} tables verified, {failures} mismatches");
    }
    if failures > 0 {
        return Err(CliError::Failed(format!(
            "{failures} stored values disagree with their successors"
        )));
    }
    Ok(())
}

/// A moving-phase position (White to move) in the text format.
fn describe(us: u32, them: u32) -> String {
    mill::rules::position::Position::from_mover(us, them, mill::rules::position::Color::White)
        .to_string()
}
