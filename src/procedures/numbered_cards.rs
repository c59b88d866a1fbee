//! Eight cards numbered 1–8 with David Wheeler's random bishop move (the Chess960 starting-position survey).
//!
//! Cards stand for the pieces of the standard array: 1, 8 = rook; 2, 7 =
//! knight; 3, 6 = bishop; 4 = queen; 5 = king. Shuffle and deal them in a row
//! onto a1..h1. If the bishops are on the same colour, mix the eight cards
//! face down and pick one: 1–4 moves the a-side bishop, 5–8 (minus 4) the
//! h-side bishop, to the indicated square of the other colour, counted from
//! the a-side. Then a king outside the rooks trades places with the nearest
//! rook.
//!
//! Reconstructed details: the source does not say what happens to the piece
//! standing on the bishop's target square; all eight squares are full, so it
//! must trade places with the bishop (the bishop's old square is the only one
//! free). The text after the king rule ("OR ...") is lost; we use the king
//! rule as given.
//!
//! The seed calls this method unfair; the exact analysis says otherwise. Each
//! opposite-colour row X is reached from itself (1/5040) and from six
//! same-colour rows (the bishop that moved × the three squares of the other
//! bishop's colour it can have come from), each followed by the one card in
//! eight that makes that move: 1/5040 + 6/(8·5040) = 1/2880, the same for
//! all 2880 rows (the source's own introduction says so of Wheeler's move). The
//! king rule then maps three rows to each position: uniform, 1/960.

use shakmaty::Role;

use super::bodlaender::parse_face;
use super::framework::{square_name, Effect, Outcome, Procedure, Request, Status};
use super::rank::{bishops_opposite, is_dark, king_between_rooks, role_name, row_text, PIECES};
use crate::numbering::BackRank;

/// The procedure (no parameters).
#[derive(Debug, Clone, Copy, Default)]
pub struct NumberedCards;

/// Cards dealt so far, and the extra card if one was drawn.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// Card numbers dealt onto a1, b1, …
    pub dealt: Vec<u32>,
    /// The card picked for the bishop move.
    pub extra: Option<u32>,
}

/// The printable card.
pub const CARD: &str = "\
EIGHT NUMBERED CARDS — cards marked 1 to 8 (the Chess960 starting-position survey)
Card = piece: 1,8 rook   2,7 knight   3,6 bishop   4 queen   5 king
 1. Shuffle the eight cards and deal them in a row onto a1 ... h1.
    Put the piece each card names on its square.
 2. If both bishops stand on squares of the same colour: gather the eight
    cards face down, mix them and pick one.
      1-4: the a-side bishop moves to the 1st-4th square of the OTHER colour
           (counted from the a-side); the piece there takes the bishop's square.
      5-8: subtract 4; the same for the h-side bishop.
 3. If the king is not between the rooks, he trades places with the nearest rook.
Black mirrors White.

Every position equally likely (exact analysis; the source says otherwise).
8 cards dealt, plus one more with probability 3/7: 59/7 cards on average.
";

/// How to type this procedure's outcomes to `roll` (not on the printed card).
pub const TYPING: &str = "\
Type the dealt numbers a1 first (e.g. 1 2 3 4 5 6 7 8), then the extra card.
";

/// The piece a card number stands for.
pub fn card_piece(card: u32) -> Role {
    match card {
        1 | 8 => Role::Rook,
        2 | 7 => Role::Knight,
        3 | 6 => Role::Bishop,
        4 => Role::Queen,
        _ => Role::King,
    }
}

fn dealt_row(dealt: &[u32]) -> [Role; 8] {
    let mut row = PIECES;
    for (slot, &c) in row.iter_mut().zip(dealt) {
        *slot = card_piece(c);
    }
    row
}

/// The bishop move for extra card `card`: returns the new row and a note.
pub fn bishop_move(row: [Role; 8], card: u32) -> ([Role; 8], String) {
    let bishops: Vec<usize> = (0..8).filter(|&f| row[f] == Role::Bishop).collect();
    let (from, k, side) = if card <= 4 {
        (bishops[0], card as usize, "a-side")
    } else {
        (bishops[1], card as usize - 4, "h-side")
    };
    let other: Vec<usize> = (0..8).filter(|&f| is_dark(f) != is_dark(from)).collect();
    let to = other[k - 1];
    let mut out = row;
    out.swap(from, to);
    let note = format!(
        "card {card}: the {side} bishop on {} moves to {} (the {} square of the other colour); the {} there goes to {}",
        square_name(from),
        square_name(to),
        super::rank::ordinal(k),
        role_name(row[to]),
        square_name(from)
    );
    (out, note)
}

fn finish(row: [Role; 8]) -> ([Role; 8], Option<String>) {
    king_between_rooks(row)
}

impl Procedure for NumberedCards {
    type State = State;

    fn initial(&self) -> State {
        State::default()
    }

    fn status(&self, s: &State) -> Status {
        if s.dealt.len() < 8 {
            return Status::Need(Request {
                action: format!("deal the next card (card {} of 8)", s.dealt.len() + 1),
                decides: format!(
                    "the piece on {}: 1,8 rook 2,7 knight 3,6 bishop 4 queen 5 king",
                    square_name(s.dealt.len())
                ),
            });
        }
        let row = dealt_row(&s.dealt);
        let row = if bishops_opposite(&row) {
            row
        } else if let Some(card) = s.extra {
            bishop_move(row, card).0
        } else {
            let b: Vec<usize> = (0..8).filter(|&f| row[f] == Role::Bishop).collect();
            return Status::Need(Request {
                action: "gather the eight cards face down, mix them and pick one".into(),
                decides: format!(
                    "bishops on {} and {} share a colour: 1-4 move the a-side bishop ({}), 5-8 the h-side bishop ({}), to that square of the other colour",
                    square_name(b[0]),
                    square_name(b[1]),
                    square_name(b[0]),
                    square_name(b[1])
                ),
            });
        };
        let (row, _) = finish(row);
        Status::Done(BackRank::new(row).expect("the card method ends in a legal rank"))
    }

    fn outcomes(&self, s: &State) -> Vec<(Outcome, u64)> {
        match self.status(s) {
            Status::Done(_) => Vec::new(),
            Status::Need(_) if s.dealt.len() < 8 => (1..=8)
                .filter(|c| !s.dealt.contains(c))
                .map(|c| (Outcome::Number(c), 1))
                .collect(),
            Status::Need(_) => (1..=8).map(|c| (Outcome::Number(c), 1)).collect(),
        }
    }

    /// Words are read letter by letter ([`Procedure::split`]).
    fn units(&self, word: &str) -> Vec<String> {
        word.chars().map(String::from).collect()
    }

    fn split(&self, token: &str) -> Vec<String> {
        let t = token.trim();
        if t.len() > 1 && t.chars().all(|c| ('1'..='8').contains(&c)) {
            t.chars().map(|c| c.to_string()).collect()
        } else {
            vec![t.to_string()]
        }
    }

    fn parse(&self, _s: &State, token: &str) -> Result<Outcome, String> {
        parse_face(token, 8).map_err(|_| "expected a card number 1..8".to_string())
    }

    fn apply(&self, s: &State, o: &Outcome) -> Result<Effect<State>, String> {
        let Outcome::Number(card) = *o else {
            return Err("expected a card number".into());
        };
        if let Status::Done(_) = self.status(s) {
            return Err("the position is already complete".into());
        }
        let mut next = s.clone();
        if s.dealt.len() < 8 {
            if s.dealt.contains(&card) {
                return Err(format!("card {card} was already dealt"));
            }
            next.dealt.push(card);
            let mut note = format!(
                "{} on {}",
                role_name(card_piece(card)),
                square_name(s.dealt.len())
            );
            if next.dealt.len() == 8 {
                let row = dealt_row(&next.dealt);
                note.push_str(&format!("; dealt row {}", row_text(&row)));
                if bishops_opposite(&row) {
                    let (fixed, k) = finish(row);
                    if let Some(k) = k {
                        note.push_str(&format!("; {k}"));
                    }
                    note.push_str(&format!(" -> {}", row_text(&fixed)));
                } else {
                    note.push_str("; bishops on the same colour: pick one more card");
                }
            }
            return Ok(Effect::Next(next, note));
        }
        next.extra = Some(card);
        let (moved, mut note) = bishop_move(dealt_row(&s.dealt), card);
        let (fixed, k) = finish(moved);
        if let Some(k) = k {
            note.push_str(&format!("; {k}"));
        }
        note.push_str(&format!(" -> {}", row_text(&fixed)));
        Ok(Effect::Next(next, note))
    }
}
