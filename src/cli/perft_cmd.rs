//! Handler for `perft`.
use std::process::ExitCode;

use super::{CliError, PerftArgs};

pub fn perft(_a: &PerftArgs) -> Result<ExitCode, CliError> {
    Err(CliError("perft: not implemented yet".into()))
}
