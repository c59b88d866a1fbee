//! End-to-end fuzzing of the real binary: tens of thousands of
//! random and mutated lines through stdin, then the engine must still answer
//! `isready` and play a legal move.
//!
//! What is sent: valid commands (from shakmaty-generated legal games),
//! the same with corrupted fields (bit flips, inserted control bytes and
//! invalid UTF-8, huge and negative numbers, truncation, duplication),
//! random bytes, empty lines, 1 MB lines, a 10,000-move `position`, `go`
//! without `stop`, and `quit` while searching (the engine must then exit
//! with status 0 at once; it is restarted).
//!
//! What is checked: every output line is a UCI message or a documented
//! extension (printable ASCII), every `isready` - including those hidden in
//! fuzzed lines, counted with the engine's own pure parser - is answered
//! within the timeout, no panic on stderr, exit status 0 after `quit` or
//! end of input, and a legal `bestmove` at the end.
//!
//! The default run (CI) sends `CHESS960_FUZZ_LINES` lines (default 50,000)
//! from seed `CHESS960_FUZZ_SEED` (default 1). The ignored test
//! `fuzz_one_million_lines` sends 1,000,000 (or `CHESS960_FUZZ_LINES`):
//! `cargo test --release --test uci_fuzz -- --ignored --nocapture`.
//!
//! Not sent: `Debug Log File` (it would write files where the fuzzer says),
//! `Hash` above 256 MB and `Threads` above 4 (legitimate but they would
//! take this shared machine's memory and cores); those are checked in
//! tests/uci_session.rs.

mod support;

use std::time::{Duration, Instant};

use chess960::uci::command::{parse_line, Command};
use chess960::uci::options::{parse_change, Change};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{CastlingMode, Chess, Move, Position};

use support::{check_protocol_line, chess_from_fen, legal_move, startpos_table, Engine};

/// What to do with one generated line.
enum Verdict {
    /// Send it.
    Send,
    /// Send it; the engine must exit after it.
    Quit,
    /// Do not send it (resource-heavy option or a file write).
    Skip,
    /// Send it; it is an `isready`.
    Ready,
}

fn verdict(line: &[u8]) -> Verdict {
    let text = String::from_utf8_lossy(line);
    match parse_line(&text) {
        Ok(p) => match p.command {
            Some(Command::Quit) => Verdict::Quit,
            Some(Command::IsReady) => Verdict::Ready,
            Some(Command::SetOption { name, value }) => match parse_change(&name, value.as_deref())
            {
                Ok(Change::DebugLogFile(_)) => Verdict::Skip,
                Ok(Change::Hash(mb)) if mb > 256 => Verdict::Skip,
                Ok(Change::Threads(n)) if n > 4 => Verdict::Skip,
                _ => Verdict::Send,
            },
            _ => Verdict::Send,
        },
        Err(_) => Verdict::Send,
    }
}

/// Statistics of one run.
#[derive(Debug, Default)]
struct Stats {
    lines: u64,
    skipped: u64,
    bytes: u64,
    restarts: u64,
    readyok: u64,
    output_lines: u64,
    errors: u64,
    bestmoves: u64,
    panics: usize,
    slowest_ready: Duration,
}

struct Fuzzer {
    rng: ChaCha8Rng,
    table: Vec<(u32, String, Vec<u64>)>,
}

const FENS: &[&str] = &[
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q - 0 1",
    "rrk5/8/8/8/8/8/8/RRK5 w Bb - 0 1",
    "4k3/8/8/8/8/8/8/RK6 w A - 0 1",
    "rk4rr/8/8/8/8/8/8/RK4RR w KQkq - 0 1",
    "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3",
];

impl Fuzzer {
    fn new(seed: u64) -> Fuzzer {
        Fuzzer {
            rng: ChaCha8Rng::seed_from_u64(seed),
            table: startpos_table(),
        }
    }

    fn start(&mut self) -> (String, Chess) {
        if self.rng.gen_bool(0.7) {
            let n = self.rng.gen_range(0..960usize);
            (format!("startpos960 {n}"), chess_from_fen(&self.table[n].1))
        } else if self.rng.gen_bool(0.3) {
            ("startpos".into(), Chess::default())
        } else {
            let f = *FENS.choose(&mut self.rng).unwrap();
            (format!("fen {f}"), chess_from_fen(f))
        }
    }

    /// A legal random game prefix; castling in either encoding where
    /// shakmaty would read it back.
    fn walk(&mut self, pos: &mut Chess, plies: usize) -> Vec<String> {
        let mut out = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let Some(&m) = moves.choose(&mut self.rng) else {
                break;
            };
            let mode = if self.rng.gen_bool(0.8) {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            let text = m.to_uci(mode).to_string();
            // Only use the two-square form where it reads back to the same move.
            let ok = text
                .parse::<shakmaty::uci::UciMove>()
                .ok()
                .and_then(|u| u.to_move(pos).ok())
                == Some(m);
            out.push(if ok {
                text
            } else {
                m.to_uci(CastlingMode::Chess960).to_string()
            });
            pos.play_unchecked(m);
        }
        out
    }

    fn valid_line(&mut self) -> String {
        let r = self.rng.gen_range(0..100);
        match r {
            0..=34 => {
                let (start, mut pos) = self.start();
                let n = self.rng.gen_range(0..25);
                let moves = self.walk(&mut pos, n);
                if moves.is_empty() && self.rng.gen_bool(0.5) {
                    format!("position {start}")
                } else {
                    format!("position {start} moves {}", moves.join(" "))
                }
            }
            35..=59 => {
                let choices = [
                    format!("go depth {}", self.rng.gen_range(1..5)),
                    format!("go nodes {}", self.rng.gen_range(1..5000)),
                    format!("go movetime {}", self.rng.gen_range(1..20)),
                    format!(
                        "go wtime {} btime {} winc {} binc {}",
                        self.rng.gen_range(-50..3000),
                        self.rng.gen_range(-50..3000),
                        self.rng.gen_range(0..50),
                        self.rng.gen_range(0..50)
                    ),
                    format!(
                        "go wtime {} btime {} movestogo {}",
                        self.rng.gen_range(1..500),
                        self.rng.gen_range(1..500),
                        self.rng.gen_range(0..40)
                    ),
                    format!("go perft {}", self.rng.gen_range(0..4)),
                    "go infinite".into(),
                    "go ponder wtime 1000 btime 1000".into(),
                    "go depth 300".into(),
                    format!("go mate {} movetime 10", self.rng.gen_range(0..4)),
                    "go searchmoves e2e4 d2d4 depth 2".into(),
                ];
                choices.choose(&mut self.rng).unwrap().clone()
            }
            60..=74 => {
                let names = [
                    "Hash",
                    "Threads",
                    "MultiPV",
                    "Move Overhead",
                    "UCI_Chess960",
                    "Ponder",
                    "Clear Hash",
                    "hash",
                    "uci_chess960",
                ];
                let values = [
                    "1", "2", "16", "64", "0", "true", "false", "3", "30", "1000",
                ];
                let n = names.choose(&mut self.rng).unwrap();
                if *n == "Clear Hash" {
                    "setoption name Clear Hash".into()
                } else {
                    format!(
                        "setoption name {n} value {}",
                        values.choose(&mut self.rng).unwrap()
                    )
                }
            }
            _ => [
                "uci",
                "isready",
                "ucinewgame",
                "stop",
                "ponderhit",
                "d",
                "eval",
                "debug on",
                "debug off",
                "register later",
                "register name x code y",
            ]
            .choose(&mut self.rng)
            .unwrap()
            .to_string(),
        }
    }

    fn token(&mut self) -> Vec<u8> {
        let t: &[&str] = &[
            "0",
            "-1",
            "1",
            "959",
            "960",
            "4294967295",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "99999999999999999999999999999999",
            "+5",
            "1e9",
            "NaN",
            "0x10",
            "",
            "moves",
            "fen",
            "startpos",
            "startpos960",
            "random",
            "value",
            "name",
            "searchmoves",
            "infinite",
            "ponder",
            "perft",
            "depth",
            "e1g1",
            "e1h1",
            "0000",
            "a7a8q",
            "a7a8k",
            "Q@e4",
            "-",
            "KQkq",
            "HAha",
            "w",
            "b",
            "quit",
            "isready",
            "go",
            "position",
            "\u{feff}",
            "\u{200b}",
            "é",
            "\u{0}",
            "\r",
            "\t",
            "\x1b[31m",
        ];
        t.choose(&mut self.rng).unwrap().as_bytes().to_vec()
    }

    fn mutate(&mut self, mut line: Vec<u8>) -> Vec<u8> {
        let n = self.rng.gen_range(1..5);
        for _ in 0..n {
            let len = line.len();
            match self.rng.gen_range(0..10) {
                0 if len > 0 => {
                    let i = self.rng.gen_range(0..len);
                    line[i] ^= 1 << self.rng.gen_range(0..8);
                }
                1 => {
                    let i = self.rng.gen_range(0..=len);
                    let b = *[
                        0u8, 1, 7, 8, 0x1b, b'\r', b'\t', 0x7f, 0x80, 0xc3, 0xff, 0xfe, b' ',
                    ]
                    .choose(&mut self.rng)
                    .unwrap();
                    line.insert(i, b);
                }
                2 if len > 0 => {
                    let i = self.rng.gen_range(0..len);
                    let j = self.rng.gen_range(i..=len.min(i + 8));
                    line.drain(i..j);
                }
                3 if len > 0 => line.truncate(self.rng.gen_range(0..len)),
                4 | 5 => {
                    // Replace one token.
                    let mut toks: Vec<Vec<u8>> =
                        line.split(|&b| b == b' ').map(<[u8]>::to_vec).collect();
                    let i = self.rng.gen_range(0..toks.len());
                    toks[i] = self.token();
                    line = toks.join(&b' ');
                }
                6 => {
                    // Duplicate a token, sometimes many times.
                    let toks: Vec<Vec<u8>> =
                        line.split(|&b| b == b' ').map(<[u8]>::to_vec).collect();
                    let i = self.rng.gen_range(0..toks.len());
                    let times = if self.rng.gen_bool(0.1) { 1000 } else { 2 };
                    let mut out = Vec::new();
                    for (k, t) in toks.iter().enumerate() {
                        let reps = if k == i { times } else { 1 };
                        for _ in 0..reps {
                            if !out.is_empty() {
                                out.push(b' ');
                            }
                            out.extend_from_slice(t);
                        }
                    }
                    line = out;
                }
                7 => {
                    let other = self.valid_line();
                    line.push(b' ');
                    line.extend_from_slice(other.as_bytes());
                }
                8 => {
                    let i = self.rng.gen_range(0..=len);
                    let t = self.token();
                    line.splice(i..i, t);
                }
                _ => {
                    // Swap two tokens.
                    let mut toks: Vec<Vec<u8>> =
                        line.split(|&b| b == b' ').map(<[u8]>::to_vec).collect();
                    let a = self.rng.gen_range(0..toks.len());
                    let b = self.rng.gen_range(0..toks.len());
                    toks.swap(a, b);
                    line = toks.join(&b' ');
                }
            }
        }
        line
    }

    fn random_bytes(&mut self) -> Vec<u8> {
        let len = self.rng.gen_range(0..300);
        let printable = self.rng.gen_bool(0.5);
        (0..len)
            .map(|_| {
                if printable {
                    self.rng.gen_range(0x20..0x7f)
                } else {
                    // Anything but the newline (which would just split it).
                    let b: u8 = self.rng.gen();
                    if b == b'\n' {
                        b'\r'
                    } else {
                        b
                    }
                }
            })
            .collect()
    }

    fn huge_line(&mut self) -> Vec<u8> {
        const MB: usize = 1 << 20;
        let mut v: Vec<u8> = match self.rng.gen_range(0..7) {
            0 => b"position startpos moves".to_vec(),
            1 => b"go".to_vec(),
            2 => b"setoption name".to_vec(),
            3 => b"position fen".to_vec(),
            4 => Vec::new(),
            5 => b"go searchmoves".to_vec(),
            _ => b"debug".to_vec(),
        };
        let unit: &[u8] = match self.rng.gen_range(0..6) {
            0 => b" e2e4",
            1 => b" depth 1",
            2 => b" ",
            3 => b"x",
            4 => b" \xff\x00\x1b",
            _ => b" 99999999999999999999",
        };
        while v.len() < MB {
            v.extend_from_slice(unit);
        }
        v
    }

    /// One line (or, for a mutated line, possibly several once split at
    /// newlines; the caller splits).
    fn line(&mut self) -> Vec<u8> {
        match self.rng.gen_range(0..100) {
            0..=39 => self.valid_line().into_bytes(),
            40..=79 => {
                let base = self.valid_line().into_bytes();
                self.mutate(base)
            }
            80..=89 => self.random_bytes(),
            90..=94 => Vec::new(),
            _ => {
                let ws = [b" ".as_slice(), b"\t", b"\r", b"   \t  "];
                ws.choose(&mut self.rng).unwrap().to_vec()
            }
        }
    }

    /// A legal game of `plies` moves from a random start (never ending in
    /// mate or stalemate before), as a `position` command and its final
    /// position.
    fn long_game(&mut self, plies: usize) -> (String, Chess) {
        'game: loop {
            let n = self.rng.gen_range(0..960usize);
            let mut pos = chess_from_fen(&self.table[n].1);
            let mut moves = Vec::with_capacity(plies);
            while moves.len() < plies {
                let legal = pos.legal_moves();
                let playable: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let mut c = pos.clone();
                        c.play_unchecked(m);
                        !c.legal_moves().is_empty()
                    })
                    .collect();
                // Every move ends the game (rare): start another one.
                let Some(&m) = playable.choose(&mut self.rng) else {
                    continue 'game;
                };
                moves.push(m.to_uci(CastlingMode::Chess960).to_string());
                pos.play_unchecked(m);
            }
            return (
                format!("position startpos960 {n} moves {}", moves.join(" ")),
                pos,
            );
        }
    }
}

struct Run {
    e: Engine,
    expected_ready: u64,
    stats: Stats,
}

impl Run {
    fn start() -> Engine {
        Engine::start_with_deadline(Duration::from_secs(3600))
    }

    fn drain(&mut self) {
        while let Some(l) = self.e.next_line(Duration::ZERO) {
            self.account(&l);
        }
    }

    fn account(&mut self, l: &str) {
        self.stats.output_lines += 1;
        if let Err(msg) = check_protocol_line(l) {
            self.e.fail(&msg);
        }
        if l.len() > 8192 {
            let msg = format!("output line of {} bytes: {}...", l.len(), &l[..200]);
            self.e.fail(&msg);
        }
        if l == "readyok" {
            self.stats.readyok += 1;
        } else if l.starts_with("bestmove") {
            self.stats.bestmoves += 1;
        } else if l.starts_with("info string error:") {
            self.stats.errors += 1;
        }
    }

    /// Wait until every `isready` sent so far is answered.
    fn sync(&mut self) {
        self.e.send("isready");
        self.expected_ready += 1;
        let t = Instant::now();
        while self.stats.readyok < self.expected_ready {
            let left = Duration::from_secs(10).saturating_sub(t.elapsed());
            if left.is_zero() {
                let msg = format!(
                    "{} isready unanswered after 10 s",
                    self.expected_ready - self.stats.readyok
                );
                self.e.fail(&msg);
            }
            if let Some(l) = self.e.next_line(left) {
                self.account(&l);
            }
        }
        self.stats.slowest_ready = self.stats.slowest_ready.max(t.elapsed());
    }

    /// The engine was told to quit: it must exit with status 0 promptly.
    fn restart_after_quit(&mut self) {
        if !self.e.flush() {
            // It may have exited already; that is fine.
        }
        match self.e.wait_exit(Duration::from_secs(5)) {
            Some(st) if st.success() => {}
            other => self.e.fail(&format!("after quit: exit status {other:?}")),
        }
        while let Some(l) = self.e.next_line(Duration::from_millis(100)) {
            self.account(&l);
        }
        self.stats.panics += self.e.panics();
        self.stats.restarts += 1;
        self.e = Run::start();
        self.expected_ready = 0;
        self.stats.readyok = 0;
    }

    /// Send raw bytes as one or more lines (split at newlines).
    fn send(&mut self, bytes: &[u8]) {
        for piece in bytes.split(|&b| b == b'\n') {
            self.stats.lines += 1;
            match verdict(piece) {
                Verdict::Skip => {
                    self.stats.skipped += 1;
                    continue;
                }
                Verdict::Ready => self.expected_ready += 1,
                Verdict::Quit => {
                    self.stats.bytes += piece.len() as u64 + 1;
                    self.e.try_send_bytes(piece);
                    self.restart_after_quit();
                    continue;
                }
                Verdict::Send => {}
            }
            self.stats.bytes += piece.len() as u64 + 1;
            if !self.e.try_send_bytes(piece) {
                self.e.fail(&format!(
                    "engine stopped reading after {:?}",
                    String::from_utf8_lossy(&piece[..piece.len().min(200)])
                ));
            }
        }
    }
}

fn fuzz(lines: u64, seed: u64) -> Stats {
    let mut f = Fuzzer::new(seed);
    let mut run = Run {
        e: Run::start(),
        expected_ready: 0,
        stats: Stats::default(),
    };
    let t0 = Instant::now();
    // The big inputs first, each timed: a 10,000-move game and 1 MB lines.
    let (game, end) = f.long_game(10_000);
    let t = Instant::now();
    run.e.send(&game);
    run.sync();
    let parse_time = t.elapsed();
    let fen = run.e.shredder_fen();
    assert!(
        support::same_position(&chess_from_fen(&fen), &end),
        "10,000-move game read wrongly"
    );
    run.e.send("go movetime 200");
    let (_, best, _) = run.e.bestmove(Duration::from_secs(10));
    legal_move(&end, &best, true).unwrap_or_else(|m| run.e.fail(&m));
    println!(
        "10,000-move position: read in {parse_time:?}, searched in {:?}",
        t.elapsed() - parse_time
    );
    for _ in 0..4 {
        let big = f.huge_line();
        let t = Instant::now();
        run.send(&big);
        run.sync();
        println!(
            "1 MB line ({:?}...): answered isready after {:?}",
            String::from_utf8_lossy(&big[..20]),
            t.elapsed()
        );
    }
    run.stats.lines = 0;
    let mut sent = 0u64;
    while sent < lines {
        let r = f.rng.gen_range(0..10_000);
        if r == 0 {
            // quit while searching.
            run.send(b"go infinite");
            run.send(b"quit");
        } else if r == 1 {
            let big = f.huge_line();
            run.send(&big);
        } else {
            let l = f.line();
            run.send(&l);
        }
        sent += 1;
        if sent.is_multiple_of(250) {
            run.sync();
            run.drain();
        }
    }
    // Finally: still serving, and plays a legal move.
    run.e.send("stop");
    run.sync();
    run.e.send("setoption name UCI_Chess960 value true");
    let (start, mut pos) = f.start();
    let moves = f.walk(&mut pos, 10);
    if pos.legal_moves().is_empty() {
        pos = Chess::default();
        run.e.send("position startpos");
    } else {
        run.e
            .send(&format!("position {start} moves {}", moves.join(" ")));
    }
    run.e.send("go movetime 100");
    let (_, best, _) = run.e.bestmove(Duration::from_secs(10));
    legal_move(&pos, &best, true).unwrap_or_else(|m| run.e.fail(&m));
    run.e.close_stdin();
    match run.e.wait_exit(Duration::from_secs(5)) {
        Some(st) if st.success() => {}
        other => run.e.fail(&format!("after EOF: exit status {other:?}")),
    }
    run.stats.panics += run.e.panics();
    println!("seed {seed}: {:?} in {:?}", run.stats, t0.elapsed());
    run.stats
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn fuzz_the_binary() {
    let stats = fuzz(
        env("CHESS960_FUZZ_LINES", 50_000),
        env("CHESS960_FUZZ_SEED", 1),
    );
    assert_eq!(stats.panics, 0);
    assert!(
        stats.errors > 1000,
        "few lines reached the error paths: {stats:?}"
    );
}

#[test]
#[ignore = "long: 1,000,000 lines; run with --ignored --nocapture"]
fn fuzz_one_million_lines() {
    let stats = fuzz(
        env("CHESS960_FUZZ_LINES", 1_000_000),
        env("CHESS960_FUZZ_SEED", 2),
    );
    assert_eq!(stats.panics, 0);
}
