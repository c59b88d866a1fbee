//! `chess960 wrap`: a UCI front-end that gives any UCI engine Chess960 in
//! every dialect a GUI speaks.
//!
//! To the GUI it is a UCI engine; to the engine behind it, a GUI. Upstream
//! it reads everything the engine of this crate reads (`startpos960`,
//! `dfrc`, every FEN flavour, every castling notation: the one model in
//! [`crate::notation`] and [`crate::uci::position`]) and writes castles in
//! the GUI's notation. Downstream it always sends a full FEN of the start and
//! the moves in the engine's own dialect, with `UCI_Chess960` set whenever
//! the mode changes. Every move the engine sends back is read against the
//! position, in whatever castling form it uses; an illegal or unreadable
//! move, an engine that exits, or one that has not answered within its time
//! plus a margin is replaced by this crate's own engine's move (a short
//! search), said in an `info string`, and the engine is restarted with its
//! options for the next `go`. The GUI always gets a legal `bestmove`.
//!
//! [`backend`] is the engine process; `deadline` says when its answer is
//! overdue and `translate` rewrites the lines that cross; this module is
//! the loop over both sides' lines.

pub mod backend;
mod deadline;
mod translate;

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::Position;

use crate::engine::{Engine, Game};
use crate::notation::{parse_uci_move, shredder_fen, uci_move, uci_move_at, xfen, CastlingStyle};
use crate::uci::command::{self, Command, GoCommand, PositionCommand};
use crate::uci::output;
use crate::uci::position::Positions;
use backend::{Backend, Failure, StartError, OWN_OPTIONS};
use deadline::{deadline, own_clock, running_field};
pub use deadline::{CLOCK_RESERVE_MS, CLOCK_SHARE_PERCENT};
pub use translate::translate_info;
use translate::{engine_go_line, is_info_string, is_protocol_or_count};

/// How long the engine may take to answer `isready` before the front-end
/// answers it itself and restarts the engine.
pub const READY_TIMEOUT: Duration = Duration::from_secs(10);

/// How long an engine whose time is up may take to answer the `stop` it is
/// sent before it is restarted. A late engine is stopped, not killed, and
/// its late answer dropped: a restart costs more than the lateness (175 ms
/// for Stockfish), and at low clocks every later move then came late too
/// (18 of 20 moves replaced on a 300 ms clock after one late move).
pub const LATE_ANSWER_GRACE: Duration = Duration::from_secs(2);

/// Exits in a row, each before the engine answered anything (`bestmove`,
/// `readyok`), after which it is not started again and the front-end answers
/// every `go` itself. An engine that dies on an option the GUI set was
/// restarted with it without end (380 processes in 15 s), and the GUI's
/// `isready` never answered.
pub const MAX_EXITS_IN_A_ROW: u32 = 3;

/// How long `quit` waits for the engine to exit before killing it; what
/// it writes meanwhile (the count of a `go perft` it finishes) still
/// reaches the GUI.
pub const QUIT_GRACE: Duration = Duration::from_millis(500);

/// How long, at `quit` or the end of the GUI's input, the engine may take
/// to answer what is still open (the `bestmove` of a search it was told
/// to stop, `readyok`) before the front-end answers itself: a GUI or
/// script that ends with `go ... quit` or `isready` and end of input gets
/// every answer, as from the engine alone.
pub const QUIT_ANSWER_GRACE: Duration = Duration::from_millis(1000);

/// The replacement search takes this share of the time the `go` gave
/// (per mille of `movetime` or of the remaining clock), within
/// [`FALLBACK_MIN_MS`] and [`FALLBACK_MAX_MS`].
pub const FALLBACK_PER_MILLE: u64 = 50;
/// Shortest replacement search.
pub const FALLBACK_MIN_MS: u64 = 5;
/// Longest replacement search.
pub const FALLBACK_MAX_MS: u64 = 200;

/// Hash size (MB) of the own engine that answers when the engine fails.
pub const FALLBACK_HASH_MB: usize = 16;

/// The castling notation sent to the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineCastling {
    /// King-takes-rook with `UCI_Chess960` in Chess960 games, the king's
    /// two-square move in classical ones (what UCI engines speak).
    Auto,
    /// Always king-takes-rook, with `UCI_Chess960` on.
    Kxr,
    /// `O-O` / `O-O-O` (Arena's dialect, engines from before the
    /// Chess960 UCI convention).
    Oo,
    /// The king's move to its castled square.
    King,
}

/// The FEN flavour sent to the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineFen {
    /// Shredder-FEN (`HAha`) in Chess960 games, `KQkq` in classical ones.
    Shredder,
    /// X-FEN (`KQkq`, a file letter only for an inner rook).
    Xfen,
}

/// How the front-end runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The engine's program and arguments.
    pub command: Vec<String>,
    /// Castling notation for the engine.
    pub castling: EngineCastling,
    /// FEN flavour for the engine.
    pub fen: EngineFen,
    /// File that receives every line in each of the four directions.
    pub log: Option<PathBuf>,
    /// Time (ms) beyond a `go movetime` the engine may take.
    pub margin_ms: u64,
}

/// Why the front-end could not run.
#[derive(Debug, thiserror::Error)]
pub enum WrapError {
    /// The engine could not be started at all.
    #[error(transparent)]
    Start(#[from] StartError),
    /// The log file could not be opened.
    #[error("cannot open log file '{path}': {reason}")]
    Log {
        /// The path as given.
        path: String,
        /// The operating system's reason.
        reason: String,
    },
}

/// What the front-end's one loop waits for.
#[derive(Debug)]
pub enum Event {
    /// A line from the GUI.
    Gui(String),
    /// The GUI closed our input.
    GuiGone,
    /// A line from engine process `generation`.
    Engine(u64, String),
    /// Engine process `generation` closed its output (it exited).
    EngineGone(u64),
}

/// Who is waiting for a `readyok` from the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asker {
    /// The GUI's `isready`, passed on.
    Gui,
    /// The front-end's own, sent right after a `stop` or `ponderhit`: some
    /// engines answer one that finds them idle (their `bestmove` already
    /// on its way, or given early) with a `bestmove`, which was read as
    /// the answer to the GUI's next search, and every later answer as the
    /// one before it. The engine reads its input in order, so before this
    /// `readyok` come the `bestmove`s it owed when the fence was sent
    /// (`owed`, counted down as they come) and nothing else: one beyond
    /// them answers no search and is dropped.
    Fence { owed: usize },
}

/// An `isready` the engine has not answered yet.
#[derive(Debug, Clone, Copy)]
struct Ready {
    asker: Asker,
    /// The number of the GUI line it came with or after (see
    /// [`Front::gui_lines`]).
    asked: u64,
    /// When the engine is restarted for not answering it.
    deadline: Instant,
    /// The GUI was given its `readyok` by the front-end, before a search
    /// asked after it that the front-end answered itself: the engine's own
    /// `readyok` for it, when it comes, is dropped.
    answered: bool,
}

/// The audit log: one timestamped line per message, with its direction
/// (`gui>` from the GUI, `>gui` to it, `>engine` to the engine, `engine>`
/// from it).
pub struct Log(Mutex<Option<File>>);

impl Log {
    /// A log writing to `path`, or none.
    ///
    /// # Errors
    /// [`WrapError::Log`] when the file cannot be created.
    pub fn open(path: Option<&PathBuf>) -> Result<Log, WrapError> {
        let file = match path {
            None => None,
            Some(p) => Some(File::create(p).map_err(|e| WrapError::Log {
                path: p.display().to_string(),
                reason: e.to_string(),
            })?),
        };
        Ok(Log(Mutex::new(file)))
    }

    /// Write one line (a whole line per write, so lines never mix).
    pub fn line(&self, dir: &str, text: &str) {
        if let Ok(mut guard) = self.0.lock() {
            if let Some(f) = guard.as_mut() {
                let text = text.trim_end_matches(['\n', '\r']);
                let line = format!("{:.3} {dir} {text}\n", jiff::Timestamp::now());
                let _ = f.write_all(line.as_bytes());
            }
        }
    }
}

/// A `go` the engine has not answered yet.
struct Search {
    game: Game,
    /// How the GUI wants castles written for this search.
    style: CastlingStyle,
    go: GoCommand,
    /// When the clock of the `go` started (`ponderhit` restarts it).
    started: Instant,
    deadline: Option<Instant>,
    /// Whether its `go` reached the engine (or waits for its handshake),
    /// rather than kept while a late answer is awaited.
    given: bool,
    /// The number of its `go` among the GUI's lines.
    asked: u64,
    /// Its `go` as the engine was sent it: sent again to an engine
    /// restarted in place of the one that took it.
    engine_go: String,
    /// Whether it was told to end (`stop`, or a later `go`): an engine
    /// restarted meanwhile is not given it again, it is answered at once.
    hurried: bool,
}

/// The front-end.
struct Front {
    cfg: Config,
    log: Log,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    held: VecDeque<Event>,
    backend: Option<Backend>,
    generation: u64,
    gui_chess960: bool,
    gui_arena: bool,
    /// `setoption` lines for the engine with their option's name as the GUI
    /// wrote it, in order, one per name (whatever its case): replayed when
    /// it restarts.
    set_options: Vec<(String, String)>,
    positions: Positions,
    rng: ChaCha8Rng,
    /// The GUI's game; `None` when its last `position` could not be read.
    game: Option<Game>,
    /// The `go`s not answered yet, oldest first: each engine `bestmove`
    /// answers the oldest.
    searches: VecDeque<Search>,
    /// The engine's `bestmove` for a pondering or infinite search the GUI
    /// has not ended: UCI has such a search answer only after `stop` or
    /// `ponderhit` (uci2wb reports an early answer as a UCI violation).
    /// Given to the GUI when it ends the search.
    early_answer: Option<String>,
    /// Each `isready` the engine has not answered yet, oldest first: its
    /// `readyok`s come in that order.
    readies: VecDeque<Ready>,
    /// The `bestmove 0000`s owed to `go`s that came with no position, oldest
    /// first, each with the number of answers still to be given before it
    /// (to the `go`s before it) and the number of its GUI line: a GUI reads
    /// its answers in the order it asked, so one given at once would be
    /// taken for a running search's.
    null_answers: VecDeque<(usize, u64)>,
    /// The engine's `option` lines at its first start: what a `setoption`
    /// value is checked against, also while a restarted engine is still
    /// declaring its own (the same program).
    declared: Vec<String>,
    /// The GUI's lines read so far: orders its `isready`s among its `go`s,
    /// so that the front-end's own answers keep the GUI's order.
    gui_lines: u64,
    /// A `go perft` was sent and its count (`Nodes searched`) has not come:
    /// a `bestmove` with no search open then is that of an engine that
    /// searched instead, which the GUI is told.
    perft_asked: bool,
    /// `bestmove`s still to come for searches the front-end answered
    /// itself when the engine's time was up: dropped when they come, with
    /// the `info` lines before them.
    late_answers: usize,
    /// By when the late engine must have given them; else it is restarted.
    late_deadline: Option<Instant>,
    /// Exits of the engine since it last answered anything.
    exits_in_a_row: u32,
    /// Whether the engine's program answers `isready` (asked at its first
    /// start, and seen since): only then are `stop`s fenced.
    answers_isready: bool,
    own: Engine,
    /// Set at `quit` or end of input: an engine that fails now is not
    /// restarted.
    quitting: bool,
}

/// Run the front-end over stdin/stdout until `quit` or end of input.
///
/// # Errors
/// A [`WrapError`] when the engine cannot be started at all or the log
/// cannot be opened.
pub fn run(cfg: Config) -> Result<(), WrapError> {
    let log = Log::open(cfg.log.as_ref())?;
    backend::kill_engine_on_ending();
    let (tx, rx) = mpsc::channel();
    let gui = tx.clone();
    std::thread::spawn(move || pump(io::stdin().lock(), &gui, Event::Gui, Event::GuiGone));
    let mut held = Vec::new();
    let backend = Backend::start(&cfg.command, 0, &tx, &rx, &mut held, &log)?;
    let answers_isready = backend.answers_isready;
    let declared = backend.options.clone();
    let mut front = Front {
        cfg,
        log,
        tx,
        rx,
        held: held.into(),
        backend: Some(backend),
        generation: 0,
        gui_chess960: false,
        gui_arena: false,
        set_options: Vec::new(),
        positions: Positions::default(),
        rng: ChaCha8Rng::from_entropy(),
        game: Some(Game::default()),
        searches: VecDeque::new(),
        early_answer: None,
        readies: VecDeque::new(),
        null_answers: VecDeque::new(),
        gui_lines: 0,
        declared,
        perft_asked: false,
        late_answers: 0,
        late_deadline: None,
        exits_in_a_row: 0,
        answers_isready,
        own: Engine::new(FALLBACK_HASH_MB),
        quitting: false,
    };
    // One short search before the GUI's first `go`: the own engine's first
    // search pays for its first allocations and thread (about 50 ms on a
    // loaded machine), which a replacement at a low clock cannot spare.
    let _ = front
        .own
        .quick_move(&Game::default(), FALLBACK_MIN_MS, Vec::new());
    front.run();
    Ok(())
}

impl Front {
    fn run(&mut self) {
        loop {
            // A deadline passed is met first: an engine that writes
            // without pause cannot hold it off.
            if self.next_deadline().is_some_and(|d| d <= Instant::now()) {
                self.on_timeout();
                continue;
            }
            let event = match self.held.pop_front() {
                Some(e) => e,
                None => match self.next_deadline() {
                    Some(at) => {
                        match self
                            .rx
                            .recv_timeout(at.saturating_duration_since(Instant::now()))
                        {
                            Ok(e) => e,
                            Err(RecvTimeoutError::Timeout) => {
                                self.on_timeout();
                                continue;
                            }
                            Err(RecvTimeoutError::Disconnected) => return,
                        }
                    }
                    None => match self.rx.recv() {
                        Ok(e) => e,
                        Err(_) => return,
                    },
                },
            };
            match event {
                Event::Gui(line) => {
                    if !self.on_gui(&line) {
                        return;
                    }
                }
                Event::GuiGone => {
                    self.quit();
                    return;
                }
                Event::Engine(g, line) if g == self.generation => {
                    match self.backend.as_mut().filter(|b| b.in_handshake()) {
                        Some(b) => {
                            self.log.line("engine>", &line);
                            if b.handshake_line(&line, &self.log) {
                                self.send_gui("info string the engine was restarted");
                            }
                        }
                        None => self.on_engine(&line),
                    }
                }
                Event::EngineGone(g) if g == self.generation => {
                    if self.backend.as_ref().is_some_and(Backend::in_handshake) {
                        self.start_failed(Failure::Exited);
                    } else {
                        self.exits_in_a_row += 1;
                        self.replace_all("the engine exited");
                    }
                }
                // Lines of an engine already replaced.
                Event::Engine(..) | Event::EngineGone(_) => {}
            }
        }
    }

    fn next_deadline(&self) -> Option<Instant> {
        let search = self.searches.front().and_then(|s| s.deadline);
        let handshake = self.backend.as_ref().and_then(Backend::handshake_deadline);
        let ready = self.readies.front().map(|r| r.deadline);
        [search, ready, handshake, self.late_deadline]
            .into_iter()
            .flatten()
            .min()
    }

    fn on_timeout(&mut self) {
        let now = Instant::now();
        if self
            .backend
            .as_ref()
            .and_then(Backend::handshake_deadline)
            .is_some_and(|d| d <= now)
        {
            self.start_failed(Failure::TimedOut);
        }
        if self.readies.front().is_some_and(|r| r.deadline <= now) {
            // The word first: a GUI that logs it sees why before the
            // `readyok` the front-end gives in the engine's place.
            self.send_gui("info string the engine did not answer isready in time; it is restarted");
            self.answer_gui_readies();
            self.restart();
        }
        if self
            .searches
            .front()
            .and_then(|s| s.deadline)
            .is_some_and(|d| d <= now)
        {
            self.answer_late("the engine did not answer in time");
        }
        if self.late_deadline.is_some_and(|d| d <= now) {
            self.late_deadline = None;
            // A restarting engine is not killed: its handshake has its own
            // limit, and the `stop` goes out after its `uciok`. Its grace
            // starts again, so that an engine that never answers after its
            // `uciok` is still restarted in the end (a `go depth` has no
            // deadline of its own to end the wait).
            if self.late_answers > 0 && self.backend.as_ref().is_some_and(Backend::in_handshake) {
                self.late_deadline = Some(now + LATE_ANSWER_GRACE);
            } else if self.late_answers > 0 {
                self.send_gui(&format!(
                    "info string the engine did not stop within {} s after its time was up; it is restarted",
                    LATE_ANSWER_GRACE.as_secs()
                ));
                self.restart();
            }
        }
    }

    /// The oldest search's time is up: every waiting `go` is answered with
    /// our own move and the engine told to stop; its answers to the `go`s it
    /// was given are dropped when they come, and what the GUI sends until
    /// then is kept for it (see [`LATE_ANSWER_GRACE`]).
    fn answer_late(&mut self, why: &str) {
        // An answer held back already came for the oldest search.
        let answered = usize::from(self.early_answer.take().is_some());
        // An engine still starting has been sent none of the searches: each
        // `go` is kept for its `uciok`, and is dropped below, not sent and
        // its answer awaited as a late one.
        let starting = self.backend.as_ref().is_some_and(Backend::in_handshake);
        let mut given = 0;
        // A pondering or infinite search behind them stays open until the
        // GUI ends it: the engine answers it (early, if the `stop` below
        // ends it too: that answer is held for the GUI's `stop`).
        while !self.front_is_open() {
            let Some(search) = self.searches.pop_front() else {
                break;
            };
            given += usize::from(search.given && !starting);
            self.answer_readies_ahead(search.asked);
            self.replace(&search, why);
        }
        self.late_answers += given.saturating_sub(answered);
        let keep_last = if starting {
            self.searches
                .back()
                .is_some_and(|s| s.go.ponder || s.go.infinite)
        } else {
            self.open_search_is_held()
        };
        if let Some(b) = self.backend.as_mut() {
            b.drop_kept_gos(keep_last);
        }
        let holding = self.backend.as_ref().is_some_and(Backend::holding);
        if self.late_answers > 0 {
            // A hold begins with the `stop`: a second one, kept, would
            // reach the engine idle when the hold ends, with no fence.
            if !holding {
                self.send_stop();
                if let Some(b) = self.backend.as_mut() {
                    b.hold();
                }
            }
            // Not moved on by later searches: an engine that answers
            // nothing is restarted in the end.
            self.late_deadline
                .get_or_insert(Instant::now() + LATE_ANSWER_GRACE);
        }
    }

    /// Give the GUI the `bestmove` of its oldest `go` not answered yet,
    /// then the `bestmove 0000`s of the `go`s with no position that were
    /// waiting for it ([`Front::null_answers`]).
    fn answer_gui(&mut self, line: &str) {
        self.send_gui(line);
        let mut given = 1;
        while given > 0 {
            for (ahead, _) in &mut self.null_answers {
                *ahead = ahead.saturating_sub(given);
            }
            given = 0;
            while let Some(&(0, asked)) = self.null_answers.front() {
                self.null_answers.pop_front();
                // An `isready` sent before that `go` is answered first.
                self.answer_readies_ahead(asked);
                self.send_gui(&output::bestmove(None, None));
                given += 1;
            }
        }
    }

    fn send_gui(&self, line: &str) {
        self.log.line(">gui", line);
        let stdout = io::stdout();
        let mut out = stdout.lock();
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    }

    fn send_engine(&mut self, line: &str) {
        if let Some(b) = self.backend.as_mut() {
            b.send(line, &self.log);
        }
    }

    /// One GUI line; `false` when the front-end is to end.
    fn on_gui(&mut self, line: &str) -> bool {
        self.log.line("gui>", line);
        self.gui_lines += 1;
        let cmd = match command::parse_line(line) {
            Ok(parsed) => match parsed.command {
                Some(cmd) => cmd,
                None => return true,
            },
            Err(e) => {
                if command::command_word(line) == Some("position") {
                    let refusal = self.positions.refuse(&e.0);
                    self.send_gui(&refusal);
                    self.game = None;
                } else {
                    // The engine may know commands this crate does not.
                    self.send_engine(line);
                }
                return true;
            }
        };
        match cmd {
            Command::Uci => self.identify(),
            Command::SetOption { name, value } => self.set_option(line, &name, value.as_deref()),
            Command::IsReady => {
                if let Some(b) = self.backend.as_mut() {
                    // Not kept while a late answer is awaited: `isready` is
                    // answered at once, also by an engine that searches.
                    b.send_past_hold("isready", &self.log);
                    self.readies.push_back(Ready {
                        asker: Asker::Gui,
                        asked: self.gui_lines,
                        deadline: Instant::now() + READY_TIMEOUT,
                        answered: false,
                    });
                } else {
                    self.send_gui(&output::readyok());
                }
            }
            Command::UciNewGame => {
                self.positions.new_game();
                self.send_engine("ucinewgame");
            }
            Command::Position(p) => self.set_position(&p),
            Command::Go(g) => self.go(&g),
            Command::Stop => {
                // An engine still starting, or kept waiting for a late
                // answer it was already told to stop, has nothing to stop
                // but what is kept for it.
                let waiting = self
                    .backend
                    .as_ref()
                    .is_some_and(|b| b.in_handshake() || b.holding());
                if self.engine_has_work() || !waiting {
                    self.send_stop();
                }
                self.hurry();
                self.end_open_searches();
                self.answer_without_engine();
            }
            Command::PonderHit => {
                self.send_engine("ponderhit");
                // Only an engine that answered early may take a `ponderhit`
                // for a search of its own; one still pondering is not sent
                // an `isready` in the middle of its search.
                if self.engine_owes() == 0 {
                    self.fence();
                }
                let margin = self.margin();
                if let Some(s) = self.searches.back_mut() {
                    s.go.ponder = false;
                    s.started = Instant::now();
                    s.deadline = deadline(&s.go, s.game.position(), s.started, margin);
                    let field = running_field(&s.go, s.game.position());
                    if let Some(b) = self.backend.as_mut() {
                        b.ponderhit_kept(field);
                    }
                }
                self.give_early_answer();
                self.answer_without_engine();
            }
            Command::Quit => {
                self.quit();
                return false;
            }
            Command::Debug(_)
            | Command::Register
            | Command::Display
            | Command::Eval
            | Command::Help => self.send_engine(line),
        }
        true
    }

    fn margin(&self) -> Duration {
        Duration::from_millis(self.cfg.margin_ms)
    }

    /// How many `isready`s of the GUI's are still to be answered.
    fn gui_readies(&self) -> usize {
        self.readies
            .iter()
            .filter(|r| r.asker == Asker::Gui && !r.answered)
            .count()
    }

    /// Answer the GUI's `isready`s that came before the `go` numbered
    /// `asked`, before the front-end answers that `go` itself while the
    /// engine runs on (late): a GUI reads its answers in the order it
    /// asked. The engine's own `readyok`s for them are dropped when they
    /// come ([`Ready::answered`]).
    fn answer_readies_ahead(&mut self, asked: u64) {
        let mut given = 0;
        for r in &mut self.readies {
            if r.asker == Asker::Gui && r.asked < asked && !r.answered {
                r.answered = true;
                given += 1;
            }
        }
        for _ in 0..given {
            self.send_gui(&output::readyok());
        }
    }

    /// Answer the GUI's `isready`s that came before the `go` numbered
    /// `asked`, before the front-end answers that `go` itself because the
    /// engine that owed them is gone: a GUI reads its answers in the order
    /// it asked (a `readyok` after a later `go`'s `bestmove` would answer
    /// nothing it waits for). The engine started next is not asked them.
    fn answer_readies_before(&mut self, asked: u64) {
        let (before, kept): (VecDeque<Ready>, VecDeque<Ready>) = self
            .readies
            .drain(..)
            .partition(|r| r.asker == Asker::Gui && r.asked < asked);
        self.readies = kept;
        for _ in before.iter().filter(|r| !r.answered) {
            self.send_gui(&output::readyok());
        }
    }

    /// Answer every `isready` of the GUI's the engine has not, and forget
    /// the front-end's own: the engine is given up on, restarted for not
    /// answering, or the GUI has quit.
    fn answer_gui_readies(&mut self) {
        for _ in 0..self.gui_readies() {
            self.send_gui(&output::readyok());
        }
        self.readies.clear();
    }

    /// How many `bestmove`s the engine owes: one for each search it was
    /// given and has not answered (the open one answered early excepted),
    /// and the late ones for searches the front-end answered.
    fn engine_owes(&self) -> usize {
        let given = self.searches.iter().filter(|s| s.given).count();
        let answered = usize::from(self.early_answer.is_some());
        given.saturating_sub(answered) + self.late_answers
    }

    /// `stop` to the engine, then a fence ([`Asker::Fence`]).
    fn send_stop(&mut self) {
        self.send_engine("stop");
        self.fence();
    }

    /// An `isready` of the front-end's own after a `stop` or `ponderhit`
    /// ([`Asker::Fence`]). Only where the line goes out now (not kept for
    /// a handshake or a late answer, where what it owes is not known
    /// until then) and the engine has answered `isready` before: one that
    /// never does (some do not) would have its moves dropped until it is
    /// restarted for it.
    fn fence(&mut self) {
        let owed = self.engine_owes();
        let Some(b) = self.backend.as_mut() else {
            return;
        };
        if b.in_handshake() || b.holding() || !self.answers_isready {
            return;
        }
        b.send("isready", &self.log);
        self.readies.push_back(Ready {
            asker: Asker::Fence { owed },
            asked: self.gui_lines,
            deadline: Instant::now() + READY_TIMEOUT,
            answered: false,
        });
    }

    /// Whether `line`, a `bestmove` or the `info` of one, answers no search:
    /// it comes before a fence's `readyok` with nothing owed there. A
    /// `bestmove` that is owed is counted down at every fence it precedes.
    fn unasked(&mut self, line: &str) -> bool {
        let first_owed = self.readies.iter().find_map(|r| match r.asker {
            Asker::Fence { owed } => Some(owed),
            Asker::Gui => None,
        });
        match first_owed {
            None => false,
            Some(0) => true,
            Some(_) => {
                if line.starts_with("bestmove") {
                    for r in &mut self.readies {
                        if let Asker::Fence { owed } = &mut r.asker {
                            *owed = owed.saturating_sub(1);
                        }
                    }
                }
                false
            }
        }
    }

    /// Whether the engine owes a `bestmove` or will be given a `go` that
    /// is kept for it: a `stop` then ends a search. Else it is idle (every
    /// search it was given answered, the open one early included).
    fn engine_has_work(&self) -> bool {
        let given = self.searches.iter().filter(|s| s.given).count();
        let answered = usize::from(self.early_answer.is_some());
        given > answered || self.searches.iter().any(|s| !s.given)
    }

    /// The GUI ended every search (`stop`, or a new `go`): none is
    /// pondering or infinite any more, and an answer held back is given.
    fn end_open_searches(&mut self) {
        for s in &mut self.searches {
            s.go.ponder = false;
            s.go.infinite = false;
        }
        self.give_early_answer();
    }

    /// Whether the oldest search is one only the GUI ends (pondering or
    /// infinite): the search the engine's next `bestmove` answers.
    fn front_is_open(&self) -> bool {
        self.searches
            .front()
            .is_some_and(|s| s.go.ponder || s.go.infinite)
    }

    /// Whether the last search is open (pondering or infinite) and its `go`
    /// is among the lines kept for the engine (not given yet): the last
    /// `go` kept is then its own.
    fn open_search_is_held(&self) -> bool {
        self.searches
            .back()
            .is_some_and(|s| (s.go.ponder || s.go.infinite) && !s.given)
    }

    /// An answer held back for a search the GUI has now ended, to the GUI.
    fn give_early_answer(&mut self) {
        if !self.front_is_open() {
            if let Some(line) = self.early_answer.take() {
                self.on_bestmove(&line);
            }
        }
    }

    /// With no engine running, the searches the GUI has ended (`stop`) or
    /// made timed ones (`ponderhit`) are answered by the front-end now:
    /// nothing else would answer them before their deadlines, which a
    /// `ponderhit` puts near the end of the clock.
    fn answer_without_engine(&mut self) {
        if self.backend.is_some() {
            return;
        }
        while !self.front_is_open() {
            let Some(search) = self.searches.pop_front() else {
                return;
            };
            self.answer_readies_before(search.asked);
            self.replace(&search, "no engine is running");
        }
    }

    /// `stop`: every running search must now answer within the margin.
    fn hurry(&mut self) {
        let soon = Instant::now() + self.margin();
        for s in &mut self.searches {
            s.deadline = Some(s.deadline.map_or(soon, |d| d.min(soon)));
            s.hurried = true;
        }
    }

    fn identify(&mut self) {
        let (name, author, options) = match &self.backend {
            Some(b) => (
                b.name
                    .clone()
                    .unwrap_or_else(|| shown_command(&self.cfg.command)),
                b.author.clone().unwrap_or_else(|| "unknown".to_owned()),
                b.options.clone(),
            ),
            None => (
                shown_command(&self.cfg.command),
                "unknown".to_owned(),
                Vec::new(),
            ),
        };
        let mut block: Vec<String> = output::id_lines(&name, &author).into();
        for own in OWN_OPTIONS {
            block.push(format!("option name {own} type check default false"));
        }
        block.extend(options);
        block.push(output::uciok());
        for l in &block {
            self.send_gui(l);
        }
    }

    fn set_option(&mut self, line: &str, name: &str, value: Option<&str>) {
        let own = OWN_OPTIONS
            .iter()
            .position(|o| o.eq_ignore_ascii_case(name.trim()));
        let Some(which) = own else {
            let name = name.trim();
            // A value the engine declared it cannot take is named, not
            // sent: it would be replayed at every restart. One it can is
            // sent as it reads it (`TRUE` as `true`).
            let line = match crate::uci::options::check_declared(&self.declared, name, value) {
                Err(e) => {
                    self.send_gui(&format!("info string error: {e}; not sent to the engine"));
                    return;
                }
                Ok(Some(v)) => format!("setoption name {name} value {v}"),
                Ok(None) => line.trim().to_owned(),
            };
            self.set_options
                .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
            self.set_options.push((name.to_owned(), line.clone()));
            self.send_engine(&line);
            return;
        };
        let on = match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            Some("true") => true,
            Some("false") => false,
            _ => {
                self.send_gui(&format!(
                    "info string error: option {}: '{}' is not true or false",
                    OWN_OPTIONS[which],
                    value.unwrap_or("")
                ));
                return;
            }
        };
        if which == 0 {
            self.gui_chess960 = on;
        } else {
            self.gui_arena = on;
        }
    }

    fn set_position(&mut self, p: &PositionCommand) {
        let applied = self.positions.apply(p, &mut self.rng);
        for l in &applied.lines {
            self.send_gui(l);
        }
        self.game = applied.game;
        if let Some(game) = self.game.clone() {
            self.send_position(&game);
        }
    }

    /// The game, downstream: `UCI_Chess960` for its mode, then a full FEN
    /// of its start in the engine's flavour and the moves in its dialect.
    fn send_position(&mut self, game: &Game) {
        let (line, mode) = self.position_line(game);
        if let Some(b) = self.backend.as_mut() {
            b.set_chess960(mode, &self.log);
        }
        self.send_engine(&line);
    }

    /// The `position` line for `game` in the engine's dialect, and the
    /// `UCI_Chess960` value it is read under.
    fn position_line(&self, game: &Game) -> (String, bool) {
        let chess960 = game.is_chess960();
        let (style, mode) = match self.cfg.castling {
            EngineCastling::Auto if chess960 => (CastlingStyle::KingTakesRook, true),
            EngineCastling::Auto => (CastlingStyle::KingToSquare, false),
            EngineCastling::Kxr => (CastlingStyle::KingTakesRook, true),
            EngineCastling::Oo => (CastlingStyle::Arena, chess960),
            EngineCastling::King => (CastlingStyle::KingToSquare, chess960),
        };
        let fen = match self.cfg.fen {
            EngineFen::Shredder if chess960 => shredder_fen(game.start()),
            _ => xfen(game.start()),
        };
        let mut line = format!("position fen {fen}");
        if !game.moves().is_empty() {
            line.push_str(" moves");
            let mut pos = game.start().clone();
            for &m in game.moves() {
                line.push(' ');
                line.push_str(&uci_move_at(&pos, m, style));
                pos.play_unchecked(m);
            }
        }
        (line, mode)
    }

    /// The engine's castling notation in the current game.
    fn engine_style(&self, game: &Game) -> CastlingStyle {
        match self.cfg.castling {
            EngineCastling::Auto if game.is_chess960() => CastlingStyle::KingTakesRook,
            EngineCastling::Auto | EngineCastling::King => CastlingStyle::KingToSquare,
            EngineCastling::Kxr => CastlingStyle::KingTakesRook,
            EngineCastling::Oo => CastlingStyle::Arena,
        }
    }

    fn go(&mut self, g: &GoCommand) {
        let Some(game) = self.game.clone() else {
            let reason = self
                .positions
                .unreadable()
                .unwrap_or("no position")
                .to_owned();
            self.send_gui(&format!(
                "info string error: no position to search: {reason}"
            ));
            if g.perft.is_none() {
                // A `go` ends the searches before it, as any `go` does,
                // and is answered after them.
                self.end_searches_for_new_go();
                let ahead = self.searches.len() + self.null_answers.len();
                if ahead == 0 {
                    self.answer_readies_ahead(self.gui_lines);
                    self.send_gui(&output::bestmove(None, None));
                } else {
                    self.null_answers.push_back((ahead, self.gui_lines));
                    // With no engine, the searches ended above are answered now.
                    self.answer_without_engine();
                }
            }
            return;
        };
        // The line for the engine is made from what was read, as this
        // program's engine reads a `go`: a word that cannot be read is
        // named to the GUI, not sent (Stockfish stops reading a `go` at
        // `depth x` and searches with no limit; it reads `wtime 2e3` as 2
        // ms), and searchmoves are written in the engine's dialect.
        let root = game.position();
        let engine_style = self.engine_style(&game);
        let white = root.turn().is_white();
        let reading = g.reading(root);
        let searchmoves: Vec<String> = reading
            .searchmoves
            .iter()
            .map(|&m| uci_move_at(root, m, engine_style))
            .collect();
        for notice in &reading.notices {
            self.send_gui(&format!("info string error: {notice}"));
        }
        if let Some(depth) = g.perft {
            if self.backend.is_none() {
                self.send_gui("info string error: no engine is running: go perft not counted");
                return;
            }
            self.perft_asked = true;
            self.send_engine(&format!("go perft {depth}"));
            return;
        }
        let engine_go = engine_go_line(g, &reading, white, &searchmoves);
        // The front-end keeps the `go` as read, so that its deadline and
        // its own move follow what the engine is sent: a clock of 0 or less
        // (sent so, or one that cannot be read) means moving at once (the
        // engine's 1 ms clock), which the engine is given the margin to do,
        // as for `movetime 0`; 90% of it was no time at all.
        let mut read = g.clone();
        read.depth = reading.depth;
        if reading.time.is_some_and(|t| t <= 0) && g.movetime.is_none() {
            read.movetime = Some(0);
        }
        let g = &read;
        self.end_searches_for_new_go();
        // Taken off for the time the go waits, should the engine be restarting.
        let clock = running_field(g, root);
        let started = Instant::now();
        let style = self
            .positions
            .gui_style(self.gui_arena, self.gui_chess960, &game);
        let search = Search {
            deadline: deadline(g, root, started, self.margin()),
            game,
            style,
            go: g.clone(),
            started,
            given: self.backend.as_ref().is_some_and(|b| !b.holding()),
            engine_go: engine_go.clone(),
            hurried: false,
            asked: self.gui_lines,
        };
        self.searches.push_back(search);
        if let Some(b) = self.backend.as_mut() {
            b.send_go(&engine_go, clock, &self.log);
        } else {
            // Not started again: the GUI was told the front-end answers
            // every go itself (a pondering or infinite one when the GUI
            // ends it).
            self.answer_without_engine();
        }
    }

    /// A new `go` while searches are open: every go gets its own
    /// bestmove, so the running one is stopped (not an engine that
    /// answered it already: it is idle) and must answer within the margin.
    fn end_searches_for_new_go(&mut self) {
        if !self.searches.is_empty() {
            if self.engine_has_work() {
                self.send_stop();
            }
            self.hurry();
            self.end_open_searches();
        }
    }

    fn on_engine(&mut self, line: &str) {
        self.log.line("engine>", line);
        if line.starts_with("bestmove") || line == "readyok" {
            self.exits_in_a_row = 0;
        }
        if line.starts_with("Nodes searched") {
            self.perft_asked = false;
        }
        let searchy =
            line.starts_with("bestmove") || (line.starts_with("info") && !is_info_string(line));
        if searchy && self.unasked(line) {
            // The answer of an idle engine to a `stop` or `ponderhit`
            // ([`Asker::Fence`]): checked first, as a late answer owed
            // comes before the fence too, and this one would be taken for it.
            self.log.line("dropped", line);
            return;
        }
        if self.late_answers > 0 && (line.starts_with("bestmove") || line.starts_with("info")) {
            // Of a search already answered: its moves are not the GUI's now.
            if line.starts_with("bestmove") {
                self.late_answers -= 1;
                if self.late_answers == 0 {
                    self.late_deadline = None;
                    if let Some(b) = self.backend.as_mut() {
                        b.release(&self.log);
                    }
                    for s in &mut self.searches {
                        s.given = true;
                    }
                }
            }
            return;
        }
        if line.starts_with("bestmove") {
            self.on_bestmove(line);
        } else if line.starts_with("info") {
            match self.searches.front() {
                Some(s) => {
                    let translated = translate_info(line, s.game.position(), s.style);
                    self.send_gui(&translated);
                }
                // No search is open: its moves belong to no position the
                // GUI waits on (a search answered by the front-end, whose
                // go reached a restarted engine), and the GUI may already
                // have sent its next go, against which it would read them.
                // Only what the engine says in words is passed on.
                None if is_info_string(line) => self.send_gui(line),
                None => {}
            }
        } else if line == "readyok" {
            self.answers_isready = true;
            if let Some(b) = self.backend.as_mut().filter(|b| b.probe_unanswered) {
                // The answer to the probe after the first handshake, late:
                // no `isready` of the queue's.
                b.probe_unanswered = false;
                return;
            }
            if let Some(Ready {
                asker: Asker::Gui,
                answered: false,
                ..
            }) = self.readies.pop_front()
            {
                self.send_gui(line);
            }
        } else if line.starts_with("id ") || line.starts_with("option ") || line == "uciok" {
            // The handshake was read at start.
        } else if is_protocol_or_count(line) {
            self.send_gui(line);
        } else {
            // Words for a person ("Unknown command: 'foo'", a board the
            // engine draws): the GUI reads only UCI on the front-end's
            // output, so they go as `info string`, as the front-end's own.
            self.send_gui(&format!("info string {}", line.trim_end()));
        }
    }

    fn on_bestmove(&mut self, line: &str) {
        if self.front_is_open() {
            self.early_answer = Some(line.to_owned());
            return;
        }
        let Some(search) = self.searches.pop_front() else {
            if std::mem::take(&mut self.perft_asked) {
                self.send_gui(&format!(
                    "info string error: the engine has no 'go perft': it searched instead of counting ('{}')",
                    command::shorten(line)
                ));
            }
            return;
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let text = words.get(1).copied().unwrap_or("");
        let pos = search.game.position();
        match parse_uci_move(pos, text) {
            Ok(best) => {
                let mut after = pos.clone();
                after.play_unchecked(best);
                let ponder = match words.get(2..4) {
                    Some(["ponder", p]) => parse_uci_move(&after, p).ok(),
                    _ => None,
                };
                let best = uci_move(best, search.style);
                let ponder = ponder.map(|p| uci_move(p, search.style));
                self.answer_gui(&output::bestmove(Some(&best), ponder.as_deref()));
            }
            Err(_) if pos.legal_moves().is_empty() => {
                self.answer_gui(&output::bestmove(None, None));
            }
            Err(e) => {
                self.replace(
                    &search,
                    &format!(
                        "the engine's move '{}' cannot be played: {e}",
                        command::shorten(text)
                    ),
                );
                self.restart();
            }
        }
    }

    /// Answer every waiting `go` with our own move (a pondering or infinite
    /// one when the GUI ends it), then restart the engine.
    fn replace_all(&mut self, why: &str) {
        while let Some(search) = self.searches.pop_front() {
            if search.go.ponder || search.go.infinite {
                // Open until the GUI ends it (UCI has no answer before
                // `ponderhit` or `stop`, and a GUI takes an early one for
                // its next search's): the engine started next is given it,
                // or, with no engine, the front-end answers it then. An
                // answer the engine gave early is kept for that moment.
                self.searches.push_front(search);
                break;
            }
            self.early_answer = None;
            self.answer_readies_before(search.asked);
            self.replace(&search, why);
        }
        // Their gos, kept while a late answer was awaited, are answered
        // now: the engine started next must not search them, or its answer
        // to one would be read as the answer to the GUI's next search. The
        // open search's, the last, goes to it.
        let keep_last = self.open_search_is_held();
        if let Some(b) = self.backend.as_mut() {
            b.drop_kept_gos(keep_last);
        }
        self.restart();
    }

    /// Answer `search` with our own engine's move.
    fn replace(&mut self, search: &Search, why: &str) {
        let given = search
            .go
            .movetime
            .or(own_clock(&search.go, search.game.position()))
            .unwrap_or(1000)
            .max(0) as u64;
        let spent = search.started.elapsed().as_millis() as u64;
        let ms = (given.saturating_sub(spent) * FALLBACK_PER_MILLE / 1000)
            .clamp(FALLBACK_MIN_MS, FALLBACK_MAX_MS);
        // The GUI's searchmoves, read as its `go` was (those that could not
        // be read were named to the GUI then).
        let root = search.game.position();
        let searchmoves = search
            .go
            .searchmoves
            .iter()
            .filter_map(|m| parse_uci_move(root, m).ok())
            .collect();
        let (best, report) = self.own.quick_move(&search.game, ms, searchmoves);
        self.send_gui(&format!(
            "info string {why}; chess960 answers with its own move"
        ));
        if let Some(r) = report.filter(|r| !r.pv.is_empty()) {
            self.send_gui(&crate::uci::info_line(&r, search.style));
        }
        let best = best.map(|m| uci_move(m, search.style));
        self.answer_gui(&output::bestmove(best.as_deref(), None));
    }

    /// Replace the engine by a fresh process with the options the GUI set.
    /// Its handshake runs while the front-end goes on reading the GUI: what
    /// the GUI sends meanwhile is kept for the engine until its `uciok`,
    /// and the time limits of the `go`s run from their arrival, so a slow
    /// start is paid by the engine's time, not by the GUI's clock.
    fn restart(&mut self) {
        let shown = self.backend.as_ref().map(|b| b.shown().to_owned());
        let mut old = self.backend.take();
        if let Some(old) = old.as_mut() {
            old.kill();
        }
        if std::mem::take(&mut self.perft_asked) {
            // Its count went with it: a script waiting for `Nodes
            // searched` is told, not left waiting.
            self.send_gui("info string error: the engine ended during go perft: no count");
        }
        // The new engine answers none of the old one's searches.
        self.late_answers = 0;
        self.late_deadline = None;
        if self.quitting {
            return;
        }
        if self.exits_in_a_row >= MAX_EXITS_IN_A_ROW {
            let Some(shown) = shown else {
                // Given up on before, and said so then.
                return;
            };
            let names: Vec<&str> = self.set_options.iter().map(|(n, _)| n.as_str()).collect();
            self.no_engine(&StartError::ExitsInARow {
                command: shown,
                count: self.exits_in_a_row,
                options: if names.is_empty() {
                    "none".to_owned()
                } else {
                    names.join(", ")
                },
            });
            return;
        }
        self.generation += 1;
        match Backend::spawn(&self.cfg.command, self.generation, &self.tx, &self.log) {
            Ok(mut b) => {
                for (_, line) in &self.set_options {
                    b.send(line, &self.log);
                }
                self.backend = Some(b);
                // The killed engine took the gos it was given with it.
                self.give_lost_gos();
                let Some(b) = self.backend.as_mut() else {
                    return;
                };
                // What the GUI sent while a late answer was awaited (a
                // position and its go) goes to the new engine.
                if let Some(old) = old.as_mut() {
                    old.hand_held_to(b, &self.log);
                }
                for s in &mut self.searches {
                    s.given = true;
                }
                // The old engine took the GUI's isready with it: the new
                // one answers it once its handshake is done. The front-end's
                // own were the old engine's concern.
                // The GUI's wait is not extended (each keeps its deadline):
                // an engine restarted again and again never answered it.
                self.readies
                    .retain(|r| r.asker == Asker::Gui && !r.answered);
                for _ in 0..self.readies.len() {
                    b.send("isready", &self.log);
                }
                // The new engine is left in the GUI's latest position, as the
                // old one was, when what it was given ends elsewhere (no
                // search, or a GUI that sent `position` while one ran): a GUI
                // may send `go` alone after a `position`.
                if let Some(game) = self.game.clone() {
                    let (line, _) = self.position_line(&game);
                    let last = self.backend.as_ref().and_then(Backend::last_position);
                    if last != Some(line.as_str()) {
                        self.send_position(&game);
                    }
                }
            }
            Err(e) => self.no_engine(&e),
        }
    }

    /// The searches whose `go` the engine just killed had (written to it,
    /// or kept for its handshake), now that a new one is starting: each
    /// told to end is answered at once by the front-end; the one still
    /// running (the newest, if any: a later `go` ends the others) is given
    /// to the new engine, its position and its `go` with the time it has
    /// run taken off. Counted as given but never answered, such a search
    /// took the new engine's answer to the next one.
    fn give_lost_gos(&mut self) {
        if self.early_answer.is_some() {
            // The engine answered the open search already; it stays open
            // until the GUI ends it, and is given that answer then.
            return;
        }
        while let Some(search) = self.searches.front() {
            if !search.given {
                break;
            }
            if search.hurried {
                if let Some(search) = self.searches.pop_front() {
                    self.answer_readies_before(search.asked);
                    self.replace(&search, "the engine was restarted");
                }
                continue;
            }
            let game = search.game.clone();
            let go = if search.go.ponder {
                search.engine_go.clone()
            } else {
                // A `ponderhit` came: the search is a timed one now.
                let words = search.engine_go.split_whitespace();
                words
                    .filter(|w| *w != "ponder")
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let field = running_field(&search.go, game.position());
            let ran = u64::try_from(search.started.elapsed().as_millis()).unwrap_or(u64::MAX);
            let go = match field {
                Some(f) => backend::spend(&go, f, ran),
                None => go,
            };
            self.send_position(&game);
            if let Some(b) = self.backend.as_mut() {
                b.send_go(&go, field, &self.log);
            }
            break;
        }
    }

    /// The restarted engine did not complete its handshake (`what`): the
    /// front-end answers from now on, the `go`s waiting for the engine
    /// first.
    fn start_failed(&mut self, how: Failure) {
        if let Some(b) = self.backend.take() {
            let e = b.failed(how);
            self.no_engine(&e);
        }
    }

    fn no_engine(&mut self, e: &StartError) {
        self.send_gui(&format!(
            "info string error: {e}; chess960 answers every go itself"
        ));
        // What the engine given up on still writes, and its exit, are of
        // no engine now (its exit counted as another one, and restarted
        // it); nor is a late answer owed by it awaited.
        self.generation += 1;
        self.late_answers = 0;
        self.late_deadline = None;
        if std::mem::take(&mut self.perft_asked) {
            self.send_gui("info string error: the engine ended during go perft: no count");
        }
        while let Some(search) = self.searches.pop_front() {
            if search.go.infinite || search.go.ponder {
                // Answered at its stop, like any search with no engine.
                self.searches.push_front(search);
                break;
            }
            self.answer_readies_before(search.asked);
            self.replace(&search, "no engine is running");
        }
        self.answer_gui_readies();
    }

    /// The GUI is done (`quit`, or the end of its input): what it asked
    /// and has not been answered yet is answered first, then the engine is
    /// asked to quit, and what it writes until it exits (within
    /// [`QUIT_GRACE`]) still reaches the GUI.
    fn quit(&mut self) {
        self.quitting = true;
        self.answer_open();
        let Some(mut b) = self.backend.take() else {
            return;
        };
        b.send_quit(&self.log);
        let end = Instant::now() + QUIT_GRACE;
        self.read_engine_until(end, |_| false);
        b.exit_by(end);
    }

    /// Handle the current engine's lines as usual until `done`, its exit,
    /// or `end`; other events are dropped (the GUI has quit). `end` is
    /// checked before each event: an engine that writes without pause
    /// cannot hold the front-end past it.
    fn read_engine_until(&mut self, end: Instant, done: impl Fn(&Front) -> bool) {
        while !done(self) {
            let Some(left) = end.checked_duration_since(Instant::now()) else {
                return;
            };
            let event = match self.held.pop_front() {
                Some(e) => e,
                None => match self.rx.recv_timeout(left) {
                    Ok(e) => e,
                    Err(_) => return,
                },
            };
            match event {
                Event::Engine(g, line) if g == self.generation => self.on_engine(&line),
                Event::EngineGone(g) if g == self.generation => return,
                _ => {}
            }
        }
    }

    /// Every open search is stopped and every `isready` answered: by the
    /// engine within [`QUIT_ANSWER_GRACE`] (its lines handled as usual,
    /// `bestmove` translated), else by the front-end (`readyok`, then its
    /// own move, said in an `info string`, as an engine answers `isready`
    /// at once while it searches). GUI lines that come meanwhile are
    /// dropped, as after `quit`.
    fn answer_open(&mut self) {
        if !self.searches.is_empty() {
            if self.engine_has_work() {
                self.send_stop();
            }
            self.end_open_searches();
        }
        let running = self.backend.as_ref().is_some_and(|b| !b.in_handshake());
        // Read while something is open and the engine can still answer
        // it (none answers during its handshake or after it was killed).
        self.read_engine_until(Instant::now() + QUIT_ANSWER_GRACE, |f| {
            (f.searches.is_empty() && f.gui_readies() == 0)
                || f.backend.as_ref().is_none_or(Backend::in_handshake)
        });
        self.early_answer = None;
        self.answer_gui_readies();
        let why = match self.backend.as_ref() {
            _ if running => "the engine did not answer before quit",
            Some(_) => "the engine was still starting at quit",
            None => "no engine is running",
        };
        while let Some(search) = self.searches.pop_front() {
            self.replace(&search, why);
        }
    }
}

/// Turn the lines of `input` into events on `tx` (invalid UTF-8 replaced,
/// never fatal), then `gone` at its end; stops early when nobody listens.
pub fn pump(input: impl BufRead, tx: &Sender<Event>, line: impl Fn(String) -> Event, gone: Event) {
    crate::lines::each_line(input, |text| tx.send(line(text)).is_ok());
    let _ = tx.send(gone);
}

/// A command line as messages show it: on one line, a line break in an
/// argument written as `\n` (the GUI reads only UCI lines).
pub fn shown_command(command: &[String]) -> String {
    command.join(" ").replace('\r', "\\r").replace('\n', "\\n")
}
