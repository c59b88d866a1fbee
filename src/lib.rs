//! # chess960
//!
//! A Chess960 (Fischer Random) toolkit built on [`shakmaty`]'s move
//! generation. The modules, one concept each (docs/architecture.md has the
//! map and the flows):
//!
//! * [`backrank`]: the one model of a back rank, its rules and Scharnagl's
//!   numbering; a Double Fischer Random start is two of them;
//! * [`startpos`]: start positions, reading what people type, random draws;
//! * [`numbering`]: the other numbering schemes (scharnagl-1, Fritz 9);
//! * [`notation`]: FEN in and out, UCI move text, the board diagram;
//! * [`openings`]: EPD and PGN openings files for match runners;
//! * [`event`]: a verifiable draw of every round's start (commit and reveal);
//! * [`html`]: printable pages (event pack, projector page, procedure cards);
//! * [`procedures`]: dice, coins and cards at a club table, and their exact
//!   fairness;
//! * [`perft`]: leaf counting, the proof of the move generator;
//! * [`checksum`]: FNV-1a, the checksum that keeps files of one run together;
//! * [`eval`]: the static evaluation (hand-made terms and a small network);
//! * [`search`]: the alpha-beta search and its time allocation;
//! * [`strength`]: the levels of `UCI_LimitStrength`;
//! * [`engine`]: the facade the UCI layer talks to;
//! * [`uci`]: the protocol (parser, options, output, session);
//! * [`uci_client`]: driving another UCI engine (for the perft checker);
//! * [`wrap`]: the front-end that gives any UCI engine Chess960 in every
//!   GUI's dialect;
//! * [`cli`]: the command line;
//! * [`mod@bench`]: the deterministic search signature.
//!
//! Castling is never rewritten by hand: shakmaty's `CastlingMode::Chess960`
//! owns the rules, this crate only converts notation at the edges.

/// The version and the git commit of this build, e.g. `0.1.0 (9ea83ba)`:
/// what `--version` prints and the UCI `id name` carries.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("CHESS960_COMMIT"),
    ")"
);

pub mod backrank;
pub mod bench;
pub mod checksum;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod event;
pub mod html;
pub mod lines;
mod memory;
pub mod notation;
pub mod numbering;
pub mod openings;
pub mod perft;
pub mod procedures;
pub mod search;
mod signals;
pub mod startpos;
pub mod strength;
pub mod uci;
pub mod uci_client;
pub mod whole_number;
pub mod wrap;
