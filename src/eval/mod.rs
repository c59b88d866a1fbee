//! Static evaluation: the one facade the search and the engine call.
//!
//! Two layers, each its own module:
//!
//! * [`handmade`]: tapered material and piece-square values plus the terms
//!   that matter in Chess960, linear in fitted weights (its parameters are
//!   declared once, in [`handmade::params`]);
//! * [`nnue`]: a small (768->N)x2->1 network (weights in `net.bin`, whose
//!   header sets N, 128 in the committed file, and the number of output
//!   buckets chosen by the piece count, 1 in the committed file) trained as
//!   a correction to the hand-made score, its first layer updated
//!   incrementally as moves are made.
//!
//! What the search uses is their sum, written once here (`total`) and
//! reached two ways: [`evaluate`] from scratch (the `eval` command, tools,
//! tests) and [`PathEval`] incrementally along the search path. Scores are
//! centipawns for the side to move.

pub mod handmade;
pub mod nnue;

use shakmaty::{Board, Chess, Position};

pub use handmade::{has_non_pawn_material, pawn_key, trace, Trace};
use nnue::{network, Accumulator, Network};

/// Material values for weighing exchanges: static exchange evaluation,
/// MVV-LVA ordering and the quiescence delta margin (pawn..king). The king
/// is priceless, so that capturing into a defended square with it never
/// looks good; no move ever captures it. (The evaluation's own tapered
/// material is PeSTO's, in [`handmade`].)
pub const PIECE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The evaluation the search uses: the network's output, plus the
/// hand-made evaluation when the network was trained as a correction to it.
fn total(net: &Network, acc: &Accumulator, pos: &Chess) -> i32 {
    let own = net.evaluate(acc, pos.turn(), pos.board().occupied().count());
    if net.residual() {
        own + handmade::evaluate(pos)
    } else {
        own
    }
}

/// The evaluation of `pos`, from scratch.
pub fn evaluate(pos: &Chess) -> i32 {
    let net = network();
    total(net, &net.refresh(pos.board()), pos)
}

/// The evaluation along one search path: the network's accumulators for
/// each ply, updated as moves are made rather than summed from scratch.
pub struct PathEval {
    net: &'static Network,
    accs: Vec<Accumulator>,
}

impl PathEval {
    /// A path starting at `root`, for plies `0..plies`.
    pub fn new(root: &Board, plies: usize) -> PathEval {
        let net = network();
        let acc = net.refresh(root);
        PathEval {
            net,
            accs: vec![acc; plies.max(1)],
        }
    }

    /// The move from `parent` (at `ply`) to `child` (at `ply + 1`).
    pub fn push(&mut self, ply: usize, parent: &Board, child: &Board) {
        let (done, next) = self.accs.split_at_mut(ply + 1);
        self.net.update(&done[ply], parent, child, &mut next[0]);
    }

    /// A null move at `ply`: the same pieces one ply deeper.
    pub fn push_null(&mut self, ply: usize) {
        let (done, next) = self.accs.split_at_mut(ply + 1);
        next[0].clone_from(&done[ply]);
    }

    /// The evaluation of `pos`, the position at `ply` of the path.
    pub fn evaluate(&self, pos: &Chess, ply: usize) -> i32 {
        total(self.net, &self.accs[ply], pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen;

    /// The incremental path and the from-scratch sum are one evaluation.
    #[test]
    fn path_and_scratch_agree() {
        let mut pos = parse_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .expect("FEN");
        let mut path = PathEval::new(pos.board(), 8);
        assert_eq!(path.evaluate(&pos, 0), evaluate(&pos));
        for ply in 0..6 {
            let m = pos.legal_moves()[ply * 3 % 7];
            let mut child = pos.clone();
            child.play_unchecked(m);
            path.push(ply, pos.board(), child.board());
            pos = child;
            assert_eq!(path.evaluate(&pos, ply + 1), evaluate(&pos), "ply {ply}");
        }
    }
}
