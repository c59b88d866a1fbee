//! `chess960 event` as an organiser and a doubting player use it, and the
//! derivation recomputed by an independent program (Python's hashlib, the
//! one docs/event.md prints).

mod support;

use std::ffi::OsStr;
use std::path::Path;

use chess960::event::{derive, Kind};
use support::{run, stdout};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// The worked example of docs/event.md.
const SECRET: &str = "example-secret-for-the-docs-2026";

/// The public part of docs/event.md's worked example.
const PUBLIC: &str = "4 2 6 6 1 3 5 2 2 4";

/// A secret for the event files the tests make with `event new`, which
/// refuses the docs' example.
const TEST_SECRET: &str = "a-secret-for-the-tests-alone-2026";
const COMMITMENT: &str = "0e63e106a2b5e032260d8ae8b799b4d3917a747c83dce93c0c95230f67b0f163";

/// Run a command that must fail with `code` and one stderr line; returns it.
fn fails_with(args: &[&str], code: i32) -> String {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one stderr line: {err}");
    // Nothing on stdout: a failed check prints no round as matching.
    assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    err
}

/// `event new` into `file` with the tests' secret, `rounds` rounds and
/// `extra` arguments; returns what it prints (the commitment).
fn new_event(file: &str, rounds: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "event",
        "new",
        "--rounds",
        rounds,
        "--secret",
        TEST_SECRET,
        "-o",
        file,
    ];
    args.extend_from_slice(extra);
    stdout(&args)
}

fn run_python(program: &str) -> String {
    let out = support::python3_ok(&[OsStr::new("-c"), OsStr::new(program)]);
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The ```python block of docs/event.md and the block after "It prints:".
fn documented_example() -> (String, String) {
    let text = std::fs::read_to_string(format!("{ROOT}/docs/event.md")).expect("docs/event.md");
    let block_after = |marker: &str| {
        let start = text
            .find(marker)
            .unwrap_or_else(|| panic!("{marker} in docs"));
        let rest = &text[start..];
        let open = rest.find("```").expect("a code block");
        let body = &rest[open..];
        let body = &body[body.find('\n').expect("fence line") + 1..];
        body[..body.find("```").expect("closing fence")].to_string()
    };
    (block_after("```python"), block_after("It prints:"))
}

#[test]
fn the_documented_example_recomputes_in_python_and_in_the_program() {
    let (program, printed) = documented_example();
    // The program's side, independent of Python: the library and the CLI.
    let chess960: Vec<u32> = (1..=7)
        .map(|r| derive(SECRET, r, Kind::Chess960).number())
        .collect();
    let dfrc: Vec<u32> = (1..=7)
        .map(|r| derive(SECRET, r, Kind::Dfrc).number())
        .collect();
    let join = |v: &[u32]| {
        v.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let public: Vec<u32> = (1..=7)
        .map(|r| chess960::event::derive_with(SECRET, Some(PUBLIC), r, Kind::Chess960).number())
        .collect();
    let ours = format!(
        "commitment {}\nchess960 {}\ndfrc {}\npublic {}\n",
        chess960::event::commitment(SECRET),
        join(&chess960),
        join(&dfrc),
        join(&public)
    );
    assert_eq!(ours, printed, "docs/event.md's printed output");
    assert!(printed.contains(COMMITMENT));
    if support::python3_present() {
        assert_eq!(
            run_python(&program),
            printed,
            "the documented Python program"
        );
    }
}

#[test]
fn python_hashlib_and_the_program_agree_on_many_rounds() {
    if !support::python3_present() {
        return;
    }
    // Secrets with multi-byte UTF-8 characters check the encoding rule.
    let secrets = [
        SECRET,
        "Schachklub Zürich, Frühjahr 2026 ♞",
        "0123456789abcdef",
    ];
    let program = format!(
        r#"
import hashlib, struct
def start(secret, r, n):
    bound = 2**32 - 2**32 % n
    c = 0
    while True:
        b = hashlib.sha256(b"chess960-event-v1\x00" + struct.pack(">II", r, c) + secret.encode("utf-8")).digest()
        for i in range(0, 32, 4):
            w = int.from_bytes(b[i:i+4], "big")
            if w < bound:
                return w % n
        c += 1
for s in {secrets:?}:
    print(hashlib.sha256(s.encode("utf-8")).hexdigest())
    print(*[start(s, r, 960) for r in range(1, 301)])
    print(*[start(s, r, 921600) for r in range(1, 301)])
# Rounds whose first word falls in the zone the bound leaves out (found by
# search): the rule that skips a word is checked against the program too.
for s, r in {skips:?}:
    first = int.from_bytes(hashlib.sha256(b"chess960-event-v1\x00" + struct.pack(">II", r, 0) + s.encode("utf-8")).digest()[:4], "big")
    assert first >= 2**32 - 2**32 % 921600, (s, r)
    print(start(s, r, 921600))
"#,
        secrets = secrets.map(|s| s.to_string()).to_vec(),
        skips = SKIPPED_FIRST_WORD.map(|(s, r)| (s.to_string(), r)).to_vec()
    );
    let python = run_python(&program);
    let mut ours = String::new();
    for s in secrets {
        ours.push_str(&chess960::event::commitment(s));
        ours.push('\n');
        for kind in [Kind::Chess960, Kind::Dfrc] {
            let v: Vec<String> = (1..=300)
                .map(|r| derive(s, r, kind).number().to_string())
                .collect();
            ours.push_str(&v.join(" "));
            ours.push('\n');
        }
    }
    for (s, r) in SKIPPED_FIRST_WORD {
        ours.push_str(&format!("{}\n", derive(s, r, Kind::Dfrc).number()));
    }
    assert_eq!(python, ours);
}

/// DFRC rounds whose first 32-bit word lies at or above the bound (about
/// one in 13,800): Python checks that they do, so the skip is compared
/// with an implementation of the rule made apart from the program's.
const SKIPPED_FIRST_WORD: [(&str, u32); 3] = [
    ("skip-search-secret-0016", 781),
    ("skip-search-secret-0018", 689),
    ("skip-search-secret-0020", 258),
];

#[test]
fn starts_are_spread_evenly_over_the_960() {
    // 96,000 rounds, 100 expected per start: the chi-square statistic of a
    // uniform draw has mean 959 and standard deviation about 44.
    let mut counts = [0u32; 960];
    for r in 1..=96_000 {
        counts[derive("uniformity check secret", r, Kind::Chess960).number() as usize] += 1;
    }
    let chi2: f64 = counts
        .iter()
        .map(|&c| (f64::from(c) - 100.0).powi(2) / 100.0)
        .sum();
    assert!((760.0..1180.0).contains(&chi2), "chi-square {chi2}");
}

/// The organiser's whole flow: new, draw, pack, reveal, and the player's
/// check with the command `reveal` prints.
#[test]
fn an_event_from_commitment_to_verification() {
    let dir = support::temp_dir("event-flow");
    let file = dir.join("event.json");
    let f = file.to_str().expect("path");
    let commitment = stdout(&[
        "event",
        "new",
        "--rounds",
        "5",
        "--name",
        "Club rapid",
        "-o",
        f,
    ]);
    let commitment = commitment.trim();
    assert_eq!(commitment.len(), 64, "{commitment}");
    assert!(commitment.bytes().all(|b| b.is_ascii_hexdigit()));
    let lines = stdout(&["event", "draw", f]);
    assert_eq!(lines.lines().count(), 5, "{lines}");
    let round3 = stdout(&["event", "draw", f, "--round", "3"]);
    assert!(
        round3.starts_with("Round 3 of 5\nChess960 start position "),
        "{round3}"
    );
    let third: Vec<&str> = lines.lines().nth(2).expect("round 3").split(' ').collect();
    assert!(round3.contains(&format!("X-FEN:        {}", third[2..].join(" "))));
    // The commitment again, alone, for an organiser who lost the line.
    assert_eq!(stdout(&["event", "commitment", f]).trim(), commitment);
    let reveal = stdout(&["event", "reveal", f]);
    assert!(
        reveal.contains(&format!("commitment: {commitment}")),
        "{reveal}"
    );
    let check = reveal
        .lines()
        .find_map(|l| l.strip_prefix("check: chess960 "))
        .expect("a check line");
    let words: Vec<&str> = check.split_whitespace().collect();
    let verified = stdout(&words);
    assert_eq!(verified.lines().count(), 6, "{verified}");
    assert!(verified.ends_with(&format!(
        "ok: the secret matches commitment {commitment}; 5 rounds checked\n"
    )));
    // The round printed on its own agrees with the list.
    let secret = reveal
        .lines()
        .find_map(|l| l.strip_prefix("secret: "))
        .expect("secret line");
    stdout(&[
        "event",
        "verify",
        "--commitment",
        commitment,
        "--secret",
        secret,
        "--round",
        "3",
        "--start",
        third[1],
    ]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The secret is kept safe: the event file is its owner's alone, never
/// written to stdout, and a pack's `-o` slip cannot write over it.
#[test]
fn the_event_file_and_its_secret_are_kept_safe() {
    let dir = support::temp_dir("event-safe");
    let file = dir.join("event.json");
    let f = file.to_str().expect("path");
    stdout(&["event", "new", "--rounds", "3", "-o", f]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).expect("made").permissions().mode();
        assert_eq!(mode & 0o077, 0, "readable by others: {mode:o}");
    }
    let before = std::fs::read(&file).expect("read");
    let err = fails_with(&["event", "pack", f, "-o", f], 1);
    assert!(err.contains("is an event file"), "{err}");
    let other = dir.join("other.json");
    let o = other.to_str().expect("path");
    std::fs::copy(&file, &other).expect("copy");
    let err = fails_with(&["event", "pack", f, "-o", o], 1);
    assert!(err.contains("is an event file"), "{err}");
    // Another version's event file, or one whose `format` was lost, holds
    // a secret too.
    let text = std::fs::read_to_string(&file).expect("read");
    for (name, other_text) in [
        (
            "future.json",
            text.replace("chess960-event-v1", "chess960-event-v2"),
        ),
        (
            "formatless.json",
            text.replace("\"format\"", "\"was_format\""),
        ),
    ] {
        assert_ne!(other_text, text);
        let path = dir.join(name);
        std::fs::write(&path, &other_text).expect("write");
        let err = fails_with(&["event", "pack", f, "-o", path.to_str().expect("path")], 1);
        assert!(err.contains("is an event file"), "{name}: {err}");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), other_text);
    }
    // A device or a pipe for the event file, even with --force: the secret
    // would be lost and the commitment never revealed.
    #[cfg(unix)]
    {
        let err = fails_with(
            &[
                "event",
                "new",
                "--rounds",
                "3",
                "--force",
                "-o",
                "/dev/null",
            ],
            2,
        );
        assert!(err.contains("is not a regular file"), "{err}");
    }
    // Standard output appended to the event file (`>> event.json`), by
    // any name of it: refused as the file itself is.
    for out in ["-", "/dev/stdout", f] {
        let appending = std::fs::OpenOptions::new()
            .append(true)
            .open(&file)
            .expect("open for appending");
        let run = std::process::Command::new(support::binary())
            .args(["event", "pack", f, "-o", out])
            .stdout(appending)
            .output()
            .expect("run chess960");
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{out}: {err}");
        assert!(err.contains("is an event file"), "{out}: {err}");
    }
    assert_eq!(
        std::fs::read(&file).expect("read"),
        before,
        "the event file changed"
    );
    stdout(&["event", "reveal", f]);
    let page = dir.join("pack.html");
    stdout(&["event", "pack", f, "-o", page.to_str().expect("path")]);
    // The pack shows every round, and a file replaced with --force kept its
    // old mode on open: both end readable by their owner alone.
    let forced = dir.join("forced.json");
    std::fs::write(&forced, "old").expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let open = std::fs::Permissions::from_mode(0o644);
        std::fs::set_permissions(&forced, open.clone()).expect("chmod");
        let fo = forced.to_str().expect("path");
        stdout(&["event", "new", "--rounds", "3", "--force", "-o", fo]);
        // Through a shell redirect (`> redirected.html`): the shell makes
        // the file readable by all; the pack makes it its owner's before
        // writing, as `-o` does.
        let redirected = dir.join("redirected.html");
        let shell_made = std::fs::File::create(&redirected).expect("create");
        std::fs::set_permissions(&redirected, open).expect("chmod");
        let run = std::process::Command::new(support::binary())
            .args(["event", "pack", f])
            .stdout(shell_made)
            .output()
            .expect("run chess960");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let written = std::fs::read_to_string(&redirected).expect("read");
        assert!(written.trim_end().ends_with("</html>"), "{written}");
        for made in [&forced, &page, &redirected] {
            let mode = std::fs::metadata(made).expect("made").permissions().mode();
            assert_eq!(mode & 0o077, 0, "{}: {mode:o}", made.display());
        }
    }
    let err = fails_with(&["event", "new", "--rounds", "3", "-o", "-"], 2);
    assert!(
        err.contains("not standard output or another descriptor ('-')"),
        "{err}"
    );
    let err = fails_with(
        &[
            "event",
            "new",
            "--rounds",
            "3",
            "--secret",
            "zero-width-at-end-xx\u{200b}",
            "-o",
        ]
        .iter()
        .copied()
        .chain([dir.join("z.json").to_str().expect("path")])
        .collect::<Vec<_>>(),
        2,
    );
    assert!(err.contains("U+200B"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A DFRC start checked as Chess960, or the other way round, is named as
/// the likely slip; a short secret that matches is accepted with a note.
#[test]
fn verify_names_the_likely_slip() {
    let chess960 = derive(SECRET, 1, Kind::Chess960).number().to_string();
    let dfrc = derive(SECRET, 1, Kind::Dfrc).number().to_string();
    let base = [
        "event",
        "verify",
        "--commitment",
        COMMITMENT,
        "--secret",
        SECRET,
    ];
    fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        base.iter().chain(extra).copied().collect()
    }
    let err = fails_with(&with(&base, &["--round", "1", "--start", &dfrc]), 2);
    assert!(
        err.contains("add --dfrc if the event was announced as Double Fischer Random"),
        "{err}"
    );
    // White's side alone of a DFRC start is named as that: not a hint to
    // drop --dfrc, which would pass as a check of a Chess960 event.
    let d: u32 = dfrc.parse().expect("number");
    let whole = format!(
        "{chess960} is White's side of it alone: the start is {dfrc}, White {chess960} and Black {}",
        d / 960
    );
    let err = fails_with(
        &with(&base, &["--dfrc", "--round", "1", "--start", &chess960]),
        1,
    );
    assert!(err.contains(&whole), "{err}");
    assert!(!err.contains("drop --dfrc"), "{err}");
    // Typed as back ranks or a FEN, the same slips.
    let white = chess960::startpos::back_rank(d % 960);
    let black = chess960::startpos::back_rank(d / 960).to_lowercase();
    assert_ne!(
        white.to_lowercase(),
        black,
        "round 1's DFRC start is not a Chess960 one"
    );
    let ranks = format!("{white} {black}");
    let fen = format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1");
    for typed in [&ranks, &format!("{white}/{black}"), &fen] {
        let err = fails_with(&with(&base, &["--round", "1", "--start", typed]), 2);
        assert!(err.contains("add --dfrc"), "{typed}: {err}");
    }
    let rank = chess960::startpos::back_rank(chess960.parse().expect("number"));
    let err = fails_with(
        &with(&base, &["--dfrc", "--round", "1", "--start", &rank]),
        1,
    );
    assert!(err.contains(&whole), "{err}");
    // Hex typed in capitals: named as the slip it is.
    let hex = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    let err = fails_with(
        &[
            "event",
            "verify",
            "--commitment",
            &chess960::event::commitment(hex),
            "--secret",
            &hex.to_uppercase(),
            "--round",
            "1",
            "--start",
            "0",
        ],
        1,
    );
    assert!(err.contains("in lower case, without white space"), "{err}");
    // A secret pasted with a line end: named as the typo it is.
    let padded = format!("{SECRET}\n");
    let err = fails_with(
        &[
            "event",
            "verify",
            "--commitment",
            COMMITMENT,
            "--secret",
            &padded,
            "--round",
            "1",
            "--start",
            &chess960,
        ],
        1,
    );
    assert!(err.contains("without it, it matches"), "{err}");
    // A secret with an accented letter, published composed (U+00E9) and
    // typed decomposed (e and U+0301): they look alike and are other bytes.
    let composed = "une-s\u{e9}ance-secr\u{e8}te-du-club-2026";
    let decomposed = "une-se\u{301}ance-secre\u{300}te-du-club-2026";
    // Round 1 checked with `secret` against `commitment`; the error line.
    let wrong_secret = |commitment: &str, secret: &str| {
        let args = ["--commitment", commitment, "--secret", secret];
        fails_with(
            &with(
                &["event", "verify"],
                &with(&args, &["--round", "1", "--start", "0"]),
            ),
            1,
        )
    };
    let err = wrong_secret(&chess960::event::commitment(composed), decomposed);
    assert!(err.contains("beyond ASCII"), "{err}");
    // An ASCII secret that is simply wrong gets no such hint.
    let err = wrong_secret(COMMITMENT, "another-secret-for-the-docs-2026");
    assert!(!err.contains("ASCII"), "{err}");
    // A wrong start of the right kind gets no such hint.
    let wrong = ((chess960.parse::<u32>().expect("number") + 1) % 960).to_string();
    let err = fails_with(&with(&base, &["--round", "1", "--start", &wrong]), 1);
    assert!(!err.contains("dfrc"), "{err}");
    let short = "abcdefghijklmno";
    let digest = run_python(&format!(
        "import hashlib; print(hashlib.sha256(b'{short}').hexdigest())"
    ));
    let start = derive(short, 1, Kind::Chess960).number().to_string();
    let out = run(&[
        "event",
        "verify",
        "--commitment",
        digest.trim(),
        "--secret",
        short,
        "--round",
        "1",
        "--start",
        &start,
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.starts_with("note: the secret has 15 bytes"), "{err}");
}

#[test]
fn the_documented_secret_verifies_by_number_and_by_back_rank() {
    let out = stdout(&[
        "event",
        "verify",
        "--commitment",
        &COMMITMENT.to_uppercase(),
        "--secret",
        SECRET,
        "--starts",
        "630,632,519,225,362,686,641",
    ]);
    assert!(out.contains("round 7: chess960 #641 matches"), "{out}");
    // Round 3 is 519, whose back rank the reference table names.
    let table = support::startpos_table();
    let fen = &table.iter().find(|(n, _, _)| *n == 519).expect("519").1;
    let rank1 = fen.split(['/', ' ']).nth(7).expect("rank 1");
    stdout(&[
        "event",
        "verify",
        "--commitment",
        COMMITMENT,
        "--secret",
        SECRET,
        "--round",
        "3",
        "--start",
        rank1,
    ]);
    stdout(&[
        "event",
        "verify",
        "--dfrc",
        "--commitment",
        COMMITMENT,
        "--secret",
        SECRET,
        "--round",
        "1",
        "--start",
        "479670",
    ]);
}

/// A secret may begin with '-', given either way (`--secret -x`,
/// `--secret=-x`), and the check `reveal` prints verifies it as a shell reads it.
#[test]
fn a_secret_that_begins_with_a_dash() {
    let dir = support::temp_dir("event-dash");
    let file = dir.join("event.json");
    let f = file.to_str().expect("path");
    let secret = "-my-secret-phrase-2026";
    let commitment = stdout(&["event", "new", "--rounds", "2", "--secret", secret, "-o", f]);
    assert_eq!(commitment.trim(), chess960::event::commitment(secret));
    let reveal = stdout(&["event", "reveal", f]);
    let check = reveal
        .lines()
        .find_map(|l| l.strip_prefix("check: chess960 "))
        .expect("a check line");
    let words = shlex::split(check).expect("a shell line");
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let verified = stdout(&words);
    assert!(verified.contains("2 rounds checked"), "{verified}");
    let first = reveal
        .lines()
        .find_map(|l| l.strip_prefix("round 1: "))
        .expect("round 1");
    let again = stdout(&[
        "event",
        "verify",
        "--commitment",
        commitment.trim(),
        "--secret",
        secret,
        "--round",
        "1",
        "--start",
        first,
    ]);
    assert!(again.contains("1 round checked"), "{again}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_inputs_name_the_culprit() {
    let verify = |extra: &[&str]| {
        let mut args = vec!["event", "verify"];
        args.extend_from_slice(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let call = |v: Vec<String>, code| {
        let refs: Vec<&str> = v.iter().map(String::as_str).collect();
        fails_with(&refs, code)
    };
    // Wrong secret: the commitment does not match (runtime, 1).
    let e = call(
        verify(&[
            "--commitment",
            COMMITMENT,
            "--secret",
            "example-secret-for-the-docs-2025",
            "--round",
            "1",
            "--start",
            "630",
        ]),
        1,
    );
    assert!(
        e.contains("the secret does not match the commitment"),
        "{e}"
    );
    // Wrong commitment (well formed, another secret's).
    let other = chess960::event::commitment("another secret, not this one");
    let e = call(
        verify(&[
            "--commitment",
            &other,
            "--secret",
            SECRET,
            "--round",
            "1",
            "--start",
            "630",
        ]),
        1,
    );
    assert!(e.contains(&format!("the commitment is {other}")), "{e}");
    // A commitment that is not one (usage, 2).
    let e = call(
        verify(&[
            "--commitment",
            "0e63e1",
            "--secret",
            SECRET,
            "--round",
            "1",
            "--start",
            "630",
        ]),
        2,
    );
    assert!(e.contains("'0e63e1' is not a commitment"), "{e}");
    // Another start than the derived one.
    let e = call(
        verify(&[
            "--commitment",
            COMMITMENT,
            "--secret",
            SECRET,
            "--round",
            "2",
            "--start",
            "630",
        ]),
        1,
    );
    assert!(
        e.contains("round 2: the secret gives start 632, not 630"),
        "{e}"
    );
    // Checked without --public: the likeliest slip is named.
    assert!(e.contains("add --public"), "{e}");
    let e = call(
        verify(&[
            "--commitment",
            COMMITMENT,
            "--secret",
            SECRET,
            "--starts",
            "630,632,520",
        ]),
        1,
    );
    assert!(
        e.contains("round 3: the secret gives start 519, not 520"),
        "{e}"
    );
    // Round 0, and a start that is not one.
    let e = call(
        verify(&[
            "--commitment",
            COMMITMENT,
            "--secret",
            SECRET,
            "--round",
            "0",
            "--start",
            "630",
        ]),
        2,
    );
    assert!(e.contains("round 0 out of range"), "{e}");
    let e = call(
        verify(&[
            "--commitment",
            COMMITMENT,
            "--secret",
            SECRET,
            "--round",
            "1",
            "--start",
            "960",
        ]),
        2,
    );
    assert!(e.contains("start number 960 out of range"), "{e}");

    let dir = support::temp_dir("event-bad");
    let file = dir.join("event.json");
    let f = file.to_str().expect("path");
    let e = fails_with(
        &[
            "event",
            "new",
            "--rounds",
            "3",
            "--secret",
            "too short",
            "-o",
            f,
        ],
        2,
    );
    assert!(e.contains("at least 16"), "{e}");
    let e = fails_with(&["event", "new", "--rounds", "0", "-o", f], 2);
    assert!(e.contains("0 rounds"), "{e}");
    let long = "x".repeat(71);
    let e = fails_with(
        &["event", "new", "--rounds", "3", "--name", &long, "-o", f],
        2,
    );
    assert!(
        e.contains("the event name has 71 characters: at most 70"),
        "{e}"
    );
    let e = fails_with(
        &[
            "event",
            "new",
            "--rounds",
            "3",
            "--name",
            "Club\u{1}rapid",
            "-o",
            f,
        ],
        2,
    );
    assert!(
        e.contains("the event name has a control or invisible character (U+0001)"),
        "{e}"
    );
    assert!(!file.exists());
    stdout(&[
        "event",
        "new",
        "--rounds",
        "3",
        "--secret",
        TEST_SECRET,
        "-o",
        f,
    ]);
    // Never overwrite a committed secret by accident.
    let e = fails_with(&["event", "new", "--rounds", "3", "-o", f], 1);
    assert!(e.contains("exists") && e.contains("--force"), "{e}");
    let e = fails_with(&["event", "draw", f, "--round", "4"], 2);
    assert!(
        e.contains("round 4 out of range: valid rounds are 1..3"),
        "{e}"
    );
    let e = fails_with(&["event", "draw", f, "--round", "0"], 2);
    assert!(e.contains("round 0 out of range"), "{e}");
    // Damaged files: cut short, a changed secret, a missing file.
    let good = std::fs::read_to_string(&file).expect("event file");
    damaged(&file, &good[..good.len() / 2], "damaged event file");
    damaged(
        &file,
        &good.replace("alone-2026", "alone-2027"),
        "does not match the commitment",
    );
    damaged(
        &file,
        &good.replace("\"rounds\": 3", "\"rounds\": 0"),
        "0 rounds",
    );
    damaged(
        &file,
        &good.replace("chess960\",\n", "chess961\",\n"),
        "unknown variant",
    );
    let missing = dir.join("missing.json");
    let e = fails_with(&["event", "pack", missing.to_str().expect("path")], 1);
    assert!(
        e.contains("cannot read event file") && e.contains("missing.json"),
        "{e}"
    );
    // A name with a line break in it is still one stderr line.
    let broken = dir.join("two\nlines.json");
    let e = fails_with(&["event", "pack", broken.to_str().expect("path")], 1);
    assert!(e.contains("two\\nlines.json"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Write `text` to `file`; every reading command refuses it, naming the
/// file and `what`.
fn damaged(file: &Path, text: &str, what: &str) {
    std::fs::write(file, text).expect("write");
    let f = file.to_str().expect("path");
    for args in [
        vec!["event", "draw", f],
        vec!["event", "pack", f],
        vec!["event", "reveal", f],
    ] {
        let e = fails_with(&args, 1);
        assert!(
            e.contains("event.json: damaged event file") && e.contains(what),
            "{e}"
        );
    }
}

/// Files the event commands write are whole or absent: a failed `event
/// new` leaves nothing behind (the same command can be run again), and a
/// failed pack keeps the pack that was there. A write fails here by a limit
/// on file size (`ulimit -f`), the path a full disk takes.
#[cfg(unix)]
#[test]
fn a_failed_write_leaves_no_half_file() {
    if !support::bash_present() {
        return;
    }
    let dir = support::temp_dir("event-half");
    let file = dir.join("event.json");
    let f = file.to_str().expect("path");
    let limited = |blocks: u32, args: &[&str]| {
        let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
        let script = format!(
            "trap '' XFSZ; ulimit -f {blocks}; exec '{}' {}",
            support::binary(),
            quoted.join(" ")
        );
        std::process::Command::new("bash")
            .args(["-c", &script])
            .output()
            .expect("bash")
    };
    let new = [
        "event",
        "new",
        "--rounds",
        "9",
        "--secret",
        TEST_SECRET,
        "-o",
        f,
    ];
    let out = limited(0, &new);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write"), "{err}");
    assert!(!file.exists(), "a failed event new left a file");
    stdout(&new);
    // A pack of 9 rounds is tens of kilobytes; 8 blocks (8 KiB for bash) stop it.
    let page = dir.join("pack.html");
    let p = page.to_str().expect("path");
    stdout(&["event", "pack", f, "-o", p]);
    let whole = std::fs::read(&page).expect("pack");
    let out = limited(8, &["event", "pack", f, "-o", p]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(std::fs::read(&page).expect("pack"), whole, "the old pack");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left.len(), 2, "temporary files left: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Inputs that went wrong quietly or with another command's words: an
/// output that is a folder, a device for an event file, a round below 1,
/// numbers no `u32` holds.
#[test]
fn odd_paths_and_numbers_are_named() {
    let dir = support::temp_dir("event-odd");
    let d = dir.to_str().expect("path");
    // A folder cannot be written as a file: exit 1, as for every output.
    let err = fails_with(&["event", "new", "--rounds", "3", "-o", d], 1);
    assert!(
        err.contains("is a folder: give the event file a name"),
        "{err}"
    );
    assert!(!err.contains("--force"), "{err}");
    let file = dir.join("event.json");
    let f = file.to_str().expect("path");
    new_event(f, "3", &[]);
    #[cfg(unix)]
    {
        let err = fails_with(&["event", "draw", "/dev/zero"], 1);
        assert!(
            err.contains("not an event file (larger than 1024 KiB)"),
            "{err}"
        );
    }
    let clap_error = |args: &[&str]| {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = clap_error(&["event", "draw", f, "--round", "-1"]);
    assert!(err.contains("rounds are numbered from 1"), "{err}");
    let err = clap_error(&["event", "draw", f, "--round", "99999999999"]);
    assert!(err.contains("an event has at most 999 rounds"), "{err}");
    let err = clap_error(&["event", "new", "--rounds", "4294967296", "-o", f]);
    assert!(err.contains("an event has 1..999 rounds"), "{err}");
    // Within a u32, the event's own range, in one line.
    let err = fails_with(&["event", "draw", f, "--round", "4"], 2);
    assert!(err.contains("1..3"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The docs' example secret is refused by `event new` (its rounds are
/// printed in the docs), and the slips an organiser makes around the event
/// file are named: a descriptor for a file, a byte-order mark an editor
/// added, a page given for the file.
#[test]
fn event_new_refuses_what_would_give_the_rounds_away() {
    let dir = support::temp_dir("event-refusals");
    let file = dir.join("event.json");
    let f = file.to_str().expect("path");
    let e = fails_with(
        &["event", "new", "--rounds", "3", "--secret", SECRET, "-o", f],
        2,
    );
    assert!(e.contains("the documentation's example secret"), "{e}");
    assert!(!file.exists());
    #[cfg(unix)]
    {
        let e = fails_with(&["event", "new", "--rounds", "3", "-o", "/dev/stderr"], 2);
        assert!(
            e.contains("not standard output or another descriptor"),
            "{e}"
        );
    }
    stdout(&[
        "event",
        "new",
        "--rounds",
        "3",
        "--secret",
        TEST_SECRET,
        "-o",
        f,
    ]);
    let text = std::fs::read_to_string(&file).expect("event file");
    let bom = dir.join("bom.json");
    std::fs::write(&bom, format!("\u{feff}{text}")).expect("write");
    let with_bom = stdout(&["event", "draw", bom.to_str().expect("path")]);
    assert_eq!(with_bom, stdout(&["event", "draw", f]));
    let page = dir.join("pack.html");
    stdout(&["event", "pack", f, "-o", page.to_str().expect("path")]);
    let e = fails_with(&["event", "draw", page.to_str().expect("path")], 1);
    assert!(e.contains("not an event file"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A round added for a tiebreak (or an event cut short): every round kept
/// keeps its start, the commitment stays, and the file stays its owner's.
#[test]
fn rounds_are_added_and_removed_and_the_others_keep_their_starts() {
    let dir = support::temp_dir("event-rounds");
    let file = dir.join("event.json");
    let f = file.to_str().expect("path");
    let commitment = new_event(f, "3", &[]);
    let before = stdout(&["event", "draw", f]);
    let out = run(&["event", "rounds", f, "5"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("rounds 4-5 added") && said.contains("rounds 1-3 keep their starts"),
        "{said}"
    );
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(!said.contains("  "), "{said}");
    let after = stdout(&["event", "draw", f]);
    assert_eq!(after.lines().count(), 5, "{after}");
    assert!(after.starts_with(&before), "{before}\n{after}");
    let want: Vec<String> = (1..=5)
        .map(|r| derive(TEST_SECRET, r, Kind::Chess960).number().to_string())
        .collect();
    let drawn: Vec<String> = after
        .lines()
        .map(|l| l.split_whitespace().nth(1).expect("number").to_owned())
        .collect();
    assert_eq!(drawn, want);
    assert_eq!(stdout(&["event", "commitment", f]), commitment);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).expect("file").permissions().mode();
        assert_eq!(mode & 0o077, 0, "{mode:o}");
    }
    let said = String::from_utf8_lossy(&run(&["event", "rounds", f, "5"]).stderr).into_owned();
    assert!(said.contains("has 5 rounds already"), "{said}");
    let out = run(&["event", "rounds", f, "4"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("round 5 removed"),
        "{out:?}"
    );
    assert!(stdout(&["event", "draw", f]).starts_with(&before));
    assert_eq!(stdout(&["event", "draw", f]).lines().count(), 4);
    for bad in ["0", "1000"] {
        let e = fails_with(&["event", "rounds", f, bad], 2);
        assert!(e.contains("an event has 1..999 rounds"), "{bad}: {e}");
    }
    // Read by the argument parser, which adds its usage hint.
    for bad in ["99999999999", "x"] {
        let out = run(&["event", "rounds", f, bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {out:?}");
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(e.contains("1..999"), "{bad}: {e}");
    }
    // Nowhere to keep the change: standard input, a descriptor, a pipe.
    // Before, a descriptor was read, the change written back into it and
    // reported done; a FIFO blocked the command.
    let e = fails_with(&["event", "rounds", "-", "4"], 2);
    assert!(e.contains("must be a regular file"), "{e}");
    #[cfg(unix)]
    {
        let out = std::process::Command::new(support::binary())
            .args(["event", "rounds", "/dev/stdin", "6"])
            .stdin(std::fs::File::open(&file).expect("event file"))
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        if made {
            let fifo = fifo.to_str().expect("path");
            for args in [
                ["event", "rounds", fifo, "6"],
                ["event", "public", fifo, "1 2"],
            ] {
                let e = fails_with(&args, 2);
                assert!(e.contains("must be a regular file"), "{args:?}: {e}");
            }
        }
    }
    assert_eq!(stdout(&["event", "draw", f]).lines().count(), 4);
    // A folder is named as what it is, as every command that reads the
    // file names it.
    let e = fails_with(&["event", "rounds", dir.to_str().expect("path"), "6"], 1);
    assert!(e.contains("cannot read event file"), "{e}");
    // One round: the words agree with it.
    let one = dir.join("one.json");
    let o = one.to_str().expect("path");
    stdout(&[
        "event",
        "new",
        "--rounds",
        "1",
        "--secret",
        TEST_SECRET,
        "-o",
        o,
    ]);
    let said = String::from_utf8_lossy(&run(&["event", "rounds", o, "1"]).stderr).into_owned();
    assert!(said.contains("has 1 round already"), "{said}");
    let said = String::from_utf8_lossy(&run(&["event", "rounds", o, "2"]).stderr).into_owned();
    assert!(
        said.contains("round 2 added; round 1 keeps its start"),
        "{said}"
    );
}

/// Two changes to one event file made at the same moment (the public part
/// recorded while the number of rounds is changed): the second waits for
/// the first and makes its change on top of it, so both are kept. Before,
/// each read the same file and the last to write lost the other's change,
/// though both reported success.
#[test]
fn changes_made_at_the_same_moment_are_both_kept() {
    let dir = support::temp_dir("event-together");
    for attempt in 0..12 {
        let file = dir.join(format!("event{attempt}.json"));
        let f = file.to_str().expect("path");
        new_event(f, "3", &["--public-part"]);
        let start = |args: &[&str]| {
            std::process::Command::new(support::binary())
                .args(args)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("start chess960")
        };
        let both = [
            start(&["event", "public", f, PUBLIC]),
            start(&["event", "rounds", f, "6"]),
        ];
        for child in both {
            let out = child.wait_with_output().expect("wait");
            assert!(out.status.success(), "{out:?}");
        }
        // The public part is recorded (the starts can be drawn) and the
        // event has six rounds.
        let drawn = stdout(&["event", "draw", f]);
        assert_eq!(drawn.lines().count(), 6, "attempt {attempt}: {drawn}");
    }
}

/// An event with a public part: no starts until the part is recorded, the
/// part fixed once recorded, the starts those of secret and part together
/// (the docs' derivation, as Python computes it there), and the check
/// `reveal` prints passes only with the part.
#[test]
fn a_public_part_is_awaited_recorded_once_and_checked() {
    let dir = support::temp_dir("event-public");
    let file = dir.join("event.json");
    let f = file.to_str().expect("path");
    let new = [
        "event",
        "new",
        "--rounds",
        "4",
        "--public-part",
        "--secret",
        TEST_SECRET,
        "-o",
        f,
    ];
    let commitment = stdout(&new);
    for reading in ["draw", "pack", "reveal"] {
        let e = fails_with(&["event", reading, f], 1);
        assert!(
            e.contains("public part is not recorded yet"),
            "{reading}: {e}"
        );
    }
    assert_eq!(
        stdout(&["event", "commitment", f]),
        commitment,
        "the commitment is out before the part"
    );
    let e = fails_with(&["event", "public", f, " 4 2"], 2);
    assert!(e.contains("white space at an end"), "{e}");
    // Longer than a sheet's foot holds twice: refused, nothing recorded.
    let long = vec!["6"; 101].join(" ");
    let e = fails_with(&["event", "public", f, &long], 2);
    assert!(e.contains("201 characters: at most 200"), "{e}");
    let e = fails_with(&["event", "public", f, "4  2"], 2);
    assert!(e.contains("two spaces in a row"), "{e}");
    stdout(&["event", "public", f, PUBLIC]);
    let e = fails_with(&["event", "public", f, "1 1 1"], 1);
    assert!(
        e.contains("already recorded as '4 2 6 6 1 3 5 2 2 4'"),
        "{e}"
    );
    stdout(&["event", "public", f, PUBLIC]);
    let want: Vec<String> = (1..=4)
        .map(|r| {
            chess960::event::derive_with(TEST_SECRET, Some(PUBLIC), r, Kind::Chess960)
                .number()
                .to_string()
        })
        .collect();
    let alone: Vec<String> = (1..=4)
        .map(|r| derive(TEST_SECRET, r, Kind::Chess960).number().to_string())
        .collect();
    assert_ne!(want, alone, "the part changes the starts");
    let drawn: Vec<String> = stdout(&["event", "draw", f])
        .lines()
        .map(|l| l.split_whitespace().nth(1).expect("number").to_owned())
        .collect();
    assert_eq!(drawn, want);
    let reveal = stdout(&["event", "reveal", f]);
    assert!(
        reveal.contains("public part: 4 2 6 6 1 3 5 2 2 4\n"),
        "{reveal}"
    );
    assert!(
        reveal.contains("--public='4 2 6 6 1 3 5 2 2 4'"),
        "{reveal}"
    );
    let verify = |public: Option<&str>| {
        let mut args = vec![
            "event",
            "verify",
            "--commitment",
            commitment.trim(),
            "--secret",
            TEST_SECRET,
        ];
        if let Some(p) = public {
            args.extend(["--public", p]);
        }
        let starts = want.join(",");
        args.extend(["--starts", &starts]);
        run(&args)
    };
    assert_eq!(verify(Some(PUBLIC)).status.code(), Some(0));
    assert_eq!(verify(None).status.code(), Some(1));
    assert_eq!(verify(Some("4 2 6 6 1 3 5 2 2 5")).status.code(), Some(1));
    let page = dir.join("pack.html");
    stdout(&["event", "pack", f, "-o", page.to_str().expect("path")]);
    let html = std::fs::read_to_string(&page).expect("pack");
    assert_eq!(html.matches("public part: 4 2 6 6 1 3 5 2 2 4").count(), 4);
    // An event made without a part takes none afterwards.
    let plain = dir.join("plain.json");
    let p = plain.to_str().expect("path");
    stdout(&["event", "new", "--rounds", "2", "-o", p]);
    let e = fails_with(&["event", "public", p, PUBLIC], 1);
    assert!(e.contains("made without --public-part"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `event pack --round R` prints that round's page alone (printed just
/// before the round, it gives no later round away); a round beyond the
/// event's is refused as `event draw` refuses it.
#[test]
fn a_pack_of_one_round_holds_that_round_alone() {
    let dir = support::temp_dir("event-pack-round");
    let file = dir.join("event.json");
    let f = file.to_str().expect("path");
    stdout(&[
        "event",
        "new",
        "--rounds",
        "5",
        "--secret",
        TEST_SECRET,
        "-o",
        f,
    ]);
    let starts: Vec<u32> = (1..=5)
        .map(|r| derive(TEST_SECRET, r, Kind::Chess960).number())
        .collect();
    let html = stdout(&["event", "pack", f, "--round", "3"]);
    assert_eq!(html.matches("<section class=\"sheet\">").count(), 1);
    assert!(html.contains("<h1>Round 3 of 5</h1>"), "{html}");
    // The command's words as printed (each option kept whole by a span).
    let text = html
        .replace("<span class=\"nb\">", "")
        .replace("</span>", "");
    assert!(text.contains(&format!("--round 3 --start {}", starts[2])));
    for r in [1, 2, 4, 5] {
        assert!(
            !text.contains(&format!("--round {r} ")),
            "round {r} in {html}"
        );
    }
    assert!(html.contains("the start of round 3"));
    // The file on standard input, as a decrypting pipe gives it.
    let piped = std::process::Command::new(support::binary())
        .args(["event", "draw", "-", "--round", "3"])
        .stdin(std::fs::File::open(&file).expect("event file"))
        .output()
        .expect("run");
    assert_eq!(piped.status.code(), Some(0), "{piped:?}");
    assert_eq!(
        String::from_utf8_lossy(&piped.stdout),
        stdout(&["event", "draw", f, "--round", "3"])
    );
    let e = fails_with(&["event", "pack", f, "--round", "6"], 2);
    assert!(
        e.contains("round 6 out of range: valid rounds are 1..5"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
