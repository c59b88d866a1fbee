//! Ten coin flips read as a binary number (Stefanov, "Generating Chess960 positions with a coin", Atanas K. Stefanov).
//!
//! 960 = 2^10 − 2^6 = 1111000000 in binary, so ten flips (heads = 1, first
//! flip most significant) give 0..1023 and exactly the numbers with the first
//! four flips all heads (960..1023) are thrown away. The number A is then
//! decoded as the source describes — which is Scharnagl's numbering:
//! A mod 4 = light-squared bishop (b1, d1, f1, h1), next mod 4 = dark-squared
//! bishop (a1, c1, e1, g1), next mod 6 = queen on that empty square, the
//! quotient (0–9) = knights by the table of two `N` among five squares in
//! lexicographic order, king on the second of the three squares left, rooks
//! on the others.
//!
//! Reading of step 1: "flip a coin 10 times and note the outcomes; start
//! over if your first 4 flips are heads". A person at the board stops at the
//! fourth head (the last six flips can no longer count), so an attempt ends
//! there: 154/15 flips on average, the least any fair-coin procedure can
//! average for 960 outcomes (Knuth–Yao), against 32/3 when every attempt is
//! flipped to its tenth. Someone who did flip all ten and types them as one
//! word (`HHHHTTHTTH`) is read as well: that word is one void attempt.

use shakmaty::Role;

use super::framework::{square_name, Effect, Outcome, Procedure, Request, Status};
use super::rank::{ordinal, Partial};
use crate::numbering::BackRank;

/// The procedure (no parameters).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TenFlips;

/// Flips of the current attempt.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// Heads = true, first flip first.
    pub flips: Vec<bool>,
}

/// The printable card.
pub const CARD: &str = "\
TEN COIN FLIPS — one coin (Atanas K. Stefanov, Generating Chess960 positions with a coin)
 1. Flip the coin 10 times, writing 1 for heads and 0 for tails, first flip
    first. If the first four are all heads, stop there and start over.
 2. Read the ten digits as a binary number A (0..959).
 3. A / 4 = B remainder C. Light-squared bishop on the (C+1)-th of b1 d1 f1 h1.
 4. B / 4 = D remainder E. Dark-squared bishop on the (E+1)-th of a1 c1 e1 g1.
 5. D / 6 = F remainder G. Queen on the (G+1)-th empty square.
 6. F (0-9) places the knights on the empty squares:
      0 NN---  1 N-N--  2 N--N-  3 N---N  4 -NN--
      5 -N-N-  6 -N--N  7 --NN-  8 --N-N  9 ---NN
 7. King on the 2nd empty square, rooks on the other two.
Black mirrors White. A is the Scharnagl number of the position.

Every position equally likely; 154/15 = 10.27 flips on average, the least
a coin can do.
";

/// How to type this procedure's outcomes to `roll` (not on the printed card).
pub const TYPING: &str = "\
Type the flips as H/T (or 1/0), e.g. HHTTTTHTTH; a void attempt as HHHH,
or as its ten flips in one word.
";

/// Decode a number 0..959 into a back rank by the source's divisions.
///
/// # Panics
/// If `a >= 960`.
pub fn decode(a: u32) -> BackRank {
    assert!(a < 960, "only 0..959 decode");
    let (b, c) = (a / 4, a % 4);
    let (d, e) = (b / 4, b % 4);
    let (f, g) = (d / 6, d % 6);
    let mut p = Partial::default()
        .with(2 * c as usize + 1, Role::Bishop)
        .with(2 * e as usize, Role::Bishop);
    let q = p.vacant()[g as usize];
    p = p.with(q, Role::Queen);
    let mut k = 0;
    'outer: for i in 0..5 {
        for j in i + 1..5 {
            if k == f {
                let v = p.vacant();
                p = p.with(v[i], Role::Knight).with(v[j], Role::Knight);
                break 'outer;
            }
            k += 1;
        }
    }
    p.with_rook_king_rook()
        .back_rank()
        .expect("every A < 960 decodes to a legal rank")
}

fn value(flips: &[bool]) -> u32 {
    flips.iter().fold(0, |acc, &h| acc * 2 + u32::from(h))
}

impl Procedure for TenFlips {
    type State = State;

    fn initial(&self) -> State {
        State::default()
    }

    fn status(&self, s: &State) -> Status {
        if s.flips.len() == 10 {
            return Status::Done(decode(value(&s.flips)));
        }
        let n = s.flips.len() + 1;
        let voids = n == 4 && s.flips.iter().all(|&h| h);
        Status::Need(Request {
            action: format!("flip the coin (flip {n} of 10)"),
            decides: format!(
                "binary digit worth {} (heads = 1){}",
                1u32 << (10 - n),
                if voids {
                    "; heads here is a fourth head: start over"
                } else {
                    ""
                }
            ),
        })
    }

    fn outcomes(&self, s: &State) -> Vec<(Outcome, u64)> {
        if s.flips.len() == 10 {
            Vec::new()
        } else {
            vec![
                (Outcome::Coins(vec![true]), 1),
                (Outcome::Coins(vec![false]), 1),
            ]
        }
    }

    /// Words are read letter by letter ([`Procedure::split`]).
    fn units(&self, word: &str) -> Vec<String> {
        word.chars().map(String::from).collect()
    }

    fn split(&self, token: &str) -> Vec<String> {
        let t = token.trim();
        if t.len() > 1 && t.chars().all(|c| "HTht01".contains(c)) {
            // A word of whole attempts (10, 20, ... flips) is read ten by
            // ten: a void attempt written down whole (the first four heads)
            // stays one token, so its last six flips are not read as the
            // next attempt's. Any other word is read flip by flip.
            if t.len().is_multiple_of(10) {
                return t
                    .as_bytes()
                    .chunks(10)
                    .flat_map(|block| {
                        let block = String::from_utf8_lossy(block).into_owned();
                        if block[..4].chars().all(|c| "Hh1".contains(c)) {
                            vec![block]
                        } else {
                            block.chars().map(|c| c.to_string()).collect()
                        }
                    })
                    .collect();
            }
            t.chars().map(|c| c.to_string()).collect()
        } else {
            vec![t.to_string()]
        }
    }

    fn parse(&self, s: &State, token: &str) -> Result<Outcome, String> {
        let t = token.trim().to_ascii_uppercase();
        if t.len() == 10 && t.chars().all(|c| "HT01".contains(c)) {
            if !s.flips.is_empty() {
                return Err(format!(
                    "ten flips in one word start an attempt, and this one is at flip {}",
                    s.flips.len() + 1
                ));
            }
            return Ok(Outcome::Coins(
                t.chars().map(|c| "H1".contains(c)).collect(),
            ));
        }
        match t.as_str() {
            "H" | "1" => Ok(Outcome::Coins(vec![true])),
            "T" | "0" => Ok(Outcome::Coins(vec![false])),
            _ => Err("expected a flip: H or T (1 or 0)".into()),
        }
    }

    fn apply(&self, s: &State, o: &Outcome) -> Result<Effect<State>, String> {
        let Outcome::Coins(c) = o else {
            return Err("expected a flip".into());
        };
        if s.flips.len() == 10 {
            return Err("the position is already complete".into());
        }
        if c.len() == 10 && s.flips.is_empty() && c[..4].iter().all(|&h| h) {
            return Ok(Effect::Restart(
                "a void attempt, flipped to its tenth: the first four were heads (A >= 960)".into(),
            ));
        }
        let [heads] = c.as_slice() else {
            return Err("one coin per flip (ten in one word only for a void attempt)".into());
        };
        let mut next = s.clone();
        next.flips.push(*heads);
        let n = next.flips.len();
        if n == 4 && next.flips.iter().all(|&h| h) {
            return Ok(Effect::Restart(
                "the first four flips are heads: A >= 960 whatever follows".into(),
            ));
        }
        if n == 10 {
            let a = value(&next.flips);
            let (b, c) = (a / 4, a % 4);
            let (d, e) = (b / 4, b % 4);
            let (f, g) = (d / 6, d % 6);
            let note = format!(
                "A = {a}: light bishop on {} (C = {c}), dark bishop on {} (E = {e}), queen on the {} empty square (G = {g}), knights by F = {f}",
                square_name(2 * c as usize + 1),
                square_name(2 * e as usize),
                ordinal(g as usize + 1)
            );
            return Ok(Effect::Next(next, note));
        }
        let note = format!("digit {} = {}", n, u32::from(*heads));
        Ok(Effect::Next(next, note))
    }
}
