//! Match statistics of the Elo ladder: the Elo difference of a score with its
//! 95 % interval, and the sequential probability ratio test (SPRT) that
//! accepts or rejects a change. Elo is the logistic model, E = 1 / (1 +
//! 10^(−Elo/400)); the per-game variance is the trinomial one of the observed
//! wins, draws and losses; the SPRT uses the normal approximation of the
//! log-likelihood ratio (as in Stockfish's fishtest, "GSPRT"):
//! LLR = N (s1 − s0) (2 s − s0 − s1) / (2 σ²), with α = β = 0.05, so it
//! accepts H1 at LLR ≥ ln(19) ≈ 2.94 and H0 at LLR ≤ −2.94.

/// Expected score of an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference of an expected score (clamped to ±2000 at 0 and 1).
pub fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    (-400.0 * (1.0 / s - 1.0).log10()).clamp(-2000.0, 2000.0)
}

/// An Elo estimate with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloInterval {
    /// Point estimate.
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// Mean score and per-game variance of a W/D/L count.
fn mean_var(w: usize, d: usize, l: usize) -> (f64, f64, f64) {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return (0.5, 0.25, 0.0);
    }
    let s = (w as f64 + d as f64 / 2.0) / n;
    let var = (w as f64 * (1.0 - s).powi(2) + d as f64 * (0.5 - s).powi(2) + l as f64 * s * s) / n;
    (s, var, n)
}

/// Elo difference of W/D/L with a 95 % interval (normal approximation of the
/// mean score, mapped through the Elo curve).
pub fn elo_interval(w: usize, d: usize, l: usize) -> EloInterval {
    let (s, var, n) = mean_var(w, d, l);
    if n == 0.0 {
        return EloInterval {
            elo: 0.0,
            low: -2000.0,
            high: 2000.0,
        };
    }
    let half = 1.959_964 * (var / n).sqrt();
    EloInterval {
        elo: elo_of(s),
        low: elo_of(s - half),
        high: elo_of(s + half),
    }
}

/// No SPRT verdict before this many games.
pub const MIN_GAMES: f64 = 20.0;

/// SPRT hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

impl Default for Sprt {
    /// H0: 0 Elo, H1: +10 Elo, α = β = 0.05.
    fn default() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub enum Verdict {
    /// H1 accepted: the change gains (at least about `elo1`).
    H1,
    /// H0 accepted: the change does not gain.
    H0,
    /// Not decided yet.
    #[default]
    Continue,
}

/// The SPRT's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct SprtResult {
    /// Log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// Accept H0 at or below.
    pub lower: f64,
    /// Accept H1 at or above.
    pub upper: f64,
    /// Verdict.
    pub verdict: Verdict,
}

impl Sprt {
    /// Test W/D/L.
    pub fn test(&self, w: usize, d: usize, l: usize) -> SprtResult {
        let lower = (self.beta / (1.0 - self.alpha)).ln();
        let upper = ((1.0 - self.beta) / self.alpha).ln();
        let (s, var, n) = mean_var(w, d, l);
        let llr = if n == 0.0 {
            0.0
        } else {
            // A degenerate variance (all games alike) is floored so that a
            // handful of identical results cannot decide alone.
            let var = var.max(0.01);
            let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
            n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
        };
        let verdict = if n < MIN_GAMES {
            Verdict::Continue
        } else if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        };
        SprtResult {
            llr,
            lower,
            upper,
            verdict,
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::H1 => "H1 accepted (gain)",
            Verdict::H0 => "H0 accepted (no gain)",
            Verdict::Continue => "undecided",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        // 10^(1/4): a 64.0 % score is +100 Elo in the logistic model.
        assert!((elo_of(score_of(100.0)) - 100.0).abs() < 1e-9);
        assert!((score_of(100.0) - 0.640_065).abs() < 1e-6);
        assert!(elo_of(0.5).abs() < 1e-12);
        assert!((elo_of(0.75) - 190.848_501).abs() < 1e-5);
    }

    #[test]
    fn interval_of_a_plain_count() {
        // 60 wins, 40 losses: s = 0.6, sd of the mean = sqrt(0.24/100) =
        // 0.04899; 95 % interval of the score 0.504 .. 0.696.
        let e = elo_interval(60, 0, 40);
        assert!((e.elo - elo_of(0.6)).abs() < 1e-9);
        assert!((e.low - elo_of(0.6 - 1.959_964 * 0.048_989_8)).abs() < 0.01);
        assert!((e.high - elo_of(0.6 + 1.959_964 * 0.048_989_8)).abs() < 0.01);
        assert!(e.low > 0.0 && e.low < 5.0);
    }

    #[test]
    fn sprt_decides_clear_cases_only() {
        let t = Sprt::default();
        assert_eq!(t.test(0, 0, 0).verdict, Verdict::Continue);
        assert_eq!(t.test(10, 0, 0).verdict, Verdict::Continue);
        assert_eq!(t.test(55, 0, 45).verdict, Verdict::Continue);
        // 700-300 is far above +10 Elo; 400-600 far below 0.
        assert_eq!(t.test(700, 0, 300).verdict, Verdict::H1);
        assert_eq!(t.test(400, 0, 600).verdict, Verdict::H0);
        // LLR by hand for 60-0-40: s0 = .5, s1 = score_of(10) = .514387,
        // var = .24: 100 * .014387 * (1.2 - 1.014387) / .48 = 0.5564.
        let r = t.test(60, 0, 40);
        assert!((r.llr - 0.5564).abs() < 1e-3, "{r:?}");
        assert!((r.upper - 19f64.ln()).abs() < 1e-12);
    }
}
