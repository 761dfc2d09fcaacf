//! The index against Burnside's lemma, the published counts and round trips.

use crate::index::nine::*;
use crate::rules::geometry::Geometry;
use std::ops::ControlFlow;

/// Orbits of (w-set, b-set) pairs of points under the board's group by
/// Burnside's lemma, from the reference permutations of `Geometry`.
fn burnside(w: usize, b: usize) -> u64 {
    let g = Geometry::nine();
    let mut fixed_total = 0u64;
    for perm in &g.symmetries {
        // Cycle lengths of the permutation.
        let mut seen = [false; 24];
        let mut cycles = Vec::new();
        for start in 0..24 {
            if !seen[start] {
                let mut len = 0;
                let mut p = start;
                while !seen[p] {
                    seen[p] = true;
                    p = perm[p] as usize;
                    len += 1;
                }
                cycles.push(len);
            }
        }
        // ways[x][y]: colourings of the cycles so far with x white, y black.
        let mut ways = vec![vec![0u64; b + 1]; w + 1];
        ways[0][0] = 1;
        for len in cycles {
            let mut next = ways.clone();
            for x in 0..=w {
                for y in 0..=b {
                    let n = ways[x][y];
                    if n == 0 {
                        continue;
                    }
                    if x + len <= w {
                        next[x + len][y] += n;
                    }
                    if y + len <= b {
                        next[x][y + len] += n;
                    }
                }
            }
            ways = next;
        }
        fixed_total += ways[w][b];
    }
    assert_eq!(fixed_total % 16, 0);
    fixed_total / 16
}

#[test]
fn class_counts_match_burnside() {
    for w in 0..=9 {
        assert_eq!(classes(w) as u64, burnside(w, 0), "{w} stones");
    }
}

#[test]
fn published_subspace_sizes() {
    // Counts from the foundation issue and docs/rules.md (Gasser; Malom).
    for (w, b, n) in [
        (3, 3, 169_626u64),
        (4, 3, 760_398),
        (4, 4, 3_225_597),
        (5, 5, 30_914_424),
    ] {
        let sub = Subspace::new(w, b);
        assert_eq!(positions(sub), n, "{sub}");
        assert_eq!(positions(sub.swapped()), n, "{sub} swapped");
    }
}

#[test]
fn every_subspace_matches_burnside_and_the_published_total() {
    let (mut total, mut slots) = (0, 0);
    for w in 3..=9u8 {
        for b in 3..=9u8 {
            let sub = Subspace::new(w, b);
            let n = positions(sub);
            assert_eq!(n, burnside(w as usize, b as usize), "{sub}");
            total += n;
            slots += size(sub);
        }
    }
    assert_eq!(total, 8_904_593_601);
    // Unused slots: about 3 % of all slots over the whole moving phase.
    assert!(slots as f64 <= total as f64 * 1.035, "{slots} slots");
}

#[test]
fn slot_position_slot_round_trips() {
    for (w, b) in [(3, 3), (4, 3), (3, 4), (4, 4)] {
        let sub = Subspace::new(w, b);
        let mut used = 0;
        for slot in 0..size(sub) {
            if let Some((us, them)) = position(sub, slot) {
                used += 1;
                assert_eq!(index(us, them), slot);
                assert_eq!(canonical(us, them), (us, them));
            }
        }
        assert_eq!(used, positions(sub));
    }
}

#[test]
fn symmetric_images_share_a_slot() {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let (w, b) = (3 + x % 7, 3 + (x >> 8) % 7);
        let mut us: Bits = 0;
        let mut them: Bits = 0;
        let mut y = x;
        while us.count_ones() < w as u32 || them.count_ones() < b as u32 {
            y = y
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let p = 1 << ((y >> 33) % 24);
            if (us | them) & p != 0 {
                continue;
            }
            if us.count_ones() < w as u32 {
                us |= p;
            } else {
                them |= p;
            }
        }
        let slot = index(us, them);
        let sub = Subspace::of(us, them);
        assert!(slot < size(sub));
        let (cu, ct) = position(sub, slot).expect("a position's slot is used");
        assert!((0..16).any(|op| transform(op, us) == cu && transform(op, them) == ct));
        for op in 0..16 {
            assert_eq!(index(transform(op, us), transform(op, them)), slot);
        }
    }
}

#[test]
#[ignore = "prints the waste table of docs/format.md"]
fn print_waste() {
    for w in 3..=9u8 {
        for b in 3..=9u8 {
            let sub = Subspace::new(w, b);
            let n = positions(sub);
            println!(
                "{sub} {n} {} {:.2}%",
                size(sub),
                100.0 * (size(sub) - n) as f64 / size(sub) as f64
            );
        }
    }
}

#[test]
fn added_stone_slots_equal_the_index() {
    let mut x = 0x1234_5678_9ABC_DEF1u64;
    let mut checked = 0;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // A random mover and random others, disjoint, with room to add.
        let mut mover: Bits = 0;
        let mut others: Bits = 0;
        let (m, o) = ((x % 10) as u32, (x >> 8) as u32 % 10);
        let mut y = x;
        while mover.count_ones() < m || others.count_ones() < o {
            y = y.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
            let p = 1u32 << ((y >> 40) % 24);
            if (mover | others) & p != 0 {
                continue;
            }
            if mover.count_ones() < m {
                mover |= p;
            } else {
                others |= p;
            }
        }
        let empty = !(mover | others) & FULL;
        let mv = Mover::new(mover, o + 1);
        let mut seen = 0;
        let flow = mv.for_each_added(others, empty, |p, slot| {
            assert_eq!(
                slot,
                index(mover, others | 1 << p),
                "{mover:x} {others:x} {p}"
            );
            seen |= 1 << p;
            ControlFlow::Continue(())
        });
        assert!(flow.is_continue());
        assert_eq!(seen, empty);
        checked += empty.count_ones();
    }
    assert!(checked > 200_000);
}

#[test]
fn slide_slots_equal_the_index() {
    // Every stone of a random pattern moved to every empty point: the slot
    // `Slides` derives equals the index computed from scratch, for movers
    // with and without symmetric seeds.
    let mut x = 0x0F1E_2D3C_4B5A_6978u64;
    let (mut checked, mut symmetric) = (0, 0);
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let (m, s) = (1 + (x % 9) as u32, 1 + (x >> 8) as u32 % 9);
        let mut mover: Bits = 0;
        let mut stones: Bits = 0;
        let mut y = x;
        while mover.count_ones() < m || stones.count_ones() < s {
            y = y.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
            let p = 1u32 << ((y >> 40) % 24);
            if (mover | stones) & p != 0 {
                continue;
            }
            if mover.count_ones() < m {
                mover |= p;
            } else {
                stones |= p;
            }
        }
        let mv = Mover::new(mover, s);
        symmetric += u32::from(mv.stab != 1);
        let slides = mv.slides(stones);
        let empty = !(mover | stones) & FULL;
        for from in crate::games::nine::bits::points(stones) {
            for to in crate::games::nine::bits::points(empty) {
                let moved = stones ^ (1 << from) ^ (1 << to);
                assert_eq!(
                    slides.index(from, to),
                    index(mover, moved),
                    "{mover:x} {stones:x} {from} {to}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1_000_000, "{checked}");
    assert!(symmetric > 100, "{symmetric}");
}

#[test]
fn walking_the_slots_equals_decoding_each() {
    for (w, b) in [
        (0, 0),
        (0, 3),
        (1, 1),
        (2, 5),
        (3, 3),
        (4, 0),
        (5, 4),
        (3, 9),
    ] {
        let sub = Subspace::new(w, b);
        let size = size(sub);
        // Whole subspaces, and ranges that start and end inside classes.
        for range in [0..size, size / 3..size / 2 + 7, size - 1..size + 5] {
            let mut walked = Vec::new();
            for_each_position(sub, range.clone(), |slot, us, them| {
                walked.push((slot, us, them))
            });
            let decoded: Vec<_> = range
                .filter_map(|slot| position(sub, slot).map(|(us, them)| (slot, us, them)))
                .collect();
            assert_eq!(walked, decoded, "{sub}");
        }
    }
}

#[test]
fn seeds_are_the_smallest_images_in_increasing_order() {
    // A seed is the smallest of its 16 images, computed here from the
    // reference permutations; classes number the seeds in increasing order.
    let g = Geometry::nine();
    let image = |perm: &[u8], p: Bits| {
        (0..24)
            .filter(|&i| p & 1 << i != 0)
            .fold(0, |m, i| m | 1 << perm[i])
    };
    for stones in [0usize, 1, 3, 8] {
        let (seeds, stabs) = seeds(stones);
        let mut expected = Vec::new();
        let mut x: Bits = (1 << stones) - 1;
        while x < 1 << 24 {
            let images: Vec<Bits> = g.symmetries.iter().map(|perm| image(perm, x)).collect();
            if images.iter().all(|&i| i >= x) {
                expected.push((x, images.iter().filter(|&&i| i == x).count()));
            }
            if stones == 0 {
                break;
            }
            let c = x | (x - 1);
            x = (c + 1) | (((!c & (c + 1)) - 1) >> (x.trailing_zeros() + 1));
        }
        let got: Vec<(Bits, usize)> = seeds
            .iter()
            .zip(stabs)
            .map(|(&s, &stab)| (s, stab.count_ones() as usize))
            .collect();
        assert_eq!(got, expected, "{stones} stones");
        assert_eq!(seeds.len(), classes(stones));
    }
}
