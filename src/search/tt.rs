//! The search transposition table, shared by all search threads.
//!
//! Each slot is two `AtomicU64`s: the packed data and `key ^ data`. A reader
//! accepts a slot only if `stored ^ data == key`, so a slot torn by two
//! threads writing at once is rejected instead of misread (the classic
//! lock-free "xor trick"). Moves are stored packed and only used after they
//! are matched against the legal moves of the position, so a hash collision
//! can cost time but never produce an illegal move.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::Move;

use crate::memory::{prefetch, Zeroable, ZeroedArray};

/// Bound type of a stored score.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// Score is exact (PV node).
    Exact,
    /// Score is a lower bound (fail high).
    Lower,
    /// Score is an upper bound (fail low).
    Upper,
}

/// What a probe returns.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// Packed best move (see [`pack_move`]); 0 = none.
    pub mv: u16,
    /// Score, mate scores relative to this node.
    pub score: i32,
    /// Static evaluation when stored.
    pub eval: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

/// Pack a move as from (6 bits) | to (6 bits) | promotion role (3 bits).
/// Castling is packed king-square to rook-square, which is unique.
pub fn pack_move(m: Move) -> u16 {
    let (from, to, promo) = match m {
        Move::Normal {
            from,
            to,
            promotion,
            ..
        } => (from, to, promotion.map_or(0, |r| r as u16)),
        Move::EnPassant { from, to } => (from, to, 0),
        Move::Castle { king, rook } => (king, rook, 0),
        Move::Put { to, .. } => (to, to, 0),
    };
    u16::from(from) | (u16::from(to) << 6) | (promo << 12)
}

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line,
/// so a probe costs one memory access and a store can choose whom to evict.
const WAYS: usize = 4;

/// One cache line of entries, each `[key ^ data, data]`.
#[repr(align(64))]
struct Bucket([[AtomicU64; 2]; WAYS]);

// SAFETY: all-zero words are an empty bucket: `probe` accepts no entry whose
// data word is 0, and `store` fills such an entry first.
unsafe impl Zeroable for Bucket {}

/// The shared transposition table: buckets of `WAYS` entries, allocated
/// zeroed, on huge pages where the system gives them, and mapped before
/// the first search (the crate's `memory` module): every node probes it at
/// a random address.
pub struct Table {
    buckets: ZeroedArray<Bucket>,
    generation: AtomicU64,
    /// A search may have written since the table was made or emptied.
    /// Emptying an untouched table is skipped: a GUI sends `ucinewgame`
    /// right after a large `Hash`, then waits on `isready`, and writing
    /// every slot of a fresh zeroed table again would cost as long as
    /// making it (a second or more for gigabytes) for nothing.
    written: AtomicBool,
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Table {
        Table::with_buckets(mb.max(1) * 1024 * 1024 / std::mem::size_of::<Bucket>())
    }

    /// A table of exactly `n` buckets, at least one (tests force
    /// collisions with one).
    fn with_buckets(n: usize) -> Table {
        let n = n.max(1);
        let Some(buckets) = ZeroedArray::new_resident(n) else {
            // Out of memory: what a `Vec` of this size does then. (A `Hash`
            // request is checked against the memory available first.)
            let layout = std::alloc::Layout::array::<Bucket>(n);
            std::alloc::handle_alloc_error(layout.unwrap_or(std::alloc::Layout::new::<Bucket>()));
        };
        Table {
            buckets,
            generation: AtomicU64::new(0),
            written: AtomicBool::new(false),
        }
    }

    /// Empty every entry (UCI `Clear Hash`, `ucinewgame`).
    pub fn clear(&self) {
        if !self.written.swap(false, Ordering::SeqCst) {
            return;
        }
        for b in self.buckets.iter() {
            for e in &b.0 {
                e[0].store(0, Ordering::Relaxed);
                e[1].store(0, Ordering::Relaxed);
            }
        }
    }

    /// Start a new search: entries of older searches become the first to
    /// be replaced. Every search calls it before its first [`Self::store`].
    pub fn new_search(&self) {
        self.written.store(true, Ordering::SeqCst);
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Ask the CPU to start loading `key`'s bucket into the cache, so that
    /// the probe that follows does not wait for memory. A hint only: it
    /// changes no state and does nothing on targets without prefetch.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.bucket(key));
    }

    /// The entry stored for `key`, if any (a torn or foreign entry is
    /// never returned: its check word does not match).
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).0.iter().find_map(|e| {
            let data = e[1].load(Ordering::Relaxed);
            let check = e[0].load(Ordering::Relaxed);
            (data != 0 && check ^ data == key).then(|| unpack(data))
        })
    }

    /// Store a search result. In `key`'s bucket it overwrites `key`'s own
    /// entry (unless that one is much deeper and this result is only a
    /// bound), else an empty entry, else the entry worth least: shallow and
    /// from older searches first.
    pub fn store(&self, key: u64, mv: u16, score: i32, eval: i32, depth: i32, bound: Bound) {
        let bucket = &self.bucket(key).0;
        let gen = self.generation.load(Ordering::Relaxed) & 0xff;
        let mut target = &bucket[0];
        let mut target_value = i32::MAX;
        let mut old = 0;
        for e in bucket {
            let data = e[1].load(Ordering::Relaxed);
            let stored_key = e[0].load(Ordering::Relaxed) ^ data;
            if data != 0 && stored_key == key {
                // The same position: a much shallower bound (a quiescence
                // result over a search result) would only lose information.
                if bound != Bound::Exact && stored_depth(data) > depth + 3 {
                    return;
                }
                target = e;
                old = data;
                break;
            }
            // Worth of keeping an entry: its depth, less for every search
            // since it was stored; an empty entry is worth nothing.
            let value = if data == 0 {
                i32::MIN
            } else {
                let age = (gen.wrapping_sub(stored_generation(data)) & 0xff) as i32;
                stored_depth(data) - 8 * age
            };
            if value < target_value {
                target_value = value;
                target = e;
            }
        }
        // Keep a known best move when this search found none.
        let mv = if mv == 0 && old != 0 {
            (old & 0xffff) as u16
        } else {
            mv
        };
        let b = match bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        // Layout: move 0-15 | score 16-31 (i16) | eval 32-45 (14-bit signed,
        // clamped; only used for pruning margins) | bound 46-47 | depth 48-55
        // | generation 56-63.
        let eval14 = (eval.clamp(-8191, 8191) as i16 as u16 & 0x3fff) as u64;
        let data = u64::from(mv)
            | (u64::from(score as i16 as u16) << 16)
            | (eval14 << 32)
            | (b << 46)
            | ((depth.clamp(0, 255) as u64) << 48)
            | (gen << 56);
        target[1].store(data, Ordering::Relaxed);
        target[0].store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of the first entries filled in this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed) & 0xff;
        let sample = &self.buckets[..self.buckets.len().min(250)];
        let used = sample
            .iter()
            .flat_map(|b| &b.0)
            .filter(|e| {
                let d = e[1].load(Ordering::Relaxed);
                d != 0 && stored_generation(d) == gen
            })
            .count();
        (used * 1000 / (sample.len() * WAYS).max(1)) as u32
    }
}

fn unpack(data: u64) -> Entry {
    let bound = match (data >> 46) & 0b11 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    // eval occupies bits 32..46 (14 bits, sign-extended).
    let eval14 = ((data >> 32) & 0x3fff) as u16;
    let eval = (((eval14 << 2) as i16) >> 2) as i32;
    Entry {
        mv: (data & 0xffff) as u16,
        score: ((data >> 16) & 0xffff) as u16 as i16 as i32,
        eval,
        depth: stored_depth(data),
        bound,
    }
}

/// The depth field of packed entry data.
fn stored_depth(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32
}

/// The generation (search number, mod 256) of packed entry data.
fn stored_generation(data: u64) -> u64 {
    data >> 56
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_evicts_the_shallowest_and_oldest() {
        let t = Table::with_buckets(1);
        t.new_search();
        let depth_of = |k: u64| t.probe(k).map(|e| e.depth);
        for (k, d) in [(11, 10), (12, 20), (13, 30), (14, 40)] {
            t.store(k, 0, 0, 0, d, Bound::Exact);
        }
        for (k, d) in [(11, 10), (12, 20), (13, 30), (14, 40)] {
            assert_eq!(depth_of(k), Some(d), "all four fit in one bucket");
        }
        // A fifth position replaces the shallowest of this search.
        t.store(15, 0, 0, 0, 5, Bound::Exact);
        assert_eq!(depth_of(11), None);
        assert_eq!(depth_of(15), Some(5));
        // The same position is updated in place, keeping its move when the
        // new result has none; a bound does not replace a much deeper entry.
        t.store(12, 77, 0, 0, 21, Bound::Lower);
        t.store(12, 0, 0, 0, 22, Bound::Exact);
        assert_eq!(t.probe(12).map(|e| (e.depth, e.mv)), Some((22, 77)));
        t.store(14, 0, 0, 0, 2, Bound::Upper);
        assert_eq!(depth_of(14), Some(40));
        // Entries from older searches lose 8 plies of worth per search:
        // three searches later, depth 5 is worth -19 and depth 22 is worth
        // -2, both less than a fresh depth-1 entry.
        for _ in 0..3 {
            t.new_search();
        }
        t.store(16, 0, 0, 0, 1, Bound::Exact);
        assert_eq!(depth_of(15), None, "old depth 5 was worth least");
        assert_eq!(depth_of(16), Some(1));
        t.store(17, 0, 0, 0, 1, Bound::Exact);
        assert_eq!(
            depth_of(12),
            None,
            "then old depth 22 (worth -2) before fresh depth 1"
        );
        assert_eq!(depth_of(16), Some(1));
    }

    #[test]
    fn store_and_probe_round_trip() {
        let t = Table::new(1);
        t.new_search();
        t.store(0xdead_beef, 1234, -31000, -5000, 17, Bound::Lower);
        let e = t.probe(0xdead_beef).expect("stored");
        assert_eq!(e.mv, 1234);
        assert_eq!(e.score, -31000);
        assert_eq!(e.eval, -5000);
        assert_eq!(e.depth, 17);
        assert_eq!(e.bound, Bound::Lower);
        assert!(t.probe(0xdead_beef ^ 1).is_none());
        t.clear();
        assert!(t.probe(0xdead_beef).is_none());
        // Emptied again after the next search's stores.
        t.new_search();
        t.store(0xdead_beef, 1234, 0, 0, 3, Bound::Exact);
        assert!(t.probe(0xdead_beef).is_some());
        t.clear();
        assert!(t.probe(0xdead_beef).is_none());
    }
}
