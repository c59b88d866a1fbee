//! The engine facade: the game (start position, moves, repetition keys),
//! the transposition table, and the background search or perft thread.
//!
//! The UCI layer talks to this module only; it never touches the search,
//! the time manager, perft or the evaluation directly. It hands over the
//! raw clock of a `go` ([`GoRequest`]); the time budget is computed here
//! from [`crate::search::time`], next to the search's own soft scaling.
//! `go` and `perft` are non-blocking so that `isready`, `stop` and `quit`
//! are answered while they run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use rand::SeedableRng;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::notation::{needs_chess960, parse_fen, parse_uci_move};
pub use crate::notation::{FenError, MoveError};
use crate::search::time;
pub use crate::search::time::Clock;
use crate::search::{self, tt::Table, Control, Histories, Limits, Searcher};
use crate::{eval, perft, startpos, strength};

pub use crate::search::tt::Bound;
pub use crate::search::{Outcome, Report, Reporter, Score, MAX_DEPTH};

/// Deepest `go perft` accepted: deeper would run for days.
pub const MAX_PERFT_DEPTH: u32 = 15;

/// What a `go` asks for, as the GUI sent it (after the UCI layer has read
/// the words and the moves).
#[derive(Debug, Clone, Default)]
pub struct GoRequest {
    /// The clock of the side to move (`wtime`/`btime`, increment,
    /// `movestogo`, `movetime`).
    pub clock: Clock,
    /// `go depth`; clamped to 1..=[`MAX_DEPTH`].
    pub depth: Option<u32>,
    /// `go nodes`.
    pub nodes: Option<u64>,
    /// `go mate` (moves).
    pub mate: Option<u32>,
    /// `go infinite`: no time limit, and no answer before `stop`.
    pub infinite: bool,
    /// `go ponder`: no answer before `ponderhit` (then the clock applies)
    /// or `stop`.
    pub ponder: bool,
    /// `searchmoves`, legal in the game's position; empty: all moves.
    pub searchmoves: Vec<Move>,
    /// `MultiPV`.
    pub multipv: usize,
    /// `Threads`.
    pub threads: usize,
    /// `Move Overhead` in ms.
    pub move_overhead_ms: u64,
    /// `UCI_Elo` when `UCI_LimitStrength` is on: play at that level
    /// (see [`crate::strength`]).
    pub limit_elo: Option<i64>,
}

/// The static evaluation of a position, as `eval` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Evaluation {
    /// What the search uses (the network's score, plus the hand-made
    /// terms when the network is a correction to them), in centipawns for
    /// the side to move.
    pub total_cp: i32,
    /// The hand-made terms alone.
    pub hand_made_cp: i32,
}

/// Evaluate `pos` statically.
pub fn evaluate(pos: &Chess) -> Evaluation {
    Evaluation {
        total_cp: eval::evaluate(pos),
        hand_made_cp: eval::handmade::evaluate(pos),
    }
}

/// A perft divide: leaf counts per root move, unsorted.
pub type Divide = Vec<(Move, u64)>;

/// A game: where it started and the moves since.
#[derive(Debug, Clone)]
pub struct Game {
    start: Chess,
    start_number: Option<u32>,
    /// The DFRC index of the start, if it is one (Chess960 starts too).
    dfrc_number: Option<u32>,
    /// Whether the start was named by its number (`startpos960 N`, `dfrc
    /// N`), not given as a FEN (see [`Game::is_chess960`]).
    named: bool,
    position: Chess,
    moves: Vec<Move>,
    /// Zobrist keys of the positions before `position`, oldest first.
    keys: Vec<u64>,
}

impl Default for Game {
    fn default() -> Self {
        Game::named(Chess::default(), Some(startpos::STANDARD))
    }
}

impl Game {
    /// A game from `start`; `start_number` is its Scharnagl number if known.
    pub fn new(start: Chess, start_number: Option<u32>) -> Game {
        let start_number = start_number.or_else(|| startpos::number(&start));
        let dfrc_number = startpos::dfrc_number(&start);
        Game {
            dfrc_number,
            named: false,
            position: start.clone(),
            start,
            start_number,
            moves: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// A game from a start named by its number (`startpos960 N` with its
    /// Scharnagl number, `dfrc N` with `None`): castles are written
    /// king-takes-rook in it unless it is the classical start, whatever the
    /// squares of its king and rooks.
    pub fn named(start: Chess, start_number: Option<u32>) -> Game {
        Game {
            named: true,
            ..Game::new(start, start_number)
        }
    }

    /// A game from a FEN (plain, X-FEN or Shredder-FEN).
    ///
    /// # Errors
    /// The [`FenError`] naming what is wrong with the FEN.
    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        Ok(Game::new(parse_fen(fen)?, None))
    }

    /// Play a move given in UCI notation (either castling encoding).
    ///
    /// # Errors
    /// A [`MoveError`] naming the move if it is not legal; the game is
    /// unchanged.
    pub fn play_uci(&mut self, text: &str) -> Result<(), MoveError> {
        let m = parse_uci_move(&self.position, text)?;
        self.keys.push(
            self.position
                .zobrist_hash::<Zobrist64>(EnPassantMode::Legal)
                .0,
        );
        self.position.play_unchecked(m);
        self.moves.push(m);
        Ok(())
    }

    /// Whether the start is a Chess960 or DFRC start other than the
    /// classical one, named by its number or given as a FEN.
    pub fn starts_off_classical(&self) -> bool {
        self.dfrc_number
            .is_some_and(|n| n != startpos::DFRC_STANDARD)
    }

    /// The start position.
    pub fn start(&self) -> &Chess {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// The Scharnagl number of the start position, if it is one.
    pub fn start_number(&self) -> Option<u32> {
        self.start_number
    }

    /// The DFRC index (white + 960 * black) of the start, if it is one.
    pub fn dfrc_number(&self) -> Option<u32> {
        self.dfrc_number
    }

    /// Moves played since the start.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys of the positions before the current one (repetition detection).
    pub fn history_keys(&self) -> &[u64] {
        &self.keys
    }

    /// True if the start position's castling rights can only be written in
    /// Chess960 notation, or the start was named by a number other than the
    /// classical start's; castling moves are then output king-takes-rook
    /// even when `UCI_Chess960` is off. A FEN that classical notation can
    /// write (king on e1, rooks on a1 and h1) is not one, even where it is
    /// also a Chess960 start's (17 besides 518, such as 509, RQNBKNBR): its
    /// castles were written as
    /// the king's two-square move when its move counters were not a
    /// start's, king-takes-rook when they were.
    pub fn is_chess960(&self) -> bool {
        needs_chess960(&self.start)
            || (self.named
                && (self.start_number.is_some_and(|n| n != startpos::STANDARD)
                    || self
                        .dfrc_number
                        .is_some_and(|n| n != startpos::DFRC_STANDARD)))
    }
}

/// Memory the system can still give us, in MB (`MemAvailable` from
/// `/proc/meminfo`); `None` where that is not known (not Linux), in which
/// case the allocation is simply attempted.
fn available_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// What the background thread is doing.
struct Running {
    control: Arc<Control>,
    handle: JoinHandle<()>,
    /// True until the work is done and only its final output (the
    /// `bestmove` or perft total) remains to be written. Cleared *before*
    /// that output, so a GUI that answers it at once (e.g. `setoption`
    /// right after `bestmove`) never finds the engine still busy.
    pending: Arc<AtomicBool>,
    /// What the thread is doing: `quit` lets a count finish but stops a
    /// search.
    kind: JobKind,
}

/// The two kinds of background work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JobKind {
    /// A search; ends with its `bestmove`.
    Search,
    /// A counting job (`go perft`); ends with its total.
    Count,
}

/// Callback receiving the final result of a search (prints `bestmove`).
pub type OnDone = Box<dyn FnOnce(Outcome) + Send>;

/// A `Hash` size the machine does not have room for; the table is left as
/// it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "Hash {asked} MB refused: only about {available} MB of memory is available; keeping {kept} MB"
)]
pub struct HashRefused {
    /// Size asked for, MB.
    pub asked: usize,
    /// Memory available to the table (free memory plus the current table), MB.
    pub available: u64,
    /// Size kept, MB.
    pub kept: usize,
}

/// The engine: owns the transposition table and the worker thread.
pub struct Engine {
    /// Seeds for the move choice of a limited strength.
    seed: SeedSequence,
    table: Arc<Table>,
    /// Move-ordering statistics kept between the searches of a game.
    histories: Arc<Mutex<Histories>>,
    hash_mb: usize,
    running: Option<Running>,
}

impl Engine {
    /// An engine with a `hash_mb` MB transposition table.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            seed: SeedSequence(rand::random()),
            table: Arc::new(Table::new(hash_mb)),
            histories: Arc::new(Mutex::new(Histories::new())),
            hash_mb,
            running: None,
        }
    }

    /// Resize the table (drops its content). Must not be searching.
    ///
    /// # Errors
    /// When the system reports less available memory than `mb` (plus what
    /// the current table frees): the table is then left as it was. Without
    /// this check a GUI's `setoption name Hash value 65536` on a smaller
    /// machine would have the process killed by the OOM killer while the
    /// table's pages are mapped.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), HashRefused> {
        self.wait();
        if mb == self.hash_mb {
            return Ok(());
        }
        if let Some(avail) = available_memory_mb() {
            let usable = avail.saturating_add(self.hash_mb as u64);
            if mb as u64 > usable {
                return Err(HashRefused {
                    asked: mb,
                    available: usable,
                    kept: self.hash_mb,
                });
            }
        }
        // Drop the old table before allocating the new one so that peak
        // memory stays at one table.
        self.table = Arc::new(Table::new(1));
        self.table = Arc::new(Table::new(mb));
        self.hash_mb = mb;
        Ok(())
    }

    /// Empty the table (`Clear Hash`, `ucinewgame`).
    pub fn clear_hash(&mut self) {
        self.wait();
        self.table.clear();
        // A poisoned lock (a search thread panicked) still holds usable
        // tables: clearing them is exactly what is wanted.
        self.histories
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
    }

    /// Set a tunable search number of a `tune` build (see
    /// `crate::search::params`); only between searches, which the UCI
    /// layer ensures (it refuses options while busy).
    ///
    /// # Errors
    /// An unknown name, or a value outside the number's range.
    #[cfg(feature = "tune")]
    pub fn set_search_param(&mut self, name: &str, value: i32) -> Result<(), String> {
        self.wait();
        crate::search::params::tunable(name)
            .ok_or_else(|| format!("unknown search number '{name}'"))?
            .set(value)
            .map_err(|e| format!("option {name}: {e}"))
    }

    /// True while a search or perft runs in the background and has not
    /// reached its final output yet.
    pub fn is_busy(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.pending.load(Ordering::SeqCst) && !r.handle.is_finished())
    }

    /// Start searching `game` in the background; `on_done` receives the
    /// result (it writes the `bestmove`).
    pub fn go(
        &mut self,
        game: &Game,
        request: GoRequest,
        reporter: Box<dyn Reporter + Send>,
        on_done: OnDone,
    ) {
        let budget = if request.infinite {
            time::Budget::default()
        } else {
            time::allocate(request.clock, request.move_overhead_ms)
        };
        let limits = Limits {
            depth: request.depth.map(|d| d.clamp(1, MAX_DEPTH)),
            nodes: request.nodes,
            // No mate beyond the deepest search is found; a larger number
            // made the stop score an ordinary one (`go mate 20000` stopped
            // after depth 1), and overflowed it beyond 2^30.
            mate: request.mate.map(|m| m.min(MAX_DEPTH)),
            soft: budget.soft,
            hard: budget.hard,
            searchmoves: request.searchmoves,
            multipv: request.multipv,
        };
        let threads = request.threads;
        // A pondering or infinite search must not end on its own.
        let (ponder, infinite) = (request.ponder, request.infinite);
        let control = move || {
            if ponder {
                Control::ponder(infinite)
            } else {
                Control::new(infinite)
            }
        };
        let (limits, reporter, on_done) = match request.limit_elo {
            None => (limits, reporter, on_done),
            Some(elo) => limit_strength(elo, limits, reporter, on_done, self.seed.next()),
        };
        let mut reporter = reporter;
        let table = Arc::clone(&self.table);
        let histories = Arc::clone(&self.histories);
        let root = game.position().clone();
        let history = game.history_keys().to_vec();
        let search = move |control: &Control| {
            let mut h = histories
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            Searcher::new(&table, &mut h, threads).search(
                &root,
                &history,
                &limits,
                control,
                &mut *reporter,
            )
        };
        self.spawn(JobKind::Search, control, search, on_done);
    }

    /// Search `game` for `movetime_ms` and wait for the move: the answer a
    /// front-end gives when the engine behind it fails (`chess960 wrap`).
    /// `searchmoves` restricts the root as the GUI's `go` did (empty: every
    /// move), so the replacement answers the question that was asked.
    /// Returns the move (`None` only when there is no legal move) and the
    /// last iteration's report, so that the GUI gets an `info` line with
    /// the move as from any search.
    pub fn quick_move(
        &mut self,
        game: &Game,
        movetime_ms: u64,
        searchmoves: Vec<Move>,
    ) -> (Option<Move>, Option<Report>) {
        struct Last(std::sync::mpsc::Sender<Report>);
        impl Reporter for Last {
            fn report(&mut self, r: &Report) {
                let _ = self.0.send(r.clone());
            }
        }
        let request = GoRequest {
            clock: Clock {
                movetime: Some(i64::try_from(movetime_ms).unwrap_or(i64::MAX)),
                ..Clock::default()
            },
            multipv: 1,
            threads: 1,
            searchmoves,
            ..GoRequest::default()
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let (reports, reported) = std::sync::mpsc::channel();
        self.go(
            game,
            request,
            Box::new(Last(reports)),
            Box::new(move |o: Outcome| {
                let _ = tx.send(o.best);
            }),
        );
        self.wait();
        (rx.recv().ok().flatten(), reported.try_iter().last())
    }

    /// Count the leaves below each move of `pos` to `depth` in the
    /// background (`go perft`), with `threads` threads and a `hash_mb`
    /// table that lives only for this count; `finish` receives the divide,
    /// or `None` when `stop` interrupted it. `depth` must be at most
    /// [`MAX_PERFT_DEPTH`].
    pub fn perft(
        &mut self,
        pos: &Chess,
        depth: u32,
        threads: usize,
        hash_mb: usize,
        finish: impl FnOnce(Option<Divide>) + Send + 'static,
    ) {
        let pos = pos.clone();
        let config = perft::PerftConfig { threads, hash_mb };
        let count = move |control: &Control| {
            perft::divide_with(&pos, depth.min(MAX_PERFT_DEPTH), &config, &control.stop)
        };
        self.spawn(JobKind::Count, || Control::new(false), count, finish);
    }

    /// Run `work` on a background thread as the engine's one job (after
    /// the previous one has ended), with a fresh [`Control`] for `stop` and
    /// `ponderhit`, made by `control` once the previous job is over (its clock
    /// starts then). Its result goes to `deliver`, which writes the final
    /// output; [`Engine::is_busy`] turns false just before.
    fn spawn<R: 'static>(
        &mut self,
        kind: JobKind,
        control: impl FnOnce() -> Control,
        work: impl FnOnce(&Control) -> R + Send + 'static,
        deliver: impl FnOnce(R) + Send + 'static,
    ) {
        self.wait();
        let control = Arc::new(control());
        let c = Arc::clone(&control);
        let pending = Arc::new(AtomicBool::new(true));
        let p = Arc::clone(&pending);
        let handle = std::thread::spawn(move || {
            let out = work(&c);
            p.store(false, Ordering::SeqCst);
            deliver(out);
        });
        self.running = Some(Running {
            control,
            handle,
            pending,
            kind,
        });
    }

    /// `quit` (or end of input): a running count is waited for, so its
    /// total is printed; a running search is stopped as by [`Self::stop`].
    pub fn finish_perft_or_stop(&mut self) {
        match self.running.as_ref().map(|r| r.kind) {
            Some(JobKind::Count) => self.wait(),
            _ => self.stop(),
        }
    }

    /// `stop`: end the search now; its result is reported as usual.
    pub fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.control.stop.store(true, Ordering::SeqCst);
        }
        self.wait();
    }

    /// `ponderhit`: the search continues under normal time limits.
    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.control.ponderhit();
        }
    }

    /// Wait for the background thread, if any, to finish.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            if r.handle.join().is_err() {
                log::error!("search thread panicked");
            }
        }
    }
}

/// A source of seeds, one per limited-strength search.
struct SeedSequence(u64);

impl SeedSequence {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        self.0
    }
}

/// A root line of the search as the strength limit sees it, with the
/// report that gave it (shown again for the move chosen).
#[derive(Debug, Clone)]
struct Line {
    depth: u32,
    multipv: usize,
    score: i32,
    first: Move,
    reply: Option<Move>,
    report: Report,
}

/// Wraps a search for `UCI_LimitStrength`: the node budget and the
/// candidate lines of [`crate::strength`], only the lines the GUI asked
/// for shown, and the move chosen among the near-best candidates of the
/// deepest iteration that finished all of them.
fn limit_strength(
    elo: i64,
    mut limits: Limits,
    inner: Box<dyn Reporter + Send>,
    on_done: OnDone,
    seed: u64,
) -> (Limits, Box<dyn Reporter + Send>, OnDone) {
    let shown = limits.multipv.max(1);
    limits.nodes = match (limits.nodes, strength::nodes(elo)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    limits.multipv = shown.max(strength::candidates(elo));
    let lines = Arc::new(Mutex::new(Vec::<Line>::new()));
    let inner = Arc::new(Mutex::new(inner));
    let reporter = Box::new(StrengthReporter {
        inner: Arc::clone(&inner),
        shown,
        lines: Arc::clone(&lines),
    });
    let done: OnDone = Box::new(move |mut outcome: Outcome| {
        let lines = lines.lock().map(|l| l.clone()).unwrap_or_default();
        let width = lines.iter().map(|l| l.multipv).max().unwrap_or(0);
        let depth = lines
            .iter()
            .filter(|l| l.multipv == width)
            .map(|l| l.depth)
            .max();
        let last: Vec<&Line> = lines.iter().filter(|l| Some(l.depth) == depth).collect();
        let scored: Vec<(Move, i32)> = last.iter().map(|l| (l.first, l.score)).collect();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        if let Some(m) = strength::choose(&scored, elo, &mut rng) {
            if Some(m) != outcome.best {
                outcome.best = Some(m);
                outcome.ponder = last.iter().find(|l| l.first == m).and_then(|l| l.reply);
                // The move played is the first of the last line the GUI
                // sees (match runners check that bestmove begins the last
                // PV): the chosen candidate's own line and score, as line
                // 1, with the search's latest counts.
                let chosen = last.iter().find(|l| l.first == m);
                if let (Some(chosen), Some(latest)) = (chosen, lines.last()) {
                    let shown = Report {
                        multipv: 1,
                        nodes: latest.report.nodes,
                        time: latest.report.time,
                        hashfull: latest.report.hashfull,
                        ..chosen.report.clone()
                    };
                    if let Ok(mut inner) = inner.lock() {
                        inner.report(&shown);
                    }
                }
            }
        }
        on_done(outcome);
    });
    (limits, reporter, done)
}

/// Forwards the lines the GUI asked for and records every exact line.
struct StrengthReporter {
    inner: Arc<Mutex<Box<dyn Reporter + Send>>>,
    shown: usize,
    lines: Arc<Mutex<Vec<Line>>>,
}

impl Reporter for StrengthReporter {
    fn report(&mut self, r: &Report) {
        if r.multipv <= self.shown {
            if let Ok(mut inner) = self.inner.lock() {
                inner.report(r);
            }
        }
        let (Some(&first), None) = (r.pv.first(), r.bound) else {
            return;
        };
        let score = match r.score {
            Score::Cp(cp) => cp,
            Score::Mate(m) if m > 0 => search::MATE - 2 * m,
            Score::Mate(m) => -search::MATE - 2 * m,
        };
        if let Ok(mut lines) = self.lines.lock() {
            lines.push(Line {
                depth: r.depth,
                multipv: r.multipv,
                score,
                first,
                reply: r.pv.get(1).copied(),
                report: r.clone(),
            });
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_tracks_moves_and_keys() {
        let mut g = Game::new(startpos::position(0).unwrap(), None);
        assert_eq!(g.start_number(), Some(0));
        assert!(g.is_chess960());
        g.play_uci("e2e4").unwrap();
        g.play_uci("e7e5").unwrap();
        assert_eq!(g.moves().len(), 2);
        assert_eq!(g.history_keys().len(), 2);
        let before = g.position().clone();
        assert!(g.play_uci("e1e2").is_err());
        assert_eq!(g.position(), &before);
    }

    #[test]
    fn standard_start_is_not_chess960() {
        assert!(!Game::default().is_chess960());
        assert!(!Game::new(startpos::position(518).unwrap(), None).is_chess960());
    }

    /// A start whose king and rooks stand on the classical squares (509,
    /// RQNBKNBR) is a Chess960 game when named by its number, and read by
    /// its squares when given as a FEN, whatever its move counters.
    #[test]
    fn a_classical_looking_start_is_chess960_only_when_named() {
        let start = startpos::position(509).unwrap();
        assert!(!needs_chess960(&start));
        assert!(Game::named(start.clone(), Some(509)).is_chess960());
        assert!(!Game::new(start.clone(), None).is_chess960());
        let fen = shakmaty::fen::Fen::from_position(&start, EnPassantMode::Legal).to_string();
        assert!(!Game::from_fen(&fen).unwrap().is_chess960());
        let later = fen.replace(" 0 1", " 0 3");
        assert_ne!(later, fen);
        assert!(!Game::from_fen(&later).unwrap().is_chess960());
    }
}
