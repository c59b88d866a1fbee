//! # chess960
//!
//! A Chess960 (Fischer Random) toolkit built on [`shakmaty`]'s move generation:
//!
//! * a UCI engine ([`uci`]) that speaks Chess960 to GUIs and match runners,
//! * the 960 start positions ([`startpos`]): Scharnagl numbering both ways,
//!   validation of user input, X-FEN and Shredder-FEN writers, random starts,
//! * openings files for match runners ([`openings`]),
//! * perft, the move-generation proof over all 960 starts ([`perft`]).
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
pub mod cli;
pub mod engine;
pub mod eval;
pub mod notation;
pub mod numbering;
pub mod openings;
pub mod perft;
pub mod procedures;
pub mod search;
pub mod startpos;
pub mod strength;
pub mod uci;
