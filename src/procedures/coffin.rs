//! David J. Coffin's bag of pieces (the survey and the Chess Variant Pages procedure, full text in the latter).
//!
//! 1. Draw the eight white pieces from a bag one by one onto a1, b1, …, h1.
//! 2. If the bishops are on the same colour, look at the pairs a1-b1, c1-d1
//!    and e1-f1 and swap the two pieces of the leftmost pair that contains a
//!    bishop.
//! 3. If the king is not between his rooks, swap him with the closer rook.
//!
//! Every one of the 5040 distinguishable draw orders is equally likely. The
//! bishop swap sends each same-colour row to an opposite-colour row whose
//! bishops are in different pairs, so rows with the bishops together in a
//! pair (a1-b1, c1-d1, e1-f1, g1-h1) have one source and all others two: the
//! source's "half the probability" is exact (1/1680 against 1/840).

use shakmaty::Role;

use super::framework::{
    parse_role, role_char, square_name, Effect, Outcome, Procedure, Request, Status,
};
use super::rank::{
    bishops_opposite, full_count, is_dark, king_between_rooks, role_name, row_text, PIECES,
};
use crate::numbering::BackRank;

/// The procedure (no parameters).
#[derive(Debug, Clone, Copy, Default)]
pub struct CoffinBag;

/// The pieces drawn so far, a1 first.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// Pieces drawn, in order.
    pub drawn: Vec<Role>,
}

/// The printable card.
pub const CARD: &str = "\
COFFIN'S BAG — the eight white pieces in a bag (the survey, the Chess Variant Pages procedure)
 1. Draw the pieces one by one and put them on a1, b1, c1, ... h1 in order.
 2. If both bishops stand on squares of the same colour, look at the pairs
    a1-b1, c1-d1, e1-f1: swap the two pieces of the leftmost pair that
    contains a bishop.
 3. If the king is not between the rooks, swap him with the closer rook.
Black mirrors White.

8 draws. NOT uniform: positions with both bishops in one of the pairs a1-b1,
c1-d1, e1-f1, g1-h1 are exactly half as likely (1/1680) as the others (1/840).
";

/// How to type this procedure's outcomes to `roll` (not on the printed card).
pub const TYPING: &str = "\
Type the draws as piece letters, e.g. R N B Q K B N R or RNBQKBNR.
";

fn remaining(drawn: &[Role]) -> Vec<(Role, usize)> {
    [
        Role::Rook,
        Role::Knight,
        Role::Bishop,
        Role::Queen,
        Role::King,
    ]
    .into_iter()
    .map(|r| (r, full_count(r) - drawn.iter().filter(|&&d| d == r).count()))
    .filter(|&(_, n)| n > 0)
    .collect()
}

/// Coffin's two corrections applied to a full row, with a note per change.
pub fn corrected(row: [Role; 8]) -> ([Role; 8], Vec<String>) {
    let mut row = row;
    let mut notes = Vec::new();
    if !bishops_opposite(&row) {
        let pair = [(0usize, 1usize), (2, 3), (4, 5)]
            .into_iter()
            .find(|&(a, b)| row[a] == Role::Bishop || row[b] == Role::Bishop)
            .expect("two same-coloured bishops leave one of them left of g1");
        let first = (0..8).find(|&f| row[f] == Role::Bishop).unwrap_or(0);
        let colour = if is_dark(first) { "dark" } else { "light" };
        row.swap(pair.0, pair.1);
        notes.push(format!(
            "both bishops on {colour} squares: swap {}-{}",
            square_name(pair.0),
            square_name(pair.1)
        ));
    }
    let (row, king_note) = king_between_rooks(row);
    notes.extend(king_note);
    (row, notes)
}

impl Procedure for CoffinBag {
    type State = State;

    fn initial(&self) -> State {
        State::default()
    }

    fn status(&self, s: &State) -> Status {
        if s.drawn.len() == 8 {
            let mut row = PIECES;
            row.copy_from_slice(&s.drawn);
            let (row, _) = corrected(row);
            let rank = BackRank::new(row).expect("Coffin's corrections give a legal rank");
            return Status::Done(rank);
        }
        let left = remaining(&s.drawn)
            .into_iter()
            .map(|(r, n)| format!("{n}{}", role_char(r)))
            .collect::<Vec<_>>()
            .join(" ");
        Status::Need(Request {
            action: format!(
                "draw a piece from the bag (draw {} of 8; left: {left})",
                s.drawn.len() + 1
            ),
            decides: format!("the piece on {}", square_name(s.drawn.len())),
        })
    }

    fn outcomes(&self, s: &State) -> Vec<(Outcome, u64)> {
        if s.drawn.len() == 8 {
            return Vec::new();
        }
        remaining(&s.drawn)
            .into_iter()
            .map(|(r, n)| (Outcome::Piece(r), n as u64))
            .collect()
    }

    /// Words are read letter by letter ([`Procedure::split`]).
    fn units(&self, word: &str) -> Vec<String> {
        word.chars().map(String::from).collect()
    }

    fn split(&self, token: &str) -> Vec<String> {
        split_letters(token)
    }

    fn parse(&self, _s: &State, token: &str) -> Result<Outcome, String> {
        let mut chars = token.trim().chars();
        match (chars.next().and_then(parse_role), chars.next()) {
            (Some(r), None) => Ok(Outcome::Piece(r)),
            _ => Err("expected a piece letter R, N, B, Q or K".into()),
        }
    }

    fn apply(&self, s: &State, o: &Outcome) -> Result<Effect<State>, String> {
        let Outcome::Piece(role) = *o else {
            return Err("expected a piece".into());
        };
        if s.drawn.len() == 8 {
            return Err("the bag is empty".into());
        }
        if !remaining(&s.drawn).iter().any(|&(r, _)| r == role) {
            return Err(format!("no {} left in the bag", role_name(role)));
        }
        let mut next = s.clone();
        next.drawn.push(role);
        let mut note = format!("{} on {}", role_name(role), square_name(s.drawn.len()));
        if next.drawn.len() == 8 {
            let mut row = PIECES;
            row.copy_from_slice(&next.drawn);
            let (fixed, notes) = corrected(row);
            note.push_str(&format!("; drawn row {}", row_text(&row)));
            for n in notes {
                note.push_str("; ");
                note.push_str(&n);
            }
            note.push_str(&format!(" -> {}", row_text(&fixed)));
        }
        Ok(Effect::Next(next, note))
    }
}

/// Split a word made only of piece letters into one token per letter, so
/// `RNBQKBNR` can be typed instead of eight separate letters.
pub fn split_letters(token: &str) -> Vec<String> {
    let t = token.trim();
    if t.chars().count() > 1 && t.chars().all(|c| parse_role(c).is_some()) {
        t.chars().map(|c| c.to_string()).collect()
    } else {
        vec![t.to_string()]
    }
}
