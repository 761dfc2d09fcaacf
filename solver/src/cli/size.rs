//! `--max-stones N`, the same on every mill board whose tables live on
//! disk (Nine Men's Morris, Morabaraba): at most N stones on the board in
//! all, beside `--stones K`, the K-stone game ([`mill::tables::Size`]).

use mill::tables::Size;

/// `--max-stones N`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MaxStones {
    /// Only subspaces with at most N stones on the board in all (w + b ≤
    /// N, 6..=24; default: every subspace of the `--stones K` game, 2K).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(6..=24))]
    pub max_stones: Option<u8>,
}

impl MaxStones {
    /// The subspaces of the `stones`-stone game these options cover.
    pub fn of(&self, stones: u8) -> Size {
        Size::new(stones, self.max_stones)
    }
}
