//! The search's tunable numbers, named in one place.
//!
//! Each was set by hand and kept after fixed-node self-play (the record is
//! in docs/strength.md); a tuning run changes them here and nowhere else.
//! Depths are in plies of remaining depth, scores in centipawns. They are
//! plain constants so that the compiler folds them into the search.

// ---- iterative deepening ----

/// Aspiration windows start from this depth; shallower iterations search
/// the full window.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// First half-width of the aspiration window around the last score.
pub const ASPIRATION_DELTA: i32 = 20;
/// Once the widening delta passes this, the window opens fully.
pub const ASPIRATION_FULL_WIDTH: i32 = 1000;

// ---- pruning before the move loop ----

/// Reverse futility: margin per ply of depth left.
pub const RFP_MARGIN_PER_DEPTH: i32 = 80;
/// Reverse futility: the margin shrinks by this when the eval improves.
pub const RFP_IMPROVING: i32 = 40;
/// Reverse futility applies up to this depth.
pub const RFP_MAX_DEPTH: i32 = 6;
/// Null move is tried from this depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null move: base reduction.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// Null move: one more ply of reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Null move: one more ply per this much eval above beta ...
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// ... up to this many plies.
pub const NMP_MAX_EVAL_REDUCTION: i32 = 3;

// ---- singular extensions ----

/// Singular extensions are tried from this depth.
pub const SINGULAR_MIN_DEPTH: i32 = 7;
/// The table's entry must be at most this much shallower than the node.
pub const SINGULAR_TT_DEPTH_SLACK: i32 = 3;
/// The others must stay this far (per ply of depth) below the table's score.
pub const SINGULAR_MARGIN_PER_DEPTH: i32 = 2;

// ---- pruning in the move loop ----

/// Late-move pruning and the history and losing-capture prunings apply up
/// to this depth.
pub const LATE_PRUNE_MAX_DEPTH: i32 = 4;
/// Late-move pruning: quiet moves tried before the rest are skipped,
/// `LMP_BASE + depth² / (1 if improving else 2)`.
pub const LMP_BASE: usize = 3;
/// Futility: a quiet move cannot lift alpha if eval + this per ply is below it.
pub const FUTILITY_MARGIN_PER_DEPTH: i32 = 120;
/// Futility applies up to this depth.
pub const FUTILITY_MAX_DEPTH: i32 = 3;
/// History pruning: a quiet move whose ordering score is below this per
/// ply of depth is skipped (the scale of the ordering module's history).
pub const HISTORY_PRUNE_PER_DEPTH: i32 = -2000;
/// SEE pruning of quiet moves: skipped when they lose more than this per ply.
pub const SEE_QUIET_PER_DEPTH: i32 = -60;
/// SEE pruning of quiet moves applies up to this depth.
pub const SEE_QUIET_MAX_DEPTH: i32 = 6;
/// SEE pruning of captures: skipped when they lose more than this per ply.
pub const SEE_CAPTURE_PER_DEPTH: i32 = -100;

// ---- late-move reductions ----

/// Reductions start from this depth ...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ... and from this move number on (0-based).
pub const LMR_MIN_MOVE: usize = 2;
/// At the root, reductions start one move later: the first moves there
/// carry the previous iteration's best and its rivals.
pub const ROOT_LMR_MIN_MOVE: usize = 3;
/// Reduction table: `LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR`.
pub const LMR_BASE: f64 = 0.75;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.25;
/// One ply less reduction per this much quiet history.
pub const LMR_HISTORY_DIVISOR: i32 = 12_000;

// ---- move ordering bands (scores of the move picker) ----

/// The table's move.
pub const ORDER_TT_MOVE: i32 = 4_000_000;
/// Captures and promotions that do not lose material (plus MVV-LVA and
/// capture history).
pub const ORDER_GOOD_CAPTURE: i32 = 2_000_000;
/// First killer.
pub const ORDER_KILLER_1: i32 = 1_900_000;
/// Second killer.
pub const ORDER_KILLER_2: i32 = 1_800_000;
/// Counter-move. Also the floor of the refutation band that late-move
/// reduction reduces less: every score from here up is the table's move,
/// a good capture, a killer or the counter-move, never a plain quiet move
/// (history scores stay far below it).
pub const ORDER_COUNTER: i32 = 1_700_000;
/// Captures that lose material (plus MVV-LVA and capture history).
pub const ORDER_BAD_CAPTURE: i32 = -1_000_000;

// ---- quiescence ----

/// Delta pruning: a capture is skipped when even winning the piece plus
/// this leaves the stand-pat score below alpha.
pub const QS_DELTA_MARGIN: i32 = 200;
/// Quiescence orders the table's move first with this key (above any
/// MVV-LVA value).
pub const QS_TT_MOVE_KEY: i32 = 1_000_000;
