//! The first layer's output for both points of view (White's and Black's),
//! computed from scratch or brought from another position's accumulator by
//! the inputs that differ (the search copies boards, so a child's
//! accumulator is its parent's plus the changed holes, kazans and tuzdyks).

use super::features;
use super::net::{Network, ACC};
use crate::board::{Board, HOLES, NO_TUZDYK};

/// First-layer sums, `v[view]` for view 0 (White) and 1 (Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(64))]
pub struct Accumulator {
    /// Per point of view, the [`ACC`] sums (wrapping i16; the network's
    /// range check keeps them from wrapping).
    pub v: [[i16; ACC]; 2],
}

#[inline]
fn add(v: &mut [i16; ACC], c: &[i16; ACC]) {
    for (a, b) in v.iter_mut().zip(c) {
        *a = a.wrapping_add(*b);
    }
}

#[inline]
fn sub(v: &mut [i16; ACC], c: &[i16; ACC]) {
    for (a, b) in v.iter_mut().zip(c) {
        *a = a.wrapping_sub(*b);
    }
}

impl Accumulator {
    /// The accumulator of `b`, from scratch.
    #[inline]
    pub fn refresh(net: &Network, b: &Board) -> Accumulator {
        let mut a = Accumulator { v: [net.b1; 2] };
        for view in 0..2 {
            let v = &mut a.v[view];
            features::for_each_active(b, view, |i| add(v, &net.w1[i]));
        }
        a
    }

    /// Column operations [`Accumulator::update`] needs from `from` to `to`
    /// (per point of view); a refresh costs 22 or fewer.
    #[inline]
    pub fn changes(from: &Board, to: &Board) -> usize {
        let mut n = 0;
        for h in 0..HOLES {
            n += 2 * usize::from(from.holes[h] != to.holes[h]);
        }
        for s in 0..2 {
            n += 2 * usize::from(from.kazan[s] != to.kazan[s]);
            n += 2 * usize::from(from.tuzdyk[s] != to.tuzdyk[s]);
        }
        n
    }

    /// Turn the accumulator of `from` into that of `to`: subtract the
    /// columns of inputs that went off and add those that came on.
    #[inline]
    pub fn update(&mut self, net: &Network, from: &Board, to: &Board) {
        for h in 0..HOLES {
            let (a, b) = (from.holes[h], to.holes[h]);
            if a == b {
                continue;
            }
            for view in 0..2 {
                let (fa, fb) = (features::hole(view, h, a), features::hole(view, h, b));
                if fa != fb {
                    sub(&mut self.v[view], &net.w1[fa]);
                    add(&mut self.v[view], &net.w1[fb]);
                }
            }
        }
        for s in 0..2 {
            let (a, b) = (from.kazan[s], to.kazan[s]);
            if a != b {
                for view in 0..2 {
                    let (fa, fb) = (features::kazan(view, s, a), features::kazan(view, s, b));
                    if fa != fb {
                        sub(&mut self.v[view], &net.w1[fa]);
                        add(&mut self.v[view], &net.w1[fb]);
                    }
                }
            }
            let (a, b) = (from.tuzdyk[s], to.tuzdyk[s]);
            if a != b {
                for view in 0..2 {
                    if a != NO_TUZDYK {
                        sub(&mut self.v[view], &net.w1[features::tuzdyk(view, s, a)]);
                    }
                    if b != NO_TUZDYK {
                        add(&mut self.v[view], &net.w1[features::tuzdyk(view, s, b)]);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::train::FloatNet;
    use crate::train::xorshift;

    /// A network with seeded random weights (all inputs matter).
    pub(crate) fn random_net(seed: u64) -> Network {
        let mut f = FloatNet::new(seed, 0.05);
        let mut x = seed | 1;
        for w in f.p.iter_mut() {
            *w += ((xorshift(&mut x) % 2001) as f32 - 1000.0) / 10_000.0;
        }
        let n = f.quantize("test");
        n.check().expect("random net in range");
        n
    }

    /// Along many seeded random games the accumulator carried move by move
    /// equals a refresh from scratch, and so does one brought from a
    /// position several plies back; the games include captures and
    /// tuzdyks.
    #[test]
    fn incremental_equals_refresh_after_random_moves() {
        let net = random_net(11);
        let mut rng = 0x1234_5678_9abc_def1u64;
        let (mut captures, mut tuzdyks, mut checked) = (0, 0, 0);
        for _game in 0..300 {
            let mut b = Board::start();
            let mut acc = Accumulator::refresh(&net, &b);
            let mut history = vec![(b, acc)];
            while b.outcome().is_none() {
                let mask = b.legal_mask();
                let k = (xorshift(&mut rng) % u64::from(mask.count_ones())) as u32;
                let mut mm = mask;
                for _ in 0..k {
                    mm &= mm - 1;
                }
                let mut c = b;
                let e = c.make(mm.trailing_zeros() as u8);
                captures += usize::from(e.captured > 0);
                tuzdyks += usize::from(e.tuzdyk);
                acc.update(&net, &b, &c);
                let fresh = Accumulator::refresh(&net, &c);
                assert_eq!(acc, fresh, "after {b} -> {c}");
                // From an older position on the same line.
                let back = (xorshift(&mut rng) % 6) as usize;
                let (ob, mut oa) = history[history.len().saturating_sub(1 + back)];
                oa.update(&net, &ob, &c);
                assert_eq!(oa, fresh);
                if c.outcome().is_none() {
                    let me = c.side.index();
                    let kd = i32::from(c.kazan[me]) - i32::from(c.kazan[1 - me]);
                    assert_eq!(net.output(&acc, me, kd), net.evaluate(&c));
                }
                checked += 1;
                b = c;
                history.push((b, acc));
            }
        }
        assert!(
            captures > 1000 && tuzdyks > 100,
            "{captures} captures, {tuzdyks} tuzdyks"
        );
        assert!(checked > 10_000, "{checked}");
    }
}
