//! The 960 Chess960 start positions and Scharnagl's numbering (0..959,
//! 518 = RNBQKBNR).
//!
//! The back rank itself (its rules, letters and Scharnagl's arithmetic)
//! is [`crate::backrank`]; this module builds positions from it.
//!
//! This module also reads user input ([`parse`]: a FEN or an 8-letter back
//! rank) and refuses anything that is not a start position with the precise
//! reason, writes both FEN dialects ([`fen`]) and draws uniform random
//! starts ([`rng`], [`random_number`], [`Deck`]).

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, Board, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, File, Piece,
    Position, Rank, Role, Setup, Square,
};

use crate::backrank::{BackRank, DfrcStart, RankError};
use crate::notation;

pub use crate::backrank::{COUNT, DFRC_COUNT, DFRC_STANDARD, STANDARD};

/// Why a number or a position is not a Chess960 start.
///
/// Every variant's message is one line that names the culprit, because the
/// CLI prints it as is on stderr.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The number is outside 0..959.
    #[error("start number {0} out of range: valid numbers are 0..959")]
    OutOfRange(String),
    /// The text is not a decimal number.
    #[error("'{0}' is not a start number: valid numbers are 0..959")]
    BadNumber(String),
    /// Nothing was given.
    #[error("no position given: expected a FEN or an 8-letter back rank such as RNBQKBNR")]
    Empty,
    /// One word that is neither a back rank nor a FEN.
    #[error("'{0}' is not a position: expected a FEN or an 8-letter back rank such as RNBQKBNR")]
    NotAPosition(String),
    /// A back rank that breaks a rule (length, letters, pieces, bishops,
    /// king between the rooks).
    #[error(transparent)]
    Rank(#[from] RankError),
    /// Black's back rank of a DFRC start breaks a rule.
    #[error("black's {0}")]
    BlackRankRule(RankError),
    /// Two DFRC back ranks whose case says Black's came first (`bbqnnrkr
    /// RNBQKBNR`): White's rank comes first, and reading them in the order
    /// given would silently name another start.
    #[error("'{first} {second}' gives Black's rank (lower case) first: give White's rank first, '{second} {first}'")]
    RanksSwapped {
        /// The first rank as typed.
        first: String,
        /// The second rank as typed.
        second: String,
    },
    /// A FEN with a number of fields other than 4 or 6.
    #[error("a start-position FEN has 4 or 6 fields, found {0}")]
    FieldCount(usize),
    /// Several numbers where one start was asked for (`518 519`).
    #[error("'{0}' is several numbers: give one start at a time")]
    SeveralNumbers(String),
    /// A back rank typed with spaces in it (`RNBQK BNR`).
    #[error("'{typed}' has spaces in it: a back rank is 8 letters in one word, '{joined}'")]
    SpacedRank {
        /// The text as typed.
        typed: String,
        /// Its letters in one word.
        joined: String,
    },
    /// Two back ranks (`RNBQKBNR bbqnnrkr`, or `RNBQKBNR/bbqnnrkr`) where
    /// one Chess960 start was asked for.
    #[error("'{0}' is two different back ranks, a Double Fischer Random start: add --dfrc")]
    TwoRanks(String),
    /// Text that shakmaty's FEN reader refuses, or variant-only FEN parts.
    #[error("bad FEN '{fen}': {reason}")]
    Fen {
        /// The FEN as given (fields joined by single spaces).
        fen: String,
        /// What is wrong with it.
        reason: String,
    },
    /// White's first rank is not eight white pieces (gaps, pawns or black pieces).
    #[error(
        "rank 1 is '{found}': it must hold eight white pieces (R, N, B, Q, K) and nothing else"
    )]
    WhiteRank {
        /// Rank 1 as FEN letters, `.` for empty squares.
        found: String,
    },
    /// Black's first rank is not eight black pieces.
    #[error(
        "rank 8 is '{found}': it must hold eight black pieces (r, n, b, q, k) and nothing else"
    )]
    BlackRank {
        /// Rank 8 as FEN letters, `.` for empty squares.
        found: String,
    },
    /// A DFRC index outside 0..921,599.
    #[error("DFRC number {0} out of range: valid numbers are 0..921599")]
    DfrcOutOfRange(String),
    /// The text is not a decimal DFRC number.
    #[error("'{0}' is not a DFRC number: valid numbers are 0..921599")]
    BadDfrcNumber(String),
    /// A pawn rank is not eight pawns of its side.
    #[error("{side} pawns are not all at home: rank {rank} is '{found}', expected '{expected}'")]
    PawnsNotHome {
        /// `white` or `black`.
        side: &'static str,
        /// 2 or 7.
        rank: u8,
        /// The rank as FEN letters, `.` for empty squares.
        found: String,
        /// `PPPPPPPP` or `pppppppp`.
        expected: &'static str,
    },
    /// Pieces on ranks 3 to 6.
    #[error("extra pieces on {squares}: ranks 3 to 6 of a start position are empty")]
    ExtraPieces {
        /// The occupied squares, e.g. `e4, d5`.
        squares: String,
    },
    /// Black's back rank is not white's mirrored.
    #[error(
        "black's back rank '{black}' does not mirror white's '{white}' (expected '{expected}')"
    )]
    NotMirrored {
        /// White's back rank, upper case.
        white: String,
        /// Rank 8 as FEN letters, `.` for empty squares.
        black: String,
        /// What rank 8 should be.
        expected: String,
    },
    /// Black to move.
    #[error("black to move: in a start position white moves first")]
    BlackToMove,
    /// An en passant square is set.
    #[error("en passant square {0} set: a start position has '-'")]
    EnPassant(String),
    /// Some of the four castling rights are absent.
    #[error("castling rights missing for the rook(s) on {missing}: a start position has all four ({xfen}, or {shredder} in Shredder-FEN)")]
    CastlingMissing {
        /// The rook squares without a right, e.g. `a8`.
        missing: String,
        /// The correct X-FEN castling field.
        xfen: String,
        /// The correct Shredder-FEN castling field.
        shredder: String,
    },
    /// Castling rights that point at squares without a rook of that side.
    #[error("castling rights name {squares} where no rook of that side stands: this start's rights are {xfen} ({shredder} in Shredder-FEN)")]
    CastlingWrong {
        /// The squares named without a rook, e.g. `a1, h8`.
        squares: String,
        /// The correct X-FEN castling field.
        xfen: String,
        /// The correct Shredder-FEN castling field.
        shredder: String,
    },
    /// The halfmove clock is not 0.
    #[error("halfmove clock is {0}: a start position has 0")]
    Halfmove(String),
    /// The fullmove number is not 1.
    #[error("fullmove number is {0}: a start position has 1")]
    Fullmove(String),
}

/// How to write the castling field of a FEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CastlingNotation {
    /// X-FEN: `KQkq` (what shakmaty writes and most GUIs read).
    #[default]
    XFen,
    /// Shredder-FEN: rook files, e.g. `HFhf` (what cutechess and fastchess send).
    Shredder,
}

/// Start position `n` (Scharnagl numbering) with full castling rights,
/// white to move.
///
/// # Errors
/// [`StartError::OutOfRange`] unless `n < 960`.
pub fn position(n: u32) -> Result<Chess, StartError> {
    let rank = BackRank::from_scharnagl(n).ok_or(StartError::OutOfRange(n.to_string()))?;
    Ok(start_position(rank.board()))
}

/// DFRC start `n` (white + 960 * black) with full castling rights, white
/// to move.
///
/// # Errors
/// [`StartError::DfrcOutOfRange`] unless `n < 921,600`.
pub fn dfrc_position(n: u32) -> Result<Chess, StartError> {
    let start = DfrcStart::from_index(n).ok_or(StartError::DfrcOutOfRange(n.to_string()))?;
    Ok(start_position(start.board()))
}

/// A start board with the castling rights of all four rooks, white to move.
fn start_position(board: Board) -> Chess {
    let castling_rights = board.rooks() & (Bitboard::from(Rank::First) | Rank::Eighth);
    let setup = Setup {
        board,
        castling_rights,
        ..Setup::empty()
    };
    // Every start position is legal; a failure here would be a bug in the
    // numbering, not in user input.
    setup
        .position(CastlingMode::Chess960)
        .expect("Chess960 and DFRC start positions are legal")
}

/// The back rank of start `n` as eight upper-case letters, e.g. `RNBQKBNR`
/// for 518: the compact name people use for a Chess960 start.
///
/// # Panics
/// If `n >= 960`; validate user input with [`parse_number`] first.
pub fn back_rank(n: u32) -> String {
    match BackRank::from_scharnagl(n) {
        Some(rank) => rank.to_string(),
        None => panic!("back_rank: {}", StartError::OutOfRange(n.to_string())),
    }
}

/// The Scharnagl number of `pos` if it is one of the 960 start positions
/// exactly (white to move, all four castling rights, no move played).
pub fn number(pos: &Chess) -> Option<u32> {
    validate(&pos.to_setup(EnPassantMode::Legal)).ok()
}

/// Check that `setup` is a Chess960 start position and return its number.
///
/// The checks run in reading order (board, side to move, castling, en
/// passant, clocks) and the first failure is reported.
///
/// # Errors
/// The [`StartError`] naming the first rule the setup breaks.
pub fn validate(setup: &Setup) -> Result<u32, StartError> {
    validate_start(setup, None, Family::Chess960).map(|s| s.white.scharnagl())
}

/// The DFRC index of `pos` if it is a DFRC start exactly (Chess960 starts
/// included: their two ranks agree).
pub fn dfrc_number(pos: &Chess) -> Option<u32> {
    validate_start(&pos.to_setup(EnPassantMode::Legal), None, Family::Dfrc)
        .ok()
        .map(|s| s.index())
}

/// Which family of start positions a text must belong to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Chess960: Black mirrors White.
    Chess960,
    /// Double Fischer Random: each side any Chess960 back rank.
    Dfrc,
}

/// A side's back rank read off `board`, with the precise error.
fn side_rank(board: &Board, color: Color) -> Result<BackRank, StartError> {
    let rank = color.fold_wb(Rank::First, Rank::Eighth);
    let mut roles = [Role::Pawn; 8];
    for (i, file) in File::ALL.into_iter().enumerate() {
        match board.piece_at(Square::from_coords(file, rank)) {
            Some(Piece { color: c, role }) if c == color && role != Role::Pawn => roles[i] = role,
            _ => {
                let found = rank_text(board, rank);
                return Err(if color.is_white() {
                    StartError::WhiteRank { found }
                } else {
                    StartError::BlackRank { found }
                });
            }
        }
    }
    Ok(BackRank::new(roles)?)
}

/// [`validate`], with the fullmove field as typed (shakmaty reads `0` as
/// 1, but a start position says `1`) and the family the start must be of.
fn validate_start(
    setup: &Setup,
    fullmove: Option<&str>,
    family: Family,
) -> Result<DfrcStart, StartError> {
    let board = &setup.board;
    let white = side_rank(board, Color::White)?;

    for (color, rank) in [(Color::White, Rank::Second), (Color::Black, Rank::Seventh)] {
        let pawns = board.by_piece(Piece {
            color,
            role: Role::Pawn,
        });
        if pawns & Bitboard::from(rank) != Bitboard::from(rank) {
            return Err(StartError::PawnsNotHome {
                side: if color.is_white() { "white" } else { "black" },
                rank: if color.is_white() { 2 } else { 7 },
                found: rank_text(board, rank),
                expected: if color.is_white() {
                    "PPPPPPPP"
                } else {
                    "pppppppp"
                },
            });
        }
    }

    let middle = [Rank::Third, Rank::Fourth, Rank::Fifth, Rank::Sixth]
        .into_iter()
        .fold(Bitboard::EMPTY, |bb, r| bb | Bitboard::from(r));
    let extra = board.occupied() & middle;
    if extra.any() {
        return Err(StartError::ExtraPieces {
            squares: square_list(extra),
        });
    }

    let black = match family {
        Family::Chess960 => {
            if BackRank::from_rank(board, Color::Black) != Some(white) {
                let letters = white.to_string();
                return Err(StartError::NotMirrored {
                    expected: letters.to_ascii_lowercase(),
                    white: letters,
                    black: rank_text(board, Rank::Eighth),
                });
            }
            white
        }
        Family::Dfrc => side_rank(board, Color::Black).map_err(blacks)?,
    };
    let start = DfrcStart { white, black };

    if setup.turn == Color::Black {
        return Err(StartError::BlackToMove);
    }

    let rooks = board.rooks() & (Bitboard::from(Rank::First) | Rank::Eighth);
    let correct_fields = || {
        let pos = start_position(start.board());
        let xfen = notation::xfen(&pos);
        let xfen_castling = xfen.split(' ').nth(2).unwrap_or("-").to_owned();
        (xfen_castling, notation::shredder_castling(&pos))
    };
    let wrong = setup.castling_rights & !rooks;
    if wrong.any() {
        let (xfen, shredder) = correct_fields();
        return Err(StartError::CastlingWrong {
            squares: square_list(wrong),
            xfen,
            shredder,
        });
    }
    let missing = rooks & !setup.castling_rights;
    if missing.any() {
        let (xfen, shredder) = correct_fields();
        return Err(StartError::CastlingMissing {
            missing: square_list(missing),
            xfen,
            shredder,
        });
    }

    if let Some(sq) = setup.ep_square {
        return Err(StartError::EnPassant(sq.to_string()));
    }
    if setup.halfmoves != 0 {
        return Err(StartError::Halfmove(setup.halfmoves.to_string()));
    }
    match fullmove {
        Some(text) if text.parse::<u64>().ok() != Some(1) => {
            return Err(StartError::Fullmove(text.to_owned()));
        }
        None if setup.fullmoves.get() != 1 => {
            return Err(StartError::Fullmove(setup.fullmoves.to_string()));
        }
        _ => {}
    }
    Ok(start)
}

/// One rank as FEN piece letters, `.` for an empty square.
fn rank_text(board: &Board, rank: Rank) -> String {
    File::ALL
        .into_iter()
        .map(|f| {
            board
                .piece_at(Square::from_coords(f, rank))
                .map_or('.', Piece::char)
        })
        .collect()
}

/// Squares in reading order from a1, e.g. `a1, h8`.
fn square_list(bb: Bitboard) -> String {
    bb.into_iter()
        .map(|sq| sq.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parse a decimal start number (surrounding blanks ignored).
///
/// # Errors
/// [`StartError::BadNumber`] for anything but digits,
/// [`StartError::OutOfRange`] for numbers above 959.
pub fn parse_number(text: &str) -> Result<u32, StartError> {
    number_below(text, COUNT).map_err(|e| match e {
        NumberError::NotANumber(t) => StartError::BadNumber(t),
        NumberError::TooLarge(t) => StartError::OutOfRange(t),
    })
}

/// Why a text is not a number below a bound; the text as typed (trimmed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumberError {
    /// Not decimal digits.
    NotANumber(String),
    /// Digits, but not below the bound (however many).
    TooLarge(String),
}

/// A decimal number below `count` (surrounding blanks ignored). A number
/// out of range is named as typed, even beyond `u64`: never a saturated
/// value.
///
/// # Errors
/// [`NumberError`] with the text as typed.
pub fn number_below(text: &str, count: u32) -> Result<u32, NumberError> {
    let t = text.trim();
    if !crate::whole_number::digits_only(t) {
        return Err(NumberError::NotANumber(t.to_owned()));
    }
    match t.parse::<u64>() {
        Ok(n) if n < u64::from(count) => Ok(u32::try_from(n).expect("n < count <= u32::MAX")),
        _ => Err(NumberError::TooLarge(t.to_owned())),
    }
}

/// Read a start position typed by a person or a script and return its
/// Scharnagl number.
///
/// Accepted: a FEN with 4 or 6 fields whose castling field is plain FEN,
/// X-FEN or Shredder-FEN (`KQkq`, `HFhf`, ...), or a back rank of eight
/// letters from `RNBQK` in either case (`RNBQKBNR`, `bbqnnrkr`).
///
/// # Errors
/// A [`StartError`] saying why the text is not a Chess960 start position:
/// bad back-rank letters or length, wrong pieces, bishops on one colour,
/// king not between the rooks, pawns not home, extra pieces, black not
/// mirroring white, black to move, castling rights missing or wrong, an en
/// passant square, clocks other than `0 1`, or FEN syntax.
pub fn parse(text: &str) -> Result<u32, StartError> {
    parse_start(text, Family::Chess960).map(|s| s.white.scharnagl())
}

/// Read a DFRC start typed by a person or a script and return its index
/// (white + 960 * black).
///
/// Accepted: a FEN as for [`parse`] but with any Chess960 back rank for
/// each side, or the two back ranks, White's first (`RNBQKBNR bbqnnrkr`,
/// also written `RNBQKBNR/bbqnnrkr`); one back rank stands for both sides.
///
/// # Errors
/// As [`parse`], naming the side whose rank breaks a rule.
pub fn parse_dfrc(text: &str) -> Result<u32, StartError> {
    parse_start(text, Family::Dfrc).map(|s| s.index())
}

/// Parse a DFRC number 0..921,599 (surrounding blanks ignored).
///
/// # Errors
/// [`StartError::BadDfrcNumber`] or [`StartError::DfrcOutOfRange`], with
/// the number as typed.
pub fn parse_dfrc_number(text: &str) -> Result<u32, StartError> {
    number_below(text, DFRC_COUNT).map_err(|e| match e {
        NumberError::NotANumber(t) => StartError::BadDfrcNumber(t),
        NumberError::TooLarge(t) => StartError::DfrcOutOfRange(t),
    })
}

/// [`parse`] and [`parse_dfrc`]: a FEN, or back ranks.
fn parse_start(text: &str, family: Family) -> Result<DfrcStart, StartError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let ranks = |w: &str, b: &str| -> Result<DfrcStart, StartError> {
        let all = |s: &str, f: fn(&u8) -> bool| s.bytes().all(|c| f(&c));
        if all(w, u8::is_ascii_lowercase) && all(b, u8::is_ascii_uppercase) {
            return Err(StartError::RanksSwapped {
                first: w.to_owned(),
                second: b.to_owned(),
            });
        }
        Ok(DfrcStart {
            white: parse_back_rank(w)?,
            black: parse_back_rank(b).map_err(blacks)?,
        })
    };
    match (fields.as_slice(), family) {
        ([], _) => Err(StartError::Empty),
        ([word], Family::Dfrc) if word.len() == 17 && word.as_bytes()[8] == b'/' => {
            ranks(&word[..8], &word[9..])
        }
        ([word], Family::Chess960)
            if word.len() == 17
                && word.as_bytes()[8] == b'/'
                && is_rank_text(&word[..8])
                && is_rank_text(&word[9..]) =>
        {
            // The same rank twice, in whatever case (as --dfrc reads it).
            if word[9..].eq_ignore_ascii_case(&word[..8]) {
                ranks(&word[..8], &word[9..])
            } else {
                two_ranks(&word[..8], &word[9..], text)
            }
        }
        ([word], _) if word.contains('/') => Err(StartError::FieldCount(1)),
        ([word], _) => ranks(word, word),
        _ if fields.iter().all(|f| f.bytes().all(|b| b.is_ascii_digit())) => {
            Err(StartError::SeveralNumbers(fields.join(" ")))
        }
        _ if is_rank_text(&fields.concat()) => Err(StartError::SpacedRank {
            typed: fields.join(" "),
            joined: fields.concat(),
        }),
        ([w, b], Family::Dfrc) if !w.contains('/') && !b.contains('/') => ranks(w, b),
        // White's rank and Black's mirror of it: that Chess960 start, typed
        // in full (Black's in either case, as --dfrc reads it: the same
        // rank twice is not two different ones).
        ([w, b], Family::Chess960) if b.eq_ignore_ascii_case(w) => ranks(w, b),
        // Two words, one of them a rank's 8 letters: read as two ranks,
        // each named if it is not one (`RNBQKBNR extra` is no FEN).
        ([w, b], Family::Chess960) if [w, b].iter().any(|r| is_rank_text(r)) => {
            two_ranks(w, b, text)
        }
        _ if fields.len() == 4 || fields.len() == 6 => parse_fen(&fields, family),
        _ => Err(StartError::FieldCount(fields.len())),
    }
}

/// Two back ranks typed where one Chess960 start was asked for: a rank
/// that is not one is named (adding `--dfrc` would not help); two that are
/// make a Double Fischer Random start, which `--dfrc` reads.
fn two_ranks(white: &str, black: &str, text: &str) -> Result<DfrcStart, StartError> {
    parse_back_rank(white)?;
    parse_back_rank(black).map_err(blacks)?;
    Err(StartError::TwoRanks(text.trim().to_owned()))
}

/// Whether `word` looks like a back rank: 8 letters.
fn is_rank_text(word: &str) -> bool {
    word.len() == 8 && word.bytes().all(|b| b.is_ascii_alphabetic())
}

/// Say that a rank error is about Black's rank.
fn blacks(e: StartError) -> StartError {
    match e {
        StartError::Rank(r) => StartError::BlackRankRule(r),
        other => other,
    }
}

/// An 8-letter back rank, case ignored.
fn parse_back_rank(word: &str) -> Result<BackRank, StartError> {
    if word.chars().count() != 8 && !word.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(StartError::NotAPosition(word.to_owned()));
    }
    Ok(word.parse::<BackRank>()?)
}

/// A FEN already split into 4 or 6 fields.
fn parse_fen(fields: &[&str], family: Family) -> Result<DfrcStart, StartError> {
    let fen = fields.join(" ");
    let bad = |reason: String| StartError::Fen {
        fen: fen.clone(),
        reason,
    };
    notation::check_board_field(fields[0]).map_err(|e| bad(e.to_string()))?;
    let parsed = Fen::from_ascii(fen.as_bytes()).map_err(|e| bad(e.to_string()))?;
    let setup = parsed.into_setup();
    if setup.pockets.is_some() || setup.remaining_checks.is_some() || setup.promoted.any() {
        return Err(bad(
            "variant parts (pockets, promoted markers, remaining checks) are not chess".into(),
        ));
    }
    validate_start(&setup, fields.get(5).copied(), family)
}

/// The FEN of start `n` (6 fields) with the castling field in `notation`.
///
/// # Errors
/// [`StartError::OutOfRange`] unless `n < 960`.
pub fn fen(n: u32, notation: CastlingNotation) -> Result<String, StartError> {
    Numbered::Chess960(n).fen(notation)
}

/// The X-FEN of start `n`, e.g. `... w KQkq - 0 1`.
///
/// # Errors
/// [`StartError::OutOfRange`] unless `n < 960`.
pub fn xfen(n: u32) -> Result<String, StartError> {
    fen(n, CastlingNotation::XFen)
}

/// The Shredder-FEN of start `n`, e.g. `... w HAha - 0 1`.
///
/// # Errors
/// [`StartError::OutOfRange`] unless `n < 960`.
pub fn shredder_fen(n: u32) -> Result<String, StartError> {
    fen(n, CastlingNotation::Shredder)
}

/// The random number generator for start positions: ChaCha8 seeded from
/// `seed` when given (the same seed gives the same starts on every
/// platform and with every version of `rand_chacha`, which documents the
/// stream as portable), from the operating system otherwise.
pub fn rng(seed: Option<u64>) -> ChaCha8Rng {
    match seed {
        Some(s) => ChaCha8Rng::seed_from_u64(s),
        None => ChaCha8Rng::from_entropy(),
    }
}

/// A fresh seed from the operating system's entropy, for a draw that
/// should name its seed so that it can be made again.
pub fn fresh_seed() -> u64 {
    rand::random()
}

/// A uniform integer in `0..bound` by rejection sampling of 32-bit words.
///
/// Written here rather than using `Rng::gen_range` because `rand` does not
/// promise that `gen_range` maps a stream to the same values in future
/// versions; with this, a `--seed` keeps naming the same starts. The event
/// draw ([`crate::event`], docs/event.md) publishes this rule as part of its
/// derivation: changing it would change the rounds of every event.
pub(crate) fn below<R: RngCore + ?Sized>(rng: &mut R, bound: u32) -> u32 {
    debug_assert!(bound > 0);
    let bound = u64::from(bound);
    // Largest multiple of `bound` not above 2^32: words at or above it would
    // favour the small residues, so they are drawn again.
    let zone = (1u64 << 32) / bound * bound;
    loop {
        let x = u64::from(rng.next_u32());
        if x < zone {
            return u32::try_from(x % bound).expect("residue < bound <= u32::MAX");
        }
    }
}

/// A uniformly random DFRC index 0..921,599.
pub fn random_dfrc_number<R: RngCore + ?Sized>(rng: &mut R) -> u32 {
    below(rng, DFRC_COUNT)
}

/// A start by family and number: what the CLI, openings files and match
/// runners name (`chess960 #518`, `dfrc #497798`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Numbered {
    /// Chess960 start, Scharnagl number 0..959.
    Chess960(u32),
    /// Double Fischer Random start, index 0..921,599.
    Dfrc(u32),
}

impl Numbered {
    /// The start position.
    ///
    /// # Errors
    /// [`StartError::OutOfRange`] or [`StartError::DfrcOutOfRange`].
    pub fn position(self) -> Result<Chess, StartError> {
        match self {
            Numbered::Chess960(n) => position(n),
            Numbered::Dfrc(n) => dfrc_position(n),
        }
    }

    /// The FEN (6 fields) with the castling field in `style`.
    ///
    /// # Errors
    /// As [`Self::position`].
    pub fn fen(self, style: CastlingNotation) -> Result<String, StartError> {
        let pos = self.position()?;
        Ok(match style {
            CastlingNotation::XFen => notation::xfen(&pos),
            CastlingNotation::Shredder => notation::shredder_fen(&pos),
        })
    }

    /// The family's name (`chess960`, `dfrc`).
    pub fn family(self) -> &'static str {
        match self {
            Numbered::Chess960(_) => "chess960",
            Numbered::Dfrc(_) => "dfrc",
        }
    }

    /// The number within the family.
    pub fn number(self) -> u32 {
        match self {
            Numbered::Chess960(n) | Numbered::Dfrc(n) => n,
        }
    }
}

impl std::fmt::Display for Numbered {
    /// `chess960 #518`, `dfrc #497798`: the `id` of an EPD line.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} #{}", self.family(), self.number())
    }
}

/// One castling move of a start, as shakmaty defines it: where king and
/// rook stand before and after, which squares must be empty and which the
/// king must not pass through attacked. The printable pages draw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Castling {
    /// The side that castles.
    pub color: Color,
    /// `KingSide` is O-O (the h-side rook), `QueenSide` O-O-O (the a-side).
    pub side: CastlingSide,
    /// The king's square before.
    pub king_from: Square,
    /// The rook's square before.
    pub rook_from: Square,
    /// The king's square after (g or c file).
    pub king_to: Square,
    /// The rook's square after (f or d file).
    pub rook_to: Square,
    /// Squares other than the king's and this rook's that must be empty.
    pub empty: Vec<Square>,
    /// Squares the king stands on or crosses, which no enemy piece may attack.
    pub unattacked: Vec<Square>,
}

/// The four castling moves of a start position (White's O-O, O-O-O, then
/// Black's), from shakmaty's castling rules: `Castles::path` for the empty
/// squares, the king's path from its square to its destination for the
/// unattacked ones (what shakmaty's move generator checks).
pub fn castling(pos: &Chess) -> Vec<Castling> {
    let castles = pos.castles();
    let mut out = Vec::new();
    for color in [Color::White, Color::Black] {
        let Some(king_from) = pos.board().king_of(color) else {
            continue;
        };
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let Some(rook_from) = castles.rook(color, side) else {
                continue;
            };
            let king_to = side.king_to(color);
            out.push(Castling {
                color,
                side,
                king_from,
                rook_from,
                king_to,
                rook_to: side.rook_to(color),
                empty: castles.path(color, side).into_iter().collect(),
                unattacked: shakmaty::attacks::between(king_from, king_to)
                    .with(king_from)
                    .with(king_to)
                    .into_iter()
                    .collect(),
            });
        }
    }
    out
}

/// A uniformly random start number 0..959.
pub fn random_number<R: RngCore + ?Sized>(rng: &mut R) -> u32 {
    below(rng, COUNT)
}

/// Draws start numbers without replacement: every run of `size` draws is a
/// uniformly random permutation of `0..size`, so up to `size` draws are
/// all distinct and more draws repeat each start as evenly as possible.
#[derive(Debug, Clone)]
pub struct Deck {
    cards: Vec<u32>,
    left: usize,
}

impl Default for Deck {
    fn default() -> Self {
        Self::new()
    }
}

impl Deck {
    /// A full deck of the 960 Chess960 numbers.
    pub fn new() -> Self {
        Deck::of(COUNT)
    }

    /// A full deck of the numbers `0..size` (921,600 for DFRC).
    pub fn of(size: u32) -> Self {
        Deck {
            cards: (0..size).collect(),
            left: size as usize,
        }
    }

    /// The next number: uniform among those not yet drawn in this run of
    /// 960 (a lazy Fisher-Yates shuffle).
    pub fn draw<R: RngCore + ?Sized>(&mut self, rng: &mut R) -> u32 {
        if self.left == 0 {
            self.left = self.cards.len();
        }
        let left = u32::try_from(self.left).expect("a deck has at most u32::MAX cards");
        let i = below(rng, left) as usize;
        self.left -= 1;
        self.cards.swap(i, self.left);
        self.cards[self.left]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_of_the_classical_start_and_of_a_king_on_b1() {
        let names = |v: &[Square]| {
            v.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let c = castling(&position(518).expect("518"));
        assert_eq!(c.len(), 4);
        // White O-O in classical chess: e1 to g1, h1 to f1.
        assert_eq!((c[0].king_from, c[0].king_to), (Square::E1, Square::G1));
        assert_eq!((c[0].rook_from, c[0].rook_to), (Square::H1, Square::F1));
        assert_eq!(names(&c[0].empty), "f1 g1");
        assert_eq!(names(&c[0].unattacked), "e1 f1 g1");
        // White O-O-O: b1 must be empty too, but the king never crosses it.
        assert_eq!(names(&c[1].empty), "b1 c1 d1");
        assert_eq!(names(&c[1].unattacked), "c1 d1 e1");
        assert_eq!((c[3].color, c[3].rook_from), (Color::Black, Square::A8));
        // RKRNNQBB (959): O-O-O moves the king from b1 to c1 and the rook
        // from a1 to d1, over c1 where the other rook stands.
        let c = castling(&position(959).expect("959"));
        assert_eq!((c[1].king_from, c[1].king_to), (Square::B1, Square::C1));
        assert_eq!((c[1].rook_from, c[1].rook_to), (Square::A1, Square::D1));
        assert_eq!(names(&c[1].empty), "c1 d1");
        assert_eq!(names(&c[1].unattacked), "b1 c1");
    }

    #[test]
    fn anchors_of_the_numbering() {
        assert_eq!(back_rank(518), "RNBQKBNR");
        assert_eq!(back_rank(0), "BBQNNRKR");
        assert_eq!(back_rank(959), "RKRNNQBB");
        assert_eq!(parse("RNBQKBNR"), Ok(518));
        assert_eq!(parse("bbqnnrkr"), Ok(0));
        assert_eq!(parse("RKRNNQBB"), Ok(959));
    }

    #[test]
    fn two_back_ranks_for_one_chess960_start_are_named() {
        for text in [
            "RNBKQBRN brqnknrb",
            "RNBKQBRN/brqnknrb",
            " RNBQKBNR bbqnnrkr ",
        ] {
            assert_eq!(
                parse(text),
                Err(StartError::TwoRanks(text.trim().to_owned())),
                "{text}"
            );
            assert!(parse_dfrc(text).is_ok(), "{text}");
        }
        // The same rank twice, Black's in upper case: that start.
        assert_eq!(parse("RNBQKBNR RNBQKBNR"), Ok(518));
        assert_eq!(parse("RNBQKBNR/RNBQKBNR"), Ok(518));
        assert_eq!(
            parse("RNBQ KBNR"),
            Err(StartError::SpacedRank {
                typed: "RNBQ KBNR".into(),
                joined: "RNBQKBNR".into()
            })
        );
        assert_eq!(
            parse("518  519"),
            Err(StartError::SeveralNumbers("518 519".into()))
        );
        assert_eq!(
            parse_dfrc("1 2 3 4"),
            Err(StartError::SeveralNumbers("1 2 3 4".into()))
        );
        // A word that is not a rank is named, not taken for a DFRC start
        // (which --dfrc would refuse as well) or a FEN of 2 fields.
        for (text, culprit) in [
            ("RNBQKBNR 12345678", "'12345678'"),
            ("RNBQKBNR XXXXXXXX", "'XXXXXXXX' contains 'X'"),
            ("RNBQKBNR/XXXXXXXX", "'XXXXXXXX' contains 'X'"),
            ("RNBQKBNR extra", "'extra' has 5 letters"),
            ("RNBQKBNQ bbqnnrkr", "RNBQKBNQ has the wrong pieces"),
        ] {
            let e = parse(text).expect_err(text).to_string();
            assert!(e.contains(culprit), "{text}: {e}");
            assert!(!e.contains("--dfrc"), "{text}: {e}");
        }
        // A rank and its mirror are the one Chess960 start.
        assert_eq!(parse("RNBQKBNR rnbqkbnr"), Ok(518));
        assert_eq!(parse("RNBQKBNR/rnbqkbnr"), Ok(518));
    }

    #[test]
    fn rank_rules_reach_the_start_errors() {
        let err = |t: &str| parse(t).unwrap_err();
        assert!(matches!(
            err("RNBQKBNN"),
            StartError::Rank(RankError::WrongPieces { .. })
        ));
        assert!(matches!(
            err("RBQBKNNR"),
            StartError::Rank(RankError::BishopsSameColour {
                colour: "light",
                ..
            })
        ));
        assert!(matches!(
            err("BRBQKNNR"),
            StartError::Rank(RankError::BishopsSameColour { colour: "dark", .. })
        ));
        assert!(matches!(
            err("KRBQRBNN"),
            StartError::Rank(RankError::KingNotBetweenRooks { .. })
        ));
        assert!(matches!(
            err("RNBQ"),
            StartError::Rank(RankError::Length { len: 4, .. })
        ));
        assert!(matches!(err("RNB1"), StartError::NotAPosition(_)));
        assert!(matches!(
            err("RNB1KBNR"),
            StartError::Rank(RankError::Letter { letter: '1', .. })
        ));
    }

    #[test]
    fn dfrc_starts_parse_from_ranks_and_fens() {
        let classical = DFRC_STANDARD;
        assert_eq!(parse_dfrc("RNBQKBNR"), Ok(classical));
        assert_eq!(parse_dfrc("RNBQKBNR rnbqkbnr"), Ok(classical));
        assert_eq!(parse_dfrc("RNBQKBNR/bbqnnrkr"), Ok(518));
        assert_eq!(parse_dfrc("BBQNNRKR RNBQKBNR"), Ok(960 * 518));
        assert_eq!(parse_dfrc("BBQNNRKR rnbqkbnr"), Ok(960 * 518));
        // Case that says Black's rank came first is refused, not read in
        // the order given (which named 960 * 518 where 518 was meant).
        for swapped in ["bbqnnrkr RNBQKBNR", "bbqnnrkr/RNBQKBNR"] {
            assert!(
                matches!(parse_dfrc(swapped), Err(StartError::RanksSwapped { .. })),
                "{swapped}"
            );
        }
        for n in [0, 518, 960 * 518, 123_456, DFRC_COUNT - 1] {
            let pos = dfrc_position(n).unwrap();
            let fen = notation::shredder_fen(&pos);
            assert_eq!(parse_dfrc(&fen), Ok(n), "{fen}");
            assert_eq!(parse_dfrc(&notation::xfen(&pos)), Ok(n), "{fen}");
            assert_eq!(dfrc_number(&pos), Some(n));
        }
        // Black's rank is checked with its own error.
        let e = parse_dfrc(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
                .replace("rnbqkbnr/", "rbnbkqnr/")
                .as_str(),
        );
        assert!(
            matches!(
                e,
                Err(StartError::BlackRankRule(
                    RankError::BishopsSameColour { .. }
                ))
            ),
            "{e:?}"
        );
        assert_eq!(
            parse_dfrc_number("921600"),
            Err(StartError::DfrcOutOfRange("921600".into()))
        );
        assert!(matches!(
            parse_dfrc_number("x"),
            Err(StartError::BadDfrcNumber(_))
        ));
        assert_eq!(parse_dfrc_number(" 497798 "), Ok(DFRC_STANDARD));
    }

    #[test]
    fn numbers_parse_and_refuse() {
        assert_eq!(parse_number(" 959 "), Ok(959));
        assert_eq!(parse_number("0"), Ok(0));
        assert_eq!(
            parse_number("960"),
            Err(StartError::OutOfRange("960".into()))
        );
        assert!(matches!(parse_number("-1"), Err(StartError::BadNumber(_))));
        assert!(matches!(parse_number("5x"), Err(StartError::BadNumber(_))));
        assert!(matches!(parse_number(""), Err(StartError::BadNumber(_))));
        assert!(matches!(
            parse_number("99999999999999999999999"),
            Err(StartError::OutOfRange(_))
        ));
    }

    #[test]
    fn below_is_in_range_and_seeded_rng_repeats() {
        let mut a = rng(Some(7));
        let mut b = rng(Some(7));
        for _ in 0..1000 {
            let x = random_number(&mut a);
            assert!(x < COUNT);
            assert_eq!(x, random_number(&mut b));
        }
        let mut r = rng(Some(1));
        assert!((0..100).all(|_| below(&mut r, 1) == 0));
    }

    #[test]
    fn random_numbers_are_uniform() {
        // Chi-square over 96,000 draws (100 expected per start); with 959
        // degrees of freedom the statistic has mean 959 and standard
        // deviation about 44, so 1250 is more than six deviations out.
        let mut r = rng(Some(2024));
        let mut counts = [0u32; COUNT as usize];
        let draws = 96_000;
        for _ in 0..draws {
            counts[random_number(&mut r) as usize] += 1;
        }
        let expected = f64::from(draws) / f64::from(COUNT);
        let chi2: f64 = counts
            .iter()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 1250.0, "chi-square {chi2}");
    }

    #[test]
    fn deck_deals_permutations() {
        let mut r = rng(Some(3));
        let mut deck = Deck::new();
        for _ in 0..3 {
            let mut seen = [false; COUNT as usize];
            for _ in 0..COUNT {
                let n = deck.draw(&mut r) as usize;
                assert!(!seen[n], "start {n} dealt twice in one run");
                seen[n] = true;
            }
        }
    }

    #[test]
    fn writers_use_both_castling_notations() {
        assert_eq!(
            xfen(0).unwrap(),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
        );
        assert_eq!(
            shredder_fen(0).unwrap(),
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
        );
        assert_eq!(xfen(960), Err(StartError::OutOfRange("960".into())));
    }
}
