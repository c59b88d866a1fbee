//! The `bench` node-count signature.

/// Run `chess960 bench`.
///
/// # Errors
/// A message when the depth is absurd.
pub fn run_cli(_depth: Option<u32>) -> Result<std::process::ExitCode, String> {
    Err("bench: not implemented yet".into())
}
