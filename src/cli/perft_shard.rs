//! `perft --shard K/N` (count one part of a run) and `perft-merge` (put
//! the parts back together). The splitting rule and the checks live in
//! [`crate::perft::shard`]; this module runs the counts and does the I/O.
//!
//! Output contract of `perft-merge` (text): for a suite, one line per
//! position in run order, `<id> depth <d> nodes <n> expected <e|-> <status>
//! <fen>`, then `positions P checked C mismatches M parts N`; for the root
//! moves of one position, one `<move>: <count>` line per root move; the
//! last line is always `Nodes searched: <total>`. Exit status 1 when a part
//! is missing, doubled, of another run or damaged, or a count differs from
//! the reference.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Position};

use super::perft_report::{
    count_moves, note_difference, progress, rate, say_hash, say_mismatch, verdict, write_json,
};
use super::perft_source::{all_starts, capped_jobs, Source};
use super::{CliError, PerftMergeArgs};
use crate::notation::shredder_fen;
use crate::perft::runner::{self, Job};
use crate::perft::shard::{self, PartReport, RunId, RunKind, Shard, UnitResult};
use crate::perft::{Perft, PerftConfig};

/// Count part `shard` of the run `source` at `depth` and print its `--json`
/// report. Exit status 1 if a suite position's count differs from its
/// reference (as for a whole suite).
///
/// # Errors
/// Standard output that cannot be written.
pub fn part(
    shard: Shard,
    source: Source,
    depth: u32,
    max_nodes: Option<u64>,
    config: &PerftConfig,
) -> Result<ExitCode, CliError> {
    let engine = Perft::new(config);
    say_hash(config, &engine);
    let start = Instant::now();
    let (run, results) = match source {
        Source::Suite(entries) => {
            // Each part of a capped run says what it left unchecked of its
            // own positions.
            let jobs = capped_jobs(&entries, depth, max_nodes, |i| shard.owns(i));
            suite_part(&engine, shard, depth, &jobs)?
        }
        Source::One(pos) => root_moves_part(&engine, shard, depth, &pos),
    };
    if run.units < shard.parts {
        eprintln!(
            "note: the run has {} units, fewer than {} parts: parts {}..{} of {} are empty",
            run.units,
            shard.parts,
            run.units + 1,
            shard.parts,
            shard.parts
        );
    }
    let report = PartReport {
        run,
        part: shard.part,
        parts: shard.parts,
        threads: engine.threads(),
        seconds: start.elapsed().as_secs_f64(),
        nodes: results.iter().map(|r| r.nodes).sum(),
        units_checksum: Some(shard::units_checksum(&results)),
        results,
        program: Some(shard::this_program()),
    };
    write_json(&mut io::stdout().lock(), &report)?;
    let mismatch = report
        .results
        .iter()
        .any(|r| r.expected.is_some_and(|e| e != r.nodes));
    Ok(if mismatch {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The suite positions of `shard`, counted as a suite run (positions in
/// parallel, a progress bar on stderr).
fn suite_part(
    engine: &Perft,
    shard: Shard,
    depth: u32,
    jobs: &[Job],
) -> Result<(RunId, Vec<UnitResult>), CliError> {
    let run = RunId {
        kind: RunKind::Suite,
        depth,
        units: jobs.len(),
        checksum: shard::checksum(
            jobs.iter()
                .map(|j| shard::suite_unit(&j.id, j.depth, &j.fen)),
        ),
    };
    let (indexes, mine): (Vec<usize>, Vec<Job>) = jobs
        .iter()
        .enumerate()
        .filter(|(i, _)| shard.owns(*i))
        .map(|(i, j)| (i, j.clone()))
        .unzip();
    let (bar, by_nodes) = progress(&mine);
    let never = AtomicBool::new(false);
    let outcome = runner::run(engine, &mine, &never, |i, r| {
        bar.inc(if by_nodes {
            mine[i].expected.unwrap_or(r.nodes)
        } else {
            1
        });
        if r.matches() == Some(false) {
            // On stderr whether or not it is a terminal (a cluster job's
            // log): the bar's own `println` writes only to a terminal.
            bar.suspend(|| say_mismatch(&mine[i].id, mine[i].depth, r.nodes, r.expected));
        }
    });
    bar.finish_and_clear();
    let (counts, _) = outcome.ok_or_else(|| CliError::Io("perft part interrupted".into()))?;
    let results = indexes
        .iter()
        .zip(&mine)
        .zip(&counts)
        .map(|((&unit, job), r)| UnitResult {
            unit,
            id: job.id.clone(),
            fen: job.fen.clone(),
            depth: job.depth,
            nodes: r.nodes,
            expected: r.expected,
        })
        .collect();
    Ok((run, results))
}

/// The root moves of `pos` that belong to `shard` (all root moves sorted
/// by UCI text, dealt round robin), each counted with all threads.
fn root_moves_part(
    engine: &Perft,
    shard: Shard,
    depth: u32,
    pos: &shakmaty::Chess,
) -> (RunId, Vec<UnitResult>) {
    let fen = shredder_fen(pos);
    let mut moves: Vec<(String, shakmaty::Move)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (m.to_uci(CastlingMode::Chess960).to_string(), m))
        .collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    let run = RunId {
        kind: RunKind::RootMoves,
        depth,
        units: moves.len(),
        checksum: shard::checksum(shard::root_move_units(
            depth,
            &fen,
            moves.iter().map(|(u, _)| u.as_str()),
        )),
    };
    let (units, mine): (Vec<usize>, Vec<shakmaty::Move>) = moves
        .iter()
        .enumerate()
        .filter(|(i, _)| shard.owns(*i))
        .map(|(i, (_, m))| (i, *m))
        .unzip();
    let never = AtomicBool::new(false);
    let counts = count_moves(engine, pos, &mine, depth, &never);
    let results = units
        .into_iter()
        .zip(counts)
        .map(|(unit, nodes)| UnitResult {
            unit,
            id: moves[unit].0.clone(),
            fen: fen.clone(),
            depth,
            nodes,
            expected: None,
        })
        .collect();
    (run, results)
}

/// Read a part's report from `path` (`-`: stdin).
fn read_part(path: &std::path::Path) -> Result<(String, PartReport), CliError> {
    let name = path.display().to_string();
    let text = super::read_input(path)?;
    let report = serde_json::from_str(&text).map_err(|e| {
        CliError::Mismatch(format!(
            "{name} is not the --json report of a perft --shard part: {e}"
        ))
    })?;
    Ok((name, report))
}

/// `--json` output of `perft-merge`.
#[derive(serde::Serialize)]
struct MergedReport<'a> {
    run: &'a RunId,
    parts: usize,
    nodes: u64,
    mismatches: usize,
    /// Units whose reference in the part is not the built-in table's (see
    /// [`check_references`]): the run fails with them too.
    reference_conflicts: usize,
    /// The builds that counted the parts (see [`shard::Merged::programs`]).
    programs: &'a [String],
    results: &'a [UnitResult],
}

/// Run `chess960 perft-merge`.
///
/// # Errors
/// A file that cannot be read or is not a part report, and parts that do
/// not make one whole run (status 1).
pub fn merge(a: &PerftMergeArgs) -> Result<ExitCode, CliError> {
    if a.files.iter().filter(|p| p.as_os_str() == "-").count() > 1 {
        return Err(CliError::Usage(
            "'-' (stdin) is given more than once: it holds one part".into(),
        ));
    }
    let parts = a
        .files
        .iter()
        .map(|p| read_part(p))
        .collect::<Result<Vec<_>, _>>()?;
    let mut merged = shard::merge(&parts).map_err(|e| CliError::Mismatch(e.to_string()))?;
    let reference_conflicts = if merged.run.kind == RunKind::Suite {
        check_references(&mut merged.results)?
    } else {
        0
    };
    let differs = |r: &UnitResult| r.expected.is_some_and(|e| e != r.nodes);
    let mismatches = merged.results.iter().filter(|r| differs(r)).count();
    // Named before the report, which a reader that stops reading cuts.
    for r in merged.results.iter().filter(|r| differs(r)) {
        say_mismatch(&r.id, r.depth, r.nodes, r.expected);
    }
    if reference_conflicts > 0 {
        note_difference();
    }
    let mut out = io::stdout().lock();
    if a.json {
        let report = MergedReport {
            run: &merged.run,
            parts: merged.parts,
            nodes: merged.nodes,
            mismatches,
            reference_conflicts,
            programs: &merged.programs,
            results: &merged.results,
        };
        write_json(&mut out, &report)?;
    } else {
        match merged.run.kind {
            RunKind::Suite => {
                for r in &merged.results {
                    let expected = r.expected.map_or("-".to_owned(), |e| e.to_string());
                    writeln!(
                        out,
                        "{} depth {} nodes {} expected {expected} {} {}",
                        r.id,
                        r.depth,
                        r.nodes,
                        verdict(r.nodes, r.expected),
                        r.fen
                    )?;
                }
                let checked = merged
                    .results
                    .iter()
                    .filter(|r| r.expected.is_some())
                    .count();
                writeln!(
                    out,
                    "positions {} checked {checked} mismatches {mismatches} parts {}",
                    merged.results.len(),
                    merged.parts
                )?;
            }
            RunKind::RootMoves => {
                for r in &merged.results {
                    writeln!(out, "{}: {}", r.id, r.nodes)?;
                }
            }
        }
        writeln!(out, "Nodes searched: {}", merged.nodes)?;
        out.flush()?;
        eprintln!(
            "info: {} parts, {}, {:.1} s of counting in all ({:.0} nodes/s per part on average)",
            merged.parts,
            merged.run,
            merged.seconds,
            rate(
                merged.nodes,
                Duration::from_secs_f64(merged.seconds.max(0.0))
            )
        );
        if !merged.programs.is_empty() {
            eprintln!("info: counted by {}", merged.programs.join("; "));
        }
    }
    Ok(if mismatches > 0 || reference_conflicts > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The references of start positions come from the built-in table, not
/// from the parts alone: a start the table has at that depth but the part
/// left unchecked is checked now, and a part's `expected` that disagrees
/// with it (a suite file with another count, or a part edited to hide a
/// mismatch) is named on stderr and replaced by the table's, the
/// independent one; the number of such units, which fail the run.
fn check_references(results: &mut [UnitResult]) -> Result<usize, CliError> {
    let starts = all_starts()?;
    let table: std::collections::HashMap<&str, &std::collections::BTreeMap<u32, u64>> = starts
        .iter()
        .map(|e| (e.fen.as_str(), &e.expected))
        .collect();
    let mut conflicts = 0;
    for r in results {
        let Some(&reference) = table.get(r.fen.as_str()).and_then(|x| x.get(&r.depth)) else {
            continue;
        };
        if let Some(e) = r.expected.filter(|&e| e != reference) {
            conflicts += 1;
            eprintln!(
                "error: unit {} ({}) expects {e} at depth {}, the built-in table of the 960 \
                 starts {reference}: the suite file's count or the part was changed; checked \
                 against the table",
                r.unit, r.id, r.depth
            );
        }
        r.expected = Some(reference);
    }
    Ok(conflicts)
}
