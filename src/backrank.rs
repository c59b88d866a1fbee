//! The back rank: the one model of a Chess960 start's pieces.
//!
//! A Chess960 start is described by White's back rank (pawns are fixed,
//! Black mirrors White); a Double Fischer Random start by two back ranks,
//! one per side ([`DfrcStart`]). Everything that names, draws, validates
//! or builds a start (start positions, numbering schemes, procedures,
//! perft and the CLI) goes through [`BackRank`].
//!
//! * **Rules** ([`check`]): two rooks with the king between them, two
//!   knights, two bishops on opposite colours, one queen. One validator,
//!   whose errors ([`RankError`]) name the broken rule.
//! * **Letters**: a back rank is written as eight capital letters, a1
//!   first (`RNBQKBNR`); [`letter`] and [`role_of_letter`] are the one
//!   table between roles and letters.
//! * **Scharnagl's numbering** (0..959, 518 = RNBQKBNR), both ways: the
//!   number to the rank is shakmaty's `Board::chess960`, which we wrap;
//!   the rank to the number is Scharnagl's arithmetic below, checked
//!   against shakmaty for all 960 numbers by the tests.
//!
//! Scharnagl numbers a start by placing its pieces in this order on the
//! back rank (files a..h):
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

use std::fmt;
use std::str::FromStr;

use shakmaty::{Board, Color, File, Rank, Role, Square};

/// Number of Chess960 start positions (back ranks).
pub const COUNT: u32 = 960;
/// Scharnagl number of the classical back rank RNBQKBNR.
pub const STANDARD: u32 = 518;
/// Number of Double Fischer Random starts: a back rank for each side.
pub const DFRC_COUNT: u32 = COUNT * COUNT;
/// DFRC index of the classical start: 518 + 960 * 518.
pub const DFRC_STANDARD: u32 = STANDARD + COUNT * STANDARD;

/// The eight back-rank pieces, as in the classical start.
pub const PIECES: [Role; 8] = [
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::Queen,
    Role::King,
    Role::Bishop,
    Role::Knight,
    Role::Rook,
];

/// What a start position's back rank is made of, for error messages.
const PIECES_TEXT: &str = "2 rooks, 2 knights, 2 bishops, 1 queen and 1 king";

/// The capital letter of a role (`N` for knight).
pub fn letter(role: Role) -> char {
    role.upper_char()
}

/// The back-rank role of a letter (either case); `None` for a pawn or
/// anything that is not a piece letter.
pub fn role_of_letter(c: char) -> Option<Role> {
    Role::from_char(c).filter(|&r| r != Role::Pawn)
}

/// Eight roles as capital letters, a1 first.
pub fn letters(roles: &[Role; 8]) -> String {
    roles.iter().map(|&r| letter(r)).collect()
}

/// Why eight squares are not a Chess960 back rank. Each message is one
/// line that names the culprit (the CLI prints it as it is).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RankError {
    /// Letters, but not eight of them.
    #[error("back rank '{text}' has {len} letters, expected 8 (e.g. RNBQKBNR)")]
    Length {
        /// The text as given.
        text: String,
        /// Its length in characters.
        len: usize,
    },
    /// A letter other than R, N, B, Q, K.
    #[error("back rank '{text}' contains '{letter}': only R, N, B, Q and K are allowed")]
    Letter {
        /// The text as given.
        text: String,
        /// The first offending character.
        letter: char,
    },
    /// Not exactly the eight pieces of a start.
    #[error("back rank {rank} has the wrong pieces ({detail}): a start has {PIECES_TEXT}")]
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
}

/// Files (0 = a) holding `role`, a-side first.
fn files_of(roles: &[Role; 8], role: Role) -> Vec<usize> {
    (0..8).filter(|&f| roles[f] == role).collect()
}

/// Whether file `f` of the first rank is a dark square (a1, c1, e1, g1).
pub fn is_dark(f: usize) -> bool {
    f.is_multiple_of(2)
}

/// The piece counts of `roles` that differ from a start's, e.g.
/// `3 knights, 1 rook`; empty when the pieces are right.
pub fn wrong_counts(roles: &[Role; 8]) -> Vec<String> {
    let count = |role: Role| roles.iter().filter(|&&r| r == role).count();
    [
        Role::Rook,
        Role::Knight,
        Role::Bishop,
        Role::Queen,
        Role::King,
        Role::Pawn,
    ]
    .into_iter()
    .filter(|&role| count(role) != PIECES.iter().filter(|&&r| r == role).count())
    .map(|role| {
        let have = count(role);
        format!("{have} {role:?}{}", if have == 1 { "" } else { "s" }).to_ascii_lowercase()
    })
    .collect()
}

/// Whether the two bishops of `roles` stand on opposite colours.
pub fn bishops_opposite(roles: &[Role; 8]) -> bool {
    let b = files_of(roles, Role::Bishop);
    b.len() == 2 && is_dark(b[0]) != is_dark(b[1])
}

/// Whether the king of `roles` stands between its two rooks.
pub fn king_between_rooks(roles: &[Role; 8]) -> bool {
    let r = files_of(roles, Role::Rook);
    let k = files_of(roles, Role::King);
    r.len() == 2 && k.len() == 1 && r[0] < k[0] && k[0] < r[1]
}

/// The Chess960 rules of a back rank, checked in this order: the right
/// pieces, bishops on opposite colours, king between the rooks.
///
/// # Errors
/// The [`RankError`] of the first rule broken.
pub fn check(roles: &[Role; 8]) -> Result<(), RankError> {
    let rank = letters(roles);
    let off = wrong_counts(roles);
    if !off.is_empty() {
        return Err(RankError::WrongPieces {
            rank,
            detail: off.join(", "),
        });
    }
    if !bishops_opposite(roles) {
        let dark = is_dark(files_of(roles, Role::Bishop)[0]);
        return Err(RankError::BishopsSameColour {
            rank,
            colour: if dark { "dark" } else { "light" },
        });
    }
    if !king_between_rooks(roles) {
        return Err(RankError::KingNotBetweenRooks { rank });
    }
    Ok(())
}

/// Eight piece letters (either case), a1 first, read into roles without
/// checking the rules.
///
/// # Errors
/// [`RankError::Length`] or [`RankError::Letter`].
pub fn parse_letters(text: &str) -> Result<[Role; 8], RankError> {
    let word = text.trim();
    let len = word.chars().count();
    if len != 8 {
        return Err(RankError::Length {
            text: word.to_owned(),
            len,
        });
    }
    let mut roles = [Role::Pawn; 8];
    for (slot, c) in roles.iter_mut().zip(word.chars()) {
        *slot = role_of_letter(c).ok_or_else(|| RankError::Letter {
            text: word.to_owned(),
            letter: c,
        })?;
    }
    Ok(roles)
}

/// A Chess960 back rank, a1 to h1. Only the 960 legal arrangements can be
/// built, so every value is a start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BackRank([Role; 8]);

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

impl BackRank {
    /// Build from eight roles, a1 first.
    ///
    /// # Errors
    /// The [`RankError`] of the first rule broken (see [`check`]).
    pub fn new(roles: [Role; 8]) -> Result<BackRank, RankError> {
        check(&roles)?;
        Ok(BackRank(roles))
    }

    /// The back rank of Scharnagl number `n`, or `None` unless `n < 960`.
    pub fn from_scharnagl(n: u32) -> Option<BackRank> {
        (n < COUNT).then(|| {
            BackRank::from_board(&Board::chess960(n))
                .expect("shakmaty's Chess960 boards have legal back ranks")
        })
    }

    /// Every back rank, in Scharnagl order.
    pub fn all() -> impl Iterator<Item = BackRank> {
        (0..COUNT).filter_map(BackRank::from_scharnagl)
    }

    /// The roles from a1 to h1.
    pub fn roles(&self) -> [Role; 8] {
        self.0
    }

    /// The Scharnagl number (0..959).
    pub fn scharnagl(&self) -> u32 {
        let roles = &self.0;
        let mut light = 0;
        let mut dark = 0;
        for f in files_of(roles, Role::Bishop) {
            if is_dark(f) {
                dark = f / 2;
            } else {
                light = f / 2;
            }
        }
        let six: Vec<Role> = roles
            .iter()
            .copied()
            .filter(|&r| r != Role::Bishop)
            .collect();
        let queen = six.iter().position(|&r| r == Role::Queen).unwrap_or(0);
        let knights: Vec<usize> = six
            .iter()
            .filter(|&&r| r != Role::Queen)
            .enumerate()
            .filter(|(_, &r)| r == Role::Knight)
            .map(|(i, _)| i)
            .collect();
        let pair = KNIGHT_PAIRS
            .iter()
            .position(|&p| p == (knights[0], knights[1]))
            .unwrap_or(0);
        (light + 4 * dark + 16 * queen + 96 * pair) as u32
    }

    /// Read White's back rank off rank 1 of `board` (nothing else is
    /// looked at); `None` unless it holds a Chess960 back rank of white
    /// pieces.
    pub fn from_board(board: &Board) -> Option<BackRank> {
        BackRank::from_rank(board, Color::White)
    }

    /// Read `color`'s back rank (rank 1 for White, rank 8 for Black).
    pub fn from_rank(board: &Board, color: Color) -> Option<BackRank> {
        let rank = color.fold_wb(Rank::First, Rank::Eighth);
        let mut roles = [Role::Pawn; 8];
        for (i, slot) in roles.iter_mut().enumerate() {
            let piece = board.piece_at(Square::from_coords(File::new(i as u32), rank))?;
            if piece.color != color {
                return None;
            }
            *slot = piece.role;
        }
        BackRank::new(roles).ok()
    }

    /// The Chess960 start board: this rank for White, pawns on ranks 2 and
    /// 7, Black mirrored on rank 8.
    pub fn board(&self) -> Board {
        DfrcStart {
            white: *self,
            black: *self,
        }
        .board()
    }
}

impl fmt::Display for BackRank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&letters(&self.0))
    }
}

impl FromStr for BackRank {
    type Err = RankError;

    /// Eight letters from `RNBQK` (either case), a1 first, e.g. `RNBQKBNR`.
    fn from_str(s: &str) -> Result<BackRank, RankError> {
        BackRank::new(parse_letters(s)?)
    }
}

/// A Double Fischer Random start: White and Black each have their own
/// Chess960 back rank. Its index is `white + 960 * black` (Scharnagl
/// numbers), the numbering engines use for `position dfrc N`; a Chess960
/// start is the DFRC start whose two ranks agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DfrcStart {
    /// White's back rank (rank 1).
    pub white: BackRank,
    /// Black's back rank (rank 8, read from a8 to h8).
    pub black: BackRank,
}

impl DfrcStart {
    /// The start of DFRC index `n`, or `None` unless `n < 921,600`.
    pub fn from_index(n: u32) -> Option<DfrcStart> {
        if n >= DFRC_COUNT {
            return None;
        }
        Some(DfrcStart {
            white: BackRank::from_scharnagl(n % COUNT)?,
            black: BackRank::from_scharnagl(n / COUNT)?,
        })
    }

    /// The DFRC index: `white + 960 * black`.
    pub fn index(&self) -> u32 {
        self.white.scharnagl() + COUNT * self.black.scharnagl()
    }

    /// Whether both sides have the same back rank (a Chess960 start).
    pub fn is_chess960(&self) -> bool {
        self.white == self.black
    }

    /// The start board: each side's rank on its first rank, pawns on
    /// ranks 2 and 7.
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        for i in 0..8 {
            let file = File::new(i as u32);
            let at = |rank| Square::from_coords(file, rank);
            board.set_piece_at(at(Rank::First), self.white.0[i].of(Color::White));
            board.set_piece_at(at(Rank::Second), Role::Pawn.of(Color::White));
            board.set_piece_at(at(Rank::Seventh), Role::Pawn.of(Color::Black));
            board.set_piece_at(at(Rank::Eighth), self.black.0[i].of(Color::Black));
        }
        board
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scharnagl_both_ways_agrees_with_shakmaty() {
        for n in 0..COUNT {
            let rank = BackRank::from_scharnagl(n).expect("in range");
            assert_eq!(rank.scharnagl(), n);
            assert_eq!(rank.board(), Board::chess960(n), "{n}");
        }
        assert_eq!(
            BackRank::from_scharnagl(STANDARD).map(|r| r.to_string()),
            Some("RNBQKBNR".to_owned())
        );
        assert_eq!(BackRank::from_scharnagl(COUNT), None);
    }

    #[test]
    fn the_validator_names_the_broken_rule() {
        let err = |t: &str| t.parse::<BackRank>().unwrap_err().to_string();
        assert!(err("RNBQKBN").contains("7 letters"));
        assert!(err("RNBQKBNX").contains("'X'"));
        assert!(err("RNBQKBNP").contains("'P'"));
        assert!(
            err("RNNQKBNR").contains("3 knights, 1 bishop"),
            "{}",
            err("RNNQKBNR")
        );
        assert!(err("RBNBKQNR").contains("both bishops stand on light"));
        assert!(err("KRNBBQNR").contains("between the two rooks"));
        assert!(
            err("KRBNNBQR").contains("between the two rooks"),
            "{}",
            err("KRBNNBQR")
        );
        assert_eq!(
            "rnbqkbnr".parse::<BackRank>().map(|r| r.scharnagl()),
            Ok(518)
        );
    }

    #[test]
    fn dfrc_index_round_trips_at_the_corners() {
        for n in [0, 1, 959, 960, DFRC_STANDARD, DFRC_COUNT - 1] {
            let s = DfrcStart::from_index(n).expect("in range");
            assert_eq!(s.index(), n);
        }
        assert!(DfrcStart::from_index(DFRC_STANDARD).is_some_and(|s| s.is_chess960()));
        assert_eq!(DfrcStart::from_index(DFRC_COUNT), None);
        assert_eq!(DfrcStart::from_index(u32::MAX), None);
    }
}
