//! The UCI engine.

/// Speak UCI on stdin/stdout until `quit` or end of input.
///
/// # Errors
/// Only on a broken stdout.
pub fn run_stdio() -> Result<(), crate::cli::CliError> {
    Ok(())
}
