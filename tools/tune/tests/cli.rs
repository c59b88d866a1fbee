//! The tuner's exit statuses: 2 for a command line that cannot work
//! (what clap refuses, and what the commands' own checks refuse before
//! reading any data), with one `error:` line naming the culprit.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tune(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tune"))
        .args(args)
        .output()
        .expect("the tune binary runs")
}

/// A fresh directory of this test's own.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("c960-tune-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs `args`, expects exit status 2 and an stderr that names `culprit`.
fn refused(args: &[&str], culprit: &str) {
    let out = tune(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(culprit), "{args:?}: {stderr}");
}

#[test]
fn bad_numbers_are_usage_errors() {
    // The data file need not exist: nothing is read before these checks.
    let nnue = ["nnue", "missing.txt", "--out", "net.bin"];
    for (extra, culprit) in [
        (&["--batch", "0"][..], "--batch"),
        (&["--lr", "nan"], "--lr"),
        (&["--lr", "0"], "--lr"),
        (&["--label-scale", "inf"], "--label-scale"),
        (&["--label-scale=-2"], "--label-scale"),
    ] {
        refused(&[&nnue[..], extra].concat(), culprit);
    }
    let fit = ["fit", "missing.txt"];
    for (extra, culprit) in [
        (&["--lambda", "1.5"][..], "--lambda"),
        (&["--lambda", "NaN"], "--lambda"),
        (&["--validation-every", "1"], "--validation-every"),
        (&["--freeze", "psqt,nonsense"], "nonsense"),
        (&["--no-l2", "nonsense"], "nonsense"),
    ] {
        refused(&[&fit[..], extra].concat(), culprit);
    }
}

#[test]
fn an_output_that_cannot_be_written_is_refused_at_once() {
    let dir = temp_dir("out");
    let data = dir.join("data.txt");
    std::fs::write(&data, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1;10\n").expect("data");
    let data = data.to_str().expect("a UTF-8 path");
    refused(&["nnue", data], "--out");
    let nowhere = dir.join("no-such-dir").join("net.bin");
    let nowhere = nowhere.to_str().expect("a UTF-8 path");
    refused(&["nnue", data, "--out", nowhere], nowhere);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn quiet_refuses_to_write_over_its_input() {
    let dir = temp_dir("quiet");
    let input = dir.join("positions.txt");
    let text = "4k3/8/8/7r/8/8/3Q4/4K3 w - - 0 1;1;0\n";
    std::fs::write(&input, text).expect("input");
    let input = input.to_str().expect("a UTF-8 path");
    refused(&["quiet", input, input], "the output is the input");
    assert_eq!(std::fs::read_to_string(input).expect("input"), text);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The scoring command of tools/nnue/README.md (`--epochs 0`, no `--out`)
/// runs, on a file smaller than one batch too, and writes nothing.
#[test]
fn scoring_needs_no_output() {
    let dir = temp_dir("score");
    let data = dir.join("data.txt");
    let lines: String = (0..120)
        .map(|n| {
            let fen = chess960::startpos::shredder_fen(n).expect("0..959");
            format!("{fen};{}\n", i64::from(n % 50) - 25)
        })
        .collect();
    std::fs::write(&data, lines).expect("data");
    let out = tune(&[
        "nnue",
        data.to_str().expect("a UTF-8 path"),
        "--epochs",
        "0",
        "--hidden",
        "16",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("epoch 0: validation loss"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
    assert_eq!(left.len(), 1, "a file was written");
    let _ = std::fs::remove_dir_all(&dir);
}
