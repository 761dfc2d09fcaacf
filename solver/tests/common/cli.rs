//! Running the `solver` binary from the integration tests.

/// Run the `solver` binary; stdout and success.
pub fn run_cli(args: &[&str]) -> (String, bool) {
    run_cli_with_input(args, "")
}

/// Run the `solver` binary with `input` on its standard input; stdout and
/// success.
pub fn run_cli_with_input(args: &[&str], input: &str) -> (String, bool) {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // A program that exits before reading its input closes the pipe.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.success(),
    )
}

/// Run the `solver` binary; stderr and success (for the error line).
#[allow(dead_code)] // not every test binary checks an error line
pub fn run_cli_stderr(args: &[&str]) -> (String, bool) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}
