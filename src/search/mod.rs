//! The search: iterative deepening over a principal-variation alpha-beta
//! with quiescence, a shared transposition table and Lazy SMP threads.
//!
//! The search never prints. It reports each finished iteration to a
//! [`Reporter`] (the UCI layer formats it) and returns the best move; the
//! caller decides how to write moves (castling notation depends on the
//! `UCI_Chess960` option, which the search knows nothing about).

mod correction;
mod ordering;
pub mod params;
mod picker;
pub mod time;
pub mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move};

pub use ordering::{see, Histories};
use worker::Worker;

/// Deepest ply the search reaches (iterative depth is capped below it).
pub const MAX_PLY: usize = 128;
/// Deepest iteration: `go depth 300` is read as "as deep as possible".
pub const MAX_DEPTH: u32 = 100;
/// Score of a mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score.
pub const INFINITY: i32 = 31_000;

/// A score as UCI shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move gets mated).
    Mate(i32),
}

impl Score {
    /// Convert an internal score.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v + 1) / 2))
        } else {
            Score::Cp(v)
        }
    }
}

/// What limits a search. Built by the UCI layer from `go` and the options.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Maximum iteration depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (exact for one thread).
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<u32>,
    /// Soft time: do not start an iteration after this.
    pub soft: Option<Duration>,
    /// Hard time: abort the search at this point.
    pub hard: Option<Duration>,
    /// Only these root moves (`searchmoves`); empty = all.
    pub searchmoves: Vec<Move>,
    /// Number of principal variations to report.
    pub multipv: usize,
}

/// Shared switches between the UCI thread and the search threads.
#[derive(Debug)]
pub struct Control {
    /// Raised by `stop`, `quit`, or by the search itself on a time limit.
    pub stop: AtomicBool,
    /// Raised by the search itself when it reached its node limit: it
    /// searches no more, but a pondering or infinite search still answers
    /// only when released (`ponderhit`, `stop`), as UCI has it; with
    /// `stop` alone it answered at once (a level's node limit ended every
    /// `go ponder` and `go infinite` early).
    exhausted: AtomicBool,
    /// True while pondering or on `go infinite`: the search must not end on
    /// its own; time limits start counting at `ponderhit`.
    pub hold: AtomicBool,
    /// True from `go ponder` until its `ponderhit`: only then does a
    /// `ponderhit` mean anything (a stray one leaves any other search alone).
    pondering: AtomicBool,
    /// `go infinite` (with or without ponder): a `ponderhit` does not end
    /// the hold, only `stop` does.
    infinite: bool,
    /// When the search began: the `time` its reports give.
    started: Instant,
    /// Where the time limits count from: the start, or the `ponderhit`.
    clock: Mutex<Instant>,
    nodes: AtomicU64,
}

impl Default for Control {
    fn default() -> Self {
        let now = Instant::now();
        Control {
            stop: AtomicBool::new(false),
            exhausted: AtomicBool::new(false),
            hold: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            infinite: false,
            started: now,
            clock: Mutex::new(now),
            nodes: AtomicU64::new(0),
        }
    }
}

impl Control {
    /// A fresh control for one `go`; `hold` for `go infinite` (the search
    /// ends only on `stop`).
    pub fn new(hold: bool) -> Control {
        Control {
            hold: AtomicBool::new(hold),
            infinite: hold,
            ..Control::default()
        }
    }

    /// A fresh control for `go ponder` (`infinite` also given): held until
    /// `ponderhit` (or, when infinite, until `stop`).
    pub fn ponder(infinite: bool) -> Control {
        Control {
            hold: AtomicBool::new(true),
            pondering: AtomicBool::new(true),
            infinite,
            ..Control::default()
        }
    }

    /// Ask the search to stop as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// `ponderhit`: the opponent played the expected move; our clock runs
    /// from now and time limits apply. Only a pondering search is touched,
    /// once; an infinite one still waits for `stop`.
    pub fn ponderhit(&self) {
        if !self.pondering.swap(false, Ordering::SeqCst) {
            return;
        }
        if let Ok(mut s) = self.clock.lock() {
            *s = Instant::now();
        }
        if !self.infinite {
            self.hold.store(false, Ordering::SeqCst);
        }
    }

    /// True once stop was requested.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The node limit was reached: search no more (see `exhausted`).
    pub fn exhaust(&self) {
        self.exhausted.store(true, Ordering::SeqCst);
    }

    /// True once the search is to search no more: stopped, or its node
    /// limit reached.
    pub fn ended(&self) -> bool {
        self.stopped() || self.exhausted.load(Ordering::Relaxed)
    }

    /// How long the search pondered before its `ponderhit` (zero without
    /// one): from the start to where the clock was set going. That time
    /// counts against the soft time target, as the move was thought about
    /// then: a search whose iteration ran on from pondering to the hard
    /// limit spent more of the clock after a correct prediction than
    /// without pondering at all.
    pub fn pondered(&self) -> Duration {
        self.clock
            .lock()
            .map(|c| c.saturating_duration_since(self.started))
            .unwrap_or_default()
    }

    /// Time on our clock: since the search started, or since its
    /// `ponderhit` (what the time limits are checked against).
    pub fn elapsed(&self) -> Duration {
        self.clock.lock().map(|s| s.elapsed()).unwrap_or_default()
    }

    /// Time since the search started, pondering included: the `time` of its
    /// reports, which never goes back within one search.
    pub fn since_start(&self) -> Duration {
        self.started.elapsed()
    }

    /// Nodes searched by all threads so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// One finished iteration (or a fail-high/low), for the UCI `info` line.
#[derive(Debug, Clone)]
pub struct Report {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of this line for MultiPV.
    pub multipv: usize,
    /// Score of the line.
    pub score: Score,
    /// `Some(Lower)` if the score is only a lower bound, etc.
    pub bound: Option<tt::Bound>,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Time since start.
    pub time: Duration,
    /// Transposition table fill, permille.
    pub hashfull: u32,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// Receives the search's progress; the UCI layer implements it.
pub trait Reporter {
    /// Called after each iteration of each PV line.
    fn report(&mut self, report: &Report);
}

/// A reporter that discards everything (bench, tests).
pub struct Silent;

impl Reporter for Silent {
    fn report(&mut self, _report: &Report) {}
}

/// The result of a search.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Best move, `None` only when the root has no legal move.
    pub best: Option<Move>,
    /// Expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Score of the best move (internal units).
    pub score: i32,
    /// Last completed depth.
    pub depth: u32,
}

/// The searches of one game: the transposition table and each thread's
/// move-ordering statistics, which carry over from one move to the next,
/// and the number of threads.
///
/// With more than one thread, helper threads search the same tree (Lazy
/// SMP) and share only the table; the main thread alone reports and
/// decides.
pub struct Searcher<'a> {
    table: &'a tt::Table,
    histories: &'a mut Histories,
    threads: usize,
}

impl<'a> Searcher<'a> {
    /// A searcher over `table` and `histories` with `threads` threads (at
    /// least one).
    pub fn new(table: &'a tt::Table, histories: &'a mut Histories, threads: usize) -> Self {
        Searcher {
            table,
            histories,
            threads: threads.max(1),
        }
    }

    /// Search `root` within `limits` and return the best move. `history`
    /// holds the Zobrist keys of the game's earlier positions (oldest
    /// first, not including `root`) for repetition detection; `control`
    /// carries `stop` and `ponderhit` from the caller; every finished
    /// iteration goes to `reporter`.
    pub fn search(
        &mut self,
        root: &Chess,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        reporter: &mut dyn Reporter,
    ) -> Outcome {
        let table = self.table;
        table.new_search();
        let helpers_stop = AtomicBool::new(false);
        let (main_heur, helper_heurs) = self
            .histories
            .for_threads(self.threads)
            .split_first_mut()
            .expect("at least one thread");
        std::thread::scope(|scope| {
            for (i, heur) in helper_heurs.iter_mut().enumerate() {
                let helpers_stop = &helpers_stop;
                scope.spawn(move || {
                    let mut w = Worker::new(root, history, limits, table, control, heur, i + 1);
                    w.helper_loop(helpers_stop);
                });
            }
            let mut main = Worker::new(root, history, limits, table, control, main_heur, 0);
            let outcome = main.iterative_deepening(reporter);
            helpers_stop.store(true, Ordering::SeqCst);
            outcome
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen;
    use shakmaty::{CastlingMode, Position};

    fn best(fen: &str, depth: u32) -> (String, Outcome) {
        let pos = parse_fen(fen).unwrap();
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        let out = search_fresh(&pos, &limits, &mut Silent);
        let m = out.best.expect("a move");
        assert!(pos.is_legal(m));
        (m.to_uci(CastlingMode::Chess960).to_string(), out)
    }

    #[test]
    fn finds_mate_in_one() {
        let (m, out) = best("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 4);
        assert_eq!(m, "a1a8");
        assert_eq!(Score::from_internal(out.score), Score::Mate(1));
    }

    #[test]
    fn finds_mate_in_two_against_itself() {
        // Black to move gets mated: the score is negative mate.
        let (_, out) = best("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1", 5);
        assert!(matches!(
            Score::from_internal(out.score),
            Score::Cp(_) | Score::Mate(_)
        ));
    }

    #[test]
    fn takes_a_free_queen() {
        let (m, _) = best("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", 4);
        assert_eq!(m, "d2d5");
    }

    #[test]
    fn no_move_when_mated() {
        let pos = parse_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
        let table = tt::Table::new(1);
        let control = Control::new(false);
        let limits = Limits {
            depth: Some(3),
            multipv: 1,
            ..Limits::default()
        };
        let mut h = Histories::new();
        let out =
            Searcher::new(&table, &mut h, 1).search(&pos, &[], &limits, &control, &mut Silent);
        assert!(out.best.is_none());
    }

    /// Each finished iteration's depth, node count and first move.
    struct Iterations(Vec<(u32, u64, Option<Move>)>);

    impl Reporter for Iterations {
        fn report(&mut self, r: &Report) {
            if r.bound.is_none() {
                self.0.push((r.depth, r.nodes, r.pv.first().copied()));
            }
        }
    }

    /// One search on one thread from a fresh table and statistics.
    fn search_fresh(pos: &Chess, limits: &Limits, reporter: &mut dyn Reporter) -> Outcome {
        let table = tt::Table::new(4);
        let control = Control::new(false);
        let mut h = Histories::new();
        Searcher::new(&table, &mut h, 1).search(pos, &[], limits, &control, reporter)
    }

    /// A search stopped by its node limit inside an iteration that changes
    /// the best move plays the new move once that move has been searched
    /// to the end (here: one node before the iteration would have finished),
    /// not the last finished iteration's. One thread on a fresh table is
    /// deterministic, so the stopped search repeats the deeper one's nodes
    /// up to its limit. The positions are searched until an iteration that
    /// changes the best move is found; none at all fails the test.
    #[test]
    fn a_search_cut_short_plays_the_move_its_iteration_proved_better() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "bnqbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BNQBRKRN w GEge - 0 1",
        ];
        let mut changes = 0;
        for fen in fens {
            let pos = parse_fen(fen).unwrap();
            let deep = Limits {
                depth: Some(9),
                multipv: 1,
                ..Limits::default()
            };
            let mut its = Iterations(Vec::new());
            search_fresh(&pos, &deep, &mut its);
            let change = its
                .0
                .windows(2)
                .find(|w| w[0].0 >= 1 && w[1].0 == w[0].0 + 1 && w[1].2 != w[0].2);
            let Some(&[(_, _, before), (depth, nodes, after)]) = change else {
                continue;
            };
            changes += 1;
            let cut = Limits {
                nodes: Some(nodes - 1),
                multipv: 1,
                ..Limits::default()
            };
            let out = search_fresh(&pos, &cut, &mut Silent);
            assert_eq!(
                out.best, after,
                "{fen}: cut at {} nodes inside depth {depth}, which turned {before:?} into {after:?}",
                nodes - 1
            );
            assert_eq!(out.depth, depth - 1, "{fen}: the last finished iteration");
        }
        assert!(changes > 0, "no iteration changed the best move");
    }

    #[test]
    fn mate_scores_convert() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
    }
}
