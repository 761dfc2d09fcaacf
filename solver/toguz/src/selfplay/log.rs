//! The match log (`solver toguz match --log FILE`): every finished game is
//! appended as one JSON line when it ends, so an interrupted match resumes
//! where it stopped. The first line holds the match's settings (engines,
//! limits, clock, openings); a log written with other settings is refused.
//! A line cut off by an interruption is dropped on the next run.

use super::{GameRecord, MatchOptions, Openings, RunOptions};
use crate::board::{Board, Side};
use crate::selfplay::EngineSpec;
use std::collections::BTreeMap;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// First line of a match log.
pub const MAGIC: &str = "toguz match log 1";

/// Why a match log cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// Reading or writing the file failed.
    #[error("{}: {}", .0.display(), .1)]
    Io(PathBuf, std::io::Error),
    /// Not a match log, or a damaged line.
    #[error("{}: not a match log ({})", .0.display(), .1)]
    Format(PathBuf, String),
    /// The log was written by a match with other settings.
    #[error("{} was written by a match with other settings ({}); give another --log file", .0.display(), .1)]
    Settings(PathBuf, String),
}

/// One logged game (a line of the log after the settings).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct Line {
    /// Index in the match's order of games (opening × colour).
    game: usize,
    /// Index of the opening (`game / 2`).
    opening: usize,
    /// The colour engine A played.
    a_plays: String,
    /// The opening position (position text).
    start: String,
    /// The result for engine A: `win`, `draw` or `loss`.
    result: String,
    /// The game's record (kazans, time losses, engine failures, search
    /// figures), its keys on the line itself.
    #[serde(flatten)]
    record: GameRecord,
}

fn colour(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// The settings that decide the games of a match (not the number of games,
/// the threads or the SPRT's stop: a longer or stopped match resumes).
pub(super) fn settings(
    a: &EngineSpec,
    b: &EngineSpec,
    opts: &MatchOptions,
    openings: &Openings,
    run: &RunOptions,
) -> serde_json::Value {
    let config = |s: &EngineSpec| match &s.exec {
        Some(_) => serde_json::Value::Null,
        None => serde_json::to_value(s.config).unwrap_or(serde_json::Value::Null),
    };
    serde_json::json!({
        "a": a.name,
        "b": b.name,
        "a_config": config(a),
        "b_config": config(b),
        "limits_a": limits(&opts.limits_a),
        "limits_b": limits(&opts.limits_b),
        "clock": run.clock.map(|c| format!("{:?}+{:?}", c.base, c.increment)),
        "openings": match openings {
            Openings::Random => format!("random, {} plies", opts.opening_plies),
            Openings::Positions(_) => format!("positions, {} plies", opts.opening_plies),
        },
    })
}

/// `nodes 4000, time 1s`: the limits of a move, short.
fn limits(l: &crate::search::Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = l.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("nodes {n}"));
    }
    if let Some(t) = l.time {
        parts.push(format!("time {t:?}"));
    }
    parts.push(format!("threads {}", l.threads.max(1)));
    parts.join(", ")
}

/// An open match log: the games already in it, and the file to append to.
pub(super) struct MatchLog {
    path: PathBuf,
    file: Mutex<std::fs::File>,
    /// Logged games by index.
    pub games: BTreeMap<usize, GameRecord>,
    starts: BTreeMap<usize, (String, String)>,
}

impl MatchLog {
    /// Open (or create) the log at `path` for a match with `settings`.
    pub fn open(path: &Path, settings: &serde_json::Value) -> Result<MatchLog, LogError> {
        let io = |e| LogError::Io(path.to_path_buf(), e);
        let format = |m: String| LogError::Format(path.to_path_buf(), m);
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(io)?;
        // Drop a line cut off by an interruption.
        let complete = text.rfind('\n').map_or(0, |i| i + 1);
        if complete < text.len() {
            file.set_len(complete as u64).map_err(io)?;
            file.seek(std::io::SeekFrom::End(0)).map_err(io)?;
            text.truncate(complete);
        }
        let mut games = BTreeMap::new();
        let mut starts = BTreeMap::new();
        let mut lines = text.lines();
        match lines.next() {
            None => {
                writeln!(file, "{MAGIC}\n{settings}").map_err(io)?;
                file.flush().map_err(io)?;
            }
            Some(first) if first == MAGIC => {
                let theirs: serde_json::Value = lines
                    .next()
                    .and_then(|l| serde_json::from_str(l).ok())
                    .ok_or_else(|| format("no settings line".into()))?;
                if let Some(diff) = difference(&theirs, settings) {
                    return Err(LogError::Settings(path.to_path_buf(), diff));
                }
                for (n, l) in lines.enumerate() {
                    let g: Line = serde_json::from_str(l)
                        .map_err(|e| format(format!("line {}: {e}", n + 3)))?;
                    starts.insert(g.game, (g.start, g.a_plays));
                    games.insert(g.game, g.record);
                }
            }
            Some(_) => return Err(format(format!("the first line is not `{MAGIC}`"))),
        }
        Ok(MatchLog {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            games,
            starts,
        })
    }

    /// Check that the logged games started where this match's games start.
    pub fn check_starts(&self, jobs: &[(Board, Side)]) -> Result<(), LogError> {
        for (&i, (start, side)) in &self.starts {
            let ok = jobs
                .get(i)
                .is_some_and(|(b, s)| b.to_string() == *start && colour(*s) == side);
            if !ok {
                return Err(LogError::Settings(
                    self.path.clone(),
                    format!("game {i} started from another opening or colour"),
                ));
            }
        }
        Ok(())
    }

    /// Append game `game` (started from `start` with A playing `side`).
    pub fn append(
        &self,
        game: usize,
        start: &Board,
        side: Side,
        g: &GameRecord,
    ) -> Result<(), LogError> {
        let result = match g.result_for_a() {
            std::cmp::Ordering::Greater => "win",
            std::cmp::Ordering::Equal => "draw",
            std::cmp::Ordering::Less => "loss",
        };
        let line = Line {
            game,
            opening: game / 2,
            a_plays: colour(side).into(),
            start: start.to_string(),
            result: result.into(),
            record: g.clone(),
        };
        let text = serde_json::to_string(&line).expect("a game line serialises");
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(f, "{text}")
            .and_then(|()| f.flush())
            .map_err(|e| LogError::Io(self.path.clone(), e))
    }
}

/// The first setting that differs, as `key: THEIRS in the log, OURS now`.
fn difference(theirs: &serde_json::Value, ours: &serde_json::Value) -> Option<String> {
    if theirs == ours {
        return None;
    }
    let short = |v: Option<&serde_json::Value>| {
        let s = v.map_or("nothing".to_string(), |v| match v {
            serde_json::Value::String(s) => format!("`{s}`"),
            v => v.to_string(),
        });
        if s.chars().count() > 80 {
            format!("{}…", s.chars().take(80).collect::<String>())
        } else {
            s
        }
    };
    let (Some(t), Some(o)) = (theirs.as_object(), ours.as_object()) else {
        return Some("unreadable settings".into());
    };
    let key = o
        .keys()
        .chain(t.keys())
        .find(|k| t.get(*k) != o.get(*k))
        .cloned()
        .unwrap_or_default();
    Some(format!(
        "{key}: {} in the log, {} now",
        short(t.get(&key)),
        short(o.get(&key))
    ))
}
