//! `chess960 perft --engine`: checking another engine's move generation.
//!
//! Against Stockfish 15.1 (Debian's `stockfish`) every count must agree; a
//! small engine with a deliberate Chess960 castling bug
//! (tests/clients/buggy_perft_engine.py, python-chess underneath) must be
//! caught with the exact position and move; engines that cannot start, die,
//! answer nonsense or stay silent end the run with status 2, never a hang.
//! The tests that need Stockfish or python-chess skip with a notice when
//! they are missing, unless CHESS960_REQUIRE_STOCKFISH or
//! CHESS960_REQUIRE_PYTHON_CHESS is set (as CI sets them).

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

mod support;

const BIN: &str = env!("CARGO_BIN_EXE_chess960");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const STOCKFISH: &str = "/usr/games/stockfish";

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(ROOT)
        .output()
        .expect("run chess960")
}

fn have_stockfish() -> bool {
    support::tool_present(
        std::path::Path::new(STOCKFISH).exists(),
        STOCKFISH,
        "CHESS960_REQUIRE_STOCKFISH",
        "apt-get install stockfish",
    )
}

fn have_python_chess() -> bool {
    support::tool_present(
        support::python_imports("chess"),
        "python-chess",
        "CHESS960_REQUIRE_PYTHON_CHESS",
        "pip install chess==1.11.2",
    )
}

/// The JSON report on the last line of stdout.
fn report(out: &Output) -> Value {
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().expect("a report line");
    serde_json::from_str(last).expect("one JSON object")
}

#[test]
fn stockfish_agrees_on_all_960_starts_and_the_castling_suite() {
    if !have_stockfish() {
        return;
    }
    let out = run(&["perft", "4", "--all", "--engine", STOCKFISH, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let r = report(&out);
    assert_eq!(r["positions"], 960);
    assert_eq!(r["agree"], true);
    assert!(r["first_difference"].is_null());
    let out = run(&[
        "perft",
        "4",
        "--epd",
        "perft/chess960_castling.perft",
        "--engine",
        STOCKFISH,
        "--engine-fen",
        "xfen",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("agrees with chess960 on 23 positions"));
}

#[test]
fn a_castling_bug_is_pinned_to_its_position_and_move() {
    if !have_python_chess() {
        return;
    }
    let engine = format!("python3 {ROOT}/tests/clients/buggy_perft_engine.py");
    let out = run(&[
        "perft",
        "3",
        "--epd",
        "perft/chess960_castling.perft",
        "--engine",
        &engine,
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let r = report(&out);
    assert_eq!(r["agree"], false);
    let d = &r["first_difference"];
    // The engine drops castles whose rook crosses an attacked square: after
    // a1b1 the rook on b1 attacks b8, which black's queen-side rook crosses
    // to reach d8, so the castle c8a8 (legal: the king does not move
    // through an attacked square) is missing, and nothing is extra.
    assert_eq!(
        d["root_fen"],
        "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1"
    );
    assert_eq!(d["moves"], serde_json::json!(["a1b1"]));
    assert_eq!(
        d["fen"],
        "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/1RK1R2Q b Eea - 1 1"
    );
    assert_eq!(d["missing"], serde_json::json!(["c8a8"]));
    assert_eq!(d["extra"], serde_json::json!([]));
    // The text report says the same and gives a command that replays it.
    let out = run(&[
        "perft",
        "3",
        "--epd",
        "perft/chess960_castling.perft",
        "--engine",
        &engine,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("missing (legal, not listed by the engine): c8a8"),
        "{text}"
    );
    let replay = text
        .lines()
        .find(|l| l.starts_with("replay: "))
        .expect("replay line");
    assert!(
        replay.contains("--fen 'r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/1RK1R2Q b Eea - 1 1'"),
        "{replay}"
    );
    // The replay keeps the run's engine options.
    let out = run(&[
        "perft",
        "3",
        "--epd",
        "perft/chess960_castling.perft",
        "--engine",
        &engine,
        "--engine-fen",
        "xfen",
        "--engine-timeout",
        "30",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let replay = text
        .lines()
        .find(|l| l.starts_with("replay: "))
        .unwrap_or_else(|| panic!("replay line in {text}"));
    assert!(
        replay.ends_with(" --engine-fen xfen --engine-timeout 30"),
        "{replay}"
    );
    let out = run(&[
        "perft",
        "1",
        "--fen",
        "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/1RK1R2Q b Eea - 1 1",
        "--engine",
        &engine,
        "--json",
    ]);
    assert_eq!(
        report(&out)["first_difference"]["missing"],
        serde_json::json!(["c8a8"])
    );
}

/// An engine that cannot start, dies, answers nonsense, searches instead
/// of counting, or says nothing: status 2 and one line naming it, quickly.
#[test]
fn broken_engines_end_the_run_with_status_2() {
    let script = |body: &str| {
        format!(
            "python3 -c \"import sys\nfor l in sys.stdin:\n w=l.split()\n if not w: continue\n if w[0]=='uci': print('uciok',flush=True)\n elif w[0]=='isready': print('readyok',flush=True)\n elif w[0]=='go': {body}\""
        )
    };
    let cases = [
        ("/nonexistent/engine".to_owned(), "cannot start"),
        ("true".to_owned(), "exited"),
        (
            script("print('hello there',flush=True); print('Nodes searched: 1',flush=True)"),
            "hello there",
        ),
        (
            script("print('info depth 1 score cp 3 pv e2e4',flush=True)"),
            "has no 'go perft'",
        ),
        (script("sys.exit(0)"), "exited"),
        // Its last words on stderr are quoted (a traceback's last line).
        (
            script("raise ValueError('no perft in here')"),
            "its last line on stderr: 'ValueError: no perft in here'",
        ),
        (script("pass"), "did not answer within 1 s"),
    ];
    for (engine, says) in cases {
        // Only the silent engine needs the short timeout; the others get
        // time for python3 to start on a loaded machine, so that each ends
        // for its own reason (they all end long before it).
        let timeout = if says.starts_with("did not answer") {
            "1"
        } else {
            "8"
        };
        let t = Instant::now();
        let out = run(&[
            "perft",
            "2",
            "--idn",
            "518",
            "--engine",
            &engine,
            "--engine-timeout",
            timeout,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{engine}: {out:?}");
        assert!(
            err.lines().count() == 1 && err.contains(says),
            "{engine}: {err}"
        );
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "{engine} took {:?}",
            t.elapsed()
        );
    }
}

/// An engine that lists a move twice (a castle made once per encoding is a
/// classic Chess960 generator bug) is told so, not told it lacks the move:
/// its two lines were added up, and at depth 1 the move was reported
/// missing with nothing extra.
#[test]
fn a_move_listed_twice_is_named() {
    if !have_python_chess() {
        return;
    }
    let engine = format!("python3 {ROOT}/tests/clients/buggy_perft_engine.py twice");
    let fen = "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1";
    let out = run(&["perft", "1", "--fen", fen, "--engine", &engine]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("missing (legal, not listed by the engine): (none)\n"),
        "{text}"
    );
    assert!(
        text.contains("listed twice by the engine (in one castling encoding or both): c1a1 c1e1"),
        "{text}"
    );
}

/// An engine that prints figures of its own around its divide (a time
/// before its total, a speed after it) is read as agreeing: the figures are
/// not moves, and what comes after a total is not read as the next
/// position's divide.
#[test]
fn an_engine_s_own_figures_are_not_moves() {
    if !have_python_chess() {
        return;
    }
    let engine = format!("python3 {ROOT}/tests/clients/buggy_perft_engine.py figures");
    let suite = format!("{ROOT}/perft/chess960_castling.perft");
    let out = run(&["perft", "2", "--epd", &suite, "--engine", &engine, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let r = report(&out);
    assert_eq!(r["agree"], true, "{r}");
    assert_eq!(r["positions"], 23, "{r}");
}

/// An engine that lists every move right but adds its total up wrong is
/// told which number is wrong, at the suite position itself.
#[test]
fn a_wrong_total_is_named() {
    if !have_python_chess() {
        return;
    }
    let engine = format!("python3 {ROOT}/tests/clients/buggy_perft_engine.py total");
    let fen = "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1";
    let out = run(&["perft", "2", "--fen", fen, "--engine", &engine, "--json"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let d = &report(&out)["first_difference"];
    assert_eq!(d["moves"], serde_json::json!([]), "{d}");
    assert_eq!(d["missing"], serde_json::json!([]), "{d}");
    assert_eq!(d["extra"], serde_json::json!([]), "{d}");
    let m = &d["miscount"];
    assert_eq!(m["said_in"], "total", "{d}");
    assert_eq!(m["depth"], 2, "{d}");
    // The engine's total adds the two castles' counts once more.
    let said = m["said"].as_u64().unwrap_or(0);
    let right = m["right"].as_u64().unwrap_or(0);
    assert!(said > right && right > 0, "{d}");

    let out = run(&["perft", "2", "--fen", fen, "--engine", &engine]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "the engine's total (Nodes searched) at depth 2 is {said}, but its own divide of this position adds up to {right}"
        )),
        "{text}"
    );
    assert!(text.contains("replay: chess960 perft 2 --fen"), "{text}");
}

/// An engine whose count for a move is not what its own divide after
/// that move adds up to (a stale perft hash entry) is pinned to the
/// position it counts two ways; an engine that agrees with itself and
/// with us (Stockfish, above) is not.
#[test]
fn a_count_that_changes_when_asked_again_is_named() {
    if !have_python_chess() {
        return;
    }
    let engine = format!("python3 {ROOT}/tests/clients/buggy_perft_engine.py stale");
    let fen = "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w EAea - 0 1";
    let out = run(&["perft", "3", "--fen", fen, "--engine", &engine, "--json"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let d = &report(&out)["first_difference"];
    let m = &d["miscount"];
    assert_eq!(m["said_in"], "divide_above", "{d}");
    // The engine said one more than the position's count, for a castle.
    assert_eq!(
        m["said"].as_u64(),
        m["right"].as_u64().map(|n| n + 1),
        "{d}"
    );
    let moves = d["moves"].as_array().cloned().unwrap_or_default();
    let last = moves.last().and_then(|v| v.as_str()).unwrap_or("");
    assert!(
        ["c1a1", "c1e1", "c8a8", "c8e8"].contains(&last),
        "the miscounted move is a castle: {d}"
    );
    let out = run(&["perft", "3", "--fen", fen, "--engine", &engine]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("miscounted: the engine counted {last} as")),
        "{text}"
    );
    assert!(text.contains("replay: chess960 perft 3 --fen"), "{text}");
}
