//! The 960 Chess960 start positions and Scharnagl's numbering (0..959,
//! 518 = RNBQKBNR).

use shakmaty::{Bitboard, Board, CastlingMode, Chess, Setup};

/// Number of Chess960 start positions.
pub const COUNT: u32 = 960;
/// Scharnagl number of the classical start position RNBQKBNR.
pub const STANDARD: u32 = 518;

/// Why a number or a position is not a Chess960 start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The number is outside 0..959.
    #[error("start number {0} out of range: valid numbers are 0..959")]
    OutOfRange(u64),
}

/// Start position `n` (Scharnagl numbering) with full castling rights,
/// white to move.
///
/// # Errors
/// [`StartError::OutOfRange`] unless `n < 960`.
pub fn position(n: u32) -> Result<Chess, StartError> {
    if n >= COUNT {
        return Err(StartError::OutOfRange(u64::from(n)));
    }
    let board = Board::chess960(n);
    let castling_rights =
        board.rooks() & (Bitboard::from(shakmaty::Rank::First) | shakmaty::Rank::Eighth);
    let setup = Setup {
        board,
        castling_rights,
        ..Setup::empty()
    };
    // Every start position is legal; a failure here would be a bug in the
    // numbering, not in user input.
    Ok(setup
        .position(CastlingMode::Chess960)
        .expect("Chess960 start positions are legal"))
}

/// The Scharnagl number of `pos` if it is one of the 960 start positions
/// exactly (white to move, all four castling rights, no move played).
pub fn number(pos: &Chess) -> Option<u32> {
    (0..COUNT).find(|&n| position(n).is_ok_and(|p| p == *pos))
}
