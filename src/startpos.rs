//! The 960 Chess960 start positions and Scharnagl's numbering (0..959,
//! 518 = RNBQKBNR).
//!
//! Scharnagl numbers a start by the squares of its pieces, placed in this
//! order on white's back rank (files a..h):
//!
//! * `n % 4`: the light-squared bishop on b, d, f or h;
//! * `(n / 4) % 4`: the dark-squared bishop on a, c, e or g;
//! * `(n / 16) % 6`: the queen on the 1st..6th free square;
//! * `n / 96`: the pair of knights on the five squares still free, coded
//!   0..9 as `(1,2) (1,3) (1,4) (1,5) (2,3) (2,4) (2,5) (3,4) (3,5) (4,5)`;
//! * the last three squares hold rook, king, rook in that order.
//!
//! For 518: bishops on f (2) and c (1) give 2 + 4·1 = 6, the queen on the
//! third free square gives 16·2, the knights on the 2nd and 4th of the
//! remaining five give 96·5: 6 + 32 + 480 = 518.
//!
//! The forward direction (number to board) is shakmaty's
//! [`Board::chess960`], which we wrap; the inverse ([`number_of_rank`]) is
//! ours and is checked against shakmaty for all 960 numbers and against the
//! independent table in `perft/chess960_startpos.tsv` by the tests.
//!
//! This module also reads user input ([`parse`]: a FEN or an 8-letter back
//! rank) and refuses anything that is not a start position with the precise
//! reason, writes both FEN dialects ([`fen`]) and draws uniform random
//! starts ([`rng`], [`random_number`], [`Deck`]).

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, File, Piece, Position, Rank, Role,
    Setup, Square,
};

use crate::notation;

/// Number of Chess960 start positions.
pub const COUNT: u32 = 960;
/// Scharnagl number of the classical start position RNBQKBNR.
pub const STANDARD: u32 = 518;

/// The pieces of white's back rank, files a to h.
pub type BackRank = [Role; 8];

/// The ten ways to put two knights on five free squares, in Scharnagl's
/// order (indices into the free squares, left to right).
const KNIGHT_PAIRS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// What a start position is made of, for error messages.
const START_PIECES: &str = "2 rooks, 2 knights, 2 bishops, 1 queen and 1 king";

/// Why a number or a position is not a Chess960 start.
///
/// Every variant's message is one line that names the culprit, because the
/// CLI prints it as is on stderr.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The number is outside 0..959.
    #[error("start number {0} out of range: valid numbers are 0..959")]
    OutOfRange(u64),
    /// The text is not a decimal number.
    #[error("'{0}' is not a start number: valid numbers are 0..959")]
    BadNumber(String),
    /// Nothing was given.
    #[error("no position given: expected a FEN or an 8-letter back rank such as RNBQKBNR")]
    Empty,
    /// One word that is neither a back rank nor a FEN.
    #[error("'{0}' is not a position: expected a FEN or an 8-letter back rank such as RNBQKBNR")]
    NotAPosition(String),
    /// A back rank of letters that is not 8 long.
    #[error("back rank '{text}' has {len} letters, expected 8 (e.g. RNBQKBNR)")]
    BackRankLength {
        /// The text as given.
        text: String,
        /// Its length in characters.
        len: usize,
    },
    /// A back rank with a letter other than R, N, B, Q, K.
    #[error("back rank '{text}' contains '{letter}': only R, N, B, Q and K are allowed")]
    BackRankLetter {
        /// The text as given.
        text: String,
        /// The first offending character.
        letter: char,
    },
    /// The back rank does not hold exactly the eight pieces of a start.
    #[error("back rank {rank} has the wrong pieces ({detail}): a start has {START_PIECES}")]
    WrongPieces {
        /// The back rank, upper case.
        rank: String,
        /// Which piece counts are off, e.g. `3 knights, 1 rook`.
        detail: String,
    },
    /// Both bishops on squares of one colour.
    #[error("back rank {rank}: both bishops stand on {colour} squares, they must be on opposite colours")]
    BishopsSameColour {
        /// The back rank, upper case.
        rank: String,
        /// `light` or `dark`.
        colour: &'static str,
    },
    /// The king is not between the two rooks (castling would be impossible).
    #[error("back rank {rank}: the king must stand between the two rooks")]
    KingNotBetweenRooks {
        /// The back rank, upper case.
        rank: String,
    },
    /// A FEN with a number of fields other than 4 or 6.
    #[error("a start-position FEN has 4 or 6 fields, found {0}")]
    FieldCount(usize),
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
    if n >= COUNT {
        return Err(StartError::OutOfRange(u64::from(n)));
    }
    let board = Board::chess960(n);
    let castling_rights = board.rooks() & (Bitboard::from(Rank::First) | Rank::Eighth);
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

/// The roles on white's back rank of start `n`, files a to h.
///
/// # Errors
/// [`StartError::OutOfRange`] unless `n < 960`.
pub fn back_rank_roles(n: u32) -> Result<BackRank, StartError> {
    if n >= COUNT {
        return Err(StartError::OutOfRange(u64::from(n)));
    }
    let board = Board::chess960(n);
    Ok(std::array::from_fn(|i| {
        board
            .role_at(Square::from_coords(File::ALL[i], Rank::First))
            .expect("Board::chess960 fills the first rank")
    }))
}

/// The back rank of start `n` as eight upper-case letters, e.g. `RNBQKBNR`
/// for 518: the compact name people use for a Chess960 start.
///
/// # Panics
/// If `n >= 960`; validate user input with [`parse_number`] first.
pub fn back_rank(n: u32) -> String {
    match back_rank_roles(n) {
        Ok(rank) => rank_letters(&rank),
        Err(e) => panic!("back_rank: {e}"),
    }
}

/// Upper-case letters of a back rank.
fn rank_letters(rank: &BackRank) -> String {
    rank.iter().map(|r| r.upper_char()).collect()
}

/// The Scharnagl number of a back rank: the inverse of [`back_rank_roles`].
///
/// # Errors
/// [`StartError::WrongPieces`], [`StartError::BishopsSameColour`] or
/// [`StartError::KingNotBetweenRooks`] when the rank is not one of the 960.
pub fn number_of_rank(rank: &BackRank) -> Result<u32, StartError> {
    check_rank(rank)?;
    // Bishops: file a is dark on rank 1, so even files are dark.
    let mut light = 0;
    let mut dark = 0;
    for (file, _) in rank.iter().enumerate().filter(|(_, &r)| r == Role::Bishop) {
        if file % 2 == 0 {
            dark = file / 2;
        } else {
            light = file / 2;
        }
    }
    let no_bishops: Vec<Role> = rank
        .iter()
        .copied()
        .filter(|&r| r != Role::Bishop)
        .collect();
    let queen = no_bishops
        .iter()
        .position(|&r| r == Role::Queen)
        .expect("check_rank found one queen");
    let knights: Vec<usize> = no_bishops
        .iter()
        .filter(|&&r| r != Role::Queen)
        .enumerate()
        .filter(|(_, &r)| r == Role::Knight)
        .map(|(i, _)| i)
        .collect();
    let pair = (knights[0], knights[1]);
    let knight_code = KNIGHT_PAIRS
        .iter()
        .position(|&p| p == pair)
        .expect("two knights on five squares form one of the ten pairs");
    let n = light + 4 * dark + 16 * queen + 96 * knight_code;
    Ok(u32::try_from(n).expect("n < 960"))
}

/// The three rules of a Chess960 back rank: the right pieces, bishops on
/// opposite colours, king between the rooks.
fn check_rank(rank: &BackRank) -> Result<(), StartError> {
    let letters = rank_letters(rank);
    let count = |role: Role| rank.iter().filter(|&&r| r == role).count();
    let wanted = [
        (Role::Rook, 2, "rook"),
        (Role::Knight, 2, "knight"),
        (Role::Bishop, 2, "bishop"),
        (Role::Queen, 1, "queen"),
        (Role::King, 1, "king"),
        (Role::Pawn, 0, "pawn"),
    ];
    let off: Vec<String> = wanted
        .iter()
        .filter(|(role, want, _)| count(*role) != *want)
        .map(|(role, _, name)| {
            let have = count(*role);
            format!("{have} {name}{}", if have == 1 { "" } else { "s" })
        })
        .collect();
    if !off.is_empty() {
        return Err(StartError::WrongPieces {
            rank: letters,
            detail: off.join(", "),
        });
    }
    let bishop_files: Vec<usize> = (0..8).filter(|&i| rank[i] == Role::Bishop).collect();
    if bishop_files[0] % 2 == bishop_files[1] % 2 {
        return Err(StartError::BishopsSameColour {
            rank: letters,
            colour: if bishop_files[0] % 2 == 0 {
                "dark"
            } else {
                "light"
            },
        });
    }
    let rooks: Vec<usize> = (0..8).filter(|&i| rank[i] == Role::Rook).collect();
    let king = (0..8)
        .find(|&i| rank[i] == Role::King)
        .expect("one king counted");
    if !(rooks[0] < king && king < rooks[1]) {
        return Err(StartError::KingNotBetweenRooks { rank: letters });
    }
    Ok(())
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
    validate_with_fullmove_text(setup, None)
}

/// [`validate`], with the fullmove field as typed: shakmaty reads `0` as 1,
/// but a start position says `1`.
fn validate_with_fullmove_text(setup: &Setup, fullmove: Option<&str>) -> Result<u32, StartError> {
    let board = &setup.board;
    let mut white: BackRank = [Role::Pawn; 8];
    for (i, file) in File::ALL.into_iter().enumerate() {
        match board.piece_at(Square::from_coords(file, Rank::First)) {
            Some(Piece {
                color: Color::White,
                role,
            }) if role != Role::Pawn => white[i] = role,
            _ => {
                return Err(StartError::WhiteRank {
                    found: rank_text(board, Rank::First),
                })
            }
        }
    }
    let n = number_of_rank(&white)?;

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

    let mirrored = File::ALL.into_iter().enumerate().all(|(i, file)| {
        board.piece_at(Square::from_coords(file, Rank::Eighth))
            == Some(Piece {
                color: Color::Black,
                role: white[i],
            })
    });
    if !mirrored {
        let letters = rank_letters(&white);
        return Err(StartError::NotMirrored {
            expected: letters.to_ascii_lowercase(),
            white: letters,
            black: rank_text(board, Rank::Eighth),
        });
    }

    if setup.turn == Color::Black {
        return Err(StartError::BlackToMove);
    }

    let rooks = board.rooks() & (Bitboard::from(Rank::First) | Rank::Eighth);
    let correct_fields = || {
        let pos = position(n).expect("n comes from number_of_rank");
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
    Ok(n)
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
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(StartError::BadNumber(t.to_owned()));
    }
    match t.parse::<u64>() {
        Ok(n) if n < u64::from(COUNT) => Ok(u32::try_from(n).expect("n < 960")),
        Ok(n) => Err(StartError::OutOfRange(n)),
        // Only digits, so the only failure is overflow.
        Err(_) => Err(StartError::OutOfRange(u64::MAX)),
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
    let fields: Vec<&str> = text.split_whitespace().collect();
    match fields.as_slice() {
        [] => Err(StartError::Empty),
        [word] if word.contains('/') => Err(StartError::FieldCount(1)),
        [word] => parse_back_rank(word),
        _ if fields.len() == 4 || fields.len() == 6 => parse_fen(&fields),
        _ => Err(StartError::FieldCount(fields.len())),
    }
}

/// An 8-letter back rank, case ignored.
fn parse_back_rank(word: &str) -> Result<u32, StartError> {
    let len = word.chars().count();
    if len != 8 {
        return Err(if word.chars().all(|c| c.is_ascii_alphabetic()) {
            StartError::BackRankLength {
                text: word.to_owned(),
                len,
            }
        } else {
            StartError::NotAPosition(word.to_owned())
        });
    }
    let mut rank: BackRank = [Role::Pawn; 8];
    for (slot, c) in rank.iter_mut().zip(word.chars()) {
        *slot = match Role::from_char(c).filter(|&r| r != Role::Pawn) {
            Some(role) => role,
            None => {
                return Err(StartError::BackRankLetter {
                    text: word.to_owned(),
                    letter: c,
                })
            }
        };
    }
    number_of_rank(&rank)
}

/// A FEN already split into 4 or 6 fields.
fn parse_fen(fields: &[&str]) -> Result<u32, StartError> {
    let fen = fields.join(" ");
    let bad = |reason: String| StartError::Fen {
        fen: fen.clone(),
        reason,
    };
    let parsed = Fen::from_ascii(fen.as_bytes()).map_err(|e| bad(e.to_string()))?;
    let setup = parsed.into_setup();
    if setup.pockets.is_some() || setup.remaining_checks.is_some() || setup.promoted.any() {
        return Err(bad(
            "variant parts (pockets, promoted markers, remaining checks) are not chess".into(),
        ));
    }
    validate_with_fullmove_text(&setup, fields.get(5).copied())
}

/// The FEN of start `n` (6 fields) with the castling field in `notation`.
///
/// # Errors
/// [`StartError::OutOfRange`] unless `n < 960`.
pub fn fen(n: u32, notation: CastlingNotation) -> Result<String, StartError> {
    let pos = position(n)?;
    Ok(match notation {
        CastlingNotation::XFen => notation::xfen(&pos),
        CastlingNotation::Shredder => notation::shredder_fen(&pos),
    })
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

/// A uniform integer in `0..bound` by rejection sampling of 32-bit words.
///
/// Written here rather than using `Rng::gen_range` because `rand` does not
/// promise that `gen_range` maps a stream to the same values in future
/// versions; with this, a `--seed` keeps naming the same starts.
fn below<R: RngCore + ?Sized>(rng: &mut R, bound: u32) -> u32 {
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

/// A uniformly random start number 0..959.
pub fn random_number<R: RngCore + ?Sized>(rng: &mut R) -> u32 {
    below(rng, COUNT)
}

/// Draws start numbers without replacement: every run of 960 draws is a
/// uniformly random permutation of 0..959, so up to 960 draws are all
/// distinct and more draws repeat each start as evenly as possible.
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
    /// A full deck of the 960 numbers.
    pub fn new() -> Self {
        Deck {
            cards: (0..COUNT).collect(),
            left: COUNT as usize,
        }
    }

    /// The next number: uniform among those not yet drawn in this run of
    /// 960 (a lazy Fisher-Yates shuffle).
    pub fn draw<R: RngCore + ?Sized>(&mut self, rng: &mut R) -> u32 {
        if self.left == 0 {
            self.left = self.cards.len();
        }
        let left = u32::try_from(self.left).expect("at most 960 cards");
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
    fn anchors_of_the_numbering() {
        assert_eq!(back_rank(518), "RNBQKBNR");
        assert_eq!(back_rank(0), "BBQNNRKR");
        assert_eq!(back_rank(959), "RKRNNQBB");
        assert_eq!(parse("RNBQKBNR"), Ok(518));
        assert_eq!(parse("bbqnnrkr"), Ok(0));
        assert_eq!(parse("RKRNNQBB"), Ok(959));
    }

    #[test]
    fn worked_example_from_the_numbering_rules() {
        // 518 = 6 + 16 * 2 + 96 * 5: bishop code 6, queen on the third free
        // square, knight pair code 5.
        let rank = back_rank_roles(518).unwrap();
        assert_eq!(number_of_rank(&rank), Ok(6 + 16 * 2 + 96 * 5));
    }

    #[test]
    fn knight_pairs_are_all_pairs_in_order() {
        let mut expected = Vec::new();
        for a in 0..5 {
            for b in a + 1..5 {
                expected.push((a, b));
            }
        }
        assert_eq!(KNIGHT_PAIRS.to_vec(), expected);
    }

    #[test]
    fn rank_rules() {
        let rank = |s: &str| -> BackRank {
            std::array::from_fn(|i| match s.as_bytes()[i] {
                b'R' => Role::Rook,
                b'N' => Role::Knight,
                b'B' => Role::Bishop,
                b'Q' => Role::Queen,
                b'K' => Role::King,
                _ => Role::Pawn,
            })
        };
        assert!(matches!(
            check_rank(&rank("RNBQKBNN")),
            Err(StartError::WrongPieces { .. })
        ));
        assert!(matches!(
            check_rank(&rank("RBQBKNNR")),
            Err(StartError::BishopsSameColour {
                colour: "light",
                ..
            })
        ));
        assert!(matches!(
            check_rank(&rank("BRBQKNNR")),
            Err(StartError::BishopsSameColour { colour: "dark", .. })
        ));
        assert!(matches!(
            check_rank(&rank("KRBQRBNN")),
            Err(StartError::KingNotBetweenRooks { .. })
        ));
        assert_eq!(check_rank(&rank("RNBQKBNR")), Ok(()));
    }

    #[test]
    fn numbers_parse_and_refuse() {
        assert_eq!(parse_number(" 959 "), Ok(959));
        assert_eq!(parse_number("0"), Ok(0));
        assert_eq!(parse_number("960"), Err(StartError::OutOfRange(960)));
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
        assert_eq!(xfen(960), Err(StartError::OutOfRange(960)));
    }
}
