//! Static-evaluation correction by pawn structure.
//!
//! The hand-tuned evaluation misjudges some pawn structures in a
//! consistent direction (a blocked centre, a pawn storm it does not see).
//! The search finds out: where a node's searched score lies beyond its
//! static eval, the difference is evidence about that structure. This
//! table keeps a running average of those differences per pawn structure
//! and side to move, and the search adds it to the static eval of later
//! nodes with the same pawns, so pruning decisions (reverse futility, null
//! move, futility, the quiescence stand-pat) rest on a better estimate.
//!
//! The table is per search thread and persists between the searches of a
//! game, like the move-ordering histories.

use shakmaty::{Chess, Color, Position};

use crate::eval::pawn_key;

/// Entries per side to move (a power of two).
const SIZE: usize = 16_384;

/// Fixed-point scale of an entry: an entry of `GRAIN` is one centipawn.
const GRAIN: i32 = 256;

/// Entries stay within this many centipawns either way.
const LIMIT_CP: i32 = 64;

/// Weight (out of 256) of one new observation at most.
const MAX_WEIGHT: i32 = 16;

/// Running averages of (searched score - static eval) by pawn structure.
pub struct Correction {
    table: Vec<[i32; SIZE]>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

/// Index of `pos`'s pawn structure. Two structures sharing an index share
/// an average, which only blurs a correction that is bounded anyway.
fn index(pos: &Chess) -> usize {
    (pawn_key(pos.board()) >> (64 - SIZE.trailing_zeros())) as usize
}

fn side(pos: &Chess) -> usize {
    usize::from(pos.turn() == Color::Black)
}

impl Correction {
    /// An empty table (no correction anywhere).
    pub fn new() -> Correction {
        Correction {
            table: vec![[0; SIZE]; 2],
        }
    }

    /// The correction, in centipawns, for the side to move in `pos`.
    pub fn get(&self, pos: &Chess) -> i32 {
        self.table[side(pos)][index(pos)] / GRAIN
    }

    /// Record that a search to `depth` found `score` where the raw static
    /// eval said `raw_eval` (both for the side to move). Deeper searches
    /// weigh more; the entry moves toward the new difference.
    pub fn update(&mut self, pos: &Chess, depth: i32, score: i32, raw_eval: i32) {
        let diff = (score - raw_eval).clamp(-4 * LIMIT_CP, 4 * LIMIT_CP) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let cell = &mut self.table[side(pos)][index(pos)];
        let blended = (*cell * (256 - weight) + diff * weight) / 256;
        *cell = blended.clamp(-LIMIT_CP * GRAIN, LIMIT_CP * GRAIN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Chess960)
            .unwrap()
    }

    #[test]
    fn learns_toward_the_search_and_stays_bounded() {
        let mut c = Correction::new();
        let p = pos("4k3/pp3ppp/8/8/8/8/PP3PPP/4K3 w - - 0 1");
        assert_eq!(c.get(&p), 0);
        for _ in 0..10 {
            c.update(&p, 10, 100, 40);
        }
        let after = c.get(&p);
        assert!(after > 10 && after <= 60, "{after}");
        for _ in 0..10_000 {
            c.update(&p, 20, 5_000, -5_000);
        }
        assert_eq!(c.get(&p), LIMIT_CP);
    }

    #[test]
    fn keyed_by_pawns_and_side_only() {
        let mut c = Correction::new();
        let a = pos("4k3/pp3ppp/8/8/8/8/PP3PPP/4K3 w - - 0 1");
        // Same pawns and side, other pieces: shares the entry.
        let b = pos("3qk3/pp3ppp/8/8/8/8/PP3PPP/3QK3 w - - 0 1");
        // Same pawns, other side to move: its own entry.
        let black = pos("4k3/pp3ppp/8/8/8/8/PP3PPP/4K3 b - - 0 1");
        for _ in 0..50 {
            c.update(&a, 8, -80, 0);
        }
        assert!(c.get(&a) < -20);
        assert_eq!(c.get(&a), c.get(&b));
        assert_eq!(c.get(&black), 0);
    }
}
