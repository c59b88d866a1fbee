//! Exact position keys for the perft hash table.
//!
//! A perft table must never answer for the wrong position: one false hit
//! silently corrupts a count that is supposed to *prove* move generation.
//! A Zobrist hash of 64 (or 128) bits only makes that unlikely: it maps
//! 781 feature bits onto 64, so distinct positions with equal hashes exist.
//! We therefore store the position itself, packed without loss into 192
//! bits plus 21 bits of state, and use a hash of it only to pick the bucket.
//! Equal keys mean equal positions, so a hit is always right.
//!
//! Packing (at most 32 pieces, which every position reachable from a legal
//! chess position satisfies; others are simply not cached):
//!
//! * `occ`: the occupied squares;
//! * `colors_roles`, `roles`: for the i-th occupied square (in square
//!   order) bit i of four 32-bit planes: "is white" and the three bits of
//!   the role code (pawn 1 ... king 6), extracted with `pext` where the CPU
//!   has BMI2 and with a portable loop otherwise (same result);
//! * `state`: castling rights (the rook squares, which are always on the
//!   first or last rank), the side to move and the file of a pseudo-legal
//!   en passant square.
//!
//! Everything shakmaty's legal move generator reads is in the key (board,
//! turn, castling rights, en passant); the move counters are not, as they
//! do not change the legal moves. Pseudo-legal rather than legal en passant
//! may keep two positions with the same move tree apart, which costs a few
//! hits but never correctness.
//!
//! Shakmaty's own Zobrist hashing was considered for the bucket index: the
//! exact key has to be built anyway, and mixing its four words is cheaper
//! than keeping a Zobrist value up to date (shakmaty's incremental update
//! falls back to a full recomputation for king moves, castling, double
//! pushes and en passant).

use shakmaty::{Bitboard, Chess, Color, EnPassantMode, Position};

/// Back ranks: castling rights only ever name rooks there.
const BACK_RANKS: u64 = 0xff00_0000_0000_00ff;

/// A lossless description of a position's legal move tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Key {
    pub occ: u64,
    pub colors_roles: u64,
    pub roles: u64,
    /// 21 bits: castling (16), side to move (1), en passant file + 1 (4).
    pub state: u64,
}

/// Bits of [`Key::state`].
pub(crate) const STATE_BITS: u32 = 21;

/// Which `pext` implementation this machine can run; decided once per table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Packer {
    /// BMI2 `pext` instruction (checked at run time).
    Bmi2,
    /// Portable bit loop.
    Portable,
}

impl Packer {
    /// The fastest packer this CPU supports.
    pub fn detect() -> Packer {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("bmi2") {
                return Packer::Bmi2;
            }
        }
        Packer::Portable
    }

    /// The exact key of `pos`, or `None` if it has more than 32 pieces.
    #[inline]
    pub fn key(self, pos: &Chess) -> Option<Key> {
        let board = pos.board();
        let occ = board.occupied();
        if occ.count() > 32 {
            return None;
        }
        let rights = pos.castles().castling_rights().0;
        if rights & !BACK_RANKS != 0 {
            return None;
        }
        let planes = [
            board.by_color(Color::White),
            board.pawns() | board.bishops() | board.queens(),
            board.knights() | board.bishops() | board.kings(),
            board.rooks() | board.queens() | board.kings(),
        ]
        .map(|b| b.0);
        let [w, r0, r1, r2] = self.extract(occ.0, planes);
        let ep = pos
            .ep_square(EnPassantMode::PseudoLegal)
            .map_or(0, |sq| u64::from(sq.file()) + 1);
        let state = (rights & 0xff)
            | ((rights >> 56) << 8)
            | (u64::from(pos.turn() == Color::White) << 16)
            | (ep << 17);
        Some(Key {
            occ: occ.0,
            colors_roles: w | (r0 << 32),
            roles: r1 | (r2 << 32),
            state,
        })
    }

    #[inline]
    fn extract(self, occ: u64, planes: [u64; 4]) -> [u64; 4] {
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Bmi2` is only ever produced by `detect` after
            // `is_x86_feature_detected!("bmi2")` returned true.
            Packer::Bmi2 => unsafe { extract_bmi2(occ, planes) },
            _ => extract_portable(occ, planes),
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn extract_bmi2(occ: u64, planes: [u64; 4]) -> [u64; 4] {
    use std::arch::x86_64::_pext_u64;
    planes.map(|p| _pext_u64(p, occ))
}

/// Bit i of each output is the plane's bit at the i-th set square of `occ`.
fn extract_portable(occ: u64, planes: [u64; 4]) -> [u64; 4] {
    let mut out = [0u64; 4];
    for (i, sq) in Bitboard(occ).into_iter().enumerate() {
        let bit = 1u64 << u32::from(sq);
        for (o, p) in out.iter_mut().zip(planes) {
            *o |= u64::from(p & bit != 0) << i;
        }
    }
    out
}

impl Key {
    /// A well-mixed 64-bit hash of the key and `depth`, for the bucket index.
    #[inline]
    pub fn hash(&self, depth: u32) -> u64 {
        let mut h = self.occ.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ self.colors_roles.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            ^ self.roles.wrapping_mul(0x1656_67b1_9e37_79f9)
            ^ (self.state | (u64::from(depth) << STATE_BITS)).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 29;
        h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^ (h >> 32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen;

    fn pos(fen: &str) -> Chess {
        parse_fen(fen).expect("fen")
    }

    #[test]
    fn packers_agree() {
        let fens = [
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/2k5/8/8/8/8/5K2/8 b - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        let detected = Packer::detect();
        for f in fens {
            let p = pos(f);
            assert_eq!(Packer::Portable.key(&p), detected.key(&p), "{f}");
        }
    }

    #[test]
    fn every_field_changes_the_key() {
        let k = |f: &str| Packer::detect().key(&pos(f)).expect("key");
        let base = k("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        // Move counters do not matter.
        assert_eq!(base, k("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 7 30"));
        for other in [
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", // side to move
            "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1",  // castling
            "r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",  // castling
            "r3k2r/8/8/8/8/8/8/R2K3R w - - 0 1",    // king square
            "r3k2q/8/8/8/8/8/8/R3K2R w KQq - 0 1",  // role
            "r3k2r/8/8/8/8/8/8/R3K2r w Qkq - 0 1",  // colour
        ] {
            assert_ne!(base, k(other), "{other}");
        }
        // En passant counts when a capture is pseudo-legal ...
        let ep = k("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        let no_ep = k("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
        assert_ne!(ep, no_ep);
        // ... and is ignored when no pawn could capture.
        assert_eq!(
            k("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1"),
            k("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1")
        );
    }

    #[test]
    fn hash_depends_on_depth() {
        let key = Packer::detect().key(&Chess::default()).expect("key");
        assert_ne!(key.hash(3), key.hash(4));
    }
}
