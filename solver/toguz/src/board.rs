//! The Toguz Kumalak position and the rules of a move: sowing, even captures,
//! tuzdyk creation (with its three restrictions), stones sown into a tuzdyk,
//! atsyrau and the end of the game. The search uses copy-make ([`Board::after`]):
//! the board is 32 bytes and copying it measured faster than
//! [`Board::unmake`] (bench `toguz/perft`, docs/toguz.md).
//!
//! Layout: `holes[0..9]` are White's holes 1..9, `holes[9..18]` Black's holes
//! 1..9. Sowing runs from an index to the next one, wrapping after 17, which is
//! the counter-clockwise order of the rules (own holes 1..9, then the
//! opponent's 1..9).

/// Number of holes on the board (9 a side).
pub const HOLES: usize = 18;
/// Stones in the game.
pub const TOTAL_STONES: u32 = 162;
/// A kazan holding this many stones has won.
pub const WIN_STONES: u8 = 82;
/// Marker for "no tuzdyk" in [`Board::tuzdyk`].
pub const NO_TUZDYK: u8 = u8::MAX;

/// A side: White (the first player) or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Side {
    /// The first player.
    White,
    /// The second player.
    Black,
}

impl Side {
    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// Side from an index (0 = White, anything else = Black).
    #[inline]
    pub const fn from_index(i: usize) -> Side {
        if i == 0 {
            Side::White
        } else {
            Side::Black
        }
    }
}

/// A move: the mover's hole, 0-based (hole number 1..9 minus one).
pub type Move = u8;

/// What a move did; enough to write its PlayOK notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEffect {
    /// Absolute index (0..18) of the hole the last stone landed in.
    pub landing: u8,
    /// Stones taken by an even capture or a new tuzdyk (0 if none).
    pub captured: u8,
    /// The move made a tuzdyk.
    pub tuzdyk: bool,
    /// Stones the move sowed (the played hole's count).
    pub sown: u8,
    /// Stones sown into each side's tuzdyk (White's, Black's), which went to
    /// the owner's kazan.
    pub inflow: [u8; 2],
    /// Hash before the move (for [`Board::unmake`]).
    pub hash_before: u64,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Outcome {
    /// The side won.
    Win(Side),
    /// 81-81.
    Draw,
}

impl Outcome {
    /// +1 if `side` won, -1 if it lost, 0 for a draw.
    #[inline]
    pub fn sign_for(self, side: Side) -> i32 {
        match self {
            Outcome::Draw => 0,
            Outcome::Win(s) if s == side => 1,
            Outcome::Win(_) => -1,
        }
    }
}

/// A position: holes, kazans, tuzdyks, side to move and its hash.
///
/// The hash is additive: the sum over holes of `count * R[hole]`, plus a
/// term for White's kazan (Black's follows from the stone total), one per
/// tuzdyk and one for the side to move; each stone sown updates it by one
/// addition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Stones per hole, White's 1..9 then Black's 1..9.
    pub holes: [u8; HOLES],
    /// Kazan of White and of Black.
    pub kazan: [u8; 2],
    /// Absolute hole index of each side's tuzdyk (on the opponent's side), or
    /// [`NO_TUZDYK`].
    pub tuzdyk: [u8; 2],
    /// Side to move.
    pub side: Side,
    hash: u64,
}

/// SplitMix64 step: the deterministic random source of the hash keys.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Hash keys: 18 holes, White's kazan, side to move, 2 × 19 tuzdyk slots.
struct Keys {
    hole: [u64; HOLES],
    kazan: u64,
    side: u64,
    tuzdyk: [[u64; HOLES + 1]; 2],
}

const KEYS: Keys = {
    let mut state = 0x746F_677A_6B75_6D61; // "togzkuma"
    let mut hole = [0u64; HOLES];
    let mut i = 0;
    while i < HOLES {
        let (s, v) = splitmix(state);
        state = s;
        hole[i] = v | 1;
        i += 1;
    }
    let (s, kazan) = splitmix(state);
    state = s;
    let (s, side) = splitmix(state);
    state = s;
    let mut tuzdyk = [[0u64; HOLES + 1]; 2];
    let mut t = 0;
    while t < 2 {
        let mut j = 0;
        while j < HOLES {
            let (s, v) = splitmix(state);
            state = s;
            tuzdyk[t][j] = v;
            j += 1;
        }
        t += 1;
    }
    Keys {
        hole,
        kazan: kazan | 1,
        side,
        tuzdyk,
    }
};

#[inline]
fn tuzdyk_key(side: usize, t: u8) -> u64 {
    if t == NO_TUZDYK {
        0
    } else {
        KEYS.tuzdyk[side][t as usize]
    }
}

/// Index of the hole after `i` in sowing order.
#[inline]
const fn next(i: usize) -> usize {
    if i == HOLES - 1 {
        0
    } else {
        i + 1
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

impl Board {
    /// The start position: 9 stones in every hole, White to move.
    pub fn start() -> Board {
        Board::from_parts([9; HOLES], [0, 0], [NO_TUZDYK, NO_TUZDYK], Side::White)
    }

    /// Build a board from its parts without checking them (see
    /// [`crate::notation`] for the checked constructor).
    pub fn from_parts(holes: [u8; HOLES], kazan: [u8; 2], tuzdyk: [u8; 2], side: Side) -> Board {
        let mut b = Board {
            holes,
            kazan,
            tuzdyk,
            side,
            hash: 0,
        };
        b.hash = b.compute_hash();
        b
    }

    /// Hash computed from scratch (the incremental one must equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0u64;
        for i in 0..HOLES {
            h = h.wrapping_add(u64::from(self.holes[i]).wrapping_mul(KEYS.hole[i]));
        }
        h = h.wrapping_add(u64::from(self.kazan[0]).wrapping_mul(KEYS.kazan));
        h = h.wrapping_add(tuzdyk_key(0, self.tuzdyk[0]));
        h = h.wrapping_add(tuzdyk_key(1, self.tuzdyk[1]));
        if self.side == Side::Black {
            h = h.wrapping_add(KEYS.side);
        }
        h
    }

    /// The same position with the other side to move (a "null move" for the
    /// search's null-move pruning; not a legal move of the game).
    #[inline]
    pub fn pass(&self) -> Board {
        let mut b = *self;
        if b.side == Side::White {
            b.hash = b.hash.wrapping_add(KEYS.side);
        } else {
            b.hash = b.hash.wrapping_sub(KEYS.side);
        }
        b.side = b.side.opponent();
        b
    }

    /// The position's 64-bit hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones in the holes of `side`.
    #[inline]
    pub fn stones_of(&self, side: Side) -> u32 {
        let base = side.index() * 9;
        self.holes[base..base + 9]
            .iter()
            .map(|&x| u32::from(x))
            .sum()
    }

    /// Stones still in holes (both sides).
    #[inline]
    pub fn stones_on_board(&self) -> u32 {
        self.holes.iter().map(|&x| u32::from(x)).sum()
    }

    /// Bit `i` set when the side to move may play its hole `i + 1`.
    #[inline]
    pub fn legal_mask(&self) -> u16 {
        if self.kazan[0] >= WIN_STONES || self.kazan[1] >= WIN_STONES {
            return 0;
        }
        let base = self.side.index() * 9;
        let mut mask = 0u16;
        for i in 0..9 {
            mask |= u16::from(self.holes[base + i] != 0) << i;
        }
        mask
    }

    /// Number of legal moves.
    #[inline]
    pub fn move_count(&self) -> u32 {
        self.legal_mask().count_ones()
    }

    /// Whether hole `m` (0-based) of the side to move may be played.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        m < 9 && self.legal_mask() & (1 << m) != 0
    }

    /// The result if the game is over: a kazan reached 82, or the side to move
    /// has no stones (atsyrau; the opponent then takes its own holes' stones).
    pub fn outcome(&self) -> Option<Outcome> {
        for s in [Side::White, Side::Black] {
            if self.kazan[s.index()] >= WIN_STONES {
                return Some(Outcome::Win(s));
            }
        }
        if self.stones_of(self.side) != 0 {
            return None;
        }
        let [w, b] = self.final_kazans();
        Some(match w.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::White),
            std::cmp::Ordering::Less => Outcome::Win(Side::Black),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    /// Kazans after atsyrau: each side's remaining hole stones go to the side
    /// that still has them (only meaningful when the game is over).
    pub fn final_kazans(&self) -> [u32; 2] {
        [
            u32::from(self.kazan[0]) + self.stones_of(Side::White),
            u32::from(self.kazan[1]) + self.stones_of(Side::Black),
        ]
    }

    /// Play hole `m` (0-based) of the side to move. The caller guarantees the
    /// move is legal ([`Board::is_legal`]).
    #[inline]
    pub fn make(&mut self, m: Move) -> MoveEffect {
        let me = self.side.index();
        let from = me * 9 + m as usize;
        let n = self.holes[from];
        debug_assert!(n > 0);
        let mut hash = self.hash;
        let hash_before = hash;
        let mut inflow = [0u8; 2];
        self.holes[from] = 0;
        hash = hash.wrapping_sub(u64::from(n).wrapping_mul(KEYS.hole[from]));
        let last;
        if n == 1 {
            last = next(from);
            self.holes[last] += 1;
            hash = hash.wrapping_add(KEYS.hole[last]);
        } else {
            let laps = n / HOLES as u8;
            let rem = n % HOLES as u8;
            if laps > 0 {
                for i in 0..HOLES {
                    self.holes[i] += laps;
                    hash = hash.wrapping_add(u64::from(laps).wrapping_mul(KEYS.hole[i]));
                }
            }
            let mut i = from;
            for _ in 0..rem {
                self.holes[i] += 1;
                hash = hash.wrapping_add(KEYS.hole[i]);
                i = next(i);
            }
            last = (from + n as usize - 1) % HOLES;
        }
        // Stones sown into a tuzdyk belong to its owner.
        let tuzdyks = self.tuzdyk;
        for (owner, &t) in tuzdyks.iter().enumerate() {
            if t != NO_TUZDYK {
                let t = t as usize;
                let k = self.holes[t];
                if k != 0 {
                    inflow[owner] = k;
                    self.holes[t] = 0;
                    self.kazan[owner] += k;
                    hash = hash.wrapping_sub(u64::from(k).wrapping_mul(KEYS.hole[t]));
                    if owner == 0 {
                        hash = hash.wrapping_add(u64::from(k).wrapping_mul(KEYS.kazan));
                    }
                }
            }
        }
        let mut effect = MoveEffect {
            landing: last as u8,
            captured: 0,
            tuzdyk: false,
            sown: n,
            inflow,
            hash_before,
        };
        let opp = 1 - me;
        if last / 9 == opp && self.tuzdyk[me] as usize != last && self.tuzdyk[opp] as usize != last
        {
            let k = self.holes[last];
            let take = if k & 1 == 0 {
                true
            } else if k == 3
                && self.tuzdyk[me] == NO_TUZDYK
                && last % 9 != 8
                && self.tuzdyk[opp] as usize != me * 9 + last % 9
            {
                self.tuzdyk[me] = last as u8;
                hash = hash.wrapping_add(tuzdyk_key(me, last as u8));
                effect.tuzdyk = true;
                true
            } else {
                false
            };
            if take {
                self.holes[last] = 0;
                self.kazan[me] += k;
                effect.captured = k;
                hash = hash.wrapping_sub(u64::from(k).wrapping_mul(KEYS.hole[last]));
                if me == 0 {
                    hash = hash.wrapping_add(u64::from(k).wrapping_mul(KEYS.kazan));
                }
            }
        }
        self.side = self.side.opponent();
        if me == 0 {
            hash = hash.wrapping_add(KEYS.side);
        } else {
            hash = hash.wrapping_sub(KEYS.side);
        }
        self.hash = hash;
        effect
    }

    /// Take back move `m` whose effect [`Board::make`] returned.
    pub fn unmake(&mut self, m: Move, e: &MoveEffect) {
        let me = self.side.opponent();
        self.side = me;
        let me = me.index();
        let from = me * 9 + m as usize;
        let last = e.landing as usize;
        if e.captured > 0 {
            self.holes[last] += e.captured;
            self.kazan[me] -= e.captured;
            if e.tuzdyk {
                self.tuzdyk[me] = NO_TUZDYK;
            }
        }
        for (owner, &k) in e.inflow.iter().enumerate() {
            if k != 0 {
                self.holes[self.tuzdyk[owner] as usize] += k;
                self.kazan[owner] -= k;
            }
        }
        let n = e.sown;
        if n == 1 {
            self.holes[next(from)] -= 1;
        } else {
            let laps = n / HOLES as u8;
            if laps > 0 {
                for h in &mut self.holes {
                    *h -= laps;
                }
            }
            let mut i = from;
            for _ in 0..n % HOLES as u8 {
                self.holes[i] -= 1;
                i = next(i);
            }
        }
        self.holes[from] = n;
        self.hash = e.hash_before;
    }

    /// Copy-make: the position after hole `m` (0-based), which must be legal.
    #[inline]
    pub fn after(&self, m: Move) -> Board {
        let mut b = *self;
        b.make(m);
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_move_76_captures_ten() {
        let mut b = Board::start();
        let e = b.make(6);
        assert_eq!(e.landing, 9 + 5);
        assert_eq!(e.captured, 10);
        assert_eq!(b.kazan, [10, 0]);
        assert_eq!(b.holes[6], 1);
        assert_eq!(b.hash(), b.compute_hash());
    }

    #[test]
    fn single_stone_leaves_origin_empty() {
        let mut holes = [0u8; HOLES];
        holes[0] = 1;
        holes[9] = 1;
        let mut b = Board::from_parts(holes, [80, 80], [NO_TUZDYK; 2], Side::White);
        let e = b.make(0);
        assert_eq!(e.landing, 1);
        assert_eq!(b.holes[0], 0);
        assert_eq!(b.holes[1], 1);
        assert_eq!(b.hash(), b.compute_hash());
    }

    #[test]
    fn tuzdyk_restrictions() {
        // White plays hole 9 with 1 stone onto Black's hole 1 holding 2: tuzdyk.
        let mut holes = [0u8; HOLES];
        holes[8] = 1;
        holes[9] = 2;
        holes[12] = 5;
        let rest = 162 - 8;
        let b0 = Board::from_parts(holes, [rest / 2, rest / 2], [NO_TUZDYK; 2], Side::White);
        let mut b = b0;
        let e = b.make(8);
        assert!(e.tuzdyk);
        assert_eq!(b.tuzdyk[0], 9);
        assert_eq!(b.kazan[0], rest / 2 + 3);
        assert_eq!(b.hash(), b.compute_hash());
        // Not when White already has a tuzdyk.
        let mut b = b0;
        b.tuzdyk[0] = 13;
        b.holes[13] = 0;
        b.hash = b.compute_hash();
        assert!(!b.make(8).tuzdyk);
        // Not when Black's tuzdyk is White's hole 1.
        let mut b = b0;
        b.tuzdyk[1] = 0;
        b.hash = b.compute_hash();
        assert!(!b.make(8).tuzdyk);
        // Never on the opponent's hole 9.
        let mut holes = [0u8; HOLES];
        holes[7] = 11;
        holes[17] = 2;
        let mut b = Board::from_parts(holes, [74, 75], [NO_TUZDYK; 2], Side::White);
        let e = b.make(7);
        assert_eq!(e.landing, 17);
        assert!(!e.tuzdyk);
        assert_eq!(b.holes[17], 3);
    }

    #[test]
    fn stones_sown_into_tuzdyk_go_to_owner() {
        let mut holes = [0u8; HOLES];
        holes[0] = 12; // White sows 1..9 then Black 1, 2, 3
        holes[15] = 1;
        let b0 = Board::from_parts(holes, [75, 74], [NO_TUZDYK, 4], Side::White);
        let mut b = b0;
        b.tuzdyk[0] = 10; // White owns Black's hole 2
        b.hash = b.compute_hash();
        let e = b.make(0);
        // Black's tuzdyk (White's hole 5) got a stone: Black's kazan +1;
        // White's tuzdyk (Black's hole 2) got a stone: White's kazan +1.
        assert_eq!(b.kazan, [76, 75]);
        assert_eq!(b.holes[4], 0);
        assert_eq!(b.holes[10], 0);
        assert_eq!(e.landing, 11);
        assert_eq!(b.hash(), b.compute_hash());
    }

    #[test]
    fn laps_pass_the_origin() {
        let mut holes = [0u8; HOLES];
        holes[2] = 20;
        let b0 = Board::from_parts(holes, [71, 71], [NO_TUZDYK; 2], Side::White);
        let mut b = b0;
        let e = b.make(2);
        // 20 stones: holes 3..18 and 1..2 get one, holes 3 and 4 a second one.
        assert_eq!(e.landing, 3);
        assert_eq!(b.holes[2], 2);
        assert_eq!(b.holes[3], 2);
        assert_eq!(b.holes[4], 1);
        assert_eq!(b.hash(), b.compute_hash());
    }

    #[test]
    fn unmake_restores_the_board() {
        let mut x = 0x1357_9BDF_2468_ACE1u64;
        let mut b = Board::start();
        for _ in 0..2000 {
            if b.outcome().is_some() {
                b = Board::start();
            }
            let legal: Vec<u8> = (0..9).filter(|&m| b.is_legal(m)).collect();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = legal[(x % legal.len() as u64) as usize];
            let before = b;
            let e = b.make(m);
            let after = b;
            b.unmake(m, &e);
            assert_eq!(b, before);
            b = after;
        }
    }

    #[test]
    fn atsyrau_gives_remaining_stones_to_their_owner() {
        let mut holes = [0u8; HOLES];
        holes[0] = 3;
        let b = Board::from_parts(holes, [78, 81], [NO_TUZDYK; 2], Side::Black);
        assert_eq!(b.final_kazans(), [81, 81]);
        assert_eq!(b.outcome(), Some(Outcome::Draw));
        let b = Board::from_parts(holes, [78, 81], [NO_TUZDYK; 2], Side::White);
        assert_eq!(b.outcome(), None);
    }
}
