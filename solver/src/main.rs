//! The `solver` command line: one subcommand per game.

use std::process::ExitCode;

/// mimalloc instead of glibc's malloc: the web server allocates per
/// request (texts, buffers, tasks), and the table generators allocate
/// little in their loops, so only the server's speed changes (measured in
/// docs/results.md, "Web server load").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
