//! Perft against the independent reference data in `perft/` (see its
//! README for provenance), through the library and through the real binary.
//!
//! Budget: these run in `cargo test --release`; node caps keep the whole
//! file to a few seconds of CPU on two cores.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use chess960::perft::runner::{self, Job};
use chess960::perft::suite::{self, SuiteEntry};
use chess960::perft::{Perft, PerftConfig};
use chess960::startpos;

mod support;

/// Sum of depth 4 over the 960 start positions, as stated in perft/README.md.
const STARTPOS_D4_TOTAL: u64 = 181_106_056;
/// Middle-game suite: count each position at every depth whose reference
/// count is at most this (depth 4 for most, 3 for the bushiest).
const MIDGAME_CAP: u64 = 1_000_000;
/// Castling list (23 positions): a larger cap, these are the tricky ones.
const CASTLING_CAP: u64 = 10_000_000;

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("perft")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The tests of this file that keep every core busy share the machine
/// (each holds a read guard); the one whose result depends on the speed
/// it measures has the machine alone (a write guard), so that a count
/// running beside it cannot make it read as slow as a loaded machine.
static MACHINE: RwLock<()> = RwLock::new(());

fn sharing_the_machine() -> RwLockReadGuard<'static, ()> {
    MACHINE.read().unwrap_or_else(|e| e.into_inner())
}

fn machine_alone() -> RwLockWriteGuard<'static, ()> {
    MACHINE.write().unwrap_or_else(|e| e.into_inner())
}

fn all_cores() -> Perft {
    Perft::new(&PerftConfig::default())
}

/// Jobs for every expected depth of every entry that is within `cap`.
fn jobs_up_to(entries: &[SuiteEntry], cap: u64) -> Vec<Job> {
    let mut jobs = Vec::new();
    for e in entries {
        for (&depth, &nodes) in &e.expected {
            if nodes <= cap {
                jobs.push(Job::from_entry(e, depth, None));
            }
        }
    }
    jobs
}

/// Run the jobs and list every mismatch as `id depth expected got`.
fn mismatches(engine: &Perft, jobs: &[Job]) -> Vec<String> {
    let never = AtomicBool::new(false);
    let (results, _) = runner::run(engine, jobs, &never, |_, _| {}).expect("not stopped");
    jobs.iter()
        .zip(&results)
        .filter(|(_, r)| r.matches() != Some(true))
        .map(|(j, r)| {
            format!(
                "{} d{} expected {:?} got {}",
                j.id, j.depth, j.expected, r.nodes
            )
        })
        .collect()
}

#[test]
fn startpos_table_names_our_numbering() {
    let table = suite::parse(&data("chess960_startpos.tsv")).expect("table parses");
    assert_eq!(table.len(), 960);
    for e in &table {
        let n: u32 = e.id.parse().expect("sp column is a number");
        let ours = startpos::position(n).expect("0..959");
        assert!(ours == e.position, "start {n}: table has {}", e.fen);
    }
}

#[test]
fn all_960_starts_to_depth_4() {
    let _shared = sharing_the_machine();
    let table = suite::parse(&data("chess960_startpos.tsv")).expect("table parses");
    // Positions from our numbering, expectations from the independent table.
    let entries: Vec<SuiteEntry> = table
        .iter()
        .map(|e| SuiteEntry {
            position: startpos::position(e.id.parse().expect("number")).expect("0..959"),
            ..e.clone()
        })
        .collect();
    let jobs = jobs_up_to(&entries, u64::MAX);
    let jobs: Vec<Job> = jobs.into_iter().filter(|j| j.depth <= 4).collect();
    assert_eq!(jobs.len(), 960 * 4);
    let engine = all_cores();
    assert_eq!(mismatches(&engine, &jobs), Vec::<String>::new());

    let d4: Vec<Job> = jobs.into_iter().filter(|j| j.depth == 4).collect();
    let never = AtomicBool::new(false);
    let (_, summary) = runner::run(&engine, &d4, &never, |_, _| {}).expect("not stopped");
    assert_eq!(summary.nodes, STARTPOS_D4_TOTAL);
    assert_eq!(summary.mismatches, 0);
}

#[test]
fn midgame_960_up_to_node_cap() {
    let _shared = sharing_the_machine();
    let entries = suite::parse(&data("chess960_midgame.perft")).expect("suite parses");
    assert_eq!(entries.len(), 960);
    let jobs = jobs_up_to(&entries, MIDGAME_CAP);
    // Every position is checked at least to depth 3.
    let mut deepest: BTreeMap<&str, u32> = BTreeMap::new();
    for j in &jobs {
        let d = deepest.entry(j.id.as_str()).or_default();
        *d = (*d).max(j.depth);
    }
    assert_eq!(deepest.len(), 960);
    assert!(deepest.values().all(|&d| d >= 3));
    assert_eq!(mismatches(&all_cores(), &jobs), Vec::<String>::new());
}

#[test]
fn castling_list_up_to_node_cap() {
    let _shared = sharing_the_machine();
    let entries = suite::parse(&data("chess960_castling.perft")).expect("suite parses");
    assert_eq!(entries.len(), 23);
    let jobs = jobs_up_to(&entries, CASTLING_CAP);
    assert!(jobs.len() >= 23 * 4);
    assert_eq!(mismatches(&all_cores(), &jobs), Vec::<String>::new());
}

#[test]
fn one_thread_agrees_with_the_reference_too() {
    let _shared = sharing_the_machine();
    let entries = suite::parse(&data("chess960_castling.perft")).expect("suite parses");
    let jobs = jobs_up_to(&entries, 1_000_000);
    let engine = Perft::new(&PerftConfig {
        threads: 1,
        hash_mb: 0,
    });
    assert_eq!(engine.threads(), 1);
    assert_eq!(mismatches(&engine, &jobs), Vec::<String>::new());
}

// ---- the real binary ----

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chess960"))
}

fn temp_file(name: &str, content: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("chess960-{}-{name}", std::process::id()));
    std::fs::write(&path, content).expect("write temp file");
    path
}

fn stdout_lines(out: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The first block of the castling list, with one count altered.
fn first_castling_block(alter: bool) -> String {
    let entries = suite::parse(&data("chess960_castling.perft")).expect("suite parses");
    let e = &entries[1];
    let mut text = format!("id {}\nepd {}\n", e.id, e.fen);
    for (&d, &n) in e.expected.range(1..=3) {
        let n = if alter && d == 3 { n + 1 } else { n };
        text.push_str(&format!("perft {d} {n}\n"));
    }
    text
}

#[test]
fn cli_wrong_expectation_exits_1() {
    let path = temp_file("wrong.perft", &first_castling_block(true));
    let out = bin()
        .args(["perft", "3", "--epd"])
        .arg(&path)
        .output()
        .expect("run binary");
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].contains(" MISMATCH "), "{lines:?}");
    assert!(lines[1].contains("mismatches 1"), "{lines:?}");
}

/// `--max-nodes` is a cap: a position whose listed counts are all above it
/// is counted at depth 1 (unchecked when the file does not list it), and
/// stderr says how many went unchecked.
#[test]
fn cli_max_nodes_caps_and_says_what_went_unchecked() {
    let path = temp_file(
        "deep.epd",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D5 8146062 ;D6 191762235\n",
    );
    let run = |cap: &str| {
        bin()
            .args(["perft", "6", "--threads", "1", "--max-nodes", cap, "--epd"])
            .arg(&path)
            .output()
            .expect("run binary")
    };
    let out = run("1000");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let lines = stdout_lines(&out);
    assert!(
        lines[0].starts_with("1 depth 1 nodes 21 expected - unchecked"),
        "{lines:?}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("note: 1 position(s) list no count at or under --max-nodes 1000"),
        "{err}"
    );
    // Each part of a capped run says it of its own positions: part 1 of 2
    // holds the deep position, part 2 a start the cap lets it check.
    let two = temp_file(
        "deep-and-start.epd",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D5 8146062 ;D6 191762235\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n",
    );
    let part = |k: &str| {
        let out = bin()
            .args(["perft", "6", "--threads", "1", "--max-nodes", "1000"])
            .args(["--shard", k, "--json", "--epd"])
            .arg(&two)
            .output()
            .expect("run binary");
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(part("1/2").contains("note: 1 position(s) list no count"));
    assert!(!part("2/2").contains("note:"));
    let _ = std::fs::remove_file(&two);
    let out = run("10000000");
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(stdout_lines(&out)[0].starts_with("1 depth 5 nodes 8146062 expected 8146062 ok"));
    assert!(out.stderr.is_empty(), "{out:?}");
}

#[test]
fn cli_json_report() {
    let path = temp_file("json.perft", &first_castling_block(true));
    let out = bin()
        .args(["perft", "3", "--json", "--epd"])
        .arg(&path)
        .output()
        .expect("run binary");
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(v["summary"]["positions"], 1);
    assert_eq!(v["summary"]["mismatches"], 1);
    assert_eq!(v["positions"][0]["status"], "mismatch".to_uppercase());
    assert_eq!(
        v["positions"][0]["expected"].as_u64(),
        v["positions"][0]["nodes"].as_u64().map(|n| n + 1)
    );
    // The position is named on stderr too, terminal or not (a CI log).
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.lines().any(|l| l.starts_with("MISMATCH: ")), "{err}");

    // And from a divide of the suite.
    let path = temp_file("divide.perft", &first_castling_block(true));
    let out = bin()
        .args(["perft", "3", "--divide", "--epd"])
        .arg(&path)
        .output()
        .expect("run binary");
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.lines().any(|l| l.starts_with("MISMATCH: ")), "{err}");
}

#[test]
fn cli_right_expectation_exits_0() {
    let path = temp_file("right.perft", &first_castling_block(false));
    let out = bin()
        .args(["perft", "3", "--threads", "1", "--epd"])
        .arg(&path)
        .output()
        .expect("run binary");
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let lines = stdout_lines(&out);
    assert!(lines[0].contains(" ok "), "{lines:?}");
    assert!(
        lines[1].starts_with("positions 1 checked 1 mismatches 0"),
        "{lines:?}"
    );
}

#[test]
fn cli_all_at_depth_3_prints_960_lines_in_order() {
    let _shared = sharing_the_machine();
    let table = suite::parse(&data("chess960_startpos.tsv")).expect("table parses");
    let total: u64 = table.iter().map(|e| e.expected[&3]).sum();
    let out = bin()
        .args(["perft", "3", "--all"])
        .output()
        .expect("run binary");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 961);
    for (n, line) in lines[..960].iter().enumerate() {
        assert!(line.starts_with(&format!("{n} depth 3 nodes ")), "{line}");
        assert!(line.contains(" ok "), "{line}");
    }
    assert!(
        lines[960].contains(&format!("nodes {total} ")),
        "{}",
        lines[960]
    );
}

#[test]
fn cli_divide_format() {
    // Castling list sf-960-1 is RNBQKBNR with all rights (Shredder-FEN AHah).
    let entries = suite::parse(&data("chess960_castling.perft")).expect("suite parses");
    let e = entries.iter().find(|e| e.id == "sf-960-1").expect("entry");
    let out = bin()
        .args(["perft", "3", "--divide", "--fen", &e.fen])
        .output()
        .expect("run binary");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let lines = stdout_lines(&out);
    let (last, moves) = lines.split_last().expect("output");
    assert_eq!(last, &format!("Nodes searched: {}", e.expected[&3]));
    assert_eq!(moves.len() as u64, e.expected[&1]);
    let mut sorted = moves.to_vec();
    sorted.sort();
    assert_eq!(moves, &sorted[..]);
    let sum: u64 = moves
        .iter()
        .map(|l| {
            l.split_once(": ")
                .expect("move: count")
                .1
                .parse::<u64>()
                .expect("count")
        })
        .sum();
    assert_eq!(sum, e.expected[&3]);

    // Castling is written king-takes-rook: both castlings are legal here.
    let out = bin()
        .args([
            "perft",
            "1",
            "--divide",
            "--fen",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        ])
        .output()
        .expect("run binary");
    let lines = stdout_lines(&out);
    assert!(lines.contains(&"e1h1: 1".to_owned()), "{lines:?}");
    assert!(lines.contains(&"e1a1: 1".to_owned()), "{lines:?}");
    assert!(!lines
        .iter()
        .any(|l| l.starts_with("e1g1") || l.starts_with("e1c1")));
}

/// A depth or a number of parts too large for any integer is answered with
/// the range that is valid, not with the width of an integer type
/// (`4294967297 is not in 0..=4294967295`), nor called no number.
#[test]
fn cli_huge_numbers_are_told_their_range() {
    let cases: [(&[&str], &str); 3] = [
        (
            &["perft", "4294967297", "--idn", "1"],
            "valid depths are 1..63",
        ),
        (
            &[
                "perft",
                "--fen",
                "8/8/8/8/8/8/8/K1k5",
                "w",
                "-",
                "-",
                "4294967297",
            ],
            "perft depth 4294967297 out of range: valid depths are 1..63",
        ),
        (
            &[
                "perft",
                "3",
                "--idn",
                "1",
                "--shard",
                "1/99999999999999999999",
            ],
            "the number of parts must be 1..1000000",
        ),
    ];
    for (args, told) in cases {
        let out = bin().args(args).output().expect("run binary");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(told), "{args:?}: {err}");
        assert!(!err.contains("4294967295"), "{args:?}: {err}");
        assert!(!err.contains("not a whole number"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn cli_bad_input_is_one_stderr_line_and_status_2() {
    let missing = temp_file("gone.perft", "");
    let _ = std::fs::remove_file(&missing);
    let bad_suite = temp_file("bad.perft", "epd not a fen\n");
    let cases: Vec<Vec<String>> = vec![
        vec!["perft".into(), "3".into()],
        vec!["perft".into(), "0".into(), "--idn".into(), "1".into()],
        vec!["perft".into(), "3".into(), "--idn".into(), "960".into()],
        vec!["perft".into(), "3".into(), "--idn".into(), "x".into()],
        vec![
            "perft".into(),
            "3".into(),
            "--fen".into(),
            "8/8/8/8 w - -".into(),
        ],
        // A full FEN and no depth: its move number is not taken for one.
        vec![
            "perft".into(),
            "--fen".into(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 5".into(),
        ],
        // Nor a quoted FEN's halfmove clock (it counted to depth 5, or
        // called 0 a depth out of range).
        vec![
            "perft".into(),
            "--fen".into(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5".into(),
        ],
        vec![
            "perft".into(),
            "--fen".into(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0".into(),
        ],
        // --max-nodes is for suites, whatever else is asked.
        vec![
            "perft".into(),
            "3".into(),
            "--idn".into(),
            "5".into(),
            "--max-nodes".into(),
            "10".into(),
            "--shard".into(),
            "1/1".into(),
            "--json".into(),
        ],
        vec![
            "perft".into(),
            "3".into(),
            "--idn".into(),
            "5".into(),
            "--max-nodes".into(),
            "10".into(),
            "--engine".into(),
            "no-such-engine".into(),
        ],
    ];
    for args in cases {
        let out = bin().args(&args).output().expect("run binary");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // With --engine, as diff answers, a suite that cannot be read is
    // trouble (2), not a difference (1).
    let out = bin()
        .args(["perft", "2", "--engine", "no-such-engine", "--epd"])
        .arg(&bad_suite)
        .output()
        .expect("run binary");
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("bad.perft: line 1:"),
        "{out:?}"
    );
    // A suite file that cannot be read as one is a runtime error, as a
    // damaged event file is: status 1, its name and line.
    let out = bin()
        .args(["perft", "3", "--epd"])
        .arg(&bad_suite)
        .output()
        .expect("run binary");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("bad.perft: line 1:"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_file(&bad_suite);
    // clap's own usage errors: status 2, its message, usage and help hint.
    for (args, culprit) in [
        (
            &["perft", "3", "--idn", "1", "--threads", "0"][..],
            "--threads",
        ),
        (
            &["perft", "3", "--idn", "1", "--threads", "257"][..],
            "--threads",
        ),
        (
            &["perft", "3", "--idn", "1", "--divide", "--engine", "x"][..],
            "--divide",
        ),
    ] {
        let out = bin().args(args).output().expect("run binary");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error: ") && err.contains(culprit) && err.contains("--help"),
            "{err}"
        );
    }
    // A file that cannot be read is a runtime error: status 1, one line.
    let out = bin()
        .args(["perft", "3", "--epd", &missing.display().to_string()])
        .output()
        .expect("run binary");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines().count() == 1 && err.contains("cannot read"),
        "{err}"
    );
}

/// Reports written to a closed pipe end quietly (status 0, nothing on
/// stderr), to a full device with one error line and status 1, JSON or
/// text, one position or a suite, a part or a merge.
#[test]
fn cli_output_to_a_closed_pipe_or_a_full_device() {
    let part = temp_file("part-for-merge.json", "");
    let made = bin()
        .args(["perft", "1", "--all", "--shard", "1/1", "--json"])
        .output()
        .expect("run binary");
    assert!(made.status.success(), "{made:?}");
    std::fs::write(&part, &made.stdout).expect("write part");
    let part_arg = part.display().to_string();
    let runs: [&[&str]; 6] = [
        &["perft", "2", "--all", "--json"],
        &["perft", "2", "--all"],
        &["perft", "3", "--idn", "518", "--divide", "--json"],
        &["perft", "1", "--all", "--shard", "1/1", "--json"],
        &["perft-merge", &part_arg, "--json"],
        &["perft-merge", &part_arg],
    ];
    for args in runs {
        support::closed_pipe_and_full_device(args);
    }
    let _ = std::fs::remove_file(&part);
}

/// A count found to differ keeps its status 1 when the reader then stops
/// reading (`| head`): a pipeline's status never says a failed check
/// passed. The first position is right, the second wrong (20 is the
/// start's count at depth 1); the reader closes the pipe once it has read
/// the line of the wrong count, and the positions after it (more than a
/// pipe's buffer holds) are written to the closed pipe. A JSON report, written at the end, meets a pipe closed
/// from the start.
#[test]
fn a_mismatch_keeps_its_status_on_a_closed_pipe() {
    use std::io::BufRead;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let mut text = format!("id ok\nepd {start}\nperft 1 20\n\nid bad\nepd {start}\nperft 1 21\n");
    for n in 0..3000 {
        text.push_str(&format!("\nid more{n}\nepd {start}\nperft 1 20\n"));
    }
    let suite = temp_file("mismatch-then-closed.perft", &text);
    let path = suite.display().to_string();
    for args in [
        &["perft", "1", "--epd", &path][..],
        &["perft", "1", "--epd", &path, "--divide"],
    ] {
        let mut child = bin()
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run chess960");
        let stdout = child.stdout.take().expect("stdout");
        let read = std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .find(|l| l.contains("MISMATCH"));
        assert!(read.is_some(), "{args:?}: no MISMATCH line");
        let out = child.wait_with_output().expect("wait");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("MISMATCH: bad depth 1 nodes 20 expected 21"),
            "{args:?}: {err}"
        );
    }
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = bin()
        .args(["perft", "1", "--epd", &path, "--json"])
        .stdout(writer)
        .output()
        .expect("run chess960");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "--json: {err}");
    assert!(
        err.contains("MISMATCH: bad depth 1 nodes 20 expected 21"),
        "--json: {err}"
    );
    let _ = std::fs::remove_file(&suite);
}

/// `--divide` over a suite: per position a header, the root moves and the
/// usual result line; the summary last. README's example runs as written.
#[test]
fn cli_divide_works_for_suites() {
    let _shared = sharing_the_machine();
    let out = bin()
        .args([
            "perft",
            "3",
            "--epd",
            "perft/chess960_castling.perft",
            "--divide",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run binary");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let results: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(" nodes ") && l.contains(" expected "))
        .collect();
    assert_eq!(results.len(), 23, "{text}");
    assert!(results.iter().all(|l| l.contains(" ok ")), "{text}");
    // Each block's move counts add up to its result line's count.
    let mut sum = 0u64;
    for line in text.lines() {
        if let Some((_, n)) = line.split_once(": ") {
            sum += n.parse::<u64>().expect("count");
        } else if line.contains(" expected ") {
            let nodes: u64 = line
                .split_whitespace()
                .nth(4)
                .and_then(|n| n.parse().ok())
                .expect("nodes");
            assert_eq!(sum, nodes, "{line}");
            sum = 0;
        }
    }
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with("positions 23 checked 23 mismatches 0")),
        "{text}"
    );
}

/// DFRC reference (300 random starts, counted by Stockfish 15.1 and
/// python-chess): every start's FEN is the one our numbering builds for
/// its index, and our perft matches to depth 4 everywhere, depth 5 on the
/// first 30 starts and depth 6 on the first 3 (about 480 million nodes in
/// all; all 300 to depth 6 is docs/perft.md's command).
#[test]
fn dfrc_list_matches_numbering_and_counts() {
    let _shared = sharing_the_machine();
    let entries = suite::parse(&data("dfrc.perft")).expect("suite parses");
    assert_eq!(entries.len(), 300);
    for e in &entries {
        let n: u32 =
            e.id.strip_prefix("dfrc-")
                .and_then(|n| n.parse().ok())
                .expect("id dfrc-N");
        let ours = chess960::notation::shredder_fen(
            &chess960::startpos::dfrc_position(n).expect("in range"),
        );
        let four: Vec<&str> = ours.split(' ').take(4).collect();
        assert_eq!(four.join(" "), e.fen, "dfrc {n}");
    }
    let mut jobs = jobs_up_to(&entries, 1_000_000);
    jobs.extend(entries.iter().take(30).map(|e| Job::from_entry(e, 5, None)));
    jobs.extend(entries.iter().take(3).map(|e| Job::from_entry(e, 6, None)));
    assert!(jobs.len() >= 300 * 4 + 30 + 3);
    assert_eq!(mismatches(&all_cores(), &jobs), Vec::<String>::new());
}

/// A run of a few seconds with a large table is not announced as a long
/// one: the estimate is not misled by the system mapping the table's pages
/// during the first probes (it once announced hours for this run), nor by
/// a prediction from the tiny first probes (on a busy machine it once
/// announced five minutes).
#[test]
fn cli_does_not_warn_before_a_short_run_with_a_large_table() {
    let _alone = machine_alone();
    let out = bin()
        .args(["perft", "7", "--idn", "518", "--hash", "512"])
        .output()
        .expect("run binary");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Nodes searched: 3195901860\n"
    );
    // The faults announced hours, then five minutes; a machine loaded by
    // other work may put a sound estimate near the one-minute line, so a
    // warning of at most two minutes passes.
    let err = String::from_utf8_lossy(&out.stderr);
    if let Some(warning) = err.lines().find(|l| l.starts_with("warning")) {
        let minutes = warning
            .split("takes about ")
            .nth(1)
            .and_then(|rest| rest.strip_suffix(" minutes or less (Ctrl-C stops it)"))
            .and_then(|m| m.parse::<f64>().ok());
        assert!(minutes.is_some_and(|m| m <= 2.0), "{err}");
    }
}

/// A run that would take far more than a minute says so at once, with an
/// estimate, before counting (it is then killed here); a table that cannot
/// be allocated is named in plain words and the count goes on without it.
#[test]
fn cli_warns_before_a_long_run_and_names_a_missing_table() {
    use std::io::{BufRead, BufReader};
    let mut child = bin()
        .args(["perft", "20", "--idn", "0"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut line = String::new();
    BufReader::new(child.stderr.take().expect("stderr"))
        .read_line(&mut line)
        .expect("read");
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.starts_with("warning: perft 20 will count about ") && line.contains("years"),
        "{line}"
    );
    let out = bin()
        .args(["perft", "3", "--idn", "0", "--hash", "100000000"])
        .output()
        .expect("run binary");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Nodes searched: 9006\n"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("hash: none, could not allocate 100000000 MiB"),
        "{err}"
    );
    assert!(err.contains("hash none"), "{err}");
    // A suite says the same, and its JSON reports the table it had.
    let out = bin()
        .args(["perft", "1", "--all", "--hash", "100000000", "--json"])
        .output()
        .expect("run binary");
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("hash: none, could not allocate 100000000 MiB"),
        "{err}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["hash_mb"], 0, "{report}");
    let out = bin()
        .args(["perft", "3", "--idn", "0", "--threads", "1"])
        .output()
        .expect("run");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(", 1 thread, "),
        "{out:?}"
    );
}
