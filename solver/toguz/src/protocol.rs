//! The engine protocol: a line protocol on a reader and a writer (stdin and
//! stdout for `solver toguz engine`) in the spirit of UCI, so that GUIs,
//! match runners and other programs can drive the engine. This module owns
//! the command parser ([`parse_command`]), the session loop ([`run`]) with
//! its search thread, and the formatting of `info` and `bestmove` lines.
//! The commands and an example session are in `docs/toguz.md`.
//!
//! Moves are hole numbers 1..9 of the side to move; `position … moves`
//! also takes full PlayOK notation (`76`, `76(10)`, `25X`), checked against
//! the rules.

use crate::board::Board;
use crate::egtb::Tables;
use crate::notation::{move_notation, MoveText};
use crate::search::{Config, Engine, Iteration, Limits, SearchResult, MATE, MATE_BOUND};
use crate::selfplay::time_for_move;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Engine name sent in answer to `toguz`.
pub const NAME: &str = concat!("toguz ", env!("CARGO_PKG_VERSION"));
/// Engine author sent in answer to `toguz`.
pub const AUTHOR: &str = "the solver team";

/// A rejected command line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first word is not a command.
    #[error("unknown command `{0}`")]
    Unknown(String),
    /// A command's arguments could not be read.
    #[error("{0}")]
    Syntax(String),
}

/// Limits of a `go` command, as sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `movetime MS`.
    pub movetime: Option<u64>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `depth D`.
    pub depth: Option<i32>,
    /// `wtime MS`: White's clock.
    pub wtime: Option<u64>,
    /// `btime MS`: Black's clock.
    pub btime: Option<u64>,
    /// `winc MS`: White's increment.
    pub winc: Option<u64>,
    /// `binc MS`: Black's increment.
    pub binc: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
    /// `ponder`: search the position (the opponent to move) until
    /// `ponderhit` or `stop`.
    pub ponder: bool,
}

/// One command of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `toguz`: identify the engine and list its options.
    Toguz,
    /// `isready`.
    IsReady,
    /// `setoption name NAME [value VALUE]`.
    SetOption {
        /// Option name (case-insensitive).
        name: String,
        /// Its value (may be empty).
        value: String,
    },
    /// `newgame`: forget the previous game (clears the table).
    NewGame,
    /// `position start|text POSITION [moves M1 M2 …]`.
    Position {
        /// The position before the moves.
        board: Board,
        /// The moves as sent.
        moves: Vec<String>,
    },
    /// `go …`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`: the opponent played the pondered move.
    PonderHit,
    /// `quit`.
    Quit,
}

fn syntax(msg: impl Into<String>) -> CommandError {
    CommandError::Syntax(msg.into())
}

/// Parse one command line (`Ok(None)` for an empty line).
pub fn parse_command(line: &str) -> Result<Option<Command>, CommandError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Ok(None);
    };
    let cmd = match first {
        "toguz" => Command::Toguz,
        "isready" => Command::IsReady,
        "newgame" => Command::NewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "setoption" => {
            if rest.first() != Some(&"name") {
                return Err(syntax("expected `setoption name NAME [value VALUE]`"));
            }
            let at = rest.iter().position(|&w| w == "value");
            let name = rest[1..at.unwrap_or(rest.len())].join(" ");
            if name.is_empty() {
                return Err(syntax("setoption: missing option name"));
            }
            let value = at.map(|i| rest[i + 1..].join(" ")).unwrap_or_default();
            Command::SetOption { name, value }
        }
        "position" => {
            let at = rest.iter().position(|&w| w == "moves");
            let (head, moves) = match at {
                Some(i) => (&rest[..i], rest[i + 1..].to_vec()),
                None => (rest, Vec::new()),
            };
            let board =
                match head.split_first() {
                    Some((&"start", [])) | Some((&"startpos", [])) => Board::start(),
                    Some((&"text", fields)) if !fields.is_empty() => fields
                        .join(" ")
                        .parse::<Board>()
                        .map_err(|e| syntax(format!("position: {e}")))?,
                    _ => return Err(syntax(
                        "expected `position start [moves …]` or `position text POSITION [moves …]`",
                    )),
                };
            Command::Position {
                board,
                moves: moves.iter().map(|m| m.to_string()).collect(),
            }
        }
        "go" => {
            let mut go = Go::default();
            let mut it = rest.iter();
            while let Some(&w) = it.next() {
                let mut number = |what: &str| -> Result<u64, CommandError> {
                    let v = it
                        .next()
                        .ok_or_else(|| syntax(format!("go: `{what}` needs a number")))?;
                    v.parse::<u64>()
                        .map_err(|_| syntax(format!("go: `{what} {v}`: not a number")))
                };
                match w {
                    "movetime" => go.movetime = Some(number(w)?),
                    "nodes" => go.nodes = Some(number(w)?.max(1)),
                    "depth" => {
                        let d = number(w)?;
                        if !(1..=100).contains(&d) {
                            return Err(syntax("go: depth must be 1..100"));
                        }
                        go.depth = Some(d as i32);
                    }
                    "wtime" => go.wtime = Some(number(w)?),
                    "btime" => go.btime = Some(number(w)?),
                    "winc" => go.winc = Some(number(w)?),
                    "binc" => go.binc = Some(number(w)?),
                    "infinite" => go.infinite = true,
                    "ponder" => go.ponder = true,
                    other => return Err(syntax(format!("go: unknown limit `{other}`"))),
                }
            }
            Command::Go(go)
        }
        other => return Err(CommandError::Unknown(other.to_string())),
    };
    Ok(Some(cmd))
}

/// Play `moves` (hole numbers or PlayOK notation) from `board`.
pub fn play_moves(board: &Board, moves: &[String]) -> Result<(Board, usize), CommandError> {
    let mut b = *board;
    for (i, text) in moves.iter().enumerate() {
        let fail = |msg: String| syntax(format!("move {} `{text}`: {msg}", i + 1));
        let mt: MoveText = text.parse().map_err(|e| fail(format!("{e}")))?;
        if b.outcome().is_some() {
            return Err(fail("the game is already over".to_string()));
        }
        let m = mt.hole - 1;
        if !b.is_legal(m) {
            return Err(fail(format!("hole {} is empty", mt.hole)));
        }
        let mut after = b;
        let effect = after.make(m);
        let expected = move_notation(m, &effect, &after);
        if mt.landing.is_some() && text.to_ascii_uppercase() != expected {
            return Err(fail(format!("the rules give `{expected}`")));
        }
        b = after;
    }
    Ok((b, moves.len()))
}

/// Engine options (`setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Hash`: transposition table MiB (1..65536).
    pub hash_mb: usize,
    /// `Threads` (1..256).
    pub threads: usize,
    /// `MultiPV` (1..9).
    pub multipv: usize,
    /// `Tables`: directory of endgame share tables (empty: none).
    pub tables: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 64,
            threads: 1,
            multipv: 1,
            tables: String::new(),
        }
    }
}

/// `info` line(s) of one completed iteration: one per line with multi-PV.
pub fn info_lines(it: &Iteration) -> Vec<String> {
    let nps = it.nodes * 1000 / it.millis.max(1);
    let one = |k: usize, score: i32, pv: &[u8]| {
        let pv: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
        format!(
            "info depth {} score {} nodes {} nps {} tbhits {} time {} multipv {} pv {}",
            it.depth,
            score_field(score),
            it.nodes,
            nps,
            it.tb_hits,
            it.millis,
            k,
            pv.join(" ")
        )
    };
    if it.lines.len() <= 1 {
        return vec![one(1, it.score, &it.pv)];
    }
    it.lines
        .iter()
        .enumerate()
        .map(|(k, l)| one(k + 1, l.score, &l.pv))
        .collect()
}

/// `cp N` (centi-stones for the side to move) or `mate N` (the game ends in
/// N plies, negative when the side to move loses).
pub fn score_field(score: i32) -> String {
    if score > MATE_BOUND {
        format!("mate {}", MATE - score)
    } else if score < -MATE_BOUND {
        format!("mate -{}", MATE + score)
    } else {
        format!("cp {score}")
    }
}

/// The `bestmove` line of a search.
pub fn bestmove_line(r: &SearchResult) -> String {
    match r.best {
        None => "bestmove none".to_string(),
        Some(m) => match r.pv.get(1).filter(|_| r.pv.first() == Some(&m)) {
            Some(p) => format!("bestmove {m} ponder {p}"),
            None => format!("bestmove {m}"),
        },
    }
}

/// What the session loop waits for.
enum Event {
    /// A line of input.
    Line(String),
    /// The input ended (or failed).
    Eof,
    /// Output of the search thread.
    Info(String),
    /// The search finished; the engine comes back.
    Done(Box<Engine>, SearchResult),
}

/// A running search as the session loop sees it.
struct Running {
    stop: Arc<AtomicBool>,
    /// `go infinite` or `go ponder` (before `ponderhit`): hold `bestmove`
    /// until `stop`.
    hold: bool,
    /// With `ponder`: the time to search after `ponderhit`.
    after_ponderhit: Option<Duration>,
    /// When to set `stop` (after `ponderhit`).
    deadline: Option<Instant>,
    /// The search has a depth or node limit.
    bounded: bool,
    /// The search ended while held.
    finished: Option<SearchResult>,
}

/// The state of one session.
struct Session<W: Write> {
    out: W,
    options: Options,
    config: Config,
    engine: Option<Engine>,
    tables: Option<Arc<Tables>>,
    board: Board,
    plies: usize,
    running: Option<Running>,
    tx: Sender<Event>,
}

impl<W: Write> Session<W> {
    fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn error(&mut self, msg: &str) -> std::io::Result<()> {
        self.send(&format!("info string error: {msg}"))
    }

    /// Handle one line; `Ok(false)` ends the session.
    fn command(&mut self, line: &str) -> std::io::Result<bool> {
        let cmd = match parse_command(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Ok(true),
            Err(e) => {
                self.error(&e.to_string())?;
                return Ok(true);
            }
        };
        let busy = self.running.is_some();
        match cmd {
            Command::Toguz => {
                let o = Options::default();
                for l in [
                    format!("id name {NAME}"),
                    format!("id author {AUTHOR}"),
                    format!(
                        "option name Hash type spin default {} min 1 max 65536",
                        o.hash_mb
                    ),
                    format!(
                        "option name Threads type spin default {} min 1 max 256",
                        o.threads
                    ),
                    format!(
                        "option name MultiPV type spin default {} min 1 max 9",
                        o.multipv
                    ),
                    "option name Tables type string default <empty>".to_string(),
                    "toguzok".to_string(),
                ] {
                    self.send(&l)?;
                }
            }
            Command::IsReady => self.send("readyok")?,
            Command::Quit => {
                // A running search ends now; its `bestmove` is still sent.
                if let Some(r) = &mut self.running {
                    r.hold = false;
                    r.stop.store(true, Relaxed);
                    if let Some(result) = r.finished.take() {
                        self.running = None;
                        self.send(&bestmove_line(&result))?;
                    }
                }
                return Ok(false);
            }
            Command::Stop => {
                if let Some(r) = &mut self.running {
                    r.hold = false;
                    r.stop.store(true, Relaxed);
                    if let Some(result) = r.finished.take() {
                        self.running = None;
                        self.send(&bestmove_line(&result))?;
                    }
                }
            }
            Command::PonderHit => match &mut self.running {
                Some(r) if r.after_ponderhit.is_some() || r.hold => {
                    r.hold = false;
                    match r.after_ponderhit.take() {
                        Some(t) => r.deadline = Some(Instant::now() + t),
                        // A depth or node limit ends the search by itself.
                        None if r.bounded => {}
                        None => r.stop.store(true, Relaxed),
                    }
                    if let Some(result) = r.finished.take() {
                        self.running = None;
                        self.send(&bestmove_line(&result))?;
                    }
                }
                _ => self.error("ponderhit: not pondering")?,
            },
            _ if busy => self.error("a search is running (send `stop` first)")?,
            Command::SetOption { name, value } => {
                if let Err(e) = self.set_option(&name, &value) {
                    self.error(&e)?;
                }
            }
            Command::NewGame => {
                if let Some(e) = &mut self.engine {
                    e.clear();
                }
                self.board = Board::start();
                self.plies = 0;
            }
            Command::Position { board, moves } => match play_moves(&board, &moves) {
                Ok((b, n)) => {
                    self.board = b;
                    self.plies = n;
                }
                Err(e) => self.error(&e.to_string())?,
            },
            Command::Go(go) => self.go(go)?,
        }
        Ok(true)
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let num = |lo: usize, hi: usize| {
            value
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|v| (lo..=hi).contains(v))
                .ok_or_else(|| format!("option {name}: value must be {lo}..{hi} (got `{value}`)"))
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mb = num(1, 65536)?;
                self.options.hash_mb = mb;
                self.config.tt_mb = mb;
                let mut e = Engine::new(self.config);
                e.set_tables(self.tables.clone());
                self.engine = Some(e);
            }
            "threads" => self.options.threads = num(1, 256)?,
            "multipv" => self.options.multipv = num(1, 9)?,
            "tables" => {
                let dir = value.trim();
                self.tables = if dir.is_empty() || dir == "<empty>" {
                    None
                } else {
                    let t = Tables::open(std::path::Path::new(dir))
                        .map_err(|e| format!("option Tables: {dir}: {e}"))?;
                    Some(Arc::new(t))
                };
                self.options.tables = dir.to_string();
                if let Some(e) = &mut self.engine {
                    e.set_tables(self.tables.clone());
                }
            }
            _ => {
                return Err(format!(
                    "unknown option `{name}` (Hash, Threads, MultiPV, Tables)"
                ))
            }
        }
        Ok(())
    }

    fn go(&mut self, go: Go) -> std::io::Result<()> {
        if let Some(o) = self.board.outcome() {
            self.error(&format!("the game is over ({o:?})"))?;
            return self.send("bestmove none");
        }
        let white = self.board.side.index() == 0;
        let (left, inc) = if white {
            (go.wtime, go.winc)
        } else {
            (go.btime, go.binc)
        };
        let clock = left.map(|l| {
            time_for_move(
                Duration::from_millis(l),
                Duration::from_millis(inc.unwrap_or(0)),
                self.plies,
            )
        });
        let movetime = go.movetime.map(|t| Duration::from_millis(t.max(1)));
        let time = match (movetime, clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let unlimited = go.infinite || go.ponder;
        let limits = Limits {
            depth: if go.infinite { None } else { go.depth },
            nodes: if go.infinite { None } else { go.nodes },
            time: if unlimited { None } else { time },
            threads: self.options.threads,
        };
        let Some(mut engine) = self.engine.take() else {
            return self.error("no engine (internal)");
        };
        let stop = engine.stop_flag();
        stop.store(false, Relaxed);
        self.running = Some(Running {
            stop,
            hold: unlimited,
            // After ponderhit, about what a timed search spends: it starts
            // no iteration after half of its time.
            after_ponderhit: if go.ponder { time.map(|t| t / 2) } else { None },
            deadline: None,
            bounded: limits.depth.is_some() || limits.nodes.is_some(),
            finished: None,
        });
        let board = self.board;
        let multipv = self.options.multipv;
        let tx = self.tx.clone();
        std::thread::spawn(move || {
            let info = tx.clone();
            let r = engine.search_multipv(&board, &limits, multipv, &mut |it| {
                for l in info_lines(it) {
                    let _ = info.send(Event::Info(l));
                }
            });
            let _ = tx.send(Event::Done(Box::new(engine), r));
        });
        Ok(())
    }

    /// The search thread finished.
    fn done(&mut self, engine: Engine, result: SearchResult) -> std::io::Result<()> {
        self.engine = Some(engine);
        let Some(mut r) = self.running.take() else {
            return Ok(());
        };
        if let Some(e) = &result.exact {
            self.send(&format!(
                "info string exact {:?} for the side to move",
                e.result
            ))?;
        }
        if r.hold {
            r.finished = Some(result);
            self.running = Some(r);
            return Ok(());
        }
        self.send(&bestmove_line(&result))
    }
}

/// Run a session: read commands from `input` (on a thread of its own, so
/// `stop` reaches a running search), write answers to `output`, until
/// `quit` or the end of the input (a running search is then finished, an
/// infinite one stopped). `config` is the engine's configuration before
/// `setoption` (its `tt_mb` is replaced by the `Hash` option).
pub fn run<R, W>(input: R, output: W, config: Config) -> std::io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (tx, rx): (Sender<Event>, Receiver<Event>) = mpsc::channel();
    let reader = tx.clone();
    std::thread::spawn(move || {
        for line in input.lines() {
            match line {
                Ok(l) => {
                    if reader.send(Event::Line(l)).is_err() {
                        return;
                    }
                }
                Err(_) => break,
            }
        }
        let _ = reader.send(Event::Eof);
    });
    let options = Options::default();
    let config = Config {
        tt_mb: options.hash_mb,
        ..config
    };
    let mut s = Session {
        out: output,
        options,
        config,
        engine: Some(Engine::new(config)),
        tables: None,
        board: Board::start(),
        plies: 0,
        running: None,
        tx,
    };
    let mut quitting = false;
    loop {
        let deadline = s.running.as_ref().and_then(|r| r.deadline);
        let event = match deadline {
            Some(d) => match rx.recv_timeout(d.saturating_duration_since(Instant::now())) {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(r) = &mut s.running {
                        r.stop.store(true, Relaxed);
                        r.deadline = None;
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            },
            None => match rx.recv() {
                Ok(e) => e,
                Err(_) => break,
            },
        };
        match event {
            Event::Line(l) if !quitting => {
                if !s.command(&l)? {
                    quitting = true;
                }
            }
            Event::Line(_) => {}
            Event::Eof => {
                quitting = true;
                if let Some(r) = &mut s.running {
                    if r.hold {
                        r.hold = false;
                        r.stop.store(true, Relaxed);
                        if let Some(result) = r.finished.take() {
                            s.running = None;
                            s.send(&bestmove_line(&result))?;
                        }
                    }
                }
            }
            Event::Info(l) => s.send(&l)?,
            Event::Done(e, r) => s.done(*e, r)?,
        }
        if quitting && s.running.is_none() {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn session(input: &str) -> Vec<String> {
        let mut out = Vec::new();
        let config = Config {
            tt_mb: 4,
            ..Config::default()
        };
        run(Cursor::new(input.as_bytes().to_vec()), &mut out, config).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn handshake_and_errors() {
        let out = session("toguz\nisready\nfoo\nsetoption name Hash value 0\nposition start moves 1 1 1 1 1\ngo depth 0\nposition text 1,2 w\nquit\n");
        assert_eq!(out[0], format!("id name {NAME}"));
        assert!(out.contains(&"toguzok".to_string()));
        assert!(out.contains(&"readyok".to_string()));
        let errors = out
            .iter()
            .filter(|l| l.starts_with("info string error:"))
            .count();
        // foo, Hash 0, a move from an empty hole, depth 0, a bad position.
        assert_eq!(errors, 5, "{out:?}");
    }

    #[test]
    fn go_depth_answers_a_legal_move_and_multipv_lines() {
        let out = session("setoption name MultiPV value 3\nposition start moves 7 8\ngo depth 4\n");
        let (b, _) = play_moves(&Board::start(), &["7".into(), "8".into()]).unwrap();
        let best = out.last().unwrap();
        let hole: u8 = best.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(b.is_legal(hole - 1), "{best}");
        let depth4: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info depth 4 "))
            .collect();
        assert_eq!(depth4.len(), 3, "{out:?}");
        // The engine's first line is its move, as a separate search finds.
        let mut e = Engine::new(Config {
            tt_mb: 4,
            ..Config::default()
        });
        let r = e.search_multipv(
            &b,
            &Limits {
                depth: Some(4),
                threads: 1,
                ..Limits::default()
            },
            3,
            &mut |_| {},
        );
        assert_eq!(best, &bestmove_line(&r));
    }

    #[test]
    fn ponderhit_lets_a_depth_limited_ponder_search_finish() {
        // ponderhit arrives at once; with no time budget the search goes
        // on to its depth and only then answers.
        let out = session("position start\ngo ponder depth 10\nponderhit\n");
        let best = out.iter().position(|l| l.starts_with("bestmove")).unwrap();
        let deepest = out
            .iter()
            .position(|l| l.starts_with("info depth 10 "))
            .unwrap();
        assert!(deepest < best, "{out:?}");
    }

    #[test]
    fn full_notation_is_checked() {
        assert!(play_moves(&Board::start(), &["76(10)".into()]).is_ok());
        assert!(play_moves(&Board::start(), &["77".into()]).is_err());
        assert!(play_moves(&Board::start(), &["76(11)".into()]).is_err());
    }

    /// Input that arrives in chunks over time (like a pipe).
    struct ChannelReader(Receiver<Vec<u8>>, Cursor<Vec<u8>>);

    impl std::io::Read for ChannelReader {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            loop {
                let n = std::io::Read::read(&mut self.1, buf)?;
                if n > 0 {
                    return Ok(n);
                }
                match self.0.recv() {
                    Ok(chunk) => self.1 = Cursor::new(chunk),
                    Err(_) => return Ok(0),
                }
            }
        }
    }

    #[test]
    fn stop_ends_infinite_search() {
        // Input is read on its own thread: `stop` arrives while the
        // infinite search runs, and the session answers only then.
        let (w, r) = mpsc::channel::<Vec<u8>>();
        let t = std::thread::spawn(move || {
            let mut out = Vec::new();
            let input = std::io::BufReader::new(ChannelReader(r, Cursor::new(Vec::new())));
            run(input, &mut out, Config::default()).unwrap();
            String::from_utf8(out).unwrap()
        });
        w.send(b"position start\ngo infinite\n".to_vec()).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let start = Instant::now();
        w.send(b"stop\nquit\n".to_vec()).unwrap();
        let out = t.join().unwrap();
        assert!(start.elapsed() < Duration::from_secs(5));
        let last = out.lines().last().unwrap();
        assert!(last.starts_with("bestmove "), "{out}");
        assert!(out.lines().any(|l| l.starts_with("info depth")));
    }
}
