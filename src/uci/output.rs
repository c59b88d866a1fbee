//! Everything the engine writes to the GUI goes through [`Output`]: one
//! lock, one line at a time, flushed, and copied to the debug log file when
//! one is set. This is what keeps stdout protocol-only.
//!
//! Constant engine-to-GUI messages are formatted by vampirc-uci, behind a
//! guard that checks the text is one printable ASCII line (and, for
//! `bestmove`, that it says exactly the move we meant); otherwise our own
//! formatting is used.

use std::fs::File;
use std::io::{self, Write};
use std::sync::Mutex;

use shakmaty::uci::UciMove;
use vampirc_uci::{UciMessage, UciOptionConfig, UciPiece, UciSquare};

struct Inner {
    out: Box<dyn Write + Send>,
    log: Option<File>,
    broken: bool,
}

/// The engine's single writer.
pub struct Output {
    inner: Mutex<Inner>,
}

impl Output {
    /// Write to `out` (stdout in the binary, a buffer in tests).
    pub fn new(out: Box<dyn Write + Send>) -> Output {
        Output {
            inner: Mutex::new(Inner {
                out,
                log: None,
                broken: false,
            }),
        }
    }

    /// Send one protocol line. Anything but printable ASCII (an echo of
    /// invalid UTF-8 or control bytes in an error message) becomes `?`, so
    /// the GUI always receives exactly one clean line.
    pub fn send(&self, line: &str) {
        self.send_lines(&[line]);
    }

    /// Send several lines as one block: no line from another thread (a
    /// search's `info`, an error answer to the input thread) can fall
    /// between them. Each line is cleaned as in [`Self::send`].
    ///
    /// The block goes out in a single `write_all`, so whatever reads the
    /// stream never sees half a line, even with a writer that does not
    /// buffer (a pipe, or a test's buffer read from another thread).
    pub fn send_lines<S: AsRef<str>>(&self, lines: &[S]) {
        let mut text = String::new();
        for line in lines {
            text.extend(line.as_ref().chars().map(printable));
            text.push('\n');
        }
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        if !inner.broken {
            let ok = inner
                .out
                .write_all(text.as_bytes())
                .and_then(|()| inner.out.flush());
            if ok.is_err() {
                // The GUI is gone; stay quiet, `quit`/EOF will follow.
                inner.broken = true;
            }
        }
        for line in text.lines() {
            log_line(&mut inner.log, '>', line);
        }
    }

    /// Send `info string <text>`, one line per line of `text`.
    pub fn info_string(&self, text: &str) {
        let block: Vec<String> = text.lines().map(|l| format!("info string {l}")).collect();
        self.send_lines(&block);
    }

    /// Copy a line received from the GUI into the debug log.
    pub fn log_input(&self, line: &str) {
        if let Ok(mut inner) = self.inner.lock() {
            log_line(&mut inner.log, '<', line);
        }
    }

    /// Note in the debug log that the GUI's input ended (`#` for neither
    /// direction: no line was received).
    pub fn log_end_of_input(&self) {
        if let Ok(mut inner) = self.inner.lock() {
            log_line(&mut inner.log, '#', "end of input");
        }
    }

    /// Start (or with an empty path, stop) logging every line in and out.
    ///
    /// # Errors
    /// The file cannot be opened for appending.
    pub fn set_log_file(&self, path: &str) -> io::Result<()> {
        let file = if path.is_empty() || path == "<empty>" {
            None
        } else {
            Some(File::options().create(true).append(true).open(path)?)
        };
        if let Ok(mut inner) = self.inner.lock() {
            inner.log = file;
        }
        Ok(())
    }
}

/// `c` if it is printable ASCII, else `?`.
fn printable(c: char) -> char {
    if (' '..='~').contains(&c) {
        c
    } else {
        '?'
    }
}

/// One log line: an RFC 3339 UTC timestamp with milliseconds, the
/// direction (`<` from the GUI, `>` to it) and the text without its line
/// ending, so each message takes exactly one line.
fn log_line(log: &mut Option<File>, dir: char, line: &str) {
    if let Some(f) = log {
        let line = line.trim_end_matches(['\n', '\r']);
        let _ = writeln!(f, "{:.3} {dir} {line}", jiff::Timestamp::now());
    }
}

/// Format through vampirc-uci if the result is sound, else use `fallback`.
fn guarded(msg: UciMessage, fallback: String, must_equal: bool) -> String {
    let text = msg.to_string();
    let sound = !text.is_empty()
        && text.bytes().all(|b| (0x20..0x7f).contains(&b))
        && (!must_equal || text == fallback);
    if sound {
        text
    } else {
        log::warn!("vampirc-uci formatted {text:?}; using {fallback:?}");
        fallback
    }
}

/// `id name ...` and `id author ...`.
pub fn id_lines(name: &str, author: &str) -> [String; 2] {
    [
        guarded(UciMessage::id_name(name), format!("id name {name}"), true),
        guarded(
            UciMessage::id_author(author),
            format!("id author {author}"),
            true,
        ),
    ]
}

/// `uciok`.
pub fn uciok() -> String {
    guarded(UciMessage::UciOk, "uciok".into(), true)
}

/// `readyok`.
pub fn readyok() -> String {
    guarded(UciMessage::ReadyOk, "readyok".into(), true)
}

/// An `option` line; `fallback` is our own rendering of the same option.
pub fn option_line(config: UciOptionConfig, fallback: String) -> String {
    guarded(UciMessage::Option(config), fallback, false)
}

fn to_vampirc(m: &UciMove) -> Option<vampirc_uci::UciMove> {
    let UciMove::Normal {
        from,
        to,
        promotion,
    } = *m
    else {
        return None;
    };
    let sq = |s: shakmaty::Square| UciSquare::from(s.file().char(), s.rank().char() as u8 - b'0');
    let promotion = match promotion {
        None => None,
        Some(shakmaty::Role::Knight) => Some(UciPiece::Knight),
        Some(shakmaty::Role::Bishop) => Some(UciPiece::Bishop),
        Some(shakmaty::Role::Rook) => Some(UciPiece::Rook),
        Some(shakmaty::Role::Queen) => Some(UciPiece::Queen),
        Some(_) => return None,
    };
    Some(vampirc_uci::UciMove {
        from: sq(from),
        to: sq(to),
        promotion,
    })
}

/// `bestmove <m> [ponder <p>]`, or `bestmove 0000` when there is no legal
/// move (the UCI null move; GUIs read it as "no move"). The moves come as
/// text in the GUI's dialect: a castle word (`O-O`) is written as it is.
pub fn bestmove(best: Option<&str>, ponder: Option<&str>) -> String {
    let Some(best) = best else {
        return "bestmove 0000".into();
    };
    let fallback = match ponder {
        Some(p) => format!("bestmove {best} ponder {p}"),
        None => format!("bestmove {best}"),
    };
    let vampirc = |t: &str| t.parse::<UciMove>().ok().as_ref().and_then(to_vampirc);
    let msg = match (vampirc(best), ponder.map(vampirc)) {
        (Some(b), None) => UciMessage::best_move(b),
        (Some(b), Some(Some(p))) => UciMessage::best_move_with_ponder(b, p),
        _ => return fallback,
    };
    guarded(msg, fallback, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bestmove_formats_castling_and_promotion() {
        assert_eq!(bestmove(Some("e1h1"), None), "bestmove e1h1");
        assert_eq!(
            bestmove(Some("a7a8n"), Some("e1h1")),
            "bestmove a7a8n ponder e1h1"
        );
        assert_eq!(
            bestmove(Some("O-O"), Some("e7e5")),
            "bestmove O-O ponder e7e5"
        );
        assert_eq!(
            bestmove(Some("e2e4"), Some("O-O-O")),
            "bestmove e2e4 ponder O-O-O"
        );
        assert_eq!(bestmove(None, None), "bestmove 0000");
    }

    /// Records each `write` call, as a reader on another thread would see
    /// the stream between calls.
    #[derive(Clone, Default)]
    struct Calls(std::sync::Arc<Mutex<Vec<Vec<u8>>>>);

    impl Write for Calls {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().expect("calls").push(b.to_vec());
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// A line, or a block, is written whole in one call: a reader between
    /// two calls never sees a partial line (CI once caught the perft divide
    /// mid-line when its number and newline were two writes).
    #[test]
    fn lines_and_blocks_are_written_whole() {
        let calls = Calls::default();
        let out = Output::new(Box::new(calls.clone()));
        out.send("g2g3: 20");
        out.send_lines(&["a2a3: 20", "", "Nodes searched: 20"]);
        out.send("bad \u{7} byte");
        let got = calls.0.lock().expect("calls").clone();
        assert_eq!(
            got,
            vec![
                b"g2g3: 20\n".to_vec(),
                b"a2a3: 20\n\nNodes searched: 20\n".to_vec(),
                b"bad ? byte\n".to_vec(),
            ]
        );
    }

    #[test]
    fn constant_messages() {
        assert_eq!(uciok(), "uciok");
        assert_eq!(readyok(), "readyok");
        assert_eq!(id_lines("x y", "z")[0], "id name x y");
    }
}
