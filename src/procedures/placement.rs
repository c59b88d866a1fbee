//! The non-random setup of a club's rules (Modbury Chess Club rules): players place pieces
//! in turn.
//!
//! "The white Bishops, Knights, and Queen are gathered together. Starting
//! with Black, the players, in turn, place one of these pieces on White's
//! back rank, where it must stay. The only restriction is that the Bishops
//! must go on opposite coloured squares. ... After all five pieces have been
//! put on the board the King must be placed on the middle of the three vacant
//! back rank squares that remain. Rooks go on the other two."
//!
//! Outcomes are placements written `Q@d1` (piece B, N or Q, then a square of
//! rank 1). Black places the 1st, 3rd and 5th piece, White the 2nd and 4th.
//!
//! This procedure is not random: the players choose. `analyze` reports, as a
//! reference model only, what would happen if every legal placement were
//! chosen with equal probability at every turn.

use shakmaty::Role;

use super::framework::{parse_role, square_name, Effect, Outcome, Procedure, Request, Status};
use super::rank::{full_count, is_dark, role_name, Partial};

/// The procedure (no parameters).
#[derive(Debug, Clone, Copy, Default)]
pub struct Placement;

/// The rank so far and the number of pieces placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct State {
    /// Pieces placed (bishops, knights, queen).
    pub rank: Partial,
    /// How many of the five have been placed.
    pub placed: usize,
}

/// The printable card.
pub const CARD: &str = "\
PLACEMENT — the players choose (Modbury Chess Club rules, non-random setup)
 1. Clear the back ranks. Gather White's two bishops, two knights and queen.
 2. Starting with Black, the players take turns to put one of these pieces
    on an empty square of White's back rank; it stays there.
    (Black places pieces 1, 3 and 5; White places 2 and 4.)
    The bishops must stand on squares of opposite colours: the second bishop
    goes on a square of the colour the first one does not use. There is
    always such a square left.
 3. Put the king on the middle one of the three empty squares and the rooks
    on the other two.
Black mirrors White.

5 placements.
";

/// How to type this procedure's outcomes to `roll` (not on the printed card).
pub const TYPING: &str = "\
Type the placements as piece@square, e.g. B@c1 N@b1 Q@d1 B@f1 N@g1.
";

fn available(rank: &Partial, role: Role) -> usize {
    full_count(role) - rank.files_of(role).len()
}

/// Why `role` may not go on `file`, if it may not.
fn refusal(rank: &Partial, role: Role, file: usize) -> Option<String> {
    if !matches!(role, Role::Bishop | Role::Knight | Role::Queen) {
        return Some(
            "players place only bishops, knights and the queen; king and rooks come last".into(),
        );
    }
    if available(rank, role) == 0 {
        return Some(format!("no {} left to place", role_name(role)));
    }
    if rank.0[file].is_some() {
        return Some(format!("{} is already taken", square_name(file)));
    }
    if role == Role::Bishop {
        if let Some(&b) = rank.files_of(Role::Bishop).first() {
            if is_dark(b) == is_dark(file) {
                return Some(format!(
                    "the bishops must stand on opposite colours; the first is on {}",
                    square_name(b)
                ));
            }
        }
    }
    None
}

fn player(placed: usize) -> &'static str {
    if placed.is_multiple_of(2) {
        "Black"
    } else {
        "White"
    }
}

impl Procedure for Placement {
    type State = State;

    fn initial(&self) -> State {
        State::default()
    }

    fn status(&self, s: &State) -> Status {
        if s.placed == 5 {
            return Status::Done(
                s.rank
                    .with_rook_king_rook()
                    .back_rank()
                    .expect("placements keep the bishops on opposite colours"),
            );
        }
        let left: Vec<String> = [Role::Bishop, Role::Knight, Role::Queen]
            .into_iter()
            .filter(|&r| available(&s.rank, r) > 0)
            .map(|r| format!("{}x{}", available(&s.rank, r), role_name(r)))
            .collect();
        Status::Need(Request {
            action: format!("{} places piece {} of 5", player(s.placed), s.placed + 1),
            decides: format!(
                "a piece (left: {}) on an empty square, e.g. Q@d1",
                left.join(", ")
            ),
        })
    }

    fn outcomes(&self, s: &State) -> Vec<(Outcome, u64)> {
        if s.placed == 5 {
            return Vec::new();
        }
        let mut out = Vec::new();
        for role in [Role::Bishop, Role::Knight, Role::Queen] {
            for f in 0..8 {
                if refusal(&s.rank, role, f).is_none() {
                    out.push((Outcome::Place(role, f), 1));
                }
            }
        }
        out
    }

    fn parse(&self, _s: &State, token: &str) -> Result<Outcome, String> {
        let t = token.trim();
        let mut chars = t.chars();
        let role = chars.next().and_then(parse_role);
        let rest: String = chars.collect();
        let sq = rest.strip_prefix('@').unwrap_or(&rest).to_ascii_lowercase();
        let sq: Vec<char> = sq.chars().collect();
        match (role, sq.as_slice()) {
            (Some(role), [f @ 'a'..='h', '1']) => {
                Ok(Outcome::Place(role, (*f as u8 - b'a') as usize))
            }
            _ => Err(
                "expected a placement such as Q@d1 (piece B, N or Q; a square on rank 1)".into(),
            ),
        }
    }

    fn apply(&self, s: &State, o: &Outcome) -> Result<Effect<State>, String> {
        let Outcome::Place(role, f) = *o else {
            return Err("expected a placement".into());
        };
        if s.placed == 5 {
            return Err("all five pieces are placed".into());
        }
        if let Some(why) = refusal(&s.rank, role, f) {
            return Err(why);
        }
        let next = State {
            rank: s.rank.with(f, role),
            placed: s.placed + 1,
        };
        let mut note = format!(
            "{} puts a {} on {}",
            player(s.placed),
            role_name(role),
            square_name(f)
        );
        if next.placed == 5 {
            note.push_str(&format!(
                "; king in the middle of the three empty squares, rooks beside: {}",
                next.rank.with_rook_king_rook().text()
            ));
        }
        Ok(Effect::Next(next, note))
    }
}
