//! Feed arbitrary bytes, read the way the engine reads a line (invalid
//! UTF-8 replaced), to the UCI parser. It must never panic, and what it
//! returns must be usable: a bounded error message naming the culprit, or
//! a command whose moves are UCI syntax and whose start number is in range.

#![no_main]

use chess960::uci::command::{parse_line, Command, StartSpec};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    match parse_line(&line) {
        Err(e) => {
            assert!(!e.0.is_empty());
            assert!(e.0.chars().count() < 500, "unbounded error message");
        }
        Ok(parsed) => match parsed.command {
            Some(Command::Position(p)) => {
                if let StartSpec::Start960(n) = p.start {
                    assert!(n < 960);
                }
                for m in &p.moves {
                    assert!(m.parse::<shakmaty::uci::UciMove>().is_ok());
                }
            }
            Some(Command::Go(g)) => {
                for m in &g.searchmoves {
                    assert!(m.parse::<shakmaty::uci::UciMove>().is_ok());
                }
            }
            _ => {}
        },
    }
});
