//! Load on `solver serve` over loopback: 64 concurrent keep-alive clients
//! send Nine Men's Morris probes of random moving-phase positions to the
//! release binary; every answer must be a 200 with the position's analysis,
//! and the server's resident memory must stay flat. The default suite runs
//! a short load (6,400 probes); the full one (100,000 probes, figures for
//! `docs/results.md`) is ignored by default: `scripts/load-test.sh`.

mod web;

use mill::index::nine::{self, Subspace};
use mill::rules::board::Nine;
use mill::rules::position::{Color, Position};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Instant;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

const CLIENTS: usize = 64;

/// Kills the server it holds when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Server {
    /// CPU seconds the server process has used (user and system).
    fn cpu_seconds(&self) -> f64 {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.0.id())).unwrap_or_default();
        // Fields after the command name in parentheses: utime is the 14th
        // field, stime the 15th, in clock ticks (100 a second on Linux).
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        let f: Vec<f64> = rest
            .split_whitespace()
            .map(|x| x.parse().unwrap_or(0.0))
            .collect();
        if f.len() < 13 {
            return 0.0;
        }
        (f[11] + f[12]) / 100.0
    }

    /// Resident memory of the server process, KiB.
    fn rss_kib(&self) -> u64 {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.0.id())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }
}

/// `solver serve` on an ephemeral loopback port; the server and its address.
fn serve(dir: &std::path::Path, memory: &str) -> (Server, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--memory",
            memory,
            "--dir",
        ])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start solver serve");
    let stdout = child.stdout.take().unwrap();
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in `{line}`"))
        .to_string();
    (server, addr)
}

/// Random legal moving-phase positions of the generated subspaces (at most
/// 7 stones), either side to move, in random orientations.
fn positions(n: usize) -> Vec<Position> {
    let mut state = 0x5EED_1234_ABCD_0001u64;
    let mut next = |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    let subs = [
        Subspace::new(3, 3),
        Subspace::new(3, 4),
        Subspace::new(4, 3),
    ];
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let sub = subs[next(3) as usize];
        if let Some((us, them)) = nine::position(sub, next(nine::size(sub))) {
            let side = if next(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            out.push(Position::from_mover(us, them, side).transform::<Nine>(next(16) as usize));
        }
    }
    out
}

/// Figures of one run.
struct Figures {
    seconds: f64,
    latencies_us: Vec<u64>,
    rss_before: u64,
    rss_after: u64,
    server_cpu: f64,
    memory: &'static str,
}

fn load(total: usize, memory: &'static str) -> Figures {
    let dir = web::tables(7);
    let (server, addr) = serve(dir, memory);
    let targets: Vec<(String, String)> = positions(1000)
        .iter()
        .map(|p| {
            let text = p.to_string();
            let request = format!(
                "GET /api/nine/probe?position={} HTTP/1.1\r\nHost: {addr}\r\n\r\n",
                web::encode(&text)
            );
            (request, text)
        })
        .collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // Warm the tables: every position once.
    runtime.block_on(client(&addr, &targets, 0, targets.len(), 1));
    let rss_before = server.rss_kib();
    let cpu_before = server.cpu_seconds();
    let started = Instant::now();
    let mut latencies_us = runtime.block_on(async {
        let mut tasks = Vec::new();
        for c in 0..CLIENTS {
            let share = total / CLIENTS + usize::from(c < total % CLIENTS);
            let (addr, targets) = (addr.clone(), targets.clone());
            tasks.push(tokio::spawn(async move {
                client(&addr, &targets, c * 7919, share, CLIENTS).await
            }));
        }
        let mut all = Vec::with_capacity(total);
        for t in tasks {
            all.extend(t.await.expect("a client task"));
        }
        all
    });
    let seconds = started.elapsed().as_secs_f64();
    let rss_after = server.rss_kib();
    let server_cpu = server.cpu_seconds() - cpu_before;
    assert_eq!(latencies_us.len(), total);
    latencies_us.sort_unstable();
    Figures {
        seconds,
        latencies_us,
        rss_before,
        rss_after,
        server_cpu,
        memory,
    }
}

/// One keep-alive connection sending `count` probes, starting at target
/// `first` and stepping by `step`; each answer's latency in microseconds.
async fn client(
    addr: &str,
    targets: &[(String, String)],
    first: usize,
    count: usize,
    step: usize,
) -> Vec<u64> {
    let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.set_nodelay(true).unwrap();
    let (read, mut write) = stream.into_split();
    let mut read = tokio::io::BufReader::new(read);
    let mut latencies = Vec::with_capacity(count);
    let mut line = String::new();
    let mut body = Vec::new();
    for k in 0..count {
        let (request, position) = &targets[(first + k * step) % targets.len()];
        let sent = Instant::now();
        write.write_all(request.as_bytes()).await.expect("send");
        line.clear();
        read.read_line(&mut line).await.expect("status line");
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        let mut length = None;
        loop {
            line.clear();
            read.read_line(&mut line).await.expect("header");
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((k, v)) = header.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    length = v.trim().parse::<usize>().ok();
                }
            }
        }
        body.resize(length.expect("a content length"), 0);
        read.read_exact(&mut body).await.expect("body");
        latencies.push(sent.elapsed().as_micros() as u64);
        // Every answer is about its position; every 64th is parsed whole
        // (the clients share the two cores with the server).
        let text = std::str::from_utf8(&body).expect("UTF-8");
        assert!(
            text.contains(&format!("\"position\":\"{position}\"")),
            "{text}"
        );
        if k % 64 == 0 {
            let answer: serde_json::Value = serde_json::from_str(text).expect("JSON");
            assert!(answer["value"].is_string() && answer["moves"].is_array());
        }
    }
    latencies
}

fn report(f: &Figures) {
    let pct = |p: f64| {
        let i = ((f.latencies_us.len() as f64 - 1.0) * p).round() as usize;
        f.latencies_us[i] as f64 / 1000.0
    };
    let n = f.latencies_us.len();
    println!(
        "--memory {}: {n} probes by {CLIENTS} clients in {:.2} s: {:.0} probes/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; server CPU {:.1} µs a probe; server RSS {} -> {} MiB",
        f.memory,
        f.seconds,
        n as f64 / f.seconds,
        pct(0.5),
        pct(0.99),
        pct(1.0),
        f.server_cpu * 1e6 / n as f64,
        f.rss_before / 1024,
        f.rss_after / 1024
    );
}

fn check_memory(f: &Figures) {
    // Flat: the warm server grows by less than 64 MiB (request buffers of 64
    // connections; no per-request leak could stay under it).
    assert!(
        f.rss_after < f.rss_before + 64 * 1024,
        "server memory grew from {} to {} KiB",
        f.rss_before,
        f.rss_after
    );
}

#[test]
fn short_load_64_clients() {
    let f = load(6_400, "outcomes");
    report(&f);
    check_memory(&f);
}

#[test]
#[ignore = "100,000 probes: scripts/load-test.sh"]
fn load_100k_probes_64_clients() {
    for memory in ["outcomes", "values"] {
        let f = load(100_000, memory);
        report(&f);
        check_memory(&f);
    }
}
