//! The BOU.LI.NA. eight-card method (the BOU.LI.NA. text; Boussios, Likartsis,
//! Navrozidis).
//!
//! Eight cards 1–8 in two stacks, odds (1 3 5 7) and evens (2 4 6 8); card n
//! stands for file n (1 = a).
//! 1. Pick one card from each stack: the two bishops (odd files are dark,
//!    even files light, so they always differ in colour).
//! 2. Shuffle the other six and draw three: the queen, then the two knights
//!    (the source's example draws 2, 1, 8 "in this order" onto b1, a1, h1 with
//!    the queen on b1; we read the first card as the queen).
//! 3. Rook, king, rook on the three squares left.
//!
//! 16 bishop pairs × 6·5·4 ordered draws, two per knight pair: uniform, 5
//! cards, no repetition — the source's three objectives.

use shakmaty::Role;

use super::bodlaender::parse_face;
use super::framework::{square_name, Effect, Outcome, Procedure, Request, Status};
use super::rank::Partial;

/// The procedure (no parameters).
#[derive(Debug, Clone, Copy, Default)]
pub struct Boulina;

/// Cards drawn so far.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// Card from the odd stack.
    pub odd: Option<u32>,
    /// Card from the even stack.
    pub even: Option<u32>,
    /// Cards drawn from the other six: queen, knight, knight.
    pub rest: Vec<u32>,
}

/// The printable card.
pub const CARD: &str = "\
BOU.LI.NA. — eight cards numbered 1 to 8 (the BOU.LI.NA. text)
Card n stands for square n of White's back rank: 1=a1 2=b1 ... 8=h1.
 1. Make two stacks: odd cards 1 3 5 7 and even cards 2 4 6 8.
    Pick one card from each stack: the bishops go on those squares.
 2. Shuffle the six cards left and draw three, in order:
    the first is the queen's square, the next two the knights' squares.
 3. Rook, king, rook on the three squares left, a-side first.
Black mirrors White.

Every position equally likely; always 5 cards, never a repeat.
";

/// How to type this procedure's outcomes to `roll` (not on the printed card).
pub const TYPING: &str = "\
Type the cards in the order drawn, e.g. 5 6 2 1 8 (gives NQRKBBRN).
";

impl Boulina {
    fn rank(s: &State) -> Partial {
        let mut p = Partial::default();
        for c in s.odd.iter().chain(&s.even) {
            p = p.with(*c as usize - 1, Role::Bishop);
        }
        for (i, c) in s.rest.iter().enumerate() {
            p = p.with(
                *c as usize - 1,
                if i == 0 { Role::Queen } else { Role::Knight },
            );
        }
        p
    }

    fn used(s: &State) -> Vec<u32> {
        s.odd
            .iter()
            .chain(&s.even)
            .chain(&s.rest)
            .copied()
            .collect()
    }
}

impl Procedure for Boulina {
    type State = State;

    fn initial(&self) -> State {
        State::default()
    }

    fn status(&self, s: &State) -> Status {
        let (action, decides) = match (s.odd, s.even, s.rest.len()) {
            (None, None, _) | (None, Some(_), _) => (
                "pick a card from the odd stack (1 3 5 7)",
                "a bishop's square (dark)",
            ),
            (Some(_), None, _) => (
                "pick a card from the even stack (2 4 6 8)",
                "a bishop's square (light)",
            ),
            (_, _, 0) => (
                "shuffle the six cards left and draw one",
                "the queen's square",
            ),
            (_, _, 1) => ("draw another card", "a knight's square"),
            (_, _, 2) => ("draw another card", "the other knight's square"),
            _ => {
                return Status::Done(
                    Self::rank(s)
                        .with_rook_king_rook()
                        .back_rank()
                        .expect("BOU.LI.NA. builds legal ranks"),
                )
            }
        };
        Status::Need(Request {
            action: action.into(),
            decides: decides.into(),
        })
    }

    fn outcomes(&self, s: &State) -> Vec<(Outcome, u64)> {
        let used = Self::used(s);
        let cards: Vec<u32> = match (s.odd, s.even, s.rest.len()) {
            (None, _, _) => vec![1, 3, 5, 7],
            (Some(_), None, _) => vec![2, 4, 6, 8],
            (_, _, n) if n < 3 => (1..=8).filter(|c| !used.contains(c)).collect(),
            _ => Vec::new(),
        };
        cards.into_iter().map(|c| (Outcome::Number(c), 1)).collect()
    }

    fn parse(&self, _s: &State, token: &str) -> Result<Outcome, String> {
        parse_face(token, 8).map_err(|_| "expected a card number 1..8".to_string())
    }

    fn apply(&self, s: &State, o: &Outcome) -> Result<Effect<State>, String> {
        let Outcome::Number(c) = *o else {
            return Err("expected a card number".into());
        };
        if Self::used(s).contains(&c) {
            return Err(format!("card {c} was already drawn"));
        }
        let mut next = s.clone();
        let note = match (s.odd, s.even, s.rest.len()) {
            (None, None, _) if c % 2 == 1 => {
                next.odd = Some(c);
                format!("bishop on {}", square_name(c as usize - 1))
            }
            (None, None, _) => {
                next.even = Some(c);
                format!("bishop on {}", square_name(c as usize - 1))
            }
            (None, Some(_), _) => {
                if c % 2 == 0 {
                    return Err(
                        "the second bishop card must come from the odd stack (1 3 5 7)".into(),
                    );
                }
                next.odd = Some(c);
                format!("bishop on {}", square_name(c as usize - 1))
            }
            (Some(_), None, _) => {
                if c % 2 == 1 {
                    return Err(
                        "the second bishop card must come from the even stack (2 4 6 8)".into(),
                    );
                }
                next.even = Some(c);
                format!("bishop on {}", square_name(c as usize - 1))
            }
            (_, _, n) if n < 3 => {
                next.rest.push(c);
                let piece = if n == 0 { "queen" } else { "knight" };
                let mut note = format!("{piece} on {}", square_name(c as usize - 1));
                if n == 2 {
                    let done = Self::rank(&next).with_rook_king_rook();
                    note.push_str(&format!("; rook, king, rook on the rest: {}", done.text()));
                }
                note
            }
            _ => return Err("the position is already complete".into()),
        };
        Ok(Effect::Next(next, note))
    }
}
