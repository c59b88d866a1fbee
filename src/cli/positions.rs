//! Handlers for `fen`, `idn`, `show`, `random` and `openings`.
use std::process::ExitCode;

use super::{CliError, FenArgs, IdnArgs, OpeningsArgs, RandomArgs, ShowArgs};

fn unimplemented_yet(what: &str) -> Result<ExitCode, CliError> {
    Err(CliError(format!("{what}: not implemented yet")))
}

pub fn fen(_a: &FenArgs) -> Result<ExitCode, CliError> {
    unimplemented_yet("fen")
}
pub fn idn(_a: &IdnArgs) -> Result<ExitCode, CliError> {
    unimplemented_yet("idn")
}
pub fn show(_a: &ShowArgs) -> Result<ExitCode, CliError> {
    unimplemented_yet("show")
}
pub fn random(_a: &RandomArgs) -> Result<ExitCode, CliError> {
    unimplemented_yet("random")
}
pub fn openings(_a: &OpeningsArgs) -> Result<ExitCode, CliError> {
    unimplemented_yet("openings")
}
