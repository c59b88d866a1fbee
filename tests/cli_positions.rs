//! The command-line contract of `fen`, `idn`, `show`, `random` and
//! `openings`, driven through the real binary: outputs, exit status (0 ok,
//! 2 bad input), exactly one line on stderr for errors, no panic on a
//! closed pipe.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

use chess960::notation;
use chess960::startpos;

mod support;

const BIN: &str = env!("CARGO_BIN_EXE_chess960");
const TSV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/chess960_startpos.tsv");

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn run(args: &[&str]) -> Run {
    let o = Command::new(BIN).args(args).output().expect("run chess960");
    Run {
        code: o.status.code().expect("exited normally"),
        out: String::from_utf8(o.stdout).expect("utf-8 stdout"),
        err: String::from_utf8(o.stderr).expect("utf-8 stderr"),
    }
}

/// Run and expect success with an empty stderr; return stdout.
fn ok(args: &[&str]) -> String {
    let r = run(args);
    assert_eq!(r.code, 0, "{args:?}: stderr {}", r.err);
    assert_eq!(r.err, "", "{args:?}");
    r.out
}

/// Run and expect status 2, nothing on stdout and one stderr line; return it.
fn bad(args: &[&str]) -> String {
    let r = run(args);
    assert_eq!(r.code, 2, "{args:?}: stdout {} stderr {}", r.out, r.err);
    assert_eq!(r.out, "", "{args:?}");
    assert!(
        r.err.ends_with('\n') && r.err.lines().count() == 1,
        "{args:?}: stderr is not one line: {:?}",
        r.err
    );
    assert!(!r.err.contains("panicked"), "{}", r.err);
    r.err
}

/// Run and expect a usage error as clap reports it: status 2, nothing on
/// stdout, clap's message first, then its usage line and the pointer to
/// `--help`; return stderr.
fn usage(args: &[&str]) -> String {
    let r = run(args);
    assert_eq!(r.code, 2, "{args:?}: stdout {} stderr {}", r.out, r.err);
    assert_eq!(r.out, "", "{args:?}");
    assert!(r.err.starts_with("error: "), "{args:?}: {}", r.err);
    assert!(r.err.contains("try '--help'"), "{args:?}: {}", r.err);
    assert!(!r.err.contains("panicked"), "{}", r.err);
    r.err
}

/// Run and expect a runtime error: status 1, one stderr line; return it.
fn failed(args: &[&str]) -> String {
    let r = run(args);
    assert_eq!(r.code, 1, "{args:?}: stdout {} stderr {}", r.out, r.err);
    assert!(r.err.lines().count() == 1, "{args:?}: {:?}", r.err);
    r.err
}

/// The Shredder-FEN column of the reference table, by Scharnagl number.
fn table_fens() -> Vec<String> {
    let text = std::fs::read_to_string(TSV).expect("table");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("sp\t"))
        .map(|l| l.split('\t').nth(1).expect("fen column").to_owned())
        .collect()
}

fn first_four(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

#[test]
fn fen_prints_one_line() {
    assert_eq!(
        ok(&["fen", "518"]),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
    );
    assert_eq!(
        ok(&["fen", "0", "--shredder"]),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\n"
    );
    assert_eq!(
        ok(&["fen", "--shredder", "959"]),
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1\n"
    );
}

#[test]
fn fen_refuses_bad_numbers_with_the_range() {
    for n in ["960", "-1", "abc", "1e3", "", "99999999999999999999999"] {
        let err = bad(&["fen", n]);
        assert!(err.contains("0..959"), "{n}: {err}");
    }
}

#[test]
fn idn_reads_back_ranks_and_fens() {
    assert_eq!(ok(&["idn", "RNBQKBNR"]), "518\n");
    assert_eq!(ok(&["idn", "bbqnnrkr"]), "0\n");
    assert_eq!(
        ok(&[
            "idn",
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1"
        ]),
        "959\n"
    );
    // Unquoted: the words are joined with spaces.
    let words: Vec<&str> = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        .split(' ')
        .collect();
    let mut args = vec!["idn"];
    args.extend(&words);
    assert_eq!(ok(&args), "518\n");
    // Four fields, X-FEN.
    assert_eq!(
        ok(&[
            "idn",
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR",
            "w",
            "KQkq",
            "-"
        ]),
        "0\n"
    );
}

#[test]
fn idn_round_trips_fen_for_a_sample() {
    for n in [0u32, 1, 17, 95, 96, 300, 518, 700, 958, 959] {
        let fen = ok(&["fen", &n.to_string(), "--shredder"]);
        assert_eq!(ok(&["idn", fen.trim()]), format!("{n}\n"));
    }
}

#[test]
fn idn_refuses_with_the_reason() {
    let cases: [(&[&str], &str); 8] = [
        (&["idn", "RBQBKNNR"], "bishops"),
        (&["idn", "KRBQRBNN"], "between the two rooks"),
        (&["idn", "RNBQKBN"], "8"),
        (&["idn", "RNBQKBNN"], "wrong pieces"),
        (
            &[
                "idn",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
            ],
            "black to move",
        ),
        (
            &[
                "idn",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            ],
            "castling rights missing",
        ),
        (
            &[
                "idn",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
            ],
            "pawns",
        ),
        (
            &[
                "idn",
                "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            ],
            "mirror",
        ),
    ];
    for (args, needle) in cases {
        let err = bad(args);
        assert!(err.starts_with("error: "), "{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn idn_without_position_is_a_usage_error() {
    assert!(usage(&["idn"]).contains("Usage: chess960 idn"));
}

/// Options come in any order, misspelt options are named with clap's
/// suggestion, and `--help` states the exit statuses.
#[test]
fn options_in_any_order_and_clap_errors() {
    assert_eq!(ok(&["idn", "RNBQKBNR", "--scheme", "fritz"]), "359\n");
    assert_eq!(ok(&["idn", "--scheme", "fritz", "RNBQKBNR"]), "359\n");
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut args = vec!["idn"];
    args.extend(fen.split(' '));
    args.extend(["--scheme", "scharnagl-1"]);
    assert_eq!(ok(&args), "518\n");
    assert!(ok(&["show", "359", "--scheme", "fritz"]).contains("Number:       518\n"));
    let dir = std::env::temp_dir().join(format!("chess960-order-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("b.svg");
    ok(&["show", "518", "--svg", svg.to_str().unwrap()]);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    std::fs::remove_dir_all(&dir).unwrap();
    let e = usage(&["fen", "--shreder", "1"]);
    assert!(
        e.contains("'--shreder'") && e.contains("a similar argument exists: '--shredder'"),
        "{e}"
    );
    let help = ok(&["--help"]);
    assert!(
        help.contains("Exit status: 0")
            && help.contains("1 runtime error")
            && help.contains("2 usage error"),
        "{help}"
    );
    assert!(ok(&["--version"]).starts_with(&format!("chess960 {} (", env!("CARGO_PKG_VERSION"))));
}

#[test]
fn show_accepts_number_back_rank_and_fen() {
    let by_number = ok(&["show", "518"]);
    assert!(by_number.contains("1 | R N B Q K B N R |"));
    assert!(by_number.contains("8 | r n b q k b n r |"));
    assert!(by_number.contains("Number:       518\n"));
    assert!(by_number.contains("Back rank:    RNBQKBNR\n"));
    assert!(by_number
        .contains("X-FEN:        rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"));
    assert!(by_number
        .contains("Shredder-FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\n"));
    assert_eq!(ok(&["show", "RNBQKBNR"]), by_number);
    assert_eq!(
        ok(&[
            "show",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            "w",
            "HAha",
            "-"
        ]),
        by_number
    );
    assert!(ok(&["show", "0"]).contains("Back rank:    BBQNNRKR\n"));
}

#[test]
fn show_refuses_bad_input() {
    assert!(bad(&["show", "960"]).contains("0..959"));
    assert!(bad(&["show", "RNBQRBNK"]).contains("between the two rooks"));
}

/// Parse `N FEN` lines and check each FEN is start N.
fn check_random_lines(out: &str, shredder: bool) -> Vec<u32> {
    out.lines()
        .map(|line| {
            let (n, fen) = line.split_once(' ').expect("N FEN");
            let n: u32 = n.parse().expect("number");
            let want = if shredder {
                startpos::shredder_fen(n)
            } else {
                startpos::xfen(n)
            };
            assert_eq!(fen, want.expect("in range"), "{line}");
            n
        })
        .collect()
}

#[test]
fn random_is_reproducible_with_a_seed() {
    let a = ok(&["random", "--count", "20", "--seed", "42"]);
    assert_eq!(a.lines().count(), 20);
    let nums = check_random_lines(&a, false);
    assert_eq!(ok(&["random", "--count", "20", "--seed", "42"]), a);
    // A shorter run with the same seed is a prefix.
    let first = ok(&["random", "--seed", "42"]);
    assert_eq!(first.lines().count(), 1);
    assert!(a.starts_with(&first));
    // Another seed gives another sequence.
    let b = ok(&["random", "--count", "20", "--seed", "43"]);
    assert_ne!(check_random_lines(&b, false), nums);
    let s = ok(&["random", "--count", "5", "--seed", "42", "--shredder"]);
    assert_eq!(check_random_lines(&s, true), nums[..5]);
}

#[test]
fn random_without_seed_works() {
    let out = ok(&["random", "--count", "3"]);
    assert_eq!(check_random_lines(&out, false).len(), 3);
}

#[test]
fn random_refuses_bad_counts() {
    assert!(bad(&["random", "--count", "0"]).contains("--count"));
    assert!(usage(&["random", "--count", "abc"]).contains("'abc'"));
    usage(&["random", "--count", "-3"]);
    usage(&["random", "--seed", "x"]);
}

#[test]
fn openings_all_epd_matches_the_table() {
    let table = table_fens();
    let shredder = ok(&["openings", "--all", "--shredder"]);
    let xfen = ok(&["openings", "--all", "--format", "epd"]);
    assert_eq!(shredder.lines().count(), 960);
    assert_eq!(xfen.lines().count(), 960);
    for (n, ((s, x), fen)) in shredder.lines().zip(xfen.lines()).zip(&table).enumerate() {
        let id = format!(" id \"chess960 #{n}\";");
        assert_eq!(s, format!("{}{id}", first_four(fen)), "Shredder line {n}");
        let pos = notation::parse_fen(fen).expect("table FEN");
        assert_eq!(
            x,
            format!("{}{id}", first_four(&notation::xfen(&pos))),
            "X-FEN line {n}"
        );
    }
}

#[test]
fn openings_count_is_distinct_random_and_reproducible() {
    let out = ok(&["openings", "--count", "960", "--seed", "9"]);
    let ids: Vec<u32> = out
        .lines()
        .map(|l| {
            let n: u32 = l
                .rsplit('#')
                .next()
                .and_then(|t| t.strip_suffix("\";"))
                .expect("id")
                .parse()
                .expect("number");
            assert_eq!(
                l,
                chess960::openings::epd_line(
                    chess960::startpos::Numbered::Chess960(n),
                    Default::default()
                )
                .unwrap()
            );
            n
        })
        .collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..960).collect::<Vec<_>>(), "not a permutation");
    assert_ne!(ids, sorted, "random order expected");
    assert_eq!(ok(&["openings", "--count", "960", "--seed", "9"]), out);
    let few = ok(&["openings", "--count", "5", "--seed", "9"]);
    assert_eq!(
        few.lines().collect::<Vec<_>>(),
        out.lines().take(5).collect::<Vec<_>>()
    );
    // More than 960: every start, then a new permutation.
    let many = ok(&["openings", "--count", "1000", "--seed", "1"]);
    let firsts: std::collections::HashSet<&str> = many.lines().take(960).collect();
    assert_eq!(firsts.len(), 960);
    assert_eq!(many.lines().count(), 1000);
}

/// A draw without `--seed` names the seed it drew, on stderr alone, and
/// that seed makes the same file again; `--all` and a given seed say nothing.
#[test]
fn openings_without_a_seed_name_the_one_drawn() {
    for extra in [&[][..], &["--dfrc"][..], &["--format", "pgn"][..]] {
        let args: Vec<&str> = ["openings", "--count", "7"]
            .iter()
            .chain(extra)
            .copied()
            .collect();
        let r = run(&args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.err);
        assert_eq!(r.err.lines().count(), 1, "{args:?}: {:?}", r.err);
        let seed = r
            .err
            .strip_prefix("seed ")
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("{args:?}: no seed named: {:?}", r.err));
        assert!(r.err.contains(&format!("--seed {seed} ")), "{:?}", r.err);
        let again: Vec<&str> = args.iter().copied().chain(["--seed", seed]).collect();
        assert_eq!(ok(&again), r.out, "{args:?}: seed {seed}");
    }
    let a = run(&["openings", "--count", "7"]).out;
    let b = run(&["openings", "--count", "7"]).out;
    assert_ne!(a, b, "two draws without a seed gave the same starts");
}

#[test]
fn openings_pgn_has_one_game_per_start() {
    let out = ok(&["openings", "--all", "--format", "pgn", "--shredder"]);
    let table = table_fens();
    let games: Vec<&str> = out.split_terminator("\n\n*\n\n").collect();
    assert_eq!(games.len(), 960);
    assert!(out.ends_with("\n\n*\n\n"));
    for (n, game) in games.iter().enumerate() {
        let tags: Vec<&str> = game.lines().collect();
        let names: Vec<&str> = tags
            .iter()
            .map(|t| t.trim_start_matches('[').split(' ').next().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "SetUp",
                "FEN"
            ]
        );
        assert_eq!(tags[3], format!("[Round \"{}\"]", n + 1));
        assert_eq!(tags[6], "[Result \"*\"]");
        assert_eq!(tags[7], "[Variant \"fischerandom\"]");
        assert_eq!(tags[8], "[SetUp \"1\"]");
        assert_eq!(tags[9], format!("[FEN \"{}\"]", table[n]));
    }
}

#[test]
fn openings_writes_a_file() {
    let dir = std::env::temp_dir().join(format!("chess960-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("book.pgn");
    let p = path.to_str().unwrap();
    let out = ok(&[
        "openings", "--count", "3", "--seed", "5", "--format", "pgn", "-o", p,
    ]);
    assert_eq!(out, "");
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("[Variant \"fischerandom\"]").count(), 3);
    assert_eq!(
        text,
        ok(&["openings", "--count", "3", "--seed", "5", "--format", "pgn"])
    );
    // The format from the file's name; a name that contradicts --format is
    // refused (a match runner would read the file by its name).
    let named = dir.join("named.PGN");
    ok(&[
        "openings",
        "--count",
        "3",
        "--seed",
        "5",
        "-o",
        named.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read_to_string(&named).unwrap(), text);
    let wrong = dir.join("wrong.epd");
    let e = bad(&[
        "openings",
        "--all",
        "--format",
        "pgn",
        "-o",
        wrong.to_str().unwrap(),
    ]);
    assert!(
        e.contains("--format pgn and the file name") && e.contains("disagree"),
        "{e}"
    );
    assert!(!wrong.exists());
    // Replaced whole: no temporary file is left beside it.
    ok(&["openings", "--count", "5", "--seed", "6", "-o", p]);
    let five = std::fs::read_to_string(&path).unwrap();
    assert_eq!(five.matches("[Variant \"fischerandom\"]").count(), 5);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    // A link is written through to its book, which keeps its mode; the
    // standard output a shell redirected to a file is written in place.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let book = dir.join("book.epd");
        std::fs::write(&book, "old\n").unwrap();
        std::fs::set_permissions(&book, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.join("link.epd");
        std::os::unix::fs::symlink("book.epd", &link).unwrap();
        let two = ["openings", "--count", "2", "--seed", "5"];
        ok(&[&two[..], &["-o", link.to_str().unwrap()]].concat());
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&book).unwrap(), ok(&two));
        let mode = std::fs::metadata(&book).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        let redirected = dir.join("redirected.epd");
        let out = std::process::Command::new(support::binary())
            .args(two)
            .args(["-o", "/dev/stdout"])
            .stdout(std::fs::File::create(&redirected).unwrap())
            .status()
            .unwrap();
        assert!(out.success());
        assert_eq!(
            std::fs::read_to_string(&redirected).unwrap(),
            std::fs::read_to_string(&book).unwrap()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let missing = dir.join("no/such/dir/book.epd");
    let err = failed(&["openings", "--all", "-o", missing.to_str().unwrap()]);
    assert!(err.contains("cannot create"), "{err}");
    // `-o -` is standard output.
    assert_eq!(
        ok(&["openings", "--count", "3", "--seed", "5", "-o", "-"]),
        ok(&["openings", "--count", "3", "--seed", "5"])
    );
}

#[test]
fn openings_refuses_bad_arguments() {
    let e = usage(&["openings"]);
    assert!(e.contains("--all") && e.contains("--count"), "{e}");
    usage(&["openings", "--all", "--count", "3"]);
    usage(&["openings", "--all", "--seed", "3"]);
    bad(&["openings", "--count", "0"]);
    usage(&["openings", "--all", "--format", "json"]);
}

/// Read a little of the output, close the pipe and check the program ends
/// without a panic or an error message.
fn survives_closed_pipe(args: &[&str]) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(!line.is_empty());
    drop(reader);
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(err, "", "{args:?}");
    assert!(status.success(), "{args:?}: {status}");
}

#[test]
fn closed_pipe_does_not_panic() {
    survives_closed_pipe(&["random", "--count", "1000000", "--seed", "1"]);
    survives_closed_pipe(&["openings", "--count", "1000000", "--seed", "1"]);
    survives_closed_pipe(&["openings", "--all", "--format", "pgn"]);
}

/// Every subcommand that writes to standard output, run with the pipe's
/// reading end already closed (so the first write fails, whatever the
/// timing) and with standard output on a full device: the first ends quietly
/// with status 0, the second with status 1 and one error line, never a panic.
#[test]
fn output_to_a_closed_pipe_or_a_full_device() {
    let commands: [&[&str]; 12] = [
        &["fen", "518"],
        &["show", "518"],
        &["show", "--dfrc", "123456"],
        &["random", "--seed", "1"],
        &["openings", "--all"],
        &["roll", "bodlaender-die", "2", "3", "3", "2", "3"],
        &["roll", "ten-flips", "--seed", "1", "--json"],
        &["roll", "coffin-bag", "--explain"],
        &["analyze", "coffin-bag", "--json"],
        &["analyze", "circle"],
        &["analyze", "all"],
        &["analyze", "all", "--json"],
    ];
    for args in commands {
        support::closed_pipe_and_full_device(args);
    }
}

/// `show --dfrc N --svg` draws the start itself: Black's own back rank on
/// rank 8, not White's mirrored (the pieces read from the drawing, in the
/// order it draws them: rank 8 first, a to h).
#[test]
fn show_dfrc_draws_both_back_ranks() {
    let svg = std::env::temp_dir().join(format!("chess960-dfrc-{}.svg", std::process::id()));
    let svg_arg = svg.to_string_lossy().into_owned();
    let text = ok(&["show", "--dfrc", "123456", "--svg", &svg_arg]);
    let drawing = std::fs::read_to_string(&svg).expect("svg written");
    let _ = std::fs::remove_file(&svg);
    let rank_of = |side: &str| -> String {
        text.lines()
            .find_map(|l| l.strip_prefix(side))
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or_else(|| panic!("{side} in {text}"))
            .to_string()
    };
    let (white, black) = (rank_of("White:"), rank_of("Black:"));
    assert_ne!(white, black, "a start with two different ranks");
    let mut pieces: Vec<(bool, char)> = Vec::new();
    for line in drawing.lines().filter(|l| l.contains(r#"font-size="48""#)) {
        let glyph = line
            .trim_end_matches("</text>")
            .chars()
            .last()
            .expect("a glyph");
        let letter = match glyph {
            '\u{265A}' => 'K',
            '\u{265B}' => 'Q',
            '\u{265C}' => 'R',
            '\u{265D}' => 'B',
            '\u{265E}' => 'N',
            '\u{265F}' => 'P',
            other => panic!("unknown glyph {other:?} in {line}"),
        };
        pieces.push((line.contains(r#"fill="white""#), letter));
    }
    assert_eq!(pieces.len(), 32, "{drawing}");
    let rank = |range: std::ops::Range<usize>, white_side: bool| -> String {
        pieces[range]
            .iter()
            .map(|&(w, c)| {
                assert_eq!(w, white_side, "colour on a back rank");
                c
            })
            .collect()
    };
    assert_eq!(rank(0..8, false), black, "rank 8");
    assert_eq!(rank(24..32, true), white, "rank 1");
    assert!(drawing.contains("DFRC 123456"), "caption names the start");
    // SVG text does not wrap: the caption is one line of text a side, each
    // short enough for the board's width (a single line was cut at both ends).
    let caption: Vec<&str> = drawing
        .lines()
        .filter(|l| l.contains(r#"font-size="16""#))
        .collect();
    assert_eq!(caption.len(), 3, "{drawing}");
    assert!(
        caption[1].contains(&format!(">White {white} (Chess960 ")),
        "{caption:?}"
    );
    assert!(
        caption[2].contains(&format!(">Black {black} (Chess960 ")),
        "{caption:?}"
    );
    for line in caption {
        let text = line.split('>').nth(1).unwrap_or_default();
        assert!(text.chars().count() <= 40, "{line}");
    }
}

/// `--svg -` and `--html -` write the page to stdout in place of the
/// description (as `event pack -o -` does), not a file named "-"; both at
/// once is refused. `roll --explain --html -` and `analyze --plot -` alike.
#[test]
fn a_page_to_stdout_with_a_dash() {
    let dir = std::env::temp_dir().join(format!("chess960-dash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let in_dir = |args: &[&str]| -> String {
        let o = Command::new(BIN)
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("run");
        assert!(o.status.success(), "{args:?}");
        String::from_utf8(o.stdout).expect("utf-8")
    };
    let svg = in_dir(&["show", "518", "--svg", "-"]);
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{svg}"
    );
    let page = in_dir(&["show", "--dfrc", "479670", "--html", "-"]);
    assert!(
        page.starts_with("<!DOCTYPE html>") && page.contains("479670"),
        "{page}"
    );
    let card = in_dir(&["roll", "bodlaender-die", "--explain", "--html", "-"]);
    assert!(card.starts_with("<!DOCTYPE html>"), "{card}");
    let chart = in_dir(&["analyze", "bodlaender-die", "--plot", "-"]);
    assert!(chart.starts_with("<svg"), "{chart}");
    assert!(!dir.join("-").exists(), "a file named '-' was written");
    let _ = std::fs::remove_dir_all(&dir);
    let e = bad(&["show", "518", "--svg", "-", "--html", "-"]);
    assert!(
        e.contains("--svg '-' and --html '-' both ask for stdout"),
        "{e}"
    );
    // One file by two names: the page would replace the picture.
    let twice = std::env::temp_dir().join(format!("chess960-twice-{}.svg", std::process::id()));
    let t = twice.to_str().unwrap();
    let e = bad(&["show", "518", "--svg", t, "--html", t]);
    assert!(e.contains("--svg and --html name the same file"), "{e}");
    let dotted = twice
        .parent()
        .unwrap()
        .join(".")
        .join(twice.file_name().unwrap());
    let e = bad(&[
        "show",
        "518",
        "--svg",
        dotted.to_str().unwrap(),
        "--html",
        t,
    ]);
    assert!(e.contains("--svg and --html name the same file"), "{e}");
    assert!(!twice.exists());
    let e = bad(&["analyze", "bodlaender-die", "--plot", "-", "--json"]);
    assert!(
        e.contains("--plot '-' and --json both ask for stdout"),
        "{e}"
    );
}

#[test]
fn numbering_schemes_on_fen_idn_and_show() {
    // Fritz 9 numbers the classical position 359 (the Chess960 starting-position survey); scharnagl-1 writes 0 as 960.
    assert_eq!(
        ok(&["fen", "--scheme", "fritz", "359"]).trim(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(
        ok(&["fen", "--scheme", "scharnagl-1", "960"]).trim(),
        ok(&["fen", "0"]).trim()
    );
    assert_eq!(ok(&["idn", "--scheme", "fritz", "RNBQKBNR"]).trim(), "359");
    assert!(bad(&["fen", "--scheme", "fritz", "0"]).contains("1..960"));
    // An unknown scheme is refused by the parser, with the names it takes
    // (also where the position is not a number); any case is read.
    let e = usage(&["idn", "--scheme", "nope", "RNBQKBNR"]);
    assert!(e.contains("'nope'") && e.contains("scharnagl-1"), "{e}");
    assert!(usage(&["show", "RNBQKBNR", "--scheme", "bogus"]).contains("bogus"));
    assert_eq!(ok(&["idn", "--scheme", "Fritz", "RNBQKBNR"]).trim(), "359");
    // Numbers in the other schemes are read as Scharnagl numbers are:
    // digits only, a number too large for any integer named as typed.
    assert!(bad(&["fen", "+359", "--scheme", "fritz"]).contains("'+359'"));
    assert!(bad(&["fen", "-5", "--scheme", "fritz"]).contains("'-5'"));
    let huge = bad(&["fen", "99999999999999999999", "--scheme", "scharnagl-1"]);
    assert!(
        huge.contains("99999999999999999999 out of range") && huge.contains("1..960"),
        "{huge}"
    );
    assert!(ok(&["show", "518"]).contains("scharnagl 518, scharnagl-1 518, fritz 359"));
    let svg = std::env::temp_dir().join(format!("chess960-show-{}.svg", std::process::id()));
    let svg_arg = svg.to_string_lossy().into_owned();
    ok(&["show", "--svg", &svg_arg, "518"]);
    let text = std::fs::read_to_string(&svg).expect("svg written");
    assert!(text.starts_with("<svg"));
    let _ = std::fs::remove_file(&svg);
}

/// Double Fischer Random through the binary: `fen --dfrc N` is White's
/// Chess960 start `N % 960` under Black's `N / 960` (from the independent
/// table), `idn --dfrc` reads it back from the FEN or the two ranks,
/// `show --dfrc` names both, `random --dfrc` and `openings --dfrc` print
/// starts that read back to their numbers, and bad input names the culprit.
#[test]
fn dfrc_numbering_both_ways() {
    let fens = table_fens();
    let rank = |n: u32, upper: bool| -> String {
        let r = fens[n as usize]
            .split(' ')
            .next()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap();
        if upper {
            r.to_owned()
        } else {
            r.to_ascii_lowercase()
        }
    };
    for n in [0u32, 518, 959, 960, 497_798, 123_456, 921_599] {
        let fen = ok(&["fen", "--dfrc", &n.to_string(), "--shredder"]);
        let want_board = format!(
            "{}/pppppppp/8/8/8/8/PPPPPPPP/{}",
            rank(n / 960, false),
            rank(n % 960, true)
        );
        assert!(fen.starts_with(&format!("{want_board} w ")), "{n}: {fen}");
        let words: Vec<&str> = fen.split_whitespace().collect();
        assert_eq!(ok(&["idn", "--dfrc", fen.trim()]).trim(), n.to_string());
        let mut args = vec!["idn", "--dfrc"];
        args.extend(&words);
        assert_eq!(ok(&args).trim(), n.to_string(), "unquoted FEN");
        let (w, b) = (rank(n % 960, true), rank(n / 960, false));
        assert_eq!(ok(&["idn", "--dfrc", &w, &b]).trim(), n.to_string());
        let xfen = ok(&["fen", "--dfrc", &n.to_string()]);
        assert_eq!(
            ok(&["idn", "--dfrc", xfen.trim()]).trim(),
            n.to_string(),
            "{xfen}"
        );
        let show = ok(&["show", "--dfrc", &n.to_string()]);
        assert!(
            show.contains(&format!("White:        {w} (Chess960 #{})", n % 960)),
            "{show}"
        );
        assert!(
            show.contains(&format!("Shredder-FEN: {}", fen.trim())),
            "{show}"
        );
    }
    assert_eq!(ok(&["idn", "--dfrc", "RNBQKBNR"]).trim(), "497798");
    // Black's rank first, by its case: refused, not read as White's (which
    // named 497280 where 518 was meant).
    let e = bad(&["idn", "--dfrc", "bbqnnrkr", "RNBQKBNR"]);
    assert!(e.contains("gives Black's rank (lower case) first"), "{e}");
    assert_eq!(ok(&["idn", "--dfrc", "RNBQKBNR", "bbqnnrkr"]).trim(), "518");
    for line in ok(&["random", "--dfrc", "--count", "20", "--seed", "3"]).lines() {
        let (n, fen) = line.split_once(' ').expect("N FEN");
        assert_eq!(ok(&["idn", "--dfrc", fen]).trim(), n, "{line}");
    }
    let epd = ok(&[
        "openings",
        "--dfrc",
        "--count",
        "30",
        "--seed",
        "9",
        "--shredder",
    ]);
    assert_eq!(epd.lines().count(), 30);
    for line in epd.lines() {
        let (fen, id) = line.split_once(" id \"dfrc #").expect("dfrc id");
        let n = id.trim_end_matches("\";");
        assert_eq!(
            ok(&["idn", "--dfrc", &format!("{fen} 0 1")]).trim(),
            n,
            "{line}"
        );
    }
    assert!(bad(&["fen", "--dfrc", "921600"]).contains("921600"));
    assert!(bad(&["fen", "--dfrc", "99999999999999999999999"]).contains("99999999999999999999999"));
    assert!(bad(&["idn", "--dfrc", "RNBQKBNR", "rbnbkqnr"]).contains("black's back rank"));
    assert!(bad(&["show", "--dfrc", "x"]).contains("'x'"));
    assert!(bad(&["fen", "9999999999999999999999"]).contains("9999999999999999999999"));
}

/// Run with standard output appended to `file` (as `>> file` does).
fn appending_to(file: &std::path::Path, args: &[&str]) -> std::process::Output {
    let out = std::fs::OpenOptions::new()
        .append(true)
        .open(file)
        .expect("open for appending");
    Command::new(BIN)
        .args(args)
        .stdout(out)
        .output()
        .expect("run chess960")
}

/// A file argument that names standard output (`/dev/stdout`, the file it
/// is redirected to) is written through it, as `-` is: a `>>` log keeps
/// what it held, and what `show` prints next no longer overwrites the
/// picture's first bytes. Before, the path was opened again and emptied.
#[cfg(target_os = "linux")]
#[test]
fn a_file_that_is_standard_output_is_written_through_it() {
    let dir = support::temp_dir("stdout-by-name");
    let log = dir.join("log.txt");
    let plain = ok(&["openings", "--count", "2", "--seed", "1", "-o", "-"]);
    for name in [
        "/dev/stdout",
        "/proc/self/fd/1",
        log.to_str().expect("utf-8"),
    ] {
        std::fs::write(&log, "line1\nline2\n").expect("write");
        let out = appending_to(
            &log,
            &["openings", "--count", "2", "--seed", "1", "-o", name],
        );
        assert_eq!(out.status.code(), Some(0), "{name}: {out:?}");
        let text = std::fs::read_to_string(&log).expect("read");
        assert_eq!(text, format!("line1\nline2\n{plain}"), "{name}");
    }
    // `show --svg /dev/stdout` after a header: the header, then the picture
    // alone (it takes the description's place, as with `-`).
    std::fs::write(&log, "# header\n").expect("write");
    let out = appending_to(&log, &["show", "518", "--svg", "/dev/stdout"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let picture = ok(&["show", "518", "--svg", "-"]);
    let text = std::fs::read_to_string(&log).expect("read");
    assert_eq!(text, format!("# header\n{picture}"));
    // Both pages on standard output, by two names, are refused.
    let out = appending_to(
        &log,
        &["show", "518", "--svg", "-", "--html", "/dev/stdout"],
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("both ask for stdout"), "{err}");
    // A closed pipe ends quietly, as with `-`.
    support::closed_pipe_and_full_device(&[
        "openings",
        "--count",
        "3000",
        "--seed",
        "1",
        "-o",
        "/dev/stdout",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A write error on standard output names it (a file's names the file).
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_named() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("open /dev/full");
    let out = Command::new(BIN)
        .args(["random", "--count", "5"])
        .stdout(full)
        .output()
        .expect("run chess960");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: cannot write standard output: "),
        "{err}"
    );
    // clap's own answers too (a packager's smoke test reads the status),
    // and `manpage --dir` writes every page before it lists them.
    let pages = std::env::temp_dir().join(format!("chess960-full-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&pages);
    let dir = pages.to_str().expect("utf-8 path");
    for args in [
        &["--help"][..],
        &["--version"],
        &["perft", "--help"],
        &["manpage", "--dir", dir],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("open /dev/full");
        let out = Command::new(BIN)
            .args(args)
            .stdout(full)
            .output()
            .expect("run chess960");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: cannot write standard output: "),
            "{args:?}: {err}"
        );
    }
    let written = std::fs::read_dir(&pages).map_or(0, Iterator::count);
    let listed = Command::new(BIN)
        .args(["manpage", "--dir", dir])
        .output()
        .expect("run chess960");
    assert_eq!(
        written,
        String::from_utf8_lossy(&listed.stdout).lines().count(),
        "pages written with stdout full"
    );
    let _ = std::fs::remove_dir_all(&pages);
}

/// `show` reads its numbers as `fen` does: a negative or malformed number
/// is named as a number out of range, on one line, not as a FEN (`-1` was
/// clap's multi-line "unexpected argument").
#[test]
fn show_names_a_bad_number_as_a_number() {
    for n in ["-1", "1e3", "+5"] {
        let e = bad(&["show", n]);
        assert!(
            e.contains(&format!("'{n}' is not a start number")),
            "{n}: {e}"
        );
    }
    let e = bad(&["show", "--dfrc", "-5"]);
    assert!(e.contains("'-5' is not a DFRC number"), "{e}");
    // And perft's --idn and --dfrc.
    let e = bad(&["perft", "3", "--idn", "-1"]);
    assert!(e.contains("'-1' is not a start number"), "{e}");
    let e = bad(&["perft", "3", "--dfrc", "-5"]);
    assert!(e.contains("'-5' is not a DFRC number"), "{e}");
}

/// A Double Fischer Random FEN given where one Chess960 start is read is
/// named as such, with the option that reads it.
#[test]
fn a_dfrc_fen_without_dfrc_names_the_option() {
    let fen = ok(&["fen", "--dfrc", "1000"]);
    for command in ["idn", "show"] {
        let e = bad(&[command, fen.trim()]);
        assert!(
            e.contains("does not mirror") && e.ends_with("add --dfrc)\n"),
            "{command}: {e}"
        );
    }
}

/// `--format` takes any case, as `--scheme` does, and a file named `.pgn`
/// is a PGN file (the standard library sees no extension in it).
#[test]
fn openings_format_in_any_case_and_a_bare_extension() {
    let upper = ok(&["openings", "--count", "2", "--seed", "1", "--format", "PGN"]);
    let lower = ok(&["openings", "--count", "2", "--seed", "1", "--format", "pgn"]);
    assert_eq!(upper, lower);
    let dir = support::temp_dir("bare-extension");
    let out = Command::new(BIN)
        .current_dir(&dir)
        .args(["openings", "--count", "2", "--seed", "1", "-o", ".pgn"])
        .output()
        .expect("run chess960");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join(".pgn")).expect("written"),
        lower
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Interrupted while it writes a file (Ctrl-C on a too large `--count`),
/// the program removes its temporary file and ends by the signal, as it
/// would have: nothing hidden is left beside the file asked for, which is
/// not made. Before, a stopped run left its temporary file (25 MB here).
#[cfg(unix)]
#[test]
fn an_interrupted_write_leaves_no_temporary_file() {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let dir = support::temp_dir("interrupted");
    for signal in ["INT", "TERM"] {
        let mut command = Command::new(BIN);
        command
            .current_dir(&dir)
            .args([
                "openings",
                "--dfrc",
                "--count",
                "100000000",
                "--seed",
                "1",
                "-o",
                "x.epd",
            ])
            .stderr(Stdio::null());
        // A test run started in the background of a script has SIGINT
        // ignored, and the program rightly keeps it so: the child gets the
        // default disposition that a terminal's Ctrl-C meets.
        // SAFETY: between fork and exec only signal(), which is
        // async-signal-safe, is called.
        unsafe {
            command.pre_exec(|| {
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                libc::signal(libc::SIGTERM, libc::SIG_DFL);
                Ok(())
            });
        }
        let mut child = command.spawn().expect("run chess960");
        // Until the temporary file is there and growing.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let started = loop {
            let size: u64 = std::fs::read_dir(&dir)
                .expect("list")
                .filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| m.len())
                .sum();
            if size > 100_000 || std::time::Instant::now() > deadline {
                break size > 100_000;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert!(started, "no temporary file was written");
        let killed = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(killed.success());
        // Ended by the signal within seconds, not after its 100 million
        // lines.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let status = loop {
            if let Some(status) = child.try_wait().expect("poll") {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                let _ = std::fs::remove_dir_all(&dir);
                panic!("{signal}: the run went on after the signal");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let number = if signal == "INT" { 2 } else { 15 };
        assert_eq!(status.signal(), Some(number), "{signal}: {status:?}");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .expect("list")
            .filter_map(|e| Some(e.ok()?.file_name()))
            .collect();
        assert!(left.is_empty(), "{signal}: left behind: {left:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Files under `/dev` and `/proc` that are not descriptors (a tmpfs in
/// `/dev/shm`) are files like any other: made when missing, replaced when
/// there. They were opened to be added to, and a new one could not be made.
#[cfg(target_os = "linux")]
#[test]
fn a_file_in_dev_shm_is_an_ordinary_file() {
    let shm = std::path::Path::new("/dev/shm");
    if !shm.is_dir() {
        return;
    }
    let dir = shm.join(format!("chess960-shm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("make a folder in /dev/shm");
    let book = dir.join("b.epd");
    let b = book.to_str().expect("utf-8");
    let plain = ok(&["openings", "--count", "2", "--seed", "1"]);
    for _ in 0..2 {
        ok(&["openings", "--count", "2", "--seed", "1", "-o", b]);
        assert_eq!(std::fs::read_to_string(&book).expect("made"), plain);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A signal the program was started to ignore (`nohup`, `trap ''`) stays
/// ignored while it writes a file: the run goes on to its end. Watching
/// for interrupts to remove its temporary file had made a hang-up end it.
#[cfg(unix)]
#[test]
fn an_ignored_hangup_stays_ignored_while_a_file_is_written() {
    if !support::bash_present() {
        return;
    }
    let dir = support::temp_dir("nohup");
    let script =
        format!("trap '' HUP; exec {BIN} openings --dfrc --count 1000000 --seed 1 -o x.epd");
    let mut child = Command::new("bash")
        .current_dir(&dir)
        .args(["-c", &script])
        .stderr(Stdio::null())
        .spawn()
        .expect("run bash");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_dir(&dir).expect("list").count() == 0
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(50));
    // Still writing when the hang-up comes, so that the test can fail.
    assert!(
        child.try_wait().expect("poll").is_none(),
        "the run ended before the hang-up was sent"
    );
    let sent = Command::new("kill")
        .args(["-HUP", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(sent.success());
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(0), "{status:?}");
    let text = std::fs::read_to_string(dir.join("x.epd")).expect("written");
    assert_eq!(text.lines().count(), 1_000_000);
    let _ = std::fs::remove_dir_all(&dir);
}
