//! The manual procedures clubs use to pick a Chess960 start position with
//! dice, coins, cards or a bag of pieces (the five source documents named in docs/procedures.md), each as a pure
//! function from physical outcomes to a back rank, and their exact analysis.
//!
//! * [`framework`] — the state-machine shape every procedure has, and the
//!   generic replay, simulation and exact enumeration built on it.
//! * one module per procedure (see [`Method`] for the command-line names).
//! * [`analysis`] — fairness figures from an exact distribution, and the
//!   optimal-die bound the sources quote.
//! * [`svg`] — the probability chart and a printable board diagram.

pub mod analysis;
pub mod bodlaender;
pub mod boulina;
pub mod circle;
pub mod coffin;
pub mod framework;
pub mod northam;
pub mod numbered_cards;
pub mod placement;
pub mod platonic;
pub mod playing_cards;
pub mod rank;
pub mod rovida;
pub mod svg;
pub mod ten_flips;

use std::fmt;
use std::str::FromStr;

pub use framework::{
    action_range, analyze, replay, simulate, Distribution, Event, EventKind, Outcome, Procedure,
    Replay, ReplayError, Request, Status,
};

/// Run `$body` with `$p` bound to the procedure value of method `$m`.
macro_rules! with_procedure {
    ($m:expr, $p:ident => $body:expr) => {
        match $m {
            Method::BodlaenderDie => {
                let $p = bodlaender::BodlaenderDie;
                $body
            }
            Method::RovidaDie => {
                let $p = rovida::RovidaDie;
                $body
            }
            Method::NorthamCoins => {
                let $p = northam::Coins::two();
                $body
            }
            Method::ThreeCoins => {
                let $p = northam::Coins::three();
                $body
            }
            Method::CoffinBag => {
                let $p = coffin::CoffinBag;
                $body
            }
            Method::Circle => {
                let $p = circle::Circle;
                $body
            }
            Method::NumberedCards => {
                let $p = numbered_cards::NumberedCards;
                $body
            }
            Method::PlayingCards => {
                let $p = playing_cards::PlayingCards;
                $body
            }
            Method::PlatonicDice => {
                let $p = platonic::PlatonicDice;
                $body
            }
            Method::TenFlips => {
                let $p = ten_flips::TenFlips;
                $body
            }
            Method::Boulina => {
                let $p = boulina::Boulina;
                $body
            }
            Method::Placement => {
                let $p = placement::Placement;
                $body
            }
        }
    };
}

/// The procedures, by their command-line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// One six-sided die, re-rolling faces that name no square (the survey, the Modbury Chess Club rules, the Chess Variant Pages procedure).
    BodlaenderDie,
    /// One die, pieces ordered so that no re-roll is ever needed (the Chess960 starting-position survey).
    RovidaDie,
    /// Edward Northam's two distinguishable coins (the Chess960 starting-position survey).
    NorthamCoins,
    /// Two coins plus a third worth 0 or 4, following the die order (the Chess960 starting-position survey).
    ThreeCoins,
    /// David J. Coffin's bag of pieces with bishop and king corrections (the survey, the Chess Variant Pages procedure).
    CoffinBag,
    /// Pieces in a circle squashed into a line, retried until the bishops differ (the Chess960 starting-position survey).
    Circle,
    /// Eight cards numbered 1–8 with a random bishop move (the Chess960 starting-position survey).
    NumberedCards,
    /// Eight playing cards dealt left to right, holding pieces that do not fit yet (the Chess960 starting-position survey).
    PlayingCards,
    /// A d8, d4, d6 and d20 thrown together, never re-rolled (the Chess960 starting-position survey).
    PlatonicDice,
    /// Ten coin flips read as a binary Scharnagl number (Atanas K. Stefanov, Generating Chess960 positions with a coin).
    TenFlips,
    /// The BOU.LI.NA. eight cards in odd and even stacks (the BOU.LI.NA. text).
    Boulina,
    /// The non-random setup: players place pieces in turn (Modbury Chess Club rules).
    Placement,
}

impl Method {
    /// Every method, in the order they are listed to users.
    pub const ALL: [Method; 12] = [
        Method::BodlaenderDie,
        Method::RovidaDie,
        Method::NorthamCoins,
        Method::ThreeCoins,
        Method::CoffinBag,
        Method::Circle,
        Method::NumberedCards,
        Method::PlayingCards,
        Method::PlatonicDice,
        Method::TenFlips,
        Method::Boulina,
        Method::Placement,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Method::BodlaenderDie => "bodlaender-die",
            Method::RovidaDie => "rovida-die",
            Method::NorthamCoins => "northam-coins",
            Method::ThreeCoins => "three-coins",
            Method::CoffinBag => "coffin-bag",
            Method::Circle => "circle",
            Method::NumberedCards => "numbered-cards",
            Method::PlayingCards => "playing-cards",
            Method::PlatonicDice => "platonic-dice",
            Method::TenFlips => "ten-flips",
            Method::Boulina => "boulina",
            Method::Placement => "placement",
        }
    }

    /// What one physical action is called, singular and plural.
    pub fn unit(self) -> (&'static str, &'static str) {
        match self {
            Method::BodlaenderDie | Method::RovidaDie => ("die roll", "die rolls"),
            Method::NorthamCoins | Method::ThreeCoins => ("toss", "tosses"),
            Method::CoffinBag => ("draw", "draws"),
            Method::Circle => ("attempt", "attempts"),
            Method::NumberedCards | Method::Boulina => ("card drawn", "cards drawn"),
            Method::PlayingCards => ("card dealt", "cards dealt"),
            Method::PlatonicDice => ("die read", "dice read (one throw)"),
            Method::TenFlips => ("flip", "flips"),
            Method::Placement => ("placement", "placements"),
        }
    }

    /// Whether the procedure is random at all (the placement setup is chosen
    /// by the players; its analysis assumes each legal placement equally
    /// likely, as a reference only).
    pub fn is_random(self) -> bool {
        self != Method::Placement
    }

    /// The printable step-by-step card with its tables (what a table needs,
    /// without the typing hint of [`Method::typing`]).
    pub fn explain(self) -> &'static str {
        match self {
            Method::BodlaenderDie => bodlaender::CARD,
            Method::RovidaDie => rovida::CARD,
            Method::NorthamCoins => northam::CARD_TWO,
            Method::ThreeCoins => northam::CARD_THREE,
            Method::CoffinBag => coffin::CARD,
            Method::Circle => circle::CARD,
            Method::NumberedCards => numbered_cards::CARD,
            Method::PlayingCards => playing_cards::CARD,
            Method::PlatonicDice => platonic::CARD,
            Method::TenFlips => ten_flips::CARD,
            Method::Boulina => boulina::CARD,
            Method::Placement => placement::CARD,
        }
    }

    /// How to type this procedure's outcomes to `roll`: said after the card
    /// on the terminal, left off the printed card (a table has no keyboard).
    pub fn typing(self) -> &'static str {
        match self {
            Method::BodlaenderDie => bodlaender::TYPING,
            Method::RovidaDie => rovida::TYPING,
            Method::NorthamCoins => northam::TYPING_TWO,
            Method::ThreeCoins => northam::TYPING_THREE,
            Method::CoffinBag => coffin::TYPING,
            Method::Circle => circle::TYPING,
            Method::NumberedCards => numbered_cards::TYPING,
            Method::PlayingCards => playing_cards::TYPING,
            Method::PlatonicDice => platonic::TYPING,
            Method::TenFlips => ten_flips::TYPING,
            Method::Boulina => boulina::TYPING,
            Method::Placement => placement::TYPING,
        }
    }

    /// Replay typed outcomes.
    ///
    /// # Errors
    /// [`ReplayError`] for an unreadable or impossible outcome, or leftovers.
    pub fn replay(self, tokens: &[String]) -> Result<Replay, ReplayError> {
        with_procedure!(self, p => replay(&p, tokens))
    }

    /// Simulate the physical procedure.
    pub fn simulate<R: rand::Rng>(self, rng: &mut R) -> Replay {
        with_procedure!(self, p => simulate(&p, rng))
    }

    /// Fewest and most actions over the paths without re-roll or restart.
    pub fn action_range(self) -> (usize, usize) {
        with_procedure!(self, p => action_range(&p))
    }

    /// The exact distribution over the 960 positions.
    pub fn distribution(self) -> Distribution {
        with_procedure!(self, p => analyze(&p))
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown method name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown method '{0}': valid methods are {list}", list = method_list())]
pub struct UnknownMethod(pub String);

fn method_list() -> String {
    Method::ALL
        .iter()
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for Method {
    type Err = UnknownMethod;

    fn from_str(s: &str) -> Result<Method, UnknownMethod> {
        let lower = s.trim().to_ascii_lowercase();
        Method::ALL
            .into_iter()
            .find(|m| m.name() == lower)
            .ok_or_else(|| UnknownMethod(s.to_string()))
    }
}
