//! `solver <game> plan` and `generate --only KEY`: the plan is a graph whose
//! jobs, run one process each in the plan's order, write exactly the files
//! of a plain `generate`, byte for byte (the oracle: `generate` itself);
//! a job whose input is missing, or an unknown key, is refused with one
//! clear line and exit status 2. Small games (Nine's 4-stone moving phase
//! and 3-stone game with its placement sectors, Morabaraba up to 4 stones a
//! side, Lasker's 3-stone game pair by pair, the Toguz share tables up to
//! 5 stones); the Snakemake run of the same graphs is
//! `scripts/workflow-test.sh`.

use serde_json::Value as Json;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn solver(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(args)
        .output()
        .unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("workflow-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Every file of a directory and its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// The plan of `game` with `size` options, checked to be a graph that runs
/// in its order: keys unique, every input an earlier job, no file written
/// twice.
fn plan(game: &str, size: &[&str]) -> Vec<Json> {
    let mut args = vec![game, "plan", "--json"];
    args.extend(size);
    let out = solver(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plan: Json = serde_json::from_slice(&out.stdout).unwrap();
    let jobs = plan["jobs"].as_array().unwrap().clone();
    let mut wave_of = BTreeMap::new();
    for job in &jobs {
        // A job's wave is one more than the latest wave it reads.
        let wave = job["wave"].as_u64().unwrap();
        let after = job["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| wave_of[i.as_str().unwrap()] + 1)
            .max()
            .unwrap_or(0);
        assert_eq!(wave, after, "{game}: the wave of {}", job["key"]);
        wave_of.insert(job["key"].as_str().unwrap().to_string(), wave);
    }
    assert_eq!(
        plan["waves"].as_u64().unwrap(),
        wave_of.values().max().unwrap() + 1
    );
    let mut before = BTreeSet::new();
    let mut written = BTreeSet::new();
    for job in &jobs {
        let key = job["key"].as_str().unwrap().to_string();
        for input in job["inputs"].as_array().unwrap() {
            assert!(
                before.contains(input.as_str().unwrap()),
                "{game}: job {key} reads {input}, not an earlier job"
            );
        }
        assert!(before.insert(key.clone()), "{game}: key {key} twice");
        for out in job["outputs"].as_array().unwrap() {
            assert!(written.insert(out.as_str().unwrap().to_string()));
        }
        assert!(job["memory_bytes"].as_u64().unwrap() > 0);
        assert!(job["cpu_seconds"].as_f64().unwrap() >= 0.0);
    }
    jobs
}

/// `plan --progress DIR` once the first `done` jobs of the plan have run
/// into `dir`: those jobs done, the next one named, their slots counted.
fn assert_progress(game: &str, size: &[&str], dir: &Path, jobs: &[Json], done: usize) {
    let mut args = vec![game, "plan", "--json", "--progress", dir.to_str().unwrap()];
    args.extend(size);
    let out = solver(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plan: Json = serde_json::from_slice(&out.stdout).unwrap();
    let progress = &plan["progress"];
    assert_eq!(progress["jobs_done"], done, "{game}: jobs done");
    let slots: u64 = jobs[..done]
        .iter()
        .map(|j| j["slots"].as_u64().unwrap())
        .sum();
    assert_eq!(progress["slots_done"], slots, "{game}: slots done");
    let next = jobs.get(done).map(|j| j["key"].clone());
    assert_eq!(
        progress["next"],
        next.unwrap_or(Json::Null),
        "{game}: next job"
    );
    for (i, job) in plan["jobs"].as_array().unwrap().iter().enumerate() {
        assert_eq!(job["done"], i < done, "{game}: job {}", job["key"]);
    }
}

/// Run every job of the plan with `generate --only` into one directory, a
/// plain `generate` into another, and compare.
fn jobs_equal_generate(game: &str, size: &[&str]) {
    let name = format!("{game}{}", size.join(""));
    let jobs = plan(game, size);
    let plain = temp_dir(&format!("{name}-plain"));
    let only = temp_dir(&format!("{name}-only"));
    let mut args = vec![
        game,
        "generate",
        "--quiet",
        "--dir",
        plain.to_str().unwrap(),
    ];
    args.extend(size);
    let out = solver(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (done, job) in jobs.iter().enumerate() {
        if done == jobs.len() / 2 {
            assert_progress(game, size, &only, &jobs, done);
        }
        let key = job["key"].as_str().unwrap();
        let mut args = vec![game, "generate", "--quiet", "--dir", only.to_str().unwrap()];
        args.extend(size);
        args.extend(["--only", key]);
        let out = solver(&args);
        assert!(
            out.status.success(),
            "{game} --only {key}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The job wrote its outputs, nothing else of later jobs.
        for f in job["outputs"].as_array().unwrap() {
            assert!(
                only.join(f.as_str().unwrap()).is_file(),
                "{game} {key}: {f}"
            );
        }
    }
    assert_progress(game, size, &only, &jobs, jobs.len());
    let (a, b) = (files(&plain), files(&only));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "{game}: other files"
    );
    let planned: BTreeSet<String> = jobs
        .iter()
        .flat_map(|j| j["outputs"].as_array().unwrap().clone())
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        planned,
        a.keys().cloned().collect(),
        "{game}: the plan's files"
    );
    for (f, bytes) in &a {
        assert!(bytes == &b[f], "{game}: {f} differs from generate's");
    }
    std::fs::remove_dir_all(&plain).unwrap();
    std::fs::remove_dir_all(&only).unwrap();
}

#[test]
fn nine_jobs_equal_generate() {
    // The moving phase of the 4-stone game (pairs of two subspaces, exits),
    // the placement sectors of the 3-stone game (sectors reading sectors
    // and subspaces).
    jobs_equal_generate("nine", &["--stones", "4"]);
    jobs_equal_generate("nine", &["--stones", "3", "--placement"]);
}

#[test]
fn morabaraba_jobs_equal_generate() {
    jobs_equal_generate("morabaraba", &["--stones", "4"]);
    // The whole 4-stone game: its placement sectors read sectors and pairs.
    jobs_equal_generate("morabaraba", &["--stones", "4", "--placement"]);
}

#[test]
fn toguz_jobs_equal_generate() {
    jobs_equal_generate("toguz", &["--max-stones", "5"]);
}

#[test]
fn lasker_jobs_equal_generate() {
    // The 3-stone game: 10 sector pairs, each reading the pairs its
    // placements and removals lead into.
    let jobs = plan("lasker", &["--stones", "3"]);
    assert_eq!(jobs.len(), 10);
    assert_eq!(jobs[jobs.len() - 1]["key"], "0-0-3-3");
    jobs_equal_generate("lasker", &["--stones", "3"]);
}

#[test]
fn single_job_games_list_every_file() {
    // Six is one job: every table of the game.
    let six = plan("six", &[]);
    assert_eq!(six.len(), 1);
    assert_eq!(six[0]["key"], "all");
    assert_eq!(six[0]["outputs"].as_array().unwrap().len(), 134);
}

/// A job refused: exit status 2 and one line on stderr containing `what`.
fn refused(args: &[&str], what: &str) {
    let out = solver(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains(what), "{args:?}: {err}");
}

#[test]
fn only_refuses_unknown_keys_and_missing_inputs() {
    let dir = temp_dir("refused");
    let d = dir.to_str().unwrap();
    refused(
        &[
            "nine", "generate", "--stones", "4", "--dir", d, "--only", "9-9",
        ],
        "no job `9-9`",
    );
    let missing = dir.join("nine-flying-3-3.tb");
    refused(
        &[
            "nine", "generate", "--stones", "4", "--dir", d, "--only", "3-4",
        ],
        &format!("{}: missing", missing.display()),
    );
    refused(
        &[
            "morabaraba",
            "generate",
            "--stones",
            "4",
            "--dir",
            d,
            "--only",
            "4-4",
        ],
        "morabaraba-flying-4-3.tb: missing",
    );
    refused(
        &[
            "toguz",
            "generate",
            "--max-stones",
            "3",
            "--dir",
            d,
            "--only",
            "2",
        ],
        "toguz-0-00.tb: missing",
    );
    refused(
        &["six", "generate", "--dir", d, "--only", "5-5"],
        "no job `5-5`",
    );
    refused(
        &[
            "lasker", "generate", "--stones", "3", "--dir", d, "--only", "3-2-0-1",
        ],
        "lasker-flying-3-3-3-0-0.tb: missing",
    );
    // Nothing was written for a refused job.
    assert!(!dir.exists() || std::fs::read_dir(&dir).unwrap().next().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}
