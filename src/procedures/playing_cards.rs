//! The playing-card deal with held pieces (the Chess960 starting-position survey).
//!
//! Take the king, queen, two jacks, two aces and two tens of a deck; deal
//! them one by one onto a1, b1, …; "to deal with a card that would be
//! illegal, just hold that piece to the side until it is legal to place. When
//! a legal square opens, place the held piece."
//!
//! Reconstructed details (the source leaves them open):
//! * Cards: king = king, queen = queen, jacks = knights, aces = rooks, tens =
//!   bishops (the source only fixes king and queen).
//! * "Illegal" means: with this piece on the next square no legal back rank
//!   can be completed any more. For a person that is four rules: (1) the
//!   second bishop may not go on the first bishop's colour; (2) the king may
//!   not come before a rook; (3) the second rook may not come before the
//!   king; (4) while the second bishop is still to come, the last empty
//!   square of its colour is kept for it. The tests check these four rules
//!   agree with "can still be completed" in every reachable case.
//! * After each placement the held pieces are tried first, oldest first, on
//!   the next square; a new card is dealt only when none fits. At most two
//!   pieces are ever held.
//!
//! The deal (5040 equally likely orders) decides everything, so each
//! position's probability is a multiple of 1/5040: 960 does not divide 5040
//! and the method cannot be uniform.

use std::collections::HashSet;
use std::sync::OnceLock;

use shakmaty::Role;

use super::framework::{square_name, Effect, Outcome, Procedure, Request, Status};
use super::rank::{full_count, is_dark, role_name, PIECES};
use crate::numbering::{all_back_ranks, BackRank};

/// The procedure (no parameters).
#[derive(Debug, Clone, Copy, Default)]
pub struct PlayingCards;

/// The row placed so far, the pieces held, and how many cards were dealt.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// Pieces placed, a1 first.
    pub placed: Vec<Role>,
    /// Pieces held aside, oldest first.
    pub held: Vec<Role>,
    /// Cards dealt so far.
    pub dealt: usize,
}

/// The printable card.
pub const CARD: &str = "\
PLAYING CARDS — king, queen, two jacks, two aces, two tens (the Chess960 starting-position survey)
Card = piece: K king, Q queen, J knight, A rook, 10 bishop.
 1. Shuffle and cut the eight cards. Deal them one at a time; each piece goes
    on the next empty square, a1 first.
 2. A piece that would make the row illegal is held aside instead:
      - the second bishop on a square of the first bishop's colour;
      - the king before any rook;
      - the second rook before the king;
      - any piece but the second bishop on the last empty square of the
        colour that bishop still needs.
 3. After every placement, try the held pieces (oldest first) on the next
    square before dealing another card.
Black mirrors White.

8 cards. NOT uniform (probabilities are multiples of 1/5040).
";

/// How to type this procedure's outcomes to `roll` (not on the printed card).
pub const TYPING: &str = "\
Type the deal as piece letters or card names: K Q J A 10 (T = 10),
e.g. N Q K B N R R B or J Q K 10 J A A 10 (gives NQBNRKRB).
";

/// Every prefix of the 960 legal back ranks.
fn prefixes() -> &'static HashSet<Vec<Role>> {
    static SET: OnceLock<HashSet<Vec<Role>>> = OnceLock::new();
    SET.get_or_init(|| {
        let mut set = HashSet::new();
        for rank in all_back_ranks() {
            let roles = rank.roles();
            for len in 0..=8 {
                set.insert(roles[..len].to_vec());
            }
        }
        set
    })
}

/// Whether `row` followed by `next` can still be completed to a legal rank.
pub fn fits(row: &[Role], next: Role) -> bool {
    let mut v = row.to_vec();
    v.push(next);
    prefixes().contains(&v)
}

/// The four rules of the printed card, for checking against [`fits`]:
/// whether `next` may be placed after `row` (all pieces of the set assumed
/// still available in total).
pub fn card_rules_allow(row: &[Role], next: Role) -> bool {
    let square = row.len();
    let count = |r: Role| row.iter().filter(|&&x| x == r).count();
    let bishops: Vec<usize> = (0..row.len()).filter(|&f| row[f] == Role::Bishop).collect();
    match next {
        Role::Bishop if bishops.len() == 1 && is_dark(bishops[0]) == is_dark(square) => {
            return false
        }
        Role::King if count(Role::Rook) == 0 => return false,
        Role::Rook if count(Role::Rook) == 1 && count(Role::King) == 0 => return false,
        _ => {}
    }
    if bishops.len() == 1 && next != Role::Bishop {
        let needed_dark = !is_dark(bishops[0]);
        let left_of_colour = (square..8).filter(|&f| is_dark(f) == needed_dark).count();
        if is_dark(square) == needed_dark && left_of_colour == 1 {
            return false;
        }
    }
    true
}

fn in_deck(s: &State, role: Role) -> usize {
    let used = s
        .placed
        .iter()
        .chain(&s.held)
        .filter(|&&r| r == role)
        .count();
    full_count(role) - used
}

fn card_name(role: Role) -> &'static str {
    match role {
        Role::King => "K",
        Role::Queen => "Q",
        Role::Knight => "J",
        Role::Rook => "A",
        _ => "10",
    }
}

impl Procedure for PlayingCards {
    type State = State;

    fn initial(&self) -> State {
        State::default()
    }

    fn status(&self, s: &State) -> Status {
        if s.placed.len() == 8 {
            let mut row = PIECES;
            row.copy_from_slice(&s.placed);
            return Status::Done(BackRank::new(row).expect("the deal only places legal prefixes"));
        }
        let held = if s.held.is_empty() {
            String::new()
        } else {
            let names: Vec<&str> = s.held.iter().map(|&r| role_name(r)).collect();
            format!(" (held: {})", names.join(", "))
        };
        Status::Need(Request {
            action: format!("deal the next card (card {} of 8)", s.dealt + 1),
            decides: format!(
                "the piece for {} unless it must be held{held}",
                square_name(s.placed.len())
            ),
        })
    }

    fn outcomes(&self, s: &State) -> Vec<(Outcome, u64)> {
        if s.placed.len() == 8 {
            return Vec::new();
        }
        [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
        ]
        .into_iter()
        .filter_map(|r| {
            let n = in_deck(s, r);
            (n > 0).then_some((Outcome::Piece(r), n as u64))
        })
        .collect()
    }

    fn split(&self, token: &str) -> Vec<String> {
        // The card says "10"; inside a word it is one card, as T is.
        let units = self.units(token.trim());
        if units.len() > 1
            && units
                .iter()
                .all(|u| u == "10" || "RNBQKAJTrnbqkajt".contains(u.as_str()))
        {
            units
        } else {
            vec![token.trim().to_string()]
        }
    }

    fn units(&self, word: &str) -> Vec<String> {
        let mut units = Vec::new();
        let mut rest = word;
        while let Some(c) = rest.chars().next() {
            let unit = if rest.starts_with("10") {
                "10"
            } else {
                &rest[..c.len_utf8()]
            };
            units.push(unit.to_owned());
            rest = &rest[unit.len()..];
        }
        units
    }

    fn parse(&self, _s: &State, token: &str) -> Result<Outcome, String> {
        let role = match token.trim().to_ascii_uppercase().as_str() {
            "K" => Role::King,
            "Q" => Role::Queen,
            "J" | "N" => Role::Knight,
            "A" | "R" => Role::Rook,
            "10" | "T" | "B" => Role::Bishop,
            _ => return Err("expected a card K, Q, J, A, 10 (or a piece letter R N B Q K)".into()),
        };
        Ok(Outcome::Piece(role))
    }

    fn apply(&self, s: &State, o: &Outcome) -> Result<Effect<State>, String> {
        let Outcome::Piece(role) = *o else {
            return Err("expected a card".into());
        };
        if s.placed.len() == 8 {
            return Err("the position is already complete".into());
        }
        if in_deck(s, role) == 0 {
            return Err(format!(
                "no {} ({}) left in the deck",
                role_name(role),
                card_name(role)
            ));
        }
        let mut next = s.clone();
        next.dealt += 1;
        let mut notes = Vec::new();
        if fits(&next.placed, role) {
            notes.push(format!(
                "{} on {}",
                role_name(role),
                square_name(next.placed.len())
            ));
            next.placed.push(role);
        } else {
            notes.push(format!(
                "{} cannot go on {}: held",
                role_name(role),
                square_name(next.placed.len())
            ));
            next.held.push(role);
        }
        // Held pieces get the next square first, oldest first.
        while let Some(i) = next.held.iter().position(|&h| fits(&next.placed, h)) {
            let h = next.held.remove(i);
            notes.push(format!(
                "held {} now fits on {}",
                role_name(h),
                square_name(next.placed.len())
            ));
            next.placed.push(h);
        }
        Ok(Effect::Next(next, notes.join("; ")))
    }
}
