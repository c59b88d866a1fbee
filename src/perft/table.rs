//! The perft hash table: (exact position key, depth) -> leaf count, shared
//! by all threads of a run.
//!
//! Layout: 64-byte buckets (one cache line) of two 32-byte entries, each
//! four atomic words:
//!
//! ```text
//! w0 = occupied squares          w1, w2 = colour and role planes
//! w3 = state (21 bits) | depth (6 bits) << 21 | count (36 bits) << 27 | LOCK (bit 63)
//! ```
//!
//! so an entry holds the whole [`Key`] and a hit is never a different
//! position (see [`super::key`]). Counts of 2^36 and more (deeper than any
//! subtree of a depth-7 start position) and depths above 63 are not stored.
//!
//! Threads: a writer takes the entry's lock bit with a compare-exchange,
//! writes the key words, then publishes `w3` (release). A reader that sees
//! a promising entry takes the same lock while it compares the key words,
//! so it always reads one complete entry, never halves of two. A busy entry
//! is treated as a miss (readers) or left alone (writers): nobody waits.
//! All of this is safe Rust atomics; on x86 the loads and stores are plain
//! moves and only the lock costs a locked instruction.
//!
//! Replacement: slot 0 keeps the deeper of old and new, slot 1 takes the
//! rest, so large subtrees stay while small ones churn.
//!
//! Memory: the buckets are allocated zeroed and the operating system maps
//! pages as they are first written (see `crate::memory`), so the resident
//! size grows up to the configured size and never beyond it.

use std::sync::atomic::{AtomicU64, Ordering};

use super::key::{Key, STATE_BITS};
use crate::memory::{prefetch, Zeroable, ZeroedArray};

const LOCK: u64 = 1 << 63;
const DEPTH_BITS: u32 = 6;
const COUNT_SHIFT: u32 = STATE_BITS + DEPTH_BITS;
const COUNT_BITS: u32 = 63 - COUNT_SHIFT;
/// Largest count an entry can hold.
pub(crate) const MAX_COUNT: u64 = (1 << COUNT_BITS) - 1;
/// Largest depth an entry can hold.
pub(crate) const MAX_DEPTH: u32 = (1 << DEPTH_BITS) - 1;
const TAG_MASK: u64 = (1 << COUNT_SHIFT) - 1;
// Every subtree count of a depth-6 suite (and of depth 7 from a start
// position) must fit.
const _: () = assert!(COUNT_BITS >= 36);

/// One cache line: two entries of four words.
#[repr(C, align(64))]
struct Bucket([AtomicU64; 8]);

// SAFETY: all-zero words are an empty bucket (occupied squares 0, count 0).
unsafe impl Zeroable for Bucket {}

/// Bytes per bucket.
const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

/// The shared perft table.
pub(crate) struct Table {
    buckets: ZeroedArray<Bucket>,
}

impl Table {
    /// A table of at most `megabytes` MiB (at least one bucket), or `None`
    /// for 0 or when the allocation fails.
    pub fn new(megabytes: usize) -> Option<Table> {
        if megabytes == 0 {
            return None;
        }
        let n = (megabytes.saturating_mul(1 << 20) / BUCKET_BYTES).max(1);
        Table::with_buckets(n)
    }

    /// A table of exactly `n >= 1` buckets (tests use tiny ones to force
    /// index collisions), or `None` when the allocation fails.
    pub fn with_buckets(n: usize) -> Option<Table> {
        ZeroedArray::new(n.max(1)).map(|buckets| Table { buckets })
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// Have the system map every page of the table now (one write of an
    /// unchanged word per page) instead of at the first store into each.
    /// The total cost is the same for a count that fills the table; what
    /// changes is when it is paid, so timings taken afterwards measure the
    /// counting alone. Changes no entry.
    pub fn touch(&self) {
        const PAGE: usize = 4096;
        for bucket in self.buckets.iter().step_by((PAGE / BUCKET_BYTES).max(1)) {
            // A read would map the shared zero page; a write maps our own.
            // Compare-and-swap of the word with itself: a write that cannot
            // undo another thread's store (and that the compiler keeps,
            // where it may turn `fetch_or(0)` into a plain load).
            let word = &bucket.0[0];
            let v = word.load(Ordering::Relaxed);
            let _ = word.compare_exchange(v, v, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    #[inline]
    fn bucket(&self, key: &Key, depth: u32) -> &Bucket {
        let n = self.buckets.len() as u64;
        let i = ((u128::from(key.hash(depth)) * u128::from(n)) >> 64) as usize;
        &self.buckets[i]
    }

    #[inline]
    fn tag(key: &Key, depth: u32) -> u64 {
        key.state | (u64::from(depth) << STATE_BITS)
    }

    /// Ask for the cache line of (`key`, `depth`)'s bucket ahead of a
    /// [`Table::probe`]: a hint, which changes no result.
    #[inline]
    pub fn prefetch(&self, key: &Key, depth: u32) {
        prefetch(self.bucket(key, depth));
    }

    /// The stored count of (`key`, `depth`), if present.
    #[inline]
    pub fn probe(&self, key: &Key, depth: u32) -> Option<u64> {
        let tag = Table::tag(key, depth);
        let words = &self.bucket(key, depth).0;
        for e in words.chunks_exact(4) {
            // Cheap filters without the lock; only a likely hit locks.
            if e[0].load(Ordering::Relaxed) != key.occ {
                continue;
            }
            let w3 = e[3].load(Ordering::Relaxed);
            if w3 & (LOCK | TAG_MASK) != tag {
                continue;
            }
            if e[3]
                .compare_exchange(w3, w3 | LOCK, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                continue;
            }
            // Under the lock: one complete entry, whose w3 is `w3`.
            let same = e[0].load(Ordering::Relaxed) == key.occ
                && e[1].load(Ordering::Relaxed) == key.colors_roles
                && e[2].load(Ordering::Relaxed) == key.roles;
            e[3].store(w3, Ordering::Release);
            if same {
                return Some(w3 >> COUNT_SHIFT);
            }
        }
        None
    }

    /// Remember that (`key`, `depth`) has `count` leaves. Silently skipped
    /// when the count or depth does not fit or the entry is busy.
    #[inline]
    pub fn store(&self, key: &Key, depth: u32, count: u64) {
        if count > MAX_COUNT || depth > MAX_DEPTH {
            return;
        }
        let words = &self.bucket(key, depth).0;
        let old_depth = |w3: u64| ((w3 & !LOCK) >> STATE_BITS) & u64::from(MAX_DEPTH);
        let w3_0 = words[3].load(Ordering::Relaxed);
        let slot = if old_depth(w3_0) <= u64::from(depth) {
            0
        } else {
            4
        };
        let e = &words[slot..slot + 4];
        let w3 = e[3].load(Ordering::Relaxed);
        if w3 & LOCK != 0
            || e[3]
                .compare_exchange(w3, LOCK, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        e[0].store(key.occ, Ordering::Relaxed);
        e[1].store(key.colors_roles, Ordering::Relaxed);
        e[2].store(key.roles, Ordering::Relaxed);
        e[3].store(
            Table::tag(key, depth) | (count << COUNT_SHIFT),
            Ordering::Release,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::key::Packer;
    use shakmaty::{Chess, Position};

    #[test]
    fn entry_is_one_cache_line_pair() {
        assert_eq!(BUCKET_BYTES, 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
    }

    #[test]
    fn stores_and_finds_exactly() {
        let t = Table::with_buckets(1).expect("table");
        let packer = Packer::detect();
        let start = Chess::default();
        let mut after = start.clone();
        let m = start.legal_moves()[0];
        after.play_unchecked(m);
        let k1 = packer.key(&start).expect("key");
        let k2 = packer.key(&after).expect("key");
        assert_eq!(t.probe(&k1, 3), None);
        t.store(&k1, 3, 8902);
        assert_eq!(t.probe(&k1, 3), Some(8902));
        assert_eq!(t.probe(&k1, 4), None, "depth is part of the key");
        assert_eq!(t.probe(&k2, 3), None, "one bucket, other position");
        t.store(&k2, 2, 400);
        assert_eq!(t.probe(&k2, 2), Some(400));
        assert_eq!(t.probe(&k1, 3), Some(8902), "deeper entry kept in slot 0");
        t.store(&k1, 5, MAX_COUNT + 1);
        assert_eq!(t.probe(&k1, 5), None, "too large to store");
        t.store(&k1, MAX_DEPTH + 1, 1);
        assert_eq!(t.probe(&k1, MAX_DEPTH + 1), None);
        t.store(&k1, 5, MAX_COUNT);
        assert_eq!(t.probe(&k1, 5), Some(MAX_COUNT));
    }

    #[test]
    fn size_follows_megabytes() {
        assert!(Table::new(0).is_none());
        assert_eq!(Table::new(1).expect("1 MiB").bytes(), 1 << 20);
    }
}
