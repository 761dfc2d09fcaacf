//! Mill games on bitboards.
