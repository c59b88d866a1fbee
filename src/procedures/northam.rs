//! Edward Northam's coin procedures (the Chess960 starting-position survey): two distinguishable coins,
//! and the three-coin variant that follows the die's piece order.
//!
//! Coins. Small coin: tails 0, heads 2. Large coin: tails 1, heads 2. Their
//! sum is 1–4, each equally likely. A 1–2 choice tosses the large coin alone;
//! a 1–3 choice tosses both and re-tosses a 4. The third coin (variant) is
//! worth 0 or 4, making 1–8 equally likely with all three.
//!
//! Two coins — RECONSTRUCTED order. The seed kept only the rules: before each
//! toss at most four vacant squares are available to the piece at hand,
//! counted from the a-side; positions with the king on the centre two of its
//! four possibilities are two thirds as likely as the others; 6 tosses on
//! average. We place: bishops (4 each), then the king on the 2nd–5th of the
//! six empty squares (it needs an empty square on each side for the rooks),
//! then the rook left of the king and the rook right of it (1–4 squares
//! each), then the queen (3 squares), knights last. Other orders keep to
//! four choices too (e.g. with knights named by side), but this is the
//! simplest one with the king placed among four possibilities, and it
//! reproduces both seed figures exactly:
//! given the bishops, a king on the 2nd or 5th empty square leaves 1·4·3 = 12
//! positions and one on the 3rd or 4th leaves 2·3·3 = 18, each king choice
//! having probability 1/4, so the centre positions have (1/72)/(1/48) = 2/3
//! the probability; and the tosses average 1 + 1 + 1 + 5/3 + 4/3 = 6.
//!
//! Three coins (seed text complete): bishops by two coins; queen by three
//! coins re-tossed until 1–6; first knight by three coins until 1–5; second
//! knight by one toss of two coins; 1 + 1 + 8/6 + 8/5 + 1 = 5 + 14/15 tosses.

use shakmaty::Role;

use super::framework::{square_name, Effect, Outcome, Procedure, Request, Status};
use super::rank::{numbered_squares, ordinal, Partial};

/// Northam's coins: the two-coin procedure or the three-coin variant.
#[derive(Debug, Clone, Copy)]
pub struct Coins {
    three: bool,
}

impl Coins {
    /// The two-coin procedure (`northam-coins`).
    pub fn two() -> Coins {
        Coins { three: false }
    }

    /// The three-coin variant (`three-coins`).
    pub fn three() -> Coins {
        Coins { three: true }
    }
}

/// The back rank so far and the next step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    /// Pieces placed.
    pub rank: Partial,
    /// Index of the next step in the procedure's order.
    pub step: usize,
}

/// The two-coin card.
pub const CARD_TWO: &str = "\
NORTHAM'S TWO COINS — a small and a large coin (the Chess960 starting-position survey; order reconstructed)
Value of a toss: small coin tails 0 / heads 2, large coin tails 1 / heads 2.
  choose 1 of 4: toss both, add (1-4)
  choose 1 of 3: toss both, add; a 4 means toss again
  choose 1 of 2: toss the large coin alone (tails 1, heads 2)
  only 1 square: no toss
Count empty squares from the a-side (White's left).

 1. Dark-squared bishop   1=a1 2=c1 3=e1 4=g1
 2. Light-squared bishop  1=b1 2=d1 3=f1 4=h1
 3. King                  1-4 = the 2nd, 3rd, 4th or 5th of the six empty squares
 4. Rook left of the king:  choose among the empty squares left of the king
 5. Rook right of the king: choose among the empty squares right of the king
 6. Queen                 1-3 among the three empty squares (4: toss again)
 7. Knights on the last two squares.

6 tosses on average. NOT uniform: with the king on the 3rd or 4th empty
square a position is 2/3 as likely as with the king on the 2nd or 5th.
";

/// How to type the two-coin tosses to `roll` (not on the printed card).
pub const TYPING_TWO: &str = "\
Type each toss as small-then-large letters (HT = small heads, large tails = 3),
a single letter for the large coin alone, or the value itself,
e.g. HH HT HH TH HT (gives NRNQKBBR).
";

/// The three-coin card.
pub const CARD_THREE: &str = "\
THREE COINS — Northam's two coins plus a third (the Chess960 starting-position survey)
Values: small coin T=0 H=2, large coin T=1 H=2, third coin T=0 H=4.
Two coins give 1-4, all three give 1-8, each value equally likely.
Count empty squares from the a-side (White's left).

 1. Dark-squared bishop   toss two coins: 1=a1 2=c1 3=e1 4=g1
 2. Light-squared bishop  toss two coins: 1=b1 2=d1 3=f1 4=h1
 3. Queen                 toss three coins: 1st..6th empty square; 7, 8: toss again
 4. Knight                toss three coins: 1st..5th empty square; 6-8: toss again
 5. Knight                toss two coins: 1st..4th empty square
 6. Rook, king, rook on the three empty squares, a-side first.

Every position equally likely; 5 + 14/15 tosses on average.
";

/// How to type the three-coin tosses to `roll` (not on the printed card).
pub const TYPING_THREE: &str = "\
Type each toss as letters small, large[, third] (HTH = 2+1+4 = 7) or the value,
e.g. HH HT HHH HTH THT TTH TT (gives NQRKRBBN).
";

/// Value of a toss: small (0/2) + large (1/2) [+ third (0/4)]; the large
/// coin alone is 1/2.
pub fn toss_value(coins: &[bool]) -> u32 {
    match coins {
        [large] => 1 + u32::from(*large),
        [small, large, rest @ ..] => {
            let mut v = 2 * u32::from(*small) + 1 + u32::from(*large);
            if let Some(&third) = rest.first() {
                v += 4 * u32::from(third);
            }
            v
        }
        [] => 0,
    }
}

/// Every face combination of `n` coins (order small, large, third; or the
/// large coin alone when `n` = 1), each with weight 1.
fn all_tosses(n: usize) -> Vec<(Outcome, u64)> {
    (0..1u32 << n)
        .map(|bits| {
            let faces: Vec<bool> = (0..n).map(|i| bits >> (n - 1 - i) & 1 == 1).collect();
            (Outcome::Coins(faces), 1)
        })
        .collect()
}

/// The piece a step places and the squares it chooses among.
struct Step {
    role: Role,
    name: &'static str,
    files: Vec<usize>,
}

impl Coins {
    fn step(&self, s: &State) -> Option<Step> {
        let v = s.rank.vacant();
        let dark = vec![0, 2, 4, 6];
        let light = vec![1, 3, 5, 7];
        let st = |role, name, files| Some(Step { role, name, files });
        if self.three {
            match s.step {
                0 => st(Role::Bishop, "dark-squared bishop", dark),
                1 => st(Role::Bishop, "light-squared bishop", light),
                2 => st(Role::Queen, "queen", v),
                3 => st(Role::Knight, "first knight", v),
                4 => st(Role::Knight, "second knight", v),
                _ => None,
            }
        } else {
            let king = s.rank.files_of(Role::King).first().copied();
            match s.step {
                0 => st(Role::Bishop, "dark-squared bishop", dark),
                1 => st(Role::Bishop, "light-squared bishop", light),
                2 => st(Role::King, "king", v[1..5].to_vec()),
                3 => {
                    let k = king.unwrap_or(0);
                    st(
                        Role::Rook,
                        "rook left of the king",
                        v.into_iter().filter(|&f| f < k).collect(),
                    )
                }
                4 => {
                    let k = king.unwrap_or(0);
                    st(
                        Role::Rook,
                        "rook right of the king",
                        v.into_iter().filter(|&f| f > k).collect(),
                    )
                }
                5 => st(Role::Queen, "queen", v),
                _ => None,
            }
        }
    }

    /// How many coins a choice among `n` squares tosses, and the largest value accepted.
    fn coins_for(&self, s: &State, n: usize) -> usize {
        if self.three {
            match s.step {
                2 | 3 => 3,
                _ => 2,
            }
        } else if n == 2 {
            1
        } else {
            2
        }
    }

    /// Apply every step with a single choice (and the final knights or rook-king-rook).
    fn settle(&self, mut s: State) -> (State, Vec<String>) {
        let mut notes = Vec::new();
        loop {
            match self.step(&s) {
                Some(step) if step.files.len() == 1 => {
                    notes.push(format!(
                        "{} has one square, {}: no toss",
                        step.name,
                        square_name(step.files[0])
                    ));
                    s.rank = s.rank.with(step.files[0], step.role);
                    s.step += 1;
                }
                Some(_) => return (s, notes),
                None => {
                    let v = s.rank.vacant();
                    if !v.is_empty() {
                        if self.three {
                            s.rank = s.rank.with_rook_king_rook();
                        } else {
                            s.rank = s.rank.with(v[0], Role::Knight).with(v[1], Role::Knight);
                        }
                    }
                    return (s, notes);
                }
            }
        }
    }
}

impl Procedure for Coins {
    type State = State;

    fn initial(&self) -> State {
        self.settle(State {
            rank: Partial::default(),
            step: 0,
        })
        .0
    }

    fn status(&self, s: &State) -> Status {
        let Some(step) = self.step(s) else {
            return Status::Done(
                s.rank
                    .back_rank()
                    .expect("coin procedures build legal ranks"),
            );
        };
        let n = step.files.len();
        let coins = self.coins_for(s, n);
        let action = match coins {
            1 => "toss the large coin alone (tails 1, heads 2)".to_string(),
            2 => "toss the small and the large coin (value 1-4)".to_string(),
            _ => "toss all three coins (value 1-8)".to_string(),
        };
        let max = if coins == 1 { 2 } else { 1 << coins };
        let mut decides = format!("{}: {}", step.name, numbered_squares(&step.files));
        if n < max {
            if n + 1 == max {
                decides.push_str(&format!(", {max} = toss again"));
            } else {
                decides.push_str(&format!(", {}-{max} = toss again", n + 1));
            }
        }
        Status::Need(Request { action, decides })
    }

    fn outcomes(&self, s: &State) -> Vec<(Outcome, u64)> {
        match self.step(s) {
            Some(step) => all_tosses(self.coins_for(s, step.files.len())),
            None => Vec::new(),
        }
    }

    fn parse(&self, s: &State, token: &str) -> Result<Outcome, String> {
        let Some(step) = self.step(s) else {
            return Err("the position is already complete".into());
        };
        let n = self.coins_for(s, step.files.len());
        let names = match n {
            1 => "the large coin (H or T)",
            2 => "small then large coin (e.g. HT)",
            _ => "small, large, third coin (e.g. HTH)",
        };
        let t = token.trim();
        if let Ok(value) = t.parse::<u32>() {
            // A typed value stands for the one face combination that gives it.
            return all_tosses(n)
                .into_iter()
                .map(|(o, _)| o)
                .find(|o| matches!(o, Outcome::Coins(c) if toss_value(c) == value))
                .ok_or_else(|| {
                    let max = if n == 1 { 2 } else { 1 << n };
                    format!("a toss of {n} coin(s) is worth 1..{max}; or type the faces of {names}")
                });
        }
        let faces: Option<Vec<bool>> = t
            .chars()
            .map(|c| match c.to_ascii_uppercase() {
                'H' => Some(true),
                'T' => Some(false),
                _ => None,
            })
            .collect();
        match faces {
            Some(f) if f.len() == n => Ok(Outcome::Coins(f)),
            _ => Err(format!(
                "expected {n} coin face(s): {names}, or the toss value"
            )),
        }
    }

    fn apply(&self, s: &State, o: &Outcome) -> Result<Effect<State>, String> {
        let Some(step) = self.step(s) else {
            return Err("the position is already complete".into());
        };
        let Outcome::Coins(faces) = o else {
            return Err("expected coin faces".into());
        };
        let n = self.coins_for(s, step.files.len());
        if faces.len() != n {
            return Err(format!("this toss uses {n} coin(s)"));
        }
        let value = toss_value(faces) as usize;
        if value > step.files.len() {
            return Ok(Effect::Reroll(format!(
                "value {value} names no square for the {} ({} choices): toss again",
                step.name,
                step.files.len()
            )));
        }
        let f = step.files[value - 1];
        let (next, notes) = self.settle(State {
            rank: s.rank.with(f, step.role),
            step: s.step + 1,
        });
        let mut note = format!(
            "value {value}: {} on {} ({} choice)",
            step.name,
            square_name(f),
            ordinal(value)
        );
        for extra in notes {
            note.push_str("; ");
            note.push_str(&extra);
        }
        Ok(Effect::Next(next, note))
    }
}
