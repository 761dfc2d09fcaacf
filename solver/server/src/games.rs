//! `/api/{game}/*` for the mill games beyond Nine and Three Men's Morris
//! (Six Men's Morris, Lasker Morris, Morabaraba, and any board a caller
//! adds): each a [`MillGame`] of the library, whose JSON the answers are.
//! The paths and shapes are Nine's: `probe`, `best`, `show`, `stats`,
//! `svg`. Table work (a first use loads the tables, a Morabaraba placement
//! position runs the placement search) runs on tokio's blocking pool, one
//! question per game at a time, waiting at most the configured time.

use super::{
    clip, json, params, position_param, record_param, style, ApiError, AppState, BestParams,
    NoParams, Query, ReplayParams, Shared,
};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use mill::games::{GameError, MillGame};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// One game served, its directory (named in no answer) and its one
/// question at a time.
pub struct GameState {
    game: Arc<dyn MillGame>,
    dir: PathBuf,
    running: Arc<Semaphore>,
    wait: Duration,
}

impl GameState {
    /// Serve `game`, whose tables are in `dir`; a question waits at most
    /// `wait`.
    pub fn new(game: Arc<dyn MillGame>, dir: PathBuf, wait: Duration) -> GameState {
        GameState {
            game,
            dir,
            running: Arc::new(Semaphore::new(1)),
            wait,
        }
    }

    /// The game.
    pub fn game(&self) -> &Arc<dyn MillGame> {
        &self.game
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let (status, kind) = match e {
            GameError::Input(_) => (StatusCode::BAD_REQUEST, "bad-request"),
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
    Probe,
    Show,
    Svg,
}

/// `GET /api/games`: every game of `state` with its `id`, `title`, the
/// `start` position of the game its tables cover, the point names in
/// `reading` order, `stones` a side, `flying`.
fn list(state: &AppState) -> serde_json::Value {
    state
        .games
        .iter()
        .map(|g| {
            let game = &g.game;
            let rules = game.rules();
            serde_json::json!({
                "id": game.id(), "title": game.title(), "start": game.start(),
                "reading": game.reading(), "stones": rules.stones, "flying": rules.flying,
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
        let id = g.game.id();
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
        for (path, ask) in [
            ("probe", Ask::Probe),
            ("show", Ask::Show),
            ("svg", Ask::Svg),
        ] {
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

/// Run `work` on the blocking pool, one at a time per game, waiting at
/// most the game's limit (then a `timeout`; the work finishes in the
/// background).
async fn run<T: Send + 'static>(
    g: &GameState,
    work: impl FnOnce(&dyn MillGame) -> Result<T, GameError> + Send + 'static,
) -> Result<T, ApiError> {
    let timeout = || ApiError {
        status: StatusCode::SERVICE_UNAVAILABLE,
        kind: "timeout",
        message: format!(
            "the {} question took longer than the server's limit of {} s",
            g.game.title(),
            g.wait.as_secs()
        ),
    };
    let permit = tokio::time::timeout(g.wait, g.running.clone().acquire_owned())
        .await
        .map_err(|_| {
            ApiError::busy(format!(
                "{} is busy with other positions; try again shortly",
                g.game.title()
            ))
        })?
        .map_err(|_| ApiError::internal("the game's queue is closed"))?;
    let game = g.game.clone();
    let task = tokio::task::spawn_blocking(move || {
        let answer = work(game.as_ref());
        drop(permit);
        answer
    });
    match tokio::time::timeout(g.wait, task).await {
        Ok(Ok(answer)) => answer.map_err(|e| ApiError::from(e).without_path(&g.dir)),
        Ok(Err(e)) => Err(ApiError::internal(format!("the table look-up failed: {e}"))),
        Err(_) => Err(timeout()),
    }
}

async fn answer(g: &GameState, query: Query, ask: Ask) -> Result<Response, ApiError> {
    let params = params(query)?;
    let text = position_param(&params.position)?.to_string();
    match ask {
        // The rules alone: no tables, no waiting.
        Ask::Show => Ok(json(g.game.show(&text)?)),
        Ask::Svg => Ok((
            [(header::CONTENT_TYPE, "image/svg+xml")],
            g.game.svg(&text)?,
        )
            .into_response()),
        Ask::Probe => run(g, move |game| game.analyse(&text)).await.map(json),
    }
}

/// `best`: the perfect player's move in the style asked for
/// ([`MillGame::best_by`]: every style where the tables hold every value,
/// Six's and Lasker's; `fast` only where placement is searched,
/// Morabaraba's; another style there is a 400).
async fn best(g: &GameState, query: Query<BestParams>) -> Result<Response, ApiError> {
    let params = params(query)?;
    let (policy, seed) = style(&params)?;
    let text = position_param(&params.position)?.to_string();
    run(g, move |game| game.best_by(&text, &policy, seed))
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
        pos = g
            .game
            .play(&pos, text)
            .map_err(|e| ApiError::bad_request(format!("move {}: {e}", i + 1)))?;
        positions.push(pos.clone());
        played.push(text.to_string());
    }
    Ok(json(
        serde_json::json!({"positions": positions, "moves": played}),
    ))
}

async fn stats(g: &GameState) -> Result<Response, ApiError> {
    run(g, |game| game.stats()).await.map(json)
}
