//! Nine Men's Morris as a served game ([`NineGame`], a [`MillGame`]): one
//! rule set's tables of a directory ([`Tablebases`], kept in memory as
//! asked: [`Residency`]) and, in placement, the placement tables or the
//! placement search ([`Analyst`]), whose transposition table is kept
//! between questions. The web server, the Python module's `Game("nine")`
//! and every other front end answer Nine through it.
//!
//! Thread-safe: table questions run side by side; placement searches run
//! one at a time (a second waits for the first, then goes on with its
//! table).

use crate::duel::{self, Policy};
use crate::games::nine::files::{open_table, NineTables, Tables};
use crate::games::nine::report::{show_json, stats_json};
use crate::games::{best_json, probe_error, serialised, GameError, MillGame};
use crate::probe::analysis::{Analyst, MoveValue, SearchOptions};
use crate::probe::nine::{ProbeError, Residency, Tablebases};
use crate::rules::board::Nine;
use crate::rules::notation::parse_move;
use crate::rules::position::Position;
use crate::rules::variant::RuleSet;
use crate::search::Kept;
use crate::tables::keys::TableId;
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;
use tablebase::set::TableSet;

/// The table files of a rule set in a directory: name, length and
/// modification time of each, sorted (what a stats answer is computed
/// from: while it holds, the answer does).
type Listing = Vec<(String, u64, Option<SystemTime>)>;

/// Nine Men's Morris under one rule set with the tables of a directory.
pub struct NineGame {
    dir: PathBuf,
    tables: Result<Tablebases, GameError>,
    rules: RuleSet,
    options: SearchOptions,
    command: String,
    /// What the last placement search kept; held while one runs, so
    /// searches take turns.
    kept: Mutex<Option<Kept>>,
    /// The last stats answer and the listing it was computed from.
    stats: Mutex<Option<(Listing, Json)>>,
}

impl NineGame {
    /// The game of `rules` (with flying, or without) over the tables of
    /// `dir`, kept in memory as `residency` says, placement searches sized
    /// by `options`.
    pub fn open(
        dir: &Path,
        rules: RuleSet,
        options: SearchOptions,
        residency: Residency,
    ) -> NineGame {
        let command = format!("solver nine generate{}", rules.generate_options(9));
        let tables = Tablebases::open(dir, rules)
            .map(|tb| tb.keeping(residency))
            .map_err(|e| probe_error(&e, &command));
        NineGame {
            dir: dir.to_owned(),
            tables,
            rules,
            options,
            command,
            kept: Mutex::new(None),
            stats: Mutex::new(None),
        }
    }

    /// The tables (an error if the directory is missing).
    pub fn tablebases(&self) -> Result<&Tablebases, GameError> {
        self.tables.as_ref().map_err(Clone::clone)
    }

    fn parse(&self, text: &str) -> Result<Position, GameError> {
        text.trim()
            .parse::<Position>()
            .map_err(|e| GameError::Input(format!("bad position: {e}")))
    }

    /// Does answering `pos` run the placement search (a placement
    /// position whose sector the directory lacks)?
    fn needs_search(&self, tb: &Tablebases, pos: &Position) -> bool {
        pos.placing() && !tb.has_table(pos)
    }

    /// `work` with an [`Analyst`]: a fresh one for table questions (side
    /// by side), the one kept search's for placement searches (in turn).
    fn with_analyst<T>(
        &self,
        pos: &Position,
        work: impl FnOnce(&mut Analyst<'_>) -> Result<T, crate::probe::analysis::AnalysisError>,
    ) -> Result<T, GameError> {
        let tb = self.tablebases()?;
        let error = |e| crate::games::analysis_error(&e, &self.command);
        if !self.needs_search(tb, pos) {
            return work(&mut Analyst::new(tb, self.options)).map_err(error);
        }
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let mut analyst = Analyst::resume(tb, self.options, kept.take());
        let answer = work(&mut analyst);
        *kept = analyst.keep();
        answer.map_err(error)
    }

    /// The table a file name of this rule set names (`None` for another
    /// rule set's, a longer tag's such as the count rule's, or no table).
    fn table_of(&self, name: &str) -> Option<TableId> {
        NineTables::new(self.rules).parse_file_name(name).ok()?
    }

    /// The table files of this rule set in the directory.
    fn listing(&self) -> Result<Listing, GameError> {
        let mut files: Listing = self
            .read_dir()?
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name().to_string_lossy().into_owned();
                self.table_of(&name)?;
                let meta = entry.metadata().ok()?;
                Some((name, meta.len(), meta.modified().ok()))
            })
            .collect();
        files.sort_unstable();
        Ok(files)
    }

    fn read_dir(&self) -> Result<std::fs::ReadDir, GameError> {
        std::fs::read_dir(&self.dir).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                probe_error(&ProbeError::NoDirectory(self.dir.clone()), &self.command)
            } else {
                GameError::Other(format!("cannot read the tablebase directory: {e}"))
            }
        })
    }

    /// The object of `solver nine stats --json` over the tables that
    /// open, with a row `{kind, white, black, [white_hand, black_hand,]
    /// file, error}` in its place among the `tables` for each that does
    /// not (a damaged table is reported on its row, its counts left out of
    /// the totals).
    fn stats_with_errors(&self) -> Result<Json, GameError> {
        let mut tables: Tables = Default::default();
        let mut broken = Vec::new();
        for entry in self.read_dir()?.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(id) = self.table_of(&name) else {
                continue; // not a table of this rule set (scratch files and the like)
            };
            match open_table(&entry.path(), self.rules, id) {
                Ok(table) => match id {
                    TableId::Moving(sub) => drop(tables.0.insert(sub, table)),
                    TableId::Placement(sector) => drop(tables.1.insert(sector, table)),
                },
                Err(e) => {
                    let error = probe_error(&ProbeError::Table(e), &self.command).to_string();
                    broken.push(match id {
                        TableId::Moving(sub) => json!({"kind": "moving",
                            "white": sub.us, "black": sub.them, "file": name, "error": error}),
                        TableId::Placement(s) => json!({"kind": "placement",
                            "white": s.us, "black": s.them, "white_hand": s.us_hand,
                            "black_hand": s.them_hand, "file": name, "error": error}),
                    });
                }
            }
        }
        if tables.0.is_empty() && tables.1.is_empty() && broken.is_empty() {
            return Err(GameError::NoTables {
                title: self.title().to_string(),
                command: self.command.clone(),
            });
        }
        let mut answer = stats_json(&tables, self.rules);
        if let Some(rows) = answer["tables"].as_array_mut() {
            // Subspaces, then sectors, each by stones on the board and in hand.
            let order = |r: &Json| {
                let n = |k: &str| r[k].as_u64().unwrap_or(0) as u8;
                let kind = u8::from(r["kind"] != "moving");
                let key = (n("white"), n("black"), n("white_hand"), n("black_hand"));
                (kind, key)
            };
            let mut all: Vec<_> = rows.drain(..).map(|r| (order(&r), r)).collect();
            all.extend(broken.into_iter().map(|r| (order(&r), r)));
            all.sort_by_key(|(k, _)| *k);
            rows.extend(all.into_iter().map(|(_, r)| r));
        }
        Ok(answer)
    }
}

impl MillGame for NineGame {
    fn id(&self) -> &'static str {
        if self.rules.flying {
            "nine"
        } else {
            "nine-noflying"
        }
    }

    fn title(&self) -> &'static str {
        if self.rules.flying {
            "Nine Men's Morris"
        } else {
            "Nine Men's Morris without flying"
        }
    }

    fn rules(&self) -> RuleSet {
        self.rules
    }

    fn start(&self) -> String {
        Position::start(self.rules).to_string()
    }

    fn reading(&self) -> Vec<&'static str> {
        crate::rules::geometry::NINE_READING.to_vec()
    }

    fn show(&self, position: &str) -> Result<Json, GameError> {
        Ok(show_json(&self.parse(position)?, self.rules))
    }

    fn searches(&self, position: &str) -> bool {
        match (self.parse(position), self.tablebases()) {
            (Ok(pos), Ok(tb)) => {
                pos.validate::<Nine>(self.rules).is_ok() && self.needs_search(tb, &pos)
            }
            _ => false,
        }
    }

    fn resident(&self, position: &str) -> bool {
        match (self.parse(position), self.tablebases()) {
            (Ok(pos), Ok(tb)) => tb.resident(&pos),
            _ => false,
        }
    }

    fn analysis_text_at(&self, position: &str, plies: u16) -> Result<String, GameError> {
        let pos = self.parse(position)?;
        serialised(&self.with_analyst(&pos, |a| a.analyse_at(&pos, plies))?)
    }

    fn best_at(&self, position: &str, plies: u16) -> Result<Json, GameError> {
        let pos = self.parse(position)?;
        let best = self.with_analyst(&pos, |a| a.best_at(&pos, plies))?;
        Ok(best_json::<Nine>(&pos, best))
    }

    /// Every style where the tables hold the position (the moving phase,
    /// placement sectors); a placement position only the search answers
    /// gets the search's move, and the answer's `policy` says `fast`.
    fn best_by_at(
        &self,
        position: &str,
        policy: &Policy,
        seed: u64,
        plies: u16,
    ) -> Result<Json, GameError> {
        let pos = self.parse(position)?;
        let tb = self.tablebases()?;
        if *policy != Policy::Fast && pos.validate::<Nine>(self.rules).is_ok() && tb.has_table(&pos)
        {
            // The count checked as the analysis checks it.
            crate::probe::count::Count::of(self.rules, if pos.placing() { 0 } else { plies })
                .map_err(|e| GameError::Input(e.to_string()))?;
            let game = duel::games::Nine::new(tb).from(pos);
            let choice = policy
                .pick_at(&game, &pos, plies, &[], &mut duel::seeded(seed))
                .map_err(|e| match e {
                    duel::DuelError::Probe(p) => probe_error(&p, &self.command),
                    other => GameError::Other(other.to_string()),
                })?;
            let best = choice.map(|c| MoveValue::new(c.mv, c.value, c.has_distance));
            let mut answer = best_json::<Nine>(&pos, best);
            answer["policy"] = policy.to_string().into();
            return Ok(answer);
        }
        let mut answer = self.best_at(position, plies)?;
        answer["policy"] = "fast".into();
        Ok(answer)
    }

    /// Computed again only when a table file changed (reading every
    /// table's header is about 20 µs a file).
    fn stats(&self) -> Result<Json, GameError> {
        self.tablebases()?;
        let now = self.listing()?;
        let mut cache = self.stats.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((then, answer)) = cache.as_ref() {
            if *then == now {
                return Ok(answer.clone());
            }
        }
        let answer = self.stats_with_errors()?;
        *cache = Some((now, answer.clone()));
        Ok(answer)
    }

    fn svg(&self, position: &str) -> Result<String, GameError> {
        Ok(crate::rules::svg::nine_svg(&self.parse(position)?))
    }

    fn play_move(&self, position: &str, mv: &str) -> Result<(String, String), GameError> {
        let pos = self.parse(position)?;
        let m = parse_move::<Nine>(&pos, self.rules, mv).map_err(|e| GameError::IllegalMove {
            text: mv.trim().to_string(),
            reason: e.to_string(),
        })?;
        Ok((m.to_string(), pos.apply(m).to_string()))
    }
}
