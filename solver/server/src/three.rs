//! `/api/three/*`: Three Men's Morris, solved in memory when the server
//! starts (a few milliseconds).

use super::{json, params, position_param, ApiError, AppState, NoParams, Query, Shared};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use mill::three::report::{probe_json, solve_json};
use mill::three::solve::Solution;
use mill::three::Position;
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
    position_param(&params.position)?
        .parse()
        .map_err(|e| ApiError::bad_request(format!("bad position: {e}")))
}

/// The routes of `/api/three`.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/three/probe", get(probe))
        .route("/api/three/best", get(best))
        .route("/api/three/stats", get(stats))
        .route("/api/three/svg", get(svg))
}

async fn probe(state: Shared, query: Query) -> Result<Response, ApiError> {
    let pos = parse(query)?;
    Ok(json(probe_json(&state.three.solution, &pos)))
}

async fn best(state: Shared, query: Query) -> Result<Response, ApiError> {
    let pos = parse(query)?;
    let sol = &state.three.solution;
    let best = sol.moves(&pos).first().map(|(m, v)| {
        object!({"move": m.to_string(), "value": v.outcome().as_str(), "plies": v.distance()})
    });
    Ok(json(object!({"position": pos.to_string(), "best": best})))
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
        mill::svg::three_svg(&pos),
    )
        .into_response())
}
