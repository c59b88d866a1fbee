//! When an engine's answer is overdue: the time a `go` gives it (its
//! `movetime`, or a share of its own clock that keeps a reserve), after
//! which the front-end answers the GUI with its own move. Why apart: a
//! pure function of the `go` and the clock, tested without an engine.

use std::time::{Duration, Instant};

use shakmaty::{Chess, Position};

use crate::uci::command::GoCommand;

/// The share of its remaining clock (per cent) an engine may use on one
/// move before its move is replaced: the rest is kept for the replacement
/// search and the GUI's latency, so the game is not lost on time.
pub const CLOCK_SHARE_PERCENT: u64 = 90;

/// Milliseconds of its clock an engine's move must leave: the replacement
/// search (5 ms at the least) and the GUI's own latency need them. With
/// 130 ms left, a limit of 90% alone (117 ms) lost games on time in
/// XBoard; the whole `--margin` (100 ms) left an engine nothing at 100 ms,
/// failing fastchess's compliance step `go btime 100`.
pub const CLOCK_RESERVE_MS: u64 = 50;

/// The field of `go` whose time runs while the engine thinks, as
/// [`deadline`] reads it: `movetime`, else the clock of the side to move;
/// none for `infinite` and `ponder`.
pub(super) fn running_field(go: &GoCommand, pos: &Chess) -> Option<&'static str> {
    match (go.infinite || go.ponder, go.movetime.is_some()) {
        (true, _) => None,
        (false, true) => Some("movetime"),
        (false, false) if pos.turn().is_white() => Some("wtime"),
        (false, false) => Some("btime"),
    }
}

/// The clock of the side to move in `pos`, in ms.
pub(super) fn own_clock(go: &GoCommand, pos: &Chess) -> Option<i64> {
    if pos.turn().is_white() {
        go.wtime
    } else {
        go.btime
    }
}

/// When the engine's answer to `go` is overdue: `movetime` plus the
/// margin, or [`CLOCK_SHARE_PERCENT`] of its clock but never later than
/// [`CLOCK_RESERVE_MS`] before it runs out; never for `infinite`, `ponder`,
/// or a `go` without time (depth, nodes, mate).
pub(super) fn deadline(
    go: &GoCommand,
    pos: &Chess,
    started: Instant,
    margin: Duration,
) -> Option<Instant> {
    if go.infinite || go.ponder {
        return None;
    }
    // Saturating and checked: a GUI may send clocks up to 2^63 ms, which
    // must mean "late", not wrap around to "at once".
    if let Some(ms) = go.movetime {
        return started.checked_add(Duration::from_millis(ms.max(0) as u64) + margin);
    }
    own_clock(go, pos).and_then(|ms| {
        let ms = ms.max(0) as u64;
        let limit =
            (ms.saturating_mul(CLOCK_SHARE_PERCENT) / 100).min(ms.saturating_sub(CLOCK_RESERVE_MS));
        started.checked_add(Duration::from_millis(limit))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen;

    #[test]
    fn the_running_field_is_the_one_the_deadline_reads() {
        let white = Chess::default();
        let black =
            parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let go = |f: &dyn Fn(&mut GoCommand)| {
            let mut g = GoCommand::default();
            f(&mut g);
            g
        };
        let clocks = go(&|g| {
            g.wtime = Some(1000);
            g.btime = Some(1000);
        });
        assert_eq!(running_field(&clocks, &white), Some("wtime"));
        assert_eq!(running_field(&clocks, &black), Some("btime"));
        let movetime = go(&|g| g.movetime = Some(500));
        assert_eq!(running_field(&movetime, &black), Some("movetime"));
        let ponder = go(&|g| {
            g.wtime = Some(1000);
            g.ponder = true;
        });
        assert_eq!(running_field(&ponder, &white), None);
    }

    #[test]
    fn deadlines_follow_the_go() {
        let pos = Chess::default();
        let t0 = Instant::now();
        let margin = Duration::from_millis(100);
        let go = |f: &dyn Fn(&mut GoCommand)| {
            let mut g = GoCommand::default();
            f(&mut g);
            deadline(&g, &pos, t0, margin)
        };
        assert_eq!(
            go(&|g| g.movetime = Some(500)),
            Some(t0 + Duration::from_millis(600))
        );
        assert_eq!(
            go(&|g| {
                g.wtime = Some(1000);
                g.btime = Some(5);
            }),
            Some(t0 + Duration::from_millis(900))
        );
        // A short clock keeps a reserve for the replacement and the GUI.
        assert_eq!(
            go(&|g| {
                g.wtime = Some(130);
                g.btime = Some(5000);
            }),
            Some(t0 + Duration::from_millis(80))
        );
        assert_eq!(go(&|g| g.wtime = Some(40)), Some(t0));
        // Clocks near the 64-bit limit are late, never wrapped to early
        // (2^64 / 90 + 1 times 90 wrapped to a few ms).
        for huge in [204_963_823_041_217_241, i64::MAX] {
            let at = go(&|g| g.wtime = Some(huge));
            assert!(
                at.is_none_or(|at| at > t0 + Duration::from_secs(1_000_000)),
                "{huge}: {at:?}"
            );
            let at = go(&|g| g.movetime = Some(huge));
            assert!(
                at.is_none_or(|at| at > t0 + Duration::from_secs(1_000_000)),
                "{huge}: {at:?}"
            );
        }
        assert_eq!(go(&|g| g.depth = Some(5)), None);
        assert_eq!(
            go(&|g| {
                g.wtime = Some(1000);
                g.ponder = true;
            }),
            None
        );
    }
}
