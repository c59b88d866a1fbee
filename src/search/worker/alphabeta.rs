//! Principal-variation alpha-beta: the root, one child with its
//! reductions and re-searches, and every interior node with its pruning,
//! extensions and reductions (the numbers in [`super::super::params`]).

use shakmaty::{Chess, Move, MoveList, Position};

use super::{from_tt, hash, lmr, refine, Child, NodeResult, Worker};
use crate::eval::has_non_pawn_material;
use crate::search::ordering::see_at_least;
use crate::search::params::*;
use crate::search::picker::pick_next;
use crate::search::tt::{pack_move, Bound};
use crate::search::{INFINITY, MATE, MATE_BOUND};

impl Worker<'_> {
    pub(super) fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let root = self.root;
        let original_alpha = alpha;
        let key = self.keys[self.game_len];
        let tt_move = self.table.probe(key).map_or(0, |e| e.mv);
        let mut moves: Vec<Move> = self
            .root_moves
            .iter()
            .copied()
            .filter(|m| !self.excluded.contains(m))
            .collect();
        // The previous iteration's best move first, then the usual order.
        let prev_best = self.pv[0].first().copied();
        let scored = self.score_moves(root, &moves, tt_move, 0, self.context(root, 0));
        let mut order: Vec<(i32, Move)> = scored.iter().copied().zip(moves.drain(..)).collect();
        order.sort_by_key(|(s, m)| (Some(*m) != prev_best, -*s));
        let in_check = root.is_check();
        let mut best = -INFINITY;
        let mut best_move = None;
        for (i, &(_, m)) in order.iter().enumerate() {
            let mut child = root.clone();
            child.play_unchecked(m);
            self.push(root, &child, m, 0);
            let gives_check = child.is_check();
            let mut r = 0;
            if depth >= LMR_MIN_DEPTH
                && i >= ROOT_LMR_MIN_MOVE
                && !m.is_capture()
                && !in_check
                && !gives_check
            {
                r = (lmr(depth, i) - 1).max(0);
            }
            let child = Child {
                pos: &child,
                first: i == 0,
                reduction: r,
            };
            let score = self.search_child(child, depth, alpha, beta, 0, true);
            self.pop();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    self.update_pv(0, m);
                    self.root_improved = Some(score);
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if !self.aborted && self.excluded.is_empty() && best_move.is_some() {
            // A fail-low (aspiration) result is an upper bound, not exact.
            let result = NodeResult {
                depth,
                score: best,
                best_move,
                static_eval: 0,
            };
            self.store_result(key, 0, result, (original_alpha, beta));
        }
        best
    }

    /// Principal-variation search of one child of a node at `ply`: the
    /// first move gets the full window; later moves a null window at the
    /// depth reduced by `r`, re-searched at full depth if they beat alpha,
    /// and (in PV nodes) with the full window if they land inside it.
    fn search_child(
        &mut self,
        child: Child<'_>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        let (next, r, pos) = (ply + 1, child.reduction, child.pos);
        if child.first {
            return -self.negamax(pos, depth - 1, -beta, -alpha, next, pv_node);
        }
        let mut score = -self.negamax(pos, depth - 1 - r, -alpha - 1, -alpha, next, false);
        if score > alpha && r > 0 {
            score = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, next, false);
        }
        if pv_node && score > alpha && score < beta {
            score = -self.negamax(pos, depth - 1, -beta, -alpha, next, true);
        }
        score
    }

    fn negamax(
        &mut self,
        pos: &Chess,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        // Draws: repetition, fifty moves, dead material.
        if self.is_repetition(pos) || pos.is_insufficient_material() {
            return 0;
        }
        if pos.halfmoves() >= 100 {
            if pos.is_check() && pos.legal_moves().is_empty() {
                return -MATE + ply as i32;
            }
            return 0;
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = pos.is_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply);
        }
        let key = self.keys[self.keys.len() - 1];
        // A singular-extension search of this node leaves one move out: its
        // result is not this node's, so it neither uses nor fills the table.
        let skip = self.singular_skip[ply];
        let entry = if skip.is_some() {
            None
        } else {
            self.table.probe(key)
        };
        if let Some(score) = Self::tt_cutoff(entry, ply, depth, alpha, beta, pv_node) {
            return score;
        }
        let tt_move = entry.map_or(0, |e| e.mv);
        let (raw_eval, static_eval) = self.static_eval(pos, ply, in_check, entry);
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        // A stored search score is a better estimate than the static eval
        // when its bound points the right way.
        let eval = refine(static_eval, entry, ply);

        if !pv_node && !in_check && skip.is_none() {
            // Reverse futility: far above beta with little depth left.
            let margin = RFP_MARGIN_PER_DEPTH.get() * depth
                - if improving { RFP_IMPROVING.get() } else { 0 };
            if depth <= RFP_MAX_DEPTH.get() && eval - margin >= beta && beta.abs() < MATE_BOUND {
                return eval;
            }
            // Null move: give the opponent a free move; if we still beat
            // beta the position is good enough to cut.
            if depth >= NMP_MIN_DEPTH
                && eval >= beta
                && self.played[ply].is_some()
                && has_non_pawn_material(pos)
                && beta.abs() < MATE_BOUND
            {
                if let Ok(null) = pos.clone().swap_turn() {
                    let r = NMP_BASE_REDUCTION.get()
                        + depth / NMP_DEPTH_DIVISOR.get()
                        + ((eval - beta) / NMP_EVAL_DIVISOR.get()).min(NMP_MAX_EVAL_REDUCTION);
                    self.keys.push(hash(&null));
                    self.played[ply + 1] = None;
                    self.eval.push_null(ply);
                    let score =
                        -self.negamax(&null, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                    self.keys.pop();
                    if self.aborted {
                        return 0;
                    }
                    if score >= beta {
                        return if score >= MATE_BOUND { beta } else { score };
                    }
                }
            }
        }
        // Internal iterative reduction: no hash move at a deep node (any
        // node type: a node the table knows nothing about is rarely critical).
        if tt_move == 0 && depth >= 4 && skip.is_none() {
            depth -= 1;
        }
        let ctx = self.context(pos, ply);
        self.heur.prefetch_quiet(pos.turn(), ctx);
        let mut moves: MoveList = pos.legal_moves();
        // Singular extension: if the table's move beats every other move by
        // a margin (searched without it, shallower, just below its score),
        // it is the only good move here and earns one more ply. If even the
        // others reach beta, several moves cut: return at once (multi-cut).
        let mut singular = None;
        if let Some(e) = entry.filter(|e| {
            ply > 0
                && depth >= SINGULAR_MIN_DEPTH
                && e.mv != 0
                && e.depth >= depth - SINGULAR_TT_DEPTH_SLACK
                && e.bound != Bound::Upper
                && from_tt(e.score, ply).abs() < MATE_BOUND
        }) {
            let tt_score = from_tt(e.score, ply);
            let singular_beta = tt_score - SINGULAR_MARGIN_PER_DEPTH.get() * depth;
            let tt_m = moves.iter().copied().find(|&m| pack_move(m) == e.mv);
            if let Some(tt_m) = tt_m {
                self.singular_skip[ply] = Some(tt_m);
                let score = self.negamax(
                    pos,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    false,
                );
                self.singular_skip[ply] = None;
                if self.aborted {
                    return 0;
                }
                if score < singular_beta {
                    singular = Some(tt_m);
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
        }

        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut scores = self.score_moves(pos, &moves, tt_move, ply, ctx);
        // Sorted in place: moving a `MoveList` copies all 256 slots.
        let order = &mut moves;

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<Move> = None;
        let mut quiets_tried = MoveList::new();
        let mut captures_tried = MoveList::new();
        let futile = !pv_node
            && !in_check
            && depth <= FUTILITY_MAX_DEPTH.get()
            && eval + FUTILITY_MARGIN_PER_DEPTH.get() * depth <= alpha;
        let lmp_limit =
            LMP_BASE.get() as usize + (depth * depth) as usize / if improving { 1 } else { 2 };

        for i in 0..order.len() {
            let m = pick_next(order, &mut scores, i);
            if skip == Some(m) {
                continue;
            }
            let quiet = !m.is_capture() && !m.is_promotion();

            if best > -MATE_BOUND && !in_check && quiet {
                if !pv_node && depth <= LATE_PRUNE_MAX_DEPTH && quiets_tried.len() >= lmp_limit {
                    continue;
                }
                if futile {
                    continue;
                }
                // A quiet move with a bad record near the leaves. Below the
                // killers' and counter-move's scores, a quiet move's ordering
                // score is its history score.
                if !pv_node
                    && depth <= LATE_PRUNE_MAX_DEPTH
                    && scores[i] < HISTORY_PRUNE_PER_DEPTH.get() * depth
                {
                    continue;
                }
                // A quiet move that hangs material near the leaves.
                if !pv_node
                    && depth <= SEE_QUIET_MAX_DEPTH
                    && !see_at_least(pos, m, SEE_QUIET_PER_DEPTH.get() * depth)
                {
                    continue;
                }
            }
            if best > -MATE_BOUND
                && !pv_node
                && !quiet
                && depth <= LATE_PRUNE_MAX_DEPTH
                && scores[i] < 0
            {
                // Losing capture near the leaves.
                if !see_at_least(pos, m, SEE_CAPTURE_PER_DEPTH.get() * depth) {
                    continue;
                }
            }

            let mut child = pos.clone();
            child.play_unchecked(m);
            self.push(pos, &child, m, ply);
            let gives_check = child.is_check();
            let mut r = 0;
            if depth >= LMR_MIN_DEPTH && i >= LMR_MIN_MOVE && quiet && !gives_check {
                r = lmr(depth, i);
                if pv_node {
                    r -= 1;
                }
                if !improving {
                    r += 1;
                }
                // The table's move, a good capture, a killer or the
                // counter-move (quiet here): the refutation band.
                if scores[i] >= ORDER_COUNTER {
                    r -= 1;
                }
                r -= self.heur.quiet_score(pos.turn(), m, ctx) / LMR_HISTORY_DIVISOR.get();
                r = r.clamp(0, depth - 2);
            }
            let extension = i32::from(singular == Some(m));
            let child = Child {
                pos: &child,
                first: i == 0,
                reduction: r,
            };
            let score = self.search_child(child, depth + extension, alpha, beta, ply, pv_node);
            self.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            self.heur
                                .cutoff(pos.turn(), ply, depth, m, &quiets_tried, ctx);
                        }
                        self.heur
                            .capture_cutoff(pos.turn(), depth, m, &captures_tried);
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            } else {
                captures_tried.push(m);
            }
        }
        if best == -INFINITY {
            // Every move was pruned (or the only move was left out by a
            // singular search): fall back to a fail-low on alpha.
            return alpha;
        }
        if skip.is_some() {
            return best;
        }
        // What the search learnt about this pawn structure: only where the
        // score's bound says which side of the static eval it lies on, and
        // not from a capture or promotion, whose gain the eval cannot see.
        let quiet_best = best_move.is_none_or(|m| !m.is_capture() && !m.is_promotion());
        if !in_check
            && quiet_best
            && best.abs() < MATE_BOUND
            && !(best >= beta && best <= static_eval)
            && !(best <= original_alpha && best >= static_eval)
        {
            self.heur.correction.update(pos, depth, best, raw_eval);
        }
        let result = NodeResult {
            depth,
            score: best,
            best_move,
            static_eval: raw_eval,
        };
        self.store_result(key, ply, result, (original_alpha, beta));
        best
    }
}
