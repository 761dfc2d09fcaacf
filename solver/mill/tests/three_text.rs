//! Three Men's Morris text formats: round-trips (proptest), typed errors on
//! bad input, never a panic.

use mill::games::three::{parse_move, MoveError, Position, PositionError};
use mill::rules::notation::PositionTextError;
use mill::rules::position::Color;
use proptest::prelude::*;

/// A legal position: random stone sets with counts as White-first
/// placement allows, the mover without a line.
fn position() -> impl Strategy<Value = Position> {
    (proptest::collection::vec(0u8..3, 9), prop::bool::ANY).prop_filter_map(
        "not a legal position",
        |(cells, black)| {
            let mut stones = [0u32; 2];
            for (p, c) in cells.iter().enumerate() {
                if *c > 0 {
                    stones[*c as usize - 1] |= 1 << p;
                }
            }
            let to_move = if black { Color::Black } else { Color::White };
            let pos = Position { stones, to_move };
            pos.validate().ok().map(|()| pos)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn position_text_round_trips(pos in position()) {
        prop_assert_eq!(pos.to_string().parse::<Position>(), Ok(pos));
    }

    #[test]
    fn move_text_round_trips(pos in position()) {
        for m in pos.legal_moves() {
            prop_assert_eq!(parse_move(&pos, &m.to_string()), Ok(m));
            let next = pos.play(m);
            // A played move leads to a position the parser accepts.
            prop_assert_eq!(next.to_string().parse::<Position>(), Ok(next));
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[WB. wb0-9]{0,20}", mv in "[a-d0-4-]{0,6}") {
        let _ = text.parse::<Position>();
        let _ = parse_move(&Position::start(), &mv);
    }
}

#[test]
fn bad_input_names_the_problem() {
    let err = |t: &str| t.parse::<Position>().unwrap_err();
    assert_eq!(
        err("........ w 3 3"),
        PositionTextError::BoardLength {
            expected: 9,
            found: 8
        }
    );
    assert_eq!(
        err("W........ w 3 3"),
        PositionTextError::Invalid(PositionError::Hand("white", 1, 3))
    );
    assert!(matches!(
        err("W........ w 2 3"),
        PositionTextError::Invalid(PositionError::Order(..))
    ));
    assert_eq!(
        err("WWWBB.B.. w 0 0"),
        PositionTextError::Invalid(PositionError::MoverHasLine("white"))
    );
    let pos: Position = "WW.BB.... w 1 1".parse().unwrap();
    assert!(matches!(
        parse_move(&pos, "a3-a2"),
        Err(MoveError::MustPlace("white"))
    ));
    assert!(matches!(
        parse_move(&pos, "a2"),
        Err(MoveError::Occupied("a2"))
    ));
    assert!(matches!(parse_move(&pos, "d4"), Err(MoveError::Point(_))));
    assert!(matches!(
        parse_move(&pos, "a3a2"),
        Err(MoveError::Syntax(_))
    ));
    let sliding: Position = "WW.BBW..B w 0 0".parse().unwrap();
    assert!(matches!(
        parse_move(&sliding, "c1"),
        Err(MoveError::MustSlide("white"))
    ));
    assert!(matches!(
        parse_move(&sliding, "a3-a1"),
        Err(MoveError::NotAdjacent("a3", "a1"))
    ));
    assert!(matches!(
        parse_move(&sliding, "a2-a1"),
        Err(MoveError::NotOwn("a2", "white"))
    ));
    assert_eq!(
        parse_move(&sliding, "c2-c3").map(|m| m.to_string()),
        Ok("c2-c3".into())
    );
    let over: Position = "WWWBB.B.. b 0 0".parse().unwrap();
    assert!(over.finished());
    assert!(matches!(
        parse_move(&over, "b2-c2"),
        Err(MoveError::GameOver)
    ));
}
