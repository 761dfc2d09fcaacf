//! Probing solved mill games: the full answer about one position
//! ([`analysis`]: value, distance, every move's value, tables else the
//! placement search), Nine Men's Morris's mapped tables ([`nine`]), the
//! values of every other board's tables ([`values`]), values under a
//! ply limit ([`horizon`]) and under the count rule ([`count`]).

pub mod analysis;
pub mod count;
pub mod horizon;
pub mod nine;
pub mod values;
