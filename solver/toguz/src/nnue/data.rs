//! The self-play data file of `solver toguz train-net`: one block per game
//! (`g INDEX`, its positions, `e INDEX`), appended as games finish, so an
//! interrupted run resumes by skipping the games already written (a block
//! without its end line is ignored). Positions carry the game result, the
//! search score and, when share tables were given, the exact value.

use crate::board::Board;
use crate::egtb::Tables;
use crate::endgame::GameResult;
use crate::train::{selfplay_game, Sample, SelfPlayOptions};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

/// First line of a data file.
pub const MAGIC: &str = "# toguz-nnue-data v1";

/// A data file that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// Reading or writing failed.
    #[error("{0}")]
    Io(String),
    /// The file does not start with [`MAGIC`].
    #[error("{0}: not a Toguz self-play data file (first line must be `{MAGIC}`)")]
    Magic(String),
    /// A malformed line.
    #[error("{0}: line {1}: {2}")]
    Line(String, usize, String),
}

fn value_text(v: Option<f32>) -> String {
    v.map_or("-".into(), |v| format!("{v}"))
}

/// The text block of game `index`.
fn block(index: usize, samples: &[Sample]) -> String {
    let mut s = format!("g {index}\n");
    for x in samples {
        s.push_str(&format!(
            "p {} {} {} {}\n",
            x.result,
            x.score.map_or("-".into(), |v| v.to_string()),
            value_text(x.exact),
            x.board
        ));
    }
    s.push_str(&format!("e {index}\n"));
    s
}

fn parse_sample(rest: &str) -> Result<Sample, String> {
    let mut it = rest.splitn(4, ' ');
    let (Some(r), Some(sc), Some(ex), Some(pos)) = (it.next(), it.next(), it.next(), it.next())
    else {
        return Err("expected `p RESULT SCORE EXACT POSITION`".into());
    };
    let val = |t: &str| -> Result<f32, String> {
        match t {
            "1" => Ok(1.0),
            "0.5" => Ok(0.5),
            "0" => Ok(0.0),
            _ => Err(format!("bad value `{t}`")),
        }
    };
    let board: Board = pos.parse().map_err(|e| format!("{e}"))?;
    if board.outcome().is_some() {
        return Err("a finished position".into());
    }
    Ok(Sample {
        board,
        result: val(r)?,
        score: match sc {
            "-" => None,
            s => Some(s.parse().map_err(|_| format!("bad score `{s}`"))?),
        },
        exact: match ex {
            "-" => None,
            e => Some(val(e)?),
        },
    })
}

/// The completed games of a data file by game index (an empty map when
/// the file does not exist).
pub fn read(path: &Path) -> Result<BTreeMap<usize, Vec<Sample>>, DataError> {
    let name = path.display().to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(DataError::Io(format!("{name}: {e}"))),
    };
    let mut lines = text.lines().enumerate();
    match lines.next() {
        None => return Ok(BTreeMap::new()),
        Some((_, l)) if l.trim() == MAGIC => {}
        Some(_) => return Err(DataError::Magic(name)),
    }
    let mut games = BTreeMap::new();
    // The open block: game index, its positions, its first bad line. A
    // block cut off by an interruption (no `e` line) is ignored, bad lines
    // and all; a bad line in a completed block is an error.
    let mut open: Option<(usize, Vec<Sample>, Option<DataError>)> = None;
    let bad = |n: usize, m: String| DataError::Line(name.clone(), n + 1, m);
    for (n, line) in lines {
        if let Some(rest) = line.strip_prefix("p ") {
            if let Some((_, v, err)) = open.as_mut() {
                match parse_sample(rest) {
                    Ok(s) => v.push(s),
                    Err(m) => {
                        err.get_or_insert(bad(n, m));
                    }
                }
            }
        } else if let Some(i) = line.strip_prefix("g ") {
            let i = i
                .trim()
                .parse()
                .map_err(|_| bad(n, "bad game index".into()))?;
            open = Some((i, Vec::new(), None));
        } else if let Some(i) = line.strip_prefix("e ") {
            let i: usize = i
                .trim()
                .parse()
                .map_err(|_| bad(n, "bad game index".into()))?;
            match open.take() {
                Some((j, _, Some(e))) if j == i => return Err(e),
                Some((j, v, None)) if j == i => {
                    games.insert(i, v);
                }
                _ => return Err(bad(n, format!("end of game {i} without its start"))),
            }
        } else if !line.is_empty() && !line.starts_with('#') && open.is_none() {
            return Err(bad(n, "expected `g`, `p` or `e`".into()));
        }
    }
    Ok(games)
}

/// The exact value of `b` for its side to move from `tables`, if it is in
/// them.
pub fn exact_value(tables: &Tables, b: &Board) -> Option<f32> {
    match tables.result(b) {
        Ok(Some(GameResult::Win)) => Some(1.0),
        Ok(Some(GameResult::Draw)) => Some(0.5),
        Ok(Some(GameResult::Loss)) => Some(0.0),
        _ => None,
    }
}

/// Play the games `0..opts.games` not yet in the data file `path` on
/// `threads` threads and append each as it finishes (creating the file).
/// `progress(done, total)` is called after every game. Returns how many
/// games were played now.
pub fn generate(
    path: &Path,
    opts: &SelfPlayOptions,
    tables: Option<&Tables>,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<usize, DataError> {
    let name = path.display().to_string();
    let done = read(path)?;
    let todo: Vec<usize> = (0..opts.games).filter(|i| !done.contains_key(i)).collect();
    let io = |e: std::io::Error| DataError::Io(format!("{name}: {e}"));
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(io)?;
    if file.metadata().map_err(io)?.len() == 0 {
        writeln!(file, "{MAGIC}").map_err(io)?;
    } else {
        // A cut-off last line must not run into the next block.
        writeln!(file).map_err(io)?;
    }
    let file = Mutex::new(file);
    let finished = std::sync::atomic::AtomicUsize::new(done.len().min(opts.games));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| DataError::Io(e.to_string()))?;
    pool.install(|| {
        todo.par_iter().try_for_each(|&i| {
            let mut samples = selfplay_game(opts, i);
            if let Some(t) = tables {
                for s in &mut samples {
                    s.exact = exact_value(t, &s.board);
                }
            }
            let text = block(i, &samples);
            {
                let mut f = file.lock().map_err(|_| DataError::Io("lock".into()))?;
                f.write_all(text.as_bytes()).map_err(io)?;
                f.flush().map_err(io)?;
            }
            let d = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(d, opts.games);
            Ok::<(), DataError>(())
        })
    })?;
    Ok(todo.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Config;

    #[test]
    fn resumes_and_skips_cut_off_games() {
        let dir = std::env::temp_dir().join(format!("toguz-nnue-data-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        let opts = SelfPlayOptions {
            games: 3,
            nodes: 200,
            random_plies: 8,
            seed: 3,
            config: Config {
                tt_mb: 1,
                endgame_stones: 0,
                ..Config::default()
            },
        };
        assert_eq!(generate(&dir, &opts, None, 1, &|_, _| {}).unwrap(), 3);
        let first = read(&dir).unwrap();
        assert_eq!(first.len(), 3);
        // An interrupted write: a block without its end, cut mid-line.
        let mut f = std::fs::OpenOptions::new().append(true).open(&dir).unwrap();
        write!(f, "g 3\np 1 20 - 9,9,9").unwrap();
        drop(f);
        assert_eq!(read(&dir).unwrap(), first);
        let more = SelfPlayOptions { games: 4, ..opts };
        assert_eq!(generate(&dir, &more, None, 1, &|_, _| {}).unwrap(), 1);
        let all = read(&dir).unwrap();
        assert_eq!(all.len(), 4);
        // The same games as played in one go.
        for (i, v) in &all {
            assert_eq!(v, &selfplay_game(&more, *i), "game {i}");
        }
        std::fs::write(&dir, "hello\n").unwrap();
        assert!(matches!(read(&dir), Err(DataError::Magic(_))));
        let _ = std::fs::remove_file(&dir);
    }
}
