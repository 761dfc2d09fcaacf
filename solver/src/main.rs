//! The `solver` command line: one subcommand per game.

use std::process::ExitCode;

fn main() -> ExitCode {
    solver::cli::main()
}
