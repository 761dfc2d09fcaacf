//! Six Men's Morris solved completely (flying on, the rule set that agrees
//! with the literature), checked against the published results: the start
//! position is a draw, and the deepest win is "mate in 149" (D. De Clercq).
//! About 40 s in release on a loaded 2-core machine, so behind `#[ignore]`:
//! `cargo test --release -p mill --test six_full -- --ignored`.

use mill::rules::board::Six;
use mill::rules::variant::RuleSet;
use mill::tables::solve::Solution;
use tablebase::retro::Silent;
use tablebase::Outcome;

#[test]
#[ignore = "solves the whole game (about 40 s); run with --ignored"]
fn six_mens_morris_is_a_draw_with_a_deepest_win_of_149_plies() {
    let rules = RuleSet::new(6, true);
    let sol = Solution::<Six>::solve(rules, true, &Silent, |_| {}).unwrap();
    let start = mill::rules::position::Position::start(rules);
    assert_eq!(sol.value(&start).unwrap().outcome(), Outcome::Draw);
    let depths = sol.depths().unwrap();
    let deepest = sol.deepest_reachable_win(&depths).unwrap();
    assert_eq!(deepest.any_plies, 149);
    // The deepest position is a win for its side to move, 149 plies deep.
    assert_eq!(
        sol.value(&deepest.any_position).unwrap().outcome(),
        Outcome::Win
    );
    assert_eq!(depths.of::<Six>(&deepest.any_position), Some(149));
}
