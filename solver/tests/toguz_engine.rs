//! The engine protocol through the real binary (`solver toguz engine` as a
//! child process, driven here line by line with the rules of the `toguz`
//! crate as referee), `match` against it as an external engine, and
//! `search --multipv`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};
use toguz::Board;

const BIN: &str = env!("CARGO_BIN_EXE_solver");

/// A `solver toguz engine` process with its output on a channel.
struct Proc {
    child: Child,
    stdin: ChildStdin,
    out: Receiver<String>,
}

impl Proc {
    fn start() -> Proc {
        let mut child = Command::new(BIN)
            .args(["toguz", "engine"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start solver toguz engine");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, out) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Proc { child, stdin, out }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first one starting with `prefix`.
    fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let l = self
                .out
                .recv_timeout(wait)
                .unwrap_or_else(|e| panic!("no `{prefix}` ({e}); got {lines:?}"));
            let done = l.starts_with(prefix);
            lines.push(l);
            if done {
                return lines;
            }
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn protocol_plays_a_whole_game() {
    let mut p = Proc::start();
    p.send("toguz");
    let hello = p.until("toguzok", Duration::from_secs(20));
    assert!(hello[0].starts_with("id name "), "{hello:?}");
    assert!(hello.iter().any(|l| l.starts_with("option name MultiPV")));
    // Bad input is answered, not fatal.
    p.send("position start moves 7 x9");
    p.send("go nodes banana");
    p.send("setoption name Hash value 8");
    p.send("isready");
    let r = p.until("readyok", Duration::from_secs(20));
    let errors = r
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .count();
    assert_eq!(errors, 2, "{r:?}");
    p.send("newgame");
    let mut board = Board::start();
    let mut moves: Vec<String> = Vec::new();
    while board.outcome().is_none() && moves.len() < 600 {
        p.send(&format!("position start moves {}", moves.join(" ")));
        p.send("go nodes 1500");
        let lines = p.until("bestmove", Duration::from_secs(30));
        let best = lines.last().unwrap();
        let words: Vec<&str> = best.split_whitespace().collect();
        let hole: u8 = words[1].parse().expect(best);
        assert!(
            (1..=9).contains(&hole) && board.is_legal(hole - 1),
            "illegal `{best}` at ply {} in {board}",
            moves.len()
        );
        // A ponder move, when given, is legal after the best move.
        board.make(hole - 1);
        if let Some(&"ponder") = words.get(2) {
            let q: u8 = words[3].parse().unwrap();
            assert!(board.outcome().is_some() || board.is_legal(q - 1), "{best}");
        }
        assert!(lines.iter().any(|l| l.starts_with("info depth")));
        moves.push(hole.to_string());
    }
    assert!(
        board.outcome().is_some(),
        "game over after {} plies",
        moves.len()
    );
    // The finished position is answered with `bestmove none`.
    p.send(&format!("position start moves {}", moves.join(" ")));
    p.send("go depth 2");
    let end = p.until("bestmove", Duration::from_secs(10));
    assert_eq!(end.last().unwrap(), "bestmove none");
    p.send("quit");
    let status = p.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn stop_interrupts_an_infinite_search() {
    let mut p = Proc::start();
    p.send("position text 7,4,1,7,4,18,0,17,1/1,4,3,20,0,6,6,4,1 w 35,23 5,7");
    p.send("go infinite");
    std::thread::sleep(Duration::from_millis(500));
    let t = Instant::now();
    p.send("stop");
    let lines = p.until("bestmove", Duration::from_secs(10));
    assert!(t.elapsed() < Duration::from_secs(5));
    let board: Board = "7,4,1,7,4,18,0,17,1/1,4,3,20,0,6,6,4,1 w 35,23 5,7"
        .parse()
        .unwrap();
    let hole: u8 = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(board.is_legal(hole - 1));
    // Ponder: no bestmove before ponderhit, then one within the budget.
    p.send("position start moves 7");
    p.send("go ponder movetime 400");
    std::thread::sleep(Duration::from_millis(600));
    p.send("isready");
    let mid = p.until("readyok", Duration::from_secs(5));
    assert!(!mid.iter().any(|l| l.starts_with("bestmove")), "{mid:?}");
    p.send("ponderhit");
    let after = p.until("bestmove", Duration::from_secs(5));
    assert!(after.last().unwrap().starts_with("bestmove "));
    p.send("quit");
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(BIN).args(args).output().expect("run solver");
    assert!(
        out.status.success(),
        "solver {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

#[test]
fn match_against_the_engine_as_a_process() {
    let exec = format!("exec:{BIN} toguz engine");
    let r = json(&[
        "toguz", "match", "--a", &exec, "--b", "full", "--nodes", "1500", "--games", "4", "--jobs",
        "2", "--quiet", "--json",
    ]);
    assert_eq!(r["games"], 4, "{r}");
    assert_eq!(r["engine_errors"], serde_json::json!([0, 0]), "{r}");
    let wdl = ["wins", "draws", "losses"]
        .iter()
        .map(|k| r[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(wdl, 4);
    // The process searched (its info lines were read) and played its moves.
    assert!(r["moves"][0].as_u64().unwrap() > 20, "{r}");
    assert!(r["nodes"][0].as_u64().unwrap() > 0, "{r}");
    // A program that is not an engine is refused before the match.
    let bad = Command::new(BIN)
        .args([
            "toguz",
            "match",
            "--a",
            "exec:/nonexistent/engine",
            "--b",
            "full",
            "--nodes",
            "100",
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let msg = String::from_utf8_lossy(&bad.stderr);
    assert!(msg.contains("cannot start"), "{msg}");
}

#[test]
fn search_multipv_all_scores_every_move() {
    let pos = "7,4,1,7,4,18,0,17,1/1,4,3,20,0,6,6,4,1 w 35,23 5,7";
    let board: Board = pos.parse().unwrap();
    let r = json(&[
        "toguz",
        "search",
        pos,
        "--depth",
        "6",
        "--multipv",
        "all",
        "--no-tables",
        "--json",
    ]);
    let lines = r["lines"].as_array().expect("lines");
    let legal = (0..9).filter(|&m| board.is_legal(m)).count();
    assert_eq!(lines.len(), legal);
    assert_eq!(r["best"], lines[0]["hole"]);
    let scores: Vec<i64> = lines.iter().map(|l| l["score"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}
