//! Game review: every move of a recorded game scored by the engine — the
//! value of the position before the move and after it from the mover's
//! view, the engine's best move, the stones the move lost against it and a
//! label ([`Label`]) — with a summary per player and a score graph as SVG
//! ([`svg`]). Thresholds are in `docs/toguz.md`.

use super::board::{Board, Outcome, Side};
use super::notation::{move_notation, MoveText};
use super::pgn::Game;
use super::search::{Engine, Limits, SearchResult};
use std::fmt::Write as _;

/// Scores are capped at this many stones: a won game counts as 100 stones
/// (more than any kazan difference).
pub const WIN_STONES: f64 = 100.0;

/// Upper bounds (stones lost, inclusive) of the labels `good`,
/// `inaccuracy` and `mistake`; a larger loss is a blunder.
pub const THRESHOLDS: [f64; 3] = [1.0, 3.0, 7.0];

/// How good a move was, by the stones it lost against the engine's best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// The engine's move, or one scoring as well.
    Best,
    /// Lost at most 1 stone.
    Good,
    /// Lost more than 1 and at most 3 stones.
    Inaccuracy,
    /// Lost more than 3 and at most 7 stones.
    Mistake,
    /// Lost more than 7 stones (or a won game).
    Blunder,
}

impl Label {
    /// All labels, best first.
    pub const ALL: [Label; 5] = [
        Label::Best,
        Label::Good,
        Label::Inaccuracy,
        Label::Mistake,
        Label::Blunder,
    ];

    /// The label of a move that lost `loss` stones (`is_best`: it is the
    /// engine's choice).
    pub fn of(loss: f64, is_best: bool) -> Label {
        if is_best || loss <= 0.005 {
            Label::Best
        } else if loss <= THRESHOLDS[0] {
            Label::Good
        } else if loss <= THRESHOLDS[1] {
            Label::Inaccuracy
        } else if loss <= THRESHOLDS[2] {
            Label::Mistake
        } else {
            Label::Blunder
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

/// Why a game cannot be reviewed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// A move of the record is not a move.
    #[error("ply {ply} `{text}`: {message}")]
    Move {
        /// 1-based ply.
        ply: usize,
        /// The move as recorded.
        text: String,
        /// Why.
        message: String,
    },
    /// The record has no moves.
    #[error("the game has no moves")]
    Empty,
}

/// One reviewed move.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MoveReview {
    /// 1-based ply.
    pub ply: usize,
    /// Who played it.
    pub side: Side,
    /// The move as played (PlayOK notation, recomputed).
    #[serde(rename = "move")]
    pub notation: String,
    /// Stones: value of the position before the move (the best move's),
    /// for the mover.
    pub before: f64,
    /// Stones: value after the move, for the mover.
    pub after: f64,
    /// The engine's move (hole 1..9) and its notation.
    pub best_hole: u8,
    /// See `best_hole`.
    pub best_move: String,
    /// Stones: the engine's value of its move, for the mover.
    pub best_score: f64,
    /// Stones lost against the best move (`before − after`, at least 0).
    pub loss: f64,
    /// The label of the loss.
    pub label: Label,
    /// With multi-PV: the value of every legal hole (1..9; `None`: empty
    /// hole), for the mover.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holes: Option<[Option<f64>; 9]>,
    /// Search depth at the position before the move.
    pub depth: i32,
}

/// A player's summary.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PlayerSummary {
    /// Name from the record's tag.
    pub name: String,
    /// Moves played.
    pub moves: usize,
    /// Count of each label, in [`Label::ALL`] order.
    pub labels: [usize; 5],
    /// Mean stones lost per move.
    pub mean_loss: f64,
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Review {
    /// White's and Black's names, date and result from the tags.
    pub white: String,
    /// See `white`.
    pub black: String,
    /// See `white`.
    pub date: String,
    /// See `white`.
    pub result: String,
    /// Every move.
    pub moves: Vec<MoveReview>,
    /// White's value (stones) of each position from the start to the end
    /// (`moves.len() + 1` values).
    pub white_curve: Vec<f64>,
    /// White's and Black's summaries.
    pub players: [PlayerSummary; 2],
    /// Nodes searched in all.
    pub nodes: u64,
}

/// A score in stones, a won game counting [`WIN_STONES`].
pub fn stones(score: i32) -> f64 {
    (f64::from(score) / 100.0).clamp(-WIN_STONES, WIN_STONES)
}

/// Value for the side to move of a finished position.
fn final_value(b: &Board, o: Outcome) -> f64 {
    f64::from(o.sign_for(b.side)) * WIN_STONES
}

/// Review `game` with `engine` under `limits` per position; `multipv`
/// scores every legal hole of every position (slower; the value after a
/// move is then its line's score at the same depth). `progress` sees each
/// ply as it is done.
pub fn review(
    game: &Game,
    engine: &mut Engine,
    limits: &Limits,
    multipv: bool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    review_from(Board::start(), game, engine, limits, multipv, progress)
}

/// [`review`] of a game whose moves start from `start` (a position set up
/// on the board rather than the start of the game).
pub fn review_from(
    start: Board,
    game: &Game,
    engine: &mut Engine,
    limits: &Limits,
    multipv: bool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    if game.moves.is_empty() {
        return Err(ReviewError::Empty);
    }
    // The positions, checked against the rules.
    let mut boards = vec![start];
    let mut played = Vec::with_capacity(game.moves.len());
    for (i, text) in game.moves.iter().enumerate() {
        let b = boards[i];
        let fail = |message: String| ReviewError::Move {
            ply: i + 1,
            text: text.clone(),
            message,
        };
        let mt: MoveText = text.parse().map_err(|e| fail(format!("{e}")))?;
        if b.outcome().is_some() {
            return Err(fail("the game is already over".to_string()));
        }
        if !b.is_legal(mt.hole - 1) {
            return Err(fail(format!("hole {} is empty", mt.hole)));
        }
        boards.push(b.after(mt.hole - 1));
        played.push(mt.hole);
    }
    // Search every position that is not over: value for the side to move.
    engine.clear();
    let mut nodes = 0;
    let n = boards.len();
    let searches: Vec<Option<SearchResult>> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let r = b.outcome().is_none().then(|| {
                engine.search_multipv(b, limits, if multipv { 9 } else { 1 }, &mut |_| {})
            });
            nodes += r.as_ref().map_or(0, |r| r.nodes);
            progress(i + 1, n);
            r
        })
        .collect();
    let value = |i: usize| -> f64 {
        match (&searches[i], boards[i].outcome()) {
            (_, Some(o)) => final_value(&boards[i], o),
            (Some(r), None) => stones(r.score),
            (None, None) => 0.0,
        }
    };
    let mut moves = Vec::with_capacity(played.len());
    for (i, &hole) in played.iter().enumerate() {
        let b = boards[i];
        let Some(r) = &searches[i] else { continue };
        let best_hole = r.best.unwrap_or(hole);
        let before = stones(r.score);
        let line = |h: u8| {
            r.lines
                .iter()
                .find(|l| l.hole == h)
                .map(|l| stones(l.score))
        };
        let after = match (multipv, boards[i + 1].outcome()) {
            (_, Some(o)) => -final_value(&boards[i + 1], o),
            (true, None) => line(hole).unwrap_or(-value(i + 1)),
            (false, None) => -value(i + 1),
        };
        let best_score = if multipv {
            line(best_hole).unwrap_or(before)
        } else {
            before
        };
        let loss = (before - after).max(0.0);
        let is_best = hole == best_hole;
        let notation = |h: u8| {
            let mut a = b;
            let e = a.make(h - 1);
            move_notation(h - 1, &e, &a)
        };
        let holes = multipv.then(|| std::array::from_fn(|k| line(k as u8 + 1)));
        moves.push(MoveReview {
            ply: i + 1,
            side: b.side,
            notation: notation(hole),
            before,
            after,
            best_hole,
            best_move: notation(best_hole),
            best_score,
            loss: if is_best { 0.0 } else { loss },
            label: Label::of(loss, is_best),
            holes,
            depth: r.depth,
        });
    }
    let white_curve = (0..n)
        .map(|i| {
            let v = value(i);
            if boards[i].side == Side::White {
                v
            } else {
                -v
            }
        })
        .collect();
    let tag = |t: &str| game.tag(t).unwrap_or("?").to_string();
    let mut players = [
        PlayerSummary {
            name: tag("White"),
            ..Default::default()
        },
        PlayerSummary {
            name: tag("Black"),
            ..Default::default()
        },
    ];
    for m in &moves {
        let p = &mut players[m.side.index()];
        p.moves += 1;
        p.labels[m.label as usize] += 1;
        p.mean_loss += m.loss;
    }
    for p in &mut players {
        p.mean_loss /= p.moves.max(1) as f64;
    }
    Ok(Review {
        white: tag("White"),
        black: tag("Black"),
        date: tag("Date"),
        result: game.result.clone().unwrap_or_else(|| "*".to_string()),
        moves,
        white_curve,
        players,
        nodes,
    })
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A score graph of the review as a stand-alone SVG: White's value after
/// every ply (stones, clipped to the plotted range), blunders marked with
/// red dots and mistakes with orange ones, move numbers below. The root's
/// `data-plot` is the plot area `left top width height` and the plies
/// across it, so that a page can mark or pick a ply on the graph.
pub fn svg(r: &Review) -> String {
    let (w, h) = (900.0, 360.0);
    let (left, right, top, bottom) = (56.0, 20.0, 40.0, 44.0);
    let pw = w - left - right;
    let ph = h - top - bottom;
    // The range follows the values short of a finished game (±100).
    let worst = r
        .white_curve
        .iter()
        .filter(|v| v.abs() < WIN_STONES)
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .clamp(5.0, 40.0);
    let range = (worst / 5.0).ceil() * 5.0;
    let n = (r.white_curve.len().max(2) - 1) as f64;
    let x = |i: usize| left + pw * i as f64 / n;
    let y = |v: f64| top + ph / 2.0 - (v.clamp(-range, range) / range) * ph / 2.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12" data-plot="{left} {top} {pw} {ph} {n}">"##
    );
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    let title = format!(
        "{} (White) – {} (Black), {}, {}",
        r.white, r.black, r.date, r.result
    );
    let _ = writeln!(
        s,
        r##"<text x="{left}" y="22" font-size="14" font-weight="bold">{}</text>"##,
        xml_escape(&title)
    );
    // White's side of the graph shaded.
    let _ = writeln!(
        s,
        r##"<rect x="{left}" y="{top}" width="{pw}" height="{}" fill="#f3f3f3"/>"##,
        ph / 2.0
    );
    // Horizontal grid with labels.
    let step = if range > 20.0 { 10.0 } else { 5.0 };
    let mut v = -range;
    while v <= range + 1e-9 {
        let yy = y(v);
        let colour = if v == 0.0 { "#555555" } else { "#dddddd" };
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="{colour}"/>"##,
            left + pw
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{v:+.0}</text>"##,
            left - 6.0,
            yy + 4.0
        );
        v += step;
    }
    // Move numbers every 10 moves (a move is two plies).
    let mut mv = 0;
    while mv * 2 <= r.white_curve.len().saturating_sub(1) {
        let xx = x(mv * 2);
        let _ = writeln!(
            s,
            r##"<line x1="{xx:.1}" y1="{:.1}" x2="{xx:.1}" y2="{:.1}" stroke="#999999"/>"##,
            top + ph,
            top + ph + 5.0
        );
        let _ = writeln!(
            s,
            r##"<text x="{xx:.1}" y="{:.1}" text-anchor="middle">{mv}</text>"##,
            top + ph + 18.0
        );
        mv += 10;
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">move</text>"##,
        left + pw / 2.0,
        h - 6.0
    );
    let _ = writeln!(
        s,
        r##"<text x="14" y="{:.1}" transform="rotate(-90 14 {:.1})" text-anchor="middle">White's view, stones (+ White better)</text>"##,
        top + ph / 2.0,
        top + ph / 2.0
    );
    let points: Vec<String> = r
        .white_curve
        .iter()
        .enumerate()
        .map(|(i, &v)| format!("{:.1},{:.1}", x(i), y(v)))
        .collect();
    let _ = writeln!(
        s,
        r##"<polyline fill="none" stroke="#1f5fbf" stroke-width="2" points="{}"/>"##,
        points.join(" ")
    );
    for m in &r.moves {
        let colour = match m.label {
            Label::Blunder => "#d62728",
            Label::Mistake => "#ff9f1a",
            _ => continue,
        };
        let radius = if m.label == Label::Blunder { 5 } else { 4 };
        let _ = writeln!(
            s,
            r##"<circle cx="{:.1}" cy="{:.1}" r="{radius}" fill="{colour}" stroke="#000000" stroke-width="0.5"><title>{} {}: {} ({:.1} stones lost; best {})</title></circle>"##,
            x(m.ply),
            y(r.white_curve[m.ply]),
            m.ply.div_ceil(2),
            if m.side == Side::White {
                "White"
            } else {
                "Black"
            },
            xml_escape(&m.notation),
            m.loss,
            xml_escape(&m.best_move)
        );
    }
    // Legend, in the title line (above the plot).
    let lx = w - right - 270.0;
    let _ = writeln!(
        s,
        r##"<circle cx="{lx}" cy="18" r="5" fill="#d62728" stroke="#000000" stroke-width="0.5"/><text x="{}" y="22">blunder (&gt; {} stones)</text>"##,
        lx + 9.0,
        THRESHOLDS[2]
    );
    let _ = writeln!(
        s,
        r##"<circle cx="{}" cy="18" r="4" fill="#ff9f1a" stroke="#000000" stroke-width="0.5"/><text x="{}" y="22">mistake (&gt; {} stones)</text>"##,
        lx + 150.0,
        lx + 159.0,
        THRESHOLDS[1]
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Config, Features};

    #[test]
    fn labels_follow_the_thresholds() {
        assert_eq!(Label::of(5.0, true), Label::Best);
        assert_eq!(Label::of(0.0, false), Label::Best);
        assert_eq!(Label::of(1.0, false), Label::Good);
        assert_eq!(Label::of(1.01, false), Label::Inaccuracy);
        assert_eq!(Label::of(3.0, false), Label::Inaccuracy);
        assert_eq!(Label::of(7.0, false), Label::Mistake);
        assert_eq!(Label::of(7.5, false), Label::Blunder);
    }

    /// A short game: engine moves except one deliberately bad move, which
    /// the review must find as the largest loss.
    #[test]
    fn review_finds_a_planted_blunder() {
        let limits = Limits {
            depth: Some(5),
            threads: 1,
            ..Limits::default()
        };
        // No table and no reductions: a search's result does not depend
        // on the searches before it, so the review sees what play saw.
        let mut engine = Engine::new(Config {
            features: Features {
                quiescence: true,
                ..Features::PLAIN
            },
            endgame_stones: 0,
            tt_mb: 1,
            ..Config::default()
        });
        let mut b = Board::start();
        let mut texts = Vec::new();
        let mut planted = None;
        for ply in 0..16 {
            let r = engine.search_multipv(&b, &limits, 9, &mut |_| {});
            // At ply 9, the move the same search scores worst.
            let hole = if ply == 9 {
                let worst = r.lines.last().unwrap();
                planted = Some((ply + 1, r.lines[0].score - worst.score));
                worst.hole
            } else {
                r.best.unwrap()
            };
            let e = b.make(hole - 1);
            texts.push(move_notation(hole - 1, &e, &b));
        }
        let game = Game {
            moves: texts,
            ..Game::default()
        };
        let rev = review(&game, &mut engine, &limits, true, &mut |_, _| {}).unwrap();
        let (ply, gap) = planted.unwrap();
        assert!(gap > 0);
        let m = &rev.moves[ply - 1];
        assert_eq!(m.loss, stones(gap), "{m:?}");
        let biggest = rev.moves.iter().map(|m| m.loss).fold(0.0, f64::max);
        assert_eq!(m.loss, biggest);
        assert_eq!(m.label, Label::of(m.loss, false));
        assert_eq!(rev.white_curve.len(), 17);
        let svg = svg(&rev);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 1);
    }
}
