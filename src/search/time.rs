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
/// Largest share of a `go movetime` kept back for the answer to reach the
/// GUI, in percent: the GUI asked for that time, so it gets between 95%
/// and all of it (Stockfish, too, answers at the move time).
const MOVETIME_MARGIN_PERCENT: u64 = 5;

/// Allocate time for one move.
///
/// `overhead_ms` is the `Move Overhead` option: time lost per move between
/// the GUI's clock and ours.
pub fn allocate(clock: Clock, overhead_ms: u64) -> Budget {
    if let Some(mt) = clock.movetime {
        // Keep the smaller of the overhead and 5% in reserve: the answer
        // comes just before the time the GUI asked for, not a Move
        // Overhead earlier (`go movetime 500` used to answer at 400 ms).
        let mt = mt.max(0) as u64;
        let margin = overhead_ms.min(mt.saturating_mul(MOVETIME_MARGIN_PERCENT) / 100);
        let t = mt.saturating_sub(margin).max(MIN_THINK_MS);
        // No soft limit: a fixed move time is used to its end, not cut
        // short after an iteration by the clock-game heuristics.
        return Budget {
            soft: None,
            hard: Some(Duration::from_millis(t)),
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
    // Saturating: a clock or increment near the 64-bit limit (a GUI may send
    // anything) must not wrap around to a short budget (or panic where
    // overflow is checked).
    let soft = (usable / moves_left)
        .saturating_add(inc.saturating_mul(3) / 4)
        .min(usable / 2);
    // The hard limit allows a few times the target for unstable positions,
    // but never more than a fraction of the clock.
    let cap = if moves_left == 1 {
        usable.saturating_mul(8) / 10
    } else {
        usable / 3
    };
    let hard = soft.saturating_mul(4).min(cap).max(soft);
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

    /// The hard limit of `go movetime mt`; there is no soft limit.
    fn movetime(mt: i64, overhead: u64) -> u64 {
        let b = allocate(
            Clock {
                movetime: Some(mt),
                ..Clock::default()
            },
            overhead,
        );
        assert_eq!(b.soft, None);
        ms(b.hard)
    }

    #[test]
    fn movetime_is_used_up_to_a_small_margin() {
        // 5% kept back, never more than the overhead.
        assert_eq!(movetime(1000, 100), 950);
        assert_eq!(movetime(500, 100), 475);
        assert_eq!(movetime(1000, 30), 970);
        assert_eq!(movetime(10_000, 100), 9900);
        assert_eq!(movetime(1000, 0), 1000);
        assert_eq!(movetime(100, 100), 95);
        assert_eq!(movetime(0, 100), 1);
        for mt in [1i64, 7, 20, 99, 100, 101, 999, 1000, 5000, 60_000] {
            let hard = movetime(mt, 100);
            assert!(hard as i64 <= mt.max(1), "movetime {mt}: {hard}");
            assert!(hard * 100 >= mt as u64 * 95, "movetime {mt}: {hard}");
        }
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

    /// Clocks and increments up to the largest a GUI can send (`i64::MAX`
    /// ms) give a budget within the clock, never a wrapped-around short one
    /// (nor a panic, in a build with overflow checks).
    #[test]
    fn huge_clocks_do_not_overflow() {
        let big = [i64::MAX, i64::MAX / 2, 6_148_914_691_236_517_206, 1 << 62];
        for time in big {
            for inc in [0, 1000, i64::MAX] {
                for movestogo in [None, Some(1), Some(40)] {
                    let b = allocate(
                        Clock {
                            time: Some(time),
                            inc: Some(inc),
                            movestogo,
                            movetime: None,
                        },
                        100,
                    );
                    let (soft, hard) = (ms(b.soft), ms(b.hard));
                    assert!(soft <= hard && hard <= time as u64, "{time} {inc}: {b:?}");
                    // At least what the same clock without increment gives.
                    let plain = allocate(
                        Clock {
                            time: Some(time),
                            inc: None,
                            movestogo,
                            movetime: None,
                        },
                        100,
                    );
                    assert!(soft >= ms(plain.soft), "{time} {inc}: {b:?} < {plain:?}");
                }
            }
        }
        assert_eq!(movetime(i64::MAX, 100), i64::MAX as u64 - 100);
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
