//! The engine behind the front-end: a child process whose output lines
//! arrive as events on the front-end's one channel, tagged with the
//! generation of the process, so that a line of a process already replaced
//! is recognised and dropped.

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use super::{pump, Event, Log};

/// How long the `uci` handshake of the engine may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Options the front-end offers itself, whatever the engine declares.
pub const OWN_OPTIONS: [&str; 2] = ["UCI_Chess960", "UCI_Chess960_Arena"];

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
    /// It ran but did not complete the `uci` handshake.
    #[error("engine '{command}' did not answer 'uci' with 'uciok' within {seconds} s ({what})")]
    Handshake {
        /// The command as given.
        command: String,
        /// The limit.
        seconds: u64,
        /// What happened instead.
        what: String,
    },
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
    /// The command as given, for messages.
    shown: String,
    /// Lines for the engine kept until its `uciok` (`None` after it).
    waiting: Option<Vec<String>>,
    /// When the handshake fails for want of `uciok`.
    handshake_deadline: Instant,
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
            match rx.recv_timeout(left) {
                Ok(Event::Engine(g, line)) if g == generation => {
                    log.line("engine>", &line);
                    if backend.handshake_line(&line, log) {
                        return Ok(backend);
                    }
                }
                Ok(Event::EngineGone(g)) if g == generation => {
                    return Err(backend.failed("it exited"));
                }
                // A line of an engine already replaced: dropped.
                Ok(Event::Engine(..) | Event::EngineGone(_)) => {}
                Ok(other) => held.push(other),
                Err(RecvTimeoutError::Timeout) => return Err(backend.failed("it stayed silent")),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(backend.failed("the channel closed"));
                }
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
        let shown = command.join(" ");
        let spawn_error = |reason: String| StartError::Spawn {
            command: shown.clone(),
            reason,
        };
        let (program, args) = command
            .split_first()
            .ok_or_else(|| spawn_error("no program given".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| spawn_error(e.to_string()))?;
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
            chess960_sent: None,
            waiting: Some(Vec::new()),
            handshake_deadline: Instant::now() + HANDSHAKE_TIMEOUT,
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
            self.declare(line);
            return false;
        }
        for kept in self.waiting.take().unwrap_or_default() {
            // UCI_Chess960 was kept before it was known to be declared.
            let chess960 = kept.starts_with("setoption name UCI_Chess960 value ");
            if !chess960 || self.declares_chess960 {
                self.write(&kept, log);
            }
        }
        true
    }

    /// Kill the engine and say why its handshake failed.
    pub fn failed(mut self, what: &str) -> StartError {
        self.kill();
        StartError::Handshake {
            command: self.shown.clone(),
            seconds: HANDSHAKE_TIMEOUT.as_secs(),
            what: what.to_owned(),
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

    /// Send one line, or keep it until `uciok` during the handshake (a dead
    /// engine is noticed by its reader thread).
    pub fn send(&mut self, line: &str, log: &Log) {
        match self.waiting.as_mut() {
            Some(kept) => kept.push(line.to_owned()),
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
            self.send(&format!("setoption name UCI_Chess960 value {on}"), log);
            self.chess960_sent = Some(on);
        }
    }

    /// Ask the engine to quit, give it `grace` to do so, then kill it.
    pub fn quit(mut self, grace: Duration, log: &Log) {
        self.write("quit", log);
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kill the process now.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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
