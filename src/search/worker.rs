//! One search thread: iterative deepening, principal-variation search and
//! quiescence over shakmaty positions (copy-make).

use std::sync::atomic::{AtomicBool, Ordering};

use arrayvec::ArrayVec;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, MoveList, Position};

use super::ordering::{mvv_lva, piece_to, see, Context, Heuristics};
use super::params::*;
use super::picker::pick_next;
use super::tt::{pack_move, Bound, Entry, Table};
use super::{Control, Limits, Outcome, Report, Reporter, Score, INFINITY, MATE, MATE_BOUND};
use super::{MAX_DEPTH, MAX_PLY};
use crate::eval::has_non_pawn_material;
use crate::eval::nnue::{network, Accumulator, Network};

/// Move-ordering scores of one node, parallel to its move list.
type Scores = ArrayVec<i32, 256>;

/// How often (in nodes) the clock and the stop flag are polled.
const POLL_MASK: u64 = 1023;

pub(super) struct Worker<'a> {
    root: &'a Chess,
    limits: &'a Limits,
    table: &'a Table,
    control: &'a Control,
    id: usize,
    nodes: u64,
    /// Nodes not yet added to the shared counter.
    unflushed: u64,
    seldepth: usize,
    /// Keys of the game so far and of the current search path.
    keys: Vec<u64>,
    /// Length of `keys` that belongs to the game before the root.
    game_len: usize,
    heur: &'a mut Heuristics,
    /// Triangular PV table.
    pv: Vec<Vec<Move>>,
    /// Move played to reach each ply (for counter-moves).
    played: Vec<Option<Move>>,
    /// Static eval at each ply (for the "improving" heuristic).
    evals: Vec<i32>,
    root_moves: Vec<Move>,
    /// Root moves already reported as earlier PV lines (MultiPV).
    excluded: Vec<Move>,
    /// The move a singular-extension search at each ply leaves out.
    singular_skip: Vec<Option<Move>>,
    /// The evaluation network and its accumulators for each ply of the
    /// current path, updated as moves are made.
    net: &'static Network,
    accs: Vec<Accumulator>,
    aborted: bool,
    /// A helper thread's own stop signal (raised when the main thread has
    /// finished); `None` on the main thread.
    helpers_stop: Option<&'a AtomicBool>,
    /// Set on the main thread while its first iteration runs: a `stop`
    /// (or a limit) that arrives then is obeyed only once that iteration
    /// is done, so every `bestmove` comes from a finished search, never
    /// from the unsorted move list (`go infinite` then `stop` at once).
    finishing_first: bool,
}

/// A child about to be searched by [`Worker::search_child`].
struct Child<'p> {
    /// The child position.
    pos: &'p Chess,
    /// The parent's first move: searched with the full window at once.
    first: bool,
    /// Late-move reduction of its null-window search.
    reduction: i32,
}

/// What a node found, as the table stores it.
struct NodeResult {
    /// Depth searched.
    depth: i32,
    /// Best score found.
    score: i32,
    /// Move of that score, if a move beat the window's alpha or stood pat.
    best_move: Option<Move>,
    /// The node's raw static eval (`-INFINITY` in check).
    static_eval: i32,
}

/// Late-move reduction table, indexed by depth and move number.
fn lmr(depth: i32, moves: usize) -> i32 {
    let d = (depth.max(1) as f64).ln();
    let m = (moves.max(1) as f64).ln();
    (LMR_BASE + d * m / LMR_DIVISOR) as i32
}

fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Mate scores are stored relative to the node, returned relative to root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The static eval, or the table's score for this node where its bound
/// says the real value lies beyond the eval in that direction.
fn refine(static_eval: i32, entry: Option<Entry>, ply: usize) -> i32 {
    let Some(e) = entry else {
        return static_eval;
    };
    if static_eval == -INFINITY {
        return static_eval;
    }
    let score = from_tt(e.score, ply);
    if score.abs() >= MATE_BOUND {
        return static_eval;
    }
    let better = match e.bound {
        Bound::Exact => true,
        Bound::Lower => score > static_eval,
        Bound::Upper => score < static_eval,
    };
    if better {
        score
    } else {
        static_eval
    }
}

impl<'a> Worker<'a> {
    pub(super) fn new(
        root: &'a Chess,
        history: &[u64],
        limits: &'a Limits,
        table: &'a Table,
        control: &'a Control,
        heur: &'a mut Heuristics,
        id: usize,
    ) -> Worker<'a> {
        let mut keys = history.to_vec();
        keys.push(hash(root));
        let game_len = keys.len() - 1;
        let legal = root.legal_moves();
        let root_moves: Vec<Move> = if limits.searchmoves.is_empty() {
            legal.iter().copied().collect()
        } else {
            legal
                .iter()
                .copied()
                .filter(|m| limits.searchmoves.contains(m))
                .collect()
        };
        let net = network();
        let root_acc = net.refresh(root.board());
        Worker {
            root,
            limits,
            table,
            control,
            id,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            keys,
            game_len,
            heur,
            pv: vec![Vec::new(); MAX_PLY + 2],
            played: vec![None; MAX_PLY + 2],
            evals: vec![0; MAX_PLY + 2],
            root_moves,
            excluded: Vec::new(),
            singular_skip: vec![None; MAX_PLY + 2],
            net,
            accs: vec![root_acc; MAX_PLY + 2],
            aborted: false,
            helpers_stop: None,
            finishing_first: false,
        }
    }

    fn max_depth(&self) -> u32 {
        self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }

    /// Helper threads (Lazy SMP) search ever deeper until told to stop,
    /// filling the shared table; they start at staggered depths so that
    /// they do not all search the same iteration.
    pub(super) fn helper_loop(&mut self, helpers_stop: &'a AtomicBool) {
        self.helpers_stop = Some(helpers_stop);
        let mut depth = 1 + (self.id % 2) as i32;
        while !helpers_stop.load(Ordering::Relaxed)
            && !self.control.stopped()
            && depth <= self.max_depth() as i32
        {
            self.aborted = false;
            self.root_search(depth, -INFINITY, INFINITY);
            depth += 1;
        }
        self.flush_nodes();
    }

    pub(super) fn iterative_deepening(&mut self, reporter: &mut dyn Reporter) -> Outcome {
        let mut outcome = Outcome {
            best: self.root_moves.first().copied(),
            ..Outcome::default()
        };
        if self.root_moves.is_empty() {
            self.wait_for_release();
            return outcome;
        }
        let multipv = self.limits.multipv.clamp(1, self.root_moves.len());
        let mut prev_score = 0;
        let mut stable = 0u32;
        let mut score_drop = 0;
        'deepening: for depth in 1..=self.max_depth() {
            self.excluded.clear();
            for line in 1..=multipv {
                self.seldepth = 0;
                self.finishing_first = self.id == 0 && depth == 1 && line == 1;
                let score = self.aspiration(depth as i32, prev_score, line, reporter);
                self.finishing_first = false;
                if self.aborted {
                    break 'deepening;
                }
                let best = self.pv[0].first().copied();
                if line == 1 {
                    if depth > 1 {
                        stable = if best == outcome.best { stable + 1 } else { 0 };
                        score_drop = prev_score - score;
                    }
                    prev_score = score;
                    outcome.best = best.or(outcome.best);
                    outcome.ponder = self.pv[0].get(1).copied();
                    outcome.score = score;
                    outcome.depth = depth;
                }
                if let Some(b) = best {
                    self.excluded.push(b);
                }
                self.report(depth, line, score, None, reporter);
            }
            if self.should_stop_after_iteration(prev_score, stable, score_drop) {
                break;
            }
        }
        self.flush_nodes();
        outcome.nodes = self.control.nodes();
        // A pondering or infinite search must not answer before it is told.
        self.wait_for_release();
        outcome
    }

    fn wait_for_release(&self) {
        while self.control.hold.load(Ordering::SeqCst) && !self.control.stopped() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    fn should_stop_after_iteration(&self, score: i32, stable: u32, score_drop: i32) -> bool {
        if self.control.stopped() {
            return true;
        }
        if let Some(mate) = self.limits.mate {
            if score >= MATE - 2 * mate as i32 {
                return true;
            }
        }
        if self.control.hold.load(Ordering::Relaxed) {
            return false;
        }
        if let Some(soft) = self.limits.soft {
            let mut target = soft.mul_f64(super::time::soft_scale(stable, score_drop));
            if let Some(hard) = self.limits.hard {
                target = target.min(hard);
            }
            if self.control.elapsed() >= target {
                return true;
            }
        }
        // Only one legal move: no need to think (unless analysing).
        self.root_moves.len() == 1 && (self.limits.soft.is_some() || self.limits.hard.is_some())
    }

    fn aspiration(
        &mut self,
        depth: i32,
        prev: i32,
        line: usize,
        reporter: &mut dyn Reporter,
    ) -> i32 {
        if depth < ASPIRATION_MIN_DEPTH || prev.abs() >= MATE_BOUND {
            return self.root_search(depth, -INFINITY, INFINITY);
        }
        let mut delta = ASPIRATION_DELTA;
        let mut alpha = (prev - delta).max(-INFINITY);
        let mut beta = (prev + delta).min(INFINITY);
        loop {
            let score = self.root_search(depth, alpha, beta);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
                self.report(depth as u32, line, score, Some(Bound::Upper), reporter);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
                self.report(depth as u32, line, score, Some(Bound::Lower), reporter);
            } else {
                return score;
            }
            delta += delta / 2;
            if delta > ASPIRATION_FULL_WIDTH {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn report(
        &self,
        depth: u32,
        line: usize,
        score: i32,
        bound: Option<Bound>,
        reporter: &mut dyn Reporter,
    ) {
        // Time-heavy lines only once a second into long searches? No: GUIs
        // expect one line per iteration; fail-high/low lines only after 1 s.
        if bound.is_some() && self.control.elapsed().as_millis() < 1000 {
            return;
        }
        let pv = if bound.is_some() {
            self.pv[0].iter().take(1).copied().collect()
        } else {
            self.pv[0].clone()
        };
        reporter.report(&Report {
            depth,
            seldepth: self.seldepth as u32,
            multipv: line,
            score: Score::from_internal(score),
            bound,
            nodes: self.control.nodes() + self.unflushed,
            time: self.control.elapsed(),
            hashfull: self.table.hashfull(),
            pv,
        });
    }

    fn flush_nodes(&mut self) {
        self.control
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// Count a node and check the limits every few nodes.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        self.unflushed += 1;
        if let Some(limit) = self.limits.nodes {
            if self.id == 0 && self.nodes >= limit {
                self.control.stop();
            }
        }
        if self.nodes & POLL_MASK == 0 {
            self.flush_nodes();
            if self.id == 0 && !self.control.hold.load(Ordering::Relaxed) {
                if let Some(hard) = self.limits.hard {
                    if self.control.elapsed() >= hard {
                        self.control.stop();
                    }
                }
            }
        }
        if !self.finishing_first
            && (self.control.stopped()
                || self.helpers_stop.is_some_and(|h| h.load(Ordering::Relaxed)))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
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

    /// Enter `child`, reached from `parent` by `m`. The key is updated
    /// incrementally where shakmaty can (most moves), else recomputed.
    fn push(&mut self, parent: &Chess, child: &Chess, m: Move, ply: usize) {
        let key = self.keys[self.keys.len() - 1];
        let child_key = parent
            .update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal)
            .map_or_else(|| hash(child), |z| z.0);
        debug_assert_eq!(child_key, hash(child));
        // The child probes this slot first thing; start loading it now.
        self.table.prefetch(child_key);
        self.keys.push(child_key);
        self.played[ply + 1] = Some(m);
        let (done, next) = self.accs.split_at_mut(ply + 1);
        self.net
            .update(&done[ply], parent.board(), child.board(), &mut next[0]);
    }

    /// The network's evaluation of `pos`, the position at `ply` of the
    /// current path.
    fn evaluate(&self, pos: &Chess, ply: usize) -> i32 {
        let own = self.net.evaluate(&self.accs[ply], pos.turn());
        if self.net.residual() {
            own + crate::eval::evaluate(pos)
        } else {
            own
        }
    }

    fn pop(&mut self) {
        self.keys.pop();
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Repetition of a position of this search path or of the game since
    /// the last irreversible move.
    fn is_repetition(&self, pos: &Chess) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let window = (pos.halfmoves() as usize).min(n - 1);
        let mut i = 2;
        while i <= window {
            if self.keys[n - 1 - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    /// Ordering scores, one per move, in a fixed-capacity list (neither
    /// allocated nor zero-filled per node; shakmaty's move lists hold at
    /// most 256 moves, and so do the root's).
    fn score_moves(
        &self,
        pos: &Chess,
        moves: &[Move],
        tt_move: u16,
        ply: usize,
        ctx: Context,
    ) -> Scores {
        let killers = self.heur.killers[ply];
        let counter = self.heur.counter_move(self.played[ply]);
        let turn = pos.turn();
        moves
            .iter()
            .map(|&m| {
                if tt_move != 0 && pack_move(m) == tt_move {
                    ORDER_TT_MOVE
                } else if m.is_capture() || m.is_promotion() {
                    let base = if see(pos, m) >= 0 {
                        ORDER_GOOD_CAPTURE
                    } else {
                        ORDER_BAD_CAPTURE
                    };
                    base + 4 * mvv_lva(m) + self.heur.capture_score(turn, m) / 4
                } else if killers[0] == Some(m) {
                    ORDER_KILLER_1
                } else if killers[1] == Some(m) {
                    ORDER_KILLER_2
                } else if counter == Some(m) {
                    ORDER_COUNTER
                } else {
                    self.heur.quiet_score(turn, m, ctx)
                }
            })
            .collect()
    }

    /// The moves that led to `pos` at `ply`, for the continuation tables.
    fn context(&self, pos: &Chess, ply: usize) -> Context {
        let prev1 = self.played[ply].map(|m| piece_to(!pos.turn(), m));
        let prev2 = if ply >= 1 {
            self.played[ply - 1].map(|m| piece_to(pos.turn(), m))
        } else {
            None
        };
        Context {
            previous: self.played[ply],
            prev1,
            prev2,
        }
    }

    /// What every searched node does first: reset its PV, count itself
    /// (polling the limits), and stop at the ply limit. `Some(score)` ends
    /// the node at once (0 after an abort, the static eval at the limit).
    fn enter_node(&mut self, pos: &Chess, ply: usize) -> Option<i32> {
        self.pv[ply].clear();
        if self.tick() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        (ply >= MAX_PLY).then(|| self.evaluate(pos, ply))
    }

    /// The stored score of `entry` if it settles this node without a
    /// search: not at PV nodes, and only from an entry searched at least
    /// `depth` deep whose bound lies outside the window.
    fn tt_cutoff(
        entry: Option<Entry>,
        ply: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> Option<i32> {
        let e = entry.filter(|e| !pv_node && e.depth >= depth)?;
        let score = from_tt(e.score, ply);
        let cut = match e.bound {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        };
        cut.then_some(score)
    }

    /// Store a node's result with the bound its window (the alpha it was
    /// entered with, and beta) gives it. A static eval of `-INFINITY` (in
    /// check) is stored as 0.
    fn store_result(&self, key: u64, ply: usize, r: NodeResult, window: (i32, i32)) {
        let (original_alpha, beta) = window;
        let bound = if r.score >= beta {
            Bound::Lower
        } else if r.score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if r.static_eval == -INFINITY {
            0
        } else {
            r.static_eval
        };
        self.table.store(
            key,
            r.best_move.map_or(0, pack_move),
            to_tt(r.score, ply),
            stored_eval,
            r.depth,
            bound,
        );
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
            let margin = RFP_MARGIN_PER_DEPTH * depth - if improving { RFP_IMPROVING } else { 0 };
            if depth <= RFP_MAX_DEPTH && eval - margin >= beta && beta.abs() < MATE_BOUND {
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
                    let r = NMP_BASE_REDUCTION
                        + depth / NMP_DEPTH_DIVISOR
                        + ((eval - beta) / NMP_EVAL_DIVISOR).min(NMP_MAX_EVAL_REDUCTION);
                    self.keys.push(hash(&null));
                    self.played[ply + 1] = None;
                    let (done, next) = self.accs.split_at_mut(ply + 1);
                    next[0].clone_from(&done[ply]);
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
            let singular_beta = tt_score - SINGULAR_MARGIN_PER_DEPTH * depth;
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
        let ctx = self.context(pos, ply);
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
            && depth <= FUTILITY_MAX_DEPTH
            && eval + FUTILITY_MARGIN_PER_DEPTH * depth <= alpha;
        let lmp_limit = LMP_BASE + (depth * depth) as usize / if improving { 1 } else { 2 };

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
                    && scores[i] < HISTORY_PRUNE_PER_DEPTH * depth
                {
                    continue;
                }
                // A quiet move that hangs material near the leaves.
                if !pv_node
                    && depth <= SEE_QUIET_MAX_DEPTH
                    && see(pos, m) < SEE_QUIET_PER_DEPTH * depth
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
                if see(pos, m) < SEE_CAPTURE_PER_DEPTH * depth {
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
                r -= self.heur.quiet_score(pos.turn(), m, ctx) / LMR_HISTORY_DIVISOR;
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

    /// The evaluation of a node: the raw static eval (from the table when
    /// it has one; this is what the table stores) and that eval corrected
    /// by what searches learnt about the pawn structure (what pruning
    /// uses). Both are `-INFINITY` in check.
    fn static_eval(
        &self,
        pos: &Chess,
        ply: usize,
        in_check: bool,
        entry: Option<Entry>,
    ) -> (i32, i32) {
        if in_check {
            return (-INFINITY, -INFINITY);
        }
        let raw = entry.map_or_else(|| self.evaluate(pos, ply), |e| e.eval);
        let corrected =
            (raw + self.heur.correction.get(pos)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        (raw, corrected)
    }

    fn quiescence(&mut self, pos: &Chess, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
                if !m.is_promotion() && stand_pat + gain + QS_DELTA_MARGIN <= alpha {
                    continue;
                }
                if see(pos, m) < 0 {
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
