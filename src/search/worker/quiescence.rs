//! Quiescence search: captures and promotions until the position is
//! quiet, so that the static eval is never taken in the middle of an
//! exchange.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, MoveList, Position};

use super::{refine, to_tt, NodeResult, Scores, Worker};
use crate::search::ordering::{mvv_lva, see_at_least};
use crate::search::params::*;
use crate::search::picker::pick_next;
use crate::search::tt::{pack_move, Bound};
use crate::search::{INFINITY, MATE};

impl Worker<'_> {
    pub(super) fn quiescence(&mut self, pos: &Chess, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        if pos.is_insufficient_material() {
            return 0;
        }
        let in_check = pos.is_check();
        // The table: a cutoff at null-window nodes, the stored move first,
        // the stored static eval instead of a fresh one.
        let key = self.keys[self.keys.len() - 1];
        let pv_node = beta - alpha > 1;
        // Any stored depth (>= 0) is deep enough for a quiescence node.
        let entry = self.table.probe(key);
        if let Some(score) = Self::tt_cutoff(entry, ply, 0, alpha, beta, pv_node) {
            return score;
        }
        let tt_move = entry.map_or(0, |e| e.mv);
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<Move> = None;
        let (raw_eval, static_eval) = self.static_eval(pos, ply, in_check, entry);
        let stand_pat = refine(static_eval, entry, ply);
        if !in_check {
            if stand_pat >= beta {
                if entry.is_none() {
                    self.table
                        .store(key, 0, to_tt(stand_pat, ply), raw_eval, 0, Bound::Lower);
                }
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut order: MoveList = pos.legal_moves();
        if !in_check {
            // Captures, then promotions that capture nothing, each in
            // generation order: from one generation, where shakmaty's
            // `capture_moves` and `promotion_moves` would make two.
            let quiet_promotions: ArrayVec<Move, 32> = order
                .iter()
                .copied()
                .filter(|m| m.is_promotion() && !m.is_capture())
                .take(32)
                .collect();
            order.retain(|m| m.is_capture());
            order.extend(quiet_promotions);
        }
        if in_check && order.is_empty() {
            return -MATE + ply as i32;
        }
        let mut keys: Scores = order
            .iter()
            .map(|&m| {
                if tt_move != 0 && pack_move(m) == tt_move {
                    QS_TT_MOVE_KEY
                } else {
                    mvv_lva(m)
                }
            })
            .collect();
        for i in 0..order.len() {
            let m = pick_next(&mut order, &mut keys, i);
            if !in_check {
                // Skip captures that lose material or cannot lift alpha.
                let gain = m
                    .capture()
                    .map_or(0, |r| crate::eval::PIECE_VALUE[r as usize - 1]);
                if !m.is_promotion() && stand_pat + gain + QS_DELTA_MARGIN.get() <= alpha {
                    continue;
                }
                if !see_at_least(pos, m, 0) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.push(pos, &child, m, ply);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            self.keys.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    // The line below a PV node goes on through its
                    // captures: a mate found here is reported with every
                    // move to it (a mate score with a shorter PV is an
                    // "incomplete mating PV" to match runners). Before the
                    // cutoff test, as in the main search: mate distance
                    // pruning makes a mate's score the window's bound.
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let result = NodeResult {
            depth: 0,
            score: best,
            best_move,
            static_eval: raw_eval,
        };
        self.store_result(key, ply, result, (original_alpha, beta));
        best
    }
}
