//! The schemes that number the 960 back ranks.
//!
//! A Chess960 start position is fully described by White's back rank (Black
//! mirrors it, pawns are fixed), so this module numbers
//! back ranks ([`BackRank`]). Three numbering schemes are in
//! use at clubs ("Chess960 Enumbering Scheme"):
//!
//! * `scharnagl` — 0..959, Reinhard Scharnagl's scheme, 518 = RNBQKBNR. It is
//!   the project's canonical number everywhere else.
//! * `scharnagl-1` — 1..960, the same scheme for people who count from one.
//!   Scharnagl's note: reduce modulo 960, so 960 stands for position 0 and all
//!   other numbers are unchanged.
//! * `fritz` — 1..960, the numbering of the program Fritz 9 (standard = 359).
//!   It looks at the bishops first (same bishop code as Scharnagl), then the
//!   two knights among the six remaining squares, then the queen among the
//!   four left: `fritz = 1 + bishops + 16 * knights + 240 * queen`, where the
//!   15 knight patterns are listed "alphabetically with `-` last" (`NN----`,
//!   `N-N---`, …, `----NN`). The source's table lost its hyphens; this rule is
//!   rebuilt from its text and checked against every entry that survived
//!   (tests/procedures.rs).
//!
//! Scharnagl's own arithmetic (bishop code + 16 × queen + 96 × N5N code)
//! lives with the back rank ([`crate::backrank`]); Fritz's is here.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use shakmaty::Role;

use crate::backrank::RankError;
pub use crate::backrank::{BackRank, COUNT};

/// Why a back rank, a number or a scheme name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NumberingError {
    /// The number is outside the scheme's range.
    #[error("{scheme} number {number} out of range: valid numbers are {lo}..{hi}")]
    OutOfRange {
        /// Scheme name as typed on the command line.
        scheme: &'static str,
        /// The refused number.
        number: i64,
        /// Smallest valid number.
        lo: u32,
        /// Largest valid number.
        hi: u32,
    },
    /// Text that is not eight piece letters forming a Chess960 back rank.
    #[error(transparent)]
    BadBackRank(#[from] RankError),
    /// Unknown scheme name.
    #[error("unknown numbering scheme '{0}': valid schemes are scharnagl, scharnagl-1, fritz")]
    UnknownScheme(String),
}

/// Index of the pair `(i, j)`, `i < j < n`, in lexicographic order: the order
/// of both Scharnagl's N5N table (n = 5) and Fritz's knight table (n = 6),
/// i.e. the patterns of two `N` among `-` listed with `N` before `-`.
fn pair_index(i: usize, j: usize, n: usize) -> usize {
    debug_assert!(i < j && j < n);
    // Pairs starting with a smaller first element come first.
    let before: usize = (0..i).map(|a| n - 1 - a).sum();
    before + (j - i - 1)
}

/// Inverse of [`pair_index`].
fn pair_from_index(mut idx: usize, n: usize) -> (usize, usize) {
    for i in 0..n {
        let row = n - 1 - i;
        if idx < row {
            return (i, i + 1 + idx);
        }
        idx -= row;
    }
    unreachable!("pair index out of range")
}

/// Bishop code shared by Scharnagl and Fritz: light bishop index (b, d, f, h
/// = 0..3) plus 4 × dark bishop index (a, c, e, g = 0..3). Standard = 6.
fn bishop_code(roles: &[Role; 8]) -> u32 {
    let mut code = 0;
    for (i, &r) in roles.iter().enumerate() {
        if r == Role::Bishop {
            if i % 2 == 1 {
                code += (i as u32 - 1) / 2;
            } else {
                code += 4 * (i as u32 / 2);
            }
        }
    }
    code
}

/// The six pieces left when the bishops are skipped, a-side first.
fn without_bishops(roles: &[Role; 8]) -> Vec<Role> {
    roles
        .iter()
        .copied()
        .filter(|&r| r != Role::Bishop)
        .collect()
}

/// Fritz 9: 1 + bishop code + 16 × knight pattern among the six non-bishop
/// squares + 240 × queen's place among the four squares left.
fn fritz_arithmetic(rank: &BackRank) -> u32 {
    let roles = rank.roles();
    let six = without_bishops(&roles);
    let n: Vec<usize> = (0..6).filter(|&i| six[i] == Role::Knight).collect();
    let four: Vec<Role> = six.iter().copied().filter(|&r| r != Role::Knight).collect();
    let queen = four.iter().position(|&r| r == Role::Queen).unwrap_or(0);
    1 + bishop_code(&roles) + 16 * pair_index(n[0], n[1], 6) as u32 + 240 * queen as u32
}

/// Build the back rank for Fritz number `f` (1..=960) by the inverse
/// arithmetic (subtract 1, divide by 16, then by 15).
fn fritz_back_rank(f: u32) -> BackRank {
    let m = f - 1;
    let code = m % 16;
    let knights = (m / 16) % 15;
    let queen = (m / 16) / 15;
    let light = 2 * (code % 4) as usize + 1;
    let dark = 2 * (code / 4) as usize;
    let mut slots: [Option<Role>; 8] = [None; 8];
    slots[light] = Some(Role::Bishop);
    slots[dark] = Some(Role::Bishop);
    let free: Vec<usize> = (0..8).filter(|&i| slots[i].is_none()).collect();
    let (a, b) = pair_from_index(knights as usize, 6);
    slots[free[a]] = Some(Role::Knight);
    slots[free[b]] = Some(Role::Knight);
    let free: Vec<usize> = (0..8).filter(|&i| slots[i].is_none()).collect();
    slots[free[queen as usize]] = Some(Role::Queen);
    let free: Vec<usize> = (0..8).filter(|&i| slots[i].is_none()).collect();
    slots[free[0]] = Some(Role::Rook);
    slots[free[1]] = Some(Role::King);
    slots[free[2]] = Some(Role::Rook);
    let roles = slots.map(|s| s.unwrap_or(Role::Pawn));
    BackRank::new(roles).expect("the Fritz arithmetic always yields a legal back rank")
}

struct Table {
    by_number: Vec<BackRank>,
    fritz_to_scharnagl: Vec<u32>,
}

/// All 960 back ranks in Scharnagl order, plus the Fritz permutation;
/// built once.
fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let by_number: Vec<BackRank> = BackRank::all().collect();
        let mut fritz_to_scharnagl = vec![0; COUNT as usize + 1];
        for f in 1..=COUNT {
            fritz_to_scharnagl[f as usize] = fritz_back_rank(f).scharnagl();
        }
        Table {
            by_number,
            fritz_to_scharnagl,
        }
    })
}

/// All 960 back ranks, indexed by Scharnagl number.
pub fn all_back_ranks() -> &'static [BackRank] {
    &table().by_number
}

/// A numbering scheme for the 960 start positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// Scharnagl, 0..959, 518 = RNBQKBNR (the default).
    Scharnagl,
    /// Scharnagl counted 1..960: 960 stands for 0, others unchanged.
    ScharnaglOne,
    /// Fritz 9, 1..960, 359 = RNBQKBNR.
    Fritz,
}

impl Scheme {
    /// Every scheme, in the order they are listed to users.
    pub const ALL: [Scheme; 3] = [Scheme::Scharnagl, Scheme::ScharnaglOne, Scheme::Fritz];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Scharnagl => "scharnagl",
            Scheme::ScharnaglOne => "scharnagl-1",
            Scheme::Fritz => "fritz",
        }
    }

    /// Smallest and largest valid number.
    pub fn range(self) -> (u32, u32) {
        match self {
            Scheme::Scharnagl => (0, 959),
            Scheme::ScharnaglOne | Scheme::Fritz => (1, 960),
        }
    }

    fn number_of_scharnagl(self, n: u32) -> u32 {
        match self {
            Scheme::Scharnagl => n,
            Scheme::ScharnaglOne => {
                if n == 0 {
                    COUNT
                } else {
                    n
                }
            }
            Scheme::Fritz => fritz_arithmetic(&table().by_number[n as usize]),
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scheme {
    type Err = NumberingError;

    fn from_str(s: &str) -> Result<Scheme, NumberingError> {
        let lower = s.trim().to_ascii_lowercase();
        Scheme::ALL
            .into_iter()
            .find(|sc| sc.name() == lower)
            .ok_or_else(|| NumberingError::UnknownScheme(s.to_string()))
    }
}

impl BackRank {
    /// This back rank's number in `scheme`.
    pub fn number_in(&self, scheme: Scheme) -> u32 {
        scheme.number_of_scharnagl(self.scharnagl())
    }
}

/// The back rank of Scharnagl number `n`.
///
/// # Errors
/// [`NumberingError::OutOfRange`] unless `n < 960`.
pub fn back_rank(n: u32) -> Result<BackRank, NumberingError> {
    BackRank::from_scharnagl(n).ok_or_else(|| out_of_range(Scheme::Scharnagl, i64::from(n)))
}

fn out_of_range(scheme: Scheme, number: i64) -> NumberingError {
    let (lo, hi) = scheme.range();
    NumberingError::OutOfRange {
        scheme: scheme.name(),
        number,
        lo,
        hi,
    }
}

/// Convert a Scharnagl number (0..959) to `scheme`.
///
/// # Errors
/// [`NumberingError::OutOfRange`] unless `scharnagl < 960`.
pub fn to_scheme(scharnagl: u32, scheme: Scheme) -> Result<u32, NumberingError> {
    if scharnagl >= COUNT {
        return Err(out_of_range(Scheme::Scharnagl, i64::from(scharnagl)));
    }
    Ok(scheme.number_of_scharnagl(scharnagl))
}

/// Convert a number in `scheme` to the Scharnagl number (0..959).
///
/// # Errors
/// [`NumberingError::OutOfRange`] with the scheme's valid range.
pub fn from_scheme(number: i64, scheme: Scheme) -> Result<u32, NumberingError> {
    let (lo, hi) = scheme.range();
    if number < i64::from(lo) || number > i64::from(hi) {
        return Err(out_of_range(scheme, number));
    }
    let n = number as u32;
    Ok(match scheme {
        Scheme::Scharnagl => n,
        Scheme::ScharnaglOne => n % COUNT,
        Scheme::Fritz => table().fritz_to_scharnagl[n as usize],
    })
}

/// The NQ-skeleton of a back rank as the source prints it: bishops skipped,
/// king and rooks written as `-` (e.g. `-NQ-N-` for RNBQKBNR).
pub fn nq_skeleton(rank: &BackRank) -> String {
    without_bishops(&rank.roles())
        .into_iter()
        .map(|r| match r {
            Role::Knight => 'N',
            Role::Queen => 'Q',
            _ => '-',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pair_index_round_trips() {
        for n in [5, 6] {
            let mut expected = 0;
            for i in 0..n {
                for j in i + 1..n {
                    assert_eq!(pair_index(i, j, n), expected);
                    assert_eq!(pair_from_index(expected, n), (i, j));
                    expected += 1;
                }
            }
            assert_eq!(expected, n * (n - 1) / 2);
        }
    }
}
