//! `/api/toguz/*`: Toguz Kumalak positions and engine searches. Each search
//! runs on a blocking thread with its own engine, one search thread and a
//! time cap the server enforces; at most `toguz_searches` run at once.

use super::{
    json, params, position_param, ApiError, AppState, Config, Query, SearchParams, Shared,
};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use std::sync::Arc;
use std::time::Duration;
use toguz::report::{search_json, show_json};
use toguz::search::{Config as EngineConfig, Engine, Limits};
use toguz::Board;
use tokio::sync::Semaphore;

/// Search limits and the searches running now.
pub struct ToguzState {
    max_time: Duration,
    hash_mib: usize,
    running: Arc<Semaphore>,
}

impl ToguzState {
    pub fn new(config: &Config) -> ToguzState {
        ToguzState {
            max_time: config.toguz_max_time,
            hash_mib: config.toguz_hash_mib.max(1),
            running: Arc::new(Semaphore::new(config.toguz_searches.max(1))),
        }
    }
}

fn parse(text: &str) -> Result<Board, ApiError> {
    text.parse()
        .map_err(|e| ApiError::bad_request(format!("bad position: {e}")))
}

/// The routes of `/api/toguz`.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/toguz/show", get(show))
        .route("/api/toguz/search", get(search))
}

async fn show(query: Query) -> Result<Response, ApiError> {
    let params = params(query)?;
    let board = parse(position_param(&params.position)?)?;
    Ok(json(show_json(&board)))
}

async fn search(state: Shared, query: Query<SearchParams>) -> Result<Response, ApiError> {
    let params = params(query)?;
    let board = parse(position_param(&params.position)?)?;
    let toguz = &state.toguz;
    let max = toguz.max_time.as_secs_f64();
    let seconds = match params.time.as_deref() {
        None => 1.0_f64.min(max),
        Some(t) => t.trim().parse::<f64>().map_err(|_| {
            ApiError::bad_request(format!("`time` must be a number of seconds (got `{t}`)"))
        })?,
    };
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= max) {
        return Err(ApiError::bad_request(format!(
            "`time` must be more than 0 and at most {max} seconds (the server's limit)"
        )));
    }
    if let Some(o) = board.outcome() {
        return Err(ApiError::bad_request(format!(
            "the game is over ({})",
            toguz::report::outcome_name(o)
        )));
    }
    let permit = tokio::time::timeout(
        toguz.max_time + Duration::from_secs(1),
        toguz.running.clone().acquire_owned(),
    )
    .await
    .map_err(|_| ApiError::busy("every Toguz search slot is busy; try again shortly"))?
    .map_err(|_| ApiError::internal("the search slots are closed"))?;
    let hash = toguz.hash_mib;
    let answer = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut engine = Engine::new(EngineConfig {
            tt_mb: hash,
            ..EngineConfig::default()
        });
        let limits = Limits {
            depth: None,
            time: Some(Duration::from_secs_f64(seconds)),
            nodes: None,
            threads: 1,
        };
        let result = engine.search(&board, &limits, &mut |_| {});
        search_json(&board, limits.threads, &result)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the search failed: {e}")))?;
    Ok(json(answer))
}
