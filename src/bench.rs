//! `chess960 bench`: a fixed set of positions searched single-threaded to a
//! fixed depth with a fresh 16 MB table. The total node count is
//! deterministic and identifies the search: a change that alters it changes
//! the search (put it in the commit message). The output ends with the two
//! lines OpenBench's client reads: `Nodes searched: N` and
//! `Nodes/second: N`.

use std::time::Instant;

use crate::notation::{parse_fen, FenError};
use crate::search::{self, tt::Table, Control, Limits, Silent};

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 11;
/// Deepest bench depth accepted (depth 30 already takes hours).
pub const MAX_DEPTH: u32 = 30;
/// Hash size used by bench (MB).
const BENCH_HASH_MB: usize = 16;

/// Bench positions: Chess960 openings and middlegames (from the
/// chessprogramming "Chess960 Perft Results" list in `perft/`), standard
/// openings, tactical middlegames and endgames.
pub const POSITIONS: &[&str] = &[
    // Chess960 start positions (Scharnagl 0 and 959 among them).
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1",
    "qnrbbknr/pppppppp/8/8/8/8/PPPPPPPP/QNRBBKNR w HChc - 0 1",
    "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1",
    // Chess960 middlegames with castling rights (perft/chess960_midgame.perft).
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    // Standard chess.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/pp1bbppp/2n1pn2/3p4/3P4/2NBPN2/PPQ2PPP/R1B2RK1 w - - 4 10",
    // Endgames.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/8/2p5/8/B2K4/8 w - - 0 1",
    "8/5pk1/6p1/8/5P2/6P1/5K2/8 w - - 0 1",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
];

/// Search every bench position to `depth`; returns (nodes, elapsed ms).
///
/// # Errors
/// A bench position fails to parse (a bug in this file).
pub fn run(depth: u32) -> Result<(u64, u128), FenError> {
    let start = Instant::now();
    let mut nodes = 0;
    for fen in POSITIONS {
        let pos = parse_fen(fen)?;
        let table = Table::new(BENCH_HASH_MB);
        let control = Control::new(false);
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        // Fresh statistics per position: the bench count must not depend
        // on the order of its positions' predecessors.
        let mut histories = search::Histories::new();
        let out = search::Searcher::new(&table, &mut histories, 1).search(
            &pos,
            &[],
            &limits,
            &control,
            &mut Silent,
        );
        nodes += out.nodes;
    }
    Ok((nodes, start.elapsed().as_millis()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_positions_parse() {
        for fen in POSITIONS {
            assert!(parse_fen(fen).is_ok(), "{fen}");
        }
    }

    #[test]
    fn bench_is_deterministic() {
        let (a, _) = run(4).unwrap();
        let (b, _) = run(4).unwrap();
        assert_eq!(a, b);
        assert!(a > 0);
    }
}
