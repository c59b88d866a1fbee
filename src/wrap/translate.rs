//! The lines that cross the front-end rewritten for the other side: the
//! GUI's `go` as the engine reads it, the engine's `info` lines with their
//! moves in the GUI's dialect, and the lines that pass as they are. Why
//! apart: pure functions of a line and a position, tested without the
//! front-end's loop or an engine behind it.

use shakmaty::{Chess, Position};

use crate::notation::{is_move_text, parse_uci_move, uci_move, CastlingStyle};
use crate::uci::command::{GoCommand, GoReading};

/// The `go` line for the engine: the GUI's `go` as read (`reading`: the
/// side to move's clock and the depth as this program's engine searches
/// them), with its searchmoves already in the engine's dialect.
pub(super) fn engine_go_line(
    g: &GoCommand,
    reading: &GoReading,
    white: bool,
    searchmoves: &[String],
) -> String {
    let (wtime, btime) = if white {
        (reading.time, g.btime)
    } else {
        (g.wtime, reading.time)
    };
    let mut words = vec!["go".to_owned()];
    if g.ponder {
        words.push("ponder".to_owned());
    }
    // A side to move's clock of 0 (sent so, or that could not be read, or
    // not sent while the other side's was) is moving at once to this
    // program's engine; Stockfish 15.1 takes a clock of 0 (and a
    // `movetime 0`) for no limit and searched without end, so it goes as
    // 1 ms.
    let (wtime, btime) = match reading.time {
        Some(t) if t <= 0 && white => (Some(1), btime),
        Some(t) if t <= 0 => (wtime, Some(1)),
        _ => (wtime, btime),
    };
    let movetime = g.movetime.map(|v| v.max(1));
    // Counts beyond a C `int` are written as its largest: Stockfish stops
    // reading a `go` at a number it cannot hold. Times first, so that a
    // count an engine cannot read loses no time limit after it.
    let count = |v: u32| v.min(i32::MAX as u32).to_string();
    let fields = [
        ("wtime", wtime.map(|v| v.to_string())),
        ("btime", btime.map(|v| v.to_string())),
        ("winc", g.winc.map(|v| v.to_string())),
        ("binc", g.binc.map(|v| v.to_string())),
        ("movetime", movetime.map(|v| v.to_string())),
        ("movestogo", g.movestogo.map(count)),
        ("depth", reading.depth.map(count)),
        ("nodes", g.nodes.map(|v| v.to_string())),
        ("mate", g.mate.map(count)),
    ];
    for (key, value) in fields {
        if let Some(v) = value {
            words.push(key.to_owned());
            words.push(v);
        }
    }
    if g.infinite {
        words.push("infinite".to_owned());
    }
    if !searchmoves.is_empty() {
        words.push("searchmoves".to_owned());
        words.extend(searchmoves.iter().cloned());
    }
    words.join(" ")
}

/// A line an engine writes that the GUI reads as it is: UCI's
/// `copyprotection` and `registration`, and a `go perft` count as Stockfish
/// prints it (`e2e4: 20`, an empty line, `Nodes searched: 400`), which
/// scripts and `chess960 perft --engine` read.
pub(super) fn is_protocol_or_count(line: &str) -> bool {
    let line = line.trim_end();
    let first = line.split_whitespace().next().unwrap_or("");
    line.is_empty()
        || matches!(first, "copyprotection" | "registration")
        || line.starts_with("Nodes searched:")
        || line.split_once(": ").is_some_and(|(m, n)| {
            !m.is_empty() && !m.contains(' ') && crate::whole_number::digits_only(n)
        })
}

/// An `info string ...` line: words only, no moves or scores.
pub(super) fn is_info_string(line: &str) -> bool {
    line.split_whitespace().nth(1) == Some("string")
}

/// An engine `info` line with its moves (`pv`, `refutation`, `currline`,
/// `currmove`) read against `root` in any castling form and written in
/// `style`. A move that cannot be read ends its line there (GUIs and match
/// runners count an illegal move in a pv against the engine); `string`
/// and everything after it is passed as it is.
pub fn translate_info(line: &str, root: &Chess, style: CastlingStyle) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        i += 1;
        match w {
            "string" => {
                out.push(w.to_owned());
                out.extend(words[i..].iter().map(|s| (*s).to_owned()));
                break;
            }
            "pv" | "refutation" | "currline" => {
                let key_at = out.len();
                out.push(w.to_owned());
                if w == "currline" && words.get(i).is_some_and(|t| t.parse::<u32>().is_ok()) {
                    out.push(words[i].to_owned());
                    i += 1;
                }
                let mut pos = root.clone();
                let mut readable = true;
                let mut any = false;
                while i < words.len() && is_move_text(words[i]) {
                    if readable {
                        match parse_uci_move(&pos, words[i]) {
                            Ok(m) => {
                                out.push(uci_move(m, style));
                                pos.play_unchecked(m);
                                any = true;
                            }
                            Err(_) => readable = false,
                        }
                    }
                    i += 1;
                }
                if !any && w != "currline" {
                    out.truncate(key_at);
                }
            }
            "currmove" => match words.get(i).map(|t| parse_uci_move(root, t)) {
                Some(Ok(m)) => {
                    out.push(w.to_owned());
                    out.push(uci_move(m, style));
                    i += 1;
                }
                Some(Err(_)) => i += 1,
                None => {}
            },
            _ => out.push(w.to_owned()),
        }
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen;

    #[test]
    fn info_moves_are_written_in_the_gui_s_dialect() {
        let root = parse_fen("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1").unwrap();
        let line = "info depth 3 score cp 20 currmove b1h1 pv b1h1 O-O e2e4 string b1h1 stays";
        assert_eq!(
            translate_info(line, &root, CastlingStyle::Arena),
            "info depth 3 score cp 20 currmove O-O pv O-O O-O e2e4 string b1h1 stays"
        );
        // The king's destination (Clover) is read too.
        assert_eq!(
            translate_info("info pv b1g1 b8a8", &root, CastlingStyle::KingTakesRook),
            "info pv b1h1 b8a8"
        );
        // An illegal move ends the pv; a pv with none left is dropped.
        assert_eq!(
            translate_info(
                "info depth 2 pv e2e4 e2e4 d7d5 nodes 5",
                &root,
                CastlingStyle::KingTakesRook
            ),
            "info depth 2 pv e2e4 nodes 5"
        );
        assert_eq!(
            translate_info("info depth 2 pv a1a5", &root, CastlingStyle::KingTakesRook),
            "info depth 2"
        );
    }
}
