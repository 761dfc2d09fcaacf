//! Binomial coefficients, combination ranking in colexicographic order and
//! the bit gather/scatter helpers used to rank one set of points over the
//! points another set leaves free.

/// Largest `n` for which [`binomial`] has a table row.
pub const MAX_N: usize = 32;

const fn build_table() -> [[u64; MAX_N + 1]; MAX_N + 1] {
    let mut t = [[0u64; MAX_N + 1]; MAX_N + 1];
    let mut n = 0;
    while n <= MAX_N {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// Pascal's triangle: `BINOMIAL[n][k] = C(n, k)` for `n, k ≤ 32`.
pub static BINOMIAL: [[u64; MAX_N + 1]; MAX_N + 1] = build_table();

/// `C(n, k)`, zero when `k > n`. `n` must be at most [`MAX_N`].
#[inline(always)]
pub fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        0
    } else {
        BINOMIAL[n][k]
    }
}

/// Colex rank of a set of bit positions among all sets of the same size:
/// `Σ C(c_i, i)` over its members `c_1 < c_2 < …` (`i` from 1). Sets of one
/// size are numbered 0.. in increasing numeric order.
#[inline]
pub fn colex_rank(mut bits: u32) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    while bits != 0 {
        let c = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        rank += BINOMIAL[c][i];
        i += 1;
    }
    rank
}

/// The `k`-element set of colex rank `rank` (inverse of [`colex_rank`]).
/// `rank` must be below `C(32, k)`.
#[inline]
pub fn colex_unrank(mut rank: u64, k: usize) -> u32 {
    let mut bits = 0;
    // Members are found from the largest down, so the search for each one
    // starts below the previous: O(32 + k) steps in all.
    let mut c = MAX_N;
    let mut i = k;
    while i > 0 {
        // Largest c with C(c, i) <= rank.
        c -= 1;
        while BINOMIAL[c][i] > rank {
            c -= 1;
        }
        rank -= BINOMIAL[c][i];
        bits |= 1 << c;
        i -= 1;
    }
    bits
}

/// Gather the bits of `bits` that lie under `mask` into the low bits, in
/// order (a software `pext`).
#[inline]
pub fn gather(bits: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    let mut j = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if bits & low != 0 {
            out |= 1 << j;
        }
        mask ^= low;
        j += 1;
    }
    out
}

/// Scatter the low bits of `bits` onto the set bits of `mask`, in order (a
/// software `pdep`; inverse of [`gather`]).
#[inline]
pub fn scatter(bits: u32, mask: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the build enables BMI2, which PDEP belongs to.
        unsafe { std::arch::x86_64::_pdep_u32(bits, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    scatter_loop(bits, mask)
}

/// [`scatter`] one bit at a time (also its test oracle where PDEP exists).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
fn scatter_loop(mut bits: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    while mask != 0 && bits != 0 {
        let low = mask & mask.wrapping_neg();
        if bits & 1 != 0 {
            out |= low;
        }
        bits >>= 1;
        mask ^= low;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pascal_values() {
        assert_eq!(binomial(24, 9), 1_307_504);
        assert_eq!(binomial(32, 16), 601_080_390);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn colex_rank_is_position_in_increasing_order() {
        // Enumerate all 5-subsets of 12 points in increasing numeric order.
        let mut expected = 0;
        for bits in 0u32..(1 << 12) {
            if bits.count_ones() == 5 {
                assert_eq!(colex_rank(bits), expected);
                assert_eq!(colex_unrank(expected, 5), bits);
                expected += 1;
            }
        }
        assert_eq!(expected, binomial(12, 5));
    }

    #[test]
    fn gather_scatter_round_trip() {
        let mask = 0b1011_0110_1001u32;
        for small in 0..(1 << mask.count_ones()) {
            let spread = scatter(small, mask);
            assert_eq!(spread & !mask, 0);
            assert_eq!(gather(spread, mask), small);
        }
    }

    #[test]
    fn scatter_equals_the_bit_loop() {
        // Masks and inputs from a fixed-seed xorshift, plus the edges.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        for _ in 0..100_000 {
            let (bits, mask) = (next(), next());
            assert_eq!(scatter(bits, mask), scatter_loop(bits, mask));
        }
        for (bits, mask) in [(0, 0), (u32::MAX, 0), (u32::MAX, u32::MAX), (5, 1 << 31)] {
            assert_eq!(scatter(bits, mask), scatter_loop(bits, mask));
        }
        assert_eq!(scatter_loop(0b101, 0b1110), 0b1010);
    }
}
