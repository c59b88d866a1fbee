//! One search thread over shakmaty positions (copy-make): its state and
//! what every node shares (the path's keys and accumulators, the table's
//! reads and writes, move-ordering scores, the node count and the limits).
//! The search itself is split by concern:
//!
//! * [`deepening`]: iterative deepening, aspiration windows, the helpers'
//!   loop, when to stop, the reports;
//! * [`alphabeta`]: the root and interior nodes (principal-variation
//!   search with its pruning, reductions and extensions);
//! * [`quiescence`]: captures until the position is quiet.

mod alphabeta;
mod deepening;
mod quiescence;

use std::sync::atomic::{AtomicBool, Ordering};

use arrayvec::ArrayVec;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use super::ordering::{mvv_lva, piece_to, see_at_least, Context, Heuristics};
use super::params::*;
use super::tt::{pack_move, Bound, Entry, Table};
use super::{Control, Limits, INFINITY, MATE_BOUND};
use super::{MAX_DEPTH, MAX_PLY};
use crate::eval::PathEval;

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
    /// Each MultiPV line's move in the last iteration that finished it
    /// (line 1 first): what a fail-low report of that line shows, since a
    /// fail-low leaves the PV table holding another line's moves.
    line_moves: Vec<Move>,
    /// The move a singular-extension search at each ply leaves out.
    singular_skip: Vec<Option<Move>>,
    /// The evaluation along the current path, updated as moves are made.
    eval: PathEval,
    aborted: bool,
    /// The score of the last root move that raised alpha in a search of
    /// the line under way (any of its aspiration tries), searched to the
    /// end: the PV table's line 1 then begins with a move proven at least
    /// as good, at this depth, as every root move searched before it, so a
    /// search cut short plays it rather than the last finished iteration's
    /// move. `None` while no move has.
    root_improved: Option<i32>,
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
    let base = f64::from(LMR_BASE_CENTI.get()) / 100.0;
    let divisor = f64::from(LMR_DIVISOR_CENTI.get()) / 100.0;
    (base + d * m / divisor) as i32
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
            line_moves: Vec::new(),
            singular_skip: vec![None; MAX_PLY + 2],
            eval: PathEval::new(root.board(), MAX_PLY + 2),
            aborted: false,
            root_improved: None,
            helpers_stop: None,
            finishing_first: false,
        }
    }

    fn max_depth(&self) -> u32 {
        self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
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
                self.control.exhaust();
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
                // Pondered past the soft target already: the move is
                // thought about enough; the last complete iteration answers.
                if let Some(soft) = self.limits.soft {
                    let pondered = self.control.pondered();
                    if !pondered.is_zero() && pondered >= soft {
                        self.control.stop();
                    }
                }
            }
        }
        if !self.finishing_first
            && (self.control.ended()
                || self.helpers_stop.is_some_and(|h| h.load(Ordering::Relaxed)))
        {
            self.aborted = true;
        }
        self.aborted
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
        self.eval.push(ply, parent, child, m);
    }

    /// The evaluation of `pos`, the position at `ply` of the current path.
    fn evaluate(&mut self, pos: &Chess, ply: usize) -> i32 {
        self.eval.evaluate(pos, ply)
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
                    let base = if see_at_least(pos, m, 0) {
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

    /// The evaluation of a node: the raw static eval (from the table when
    /// it has one; this is what the table stores) and that eval corrected
    /// by what searches learnt about the pawn structure (what pruning
    /// uses). Both are `-INFINITY` in check.
    fn static_eval(
        &mut self,
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
}
