//! The match and SPSA tools' own unit tests (Python's unittest, beside the
//! scripts they test), run here so that `cargo test` runs them too: the
//! gate's verdict when fastchess stops or crashes, ethereal.sh's status, the
//! SPSA driver's rounding, locks and resumption. Each suite runs against
//! stand-ins for fastchess and the engine that it writes itself, so it needs
//! python3 only.

mod support;

use std::path::PathBuf;
use std::process::Command;

/// Runs `python3 -m unittest discover` in `dir` (relative to the
/// repository) and fails with its report unless every test passed.
fn unittests(dir: &str) {
    if !support::python3_present() {
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .args(["-m", "unittest", "discover", "-s", dir, "-p", "test_*.py"])
        .current_dir(&root)
        .output()
        .expect("python3");
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{dir}:\n{report}");
    // A discovery that found nothing also exits 0 (before Python 3.12): a
    // renamed file must not make the suite silently empty.
    assert!(
        report.contains("\nOK") && !report.contains("Ran 0 tests"),
        "{dir}:\n{report}"
    );
}

#[test]
fn match_tools() {
    unittests("tools/match");
}

#[test]
fn spsa_driver() {
    unittests("tools/tune/spsa");
}
