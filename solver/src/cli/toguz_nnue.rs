//! `solver toguz train-net`: the neural evaluation's training pipeline in
//! one command — self-play data (resumable), recorded games, training,
//! the network file.

use super::toguz::{command_line, read_games};
use super::{print_json, CliError, CliResult};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::PathBuf;
use std::time::Instant;
use toguz::nnue::{data, train as nettrain};
use toguz::selfplay::EngineSpec;
use toguz::train::{self, SelfPlayOptions};

/// Arguments of `solver toguz train-net`.
#[derive(clap::Args, Debug)]
pub struct TrainNetArgs {
    /// Output network file.
    #[arg(long)]
    out: PathBuf,
    /// Self-play data file: games are appended as they finish, and the
    /// games already in it are not played again.
    #[arg(long)]
    data: PathBuf,
    #[command(flatten)]
    self_play: SelfPlayArgs,
    /// Self-play threads (games in parallel).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Endgame share tables: positions in them get their exact value in the
    /// label.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Also learn from the games of this record file (by their results).
    #[arg(long)]
    records: Option<PathBuf>,
    /// Training passes.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam step size (decayed to a tenth over the epochs).
    #[arg(long, default_value_t = 0.002)]
    learning_rate: f64,
    /// Share of the label given by the game result (the rest by the search
    /// score or the exact value).
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// Only play the self-play games; do not train.
    #[arg(long)]
    data_only: bool,
    /// No progress display on stderr.
    #[arg(long)]
    quiet: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// The self-play games of `train` and `train-net`: how many, how deep,
/// from which openings, by which engine.
#[derive(clap::Args, Debug, Clone)]
pub struct SelfPlayArgs {
    /// Self-play games (numbered 0..N; each seeded by --seed and its number).
    #[arg(long, default_value_t = 2000)]
    pub games: usize,
    /// Node budget per self-play move.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Random plies from the start before each self-play game.
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Engine that plays the self-play games (match syntax, a setting of
    /// this build). Default: `full` (today's engine, the built-in network)
    /// for `train-net`; `full-learned-endgame` (the linear model) for
    /// `train`.
    #[arg(long)]
    pub engine: Option<String>,
    /// Seed of the self-play openings (and, for `train-net`, of the
    /// network's initial weights and sample order).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl SelfPlayArgs {
    /// The self-play options, the engine `default_engine` unless
    /// `--engine` names another; an engine run as another program is
    /// refused.
    pub fn options(&self, default_engine: &str) -> Result<SelfPlayOptions, CliError> {
        let text = self.engine.as_deref().unwrap_or(default_engine);
        let spec: EngineSpec = text.parse().map_err(|e| format!("--engine: {e}"))?;
        if spec.exec.is_some() {
            return Err(CliError::from("--engine must be a setting of this build"));
        }
        Ok(SelfPlayOptions {
            games: self.games,
            nodes: self.nodes,
            random_plies: self.random_plies,
            seed: self.seed,
            config: spec.config,
        })
    }
}

/// Run `solver toguz train-net`.
pub fn train_net(a: TrainNetArgs) -> CliResult {
    if !(a.lambda.is_finite() && (0.0..=1.0).contains(&a.lambda)) {
        return Err(CliError::from("--lambda must be in 0..1"));
    }
    if a.batch == 0 || !(1..=256).contains(&a.jobs) {
        return Err(CliError::from("--batch must be positive and --jobs 1..256"));
    }
    let t = Instant::now();
    let sp = a.self_play.options("full")?;
    let tables = match &a.tables {
        Some(d) => Some(toguz::egtb::Tables::open(d)?),
        None => None,
    };
    let bar = ProgressBar::with_draw_target(
        Some(a.self_play.games as u64),
        if a.quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        },
    );
    bar.set_style(
        ProgressStyle::with_template(
            "self-play [{wide_bar}] {pos}/{len} games ({elapsed}, ETA {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let played = data::generate(&a.data, &sp, tables.as_ref(), a.jobs, &|done, _| {
        bar.set_position(done as u64)
    })
    .map_err(|e| CliError::from(e.to_string()))?;
    bar.finish_and_clear();
    let selfplay_seconds = t.elapsed().as_secs_f64();
    let games = data::read(&a.data).map_err(|e| CliError::from(e.to_string()))?;
    let mut samples: Vec<train::Sample> = games
        .range(0..a.self_play.games)
        .flat_map(|(_, v)| v.iter().copied())
        .collect();
    let n_self = samples.len();
    if !a.quiet {
        eprintln!(
            "self-play: {played} games played now, {} in use, {n_self} positions ({selfplay_seconds:.0} s)",
            games.range(0..a.self_play.games).count()
        );
    }
    if a.data_only {
        return Ok(());
    }
    if let Some(file) = &a.records {
        let rec = train::record_samples(&read_games(file)?);
        if !a.quiet {
            eprintln!("{} positions from {}", rec.len(), file.display());
        }
        samples.extend(rec);
    }
    if samples.is_empty() {
        return Err(CliError::from(
            "no training positions (give --games or --records)",
        ));
    }
    // Fail on an unwritable output before training.
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&a.out)
        .map_err(|e| format!("{}: {e}", a.out.display()))?;
    let opts = nettrain::NetTrainOptions {
        epochs: a.epochs,
        batch: a.batch,
        learning_rate: a.learning_rate,
        lambda: a.lambda,
        seed: a.self_play.seed,
        ..nettrain::NetTrainOptions::default()
    };
    let quiet = a.quiet;
    let t_train = Instant::now();
    let (net, report) = nettrain::train(&samples, &opts, &command_line(), &mut |e, tr, ho| {
        if !quiet {
            eprintln!(
                "epoch {e}: training loss {tr:.5}, held-out {ho:.5} ({:.0} s)",
                t_train.elapsed().as_secs_f64()
            );
        }
    });
    std::fs::write(&a.out, net.to_bytes()).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let train_seconds = t_train.elapsed().as_secs_f64();
    if a.json {
        #[derive(serde::Serialize)]
        struct Out<'a> {
            out: String,
            self_play_positions: usize,
            selfplay_seconds: f64,
            train_seconds: f64,
            #[serde(flatten)]
            report: &'a nettrain::NetTrainReport,
        }
        return print_json(&Out {
            out: a.out.display().to_string(),
            self_play_positions: n_self,
            selfplay_seconds,
            train_seconds,
            report: &report,
        });
    }
    println!(
        "{} positions ({} self-play), {} held out; material slope {:.4}/stone; held-out loss {:.5} (material only) -> {:.5} (trained); self-play {:.0} s, training {:.0} s; network in {}",
        report.train_positions + report.holdout_positions,
        n_self,
        report.holdout_positions,
        report.material_slope,
        report.holdout_loss_material,
        report.holdout_loss_trained,
        selfplay_seconds,
        train_seconds,
        a.out.display()
    );
    Ok(())
}
