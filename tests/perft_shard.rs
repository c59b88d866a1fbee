//! `chess960 perft --shard K/N` and `chess960 perft-merge`, through the real
//! binary: parts of a run merge to the counts of independent reference data,
//! and parts that do not make one run are refused with status 1 and a
//! message naming the file.
//!
//! The GNU parallel test runs the documented command line; it skips with a
//! notice when `parallel` is not installed, unless CHESS960_REQUIRE_PARALLEL
//! is set (as CI sets it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod support;

const BIN: &str = env!("CARGO_BIN_EXE_chess960");

/// Sum of perft 5 over the 960 start positions: OEIS A157851.
const ALL_STARTS_D5: u64 = 4_433_048_830;

fn run(args: &[&str], dir: &Path) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run chess960")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chess960-shard-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Count parts 1..=n of `args` (a perft command without --shard) into
/// `dir/p<K>.json`.
fn parts(dir: &Path, args: &[&str], n: usize) -> Vec<String> {
    (1..=n)
        .map(|k| {
            let shard = format!("{k}/{n}");
            let mut all = args.to_vec();
            all.extend(["--shard", &shard, "--json", "--threads", "1"]);
            let out = run(&all, dir);
            assert!(out.status.success(), "part {shard}: {}", text(&out.stderr));
            let name = format!("p{k}.json");
            std::fs::write(dir.join(&name), &out.stdout).expect("write part");
            name
        })
        .collect()
}

fn last_line(out: &Output) -> String {
    text(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn suite_parts_merge_to_the_reference_counts() {
    let dir = scratch("suite");
    let names = parts(&dir, &["perft", "4", "--all"], 3);
    // Each part holds every third start position.
    let first: Value = serde_json::from_slice(&std::fs::read(dir.join(&names[0])).expect("read"))
        .expect("part is JSON");
    assert_eq!(first["run"]["units"], 960);
    assert_eq!(first["results"].as_array().map(Vec::len), Some(320));
    assert_eq!(first["results"][1]["unit"], 3);
    // The part names the build that counted it; the merge says so.
    let program = first["program"].as_str().unwrap_or_default().to_owned();
    assert!(program.starts_with("chess960 0."), "{program}");
    let mut args = vec!["perft-merge"];
    // Any order.
    args.extend(names.iter().rev().map(String::as_str));
    let out = run(&args, &dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let reference: u64 = support::startpos_table().iter().map(|r| r.2[3]).sum();
    assert_eq!(last_line(&out), format!("Nodes searched: {reference}"));
    let stdout = text(&out.stdout);
    let rows: Vec<&str> = stdout.lines().filter(|l| l.contains(" depth 4 ")).collect();
    assert_eq!(rows.len(), 960);
    assert!(rows.iter().all(|l| l.contains(" ok ")), "a count differs");
    assert!(rows[518].starts_with("518 depth 4 nodes 197281 "));
    assert!(stdout.contains("positions 960 checked 960 mismatches 0 parts 3"));
    assert!(
        text(&out.stderr).contains(&format!("info: counted by {program}\n")),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn root_move_parts_of_one_position_merge_to_its_count() {
    let dir = scratch("moves");
    // perft/chess960_castling.perft, sf-960-1 (RNBQKBNR): depth 5 = 4,865,609.
    let names = parts(&dir, &["perft", "5", "--idn", "518"], 4);
    let mut args = vec!["perft-merge"];
    args.extend(names.iter().map(String::as_str));
    let out = run(&args, &dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(last_line(&out), "Nodes searched: 4865609");
    let stdout = text(&out.stdout);
    let moves: Vec<&str> = stdout.lines().filter(|l| l.contains(": ")).collect();
    // 20 root moves, sorted by their text as in --divide.
    assert_eq!(moves.len(), 21);
    assert!(moves[0].starts_with("a2a3: "));
    let json = run(&[&["perft-merge", "--json"][..], &args[1..]].concat(), &dir);
    let v: Value = serde_json::from_slice(&json.stdout).expect("merged JSON");
    assert_eq!(v["nodes"], 4_865_609);
    assert_eq!(v["run"]["kind"], "root-moves");
    let programs = v["programs"].as_array().cloned().unwrap_or_default();
    assert_eq!(programs.len(), 1, "{v}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn parts_that_do_not_make_one_run_are_refused() {
    let dir = scratch("bad");
    let names = parts(&dir, &["perft", "3", "--all"], 3);
    let other = run(&["perft", "2", "--all", "--shard", "3/3", "--json"], &dir);
    std::fs::write(dir.join("other.json"), &other.stdout).expect("write");
    std::fs::write(dir.join("text.json"), "a2a3: 20\nNodes searched: 20\n").expect("write");
    let cases: [(&[&str], &str); 5] = [
        (&["p1.json", "p2.json"], "1 of 3 parts missing: 3/3"),
        (
            &["p1.json", "p2.json", "p2.json", "p3.json"],
            "part 2/3 is given twice: p2.json and p2.json",
        ),
        (
            &["p1.json", "p2.json", "other.json"],
            "other.json is part of another run (depth 2",
        ),
        (
            &["text.json"],
            "text.json is not the --json report of a perft --shard part",
        ),
        (&["nothere.json"], "cannot read nothere.json"),
    ];
    assert_eq!(names.len(), 3);
    for (files, message) in cases {
        let out = run(&[&["perft-merge"][..], files].concat(), &dir);
        assert_eq!(out.status.code(), Some(1), "{files:?}");
        let err = text(&out.stderr);
        assert!(err.contains(message), "{files:?}: {err}");
        assert_eq!(err.lines().count(), 1, "one stderr line: {err}");
        assert!(out.stdout.is_empty(), "{files:?}");
    }
    // A part whose counts were edited no longer adds up.
    let mut v: Value =
        serde_json::from_slice(&std::fs::read(dir.join("p2.json")).expect("read")).expect("JSON");
    v["results"][0]["nodes"] = Value::from(1);
    std::fs::write(dir.join("p2.json"), v.to_string()).expect("write");
    let out = run(&["perft-merge", "p1.json", "p2.json", "p3.json"], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("p2.json (part 2/3) is damaged"));
    // Edits whose totals still add up: a part that records its units'
    // checksum is named, whatever was edited.
    let fresh = parts(&dir, &["perft", "3", "--all"], 3);
    assert_eq!(fresh.len(), 3);
    let original = std::fs::read(dir.join("p2.json")).expect("read");
    let edit_sealed = |change: &dyn Fn(&mut Value)| {
        let mut v: Value = serde_json::from_slice(&original).expect("JSON");
        assert!(v["units_checksum"].is_string(), "{v}");
        change(&mut v);
        std::fs::write(dir.join("p2.json"), v.to_string()).expect("write");
        run(&["perft-merge", "p1.json", "p2.json", "p3.json"], &dir)
    };
    for field in ["id", "fen"] {
        let out = edit_sealed(&|v| v["results"][0][field] = Value::from("bogus"));
        assert_eq!(out.status.code(), Some(1));
        let err = text(&out.stderr);
        assert!(
            err.contains("p2.json (part 2/3) is damaged: its units were edited after counting"),
            "{field}: {err}"
        );
    }
    // In parts written before that checksum was recorded: a row's name
    // (the run's checksum says some part was edited), a reference count
    // raised with its count (the built-in table of the 960 starts decides),
    // and a count that differs from the reference (named on stderr).
    let edit = |change: &dyn Fn(&mut Value)| {
        edit_sealed(&|v| {
            if let Some(o) = v.as_object_mut() {
                o.remove("units_checksum");
            }
            change(v)
        })
    };
    let out = edit(&|v| v["results"][0]["id"] = Value::from("bogus"));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("the parts' units do not make the run"),
        "{}",
        text(&out.stderr)
    );
    let raise = |v: &mut Value, by: u64| {
        let n = v["results"][0]["nodes"].as_u64().expect("count") + by;
        v["results"][0]["nodes"] = Value::from(n);
        v["nodes"] = Value::from(v["nodes"].as_u64().expect("total") + by);
    };
    let out = edit(&|v| {
        raise(v, 5);
        let e = v["results"][0]["expected"].as_u64().expect("checked") + 5;
        v["results"][0]["expected"] = Value::from(e);
    });
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("the built-in table of the 960 starts"),
        "{}",
        text(&out.stderr)
    );
    let out = edit(&|v| raise(v, 5));
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.lines().any(|l| l.starts_with("MISMATCH: ")),
        "a wrong count not named on stderr: {err}"
    );
    // Its report to a reader that stops reading (`| head -1`): the status
    // still says a count differs, and stderr names it.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let closed = Command::new(BIN)
        .args(["perft-merge", "p1.json", "p2.json", "p3.json"])
        .current_dir(&dir)
        .stdout(writer)
        .output()
        .expect("run chess960");
    let err = text(&closed.stderr);
    assert_eq!(closed.status.code(), Some(1), "{err}");
    assert!(err.lines().any(|l| l.starts_with("MISMATCH: ")), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_shard_options_are_usage_errors() {
    let dir = std::env::temp_dir();
    for (args, message) in [
        (
            &["perft", "3", "--all", "--shard", "0/3", "--json"][..],
            "'0/3': the part must be 1..3",
        ),
        (
            &["perft", "3", "--all", "--shard", "3", "--json"],
            "'3' is not K/N",
        ),
        (&["perft", "3", "--all", "--shard", "1/2"], "--json"),
        (
            &[
                "perft", "3", "--idn", "5", "--shard", "1/2", "--json", "--divide",
            ],
            "cannot be used with",
        ),
    ] {
        let out = run(args, &dir);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(message),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// The documented GNU parallel form: four parts of `perft 5 --all` at once,
/// merged to the published sum.
#[test]
fn gnu_parallel_parts_merge_to_the_published_depth_5_sum() {
    let have = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !support::tool_present(
        have,
        "GNU parallel",
        "CHESS960_REQUIRE_PARALLEL",
        "apt-get install parallel",
    ) {
        return;
    }
    let dir = scratch("parallel");
    let command = format!(
        "parallel --will-cite '{BIN}' perft 5 --all --threads 1 --shard {{}}/4 --json '>' part-{{}}.json ::: 1 2 3 4 \
         && '{BIN}' perft-merge part-*.json"
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(&dir)
        .output()
        .expect("run sh");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(last_line(&out), format!("Nodes searched: {ALL_STARTS_D5}"));
    std::fs::remove_dir_all(dir).ok();
}

/// Sum of perft 7 over the 960 start positions: OEIS A157851 (published as
/// a total; the per-position table in perft/ is this project's).
const ALL_STARTS_D7: u64 = 2_854_198_413_886;

/// perft/chess960_startpos_d7.tsv is what the committed part reports merge
/// to, its rows are our numbering's start positions in order, and its sum
/// is the published one. (Counting depth 7 takes an hour of CPU: the parts
/// are checked, not recounted; tools/perft/crosscheck.py recounts rows with
/// Stockfish.)
#[test]
fn depth_7_table_is_the_merge_of_its_parts_and_sums_to_the_published_total() {
    table_is_the_merge_of_its_parts(7, "d7-parts", 8, ALL_STARTS_D7);
}

/// The table `perft/chess960_startpos_d{depth}.tsv` has the 960 starts in
/// our numbering's order with their Shredder-FENs, its counts sum to `sum`,
/// and merging the `parts` reports in `perft/{dir}` gives exactly its rows.
fn table_is_the_merge_of_its_parts(depth: u32, dir: &str, parts: usize, sum: u64) {
    let root = env!("CARGO_MANIFEST_DIR");
    let table = std::fs::read_to_string(format!("{root}/perft/chess960_startpos_d{depth}.tsv"))
        .expect("read the table");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("sp\t"))
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 960);
    let mut total = 0u64;
    for (n, row) in rows.iter().enumerate() {
        assert_eq!(row[0], n.to_string());
        let ours = chess960::startpos::position(n as u32).expect("start position");
        assert_eq!(row[1], chess960::notation::shredder_fen(&ours), "row {n}");
        total += row[2].parse::<u64>().expect("count");
    }
    assert_eq!(total, sum);

    let files: Vec<String> = (1..=parts)
        .map(|k| format!("{root}/perft/{dir}/part-{k}-of-{parts}.json"))
        .collect();
    let mut args = vec!["perft-merge"];
    args.extend(files.iter().map(String::as_str));
    let out = run(&args, Path::new(root));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(last_line(&out), format!("Nodes searched: {sum}"));
    let merged = text(&out.stdout);
    assert_eq!(
        merged.lines().count(),
        960 + 2,
        "960 rows, a summary, the total"
    );
    for (line, row) in merged.lines().zip(&rows) {
        assert!(
            line.starts_with(&format!("{} depth {depth} nodes {} ", row[0], row[2])),
            "{line}"
        );
    }
}

/// Sum of perft 8 over the 960 start positions: OEIS A157851.
const ALL_STARTS_D8: u64 = 75_006_431_287_937;

/// perft/chess960_startpos_d8.tsv, counted in 96 parts of ten starts
/// (docs/perft.md), is the merge of its committed parts, sums to the
/// published total, and its row 518 (RNBQKBNR) is the published standard
/// perft 8, 84,998,978,956 (chessprogramming wiki, "Perft Results").
#[test]
fn depth_8_table_is_the_merge_of_its_parts_and_sums_to_the_published_total() {
    table_is_the_merge_of_its_parts(8, "d8-parts", 96, ALL_STARTS_D8);
    let root = env!("CARGO_MANIFEST_DIR");
    let table = std::fs::read_to_string(format!("{root}/perft/chess960_startpos_d8.tsv"))
        .expect("read the table");
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("518\trnbqkbnr/") && l.ends_with("\t84998978956")),
        "row 518 is not the standard perft 8"
    );
}

/// Depth 9 of start 518 (RNBQKBNR), counted as five parts over its 20 root
/// moves (docs/perft.md): the parts make one run and merge to the published
/// standard-chess perft 9 (chessprogramming wiki, "Perft Results").
#[test]
fn depth_9_of_the_standard_start_merges_to_the_published_perft_9() {
    let root = env!("CARGO_MANIFEST_DIR");
    let parts: Vec<String> = (1..=5)
        .map(|k| format!("{root}/perft/d9-518-parts/part-{k}-of-5.json"))
        .collect();
    let mut args = vec!["perft-merge"];
    args.extend(parts.iter().map(String::as_str));
    let out = run(&args, Path::new(root));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(last_line(&out), "Nodes searched: 2439530234167");
    // The divide has every root move of the start once.
    let divide = text(&out.stdout);
    let moves: std::collections::HashSet<&str> = divide
        .lines()
        .filter(|l| !l.starts_with("Nodes"))
        .map(|l| l.split(':').next().unwrap_or(""))
        .collect();
    assert_eq!(moves.len(), 20, "{moves:?}");
    let root_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
    for k in 1..=5 {
        let report = std::fs::read_to_string(&parts[k - 1]).expect("part");
        assert!(report.contains("\"depth\": 9"), "part {k}");
        assert!(
            report.contains(root_fen),
            "part {k} counts the standard start"
        );
    }
}

/// A suite file whose count for a start position is not the built-in
/// table's: the merge names the conflict, checks against the table (the
/// independent count) and fails, printing its results; it no longer says
/// that a part was edited, with no result at all.
#[test]
fn a_suite_reference_that_is_not_the_tables_is_named() {
    let dir = scratch("conflict");
    std::fs::write(
        dir.join("s.epd"),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 ;D2 401\n",
    )
    .expect("write suite");
    let plain = run(&["perft", "2", "--epd", "s.epd"], &dir);
    assert_eq!(plain.status.code(), Some(1), "{}", text(&plain.stdout));
    assert!(text(&plain.stdout).contains("MISMATCH"));
    // The part fails as the plain run does, and its report is written.
    let part = run(
        &["perft", "2", "--epd", "s.epd", "--shard", "1/1", "--json"],
        &dir,
    );
    assert_eq!(part.status.code(), Some(1));
    std::fs::write(dir.join("p1.json"), &part.stdout).expect("write part");
    let out = run(&["perft-merge", "p1.json"], &dir);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("expects 401 at depth 2, the built-in table of the 960 starts 400")
            && err.contains("checked against the table")
            && !err.contains("a part was edited"),
        "{err}"
    );
    assert!(
        text(&out.stdout).contains("nodes 400 expected 400 ok"),
        "{}",
        text(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-` is stdin for a suite file as for a part, and given twice to
/// `perft-merge` it is refused as such (its second read was empty, and
/// named as a report that is not JSON).
#[test]
fn stdin_reads_a_suite_and_one_part() {
    use std::io::Write as _;
    let mut child = Command::new(BIN)
        .args(["perft", "2", "--epd", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run chess960");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 ;D2 400\n")
        .expect("write suite");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("nodes 400 expected 400 ok"));
    let out = run(&["perft-merge", "-", "-"], &std::env::temp_dir());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("'-' (stdin) is given more than once"));
}
