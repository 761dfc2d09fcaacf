//! The `solver` command line: one subcommand per game.

use std::process::ExitCode;

fn main() -> ExitCode {
    // Die quietly on a closed pipe (`solver … | head`), like other Unix tools,
    // instead of panicking in `println!`.
    #[cfg(unix)]
    // SAFETY: setting a signal disposition to its default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    solver::cli::main()
}
