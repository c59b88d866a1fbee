//! The other side of UCI: drive another engine as a GUI would.
//!
//! Used by `chess960 perft --engine` to check another engine's move
//! generation. The engine runs as a child process; a reader thread turns its
//! stdout into lines on a channel, so every wait has a timeout and a dead or
//! silent engine is an error, never a hang. The child is killed when the
//! client is dropped.
//!
//! Identification lines (`id name`) are read with vampirc-uci, behind a
//! guard: it panics on some input, so a panic there only loses the name.

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long an engine that closed its output is given to finish writing
/// its stderr, for the message that reports its exit.
const LAST_WORDS_WAIT: Duration = Duration::from_millis(500);

/// Why talking to the engine failed. Each message names the engine's
/// command and what it did.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClientError {
    /// The command line is empty or cannot be split into words.
    #[error("engine command '{0}' cannot be split into words")]
    BadCommand(String),
    /// The program could not be started.
    #[error("cannot start engine '{command}': {reason}")]
    Start {
        /// The command as given.
        command: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The engine closed its output (it exited or crashed).
    #[error("engine '{command}' exited while {doing}{said}")]
    Died {
        /// The command as given.
        command: String,
        /// What we were waiting for.
        doing: String,
        /// Its last line on stderr, quoted, or nothing: most engines say
        /// there why they stop (a Python traceback's last line, an assert).
        said: String,
    },
    /// No answer in time.
    #[error("engine '{command}' did not answer within {seconds} s while {doing}")]
    Timeout {
        /// The command as given.
        command: String,
        /// The limit.
        seconds: u64,
        /// What we were waiting for.
        doing: String,
    },
    /// The engine searched (`info depth`, `bestmove`) where a divide was
    /// asked for: it has no `go perft`.
    #[error("engine '{command}' has no 'go perft': it searched instead of counting ('{line}')")]
    NoPerft {
        /// The command as given.
        command: String,
        /// The first line of its search.
        line: String,
    },
    /// An answer that is not what the protocol allows here.
    #[error("engine '{command}' answered '{line}' while {doing}")]
    Unexpected {
        /// The command as given.
        command: String,
        /// The offending line.
        line: String,
        /// What we were waiting for.
        doing: String,
    },
}

/// A running UCI engine.
pub struct UciClient {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    timeout: Duration,
    /// The engine's last non-blank line on stderr (its output there is
    /// read, not shown: a table of counts on stdout stays clean).
    last_stderr: Arc<Mutex<Option<String>>>,
    stderr_reader: Option<JoinHandle<()>>,
    /// `id name`, if the engine sent one.
    pub name: Option<String>,
    /// Whether the engine declared the `UCI_Chess960` option.
    pub declares_chess960: bool,
}

impl UciClient {
    /// Start `command` (split into words as a shell would, without a
    /// shell), complete the `uci` handshake, switch `UCI_Chess960` on where
    /// it is declared, and wait for `readyok`. Every wait is bounded by
    /// `timeout`.
    ///
    /// # Errors
    /// A [`ClientError`] when the engine cannot start, dies, is silent or
    /// answers outside the protocol.
    pub fn start(command_line: &str, timeout: Duration) -> Result<UciClient, ClientError> {
        // Messages name the command on one line.
        let shown = command_line.replace('\n', "\\n");
        let command = shown.as_str();
        let words = shlex::split(command_line)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| ClientError::BadCommand(command.to_owned()))?;
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| ClientError::Start {
                command: command.to_owned(),
                reason: e.to_string(),
            })?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                return Err(ClientError::Start {
                    command: command.to_owned(),
                    reason: "no pipes".into(),
                })
            }
        };
        let last_stderr = Arc::new(Mutex::new(None));
        let stderr_reader = child.stderr.take().map(|err| {
            let last = Arc::clone(&last_stderr);
            std::thread::spawn(move || {
                crate::lines::each_line(BufReader::new(err), |line| {
                    if !line.trim().is_empty() {
                        if let Ok(mut l) = last.lock() {
                            *l = Some(clip(line.trim()));
                        }
                    }
                    true
                });
            })
        });
        let (tx, rx) = mpsc::channel();
        // Lines that are not UTF-8 (an old engine's Latin-1 author) are
        // read, not taken for the engine's exit.
        std::thread::spawn(move || {
            crate::lines::each_line(BufReader::new(stdout), |line| tx.send(line).is_ok());
        });
        let mut client = UciClient {
            command: command.to_owned(),
            child,
            stdin,
            lines: rx,
            timeout,
            last_stderr,
            stderr_reader,
            name: None,
            declares_chess960: false,
        };
        client.send("uci")?;
        for line in client.read_until("doing the uci handshake", |l| l == "uciok")? {
            if line.starts_with("id name ") {
                client.name = id_name(&line);
            }
            if line.starts_with("option ") && line.contains(" name UCI_Chess960 ") {
                client.declares_chess960 = true;
            }
        }
        if client.declares_chess960 {
            client.send("setoption name UCI_Chess960 value true")?;
        }
        client.sync()?;
        Ok(client)
    }

    /// Send one line.
    ///
    /// # Errors
    /// [`ClientError::Died`] when the engine no longer reads.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| self.died(&format!("reading '{line}'")))
    }

    /// The error for an engine that exited while `doing`, with its last
    /// words on stderr when it wrote any (waited for up to
    /// [`LAST_WORDS_WAIT`]: its stderr closes as it exits).
    fn died(&mut self, doing: &str) -> ClientError {
        let end = Instant::now() + LAST_WORDS_WAIT;
        while self
            .stderr_reader
            .as_ref()
            .is_some_and(|r| !r.is_finished())
            && Instant::now() < end
        {
            std::thread::sleep(Duration::from_millis(10));
        }
        let said = self
            .last_stderr
            .lock()
            .ok()
            .and_then(|l| l.clone())
            .map_or_else(String::new, |l| format!("; its last line on stderr: '{l}'"));
        ClientError::Died {
            command: self.command.clone(),
            doing: doing.to_owned(),
            said,
        }
    }

    /// `isready`, then wait for `readyok`.
    ///
    /// # Errors
    /// As [`Self::read_until`].
    pub fn sync(&mut self) -> Result<(), ClientError> {
        self.send("isready")?;
        self.read_until("answering isready", |l| l == "readyok")
            .map(|_| ())
    }

    /// Read lines until one satisfies `done`; return them all, that one
    /// last.
    ///
    /// # Errors
    /// [`ClientError::Died`] or [`ClientError::Timeout`], naming `doing`.
    pub fn read_until(
        &mut self,
        doing: &str,
        done: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, ClientError> {
        let end = Instant::now() + self.timeout;
        let mut before = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim().to_owned();
                    let end = done(&line);
                    before.push(line);
                    if end {
                        return Ok(before);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ClientError::Timeout {
                        command: self.command.clone(),
                        seconds: self.timeout.as_secs(),
                        doing: doing.to_owned(),
                    })
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.died(doing)),
            }
        }
    }

    /// The engine's divide: `position <setup>` then `go perft <depth>`,
    /// read as Stockfish prints it (`<move>: <count>` lines, then
    /// `Nodes searched: N`). Moves are returned as the engine wrote them.
    ///
    /// # Errors
    /// As [`Self::read_until`], and [`ClientError::Unexpected`] for a line
    /// that is neither a divide line, an `info` line nor blank (an engine
    /// without `go perft` usually answers with a `bestmove` or an error).
    pub fn divide(&mut self, setup: &str, depth: u32) -> Result<Divide, ClientError> {
        self.send(&format!("position {setup}"))?;
        self.send(&format!("go perft {depth}"))?;
        let doing = format!("answering 'go perft {depth}' after 'position {setup}'");
        // An engine without `go perft` usually searches instead: its
        // `info depth` lines or its `bestmove` end the wait at once.
        let searching = |l: &str| l.starts_with("bestmove") || l.starts_with("info depth");
        let mut lines =
            self.read_until(&doing, |l| l.starts_with("Nodes searched") || searching(l))?;
        if let Some(line) = lines.iter().find(|l| searching(l)).cloned() {
            let _ = self.send("stop");
            return Err(ClientError::NoPerft {
                command: self.command.clone(),
                line: clip(&line),
            });
        }
        let mut out = Vec::new();
        let total = lines.pop().and_then(|l| nodes_searched(&l));
        for line in lines.drain(..) {
            if line.is_empty() || line.starts_with("info") {
                continue;
            }
            match divide_line(&line) {
                Some(DivideLine::Move(m, n)) => out.push((m.to_owned(), n)),
                Some(DivideLine::Figure) => {}
                None => {
                    return Err(ClientError::Unexpected {
                        command: self.command.clone(),
                        line: clip(&line),
                        doing,
                    })
                }
            }
        }
        // What the engine prints after its total (a time, a speed) is read
        // here, not taken for the next position's divide.
        self.sync()?;
        Ok(Divide { moves: out, total })
    }
}

/// One divide as an engine wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divide {
    /// Each move as written, with its count.
    pub moves: Vec<(String, u64)>,
    /// The engine's own total (`Nodes searched: N`), when it is a number.
    /// It is the engine's claim, kept apart from its lines: an engine can
    /// count every move right and still add them up wrong.
    pub total: Option<u64>,
}

/// A line of a divide other than its total.
#[derive(Debug, PartialEq, Eq)]
enum DivideLine<'a> {
    /// `<move>: <count>`, the move as written.
    Move(&'a str, u64),
    /// `<name>: <value>` whose name is no move and whose value begins with
    /// a number: a figure of the engine's own (`Time (ms): 12`, `time:
    /// 12ms`, `nps: 3.5M`), skipped.
    Figure,
}

/// Read one divide line. A name before the colon is taken for a move when
/// it is one word with a digit in it (every square has one), or a castling
/// word such as `O-O`: so a wrong move such as `z9z9` is still reported as
/// the engine's, while an engine's statistics are not. `None`: no
/// `<name>: <number>` line at all.
fn divide_line(line: &str) -> Option<DivideLine<'_>> {
    let (name, value) = line.split_once(':')?;
    let name = name.trim();
    let value = value.trim();
    let one_word = !name.is_empty() && !name.contains(char::is_whitespace);
    let a_move = one_word
        && (name.contains(|c: char| c.is_ascii_digit()) || crate::notation::is_move_text(name));
    if a_move {
        Some(DivideLine::Move(name, value.parse().ok()?))
    } else {
        // A figure has a number first (`12`, `12ms`, `0.5s`, `-3`); words
        // (`Unknown command: go perft 3`) are no figure.
        let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
        digits
            .starts_with(|c: char| c.is_ascii_digit())
            .then_some(DivideLine::Figure)
    }
}

/// The number of a `Nodes searched: N` line (its first word after the
/// colon, so a rate or time after it does not hide the count).
fn nodes_searched(line: &str) -> Option<u64> {
    let (_, rest) = line.strip_prefix("Nodes searched")?.split_once(':')?;
    rest.split_whitespace().next()?.parse().ok()
}

impl Drop for UciClient {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The most of an engine's line a message quotes: enough to recognise it,
/// and one stderr line even when the engine wrote megabytes without a break.
const QUOTED_CHARS: usize = 200;

/// `line` cut to [`QUOTED_CHARS`] characters, marked where cut.
fn clip(line: &str) -> String {
    match line.char_indices().nth(QUOTED_CHARS) {
        Some((at, _)) => format!("{}... ({} bytes in all)", &line[..at], line.len()),
        None => line.to_owned(),
    }
}

/// The name of an `id name` line, read by vampirc-uci behind a panic
/// guard (it is not sound on every input).
fn id_name(line: &str) -> Option<String> {
    let owned = line.to_owned();
    let parsed = std::panic::catch_unwind(move || vampirc_uci::parse_one(&owned)).ok()?;
    match parsed {
        vampirc_uci::UciMessage::Id {
            name: Some(name), ..
        } => Some(name),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_total_is_the_first_number_after_the_colon() {
        assert_eq!(
            super::nodes_searched("Nodes searched: 197281"),
            Some(197281)
        );
        assert_eq!(
            super::nodes_searched("Nodes searched : 20 (0.1 s)"),
            Some(20)
        );
        assert_eq!(super::nodes_searched("Nodes searched: many"), None);
        assert_eq!(super::nodes_searched("Nodes searched"), None);
    }

    #[test]
    fn a_divide_line_is_a_move_or_a_figure() {
        use super::{divide_line, DivideLine};
        assert_eq!(divide_line("b1h1: 21"), Some(DivideLine::Move("b1h1", 21)));
        assert_eq!(divide_line("O-O : 3"), Some(DivideLine::Move("O-O", 3)));
        // A wrong move is still the engine's move, for the check to name.
        assert_eq!(divide_line("z9z9: 5"), Some(DivideLine::Move("z9z9", 5)));
        assert_eq!(divide_line("Time (ms): 12"), Some(DivideLine::Figure));
        assert_eq!(divide_line("time: 1"), Some(DivideLine::Figure));
        assert_eq!(divide_line("nps: 3.5e6 nodes/s"), Some(DivideLine::Figure));
        assert_eq!(divide_line("Time: 1ms"), Some(DivideLine::Figure));
        assert_eq!(divide_line("speed: 1.5M"), Some(DivideLine::Figure));
        assert_eq!(divide_line("e2e4: many"), None);
        assert_eq!(divide_line("Unknown command: go perft 3"), None);
        assert_eq!(divide_line("bestmove e2e4"), None);
    }

    #[test]
    fn a_quoted_line_is_clipped() {
        assert_eq!(super::clip("bestmove e2e4"), "bestmove e2e4");
        let long = "x".repeat(1000);
        let clipped = super::clip(&long);
        assert!(clipped.starts_with(&"x".repeat(200)), "{clipped}");
        assert!(clipped.ends_with("... (1000 bytes in all)"), "{clipped}");
    }
}
