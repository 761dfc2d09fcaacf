//! Check share tables against the exact endgame solver
//! ([`crate::endgame`]), an independent forward search: for every
//! position of a table, the kazan splits at which the stored shares say the
//! result changes (the mover's target equal to its share and one above; the
//! opponent's likewise) are proved by the solver and compared.

use super::database::EgtbError;
use super::index::Layer;
use super::probe::Tables;
use crate::board::{Board, TOTAL_STONES, WIN_STONES};
use crate::endgame::{GameResult, Prover};
use rayon::prelude::*;

/// What a check found.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct CheckReport {
    /// Positions checked.
    pub positions: u64,
    /// Results compared (positions × kazan splits).
    pub compared: u64,
    /// Results the solver proved and the tables agree with.
    pub agreed: u64,
    /// Results the solver could not prove within its budget where the
    /// tables say draw (play that never ends is a draw; the solver can only
    /// prove finite results).
    pub unproved_draws: u64,
    /// Results the solver could not prove where the tables say win or loss.
    pub unproved_decisive: u64,
    /// Disagreements (position text, tables, solver), at most 10.
    pub mismatches: Vec<(String, String, String)>,
    /// Number of disagreements.
    pub mismatch_count: u64,
    /// Positions (text) of unproved wins and losses, at most 10.
    pub unproved_examples: Vec<String>,
}

impl CheckReport {
    /// Add another report's counts (keeping at most 10 mismatches).
    pub fn add(&mut self, o: CheckReport) {
        self.positions += o.positions;
        self.compared += o.compared;
        self.agreed += o.agreed;
        self.unproved_draws += o.unproved_draws;
        self.unproved_decisive += o.unproved_decisive;
        self.mismatch_count += o.mismatch_count;
        self.mismatches.extend(o.mismatches);
        self.mismatches.truncate(10);
        self.unproved_examples.extend(o.unproved_examples);
        self.unproved_examples.truncate(10);
    }
}

fn name(r: GameResult) -> &'static str {
    match r {
        GameResult::Win => "win",
        GameResult::Draw => "draw",
        GameResult::Loss => "loss",
    }
}

/// Check every `stride`-th position of `layer` (1: all; `budget`: solver
/// nodes per result; `progress` is called with the number of slots passed).
pub fn check_layer(
    tables: &Tables,
    layer: Layer,
    budget: u64,
    stride: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<CheckReport, EgtbError> {
    let stride = stride.max(1);
    let n = layer.stones;
    let size = layer.size();
    let chunk = 1u64 << 10;
    let reports: Vec<Result<CheckReport, EgtbError>> = (0..size.div_ceil(chunk))
        .into_par_iter()
        .map_init(Prover::new, |prover, c| {
            let mut r = CheckReport::default();
            let range = c * chunk..((c + 1) * chunk).min(size);
            for slot in range.clone().filter(|s| s % stride == 0) {
                let holes = layer.holes(slot).expect("slot in range");
                let base = layer.board(holes);
                let share = tables.share(&base)?.expect("layer within the tables");
                r.positions += 1;
                let (v, u) = (share.mover, share.opponent);
                let mut targets = [v, v + 1, n + 2 - u, n + 1 - u];
                targets.sort_unstable();
                let mut last = 0;
                for x in targets {
                    if x == last || !(1..=n + 1).contains(&x) {
                        continue;
                    }
                    last = x;
                    // The mover needs x more stones, the opponent n + 2 − x.
                    let km = WIN_STONES - x;
                    let ko = (TOTAL_STONES - n as u32 - km as u32) as u8;
                    let b = Board::from_parts(holes, [km, ko], base.tuzdyk, base.side);
                    let want = share.result(km, ko);
                    r.compared += 1;
                    match prover.solve(&b, budget) {
                        Some(s) if s.result == want => r.agreed += 1,
                        Some(s) => {
                            r.mismatch_count += 1;
                            if r.mismatches.len() < 10 {
                                r.mismatches.push((
                                    b.to_string(),
                                    name(want).into(),
                                    name(s.result).into(),
                                ));
                            }
                        }
                        None if want == GameResult::Draw => r.unproved_draws += 1,
                        None => {
                            r.unproved_decisive += 1;
                            if r.unproved_examples.len() < 10 {
                                r.unproved_examples.push(b.to_string());
                            }
                        }
                    }
                }
            }
            progress(range.end - range.start);
            Ok(r)
        })
        .collect();
    let mut total = CheckReport::default();
    for r in reports {
        total.add(r?);
    }
    Ok(total)
}
