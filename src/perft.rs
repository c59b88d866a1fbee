//! Perft: counting the leaves of the legal move tree.
//!
//! (Interface fixed by the skeleton; the fast engine replaces the internals.)

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Chess, Move, Position};

/// Count the leaves of the legal move tree of `pos` at `depth` plies.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    shakmaty::perft(pos, depth)
}

/// Count per root move. Returns `None` if `stop` was raised before the end,
/// so that UCI `go perft` can be interrupted by `stop` or `quit`.
pub fn divide(pos: &Chess, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        out.push((m, perft(&child, depth.saturating_sub(1))));
    }
    Some(out)
}
