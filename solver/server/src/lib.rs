//! `solver serve`: the web board and the JSON API over HTTP (axum on
//! tokio). The server owns no game logic: every answer comes from the same
//! library functions as the CLI's `--json` (`mill::games::MillGame` for
//! every mill board, `toguz::report`), so the API and the command line
//! cannot disagree.
//!
//! Safe by default: it binds to loopback unless told otherwise, answers
//! only GET requests with bounded URIs, validates every parameter, takes no
//! file path from a request, opens the tables read-only, runs at most one
//! placement search a game and a bounded number of Toguz
//! searches at a time, and caps every search's time. See `docs/api.md`.

mod assets;
mod error;
mod games;
mod toguz;

pub use error::ApiError;
pub use games::{GameState, QUEUE};

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use mill::duel::Policy;
use mill::games::MillGame;
use mill::probe::analysis::SearchOptions;
use mill::rules::variant::RuleSet;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Longest accepted request URI (path and query), in bytes.
pub const MAX_URI: usize = 2048;
/// Longest accepted position text, in bytes.
pub const MAX_POSITION: usize = 256;

/// How the server is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// Nine Men's Morris tablebase directory (opened read-only; the Nine
    /// Men's Morris API says plainly when it or a table is missing). Both
    /// rule sets' tables may be in it: `/api/nine` serves [`Config::rules`],
    /// `/api/nine-noflying` the game without flying.
    pub dir: PathBuf,
    /// Six Men's Morris tables (`solver six generate`).
    pub six_dir: PathBuf,
    /// Lasker Morris tables (`solver lasker generate --stones K`).
    pub lasker_dir: PathBuf,
    /// Morabaraba moving-phase tables (`solver morabaraba generate
    /// --stones K`).
    pub morabaraba_dir: PathBuf,
    /// The Nine Men's Morris rule set (without a count rule: that is
    /// [`Config::quiet_limit`]).
    pub rules: RuleSet,
    /// Also serve every mill board's tables under the count rule of this
    /// many plies (`generate --quiet-limit`, in the same directories),
    /// asked for by a `quiet_plies` parameter (`docs/api.md`).
    pub quiet_limit: Option<u16>,
    /// How much of each table is kept in memory once first used.
    pub memory: TableMemory,
    /// The placement search behind Nine Men's Morris and Morabaraba
    /// placement positions.
    pub search: SearchOptions,
    /// Longest a request waits for a placement search (the search itself
    /// finishes in the background and keeps its table for the next one).
    pub placement_wait: Duration,
    /// Longest Toguz Kumalak search a request may ask for.
    pub toguz_max_time: Duration,
    /// Toguz Kumalak searches running at once (each on one thread).
    pub toguz_searches: usize,
    /// Transposition table of each Toguz search, MiB.
    pub toguz_hash_mib: usize,
    /// Longest a client may take to send a request's head (the request
    /// line and headers), and longest an idle keep-alive connection stays
    /// open waiting for its next request; then the server closes it.
    pub header_timeout: Duration,
    /// Connections served at once; further ones wait in the listen queue
    /// until one closes.
    pub max_connections: usize,
    /// Connections one client address may hold at once (fairness: one
    /// client cannot take every slot); a further connection from it is
    /// closed at once.
    pub max_client_connections: usize,
    /// `Host` names answered besides the defaults (see [`HostCheck`]):
    /// `name` (any port) or `name:port`, e.g. the name of a reverse proxy.
    pub allow_hosts: Vec<String>,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Config {
            dir: PathBuf::from("tablebases"),
            six_dir: PathBuf::from("six-tables"),
            lasker_dir: PathBuf::from("lasker-tables"),
            morabaraba_dir: PathBuf::from("morabaraba-tables"),
            rules: RuleSet::nine(true),
            quiet_limit: None,
            memory: TableMemory::Outcomes,
            search: SearchOptions {
                hash_mib: 256,
                threads: cores,
            },
            placement_wait: Duration::from_secs(60),
            toguz_max_time: Duration::from_secs(10),
            toguz_searches: cores,
            toguz_hash_mib: 16,
            header_timeout: Duration::from_secs(10),
            max_connections: 256,
            max_client_connections: 128,
            allow_hosts: Vec::new(),
        }
    }
}

/// How much of each Nine Men's Morris table the server keeps in memory
/// (each table is loaded on first use).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableMemory {
    /// Memory-mapped files and their block caches only: least memory,
    /// slowest placement searches.
    Mapped,
    /// Two-bit outcomes whole (2.2 GB for all 49 subspaces), for the
    /// placement search, as `solver nine probe`; distances from the files.
    Outcomes,
    /// Whole tables with distances (about 9 GB for all 49), and the
    /// placement sectors' outcomes (two bits a position: 4.5 GB for all
    /// 455): the fastest probes.
    Values,
}

impl From<TableMemory> for mill::probe::nine::Residency {
    fn from(m: TableMemory) -> mill::probe::nine::Residency {
        use mill::probe::nine::Residency;
        match m {
            TableMemory::Mapped => Residency::Mapped,
            TableMemory::Outcomes => Residency::Outcomes,
            TableMemory::Values => Residency::Values,
        }
    }
}

/// Everything the handlers share.
pub struct AppState {
    /// Every mill game, Nine's two rule sets first, Three Men's Morris last.
    games: Vec<GameState>,
    toguz: toguz::ToguzState,
    header_timeout: Duration,
    max_connections: usize,
    max_client_connections: usize,
    allow_hosts: Vec<String>,
}

impl AppState {
    /// Open the tables (lazily: a missing directory is reported by the
    /// Nine Men's Morris API, not here), solve Three Men's Morris (a few
    /// milliseconds) and start the placement search worker.
    pub fn new(config: &Config) -> Result<Arc<AppState>, String> {
        let board = |id: &str, dir: &PathBuf| -> Result<GameState, String> {
            let open = |limit| {
                mill::games::open_with(id, dir, config.search, limit)
                    .map_err(|e| e.to_string())?
                    .map(Arc::from)
                    .ok_or_else(|| format!("no game `{id}`"))
            };
            let game = GameState::new(open(None)?, dir.clone(), config.placement_wait);
            Ok(match config.quiet_limit {
                Some(limit) => game.with_count(open(Some(limit))?),
                None => game,
            })
        };
        let games = vec![
            board("six", &config.six_dir)?,
            board("lasker", &config.lasker_dir)?,
            board("morabaraba", &config.morabaraba_dir)?,
        ];
        AppState::with_games(config, games)
    }

    /// The state with `games` as the mill games beyond Nine and Three
    /// Men's Morris (`/api/{id}/…` each; a board defined as data is served
    /// this way): Nine's two rule sets first, then `games`, then Three.
    pub fn with_games(config: &Config, games: Vec<GameState>) -> Result<Arc<AppState>, String> {
        let nine = |name, rules: RuleSet| {
            let open = |limit| {
                Arc::new(mill::games::NineGame::open(
                    &config.dir,
                    rules.with_quiet_limit(limit),
                    config.search,
                    config.memory.into(),
                ))
            };
            let game =
                GameState::named(name, open(None), config.dir.clone(), config.placement_wait);
            match config.quiet_limit {
                Some(limit) => game.with_count(open(Some(limit))),
                None => game,
            }
        };
        let mut all = vec![
            nine("nine", config.rules),
            nine("nine-noflying", RuleSet::nine(false)),
        ];
        all.extend(games);
        // Solved now (a few milliseconds), so that every question of it is
        // answered from memory.
        let three = mill::games::ThreeGame::new();
        three.stats().map_err(|e| e.to_string())?;
        let three = GameState::new(Arc::new(three), PathBuf::new(), config.placement_wait);
        all.push(match config.quiet_limit {
            Some(limit) => {
                let counted = mill::games::ThreeGame::with_quiet_limit(limit);
                counted
                    .analyse("......... w 3 3")
                    .map_err(|e| e.to_string())?;
                three.with_count(Arc::new(counted))
            }
            None => three,
        });
        Ok(Arc::new(AppState {
            games: all,
            toguz: toguz::ToguzState::new(config),
            header_timeout: config.header_timeout,
            max_connections: config.max_connections.max(1),
            max_client_connections: config.max_client_connections.max(1),
            allow_hosts: config.allow_hosts.clone(),
        }))
    }
}

/// The router: the web app, the API, JSON errors for anything else; every
/// request's `Host` checked against `hosts`, every answer with the
/// security headers.
pub fn router(state: Arc<AppState>, hosts: HostCheck) -> Router {
    Router::new()
        .merge(assets::routes())
        .merge(games::routes(&state))
        .merge(toguz::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(Arc::new(hosts), guard))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        kind: "not-found",
        message: "no such page or API path (see docs/api.md)".into(),
    }
}

async fn method_not_allowed() -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        kind: "method-not-allowed",
        message: "the server is read-only: only GET is answered".into(),
    }
}

/// The page's Content Security Policy: its own script, style, pictures
/// and API only (no inline script or style, no plug-ins), and no framing
/// by other sites.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; \
    form-action 'none'; frame-ancestors 'none'";

/// Headers on every answer.
const SECURITY_HEADERS: [(header::HeaderName, &str); 6] = [
    (header::CONTENT_SECURITY_POLICY, CSP),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::REFERRER_POLICY, "no-referrer"),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (
        header::HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin",
    ),
    (
        header::HeaderName::from_static("cross-origin-resource-policy"),
        "same-origin",
    ),
];

/// Refuse other hosts' names and long URIs before any handler runs; add
/// the security headers to every answer.
async fn guard(State(hosts): State<Arc<HostCheck>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_owned)
        .or_else(|| request.uri().authority().map(|a| a.to_string()));
    let len = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    let mut response = if !host.as_deref().is_some_and(|h| hosts.allows(h)) {
        ApiError {
            status: StatusCode::FORBIDDEN,
            kind: "bad-host",
            message: match host {
                Some(_) => {
                    "this server does not answer to that host name (see `--allow-host`)".into()
                }
                None => "a Host header is required".into(),
            },
        }
        .into_response()
    } else if len > MAX_URI {
        ApiError {
            status: StatusCode::URI_TOO_LONG,
            kind: "too-long",
            message: format!("the request URI is longer than {MAX_URI} bytes"),
        }
        .into_response()
    } else {
        next.run(request).await
    };
    for (name, value) in SECURITY_HEADERS {
        response
            .headers_mut()
            .insert(name, header::HeaderValue::from_static(value));
    }
    response
}

/// Which `Host` headers the server answers, against DNS rebinding (a page
/// of another site whose name is made to resolve to this machine must not
/// reach the API): `localhost`, `127.0.0.1` and `[::1]` with the server's
/// port (or without one when it is 80); the listening address itself when
/// it is not loopback; any IP address when listening on all of them
/// (`0.0.0.0` or `::`: an address is not a name that can be rebound); and
/// the names of [`Config::allow_hosts`] (`name` with any port, or
/// `name:port`).
#[derive(Clone, Debug)]
pub struct HostCheck {
    port: u16,
    names: Vec<String>,
    any_address: bool,
    extra: Vec<(String, Option<u16>)>,
}

impl HostCheck {
    /// The check for a server listening on `local`, with `allow` added.
    pub fn new(local: SocketAddr, allow: &[String]) -> HostCheck {
        let mut names = vec!["localhost".to_string(), "127.0.0.1".into(), "[::1]".into()];
        let ip = local.ip();
        if !ip.is_unspecified() && !ip.is_loopback() {
            names.push(match ip {
                IpAddr::V4(v4) => v4.to_string(),
                IpAddr::V6(v6) => format!("[{v6}]"),
            });
        }
        let extra = allow
            .iter()
            .filter_map(|h| split_host(&h.trim().to_ascii_lowercase()))
            .collect();
        HostCheck {
            port: local.port(),
            names,
            any_address: ip.is_unspecified(),
            extra,
        }
    }

    /// Whether a request with this `Host` header is answered.
    pub fn allows(&self, host: &str) -> bool {
        let Some((name, port)) = split_host(&host.trim().to_ascii_lowercase()) else {
            return false;
        };
        if self
            .extra
            .iter()
            .any(|(n, p)| *n == name && (p.is_none() || *p == port))
        {
            return true;
        }
        if port.unwrap_or(80) != self.port {
            return false;
        }
        let address = name.parse::<std::net::Ipv4Addr>().is_ok()
            || name
                .strip_prefix('[')
                .and_then(|n| n.strip_suffix(']'))
                .is_some_and(|n| n.parse::<std::net::Ipv6Addr>().is_ok());
        self.names.contains(&name) || (self.any_address && address)
    }
}

/// `name[:port]` or `[v6]:port` as the name and the port; `None` when the
/// port is not a number.
fn split_host(host: &str) -> Option<(String, Option<u16>)> {
    let (name, port) = if host.starts_with('[') {
        let end = host.find(']')?;
        let rest = &host[end + 1..];
        let port = match rest.strip_prefix(':') {
            Some(p) => Some(p),
            None if rest.is_empty() => None,
            None => return None,
        };
        (&host[..=end], port)
    } else {
        match host.rsplit_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (host, None),
        }
    };
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    (!name.is_empty()).then(|| (name.to_string(), port))
}

/// The connections each client address holds now, for the per-client cap.
struct Clients {
    limit: usize,
    open: std::sync::Mutex<std::collections::HashMap<IpAddr, usize>>,
}

/// One connection of a client address; counted until dropped.
struct ClientSlot {
    clients: Arc<Clients>,
    ip: IpAddr,
}

impl Clients {
    /// A slot for a connection from `ip`, or `None` when that address
    /// already holds `limit` connections.
    fn enter(self: &Arc<Clients>, ip: IpAddr) -> Option<ClientSlot> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(ip).or_insert(0);
        if *n >= self.limit {
            return None;
        }
        *n += 1;
        Some(ClientSlot {
            clients: self.clone(),
            ip,
        })
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut open = self.clients.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// Largest read buffer of a connection (the request head must fit).
const MAX_BUFFER: usize = 64 * 1024;

/// Serve on a bound listener until the process ends.
///
/// hyper's HTTP/1.1 connection does the protocol; the server sets its
/// limits: `header_timeout` (hyper's header read timeout, which also runs
/// while a keep-alive connection waits for its next request, so it closes
/// both half-sent requests and idle connections), a bounded read buffer,
/// and at most `max_connections` connections at once (a semaphore permit
/// is taken before each accept, so further clients wait in the kernel's
/// listen queue); a client address that already holds
/// `max_client_connections` has a further connection closed at once, so
/// that one client cannot take every slot.
pub async fn serve(listener: tokio::net::TcpListener, state: Arc<AppState>) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(state.max_connections));
    let clients = Arc::new(Clients {
        limit: state.max_client_connections,
        open: Default::default(),
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(state.header_timeout)
        .max_buf_size(MAX_BUFFER)
        .keep_alive(true);
    let hosts = HostCheck::new(listener.local_addr()?, &state.allow_hosts);
    let app = router(state, hosts);
    loop {
        let Ok(permit) = slots.clone().acquire_owned().await else {
            return Ok(()); // never closed
        };
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors and the like: wait, do not spin.
                eprintln!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Some(client) = clients.enter(peer.ip()) else {
            drop(stream); // this client holds its share of the slots
            continue;
        };
        let _ = stream.set_nodelay(true);
        let connection =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        tokio::spawn(async move {
            // Errors here are the client's (reset, timeout): nothing to do.
            let _ = connection.await;
            drop(client);
            drop(permit);
        });
    }
}

/// Bind `addr`, print the address, serve (blocking; for `solver serve`).
pub fn run(addr: SocketAddr, config: &Config) -> Result<(), String> {
    let state = AppState::new(config)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server runtime: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        println!("serving the web board on http://{local}/ (Ctrl-C stops)");
        if !local.ip().is_loopback() {
            eprintln!("warning: listening on {local}, reachable from other machines");
        }
        serve(listener, state).await.map_err(|e| e.to_string())
    })
}

/// The `position` parameter: present, not too long.
fn position_param(position: &Option<String>) -> Result<&str, ApiError> {
    let text = position
        .as_deref()
        .ok_or_else(|| ApiError::bad_request("missing parameter `position`"))?;
    if text.len() > MAX_POSITION {
        return Err(ApiError::bad_request(format!(
            "`position` is longer than {MAX_POSITION} bytes"
        )));
    }
    Ok(text.trim())
}

/// The query of the paths that take a position: `position` only.
#[derive(serde::Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct PositionParams {
    /// A position in the game's text format (URL-encoded).
    position: Option<String>,
}

/// The query of `/api/toguz/search`: `position`, `time` and `multipv`.
#[derive(serde::Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct SearchParams {
    /// A position in the game's text format (URL-encoded).
    position: Option<String>,
    /// Search time in seconds.
    time: Option<String>,
    /// Root moves to score: 1..9 or `all` (default 1).
    multipv: Option<String>,
}

/// The query of `/api/toguz/review`: the game's moves (`record`, PlayOK
/// movetext), its start `position` (default the start) and the search
/// `time` per position.
#[derive(serde::Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct ReviewParams {
    /// The moves: a PlayOK record's movetext (tags allowed).
    record: Option<String>,
    /// The position the moves start from (default: the start).
    position: Option<String>,
    /// Search time per position, seconds.
    time: Option<String>,
}

/// The query of `/api/toguz/replay`: `record` and `position` as in
/// [`ReviewParams`].
#[derive(serde::Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct RecordParams {
    /// The moves: a PlayOK record's movetext (tags allowed).
    record: Option<String>,
    /// The position the moves start from (default: the start).
    position: Option<String>,
}

/// The query of `best`: `position`, and the perfect player's style
/// (`policy`, `seed`); `quiet_plies` asks under the count rule.
#[derive(serde::Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct BestParams {
    /// A position in the game's text format (URL-encoded).
    position: Option<String>,
    /// `fast`, `random` or `ultra` (docs/policies.md).
    policy: Option<String>,
    /// Seed of `random` and `ultra`'s choice among equal moves.
    seed: Option<String>,
    /// Quiet plies played (the count rule's tables answer).
    quiet_plies: Option<String>,
}

/// The query of a mill game's `probe`: `position`; `quiet_plies` asks
/// under the count rule (`solver serve --quiet-limit`).
#[derive(serde::Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct ProbeParams {
    /// A position in the game's text format (URL-encoded).
    position: Option<String>,
    /// Quiet plies played since the last removal or placement.
    quiet_plies: Option<String>,
}

/// The `quiet_plies` parameter: absent (no count rule asked for), or a
/// whole number of plies (whether it fits the rule's limit is the game's
/// question).
fn quiet_plies_param(value: &Option<String>) -> Result<Option<u16>, ApiError> {
    value
        .as_deref()
        .map(|s| {
            s.trim().parse::<u16>().map_err(|_| {
                ApiError::bad_request(format!(
                    "`quiet_plies` must be a whole number of plies from 0 to {} (got `{}`)",
                    u16::MAX,
                    clip(s)
                ))
            })
        })
        .transpose()
}

/// The query of `replay`: a start `position` and the `moves` played from it.
#[derive(serde::Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct ReplayParams {
    /// The start position (URL-encoded).
    position: Option<String>,
    /// Moves separated by spaces, in the game's notation.
    moves: Option<String>,
}

/// Longest accepted move list or game record, in bytes (the URI limit
/// bounds it anyway).
pub const MAX_RECORD: usize = 2000;

/// A record parameter (`moves`, `record`): present, not too long.
fn record_param<'a>(name: &str, value: &'a Option<String>) -> Result<&'a str, ApiError> {
    let text = value
        .as_deref()
        .ok_or_else(|| ApiError::bad_request(format!("missing parameter `{name}`")))?;
    if text.len() > MAX_RECORD {
        return Err(ApiError::bad_request(format!(
            "`{name}` is longer than {MAX_RECORD} bytes"
        )));
    }
    Ok(text)
}

/// The perfect player's style of a `best` request: `policy` (`fast`, the
/// default; `random`; `ultra`) and its `seed` (default 0). Any other value
/// is a 400.
fn style(params: &BestParams) -> Result<(Policy, u64), ApiError> {
    let policy = match params.policy.as_deref().map(str::trim) {
        None | Some("fast") => Policy::Fast,
        Some("random") => Policy::Random,
        Some("ultra") => Policy::Ultra(Default::default()),
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "`policy` must be fast, random or ultra (got `{}`)",
                other.chars().take(40).collect::<String>()
            )))
        }
    };
    let seed = match params.seed.as_deref().map(str::trim) {
        None => 0,
        Some(s) => s.parse::<u64>().map_err(|_| {
            ApiError::bad_request(format!(
                "`seed` must be a whole number from 0 to {} (got `{}`)",
                u64::MAX,
                s.chars().take(40).collect::<String>()
            ))
        })?,
    };
    Ok((policy, seed))
}

/// At most 40 characters of a user's text, for an error message.
fn clip(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The query of the paths without parameters: none.
#[derive(serde::Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct NoParams {}

/// Query extraction with a JSON error (an unknown or repeated parameter
/// is a 400).
type Query<T = PositionParams> =
    Result<axum::extract::Query<T>, axum::extract::rejection::QueryRejection>;

fn params<T>(query: Query<T>) -> Result<T, ApiError> {
    query
        .map(|q| q.0)
        .map_err(|e| ApiError::bad_request(e.body_text()))
}

/// A JSON answer.
fn json(value: serde_json::Value) -> Response {
    axum::Json(value).into_response()
}

type Shared = State<Arc<AppState>>;

#[cfg(test)]
mod tests {
    use super::HostCheck;

    #[test]
    fn loopback_answers_its_own_names_only() {
        let check = HostCheck::new("127.0.0.1:8080".parse().unwrap(), &[]);
        for ok in [
            "localhost:8080",
            "127.0.0.1:8080",
            "[::1]:8080",
            "LocalHost:8080",
        ] {
            assert!(check.allows(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "localhost:8081",
            "localhost",
            "127.0.0.1",
            "localhost.evil.example:8080",
            "10.0.0.1:8080",
            "",
            "localhost:x",
            "[::1]x",
        ] {
            assert!(!check.allows(bad), "{bad}");
        }
        let on_80 = HostCheck::new("[::1]:80".parse().unwrap(), &[]);
        assert!(on_80.allows("localhost") && on_80.allows("[::1]:80"));
    }

    #[test]
    fn other_addresses_and_allowed_names() {
        let lan = HostCheck::new(
            "192.168.1.5:8080".parse().unwrap(),
            &["Board.Example".into()],
        );
        assert!(lan.allows("192.168.1.5:8080"));
        assert!(lan.allows("localhost:8080"));
        assert!(!lan.allows("192.168.1.6:8080"));
        assert!(!lan.allows("evil.example:8080"));
        assert!(lan.allows("board.example") && lan.allows("board.example:443"));
        let all = HostCheck::new(
            "0.0.0.0:8080".parse().unwrap(),
            &["proxy.example:8443".into()],
        );
        assert!(all.allows("10.1.2.3:8080") && all.allows("[fe80::1]:8080"));
        assert!(!all.allows("10.1.2.3:9090"));
        assert!(!all.allows("evil.example:8080"));
        assert!(all.allows("proxy.example:8443") && !all.allows("proxy.example:8080"));
        let v6 = HostCheck::new("[2001:db8::7]:8080".parse().unwrap(), &[]);
        assert!(v6.allows("[2001:db8::7]:8080") && !v6.allows("[2001:db8::8]:8080"));
    }
}
