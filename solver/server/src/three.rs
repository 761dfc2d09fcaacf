//! `/api/three/*`: Three Men's Morris, solved in memory when the server
//! starts (a few milliseconds).

use super::{
    clip, json, params, position_param, record_param, style, ApiError, AppState, BestParams,
    NoParams, Query, ReplayParams, Shared,
};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use mill::duel;
use mill::games::three::report::{probe_json, solve_json};
use mill::games::three::solve::Solution;
use mill::games::three::Position;
use serde_json::json as object;
use std::sync::Arc;
use std::time::Instant;

/// The solution and how long it took.
pub struct ThreeState {
    solution: Solution,
    solve_ms: f64,
}

impl ThreeState {
    pub fn new() -> Result<ThreeState, String> {
        let started = Instant::now();
        let solution =
            Solution::solve().map_err(|e| format!("solving Three Men's Morris failed: {e}"))?;
        Ok(ThreeState {
            solution,
            solve_ms: started.elapsed().as_secs_f64() * 1e3,
        })
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

/// The routes of `/api/three`.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/three/probe", get(probe))
        .route("/api/three/best", get(best))
        .route("/api/three/replay", get(replay))
        .route("/api/three/stats", get(stats))
        .route("/api/three/svg", get(svg))
}

async fn probe(state: Shared, query: Query) -> Result<Response, ApiError> {
    let pos = parse(query)?;
    Ok(json(probe_json(&state.three.solution, &pos)))
}

/// `best`: the perfect player's move in the requested style (`policy`,
/// `seed`; `fast` is the first of the best moves).
async fn best(state: Shared, query: Query<BestParams>) -> Result<Response, ApiError> {
    let params = params(query)?;
    let (policy, seed) = style(&params)?;
    let pos = parse_text(position_param(&params.position)?)?;
    let sol = &state.three.solution;
    let game = duel::games::Three(sol);
    let choice = policy
        .pick(&game, &pos, &[], &mut duel::seeded(seed))
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let best = choice.map(|c| {
        object!({"move": c.mv.to_string(), "value": c.value.outcome().as_str(), "plies": c.value.distance()})
    });
    Ok(json(
        object!({"position": pos.to_string(), "best": best, "policy": policy.to_string()}),
    ))
}

/// `replay`: the positions of a move list played from `position` (see
/// the Nine Men's Morris `replay`).
async fn replay(query: Query<ReplayParams>) -> Result<Response, ApiError> {
    let params = params(query)?;
    let mut pos = parse_text(position_param(&params.position)?)?;
    let moves = record_param("moves", &params.moves)?;
    let mut positions = vec![pos.to_string()];
    let mut played = Vec::new();
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = mill::games::three::parse_move(&pos, text)
            .map_err(|e| ApiError::bad_request(format!("move {} `{}`: {e}", i + 1, clip(text))))?;
        pos = pos.play(m);
        positions.push(pos.to_string());
        played.push(m.to_string());
    }
    Ok(json(object!({"positions": positions, "moves": played})))
}

async fn stats(state: Shared, query: Query<NoParams>) -> Result<Response, ApiError> {
    params(query)?;
    Ok(json(solve_json(
        &state.three.solution,
        state.three.solve_ms,
    )))
}

async fn svg(query: Query) -> Result<Response, ApiError> {
    let pos = parse(query)?;
    Ok((
        [(header::CONTENT_TYPE, "image/svg+xml")],
        mill::rules::svg::three_svg(&pos),
    )
        .into_response())
}
