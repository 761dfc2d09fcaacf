//! PlayOK-style game records (PGN-like: `[Tag "value"]` lines, then numbered
//! moves in PlayOK notation and a result) and their replay under the rules:
//! every move's landing hole, tuzdyk mark and kazan total is checked.

use super::board::{Board, Outcome, Side};
use super::notation::{move_notation, MoveText};

/// One game of a record file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Move texts in order (without move numbers).
    pub moves: Vec<String>,
    /// Result token (`1-0`, `0-1`, `1/2-1/2`, `*`), if present.
    pub result: Option<String>,
    /// Comments (`{...}`) in the movetext, without braces.
    pub comments: Vec<String>,
    /// 1-based line of the game's first line in the file.
    pub line: usize,
}

impl Game {
    /// Value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Short description: `game N (White - Black, Date Time, line L)`.
    pub fn describe(&self, index: usize) -> String {
        format!(
            "game {} ({} - {}, {} {}, line {})",
            index + 1,
            self.tag("White").unwrap_or("?"),
            self.tag("Black").unwrap_or("?"),
            self.tag("Date").unwrap_or("?"),
            self.tag("Time").unwrap_or("?"),
            self.line
        )
    }
}

/// A record file that cannot be read as games.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// A tag line is not `[Name "value"]`.
    #[error("line {line}: bad tag line `{text}`")]
    Tag {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
}

fn is_result(tok: &str) -> bool {
    matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*")
}

fn is_move_number(tok: &str) -> bool {
    let digits = tok.trim_end_matches('.');
    digits.len() < tok.len() && !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name.to_string(), value.to_string()))
}

/// Split a record file into games.
pub fn parse(text: &str) -> Result<Vec<Game>, PgnError> {
    let mut games = Vec::new();
    let mut cur = Game::default();
    let mut in_moves = false;
    let mut comment: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() && comment.is_none() {
            continue;
        }
        if line.starts_with('[') && comment.is_none() {
            if in_moves || cur.result.is_some() {
                games.push(std::mem::take(&mut cur));
                in_moves = false;
            }
            if cur.tags.is_empty() {
                cur.line = i + 1;
            }
            let tag = parse_tag(line).ok_or_else(|| PgnError::Tag {
                line: i + 1,
                text: line.to_string(),
            })?;
            cur.tags.push(tag);
            continue;
        }
        if !in_moves && cur.tags.is_empty() {
            cur.line = i + 1;
        }
        in_moves = true;
        // Take comments out of the line (they may span lines).
        let mut plain = String::with_capacity(line.len());
        for c in line.chars() {
            match (&mut comment, c) {
                (Some(body), '}') => {
                    cur.comments.push(body.trim().to_string());
                    comment = None;
                }
                (Some(body), c) => body.push(c),
                (None, '{') => comment = Some(String::new()),
                (None, c) => plain.push(c),
            }
        }
        if let Some(body) = &mut comment {
            body.push(' ');
        }
        for tok in plain.split_whitespace() {
            if is_move_number(tok) {
                continue;
            }
            if is_result(tok) {
                cur.result = Some(tok.to_string());
            } else {
                cur.moves.push(tok.to_string());
            }
        }
    }
    if in_moves || !cur.tags.is_empty() {
        games.push(cur);
    }
    Ok(games)
}

/// The first difference between a record and the rules.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Mismatch {
    /// 1-based ply of the offending move (0: the result).
    pub ply: usize,
    /// The move as recorded.
    pub recorded: String,
    /// What the rules give, or why the move is impossible.
    pub message: String,
}

/// A game replayed to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// Final position.
    pub board: Board,
    /// Plies played.
    pub plies: usize,
    /// The rules' result if the game ended by the rules.
    pub outcome: Option<Outcome>,
}

/// Replay one game from the start position, checking every move.
pub fn replay(game: &Game) -> Result<Replayed, Mismatch> {
    replay_from(Board::start(), game)
}

/// Replay one game's moves from `start`, checking every move (a move
/// written as its hole alone, `7`, is checked for legality only).
pub fn replay_from(start: Board, game: &Game) -> Result<Replayed, Mismatch> {
    let mut board = start;
    for (i, text) in game.moves.iter().enumerate() {
        let fail = |message: String| Mismatch {
            ply: i + 1,
            recorded: text.clone(),
            message,
        };
        let mt: MoveText = text.parse().map_err(|e| fail(format!("{e}")))?;
        if let Some(o) = board.outcome() {
            return Err(fail(format!("the game is already over ({o:?})")));
        }
        let m = mt.hole - 1;
        if !board.is_legal(m) {
            return Err(fail(format!("hole {} is empty", mt.hole)));
        }
        let effect = board.make(m);
        let expected = move_notation(m, &effect, &board);
        let landing = effect.landing % 9 + 1;
        let mover = board.side.opponent();
        let capture_kazan =
            (effect.captured > 0 && !effect.tuzdyk).then(|| u32::from(board.kazan[mover.index()]));
        // A lone hole (`7`, typed input) names the move without claims to
        // check; PlayOK's notation is checked in full.
        let claims = mt.landing.is_some();
        if claims
            && (mt.landing != Some(landing)
                || mt.tuzdyk != effect.tuzdyk
                || mt.kazan != capture_kazan)
        {
            return Err(fail(format!("rules give `{expected}`")));
        }
    }
    let outcome = board.outcome();
    if let (Some(o), Some(r)) = (outcome, game.result.as_deref()) {
        let want = match o {
            Outcome::Win(Side::White) => "1-0",
            Outcome::Win(Side::Black) => "0-1",
            Outcome::Draw => "1/2-1/2",
        };
        if r != "*" && r != want {
            return Err(Mismatch {
                ply: 0,
                recorded: r.to_string(),
                message: format!("the game ended by the rules with {want}"),
            });
        }
    }
    Ok(Replayed {
        board,
        plies: game.moves.len(),
        outcome,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "[Event \"?\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
        1. 76(10) 87(2) 2. 99 {a\ncomment} 91 3. 78 91(14) 1-0 {zero}\n\n[Event \"?\"]\n\n1. 76(11) *\n";

    #[test]
    fn parses_and_replays() {
        let games = parse(TWO).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 6);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert_eq!(games[0].comments, ["a comment", "zero"]);
        let r = replay(&games[0]).unwrap();
        assert_eq!(r.plies, 6);
        assert_eq!(r.board.kazan, [10, 14]);
        let m = replay(&games[1]).unwrap_err();
        assert_eq!(m.ply, 1);
        assert_eq!(m.message, "rules give `76(10)`");
    }

    #[test]
    fn lone_holes_replay_to_the_same_game() {
        let full = &parse(TWO).unwrap()[0];
        let holes = Game {
            moves: full.moves.iter().map(|m| m[..1].to_string()).collect(),
            ..Game::default()
        };
        assert_eq!(replay(&holes).unwrap().board, replay(full).unwrap().board);
        // A hole the board says is empty is still refused: White's 7 (its
        // nine stones sown, the hole left empty), Black's 8, White's 7.
        let mut board = Board::start();
        board.make(6);
        board.make(7);
        assert!(!board.is_legal(6));
        let empty = Game {
            moves: vec!["7".into(), "8".into(), "7".into()],
            ..Game::default()
        };
        let m = replay(&empty).unwrap_err();
        assert_eq!((m.ply, m.message.as_str()), (3, "hole 7 is empty"));
    }

    #[test]
    fn replay_from_a_position() {
        let games = parse(TWO).unwrap();
        let first_two = Game {
            moves: games[0].moves[..2].to_vec(),
            ..Game::default()
        };
        let rest = Game {
            moves: games[0].moves[2..].to_vec(),
            ..Game::default()
        };
        let middle = replay(&first_two).unwrap().board;
        assert_eq!(
            replay_from(middle, &rest).unwrap().board,
            replay(&games[0]).unwrap().board
        );
    }

    #[test]
    fn bad_tag_is_an_error() {
        assert!(matches!(
            parse("[Event\n1. 76"),
            Err(PgnError::Tag { line: 1, .. })
        ));
    }
}
