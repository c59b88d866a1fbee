//! Platonic dice that never re-roll (the Chess960 starting-position survey).
//!
//! The seed keeps only "if one has polyhedral dice shaped like each of the
//! Platonic solids, one never needs to reroll any dice". RECONSTRUCTED from
//! the public description of the polyhedral-dice method (Wikipedia, "Fischer
//! random chess starting position", as quoted on chess.stackexchange.com
//! question 22751): throw a d8, d4, d6 and d20 together (the d12 is not
//! needed).
//!
//! * d8: a bishop on a1..h1 (1 = a1).
//! * d4: the other bishop on the 1st–4th square of the other colour.
//! * d6: the queen on the 1st–6th empty square.
//! * d20: x = d20 / 4 rounded up (1–5), y = (d20 mod 4) + 1 (1–4): a knight
//!   on the x-th empty square, the other on the y-th of the squares then
//!   left.
//! * Rook, king, rook on the last three squares.
//!
//! 8·4·6·20 = 3840 equally likely throws, exactly four per position
//! (bishops in either order, knights in either order): uniform, one throw of
//! four dice.

use shakmaty::Role;

use super::bodlaender::{all_faces, parse_face};
use super::framework::{square_name, Effect, Outcome, Procedure, Request, Status};
use super::rank::{is_dark, numbered_squares, ordinal, Partial};

/// The procedure (no parameters).
#[derive(Debug, Clone, Copy, Default)]
pub struct PlatonicDice;

/// Dice read so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// Pieces placed.
    pub rank: Partial,
    /// Dice read: 0 = none, 1 = d8, 2 = d4, 3 = d6, 4 = d20 (done).
    pub step: usize,
}

/// The printable card.
pub const CARD: &str = "\
PLATONIC DICE — a d8, d4, d6 and d20 thrown together (the Chess960 starting-position survey; reconstructed)
Count squares from the a-side (White's left); 'empty' skips filled squares.
 d8   a bishop on the square it shows: 1=a1 2=b1 ... 8=h1
 d4   the other bishop on the 1st-4th square of the OTHER colour
 d6   the queen on the 1st-6th empty square
 d20  x = d20 / 4 rounded up (1-5), y = remainder of d20 / 4, plus 1 (1-4):
      a knight on the x-th empty square, then the other knight on the
      y-th of the empty squares left
 Rook, king, rook on the last three squares, a-side first.
Black mirrors White.

Never a re-roll; one throw (four dice read); every position equally likely.
";

/// How to type this procedure's outcomes to `roll` (not on the printed card).
pub const TYPING: &str = "\
Type the dice in the order d8 d4 d6 d20, e.g. 4 3 6 10 (gives RKNBBNRQ).
";

const SIDES: [u32; 4] = [8, 4, 6, 20];

/// The d20 split into (x, y): knight on the x-th empty square, then the
/// other on the y-th remaining one.
pub fn d20_split(v: u32) -> (usize, usize) {
    (v.div_ceil(4) as usize, (v % 4) as usize + 1)
}

impl Procedure for PlatonicDice {
    type State = State;

    fn initial(&self) -> State {
        State::default()
    }

    fn status(&self, s: &State) -> Status {
        let (action, decides) = match s.step {
            0 => (
                "read the d8",
                "a bishop: 1=a1 2=b1 3=c1 4=d1 5=e1 6=f1 7=g1 8=h1".to_string(),
            ),
            1 => {
                let b = s.rank.files_of(Role::Bishop)[0];
                let other: Vec<usize> = (0..8).filter(|&f| is_dark(f) != is_dark(b)).collect();
                (
                    "read the d4",
                    format!("the other bishop: {}", numbered_squares(&other)),
                )
            }
            2 => (
                "read the d6",
                format!("the queen: {}", numbered_squares(&s.rank.vacant())),
            ),
            3 => (
                "read the d20",
                format!(
                    "the knights: x = d20/4 rounded up, y = d20 mod 4 + 1; empty squares {}",
                    numbered_squares(&s.rank.vacant())
                ),
            ),
            _ => {
                return Status::Done(
                    s.rank
                        .with_rook_king_rook()
                        .back_rank()
                        .expect("the dice build a legal rank"),
                )
            }
        };
        Status::Need(Request {
            action: action.into(),
            decides,
        })
    }

    fn outcomes(&self, s: &State) -> Vec<(Outcome, u64)> {
        SIDES.get(s.step).map_or_else(Vec::new, |&n| all_faces(n))
    }

    fn parse(&self, s: &State, token: &str) -> Result<Outcome, String> {
        let sides = SIDES.get(s.step).copied().unwrap_or(20);
        parse_face(token, sides).map_err(|_| format!("expected the d{sides} value 1..{sides}"))
    }

    fn apply(&self, s: &State, o: &Outcome) -> Result<Effect<State>, String> {
        let Outcome::Number(v) = *o else {
            return Err("expected a die value".into());
        };
        let Some(&sides) = SIDES.get(s.step) else {
            return Err("the position is already complete".into());
        };
        if !(1..=sides).contains(&v) {
            return Err(format!("a d{sides} shows 1..{sides}"));
        }
        let i = v as usize;
        let (rank, note) = match s.step {
            0 => (
                s.rank.with(i - 1, Role::Bishop),
                format!("d8 = {v}: bishop on {}", square_name(i - 1)),
            ),
            1 => {
                let b = s.rank.files_of(Role::Bishop)[0];
                let other: Vec<usize> = (0..8).filter(|&f| is_dark(f) != is_dark(b)).collect();
                let f = other[i - 1];
                (
                    s.rank.with(f, Role::Bishop),
                    format!("d4 = {v}: other bishop on {}", square_name(f)),
                )
            }
            2 => {
                let f = s.rank.vacant()[i - 1];
                (
                    s.rank.with(f, Role::Queen),
                    format!("d6 = {v}: queen on {}", square_name(f)),
                )
            }
            _ => {
                let (x, y) = d20_split(v);
                let f1 = s.rank.vacant()[x - 1];
                let r = s.rank.with(f1, Role::Knight);
                let f2 = r.vacant()[y - 1];
                (
                    r.with(f2, Role::Knight),
                    format!(
                        "d20 = {v}: x = {x}, y = {y}: knights on {} ({} empty) and {} ({} of the rest)",
                        square_name(f1),
                        ordinal(x),
                        square_name(f2),
                        ordinal(y)
                    ),
                )
            }
        };
        Ok(Effect::Next(
            State {
                rank,
                step: s.step + 1,
            },
            note,
        ))
    }
}
