//! The learned evaluation: a linear model over board features, each weight
//! tapered between the opening (all 162 stones on the board) and the end (no
//! stones left), tuned by logistic regression on game results and search
//! scores (`train`, docs/toguz.md). Features, from the side to move's view:
//! stones per hole (a table of 24 count buckets for each of the 18 holes), each
//! kazan (27 buckets of 3 stones), the kazan difference, the tuzdyk of each
//! side by its hole, holes that can be played, the largest capture each side
//! has and whether it can make a tuzdyk, and a tempo term.
//!
//! Inference is integer: the engine's weights are centi-stones × [`SCALE`], so
//! the evaluation is in the search's centi-stone units (one stone of kazan
//! difference is worth about 100).

use super::board::{Board, HOLES, NO_TUZDYK, TOTAL_STONES};
use std::sync::OnceLock;

/// Count buckets per hole (the last one holds 23 stones and more).
pub const HOLE_BUCKETS: usize = 24;
/// Kazan buckets (3 stones each; 81 and more share the last).
pub const KAZAN_BUCKETS: usize = 28;

/// First index of the hole tables: `[mine/theirs][hole 0..9][bucket]`.
pub const F_HOLE: usize = 0;
/// Own kazan bucket.
pub const F_KAZAN_ME: usize = F_HOLE + 2 * 9 * HOLE_BUCKETS;
/// Opponent's kazan bucket.
pub const F_KAZAN_OPP: usize = F_KAZAN_ME + KAZAN_BUCKETS;
/// Own tuzdyk by its hole (1..9 on the opponent's side).
pub const F_TUZ_ME: usize = F_KAZAN_OPP + KAZAN_BUCKETS;
/// Opponent's tuzdyk by its hole.
pub const F_TUZ_OPP: usize = F_TUZ_ME + 9;
/// Kazan difference in stones (dense).
pub const F_KAZAN_DIFF: usize = F_TUZ_OPP + 9;
/// Own non-empty holes.
pub const F_MOB_ME: usize = F_KAZAN_DIFF + 1;
/// Opponent's non-empty holes.
pub const F_MOB_OPP: usize = F_MOB_ME + 1;
/// Largest capture the side to move has now (stones).
pub const F_CAP_ME: usize = F_MOB_OPP + 1;
/// Largest capture the opponent would have if it were to move (stones).
pub const F_CAP_OPP: usize = F_CAP_ME + 1;
/// The side to move can make a tuzdyk now.
pub const F_TUZ_THREAT_ME: usize = F_CAP_OPP + 1;
/// The opponent could make a tuzdyk.
pub const F_TUZ_THREAT_OPP: usize = F_TUZ_THREAT_ME + 1;
/// Constant (tempo of the side to move).
pub const F_BIAS: usize = F_TUZ_THREAT_OPP + 1;
/// Number of features.
pub const FEATURES: usize = F_BIAS + 1;

/// Fixed-point factor of the integer weights (centi-stones × SCALE).
pub const SCALE: i32 = 16;

/// Where the last stone of a sowing lands and how many stones that hole
/// gains: `LANDING[from][n] = (last, gained)` for `n` stones from absolute
/// hole `from` (the played hole itself is emptied first; it is never the
/// landing hole of a move that lands on the other side).
static LANDING: [[(u8, u8); 163]; HOLES] = {
    let mut t = [[(0u8, 0u8); 163]; HOLES];
    let mut from = 0;
    while from < HOLES {
        let mut n = 1;
        while n < 163 {
            t[from][n] = if n == 1 {
                (((from + 1) % HOLES) as u8, 1)
            } else {
                (
                    ((from + n - 1) % HOLES) as u8,
                    (n / HOLES + (n % HOLES != 0) as usize) as u8,
                )
            };
            n += 1;
        }
        from += 1;
    }
    t
};

/// Largest capture `side` could make if it were to move, and whether one of
/// its moves makes a tuzdyk (sowing arithmetic only; no board copy).
#[inline]
pub fn best_capture(b: &Board, side: usize) -> (i32, bool) {
    let opp = 1 - side;
    let mut best = 0u8;
    let mut tuz = false;
    for i in 0..9 {
        let from = side * 9 + i;
        let n = b.holes[from] as usize;
        if n == 0 {
            continue;
        }
        let (last, gained) = LANDING[from][n.min(162)];
        let last = last as usize;
        if last / 9 != opp || b.tuzdyk[0] as usize == last || b.tuzdyk[1] as usize == last {
            continue;
        }
        let count = b.holes[last].wrapping_add(gained);
        if count & 1 == 0 {
            best = best.max(count);
        } else if count == 3
            && b.tuzdyk[side] == NO_TUZDYK
            && last % 9 != 8
            && b.tuzdyk[opp] as usize != side * 9 + last % 9
        {
            tuz = true;
            best = best.max(3);
        }
    }
    (i32::from(best), tuz)
}

#[inline]
fn hole_bucket(n: u8) -> usize {
    (n as usize).min(HOLE_BUCKETS - 1)
}

#[inline]
fn kazan_bucket(k: u8) -> usize {
    (k as usize / 3).min(KAZAN_BUCKETS - 1)
}

/// The opening share of the taper: stones on the board out of 162.
#[inline]
pub fn phase(b: &Board) -> u32 {
    TOTAL_STONES - u32::from(b.kazan[0]) - u32::from(b.kazan[1])
}

/// Call `f(index, value)` for every non-zero feature of `b` (side to move's
/// view). Used by training; [`LinearEval::evaluate`] is the same sum in
/// integers.
pub fn for_each_feature(b: &Board, mut f: impl FnMut(usize, f32)) {
    let me = b.side.index();
    let opp = 1 - me;
    let mut mob = [0i32; 2];
    for (rel, side) in [(0usize, me), (1, opp)] {
        for i in 0..9 {
            let n = b.holes[side * 9 + i];
            f(F_HOLE + (rel * 9 + i) * HOLE_BUCKETS + hole_bucket(n), 1.0);
            mob[rel] += i32::from(n != 0);
        }
    }
    f(F_KAZAN_ME + kazan_bucket(b.kazan[me]), 1.0);
    f(F_KAZAN_OPP + kazan_bucket(b.kazan[opp]), 1.0);
    if b.tuzdyk[me] != NO_TUZDYK {
        f(F_TUZ_ME + b.tuzdyk[me] as usize % 9, 1.0);
    }
    if b.tuzdyk[opp] != NO_TUZDYK {
        f(F_TUZ_OPP + b.tuzdyk[opp] as usize % 9, 1.0);
    }
    let diff = i32::from(b.kazan[me]) - i32::from(b.kazan[opp]);
    if diff != 0 {
        f(F_KAZAN_DIFF, diff as f32);
    }
    f(F_MOB_ME, mob[0] as f32);
    f(F_MOB_OPP, mob[1] as f32);
    let (cm, tm) = best_capture(b, me);
    let (co, to) = best_capture(b, opp);
    if cm != 0 {
        f(F_CAP_ME, cm as f32);
    }
    if co != 0 {
        f(F_CAP_OPP, co as f32);
    }
    if tm {
        f(F_TUZ_THREAT_ME, 1.0);
    }
    if to {
        f(F_TUZ_THREAT_OPP, 1.0);
    }
    f(F_BIAS, 1.0);
}

/// Integer weights of the learned evaluation.
#[derive(Clone, PartialEq, Eq)]
pub struct LinearEval {
    /// Per feature: the weight at the opening (all stones on the board) and
    /// at the end (none left), centi-stones × SCALE.
    pub weights: Vec<[i32; 2]>,
    /// How they were made (the command line of `solver toguz train`).
    pub origin: String,
}

impl std::fmt::Debug for LinearEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LinearEval({})", self.origin)
    }
}

/// A weights file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// A line is not `w INDEX OPEN END`, `# ...` or empty.
    #[error("line {0}: expected `w INDEX OPEN END`")]
    Line(usize),
    /// An index beyond the feature count.
    #[error("line {0}: feature index out of range (0..{FEATURES})")]
    Index(usize),
    /// The file does not start with the format line.
    #[error("not a Toguz linear evaluation file (first line must be `{MAGIC}`)")]
    Magic,
}

/// First line of a weights file.
pub const MAGIC: &str = "# toguz-linear-eval v1";

impl LinearEval {
    /// All weights zero.
    pub fn zero(origin: &str) -> LinearEval {
        LinearEval {
            weights: vec![[0; 2]; FEATURES],
            origin: origin.to_string(),
        }
    }

    /// Evaluate a position that is not finished (centi-stones, side to move).
    #[inline]
    pub fn evaluate(&self, b: &Board) -> i32 {
        let w: &[[i32; 2]; FEATURES] = self.weights[..FEATURES]
            .try_into()
            .expect("FEATURES weights");
        let me = b.side.index();
        let opp = 1 - me;
        let (mut so, mut se) = (0i32, 0i32);
        let mut add = |k: usize, v: i32| {
            so += w[k][0] * v;
            se += w[k][1] * v;
        };
        let mut mob = [0i32; 2];
        for (rel, side) in [(0usize, me), (1, opp)] {
            let row = F_HOLE + rel * 9 * HOLE_BUCKETS;
            for i in 0..9 {
                let n = b.holes[side * 9 + i];
                add(row + i * HOLE_BUCKETS + hole_bucket(n), 1);
                mob[rel] += i32::from(n != 0);
            }
        }
        add(F_KAZAN_ME + kazan_bucket(b.kazan[me]), 1);
        add(F_KAZAN_OPP + kazan_bucket(b.kazan[opp]), 1);
        if b.tuzdyk[me] != NO_TUZDYK {
            add(F_TUZ_ME + b.tuzdyk[me] as usize % 9, 1);
        }
        if b.tuzdyk[opp] != NO_TUZDYK {
            add(F_TUZ_OPP + b.tuzdyk[opp] as usize % 9, 1);
        }
        let (cm, tm) = best_capture(b, me);
        let (co, to) = best_capture(b, opp);
        add(
            F_KAZAN_DIFF,
            i32::from(b.kazan[me]) - i32::from(b.kazan[opp]),
        );
        add(F_MOB_ME, mob[0]);
        add(F_MOB_OPP, mob[1]);
        add(F_CAP_ME, cm);
        add(F_CAP_OPP, co);
        add(F_TUZ_THREAT_ME, i32::from(tm));
        add(F_TUZ_THREAT_OPP, i32::from(to));
        add(F_BIAS, 1);
        let ph = phase(b) as i32;
        (so * ph + se * (TOTAL_STONES as i32 - ph)) / (TOTAL_STONES as i32 * SCALE)
    }

    /// The text form (see [`LinearEval::parse`]).
    pub fn to_text(&self) -> String {
        let mut s = format!("{MAGIC}\n");
        for line in self.origin.lines() {
            s.push_str(&format!("# {line}\n"));
        }
        s.push_str(&format!(
            "# {FEATURES} features; weights in centi-stones x {SCALE}, opening then end\n"
        ));
        for (i, [o, e]) in self.weights.iter().enumerate() {
            if *o != 0 || *e != 0 {
                s.push_str(&format!("w {i} {o} {e}\n"));
            }
        }
        s
    }

    /// Read the text form: the [`MAGIC`] line, `# comment` lines (the first
    /// ones after the magic line are the origin), and `w INDEX OPEN END`
    /// lines (missing weights are zero).
    pub fn parse(text: &str) -> Result<LinearEval, WeightsError> {
        let mut lines = text.lines();
        if lines.next().map(str::trim) != Some(MAGIC) {
            return Err(WeightsError::Magic);
        }
        let mut e = LinearEval::zero("");
        let mut origin = Vec::new();
        let mut header = true;
        for (n, line) in lines.enumerate() {
            let n = n + 2;
            let line = line.trim();
            if let Some(c) = line.strip_prefix('#') {
                if header && !c.trim_start().starts_with(&format!("{FEATURES} features")) {
                    origin.push(c.trim().to_string());
                }
                continue;
            }
            header = false;
            if line.is_empty() {
                continue;
            }
            let parts: Vec<&str> = line.split_whitespace().collect();
            let [tag, i, o, en] = parts[..] else {
                return Err(WeightsError::Line(n));
            };
            if tag != "w" {
                return Err(WeightsError::Line(n));
            }
            let (Ok(i), Ok(o), Ok(en)) = (i.parse::<usize>(), o.parse::<i32>(), en.parse::<i32>())
            else {
                return Err(WeightsError::Line(n));
            };
            if i >= FEATURES {
                return Err(WeightsError::Index(n));
            }
            // Bounded so that the integer sums cannot overflow.
            if o.abs() > 1 << 20 || en.abs() > 1 << 20 {
                return Err(WeightsError::Line(n));
            }
            e.weights[i] = [o, en];
        }
        e.origin = origin.join("\n");
        Ok(e)
    }

    /// Read a weights file and keep it for the rest of the program (engine
    /// configurations refer to weights by `&'static`).
    pub fn load(path: &std::path::Path) -> Result<&'static LinearEval, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let e = LinearEval::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Box::leak(Box::new(e)))
    }
}

/// The weights shipped with the engine (`solver/toguz/src/weights.txt`; the
/// command that made them is in its header).
pub fn builtin() -> &'static LinearEval {
    static W: OnceLock<LinearEval> = OnceLock::new();
    W.get_or_init(|| {
        LinearEval::parse(include_str!("weights.txt")).expect("built-in weights parse")
    })
}
