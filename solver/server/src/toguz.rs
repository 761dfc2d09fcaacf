//! `/api/toguz/*`: Toguz Kumalak positions and engine searches. Each search
//! runs on a blocking thread with its own engine, one search thread and a
//! time cap the server enforces; at most `toguz_searches` run at once.

use super::{
    clip, json, params, position_param, record_param, ApiError, AppState, Config, Query,
    RecordParams, ReviewParams, SearchParams, Shared,
};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use serde_json::json as object;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;
use toguz::notation::{move_notation, MoveText};
use toguz::report::{search_json, show_json};
use toguz::search::{Config as EngineConfig, Engine, Limits};
use toguz::Board;
use toguz::{pgn, review};
use tokio::sync::OwnedSemaphorePermit;
use tokio::sync::Semaphore;

/// Search limits and the searches running now.
pub struct ToguzState {
    max_time: Duration,
    /// Longest review: its positions times the time per position.
    review_time: Duration,
    hash_mib: usize,
    running: Arc<Semaphore>,
}

impl ToguzState {
    pub fn new(config: &Config) -> ToguzState {
        ToguzState {
            max_time: config.toguz_max_time,
            review_time: config.placement_wait,
            hash_mib: config.toguz_hash_mib.max(1),
            running: Arc::new(Semaphore::new(config.toguz_searches.max(1))),
        }
    }

    /// A search slot, waiting at most a search's longest time.
    async fn slot(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        tokio::time::timeout(
            self.max_time + Duration::from_secs(1),
            self.running.clone().acquire_owned(),
        )
        .await
        .map_err(|_| ApiError::busy("every Toguz search slot is busy; try again shortly"))?
        .map_err(|_| ApiError::internal("the search slots are closed"))
    }

    /// A search time in seconds from `text` (default `default`): more than
    /// 0 and at most `max`.
    fn seconds(&self, text: Option<&str>, default: f64, max: f64) -> Result<f64, ApiError> {
        let seconds = match text {
            None => default.min(max),
            Some(t) => t.trim().parse::<f64>().map_err(|_| {
                ApiError::bad_request(format!(
                    "`time` must be a number of seconds (got `{}`)",
                    clip(t)
                ))
            })?,
        };
        if !(seconds.is_finite() && seconds > 0.0 && seconds <= max) {
            return Err(ApiError::bad_request(format!(
                "`time` must be more than 0 and at most {max} seconds (the server's limit)"
            )));
        }
        Ok(seconds)
    }
}

/// The one game of a `record` parameter and the position it starts from
/// (`position`, default the start), checked move by move against the
/// rules (PlayOK's landing holes, tuzdyk marks and kazan totals included).
fn record_game(
    record: &Option<String>,
    position: &Option<String>,
) -> Result<(Board, pgn::Game), ApiError> {
    let text = record_param("record", record)?;
    let start = match position {
        None => Board::start(),
        Some(_) => parse(position_param(position)?)?,
    };
    let mut games =
        pgn::parse(text).map_err(|e| ApiError::bad_request(format!("bad record: {e}")))?;
    if games.len() != 1 {
        return Err(ApiError::bad_request(format!(
            "the record holds {} games; send one",
            games.len()
        )));
    }
    let game = games.remove(0);
    if game.moves.is_empty() {
        return Err(ApiError::bad_request("the record has no moves"));
    }
    pgn::replay_from(start, &game).map_err(|m| {
        let what = if m.ply == 0 {
            "the result".to_string()
        } else {
            format!("move {}", m.ply)
        };
        ApiError::bad_request(format!("{what} `{}`: {}", clip(&m.recorded), m.message))
    })?;
    Ok((start, game))
}

/// The positions of a checked game and its moves (`hole`, PlayOK `move`).
fn positions(start: Board, game: &pgn::Game) -> (Vec<String>, Vec<serde_json::Value>) {
    let mut board = start;
    let mut positions = vec![board.to_string()];
    let mut moves = Vec::new();
    for text in &game.moves {
        // Checked by `record_game`: every move parses and is legal.
        let Ok(mt) = text.parse::<MoveText>() else {
            break;
        };
        let effect = board.make(mt.hole - 1);
        moves.push(object!({"hole": mt.hole, "move": move_notation(mt.hole - 1, &effect, &board)}));
        positions.push(board.to_string());
    }
    (positions, moves)
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
        .route("/api/toguz/replay", get(replay))
        .route("/api/toguz/review", get(review))
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
    let seconds = toguz.seconds(params.time.as_deref(), 1.0, max)?;
    let multipv = match params.multipv.as_deref().map(str::trim) {
        None => 1,
        Some("all") => 9,
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=9).contains(n))
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "`multipv` must be 1..9 or `all` (got `{}`)",
                    clip(n)
                ))
            })?,
    };
    if let Some(o) = board.outcome() {
        let [w, b] = board.final_kazans();
        let result = match o {
            toguz::Outcome::Draw => format!("it is a draw, {w}–{b}"),
            toguz::Outcome::Win(s) if s.index() == 0 => format!("White has won {w}–{b}"),
            toguz::Outcome::Win(_) => format!("Black has won {b}–{w}"),
        };
        return Err(ApiError::bad_request(format!(
            "the game is over: {result}, so there is no move to search"
        )));
    }
    let permit = toguz.slot().await?;
    let (mut engine, limits, _stop) = stoppable_engine(toguz.hash_mib, seconds).await?;
    let answer = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let result = engine.search_multipv(&board, &limits, multipv, &mut |_| {});
        search_json(&board, limits.threads, &result)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the search failed: {e}")))?;
    Ok(json(answer))
}

/// Sets an engine's stop flag when dropped. A request handler holds it
/// while its search runs: when the client goes away (the page aborts a
/// search whose position it no longer shows, which closes the
/// connection), the handler is dropped and the search ends at its next
/// check instead of running to its time limit, freeing its slot.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}

/// [`timed_engine`] built on a blocking thread (its table is allocated and
/// touched), with the guard that stops its search when the request is
/// dropped.
async fn stoppable_engine(
    hash_mib: usize,
    seconds: f64,
) -> Result<(Engine, Limits, StopOnDrop), ApiError> {
    let (engine, limits) = tokio::task::spawn_blocking(move || timed_engine(hash_mib, seconds))
        .await
        .map_err(|e| ApiError::internal(format!("the engine did not start: {e}")))?;
    let stop = StopOnDrop(engine.stop_flag());
    Ok((engine, limits, stop))
}

/// A fresh engine with a `hash_mib` transposition table, and the limits of
/// a one-thread search of `seconds` (the multi-PV search and the review).
fn timed_engine(hash_mib: usize, seconds: f64) -> (Engine, Limits) {
    let engine = Engine::new(EngineConfig {
        tt_mb: hash_mib,
        ..EngineConfig::default()
    });
    let limits = Limits {
        depth: None,
        time: Some(Duration::from_secs_f64(seconds)),
        nodes: None,
        threads: 1,
    };
    (engine, limits)
}

/// `GET /api/toguz/replay`: a PlayOK record (or a plain move list) checked
/// against the rules: its `positions` from the start to the end, its
/// `moves` (`hole`, `move`), the `result` and the players' names from its
/// tags.
async fn replay(query: Query<RecordParams>) -> Result<Response, ApiError> {
    let params = params(query)?;
    let (start, game) = record_game(&params.record, &params.position)?;
    let (positions, moves) = positions(start, &game);
    Ok(json(object!({
        "positions": positions,
        "moves": moves,
        "result": game.result,
        "white": game.tag("White"),
        "black": game.tag("Black"),
    })))
}

/// `GET /api/toguz/review`: the game review of `solver toguz review
/// --multipv` (every move's value before and after, the engine's move, the
/// stones lost and a label, every hole's value at each position, White's
/// curve, each player's summary) for one game, plus its `positions` and the
/// score graph as `svg`. Each position is searched for `time` seconds (one
/// thread); the positions times the time may not exceed the server's
/// longest wait (`--search-seconds`).
async fn review(state: Shared, query: Query<ReviewParams>) -> Result<Response, ApiError> {
    let params = params(query)?;
    let toguz = &state.toguz;
    let seconds = toguz.seconds(params.time.as_deref(), 0.1, toguz.max_time.as_secs_f64())?;
    let (start, game) = record_game(&params.record, &params.position)?;
    let searched = game.moves.len();
    let total = seconds * searched as f64;
    let limit = toguz.review_time.as_secs_f64();
    if total > limit {
        return Err(ApiError::bad_request(format!(
            "{searched} positions at {seconds} s each take {total:.0} s, more than the server's \
             limit of {limit:.0} s: choose at most {:.3} s a position",
            limit / searched as f64
        )));
    }
    let permit = toguz.slot().await?;
    let (mut engine, limits, _stop) = stoppable_engine(toguz.hash_mib, seconds).await?;
    let answer = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let r = review::review_from(start, &game, &mut engine, &limits, true, &mut |_, _| {})
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let mut answer = serde_json::to_value(&r).map_err(|e| ApiError::internal(e.to_string()))?;
        let (positions, _) = positions(start, &game);
        answer["positions"] = positions.into();
        answer["svg"] = review::svg(&r).into();
        Ok::<_, ApiError>(answer)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the review failed: {e}")))??;
    Ok(json(answer))
}
