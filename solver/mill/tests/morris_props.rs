//! Property tests (proptest) of the Nine Men's Morris rules layer: text
//! round-trips of positions and moves, canonical form under the 16 board
//! symmetries and colour swap, and typed errors (never panics) on bad input.

use mill::games::nine::bits;
use mill::rules::board::Nine;
use mill::rules::notation::{parse_move, MoveError, PositionTextError};
use mill::rules::position::{Color, Position, PositionError};
use mill::rules::variant::RuleSet;
use mill::rules::{legal_moves, perft};
use proptest::prelude::*;

/// A legal position: a random split of up to 9 stones per side between
/// board and hand, hands consistent with the side to move.
fn position() -> impl Strategy<Value = Position> {
    (
        proptest::collection::vec(0u8..3, 24),
        0u8..=9,
        prop::bool::ANY,
        prop::bool::ANY,
    )
        .prop_filter_map("too many stones", |(cells, hand, black, plus)| {
            let mut stones = [0u32; 2];
            for (p, c) in cells.iter().enumerate() {
                if *c > 0 {
                    stones[*c as usize - 1] |= 1 << p;
                }
            }
            let to_move = if black { Color::Black } else { Color::White };
            let mut hands = [hand; 2];
            if plus && hand > 0 {
                hands[to_move.other().index()] = hand - 1;
            }
            // Trim each side to at most 9 stones on board and in hand.
            for (c, h) in stones.iter_mut().zip(hands) {
                while c.count_ones() + h as u32 > 9 {
                    *c &= *c - 1;
                }
            }
            let pos = Position {
                stones,
                hand: hands,
                to_move,
            };
            pos.validate::<Nine>(RuleSet::nine(true)).ok().map(|()| pos)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn position_text_round_trips(pos in position()) {
        let text = pos.to_string();
        prop_assert_eq!(text.parse::<Position>(), Ok(pos));
        // Extra spaces are accepted; the printed form is normalised.
        let spaced = format!("  {}  ", text.replace(' ', "   "));
        prop_assert_eq!(spaced.parse::<Position>().map(|p| p.to_string()), Ok(text));
    }

    #[test]
    fn move_text_round_trips(pos in position(), flying in prop::bool::ANY) {
        let rules = RuleSet::nine(flying);
        for m in legal_moves::<Nine>(&pos, rules) {
            prop_assert_eq!(parse_move::<Nine>(&pos, rules, &m.to_string()), Ok(m));
        }
    }

    #[test]
    fn canonical_form_is_invariant(pos in position(), op in 0usize..16) {
        let (canon, how) = pos.canonical::<Nine>();
        prop_assert_eq!(pos.transform::<Nine>(how), canon);
        prop_assert_eq!(pos.transform::<Nine>(op).canonical::<Nine>().0, canon);
        // Canonical form commutes with colour swap, an involution.
        prop_assert_eq!(pos.swap_colors().swap_colors(), pos);
        prop_assert_eq!(pos.swap_colors().canonical::<Nine>().0, canon.swap_colors());
        // Inverse maps undo maps.
        prop_assert_eq!(pos.transform::<Nine>(op).transform::<Nine>(bits::inverse(op)), pos);
    }

    #[test]
    fn symmetric_positions_have_symmetric_trees(pos in position(), op in 0usize..16, flying in prop::bool::ANY) {
        let rules = RuleSet::nine(flying);
        let image = pos.transform::<Nine>(op);
        let mut moves: Vec<_> = legal_moves::<Nine>(&pos, rules).into_iter().map(|m| m.transform::<Nine>(op)).collect();
        let mut expected = legal_moves::<Nine>(&image, rules);
        moves.sort();
        expected.sort();
        prop_assert_eq!(moves, expected);
        prop_assert_eq!(perft::<Nine>(&image, rules, 2), perft::<Nine>(&pos, rules, 2));
        prop_assert_eq!(perft::<Nine>(&pos.swap_colors(), rules, 2), perft::<Nine>(&pos, rules, 2));
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[WB. wb0-9]{0,40}", mv in "[a-hx0-9-]{0,10}") {
        let _ = text.parse::<Position>();
        let _ = parse_move::<Nine>(&Position::start(RuleSet::nine(true)), RuleSet::nine(true), &mv);
    }
}

fn err(text: &str) -> String {
    text.parse::<Position>().unwrap_err().to_string()
}

#[test]
fn bad_positions_name_the_problem() {
    assert!(matches!(
        "........................ w 9".parse::<Position>(),
        Err(PositionTextError::Fields(3))
    ));
    assert!(err("....................... w 9 9").contains("found 23"));
    assert!(err("...X.................... w 9 9").contains("'X', point b6"));
    assert!(err("........................ x 9 9").contains("'x'"));
    assert!(err("........................ w nine 9").contains("White's stones in hand"));
    assert_eq!(
        "WWWWWWWWWW.............. b 0 0".parse::<Position>(),
        Err(PositionTextError::Invalid(PositionError::TooManyStones(
            "white", 10, 9
        )))
    );
    assert!(matches!(
        "........................ w 8 9".parse::<Position>(),
        Err(PositionTextError::Invalid(PositionError::Hands {
            mover: 8,
            other: 9
        }))
    ));
    assert!(matches!(
        "WWW.....B............... w 0 0".parse::<Position>(),
        Err(PositionTextError::Invalid(PositionError::FinishedBefore(
            "black"
        )))
    ));
    // The side to move may have lost already: a finished game is legal.
    assert!("WWWB....B............... b 0 0".parse::<Position>().is_ok());
}

#[test]
fn bad_moves_name_the_problem() {
    let rules = RuleSet::nine(true);
    let start = Position::start(RuleSet::nine(true));
    let e = |pos: &Position, text: &str| parse_move::<Nine>(pos, rules, text).unwrap_err();
    assert!(matches!(e(&start, "d9"), MoveError::Point(_)));
    assert!(matches!(e(&start, "d6--d5"), MoveError::Syntax(_)));
    assert!(matches!(e(&start, "d6-d5"), MoveError::MustPlace("white")));
    assert!(matches!(
        e(&start, "d6xg7"),
        MoveError::UnexpectedRemoval(_)
    ));
    // White: a7 d7 g4 a1 (g4-g7 closes a7-d7-g7); Black: c5 d5 e5 (a mill) and f4.
    let pos: Position = "WW....BBB....BW......W.. w 0 0".parse().unwrap();
    assert!(matches!(e(&pos, "g7"), MoveError::MustShift("white")));
    assert!(matches!(e(&pos, "a7-d6"), MoveError::NotAdjacent(..)));
    assert!(matches!(e(&pos, "a4-b4"), MoveError::NotOwn("a4", "white")));
    assert!(matches!(e(&pos, "a7-d7"), MoveError::Occupied("d7")));
    assert!(matches!(e(&pos, "g4-g7"), MoveError::MissingRemoval(..)));
    assert!(matches!(
        e(&pos, "g4-g7xd5"),
        MoveError::Protected("d5", "black")
    ));
    assert!(matches!(
        e(&pos, "g4-g7xa4"),
        MoveError::NothingToRemove("a4", "black")
    ));
    assert_eq!(
        parse_move::<Nine>(&pos, rules, "g4-g7xf4").map(|m| m.to_string()),
        Ok("g4-g7xf4".to_string())
    );
    let over: Position = "WWWB....B............... b 0 0".parse().unwrap();
    assert!(matches!(e(&over, "a4-b4"), MoveError::GameOver(..)));
}
