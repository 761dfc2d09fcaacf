//! Game review: every move of a recorded game scored by the engine — the
//! value of the position before the move and after it from the mover's
//! view, the engine's best move, the stones the move lost against it and a
//! label ([`Label`]) — the mover's calibrated win/draw/loss chances before
//! and after it ([`crate::chances`]), the few moments that decided the game
//! (the largest drops in the mover's expected score, [`Moment`]), a summary
//! per player and a score and chance graph as SVG ([`svg`]). Thresholds are
//! in `docs/toguz.md`.

use super::board::{Board, Outcome, Side};
use super::chances::{self, Wdl};
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
    /// The mover's chances before the move (with the engine's best move),
    /// from the calibration.
    pub chances_before: Wdl,
    /// The mover's chances after the move (the same calibration, at the
    /// same position's stones, so that a move scoring as well as the best
    /// keeps them).
    pub chances_after: Wdl,
    /// The mover's expected score (win 1, draw ½) lost by the move:
    /// `before − after`, at least 0, and 0 for the engine's move.
    pub drop: f64,
}

/// Least drop in expected score that counts as a deciding moment.
pub const MOMENT_DROP: f64 = 0.15;

/// At most this many deciding moments are reported.
pub const MOMENTS: usize = 3;

/// A move that decided the game: one of the largest drops in the mover's
/// chances, in words.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Moment {
    /// 1-based ply of the move.
    pub ply: usize,
    /// Who played it.
    pub side: Side,
    /// The move played.
    #[serde(rename = "move")]
    pub notation: String,
    /// The engine's move instead.
    pub best_move: String,
    /// The mover's chances before (with the best move) and after.
    pub before: Wdl,
    /// See `before`.
    pub after: Wdl,
    /// Expected score lost.
    pub drop: f64,
    /// A coach's sentence about it.
    pub text: String,
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
    /// White's chances at each position from the start to the end
    /// (`moves.len() + 1` values; certain at a finished position).
    pub white_chances: Vec<Wdl>,
    /// The moves that decided the game (at most [`MOMENTS`], each dropping
    /// the mover's expected score by at least [`MOMENT_DROP`]), in game
    /// order.
    pub moments: Vec<Moment>,
    /// Where the chances come from (the calibration's node budget).
    pub chances_note: String,
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
    let cal = chances::builtin();
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
        let chances_before = cal.chances(&b, before);
        let chances_after = match boards[i + 1].outcome() {
            Some(_) => cal.chances(&boards[i + 1], 0.0).flip(),
            None => cal.chances(&b, after),
        };
        let drop = if is_best {
            0.0
        } else {
            (chances_before.expected() - chances_after.expected()).max(0.0)
        };
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
            chances_before,
            chances_after,
            drop,
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
    let white_chances = (0..n)
        .map(|i| {
            let c = cal.chances(&boards[i], value(i));
            if boards[i].side == Side::White {
                c
            } else {
                c.flip()
            }
        })
        .collect();
    let found_moments = moments(&moves);
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
        white_chances,
        moments: found_moments,
        chances_note: format!(
            "chances for the side named, from the engine's score through the calibration fitted on \
             PlayOK games at {} nodes a position",
            cal.nodes
        ),
        players,
        nodes,
    })
}

fn percent(w: Wdl) -> String {
    let p = |x: f64| (x * 100.0).round();
    if w.draw < 0.005 {
        format!("{:.0} % to win", p(w.win))
    } else {
        format!("{:.0} % win, {:.0} % draw", p(w.win), p(w.draw))
    }
}

/// The deciding moments of reviewed `moves`: the largest drops of at least
/// [`MOMENT_DROP`], at most [`MOMENTS`] of them, in game order.
pub fn moments(moves: &[MoveReview]) -> Vec<Moment> {
    let mut big: Vec<&MoveReview> = moves.iter().filter(|m| m.drop >= MOMENT_DROP).collect();
    big.sort_by(|a, b| b.drop.total_cmp(&a.drop).then(a.ply.cmp(&b.ply)));
    big.truncate(MOMENTS);
    big.sort_by_key(|m| m.ply);
    big.iter()
        .map(|m| Moment {
            ply: m.ply,
            side: m.side,
            notation: m.notation.clone(),
            best_move: m.best_move.clone(),
            before: m.chances_before,
            after: m.chances_after,
            drop: m.drop,
            text: coach_text(m),
        })
        .collect()
}

/// A coach's sentence about a move that cost a lot.
fn coach_text(m: &MoveReview) -> String {
    let who = if m.side == Side::White {
        "White"
    } else {
        "Black"
    };
    let (b, a) = (m.chances_before, m.chances_after);
    let what = if b.win >= 0.5 && a.win < 0.5 {
        "let the win slip away"
    } else if b.loss < 0.5 && a.loss >= 0.5 {
        "turned the game towards a loss"
    } else if b.win >= 0.5 {
        "gave back much of the advantage"
    } else {
        "made a difficult position worse"
    };
    format!(
        "Move {} ({who}, {}) {what}: {who}'s chances fell from {} to {}. {} was the move \
         (the engine's {:+.1} stones against {:+.1}).",
        m.ply.div_ceil(2),
        m.notation,
        percent(b),
        percent(a),
        m.best_move,
        m.best_score,
        m.after
    )
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A score and chance graph of the review as a stand-alone SVG: above,
/// The graph's title: the record's header as far as it goes (the players,
/// the date, the result), the length of the game, and "Game review" for
/// a record without players.
fn title(r: &Review) -> String {
    let known = |s: &str| !s.is_empty() && s != "?";
    let mut parts = vec![if known(&r.white) || known(&r.black) {
        format!("{} (White) – {} (Black)", r.white, r.black)
    } else {
        "Game review".to_string()
    }];
    if known(&r.date) {
        parts.push(r.date.clone());
    }
    parts.push(match r.moves.len() {
        1 => "1 ply".to_string(),
        n => format!("{n} plies"),
    });
    parts.push(match r.result.as_str() {
        "*" | "" | "?" => "no result".to_string(),
        result => format!("result {result}"),
    });
    parts.join(", ")
}

/// White's value after every ply (stones, clipped to the plotted range),
/// blunders marked with red dots and mistakes with orange ones; below,
/// White's chances (win, and win or draw, in per cent) with the deciding
/// moments numbered; move numbers at the bottom. The root's `data-plot` is
/// the plot area of both graphs `left top width height` and the plies
/// across it, so that a page can mark or pick a ply on the graph.
pub fn svg(r: &Review) -> String {
    let (w, h) = (900.0, 560.0);
    let (left, right, top) = (56.0, 20.0, 40.0);
    let pw = w - left - right;
    // The score graph, a gap, then the chance graph.
    let ph = 276.0;
    let (ctop, cph) = (top + ph + 24.0, 176.0);
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
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12" data-plot="{left} {top} {pw} {} {n}">"##,
        ctop + cph - top
    );
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    let title = title(r);
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
    // Move numbers every 10 moves (a move is two plies), under both graphs.
    let mut mv = 0;
    while mv * 2 <= r.white_curve.len().saturating_sub(1) {
        let xx = x(mv * 2);
        for base in [top + ph, ctop + cph] {
            let _ = writeln!(
                s,
                r##"<line x1="{xx:.1}" y1="{base:.1}" x2="{xx:.1}" y2="{:.1}" stroke="#999999"/>"##,
                base + 5.0
            );
        }
        let _ = writeln!(
            s,
            r##"<text x="{xx:.1}" y="{:.1}" text-anchor="middle">{mv}</text>"##,
            ctop + cph + 18.0
        );
        mv += 10;
    }
    chance_graph(&mut s, r, left, pw, ctop, cph, &x);
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
    let _ = writeln!(
        s,
        r##"<text x="14" y="{:.1}" transform="rotate(-90 14 {:.1})" text-anchor="middle">White's chances, %</text>"##,
        ctop + cph / 2.0,
        ctop + cph / 2.0
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

/// The chance graph: White's win chance (blue line), win or draw (grey
/// line; the band between is the draw), 0–100 %, deciding moments as
/// numbered circles on the win line.
fn chance_graph(
    s: &mut String,
    r: &Review,
    left: f64,
    pw: f64,
    top: f64,
    ph: f64,
    x: &dyn Fn(usize) -> f64,
) {
    let y = |p: f64| top + ph - p.clamp(0.0, 1.0) * ph;
    let _ = writeln!(
        s,
        r##"<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="#fafafa" stroke="#dddddd"/>"##
    );
    for p in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let yy = y(p);
        let colour = if p == 0.5 { "#555555" } else { "#dddddd" };
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="{colour}"/>"##,
            left + pw
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{:.0}</text>"##,
            left - 6.0,
            yy + 4.0,
            p * 100.0
        );
    }
    let c = &r.white_chances;
    let line = |f: &dyn Fn(&Wdl) -> f64| -> Vec<String> {
        c.iter()
            .enumerate()
            .map(|(i, w)| format!("{:.1},{:.1}", x(i), y(f(w))))
            .collect()
    };
    let win = line(&|w| w.win);
    let not_loss = line(&|w| w.win + w.draw);
    // The draw band: up the win line, back down the win-or-draw line.
    let band: Vec<String> = win
        .iter()
        .cloned()
        .chain(not_loss.iter().rev().cloned())
        .collect();
    let _ = writeln!(
        s,
        r##"<polygon fill="#c9d8ef" stroke="none" points="{}"/>"##,
        band.join(" ")
    );
    let _ = writeln!(
        s,
        r##"<polyline fill="none" stroke="#8c8c8c" stroke-width="1.5" points="{}"/>"##,
        not_loss.join(" ")
    );
    let _ = writeln!(
        s,
        r##"<polyline fill="none" stroke="#1f5fbf" stroke-width="2" points="{}"/>"##,
        win.join(" ")
    );
    for (k, m) in r.moments.iter().enumerate() {
        let (cx, cy) = (x(m.ply), y(c[m.ply].win));
        let _ = writeln!(
            s,
            r##"<g class="moment"><circle cx="{cx:.1}" cy="{cy:.1}" r="8" fill="#d62728" stroke="#000000" stroke-width="0.5"/><text x="{cx:.1}" y="{:.1}" text-anchor="middle" fill="#ffffff" font-size="11" font-weight="bold">{}</text><title>{}</title></g>"##,
            cy + 4.0,
            k + 1,
            xml_escape(&m.text)
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" fill="#1f5fbf">White wins</text><text x="{:.1}" y="{:.1}" fill="#6f6f6f">band: draw</text>"##,
        left + 6.0,
        top + 14.0,
        left + 86.0,
        top + 14.0
    );
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
        // The score line, and White's win and win-or-draw lines.
        assert_eq!(svg.matches("<polyline").count(), 3);
        // Chances: one per position, each adding up to 1; the planted
        // move drops the mover's expected score the most, and every
        // moment is a drop of at least MOMENT_DROP, in game order.
        assert_eq!(rev.white_chances.len(), 17);
        for c in &rev.white_chances {
            assert!((c.win + c.draw + c.loss - 1.0).abs() < 1e-9);
        }
        let top = rev.moves.iter().map(|m| m.drop).fold(0.0, f64::max);
        assert_eq!(m.drop, top);
        assert!(m.drop > 0.0);
        assert!(rev.moments.iter().all(|x| x.drop >= MOMENT_DROP));
        assert!(rev.moments.windows(2).all(|w| w[0].ply < w[1].ply));
        if m.drop >= MOMENT_DROP {
            assert!(rev.moments.iter().any(|x| x.ply == ply));
        }
        assert_eq!(svg.matches("class=\"moment\"").count(), rev.moments.len());
        // A record without a header: a title without question marks; with
        // one, its players, date and result.
        assert!(
            svg.contains(">Game review, 16 plies, no result</text>"),
            "{svg}"
        );
        let mut rev = rev;
        rev.white = "argenby".into();
        rev.black = "sportt".into();
        rev.date = "2024.05.01".into();
        rev.result = "1-0".into();
        let named = super::svg(&rev);
        assert!(
            named.contains(
                ">argenby (White) – sportt (Black), 2024.05.01, 16 plies, result 1-0</text>"
            ),
            "{named}"
        );
    }
}
