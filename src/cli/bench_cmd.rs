//! Handler for `bench`: the search signature in the form OpenBench reads.

use std::io::Write;
use std::process::ExitCode;

use super::CliError;
use crate::bench;

/// Run `chess960 bench [DEPTH]` (the depth is checked by clap).
///
/// # Errors
/// A bench position that does not parse (a bug in the bench list), and
/// standard output that cannot be written.
pub fn bench(depth: Option<u32>) -> Result<ExitCode, CliError> {
    let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
    let (nodes, ms) =
        bench::run(depth).map_err(|e| CliError::Io(format!("bench position: {e}")))?;
    let nps = (u128::from(nodes) * 1000).checked_div(ms).unwrap_or(0);
    let mut out = std::io::stdout().lock();
    writeln!(out, "Positions: {}", bench::POSITIONS.len())?;
    writeln!(out, "Depth: {depth}")?;
    writeln!(out, "Time (ms): {ms}")?;
    writeln!(out, "Nodes searched: {nodes}")?;
    writeln!(out, "Nodes/second: {nps}")?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
