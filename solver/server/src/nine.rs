//! `/api/nine/*`: Nine Men's Morris. Every table access that may read a
//! file runs off the async workers: moving-phase positions are answered on
//! tokio's blocking pool straight from the shared, thread-safe tables (a
//! first probe may load and decompress a table; concurrent probes do not
//! wait for each other, and the page's files and other answers are not
//! held up), except a probe whose tables are whole in memory and loaded
//! ([`Tablebases::resident`], `--memory values`), answered in place
//! (memory reads only, no hand-off between threads); placement
//! positions go to one worker thread that owns the [`Analyst`] and its
//! parallel search (one search at a time, its transposition table kept
//! between them).

use super::error::table_message;
use super::{
    clip, json, params, position_param, record_param, style, ApiError, AppState, BestParams,
    Config, NoParams, Query, ReplayParams, Shared, TableMemory,
};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use mill::duel::{self, Policy};
use mill::games::nine::files::{open_table, parse_file_name, Tables};
use mill::games::nine::report::{best_json, show_json, stats_json};
use mill::probe::analysis::{Analyst, MoveValue, SearchOptions};
use mill::probe::nine::{ProbeError, Tablebases};
use mill::rules::position::Position;
use mill::rules::variant::RuleSet;
use mill::tables::keys::TableId;
use serde_json::json as object;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;

/// Placement questions that may wait for the worker.
const QUEUE: usize = 4;

/// What the worker is asked.
#[derive(Clone, Copy)]
enum Ask {
    /// Every move's value ([`Analyst::analyse`]).
    Analyse,
    /// The perfect move only ([`Analyst::best`]).
    Best,
}

struct Job {
    pos: Position,
    ask: Ask,
    reply: oneshot::Sender<Result<serde_json::Value, ApiError>>,
}

/// The tables and the placement worker.
pub struct NineState {
    dir: PathBuf,
    rules: RuleSet,
    /// The tables, opened once (leaked: they live as long as the server).
    tables: Result<&'static Tablebases, ApiError>,
    options: SearchOptions,
    worker: Option<SyncSender<Job>>,
    wait: Duration,
    /// The last stats answer and the listing it was computed from.
    stats: Arc<std::sync::Mutex<Option<(Listing, axum::body::Bytes)>>>,
}

impl NineState {
    /// The tables of `config.dir` under `rules` and their placement worker.
    pub fn new(config: &Config, rules: RuleSet) -> NineState {
        let tables = Tablebases::open(&config.dir, rules)
            .map(|tb| match config.memory {
                TableMemory::Mapped => tb,
                TableMemory::Outcomes => tb.in_memory_wdl(),
                TableMemory::Values => tb.in_memory(),
            })
            .map(|tb| &*Box::leak(Box::new(tb)))
            .map_err(ApiError::from);
        let worker = tables.as_ref().ok().and_then(|&tb| {
            let (send, receive) = sync_channel::<Job>(QUEUE);
            let options = config.search;
            std::thread::Builder::new()
                .name("placement-search".into())
                .spawn(move || {
                    let mut analyst = Analyst::new(tb, options);
                    for job in receive {
                        if job.reply.is_closed() {
                            continue; // the request gave up waiting
                        }
                        let answer = match job.ask {
                            Ask::Analyse => analyst.analyse(&job.pos).map(|a| a.to_json()),
                            Ask::Best => analyst.best(&job.pos).map(|b| best_json(&job.pos, b)),
                        };
                        let _ = job.reply.send(answer.map_err(ApiError::from));
                    }
                })
                .ok()
                .map(|_| send)
        });
        NineState {
            dir: config.dir.clone(),
            rules,
            tables,
            options: config.search,
            worker,
            wait: config.placement_wait,
            stats: Default::default(),
        }
    }

    fn tables(&self) -> Result<&'static Tablebases, ApiError> {
        self.tables.clone()
    }

    /// Ask the placement worker, waiting at most the configured time.
    async fn placement(&self, pos: Position, ask: Ask) -> Result<serde_json::Value, ApiError> {
        let worker = self
            .worker
            .as_ref()
            .ok_or_else(|| ApiError::internal("the placement search worker is not running"))?;
        let (reply, answer) = oneshot::channel();
        match worker.try_send(Job { pos, ask, reply }) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                return Err(ApiError::busy(
                    "the placement search is busy with other positions; try again shortly",
                ))
            }
            Err(TrySendError::Disconnected(_)) => {
                return Err(ApiError::internal(
                    "the placement search worker has stopped",
                ))
            }
        }
        match tokio::time::timeout(self.wait, answer).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(ApiError::internal(
                "the placement search worker has stopped",
            )),
            Err(_) => Err(ApiError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                kind: "timeout",
                message: format!(
                    "the placement search took longer than the server's limit of {} s \
                     (early placement positions need the full tables and up to a minute)",
                    self.wait.as_secs()
                ),
            }),
        }
    }
}

fn parse(query: Query) -> Result<Position, ApiError> {
    let params = params(query)?;
    parse_text(position_param(&params.position)?)
}

fn parse_text(text: &str) -> Result<Position, ApiError> {
    text.parse()
        .map_err(|e| ApiError::bad_request(format!("bad position: {e}")))
}

/// The perfect player's `best` object (`fast`): from the tables on the
/// blocking pool (in place when resident) where they hold the position,
/// else from the placement search's worker.
async fn fast_best(
    nine: &NineState,
    tb: &'static Tablebases,
    pos: Position,
) -> Result<serde_json::Value, ApiError> {
    let options = nine.options;
    let work = move || Ok(best_json(&pos, Analyst::new(tb, options).best(&pos)?));
    if tb.resident(&pos) {
        return work(); // memory reads only, as in `analyse`
    }
    if pos.placing() {
        let answer = blocking(move || tb.has_table(&pos).then(work).transpose()).await?;
        return match answer {
            Some(best) => Ok(best),
            None => nine.placement(pos, Ask::Best).await,
        };
    }
    blocking(work).await
}

/// The routes of `/api/nine` (the server's rule set) and
/// `/api/nine-noflying` (Nine Men's Morris without flying, from the same
/// directory).
pub fn routes() -> Router<Arc<AppState>> {
    let mut router = Router::new();
    for (prefix, flying) in [("nine", true), ("nine-noflying", false)] {
        let pick: fn(&AppState) -> &NineState = if flying {
            |state| &state.nine
        } else {
            |state| &state.nine_noflying
        };
        router = router
            .route(
                &format!("/api/{prefix}/show"),
                get(move |state: Shared, query: Query| async move { show(pick(&state), query) }),
            )
            .route(
                &format!("/api/{prefix}/probe"),
                get(move |state: Shared, query: Query| async move {
                    let nine = pick(&state);
                    analyse(nine, query)
                        .await
                        .map_err(|e| e.without_path(&nine.dir))
                }),
            )
            .route(
                &format!("/api/{prefix}/best"),
                get(move |state: Shared, query: Query<BestParams>| async move {
                    let nine = pick(&state);
                    best(nine, query)
                        .await
                        .map_err(|e| e.without_path(&nine.dir))
                }),
            )
            .route(
                &format!("/api/{prefix}/replay"),
                get(
                    move |state: Shared, query: Query<ReplayParams>| async move {
                        replay(pick(&state), query)
                    },
                ),
            )
            .route(
                &format!("/api/{prefix}/stats"),
                get(move |state: Shared, query: Query<NoParams>| async move {
                    stats(pick(&state), query).await
                }),
            )
            .route(&format!("/api/{prefix}/svg"), get(svg));
    }
    router
}

fn show(nine: &NineState, query: Query) -> Result<Response, ApiError> {
    let pos = parse(query)?;
    Ok(json(show_json(&pos, nine.rules)))
}

/// `best`: the perfect player's move in the requested style. A style
/// other than `fast` picks among the best moves through `mill::duel` where
/// the tables hold the position (the moving phase, or placement sectors);
/// a placement position only the search answers gets the search's move,
/// and the answer's `policy` says `fast`.
async fn best(nine: &NineState, query: Query<BestParams>) -> Result<Response, ApiError> {
    let params = params(query)?;
    let (policy, seed) = style(&params)?;
    let pos = parse_text(position_param(&params.position)?)?;
    let tb = nine.tables()?;
    if policy != Policy::Fast {
        let chosen = blocking(move || {
            if !tb.has_table(&pos) {
                return Ok(None);
            }
            let game = duel::games::Nine::new(tb).from(pos);
            let choice = policy
                .pick(&game, &pos, &[], &mut duel::seeded(seed))
                .map_err(duel_error)?;
            let best = choice.map(|c| MoveValue::new(c.mv, c.value, c.has_distance));
            Ok(Some(best_json(&pos, best)))
        })
        .await?;
        if let Some(mut answer) = chosen {
            answer["policy"] = policy.to_string().into();
            return Ok(json(answer));
        }
    }
    let mut answer = fast_best(nine, tb, pos).await?;
    answer["policy"] = "fast".into();
    Ok(json(answer))
}

/// A `mill::duel` error as the API's (a missing or damaged table).
fn duel_error(e: duel::DuelError) -> ApiError {
    match e {
        duel::DuelError::Probe(p) => ApiError::from(p),
        other => ApiError::internal(other.to_string()),
    }
}

/// `replay`: the positions of a move list played from `position`, each
/// move checked by the rules (`{"positions", "moves"}`: every position
/// from the start to the end, every move as the library writes it); the
/// first move that is not legal is a 400 naming its number.
fn replay(nine: &NineState, query: Query<ReplayParams>) -> Result<Response, ApiError> {
    let params = params(query)?;
    let mut pos = parse_text(position_param(&params.position)?)?;
    let moves = record_param("moves", &params.moves)?;
    let mut positions = vec![pos.to_string()];
    let mut played = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = mill::rules::notation::parse_move::<mill::rules::board::Nine>(
            &pos, nine.rules, text,
        )
        .map_err(|e| ApiError::bad_request(format!("move {} `{}`: {e}", i + 1, clip(text))))?;
        pos = pos.apply(m);
        positions.push(pos.to_string());
        played.push(m.to_string());
    }
    Ok(json(object!({"positions": positions, "moves": played})))
}

/// `probe`: placement positions the placement sectors hold and
/// moving-phase positions to the tables on the blocking pool (or in place
/// when resident), other placement positions to the search worker.
async fn analyse(nine: &NineState, query: Query) -> Result<Response, ApiError> {
    let pos = parse(query)?;
    let tb = nine.tables()?;
    if pos.placing() {
        let options = nine.options;
        if tb.resident(&pos) {
            // Its sectors' outcomes are in memory: as a resident
            // moving-phase probe below.
            return Ok(axum::Json(Analyst::new(tb, options).analyse(&pos)?).into_response());
        }
        // Many requests at once may read the sectors; only a search needs
        // the (single) worker.
        let answer = blocking(move || {
            Ok(tb
                .has_table(&pos)
                .then(|| Analyst::new(tb, options).analyse(&pos)))
        })
        .await?;
        return match answer {
            Some(analysis) => Ok(axum::Json(analysis?).into_response()),
            None => nine.placement(pos, Ask::Analyse).await.map(json),
        };
    }
    let options = nine.options;
    // Serialised straight into the body: the object of `Analysis::to_json`.
    let work = move || Ok(axum::Json(Analyst::new(tb, options).analyse(&pos)?).into_response());
    if tb.resident(&pos) {
        // Memory reads only (a few microseconds, as serialising the
        // answer): no hand-off to the blocking pool.
        return work();
    }
    blocking(work).await
}

/// Run table code on tokio's blocking pool (a table's first use loads and
/// decompresses it), never on an async worker.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::internal(format!("the table look-up failed: {e}")))?
}

async fn stats(nine: &NineState, query: Query<NoParams>) -> Result<Response, ApiError> {
    params(query)?;
    nine.tables()?;
    let (dir, rules, cache) = (nine.dir.clone(), nine.rules, nine.stats.clone());
    let body = blocking(move || {
        // Reading every table's header is about 20 µs a file; the listing
        // (name, length, time of each table file) tells whether the last
        // answer still holds.
        let now = listing(&dir, rules)?;
        let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((then, body)) = cache.as_ref() {
            if *then == now {
                return Ok(body.clone());
            }
        }
        let body = axum::body::Bytes::from(stats_with_errors(&dir, rules)?.to_string());
        *cache = Some((now, body.clone()));
        Ok(body)
    })
    .await
    .map_err(|e| e.without_path(&nine.dir))?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// The table files of `rules` in `dir`: name, length and modification
/// time of each, sorted (what a stats answer is computed from).
type Listing = Vec<(String, u64, Option<std::time::SystemTime>)>;

/// The [`Listing`] of `dir`, or the stats' error for a missing directory.
fn listing(dir: &Path, rules: RuleSet) -> Result<Listing, ApiError> {
    let entries = read_dir(dir)?;
    let mut files: Listing = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let (file_rules, _) = parse_file_name(&name)?;
            let meta = entry.metadata().ok()?;
            (file_rules == rules).then(|| (name, meta.len(), meta.modified().ok()))
        })
        .collect();
    files.sort_unstable();
    Ok(files)
}

/// `read_dir` with the stats' errors.
fn read_dir(dir: &Path) -> Result<std::fs::ReadDir, ApiError> {
    std::fs::read_dir(dir).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            ApiError::from(ProbeError::NoDirectory(dir.to_owned()))
        } else {
            ApiError::internal(format!("cannot read the tablebase directory: {e}"))
        }
    })
}

/// The object of `solver nine stats --json` over the tables that open,
/// with a row `{white, black, [white_hand, black_hand,] file, error}` in
/// `subspaces` or `sectors` for each table that does not (a damaged table
/// is reported on its row, not as a failure of the whole answer; its
/// counts are left out of the totals).
fn stats_with_errors(dir: &Path, rules: RuleSet) -> Result<serde_json::Value, ApiError> {
    let entries = read_dir(dir)?;
    let mut tables: Tables = Default::default();
    let mut broken = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((file_rules, id)) = parse_file_name(&name) else {
            continue; // not a table (scratch files and the like)
        };
        if file_rules != rules {
            continue;
        }
        match open_table(&entry.path(), rules, id) {
            Ok(table) => match id {
                TableId::Moving(sub) => {
                    tables.0.insert(sub, table);
                }
                TableId::Placement(sector) => {
                    tables.1.insert(sector, table);
                }
            },
            Err(e) => {
                let error = table_message(&e);
                broken.push(match id {
                    TableId::Moving(sub) => {
                        object!({"kind": "moving", "white": sub.us, "black": sub.them, "file": name,
                                 "error": error})
                    }
                    TableId::Placement(s) => {
                        object!({"kind": "placement", "white": s.us, "black": s.them,
                                 "white_hand": s.us_hand, "black_hand": s.them_hand, "file": name,
                                 "error": error})
                    }
                });
            }
        }
    }
    if tables.0.is_empty() && tables.1.is_empty() && broken.is_empty() {
        // The directory is there, without tables of this rule set.
        let (what, command) = if rules.flying {
            ("Nine Men's Morris", "solver nine generate")
        } else {
            (
                "Nine Men's Morris without flying",
                "solver nine generate --no-flying",
            )
        };
        return Err(ApiError {
            status: StatusCode::NOT_FOUND,
            kind: "no-tables",
            message: format!(
                "the server's tablebase directory has no tables of {what} (run `{command}`)"
            ),
        });
    }
    let mut answer = stats_json(&tables, rules);
    // A file that does not open is a row with its error, in its place
    // among the rows of its kind (subspaces, then sectors).
    if let Some(rows) = answer["tables"].as_array_mut() {
        let order = |r: &serde_json::Value| {
            let n = |k: &str| r[k].as_u64().unwrap_or(0) as u8;
            let kind = u8::from(r["kind"] != "moving");
            (
                kind,
                n("white"),
                n("black"),
                n("white_hand"),
                n("black_hand"),
            )
        };
        let mut all: Vec<_> = rows.drain(..).map(|r| (order(&r), r)).collect();
        all.extend(broken.into_iter().map(|r| (order(&r), r)));
        all.sort_by_key(|(k, _)| *k);
        rows.extend(all.into_iter().map(|(_, r)| r));
    }
    Ok(answer)
}

async fn svg(query: Query) -> Result<Response, ApiError> {
    let pos = parse(query)?;
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml")],
        mill::rules::svg::nine_svg(&pos),
    )
        .into_response())
}
