//! Time management: a pure function from the clock to a soft and a hard
//! limit, so it can be tested without a search.
//!
//! * The soft limit is the target: no new iteration starts after it.
//! * The hard limit aborts a running iteration; it never exceeds what is
//!   left on the clock minus the move overhead (GUI and OS latency), so the
//!   flag does not fall even at 1 s + 0.01 s.

use std::time::Duration;

/// The clock as `go` gives it, already chosen for the side to move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    /// Our remaining time in ms (`wtime`/`btime`); negative values happen.
    pub time: Option<i64>,
    /// Our increment in ms.
    pub inc: Option<i64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Fixed time per move in ms (`movetime`).
    pub movetime: Option<i64>,
}

/// Limits for one search; `None` means unlimited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop the search at this point.
    pub hard: Option<Duration>,
}

/// Moves we assume are left in a sudden-death game.
const DEFAULT_MOVES_LEFT: u64 = 25;
/// Never plan to use less than this (ms) while there is time.
const MIN_THINK_MS: u64 = 1;

/// Allocate time for one move.
///
/// `overhead_ms` is the `Move Overhead` option: time lost per move between
/// the GUI's clock and ours.
pub fn allocate(clock: Clock, overhead_ms: u64) -> Budget {
    if let Some(mt) = clock.movetime {
        // Keep the overhead in reserve, but never more than half the move
        // time: `go movetime 100` with a 100 ms overhead still searches.
        let mt = mt.max(0) as u64;
        let t = mt.saturating_sub(overhead_ms.min(mt / 2)).max(MIN_THINK_MS);
        let d = Duration::from_millis(t);
        return Budget {
            soft: Some(d),
            hard: Some(d),
        };
    }
    let Some(time) = clock.time else {
        return Budget::default();
    };
    let time = time.max(0) as u64;
    let inc = clock.inc.unwrap_or(0).max(0) as u64;
    // What we may spend at all, keeping the overhead in reserve.
    let usable = time.saturating_sub(overhead_ms);
    let moves_left = match clock.movestogo {
        Some(n) if n > 0 => u64::from(n).min(DEFAULT_MOVES_LEFT * 2),
        _ => DEFAULT_MOVES_LEFT,
    };
    let soft = (usable / moves_left + inc * 3 / 4).min(usable / 2);
    // The hard limit allows a few times the target for unstable positions,
    // but never more than a fraction of the clock.
    let cap = if moves_left == 1 {
        usable * 8 / 10
    } else {
        usable / 3
    };
    let hard = (soft * 4).min(cap).max(soft);
    Budget {
        soft: Some(Duration::from_millis(soft.max(MIN_THINK_MS))),
        hard: Some(Duration::from_millis(hard.max(MIN_THINK_MS))),
    }
}

/// Scale the soft limit by how settled the search is: spend less when the
/// best move has not changed for several iterations, more when it just
/// changed or the score is falling.
///
/// `stable` counts consecutive iterations with the same best move;
/// `score_drop` is how much the score fell since the previous iteration
/// (centipawns, negative when it rose).
pub fn soft_scale(stable: u32, score_drop: i32) -> f64 {
    let base = match stable {
        0 => 1.5,
        1 => 1.2,
        2 => 1.0,
        3 => 0.85,
        _ => 0.7,
    };
    let falling = if score_drop > 30 { 1.3 } else { 1.0 };
    base * falling
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Option<Duration>) -> u64 {
        d.expect("limited").as_millis() as u64
    }

    #[test]
    fn settled_searches_stop_sooner() {
        assert!(soft_scale(5, 0) < soft_scale(2, 0));
        assert!(soft_scale(2, 0) < soft_scale(0, 0));
        assert!(soft_scale(2, 50) > soft_scale(2, 0));
        assert!(soft_scale(0, 100) <= 2.0);
    }

    #[test]
    fn infinite_without_clock() {
        assert_eq!(allocate(Clock::default(), 10), Budget::default());
    }

    #[test]
    fn movetime_minus_overhead() {
        let b = allocate(
            Clock {
                movetime: Some(1000),
                ..Clock::default()
            },
            30,
        );
        assert_eq!(ms(b.soft), 970);
        assert_eq!(ms(b.hard), 970);
    }

    #[test]
    fn short_movetime_keeps_half_for_the_search() {
        let b = allocate(
            Clock {
                movetime: Some(100),
                ..Clock::default()
            },
            100,
        );
        assert_eq!(ms(b.hard), 50);
    }

    #[test]
    fn never_more_than_the_clock_allows() {
        for time in [0i64, 1, 10, 50, 100, 1000, 5000, 60_000, 3_600_000] {
            for inc in [0i64, 10, 50, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let b = allocate(
                        Clock {
                            time: Some(time),
                            inc: Some(inc),
                            movestogo: mtg,
                            movetime: None,
                        },
                        20,
                    );
                    let hard = ms(b.hard);
                    let soft = ms(b.soft);
                    assert!(soft <= hard, "soft {soft} > hard {hard}");
                    let usable = (time as u64).saturating_sub(20);
                    assert!(
                        hard <= usable.max(MIN_THINK_MS),
                        "time {time} inc {inc} mtg {mtg:?}: hard {hard}"
                    );
                }
            }
        }
    }

    #[test]
    fn one_second_plus_increment_is_safe() {
        // 1 s + 0.01 s: spend a few tens of ms, never the whole second.
        let b = allocate(
            Clock {
                time: Some(1000),
                inc: Some(10),
                ..Clock::default()
            },
            30,
        );
        assert!(ms(b.soft) >= 20 && ms(b.soft) <= 60, "{b:?}");
        assert!(ms(b.hard) <= 323, "{b:?}");
    }

    #[test]
    fn negative_time_is_clamped() {
        let b = allocate(
            Clock {
                time: Some(-50),
                inc: Some(0),
                ..Clock::default()
            },
            10,
        );
        assert_eq!(ms(b.hard), MIN_THINK_MS);
    }

    #[test]
    fn more_time_with_fewer_moves_to_go() {
        let c = |mtg| Clock {
            time: Some(10_000),
            inc: None,
            movestogo: Some(mtg),
            movetime: None,
        };
        assert!(ms(allocate(c(2), 10).soft) > ms(allocate(c(20), 10).soft));
    }
}
