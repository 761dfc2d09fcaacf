//! Toguz Kumalak.
