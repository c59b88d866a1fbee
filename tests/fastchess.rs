//! A Chess960 match in fastchess, the match runner, with `chess960 wrap`
//! in front of the test engines, and fastchess's 40-step UCI compliance
//! check of a wrapped Stockfish.
//!
//! fastchess is built from its repository, so it is not at hand everywhere
//! (CI installs from package registries only, and plays its GUI games in
//! XBoard: tests/xboard.rs). The test runs where `FASTCHESS` names the
//! binary or `fastchess` is on PATH, and is skipped with a notice
//! otherwise, unless CHESS960_REQUIRE_FASTCHESS is set. Every game is
//! replayed by tools/xboard/check_pgn.py (python-chess): it counts only
//! with legal moves throughout and an ending on the board.

mod support;

use std::path::Path;
use std::process::Command;

use support::{binary, fastchess, temp_dir};

const FAULTY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/clients/faulty_engine.py"
);
const CHECK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/xboard/check_pgn.py");
const STOCKFISH: &str = "/usr/games/stockfish";

#[test]
fn fastchess_plays_chess960_through_the_front_end() {
    let Some(fastchess) = fastchess() else {
        return;
    };
    let dir = temp_dir("fastchess");
    let openings = dir.join("openings.epd");
    let out = Command::new(binary())
        .args([
            "openings",
            "--count",
            "2",
            "--seed",
            "960",
            "--shredder",
            "-o",
        ])
        .arg(&openings)
        .output()
        .expect("write openings");
    assert!(out.status.success(), "{out:?}");
    let pgn = dir.join("games.pgn");
    // The engine against two wrapped test engines: one that writes castles
    // as the king's destination, one that exits at every third go.
    let mut cmd = Command::new(&fastchess);
    cmd.args(["-variant", "fischerandom"])
        .args(["-engine", "name=chess960", &format!("cmd={}", binary())])
        .args([
            "-engine",
            "name=wrapped-king",
            &format!("cmd={}", binary()),
            &format!("args=wrap -- python3 {FAULTY} king"),
        ])
        .args([
            "-engine",
            "name=wrapped-exit",
            &format!("cmd={}", binary()),
            &format!("args=wrap -- python3 {FAULTY} exit"),
        ])
        .args(["-each", "tc=2+0.05"])
        .arg("-openings")
        .arg(format!("file={}", openings.display()))
        .args(["format=epd", "order=sequential"])
        .args([
            "-rounds",
            "2",
            "-games",
            "2",
            "-repeat",
            "-concurrency",
            "1",
        ])
        .arg("-pgnout")
        .arg(format!("file={}", pgn.display()));
    let out = cmd.output().expect("run fastchess");
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{log}");
    // Three engines, a round robin: 3 pairs x 2 rounds x 2 games.
    let checked = check(&pgn, 12);
    assert!(checked.status.success(), "{}\n{log}", checked.text);
    if Path::new(STOCKFISH).exists() {
        let out = Command::new(&fastchess)
            .args(["--compliance", binary(), &format!("wrap -- {STOCKFISH}")])
            .output()
            .expect("run fastchess --compliance");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        assert!(!text.contains("Failed"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

struct Checked {
    status: std::process::ExitStatus,
    text: String,
}

fn check(pgn: &Path, games: u32) -> Checked {
    let out = Command::new("python3")
        .arg(CHECK)
        .arg(pgn)
        .arg(games.to_string())
        .output()
        .expect("run check_pgn.py");
    Checked {
        status: out.status,
        text: String::from_utf8_lossy(&out.stdout).into_owned(),
    }
}
