//! What a perft run counts: one position, or a suite of positions with
//! their reference counts (a file, or the 960 starts paired with the
//! built-in table), as the options name them, cut into jobs under a
//! `--max-nodes` cap. Why apart: a whole run, a part (`perft --shard`)
//! and a comparison (`perft --engine`) must count the same positions.

use std::collections::BTreeMap;

use shakmaty::Chess;

use super::{CliError, PerftArgs};
use crate::notation::{parse_fen, shredder_fen};
use crate::perft::runner::Job;
use crate::perft::suite::{self, SuiteEntry};
use crate::startpos;

/// Where the positions come from.
pub(super) enum Source {
    One(Chess),
    Suite(Vec<SuiteEntry>),
}

/// The positions the options name: one start by number (`--idn`,
/// `--dfrc`), one FEN (`fen`, as read with the depth), the 960 starts
/// (`--all`) or a suite file (`--epd`).
pub(super) fn source(a: &PerftArgs, fen: Option<&str>) -> Result<Source, CliError> {
    if let Some(n) = &a.idn {
        let pos = startpos::parse_number(n).and_then(startpos::position)?;
        return Ok(Source::One(pos));
    }
    if let Some(n) = &a.dfrc {
        let pos = startpos::parse_dfrc_number(n).and_then(startpos::dfrc_position)?;
        return Ok(Source::One(pos));
    }
    if let Some(fen) = fen {
        return parse_fen(fen)
            .map(Source::One)
            .map_err(|e| CliError::Usage(e.to_string()));
    }
    if a.all {
        return all_starts().map(Source::Suite);
    }
    if let Some(path) = &a.epd {
        let text = super::read_input(path)?;
        // A file that does not read as a suite: a runtime error (status 1),
        // as a damaged event file is, not a usage error.
        let entries =
            suite::parse(&text).map_err(|e| CliError::Io(format!("{}: {e}", path.display())))?;
        return Ok(Source::Suite(entries));
    }
    Err(CliError::Usage(
        "perft needs a position: --idn N, --dfrc N, --fen FEN, --all or --epd FILE".into(),
    ))
}

/// The 960 start positions from our own numbering, each paired with the
/// reference row of the same Scharnagl number: a numbering error shows up
/// as count mismatches.
pub(super) fn all_starts() -> Result<Vec<SuiteEntry>, CliError> {
    let table = suite::startpos_table()
        .map_err(|e| CliError::Usage(format!("built-in start position table: {e}")))?;
    let by_number: BTreeMap<&str, &SuiteEntry> = table.iter().map(|e| (e.id.as_str(), e)).collect();
    (0..startpos::COUNT)
        .map(|n| {
            let position = startpos::position(n).map_err(|e| CliError::Usage(e.to_string()))?;
            let key = n.to_string();
            let expected = by_number
                .get(key.as_str())
                .map(|e| e.expected.clone())
                .ok_or_else(|| CliError::Usage(format!("built-in table has no row {n}")))?;
            Ok(SuiteEntry {
                id: key,
                fen: shredder_fen(&position),
                position,
                expected,
                line: 0,
            })
        })
        .collect()
}

/// The jobs of a whole suite at `depth` under `max_nodes`, with the note
/// of what the cap left unchecked among the positions `counted` (by
/// index: every one in a suite run, a part's own under `--shard`).
pub(super) fn capped_jobs(
    entries: &[SuiteEntry],
    depth: u32,
    max_nodes: Option<u64>,
    counted: impl Fn(usize) -> bool,
) -> Vec<Job> {
    let jobs: Vec<Job> = entries
        .iter()
        .map(|e| Job::from_entry(e, depth, max_nodes))
        .collect();
    note_unchecked(
        entries
            .iter()
            .zip(&jobs)
            .enumerate()
            .filter(|(i, (e, j))| counted(*i) && j.unchecked_by_cap(e))
            .count(),
        max_nodes,
    );
    jobs
}

/// Say on stderr how many positions a `--max-nodes` cap left unchecked
/// (every count their file lists is above it, so they are counted at
/// depth 1 without one): a capped run that checked less than it seems to
/// says so, whether it is a suite run, a part (`--shard`, its own
/// positions) or a comparison (`--engine`).
fn note_unchecked(unchecked: usize, cap: Option<u64>) {
    if let (Some(cap), 1..) = (cap, unchecked) {
        eprintln!(
            "note: {unchecked} position(s) list no count at or under --max-nodes {cap}: \
             counted at depth 1, unchecked"
        );
    }
}
