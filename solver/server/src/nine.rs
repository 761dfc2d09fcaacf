//! `/api/nine/*`: Nine Men's Morris. Moving-phase positions are answered on
//! the request's own task straight from the shared, thread-safe tables (so
//! concurrent probes do not wait for each other); placement positions go
//! to one worker thread that owns the [`Analyst`] and its parallel search
//! (one search at a time, its transposition table kept between them).

use super::{json, params, position_param, ApiError, AppState, Config, Query, Shared, TableMemory};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use mill::analysis::{Analyst, SearchOptions};
use mill::database::scan_all;
use mill::position::{Position, Rules};
use mill::probe::{ProbeError, Tablebases};
use mill::report::{best_json, show_json, stats_json};
use std::path::PathBuf;
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
    rules: Rules,
    /// The tables, opened once (leaked: they live as long as the server).
    tables: Result<&'static Tablebases, ApiError>,
    options: SearchOptions,
    worker: Option<SyncSender<Job>>,
    wait: Duration,
}

impl NineState {
    pub fn new(config: &Config) -> NineState {
        let tables = Tablebases::open(&config.dir, config.rules)
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
            rules: config.rules,
            tables,
            options: config.search,
            worker,
            wait: config.placement_wait,
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
    position_param(&params)?
        .parse()
        .map_err(|e| ApiError::bad_request(format!("bad position: {e}")))
}

/// The routes of `/api/nine`.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/nine/show", axum::routing::get(show))
        .route("/api/nine/probe", get(probe))
        .route("/api/nine/best", get(best))
        .route("/api/nine/stats", get(stats))
        .route("/api/nine/svg", get(svg))
}

async fn show(state: Shared, query: Query) -> Result<Response, ApiError> {
    let pos = parse(query)?;
    Ok(json(show_json(&pos, state.nine.rules)))
}

async fn probe(state: Shared, query: Query) -> Result<Response, ApiError> {
    let pos = parse(query)?;
    let nine = &state.nine;
    let tb = nine.tables()?;
    if pos.placing() {
        return nine.placement(pos, Ask::Analyse).await.map(json);
    }
    let analysis = Analyst::new(tb, nine.options).analyse(&pos)?;
    // Serialised straight into the body: the object of `Analysis::to_json`.
    Ok(axum::Json(analysis).into_response())
}

async fn best(state: Shared, query: Query) -> Result<Response, ApiError> {
    let pos = parse(query)?;
    let nine = &state.nine;
    let tb = nine.tables()?;
    if pos.placing() {
        return nine.placement(pos, Ask::Best).await.map(json);
    }
    let best = Analyst::new(tb, nine.options).best(&pos)?;
    Ok(json(best_json(&pos, best)))
}

async fn stats(state: Shared) -> Result<Response, ApiError> {
    let nine = &state.nine;
    nine.tables()?;
    let tables =
        scan_all(&nine.dir, nine.rules).map_err(|e| ApiError::from(ProbeError::from(e)))?;
    if tables.0.is_empty() && tables.1.is_empty() {
        return Err(ProbeError::NoDirectory(nine.dir.clone()).into());
    }
    Ok(json(stats_json(&tables, nine.rules)))
}

async fn svg(query: Query) -> Result<Response, ApiError> {
    let pos = parse(query)?;
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml")],
        mill::svg::nine_svg(&pos),
    )
        .into_response())
}
