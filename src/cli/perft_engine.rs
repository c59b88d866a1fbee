//! `perft --engine`: another UCI engine's counts (`go perft`, its divide)
//! checked against ours, position by position, down to the first move
//! whose count differs (the library's half is [`crate::perft::check`]).
//! Why apart from `perft_cmd`: it drives another program and answers as
//! `diff` does (1 when the counts differ, 2 when the engine cannot be run),
//! while our own counts answer as every other command.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use shakmaty::Chess;

use super::perft_report::note_difference;
use super::{CliError, PerftArgs};
use crate::perft::check::{Miscount, SaidIn};
use crate::perft::{Perft, PerftConfig};

/// Seconds `--engine` may take for one answer unless `--engine-timeout`
/// says otherwise: a deep `go perft` of a slow engine takes a while.
pub(super) const DEFAULT_ENGINE_TIMEOUT_S: u64 = 120;

/// The longest `--engine-timeout`: a week, past any count an engine
/// finishes, and far from where a deadline overflows the clock (a value
/// near 2^64 panicked). 0 is refused too: no engine answers at once.
pub(super) const MAX_ENGINE_TIMEOUT_S: u64 = 7 * 86_400;

/// The `--json` report of `perft --engine`.
#[derive(Serialize)]
struct CheckReport {
    positions: usize,
    agree: bool,
    first_difference: Option<crate::perft::check::Difference>,
}

/// `perft --engine CMD`: compare the engine's divide with ours on every
/// position, stop at the first difference and pin it down. Exit 0 when
/// all agree, 1 on a difference, 2 when the engine cannot be driven.
pub(super) fn check_engine(
    command: &str,
    positions: &[(String, Chess, u32)],
    a: &PerftArgs,
    config: &PerftConfig,
) -> Result<ExitCode, CliError> {
    use crate::perft::check::{Checker, FenStyle};
    use crate::uci_client::UciClient;
    let engine_error = |e: crate::uci_client::ClientError| CliError::Usage(e.to_string());
    let timeout = Duration::from_secs(a.engine_timeout);
    let mut client = UciClient::start(command, timeout).map_err(engine_error)?;
    let perft = Perft::new(config);
    let style = match a.engine_fen {
        super::EngineFen::Shredder => FenStyle::Shredder,
        super::EngineFen::Xfen => FenStyle::XFen,
    };
    let bar =
        ProgressBar::with_draw_target(Some(positions.len() as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "[{elapsed_precise}] {wide_bar} {pos}/{len} positions, ETA {eta}",
    ) {
        bar.set_style(style);
    }
    let mut checker = Checker {
        client: &mut client,
        perft: &perft,
        style,
    };
    let mut first = None;
    let mut checked = 0;
    for (id, pos, depth) in positions {
        let diff = checker.check(pos, *depth).map_err(|e| {
            bar.finish_and_clear();
            engine_error(e)
        })?;
        checked += 1;
        bar.inc(1);
        if let Some(d) = diff {
            first = Some((id.clone(), *depth, d));
            break;
        }
    }
    bar.finish_and_clear();
    if first.is_some() {
        note_difference();
    }
    let name = client.name.clone().unwrap_or_else(|| command.to_owned());
    let mut out = io::stdout().lock();
    if a.json {
        let report = CheckReport {
            positions: checked,
            agree: first.is_none(),
            first_difference: first.as_ref().map(|(_, _, d)| d.clone()),
        };
        // One object on one line: the last line of stdout is the report.
        let text = serde_json::to_string(&report)
            .map_err(|e| CliError::Usage(format!("writing JSON: {e}")))?;
        writeln!(out, "{text}")?;
        out.flush()?;
    } else {
        match &first {
            None => writeln!(
                out,
                "{name} agrees with chess960 on {checked} position{}",
                if checked == 1 { "" } else { "s" }
            )?,
            Some((id, depth, d)) => {
                writeln!(
                    out,
                    "{name} differs from chess960 at {id} (depth {depth}): {}",
                    d.root_fen
                )?;
                let shown = |moves: &[String]| {
                    if moves.is_empty() {
                        "(none)".to_owned()
                    } else {
                        moves.join(" ")
                    }
                };
                writeln!(out, "moves to the differing position: {}", shown(&d.moves))?;
                writeln!(out, "differing position: {}", d.fen)?;
                if let Some(m) = &d.miscount {
                    writeln!(out, "{}", miscount_text(m, d.moves.last()))?;
                } else {
                    writeln!(
                        out,
                        "missing (legal, not listed by the engine): {}",
                        shown(&d.missing)
                    )?;
                    writeln!(
                        out,
                        "extra (listed by the engine, not legal): {}",
                        shown(&d.extra)
                    )?;
                }
                if !d.twice.is_empty() {
                    writeln!(
                        out,
                        "listed twice by the engine (in one castling encoding or both): {}",
                        d.twice.join(" ")
                    )?;
                }
                // The command that replays this difference, with the run's
                // engine options, quoted for a shell.
                let quote = |t: &str| {
                    shlex::try_quote(t).map_or_else(|_| format!("'{t}'"), |q| q.into_owned())
                };
                // A move list replays at depth 1; a wrong total at its
                // own depth; a count that changes when asked again only
                // from the suite position, as the run asked.
                let (replay_depth, replay_fen) = match &d.miscount {
                    None => (1, &d.fen),
                    Some(m) if m.said_in == SaidIn::Total => (m.depth, &d.fen),
                    Some(_) => (*depth, &d.root_fen),
                };
                let mut replay = format!(
                    "replay: chess960 perft {replay_depth} --fen {} --engine {}",
                    quote(replay_fen),
                    quote(command)
                );
                if a.engine_fen == super::EngineFen::Xfen {
                    replay.push_str(" --engine-fen xfen");
                }
                if a.engine_timeout != DEFAULT_ENGINE_TIMEOUT_S {
                    replay.push_str(&format!(" --engine-timeout {}", a.engine_timeout));
                }
                writeln!(out, "{replay}")?;
            }
        }
        out.flush()?;
    }
    Ok(if first.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The line that says how the engine miscounted a position whose moves it
/// lists right; `last` is the move that led to it.
fn miscount_text(m: &Miscount, last: Option<&String>) -> String {
    let (said, right, depth) = (m.said, m.right, m.depth);
    let last = last.map_or("", String::as_str);
    match m.said_in {
        SaidIn::Total => format!(
            "miscounted: the engine's total (Nodes searched) at depth {depth} is {said}, \
             but its own divide of this position adds up to {right}, the right count \
             (a total is read as leaves, as Stockfish prints it; a count of every node \
             visited reads so too)"
        ),
        SaidIn::DivideAbove if depth == 0 => format!(
            "miscounted: the engine counted {last} as {said} at depth 1 in the position before; \
             a move is one leaf at depth 1"
        ),
        SaidIn::DivideAbove => format!(
            "miscounted: the engine counted {last} as {said} at depth {} in the position before, \
             but its divide of this position at depth {depth} adds up to {right}, the right count \
             (its two divides disagree: a perft hash table keeping a wrong entry, or state kept between searches?)",
            depth + 1
        ),
    }
}
