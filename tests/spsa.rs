//! The SPSA driver (tools/tune/spsa/spsa.py) against stand-ins for the
//! engine and the match runner (tests/clients/spsa_fake_*.py): the games'
//! results come from a known optimum, so the test sees whether the driver
//! moves the numbers towards it, and whether a run stopped and resumed
//! ends in the same state as one run straight through. Real games would
//! take minutes each; the driver's use of fastchess is the same form as
//! tools/tune/match.sh's.

mod support;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn spsa(dir: &Path, args: &[&str]) -> Output {
    Command::new("python3")
        .arg(repo().join("tools/tune/spsa/spsa.py"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("python3")
}

fn ok(out: Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// A fresh directory with the fakes' parameter file, an openings file and
/// an initialised state `st.json` of `iterations` iterations, playing from
/// that file or (`own_openings` false) from the engine's `openings --all`.
fn setup(tag: &str, iterations: u32, own_openings: bool) -> PathBuf {
    let dir = support::temp_dir(tag);
    std::fs::write(dir.join("open.epd"), "one\ntwo\n").unwrap();
    std::fs::write(
        dir.join("p.tsv"),
        "# name\tstart\tc_end\tr_end\nALPHA\t-\t4\t0.02\nBETA\t-\t8\t0.02\n",
    )
    .unwrap();
    let openings = own_openings.then_some("open.epd");
    ok(init(&dir, "st.json", "p.tsv", iterations, openings));
    dir
}

/// `spsa.py init STATE` of `iterations` iterations of 16 pairs, seed 3.
fn init(dir: &Path, state: &str, params: &str, iterations: u32, openings: Option<&str>) -> Output {
    let n = iterations.to_string();
    let mut args = vec![
        "init",
        state,
        "--params",
        params,
        "--iterations",
        &n,
        "--seed",
        "3",
        "--pairs",
        "16",
    ];
    if let Some(file) = openings {
        args.extend_from_slice(&["--openings", file]);
    }
    spsa(dir, &args)
}

fn run(dir: &Path, state: &str, more: &[&str]) -> Output {
    let engine = repo().join("tests/clients/spsa_fake_engine.py");
    let fastchess = repo().join("tests/clients/spsa_fake_fastchess.py");
    let mut args = vec![
        "run",
        state,
        "--engine",
        engine.to_str().unwrap(),
        "--fastchess",
        fastchess.to_str().unwrap(),
        "--workdir",
        "work",
    ];
    args.extend_from_slice(more);
    spsa(dir, &args)
}

fn value(state: &str, name: &str) -> f64 {
    let json: serde_json::Value = serde_json::from_str(state).expect("state is JSON");
    json["params"]
        .as_array()
        .expect("params")
        .iter()
        .find(|p| p["name"] == name)
        .and_then(|p| p["value"].as_f64())
        .expect("value")
}

#[test]
fn spsa_moves_the_numbers_towards_the_optimum() {
    if !support::python3_present() {
        return;
    }
    let dir = setup("spsa-converge", 60, false);
    ok(run(&dir, "st.json", &[]));
    let state = std::fs::read_to_string(dir.join("st.json")).unwrap();
    // The fakes start at ALPHA 20 and BETA 100 (their declared defaults)
    // and have their optimum at 40 and 60.
    let (alpha, beta) = (value(&state, "ALPHA"), value(&state, "BETA"));
    assert!((alpha - 40.0).abs() < 5.0, "ALPHA ended at {alpha}");
    assert!((beta - 60.0).abs() < 10.0, "BETA ended at {beta}");
    assert!(state.contains("\"done\": 60") && state.contains("\"games\": 1920"));
    // The engine's openings were made in the work directory and their
    // checksum kept, so a later run can tell if they change.
    assert!(dir.join("work/c960.epd").exists());
    assert!(!state.contains("\"openings_sha256\": null"), "{state}");
    assert!(state.contains("\"bench\": 4242"), "{state}");
    // `show` prints where the run stands and each number's setting.
    let shown = ok(spsa(&dir, &["show", "st.json"]));
    assert!(
        shown.starts_with("iteration 60 of 60, 1920 games\n"),
        "{shown}"
    );
    let alpha_line = format!("ALPHA\t{alpha:.2}\t(integer setting {})", alpha.round());
    assert!(shown.contains(&alpha_line), "{shown}");
}

#[test]
fn a_run_resumed_from_its_state_ends_where_one_run_does() {
    if !support::python3_present() {
        return;
    }
    let dir = setup("spsa-resume", 30, true);
    std::fs::copy(dir.join("st.json"), dir.join("whole.json")).unwrap();
    let first = ok(run(&dir, "st.json", &["--iterations", "12"]));
    assert!(first.contains("iteration 12 of 30"), "{first}");
    ok(run(&dir, "st.json", &[]));
    ok(run(&dir, "whole.json", &[]));
    let resumed = std::fs::read_to_string(dir.join("st.json")).unwrap();
    let whole = std::fs::read_to_string(dir.join("whole.json")).unwrap();
    assert_eq!(resumed, whole);
    // A finished run plays nothing more.
    let again = ok(run(&dir, "st.json", &[]));
    assert!(!again.contains("iteration 31"), "{again}");
}

#[test]
fn the_driver_refuses_what_would_spoil_a_run() {
    if !support::python3_present() {
        return;
    }
    let dir = setup("spsa-refuse", 5, true);
    let out = init(&dir, "st.json", "p.tsv", 5, Some("open.epd"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("st.json exists"));

    std::fs::write(dir.join("open.epd"), "other\n").unwrap();
    let out = run(&dir, "st.json", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not the one this run started with"));

    std::fs::write(dir.join("open.epd"), "one\ntwo\n").unwrap();
    std::fs::write(dir.join("q.tsv"), "GAMMA\t-\t1\t0.002\n").unwrap();
    ok(init(&dir, "q.json", "q.tsv", 5, Some("open.epd")));
    let out = run(&dir, "q.json", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no spin option GAMMA"));
}

#[test]
fn the_campaign_tunes_only_numbers_the_search_declares() {
    let text = std::fs::read_to_string(repo().join("tools/tune/spsa/params.tsv")).unwrap();
    let listed: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').next().unwrap_or(""))
        .collect();
    let declared: HashSet<&str> = chess960::search::params::TUNABLE
        .iter()
        .map(|(n, _)| *n)
        .collect();
    for name in &listed {
        assert!(declared.contains(name), "{name} is not in TUNABLE");
    }
    assert_eq!(
        listed.len(),
        declared.len(),
        "every tunable number is tuned"
    );
}
