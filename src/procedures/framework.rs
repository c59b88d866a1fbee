//! The shared shape of every manual procedure: a state machine that turns
//! physical outcomes (die faces, coin faces, cards, pieces drawn, placements)
//! into a back rank, plus the three things we do with it — replay what a club
//! rolled, simulate it with a random generator, and enumerate it exactly.
//!
//! A procedure only describes one step at a time: what it needs next
//! ([`Status`]), which outcomes that action can have and how likely they are
//! ([`Procedure::outcomes`], integer weights), and what an outcome does
//! ([`Effect`]): move on, roll again (same step), or start over. Everything
//! else — replay, simulation, exact analysis — is written once here, so the
//! printed card, the replay and the fairness figures cannot drift apart.

use std::collections::HashMap;
use std::fmt;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use rand::Rng;
use shakmaty::Role;

use crate::numbering::{BackRank, COUNT};

/// Exact probability (or expectation): a fraction of big integers, so no
/// product or sum of the enumeration can overflow or round.
pub type Prob = BigRational;

/// The file letter of file index `f` (0 = a).
pub fn file_char(f: usize) -> char {
    (b'a' + f as u8) as char
}

/// The square name on White's back rank, e.g. `c1`.
pub fn square_name(f: usize) -> String {
    format!("{}1", file_char(f))
}

pub use crate::backrank::{letter as role_char, role_of_letter as parse_role};

/// One physical outcome.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A die face or a card number.
    Number(u32),
    /// Coins tossed together, heads = `true`, in the order the card names them.
    Coins(Vec<bool>),
    /// A piece drawn from a bag, or the piece a dealt playing card stands for.
    Piece(Role),
    /// Eight pieces in a row, a1 first (the squashed circle).
    Line([Role; 8]),
    /// A piece put on a back-rank square by a player (file 0 = a).
    Place(Role, usize),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Number(n) => write!(f, "{n}"),
            Outcome::Coins(c) => {
                for &h in c {
                    f.write_str(if h { "H" } else { "T" })?;
                }
                Ok(())
            }
            Outcome::Piece(r) => write!(f, "{}", role_char(*r)),
            Outcome::Line(roles) => {
                for &r in roles {
                    write!(f, "{}", role_char(r))?;
                }
                Ok(())
            }
            Outcome::Place(r, file) => write!(f, "{}@{}", role_char(*r), square_name(*file)),
        }
    }
}

/// What a procedure needs next: the physical action and what its result decides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The action, e.g. "roll the die".
    pub action: String,
    /// What the outcome decides, with the table to read it, e.g.
    /// "dark-squared bishop: 1=a1 2=c1 3=e1 4=g1, 5 or 6 = roll again".
    pub decides: String,
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} — {}", self.action, self.decides)
    }
}

/// Where a procedure stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Another outcome is needed.
    Need(Request),
    /// The back rank is complete.
    Done(BackRank),
}

/// What one outcome does.
#[derive(Debug, Clone)]
pub enum Effect<S> {
    /// Progress: the new state and what the outcome decided ("bishop on c1").
    Next(S, String),
    /// The outcome means "roll again" for the same step; the reason.
    Reroll(String),
    /// The outcome means "start the whole procedure over"; the reason.
    Restart(String),
}

/// A manual procedure as a pure state machine.
///
/// Invariants every implementation keeps (checked by the analysis and by the
/// tests): `outcomes` is non-empty exactly when `status` is `Need`, every
/// listed outcome is accepted by `apply`, and at least one listed outcome is
/// not a re-roll.
pub trait Procedure {
    /// Everything decided so far in the current attempt.
    type State: Clone + Eq + std::hash::Hash;

    /// The state before the first action.
    fn initial(&self) -> Self::State;

    /// What the state needs next, or the finished back rank.
    fn status(&self, state: &Self::State) -> Status;

    /// Every possible outcome of the pending action with its integer weight
    /// (probability = weight / sum of weights). Empty when done.
    fn outcomes(&self, state: &Self::State) -> Vec<(Outcome, u64)>;

    /// Read one token typed by a user for the pending action.
    ///
    /// # Errors
    /// A message saying what was expected.
    fn parse(&self, state: &Self::State, token: &str) -> Result<Outcome, String>;

    /// Split a typed word into several outcome tokens where that is natural
    /// (e.g. `HHTTTTHTTH` for ten flips, `RNBQKBNR` for eight draws).
    fn split(&self, token: &str) -> Vec<String> {
        vec![token.to_string()]
    }

    /// The outcomes a typed word is made of, one by one, whether or not
    /// they read (a card's `10` is one): where a word did not read, the
    /// first that does not is named by its place in the word. A procedure
    /// that reads no words of several outcomes (a die's `10` is no `1`
    /// then `0`) keeps the default: the word is one.
    fn units(&self, word: &str) -> Vec<String> {
        vec![word.to_string()]
    }

    /// Apply an outcome.
    ///
    /// # Errors
    /// A message when the outcome is impossible in this state (a card already
    /// dealt, an occupied square, …).
    fn apply(&self, state: &Self::State, outcome: &Outcome) -> Result<Effect<Self::State>, String>;
}

/// How one replayed outcome was used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    /// It decided something.
    Used,
    /// It meant "roll again".
    Reroll,
    /// It meant "start over".
    Restart,
}

/// One replayed outcome and what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The outcome as written back (e.g. `5`, `HT`, `Q@d1`).
    pub outcome: String,
    /// What it did, in words.
    pub note: String,
    /// Used, re-roll or restart.
    pub kind: EventKind,
}

/// The result of replaying (or simulating) outcomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// Every outcome in order with its effect.
    pub events: Vec<Event>,
    /// The finished back rank, or what is needed next.
    pub status: Status,
}

/// Why typed outcomes could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// An outcome could not be read or is impossible at its point.
    #[error("outcome {index} '{token}': {message}")]
    Bad {
        /// 1-based position among the outcomes (after splitting words).
        index: usize,
        /// The token as typed.
        token: String,
        /// What was expected.
        message: String,
    },
    /// More outcomes than the procedure needed.
    #[error("the position was complete after outcome {used}; {extra} outcome(s) left over starting at '{first}'")]
    LeftOver {
        /// Outcomes consumed.
        used: usize,
        /// How many remained.
        extra: usize,
        /// The first unused token.
        first: String,
    },
}

/// Replay typed outcomes through a procedure.
///
/// # Errors
/// [`ReplayError`] for an unreadable or impossible outcome, or outcomes left
/// over after the back rank was complete.
pub fn replay<P: Procedure>(p: &P, tokens: &[String]) -> Result<Replay, ReplayError> {
    let tokens: Vec<String> = tokens.iter().flat_map(|t| p.split(t)).collect();
    let mut state = p.initial();
    let mut events = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        if let Status::Done(_) = p.status(&state) {
            return Err(ReplayError::LeftOver {
                used: i,
                extra: tokens.len() - i,
                first: token.clone(),
            });
        }
        let bad = |message: String| ReplayError::Bad {
            index: i + 1,
            token: token.clone(),
            message,
        };
        let outcome = p
            .parse(&state, token)
            .map_err(|message| bad(name_bad_character(p, &state, token, message)))?;
        let effect = p.apply(&state, &outcome).map_err(bad)?;
        state = record(p, state, &outcome, effect, &mut events);
    }
    Ok(Replay {
        events,
        status: p.status(&state),
    })
}

/// A word of outcomes typed together (`RNBQKBNX`) that did not read: name
/// the first character that is no outcome on its own, where the others
/// are, so that a typo in a long word is found at once.
fn name_bad_character<P: Procedure>(
    p: &P,
    state: &P::State,
    token: &str,
    message: String,
) -> String {
    let units = p.units(token.trim());
    if units.len() < 2 {
        return message;
    }
    let reads = |u: &String| p.parse(state, u).is_ok();
    let Some(at) = units.iter().position(|u| !reads(u)) else {
        return message;
    };
    if !units.iter().any(reads) {
        return message;
    }
    // Its place in characters, as the person typed the word.
    let place: usize = units[..at].iter().map(|u| u.chars().count()).sum::<usize>() + 1;
    format!(
        "{message}; character {place} of the word, '{}', is not one",
        units[at]
    )
}

/// Run the physical procedure with a random generator, drawing each outcome
/// with the same weights the exact analysis uses.
///
/// # Panics
/// If a procedure breaks the [`Procedure`] invariants (no outcomes while not
/// done, or an outcome it lists but refuses) — a bug, not user input.
pub fn simulate<P: Procedure, R: Rng>(p: &P, rng: &mut R) -> Replay {
    let mut state = p.initial();
    let mut events = Vec::new();
    loop {
        if let Status::Done(_) = p.status(&state) {
            return Replay {
                events,
                status: p.status(&state),
            };
        }
        let options = p.outcomes(&state);
        let total: u64 = options.iter().map(|(_, w)| w).sum();
        assert!(total > 0, "procedure offers no outcome while not done");
        // The crate's own rejection sampling, not `gen_range`: a `--seed`
        // keeps naming the same simulation under any version of `rand`.
        let bound = u32::try_from(total).expect("one action's weights fit in 32 bits");
        let mut pick = u64::from(crate::startpos::below(rng, bound));
        let outcome = options
            .iter()
            .find(|(_, w)| {
                if pick < *w {
                    true
                } else {
                    pick -= w;
                    false
                }
            })
            .map(|(o, _)| o.clone())
            .expect("pick is below the total weight");
        let effect = p
            .apply(&state, &outcome)
            .unwrap_or_else(|e| panic!("listed outcome {outcome} refused: {e}"));
        state = record(p, state, &outcome, effect, &mut events);
    }
}

/// Log what one outcome did and return the state it leaves: the next state,
/// the same one (re-roll) or a fresh start (restart). Shared by [`replay`]
/// and [`simulate`] so that a typed-in and a simulated procedure are told
/// alike.
fn record<P: Procedure>(
    p: &P,
    state: P::State,
    outcome: &Outcome,
    effect: Effect<P::State>,
    events: &mut Vec<Event>,
) -> P::State {
    let (kind, note, next) = match effect {
        Effect::Next(next, note) => (EventKind::Used, note, next),
        Effect::Reroll(note) => (EventKind::Reroll, note, state),
        Effect::Restart(note) => (EventKind::Restart, note, p.initial()),
    };
    events.push(Event {
        outcome: outcome.to_string(),
        note,
        kind,
    });
    next
}

/// The exact distribution a procedure produces.
#[derive(Debug, Clone)]
pub struct Distribution {
    /// Probability of each start position, indexed by Scharnagl number.
    pub probabilities: Vec<Prob>,
    /// Expected number of physical actions (rolls, tosses, draws, …),
    /// re-rolls and restarts included.
    pub expected_actions: Prob,
    /// Probability that one attempt ends in a restart (0 for most procedures).
    pub restart_probability: Prob,
}

fn ratio(a: u64, b: u64) -> Prob {
    Prob::new(BigInt::from(a), BigInt::from(b))
}

struct Walker<'a, P: Procedure> {
    p: &'a P,
    probabilities: Vec<Prob>,
    expected: Prob,
    restart: Prob,
}

impl<P: Procedure> Walker<'_, P> {
    /// Visit `state`, reached with probability `q` within one attempt.
    fn visit(&mut self, state: &P::State, q: &Prob) {
        if let Status::Done(rank) = self.p.status(state) {
            self.probabilities[rank.scharnagl() as usize] += q;
            return;
        }
        let options = self.p.outcomes(state);
        let mut effects = Vec::with_capacity(options.len());
        let mut total = 0u64;
        let mut reroll = 0u64;
        for (o, w) in options {
            let effect = self
                .p
                .apply(state, &o)
                .unwrap_or_else(|e| panic!("listed outcome {o} refused: {e}"));
            total += w;
            if let Effect::Reroll(_) = effect {
                reroll += w;
            }
            effects.push((effect, w));
        }
        assert!(
            total > reroll,
            "a step where every outcome is a re-roll never ends"
        );
        let kept = total - reroll;
        // Re-rolls form a geometric series: the step takes total/kept actions
        // on average, and each kept outcome has probability w/kept.
        self.expected += q * ratio(total, kept);
        // Outcomes that lead to the same state (e.g. die faces 1-3 meaning
        // the same square) are explored once with their weights summed.
        let mut merged: Vec<(P::State, u64)> = Vec::new();
        let mut index: HashMap<P::State, usize> = HashMap::new();
        let mut restart = 0u64;
        for (effect, w) in effects {
            match effect {
                Effect::Next(next, _) => match index.get(&next) {
                    Some(&i) => merged[i].1 += w,
                    None => {
                        index.insert(next.clone(), merged.len());
                        merged.push((next, w));
                    }
                },
                Effect::Restart(_) => restart += w,
                Effect::Reroll(_) => {}
            }
        }
        if restart > 0 {
            self.restart += q * ratio(restart, kept);
        }
        for (next, w) in merged {
            let q2 = q * ratio(w, kept);
            self.visit(&next, &q2);
        }
    }
}

/// Enumerate every outcome sequence of one attempt exactly, then account for
/// restarts as a geometric series: with restart probability ρ per attempt,
/// position probabilities are divided by 1 − ρ and so is the expected number
/// of actions.
///
/// # Panics
/// If the procedure breaks the [`Procedure`] invariants or always restarts.
pub fn analyze<P: Procedure>(p: &P) -> Distribution {
    let mut w = Walker {
        p,
        probabilities: vec![Prob::zero(); COUNT as usize],
        expected: Prob::zero(),
        restart: Prob::zero(),
    };
    w.visit(&p.initial(), &Prob::one());
    let keep = Prob::one() - &w.restart;
    assert!(
        keep > Prob::zero(),
        "a procedure that always restarts never ends"
    );
    Distribution {
        probabilities: w.probabilities.iter().map(|x| x / &keep).collect(),
        expected_actions: &w.expected / &keep,
        restart_probability: w.restart,
    }
}

/// The fewest and the most physical actions over all ways through the
/// procedure that never meet a re-roll or a restart — for procedures without
/// re-rolls, the exact range of actions a user will need ("5 to 6 rolls").
///
/// # Panics
/// If the procedure breaks the [`Procedure`] invariants.
pub fn action_range<P: Procedure>(p: &P) -> (usize, usize) {
    fn walk<P: Procedure>(
        p: &P,
        s: &P::State,
        depth: usize,
        seen: &mut std::collections::HashSet<(P::State, usize)>,
        range: &mut (usize, usize),
    ) {
        if !seen.insert((s.clone(), depth)) {
            return;
        }
        if let Status::Done(_) = p.status(s) {
            range.0 = range.0.min(depth);
            range.1 = range.1.max(depth);
            return;
        }
        for (o, _) in p.outcomes(s) {
            if let Ok(Effect::Next(next, _)) = p.apply(s, &o) {
                walk(p, &next, depth + 1, seen, range);
            }
        }
    }
    let mut range = (usize::MAX, 0);
    walk(
        p,
        &p.initial(),
        0,
        &mut std::collections::HashSet::new(),
        &mut range,
    );
    range
}
