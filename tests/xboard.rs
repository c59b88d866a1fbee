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
///
/// A pairing whose only fault is a game XBoard forfeited for an invalid move
/// is played once more, with a notice: on a loaded machine uci2wb now and
/// then sends an engine a position without that engine's own last move (the
/// engine then replays a move of the position before; seen with our engine
/// and with the test engines, never with polyglot). An engine's own illegal
/// move is forfeited the same way, so a second such game fails the test.
fn play(dir: &Path, tag: &str, first: &str, second: &str) -> serde_json::Value {
    for attempt in 1..=2 {
        let out_dir = dir.join(format!("{tag}-{attempt}"));
        let out = Command::new("bash")
            .arg(MATCH)
            .arg(&out_dir)
            .args(["2", "5", "0.1", first, second])
            .env("POSITIONS", dir.join("start.fen"))
            .output()
            .expect("run tools/xboard/match.sh");
        let text = String::from_utf8_lossy(&out.stdout);
        let debug =
            String::from_utf8_lossy(&std::fs::read(out_dir.join("debug.txt")).unwrap_or_default())
                .into_owned();
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
        let good = out.status.success() && summary["games"] == 2;
        if !good && attempt == 1 && only_invalid_move_forfeits(&summary) {
            eprintln!("{tag}: XBoard forfeited a game for an invalid move ({summary}); playing the pairing again");
            continue;
        }
        assert!(
            good,
            "{tag}: {summary}\n{}\n{tail}",
            String::from_utf8_lossy(&out.stderr)
        );
        return summary;
    }
    unreachable!("the second attempt returns or fails")
}

/// Whether every bad game of a checker's summary is one XBoard forfeited for
/// an invalid move (and there is at least one).
fn only_invalid_move_forfeits(summary: &serde_json::Value) -> bool {
    summary["bad"].as_array().is_some_and(|bad| {
        !bad.is_empty()
            && bad.iter().all(|b| {
                b.as_str()
                    .is_some_and(|t| t.contains("Forfeit due to invalid move"))
            })
    })
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

#[test]
fn only_invalid_move_forfeits_are_played_again() {
    let forfeit: serde_json::Value = serde_json::json!({"bad": [
        "game 2: ended 'Xboard: Forfeit due to invalid move: d7d5 (d7d5 via `0, `0) res=24' (1-0)"
    ], "games": 2});
    assert!(only_invalid_move_forfeits(&forfeit));
    let time: serde_json::Value =
        serde_json::json!({"bad": ["game 1: ended 'White wins on time' (1-0)"], "games": 2});
    assert!(!only_invalid_move_forfeits(&time));
    let illegal: serde_json::Value =
        serde_json::json!({"bad": ["game 1: illegal move Ke9 at ply 12"], "games": 2});
    assert!(!only_invalid_move_forfeits(&illegal));
    assert!(!only_invalid_move_forfeits(
        &serde_json::json!({"bad": [], "games": 2})
    ));
}
