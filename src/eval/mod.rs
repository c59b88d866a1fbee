//! Static evaluation: the one facade the search and the engine call.
//!
//! Two layers, each its own module:
//!
//! * [`nnue`]: a small (768->N)x2->1 network (weights in `net.bin`, whose
//!   header sets N, 256 in the committed file, the number of output buckets
//!   chosen by the piece count, 1 in the committed file, and whether it is
//!   a whole evaluation, as the committed file is, or a correction to the
//!   hand-made score), its first layer updated incrementally as moves are
//!   made;
//! * [`handmade`]: tapered material and piece-square values plus the terms
//!   that matter in Chess960, linear in fitted weights (its parameters are
//!   declared once, in [`handmade::params`]): what a correcting
//!   ("residual") network is added to, the root of the own-data lineage,
//!   and the `eval` command's second line.
//!
//! What the search uses is written once here (`total`): the network's
//! score, plus the hand-made one for a residual network. Why the committed
//! network is a whole evaluation: trained on the same labels it fits them
//! better than a correction does, and the hand-made terms, a quarter of
//! the search's time, are not computed at all. It is reached two ways:
//! [`evaluate`] from scratch (the `eval` command, tools, tests) and
//! [`PathEval`] incrementally along the search path. Scores are
//! centipawns for the side to move.

pub mod handmade;
pub mod nnue;

use shakmaty::{Board, Chess, Move, Position, Role, Square};

pub use handmade::{has_non_pawn_material, pawn_key, trace, Trace};
use nnue::{network, Accumulator, Delta, Network, SumCache};

/// Material values for weighing exchanges: static exchange evaluation,
/// MVV-LVA ordering and the quiescence delta margin (pawn..king). The king
/// is priceless, so that capturing into a defended square with it never
/// looks good; no move ever captures it. (The evaluation's own tapered
/// material is PeSTO's, in [`handmade`].)
pub const PIECE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// A move other than castling as pieces on squares: what the network's
/// updates ([`Delta::of_move`]) and the exchange evaluation read off a
/// move. Castling is left to shakmaty's rules: its squares are theirs to
/// place.
#[derive(Clone, Copy, Debug)]
pub struct Displacement {
    /// The piece that moves.
    pub role: Role,
    /// Where it stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
    /// The piece taken and its square (`to`, or beside it en passant).
    pub captured: Option<(Role, Square)>,
    /// What a pawn becomes on the last rank.
    pub promotion: Option<Role>,
}

impl Displacement {
    /// `m` as pieces on squares; `None` for castling (and drops, which
    /// Chess960 has not).
    #[inline]
    pub fn of(m: Move) -> Option<Displacement> {
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => Some(Displacement {
                role,
                from,
                to,
                captured: capture.map(|c| (c, to)),
                promotion,
            }),
            Move::EnPassant { from, to } => Some(Displacement {
                role: Role::Pawn,
                from,
                to,
                // The captured pawn stands beside the capturing one.
                captured: Some((Role::Pawn, Square::from_coords(to.file(), from.rank()))),
                promotion: None,
            }),
            Move::Castle { .. } | Move::Put { .. } => None,
        }
    }
}

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
///
/// Updates are lazy: a move only records what it changes ([`Delta`]), and
/// the accumulators of a ply are brought up to date when its evaluation is
/// asked for, from the nearest ply below that is. Many nodes never ask (a
/// table cutoff, an eval stored in the table, a check, a repetition), and
/// their updates are never made.
pub struct PathEval {
    net: &'static Network,
    accs: Vec<Accumulator>,
    /// Per ply, the change from the ply below not yet applied to its
    /// accumulators (`None`: they are up to date). Ply 0 is always.
    pending: Vec<Option<Delta>>,
    /// The sums last made for each king view, for the king moves that
    /// change one ([`SumCache`]).
    cache: SumCache,
}

impl PathEval {
    /// A path starting at `root`, for plies `0..plies`.
    pub fn new(root: &Board, plies: usize) -> PathEval {
        PathEval::with(network(), root, plies)
    }

    /// A path of network `net` (the compiled one, or a test's).
    fn with(net: &'static Network, root: &Board, plies: usize) -> PathEval {
        let mut cache = net.sum_cache();
        let acc = net.refresh_cached(&mut cache, root);
        let plies = plies.max(1);
        PathEval {
            net,
            accs: vec![acc; plies],
            pending: vec![None; plies],
            cache,
        }
    }

    /// The move `m` from `parent` (at `ply`) to `child` (at `ply + 1`).
    pub fn push(&mut self, ply: usize, parent: &Chess, child: &Chess, m: Move) {
        let mover = parent.turn();
        let delta = Delta::of_move(parent.board(), child.board(), mover, m);
        if m.role() == Role::King && self.net.view_changes(mover, parent.board(), child.board()) {
            // The king moved to other rows of the first layer: its side's
            // sum comes from the cache, now; the other side's follows the
            // move. (The move is applied to the mover's side too and then
            // overwritten: one wasted pass over a sum, against a second
            // update routine for one side.)
            self.bring_up_to_date(ply);
            let (done, next) = self.accs.split_at_mut(ply + 1);
            match delta {
                Some(delta) => {
                    self.net.apply(&done[ply], &delta, &mut next[0]);
                    self.net
                        .refresh_side(&mut self.cache, child.board(), mover, &mut next[0]);
                }
                None => next[0] = self.net.refresh_cached(&mut self.cache, child.board()),
            }
            self.pending[ply + 1] = None;
            return;
        }
        match delta {
            Some(delta) => self.pending[ply + 1] = Some(delta),
            None => {
                // Not one move: summed afresh, now.
                self.accs[ply + 1] = self.net.refresh_cached(&mut self.cache, child.board());
                self.pending[ply + 1] = None;
            }
        }
    }

    /// A null move at `ply`: the same pieces one ply deeper.
    pub fn push_null(&mut self, ply: usize) {
        self.pending[ply + 1] = Some(Delta::NONE);
    }

    /// The evaluation of `pos`, the position at `ply` of the path.
    pub fn evaluate(&mut self, pos: &Chess, ply: usize) -> i32 {
        self.bring_up_to_date(ply);
        total(self.net, &self.accs[ply], pos)
    }

    /// Apply the pending changes of the plies up to `ply`, from the
    /// nearest ply below it whose accumulators are up to date.
    fn bring_up_to_date(&mut self, ply: usize) {
        let mut from = ply;
        while from > 0 && self.pending[from].is_some() {
            from -= 1;
        }
        for p in from + 1..=ply {
            if let Some(delta) = self.pending[p].take() {
                let (done, next) = self.accs.split_at_mut(p);
                self.net.apply(&done[p - 1], &delta, &mut next[0]);
            }
        }
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
            path.push(ply, &pos, &child, m);
            pos = child;
            assert_eq!(path.evaluate(&pos, ply + 1), evaluate(&pos), "ply {ply}");
        }
    }

    /// Lazy updates: a tree walked the way a search walks it (down and
    /// back up, null moves, most plies never evaluated) gives every ply
    /// that is evaluated the from-scratch score.
    #[test]
    fn lazy_updates_follow_the_search_path() {
        walk_the_search_path(
            network(),
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
        );
    }

    /// The same with a network of king buckets and mirroring, from a
    /// position where the kings move and castle often.
    #[test]
    fn king_buckets_follow_the_search_path() {
        let compiled = nnue::NetFile::parse(nnue::NET_BYTES).expect("the compiled network");
        let kings = nnue::king_layout("k4").expect("k4");
        let rows = nnue::INPUTS * nnue::king_buckets(&kings);
        // Each bucket a shifted copy of the compiled first layer, so that
        // the buckets differ and the scores stay those of a network.
        let ft_weights = (0..rows * compiled.hidden)
            .map(|i| {
                let row = i / compiled.hidden % nnue::INPUTS;
                let bucket = i / compiled.hidden / nnue::INPUTS;
                compiled.ft_weights[row * compiled.hidden + i % compiled.hidden]
                    .wrapping_add((bucket as i16 - 1) * 3)
            })
            .collect();
        let file = nnue::NetFile {
            kings,
            ft_weights,
            ..compiled
        };
        let net = Network::from_bytes(&file.to_bytes()).expect("a king network");
        assert!(net.has_kings());
        let net: &'static Network = Box::leak(Box::new(net));
        walk_the_search_path(
            net,
            "r3k2r/ppp1qppp/2n5/3pP3/8/2N5/PPPQ1PPP/R3K2R w KQkq d6 0 1",
        );
    }

    fn walk_the_search_path(net: &'static Network, fen: &str) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let root = parse_fen(fen).expect("FEN");
        let scratch = |pos: &Chess| total(net, &net.refresh(pos.board()), pos);
        let mut path = PathEval::with(net, root.board(), 16);
        let mut line = vec![root];
        let mut checked = 0;
        for _ in 0..4000 {
            let ply = line.len() - 1;
            let pos = line[ply].clone();
            let moves = pos.legal_moves();
            if ply + 1 >= 16 || moves.is_empty() || rng.gen_bool(0.3) {
                if ply > 0 {
                    line.pop();
                }
                continue;
            }
            let child = if rng.gen_bool(0.1) && !pos.is_check() {
                path.push_null(ply);
                let Ok(child) = pos.clone().swap_turn() else {
                    continue;
                };
                child
            } else {
                let m = moves[rng.gen_range(0..moves.len())];
                let mut child = pos.clone();
                child.play_unchecked(m);
                path.push(ply, &pos, &child, m);
                child
            };
            line.push(child);
            if rng.gen_bool(0.3) {
                let at = rng.gen_range(0..line.len());
                // Only the current node and its ancestors are on the path.
                assert_eq!(path.evaluate(&line[at], at), scratch(&line[at]), "ply {at}");
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked} evaluations checked");
    }
}
