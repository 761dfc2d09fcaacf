//! An engine in another process, driven over the engine protocol
//! ([`super::protocol`]): start it, check its handshake, send positions and
//! `go` limits, read its `info` and `bestmove` lines with a timeout. This
//! module owns the process (ended on drop) and the client side of the
//! protocol; `solver toguz match --a exec:PATH` plays with it.

use super::board::Board;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why an external engine failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExternalError {
    /// The command line is empty.
    #[error("empty engine command")]
    Empty,
    /// The program could not be started.
    #[error("cannot start `{command}`: {message}")]
    Spawn {
        /// The program.
        command: String,
        /// The system's reason.
        message: String,
    },
    /// Writing to the engine failed (it has exited).
    #[error("engine `{0}` does not read its input (exited?)")]
    Write(String),
    /// The engine closed its output.
    #[error("engine `{0}` exited")]
    Closed(String),
    /// No answer in time.
    #[error("engine `{command}` did not answer `{waiting_for}` within {seconds:.1} s")]
    Timeout {
        /// The program.
        command: String,
        /// The awaited answer.
        waiting_for: String,
        /// The time waited.
        seconds: f64,
    },
    /// An answer that breaks the protocol (e.g. an illegal move).
    #[error("engine `{command}`: {message}")]
    Protocol {
        /// The program.
        command: String,
        /// What was wrong.
        message: String,
    },
}

/// The answer to one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move, hole 1..9 (`None` for `bestmove none`).
    pub best: Option<u8>,
    /// Depth of the last `info` line (0 if none).
    pub depth: i32,
    /// Nodes of the last `info` line (0 if none).
    pub nodes: u64,
    /// Score of the last `info` line in centi-stones (mate as ±30000 − N).
    pub score: Option<i32>,
    /// Table hits (`tbhits`) of the last `info` line (0 if none).
    pub tb_hits: u64,
}

/// A running engine process.
pub struct ExternalEngine {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Its `id name`.
    pub name: String,
}

/// How long the handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(20);

impl ExternalEngine {
    /// Start `argv[0]` with the other arguments and wait for `toguzok`
    /// and `readyok`.
    pub fn start(argv: &[String]) -> Result<ExternalEngine, ExternalError> {
        let (program, args) = argv.split_first().ok_or(ExternalError::Empty)?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ExternalError::Spawn {
                command: program.clone(),
                message: e.to_string(),
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ExternalError::Spawn {
                command: program.clone(),
                message: "no pipes".to_string(),
            });
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let mut e = ExternalEngine {
            command: argv.join(" "),
            child,
            stdin,
            lines,
            name: program.clone(),
        };
        e.send("toguz")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let l = e.line(deadline, "toguzok")?;
            if let Some(n) = l.strip_prefix("id name ") {
                e.name = n.trim().to_string();
            }
            if l.trim() == "toguzok" {
                break;
            }
        }
        e.ready()?;
        Ok(e)
    }

    /// Send one line.
    pub fn send(&mut self, line: &str) -> Result<(), ExternalError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| ExternalError::Write(self.command.clone()))
    }

    fn line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, ExternalError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(ExternalError::Timeout {
                command: self.command.clone(),
                waiting_for: waiting_for.to_string(),
                seconds: HANDSHAKE.as_secs_f64().min(wait.as_secs_f64()),
            }),
            Err(RecvTimeoutError::Disconnected) => Err(ExternalError::Closed(self.command.clone())),
        }
    }

    /// `isready` → `readyok`.
    pub fn ready(&mut self) -> Result<(), ExternalError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.line(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// `setoption name NAME value VALUE`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ExternalError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `newgame`, then wait until ready.
    pub fn new_game(&mut self) -> Result<(), ExternalError> {
        self.send("newgame")?;
        self.ready()
    }

    /// Send the game (`start` and the holes played since, 1..9) and `go
    /// LIMITS` (e.g. `nodes 4000`, `movetime 100`, `wtime … btime …`); read
    /// until `bestmove`, at most `timeout`. The move is checked to be legal
    /// in the position reached.
    pub fn go(
        &mut self,
        start: &Board,
        moves: &[u8],
        limits: &str,
        timeout: Duration,
    ) -> Result<Answer, ExternalError> {
        let mut board = *start;
        let mut cmd = format!("position text {start}");
        if !moves.is_empty() {
            cmd.push_str(" moves");
            for &m in moves {
                cmd.push_str(&format!(" {m}"));
                board.make(m - 1);
            }
        }
        self.send(&cmd)?;
        self.send(&format!("go {limits}"))?;
        let deadline = Instant::now() + timeout;
        let mut answer = Answer {
            best: None,
            depth: 0,
            nodes: 0,
            score: None,
            tb_hits: 0,
        };
        loop {
            let l = self.line(deadline, "bestmove")?;
            let words: Vec<&str> = l.split_whitespace().collect();
            match words.first() {
                Some(&"info") => read_info(&words, &mut answer),
                Some(&"bestmove") => {
                    let mv = words.get(1).copied().unwrap_or("");
                    if mv == "none" && board.outcome().is_some() {
                        return Ok(answer);
                    }
                    let hole = mv
                        .parse::<u8>()
                        .ok()
                        .filter(|h| (1..=9).contains(h) && board.is_legal(h - 1))
                        .ok_or_else(|| ExternalError::Protocol {
                            command: self.command.clone(),
                            message: format!("illegal move `{l}` in {board}"),
                        })?;
                    answer.best = Some(hole);
                    return Ok(answer);
                }
                _ => {}
            }
        }
    }
}

/// Take depth, nodes, table hits and score from an `info` line.
fn read_info(words: &[&str], answer: &mut Answer) {
    let mut i = 1;
    while i + 1 < words.len() {
        match words[i] {
            "depth" => {
                if let Ok(d) = words[i + 1].parse() {
                    answer.depth = d;
                }
            }
            "nodes" => {
                if let Ok(n) = words[i + 1].parse() {
                    answer.nodes = n;
                }
            }
            "tbhits" => {
                if let Ok(n) = words[i + 1].parse() {
                    answer.tb_hits = n;
                }
            }
            "score" if i + 2 < words.len() => {
                let v = words[i + 2].parse::<i32>().ok();
                answer.score = match words[i + 1] {
                    "cp" => v,
                    "mate" => v.map(|n| {
                        if n >= 0 {
                            super::search::MATE - n
                        } else {
                            -super::search::MATE - n
                        }
                    }),
                    _ => answer.score,
                };
                i += 1;
            }
            "pv" | "string" => break,
            _ => {}
        }
        i += 2;
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = self.send("stop");
        let _ = self.send("quit");
        // Give it a moment to exit by itself, then end it.
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_program_is_an_error() {
        let e = ExternalEngine::start(&["/nonexistent/engine".to_string()]);
        assert!(matches!(e, Err(ExternalError::Spawn { .. })));
        assert!(matches!(
            ExternalEngine::start(&[]),
            Err(ExternalError::Empty)
        ));
    }

    #[test]
    fn info_fields() {
        let mut a = Answer {
            best: None,
            depth: 0,
            nodes: 0,
            score: None,
            tb_hits: 0,
        };
        let l = "info depth 7 score mate -3 nodes 1234 nps 10 tbhits 17 time 5 multipv 1 pv 1 2";
        read_info(&l.split_whitespace().collect::<Vec<_>>(), &mut a);
        assert_eq!(
            (a.depth, a.nodes, a.score, a.tb_hits),
            (7, 1234, Some(-30_000 + 3), 17)
        );
    }
}
