//! The engine behind the front-end: a child process whose output lines
//! arrive as events on the front-end's one channel, tagged with the
//! generation of the process, so that a line of a process already replaced
//! is recognised and dropped.

use std::io::{self, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use super::{pump, Event, Log};

/// How long the `uci` handshake of the engine may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Options the front-end offers itself, whatever the engine declares.
pub const OWN_OPTIONS: [&str; 2] = ["UCI_Chess960", "UCI_Chess960_Arena"];

/// The line that sets the engine's `UCI_Chess960`, before its value.
const SET_CHESS960: &str = "setoption name UCI_Chess960 value ";

/// Why the engine could not be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The program could not be run.
    #[error("cannot start engine '{command}': {reason}")]
    Spawn {
        /// The command as given.
        command: String,
        /// The operating system's reason.
        reason: String,
    },
    /// It exited again and again, each time before it answered anything:
    /// it dies on something the GUI set (Debian's Ethereal 12 on
    /// `SyzygyPath`, which XBoard sets by default), and starting it again
    /// with the same options would not end.
    #[error("engine '{command}' exited {count} times in a row before answering anything (the options the GUI set, replayed at each start: {options})")]
    ExitsInARow {
        /// The command as given.
        command: String,
        /// Exits in a row.
        count: u32,
        /// The names of the options replayed, or "none".
        options: String,
    },
    /// It ran but did not complete the `uci` handshake.
    #[error("engine '{command}' did not answer 'uci' with 'uciok': {what}")]
    Handshake {
        /// The command as given.
        command: String,
        /// What happened instead: its exit (and when) or the limit, and
        /// what it wrote.
        what: String,
    },
}

/// How long the first engine is given to answer the `isready` sent after
/// its handshake (a few milliseconds as a rule; an engine that never
/// answers costs this once, at start).
pub const ISREADY_PROBE: Duration = Duration::from_secs(1);

/// A line kept for the engine until its `uciok`.
struct Kept {
    line: String,
    /// When it was kept.
    at: Instant,
    /// For a `go`: the field whose time ran while it waited (`wtime`,
    /// `btime` or `movetime`).
    clock: Option<&'static str>,
}

impl Kept {
    /// A `go` that starts a search: a `go perft` is a count, no search.
    fn is_search_go(&self) -> bool {
        self.line.starts_with("go") && !self.line.starts_with("go perft")
    }
}

/// A running engine and what its handshake declared.
pub struct Backend {
    child: Child,
    stdin: ChildStdin,
    /// Which process this is (events carry it).
    pub generation: u64,
    /// `id name`, if sent.
    pub name: Option<String>,
    /// `id author`, if sent.
    pub author: Option<String>,
    /// Its `option` lines, but for the ones the front-end offers itself.
    pub options: Vec<String>,
    /// Whether it declares `UCI_Chess960`.
    pub declares_chess960: bool,
    /// The `UCI_Chess960` value last sent to it (`None`: never).
    pub chess960_sent: Option<bool>,
    /// Whether it answered the `isready` sent after its first handshake
    /// (see [`ISREADY_PROBE`]).
    pub answers_isready: bool,
    /// Whether that `isready` is still unanswered: its `readyok`, when it
    /// comes, answers none of the front-end's queue.
    pub probe_unanswered: bool,
    /// The command as given, for messages.
    shown: String,
    /// Lines for the engine kept until its `uciok` (`None` after it).
    waiting: Option<Vec<Kept>>,
    /// Lines kept while a late `bestmove` is awaited (see [`Backend::hold`]).
    held: Option<Vec<Kept>>,
    /// The last `position` line sent (or kept to be sent).
    last_position: Option<String>,
    /// What the engine was set to when the hold began (`UCI_Chess960`, the
    /// position): what the kept lines were written to follow.
    held_from: (Option<bool>, Option<String>),
    /// When the handshake fails for want of `uciok`.
    handshake_deadline: Instant,
    /// When the process was started.
    started: Instant,
    /// The lines it wrote before `uciok`, and the last of them (for the
    /// message when none comes: a program that echoes `uci` is no engine).
    handshake_seen: (usize, Option<String>),
}

/// How a handshake failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The engine exited (closed its output).
    Exited,
    /// No `uciok` within [`HANDSHAKE_TIMEOUT`].
    TimedOut,
}

impl Backend {
    /// Start `command` (program and arguments) and complete the `uci`
    /// handshake. Events of other sources that arrive meanwhile (GUI lines)
    /// are kept in `held`, in order, for the caller.
    ///
    /// # Errors
    /// A [`StartError`] naming the command.
    pub fn start(
        command: &[String],
        generation: u64,
        tx: &Sender<Event>,
        rx: &Receiver<Event>,
        held: &mut Vec<Event>,
        log: &Log,
    ) -> Result<Backend, StartError> {
        let mut backend = Backend::spawn(command, generation, tx, log)?;
        loop {
            let left = backend.handshake_left();
            // Checked before each line: an engine that writes without
            // pause cannot hold the limit off.
            if left.is_zero() {
                return Err(backend.failed(Failure::TimedOut));
            }
            match rx.recv_timeout(left) {
                Ok(Event::Engine(g, line)) if g == generation => {
                    log.line("engine>", &line);
                    if backend.handshake_line(&line, log) {
                        backend.probe_isready(rx, held, log);
                        return Ok(backend);
                    }
                }
                Ok(Event::EngineGone(g)) if g == generation => {
                    return Err(backend.failed(Failure::Exited));
                }
                // A line of an engine already replaced: dropped.
                Ok(Event::Engine(..) | Event::EngineGone(_)) => {}
                Ok(other) => held.push(other),
                Err(RecvTimeoutError::Timeout) => return Err(backend.failed(Failure::TimedOut)),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(backend.failed(Failure::Exited));
                }
            }
        }
    }

    /// Send `isready` and wait up to [`ISREADY_PROBE`] for its `readyok`:
    /// whether this program answers it (some never do), which decides
    /// whether the front-end may fence a `stop` with an `isready` of its
    /// own. Asked once, before the GUI is read: a restart is the same
    /// program, and later the answer could come after the GUI's first
    /// `stop`. What else comes meanwhile is kept for the caller.
    fn probe_isready(&mut self, rx: &Receiver<Event>, held: &mut Vec<Event>, log: &Log) {
        self.write("isready", log);
        self.probe_unanswered = true;
        let end = Instant::now() + ISREADY_PROBE;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match rx.recv_timeout(left) {
                Ok(Event::Engine(g, line)) if g == self.generation => {
                    log.line("engine>", &line);
                    if line == "readyok" {
                        self.answers_isready = true;
                        self.probe_unanswered = false;
                        return;
                    }
                }
                Ok(other @ Event::EngineGone(_)) => {
                    held.push(other);
                    return;
                }
                Ok(Event::Engine(..)) => {}
                Ok(other) => held.push(other),
                Err(_) => return,
            }
        }
    }

    /// Start `command` and send it `uci`, without waiting for the answer:
    /// the handshake lines arrive as events, for [`Backend::handshake_line`].
    /// Until `uciok`, lines sent to the engine are kept and sent after it, so
    /// a restarted engine never holds up the GUI: the front-end goes on
    /// reading the GUI, and the time limits of its `go`s run meanwhile.
    ///
    /// # Errors
    /// [`StartError::Spawn`] when the program cannot be run.
    pub fn spawn(
        command: &[String],
        generation: u64,
        tx: &Sender<Event>,
        log: &Log,
    ) -> Result<Backend, StartError> {
        let shown = super::shown_command(command);
        let spawn_error = |reason: String| StartError::Spawn {
            command: shown.clone(),
            reason,
        };
        let (program, args) = command
            .split_first()
            .ok_or_else(|| spawn_error("no program given".into()))?;
        let mut engine = Command::new(program);
        engine
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        // A process group of its own, killed whole (see `kill`): an engine
        // started through a shell (`sh -c '...'`) or a launcher leaves no
        // process behind when it is restarted or given up on. The group is
        // that of a session of its own, with no controlling terminal: a
        // group of the front-end's session that is not in the foreground
        // is stopped when it writes to the terminal under `stty tostop`
        // (an engine's words on stderr), and the engine with it.
        #[cfg(unix)]
        // SAFETY: the closure runs in the child between fork and exec, and
        // calls only setsid(2), which is async-signal-safe and touches no
        // memory shared with the parent.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut engine, || {
                if libc::setsid() == -1 {
                    Err(io::Error::last_os_error())
                } else {
                    Ok(())
                }
            });
        }
        let mut child = engine.spawn().map_err(|e| spawn_error(e.to_string()))?;
        // Recorded for a signal that ends the front-end, unless one has
        // begun to: then this engine, started after it, is killed at once.
        let group = group_of(&child);
        let recorded = ENGINE_GROUP.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |g| {
            (g != ENDING).then_some(group)
        });
        if recorded.is_err() {
            kill_group(group, KILL);
            let _ = child.wait();
            return Err(spawn_error("the front-end is ending".into()));
        }
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(spawn_error("no pipes".into()));
        };
        let events = tx.clone();
        std::thread::spawn(move || {
            pump(
                BufReader::new(stdout),
                &events,
                move |line| Event::Engine(generation, line),
                Event::EngineGone(generation),
            );
        });
        let mut backend = Backend {
            child,
            stdin,
            shown,
            generation,
            name: None,
            author: None,
            options: Vec::new(),
            declares_chess960: false,
            answers_isready: false,
            probe_unanswered: false,
            chess960_sent: None,
            waiting: Some(Vec::new()),
            held: None,
            last_position: None,
            held_from: (None, None),
            handshake_deadline: Instant::now() + HANDSHAKE_TIMEOUT,
            started: Instant::now(),
            handshake_seen: (0, None),
        };
        backend.write("uci", log);
        Ok(backend)
    }

    /// Whether the engine has not sent `uciok` yet.
    pub fn in_handshake(&self) -> bool {
        self.waiting.is_some()
    }

    /// When the handshake fails for want of `uciok` (while in it).
    pub fn handshake_deadline(&self) -> Option<Instant> {
        self.in_handshake().then_some(self.handshake_deadline)
    }

    fn handshake_left(&self) -> Duration {
        self.handshake_deadline
            .saturating_duration_since(Instant::now())
    }

    /// Read one line of the handshake; at `uciok`, send the lines kept
    /// meanwhile and return `true`.
    pub fn handshake_line(&mut self, line: &str, log: &Log) -> bool {
        if line != "uciok" {
            self.handshake_seen.0 += 1;
            self.handshake_seen.1 = Some(crate::uci::command::shorten(line));
            self.declare(line);
            return false;
        }
        let kept = self.waiting.take().unwrap_or_default();
        self.write_kept(kept, log);
        true
    }

    /// Send lines kept, each `go` with the time it waited taken off.
    fn write_kept(&mut self, kept: Vec<Kept>, log: &Log) {
        for kept in kept {
            // UCI_Chess960 was kept before it was known to be declared.
            let chess960 = kept.line.starts_with(SET_CHESS960);
            if chess960 && !self.declares_chess960 {
                continue;
            }
            let line = match kept.clock {
                Some(field) => {
                    let waited = u64::try_from(kept.at.elapsed().as_millis()).unwrap_or(u64::MAX);
                    spend(&kept.line, field, waited)
                }
                None => kept.line,
            };
            self.write(&line, log);
        }
    }

    /// Keep the lines sent from now on until [`Backend::release`]: the
    /// engine was told to stop a search already answered, and its
    /// `bestmove` must come before it is given another `go`, or no answer
    /// could be told from the next.
    pub fn hold(&mut self) {
        if self.held.is_none() {
            self.held = Some(Vec::new());
            self.held_from = (self.chess960_sent, self.last_position.clone());
        }
    }

    /// The last `position` line sent (or kept to be sent).
    pub fn last_position(&self) -> Option<&str> {
        self.last_position.as_deref()
    }

    /// Whether lines are kept by [`Backend::hold`].
    pub fn holding(&self) -> bool {
        self.held.is_some()
    }

    /// Drop the `go`s kept for the engine, by [`Backend::hold`] or, while
    /// no hold runs, for its handshake: their searches were answered by the
    /// front-end; with `keep_last`, but for the last, an open search's that
    /// is still the engine's to answer. A `stop` or `ponderhit` left with
    /// no kept `go` before it goes too: it ended one of those searches, and
    /// sent to an idle engine with no fence after it (none is sent past a
    /// hold or a handshake), some engines answer it with a `bestmove` that
    /// would be read as the answer to the next search.
    pub fn drop_kept_gos(&mut self, keep_last: bool) {
        let Some(kept) = self.held.as_mut().or(self.waiting.as_mut()) else {
            return;
        };
        let is_go = Kept::is_search_go;
        let last = if keep_last {
            kept.iter().rposition(is_go)
        } else {
            None
        };
        let mut i = 0;
        // A `go perft` is no search: its count is the engine's to give.
        kept.retain(|k| {
            let keep = !is_go(k) || Some(i) == last;
            i += 1;
            keep
        });
        // A `go perft` is no search a `stop` ends (one sent during a
        // count is never passed on): every `stop` kept is a search's.
        let mut after_go = false;
        kept.retain(|k| {
            if is_go(k) {
                after_go = true;
            }
            after_go || (k.line != "stop" && k.line != "ponderhit")
        });
    }

    /// The GUI's `ponderhit` for a `go ponder` still kept (for the
    /// handshake or a hold): the search's clock runs from now, so the time
    /// until the `go` goes out is taken off `field` of it, as for any kept
    /// `go` (it went out with the clock the GUI had given at `go ponder`).
    pub fn ponderhit_kept(&mut self, field: Option<&'static str>) {
        let Some(field) = field else {
            return;
        };
        // Lines kept for the handshake came before those of a hold begun
        // during it: the last `go` is the hold's, if it has one.
        let kept = self
            .waiting
            .iter_mut()
            .chain(self.held.iter_mut())
            .flatten();
        let last_go = kept.filter(|k| k.is_search_go()).last();
        if let Some(k) = last_go {
            if k.clock.is_none() && k.line.split_whitespace().any(|w| w == "ponder") {
                k.clock = Some(field);
                k.at = Instant::now();
            }
        }
    }

    /// Give what [`Backend::hold`] kept to `next`, the engine started in
    /// this one's place: sent after its handshake, with the time it waited
    /// taken off, after the `UCI_Chess960` value and the position the kept
    /// lines were written to follow (a `go` kept alone searched the start
    /// position, and a Chess960 game's castles were misread without the
    /// mode: Stockfish drops every move from the first king-takes-rook).
    pub fn hand_held_to(&mut self, next: &mut Backend, log: &Log) {
        let Some(held) = self.held.take() else {
            return;
        };
        let (chess960, position) = std::mem::take(&mut self.held_from);
        if let Some(on) = chess960 {
            next.set_chess960(on, log);
        }
        if let Some(position) = position {
            next.send(&position, log);
        }
        for kept in held {
            if kept.line == "isready" {
                // The front-end sends the new engine one for each the GUI
                // still waits on: passed on as well, each was answered twice.
                continue;
            }
            if kept.line.starts_with(SET_CHESS960) {
                // The mode the kept lines changed to, as the engine will have it.
                next.chess960_sent = Some(kept.line.ends_with("true"));
            } else if kept.line.starts_with("position ") {
                next.last_position = Some(kept.line.clone());
            }
            next.keep(kept, log);
        }
    }

    /// Keep `kept` until the hold is released or the handshake ends, or
    /// send it now (with the time it waited taken off) when neither runs.
    fn keep(&mut self, kept: Kept, log: &Log) {
        match self.held.as_mut().or(self.waiting.as_mut()) {
            Some(lines) => lines.push(kept),
            None => self.write_kept(vec![kept], log),
        }
    }

    /// Send what [`Backend::hold`] kept (the late `bestmove` came).
    pub fn release(&mut self, log: &Log) {
        if let Some(kept) = self.held.take() {
            self.write_kept(kept, log);
        }
    }

    /// Kill the engine and say why its handshake failed.
    pub fn failed(mut self, how: Failure) -> StartError {
        self.kill();
        let when = match how {
            Failure::Exited => format!("it exited after {} ms", self.started.elapsed().as_millis()),
            Failure::TimedOut => format!("none came within {} s", HANDSHAKE_TIMEOUT.as_secs()),
        };
        let wrote = match &self.handshake_seen {
            (_, None) => "having written nothing".to_owned(),
            (1, Some(last)) => format!("having written one line, '{last}'"),
            (n, Some(last)) => format!("having written {n} lines, the last '{last}'"),
        };
        StartError::Handshake {
            command: self.shown.clone(),
            what: format!("{when}, {wrote}"),
        }
    }

    /// Read one handshake line.
    fn declare(&mut self, line: &str) {
        if let Some(name) = line.strip_prefix("id name ") {
            self.name = Some(name.trim().to_owned());
        } else if let Some(author) = line.strip_prefix("id author ") {
            self.author = Some(author.trim().to_owned());
        } else if line.starts_with("option ") {
            let name = option_name(line);
            if name.eq_ignore_ascii_case("UCI_Chess960") {
                self.declares_chess960 = true;
            }
            if !OWN_OPTIONS.iter().any(|o| o.eq_ignore_ascii_case(name)) {
                self.options.push(line.to_owned());
            }
        }
    }

    /// The command as given, for messages.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// Send one line, or keep it until `uciok` during the handshake (a dead
    /// engine is noticed by its reader thread).
    pub fn send(&mut self, line: &str, log: &Log) {
        self.send_go(line, None, log);
    }

    /// Send a `go` whose `clock` field (`wtime`, `btime` or `movetime`)
    /// runs from now: kept during the handshake, it goes out with the time
    /// it waited taken off that field, so that the engine sees the clock
    /// the GUI's has become.
    pub fn send_go(&mut self, line: &str, clock: Option<&'static str>, log: &Log) {
        if line.starts_with("position ") {
            self.last_position = Some(line.to_owned());
        }
        // A hold outranks the handshake: what is held goes out only at
        // `release` (after the late `bestmove`), never at `uciok`, so that
        // a `go` the front-end counts as not given is one it can drop
        // (`drop_kept_gos`) when it answers that search itself. Kept for
        // the handshake instead, it reached the engine all the same, and
        // the engine's answer to it was read as the next search's.
        match self.held.as_mut().or(self.waiting.as_mut()) {
            Some(kept) => kept.push(Kept {
                line: line.to_owned(),
                at: Instant::now(),
                clock,
            }),
            None => self.write(line, log),
        }
    }

    /// Send `line` now, past a hold ([`Backend::hold`]) that keeps only
    /// the lines of searches (`position`, `go`, `stop`, `ponderhit`, the
    /// `UCI_Chess960` value), or keep it with them: for `isready`, which
    /// asks for no search and is answered at once, also by an engine still
    /// searching. Past a held `setoption` or `ucinewgame` its `readyok`
    /// would say they were done before the engine had them.
    pub fn send_past_hold(&mut self, line: &str, log: &Log) {
        let of_searches = |k: &Kept| {
            k.line.starts_with("position ")
                || k.line.starts_with("go")
                || k.line == "stop"
                || k.line == "ponderhit"
                || k.line.starts_with(SET_CHESS960)
        };
        let past_hold = self.held.as_ref().is_none_or(|h| h.iter().all(of_searches));
        let kept = if past_hold {
            self.waiting.as_mut()
        } else {
            self.held.as_mut()
        };
        match kept {
            Some(kept) => kept.push(Kept {
                line: line.to_owned(),
                at: Instant::now(),
                clock: None,
            }),
            None => self.write(line, log),
        }
    }

    fn write(&mut self, line: &str, log: &Log) {
        log.line(">engine", line);
        let _ = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
    }

    /// Set `UCI_Chess960` where the engine declares it (or may, while its
    /// handshake runs) and the value differs from the one last sent.
    pub fn set_chess960(&mut self, on: bool, log: &Log) {
        if (self.declares_chess960 || self.in_handshake()) && self.chess960_sent != Some(on) {
            self.send(&format!("{SET_CHESS960}{on}"), log);
            self.chess960_sent = Some(on);
        }
    }

    /// Ask the engine to quit (at once, even during its handshake).
    pub fn send_quit(&mut self, log: &Log) {
        self.write("quit", log);
    }

    /// Wait until `end` for the engine to exit, then kill it.
    pub fn exit_by(mut self, end: Instant) {
        let group = group_of(&self.child);
        while Instant::now() < end {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                // Reaped: its id may be another process's from now on.
                let _ = ENGINE_GROUP.compare_exchange(group, 0, Ordering::SeqCst, Ordering::SeqCst);
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kill the engine now, with every process it started: its process
    /// group. Killing the process alone left what a shell had started
    /// running (and writing) until the front-end ended.
    pub fn kill(&mut self) {
        // The group's id is the engine's own process id (it was made the
        // leader of a group of its own), still its own here: the engine is
        // reaped only below, or by `exit_by`, which does not kill then.
        let group = group_of(&self.child);
        let _ = ENGINE_GROUP.compare_exchange(group, 0, Ordering::SeqCst, Ordering::SeqCst);
        kill_group(group, KILL);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The process group of the engine running now (0: none; [`ENDING`]: a
/// signal is ending the front-end), signalled when a signal ends the
/// front-end ([`kill_engine_on_ending`]).
static ENGINE_GROUP: AtomicI32 = AtomicI32::new(0);

/// [`ENGINE_GROUP`] once a signal is ending the front-end: no engine is
/// started after that (an engine's exit, seen meanwhile, would restart it).
const ENDING: i32 = -1;

/// SIGKILL, where there are signals.
#[cfg(unix)]
const KILL: i32 = libc::SIGKILL;
#[cfg(not(unix))]
const KILL: i32 = 9;

/// The process group `child` leads (its process id), 0 if none can be
/// named.
fn group_of(child: &Child) -> i32 {
    i32::try_from(child.id()).unwrap_or(0)
}

/// Send `signal` to process group `group` (nothing for 0 or less).
fn kill_group(group: i32, signal: i32) {
    #[cfg(unix)]
    if group > 0 {
        // SAFETY: kill(2) with a negative id signals that process group;
        // it reads no memory of ours.
        unsafe {
            libc::kill(-group, signal);
        }
    }
    #[cfg(not(unix))]
    let _ = (group, signal);
}

/// When a signal ends the front-end (Ctrl-C, `kill`, a closed terminal),
/// the engine's process group gets the same signal first: in a group of
/// its own it no longer receives the terminal's, and an engine that does
/// not end when its input closes would run on. The same signal, not a
/// kill: an engine may save what it keeps (a log, learning files) on it.
pub fn kill_engine_on_ending() {
    crate::signals::on_ending(|signal| {
        kill_group(ENGINE_GROUP.swap(ENDING, Ordering::SeqCst), signal)
    });
}

/// The name in an `option name <name> type ...` line.
pub fn option_name(line: &str) -> &str {
    let rest = line
        .split_once(" name ")
        .map_or("", |(_, rest)| rest)
        .trim_start();
    rest.split_once(" type ")
        .map_or(rest, |(name, _)| name)
        .trim()
}

/// `line` with `ms` taken off the number after the word `field` (at least
/// 1 ms is left); unchanged when the field is absent or not a number.
pub fn spend(line: &str, field: &str, ms: u64) -> String {
    let mut words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
    if let Some(i) = words.iter().position(|w| w == field) {
        if let Some(n) = words.get(i + 1).and_then(|w| w.parse::<i64>().ok()) {
            let left = n
                .saturating_sub(i64::try_from(ms).unwrap_or(i64::MAX))
                .max(1);
            words[i + 1] = left.to_string();
        }
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines kept for an engine in its handshake, once the front-end
    /// answered its searches: no `go` of those searches, no `stop` that
    /// ended one (a `go perft` before it is no search it ends), the open
    /// search's `go` alone; and a `ponderhit` starts that one's clock.
    #[cfg(unix)]
    #[test]
    fn answered_searches_leave_nothing_for_a_starting_engine() {
        let (tx, _rx) = std::sync::mpsc::channel();
        let log = Log::open(None).expect("no log");
        let command = ["sleep".to_owned(), "30".to_owned()];
        let mut b = Backend::spawn(&command, 1, &tx, &log).expect("started");
        for line in [
            "position startpos",
            "go perft 1",
            "go movetime 3000",
            "stop",
            "position startpos moves e2e4",
            "go infinite",
            "stop",
            "go ponder wtime 5000 btime 5000",
        ] {
            b.send(line, &log);
        }
        b.drop_kept_gos(true);
        b.ponderhit_kept(Some("btime"));
        let kept: Vec<(String, Option<&str>)> = b
            .waiting
            .iter()
            .flatten()
            .filter(|k| k.line.starts_with("go") || k.line == "stop")
            .map(|k| (k.line.clone(), k.clock))
            .collect();
        b.kill();
        assert_eq!(
            kept,
            [
                ("go perft 1".to_owned(), None),
                ("go ponder wtime 5000 btime 5000".to_owned(), Some("btime")),
            ]
        );
    }

    #[test]
    fn waiting_time_is_taken_off_the_running_clock() {
        let go = "go wtime 5000 btime 4000 winc 100 binc 100";
        assert_eq!(
            spend(go, "btime", 700),
            "go wtime 5000 btime 3300 winc 100 binc 100"
        );
        assert_eq!(
            spend(go, "wtime", 9000),
            "go wtime 1 btime 4000 winc 100 binc 100"
        );
        assert_eq!(spend("go movetime 500", "movetime", 200), "go movetime 300");
        assert_eq!(spend("go depth 5", "movetime", 200), "go depth 5");
    }
}
