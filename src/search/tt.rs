//! The search transposition table, shared by all search threads.
//!
//! Each slot is two `AtomicU64`s: the packed data and `key ^ data`. A reader
//! accepts a slot only if `stored ^ data == key`, so a slot torn by two
//! threads writing at once is rejected instead of misread (the classic
//! lock-free "xor trick"). Moves are stored packed and only used after they
//! are matched against the legal moves of the position, so a hash collision
//! can cost time but never produce an illegal move.

use std::sync::atomic::{AtomicU64, Ordering};

use shakmaty::Move;

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

/// The transposition table.
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    generation: AtomicU64,
}

impl Table {
    /// A table of about `mb` megabytes (at least one slot).
    pub fn new(mb: usize) -> Table {
        let count = (mb.max(1) * 1024 * 1024 / 16).max(1);
        let mut slots = Vec::with_capacity(count);
        slots.resize_with(count, || [AtomicU64::new(0), AtomicU64::new(0)]);
        Table {
            slots,
            generation: AtomicU64::new(0),
        }
    }

    /// Empty every slot (UCI `Clear Hash`, `ucinewgame`).
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
    }

    /// Start a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// Look `key` up.
    /// Ask the CPU to start loading `key`'s slot into the cache, so that
    /// the probe that follows does not wait for memory. A hint only: it
    /// changes no state and does nothing on targets without prefetch.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const [AtomicU64; 2] = &self.slots[self.index(key)];
            // SAFETY: `_mm_prefetch` only hints the cache; it never faults
            // and the pointer comes from a live reference.
            unsafe {
                std::arch::x86_64::_mm_prefetch(slot.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[self.index(key)];
        let data = slot[1].load(Ordering::Relaxed);
        let check = slot[0].load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        Some(unpack(data))
    }

    /// Store a result, replacing the slot unless it holds a deeper result of
    /// the current search for another position.
    pub fn store(&self, key: u64, mv: u16, score: i32, eval: i32, depth: i32, bound: Bound) {
        let slot = &self.slots[self.index(key)];
        let gen = self.generation.load(Ordering::Relaxed) & 0xff;
        let old = slot[1].load(Ordering::Relaxed);
        let old_key = slot[0].load(Ordering::Relaxed) ^ old;
        if old != 0 {
            let old_gen = (old >> 56) & 0xff;
            let old_depth = ((old >> 48) & 0xff) as i32;
            if old_key != key && old_gen == gen && old_depth > depth + 2 {
                return;
            }
            // The same position: a much shallower bound (a quiescence
            // result over a search result) would only lose information.
            if old_key == key && bound != Bound::Exact && old_depth > depth + 3 {
                return;
            }
        }
        // Keep a known best move when this search found none.
        let mv = if mv == 0 && old != 0 && old_key == key {
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
        slot[1].store(data, Ordering::Relaxed);
        slot[0].store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of slots used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed) & 0xff;
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s[1].load(Ordering::Relaxed);
                d != 0 && (d >> 56) == gen
            })
            .count();
        (used * 1000 / n.max(1)) as u32
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
        depth: ((data >> 48) & 0xff) as i32,
        bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
