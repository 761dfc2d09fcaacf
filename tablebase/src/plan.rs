//! A table set as a graph of jobs: what a workflow engine (Snakemake, on
//! one machine or a cluster) needs to build the set one table at a time.
//! A game lists its jobs — the unit its generator already solves and
//! writes as files (a pair of subspaces, a sector, a layer, or the whole
//! game when it is solved in memory at once) — with the jobs each reads
//! from, the files it writes and its estimated cost; this module checks
//! that the list is a graph a scheduler can run (every input an earlier
//! job, no file written twice) and finds what one job still lacks on disk.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One node of the graph: a unit of generation.
#[derive(Clone, Debug)]
pub struct Job<K> {
    /// The game's own name of the unit (a subspace pair, a sector, a layer).
    pub id: K,
    /// Its key in the plan and on the command line (`generate --only KEY`).
    pub key: String,
    /// Keys of the jobs whose files it reads.
    pub inputs: Vec<String>,
    /// The files it writes, relative to the table directory.
    pub outputs: Vec<String>,
    /// Slots it solves.
    pub slots: u64,
    /// Estimated peak resident memory, bytes.
    pub memory: u64,
    /// Estimated CPU seconds (all threads together).
    pub cpu_seconds: f64,
}

/// A game's table set as jobs in an order that runs (every input before
/// the jobs that read it).
#[derive(Clone, Debug)]
pub struct Plan<K> {
    /// The command that builds one job (`solver nine generate --only KEY`),
    /// without its size options.
    pub command: String,
    /// The jobs, in an order that runs.
    pub jobs: Vec<Job<K>>,
    /// What the estimates rest on, and anything a reader of the plan must
    /// know (a job that is a whole game, say).
    pub notes: Vec<String>,
}

/// What is wrong with a plan or with running one of its jobs.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Two jobs have one key.
    #[error("two jobs are called `{0}`")]
    DuplicateKey(String),
    /// Two jobs write one file.
    #[error("two jobs write `{0}`")]
    DuplicateOutput(String),
    /// A job reads a job that is not before it (unknown, itself, or later:
    /// the plan would not run in its order, or has a cycle).
    #[error("job `{job}` reads `{input}`, which is not an earlier job of the plan")]
    NotBefore {
        /// The job.
        job: String,
        /// Its input.
        input: String,
    },
    /// No job has the key asked for.
    #[error("no job `{key}` in the plan ({hint})")]
    UnknownKey {
        /// The key asked for.
        key: String,
        /// What keys look like, from the plan itself.
        hint: String,
    },
    /// A file a job reads is not there yet.
    #[error("{path}: missing, an input of job `{job}` (build job `{input}` first)")]
    MissingInput {
        /// The file.
        path: PathBuf,
        /// The job that needs it.
        job: String,
        /// The job that writes it.
        input: String,
    },
}

impl<K> Plan<K> {
    /// The job called `key`.
    pub fn job(&self, key: &str) -> Result<&Job<K>, PlanError> {
        self.jobs
            .iter()
            .find(|j| j.key == key)
            .ok_or_else(|| PlanError::UnknownKey {
                key: key.to_owned(),
                hint: self.key_hint(),
            })
    }

    /// A few keys of the plan, to say what keys look like.
    fn key_hint(&self) -> String {
        let n = self.jobs.len();
        let mut shown: Vec<&str> = self.jobs.iter().take(3).map(|j| j.key.as_str()).collect();
        if n > 4 {
            shown.push("…");
        }
        if n > 3 {
            shown.push(&self.jobs[n - 1].key);
        }
        format!("{n} jobs: {}", shown.join(", "))
    }

    /// Check that the plan runs in its order: keys and output files are
    /// unique, and every input is a job listed before the job that reads
    /// it (so the graph has no cycle).
    pub fn check(&self) -> Result<(), PlanError> {
        let mut seen = BTreeSet::new();
        let mut files = BTreeSet::new();
        for job in &self.jobs {
            for input in &job.inputs {
                if !seen.contains(input.as_str()) {
                    return Err(PlanError::NotBefore {
                        job: job.key.clone(),
                        input: input.clone(),
                    });
                }
            }
            if !seen.insert(job.key.as_str()) {
                return Err(PlanError::DuplicateKey(job.key.clone()));
            }
            for out in &job.outputs {
                if !files.insert(out.as_str()) {
                    return Err(PlanError::DuplicateOutput(out.clone()));
                }
            }
        }
        Ok(())
    }

    /// The job `key`, once every file of its inputs is in `dir`: the first
    /// missing file is the error.
    pub fn ready(&self, key: &str, dir: &Path) -> Result<&Job<K>, PlanError> {
        let job = self.job(key)?;
        let by_key: BTreeMap<&str, &Job<K>> =
            self.jobs.iter().map(|j| (j.key.as_str(), j)).collect();
        for input in &job.inputs {
            let Some(source) = by_key.get(input.as_str()) else {
                return Err(PlanError::NotBefore {
                    job: job.key.clone(),
                    input: input.clone(),
                });
            };
            for out in &source.outputs {
                let path = dir.join(out);
                if !path.is_file() {
                    return Err(PlanError::MissingInput {
                        path,
                        job: job.key.clone(),
                        input: input.clone(),
                    });
                }
            }
        }
        Ok(job)
    }

    /// The wave of every job, in plan order: 0 for a job that reads
    /// nothing, else one more than the latest wave it reads. Jobs of one
    /// wave never read each other, so a scheduler may run them at once;
    /// the number of waves bounds a run's length on any number of
    /// machines from below. Inputs that are not earlier jobs (a plan that
    /// fails [`check`](Self::check)) are ignored.
    pub fn waves(&self) -> Vec<usize> {
        let mut wave_of: BTreeMap<&str, usize> = BTreeMap::new();
        let mut waves = Vec::with_capacity(self.jobs.len());
        for job in &self.jobs {
            let wave = job
                .inputs
                .iter()
                .filter_map(|i| wave_of.get(i.as_str()))
                .map(|w| w + 1)
                .max()
                .unwrap_or(0);
            wave_of.insert(job.key.as_str(), wave);
            waves.push(wave);
        }
        waves
    }

    /// The estimated CPU seconds of the costliest chain of jobs, each
    /// reading the one before: a run's wall time on any number of
    /// machines, one thread a job, is at least this.
    pub fn critical_path(&self) -> f64 {
        let mut finish: BTreeMap<&str, f64> = BTreeMap::new();
        let mut longest = 0.0f64;
        for job in &self.jobs {
            let start = job
                .inputs
                .iter()
                .filter_map(|i| finish.get(i.as_str()))
                .fold(0.0f64, |a, &b| a.max(b));
            let end = start + job.cpu_seconds;
            finish.insert(job.key.as_str(), end);
            longest = longest.max(end);
        }
        longest
    }

    /// How far a run writing into `dir` has got: a job is done when every
    /// file it writes is there (the generators write each file under a
    /// temporary name and rename it when complete, so a file present is a
    /// file finished).
    pub fn progress(&self, dir: &Path) -> Progress {
        let done: Vec<bool> = self
            .jobs
            .iter()
            .map(|j| j.outputs.iter().all(|o| dir.join(o).is_file()))
            .collect();
        let waves = self.waves();
        let wave_count = waves.iter().max().map_or(0, |w| w + 1);
        let mut wave_open = vec![false; wave_count];
        for (w, d) in waves.iter().zip(&done) {
            wave_open[*w] |= !d;
        }
        let mut p = Progress {
            jobs_done: 0,
            slots_done: 0,
            slots: 0,
            cpu_seconds_left: 0.0,
            waves: wave_count,
            waves_done: wave_open.iter().filter(|open| !**open).count(),
            next: done.iter().position(|d| !d),
            done,
        };
        for (job, d) in self.jobs.iter().zip(&p.done) {
            p.slots += job.slots;
            if *d {
                p.jobs_done += 1;
                p.slots_done += job.slots;
            } else {
                p.cpu_seconds_left += job.cpu_seconds;
            }
        }
        p
    }

    /// Total estimated CPU seconds and the largest peak memory of a job.
    pub fn totals(&self) -> (f64, u64) {
        (
            self.jobs.iter().map(|j| j.cpu_seconds).sum(),
            self.jobs.iter().map(|j| j.memory).max().unwrap_or(0),
        )
    }
}

/// A run's progress over a plan ([`Plan::progress`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// For every job in plan order: are all its files in the directory?
    pub done: Vec<bool>,
    /// Jobs done.
    pub jobs_done: usize,
    /// Slots of the jobs done.
    pub slots_done: u64,
    /// Slots of the whole plan.
    pub slots: u64,
    /// Estimated CPU seconds of the jobs not done.
    pub cpu_seconds_left: f64,
    /// Waves of the plan ([`Plan::waves`]).
    pub waves: usize,
    /// Waves whose every job is done.
    pub waves_done: usize,
    /// The first job not done, in plan order (the one a plain resumed
    /// `generate` solves next).
    pub next: Option<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(key: &str, inputs: &[&str], outputs: &[&str]) -> Job<()> {
        Job {
            id: (),
            key: key.into(),
            inputs: inputs.iter().map(|s| s.to_string()).collect(),
            outputs: outputs.iter().map(|s| s.to_string()).collect(),
            slots: 1,
            memory: 1,
            cpu_seconds: 1.0,
        }
    }

    fn plan(jobs: Vec<Job<()>>) -> Plan<()> {
        Plan {
            command: "x".into(),
            jobs,
            notes: vec![],
        }
    }

    #[test]
    fn check_finds_what_would_not_run() {
        let good = plan(vec![job("a", &[], &["a.tb"]), job("b", &["a"], &["b.tb"])]);
        good.check().unwrap();
        let later = plan(vec![job("b", &["a"], &["b.tb"]), job("a", &[], &["a.tb"])]);
        assert!(matches!(later.check(), Err(PlanError::NotBefore { .. })));
        let own = plan(vec![job("a", &["a"], &["a.tb"])]);
        assert!(matches!(own.check(), Err(PlanError::NotBefore { .. })));
        let twice = plan(vec![job("a", &[], &["a.tb"]), job("b", &[], &["a.tb"])]);
        assert!(matches!(twice.check(), Err(PlanError::DuplicateOutput(_))));
        let same = plan(vec![job("a", &[], &["a.tb"]), job("a", &[], &["b.tb"])]);
        assert!(matches!(same.check(), Err(PlanError::DuplicateKey(_))));
    }

    #[test]
    fn ready_names_the_first_missing_file() {
        let dir = std::env::temp_dir().join(format!("plan-ready-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = plan(vec![
            job("a", &[], &["a1.tb", "a2.tb"]),
            job("b", &["a"], &["b.tb"]),
        ]);
        std::fs::write(dir.join("a1.tb"), b"").unwrap();
        match p.ready("b", &dir) {
            Err(PlanError::MissingInput { path, input, .. }) => {
                assert_eq!(path, dir.join("a2.tb"));
                assert_eq!(input, "a");
            }
            other => panic!("{other:?}"),
        }
        std::fs::write(dir.join("a2.tb"), b"").unwrap();
        assert_eq!(p.ready("b", &dir).unwrap().key, "b");
        assert!(matches!(
            p.ready("c", &dir),
            Err(PlanError::UnknownKey { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn waves_follow_the_longest_chain_of_inputs() {
        // a → b → d and a → c: b and c are one wave, d the next.
        let p = plan(vec![
            job("a", &[], &["a.tb"]),
            job("b", &["a"], &["b.tb"]),
            job("c", &["a"], &["c.tb"]),
            job("e", &[], &["e.tb"]),
            job("d", &["b", "e"], &["d.tb"]),
        ]);
        assert_eq!(p.waves(), vec![0, 1, 1, 0, 2]);
        // Every job 1 s: the chain a → b → d is the longest.
        assert_eq!(p.critical_path(), 3.0);
    }

    #[test]
    fn progress_counts_the_jobs_whose_files_are_all_there() {
        let dir = std::env::temp_dir().join(format!("plan-progress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut p = plan(vec![
            job("a", &[], &["a1.tb", "a2.tb"]),
            job("b", &["a"], &["b.tb"]),
            job("c", &["a"], &["c.tb"]),
        ]);
        p.jobs[2].slots = 5;
        p.jobs[2].cpu_seconds = 7.0;
        let empty = p.progress(&dir);
        assert_eq!(
            (empty.jobs_done, empty.waves_done, empty.next),
            (0, 0, Some(0))
        );
        assert_eq!((empty.slots, empty.cpu_seconds_left), (7, 9.0));
        // One file of two is not a job done.
        std::fs::write(dir.join("a1.tb"), b"").unwrap();
        assert_eq!(p.progress(&dir).jobs_done, 0);
        std::fs::write(dir.join("a2.tb"), b"").unwrap();
        std::fs::write(dir.join("c.tb"), b"").unwrap();
        let some = p.progress(&dir);
        assert_eq!(some.done, vec![true, false, true]);
        assert_eq!((some.jobs_done, some.slots_done), (2, 6));
        assert_eq!((some.waves, some.waves_done, some.next), (2, 1, Some(1)));
        assert_eq!(some.cpu_seconds_left, 1.0);
        std::fs::write(dir.join("b.tb"), b"").unwrap();
        let all = p.progress(&dir);
        assert_eq!((all.jobs_done, all.waves_done, all.next), (3, 2, None));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
