//! The UCI engine: reads GUI commands, keeps the game and the options, and
//! runs searches through [`crate::engine::Engine`].
//!
//! Every line is parsed into a typed [`command::Command`] first; a line that
//! cannot be read, or a command that cannot be applied, is answered with
//! `info string error: ...` and changes nothing.

pub mod command;
pub mod options;
pub mod output;

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Move, Position};

use crate::engine::{
    self, Bound, Clock, Engine, Game, GoRequest, Outcome, Report, Reporter, Score, MAX_DEPTH,
    MAX_PERFT_DEPTH,
};
use crate::notation::{
    castle_word, inner_rook_readings, parse_fen_lenient, parse_uci_move, shredder_fen, uci_move,
    xfen, CastlingStyle,
};
use crate::startpos;
use command::{Command, GoCommand, PositionCommand, StartSpec};
use options::{Change, Options};
use output::Output;

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
position fen <FEN> [moves ...]   FEN, X-FEN (KQkq) or Shredder-FEN (HAha)
                                 castles as e1h1, e1g1 or O-O / O-O-O
go [wtime btime winc binc movestogo movetime depth nodes mate infinite ponder searchmoves ...]
go perft <depth>                 count leaf nodes per move (divide)
stop / ponderhit / quit
d                                show the board, FEN, Shredder-FEN and start number
eval                             static evaluation of the position
Castling moves are written king-takes-own-rook (e1h1) with UCI_Chess960 or a Chess960 start,
O-O / O-O-O with UCI_Chess960_Arena or once the GUI has sent a castle that way.";

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
    /// The GUI wrote a castle as `O-O` in this game: answer in its dialect
    /// (Arena sets no option for it). Until `ucinewgame`.
    arena_spoken: bool,
    /// The start `startpos960 random` drew in this game: GUIs send the
    /// whole line again with every move, so it is drawn once, until
    /// `ucinewgame`.
    drawn_960: Option<u32>,
    /// The same for `dfrc random`.
    drawn_dfrc: Option<u32>,
    /// Why the last `position` gave no position at all (its start could not
    /// be read): `go` then answers `bestmove 0000` instead of searching a
    /// position the GUI did not send.
    unreadable: Option<String>,
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
            arena_spoken: false,
            drawn_960: None,
            drawn_dfrc: None,
            unreadable: None,
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
        self.unreadable.as_deref()
    }

    /// How castles are written to the GUI: `O-O` when it asked for Arena's
    /// dialect or spoke it, king-takes-rook with `UCI_Chess960` or a Chess960
    /// game, the king's two-square move otherwise.
    fn castling_style(&self) -> CastlingStyle {
        if self.options.chess960_arena || self.arena_spoken {
            CastlingStyle::Arena
        } else if self.options.chess960 || self.game.is_chess960() {
            CastlingStyle::KingTakesRook
        } else {
            CastlingStyle::KingToSquare
        }
    }

    fn error(&self, msg: &str) {
        self.out
            .send(&format!("info string error: {}", cap_message(msg)));
    }

    /// Handle one line from the GUI.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.out.log_input(line);
        let parsed = match command::parse_line(line) {
            Ok(p) => p,
            Err(e) => {
                if command::command_word(line) == Some("position") {
                    self.no_position(&e.0);
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
                self.arena_spoken = false;
                self.drawn_960 = None;
                self.drawn_dfrc = None;
                self.unreadable = None;
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
                let e = engine::evaluate(self.game.position());
                self.out.send(&format!(
                    "info string eval {} cp (side to move; network, as the search uses it; hand-made terms: {} cp)",
                    e.total_cp, e.hand_made_cp
                ));
            }
        }
        Flow::Continue
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if self.engine.is_busy() {
            self.error(&format!(
                "option '{name}' not changed while searching; send stop first"
            ));
            return;
        }
        let change = match options::parse_change(name, value) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e);
                return;
            }
        };
        match &change {
            Change::Hash(mb) => {
                if let Err(e) = self.engine.set_hash(*mb) {
                    self.error(&e.to_string());
                    return;
                }
            }
            Change::ClearHash => self.engine.clear_hash(),
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

    /// A `position` whose start cannot be read: the GUI's position is
    /// unknown, so none is searched until the next valid one.
    fn no_position(&mut self, reason: &str) {
        self.error(&format!(
            "{reason}; no position until the next valid 'position' (go answers bestmove 0000)"
        ));
        self.unreadable = Some(reason.to_owned());
    }

    /// Apply a `position` command. The start is read first; the moves are
    /// played up to the first that cannot be read or is illegal, which is
    /// named: the game is then the GUI's own as far as it could be read (as
    /// Stockfish 15.1 keeps it), never a position from an earlier command.
    fn set_position(&mut self, p: &PositionCommand) {
        let mut game = match self.start_game(&p.start) {
            Ok(game) => game,
            Err(e) => return self.no_position(&e),
        };
        self.unreadable = None;
        if let Err((i, e)) = play_all(&mut game, &p.moves) {
            // A FEN whose K or Q some GUIs wrote for an inner rook: the
            // reading under which every move is legal is the GUI's game.
            let other = match &p.start {
                StartSpec::Fen(fen) => {
                    inner_rook_readings(fen).into_iter().find_map(|(alt, why)| {
                        let mut g = Game::new(parse_fen_lenient(&alt).ok()?.position, None);
                        play_all(&mut g, &p.moves).ok().map(|()| (g, why))
                    })
                }
                _ => None,
            };
            match other {
                Some((g, why)) => {
                    self.out.send(&format!(
                        "info string {why}, so that move {} '{}' is legal",
                        i + 1,
                        command::shorten(&p.moves[i])
                    ));
                    game = g;
                }
                None => self.error(&format!(
                    "move {} of the position command: {e}; the position is the one before it",
                    i + 1
                )),
            }
        }
        if p.moves[..game.moves().len()]
            .iter()
            .any(|m| castle_word(m).is_some())
        {
            self.arena_spoken = true;
        }
        self.game = game;
    }

    /// The game at the start a `position` command names.
    fn start_game(&mut self, start: &StartSpec) -> Result<Game, String> {
        Ok(match start {
            StartSpec::StartPos => Game::new(Chess::default(), Some(startpos::STANDARD)),
            StartSpec::Fen(fen) => {
                let read = parse_fen_lenient(fen).map_err(|e| e.to_string())?;
                if !read.dropped.is_empty() {
                    self.out.send(&format!(
                        "info string castling rights dropped from the FEN: {}",
                        cap_message(&read.dropped.join("; "))
                    ));
                }
                Game::new(read.position, None)
            }
            StartSpec::Start960(n) => {
                let pos = startpos::position(*n).map_err(|e| e.to_string())?;
                Game::new(pos, Some(*n))
            }
            StartSpec::Start960Random => {
                let n = match self.drawn_960 {
                    Some(n) => n,
                    None => {
                        let n = rand::Rng::gen_range(&mut self.rng, 0..startpos::COUNT);
                        let fen = startpos::position(n).map(|p| shredder_fen(&p));
                        self.out.send(&format!(
                            "info string startpos960 {n} fen {}",
                            fen.map_err(|e| e.to_string())?
                        ));
                        self.drawn_960 = Some(n);
                        n
                    }
                };
                Game::new(startpos::position(n).map_err(|e| e.to_string())?, Some(n))
            }
            StartSpec::Dfrc(n) => Game::new(
                startpos::dfrc_position(*n).map_err(|e| e.to_string())?,
                None,
            ),
            StartSpec::DfrcRandom => {
                let n = match self.drawn_dfrc {
                    Some(n) => n,
                    None => {
                        let n = rand::Rng::gen_range(&mut self.rng, 0..startpos::DFRC_COUNT);
                        let fen = startpos::dfrc_position(n).map(|p| shredder_fen(&p));
                        self.out.send(&format!(
                            "info string dfrc {n} fen {}",
                            fen.map_err(|e| e.to_string())?
                        ));
                        self.drawn_dfrc = Some(n);
                        n
                    }
                };
                Game::new(startpos::dfrc_position(n).map_err(|e| e.to_string())?, None)
            }
        })
    }

    fn go(&mut self, g: &GoCommand) {
        // A `go perft` the engine will not run is refused before the running
        // search is touched: a refused `go` changes nothing.
        if let Some(depth) = g.perft {
            if depth > MAX_PERFT_DEPTH {
                self.error(&format!(
                    "go perft {depth} refused: the maximum is {MAX_PERFT_DEPTH}"
                ));
                return;
            }
        }
        // A search `go` is never refused (the GUI waits for its bestmove):
        // what cannot be used is named and skipped, the rest is searched.
        let mut ignored: Vec<String> = g.ignored.iter().map(|w| format!("'{w}'")).collect();
        let pos = self.game.position().clone();
        let mut searchmoves = Vec::new();
        for m in &g.searchmoves {
            match parse_uci_move(&pos, m) {
                Ok(mv) => searchmoves.push(mv),
                Err(e) => ignored.push(format!("searchmoves {e}")),
            }
        }
        if !ignored.is_empty() {
            let rest = if g.perft.is_some() {
                "counting with the rest"
            } else {
                "searching with the rest"
            };
            self.error(&format!("go: ignored {}; {rest}", ignored.join(", ")));
        }
        // A new `go` while searching: finish the old search first (its
        // bestmove is sent), so every go gets exactly one bestmove.
        self.engine.stop();
        if let Some(reason) = &self.unreadable {
            self.error(&format!("no position to search: {reason}"));
            if g.perft.is_none() {
                self.out.send(&output::bestmove(None, None));
            }
            return;
        }
        if let Some(depth) = g.perft {
            self.go_perft(depth);
            return;
        }
        if let Some(d) = g.depth {
            if d > MAX_DEPTH {
                self.out.send(&format!(
                    "info string depth {d} is beyond the maximum, searching to depth {MAX_DEPTH}"
                ));
            }
        }
        let white = pos.turn().is_white();
        let request = GoRequest {
            clock: Clock {
                time: if white { g.wtime } else { g.btime },
                inc: if white { g.winc } else { g.binc },
                movestogo: g.movestogo,
                movetime: g.movetime,
            },
            depth: g.depth,
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
        if let Some(reason) = &self.unreadable {
            block.push(format!(
                "No position: the last 'position' could not be read ({reason}); this is the one before it"
            ));
        }
        block.push(format!("Fen: {}", xfen(pos)));
        block.push(format!("Shredder-FEN: {}", shredder_fen(pos)));
        let played = self.game.moves().len();
        block.push(match (self.game.start_number(), self.game.dfrc_number()) {
            // A Chess960 start is named by its Scharnagl number, as before
            // DFRC existed (its DFRC index is n + 960 * n).
            (Some(n), _) => format!("Start: Chess960 #{n} ({played} moves played)"),
            (None, Some(d)) => format!(
                "Start: DFRC #{d}, white #{} black #{} ({played} moves played)",
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

/// Play `moves` on `game` up to the first that cannot be read or is
/// illegal; that one's index and error.
fn play_all(game: &mut Game, moves: &[String]) -> Result<(), (usize, crate::notation::MoveError)> {
    for (i, m) in moves.iter().enumerate() {
        game.play_uci(m).map_err(|e| (i, e))?;
    }
    Ok(())
}

/// Longest message text sent in an `info string` about the input.
pub const MAX_MESSAGE_CHARS: usize = 300;

/// Cut a message that echoes input (a 1 MB FEN field, an option name made
/// of thousands of words) so the GUI gets one line of bounded length; the
/// culprit is named near the start, so the head is what matters.
fn cap_message(msg: &str) -> String {
    match msg.char_indices().nth(MAX_MESSAGE_CHARS) {
        None => msg.to_owned(),
        Some((cut, _)) => format!("{}...", &msg[..cut]),
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
    // End of input is a quit: stop any search, print its bestmove, exit.
    session.handle_line("quit");
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
