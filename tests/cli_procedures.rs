//! `chess960 roll` and `chess960 analyze` as a club organiser uses them.

use serde_json::Value;
use support::{run, stdout};

mod support;

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).expect("one JSON object")
}

fn fails(args: &[&str]) -> String {
    fails_with(args, 2)
}

/// Status `code` (2 bad input, 1 a file that cannot be written), nothing
/// on stdout and one stderr line.
fn fails_with(args: &[&str], code: i32) -> String {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?} should fail with status {code}"
    );
    assert!(out.stdout.is_empty(), "{args:?} printed on stdout");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "one stderr line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

const METHODS: [&str; 12] = [
    "bodlaender-die",
    "rovida-die",
    "northam-coins",
    "three-coins",
    "coffin-bag",
    "circle",
    "numbered-cards",
    "playing-cards",
    "platonic-dice",
    "ten-flips",
    "boulina",
    "placement",
];

#[test]
fn replayed_die_rolls_give_the_standard_position_in_every_scheme() {
    let out = stdout(&["roll", "bodlaender-die", "2", "3", "3", "2", "3"]);
    assert!(out.contains("position: RNBQKBNR"), "{out}");
    assert!(out.contains("scharnagl    518"), "{out}");
    assert!(out.contains("scharnagl-1  518"), "{out}");
    assert!(out.contains("fritz        359"), "{out}");
    assert!(
        out.contains("fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "{out}"
    );
    assert!(out.contains("1 | R N B Q K B N R |"), "{out}");
}

#[test]
fn json_complete_and_incomplete() {
    let v = json(&["roll", "ten-flips", "HHTTTTHTTH", "--json"]);
    assert_eq!(v["complete"], true);
    assert_eq!(v["scharnagl"], 777);
    assert_eq!(
        v["fen"],
        "qrkbbnrn/pppppppp/8/8/8/8/PPPPPPPP/QRKBBNRN w KQkq - 0 1"
    );
    assert_eq!(v["numbers"]["scharnagl-1"], 777);
    assert!(v.get("next").is_none());

    let v = json(&["roll", "bodlaender-die", "2", "3", "--json"]);
    assert_eq!(v["complete"], false);
    assert!(v.get("scharnagl").is_none());
    assert!(v["next"]["action"]
        .as_str()
        .unwrap()
        .contains("roll the die"));
    assert!(v["next"]["decides"].as_str().unwrap().starts_with("queen"));
}

#[test]
fn rerolls_and_restarts_are_reported() {
    let out = stdout(&["roll", "bodlaender-die", "6"]);
    assert!(out.contains("ROLL AGAIN"), "{out}");
    assert!(out.contains("next: roll the die"), "{out}");
    let out = stdout(&["roll", "circle", "BRBNKQNR"]);
    assert!(out.contains("START OVER"), "{out}");
    let v = json(&["roll", "ten-flips", "HHHH", "--json"]);
    assert_eq!(v["events"][3]["effect"], "start over");
    assert_eq!(v["complete"], false);
    let out = stdout(&["roll", "ten-flips", "HHH"]);
    assert!(out.contains("fourth head: start over"), "{out}");
}

#[test]
fn placement_by_the_players() {
    let v = json(&[
        "roll",
        "placement",
        "B@c1",
        "N@b1",
        "Q@d1",
        "B@f1",
        "N@g1",
        "--json",
    ]);
    assert_eq!(v["scharnagl"], 518);
    let out = stdout(&["roll", "placement"]);
    assert!(out.contains("placement (simulated)"), "{out}");
    let v = json(&["roll", "placement", "Q@d1", "--json"]);
    assert!(v["next"]["action"].as_str().unwrap().starts_with("White"));
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    // A name that is no procedure is refused with the list (and `analyze`
    // lists `all` too).
    // Usage errors of clap's own: status 2, the value named, the list.
    let clap_refuses = |args: &[&str]| {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let e = clap_refuses(&["roll", "no-such-method"]);
    assert!(
        e.contains("'no-such-method'") && e.contains("bodlaender-die"),
        "{e}"
    );
    assert!(!e.contains(", all"), "{e}");
    let e = clap_refuses(&["analyze", "rovida"]);
    assert!(e.contains("rovida-die") && e.contains(", all"), "{e}");
    // Any case is read.
    assert!(stdout(&["roll", "Ten-Flips", "HHTTTTHTTH"]).contains("QRKBBNRN"));
    // A typo inside a word of outcomes is named by its place.
    // A negative face is an outcome that is not one, on one line (it was
    // clap's multi-line "unexpected argument").
    let e = fails(&["roll", "bodlaender-die", "-1"]);
    assert!(e.contains("'-1'"), "{e}");
    let e = fails(&["roll", "coffin-bag", "RNBQKBNX"]);
    assert!(e.contains("character 8 of the word, 'X'"), "{e}");
    let e = fails(&["roll", "ten-flips", "HHTTXTHTTH"]);
    assert!(e.contains("character 5 of the word, 'X'"), "{e}");
    // The playing-card deal may write its tens as the card does.
    let v = json(&["roll", "playing-cards", "AJ10KQ10JA", "--json"]);
    assert_eq!(v, json(&["roll", "playing-cards", "AJTKQTJA", "--json"]));
    assert!(v["scharnagl"].is_u64(), "{v}");
    // A typo after a ten is placed as typed: the tens are two characters.
    let e = fails(&["roll", "playing-cards", "AJ10KQ10JX"]);
    assert!(e.contains("character 10 of the word, 'X'"), "{e}");
    let e = fails(&["roll", "bodlaender-die", "7"]);
    assert!(e.contains("outcome 1 '7'"), "{e}");
    // So is a face a die does not have, inside a word of faces.
    let e = fails(&["roll", "bodlaender-die", "23723"]);
    assert!(e.contains("character 3 of the word, '7'"), "{e}");
    let e = fails(&["roll", "rovida-die", "2", "2370"]);
    assert!(e.contains("character 3 of the word, '7'"), "{e}");
    fails(&["roll", "bodlaender-die", "1", "1", "1", "1", "1", "1"]);
    fails(&["roll", "placement", "B@c1", "B@e1"]);
    fails(&["roll", "boulina", "5", "5"]);
    fails(&["roll", "coffin-bag", "RRR"]);
    clap_refuses(&["analyze", "no-such-method"]);
    fails(&["analyze", "all", "--plot", "x.svg"]);
}

#[test]
fn simulation_is_reproducible_and_replays() {
    for m in METHODS {
        let a = json(&["roll", m, "--seed", "42", "--json"]);
        let b = json(&["roll", m, "--seed", "42", "--json"]);
        assert_eq!(a, b, "{m}");
        assert_eq!(a["complete"], true, "{m}");
        let outcomes: Vec<String> = a["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap().to_string())
            .collect();
        let mut args = vec!["roll", m];
        args.extend(outcomes.iter().map(String::as_str));
        args.push("--json");
        let replayed = json(&args);
        assert_eq!(replayed["scharnagl"], a["scharnagl"], "{m}");
    }
}

#[test]
fn explain_prints_a_card_for_every_method() {
    for m in METHODS {
        let card = stdout(&["roll", m, "--explain"]);
        assert!(card.lines().count() >= 8, "{m}: {card}");
    }
    let card = stdout(&["roll", "bodlaender-die", "--explain"]);
    assert!(card.contains("6.7 rolls on average"));
    // The terminal says how to type the outcomes, after the card.
    assert!(card.ends_with(
        "\n\nType the faces in the order rolled, re-rolls included, e.g. 2 3 3 2 3 (or 23323).\n"
    ));
}

#[test]
fn analyze_json_fields() {
    let v = json(&["analyze", "three-coins", "--json"]);
    assert_eq!(v["method"], "three-coins");
    assert_eq!(v["uniform"], true);
    assert_eq!(v["min_probability"], "1/960");
    assert_eq!(v["max_probability"], "1/960");
    assert_eq!(v["ratio"], 1.0);
    assert_eq!(v["expected_draws_exact"], "89/15");
    assert!((v["expected_draws"].as_f64().unwrap() - 89.0 / 15.0).abs() < 1e-12);
    let positions = v["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 960);
    assert_eq!(positions[518]["back_rank"], "RNBQKBNR");
    assert_eq!(positions[518]["probability"], "1/960");

    let v = json(&["analyze", "coffin-bag", "--json"]);
    assert_eq!(v["uniform"], false);
    assert_eq!(v["min_probability"], "1/1680");
    assert_eq!(v["max_probability"], "1/840");
    assert_eq!(v["ratio_exact"], "2/1");
    assert_eq!(v["favoured"].as_array().unwrap().len(), 720);
}

#[test]
fn analyze_text_and_plot() {
    let dir = std::env::temp_dir().join(format!("chess960-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("northam.svg");
    let out = stdout(&["analyze", "northam-coins", "--plot", file.to_str().unwrap()]);
    assert!(out.contains("uniform: no"), "{out}");
    assert!(out.contains("max/min ratio: 3/2 = 1.5000"), "{out}");
    assert!(out.contains("expected tosses: 6\n"), "{out}");
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.contains("uniform 1/960"));
    assert!(svg.trim_end().ends_with("</svg>"));
    std::fs::remove_dir_all(&dir).unwrap();
    let e = fails_with(
        &["analyze", "circle", "--plot", "/nonexistent-dir/x.svg"],
        1,
    );
    assert!(e.contains("cannot create '/nonexistent-dir/x.svg'"), "{e}");
}

#[test]
fn analyze_all_table() {
    let out = stdout(&["analyze", "all"]);
    for m in METHODS {
        assert!(out.contains(&format!("| {m} |")), "{m}: {out}");
    }
    assert!(
        out.contains("| bodlaender-die | yes | 67/10 = 6.7000 die rolls | 1 |"),
        "{out}"
    );
    assert!(out.contains("| coffin-bag | no | 8 draws | 2 |"), "{out}");
    assert!(out.contains("| numbered-cards | yes |"), "{out}");
    // The players choose: the table does not call that a non-uniform draw.
    assert!(
        out.contains("| placement | not random (players choose) |"),
        "{out}"
    );
}

/// `--html` writes the card: beside outcomes, `--json` or `--seed` (where
/// clap dropped its requirement of `--explain`) it is refused, not
/// silently left unwritten.
#[test]
fn html_without_explain_is_refused_everywhere() {
    let page = std::env::temp_dir().join(format!("chess960-card-{}.html", std::process::id()));
    let p = page.to_str().expect("utf-8");
    for args in [
        &["roll", "bodlaender-die", "--html", p][..],
        &[
            "roll",
            "bodlaender-die",
            "2",
            "3",
            "3",
            "2",
            "3",
            "--html",
            p,
        ],
        &["roll", "bodlaender-die", "--seed", "1", "--html", p],
        &["roll", "bodlaender-die", "--json", "--html", p],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!page.exists(), "{args:?} wrote the page");
    }
}

/// A die's or a d20's value out of range is named as a value, not as a
/// word with a bad character (`10` may be meant as ten, not a 1 then a 0;
/// a word of three faces or more is rolls typed together, and its bad
/// face is named); procedures that read words name the character.
#[test]
fn an_out_of_range_value_is_not_a_bad_character() {
    for (args, culprit) in [
        (&["roll", "bodlaender-die", "10"][..], "'10'"),
        (&["roll", "platonic-dice", "1", "2", "3", "20.5"], "'20.5'"),
    ] {
        let e = fails(args);
        assert!(e.contains(culprit) && !e.contains("character"), "{e}");
    }
    let e = fails(&["roll", "coffin-bag", "RNBQKBNX"]);
    assert!(e.contains("character 8 of the word, 'X'"), "{e}");
}

/// `analyze METHOD` lists its probability classes in columns: the counts line
/// up under one another however long a fraction is (the placement's run to
/// 7 digits over 10).
#[test]
fn probability_classes_stay_in_columns() {
    for m in METHODS {
        let text = stdout(&["analyze", m]);
        let columns: Vec<usize> = text
            .lines()
            .skip_while(|l| !l.starts_with("positions by probability"))
            .skip(1)
            .map(|l| l.find(" x ").unwrap_or_else(|| panic!("{m}: {l}")))
            .collect();
        assert!(!columns.is_empty(), "{m}: {text}");
        assert!(columns.windows(2).all(|w| w[0] == w[1]), "{m}: {text}");
    }
}
