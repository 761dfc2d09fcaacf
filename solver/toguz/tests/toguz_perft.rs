//! Perft from the start position against the published figures
//! (docs/rules.md: 9, 73, 613, 5199, 43184, 360035 at depths 1..6).

use toguz::{perft, Board};

#[test]
fn perft_start_depths_1_to_6() {
    let expected = [9u64, 73, 613, 5199, 43184, 360035];
    let b = Board::start();
    for (d, &n) in expected.iter().enumerate() {
        let depth = d as u32 + 1;
        assert_eq!(perft::perft(&b, depth), n, "depth {depth}");
        assert_eq!(
            perft::perft_parallel(&b, depth),
            n,
            "parallel depth {depth}"
        );
    }
}

#[test]
fn divide_sums_to_perft() {
    let b = Board::start();
    let d = perft::perft_divide(&b, 5);
    assert_eq!(d.len(), 9);
    assert_eq!(d.iter().map(|&(_, n)| n).sum::<u64>(), 43184);
}
