//! The tables of every mill game, written once for every board: the one
//! order of the moving-phase pairs and their one name ([`pairs`]), and the
//! one resumable generation driver of the moving phase ([`moving`]) and
//! the one of the placement sectors ([`placement`]), which Nine Men's
//! Morris, Morabaraba and every other board on disk run with their own
//! board and index.
//!
//! A pair is named `W-B` with `W ≥ B` on every board (the side with more
//! stones first: `5-4` solves the subspaces `5-4` and `4-5`); a job key of
//! the workflow, `generate --only` and the progress lines use that name,
//! and [`pair_of`] takes either spelling.

pub mod count;
pub mod depth;
pub mod files;
pub mod keys;
pub mod moving;
pub mod outcomes;
pub mod pair;
pub mod placement;
pub mod placement_pass;
pub mod plan;
pub mod size;
pub mod solve;
pub mod verify;

pub use moving::{GenerateObserver, PairReport, SubspaceReport, TablesError};
pub use placement::{SectorObserver, SectorReport};
pub use size::{Size, SizeError};

use crate::tables::keys::Subspace;
use std::sync::Mutex;
use tablebase::retro::Observer;

/// An observer made of an engine's [`Observer`] and a closure that hears
/// of every pair or sector solved or found on disk: for callers that only
/// collect reports.
pub struct Reports<'a, F> {
    observer: &'a dyn Observer,
    report: Mutex<F>,
}

impl<'a, F> Reports<'a, F> {
    /// Passes to `observer`, reports to `report`.
    pub fn new(observer: &'a dyn Observer, report: F) -> Reports<'a, F> {
        Reports {
            observer,
            report: Mutex::new(report),
        }
    }

    fn hear<R>(&self, r: &R)
    where
        F: FnMut(&R),
    {
        (self.report.lock().unwrap_or_else(|e| e.into_inner()))(r)
    }
}

impl<F: Send> Observer for Reports<'_, F> {
    fn start(&self, label: &str, total: u64) {
        self.observer.start(label, total)
    }
    fn advance(&self, n: u64) {
        self.observer.advance(n)
    }
    fn finish(&self) {
        self.observer.finish()
    }
}

impl<F: FnMut(&PairReport) + Send> GenerateObserver for Reports<'_, F> {
    fn skipped(&self, r: &PairReport) {
        self.hear(r)
    }
    fn solved(&self, r: &PairReport) {
        self.hear(r)
    }
}

impl<F: FnMut(&SectorReport) + Send> SectorObserver for Reports<'_, F> {
    fn skipped(&self, r: &SectorReport) {
        self.hear(r)
    }
    fn solved(&self, r: &SectorReport) {
        self.hear(r)
    }
}

/// Every moving-phase pair of a game with `stones` stones a side and at
/// most `max_total` stones in all, named `(w, b)` with `w ≥ b`, in the
/// order they are solved: by total stones (a removal leads into a pair
/// with one stone less), the most uneven pair of a total first.
pub fn pairs(stones: u8, max_total: u8) -> Vec<Subspace> {
    let mut out = Vec::new();
    for total in 6..=max_total.min(2 * stones) {
        for w in (total.div_ceil(2)..=stones.min(total - 3)).rev() {
            out.push(Subspace::new(w, total - w));
        }
    }
    out
}

/// The subspaces a pair solves: `W-B` and then `B-W` (one for `W-W`).
pub fn parts(pair: Subspace) -> Vec<Subspace> {
    if pair.us == pair.them {
        vec![pair]
    } else {
        vec![pair, pair.swapped()]
    }
}

/// Every subspace of [`pairs`], each pair's parts in turn ([`parts`]).
pub fn subspaces(stones: u8, max_total: u8) -> Vec<Subspace> {
    pairs(stones, max_total)
        .into_iter()
        .flat_map(parts)
        .collect()
}

/// The pair that solves `sub`, by its one name (`W ≥ B`).
pub fn pair_of(sub: Subspace) -> Subspace {
    Subspace::new(sub.us.max(sub.them), sub.us.min(sub.them))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subspace of the game once, each after every subspace its
    /// removals lead into (the order a generation needs), named `W ≥ B`.
    #[test]
    fn pairs_cover_the_game_in_dependency_order() {
        for stones in 3..=12u8 {
            let subs = subspaces(stones, 2 * stones);
            let mut all: Vec<Subspace> = Vec::new();
            for w in 3..=stones {
                for b in 3..=stones {
                    all.push(Subspace::new(w, b));
                }
            }
            let mut sorted = subs.clone();
            sorted.sort();
            all.sort();
            assert_eq!(sorted, all, "{stones} stones");
            for (i, s) in subs.iter().enumerate() {
                if let Some(e) = s.exit() {
                    let at = subs.iter().position(|x| *x == e).unwrap();
                    assert!(at < i, "{s} needs {e} first");
                }
            }
            for p in pairs(stones, 2 * stones) {
                assert!(p.us >= p.them);
                assert_eq!(pair_of(p.swapped()), p);
            }
        }
        // A limit on the stones in all cuts the list.
        assert!(subspaces(9, 9).iter().all(|s| s.us + s.them <= 9));
        assert_eq!(pairs(9, 9).len(), 6);
    }
}
