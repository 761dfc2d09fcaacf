//! Binomial coefficients and combination ranking.
