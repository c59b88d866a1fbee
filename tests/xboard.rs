//! Chess960 games in a real GUI: Debian's XBoard, headless under Xvfb, with
//! the engine and `chess960 wrap` behind each of XBoard's UCI adapters
//! (polyglot; uci2wb; `uci2wb -f`, the Arena960 dialect of `O-O` castles).
//!
//! tools/xboard/match.sh plays the games and tools/xboard/check_pgn.py
//! replays XBoard's PGN with python-chess: a game counts only when every
//! move is legal Chess960 and it ended on the board (not by time, an illegal
//! move, a forfeit or a crash). The start, RNBBQKRN, lets king and rook swap
//! squares on the first move, so the test engines (which castle whenever
//! they can) castle in every game, and the castle crosses each adapter in its
//! dialect.
//!
//! Skipped with a notice when xboard, xvfb-run, polyglot, uci2wb or
//! python-chess is missing, unless CHESS960_REQUIRE_XBOARD is set (CI sets
//! it).

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{binary, find_tool, python_imports, temp_dir, tool_present};

const MATCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/xboard/match.sh");
const FAULTY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/clients/faulty_engine.py"
);
const STOCKFISH: &str = "/usr/games/stockfish";
/// Chess960 start 613 (RNBBQKRN): White and Black can castle king-side (king
/// f1 to g1, rook g1 to f1) on their first move.
const START: &str = "rnbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/RNBBQKRN w GAga - 0 1";

fn tools_present() -> bool {
    let all = ["xboard", "xvfb-run", "polyglot", "uci2wb"]
        .iter()
        .all(|t| find_tool(t).is_some())
        && python_imports("chess.pgn");
    tool_present(
        all,
        "xboard, xvfb-run, polyglot, uci2wb or python-chess",
        "CHESS960_REQUIRE_XBOARD",
        "apt-get install xboard polyglot uci2wb xvfb; pip install chess==1.11.2",
    )
}

fn work_dir() -> PathBuf {
    let dir = temp_dir("xboard");
    std::fs::write(dir.join("start.fen"), format!("{START}\n")).expect("write start");
    dir
}

/// Two games (colours reversed) of 5 s + 0.1 s in XBoard between `first` and
/// `second` ("ADAPTER ENGINE ARGS..."); the checker's summary, after
/// asserting that both games were good.
fn play(dir: &Path, tag: &str, first: &str, second: &str) -> serde_json::Value {
    let out_dir = dir.join(tag);
    let out = Command::new("bash")
        .arg(MATCH)
        .arg(&out_dir)
        .args(["2", "5", "0.1", first, second])
        .env("POSITIONS", dir.join("start.fen"))
        .output()
        .expect("run tools/xboard/match.sh");
    let text = String::from_utf8_lossy(&out.stdout);
    let debug = std::fs::read_to_string(out_dir.join("debug.txt")).unwrap_or_default();
    let tail: String = debug
        .lines()
        .rev()
        .take(40)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join("\n");
    let summary: serde_json::Value = serde_json::from_str(text.trim()).unwrap_or_else(|_| {
        panic!(
            "{tag}: no summary: {text} {}\n{tail}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(
        out.status.success() && summary["games"] == 2,
        "{tag}: {summary}\n{}\n{tail}",
        String::from_utf8_lossy(&out.stderr)
    );
    summary
}

fn castles(summary: &serde_json::Value) -> u64 {
    ["O-O", "O-O-O"]
        .iter()
        .filter_map(|side| summary["castles"][side].as_u64())
        .sum()
}

#[test]
fn xboard_plays_chess960_through_every_adapter() {
    if !tools_present() {
        return;
    }
    let dir = work_dir();
    let engine = binary();
    let wrapped = |args: &str| format!("{engine} wrap {args}");
    // Each test engine castles on its first move: at least once a game.
    let cases = [
        (
            "uci2wb",
            format!("uci2wb {engine}"),
            format!("uci2wb {}", wrapped(&format!("-- python3 {FAULTY} king"))),
        ),
        (
            "uci2wb-f",
            format!("uci2wb-f {engine}"),
            format!(
                "uci2wb-f {}",
                wrapped(&format!(
                    "--engine-castling oo --engine-fen xfen -- python3 {FAULTY} oo"
                ))
            ),
        ),
        (
            "polyglot",
            format!("polyglot {engine}"),
            format!("polyglot {}", wrapped(&format!("-- python3 {FAULTY} exit"))),
        ),
    ];
    for (tag, first, second) in &cases {
        let summary = play(&dir, tag, first, second);
        assert!(castles(&summary) >= 2, "{tag}: {summary}");
    }
    if Path::new(STOCKFISH).exists() {
        play(
            &dir,
            "stockfish",
            &format!("uci2wb-f {engine}"),
            &format!("polyglot {}", wrapped(&format!("-- {STOCKFISH}"))),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
