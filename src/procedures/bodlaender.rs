//! Hans Bodlaender's one-die procedure (the Chess960 starting-position survey; the tables of the Chess Variant Pages procedure; the
//! club rules of Modbury Chess Club rules are the same procedure in words).
//!
//! 1. Dark-squared bishop: 1–4 = a1, c1, e1, g1; 5 or 6 = roll again.
//! 2. Light-squared bishop: 1–4 = b1, d1, f1, h1; 5 or 6 = roll again.
//! 3. Queen on the 1st–6th empty square.
//! 4. Knight on the 1st–5th empty square; 6 = roll again.
//! 5. Knight on the 1st–4th empty square; 5 or 6 = roll again.
//! 6. Rook, king, rook on the three empty squares, a-side first.
//!
//! Uniform (4·4·6·5·4 equally likely ordered outcomes, two per position) and
//! 3/2 + 3/2 + 1 + 6/5 + 3/2 = 67/10 = 6.7 rolls on average.

use shakmaty::Role;

use super::framework::{square_name, Effect, Outcome, Procedure, Request, Status};
use super::rank::{numbered_squares, ordinal, Partial};

/// The procedure (no parameters).
#[derive(Debug, Clone, Copy, Default)]
pub struct BodlaenderDie;

/// Pieces placed so far and the step reached (0–5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    /// The back rank so far.
    pub rank: Partial,
    /// Next step: 0 dark bishop, 1 light bishop, 2 queen, 3 and 4 knights, 5 done.
    pub step: usize,
}

/// The printable card.
pub const CARD: &str = "\
BODLAENDER'S DIE — one six-sided die (the survey, the Modbury Chess Club rules, the Chess Variant Pages procedure)
Place White's pieces; Black mirrors them, pawns as usual.
Count empty squares from the a-side (White's left), skipping filled ones.

 Roll 1  dark-squared bishop   1=a1 2=c1 3=e1 4=g1   5,6: roll again
 Roll 2  light-squared bishop  1=b1 2=d1 3=f1 4=h1   5,6: roll again
 Roll 3  queen                 on the 1st..6th empty square
 Roll 4  knight                on the 1st..5th empty square   6: roll again
 Roll 5  knight                on the 1st..4th empty square   5,6: roll again
 Last    rook, king, rook on the three empty squares, a-side first.

Every one of the 960 positions is equally likely; 6.7 rolls on average.
Example: 2 3 3 2 3 gives RNBQKBNR (518).
";

/// How to type this procedure's outcomes to `roll` (not on the printed card).
pub const TYPING: &str = "\
Type the faces in the order rolled, re-rolls included, e.g. 2 3 3 2 3 (or 23323).
";

/// Read a die face 1..=`sides`.
///
/// # Errors
/// A message naming the valid faces.
pub fn parse_face(token: &str, sides: u32) -> Result<Outcome, String> {
    match token.trim().parse::<u32>() {
        Ok(n) if (1..=sides).contains(&n) => Ok(Outcome::Number(n)),
        _ => Err(format!("expected a die face 1..{sides}")),
    }
}

/// A word of faces typed without spaces (`23323`), face by face: for a die
/// whose faces are single digits, a word of several of them names no one
/// face, so it can only be the rolls in order. Any other word stays one
/// (and is named as it was typed when it does not read).
pub fn split_faces(token: &str, sides: u32) -> Vec<String> {
    let t = token.trim();
    let face = |c: char| c.to_digit(10).is_some_and(|d| (1..=sides).contains(&d));
    if sides <= 9 && t.len() > 1 && t.chars().all(face) {
        t.chars().map(String::from).collect()
    } else {
        vec![t.to_string()]
    }
}

/// The faces a typed word is made of, one a character, for naming the
/// one that does not read (`23723`: character 3, '7'): on a die whose
/// faces are single digits a word of three characters or more is rolls
/// typed together. Two (`10`, `17`) may be a number meant as one value,
/// named as typed; a die with faces of two digits keeps the word whole.
pub fn face_units(word: &str, sides: u32) -> Vec<String> {
    if sides <= 9 && word.chars().count() >= 3 {
        word.chars().map(String::from).collect()
    } else {
        vec![word.to_string()]
    }
}

/// Every face of a `sides`-sided die, each with weight 1.
pub fn all_faces(sides: u32) -> Vec<(Outcome, u64)> {
    (1..=sides).map(|n| (Outcome::Number(n), 1)).collect()
}

impl BodlaenderDie {
    /// Squares the pending step chooses among (die face i = i-th entry).
    fn choices(state: &State) -> (Role, Vec<usize>) {
        match state.step {
            0 => (Role::Bishop, vec![0, 2, 4, 6]),
            1 => (Role::Bishop, vec![1, 3, 5, 7]),
            2 => (Role::Queen, state.rank.vacant()),
            _ => (Role::Knight, state.rank.vacant()),
        }
    }
}

fn what(step: usize) -> &'static str {
    match step {
        0 => "dark-squared bishop",
        1 => "light-squared bishop",
        2 => "queen",
        3 => "first knight",
        _ => "second knight",
    }
}

impl Procedure for BodlaenderDie {
    type State = State;

    fn initial(&self) -> State {
        State {
            rank: Partial::default(),
            step: 0,
        }
    }

    fn status(&self, s: &State) -> Status {
        if s.step >= 5 {
            let rank = s
                .rank
                .with_rook_king_rook()
                .back_rank()
                .expect("the die procedure always builds a legal rank");
            return Status::Done(rank);
        }
        let (_, files) = Self::choices(s);
        let mut decides = format!("{}: {}", what(s.step), numbered_squares(&files));
        if files.len() < 6 {
            let from = files.len() + 1;
            if from == 6 {
                decides.push_str(", 6 = roll again");
            } else {
                decides.push_str(&format!(", {from}-6 = roll again"));
            }
        }
        Status::Need(Request {
            action: format!("roll the die (roll {} of 5 placements)", s.step + 1),
            decides,
        })
    }

    fn outcomes(&self, s: &State) -> Vec<(Outcome, u64)> {
        if s.step >= 5 {
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
        if s.step >= 5 {
            return Err("the position is already complete".into());
        }
        let (role, files) = Self::choices(s);
        let i = face as usize;
        if i > files.len() {
            return Ok(Effect::Reroll(format!(
                "{face} names no square for the {} (only {} choices): roll again",
                what(s.step),
                files.len()
            )));
        }
        let f = files[i - 1];
        let note = if s.step >= 2 {
            format!(
                "{} on the {} empty square, {}",
                what(s.step),
                ordinal(i),
                square_name(f)
            )
        } else {
            format!("{} on {}", what(s.step), square_name(f))
        };
        Ok(Effect::Next(
            State {
                rank: s.rank.with(f, role),
                step: s.step + 1,
            },
            note,
        ))
    }
}
