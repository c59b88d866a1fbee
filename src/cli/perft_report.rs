//! What the perft commands say besides their counts, the same from a
//! whole run, a part (`perft --shard`) and a merge (`perft-merge`): the
//! lines naming a count that differs (and the run's memory of one, for
//! its exit status), a table that could not be had, the JSON writer, a
//! count's verdict, and the progress bars on stderr while counting.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use shakmaty::{Chess, Position};

use super::CliError;
use crate::perft::runner::Job;
use crate::perft::{Perft, PerftConfig};

/// Set once a count is known to differ from its reference, or an engine's
/// from ours (`--engine`): a reader that stops reading (`| head -1`) then
/// ends the run with status 1, not the quiet 0 of a closed pipe, so that a
/// pipeline's status never says a failed check passed.
static DIFFERENCE_FOUND: AtomicBool = AtomicBool::new(false);

/// Record that a count differs ([`DIFFERENCE_FOUND`]), before it is
/// written anywhere.
pub(super) fn note_difference() {
    DIFFERENCE_FOUND.store(true, Ordering::SeqCst);
}

/// Whether a count was found to differ in this run.
pub(super) fn difference_found() -> bool {
    DIFFERENCE_FOUND.load(Ordering::SeqCst)
}

/// The stderr line naming a count that differs from its reference, the
/// same from a suite run, a part and a merge (a log is read for it).
pub(super) fn say_mismatch(id: &str, depth: u32, nodes: u64, expected: Option<u64>) {
    note_difference();
    let expected = expected.map_or("-".to_owned(), |e| e.to_string());
    eprintln!("MISMATCH: {id} depth {depth} nodes {nodes} expected {expected}");
}

/// Nodes a second over `elapsed` (0 for no time at all).
pub(super) fn rate(nodes: u64, elapsed: Duration) -> f64 {
    let s = elapsed.as_secs_f64();
    if s > 0.0 {
        nodes as f64 / s
    } else {
        0.0
    }
}

/// Say plainly on stderr when the table asked for could not be had.
pub(super) fn say_hash(config: &PerftConfig, engine: &Perft) {
    if config.hash_mb > 0 && engine.hash_bytes() == 0 {
        eprintln!(
            "hash: none, could not allocate {} MiB; counting without a table (counts are exact either way)",
            config.hash_mb
        );
    }
}

/// The leaves `depth` plies below `pos` after each of `moves` (legal in
/// `pos`, `depth >= 1`), counted one after another with all the engine's
/// threads, with a progress bar on stderr: one step per move.
pub(super) fn count_moves(
    engine: &Perft,
    pos: &Chess,
    moves: &[shakmaty::Move],
    depth: u32,
    stop: &AtomicBool,
) -> Vec<u64> {
    let bar = ProgressBar::with_draw_target(Some(moves.len() as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "[{elapsed_precise}] {wide_bar} {pos}/{len} root moves, {msg}, ETA {eta}",
    ) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(250));
    let start = Instant::now();
    let mut nodes = 0u64;
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let n = engine.count(&child, depth - 1, stop).unwrap_or(0);
        nodes += n;
        out.push(n);
        bar.set_message(format!("{:.0} nodes/s", rate(nodes, start.elapsed())));
        bar.inc(1);
    }
    bar.finish_and_clear();
    out
}

/// Write `value` as one pretty JSON document and a newline, flushed.
pub(super) fn write_json(out: &mut impl Write, value: &impl Serialize) -> Result<(), CliError> {
    // A failed write is the output's failure (a closed pipe ends quietly, a
    // full disk is a runtime error), as for every other write; not a usage
    // error.
    serde_json::to_writer_pretty(&mut *out, value).map_err(|e| {
        if e.is_io() {
            CliError::from(std::io::Error::from(e))
        } else {
            CliError::Io(format!("writing JSON: {e}"))
        }
    })?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// The verdict on a count of `nodes` against its reference, as the
/// reports write it: `ok`, `MISMATCH` or `unchecked` (no reference count).
/// One function for a whole run and a merge, which print the same lines.
pub(super) fn verdict(nodes: u64, expected: Option<u64>) -> &'static str {
    match expected {
        Some(e) if e == nodes => "ok",
        Some(_) => "MISMATCH",
        None => "unchecked",
    }
}

/// A progress bar on stderr (hidden when stderr is not a terminal). Its
/// unit is nodes when every job has an expected count, so that the ETA
/// weighs big positions properly; positions otherwise. The message shows
/// the measured nodes/s.
pub(super) fn progress(jobs: &[Job]) -> (ProgressBar, bool) {
    let expected: Option<u64> = jobs.iter().map(|j| j.expected).sum();
    let by_nodes = expected.is_some();
    let bar = ProgressBar::with_draw_target(
        Some(expected.unwrap_or(jobs.len() as u64)),
        ProgressDrawTarget::stderr(),
    );
    let template = if by_nodes {
        "[{elapsed_precise}] {wide_bar} {percent}% {human_pos}/{human_len} nodes, {msg}, ETA {eta}"
    } else {
        "[{elapsed_precise}] {wide_bar} {pos}/{len} positions, {msg}, ETA {eta}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(250));
    (bar, by_nodes)
}
