//! The gate's verdict (tools/match/sprt.py) from fastchess logs: the
//! figures fastchess printed for a real gate, the sum over a gate continued
//! with a second log, and each branch of the verdict.

mod support;

use std::path::Path;
use std::process::{Command, Output};

fn sprt(dir: &Path, args: &[&str]) -> Output {
    Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/match/sprt.py"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("python3")
}

/// A log as fastchess writes its result block, with the pentanomial counts
/// `[LL, LD, DD+WL, WD, WW]`.
fn log(dir: &Path, name: &str, counts: [u32; 5]) {
    let [a, b, c, d, e] = counts;
    let text = format!(
        "Started game 1 of 2 (new vs base)\n\
         Results of new vs base (5+0.05, 1t, 16MB, c960.epd):\n\
         Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}], WL/DD Ratio: 0.27\n\
         Finished match\n"
    );
    std::fs::write(dir.join(name), text).unwrap();
}

fn verdict(out: &Output) -> (Option<i32>, String) {
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_real_gate_gets_the_figures_fastchess_printed() {
    if !support::python3_present() {
        return;
    }
    let dir = support::temp_dir("sprt-real");
    // fastchess 1.x on these counts (400 games, SPRT elo0=0 elo1=5,
    // normalized): "Elo: 11.30 +/- 21.86", "LLR: 0.25 (-2.94, 2.94)".
    log(&dir, "one.log", [8, 42, 89, 51, 10]);
    let (code, text) = verdict(&sprt(&dir, &["one.log"]));
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains("games 400, Elo +11.3 +/- 21.9, LLR 0.25 (-2.94, 2.94)\n"),
        "{text}"
    );
    assert!(text.ends_with("UNDECIDED\n"), "{text}");
    // Continued with a second log: the counts are added, pair by pair.
    log(&dir, "two.log", [4, 30, 80, 60, 26]);
    let (_, text) = verdict(&sprt(&dir, &["one.log", "two.log"]));
    assert!(
        text.starts_with("logs 2, pairs 400 [12, 72, 169, 111, 36], games 800,"),
        "{text}"
    );
}

#[test]
fn each_branch_of_the_verdict() {
    if !support::python3_present() {
        return;
    }
    let dir = support::temp_dir("sprt-branches");
    // 70% and 30% over 800 games: past either bound of the SPRT (LLR
    // 5.07 and -5.22; over 400 games, 2.54 and -2.61, inside them).
    log(&dir, "strong.log", [0, 20, 120, 180, 80]);
    log(&dir, "weak.log", [80, 180, 120, 20, 0]);
    // 55% over 400 games: the LLR is still inside its bounds (0.85; the
    // normal approximation of the generalized SPRT said 0.86), but the
    // interval's lower end is above zero (about +13 Elo).
    log(&dir, "interval.log", [5, 35, 90, 55, 15]);
    // 55.75% over only 200 games: the interval alone does not pass.
    log(&dir, "short.log", [2, 17, 45, 28, 8]);
    // An earlier result block in the same log does not count.
    std::fs::write(
        dir.join("twice.log"),
        "Ptnml(0-2): [40, 90, 60, 10, 0]\nPtnml(0-2): [0, 10, 60, 90, 40]\n",
    )
    .unwrap();
    for (name, code, word) in [
        ("strong.log", 0, "PASS"),
        ("weak.log", 1, "FAIL"),
        ("interval.log", 0, "PASS"),
        ("short.log", 3, "UNDECIDED"),
        ("twice.log", 0, "PASS"),
    ] {
        let (got, text) = verdict(&sprt(&dir, &[name]));
        assert_eq!(got, Some(code), "{name}: {text}");
        assert!(text.ends_with(&format!("\n{word}\n")), "{name}: {text}");
    }
    let (_, text) = verdict(&sprt(&dir, &["interval.log"]));
    assert!(text.contains("LLR 0.85 (-2.94, 2.94)"), "{text}");
    let (_, text) = verdict(&sprt(&dir, &["strong.log"]));
    assert!(text.contains("LLR 5.07 (-2.94, 2.94)"), "{text}");
    // The same result as two logs, a gate continued: only the SPRT decides,
    // since an interval looked at after every part passes too easily.
    std::fs::copy(dir.join("interval.log"), dir.join("interval2.log")).unwrap();
    let (code, text) = verdict(&sprt(&dir, &["interval.log", "interval2.log"]));
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains("LLR 1.69 (-2.94, 2.94)\nthe interval's lower end is above zero, but over several logs only the SPRT decides\nUNDECIDED\n"),
        "{text}"
    );
    // Every pair alike: no interval of zero width read as a number, and a
    // sample of draws only still has an LLR (outcomes never seen count as
    // fastchess counts them).
    log(&dir, "wins.log", [0, 0, 0, 0, 50]);
    let (code, text) = verdict(&sprt(&dir, &["wins.log"]));
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("Elo +inf +/- 0.0, LLR 1.01 "), "{text}");
    log(&dir, "draws.log", [0, 0, 200, 0, 0]);
    let (code, text) = verdict(&sprt(&dir, &["draws.log"]));
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("Elo +0.0 +/- 0.0, LLR -0.08 "), "{text}");
    // No result in a log: exit 2, naming the file.
    std::fs::write(dir.join("empty.log"), "Started game 1 of 2\n").unwrap();
    let out = sprt(&dir, &["empty.log"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("sprt: no pentanomial line") && err.contains("empty.log"),
        "{err}"
    );
}
