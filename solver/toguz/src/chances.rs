//! Win, draw and loss chances from the engine's score: an ordered logistic
//! model fitted on real games ([`crate::calibrate`]), its text file, and the
//! built-in fit (`solver/toguz/src/chances.txt`, written by
//! `solver toguz calibrate … --out`; the command is in its header).
//!
//! With `x` the score in stones for the side to move (a won game counting
//! ±[`SCORE_CAP`]) and `s` the stones on the board, the latent value is
//! `z = x · (slope_open · s + slope_end · (162 − s)) / 162 + bias + white · [White to move]`,
//! and `P(win) = σ(z − d)`, `P(loss) = σ(−z − d)`, `P(draw)` the rest, with
//! `d = draw_width > 0`. Win rises and loss falls with the score whenever
//! both slopes are non-negative ([`Calibration::is_monotone`]).

use crate::board::{Board, Side};
use crate::endgame::GameResult;
use std::sync::OnceLock;

/// Scores are capped at this many stones (a won game counts as this).
pub const SCORE_CAP: f64 = 100.0;

/// Stones in the game (the taper's full board).
const TOTAL: f64 = 162.0;

/// First line of a calibration file.
pub const MAGIC: &str = "# toguz-chances v1";

/// Win, draw and loss probabilities (they add up to 1) from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Wdl {
    /// Chance of winning.
    pub win: f64,
    /// Chance of a draw (81–81, or endless play).
    pub draw: f64,
    /// Chance of losing.
    pub loss: f64,
}

impl Wdl {
    /// The certain result `r`.
    pub fn certain(r: GameResult) -> Wdl {
        let (win, draw, loss) = match r {
            GameResult::Win => (1.0, 0.0, 0.0),
            GameResult::Draw => (0.0, 1.0, 0.0),
            GameResult::Loss => (0.0, 0.0, 1.0),
        };
        Wdl { win, draw, loss }
    }

    /// The same chances from the opponent's view.
    pub fn flip(self) -> Wdl {
        Wdl {
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }

    /// Expected score: win 1, draw ½, loss 0.
    pub fn expected(self) -> f64 {
        self.win + self.draw / 2.0
    }

    /// The probability given to result `r`.
    pub fn of(self, r: GameResult) -> f64 {
        match r {
            GameResult::Win => self.win,
            GameResult::Draw => self.draw,
            GameResult::Loss => self.loss,
        }
    }
}

/// Which terms a calibration uses (the others are zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModelKind {
    /// One slope on the score, a bias and the draw width.
    Score,
    /// The slope tapered by the stones on the board (opening and end).
    Phase,
    /// Tapered slope plus a term for White to move.
    PhaseSide,
}

impl ModelKind {
    /// Every kind, simplest first.
    pub const ALL: [ModelKind; 3] = [ModelKind::Score, ModelKind::Phase, ModelKind::PhaseSide];

    /// The name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            ModelKind::Score => "score",
            ModelKind::Phase => "phase",
            ModelKind::PhaseSide => "phase-side",
        }
    }
}

impl std::str::FromStr for ModelKind {
    type Err = String;
    fn from_str(s: &str) -> Result<ModelKind, String> {
        ModelKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("unknown model `{s}` (expected score, phase or phase-side)"))
    }
}

/// A fitted mapping from score to chances (see the module documentation).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Calibration {
    /// The terms in use.
    pub kind: ModelKind,
    /// Latent value per stone of score with the board full (162 stones).
    pub slope_open: f64,
    /// Latent value per stone of score with the board empty.
    pub slope_end: f64,
    /// Constant of the latent value (the side to move's edge beyond its score).
    pub bias: f64,
    /// Added to the latent value when White is to move.
    pub white: f64,
    /// Half the width of the draw band on the latent scale (> 0).
    pub draw_width: f64,
    /// Node budget per position of the searches the fit was made on.
    pub nodes: u64,
    /// Where the numbers come from (the header comments of the file).
    pub origin: String,
}

/// A calibration file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChancesError {
    /// The file does not start with [`MAGIC`].
    #[error("not a Toguz chances file (first line must be `{MAGIC}`)")]
    Magic,
    /// A line is not `NAME VALUE` with a known name and a valid value.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A value is missing.
    #[error("missing `{0}`")]
    Missing(&'static str),
}

fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

impl Calibration {
    /// The latent value of a score of `score` stones with `stones` on the
    /// board and `white` to move.
    pub fn latent(&self, score: f64, stones: u32, white: bool) -> f64 {
        let x = score.clamp(-SCORE_CAP, SCORE_CAP);
        let s = f64::from(stones.min(162));
        let slope = (self.slope_open * s + self.slope_end * (TOTAL - s)) / TOTAL;
        x * slope + self.bias + if white { self.white } else { 0.0 }
    }

    /// Chances for the side to move of a score of `score` stones (its
    /// view) with `stones` on the board and `white` to move.
    pub fn chances_for(&self, score: f64, stones: u32, white: bool) -> Wdl {
        let z = self.latent(score, stones, white);
        let win = sigmoid(z - self.draw_width);
        let loss = sigmoid(-z - self.draw_width);
        let draw = (1.0 - win - loss).max(0.0);
        Wdl { win, draw, loss }
    }

    /// Chances for the side to move of `board` when the engine scores it
    /// `score` stones; a finished game has its certain result.
    pub fn chances(&self, board: &Board, score: f64) -> Wdl {
        if let Some(o) = board.outcome() {
            return Wdl::certain(match o.sign_for(board.side) {
                1 => GameResult::Win,
                0 => GameResult::Draw,
                _ => GameResult::Loss,
            });
        }
        self.chances_for(score, board.stones_on_board(), board.side == Side::White)
    }

    /// Whether win chances never fall and loss chances never rise with the
    /// score, at every stone count (both slopes non-negative, width > 0).
    pub fn is_monotone(&self) -> bool {
        self.slope_open >= 0.0 && self.slope_end >= 0.0 && self.draw_width > 0.0
    }

    /// The text form ([`Calibration::parse`]).
    pub fn to_text(&self) -> String {
        let mut s = format!("{MAGIC}\n");
        for line in self.origin.lines() {
            s.push_str(&format!("# {line}\n"));
        }
        s.push_str(&format!("model {}\n", self.kind.name()));
        for (name, v) in [
            ("slope_open", self.slope_open),
            ("slope_end", self.slope_end),
            ("bias", self.bias),
            ("white", self.white),
            ("draw_width", self.draw_width),
        ] {
            s.push_str(&format!("{name} {v:.6}\n"));
        }
        s.push_str(&format!("nodes {}\n", self.nodes));
        s
    }

    /// Read the text form: the [`MAGIC`] line, `# comment` lines (the
    /// origin), then `model KIND`, `slope_open`, `slope_end`, `bias`,
    /// `white`, `draw_width` (numbers) and `nodes` (an integer), one per line.
    pub fn parse(text: &str) -> Result<Calibration, ChancesError> {
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(MAGIC) {
            return Err(ChancesError::Magic);
        }
        let mut origin = Vec::new();
        let mut kind = None;
        let mut nodes = None;
        let mut values: [Option<f64>; 5] = [None; 5];
        const NAMES: [&str; 5] = ["slope_open", "slope_end", "bias", "white", "draw_width"];
        for (n, line) in lines.enumerate() {
            let line_no = n + 2;
            let fail = |message: String| ChancesError::Line {
                line: line_no,
                message,
            };
            let line = line.trim();
            if let Some(c) = line.strip_prefix('#') {
                origin.push(c.trim().to_string());
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let Some((name, value)) = line.split_once(' ') else {
                return Err(fail(format!("expected `NAME VALUE`, got `{line}`")));
            };
            let value = value.trim();
            match name {
                "model" => kind = Some(value.parse::<ModelKind>().map_err(fail)?),
                "nodes" => {
                    nodes = Some(
                        value
                            .parse::<u64>()
                            .map_err(|_| fail(format!("bad node count `{value}`")))?,
                    )
                }
                _ => {
                    let Some(k) = NAMES.iter().position(|&x| x == name) else {
                        return Err(fail(format!("unknown name `{name}`")));
                    };
                    let v = value
                        .parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite() && v.abs() < 1e6)
                        .ok_or_else(|| fail(format!("bad number `{value}`")))?;
                    values[k] = Some(v);
                }
            }
        }
        let get = |k: usize| values[k].ok_or(ChancesError::Missing(NAMES[k]));
        let c = Calibration {
            kind: kind.ok_or(ChancesError::Missing("model"))?,
            slope_open: get(0)?,
            slope_end: get(1)?,
            bias: get(2)?,
            white: get(3)?,
            draw_width: get(4)?,
            nodes: nodes.ok_or(ChancesError::Missing("nodes"))?,
            origin: origin.join("\n"),
        };
        if c.draw_width <= 0.0 {
            return Err(ChancesError::Line {
                line: 0,
                message: "draw_width must be positive".to_string(),
            });
        }
        Ok(c)
    }
}

/// The calibration shipped with the engine (`solver/toguz/src/chances.txt`).
pub fn builtin() -> &'static Calibration {
    static C: OnceLock<Calibration> = OnceLock::new();
    C.get_or_init(|| {
        Calibration::parse(include_str!("chances.txt")).expect("built-in chances parse")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_parses_and_round_trips() {
        let c = builtin();
        assert_eq!(
            Calibration::parse(&c.to_text()).unwrap().to_text(),
            c.to_text()
        );
        assert!(c.is_monotone(), "{c:?}");
    }

    #[test]
    fn damaged_files_are_refused() {
        let good = builtin().to_text();
        assert_eq!(Calibration::parse("x\n"), Err(ChancesError::Magic));
        let no_width: String = good
            .lines()
            .filter(|l| !l.starts_with("draw_width"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            Calibration::parse(&no_width),
            Err(ChancesError::Missing("draw_width"))
        );
        let bad = good.replace("bias ", "bias x");
        assert!(matches!(
            Calibration::parse(&bad),
            Err(ChancesError::Line { .. })
        ));
        let negative = format!("{no_width}draw_width -1\n");
        assert!(Calibration::parse(&negative).is_err());
    }

    /// The chances add up to 1, win rises and loss falls with the score at
    /// every stone count and either side to move; a finished game is certain.
    #[test]
    fn chances_sum_to_one_and_are_monotone() {
        let c = builtin();
        for stones in [0u32, 10, 40, 81, 120, 162] {
            for white in [false, true] {
                let mut last: Option<Wdl> = None;
                let mut x = -120.0;
                while x <= 120.0 {
                    let p = c.chances_for(x, stones, white);
                    assert!((p.win + p.draw + p.loss - 1.0).abs() < 1e-12, "{p:?}");
                    assert!(p.win >= 0.0 && p.draw >= 0.0 && p.loss >= 0.0);
                    if let Some(q) = last {
                        assert!(
                            p.win >= q.win && p.loss <= q.loss,
                            "{x} {stones}: {q:?} {p:?}"
                        );
                    }
                    last = Some(p);
                    x += 0.25;
                }
                // A large lead is nearly a certain win.
                assert!(c.chances_for(60.0, stones, white).win > 0.9);
                assert!(c.chances_for(-60.0, stones, white).loss > 0.9);
            }
        }
        let b: Board = "0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 w 82,79 -,-"
            .parse()
            .unwrap();
        assert_eq!(c.chances(&b, -5.0), Wdl::certain(GameResult::Win));
    }
}
