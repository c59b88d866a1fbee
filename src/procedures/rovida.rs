//! Roberto Rovida's die procedure without re-rolls (the Chess960 starting-position survey) —
//! RECONSTRUCTED.
//!
//! The seed keeps only the rules: "when each piece is placed, there will be
//! one, two, three, or six possible spaces for it. If one, there is no need to
//! roll a die; if two, assign them the ranges 1-3 and 4-6; if three, assign
//! them the ranges 1-2, 3-4, and 5-6", and that it "uses fewer die rolls
//! (5-6)". The list of steps was lost.
//!
//! Reconstruction. A placement's "possible spaces" are the empty squares on
//! which that piece can still stand in some legal start position. We searched
//! every order of placing the eight pieces, where a piece may be named by
//! kind, by colour (dark/light bishop, the bishop on the king's colour or the
//! other one), by side (a-side/h-side rook or knight, the rook on the king's
//! short or long side); a piece named by the king's side or colour is named
//! only once the king stands, since a person at the board cannot find the
//! king's short side before the king is on it. Only one family of orders
//! keeps every placement at 1, 2, 3 or 6 possible spaces in every case: king
//! first (b1–g1, six spaces), then the rook on the king's short side, then
//! the queen (six empty squares), then the bishop on the king's colour, then
//! one knight named by its side; the rest in any order. (The a-side and
//! h-side rooks also have six squares on an empty rank, but every order
//! that starts with one meets another count later.) We use:
//!
//! 1. King on b1–g1 (6 spaces).
//! 2. The rook on the king's short side: a-side if the king is on b1–d1,
//!    h-side if on e1–g1 (1, 2 or 3 spaces: the empty squares between king
//!    and corner).
//! 3. Queen on any of the six empty squares.
//! 4. The bishop on the king's colour (1–3 spaces).
//! 5. The a-side knight (the one that will stand nearer a1).
//! 6. The h-side knight.
//! 7. The other bishop.
//! 8. The last rook (always one space).
//!
//! In every family member the number of rolls is 4 to 7 (not the source's
//! "5-6"), and no such procedure can be uniform: each position's probability
//! is a product of 1/2, 1/3 and 1/6, which can never be 1/960 = 1/(2^6·3·5).

use std::sync::OnceLock;

use shakmaty::Role;

use super::bodlaender::{all_faces, face_units, parse_face, split_faces};
use super::framework::{square_name, Effect, Outcome, Procedure, Request, Status};
use super::rank::{is_dark, Partial};
use crate::numbering::{all_back_ranks, BackRank};

/// The procedure (no parameters).
#[derive(Debug, Clone, Copy, Default)]
pub struct RovidaDie;

/// Which piece a step places, named the way the procedure names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    /// The king.
    King,
    /// The rook between the king and the nearer corner.
    ShortRook,
    /// The queen.
    Queen,
    /// The bishop on a square of the king's colour.
    KingColourBishop,
    /// The knight nearer a1.
    ASideKnight,
    /// The knight nearer h1.
    HSideKnight,
    /// The bishop on the other colour.
    OtherBishop,
    /// The rook on the king's long side.
    LongRook,
}

/// The order of placement.
pub const ORDER: [Piece; 8] = [
    Piece::King,
    Piece::ShortRook,
    Piece::Queen,
    Piece::KingColourBishop,
    Piece::ASideKnight,
    Piece::HSideKnight,
    Piece::OtherBishop,
    Piece::LongRook,
];

impl Piece {
    fn role(self) -> Role {
        match self {
            Piece::King => Role::King,
            Piece::ShortRook | Piece::LongRook => Role::Rook,
            Piece::Queen => Role::Queen,
            Piece::KingColourBishop | Piece::OtherBishop => Role::Bishop,
            Piece::ASideKnight | Piece::HSideKnight => Role::Knight,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Piece::King => "king",
            Piece::ShortRook => "rook on the king's short side",
            Piece::Queen => "queen",
            Piece::KingColourBishop => "bishop on the king's colour",
            Piece::ASideKnight => "a-side knight",
            Piece::HSideKnight => "h-side knight",
            Piece::OtherBishop => "other bishop",
            Piece::LongRook => "rook on the king's long side",
        }
    }

    /// Where this piece stands in a complete back rank.
    fn file_in(self, rank: &BackRank) -> usize {
        let roles = rank.roles();
        let files = |role: Role| -> Vec<usize> { (0..8).filter(|&f| roles[f] == role).collect() };
        let k = files(Role::King)[0];
        let rooks = files(Role::Rook);
        let bishops = files(Role::Bishop);
        let knights = files(Role::Knight);
        let short_is_a = k <= 3;
        match self {
            Piece::King => k,
            Piece::ShortRook => rooks[if short_is_a { 0 } else { 1 }],
            Piece::LongRook => rooks[if short_is_a { 1 } else { 0 }],
            Piece::Queen => files(Role::Queen)[0],
            Piece::KingColourBishop => *bishops
                .iter()
                .find(|&&b| is_dark(b) == is_dark(k))
                .unwrap_or(&bishops[0]),
            Piece::OtherBishop => *bishops
                .iter()
                .find(|&&b| is_dark(b) != is_dark(k))
                .unwrap_or(&bishops[0]),
            Piece::ASideKnight => knights[0],
            Piece::HSideKnight => knights[1],
        }
    }
}

/// Every legal back rank as the files of the pieces in [`ORDER`].
fn layouts() -> &'static [[usize; 8]] {
    static TABLE: OnceLock<Vec<[usize; 8]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        all_back_ranks()
            .iter()
            .map(|r| ORDER.map(|p| p.file_in(r)))
            .collect()
    })
}

/// The pieces placed so far (in [`ORDER`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// Files of the pieces placed, in [`ORDER`].
    pub placed: Vec<usize>,
}

/// The printable card.
pub const CARD: &str = "\
ROVIDA'S DIE — one six-sided die, never a re-roll (the Chess960 starting-position survey; steps reconstructed)
Place White's pieces in this order; Black mirrors them.
For each piece, list the empty squares where it can still stand in a legal
Chess960 position, a-side first. Then:
   1 square  : no roll, put it there
   2 squares : 1-3 = first, 4-6 = second
   3 squares : 1-2 = first, 3-4 = second, 5-6 = third
   6 squares : the face is the square's number

 1. King             b1 c1 d1 e1 f1 g1 (6 squares)
 2. Short-side rook  the empty squares between the king and the nearer corner
                     (king on b1-d1: a-side; on e1-g1: h-side)
 3. Queen            any of the six empty squares
 4. Bishop           on an empty square of the king's colour
 5. a-side knight    an empty square after which the three squares left can take
                     one piece each: the other knight (right of this one), the
                     second bishop (the other colour), the last rook (the king's
                     long side)
 6. h-side knight    an empty square right of the first knight after which the
                     two squares left can take one piece each: the second bishop
                     (the other colour), the last rook (the king's long side)
 7. Other bishop     an empty square of the other colour, but never the only
                     empty square left on the king's long side (the last rook's)
 8. Last rook        the square that is left

4 to 7 rolls (62957/11664 = 5.40 on average). NOT uniform: the likeliest
positions (1/216) are 27 times likelier than the rarest (1/5832).
";

/// How to type this procedure's outcomes to `roll` (not on the printed card).
pub const TYPING: &str = "\
Type the faces in the order rolled, e.g. 2 5 3 5 3 1 or 253531 (gives NRKBQNBR).
";

impl RovidaDie {
    /// Squares where the next piece can stand, a-side first.
    fn spaces(state: &State) -> Vec<usize> {
        let step = state.placed.len();
        let mut files: Vec<usize> = layouts()
            .iter()
            .filter(|l| l[..step] == state.placed[..])
            .map(|l| l[step])
            .collect();
        files.sort_unstable();
        files.dedup();
        files
    }

    /// Place every piece that has exactly one space, with a note for each.
    fn settle(mut state: State) -> (State, Vec<String>) {
        let mut notes = Vec::new();
        while state.placed.len() < ORDER.len() {
            let spaces = Self::spaces(&state);
            if spaces.len() != 1 {
                break;
            }
            let piece = ORDER[state.placed.len()];
            notes.push(format!(
                "{} has one space, {}: no roll",
                piece.name(),
                square_name(spaces[0])
            ));
            state.placed.push(spaces[0]);
        }
        (state, notes)
    }

    fn rank(state: &State) -> Option<BackRank> {
        let mut p = Partial::default();
        for (piece, &f) in ORDER.iter().zip(&state.placed) {
            p = p.with(f, piece.role());
        }
        p.back_rank()
    }
}

/// Every number of spaces a placement meets, over all ways through the
/// procedure (the source's rule says: only 1, 2, 3 and 6).
pub fn space_counts() -> std::collections::BTreeSet<usize> {
    fn walk(state: State, out: &mut std::collections::BTreeSet<usize>) {
        if state.placed.len() == ORDER.len() {
            return;
        }
        let spaces = RovidaDie::spaces(&state);
        out.insert(spaces.len());
        for f in spaces {
            let mut next = state.clone();
            next.placed.push(f);
            walk(next, out);
        }
    }
    let mut out = std::collections::BTreeSet::new();
    walk(State::default(), &mut out);
    out
}

/// The die faces that choose the i-th of `n` spaces (n = 2, 3 or 6).
fn face_range(i: usize, n: usize) -> String {
    let per = 6 / n;
    let lo = i * per + 1;
    let hi = lo + per - 1;
    if lo == hi {
        format!("{lo}")
    } else {
        format!("{lo}-{hi}")
    }
}

impl Procedure for RovidaDie {
    type State = State;

    fn initial(&self) -> State {
        Self::settle(State::default()).0
    }

    fn status(&self, s: &State) -> Status {
        if s.placed.len() == ORDER.len() {
            return Status::Done(Self::rank(s).expect("placements follow legal ranks"));
        }
        let piece = ORDER[s.placed.len()];
        let spaces = Self::spaces(s);
        let n = spaces.len();
        let table = spaces
            .iter()
            .enumerate()
            .map(|(i, &f)| format!("{}={}", face_range(i, n), square_name(f)))
            .collect::<Vec<_>>()
            .join(" ");
        Status::Need(Request {
            action: "roll the die".into(),
            decides: format!("{} ({n} spaces): {table}", piece.name()),
        })
    }

    fn outcomes(&self, s: &State) -> Vec<(Outcome, u64)> {
        if s.placed.len() == ORDER.len() {
            Vec::new()
        } else {
            all_faces(6)
        }
    }

    fn split(&self, token: &str) -> Vec<String> {
        split_faces(token, 6)
    }

    fn units(&self, word: &str) -> Vec<String> {
        face_units(word, 6)
    }

    fn parse(&self, _s: &State, token: &str) -> Result<Outcome, String> {
        parse_face(token, 6)
    }

    fn apply(&self, s: &State, o: &Outcome) -> Result<Effect<State>, String> {
        let Outcome::Number(face) = *o else {
            return Err("expected a die face".into());
        };
        if s.placed.len() == ORDER.len() {
            return Err("the position is already complete".into());
        }
        let piece = ORDER[s.placed.len()];
        let spaces = Self::spaces(s);
        let n = spaces.len();
        assert!(
            matches!(n, 2 | 3 | 6),
            "Rovida's order keeps every choice at 1, 2, 3 or 6 spaces (got {n})"
        );
        let i = (face as usize - 1) / (6 / n);
        let f = spaces[i];
        let mut next = s.clone();
        next.placed.push(f);
        let (next, notes) = Self::settle(next);
        let mut note = format!("{} on {}", piece.name(), square_name(f));
        for extra in notes {
            note.push_str("; ");
            note.push_str(&extra);
        }
        Ok(Effect::Next(next, note))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The squares the printed card's line for `piece` allows, worked out
    /// from the card's words alone (not from the legal ranks): a person
    /// following the card must be offered exactly the procedure's spaces.
    fn card_squares(piece: Piece, placed: &[usize]) -> Vec<usize> {
        let empty: Vec<usize> = (0..8).filter(|f| !placed.contains(f)).collect();
        let king = placed.first().copied();
        let long_side = |f: usize| king.is_some_and(|k| if k <= 3 { f > k } else { f < k });
        let other_colour = |f: usize| king.is_some_and(|k| is_dark(f) != is_dark(k));
        // Room for a bishop of the other colour and a long-side rook on two
        // given squares.
        let fits_last_two = |a: usize, b: usize| {
            (other_colour(a) && long_side(b)) || (other_colour(b) && long_side(a))
        };
        match piece {
            Piece::King => (1..=6).collect(),
            Piece::ShortRook => {
                let k = king.unwrap_or(0);
                empty
                    .into_iter()
                    .filter(|&f| if k <= 3 { f < k } else { f > k })
                    .collect()
            }
            Piece::Queen => empty,
            Piece::KingColourBishop => empty
                .into_iter()
                .filter(|&f| king.is_some_and(|k| is_dark(f) == is_dark(k)))
                .collect(),
            Piece::ASideKnight => empty
                .iter()
                .copied()
                .filter(|&a| {
                    empty.iter().any(|&b| {
                        let rest: Vec<usize> = empty
                            .iter()
                            .copied()
                            .filter(|&x| x != a && x != b)
                            .collect();
                        b > a && rest.len() == 2 && fits_last_two(rest[0], rest[1])
                    })
                })
                .collect(),
            Piece::HSideKnight => {
                let a = placed[placed.len() - 1];
                empty
                    .iter()
                    .copied()
                    .filter(|&b| {
                        let rest: Vec<usize> = empty.iter().copied().filter(|&x| x != b).collect();
                        b > a && rest.len() == 2 && fits_last_two(rest[0], rest[1])
                    })
                    .collect()
            }
            Piece::OtherBishop => {
                let long_empty: Vec<usize> =
                    empty.iter().copied().filter(|&f| long_side(f)).collect();
                empty
                    .into_iter()
                    .filter(|&f| other_colour(f) && long_empty != [f])
                    .collect()
            }
            Piece::LongRook => empty,
        }
    }

    #[test]
    fn the_printed_card_offers_the_procedure_s_squares_at_every_step() {
        // Every state a roll of the die can reach, every step: the card's
        // words and the procedure agree square for square. A card that
        // offered a square no legal position completes would let a person
        // at the board set up an illegal start.
        let mut states = vec![State::default()];
        let mut checked = 0;
        while let Some(state) = states.pop() {
            if state.placed.len() == ORDER.len() {
                continue;
            }
            let piece = ORDER[state.placed.len()];
            let spaces = RovidaDie::spaces(&state);
            assert_eq!(
                card_squares(piece, &state.placed),
                spaces,
                "{} after {:?}",
                piece.name(),
                state.placed
            );
            checked += 1;
            for f in spaces {
                let mut next = state.clone();
                next.placed.push(f);
                states.push(next);
            }
        }
        assert!(checked > 960, "{checked}");
    }

    #[test]
    fn the_card_s_other_bishop_line_keeps_the_last_rook_s_square() {
        // King c1, short rook a1, queen d1, bishop e1, knights f1 and g1:
        // b1 and h1 are left, both light. h1 is the only empty square on
        // the king's long side, so it is the rook's and the bishop goes to
        // b1 without a roll (a card that offered h1 made RRKQBNNB).
        let state = State {
            placed: vec![2, 0, 3, 4, 5, 6],
        };
        assert_eq!(card_squares(Piece::OtherBishop, &state.placed), [1]);
        assert_eq!(RovidaDie::spaces(&state), [1]);
    }
}
