//! The UCI engine: reads GUI commands, keeps the game and the options, and
//! runs searches through [`crate::engine::Engine`].
//!
//! Every line is parsed into a typed [`command::Command`] first; a line that
//! cannot be read, or a command that cannot be applied, is answered with
//! `info string error: ...` and changes nothing.

pub mod command;
pub mod options;
pub mod output;
pub mod position;

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::{Move, Position};

use crate::engine::{
    self, Bound, Clock, Engine, Game, GoRequest, Outcome, Report, Reporter, Score, MAX_DEPTH,
    MAX_PERFT_DEPTH,
};
use crate::notation::{shredder_fen, uci_move, xfen, CastlingStyle};
use crate::startpos;
use command::{Command, GoCommand, PositionCommand};
use options::{Change, Options};
use output::Output;
use position::Positions;

/// Engine name sent on `uci`.
pub const NAME: &str = concat!(
    "chess960 ",
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("CHESS960_COMMIT"),
    ")"
);
/// Author sent on `uci`.
pub const AUTHOR: &str = "the chess960 developers";
/// The first line written, for a person who started the engine in a
/// terminal (GUIs ignore it, as they ignore Stockfish's).
pub fn banner() -> String {
    format!("{NAME} by {AUTHOR}; type 'help' for the commands")
}

/// The answer to `help`, sent as `info string` lines.
pub const HELP: &str = "\
chess960 speaks UCI; the commands a GUI sends, plus a few for people:
uci                              identify and list the options
setoption name <id> [value <x>]  e.g. setoption name UCI_Chess960 value true
isready                          answered readyok
ucinewgame                       forget the game and clear the hash
position startpos [moves ...]    the classical start
position startpos960 <n>|random [moves ...]  Chess960 start 0..959 (518 = classical);
                                 random draws once per game (until ucinewgame)
position frc <n> [moves ...]     the same as startpos960 <n>
position dfrc <n>|random [moves ...]  Double Fischer Random: n = white + 960 * black
                                 (497798 = classical)
position fen <FEN> [moves ...]   FEN, X-FEN (KQkq) or Shredder-FEN (HAha)
                                 castles as e1h1, e1g1 or O-O / O-O-O
go [wtime btime winc binc movestogo movetime depth nodes mate infinite ponder searchmoves ...]
go perft <depth>                 count leaf nodes per move (divide)
stop / ponderhit / quit
d                                show the board, FEN, Shredder-FEN and start number
eval                             static evaluation of the position
Castling moves are written king-takes-own-rook (e1h1) with UCI_Chess960 or a Chess960 start,
O-O / O-O-O with UCI_Chess960_Arena in a Chess960 game or once the GUI has sent a castle that way.";

/// The UCI side for people, in `chess960 uci --help` and its man page:
/// the commands of [`HELP`] and every option of [`options::TABLE`], from
/// the same declarations the engine uses, so they cannot drift.
pub fn manual() -> String {
    let mut text = String::from(HELP);
    text.push_str("\n\nOptions (setoption name <id> value <x>):");
    for line in options::described() {
        text.push_str("\n  ");
        text.push_str(&line);
    }
    text
}

/// Whether the session goes on after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was received.
    Quit,
}

/// One UCI session: the state between lines.
pub struct Session {
    out: Arc<Output>,
    engine: Engine,
    game: Game,
    options: Options,
    debug: bool,
    rng: ChaCha8Rng,
    /// What lasts between the `position` commands of a game (random
    /// draws, the GUI's castling dialect, no position at all).
    positions: Positions,
}

impl Session {
    /// A session writing to `out`.
    pub fn new(out: Arc<Output>) -> Session {
        let options = Options::default();
        Session {
            out,
            engine: Engine::new(options.hash_mb),
            game: Game::default(),
            options,
            debug: false,
            rng: ChaCha8Rng::from_entropy(),
            positions: Positions::default(),
        }
    }

    /// The current game (for tests).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current option values (for tests: a refused `setoption` must
    /// leave them unchanged).
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Why the last `position` gave no position, if it did not (for tests).
    pub fn unreadable(&self) -> Option<&str> {
        self.positions.unreadable()
    }

    /// How castles are written to the GUI ([`Positions::gui_style`]).
    fn castling_style(&self) -> CastlingStyle {
        self.positions.gui_style(
            self.options.chess960_arena,
            self.options.chess960,
            &self.game,
        )
    }

    fn error(&self, msg: &str) {
        self.out
            .send(&format!("info string error: {}", cap_message(msg)));
    }

    /// Handle one line from the GUI.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.out.log_input(line);
        self.handle(line)
    }

    /// End of input is a quit: any search is stopped and its bestmove
    /// printed. The debug log says the input ended, not that `quit` came.
    pub fn end_of_input(&mut self) {
        self.out.log_end_of_input();
        self.handle("quit");
    }

    /// Obey one line, already logged.
    fn handle(&mut self, line: &str) -> Flow {
        let parsed = match command::parse_line(line) {
            Ok(p) => p,
            Err(e) => {
                if command::command_word(line) == Some("position") {
                    let refusal = self.positions.refuse(&cap_message(&e.0));
                    self.out.send(&refusal);
                } else {
                    self.error(&e.0);
                }
                return Flow::Continue;
            }
        };
        if !parsed.skipped.is_empty() {
            self.out.send(&format!(
                "info string ignored unknown token(s) before the command: {}",
                cap_message(&parsed.skipped.join(" "))
            ));
        }
        if !parsed.trailing.is_empty() {
            self.out.send(&format!(
                "info string ignored unexpected token(s) after the command: {}",
                cap_message(&parsed.trailing.join(" "))
            ));
        }
        let Some(cmd) = parsed.command else {
            return Flow::Continue;
        };
        match cmd {
            Command::Uci => {
                let mut block: Vec<String> = output::id_lines(NAME, AUTHOR).into();
                block.extend(options::declarations());
                block.push(output::uciok());
                self.out.send_lines(&block);
            }
            Command::IsReady => self.out.send(&output::readyok()),
            Command::Debug(on) => self.debug = on,
            Command::Register => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.engine.stop();
                self.engine.clear_hash();
                self.game = Game::default();
                self.positions.new_game();
            }
            Command::Position(p) => self.set_position(&p),
            Command::Go(g) => self.go(&g),
            Command::Stop => self.engine.stop(),
            Command::PonderHit => self.engine.ponderhit(),
            Command::Quit => {
                // A running `go perft` finishes and prints its count first,
                // as Stockfish does; a search is stopped (its bestmove is
                // still sent).
                self.engine.finish_perft_or_stop();
                return Flow::Quit;
            }
            Command::Help => self.out.info_string(HELP),
            Command::Display => self.display(),
            Command::Eval => {
                // As `go`: after a refused `position` there is no position,
                // and the one before it is not the GUI's.
                if let Some(reason) = self.positions.unreadable() {
                    self.error(&format!("no position to evaluate: {reason}"));
                    return Flow::Continue;
                }
                let e = engine::evaluate(self.game.position());
                self.out.send(&format!(
                    "info string eval {} cp (side to move; network, as the search uses it; hand-made terms: {} cp)",
                    e.total_cp, e.hand_made_cp
                ));
            }
        }
        Flow::Continue
    }

    /// Apply a `setoption`. While a search (or `go perft`) runs, the
    /// options it reads at its start are stored for the next one, as
    /// Stockfish does (some GUIs send MultiPV to a running analysis); only
    /// the table the search is using cannot change under it.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match options::parse_change(name, value) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e);
                return;
            }
        };
        #[cfg(feature = "tune")]
        let tunable = matches!(change, Change::SearchParam(..));
        #[cfg(not(feature = "tune"))]
        let tunable = false;
        let in_use = matches!(change, Change::Hash(_) | Change::ClearHash) || tunable;
        if in_use && self.engine.is_busy() {
            self.error(&format!(
                "option '{}' not changed while searching; send stop first",
                name.trim()
            ));
            return;
        }
        match &change {
            Change::Hash(mb) => {
                if let Err(e) = self.engine.set_hash(*mb) {
                    self.error(&e.to_string());
                    return;
                }
            }
            Change::ClearHash => self.engine.clear_hash(),
            #[cfg(feature = "tune")]
            Change::SearchParam(name, value) => {
                if let Err(e) = self.engine.set_search_param(name, *value) {
                    self.error(&e);
                    return;
                }
            }
            Change::DebugLogFile(path) => {
                if let Err(e) = self.out.set_log_file(path) {
                    self.error(&format!("cannot open debug log file '{path}': {e}"));
                    return;
                }
            }
            _ => {}
        }
        self.options.apply(&change);
    }

    /// Apply a `position` command (see [`Positions::apply`]); when its start
    /// cannot be read the previous game stays for `d`, but nothing is
    /// searched.
    fn set_position(&mut self, p: &PositionCommand) {
        let applied = self.positions.apply(p, &mut self.rng);
        for line in &applied.lines {
            self.out.send(&cap_line(line));
        }
        if let Some(game) = applied.game {
            self.game = game;
        }
    }

    fn go(&mut self, g: &GoCommand) {
        // A `go perft` the engine will not run is refused before the running
        // search is touched: a refused `go` changes nothing.
        if let Some(depth) = g.perft {
            if depth > MAX_PERFT_DEPTH {
                self.error(&format!(
                    "go perft {} refused: the maximum is {MAX_PERFT_DEPTH}",
                    or_more(depth)
                ));
                return;
            }
        }
        // A new `go` while searching: finish the old search first (its
        // bestmove is sent), so every go gets exactly one bestmove. A
        // running `go perft` is ended ("perft stopped"), not waited for:
        // waiting would hold up the input, and `isready` is answered at
        // once while a count runs (a deep count takes minutes).
        self.engine.stop();
        // With no position, that is the one thing to say: what the `go`
        // asks is not read against a position that is not the GUI's.
        if let Some(reason) = self.positions.unreadable() {
            self.error(&format!("no position to search: {reason}"));
            if g.perft.is_none() {
                self.out.send(&output::bestmove(None, None));
            }
            return;
        }
        // A search `go` is never refused (the GUI waits for its bestmove):
        // what cannot be used is named and skipped, the rest is searched.
        let pos = self.game.position().clone();
        let white = pos.turn().is_white();
        let reading = g.reading(&pos);
        for notice in &reading.notices {
            self.error(notice);
        }
        let (time, depth, searchmoves) = (reading.time, reading.depth, reading.searchmoves);
        if let Some(depth) = g.perft {
            self.go_perft(depth);
            return;
        }
        if let Some(d) = depth {
            if d > MAX_DEPTH {
                self.out.send(&format!(
                    "info string depth {} is beyond the maximum, searching to depth {MAX_DEPTH}",
                    or_more(d)
                ));
            }
        }
        let request = GoRequest {
            clock: Clock {
                time,
                inc: if white { g.winc } else { g.binc },
                movestogo: g.movestogo,
                movetime: g.movetime,
            },
            depth,
            nodes: g.nodes,
            mate: g.mate,
            infinite: g.infinite,
            ponder: g.ponder,
            searchmoves,
            multipv: self.options.multipv,
            threads: self.options.threads,
            move_overhead_ms: self.options.move_overhead,
            limit_elo: self.options.limit_strength.then_some(self.options.elo),
        };
        let style = self.castling_style();
        let reporter = Box::new(UciReporter {
            out: Arc::clone(&self.out),
            style,
        });
        let out = Arc::clone(&self.out);
        let on_done = Box::new(move |o: Outcome| {
            let best = o.best.map(|m| uci_move(m, style));
            let ponder = o.ponder.map(|m| uci_move(m, style));
            out.send(&output::bestmove(best.as_deref(), ponder.as_deref()));
        });
        self.engine.go(&self.game, request, reporter, on_done);
    }

    /// `depth` is at most [`MAX_PERFT_DEPTH`] (checked by [`Self::go`]).
    fn go_perft(&mut self, depth: u32) {
        let style = self.castling_style();
        let out = Arc::clone(&self.out);
        // The GUI's `Threads` and `Hash` size the count as they size the
        // search. The counting runs off the input thread (isready stays
        // answered); the lines are written only once it is complete, so
        // `stop` leaves no partial divide on stdout.
        self.engine.perft(
            self.game.position(),
            depth,
            self.options.threads,
            self.options.hash_mb,
            move |counts| {
                let Some(counts) = counts else {
                    out.send("info string perft stopped");
                    return;
                };
                let mut lines: Vec<(String, u64)> = counts
                    .into_iter()
                    .map(|(m, n)| (uci_move(m, style), n))
                    .collect();
                lines.sort();
                let total: u64 = if depth == 0 {
                    1
                } else {
                    lines.iter().map(|(_, n)| n).sum()
                };
                // One block: an answer to a command sent meanwhile cannot
                // split the divide.
                let mut block: Vec<String> = lines
                    .into_iter()
                    .map(|(m, n)| format!("{m}: {n}"))
                    .collect();
                block.push(String::new());
                block.push(format!("Nodes searched: {total}"));
                block.push(String::new());
                out.send_lines(&block);
            },
        );
    }

    fn display(&self) {
        let pos = self.game.position();
        let mut block: Vec<String> = crate::notation::diagram(pos.board())
            .lines()
            .map(str::to_owned)
            .collect();
        if let Some(reason) = self.positions.unreadable() {
            block.push(format!(
                "No position: the last 'position' could not be read ({reason}); this is the one before it"
            ));
        }
        block.push(format!("Fen: {}", xfen(pos)));
        block.push(format!("Shredder-FEN: {}", shredder_fen(pos)));
        let played = match self.game.moves().len() {
            1 => "1 move played".to_owned(),
            n => format!("{n} moves played"),
        };
        block.push(match (self.game.start_number(), self.game.dfrc_number()) {
            // A Chess960 start is named by its Scharnagl number, as before
            // DFRC existed (its DFRC index is n + 960 * n).
            (Some(n), _) => format!("Start: Chess960 #{n} ({played})"),
            (None, Some(d)) => format!(
                "Start: DFRC #{d}, white #{} black #{} ({played})",
                d % startpos::COUNT,
                d / startpos::COUNT
            ),
            _ => "Start: FEN (not a Chess960 or DFRC start position)".to_owned(),
        });
        let key = pos
            .zobrist_hash::<shakmaty::zobrist::Zobrist64>(shakmaty::EnPassantMode::Legal)
            .0;
        block.push(format!("Key: {key:016X}"));
        let checkers: Vec<String> = pos.checkers().into_iter().map(|s| s.to_string()).collect();
        block.push(format!("Checkers: {}", checkers.join(" ")));
        self.out.send_lines(&block);
    }
}

/// Longest message text sent in an `info string` about the input.
pub const MAX_MESSAGE_CHARS: usize = 300;

/// A `go` count as the GUI may have sent it: the type's largest stands for
/// every number beyond it too (`go depth 99999999999` is read so), which
/// a message names as such rather than as a number the GUI never sent.
fn or_more(n: u32) -> String {
    if n == u32::MAX {
        format!("{n} or more")
    } else {
        n.to_string()
    }
}

/// Cut a message that echoes input (a 1 MB FEN field, an option name made
/// of thousands of words) so the GUI gets one line of bounded length; the
/// culprit is named near the start, so the head is what matters.
fn cap_message(msg: &str) -> String {
    match msg.char_indices().nth(MAX_MESSAGE_CHARS) {
        None => msg.to_owned(),
        Some((cut, _)) => format!("{}...", &msg[..cut]),
    }
}

/// An `info string` line whose text echoes input, cut as [`cap_message`]
/// cuts it.
fn cap_line(line: &str) -> String {
    match line.strip_prefix("info string ") {
        Some(text) => format!("info string {}", cap_message(text)),
        None => line.to_owned(),
    }
}

/// Formats search reports as `info` lines.
struct UciReporter {
    out: Arc<Output>,
    style: CastlingStyle,
}

impl Reporter for UciReporter {
    fn report(&mut self, r: &Report) {
        self.out.send(&info_line(r, self.style));
    }
}

/// The `info` line of a report, castles of the pv written in `style`.
pub fn info_line(r: &Report, style: CastlingStyle) -> String {
    let ms = r.time.as_millis() as u64;
    let nps = (r.nodes * 1000).checked_div(ms).unwrap_or(r.nodes * 1000);
    let score = match r.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let bound = match r.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let pv: Vec<String> = r.pv.iter().map(|&m: &Move| uci_move(m, style)).collect();
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {score}{bound} nodes {} nps {nps} hashfull {} time {ms}",
        r.depth, r.seldepth, r.multipv, r.nodes, r.hashfull
    );
    if !pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&pv.join(" "));
    }
    line
}

/// Read one line of raw bytes; invalid UTF-8 is replaced, not fatal.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<String>> {
    buf.clear();
    if input.read_until(b'\n', buf)? == 0 {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(buf).into_owned()))
}

/// Run a session over any reader and writer until `quit` or end of input.
///
/// # Errors
/// Only when reading the input fails.
pub fn run(input: &mut impl BufRead, out: Box<dyn Write + Send>) -> io::Result<()> {
    let out = Arc::new(Output::new(out));
    out.send(&banner());
    let mut session = Session::new(out);
    let mut buf = Vec::new();
    while let Some(line) = read_line(input, &mut buf)? {
        if session.handle_line(&line) == Flow::Quit {
            return Ok(());
        }
    }
    session.end_of_input();
    Ok(())
}

/// Speak UCI on stdin/stdout until `quit` or end of input.
///
/// # Errors
/// Only when stdin cannot be read.
pub fn run_stdio() -> io::Result<()> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    run(&mut input, Box::new(io::stdout()))
}
