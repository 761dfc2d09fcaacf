//! Helpers of the web tests: small tables generated once per test binary,
//! the real server on an ephemeral loopback port (in this process), and a
//! minimal HTTP/1.1 client (GET only) so that the tests need no HTTP client
//! crate of their own.

#![allow(dead_code)]

use mill::games::nine::files::{generate, GenerateObserver};
use mill::rules::variant::RuleSet;
use server::{serve, AppState, Config};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;
use tablebase::retro::Observer;

struct Quiet;
impl Observer for Quiet {}
impl GenerateObserver for Quiet {}

/// The standard rules (flying).
pub const STD: RuleSet = RuleSet::nine(true);

/// Tables of every subspace with at most `max_stones` stones, generated once
/// per test binary into a temporary directory.
pub fn tables(max_stones: u8) -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("web-tables-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        generate(&dir, STD, max_stones, &Quiet).expect("generate the test tables");
        dir
    })
}

/// A server for `config` on 127.0.0.1 and an ephemeral port, run on a
/// runtime of its own thread; its address.
pub fn start(config: Config) -> SocketAddr {
    start_state(AppState::new(&config).expect("server state"))
}

/// A server for `state` (e.g. with a board of the test's own) on
/// 127.0.0.1 and an ephemeral port; its address.
pub fn start_state(state: std::sync::Arc<AppState>) -> SocketAddr {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            send.send(listener.local_addr().unwrap()).unwrap();
            serve(listener, state).await.unwrap();
        });
    });
    receive.recv().expect("server address")
}

/// The server configuration of the tests: every game's tables in `dir`,
/// small searches.
pub fn config(dir: &Path) -> Config {
    let mut c = Config {
        dir: dir.to_owned(),
        // Every game's tables in the one directory (none unless a test
        // generates them there).
        six_dir: dir.to_owned(),
        lasker_dir: dir.to_owned(),
        morabaraba_dir: dir.to_owned(),
        toguz_max_time: Duration::from_secs(2),
        ..Config::default()
    };
    c.search.hash_mib = 16;
    c
}

/// Percent-encode a query value.
pub fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// One HTTP response.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub body: String,
    /// The status line and the headers.
    pub head: String,
}

impl Reply {
    /// The body as JSON (panics with the body if it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// A header's value (the first of that name).
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().skip(1).find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    }
}

/// Send a raw request (with `Connection: close`) and read the whole answer.
pub fn request(addr: SocketAddr, method: &str, target: &str) -> Reply {
    request_with_host(addr, method, target, Some(&addr.to_string()))
}

/// [`request`] with this `Host` header, or none.
pub fn request_with_host(
    addr: SocketAddr,
    method: &str,
    target: &str,
    host: Option<&str>,
) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let host = host.map_or_else(String::new, |h| format!("Host: {h}\r\n"));
    write!(
        stream,
        "{method} {target} HTTP/1.1\r\n{host}Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read the answer");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("a header block");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let content_type = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-type")
                .then(|| v.trim().to_string())
        })
        .unwrap_or_default();
    Reply {
        status,
        content_type,
        body: body.to_string(),
        head: head.to_string(),
    }
}

/// GET `path` (query values already encoded).
pub fn get(addr: SocketAddr, target: &str) -> Reply {
    request(addr, "GET", target)
}

/// GET an API path with a `position` parameter.
pub fn get_position(addr: SocketAddr, path: &str, position: &str) -> Reply {
    get(addr, &format!("{path}?position={}", encode(position)))
}

/// Read one response of a keep-alive connection (its head and a
/// `Content-Length` body); the status and the body.
pub fn read_response(stream: &mut TcpStream) -> (u16, String) {
    let mut raw = Vec::new();
    let mut byte = [0u8; 1];
    while !raw.ends_with(b"\r\n\r\n") {
        let n = stream.read(&mut byte).expect("read the head");
        assert_eq!(n, 1, "the connection closed in the head");
        raw.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&raw).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let length: usize = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse().ok())?
        })
        .expect("a Content-Length");
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).expect("read the body");
    (status, String::from_utf8_lossy(&body).into_owned())
}
