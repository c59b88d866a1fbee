//! The leaf cache: each thread's exact memory of how many legal moves a
//! position has, in front of the generator at the last ply.
//!
//! Two plies above the leaves, a node plays each of its moves and counts
//! the child's legal moves. Those children transpose a lot (from the
//! standard start at depth 7, about 22 million such counts fall on under 10
//! million distinct positions), yet caching them in the shared table was
//! slower: every lookup is a cache miss, and one costs about as much as
//! generating the moves. What pays is to play all the children first,
//! compute their keys and ask the memory system for all their cache lines
//! at once (a prefetch each), and only then look them up, so the misses
//! overlap instead of following one another. Looked up one at a time, the
//! same cache is slower than none (measured: docs/perft.md).
//!
//! Each thread has its own small, direct-mapped cache ([`LEAF_CACHE_BYTES`]):
//! no locks, no atomics. An entry holds the child's whole [`Key`], so a hit
//! is always the same position, as in the shared table; and a position's
//! number of legal moves never changes, so entries stay right across runs,
//! depths and start positions, and the cache is never cleared.

use std::cell::RefCell;

use arrayvec::ArrayVec;
use shakmaty::{Chess, Position};

use super::key::{Key, Packer, STATE_BITS};

/// Size of each thread's cache. Measured on depth 7 of a start position:
/// 4 MiB did as well as 32 MiB (more entries hit, but misses cost more), and
/// 128 MiB did worse; small enough to ignore beside the shared table.
pub(crate) const LEAF_CACHE_BYTES: usize = 4 << 20;

/// One entry: the key's three board words, then its state with the count
/// above it. An all-zero entry is empty: no position has an empty board.
/// Aligned to its size, so that no entry straddles two cache lines (one
/// prefetch brings the whole entry).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Entry([u64; 4]);

const ENTRIES: usize = LEAF_CACHE_BYTES / std::mem::size_of::<Entry>();
const STATE_MASK: u64 = (1 << STATE_BITS) - 1;
// Counts (at most 218 legal moves) fit in the bits above the state.
const _: () = assert!(STATE_BITS + 8 < 64);

struct LeafCache {
    entries: Vec<Entry>,
}

impl LeafCache {
    fn new() -> LeafCache {
        LeafCache {
            entries: vec![Entry([0; 4]); ENTRIES],
        }
    }

    #[inline]
    fn index(key: &Key) -> usize {
        // Depth 1 in the hash: the same mixing as the shared table's.
        ((u128::from(key.hash(1)) * ENTRIES as u128) >> 64) as usize
    }

    #[inline]
    fn prefetch(&self, i: usize) {
        crate::memory::prefetch(&self.entries[i]);
    }

    #[inline]
    fn get(&self, i: usize, key: &Key) -> Option<u64> {
        let e = &self.entries[i].0;
        (e[0] == key.occ
            && e[1] == key.colors_roles
            && e[2] == key.roles
            && e[3] & STATE_MASK == key.state)
            .then_some(e[3] >> STATE_BITS)
    }

    #[inline]
    fn put(&mut self, i: usize, key: &Key, count: u64) {
        self.entries[i] = Entry([
            key.occ,
            key.colors_roles,
            key.roles,
            key.state | (count << STATE_BITS),
        ]);
    }
}

thread_local! {
    /// This thread's cache, allocated at its first depth-2 node (zeroed
    /// memory, mapped by the system as it is written).
    static CACHE: RefCell<Option<LeafCache>> = const { RefCell::new(None) };
}

/// Leaves of `pos` two plies down: its moves' numbers of legal replies,
/// each from this thread's cache where it has the child.
pub(crate) fn count2(pos: &Chess, packer: Packer) -> u64 {
    CACHE.with(|cell| {
        let mut slot = cell.borrow_mut();
        let cache = slot.get_or_insert_with(LeafCache::new);
        count2_with(pos, packer, cache)
    })
}

#[inline]
fn count2_with(pos: &Chess, packer: Packer, cache: &mut LeafCache) -> u64 {
    let moves = pos.legal_moves();
    // First every child and its entry's address, prefetched ...
    let mut children: ArrayVec<Chess, 256> = ArrayVec::new();
    let mut entries: ArrayVec<Option<(Key, usize)>, 256> = ArrayVec::new();
    for &m in &moves {
        // Made in its slot: a child built elsewhere and moved in costs a
        // copy of the position per move.
        children.push(pos.clone());
        let Some(child) = children.last_mut() else {
            continue;
        };
        child.play_unchecked(m);
        entries.push(packer.key(child).map(|key| {
            let i = LeafCache::index(&key);
            cache.prefetch(i);
            (key, i)
        }));
    }
    // ... then the lookups, whose lines are on their way or there.
    let mut nodes = 0;
    for (child, at) in children.iter().zip(&entries) {
        nodes += match at {
            Some((key, i)) => cache.get(*i, key).unwrap_or_else(|| {
                let n = child.legal_moves().len() as u64;
                cache.put(*i, key, n);
                n
            }),
            None => child.legal_moves().len() as u64,
        };
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen;

    /// The same count as playing every move and generating the replies,
    /// on a first call (all misses) and a second (all hits), including
    /// positions whose children have en passant and castling.
    #[test]
    fn counts_equal_the_generator_from_empty_and_full_caches() {
        let packer = Packer::detect();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ] {
            let pos = parse_fen(fen).expect("fen");
            let want: u64 = pos
                .legal_moves()
                .iter()
                .map(|&m| {
                    let mut c = pos.clone();
                    c.play_unchecked(m);
                    c.legal_moves().len() as u64
                })
                .sum();
            let mut cache = LeafCache::new();
            assert_eq!(count2_with(&pos, packer, &mut cache), want, "{fen}");
            assert_eq!(count2_with(&pos, packer, &mut cache), want, "{fen}");
            assert_eq!(count2(&pos, packer), want, "{fen}");
        }
    }

    /// Two positions that share an entry replace each other and are never
    /// mistaken for one another.
    #[test]
    fn a_shared_entry_answers_only_for_its_own_position() {
        let a = Packer::detect().key(&Chess::default()).expect("key");
        let mut b = a;
        b.state ^= 1;
        let mut cache = LeafCache::new();
        let i = LeafCache::index(&a);
        cache.put(i, &a, 20);
        assert_eq!(cache.get(i, &a), Some(20));
        assert_eq!(cache.get(i, &b), None);
        cache.put(i, &b, 7);
        assert_eq!(cache.get(i, &a), None);
        assert_eq!(cache.get(i, &b), Some(7));
        assert_eq!(
            LeafCache::new().get(i, &a),
            None,
            "an empty entry is no position"
        );
    }
}
