//! A back rank under construction, shared by the procedures that place one
//! piece at a time, and the two corrections several procedures end with.

use shakmaty::Role;

use super::framework::{role_char, square_name};
use crate::backrank::{self, BackRank};
pub use crate::backrank::{bishops_opposite, is_dark, PIECES};

/// Squares a1..h1, each empty or holding a piece. File 0 (a1) is dark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Partial(pub [Option<Role>; 8]);

/// "1st", "2nd", …
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Full English name of a piece.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

impl Partial {
    /// Files still empty, a-side first.
    pub fn vacant(&self) -> Vec<usize> {
        (0..8).filter(|&f| self.0[f].is_none()).collect()
    }

    /// Files of `role`, a-side first.
    pub fn files_of(&self, role: Role) -> Vec<usize> {
        (0..8).filter(|&f| self.0[f] == Some(role)).collect()
    }

    /// A copy with `role` on file `f`.
    pub fn with(&self, f: usize, role: Role) -> Partial {
        let mut p = *self;
        debug_assert!(p.0[f].is_none(), "square taken");
        p.0[f] = Some(role);
        p
    }

    /// Put rook, king, rook on the three empty squares, a-side first — the
    /// last step of every one-piece-at-a-time procedure.
    ///
    /// # Panics
    /// If there are not exactly three empty squares.
    pub fn with_rook_king_rook(&self) -> Partial {
        let v = self.vacant();
        assert_eq!(
            v.len(),
            3,
            "rook, king, rook need exactly three empty squares"
        );
        self.with(v[0], Role::Rook)
            .with(v[1], Role::King)
            .with(v[2], Role::Rook)
    }

    /// The finished back rank, if every square is filled legally.
    pub fn back_rank(&self) -> Option<BackRank> {
        let mut roles = [Role::Pawn; 8];
        for (slot, sq) in roles.iter_mut().zip(self.0) {
            *slot = sq?;
        }
        BackRank::new(roles).ok()
    }

    /// The row as letters with `.` for empty squares, e.g. `..B..B..`.
    pub fn text(&self) -> String {
        self.0.iter().map(|s| s.map_or('.', role_char)).collect()
    }
}

/// The "king between the rooks" correction of Coffin's bag, the circle and
/// the numbered cards: if the king is not between the rooks, it trades
/// places with the nearer rook. Returns the corrected row and a note when
/// something moved.
///
/// The three squares holding K, R, R keep their set; only the middle one gets
/// the king, so each corrected row comes from exactly three rows (KRR, RKR,
/// RRK) — the reason this correction never biases anything.
pub fn king_between_rooks(row: [Role; 8]) -> ([Role; 8], Option<String>) {
    let rooks: Vec<usize> = (0..8).filter(|&f| row[f] == Role::Rook).collect();
    let k = (0..8).find(|&f| row[f] == Role::King).unwrap_or(0);
    let mut out = row;
    let swap_with = if k < rooks[0] {
        rooks[0]
    } else if k > rooks[1] {
        rooks[1]
    } else {
        return (out, None);
    };
    out.swap(k, swap_with);
    (
        out,
        Some(format!(
            "king on {} is not between the rooks: it trades places with the nearer rook on {}",
            square_name(k),
            square_name(swap_with)
        )),
    )
}

/// Row letters, a1 first.
pub fn row_text(row: &[Role; 8]) -> String {
    backrank::letters(row)
}

/// How many of each role a full set has (R, N, B: 2; Q, K: 1).
pub fn full_count(role: Role) -> usize {
    PIECES.iter().filter(|&&r| r == role).count()
}

/// Render a choice table: `1=a1 2=c1 3=e1 4=g1`.
pub fn numbered_squares(files: &[usize]) -> String {
    files
        .iter()
        .enumerate()
        .map(|(i, &f)| format!("{}={}", i + 1, square_name(f)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The 5040 distinguishable orders of the eight pieces (identical rooks,
/// knights and bishops are not told apart), in lexicographic role order.
pub fn distinct_rows() -> Vec<[Role; 8]> {
    fn rec(row: &mut Vec<Role>, left: &mut [(Role, usize)], out: &mut Vec<[Role; 8]>) {
        if row.len() == 8 {
            let mut r = PIECES;
            r.copy_from_slice(row);
            out.push(r);
            return;
        }
        for i in 0..left.len() {
            if left[i].1 == 0 {
                continue;
            }
            left[i].1 -= 1;
            row.push(left[i].0);
            rec(row, left, out);
            row.pop();
            left[i].1 += 1;
        }
    }
    let mut left = [
        (Role::Rook, 2),
        (Role::Knight, 2),
        (Role::Bishop, 2),
        (Role::Queen, 1),
        (Role::King, 1),
    ];
    let mut out = Vec::with_capacity(5040);
    rec(&mut Vec::with_capacity(8), &mut left, &mut out);
    out
}

/// Parse eight piece letters holding exactly the eight back-rank pieces
/// (in any order: the procedures' corrections then apply).
///
/// # Errors
/// A message when the letters are not R, N, B, Q, K or not the full set.
pub fn parse_row(token: &str) -> Result<[Role; 8], String> {
    let roles = backrank::parse_letters(token).map_err(|e| e.to_string())?;
    let off = backrank::wrong_counts(&roles);
    if !off.is_empty() {
        return Err(format!(
            "the row has {}: it must hold two rooks, two knights, two bishops, a queen and a king",
            off.join(", ")
        ));
    }
    Ok(roles)
}
