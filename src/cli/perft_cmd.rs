//! Handler for `perft`: one position (optionally divided by root move) or a
//! suite checked against its expected counts.
//!
//! Output contract (scripts parse it):
//! * one position: with `--divide` one `<uci move>: <count>` line per root
//!   move, sorted by the move text, castling written king-takes-rook; the
//!   last line is always `Nodes searched: <total>`;
//! * a suite: one line per position in file order,
//!   `<id> depth <d> nodes <n> expected <e|-> <ok|MISMATCH|unchecked> <fen>`,
//!   then a summary line
//!   `positions P checked C mismatches M nodes N time T s nodes/s R threads H`;
//!   exit status 1 if any count differs;
//! * `--json`: one JSON document on stdout instead (same exit statuses).
//!
//! Suites show a progress bar (nodes/s, ETA) on stderr when it is a
//! terminal; single positions print one timing line on stderr. Stdout stays
//! exact.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use shakmaty::{CastlingMode, Chess, Position};

use super::perft_engine::check_engine;
use super::perft_report::{
    count_moves, note_difference, progress, rate, say_hash, say_mismatch, verdict, write_json,
};
use super::perft_source::{capped_jobs, source, Source};
use super::{CliError, PerftArgs};
use crate::notation::shredder_fen;
use crate::perft::runner::{self, Job, JobResult, Summary};
use crate::perft::{Perft, PerftConfig};
use crate::whole_number::{self, WholeError};

/// Deepest depth accepted (far beyond anything that finishes; the hash
/// table stores depths up to 63).
const MAX_DEPTH: u32 = 63;

/// Run `chess960 perft`.
///
/// # Errors
/// Bad depth, number, FEN, option combination or suite file, and failures to
/// write to stdout, as one-line messages (exit status 2).
pub fn perft(a: &PerftArgs) -> Result<ExitCode, CliError> {
    let (depth, fen) = depth_and_fen(a)?;
    if depth == 0 || depth > MAX_DEPTH {
        return Err(depth_out_of_range(&depth.to_string()));
    }
    let config = PerftConfig {
        threads: a.threads.map_or(0, usize::from),
        hash_mb: a.hash,
    };
    // Options that only some runs use are refused where they would be
    // ignored, before any branch returns.
    let one_position = a.fen.is_some() || a.idn.is_some() || a.dfrc.is_some();
    if a.max_nodes.is_some() && one_position {
        return Err(CliError::Usage(
            "--max-nodes applies to --all and --epd".into(),
        ));
    }
    if let Some(shard) = a.shard {
        return super::perft_shard::part(
            shard,
            source(a, fen.as_deref())?,
            depth,
            a.max_nodes,
            &config,
        );
    }
    if let Some(command) = &a.engine {
        // As diff answers, trouble is 2 (1 means the counts differ): a
        // suite file that cannot be read is trouble here.
        let source = source(a, fen.as_deref()).map_err(|e| match e {
            CliError::Io(m) => CliError::Usage(m),
            other => other,
        })?;
        let positions: Vec<(String, Chess, u32)> = match source {
            Source::One(pos) => vec![("position".into(), pos, depth)],
            Source::Suite(entries) => capped_jobs(&entries, depth, a.max_nodes, |_| true)
                .into_iter()
                .map(|j| (j.id, j.position, j.depth))
                .collect(),
        };
        return check_engine(command, &positions, a, &config);
    }
    match source(a, fen.as_deref())? {
        Source::One(pos) => single(&pos, depth, a.divide, a.json, &config),
        Source::Suite(entries) => {
            let jobs = capped_jobs(&entries, depth, a.max_nodes, |_| true);
            if a.divide {
                if a.json {
                    return Err(CliError::Usage(
                        "--divide with a suite prints text: leave out --json".into(),
                    ));
                }
                return divide_suite(&jobs, &config);
            }
            run_suite(&jobs, depth, a.json, &config)
        }
    }
}

/// `--divide` over a suite: for each position in file order, a header
/// line `<id> depth <d> <fen>`, one `<move>: <count>` line per root move
/// (sorted, castling king-takes-rook), then its usual result line; the
/// usual summary line ends the output. Exit status 1 on a mismatch.
fn divide_suite(jobs: &[Job], config: &PerftConfig) -> Result<ExitCode, CliError> {
    let engine = Perft::new(config);
    say_hash(config, &engine);
    let never = AtomicBool::new(false);
    let start = Instant::now();
    let mut out = io::stdout().lock();
    let (mut checked, mut mismatches, mut nodes) = (0usize, 0usize, 0u64);
    for job in jobs {
        let t = Instant::now();
        let mut lines: Vec<(String, u64)> = engine
            .divide(&job.position, job.depth, &never)
            .unwrap_or_default()
            .into_iter()
            .map(|(m, n)| (m.to_uci(CastlingMode::Chess960).to_string(), n))
            .collect();
        lines.sort();
        let total = if job.depth == 0 {
            1
        } else {
            lines.iter().map(|(_, n)| n).sum()
        };
        let r = JobResult {
            nodes: total,
            expected: job.expected,
            elapsed: t.elapsed(),
        };
        if r.matches() == Some(false) {
            // Known before its lines are written, which a closed pipe may cut.
            note_difference();
        }
        writeln!(out, "{} depth {} {}", job.id, job.depth, job.fen)?;
        for (m, n) in &lines {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out, "{}", result_line(job, &r))?;
        checked += usize::from(r.expected.is_some());
        if r.matches() == Some(false) {
            mismatches += 1;
            // Where a log is searched for it, as from a run without --divide.
            out.flush()?;
            say_mismatch(&job.id, job.depth, r.nodes, r.expected);
        }
        nodes += total;
    }
    let elapsed = start.elapsed();
    writeln!(
        out,
        "positions {} checked {checked} mismatches {mismatches} nodes {nodes} time {:.3} s nodes/s {:.0} threads {}",
        jobs.len(),
        elapsed.as_secs_f64(),
        rate(nodes, elapsed),
        engine.threads()
    )?;
    out.flush()?;
    Ok(if mismatches > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Why a word is no perft depth.
#[derive(Debug, PartialEq, Eq)]
pub enum DepthError {
    /// Not a whole number at all.
    NotANumber,
    /// A whole number too large to hold (far beyond [`MAX_DEPTH`]).
    TooDeep,
}

/// A depth as written: a whole number that does not fit is told apart from
/// a word that is no number, so that `perft 4294967297` is answered with
/// the depths that are valid, not with the width of an integer type.
pub fn parse_depth(word: &str) -> Result<u32, DepthError> {
    whole_number::parse(word).map_err(|e| match e {
        WholeError::TooLarge => DepthError::TooDeep,
        WholeError::NotANumber => DepthError::NotANumber,
    })
}

/// The depth argument's parser for clap: its message names the valid depths.
pub fn depth_arg(word: &str) -> Result<u32, String> {
    parse_depth(word).map_err(|e| match e {
        DepthError::TooDeep => format!("out of range: valid depths are 1..{MAX_DEPTH}"),
        DepthError::NotANumber => "not a whole number (e.g. chess960 perft 5 --idn 518)".into(),
    })
}

fn depth_out_of_range(depth: &str) -> CliError {
    CliError::Usage(format!(
        "perft depth {depth} out of range: valid depths are 1..{MAX_DEPTH}"
    ))
}

fn depth_and_fen(a: &PerftArgs) -> Result<(u32, Option<String>), CliError> {
    let mut words: Vec<&str> = a
        .fen
        .iter()
        .flatten()
        .flat_map(|w| w.split_whitespace())
        .collect();
    let depth = match a.depth {
        Some(d) => d,
        None => {
            // A FEN has 4 or 6 fields: after a full one (6 words) the last
            // word is its move number, not a depth (`... - 0 5` would count
            // to depth 5 unasked).
            if a.fen.is_some() && words.len() == 6 {
                return Err(CliError::Usage(format!(
                    "perft needs a DEPTH: '{}' ends a six-field FEN as its move number \
                     (e.g. chess960 perft 5 --fen '...')",
                    words[5]
                )));
            }
            // A number quoted with the FEN's fields (`--fen '... - 5'`) is
            // the FEN's halfmove clock, not a depth: only a word of its own
            // after the FEN is one (`--fen ... - 5`, unquoted).
            let quoted = a
                .fen
                .as_ref()
                .and_then(|f| f.last())
                .is_some_and(|arg| arg.split_whitespace().count() > 1);
            if quoted && words.len() > 4 {
                return Err(CliError::Usage(format!(
                    "perft needs a DEPTH: '{}' is a field of the quoted FEN, not a depth \
                     (e.g. chess960 perft 5 --fen '...')",
                    words[words.len() - 1]
                )));
            }
            let last = words.pop().filter(|_| a.fen.is_some());
            match last.map(|w| (w, parse_depth(w))) {
                Some((_, Ok(d))) => d,
                Some((w, Err(DepthError::TooDeep))) => return Err(depth_out_of_range(w)),
                Some((w, Err(DepthError::NotANumber))) => {
                    return Err(CliError::Usage(format!(
                        "perft needs a DEPTH: '{w}' is not one (e.g. chess960 perft 5 --idn 518)"
                    )))
                }
                None => {
                    return Err(CliError::Usage(
                        "perft needs a DEPTH (e.g. chess960 perft 5 --idn 518)".into(),
                    ))
                }
            }
        }
    };
    Ok((depth, a.fen.as_ref().map(|_| words.join(" "))))
}

/// `--json` report of a single position.
#[derive(Serialize)]
struct SingleReport<'a> {
    fen: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
    threads: usize,
    hash_mb: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DivideLine<'a>>>,
}

#[derive(Serialize)]
struct DivideLine<'a> {
    #[serde(rename = "move")]
    uci: &'a str,
    nodes: u64,
}

fn single(
    pos: &Chess,
    depth: u32,
    divide: bool,
    json: bool,
    config: &PerftConfig,
) -> Result<ExitCode, CliError> {
    let engine = Perft::new(config);
    say_hash(config, &engine);
    let never = AtomicBool::new(false);
    warn_if_long(&engine, pos, depth);
    let start = Instant::now();
    let counts = count_by_root_move(&engine, pos, depth, &never);
    let total: u64 = if depth == 0 {
        1
    } else {
        counts.iter().map(|(_, n)| n).sum()
    };
    let lines: Option<Vec<(String, u64)>> = divide.then(|| {
        let mut lines: Vec<(String, u64)> = counts
            .iter()
            .map(|(m, n)| (m.to_uci(CastlingMode::Chess960).to_string(), *n))
            .collect();
        lines.sort();
        lines
    });
    let elapsed = start.elapsed();
    let mut out = io::stdout().lock();
    if json {
        let report = SingleReport {
            fen: shredder_fen(pos),
            depth,
            nodes: total,
            seconds: elapsed.as_secs_f64(),
            nodes_per_second: rate(total, elapsed),
            threads: engine.threads(),
            hash_mb: hash_mb(&engine),
            divide: lines.as_ref().map(|l| {
                l.iter()
                    .map(|(m, n)| DivideLine { uci: m, nodes: *n })
                    .collect()
            }),
        };
        write_json(&mut out, &report)?;
    } else {
        for (m, n) in lines.iter().flatten() {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out, "Nodes searched: {total}")?;
        out.flush()?;
        eprintln!(
            "info: depth {depth}, {total} nodes, {:.3} s, {:.0} nodes/s, {}, hash {}",
            elapsed.as_secs_f64(),
            rate(total, elapsed),
            threads_text(engine.threads()),
            hash_text(&engine)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `1 thread`, `2 threads`.
pub(super) fn threads_text(n: usize) -> String {
    format!("{n} thread{}", if n == 1 { "" } else { "s" })
}

/// The table's size in MiB as allocated (0 without one).
fn hash_mb(engine: &Perft) -> usize {
    engine.hash_bytes() >> 20
}

/// `64 MiB`, or `none` when counting without a table.
fn hash_text(engine: &Perft) -> String {
    match hash_mb(engine) {
        0 => "none".into(),
        mb => format!("{mb} MiB"),
    }
}

/// The leaves below each root move, counted one root move after another
/// (each with all the engine's threads) so that a progress bar can follow
/// a single deep position: one step per root move.
fn count_by_root_move(
    engine: &Perft,
    pos: &Chess,
    depth: u32,
    stop: &AtomicBool,
) -> Vec<(shakmaty::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<shakmaty::Move> = pos.legal_moves().into_iter().collect();
    let counts = count_moves(engine, pos, &moves, depth, stop);
    moves.into_iter().zip(counts).collect()
}

/// Runs longer than this get a warning with an estimate first.
const LONG_RUN: Duration = Duration::from_secs(60);
/// Longest a shallow probe count may run before it is stopped; the
/// deepest probe that finishes within it gives the estimate.
const PROBE_TIME: Duration = Duration::from_millis(500);

/// From this depth on, the table is mapped before the probes: their
/// depth-4 count alone stores to nearly every (huge) page of any table of
/// ordinary size, so mapping it first adds nothing; shallower runs, which
/// touch only a few pages, are not made to map all of them.
const TOUCH_FROM_DEPTH: u32 = 5;

/// Count `pos` to `depth`, stopped after [`PROBE_TIME`]: the leaves and
/// the time taken, or `None` if it ran out of time. A stopped count leaves
/// nothing wrong behind: partial sums never enter the table.
fn probe(engine: &Perft, pos: &Chess, depth: u32) -> Option<(u64, Duration)> {
    let stop = AtomicBool::new(false);
    let (done, finished) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        let stop = &stop;
        s.spawn(move || {
            // Only a timeout stops the count; the sender is dropped (the
            // channel disconnects) as soon as the count is over.
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                finished.recv_timeout(PROBE_TIME)
            {
                stop.store(true, Ordering::Relaxed);
            }
        });
        let start = Instant::now();
        let nodes = engine.count(pos, depth, stop);
        let took = start.elapsed();
        drop(done);
        nodes.map(|n| (n, took))
    })
}

/// Warn on stderr, with an estimate, when counting `pos` to `depth` will
/// likely take more than [`LONG_RUN`]. Shallower counts, each stopped
/// after [`PROBE_TIME`], give the branching factor and the speed.
///
/// Every depth is probed until one runs out of time, rather than stopping
/// where a small probe predicts the next would be too long: on a busy
/// machine the first, tiny probes (too small to keep the threads busy,
/// slowed by whatever else runs) read a hundred times slower than the
/// run, and a prediction from them once announced five minutes for a
/// two-second count. The deeper probes cost little: each is a twentieth
/// or so of the run, and with a table the run reuses what they stored.
///
/// The speed is the best leaves-per-second any probe reached, not the
/// average over all of them: a busy machine only ever makes a probe
/// slower, and with a table a deeper count is faster per leaf (more
/// transpositions), so the fastest probe, in practice the deepest, is the
/// one closest to the run. The table is mapped into memory first
/// ([`TOUCH_FROM_DEPTH`]), so that no probe times the system zeroing its
/// pages (a cost the run pays anyway, once); a probe that did would make a
/// minute's run read as hours.
fn warn_if_long(engine: &Perft, pos: &Chess, depth: u32) {
    if depth < 3 {
        return;
    }
    if depth >= TOUCH_FROM_DEPTH {
        engine.touch_table();
    }
    // Leaves at the deepest probe so far (`probed` plies) and one ply above.
    let (mut before, mut last, mut probed) = (1u64, 1u64, 0u32);
    let mut best_rate = 0.0f64;
    for d in 1..depth {
        let Some((n, took)) = probe(engine, pos, d) else {
            break;
        };
        if n == 0 {
            return;
        }
        (before, last, probed) = (last, n, d);
        best_rate = best_rate.max(rate(n, took));
    }
    if best_rate <= 0.0 {
        return;
    }
    let branching = (last as f64 / before as f64).max(1.0);
    let nodes = last as f64 * branching.powi((depth - probed) as i32);
    let seconds = nodes / best_rate;
    if seconds > LONG_RUN.as_secs_f64() {
        // With a table the speed keeps rising with depth: depth 8 of a start
        // runs at several times the leaves a second of its depth-6 probe
        // (about 3 G a second on one thread against under 1 G on two, see
        // perft/BENCH.md), so the figure is an upper bound, and said to be.
        let bound = if engine.hash_bytes() > 0 {
            " or less"
        } else {
            ""
        };
        eprintln!(
            "warning: perft {depth} will count about {nodes:.1e} nodes; at about {best_rate:.1e} \
             nodes/s that takes about {}{bound} (Ctrl-C stops it)",
            human_duration(seconds)
        );
    }
}

/// `3 minutes`, `5.2 hours`, `4.1e9 years`.
fn human_duration(seconds: f64) -> String {
    const UNITS: [(f64, &str); 5] = [
        (365.25 * 86_400.0, "years"),
        (86_400.0, "days"),
        (3_600.0, "hours"),
        (60.0, "minutes"),
        (1.0, "seconds"),
    ];
    for (size, name) in UNITS {
        if seconds >= size {
            let v = seconds / size;
            return if v >= 1e4 {
                format!("{v:.1e} {name}")
            } else {
                format!("{v:.1} {name}")
            };
        }
    }
    format!("{seconds:.1} seconds")
}

fn result_line(job: &Job, r: &JobResult) -> String {
    let expected = r.expected.map_or_else(|| "-".to_owned(), |e| e.to_string());
    format!(
        "{} depth {} nodes {} expected {} {} {}",
        job.id,
        job.depth,
        r.nodes,
        expected,
        verdict(r.nodes, r.expected),
        job.fen
    )
}

/// Lines that arrive in completion order, printed in job order.
struct Ordered {
    next: usize,
    waiting: BTreeMap<usize, String>,
    error: Option<io::Error>,
}

/// `--json` report of a suite.
#[derive(Serialize)]
struct SuiteReport<'a> {
    depth: u32,
    threads: usize,
    hash_mb: usize,
    positions: Vec<PositionReport<'a>>,
    summary: SummaryReport,
}

#[derive(Serialize)]
struct PositionReport<'a> {
    id: &'a str,
    fen: &'a str,
    depth: u32,
    nodes: u64,
    expected: Option<u64>,
    status: &'static str,
    seconds: f64,
}

#[derive(Serialize)]
struct SummaryReport {
    positions: usize,
    checked: usize,
    mismatches: usize,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
}

fn run_suite(
    jobs: &[Job],
    depth: u32,
    json: bool,
    config: &PerftConfig,
) -> Result<ExitCode, CliError> {
    let engine = Perft::new(config);
    say_hash(config, &engine);
    let stop = AtomicBool::new(false);
    let (bar, by_nodes) = progress(jobs);
    let ordered = Mutex::new(Ordered {
        next: 0,
        waiting: BTreeMap::new(),
        error: None,
    });
    let done_nodes = std::sync::atomic::AtomicU64::new(0);
    let start = Instant::now();
    let on_done = |i: usize, r: &JobResult| {
        let total = done_nodes.fetch_add(r.nodes, Ordering::Relaxed) + r.nodes;
        if by_nodes {
            // Advance by what the bar expected, so it ends at 100% even
            // when a count is wrong.
            bar.inc(jobs[i].expected.unwrap_or(r.nodes));
        } else {
            bar.inc(1);
        }
        bar.set_message(format!(
            "{:.1} Mnodes/s",
            rate(total, start.elapsed()) / 1e6
        ));
        if r.matches() == Some(false) {
            // On stderr whether or not it is a terminal (`--json` to a
            // file, a CI log): the bar's own `println` writes only to a
            // terminal.
            bar.suspend(|| say_mismatch(&jobs[i].id, jobs[i].depth, r.nodes, r.expected));
        }
        if json {
            return;
        }
        let line = result_line(&jobs[i], r);
        let mut guard = ordered.lock().unwrap_or_else(|p| p.into_inner());
        let o = &mut *guard;
        o.waiting.insert(i, line);
        bar.suspend(|| {
            let mut out = io::stdout().lock();
            while let Some(line) = o.waiting.remove(&o.next) {
                o.next += 1;
                if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                    o.error.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        });
    };
    let outcome = runner::run(&engine, jobs, &stop, on_done);
    bar.finish_and_clear();
    if let Some(e) = ordered
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .error
    {
        return Err(e.into());
    }
    let Some((results, summary)) = outcome else {
        return Err(CliError::Usage("perft suite interrupted".into()));
    };
    let mut out = io::stdout().lock();
    if json {
        let report = SuiteReport {
            depth,
            threads: engine.threads(),
            hash_mb: hash_mb(&engine),
            positions: jobs
                .iter()
                .zip(&results)
                .map(|(j, r)| PositionReport {
                    id: &j.id,
                    fen: &j.fen,
                    depth: j.depth,
                    nodes: r.nodes,
                    expected: r.expected,
                    status: verdict(r.nodes, r.expected),
                    seconds: r.elapsed.as_secs_f64(),
                })
                .collect(),
            summary: summary_report(&summary),
        };
        write_json(&mut out, &report)?;
    } else {
        writeln!(
            out,
            "positions {} checked {} mismatches {} nodes {} time {:.3} s nodes/s {:.0} threads {}",
            summary.positions,
            summary.checked,
            summary.mismatches,
            summary.nodes,
            summary.elapsed.as_secs_f64(),
            summary.nodes_per_second(),
            engine.threads()
        )?;
        out.flush()?;
    }
    Ok(if summary.mismatches > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn summary_report(s: &Summary) -> SummaryReport {
    SummaryReport {
        positions: s.positions,
        checked: s.checked,
        mismatches: s.mismatches,
        nodes: s.nodes,
        seconds: s.elapsed.as_secs_f64(),
        nodes_per_second: s.nodes_per_second(),
    }
}
