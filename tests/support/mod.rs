//! Drives the real `chess960` binary over stdin/stdout for the UCI
//! integration tests.
//!
//! Nothing here can hang the test suite: every read has a timeout, and a
//! watchdog kills the child when the whole session outlives its deadline
//! (a blocked write to a child that stopped reading would otherwise wait
//! forever). On a failure the panic message carries the transcript.

#![allow(dead_code)] // each test binary uses a different part of it

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// Generous per-reply timeout: the machine is shared and may be loaded.
pub const REPLY: Duration = Duration::from_secs(10);

/// One running engine process.
pub struct Engine {
    child: Arc<Mutex<Child>>,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
    transcript: Vec<String>,
    finished: Arc<AtomicBool>,
    stderr: Arc<Mutex<Vec<u8>>>,
    panics: Arc<AtomicUsize>,
    eof: bool,
}

/// Whether an outside tool a test needs is `present`. When it is not, the
/// test is skipped with a notice naming `what` and how to `install` it,
/// unless the environment variable `require` is set (CI sets it): then the
/// test fails.
pub fn tool_present(present: bool, what: &str, require: &str, install: &str) -> bool {
    if !present {
        assert!(
            std::env::var_os(require).is_none(),
            "{what} is required ({require}) but missing"
        );
        eprintln!("skipped: {what} not installed ({install})");
    }
    present
}

/// The match runner fastchess and python-chess (which replays and reads its games): the binary
/// `FASTCHESS` names, or `fastchess` on PATH. fastchess is built from its repository, so it is not
/// at hand everywhere (CI installs from package registries only): None, with a notice, where
/// either is missing, unless CHESS960_REQUIRE_FASTCHESS is set.
pub fn fastchess() -> Option<std::path::PathBuf> {
    let found = std::env::var_os("FASTCHESS")
        .map(std::path::PathBuf::from)
        .or_else(|| find_tool("fastchess"));
    let present = found.as_ref().is_some_and(|p| p.exists()) && python_imports("chess.pgn");
    tool_present(
        present,
        "fastchess (FASTCHESS=/path/to/fastchess) or python-chess",
        "CHESS960_REQUIRE_FASTCHESS",
        "build it from github.com/Disservin/fastchess; pip install chess==1.11.2",
    )
    .then_some(found)
    .flatten()
}

/// A fresh, empty directory for one test's files: `chess960-<tag>-<pid>`
/// under the system's temporary directory.
pub fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chess960-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Whether `bash` is installed (see [`tool_present`]).
pub fn bash_present() -> bool {
    tool_present(
        find_tool("bash").is_some(),
        "bash",
        "CHESS960_REQUIRE_BASH",
        "apt-get install bash",
    )
}

/// Whether `python3` runs (see [`tool_present`]: CI sets
/// `CHESS960_REQUIRE_PYTHON3`, so there a missing one fails the test).
pub fn python3_present() -> bool {
    tool_present(
        python_imports("sys"),
        "python3",
        "CHESS960_REQUIRE_PYTHON3",
        "apt-get install python3",
    )
}

/// Whether `python3` can import `modules` (as in `import chess.pgn`).
pub fn python_imports(modules: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Where the program `tool` is: on PATH, or in /usr/games, where Debian
/// puts game programs (and PATH often does not reach).
pub fn find_tool(tool: &str) -> Option<std::path::PathBuf> {
    let games = std::path::Path::new("/usr/games").join(tool);
    if games.exists() {
        return Some(games);
    }
    let out = Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .ok()?;
    let path = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    (out.status.success() && !path.is_empty()).then(|| path.into())
}

/// Path of the binary under test.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_chess960")
}

/// Run the binary with `args` (a CLI command) to its end.
pub fn run(args: &[&str]) -> std::process::Output {
    Command::new(binary())
        .args(args)
        .output()
        .expect("run chess960")
}

/// Run the binary with `args` twice: with standard output a pipe whose
/// reading end is already closed (so the first write fails, whatever the
/// timing), which must end quietly (status 0, nothing on stderr), and on a
/// full device (where `/dev/full` exists), which must end with status 1 and
/// one error line. Never a panic.
pub fn closed_pipe_and_full_device(args: &[&str]) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(binary())
        .args(args)
        .stdout(writer)
        .output()
        .expect("run chess960");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err, "", "{args:?} on a closed pipe");
    assert_eq!(out.status.code(), Some(0), "{args:?} on a closed pipe");
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("open /dev/full");
    let out = Command::new(binary())
        .args(args)
        .stdout(full)
        .output()
        .expect("run chess960");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?} on a full device: {err}"
    );
    assert!(
        err.starts_with("error: ") && err.lines().count() == 1,
        "{args:?} on a full device: {err}"
    );
}

/// Run `command` to its end, which must succeed: on failure the message
/// names it as `what` and carries its stderr.
pub fn output_ok(command: &mut Command, what: &str) -> std::process::Output {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `python3 ARGS` run to its end, which must succeed.
pub fn python3_ok(args: &[&std::ffi::OsStr]) -> std::process::Output {
    output_ok(
        Command::new("python3").args(args),
        &format!("python3 {args:?}"),
    )
}

/// The standard output of a CLI command that must succeed.
pub fn stdout(args: &[&str]) -> String {
    let out = output_ok(Command::new(binary()).args(args), &format!("{args:?}"));
    String::from_utf8(out.stdout).expect("UTF-8")
}

impl Engine {
    /// Start the binary in UCI mode with a watchdog of `deadline`.
    pub fn start_with_deadline(deadline: Duration) -> Engine {
        Engine::start_in(None, deadline)
    }

    /// Start the binary in UCI mode (watchdog: 120 s).
    pub fn start() -> Engine {
        Engine::start_in(None, Duration::from_secs(120))
    }

    /// Start the binary with `dir` as its working directory.
    pub fn start_in(dir: Option<&std::path::Path>, deadline: Duration) -> Engine {
        Engine::start_with(&[], dir, deadline)
    }

    /// Start the binary with the arguments `args` (e.g. `wrap -- ENGINE`).
    pub fn start_with(args: &[&str], dir: Option<&std::path::Path>, deadline: Duration) -> Engine {
        let mut cmd = Command::new(binary());
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn().expect("start the chess960 binary");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let stderr_pipe = child.stderr.take().expect("stderr");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(buf).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let panics = Arc::new(AtomicUsize::new(0));
        let se = Arc::clone(&stderr);
        let pc = Arc::clone(&panics);
        thread::spawn(move || {
            let mut r = BufReader::new(stderr_pipe);
            loop {
                let mut line = Vec::new();
                match r.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                if String::from_utf8_lossy(&line).contains("panicked") {
                    pc.fetch_add(1, Ordering::SeqCst);
                }
                if let Ok(mut v) = se.lock() {
                    // Keep the last 64 KB only: enough to diagnose.
                    v.extend_from_slice(&line);
                    let len = v.len();
                    if len > 65_536 {
                        v.drain(..len - 65_536);
                    }
                }
            }
        });
        let child = Arc::new(Mutex::new(child));
        let finished = Arc::new(AtomicBool::new(false));
        {
            let child = Arc::clone(&child);
            let finished = Arc::clone(&finished);
            thread::spawn(move || {
                let end = Instant::now() + deadline;
                while Instant::now() < end {
                    if finished.load(Ordering::SeqCst) {
                        return;
                    }
                    thread::sleep(Duration::from_millis(50));
                }
                if !finished.load(Ordering::SeqCst) {
                    eprintln!("watchdog: engine session exceeded {deadline:?}, killing it");
                    if let Ok(mut c) = child.lock() {
                        let _ = c.kill();
                    }
                }
            });
        }
        let mut engine = Engine {
            child,
            stdin,
            lines: rx,
            transcript: Vec::new(),
            finished,
            stderr,
            panics,
            eof: false,
        };
        // The one-line banner for people comes first; GUIs skip it. (The
        // front-end, `wrap`, says only what the engine behind it says.)
        if args.is_empty() {
            let (before, _) = engine.expect_by("the banner", REPLY, |l| {
                l.starts_with("chess960 ") && l.contains("'help'")
            });
            if !before.is_empty() {
                engine.fail("output before the banner");
            }
        }
        engine
    }

    /// Resident memory of the engine process in KB (Linux `/proc`), if known.
    pub fn rss_kb(&self) -> Option<u64> {
        let pid = self.child.lock().ok()?.id();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Lines on stderr that report a panic (any thread) so far.
    pub fn panics(&self) -> usize {
        self.panics.load(Ordering::SeqCst)
    }

    /// The last lines exchanged, for failure messages.
    pub fn tail(&self) -> String {
        let start = self.transcript.len().saturating_sub(40);
        let mut s = self.transcript[start..].join("\n");
        if let Ok(e) = self.stderr.lock() {
            if !e.is_empty() {
                s.push_str("\n--- stderr (tail) ---\n");
                let text = String::from_utf8_lossy(&e);
                let lines: Vec<&str> = text.lines().collect();
                s.push_str(&lines[lines.len().saturating_sub(20)..].join("\n"));
            }
        }
        s
    }

    fn note(&mut self, s: String) {
        self.transcript.push(s);
        if self.transcript.len() > 2000 {
            self.transcript.drain(..1000);
        }
    }

    /// Kill the child and panic with the transcript.
    pub fn fail(&mut self, msg: &str) -> ! {
        self.kill();
        panic!("{msg}\n--- transcript (tail) ---\n{}", self.tail());
    }

    /// Kill the child now.
    pub fn kill(&mut self) {
        if let Ok(mut c) = self.child.lock() {
            let _ = c.kill();
            let _ = c.wait();
        }
        self.finished.store(true, Ordering::SeqCst);
    }

    /// Send one line (a newline is appended).
    pub fn send(&mut self, line: &str) {
        self.send_bytes(line.as_bytes());
    }

    /// Send raw bytes followed by a newline.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
        self.note(format!("> {shown}"));
        let ok = match self.stdin.as_mut() {
            Some(w) => w
                .write_all(bytes)
                .and_then(|()| w.write_all(b"\n"))
                .and_then(|()| w.flush())
                .is_ok(),
            None => false,
        };
        if !ok {
            self.fail("cannot write to the engine (it exited or stopped reading)");
        }
    }

    /// Send raw bytes and report whether the write succeeded (the engine
    /// may legitimately have exited, e.g. after a fuzzed line that reads as
    /// `quit`).
    pub fn try_send_bytes(&mut self, bytes: &[u8]) -> bool {
        match self.stdin.as_mut() {
            Some(w) => w.write_all(bytes).and_then(|()| w.write_all(b"\n")).is_ok(),
            None => false,
        }
    }

    /// Flush stdin (after a batch of `try_send_bytes`).
    pub fn flush(&mut self) -> bool {
        self.stdin.as_mut().is_some_and(|w| w.flush().is_ok())
    }

    /// Close stdin (EOF for the engine).
    pub fn close_stdin(&mut self) {
        self.note("> <EOF>".into());
        self.stdin = None;
    }

    /// Next output line (without the newline), or `None` on timeout or
    /// when the engine closed stdout.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        if self.eof {
            return None;
        }
        match self.lines.recv_timeout(timeout) {
            Ok(raw) => {
                let line = checked_line(&raw);
                match line {
                    Ok(l) => {
                        self.note(format!("< {l}"));
                        Some(l)
                    }
                    Err(e) => self.fail(&e),
                }
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                None
            }
        }
    }

    /// Read lines until one satisfies `pred`; returns the lines before it
    /// and the matching line. Fails (killing the engine) on timeout.
    pub fn expect_by(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> (Vec<String>, String) {
        let end = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.fail(&format!("timed out after {timeout:?} waiting for {what}"));
            }
            match self.next_line(left) {
                Some(l) if pred(&l) => return (before, l),
                Some(l) => before.push(l),
                None if self.eof => self.fail(&format!("engine closed stdout waiting for {what}")),
                None => {}
            }
        }
    }

    /// Read until the exact line `want`; returns the lines before it.
    pub fn expect(&mut self, want: &str, timeout: Duration) -> Vec<String> {
        self.expect_by(&format!("'{want}'"), timeout, |l| l == want)
            .0
    }

    /// Send `isready` and return every line that came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.expect("readyok", REPLY)
    }

    /// Send a line, then sync; returns the lines the line produced.
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Wait for the next `bestmove` line; returns (lines before, move text,
    /// ponder text).
    pub fn bestmove(&mut self, timeout: Duration) -> (Vec<String>, String, Option<String>) {
        let (before, line) = self.expect_by("bestmove", timeout, |l| l.starts_with("bestmove"));
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["bestmove", m] => (before, (*m).to_owned(), None),
            ["bestmove", m, "ponder", p] => (before, (*m).to_owned(), Some((*p).to_owned())),
            _ => self.fail(&format!("malformed bestmove line '{line}'")),
        }
    }

    /// `d` parsed into its `Key: value` lines (`Fen`, `Shredder-FEN`, ...).
    pub fn display(&mut self) -> HashMap<String, String> {
        let lines = self.ask("d");
        let mut map = HashMap::new();
        for l in lines {
            if let Some((k, v)) = l.split_once(": ") {
                map.insert(k.to_owned(), v.to_owned());
            }
        }
        if !map.contains_key("Shredder-FEN") {
            self.fail("`d` printed no Shredder-FEN line");
        }
        map
    }

    /// The Shredder-FEN the engine reports for its current position.
    pub fn shredder_fen(&mut self) -> String {
        self.display()["Shredder-FEN"].clone()
    }

    /// The current position, read back through shakmaty (independent of
    /// our own FEN reader).
    pub fn position(&mut self) -> Chess {
        let fen = self.shredder_fen();
        chess_from_fen(&fen)
    }

    /// Wait up to `timeout` for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + timeout;
        loop {
            if let Ok(mut c) = self.child.lock() {
                if let Ok(Some(st)) = c.try_wait() {
                    self.finished.store(true, Ordering::SeqCst);
                    return Some(st);
                }
            }
            if Instant::now() >= end {
                return None;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Drain output lines that are already there (non-blocking-ish).
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let mut v = Vec::new();
        while let Some(l) = self.next_line(wait) {
            v.push(l);
        }
        v
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        // Give a clean exit a moment (EOF is a quit), then make sure.
        if self.wait_exit(Duration::from_millis(500)).is_none() {
            self.kill();
        }
        self.finished.store(true, Ordering::SeqCst);
    }
}

/// An output line must be printable ASCII ending in `\n` (no `\r`, no
/// control bytes, no invalid UTF-8): that is what GUIs can parse.
fn checked_line(raw: &[u8]) -> Result<String, String> {
    let Some(body) = raw.strip_suffix(b"\n") else {
        return Err(format!(
            "output ended without a newline: {:?}",
            String::from_utf8_lossy(raw)
        ));
    };
    if let Some(b) = body.iter().find(|b| !(0x20..0x7f).contains(*b)) {
        return Err(format!(
            "output line has byte {b:#04x}: {:?}",
            String::from_utf8_lossy(body)
        ));
    }
    Ok(String::from_utf8_lossy(body).into_owned())
}

/// A position from any FEN, read by shakmaty alone in Chess960 mode.
pub fn chess_from_fen(fen: &str) -> Chess {
    let f: Fen = fen.parse().unwrap_or_else(|e| panic!("FEN {fen:?}: {e}"));
    f.into_position(CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("FEN {fen:?}: {e}"))
}

/// Two positions are the same for chess purposes (board, side, castling
/// rights, en passant square, clocks).
pub fn same_position(a: &Chess, b: &Chess) -> bool {
    a.to_setup(shakmaty::EnPassantMode::Legal) == b.to_setup(shakmaty::EnPassantMode::Legal)
}

/// Read a move the engine sent and check it is legal in `pos`; `chess960`
/// says which castling encoding the engine must have used.
pub fn legal_move(pos: &Chess, text: &str, chess960: bool) -> Result<Move, String> {
    let uci: UciMove = text
        .parse()
        .map_err(|_| format!("'{text}' is not UCI move syntax"))?;
    let m = uci.to_move(pos).map_err(|_| {
        format!(
            "'{text}' is not legal in {}",
            Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
        )
    })?;
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let canonical = m.to_uci(mode).to_string();
    if canonical != text {
        return Err(format!(
            "'{text}' is legal but not in the expected encoding '{canonical}'"
        ));
    }
    Ok(m)
}

/// The castle of `side` ("O-O": the h-side rook, "O-O-O": the a-side one)
/// among shakmaty's legal moves in `pos`, if it is legal.
pub fn castle(pos: &Chess, word: &str) -> Option<Move> {
    let side = match word {
        "O-O" => shakmaty::CastlingSide::KingSide,
        "O-O-O" => shakmaty::CastlingSide::QueenSide,
        _ => return None,
    };
    pos.legal_moves()
        .into_iter()
        .find(|m| m.castling_side() == Some(side))
}

/// The reference rows of `perft/chess960_startpos.tsv`: (number, FEN, d1..d6).
pub fn startpos_table() -> Vec<(u32, String, Vec<u64>)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/chess960_startpos.tsv");
    let text = std::fs::read_to_string(path).expect("read perft/chess960_startpos.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("sp\t") && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let n = cols[0].parse().expect("number");
            let counts = cols[2..]
                .iter()
                .map(|c| c.parse().expect("count"))
                .collect();
            (n, cols[1].to_owned(), counts)
        })
        .collect()
}

/// One entry of a `.perft` reference file: id, FEN, (depth, nodes) pairs.
pub type PerftEntry = (String, String, Vec<(u32, u64)>);

/// A `.perft` reference file.
pub fn perft_file(name: &str) -> Vec<PerftEntry> {
    let path = format!("{}/perft/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out: Vec<PerftEntry> = Vec::new();
    for l in text.lines() {
        if let Some(id) = l.strip_prefix("id ") {
            out.push((id.trim().to_owned(), String::new(), Vec::new()));
        } else if let Some(fen) = l.strip_prefix("epd ") {
            if let Some(last) = out.last_mut() {
                last.1 = fen.trim().to_owned();
            }
        } else if let Some(p) = l.strip_prefix("perft ") {
            let mut it = p.split_whitespace();
            let d = it.next().and_then(|x| x.parse().ok()).expect("depth");
            let n = it.next().and_then(|x| x.parse().ok()).expect("nodes");
            if let Some(last) = out.last_mut() {
                last.2.push((d, n));
            }
        }
    }
    out
}

/// UCI move syntax as engines send it (`0000` is the null move; `O-O` and
/// `O-O-O` are castles in Arena's dialect).
pub fn is_uci_move(t: &str) -> bool {
    let b = t.as_bytes();
    if matches!(t, "0000" | "O-O" | "O-O-O") {
        return true;
    }
    let sq = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4]))) && sq(b[0], b[1]) && sq(b[2], b[3])
}

fn is_int(t: &str) -> bool {
    t.strip_prefix('-').unwrap_or(t).parse::<u64>().is_ok()
}

/// Check one engine output line against the UCI engine-to-GUI messages
/// and this engine's documented extensions (`d` and `go perft` output).
///
/// # Errors
/// A description of what is wrong with the line.
pub fn check_protocol_line(line: &str) -> Result<(), String> {
    if !line.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Err(format!("non-printable byte in {line:?}"));
    }
    let words: Vec<&str> = line.split(' ').collect();
    let bad = || {
        Err(format!(
            "not a UCI message or documented extension: {line:?}"
        ))
    };
    match words.as_slice() {
        ["uciok"] | ["readyok"] | [""] => Ok(()),
        ["id", "name" | "author", _, ..] => Ok(()),
        ["option", "name", rest @ ..] if rest.contains(&"type") => Ok(()),
        ["bestmove", m] if is_uci_move(m) => Ok(()),
        ["bestmove", m, "ponder", p] if is_uci_move(m) && is_uci_move(p) => Ok(()),
        ["info", "string", ..] => Ok(()),
        ["info", rest @ ..] => check_info(rest).map_err(|e| format!("{e} in {line:?}")),
        // `go perft`: divide lines and the total.
        [m, n]
            if m.ends_with(':') && is_uci_move(&m[..m.len() - 1]) && n.parse::<u64>().is_ok() =>
        {
            Ok(())
        }
        ["Nodes", "searched:", n] if n.parse::<u64>().is_ok() => Ok(()),
        // `d`: the diagram and the description lines.
        _ if line == "  +-----------------+"
            || is_diagram_rank(line)
            || line == "    a b c d e f g h" =>
        {
            Ok(())
        }
        ["Fen:" | "Shredder-FEN:", ..]
        | ["Start:", ..]
        | ["No", "position:", ..]
        | ["Key:", _]
        | ["Checkers:", ..] => Ok(()),
        _ => bad(),
    }
}

/// A rank line of `notation::diagram`: `8 | r n b q k b n r |`.
fn is_diagram_rank(line: &str) -> bool {
    let b = line.as_bytes();
    b.len() == 21
        && (b'1'..=b'8').contains(&b[0])
        && line[1..4] == *" | "
        && line.ends_with(" |")
        && line[4..19]
            .split(' ')
            .all(|c| c.len() == 1 && "pnbrqkPNBRQK.".contains(c))
}

fn check_info(words: &[&str]) -> Result<(), String> {
    let mut i = 0;
    if words.is_empty() {
        return Err("empty info".into());
    }
    while i < words.len() {
        let key = words[i];
        let value = words.get(i + 1).copied().unwrap_or("");
        match key {
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "hashfull" | "time" | "tbhits"
            | "cpuload" | "currmovenumber" => {
                if value.parse::<u64>().is_err() {
                    return Err(format!("info {key} '{value}'"));
                }
                i += 2;
            }
            "score" => {
                let ok =
                    matches!(value, "cp" | "mate") && words.get(i + 2).is_some_and(|v| is_int(v));
                if !ok {
                    return Err("bad info score".into());
                }
                i += 3;
                while matches!(words.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
                    i += 1;
                }
            }
            "currmove" => {
                if !is_uci_move(value) {
                    return Err(format!("info currmove '{value}'"));
                }
                i += 2;
            }
            "pv" | "refutation" => {
                if words[i + 1..].is_empty() || !words[i + 1..].iter().all(|m| is_uci_move(m)) {
                    return Err("bad pv".into());
                }
                return Ok(());
            }
            "string" => return Ok(()),
            other => return Err(format!("unknown info key '{other}'")),
        }
    }
    Ok(())
}
