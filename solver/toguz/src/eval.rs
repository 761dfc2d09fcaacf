//! Static evaluation, from the side to move's point of view, in
//! centi-stones: kazan difference plus optional terms (tuzdyk value,
//! mobility, stones kept on one's own side) whose weights are tuned by
//! self-play matches (docs/toguz.md).

use super::board::{Board, NO_TUZDYK};

/// Weights of the evaluation terms (centi-stones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EvalParams {
    /// Per stone of kazan difference.
    pub kazan: i32,
    /// Value of owning a tuzdyk with all 162 stones still on the board;
    /// scaled by the share of stones left (a tuzdyk earns from future sowing).
    pub tuzdyk: i32,
    /// Per legal move of difference (few moves: atsyrau danger).
    pub mobility: i32,
    /// Per stone of difference in one's own holes (they go to the owner at
    /// atsyrau and are the material for future captures).
    pub own_stones: i32,
}

impl EvalParams {
    /// Kazan difference only.
    pub const MATERIAL: EvalParams = EvalParams {
        kazan: 100,
        tuzdyk: 0,
        mobility: 0,
        own_stones: 0,
    };
    /// The engine's default weights (chosen by the matches in docs/toguz.md).
    pub const DEFAULT: EvalParams = EvalParams {
        kazan: 100,
        tuzdyk: 1500,
        mobility: 25,
        own_stones: 5,
    };
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams::DEFAULT
    }
}

/// Evaluate a position that is not finished.
#[inline]
pub fn evaluate(b: &Board, p: &EvalParams) -> i32 {
    let me = b.side.index();
    let opp = 1 - me;
    let mut score = p.kazan * (i32::from(b.kazan[me]) - i32::from(b.kazan[opp]));
    if p.tuzdyk != 0 {
        let on_board = b.stones_on_board() as i32;
        let t = |s: usize| i32::from(b.tuzdyk[s] != NO_TUZDYK);
        score += p.tuzdyk * (t(me) - t(opp)) * on_board / 162;
    }
    if p.mobility != 0 || p.own_stones != 0 {
        let (mut mob, mut own) = (0i32, 0i32);
        for i in 0..9 {
            let a = b.holes[me * 9 + i];
            let c = b.holes[opp * 9 + i];
            mob += i32::from(a != 0) - i32::from(c != 0);
            own += i32::from(a) - i32::from(c);
        }
        score += p.mobility * mob + p.own_stones * own;
    }
    score
}
