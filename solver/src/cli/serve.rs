//! `solver serve`: the web board and the JSON API (see `docs/api.md`).

use super::nine_tb::TableArgs;
use super::CliError;
use super::CliResult;
use server::{run, Config, TableMemory};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `solver serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub tables: TableArgs,
    /// Six Men's Morris tables (`solver six generate`'s directory).
    #[arg(long, default_value = "six-tables")]
    pub six_dir: PathBuf,
    /// Lasker Morris tables (`solver lasker generate --stones K`): the
    /// largest game whose sectors are all there is served.
    #[arg(long, default_value = "lasker-tables")]
    pub lasker_dir: PathBuf,
    /// Morabaraba moving-phase tables (`solver morabaraba generate
    /// --stones N`): the largest N-stone game whose subspaces are all
    /// there is served, its placement by search (its outcomes held in
    /// memory once used: 4.3 GB for N = 12).
    #[arg(long, default_value = "morabaraba-tables")]
    pub morabaraba_dir: PathBuf,
    /// Address to listen on. The default is loopback only; give e.g.
    /// 0.0.0.0:8080 to let other machines in (there is no authentication).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// How much of each table to keep in memory once first used: `mapped`
    /// (least memory), `outcomes` (2.2 GB for all 49 subspaces; fast
    /// placement searches, as `nine probe`) or `values` (about 9 GB for all
    /// 49, and 4.5 GB for all 455 placement sectors' outcomes; the fastest
    /// probes).
    #[arg(long, value_enum, default_value = "outcomes")]
    pub memory: TableMemory,
    /// Transposition table of the placement search, at most this many MiB.
    #[arg(long, default_value_t = 256)]
    pub hash_mib: u64,
    /// Placement search threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Longest a request waits for a placement search (Nine Men's Morris,
    /// Morabaraba) or a game's tables to load, in seconds (then it gets a `timeout` error; the search finishes in the
    /// background).
    #[arg(long, default_value_t = 60)]
    pub search_seconds: u64,
    /// Longest Toguz Kumalak search a request may ask for, in seconds.
    #[arg(long, default_value_t = 10.0)]
    pub toguz_max_time: f64,
    /// Toguz Kumalak searches at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub toguz_searches: Option<u16>,
    /// Seconds a client may take to send a request's head, and that an
    /// idle keep-alive connection stays open; then it is closed.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout: u64,
    /// Connections served at once (more wait until one closes).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub max_connections: u32,
    /// Connections one client address may hold at once; a further one
    /// from it is closed (so that one client cannot take every slot).
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub max_client_connections: u32,
    /// Also answer requests whose `Host` is NAME (any port) or NAME:PORT,
    /// e.g. a reverse proxy's name; repeatable. Without it only localhost,
    /// 127.0.0.1, [::1] and the listening address are answered (against
    /// DNS rebinding).
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
}

/// `solver serve`.
pub fn serve(args: Args) -> CliResult {
    if !(args.toguz_max_time.is_finite()
        && args.toguz_max_time > 0.0
        && args.toguz_max_time <= 3600.0)
    {
        return Err(CliError::from(
            "--toguz-max-time must be more than 0 and at most 3600 seconds",
        ));
    }
    if !(1..=3600).contains(&args.search_seconds) {
        return Err(CliError::from("--search-seconds must be 1..3600"));
    }
    let mut config = Config {
        dir: args.tables.dir.clone(),
        six_dir: args.six_dir.clone(),
        lasker_dir: args.lasker_dir.clone(),
        morabaraba_dir: args.morabaraba_dir.clone(),
        rules: args.tables.rules().with_quiet_limit(None),
        quiet_limit: args.tables.quiet_limit,
        memory: args.memory,
        placement_wait: Duration::from_secs(args.search_seconds),
        toguz_max_time: Duration::from_secs_f64(args.toguz_max_time),
        header_timeout: Duration::from_secs(args.header_timeout),
        max_connections: args.max_connections as usize,
        max_client_connections: args.max_client_connections as usize,
        allow_hosts: args.allow_hosts.clone(),
        ..Config::default()
    };
    config.search.hash_mib = args.hash_mib.clamp(1, 1 << 16);
    if let Some(t) = args.threads {
        config.search.threads = usize::from(t);
    }
    if let Some(n) = args.toguz_searches {
        config.toguz_searches = usize::from(n);
    }
    if !config.dir.is_dir() {
        eprintln!(
            "note: no tablebase directory {}: Nine Men's Morris answers will say so \
             (run `solver nine generate` first)",
            config.dir.display()
        );
    }
    run(args.addr, &config).map_err(CliError::Server)
}
