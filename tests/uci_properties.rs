//! Property tests of everything that reads GUI input.
//!
//! * The pure parser (`uci::command::parse_line`) is total on any string or
//!   byte sequence, reads every valid command exactly, and refuses a valid
//!   command whose field was corrupted instead of misreading it.
//! * A `uci::Session` driven in-process never changes its game or options
//!   on a refused command and never writes a line that is not a UCI
//!   message or one of our documented extensions.
//!
//! proptest shrinks a failure to a minimal line, which is what makes a
//! parser bug readable; the seeds of failures are kept by proptest in
//! `proptest-regressions/`.

mod support;

use std::io::Write;
use std::sync::{Arc, Mutex};

use chess960::uci::command::{parse_line, Command, GoCommand, PositionCommand, StartSpec};
use chess960::uci::output::Output;
use chess960::uci::{Flow, Session};
use proptest::prelude::*;
use shakmaty::EnPassantMode;

use support::check_protocol_line;

// ---------------------------------------------------------------- parser

fn square() -> impl Strategy<Value = String> {
    ("[a-h]", "[1-8]").prop_map(|(f, r)| format!("{f}{r}"))
}

/// Any syntactically valid UCI move (legal or not).
fn uci_move() -> impl Strategy<Value = String> {
    (square(), square(), prop::option::of("[qrbn]"))
        .prop_map(|(a, b, p)| format!("{a}{b}{}", p.unwrap_or_default()))
}

/// A token that is neither a number nor a UCI move.
fn garbage_word() -> impl Strategy<Value = String> {
    "[a-zA-Z_!?.]{1,10}"
}

const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf -",
    "8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q -",
    "rrk5/8/8/8/8/8/8/RRK5 w Bb - 0 1",
    "4k3/8/8/8/8/8/8/RK6 w A - 5",
];

fn go_command() -> impl Strategy<Value = GoCommand> {
    let times = (
        prop::option::of(any::<i64>()),
        prop::option::of(any::<i64>()),
        prop::option::of(any::<i64>()),
        prop::option::of(any::<i64>()),
        prop::option::of(any::<i64>()),
    );
    let counts = (
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u32>()),
        prop::option::of(any::<u64>()),
    );
    let rest = (
        prop::collection::vec(uci_move(), 0..4),
        any::<bool>(),
        any::<bool>(),
    );
    (times, counts, rest).prop_map(
        |(
            (wtime, btime, winc, binc, movetime),
            (movestogo, depth, mate, perft, nodes),
            (searchmoves, ponder, infinite),
        )| GoCommand {
            searchmoves,
            ponder,
            wtime,
            btime,
            winc,
            binc,
            movestogo,
            depth,
            nodes,
            mate,
            movetime,
            infinite,
            perft,
            ignored: Vec::new(),
            unread_keys: Vec::new(),
        },
    )
}

/// The `go` line's segments (`key [value]`), in a canonical order.
fn go_segments(g: &GoCommand) -> Vec<Vec<String>> {
    let mut v: Vec<Vec<String>> = Vec::new();
    let mut num = |k: &str, x: Option<String>| {
        if let Some(x) = x {
            v.push(vec![k.to_owned(), x]);
        }
    };
    num("wtime", g.wtime.map(|x| x.to_string()));
    num("btime", g.btime.map(|x| x.to_string()));
    num("winc", g.winc.map(|x| x.to_string()));
    num("binc", g.binc.map(|x| x.to_string()));
    num("movetime", g.movetime.map(|x| x.to_string()));
    num("movestogo", g.movestogo.map(|x| x.to_string()));
    num("depth", g.depth.map(|x| x.to_string()));
    num("mate", g.mate.map(|x| x.to_string()));
    num("perft", g.perft.map(|x| x.to_string()));
    num("nodes", g.nodes.map(|x| x.to_string()));
    if !g.searchmoves.is_empty() {
        let mut s = vec!["searchmoves".to_owned()];
        s.extend(g.searchmoves.iter().cloned());
        v.push(s);
    }
    if g.ponder {
        v.push(vec!["ponder".into()]);
    }
    if g.infinite {
        v.push(vec!["infinite".into()]);
    }
    v
}

fn join(segments: &[Vec<String>]) -> String {
    let mut words = vec!["go".to_owned()];
    for s in segments {
        words.extend(s.iter().cloned());
    }
    words.join(" ")
}

/// The `go` keywords whose value is a time in milliseconds.
const TIME_KEYS: &[&str] = &["wtime", "btime", "winc", "binc", "movetime"];

/// The `go` keywords.
const GO_KEYS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movetime",
    "movestogo",
    "depth",
    "mate",
    "perft",
    "nodes",
    "searchmoves",
    "ponder",
    "infinite",
];

/// The `go` command a line reads as (a `go` line is never refused).
fn go_of(line: &str) -> GoCommand {
    match parse_line(line).map(|p| p.command) {
        Ok(Some(Command::Go(g))) => g,
        other => panic!("'{line}' read as {other:?}"),
    }
}

/// `g` without the limit `key`.
fn without(g: &GoCommand, key: &str) -> GoCommand {
    let mut g = g.clone();
    match key {
        "wtime" => g.wtime = None,
        "btime" => g.btime = None,
        "winc" => g.winc = None,
        "binc" => g.binc = None,
        "movetime" => g.movetime = None,
        "movestogo" => g.movestogo = None,
        "depth" => g.depth = None,
        "mate" => g.mate = None,
        "perft" => g.perft = None,
        "nodes" => g.nodes = None,
        "searchmoves" => g.searchmoves.clear(),
        "ponder" => g.ponder = false,
        "infinite" => g.infinite = false,
        other => panic!("not a go key: {other}"),
    }
    g
}

fn position_command() -> impl Strategy<Value = PositionCommand> {
    let start = prop_oneof![
        Just(StartSpec::StartPos),
        (0u32..960).prop_map(StartSpec::Start960),
        Just(StartSpec::Start960Random),
        (0u32..921_600).prop_map(StartSpec::Dfrc),
        Just(StartSpec::DfrcRandom),
        prop::sample::select(FENS).prop_map(|f| StartSpec::Fen(f.to_owned())),
    ];
    (start, prop::collection::vec(uci_move(), 0..12))
        .prop_map(|(start, moves)| PositionCommand { start, moves })
}

fn position_words(p: &PositionCommand, say_moves: bool) -> Vec<String> {
    let mut w = vec!["position".to_owned()];
    match &p.start {
        StartSpec::StartPos => w.push("startpos".into()),
        StartSpec::Start960(n) => w.extend(["startpos960".into(), n.to_string()]),
        StartSpec::Start960Random => w.extend(["startpos960".into(), "random".into()]),
        StartSpec::Dfrc(n) => w.extend(["dfrc".into(), n.to_string()]),
        StartSpec::DfrcRandom => w.extend(["dfrc".into(), "random".into()]),
        StartSpec::Fen(f) => {
            w.push("fen".into());
            w.extend(f.split(' ').map(str::to_owned));
        }
    }
    if say_moves || !p.moves.is_empty() {
        w.push("moves".into());
        w.extend(p.moves.iter().cloned());
    }
    w
}

/// Whitespace GUIs or files may put between tokens.
fn separator() -> impl Strategy<Value = &'static str> {
    prop::sample::select(&[" ", "  ", "\t", " \t "][..])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn parse_line_is_total_on_strings(line in any::<String>()) {
        let _ = parse_line(&line);
    }

    #[test]
    fn parse_line_is_total_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = parse_line(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn parse_line_is_total_on_command_like_text(
        word in prop::sample::select(&["go", "position", "setoption", "debug", "uci", "isready", "position fen", "position startpos960", "go searchmoves", "setoption name"][..]),
        rest in "[ -~\t]{0,80}",
    ) {
        let _ = parse_line(&format!("{word} {rest}"));
    }

    #[test]
    fn valid_go_round_trips(g in go_command(), seed in any::<u64>(), sep in separator()) {
        // Any order of the segments reads the same.
        let mut segs = go_segments(&g);
        let n = segs.len();
        if n > 1 {
            segs.rotate_left((seed as usize) % n);
        }
        let mut words = vec!["go".to_owned()];
        for s in &segs { words.extend(s.iter().cloned()); }
        let line = words.join(sep);
        let parsed = parse_line(&line).map_err(|e| TestCaseError::fail(format!("{line}: {e}")))?;
        prop_assert_eq!(parsed.command, Some(Command::Go(g)), "{}", line);
    }

    #[test]
    fn valid_position_round_trips(p in position_command(), say_moves in any::<bool>(), sep in separator()) {
        let line = position_words(&p, say_moves).join(sep);
        let parsed = parse_line(&line).map_err(|e| TestCaseError::fail(format!("{line}: {e}")))?;
        prop_assert_eq!(parsed.command, Some(Command::Position(p)), "{}", line);
    }

    #[test]
    fn valid_setoption_round_trips(
        name in prop::collection::vec("[A-Za-z_0-9]{1,8}", 1..4),
        value in prop::option::of(prop::collection::vec("[ -~&&[^ ]]{1,8}", 0..4)),
    ) {
        prop_assume!(!name.iter().any(|w| w == "value"));
        let mut line = format!("setoption name {}", name.join(" "));
        if let Some(v) = &value {
            line.push_str(" value");
            for w in v { line.push(' '); line.push_str(w); }
        }
        let parsed = parse_line(&line).map_err(|e| TestCaseError::fail(format!("{line}: {e}")))?;
        let want = Command::SetOption {
            name: name.join(" "),
            value: value.map(|v| v.join(" ")),
        };
        prop_assert_eq!(parsed.command, Some(want), "{}", line);
    }

    #[test]
    fn go_with_a_corrupted_number_is_ignored_and_the_rest_kept(
        g in go_command(),
        pick in any::<prop::sample::Index>(),
        bad in prop_oneof![
            garbage_word(),
            Just("1e5".to_owned()),
            Just("5.0".to_owned()),
            Just("0x10".to_owned()),
            Just("".to_owned()),
        ],
    ) {
        prop_assume!(!GO_KEYS.contains(&bad.as_str()));
        let mut segs = go_segments(&g);
        let numeric: Vec<usize> = (0..segs.len()).filter(|&i| segs[i].len() == 2 && segs[i][0] != "searchmoves").collect();
        prop_assume!(!numeric.is_empty());
        let i = numeric[pick.index(numeric.len())];
        let key = segs[i][0].clone();
        // A time with a fraction is read (see the property below); a count
        // is not. A whole number beyond its type is read (the property after).
        prop_assume!(!(bad == "5.0" && TIME_KEYS.contains(&key.as_str())));
        let named = if bad.is_empty() {
            // A missing value: drop it and put the key last.
            segs.remove(i);
            segs.push(vec![key.clone()]);
            format!("{key} (no value)")
        } else {
            segs[i][1] = bad.clone();
            format!("{key} {bad}")
        };
        let line = join(&segs);
        let got = go_of(&line);
        let mut want = without(&g, &key);
        want.ignored = vec![named];
        want.unread_keys = GO_KEYS.iter().copied().filter(|k| *k == key).collect();
        prop_assert_eq!(got, want, "{}", line);
    }

    #[test]
    fn go_with_a_number_beyond_its_type_reads_its_largest(
        g in go_command(),
        pick in any::<prop::sample::Index>(),
    ) {
        let mut segs = go_segments(&g);
        let numeric: Vec<usize> = (0..segs.len()).filter(|&i| segs[i].len() == 2 && segs[i][0] != "searchmoves").collect();
        prop_assume!(!numeric.is_empty());
        let i = numeric[pick.index(numeric.len())];
        let key = segs[i][0].clone();
        segs[i][1] = "99999999999999999999999".to_owned();
        let line = join(&segs);
        // A very long clock or a very deep search, never an unreadable
        // limit (which searched to depth 1 or moved at once).
        let mut want = g.clone();
        match key.as_str() {
            "wtime" => want.wtime = Some(i64::MAX),
            "btime" => want.btime = Some(i64::MAX),
            "winc" => want.winc = Some(i64::MAX),
            "binc" => want.binc = Some(i64::MAX),
            "movetime" => want.movetime = Some(i64::MAX),
            "movestogo" => want.movestogo = Some(u32::MAX),
            "depth" => want.depth = Some(u32::MAX),
            "nodes" => want.nodes = Some(u64::MAX),
            "mate" => want.mate = Some(u32::MAX),
            "perft" => want.perft = Some(u32::MAX),
            other => return Err(TestCaseError::fail(format!("no number key '{other}'"))),
        }
        prop_assert_eq!(go_of(&line), want, "{}", line);
    }

    #[test]
    fn go_times_with_a_fraction_are_read_as_whole_milliseconds(g in go_command(), fraction in "[0-9]{0,4}") {
        let mut segs = go_segments(&g);
        for s in &mut segs {
            if TIME_KEYS.contains(&s[0].as_str()) {
                s[1] = format!("{}.{fraction}", s[1]);
            }
        }
        let line = join(&segs);
        prop_assert_eq!(go_of(&line), g, "{}", line);
    }

    #[test]
    fn go_with_a_negative_count_is_ignored_and_the_rest_kept(g in go_command(), key in prop::sample::select(&["movestogo", "depth", "mate", "perft", "nodes"][..]), n in 1i64..1000) {
        let mut segs = go_segments(&g);
        segs.retain(|s| s[0] != key);
        segs.push(vec![key.to_owned(), (-n).to_string()]);
        let line = join(&segs);
        let mut want = without(&g, key);
        want.ignored = vec![format!("{key} -{n}")];
        want.unread_keys = vec![key];
        prop_assert_eq!(go_of(&line), want, "{}", line);
    }

    #[test]
    fn go_with_a_corrupted_key_is_ignored_and_the_rest_kept(g in go_command(), pick in any::<prop::sample::Index>(), bad in garbage_word()) {
        prop_assume!(!GO_KEYS.contains(&bad.as_str()));
        let mut segs = go_segments(&g);
        prop_assume!(!segs.is_empty());
        let i = pick.index(segs.len());
        let key = std::mem::replace(&mut segs[i][0], bad.clone());
        let line = join(&segs);
        // The unknown word and the value(s) it stranded are all ignored.
        let mut want = without(&g, &key);
        want.ignored = segs[i].clone();
        prop_assert_eq!(go_of(&line), want, "{}", line);
    }

    /// Moves are kept as text by the parser, garbage too: they are read
    /// against the position when applied, so the moves before a bad one
    /// still count (`a_bad_move_keeps_the_moves_before_it`).
    #[test]
    fn position_moves_are_kept_as_sent(p in position_command(), pick in any::<prop::sample::Index>(), bad in garbage_word()) {
        prop_assume!(!p.moves.is_empty());
        prop_assume!(bad != "moves");
        let mut p2 = p.clone();
        let i = pick.index(p2.moves.len());
        p2.moves[i] = bad.clone();
        let line = position_words(&p2, true).join(" ");
        let got = parse_line(&line).map(|parsed| parsed.command);
        prop_assert_eq!(got, Ok(Some(Command::Position(p2))), "{}", line);
    }

    #[test]
    fn startpos960_out_of_range_is_refused(n in prop_oneof![960u64..u64::MAX, Just(u64::MAX)], neg in any::<bool>()) {
        let arg = if neg { format!("-{n}") } else { n.to_string() };
        let line = format!("position startpos960 {arg} moves e2e4");
        let e = parse_line(&line);
        prop_assert!(e.is_err(), "{}", line);
        // The number is named as typed, never a saturated value.
        prop_assert!(e.unwrap_err().0.contains(&arg), "{}", line);
    }

    #[test]
    fn dfrc_out_of_range_is_refused_naming_the_number(n in prop_oneof![921_600u64..u64::MAX, Just(u64::MAX)], neg in any::<bool>()) {
        let arg = if neg { format!("-{n}") } else { n.to_string() };
        let line = format!("position dfrc {arg}");
        let e = parse_line(&line);
        prop_assert!(e.is_err(), "{}", line);
        prop_assert!(e.unwrap_err().0.contains(&arg), "{}", line);
    }

    /// Token soup for `go`: every line is read, and whatever is used is
    /// exactly what the line says: each value set follows its key in the
    /// line, the flags are present, every searchmove is in the line, and
    /// each ignored word is one of the line's.
    #[test]
    fn go_soup_is_read_literally(tokens in prop::collection::vec(prop_oneof![
        prop::sample::select(GO_KEYS).prop_map(str::to_owned),
        any::<i32>().prop_map(|n| n.to_string()),
        uci_move(),
        garbage_word(),
    ], 0..12)) {
        let line = format!("go {}", tokens.join(" "));
        let g = go_of(&line);
        let follows = |k: &str, v: String| tokens.windows(2).any(|w| w[0] == k && w[1] == v);
        for (k, v) in [
            ("wtime", g.wtime.map(|v| v.to_string())),
            ("btime", g.btime.map(|v| v.to_string())),
            ("depth", g.depth.map(|v| v.to_string())),
            ("nodes", g.nodes.map(|v| v.to_string())),
            ("movetime", g.movetime.map(|v| v.to_string())),
            ("perft", g.perft.map(|v| v.to_string())),
        ] {
            if let Some(v) = v {
                prop_assert!(follows(k, v.clone()), "'{}': {} {} is not in the line", line, k, v);
            }
        }
        prop_assert_eq!(g.ponder, tokens.iter().any(|t| t == "ponder"));
        prop_assert_eq!(g.infinite, tokens.iter().any(|t| t == "infinite"));
        for m in &g.searchmoves {
            prop_assert!(tokens.contains(m), "'{}': searchmove {}", line, m);
        }
        for w in &g.ignored {
            let first = w.split_whitespace().next().unwrap_or_default();
            prop_assert!(tokens.iter().any(|t| t == first), "'{}': ignored {}", line, w);
        }
    }
}

// --------------------------------------------------------------- session

/// A writer the test can read back.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("buffer").extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    /// Lines written since the last call.
    fn take_lines(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().expect("buffer"));
        let text = String::from_utf8(bytes).expect("output is UTF-8");
        assert!(
            text.is_empty() || text.ends_with('\n'),
            "partial line: {text:?}"
        );
        text.lines().map(str::to_owned).collect()
    }
}

/// What a refused command must not change.
fn snapshot(
    s: &Session,
) -> (
    shakmaty::Setup,
    Vec<shakmaty::Move>,
    Option<u32>,
    chess960::uci::options::Options,
) {
    let g = s.game();
    (
        shakmaty::Position::to_setup(g.position(), EnPassantMode::Legal),
        g.moves().to_vec(),
        g.start_number(),
        s.options().clone(),
    )
}

/// Lines a GUI might send, valid or broken; searches are kept short so a
/// case runs in milliseconds. No `Debug Log File` (it writes files) and no
/// large `Hash` (it allocates).
fn session_line() -> impl Strategy<Value = String> {
    let moves = prop::collection::vec(
        prop_oneof![
            prop::sample::select(
                &[
                    "e2e4", "e7e5", "d2d4", "d7d5", "g1f3", "b8c6", "e1g1", "e1h1", "e8g8", "f1c4",
                    "g8f6", "b1c3", "a7a6", "h2h4"
                ][..]
            )
            .prop_map(str::to_owned),
            uci_move(),
            garbage_word(),
        ],
        0..8,
    )
    .prop_map(|m| m.join(" "));
    prop_oneof![
        4 => (prop::sample::select(&["startpos", "startpos960 518", "startpos960 0", "startpos960 959", "startpos960 random", "startpos960 960", "startpos960 -3", "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", "fen 8/8/8/8/8/8/8/8 w - - 0 1", "fen bad", "banana"][..]), any::<bool>(), moves)
            .prop_map(|(s, m, mv)| if m { format!("position {s} moves {mv}") } else { format!("position {s}") }),
        3 => prop::sample::select(&["go depth 1", "go depth 2", "go nodes 200", "go movetime 5", "go perft 1", "go perft 2", "go perft 99", "go depth x", "go wtime 50 btime 50", "go searchmoves e2e4", "go searchmoves a1a1", "go mate 1 depth 2", "go fast", "go depth 99999999999999999999"][..]).prop_map(str::to_owned),
        2 => (prop::sample::select(&["Hash", "hash", "Threads", "MultiPV", "Move Overhead", "UCI_Chess960", "uci_chess960", "Ponder", "Clear Hash", "Colour", ""][..]),
              prop::option::of(prop::sample::select(&["1", "2", "8", "0", "-1", "true", "false", "TRUE", "maybe", "", "99999999999999999999", "3.5"][..])))
            .prop_map(|(n, v)| match v { Some(v) => format!("setoption name {n} value {v}"), None => format!("setoption name {n}") }),
        2 => prop::sample::select(&["uci", "isready", "ucinewgame", "stop", "ponderhit", "d", "eval", "debug on", "debug off", "debug", "register later", "", "   ", "isready now", "xyzzy isready"][..]).prop_map(str::to_owned),
        1 => "[ -~]{0,40}",
        1 => any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn session_refusals_change_nothing_and_output_is_protocol(lines in prop::collection::vec(session_line(), 1..25)) {
        let buf = Buffer::default();
        let mut s = Session::new(Arc::new(Output::new(Box::new(buf.clone()))));
        let mut all = Vec::new();
        for line in &lines {
            let before = snapshot(&s);
            let flow = s.handle_line(line);
            // Errors are written before handle_line returns (searches
            // write later, from their thread, which is fine here).
            let out = buf.take_lines();
            let refused = out.iter().any(|l| l.starts_with("info string error:"));
            // A refused `position` sets the moves before the bad one, or no
            // position at all; every other refusal changes nothing.
            let is_position = chess960::uci::command::command_word(line) == Some("position");
            if refused && !is_position {
                prop_assert!(snapshot(&s) == before, "'{}' was refused but changed the state", line);
            }
            all.extend(out);
            if flow == Flow::Quit {
                break;
            }
        }
        s.handle_line("stop");
        s.handle_line("quit");
        drop(s);
        all.extend(buf.take_lines());
        for l in &all {
            if let Err(e) = check_protocol_line(l) {
                return Err(TestCaseError::fail(format!("{e}\nlines sent: {lines:?}")));
            }
        }
    }

    /// `setoption` either sets exactly the value sent or is refused and
    /// changes nothing.
    #[test]
    fn setoption_is_exact_or_refused(
        name in prop::sample::select(&["Hash", "HASH", "Threads", "MultiPV", "Move Overhead", "move overhead", "UCI_Chess960", "Ponder"][..]),
        value in prop_oneof![
            (-10i64..300).prop_map(|n| n.to_string()),
            Just("true".to_owned()), Just("false".to_owned()), Just("True".to_owned()),
            "[ -~]{0,12}",
        ],
    ) {
        let buf = Buffer::default();
        let mut s = Session::new(Arc::new(Output::new(Box::new(buf.clone()))));
        let before = s.options().clone();
        s.handle_line(&format!("setoption name {name} value {value}"));
        let out = buf.take_lines();
        let after = s.options().clone();
        if out.iter().any(|l| l.starts_with("info string error:")) {
            prop_assert_eq!(after, before);
        } else {
            prop_assert!(out.is_empty(), "{:?}", out);
            let v = value.trim();
            match name.to_ascii_lowercase().as_str() {
                "hash" => prop_assert_eq!(Ok(after.hash_mb as i64), v.parse::<i64>()),
                "threads" => prop_assert_eq!(Ok(after.threads as i64), v.parse::<i64>()),
                "multipv" => prop_assert_eq!(Ok(after.multipv as i64), v.parse::<i64>()),
                "move overhead" => prop_assert_eq!(Ok(after.move_overhead as i64), v.parse::<i64>()),
                "uci_chess960" => prop_assert_eq!(after.chess960.to_string(), v.to_ascii_lowercase()),
                "ponder" => prop_assert_eq!(after.ponder.to_string(), v.to_ascii_lowercase()),
                other => prop_assert!(false, "{}", other),
            }
        }
    }
}
