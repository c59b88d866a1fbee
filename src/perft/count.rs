//! The counting engine: a depth-first walk of shakmaty's legal move tree.
//!
//! Speed comes from *bulk counting*: a node one ply above the leaves does not
//! play its moves, it returns the length of its legal move list, and a node two
//! plies above the leaves plays each move once and counts the child's list.
//! Move generation is shakmaty's throughout; nothing here knows chess rules.
//!
//! Parallelism (rayon) splits the tree at the first plies: every root move,
//! and at the next ply too while a subtree is large, becomes a task. Counts
//! are sums of exact sub-counts, so the result does not depend on how the
//! tasks were scheduled.

use std::sync::atomic::{AtomicBool, Ordering};

use arrayvec::ArrayVec;
use rayon::prelude::*;
use shakmaty::{Chess, Move, Position};

use super::key::{Key, Packer};
use super::leaf;
use super::table::Table;

/// Shared, read-only state of one counting run.
pub(crate) struct Walk<'a> {
    /// Raised from outside to abandon the run; counts are then meaningless
    /// and nothing more is stored in the table.
    pub stop: &'a AtomicBool,
    /// The perft table, if any.
    pub table: Option<&'a Table>,
    /// How this CPU builds table keys.
    pub packer: Packer,
}

/// Subtrees with at least this many plies left are split into rayon tasks.
const SPLIT_MIN_DEPTH: u32 = 4;
/// How many plies below the node handed to [`Walk::count_parallel`] are split.
const SPLIT_PLIES: u32 = 2;

impl Walk<'_> {
    /// Leaves of the legal move tree of `pos` at `depth` plies, serially.
    pub fn count(&self, pos: &Chess, depth: u32) -> u64 {
        if depth <= 1 {
            return if depth == 0 {
                1
            } else {
                pos.legal_moves().len() as u64
            };
        }
        let key = self.table.and_then(|_| self.packer.key(pos));
        self.count_keyed(pos, depth, key.as_ref())
    }

    /// [`Walk::count`] for depth >= 2, with the key of `pos` already made
    /// (`None`: no table, or a position the table cannot hold).
    fn count_keyed(&self, pos: &Chess, depth: u32, key: Option<&Key>) -> u64 {
        let (Some(table), Some(key)) = (self.table, key) else {
            return self.expand(pos, depth);
        };
        if let Some(nodes) = table.probe(key, depth) {
            return nodes;
        }
        let nodes = self.expand(pos, depth);
        // A stopped run returns partial sums: never let them into the table.
        if !self.stop.load(Ordering::Relaxed) {
            table.store(key, depth, nodes);
        }
        nodes
    }

    /// Count `pos` (depth >= 2) from its moves, without looking it up.
    fn expand(&self, pos: &Chess, depth: u32) -> u64 {
        if depth == 2 {
            // The leaf cache goes with the table: `--hash 0` is the plain
            // generator, the baseline the speed figures compare with.
            return if self.table.is_some() {
                leaf::count2(pos, self.packer)
            } else {
                count2(pos)
            };
        }
        if self.stop.load(Ordering::Relaxed) {
            return 0;
        }
        let moves = pos.legal_moves();
        let Some(table) = self.table else {
            return moves
                .iter()
                .map(|&m| self.count(&child(pos, m), depth - 1))
                .sum();
        };
        // All children first, each child's bucket prefetched, then their
        // lookups: the cache misses overlap instead of queueing (see
        // `leaf` for the same at the last ply).
        let mut children: ArrayVec<(Chess, Option<Key>), 256> = ArrayVec::new();
        for &m in &moves {
            let c = child(pos, m);
            let key = self.packer.key(&c);
            if let Some(k) = &key {
                table.prefetch(k, depth - 1);
            }
            children.push((c, key));
        }
        children
            .iter()
            .map(|(c, key)| self.count_keyed(c, depth - 1, key.as_ref()))
            .sum()
    }

    /// Like [`Walk::count`], but the first [`SPLIT_PLIES`] plies of large
    /// subtrees run as rayon tasks in the current thread pool.
    pub fn count_parallel(&self, pos: &Chess, depth: u32) -> u64 {
        self.count_split(pos, depth, SPLIT_PLIES)
    }

    fn count_split(&self, pos: &Chess, depth: u32, plies: u32) -> u64 {
        if plies == 0 || depth < SPLIT_MIN_DEPTH {
            return self.count(pos, depth);
        }
        if self.stop.load(Ordering::Relaxed) {
            return 0;
        }
        let moves = pos.legal_moves();
        moves
            .par_iter()
            .map(|&m| self.count_split(&child(pos, m), depth - 1, plies - 1))
            .sum()
    }

    /// Count per root move (in shakmaty's generation order), in parallel.
    /// `depth` is the depth of the root, so each move gets `depth - 1`.
    pub fn divide_parallel(&self, pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
        let moves = pos.legal_moves();
        moves
            .par_iter()
            .map(|&m| {
                let sub = depth.saturating_sub(1);
                (m, self.count_split(&child(pos, m), sub, SPLIT_PLIES - 1))
            })
            .collect()
    }

    /// Count per root move serially (for the single-thread configuration).
    pub fn divide(&self, pos: &Chess, depth: u32) -> Vec<(Move, u64)> {
        pos.legal_moves()
            .iter()
            .map(|&m| (m, self.count(&child(pos, m), depth.saturating_sub(1))))
            .collect()
    }
}

/// Two plies left: play each move and bulk-count the replies.
#[inline]
fn count2(pos: &Chess) -> u64 {
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &m in &moves {
        // Played in place: returning the child by value costs a copy.
        let mut c = pos.clone();
        c.play_unchecked(m);
        nodes += c.legal_moves().len() as u64;
    }
    nodes
}

/// The position after the legal move `m`.
#[inline]
fn child(pos: &Chess, m: Move) -> Chess {
    let mut c = pos.clone();
    c.play_unchecked(m);
    c
}
