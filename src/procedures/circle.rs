//! The circle squashed into a line (the Chess960 starting-position survey).
//!
//! "Gather the eight pieces into a circle on the table, then squash the
//! circle flat into a line. If the bishops would be on the same colour, gather
//! the pieces and try again. Once the bishops are right, swap the king and
//! rook (as above)" — "as above" is Coffin's rule: a king outside the rooks
//! trades places with the closer rook.
//!
//! Model (our choice, documented): one attempt's physical outcome is the
//! line it produces, read from a1; a well-mixed circle squashed in a random
//! direction makes all 5040 distinguishable lines equally likely. 2880 of
//! them have the bishops on opposite colours, so an attempt succeeds with
//! probability 4/7 and takes 7/4 attempts on average. The king fix maps
//! exactly three lines (KRR, RKR, RRK on the same squares) to each
//! position, so the result is uniform, as the source says.

use super::framework::{Effect, Outcome, Procedure, Request, Status};
use super::rank::{bishops_opposite, distinct_rows, king_between_rooks, parse_row, row_text};
use crate::numbering::BackRank;

/// The procedure (no parameters).
#[derive(Debug, Clone, Copy, Default)]
pub struct Circle;

/// Nothing, or the line of the successful attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// The accepted line after the king fix.
    pub result: Option<BackRank>,
}

/// The printable card.
pub const CARD: &str = "\
THE CIRCLE — the eight white pieces and a table (the Chess960 starting-position survey)
 1. Gather the eight pieces into a circle on the table, mixed up.
 2. Squash the circle flat into a line along White's back rank, a1 to h1.
 3. If the two bishops stand on squares of the same colour, gather the
    pieces and start again at 1.
 4. If the king is not between the rooks, swap him with the closer rook.
Black mirrors White.

Every position equally likely; 7/4 attempts on average (an attempt works
with probability 4/7).
";

/// How to type this procedure's outcomes to `roll` (not on the printed card).
pub const TYPING: &str = "\
Type each attempt's line, a1 first, e.g. RNBQKBNR.
";

impl Procedure for Circle {
    type State = State;

    fn initial(&self) -> State {
        State::default()
    }

    fn status(&self, s: &State) -> Status {
        match s.result {
            Some(rank) => Status::Done(rank),
            None => Status::Need(Request {
                action: "squash the circle into a line".into(),
                decides:
                    "the whole row, a1 first (e.g. RNBQKBNR); same-coloured bishops = try again"
                        .into(),
            }),
        }
    }

    fn outcomes(&self, s: &State) -> Vec<(Outcome, u64)> {
        if s.result.is_some() {
            return Vec::new();
        }
        distinct_rows()
            .into_iter()
            .map(|r| (Outcome::Line(r), 1))
            .collect()
    }

    fn parse(&self, _s: &State, token: &str) -> Result<Outcome, String> {
        parse_row(token).map(Outcome::Line)
    }

    fn apply(&self, s: &State, o: &Outcome) -> Result<Effect<State>, String> {
        let Outcome::Line(row) = *o else {
            return Err("expected a row of eight pieces".into());
        };
        if s.result.is_some() {
            return Err("the position is already complete".into());
        }
        if !bishops_opposite(&row) {
            return Ok(Effect::Restart(
                "bishops on squares of the same colour: gather the pieces and try again".into(),
            ));
        }
        let (fixed, note) = king_between_rooks(row);
        let rank = BackRank::new(fixed).map_err(|e| e.to_string())?;
        let note = match note {
            Some(n) => format!("{n} -> {}", row_text(&fixed)),
            None => format!(
                "bishops on opposite colours, king between the rooks: {}",
                row_text(&fixed)
            ),
        };
        Ok(Effect::Next(State { result: Some(rank) }, note))
    }
}
