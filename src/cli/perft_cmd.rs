//! Handler for `perft`: one position (optionally divided by root move) or a
//! suite checked against its expected counts.
//!
//! Output contract (scripts parse it):
//! * one position: with `--divide` one `<uci move>: <count>` line per root
//!   move, sorted by the move text, castling written king-takes-rook; the
//!   last line is always `Nodes searched: <total>`;
//! * a suite: one line per position in file order,
//!   `<id> depth <d> nodes <n> expected <e|-> <ok|MISMATCH|unchecked> <fen>`,
//!   then a summary line; exit status 1 if any count differs.
//!
//! Timing goes to stderr so that stdout stays exact.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use shakmaty::{CastlingMode, Chess};

use super::{CliError, PerftArgs};
use crate::notation::{parse_fen, shredder_fen};
use crate::perft::runner::{self, Job, JobResult, Summary};
use crate::perft::suite::{self, SuiteEntry};
use crate::perft::{Perft, PerftConfig};
use crate::startpos;

/// Deepest depth accepted (far beyond anything that finishes).
const MAX_DEPTH: u32 = 63;

/// Where the positions come from.
enum Source {
    One(Chess),
    Suite(Vec<SuiteEntry>),
}

/// Run `chess960 perft`.
///
/// # Errors
/// Bad depth, number, FEN, option combination or suite file, and failures to
/// write to stdout, as one-line messages (exit status 2).
pub fn perft(a: &PerftArgs) -> Result<ExitCode, CliError> {
    if a.depth == 0 || a.depth > MAX_DEPTH {
        return Err(CliError(format!(
            "perft depth {} out of range: valid depths are 1..{MAX_DEPTH}",
            a.depth
        )));
    }
    if a.threads == Some(0) {
        return Err(CliError("--threads must be at least 1".into()));
    }
    let config = PerftConfig {
        threads: a.threads.unwrap_or(0),
    };
    match source(a)? {
        Source::One(pos) => {
            if a.max_nodes.is_some() {
                return Err(CliError("--max-nodes applies to --all and --epd".into()));
            }
            single(&pos, a.depth, a.divide, &config)
        }
        Source::Suite(entries) => {
            if a.divide {
                return Err(CliError("--divide works with --idn or --fen".into()));
            }
            let jobs: Vec<Job> = entries
                .iter()
                .map(|e| Job::from_entry(e, a.depth, a.max_nodes))
                .collect();
            run_suite(&jobs, &config)
        }
    }
}

fn source(a: &PerftArgs) -> Result<Source, CliError> {
    if let Some(n) = &a.idn {
        let n: u32 = n.trim().parse().map_err(|_| {
            CliError(format!(
                "start number '{n}' is not a number: valid numbers are 0..959"
            ))
        })?;
        let pos = startpos::position(n).map_err(|e| CliError(e.to_string()))?;
        return Ok(Source::One(pos));
    }
    if let Some(fen) = &a.fen {
        return parse_fen(fen)
            .map(Source::One)
            .map_err(|e| CliError(e.to_string()));
    }
    if a.all {
        return all_starts().map(Source::Suite);
    }
    if let Some(path) = &a.epd {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
        let entries =
            suite::parse(&text).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
        return Ok(Source::Suite(entries));
    }
    Err(CliError(
        "perft needs a position: --idn N, --fen FEN, --all or --epd FILE".into(),
    ))
}

/// The 960 start positions from our own numbering, each paired with the
/// reference row of the same Scharnagl number: a numbering error shows up
/// as count mismatches.
fn all_starts() -> Result<Vec<SuiteEntry>, CliError> {
    let table = suite::startpos_table()
        .map_err(|e| CliError(format!("built-in start position table: {e}")))?;
    let by_number: BTreeMap<&str, &SuiteEntry> = table.iter().map(|e| (e.id.as_str(), e)).collect();
    (0..startpos::COUNT)
        .map(|n| {
            let position = startpos::position(n).map_err(|e| CliError(e.to_string()))?;
            let key = n.to_string();
            let expected = by_number
                .get(key.as_str())
                .map(|e| e.expected.clone())
                .ok_or_else(|| CliError(format!("built-in table has no row {n}")))?;
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

fn rate(nodes: u64, elapsed: Duration) -> f64 {
    let s = elapsed.as_secs_f64();
    if s > 0.0 {
        nodes as f64 / s
    } else {
        0.0
    }
}

fn single(
    pos: &Chess,
    depth: u32,
    divide: bool,
    config: &PerftConfig,
) -> Result<ExitCode, CliError> {
    let engine = Perft::new(config);
    let never = AtomicBool::new(false);
    let start = Instant::now();
    let mut out = io::stdout().lock();
    let total = if divide {
        let mut lines: Vec<(String, u64)> = engine
            .divide(pos, depth, &never)
            .unwrap_or_default()
            .into_iter()
            .map(|(m, n)| (m.to_uci(CastlingMode::Chess960).to_string(), n))
            .collect();
        lines.sort();
        for (m, n) in &lines {
            writeln!(out, "{m}: {n}")?;
        }
        lines.iter().map(|(_, n)| n).sum()
    } else {
        engine.count(pos, depth, &never).unwrap_or(0)
    };
    let elapsed = start.elapsed();
    writeln!(out, "Nodes searched: {total}")?;
    out.flush()?;
    eprintln!(
        "info: depth {depth}, {total} nodes, {:.3} s, {:.0} nodes/s, {} threads",
        elapsed.as_secs_f64(),
        rate(total, elapsed),
        engine.threads()
    );
    Ok(ExitCode::SUCCESS)
}

fn result_line(job: &Job, r: &JobResult) -> String {
    let expected = r.expected.map_or_else(|| "-".to_owned(), |e| e.to_string());
    let status = match r.matches() {
        Some(true) => "ok",
        Some(false) => "MISMATCH",
        None => "unchecked",
    };
    format!(
        "{} depth {} nodes {} expected {} {} {}",
        job.id, job.depth, r.nodes, expected, status, job.fen
    )
}

/// Lines that arrive in completion order, printed in job order.
struct Ordered {
    next: usize,
    waiting: BTreeMap<usize, String>,
    error: Option<io::Error>,
}

fn run_suite(jobs: &[Job], config: &PerftConfig) -> Result<ExitCode, CliError> {
    let engine = Perft::new(config);
    let stop = AtomicBool::new(false);
    let ordered = Mutex::new(Ordered {
        next: 0,
        waiting: BTreeMap::new(),
        error: None,
    });
    let on_done = |i: usize, r: &JobResult| {
        let line = result_line(&jobs[i], r);
        let mut guard = ordered.lock().unwrap_or_else(|p| p.into_inner());
        let o = &mut *guard;
        o.waiting.insert(i, line);
        let mut out = io::stdout().lock();
        while let Some(line) = o.waiting.remove(&o.next) {
            o.next += 1;
            if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                o.error.get_or_insert(e);
                stop.store(true, Ordering::Relaxed);
            }
        }
    };
    let outcome = runner::run(&engine, jobs, &stop, on_done);
    if let Some(e) = ordered
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .error
    {
        return Err(e.into());
    }
    let Some((_, summary)) = outcome else {
        return Err(CliError("perft suite interrupted".into()));
    };
    print_summary(&summary, engine.threads())?;
    Ok(if summary.mismatches > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn print_summary(s: &Summary, threads: usize) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "positions {} checked {} mismatches {} nodes {} time {:.3} s nodes/s {:.0} threads {}",
        s.positions,
        s.checked,
        s.mismatches,
        s.nodes,
        s.elapsed.as_secs_f64(),
        s.nodes_per_second(),
        threads
    )?;
    out.flush()?;
    Ok(())
}
