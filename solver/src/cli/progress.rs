//! Progress display for long jobs: indicatif bars on stderr (hidden when
//! stderr is not a terminal or with `--quiet`) and one log line per
//! finished unit of work.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use mill::index::nine::{self, Subspace};
use mill::tables::{GenerateObserver, PairReport, SectorObserver, SectorReport};
use std::sync::Mutex;
use tablebase::retro::Observer;

/// Bars for the passes of a job, plus an overall bar.
pub struct Progress {
    quiet: bool,
    multi: MultiProgress,
    overall: ProgressBar,
    pass: Mutex<Option<ProgressBar>>,
}

impl Progress {
    /// A display with an overall bar of `total` units (`unit` names them).
    pub fn new(quiet: bool, total: u64, unit: &str) -> Progress {
        let target = if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let multi = MultiProgress::with_draw_target(target);
        let overall = multi.add(ProgressBar::new(total));
        overall.set_style(
            ProgressStyle::with_template(&format!(
                "{{prefix:>12}} [{{wide_bar}}] {{human_pos}}/{{human_len}} {unit} ({{elapsed}}, ETA {{eta}})"
            ))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        overall.set_prefix("overall");
        Progress {
            quiet,
            multi,
            overall,
            pass: Mutex::new(None),
        }
    }

    /// Print a log line above the bars (nothing when quiet).
    pub fn log(&self, line: &str) {
        if !self.quiet {
            if self.multi.is_hidden() {
                eprintln!("{line}");
            } else {
                let _ = self.multi.println(line);
            }
        }
    }

    /// Advance the overall bar.
    pub fn advance_overall(&self, n: u64) {
        self.overall.inc(n);
    }

    /// Close all bars.
    pub fn done(&self) {
        self.overall.finish_and_clear();
    }
}

impl Observer for Progress {
    fn start(&self, label: &str, total: u64) {
        let bar = self.multi.add(ProgressBar::new(total));
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>12} [{wide_bar}] {percent:>3}% {per_sec} ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_prefix(label.to_owned());
        if let Some(old) = self
            .pass
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .replace(bar)
        {
            old.finish_and_clear();
        }
    }

    fn advance(&self, n: u64) {
        if let Some(bar) = &*self.pass.lock().unwrap_or_else(|e| e.into_inner()) {
            bar.inc(n);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.pass.lock().unwrap_or_else(|e| e.into_inner()).take() {
            bar.finish_and_clear();
        }
    }
}

impl GenerateObserver for Progress {
    fn skipped(&self, r: &PairReport) {
        self.log(&format!("{}: complete on disk, skipped", r.pair));
        self.advance_overall(r.slots());
    }

    fn solving(&self, pair: Subspace, positions: u64, slots: u64) {
        self.log(&format!(
            "{pair}: solving {positions} positions ({slots} slots)"
        ));
    }

    fn solved(&self, r: &PairReport) {
        let seconds = r.seconds.max(1e-9);
        let threads = rayon::current_num_threads();
        self.log(&format!(
            "{}: solved {} positions in {:.1} s ({:.2} M slots/s, {:.2} M a thread on {threads})",
            r.pair,
            r.positions(),
            r.seconds,
            r.slots() as f64 / seconds / 1e6,
            r.slots() as f64 / seconds / 1e6 / threads as f64,
        ));
        self.advance_overall(r.slots());
    }
}

impl SectorObserver for Progress {
    fn skipped(&self, r: &SectorReport) {
        self.log(&format!("{}: complete on disk, skipped", r.sector));
        self.advance_overall(r.slots);
    }

    fn solved(&self, r: &SectorReport) {
        let seconds = r.seconds.max(1e-9);
        let threads = rayon::current_num_threads();
        self.log(&format!(
            "{}: solved {} slots in {:.1} s ({:.2} M slots/s, {:.2} M a thread on {threads})",
            r.sector,
            r.slots,
            r.seconds,
            r.slots as f64 / seconds / 1e6,
            r.slots as f64 / seconds / 1e6 / threads as f64,
        ));
        self.advance_overall(r.slots);
    }
}

/// Slots of a pair, the unit of the overall generation bar.
pub fn pair_positions(pair: Subspace) -> u64 {
    if pair.us == pair.them {
        nine::size(pair)
    } else {
        nine::size(pair) + nine::size(pair.swapped())
    }
}
