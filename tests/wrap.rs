//! `chess960 wrap` in front of real and faulty engines.
//!
//! python-chess plays the GUI (tests/clients/wrap_games.py): it checks every
//! `bestmove` and every `pv` move, so a game counts only with legal moves
//! throughout. Behind the front-end: the test engines of
//! tests/clients/faulty_engine.py, each speaking one bad dialect or failing
//! in one way, and Stockfish where it is installed. The Arena dialect
//! upstream is spoken line by line.

mod support;

use std::process::Command;
use std::time::Duration;

use support::{binary, python_imports, tool_present, Engine, REPLY};

const FAULTY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/clients/faulty_engine.py"
);
const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/clients/wrap_games.py");
const STOCKFISH: &str = "/usr/games/stockfish";

/// `chess960 wrap` in front of the test engine in the mode `args` names.
fn wrapped_faulty(args: &[&str]) -> Engine {
    let mut argv = vec!["wrap", "--", "python3", FAULTY];
    argv.extend_from_slice(args);
    Engine::start_with(&argv, None, Duration::from_secs(60))
}

/// [`wrapped_faulty`] with its `uci` handshake done.
fn faulty_after_uci(args: &[&str]) -> Engine {
    let mut e = wrapped_faulty(args);
    e.send("uci");
    e.expect("uciok", REPLY);
    e
}

/// `chess960 wrap --log LOG` in front of the test engine in `mode`, its
/// `uci` handshake done; the log's path (named after `name`) comes back.
fn logged_faulty(name: &str, mode: &str) -> (Engine, std::path::PathBuf) {
    logged_faulty_with(name, &[mode])
}

/// [`logged_faulty`] with the test engine's arguments `args`.
fn logged_faulty_with(name: &str, args: &[&str]) -> (Engine, std::path::PathBuf) {
    let log = std::env::temp_dir().join(format!("chess960-wrap-{name}-{}.log", std::process::id()));
    let path = log.to_string_lossy().into_owned();
    let mut argv = vec!["wrap", "--log", &path, "--", "python3", FAULTY];
    argv.extend_from_slice(args);
    let mut e = Engine::start_with(&argv, None, Duration::from_secs(60));
    e.send("uci");
    e.expect("uciok", REPLY);
    (e, log)
}

/// `quit`, then the lines the front-end's `--log` at `log` shows sent to
/// the engine that contain `part` (the log is removed).
fn sent_to_engine(e: &mut Engine, log: &std::path::Path, part: &str) -> Vec<String> {
    e.send("quit");
    let _ = e.wait_exit(REPLY);
    let text = std::fs::read_to_string(log).expect("log written");
    let _ = std::fs::remove_file(log);
    text.lines()
        .filter(|l| l.split(' ').nth(1) == Some(">engine") && l.contains(part))
        .map(str::to_owned)
        .collect()
}

fn python_chess() -> bool {
    tool_present(
        python_imports("chess.engine"),
        "python-chess",
        "CHESS960_REQUIRE_PYTHON_CHESS",
        "pip install chess==1.11.2",
    )
}

/// Play `games` games of at most `plies` plies through `wrap_args`; the
/// driver's JSON summary.
fn play(games: u32, plies: u32, wrap_args: &[&str]) -> serde_json::Value {
    let out = Command::new("python3")
        .arg(GAMES)
        .args([
            &games.to_string(),
            &plies.to_string(),
            "0.05",
            "--",
            binary(),
            "wrap",
        ])
        .args(wrap_args)
        .output()
        .expect("run python3");
    let text = String::from_utf8_lossy(&out.stdout);
    let summary: serde_json::Value = serde_json::from_str(text.trim()).unwrap_or_else(|_| {
        panic!(
            "{wrap_args:?}: no summary: {text} {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert!(out.status.success(), "{wrap_args:?}: {summary}");
    assert_eq!(summary["errors"], serde_json::json!([]), "{wrap_args:?}");
    summary
}

#[test]
fn every_faulty_engine_gives_only_legal_moves() {
    if !python_chess() {
        return;
    }
    let cases: &[&[&str]] = &[
        &["--", "python3", FAULTY, "ok"],
        // Castles written as the king's destination, read with the position.
        &["--engine-castling", "king", "--", "python3", FAULTY, "king"],
        &["--", "python3", FAULTY, "king"],
        // O-O and X-FEN only: spoken to in its dialect, it plays; spoken
        // Shredder-FEN, it exits and is replaced and restarted.
        &[
            "--engine-castling",
            "oo",
            "--engine-fen",
            "xfen",
            "--",
            "python3",
            FAULTY,
            "oo",
        ],
        &["--", "python3", FAULTY, "oo"],
        &["--engine-fen", "xfen", "--", "python3", FAULTY, "xfen"],
        // Failures at the third go of each process.
        &["--", "python3", FAULTY, "exit"],
        &["--", "python3", FAULTY, "illegal"],
        &["--margin", "50", "--", "python3", FAULTY, "hang"],
    ];
    for args in cases {
        let summary = play(2, 20, args);
        // Every game lasts its 20 plies unless the rules end it first (the
        // engines play at random, and the front-end's own move, made in
        // their place at a failure, can mate them early).
        let ended = summary["ended"].as_u64().unwrap_or(0);
        assert!(
            summary["plies"] == 40 || (ended > 0 && summary["plies"].as_u64() > Some(0)),
            "{args:?}: {summary}"
        );
    }
}

#[test]
fn stockfish_plays_through_the_front_end() {
    let present = std::path::Path::new(STOCKFISH).exists();
    if !python_chess()
        || !tool_present(
            present,
            "Stockfish",
            "CHESS960_REQUIRE_STOCKFISH",
            "apt-get install stockfish",
        )
    {
        return;
    }
    let summary = play(2, 30, &["--", STOCKFISH]);
    assert!(
        summary["plies"].as_u64().is_some_and(|p| p >= 40),
        "{summary}"
    );
}

/// Arena's dialect upstream: castles sent as `O-O` are read, and the
/// engine's king-takes-rook castle comes back as `O-O`, in `pv` too; with
/// `UCI_Chess960_Arena` from the first move. `id name` is the engine's, and
/// the front-end offers both Chess960 options whatever the engine declares.
#[test]
fn the_arena_dialect_is_spoken_upstream() {
    if !python_chess() {
        return;
    }
    let mut e = wrapped_faulty(&["ok"]);
    e.send("uci");
    let lines = e.expect("uciok", REPLY);
    assert!(lines.contains(&"id name faulty-ok".to_owned()), "{lines:?}");
    for own in ["UCI_Chess960", "UCI_Chess960_Arena"] {
        let decl = format!("option name {own} type check default false");
        assert_eq!(lines.iter().filter(|l| **l == decl).count(), 1, "{lines:?}");
    }
    assert!(
        lines.iter().any(|l| l.starts_with("option name Hash ")),
        "{lines:?}"
    );
    // White castled O-O; Black's only castle is the one the engine plays.
    // A second to answer: the test engine answers at once, and a stand-in
    // move of the front-end's own (the engine seen as late on a loaded
    // machine) would not be the engine's castle.
    e.ask("position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1 moves O-O");
    e.send("go movetime 1000");
    let (before, best, _) = e.bestmove(REPLY);
    assert!(best == "O-O" || best == "O-O-O", "{best} {before:?}");
    assert!(
        before.iter().any(|l| l.ends_with(&format!("pv {best}"))),
        "{before:?}"
    );
    // A new game in king-takes-rook, then the option.
    e.ask("ucinewgame");
    e.ask("position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1");
    e.send("go movetime 1000");
    let (_, best, _) = e.bestmove(REPLY);
    assert!(best == "b1h1" || best == "b1a1", "{best}");
    e.ask("setoption name UCI_Chess960_Arena value true");
    e.ask("position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1");
    e.send("go movetime 1000");
    let (_, best, _) = e.bestmove(REPLY);
    assert!(best == "O-O" || best == "O-O-O", "{best}");
}

/// `--log` has one timestamped line per message in each of the four
/// directions.
#[test]
fn the_log_has_the_four_directions() {
    if !python_chess() {
        return;
    }
    let log = std::env::temp_dir().join(format!("chess960-wrap-{}.log", std::process::id()));
    let path = log.to_string_lossy().into_owned();
    play(1, 4, &["--log", &path, "--", "python3", FAULTY, "ok"]);
    let text = std::fs::read_to_string(&log).expect("log written");
    let _ = std::fs::remove_file(&log);
    for dir in ["gui>", ">gui", ">engine", "engine>"] {
        assert!(
            text.lines().any(|l| l.split(' ').nth(1) == Some(dir)),
            "no '{dir}' line in {text}"
        );
    }
    for l in text.lines() {
        let stamp = l.split(' ').next().unwrap_or("");
        assert!(stamp.parse::<jiff::Timestamp>().is_ok(), "{l}");
    }
}

/// A `go` whose searchmoves are all illegal reaches the engine without an
/// empty `searchmoves` (each ignored move is named to the GUI), and is
/// answered.
#[test]
fn searchmoves_all_illegal_are_dropped_not_sent_empty() {
    if !python_chess() {
        return;
    }
    let (mut e, log) = logged_faulty("sm", "ok");
    e.ask("position startpos");
    e.send("go depth 1 searchmoves a1a8 e2e5");
    let (lines, best, _) = e.bestmove(REPLY);
    let named: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error: go: ignored searchmoves"))
        .collect();
    assert!(
        named.len() == 1 && named[0].contains("a1a8") && named[0].contains("e2e5"),
        "{lines:?}"
    );
    assert_ne!(best, "0000", "{lines:?}");
    // Words that cannot be read are named, as the engine alone names them,
    // and not sent: Stockfish stops reading at `depth x` and searches with
    // no limit, and reads `wtime 2e3` as 2 ms.
    e.send("go depth x movetime 200");
    let (lines, _, _) = e.bestmove(REPLY);
    assert!(
        lines.contains(
            &"info string error: go: ignored 'depth x'; searching with the rest".to_owned()
        ),
        "{lines:?}"
    );
    e.send("go wtime 2e3 btime 2000");
    let (lines, _, _) = e.bestmove(REPLY);
    assert!(
        lines.contains(
            &"info string error: go: ignored 'wtime 2e3'; searching with the rest, wtime as 0 (moving at once)"
                .to_owned()
        ),
        "{lines:?}"
    );
    // A clock or movetime of 0 (moving at once) goes as 1 ms: Stockfish
    // 15.1 takes 0 for no limit and searches without end. The engine has
    // the margin to answer (90% of a clock of 0 was no time at all: the
    // front-end always answered itself).
    for go in ["go movetime 0", "go wtime 0 btime 2000"] {
        e.send(go);
        let (lines, _, _) = e.bestmove(REPLY);
        assert!(
            !lines
                .iter()
                .any(|l| l.contains("answers with its own move")),
            "{go}: {lines:?}"
        );
    }
    // An engine that searches on `go perft` (the test engine answers every
    // go with a move): the GUI is told, not left waiting for a count.
    e.send("go perft 2");
    e.expect_by("the engine without perft named", REPLY, |l| {
        l.starts_with(
            "info string error: the engine has no 'go perft': it searched instead of counting ('bestmove",
        )
    });
    let sent = sent_to_engine(&mut e, &log, " go ");
    assert!(!sent.is_empty(), "{sent:?}");
    assert!(sent.iter().all(|l| !l.contains("searchmoves")), "{sent:?}");
    assert!(
        sent.iter().any(|l| l.ends_with(" go movetime 200")),
        "{sent:?}"
    );
    assert_eq!(
        sent.iter()
            .filter(|l| l.ends_with(" go wtime 1 btime 2000"))
            .count(),
        2,
        "{sent:?}"
    );
    assert!(
        sent.iter().any(|l| l.ends_with(" go movetime 1")),
        "{sent:?}"
    );
}

/// With `--engine-castling king`, a castle whose king's destination is
/// also the king's plain step (king b1, rook a1: `b1c1`) reaches the engine
/// king-takes-rook, and the plain step as itself: an engine that reads a
/// move's squares as the plain move first keeps the GUI's game. Castles
/// with a destination of their own are written as the king's destination.
#[test]
fn ambiguous_king_destinations_reach_the_engine_king_takes_rook() {
    if !python_chess() {
        return;
    }
    let log =
        std::env::temp_dir().join(format!("chess960-wrap-kingdest-{}.log", std::process::id()));
    let path = log.to_string_lossy().into_owned();
    let mut e = Engine::start_with(
        &[
            "wrap",
            "--engine-castling",
            "king",
            "--log",
            &path,
            "--",
            "python3",
            FAULTY,
            "king",
        ],
        None,
        Duration::from_secs(60),
    );
    e.send("uci");
    e.expect("uciok", REPLY);
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
    for gui in ["b1a1 b8a8", "b1c1 b8c8", "b1h1 b8h8"] {
        e.ask(&format!("position fen {fen} moves {gui}"));
        e.send("go depth 1");
        let (lines, best, _) = e.bestmove(REPLY);
        assert!(
            !lines.iter().any(|l| l.contains("own move")),
            "{gui}: {lines:?}"
        );
        assert_ne!(best, "0000", "{gui}: {lines:?}");
    }
    e.ask(&format!("position fen {fen}"));
    e.send("go depth 1 searchmoves b1a1");
    let (lines, best, _) = e.bestmove(REPLY);
    assert_ne!(best, "0000", "{lines:?}");
    let sent = sent_to_engine(&mut e, &log, "");
    for engine in ["b1a1 b8a8", "b1c1 b8c8", "b1g1 b8g8"] {
        let line = format!(" position fen {fen} moves {engine}");
        assert!(sent.iter().any(|l| l.ends_with(&line)), "{line}: {sent:?}");
    }
    assert!(
        sent.iter()
            .any(|l| l.ends_with(" go depth 1 searchmoves b1a1")),
        "{sent:?}"
    );
}

/// A `setoption` value the engine declared it cannot take (not a number
/// for a spin, beyond its range) is named to the GUI and not sent: an
/// engine that exits on it (Stockfish 15.1 on `Hash value lots`) would
/// have it replayed at every restart. Values it can take pass, written
/// as the engine reads them: Stockfish 15.1 ignores `TRUE` for a check
/// without a word.
#[test]
fn an_option_value_the_engine_cannot_take_is_named_not_sent() {
    if !python_chess() {
        return;
    }
    let (mut e, log) = logged_faulty("opt", "ok");
    e.send("setoption name Hash value lots");
    e.send("setoption name Hash value 4096");
    e.send("setoption name hash value 64");
    e.send("setoption name Ponder value TRUE");
    e.send("isready");
    let before = e.expect("readyok", REPLY).into_iter();
    let errors: Vec<String> = before
        .filter(|l| l.starts_with("info string error: option Hash"))
        .collect();
    assert_eq!(
        errors,
        [
            "info string error: option Hash: 'lots' is not an integer; not sent to the engine",
            "info string error: option Hash: 4096 out of range 1..1024; not sent to the engine"
        ],
    );
    let sent = sent_to_engine(&mut e, &log, "setoption");
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert!(
        sent[0].ends_with("setoption name hash value 64"),
        "{sent:?}"
    );
    assert!(
        sent[1].ends_with("setoption name Ponder value true"),
        "{sent:?}"
    );
}

/// An engine that exits during an infinite search: the search stays open
/// (UCI answers it only after `stop`; a GUI takes an early answer for its
/// next search's), is given to the engine started in its place, and is
/// answered at the GUI's `stop`.
#[test]
fn an_infinite_search_stays_open_when_its_engine_exits() {
    if !python_chess() {
        return;
    }
    let mut e = before_third_go("exit");
    e.send("position startpos");
    e.send("go infinite");
    let meanwhile = e.drain(Duration::from_millis(1500));
    if meanwhile.iter().any(|l| l.starts_with("bestmove")) {
        e.fail(&format!("answered before stop: {meanwhile:?}"));
    }
    e.send("stop");
    let (_, best, _) = e.bestmove(REPLY);
    if let Err(why) = support::legal_move(&shakmaty::Chess::default(), &best, false) {
        e.fail(&format!("'{best}': {why}"));
    }
}

/// With the engine given up on, a `ponderhit` is answered at once by the
/// front-end, not when the deadline near the end of the clock comes.
#[test]
fn a_ponderhit_with_no_engine_is_answered_at_once() {
    if !python_chess() {
        return;
    }
    let mut e = faulty_after_uci(&["crash"]);
    e.send("setoption name Crash value 1");
    e.send("isready");
    e.expect("readyok", Duration::from_secs(30));
    e.send("position startpos");
    e.send("go ponder wtime 60000 btime 60000");
    let meanwhile = e.drain(Duration::from_millis(500));
    if meanwhile.iter().any(|l| l.starts_with("bestmove")) {
        e.fail(&format!("answered before ponderhit: {meanwhile:?}"));
    }
    let asked = std::time::Instant::now();
    e.send("ponderhit");
    let (_, best, _) = e.bestmove(REPLY);
    if asked.elapsed() > Duration::from_secs(10) {
        e.fail(&format!("answered {:?} after ponderhit", asked.elapsed()));
    }
    if let Err(why) = support::legal_move(&shakmaty::Chess::default(), &best, false) {
        e.fail(&format!("'{best}': {why}"));
    }
    // An infinite search after an infinite one: the first is answered (the
    // second `go` ended it), the second stays open until `stop`.
    e.send("go infinite");
    e.send("go infinite");
    let meanwhile = e.drain(Duration::from_millis(1000));
    let answers = meanwhile
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .count();
    if answers != 1 {
        e.fail(&format!("{answers} answers before stop: {meanwhile:?}"));
    }
    e.send("stop");
    e.bestmove(REPLY);
}

/// An engine that cannot be started: one line naming it, status 1.
#[test]
fn an_engine_that_cannot_start_is_named() {
    let out = Command::new(binary())
        .args(["wrap", "--", "/nonexistent/engine"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines().count() == 1 && err.contains("/nonexistent/engine"),
        "{err}"
    );
    // A program that exits at once is said to, not to have taken the
    // handshake's 10 s.
    let out = Command::new(binary())
        .args(["wrap", "--", "true"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines().count() == 1
            && err.contains("did not answer 'uci' with 'uciok': it exited after ")
            && err.contains(" ms, having written nothing"),
        "{err}"
    );
}

/// A restarted engine that is slow to start does not hold up the GUI: the
/// `go` sent meanwhile is answered within its time (by the front-end's own
/// move when the engine is not up by then), and what the GUI sent is given
/// to the engine once it is.
#[test]
fn a_slow_restart_does_not_hold_up_the_gui() {
    if !python_chess() {
        return;
    }
    let marker = std::env::temp_dir().join(format!("chess960-slow-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let marker_arg = marker.to_string_lossy().into_owned();
    let mut e = faulty_after_uci(&["slow", &marker_arg]);
    let mut moves: Vec<String> = Vec::new();
    let mut play = |e: &mut Engine, go: &str| {
        let line = if moves.is_empty() {
            "position startpos".to_owned()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(&line);
        e.send(go);
        let started = std::time::Instant::now();
        let (before, best, _) = e.bestmove(REPLY);
        moves.push(best);
        (before, started.elapsed())
    };
    // Time enough for a loaded machine (the engine answers at once): a late
    // answer would hold the next go back and shift the engine's count.
    play(&mut e, "go movetime 1000");
    play(&mut e, "go movetime 1000");
    // The third go: the engine exits, is replaced, and restarts slowly
    // (on a loaded machine the go's 150 ms may pass before its exit is seen).
    let (before, _) = play(&mut e, "go movetime 50");
    assert!(
        before
            .iter()
            .any(|l| l.contains("the engine exited") || l.contains("did not answer in time")),
        "{before:?}"
    );
    // A value the engine cannot take is named while it starts too (its
    // declarations are those of its first start).
    e.send("setoption name Hash value lots");
    e.expect(
        "info string error: option Hash: 'lots' is not an integer; not sent to the engine",
        REPLY,
    );
    let (before, took) = play(&mut e, "go wtime 1000 btime 1000");
    assert!(took < Duration::from_millis(2000), "{took:?} {before:?}");
    assert!(
        before.iter().any(|l| l.contains("did not answer in time")),
        "{before:?}"
    );
    // Once the engine is up, it gets what was kept and answers itself.
    e.send("isready");
    e.expect("readyok", Duration::from_secs(10));
    let (before, _) = play(&mut e, "go movetime 1000");
    assert!(
        !before
            .iter()
            .any(|l| l.contains("answers with its own move")),
        "{before:?}"
    );
    let _ = std::fs::remove_file(&marker);
}

/// An engine that answers a pondering or infinite search at once, against
/// UCI, is held back: the GUI gets the answer only when it ends the search
/// (`ponderhit`, `stop`), so it never takes it for the move of another.
#[test]
fn an_early_answer_to_ponder_or_infinite_waits_for_the_gui() {
    if !python_chess() {
        return;
    }
    let mut e = faulty_after_uci(&["early"]);
    e.send("isready");
    e.expect("readyok", REPLY);
    for (position, go, end) in [
        (
            "position startpos",
            "go ponder wtime 60000 btime 60000",
            "ponderhit",
        ),
        ("position startpos moves e2e4", "go infinite", "stop"),
    ] {
        e.send(position);
        e.send(go);
        let quiet_until = std::time::Instant::now() + Duration::from_millis(1500);
        while let Some(left) = quiet_until.checked_duration_since(std::time::Instant::now()) {
            match e.next_line(left) {
                Some(line) => assert!(!line.starts_with("bestmove"), "{go}: {line} before {end}"),
                None => break,
            }
        }
        e.send(end);
        let (_, best, _) = e.bestmove(REPLY);
        assert!(!best.is_empty() && best != "0000", "{go}: {best}");
    }
    // A plain search is answered as before.
    e.send("position startpos");
    e.send("go movetime 50");
    e.bestmove(REPLY);
}

/// The front-end before the test engine's third go in `mode` (where the
/// failing modes fail): its handshake done and two searches answered.
fn before_third_go(mode: &str) -> Engine {
    let mut e = faulty_after_uci(&[mode]);
    for _ in 0..2 {
        e.send("position startpos");
        // Time enough for a loaded machine: an answer seen as late would
        // hold the next go back and shift the engine's count of them.
        e.send("go movetime 1000");
        e.bestmove(REPLY);
    }
    e
}

/// The output of `e` up to its exit (it must exit within `REPLY`).
fn lines_to_exit(e: &mut Engine) -> Vec<String> {
    let lines = e.drain(REPLY);
    match e.wait_exit(REPLY) {
        Some(status) if status.success() => lines,
        other => e.fail(&format!("the front-end did not exit cleanly: {other:?}")),
    }
}

/// The one `bestmove` among `lines`, a legal move of the start position.
fn one_legal_bestmove(e: &mut Engine, lines: &[String], what: &str) {
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    let [line] = best.as_slice() else {
        e.fail(&format!("{what}: {} bestmove lines", best.len()));
    };
    let text = line.split_whitespace().nth(1).unwrap_or("");
    if let Err(why) = support::legal_move(&shakmaty::Chess::default(), text, false) {
        e.fail(&format!("{what}: '{line}': {why}"));
    }
}

/// What the GUI asked before `quit` or the end of its input is answered,
/// as by an engine alone: the search it left open is stopped and its
/// `bestmove` given, a pending `isready` gets its `readyok`, then the
/// front-end exits. An engine that does not answer in time is answered
/// for.
#[test]
fn quit_and_end_of_input_leave_nothing_unanswered() {
    if !python_chess() {
        return;
    }
    for end in ["quit", "end of input"] {
        let mut e = faulty_after_uci(&["ok"]);
        e.send("position startpos");
        e.send("go infinite");
        e.send("isready");
        if end == "quit" {
            e.send("quit");
        } else {
            e.close_stdin();
        }
        let lines = lines_to_exit(&mut e);
        let readyok = lines.iter().filter(|l| *l == "readyok").count();
        assert_eq!(readyok, 1, "{end}: {lines:?}");
        assert!(
            !lines.iter().any(|l| l.contains("did not answer")),
            "{end}: the engine answered: {lines:?}"
        );
        one_legal_bestmove(&mut e, &lines, end);
    }
    // The engine never answers its third go, not even after stop.
    let mut e = before_third_go("hang");
    e.send("position startpos");
    e.send("go wtime 60000 btime 60000");
    let asked = std::time::Instant::now();
    e.send("quit");
    let lines = lines_to_exit(&mut e);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string the engine did not answer before quit")),
        "{lines:?}"
    );
    one_legal_bestmove(&mut e, &lines, "hang");
    // 1 s for the engine's answer, 0.2 s for the front-end's, 0.5 s to exit.
    assert!(asked.elapsed() < QUIT_BOUND, "{:?}", asked.elapsed());
    // The count of a `go perft` the engine finishes after quit is given.
    let mut e = Engine::start_with(&["wrap", "--", binary()], None, Duration::from_secs(60));
    e.send("uci");
    e.expect("uciok", REPLY);
    e.send("position startpos");
    e.send("go perft 3");
    e.send("quit");
    let lines = lines_to_exit(&mut e);
    assert!(
        lines.iter().any(|l| l == "Nodes searched: 8902"),
        "{lines:?}"
    );
}

/// The longest a `quit` may take with an engine that answers nothing: the
/// graces (1 s, the front-end's own move, 0.5 s) and room for a loaded
/// machine.
const QUIT_BOUND: Duration = Duration::from_secs(6);

/// An engine that writes without pause holds no deadline off: a search it
/// does not answer in time is answered by the front-end, and `quit` ends
/// within its graces.
#[test]
fn an_engine_that_floods_its_output_holds_nothing_up() {
    if !python_chess() {
        return;
    }
    let mut e = faulty_after_uci(&["flood"]);
    e.send("position startpos");
    e.send("go movetime 50");
    let (before, best, _) = e.bestmove(REPLY);
    assert!(
        before.iter().any(|l| l.contains("did not answer in time")),
        "{best}"
    );
    // The engine started in its place has done its handshake: the next
    // search is the engine's, flooding while it is told to stop.
    e.send("isready");
    e.expect("readyok", REPLY);
    e.send("position startpos");
    e.send("go infinite");
    let asked = std::time::Instant::now();
    e.send("quit");
    let lines = lines_to_exit(&mut e);
    one_legal_bestmove(&mut e, &lines, "flood");
    assert!(asked.elapsed() < QUIT_BOUND, "{:?}", asked.elapsed());
}

/// An engine that answers late is stopped, not killed: the GUI gets the
/// front-end's move in time, the late `bestmove` is dropped (with its
/// `info`), and the next `go`, kept until then, is the engine's own answer,
/// with no restart. (Killed and restarted, a late engine at a low clock made
/// every later move late too.)
#[test]
fn a_late_engine_is_stopped_not_restarted() {
    if !python_chess() {
        return;
    }
    let mut e = before_third_go("late");
    e.send("position startpos");
    e.send("go movetime 50");
    let (before, first, _) = e.bestmove(REPLY);
    assert!(
        before.iter().any(|l| l.contains("did not answer in time")),
        "{before:?}"
    );
    // At once, while the engine still thinks about the last one.
    e.send(&format!("position startpos moves {first}"));
    e.send("go movetime 2000");
    let (before, second, _) = e.bestmove(REPLY);
    assert!(
        !before
            .iter()
            .any(|l| l.contains("answers with its own move") || l.contains("restarted")),
        "{before:?}"
    );
    let start = shakmaty::Chess::default();
    let played = support::legal_move(&start, &first, false).expect("the first move is legal");
    let after = shakmaty::Position::play(start, played).expect("legal");
    if let Err(why) = support::legal_move(&after, &second, false) {
        e.fail(&format!("'{second}' after {first}: {why}"));
    }
    // Nothing more: the late answer was not given as a second bestmove.
    e.send("isready");
    let rest = e.expect("readyok", REPLY);
    assert!(!rest.iter().any(|l| l.starts_with("bestmove")), "{rest:?}");
}

/// While the front-end waits for a late engine's answer (what the GUI
/// sends is kept for the engine until then), the GUI's `isready` is not
/// kept: `readyok` comes at once, before the answer to a `go` sent after
/// it. Kept, it waited for the engine's restart (2 s) and came after that
/// answer.
#[test]
fn an_isready_is_answered_while_a_late_answer_is_awaited() {
    if !python_chess() {
        return;
    }
    // The third `go` is never answered: the front-end gives its own move.
    let mut e = before_third_go("hang");
    e.send("position startpos");
    e.send("go movetime 50");
    let (before, first, _) = e.bestmove(REPLY);
    assert!(
        before.iter().any(|l| l.contains("did not answer in time")),
        "{before:?}"
    );
    e.send("isready");
    e.send(&format!("position startpos moves {first}"));
    e.send("go movetime 0");
    let (before, _, _) = e.bestmove(REPLY);
    let ready = before.iter().position(|l| l == "readyok");
    let restarted = before.iter().position(|l| l.contains("restarted"));
    if ready.is_none() || restarted.is_some_and(|r| Some(r) < ready) {
        e.fail(&format!("no readyok before the next answer: {before:?}"));
    }
    // One readyok only: the engine's own, should it come later, is not a
    // second one.
    e.send("isready");
    let rest = e.expect("readyok", REPLY);
    assert!(!rest.iter().any(|l| l == "readyok"), "{rest:?}");
}

/// An `isready` after a `setoption` kept for a late engine waits with it:
/// its `readyok` says the option is set, which the engine, given it only
/// after its late answer (here: after its restart), cannot have done
/// before.
#[test]
fn an_isready_after_a_kept_option_waits_for_it() {
    if !python_chess() {
        return;
    }
    let mut e = before_third_go("hang");
    e.send("position startpos");
    e.send("go movetime 50");
    e.bestmove(REPLY);
    e.send("setoption name Hash value 64");
    e.send("isready");
    let before = e.expect("readyok", REPLY);
    if !before.iter().any(|l| l.contains("it is restarted")) {
        e.fail(&format!(
            "readyok before the kept option reached an engine: {before:?}"
        ));
    }
}

/// An engine that ends during a `go perft` took its count with it: the
/// GUI is told (a script waits for `Nodes searched`, which never comes),
/// and the engine started next takes the next command.
#[test]
fn an_engine_that_ends_during_go_perft_is_named() {
    if !python_chess() {
        return;
    }
    // The third `go` ends the test engine.
    let mut e = before_third_go("exit");
    e.send("position startpos");
    e.send("go perft 2");
    e.expect_by("the lost count named", REPLY, |l| {
        l == "info string error: the engine ended during go perft: no count"
    });
    e.send("go movetime 100");
    let (_, best, _) = e.bestmove(REPLY);
    if let Err(why) = support::legal_move(&shakmaty::Chess::default(), &best, false) {
        e.fail(&format!("'{best}': {why}"));
    }
}

/// The test engines alive whose command line holds `marker` as a word of
/// its own (not the front-end's or the shell's, which hold it in their
/// `sh -c` text).
#[cfg(target_os = "linux")]
fn engines_with(marker: &str) -> usize {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return 0;
    };
    dir.filter_map(Result::ok)
        .filter_map(|d| std::fs::read(d.path().join("cmdline")).ok())
        .filter(|c| c.split(|&b| b == 0).any(|word| word == marker.as_bytes()))
        .count()
}

/// An engine started through a shell that is restarted leaves nothing
/// behind: its process group is killed, not the shell alone. Before, the
/// engine the shell had started (one that writes without end and reads
/// nothing) ran on, writing, until the front-end ended.
#[cfg(target_os = "linux")]
#[test]
fn a_restarted_engine_leaves_no_process_behind() {
    if !python_chess() {
        return;
    }
    let marker = format!("group-marker-{}", std::process::id());
    let script = format!("python3 {FAULTY} flood {marker}; :");
    let mut e = Engine::start_with(
        &["wrap", "--", "sh", "-c", &script],
        None,
        Duration::from_secs(60),
    );
    e.send("uci");
    e.expect("uciok", REPLY);
    e.send("position startpos");
    e.send("go movetime 50");
    e.bestmove(REPLY);
    e.expect_by("the restart", REPLY, |l| l.contains("it is restarted"));
    e.send("isready");
    e.expect("readyok", REPLY);
    let alive = engines_with(&marker);
    if alive != 1 {
        e.fail(&format!("{alive} engines alive after the restart, not 1"));
    }
}

/// An engine that exits on an option the GUI set is not restarted without
/// end: after three exits in a row the front-end says so, naming the
/// options, answers the GUI's `isready` at once and every `go` itself.
#[test]
fn an_engine_that_dies_on_an_option_is_given_up_on() {
    if !python_chess() {
        return;
    }
    let mut e = faulty_after_uci(&["crash"]);
    e.send("setoption name Hash value 32");
    e.send("setoption name Crash value 1");
    let asked = std::time::Instant::now();
    e.send("isready");
    // Three starts of python3 stand between: time for a loaded machine,
    // still short of the 10 s a restarted engine gets to be ready.
    let before = e.expect("readyok", Duration::from_secs(30));
    assert!(
        asked.elapsed() < Duration::from_secs(9),
        "{:?}",
        asked.elapsed()
    );
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("info string error: engine")
                && l.contains("exited 3 times in a row before answering anything")
                && l.contains("Hash, Crash")),
        "{before:?}"
    );
    e.send("position startpos");
    e.send("go movetime 50");
    let (before, best, _) = e.bestmove(REPLY);
    assert!(
        before
            .iter()
            .any(|l| l.contains("answers with its own move")),
        "{before:?}"
    );
    if let Err(why) = support::legal_move(&shakmaty::Chess::default(), &best, false) {
        e.fail(&format!("'{best}': {why}"));
    }
    // The front-end's own move answers the question asked: searchmoves
    // (two moves no search plays from the start) restrict it.
    e.send("go movetime 50 searchmoves a2a3 h2h4");
    let (before, best, _) = e.bestmove(REPLY);
    if best != "a2a3" && best != "h2h4" {
        e.fail(&format!("'{best}' is not among searchmoves: {before:?}"));
    }
}

/// A GUI that does not wait for `readyok` before its `go` (a script) reads
/// its answers in the order it asked, also when the engine dies on an
/// option and the front-end answers both.
#[test]
fn a_readyok_asked_first_comes_before_the_bestmove() {
    if !python_chess() {
        return;
    }
    let mut e = faulty_after_uci(&["crash"]);
    e.send("setoption name Crash value 1");
    e.send("isready");
    e.send("position startpos");
    e.send("go movetime 50");
    let (before, _, _) = e.bestmove(Duration::from_secs(30));
    if !before.iter().any(|l| l == "readyok") {
        e.fail(&format!("the bestmove came before the readyok: {before:?}"));
    }
}

/// A `go` after a `position` that cannot be read is answered
/// `bestmove 0000`, but after the searches asked before it: the GUI reads
/// its answers in the order it asked. A `bestmove 0000` given at once was
/// read as the answer to the stopped search, and the engine's move for
/// that search as the answer to the new `go`.
#[test]
fn a_go_with_no_position_is_answered_after_the_searches_before_it() {
    if !python_chess() {
        return;
    }
    let mut e = faulty_after_uci(&["ok"]);
    e.send("position startpos");
    e.send("go infinite");
    e.send("stop");
    e.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    e.send("go depth 1");
    e.send("isready");
    let (mut before, first, _) = e.bestmove(Duration::from_secs(30));
    if let Err(why) = support::legal_move(&shakmaty::Chess::default(), &first, false) {
        e.fail(&format!("the stopped search was answered '{first}': {why}"));
    }
    let (after, second, _) = e.bestmove(Duration::from_secs(30));
    before.extend(after);
    if second != "0000" || !before.iter().any(|l| l.contains("no position to search")) {
        e.fail(&format!(
            "the go with no position was answered '{second}': {before:?}"
        ));
    }
    e.expect("readyok", REPLY);
}

/// An engine's `info` outside any search: its moves belong to no position
/// the GUI waits on (the GUI may have sent its next `go` already and would
/// read them against it), so only an `info string` is passed on.
#[test]
fn info_outside_a_search_passes_only_its_words() {
    if !python_chess() {
        return;
    }
    let mut e = faulty_after_uci(&["chatty"]);
    e.send("isready");
    let lines = e.expect("readyok", REPLY);
    assert!(
        lines.iter().any(|l| l == "info string chatty is ready"),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains(" pv ")), "{lines:?}");
    // Words outside UCI reach the GUI as `info string`, never bare: the
    // front-end's output is UCI only.
    assert!(
        lines
            .iter()
            .any(|l| l == "info string Chatty says: ready when you are."),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("Chatty")), "{lines:?}");
}

/// A GUI's `isready` that the engine took with it when it failed is
/// answered by the engine started in its place, not after the 10 s of
/// `isready`'s own limit (which would restart the new engine too).
#[test]
fn an_isready_outlives_the_engine_that_failed() {
    if !python_chess() {
        return;
    }
    let mut e = before_third_go("exit");
    e.send("position startpos");
    e.send("go movetime 20");
    e.send("isready");
    let before = e.expect("readyok", REPLY);
    assert!(
        !before.iter().any(|l| l.contains("did not answer isready")),
        "{before:?}"
    );
    assert_eq!(
        before.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{before:?}"
    );
}

/// Plays one move in `e`'s game from `start` (a FEN, or the classical
/// start): sends the position and `go`, checks that the answer is legal,
/// and returns the lines before it.
fn play_checked(
    e: &mut Engine,
    start: Option<&str>,
    moves: &mut Vec<String>,
    go: &str,
) -> Vec<String> {
    let (mut pos, chess960) = match start {
        Some(fen) => {
            let setup: shakmaty::fen::Fen = fen.parse().expect("a FEN");
            let pos = setup
                .into_position(shakmaty::CastlingMode::Chess960)
                .expect("a legal start");
            (pos, true)
        }
        None => (shakmaty::Chess::default(), false),
    };
    for m in moves.iter() {
        let played = support::legal_move(&pos, m, chess960).expect("a move played before");
        pos = shakmaty::Position::play(pos, played).expect("legal");
    }
    let head = match start {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_owned(),
    };
    let line = if moves.is_empty() {
        head
    } else {
        format!("{head} moves {}", moves.join(" "))
    };
    e.send(&line);
    e.send(go);
    let (before, best, _) = e.bestmove(REPLY);
    if let Err(why) = support::legal_move(&pos, &best, chess960) {
        e.fail(&format!("'{best}' after {moves:?}: {why}"));
    }
    moves.push(best);
    before
}

/// Whether the lines before a `bestmove` say it is not the engine's own.
fn replaced(before: &[String]) -> bool {
    before
        .iter()
        .any(|l| l.contains("answers with its own move") || l.contains("cannot be played"))
}

/// Searches the front-end answered itself while a restarted engine was
/// still starting: their `go`s must never reach it, or its answer to one
/// is read as the answer to the GUI's next search (a move for another
/// position: refused, and the engine restarted again, or played).
#[test]
fn a_search_answered_during_a_restart_never_reaches_the_engine() {
    if !python_chess() {
        return;
    }
    let marker = std::env::temp_dir().join(format!("chess960-slow-kept-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let marker_arg = marker.to_string_lossy().into_owned();
    // Its restarts take 6 s: time for the two searches below to be
    // answered by the front-end on a loaded machine.
    let mut e = faulty_after_uci(&["slow", &marker_arg, "6"]);
    let mut moves = Vec::new();
    play_checked(&mut e, None, &mut moves, "go movetime 1000");
    play_checked(&mut e, None, &mut moves, "go movetime 1000");
    // The third go: the engine exits and is restarted.
    play_checked(&mut e, None, &mut moves, "go movetime 50");
    // Two searches answered by the front-end while it starts.
    for go in ["go wtime 1000 btime 1000", "go movetime 50"] {
        let before = play_checked(&mut e, None, &mut moves, go);
        assert!(
            before.iter().any(|l| l.contains("did not answer in time")),
            "{before:?}"
        );
    }
    // Time enough to outlast the start: the engine's own answer, for this
    // position.
    let before = play_checked(&mut e, None, &mut moves, "go movetime 15000");
    assert!(!replaced(&before), "{before:?}");
    let _ = std::fs::remove_file(&marker);
}

/// The `slow` test engine behind `wrap --log` (named after `tag`), whose
/// restarts take `seconds`, with the two moves it plays before its third
/// `go` (at which it exits) played; its marker file comes back, to remove.
fn slow_before_third_go(
    tag: &str,
    seconds: &str,
) -> (Engine, std::path::PathBuf, std::path::PathBuf, Vec<String>) {
    let marker = std::env::temp_dir().join(format!("chess960-slow-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let marker_arg = marker.to_string_lossy().into_owned();
    let (mut e, log) = logged_faulty_with(tag, &["slow", &marker_arg, seconds]);
    let mut moves = Vec::new();
    play_checked(&mut e, None, &mut moves, "go movetime 1000");
    play_checked(&mut e, None, &mut moves, "go movetime 1000");
    (e, log, marker, moves)
}

/// A search the GUI ended while the engine started in place of a failed
/// one was still starting is answered by the front-end, and neither its
/// `go` nor the `stop` that ended it reach the new engine after its
/// `uciok`: before, the `go infinite` was sent, searched, and its answer
/// dropped as a late one.
#[test]
fn a_search_ended_during_a_restart_is_not_sent_after_it() {
    if !python_chess() {
        return;
    }
    let (mut e, log, marker, mut moves) = slow_before_third_go("ended", "4");
    // The third go: the engine exits, and the open search waits for the
    // engine started in its place (4 s) until the GUI ends it.
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(700));
    e.send("stop");
    let (before, _, _) = e.bestmove(REPLY);
    assert!(replaced(&before), "{before:?}");
    e.expect("info string the engine was restarted", REPLY);
    let before = play_checked(&mut e, None, &mut moves, "go movetime 15000");
    assert!(!replaced(&before), "{before:?}");
    let sent = sent_to_engine(&mut e, &log, "");
    let restarted = sent
        .iter()
        .rposition(|l| l.ends_with(">engine uci"))
        .unwrap_or(0);
    let after: Vec<&String> = sent[restarted..]
        .iter()
        .filter(|l| l.ends_with(" stop") || l.ends_with(" go infinite"))
        .collect();
    assert!(after.is_empty(), "{after:?} in {sent:?}");
    let _ = std::fs::remove_file(&marker);
}

/// A `go ponder` kept for a restarting engine, and the GUI's `ponderhit`
/// after it: the clock runs from the `ponderhit`, so the `go` goes out with
/// the time since then taken off the side to move's clock. Before, it went
/// out with the clock the GUI gave at `go ponder`, seconds more than it had.
#[test]
fn a_ponderhit_during_a_restart_starts_the_kept_clock() {
    if !python_chess() {
        return;
    }
    let (mut e, log, marker, mut moves) = slow_before_third_go("ponder", "3");
    // The third go: the engine exits and is restarted (3 s).
    play_checked(&mut e, None, &mut moves, "go movetime 50");
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go ponder wtime 20000 btime 20000");
    std::thread::sleep(Duration::from_millis(1000));
    e.send("ponderhit");
    let (before, _, _) = e.bestmove(REPLY);
    assert!(!replaced(&before), "{before:?}");
    // Three moves played: Black is to move, its clock runs.
    let sent = sent_to_engine(&mut e, &log, "go ponder");
    let last = sent.last().expect("the go ponder sent");
    let words: Vec<&str> = last.split_whitespace().collect();
    let btime: u64 = words
        .iter()
        .position(|w| *w == "btime")
        .and_then(|i| words.get(i + 1))
        .and_then(|w| w.parse().ok())
        .expect("btime");
    assert!((10_000..19_500).contains(&btime), "{last}");
    assert!(last.contains("wtime 20000"), "{last}");
    let _ = std::fs::remove_file(&marker);
}

/// An engine restarted in place of one that hung is given the lines the
/// GUI sent meanwhile after `UCI_Chess960`: a Chess960 position without it
/// is misread (the test engine answers `0000`).
#[test]
fn an_engine_restarted_with_kept_lines_gets_the_chess960_mode() {
    if !python_chess() {
        return;
    }
    let start = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    let mut e = faulty_after_uci(&["hang960"]);
    e.send("setoption name UCI_Chess960 value true");
    let mut moves = Vec::new();
    for _ in 0..2 {
        let before = play_checked(&mut e, Some(start), &mut moves, "go movetime 1000");
        assert!(!replaced(&before), "{before:?}");
    }
    // The third go hangs; the next one is kept until the engine, 2 s
    // later, is restarted.
    let before = play_checked(&mut e, Some(start), &mut moves, "go movetime 50");
    assert!(
        before.iter().any(|l| l.contains("did not answer in time")),
        "{before:?}"
    );
    let before = play_checked(&mut e, Some(start), &mut moves, "go movetime 8000");
    assert!(
        before.iter().any(|l| l.contains("did not stop within")),
        "{before:?}"
    );
    assert!(!replaced(&before), "{before:?}");
}

/// An infinite search the engine took with it when it was restarted (it
/// did not answer `isready`) is given to the engine started in its place:
/// the GUI's `stop` gets that engine's answer, not the front-end's.
#[test]
fn an_infinite_search_outlives_a_restart() {
    if !python_chess() {
        return;
    }
    let mut e = faulty_after_uci(&["deaf"]);
    e.send("position startpos moves e2e4");
    e.send("go infinite");
    e.send("isready");
    // isready's own limit is 10 s. The GUI is told why before the
    // `readyok` given in the engine's place, not after it.
    let before = e.expect("readyok", Duration::from_secs(30));
    assert!(
        before
            .iter()
            .any(|l| l.contains("did not answer isready in time")),
        "{before:?}"
    );
    e.expect("info string the engine was restarted", REPLY);
    e.send("stop");
    let (before, best, _) = e.bestmove(REPLY);
    assert!(!replaced(&before), "{before:?}");
    let start = shakmaty::Chess::default();
    let e4 = support::legal_move(&start, "e2e4", false).expect("legal");
    let after = shakmaty::Position::play(start, e4).expect("legal");
    if let Err(why) = support::legal_move(&after, &best, false) {
        e.fail(&format!("'{best}' after e2e4: {why}"));
    }
}

/// Some engines answer a `stop` that finds them idle with a `bestmove` (of
/// their last position): a `stop` with no search running, one that crosses
/// the engine's answer on its way, the front-end's own for a late engine.
/// That answer must not be read as the answer to the GUI's next search:
/// before, every later answer was the one before it, and the first was
/// refused as illegal (a restart, the front-end's own move).
#[test]
fn a_bestmove_to_an_idle_stop_answers_no_search() {
    if !python_chess() {
        return;
    }
    let mut e = faulty_after_uci(&["idlestop"]);
    e.send("isready");
    e.expect("readyok", REPLY);
    let mut pos = shakmaty::Chess::default();
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..9 {
        let position = if moves.is_empty() {
            "position startpos".to_owned()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        match ply % 3 {
            // A stop with nothing running.
            0 => {
                e.send("stop");
                e.send(&position);
                e.send("go movetime 1000");
            }
            // A stop that crosses the answer (the test engine answers at once).
            1 => {
                e.send(&position);
                e.send("go movetime 1000");
                e.send("stop");
            }
            // A clock too short to wait on: the front-end answers and stops
            // the engine, whose answer comes late.
            _ => {
                e.send(&position);
                e.send("go wtime 10 btime 10");
            }
        }
        let (before, best, _) = e.bestmove(REPLY);
        if let Some(l) = before.iter().find(|l| {
            l.starts_with("info string") && !l.contains("the engine did not answer in time")
        }) {
            e.fail(&format!("ply {ply}: '{l}'"));
        }
        let m = match support::legal_move(&pos, &best, false) {
            Ok(m) => m,
            Err(why) => e.fail(&format!("ply {ply}: {why}")),
        };
        shakmaty::Position::play_unchecked(&mut pos, m);
        moves.push(best);
    }
    // The front-end's own isready answers no GUI's.
    e.send("stop");
    e.send("isready");
    let lines = e.expect("readyok", REPLY);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    let after = e.drain(Duration::from_millis(500));
    assert!(
        !after
            .iter()
            .any(|l| l == "readyok" || l.starts_with("bestmove") || l.contains("restart")),
        "{after:?}"
    );
}

/// An engine that never answers `isready` gets no fence of the front-end's
/// own after a `stop`: its moves are its answers, not dropped while a
/// `readyok` that never comes is awaited.
#[test]
fn an_engine_deaf_to_isready_keeps_its_answers_after_a_stop() {
    if !python_chess() {
        return;
    }
    let mut e = faulty_after_uci(&["deaf"]);
    for _ in 0..3 {
        e.send("stop");
        e.send("position startpos");
        e.send("go movetime 300");
        let (before, best, _) = e.bestmove(REPLY);
        assert!(
            !before.iter().any(|l| l.starts_with("info string")),
            "{before:?}"
        );
        if let Err(why) = support::legal_move(&shakmaty::Chess::default(), &best, false) {
            e.fail(&why);
        }
    }
}

/// Under `stty tostop`, a process of the terminal's session that is not
/// in its foreground group is stopped when it writes to the terminal. The
/// engine, in a group of its own, wrote its words to the terminal's stderr
/// (here a shell before it) and was stopped: its `uciok` never came, and
/// the front-end gave up on it after 10 s. In a session of its own it has
/// no controlling terminal, and runs on.
#[test]
fn an_engine_writing_to_a_tostop_terminal_is_not_stopped() {
    if !support::python3_present() {
        return;
    }
    const IN_A_TERMINAL: &str = r#"
import os, pty, select, sys, termios, time
binary, engine = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    attrs = termios.tcgetattr(0)
    attrs[3] |= termios.TOSTOP
    termios.tcsetattr(0, termios.TCSANOW, attrs)
    os.execv(binary, [binary, "wrap", "--", "sh", "-c", "echo words for a person >&2; exec " + engine])
os.write(fd, b"uci\n")
out = b""
deadline = time.time() + 30
while time.time() < deadline and b"\nuciok" not in out and b"error:" not in out:
    if select.select([fd], [], [], 0.5)[0]:
        try:
            out += os.read(fd, 4096)
        except OSError:
            break
os.write(fd, b"quit\n")
os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
"#;
    let binary = binary();
    let started = std::time::Instant::now();
    let out = Command::new("python3")
        .args(["-c", IN_A_TERMINAL, binary, binary])
        .output()
        .expect("run python3");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("words for a person"), "{text}");
    assert!(
        text.lines().any(|l| l.trim_end() == "uciok"),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(started.elapsed() < Duration::from_secs(8), "{text}");
}
