//! Code shared by the integration tests of the mill family (each test file
//! that needs it says `mod common;`).

pub mod cli;
pub mod oracle;
