//! Morabaraba itself against its published value, from the whole moving
//! phase generated beforehand (`solver morabaraba generate --max-stones 12
//! --dir DIR`, about 2 h on 2 cores, 1.8 GB):
//! `MORABARABA_TABLEBASES=DIR cargo test --release -p solver --test
//! morabaraba_full -- --ignored` (about 5 min, 5.3 GB).

use mill::index::symmetric::Symmetric;
use mill::rules::board::Morabaraba;
use mill::rules::variant::RuleSet;
use mill::search::{MoveOrder, PlacementSearch};
use mill::tables::outcomes::MovingOutcomes;
use tablebase::Outcome;

/// The empty board is a first-player win (Gévay and Danner's solution of
/// Morabaraba), by both move orderings, one thread a core, as `solver
/// morabaraba start` searches.
#[test]
#[ignore = "needs the whole moving phase (MORABARABA_TABLEBASES=DIR); about 5 min"]
fn published_value_first_player_wins() {
    let dir = std::path::PathBuf::from(
        std::env::var_os("MORABARABA_TABLEBASES").expect("set MORABARABA_TABLEBASES=DIR"),
    );
    let rules = RuleSet::new(12, true);
    let tb = MovingOutcomes::<Morabaraba, Symmetric>::load(&dir, rules, 12, |_| {}).unwrap();
    for order in [MoveOrder::Heuristic, MoveOrder::Shuffled(1)] {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut search = PlacementSearch::with_table_mib(&tb, 1024)
            .with_order(order)
            .with_threads(threads)
            .unwrap();
        assert_eq!(
            search
                .value(&mill::rules::position::Position::start(tb.rules()))
                .unwrap(),
            Outcome::Win,
            "{order:?}"
        );
    }
}
