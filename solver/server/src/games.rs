//! `/api/{game}/*` for every mill game (Nine Men's Morris with and
//! without flying, Six Men's Morris, Lasker Morris, Morabaraba, Three
//! Men's Morris, and any board a caller adds): each a [`MillGame`] of the
//! library, whose JSON the answers are. The paths: `probe`, `best`,
//! `show`, `replay`, `stats`, `svg`.
//!
//! Every table access that may read a file runs off the async workers:
//! table questions run side by side on tokio's blocking pool (a first
//! use may load a table; concurrent questions do not wait for each
//! other), except a question the game answers from memory alone
//! ([`MillGame::resident`]), answered in place; questions that run a
//! placement search ([`MillGame::searches`]) take turns, one a game at a
//! time, at most [`QUEUE`] waiting (then `busy`). A request waits at most
//! the configured time (then a `timeout`; the work finishes in the
//! background, and a search keeps its table for the next one).

use super::{
    clip, json, params, position_param, quiet_plies_param, record_param, style, ApiError, AppState,
    BestParams, NoParams, ProbeParams, Query, ReplayParams, Shared,
};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use mill::games::{GameError, MillGame};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Placement searches of one game that may wait for the one running.
pub const QUEUE: usize = 4;

/// One game served under its API name, its directory (named in no
/// answer) and its one placement search at a time; with the same board
/// under the count rule when the server serves one
/// ([`GameState::with_count`]).
pub struct GameState {
    name: &'static str,
    game: Arc<dyn MillGame>,
    dir: PathBuf,
    search: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    wait: Duration,
    counted: Option<Box<GameState>>,
}

impl GameState {
    /// Serve `game` under its id, its tables in `dir`; a question waits
    /// at most `wait`.
    pub fn new(game: Arc<dyn MillGame>, dir: PathBuf, wait: Duration) -> GameState {
        GameState::named(game.id(), game, dir, wait)
    }

    /// Serve `game` as `/api/{name}/…` (`solver serve --no-flying` serves
    /// Nine Men's Morris without flying as `nine` too).
    pub fn named(
        name: &'static str,
        game: Arc<dyn MillGame>,
        dir: PathBuf,
        wait: Duration,
    ) -> GameState {
        GameState {
            name,
            game,
            dir,
            search: Arc::new(Semaphore::new(1)),
            waiting: Arc::new(AtomicUsize::new(0)),
            wait,
            counted: None,
        }
    }

    /// Also serve `counted`, the same board under a count rule (its
    /// tables in the same directory), for questions with `quiet_plies`.
    pub fn with_count(self, counted: Arc<dyn MillGame>) -> GameState {
        let rule = GameState::named(self.name, counted, self.dir.clone(), self.wait);
        GameState {
            counted: Some(Box::new(rule)),
            ..self
        }
    }

    /// The game under the count rule, or the 400 saying there is none.
    fn counted(&self) -> Result<&GameState, ApiError> {
        self.counted.as_deref().ok_or_else(|| {
            ApiError::bad_request(format!(
                "`quiet_plies`: this server serves {} without a count rule \
                 (start it with `solver serve --quiet-limit PLIES`)",
                self.game.title()
            ))
        })
    }

    /// The game.
    pub fn game(&self) -> &Arc<dyn MillGame> {
        &self.game
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let (status, kind) = match e {
            GameError::Input(_) | GameError::IllegalMove { .. } => {
                (StatusCode::BAD_REQUEST, "bad-request")
            }
            GameError::NoTables { .. } => (StatusCode::NOT_FOUND, "no-tables"),
            GameError::MissingTable { .. } => (StatusCode::NOT_FOUND, "missing-table"),
            GameError::Damaged(_) => (StatusCode::INTERNAL_SERVER_ERROR, "damaged-table"),
            GameError::Other(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        };
        ApiError {
            status,
            kind,
            message: e.to_string(),
        }
    }
}

/// What a request asks of a game.
#[derive(Clone, Copy)]
enum Ask {
    Show,
    Svg,
}

/// `GET /api/games`: every game of `state` with its `id`, `title`, the
/// `start` position of the game its tables cover, the point names in
/// `reading` order, `stones` a side, `flying`, and the count rule's
/// `quiet_limit` its `quiet_plies` questions are answered under (null
/// when the server serves it without one).
fn list(state: &AppState) -> serde_json::Value {
    state
        .games
        .iter()
        .map(|g| {
            let game = &g.game;
            let rules = game.rules();
            serde_json::json!({
                "id": g.name, "title": game.title(), "start": game.start(),
                "reading": game.reading(), "stones": rules.stones, "flying": rules.flying,
                "quiet_limit": g.counted.as_ref().and_then(|c| c.game.rules().quiet_limit),
            })
        })
        .collect()
}

/// The routes of every game of `state` (`/api/{id}/…`) and `/api/games`.
pub fn routes(state: &AppState) -> Router<Arc<AppState>> {
    let mut router = Router::new().route(
        "/api/games",
        get(|state: Shared, query: Query<NoParams>| async move {
            params(query)?;
            Ok::<_, ApiError>(json(list(&state)))
        }),
    );
    for (i, g) in state.games.iter().enumerate() {
        let id = g.name;
        router = router
            .route(
                &format!("/api/{id}/best"),
                get(move |state: Shared, query: Query<BestParams>| async move {
                    best(&state.games[i], query).await
                }),
            )
            .route(
                &format!("/api/{id}/replay"),
                get(
                    move |state: Shared, query: Query<ReplayParams>| async move {
                        replay(&state.games[i], query)
                    },
                ),
            );
        router = router.route(
            &format!("/api/{id}/probe"),
            get(move |state: Shared, query: Query<ProbeParams>| async move {
                probe(&state.games[i], query).await
            }),
        );
        for (path, ask) in [("show", Ask::Show), ("svg", Ask::Svg)] {
            router = router.route(
                &format!("/api/{id}/{path}"),
                get(move |state: Shared, query: Query| async move {
                    answer(&state.games[i], query, ask).await
                }),
            );
        }
        router = router.route(
            &format!("/api/{id}/stats"),
            get(move |state: Shared, query: Query<NoParams>| async move {
                params(query)?;
                stats(&state.games[i]).await
            }),
        );
    }
    router
}

/// A question of a position (the analysis, the perfect move) with what
/// else it asks, `T`.
type Work<T, R> = fn(&dyn MillGame, &str, &T) -> Result<R, GameError>;

/// Answer a question about `text`: in place when the game holds it in
/// memory, else on the blocking pool, a placement search in its turn.
async fn ask<T: Clone + Send + Sync + 'static, R: Send + 'static>(
    g: &GameState,
    text: String,
    extra: T,
    work: Work<T, R>,
) -> Result<R, ApiError> {
    let started = Instant::now();
    if g.game.resident(&text) {
        // Memory reads only (microseconds): no hand-off between threads.
        return work(g.game.as_ref(), &text, &extra).map_err(|e| g.error(e));
    }
    let (game, asked, more) = (g.game.clone(), text.clone(), extra.clone());
    let tables = blocking(g, started, move || {
        if game.searches(&asked) {
            return Ok(None);
        }
        work(game.as_ref(), &asked, &more).map(Some)
    })
    .await?;
    if let Some(answer) = tables {
        return Ok(answer);
    }
    // A placement search: one at a time, a few waiting.
    let waiting = Waiting::enter(&g.waiting).ok_or_else(|| {
        ApiError::busy(format!(
            "the {} placement search is busy with other positions; try again shortly",
            g.game.title()
        ))
    })?;
    let left = g.wait.saturating_sub(started.elapsed());
    let permit = tokio::time::timeout(left, g.search.clone().acquire_owned())
        .await
        .map_err(|_| g.timeout())?
        .map_err(|_| ApiError::internal("the game's search queue is closed"))?;
    drop(waiting);
    let game = g.game.clone();
    blocking(g, started, move || {
        let answer = work(game.as_ref(), &text, &extra);
        drop(permit);
        answer
    })
    .await
}

/// A place among the searches waiting for their turn, left when dropped
/// (also when the request gives up).
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn enter(count: &'a AtomicUsize) -> Option<Waiting<'a>> {
        let before = count.fetch_add(1, Ordering::SeqCst);
        if before >= QUEUE {
            count.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Waiting(count))
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Run `work` on the blocking pool, waiting until the game's limit after
/// `started` (then a `timeout`; the work finishes in the background).
async fn blocking<T: Send + 'static>(
    g: &GameState,
    started: Instant,
    work: impl FnOnce() -> Result<T, GameError> + Send + 'static,
) -> Result<T, ApiError> {
    let task = tokio::task::spawn_blocking(work);
    let left = g.wait.saturating_sub(started.elapsed());
    match tokio::time::timeout(left, task).await {
        Ok(Ok(answer)) => answer.map_err(|e| g.error(e)),
        Ok(Err(e)) => Err(ApiError::internal(format!("the table look-up failed: {e}"))),
        Err(_) => Err(g.timeout()),
    }
}

impl GameState {
    /// A game's error as the API's, naming no path of the server.
    fn error(&self, e: GameError) -> ApiError {
        ApiError::from(e).without_path(&self.dir)
    }

    fn timeout(&self) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            kind: "timeout",
            message: format!(
                "the {} question took longer than the server's limit of {} s \
                 (early placement positions may need the full tables and up to a minute)",
                self.game.title(),
                self.wait.as_secs()
            ),
        }
    }
}

async fn answer(g: &GameState, query: Query, ask_for: Ask) -> Result<Response, ApiError> {
    let params = params(query)?;
    let text = position_param(&params.position)?.to_string();
    match ask_for {
        // The rules alone: no tables, no waiting.
        Ask::Show => Ok(json(g.game.show(&text)?)),
        Ask::Svg => Ok((
            [(header::CONTENT_TYPE, "image/svg+xml")],
            g.game.svg(&text)?,
        )
            .into_response()),
    }
}

/// `probe`: the analysis of a position; with `quiet_plies`, under the
/// count rule after that many quiet plies, each value the rule changes
/// marked against the game without it (`label`, `plain_value`:
/// [`mill::games::count::mark`]).
async fn probe(g: &GameState, query: Query<ProbeParams>) -> Result<Response, ApiError> {
    let params = params(query)?;
    let text = position_param(&params.position)?.to_string();
    let Some(plies) = quiet_plies_param(&params.quiet_plies)? else {
        // Serialised straight into the body (no JSON tree per answer).
        return ask(g, text, (), |game, text, ()| game.analysis_text(text))
            .await
            .map(|body| ([(header::CONTENT_TYPE, "application/json")], body).into_response());
    };
    let rule = g.counted()?;
    let mut answer = ask(rule, text.clone(), plies, |game, text, plies| {
        game.analyse_at(text, *plies)
    })
    .await?;
    // Without the plain game's tables the rule's answer comes unmarked.
    if let Ok(plain) = ask(g, text, (), |game, text, ()| game.analyse(text)).await {
        mill::games::count::mark(&mut answer, &plain);
    }
    Ok(json(answer))
}

/// `best`: the perfect player's move in the style asked for
/// ([`MillGame::best_by`]: every style where the tables hold every value,
/// Six's and Lasker's; `fast` only where placement is searched,
/// Morabaraba's; another style there is a 400).
async fn best(g: &GameState, query: Query<BestParams>) -> Result<Response, ApiError> {
    let params = params(query)?;
    let (policy, seed) = style(&params)?;
    let text = position_param(&params.position)?.to_string();
    let (g, plies) = match quiet_plies_param(&params.quiet_plies)? {
        Some(plies) => (g.counted()?, plies),
        None => (g, 0),
    };
    ask(
        g,
        text,
        (policy, seed, plies),
        |game, text, (policy, seed, plies)| game.best_by_at(text, policy, *seed, *plies),
    )
    .await
    .map(json)
}

/// `replay`: the positions of a move list played from `position` by the
/// game's rules (see the Nine Men's Morris `replay`).
fn replay(g: &GameState, query: Query<ReplayParams>) -> Result<Response, ApiError> {
    let params = params(query)?;
    let mut pos = g.game.show(position_param(&params.position)?)?["position"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let moves = record_param("moves", &params.moves)?;
    let mut positions = vec![pos.clone()];
    let mut played = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        if text.len() > 20 {
            return Err(ApiError::bad_request(format!(
                "move {} `{}…` is not a move",
                i + 1,
                clip(text)
            )));
        }
        let (written, next) = g.game.play_move(&pos, text).map_err(|e| match e {
            GameError::IllegalMove { text, reason } => {
                ApiError::bad_request(format!("move {} `{}`: {reason}", i + 1, clip(&text)))
            }
            other => ApiError::bad_request(format!("move {}: {other}", i + 1)),
        })?;
        pos = next;
        positions.push(pos.clone());
        played.push(written);
    }
    Ok(json(
        serde_json::json!({"positions": positions, "moves": played}),
    ))
}

async fn stats(g: &GameState) -> Result<Response, ApiError> {
    let game = g.game.clone();
    blocking(g, Instant::now(), move || game.stats())
        .await
        .map(json)
}
