//! Perft: the number of move sequences (leaves) of a given length, the
//! standard check of a move generator. Finished games have no moves; the last
//! ply is bulk-counted (the number of legal moves, without playing them).

use super::board::Board;

/// Leaves at `depth` plies below `board`.
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(board.move_count()),
        _ => {
            let mut mask = board.legal_mask();
            let mut total = 0;
            while mask != 0 {
                let m = mask.trailing_zeros() as u8;
                mask &= mask - 1;
                total += perft(&board.after(m), depth - 1);
            }
            total
        }
    }
}

/// [`perft`] with make/unmake on one board instead of copy-make (kept to
/// benchmark the two; same counts).
pub fn perft_unmake(board: &mut Board, depth: u32) -> u64 {
    if depth <= 1 {
        return perft(board, depth);
    }
    let mut mask = board.legal_mask();
    let mut total = 0;
    while mask != 0 {
        let m = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        let e = board.make(m);
        total += perft_unmake(board, depth - 1);
        board.unmake(m, &e);
    }
    total
}

/// Leaves at `depth` below each legal move of `board` (hole number 1..9, count).
pub fn perft_divide(board: &Board, depth: u32) -> Vec<(u8, u64)> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    let mut mask = board.legal_mask();
    while mask != 0 {
        let m = mask.trailing_zeros() as u8;
        mask &= mask - 1;
        out.push((m + 1, perft(&board.after(m), depth - 1)));
    }
    out
}

/// Perft split over the root moves with rayon (same result as [`perft`]).
pub fn perft_parallel(board: &Board, depth: u32) -> u64 {
    use rayon::prelude::*;
    if depth < 3 {
        return perft(board, depth);
    }
    let moves: Vec<u8> = (0..9).filter(|&m| board.is_legal(m)).collect();
    moves
        .par_iter()
        .map(|&m| perft(&board.after(m), depth - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_small_depths() {
        // Published figures (docs/rules.md).
        let expected = [9u64, 73, 613, 5199];
        let b = Board::start();
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&b, d as u32 + 1), n, "depth {}", d + 1);
            assert_eq!(perft_unmake(&mut b.clone(), d as u32 + 1), n);
        }
    }
}
