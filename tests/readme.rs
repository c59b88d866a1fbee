//! Every `chess960 ...` example in README.md runs as written: exit status
//! 0, and where the comment after it shows the output (a number, a FEN or
//! a `Nodes searched` line), the program prints exactly that.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_chess960");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The commands of the README's `sh` blocks that run this program, with
/// the comment after each.
fn examples() -> Vec<(String, Option<String>)> {
    let text = std::fs::read_to_string(format!("{ROOT}/README.md")).expect("README.md");
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("```") {
            in_sh = t == "```sh";
            continue;
        }
        if !in_sh || !t.starts_with("chess960 ") {
            continue;
        }
        let (cmd, comment) = match t.split_once(" # ") {
            Some((c, k)) => (c.trim().to_owned(), Some(k.trim().to_owned())),
            None => (t.to_owned(), None),
        };
        out.push((cmd, comment));
    }
    out
}

/// The output a comment promises, if it is one: a number, a FEN, or a
/// `Nodes searched` line, up to the first parenthesis.
fn promised(comment: &str) -> Option<String> {
    let head = comment.split(" (").next().unwrap_or(comment).trim();
    let looks_like_output = head.parse::<u64>().is_ok()
        || head.starts_with("Nodes searched: ")
        || head.split('/').count() == 8;
    looks_like_output.then(|| head.to_owned())
}

#[test]
fn every_readme_example_runs_as_written() {
    let list = examples();
    assert!(list.len() >= 20, "found only {} examples", list.len());
    let dir = std::env::temp_dir().join(format!("chess960-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // Examples name files under perft/ relative to the repository.
    std::os::unix::fs::symlink(format!("{ROOT}/perft"), dir.join("perft")).expect("link perft/");
    for (cmd, comment) in &list {
        let words: Vec<&str> = cmd.split_whitespace().skip(1).collect();
        // An example that drives another engine needs that engine.
        if let Some(i) = words.iter().position(|w| *w == "--engine") {
            let engine = words.get(i + 1).copied().unwrap_or_default();
            if !std::path::Path::new(engine).exists()
                && std::env::var_os("CHESS960_REQUIRE_STOCKFISH").is_none()
            {
                eprintln!("skipped `{cmd}`: {engine} is not installed");
                continue;
            }
        }
        let out = Command::new(BIN)
            .args(&words)
            .current_dir(&dir)
            .output()
            .expect("run chess960");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "`{cmd}` failed: {:?}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(want) = comment.as_deref().and_then(promised) {
            assert!(
                stdout.lines().any(|l| l.trim() == want),
                "`{cmd}` printed {stdout:?}, README says {want:?}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).expect("clean up");
}

/// README's UCI option table says what the engine declares: one row per
/// option of `uci::options::TABLE`, with its type, range and default.
#[test]
fn readme_option_table_matches_the_engine() {
    use chess960::uci::options::{Kind, TABLE};
    let text = std::fs::read_to_string(format!("{ROOT}/README.md")).expect("README.md");
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.split('|').map(|c| c.trim().to_owned()).collect())
        .filter(|c: &Vec<String>| c.len() >= 5)
        .collect();
    for spec in TABLE {
        let row = rows
            .iter()
            .find(|r| r[1] == format!("`{}`", spec.name))
            .unwrap_or_else(|| panic!("README has no row for {}", spec.name));
        let (kind, default) = match spec.kind {
            Kind::Spin { default, min, max } => (format!("spin {min}..{max}"), default.to_string()),
            Kind::Check { default } => ("check".into(), default.to_string()),
            Kind::Button => ("button".into(), String::new()),
            Kind::Text => ("string".into(), "`<empty>`".into()),
        };
        assert_eq!(
            (row[2].as_str(), row[3].as_str()),
            (kind.as_str(), default.as_str()),
            "{}",
            spec.name
        );
        assert_eq!(row[4], spec.what, "{}", spec.name);
    }
}
