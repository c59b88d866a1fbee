//! A small efficiently updatable neural network (NNUE) evaluation.
//!
//! Why: the hand-made evaluation in this module's parent is linear in its
//! weights, and tuning it on more data stopped paying off. A network with
//! one hidden layer learns piece interactions the linear terms cannot
//! express, and costs little per node because its first layer is updated
//! incrementally as moves are made.
//!
//! Architecture (768 -> [`HIDDEN`]) x 2 -> 1:
//!
//! * Inputs: one per (piece colour relative to the viewer, role, square seen
//!   from the viewer's side): 2 x 6 x 64 = 768, all zero but one per piece.
//! * Two accumulators, one seen from White and one from Black, share the
//!   same first-layer weights (the board is mirrored for Black). Each is the
//!   bias plus the weight rows of the pieces on the board; a move changes
//!   only the rows of the pieces it moves (a [`Delta`]), so
//!   [`Network::apply`] adds and removes a few rows, in one pass over the
//!   accumulator, instead of summing all of them; the search applies a
//!   ply's delta only when that ply's evaluation is asked for
//!   ([`super::PathEval`]).
//! * The side to move's accumulator, then the other, each through a
//!   squared clipped ReLU (`clamp(x, 0, 1)^2`), into one linear output,
//!   which times [`SCALE`] is centipawns for the side to move.
//! * Or, in a network with a second hidden layer ([`MAGIC_LAYERS`]), into
//!   that layer's neurons, each a weighted sum of all `2 * HIDDEN`
//!   activations plus a bias, through the same squared clipped ReLU, and
//!   from them into the linear output. Why: a single linear output can
//!   only add up what each first-layer neuron says; a second layer lets
//!   neurons combine, at the cost of `2 * HIDDEN` multiplications per
//!   neuron of it in every evaluation.
//! * The first layer may come in copies too ("king buckets"), each side's
//!   accumulator summing the rows of the copy its own king's square picks,
//!   on the board seen as it is or mirrored left to right ([`KingMap`],
//!   kept with the accumulator as its [`View`]). A king move that changes
//!   a side's view makes that side's sum anew, from the sum last made for
//!   that view ([`SumCache`]); every other move updates it as above. One
//!   copy, never mirrored, is the plain network; the committed one has
//!   four copies, mirrored (the `k4` layout of [`KING_LAYOUTS`]).
//! * The output layer may come in [`BUCKETS`] copies ("output buckets"),
//!   one chosen by the number of pieces on the board ([`bucket`]): the
//!   first layer is shared, and each stage of the game (a full board, a
//!   middlegame, an ending) weighs its neurons its own way. One bucket is
//!   the plain network.
//!
//! First-layer weights and biases are stored as `i16` scaled by [`QA`] (the
//! trainer clips them so that a full board cannot overflow); the layers
//! after it are stored as `f32` (the engine quantises a second layer to
//! integers when it loads it). The weights come from `tools/nnue` (Stockfish-labelled
//! Chess960 positions, trained by `tune nnue`; see its README) and are
//! compiled into the binary from `net.bin`.
//!
//! The file format, read and written at any width ([`NetFile`]), is `file`'s;
//! the king layouts ([`KingMap`]) are `kings`'s; this module is the compiled
//! network and its updates along the search.

use std::sync::OnceLock;

use shakmaty::{Bitboard, Board, Color, Move, Piece, Role};

use super::Displacement;

mod file;
mod kings;

pub use file::{
    file_size, out_inputs, NetError, NetFile, MAGIC, MAGIC_BUCKETS, MAGIC_KINGS, MAGIC_LAYERS,
    MAX_BUCKETS, MAX_KING_BUCKETS, MAX_LAYER2,
};
use file::{starts_with, HEADER, HEADER_BUCKETS, HEADER_KINGS, HEADER_LAYERS};
pub use kings::{
    king_buckets, king_layout, king_layout_name, KingMap, KING_LAYOUTS, MIRROR, PLAIN_KINGS,
};

/// Number of input features.
pub const INPUTS: usize = 768;
/// Quantisation of the first layer: 1.0 is stored as `QA`.
pub const QA: i16 = 255;
/// Centipawns per unit of network output.
pub const SCALE: f32 = 400.0;
/// The trainer keeps first-layer weights and biases within this bound, so
/// that 32 pieces plus the bias stay inside `i16` after quantisation.
pub const CLIP: f32 = 1.98;
/// The evaluation loops take the hidden neurons eight at a time, so a
/// network's width is a multiple of this.
pub const LANES: usize = 8;

/// Evaluations are kept away from mate scores.
const EVAL_LIMIT: i32 = 20_000;

/// The network compiled into the binary; its header is also read while
/// compiling, for [`HIDDEN`].
pub(super) const NET_BYTES: &[u8] = include_bytes!("../net.bin");

/// Hidden neurons per accumulator: the width the compiled network's
/// header states. Why from the file: a wider network is tried by
/// building with its file in place of `net.bin`, with no other change,
/// while the width stays a constant the loops are compiled for.
pub const HIDDEN: usize = {
    assert!(NET_BYTES.len() >= HEADER, "src/eval/net.bin is too short");
    u32::from_le_bytes([NET_BYTES[8], NET_BYTES[9], NET_BYTES[10], NET_BYTES[11]]) as usize
};

/// Output buckets of the compiled network: the number its header states
/// (1 for a [`MAGIC`] file), read while compiling like [`HIDDEN`].
pub const BUCKETS: usize = if starts_with(NET_BYTES, MAGIC_BUCKETS)
    || starts_with(NET_BYTES, MAGIC_LAYERS)
    || starts_with(NET_BYTES, MAGIC_KINGS)
{
    assert!(
        NET_BYTES.len() >= HEADER_BUCKETS,
        "src/eval/net.bin is too short"
    );
    u32::from_le_bytes([NET_BYTES[16], NET_BYTES[17], NET_BYTES[18], NET_BYTES[19]]) as usize
} else {
    1
};

/// The compiled network's [`KingMap`], read while compiling like
/// [`HIDDEN`] (the engine takes it from the network it holds; this
/// constant only checks the file's length).
const NET_KINGS: KingMap = if starts_with(NET_BYTES, MAGIC_KINGS) {
    assert!(
        NET_BYTES.len() >= HEADER_KINGS,
        "src/eval/net.bin is too short"
    );
    let mut map = PLAIN_KINGS;
    let mut i = 0;
    while i < 64 {
        map[i] = NET_BYTES[HEADER_LAYERS + i];
        i += 1;
    }
    map
} else {
    PLAIN_KINGS
};

/// Width of the compiled network's second hidden layer (0 for none). The
/// evaluation takes it from the network it holds; this constant only
/// checks the file's length while compiling.
const LAYER2: usize = if starts_with(NET_BYTES, MAGIC_LAYERS) || starts_with(NET_BYTES, MAGIC_KINGS)
{
    assert!(
        NET_BYTES.len() >= HEADER_LAYERS,
        "src/eval/net.bin is too short"
    );
    u32::from_le_bytes([NET_BYTES[20], NET_BYTES[21], NET_BYTES[22], NET_BYTES[23]]) as usize
} else {
    0
};

/// Size of the compiled network file.
pub const FILE_SIZE: usize = file_size(HIDDEN, BUCKETS, LAYER2, &NET_KINGS);

/// The output bucket of a position with `pieces` pieces (kings included)
/// in a network of `buckets` buckets: the piece counts 2..=32 cut into
/// `buckets` ranges of (nearly) equal length, so that 8 buckets take four
/// counts each (2-5, 6-9, ..., 30-32). One function for the trainer and
/// the engine, so the two cannot disagree.
#[inline(always)]
pub const fn bucket(pieces: usize, buckets: usize) -> usize {
    let b = pieces.saturating_sub(2) * buckets / 31;
    if b < buckets {
        b
    } else {
        buckets - 1
    }
}

// The file must be a network of the format this binary reads, with a
// width the evaluation loops take.
const _: () = {
    assert!(
        starts_with(NET_BYTES, MAGIC)
            || starts_with(NET_BYTES, MAGIC_BUCKETS)
            || starts_with(NET_BYTES, MAGIC_LAYERS)
            || starts_with(NET_BYTES, MAGIC_KINGS),
        "src/eval/net.bin: bad magic"
    );
    assert!(
        HIDDEN > 0 && HIDDEN.is_multiple_of(LANES),
        "src/eval/net.bin: the hidden size must be a positive multiple of 8"
    );
    assert!(
        BUCKETS >= 1 && BUCKETS <= MAX_BUCKETS,
        "src/eval/net.bin: the number of output buckets must be from 1 to 16"
    );
    assert!(
        king_buckets(&NET_KINGS) <= MAX_KING_BUCKETS,
        "src/eval/net.bin: too many king buckets"
    );
    assert!(
        NET_BYTES.len() == FILE_SIZE,
        "src/eval/net.bin: its length does not match its hidden size"
    );
};

/// Network weights, ready for inference.
pub struct Network {
    /// First-layer rows, one per input feature of each king bucket.
    ft_weights: Box<[[i16; HIDDEN]]>,
    /// Which rows each side reads, by where its king stands.
    kings: KingMap,
    ft_bias: [i16; HIDDEN],
    /// What turns the two accumulators into a score.
    head: Head,
    /// The network was trained as a correction to the hand-made
    /// evaluation, which the caller must add (see [`Network::residual`]).
    residual: bool,
}

/// The layers after the first, per output bucket.
// One value per process, read at every evaluation: the linear head's
// weights stay inline, next to the first layer's bias, rather than behind
// a pointer.
#[allow(clippy::large_enum_variant)]
enum Head {
    /// One linear output over the first layer's activations.
    Linear {
        /// Output weights per bucket: the side to move's half first.
        weights: [[f32; 2 * HIDDEN]; BUCKETS],
        /// Output bias per bucket.
        bias: [f32; BUCKETS],
    },
    /// A second hidden layer, then the linear output.
    Layered {
        /// Neurons of the second layer.
        width: usize,
        /// Per bucket, per neuron, `2 * HIDDEN` weights (the side to
        /// move's half first), as integers: the file's weights times a
        /// factor chosen at load ([`quantise_layer2`]). Why integers:
        /// `i16` products summed in `i32` take half the instructions of
        /// `f32` ones (and half the memory), and this layer is most of a
        /// layered network's cost.
        weights: Vec<i16>,
        /// What one unit of a neuron's integer sum is worth.
        unit: f32,
        /// Per bucket, per neuron, its bias.
        bias: Vec<f32>,
        /// Per bucket, one output weight per neuron.
        out_weights: Vec<f32>,
        /// Output bias per bucket.
        out_bias: [f32; BUCKETS],
    },
}

/// The two first-layer sums of a position: index 0 seen from White,
/// 1 from Black.
#[derive(Clone)]
#[repr(align(64))]
pub struct Accumulator {
    v: [[i16; HIDDEN]; 2],
    /// How each sum reads the board (the same index).
    views: [View; 2],
}

/// How one side's first-layer sum reads the board: the rows of its king's
/// bucket, the board mirrored or not ([`KingMap`]). A move of that side's
/// king that changes it makes the sum start again from scratch; any other
/// move leaves it as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// The first row of the king bucket's copy of the first layer.
    offset: u16,
    /// 7 to mirror squares left to right (`sq ^ 7`), else 0.
    flip: u8,
}

impl View {
    /// The view of a network without king buckets or mirroring.
    pub const PLAIN: View = View { offset: 0, flip: 0 };

    /// How `viewer`'s sum reads `board` in a network of map `kings`.
    #[inline]
    pub fn of(kings: &KingMap, viewer: Color, board: &Board) -> View {
        let king = board.king_of(viewer).map_or(0, usize::from);
        let entry = kings[if viewer.is_white() { king } else { king ^ 56 }];
        View {
            offset: u16::from(entry & !MIRROR) * INPUTS as u16,
            flip: if entry & MIRROR == 0 { 0 } else { 7 },
        }
    }

    /// This view's place among a side's views in a [`SumCache`]: two per
    /// king bucket, as seen and mirrored.
    #[inline]
    fn slot(self) -> usize {
        usize::from(self.offset) / INPUTS * 2 + usize::from(self.flip != 0)
    }

    /// The row of a piece of `color` and `role` on `sq` (0..64) in
    /// `viewer`'s sum.
    #[inline(always)]
    pub fn feature(self, viewer: Color, color: Color, role: Role, sq: usize) -> usize {
        usize::from(self.offset) + feature(viewer, color, role, sq ^ usize::from(self.flip))
    }
}

/// Per side and per view, the first-layer sum last made for that view and
/// the pieces it holds. Why: with king buckets a king move that changes a
/// side's view needs that side's sum over other rows; summing all the
/// pieces' rows afresh costs some thirty rows, while the sum the search
/// last made for the new view usually differs from the board by a few
/// pieces. [`Network::refresh_side`] takes that sum, adds and removes the
/// rows of the pieces that differ, and keeps the result for next time.
/// The sums are exact (integer sums do not depend on their order), so a
/// sum from the cache is the sum from scratch. One per search thread.
pub struct SumCache {
    /// `[side][view]`: White's views first.
    entries: Box<[CachedSum]>,
    /// Views per side: two per king bucket.
    views: usize,
}

/// One view's sum in a [`SumCache`] and the pieces it was made for.
#[derive(Clone)]
#[repr(align(64))]
struct CachedSum {
    v: [i16; HIDDEN],
    /// Per colour (White first) and role, the squares of the pieces
    /// summed.
    pieces: [Bitboard; 12],
}

/// What one move changes for the first layer: the pieces it takes off
/// squares and the pieces it puts on squares (at most two of each). Small
/// and cheap to make: the search keeps one per ply and applies it only when
/// the ply's evaluation is asked for. Made from the move where the move
/// says it all ([`Delta::of_move`]), otherwise by comparing the boards
/// before and after ([`Delta::between`]); the order of the pieces does not
/// matter, so both give the same accumulators.
#[derive(Clone, Copy)]
pub struct Delta {
    gone: [(Color, Role, u8); FUSED_PIECES],
    came: [(Color, Role, u8); FUSED_PIECES],
    n_gone: u8,
    n_came: u8,
}

impl Delta {
    /// No change: a null move.
    pub const NONE: Delta = Delta {
        gone: [(Color::White, Role::Pawn, 0); FUSED_PIECES],
        came: [(Color::White, Role::Pawn, 0); FUSED_PIECES],
        n_gone: 0,
        n_came: 0,
    };

    /// The change `m`, played by `turn`, makes from `parent` to `child`
    /// (the position after it). A plain move, a capture, a promotion or en
    /// passant is read off the move itself, with no look at the boards: the
    /// search makes one of these at every node. Castling, whose squares
    /// are the rules' (and shakmaty's) to place, is read off the boards.
    #[inline]
    pub fn of_move(parent: &Board, child: &Board, turn: Color, m: Move) -> Option<Delta> {
        let Some(d) = Displacement::of(m) else {
            return Delta::between(parent, child);
        };
        let mut delta = Delta::NONE;
        delta.gone[0] = (turn, d.role, u8::from(d.from));
        delta.n_gone = 1;
        if let Some((role, sq)) = d.captured {
            delta.gone[1] = (!turn, role, u8::from(sq));
            delta.n_gone = 2;
        }
        delta.came[0] = (turn, d.promotion.unwrap_or(d.role), u8::from(d.to));
        delta.n_came = 1;
        Some(delta)
    }

    /// The change from `parent` to `child`, or `None` when it is more than
    /// one move makes.
    pub fn between(parent: &Board, child: &Board) -> Option<Delta> {
        let mut delta = Delta::NONE;
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                let piece = Piece { color, role };
                let before = parent.by_piece(piece);
                let after = child.by_piece(piece);
                if before == after {
                    continue;
                }
                for sq in before & !after {
                    let slot = delta.gone.get_mut(usize::from(delta.n_gone))?;
                    *slot = (color, role, u8::from(sq));
                    delta.n_gone += 1;
                }
                for sq in after & !before {
                    let slot = delta.came.get_mut(usize::from(delta.n_came))?;
                    *slot = (color, role, u8::from(sq));
                    delta.n_came += 1;
                }
            }
        }
        Some(delta)
    }
}

/// Input feature of a piece of `color` and `role` on `sq` (0..64), seen
/// from `viewer`'s side.
#[inline(always)]
pub fn feature(viewer: Color, color: Color, role: Role, sq: usize) -> usize {
    let theirs = usize::from(color != viewer);
    let sq = if viewer.is_white() { sq } else { sq ^ 56 };
    (theirs * 6 + (role as usize - 1)) * 64 + sq
}

/// The rows of every piece on `board` in a network of king map `kings`,
/// seen from White and from Black, in square order: what the trainer
/// reads.
pub fn features(board: &Board, kings: &KingMap) -> Vec<(u16, u16)> {
    let white = View::of(kings, Color::White, board);
    let black = View::of(kings, Color::Black, board);
    board
        .occupied()
        .into_iter()
        .filter_map(|sq| {
            let p = board.piece_at(sq)?;
            let i = usize::from(sq);
            Some((
                white.feature(Color::White, p.color, p.role, i) as u16,
                black.feature(Color::Black, p.color, p.role, i) as u16,
            ))
        })
        .collect()
}

impl Network {
    /// Reads a network file (the format `tune nnue` writes) of this
    /// binary's width and number of buckets, with or without a second
    /// hidden layer and king buckets (the second layer's width and the
    /// king map are the file's: the first layer's width and the output
    /// buckets are compiled in for speed, the other loops take any).
    ///
    /// # Errors
    /// [`NetError`] if the file is not a network ([`NetFile::parse`]) or
    /// has another hidden size than [`HIDDEN`] or another number of
    /// buckets than [`BUCKETS`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let file = NetFile::parse(bytes)?;
        if file.hidden != HIDDEN {
            return Err(NetError::Hidden(file.hidden as u32));
        }
        if file.buckets != BUCKETS {
            return Err(NetError::OtherBuckets(file.buckets as u32));
        }
        let rows = INPUTS * king_buckets(&file.kings);
        let mut ft_weights: Box<[[i16; HIDDEN]]> = vec![[0i16; HIDDEN]; rows].into_boxed_slice();
        for (row, from) in ft_weights
            .iter_mut()
            .zip(file.ft_weights.chunks_exact(HIDDEN))
        {
            row.copy_from_slice(from);
        }
        let mut ft_bias = [0i16; HIDDEN];
        ft_bias.copy_from_slice(&file.ft_bias);
        let mut out_bias = [0f32; BUCKETS];
        out_bias.copy_from_slice(&file.out_bias);
        let head = if file.layer2 == 0 {
            let mut weights = [[0f32; 2 * HIDDEN]; BUCKETS];
            for (to, from) in weights
                .iter_mut()
                .zip(file.out_weights.chunks_exact(2 * HIDDEN))
            {
                to.copy_from_slice(from);
            }
            Head::Linear {
                weights,
                bias: out_bias,
            }
        } else {
            let (weights, unit) = quantise_layer2(&file.l2_weights);
            Head::Layered {
                width: file.layer2,
                weights,
                unit,
                bias: file.l2_bias,
                out_weights: file.out_weights,
                out_bias,
            }
        };
        Ok(Network {
            ft_weights,
            kings: file.kings,
            ft_bias,
            head,
            residual: file.residual,
        })
    }

    /// True if the network's output is a correction to be added to the
    /// hand-made evaluation ([`super::handmade::evaluate`]) rather than a whole
    /// evaluation: trained that way, the network only has to learn what
    /// the linear terms miss, and material the training positions rarely
    /// show is still valued by the terms.
    pub fn residual(&self) -> bool {
        self.residual
    }

    /// True if a side's rows depend on where its king stands (king
    /// buckets or mirroring): then a king move may change them.
    #[inline]
    pub fn has_kings(&self) -> bool {
        self.kings != PLAIN_KINGS
    }

    /// True if the move of `mover` from `parent` to `child` changes how
    /// `mover`'s sum reads the board ([`View`]): its king went to another
    /// bucket or to the other half of the board. That sum must then be
    /// made from scratch; only king moves (castling included) can.
    #[inline]
    pub fn view_changes(&self, mover: Color, parent: &Board, child: &Board) -> bool {
        self.has_kings()
            && View::of(&self.kings, mover, parent) != View::of(&self.kings, mover, child)
    }

    /// The accumulators of `board`, summed from scratch.
    pub fn refresh(&self, board: &Board) -> Accumulator {
        let views = if self.has_kings() {
            [
                View::of(&self.kings, Color::White, board),
                View::of(&self.kings, Color::Black, board),
            ]
        } else {
            [View::PLAIN; 2]
        };
        let mut acc = Accumulator {
            v: [self.ft_bias; 2],
            views,
        };
        for sq in board.occupied() {
            if let Some(p) = board.piece_at(sq) {
                self.add(&mut acc, p.color, p.role, usize::from(sq));
            }
        }
        acc
    }

    /// An empty cache for this network: every view's sum is the bias, of
    /// no pieces.
    pub fn sum_cache(&self) -> SumCache {
        let views = 2 * king_buckets(&self.kings);
        let empty = CachedSum {
            v: self.ft_bias,
            pieces: [Bitboard::EMPTY; 12],
        };
        SumCache {
            entries: vec![empty; 2 * views].into_boxed_slice(),
            views,
        }
    }

    /// The accumulators of `board`, each side's made from `cache`
    /// ([`Network::refresh_side`]): the same sums as [`Network::refresh`].
    pub fn refresh_cached(&self, cache: &mut SumCache, board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            v: [self.ft_bias; 2],
            views: [View::PLAIN; 2],
        };
        self.refresh_side(cache, board, Color::White, &mut acc);
        self.refresh_side(cache, board, Color::Black, &mut acc);
        acc
    }

    /// `viewer`'s sum of `board` (and its view) in `acc`, made from the sum
    /// `cache` holds for that view: only the rows of the pieces that
    /// differ between the two are taken away and added. The cache then
    /// holds the new sum.
    pub fn refresh_side(
        &self,
        cache: &mut SumCache,
        board: &Board,
        viewer: Color,
        acc: &mut Accumulator,
    ) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { self.refresh_side_avx2(cache, board, viewer, acc) };
            return;
        }
        self.refresh_side_body(cache, board, viewer, acc);
    }

    /// [`Network::refresh_side`] compiled for AVX2; same operations, so
    /// the same result.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn refresh_side_avx2(
        &self,
        cache: &mut SumCache,
        board: &Board,
        viewer: Color,
        acc: &mut Accumulator,
    ) {
        self.refresh_side_body(cache, board, viewer, acc);
    }

    #[inline(always)]
    fn refresh_side_body(
        &self,
        cache: &mut SumCache,
        board: &Board,
        viewer: Color,
        acc: &mut Accumulator,
    ) {
        let side = usize::from(viewer.is_black());
        let view = if self.has_kings() {
            View::of(&self.kings, viewer, board)
        } else {
            View::PLAIN
        };
        let entry = &mut cache.entries[side * cache.views + view.slot()];
        for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
            for role in Role::ALL {
                let k = c * 6 + (role as usize - 1);
                let before = entry.pieces[k];
                let after = board.by_piece(Piece { color, role });
                if before == after {
                    continue;
                }
                for sq in before & !after {
                    let row = &self.ft_weights[view.feature(viewer, color, role, usize::from(sq))];
                    for (a, w) in entry.v.iter_mut().zip(row) {
                        *a = a.wrapping_sub(*w);
                    }
                }
                for sq in after & !before {
                    let row = &self.ft_weights[view.feature(viewer, color, role, usize::from(sq))];
                    for (a, w) in entry.v.iter_mut().zip(row) {
                        *a = a.wrapping_add(*w);
                    }
                }
                entry.pieces[k] = after;
            }
        }
        acc.v[side] = entry.v;
        acc.views[side] = view;
    }

    #[inline(always)]
    fn add(&self, acc: &mut Accumulator, color: Color, role: Role, sq: usize) {
        for ((v, view), viewer) in acc
            .v
            .iter_mut()
            .zip(acc.views)
            .zip([Color::White, Color::Black])
        {
            let row = &self.ft_weights[view.feature(viewer, color, role, sq)];
            for (a, w) in v.iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
            }
        }
    }

    /// The accumulators after `delta`, from those before it.
    pub fn apply(&self, acc: &Accumulator, delta: &Delta, out: &mut Accumulator) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { self.apply_avx2(acc, delta, out) };
            return;
        }
        self.apply_body(acc, delta, out);
    }

    /// [`Network::apply`] compiled for AVX2 (twice the lanes of the
    /// baseline SSE2); same operations, so the same result.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn apply_avx2(&self, acc: &Accumulator, delta: &Delta, out: &mut Accumulator) {
        self.apply_body(acc, delta, out);
    }

    #[inline(always)]
    fn apply_body(&self, acc: &Accumulator, delta: &Delta, out: &mut Accumulator) {
        let gone = &delta.gone[..usize::from(delta.n_gone)];
        let came = &delta.came[..usize::from(delta.n_came)];
        out.views = acc.views;
        for (side, viewer) in [Color::White, Color::Black].into_iter().enumerate() {
            let view = acc.views[side];
            let row = |&(color, role, sq): &(Color, Role, u8)| {
                &self.ft_weights[view.feature(viewer, color, role, usize::from(sq))]
            };
            // (The bias row only fills the unused slots.)
            let mut subs = [&self.ft_bias; FUSED_PIECES];
            let mut adds = subs;
            for (slot, piece) in subs.iter_mut().zip(gone) {
                *slot = row(piece);
            }
            for (slot, piece) in adds.iter_mut().zip(came) {
                *slot = row(piece);
            }
            fused(
                &acc.v[side],
                &subs[..gone.len()],
                &adds[..came.len()],
                &mut out.v[side],
            );
        }
    }

    /// Centipawns for the side to move, from `acc` (which must belong to
    /// the position, of `pieces` pieces): the network's output alone,
    /// without the hand-made evaluation a residual network adds to.
    pub fn evaluate(&self, acc: &Accumulator, turn: Color, pieces: usize) -> i32 {
        let b = bucket(pieces, BUCKETS);
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.evaluate_avx2(acc, turn, b) };
        }
        self.evaluate_body(acc, turn, b)
    }

    /// [`Network::evaluate`] compiled for AVX2: the eight partial sums
    /// fill one register, and no operation is reordered, so the result is
    /// the same to the bit.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_avx2(&self, acc: &Accumulator, turn: Color, bucket: usize) -> i32 {
        self.evaluate_body(acc, turn, bucket)
    }

    #[inline(always)]
    fn evaluate_body(&self, acc: &Accumulator, turn: Color, bucket: usize) -> i32 {
        let (us, them) = match turn {
            Color::White => (&acc.v[0], &acc.v[1]),
            Color::Black => (&acc.v[1], &acc.v[0]),
        };
        let out = match &self.head {
            Head::Linear { weights, bias } => {
                // Eight independent partial sums, so the loop vectorises.
                let mut sums = [0f32; 8];
                for (half, weights) in [us, them]
                    .into_iter()
                    .zip(weights[bucket].chunks_exact(HIDDEN))
                {
                    for (a, w) in half.chunks_exact(8).zip(weights.chunks_exact(8)) {
                        for j in 0..8 {
                            let x = f32::from(a[j].clamp(0, QA));
                            sums[j] += x * x * w[j];
                        }
                    }
                }
                let total: f32 = sums.iter().sum();
                total / (f32::from(QA) * f32::from(QA)) + bias[bucket]
            }
            Head::Layered {
                width,
                weights,
                unit,
                bias,
                out_weights,
                out_bias,
            } => {
                // The first layer's activations once, as integers of
                // 0..=ACTIVATION_MAX, then each second-layer neuron's sum.
                let mut x = [0i16; 2 * HIDDEN];
                for (xs, half) in x.chunks_exact_mut(HIDDEN).zip([us, them]) {
                    for (xi, a) in xs.iter_mut().zip(half) {
                        let c = i32::from((*a).clamp(0, QA));
                        *xi = ((c * c + (1 << (ACTIVATION_SHIFT - 1))) >> ACTIVATION_SHIFT) as i16;
                    }
                }
                let first = bucket * width;
                let rows = weights[first * 2 * HIDDEN..(first + width) * 2 * HIDDEN]
                    .chunks_exact(2 * HIDDEN);
                let mut out = out_bias[bucket];
                for ((row, b), w) in rows
                    .zip(&bias[first..first + width])
                    .zip(&out_weights[first..first + width])
                {
                    let sum: i32 = x
                        .iter()
                        .zip(row)
                        .map(|(x, w)| i32::from(*x) * i32::from(*w))
                        .sum();
                    let y = (sum as f32 * unit + b).clamp(0.0, 1.0);
                    out += y * y * w;
                }
                out
            }
        };
        ((out * SCALE) as i32).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

/// Most pieces one move takes off squares, and most it puts on squares
/// (castling: king and rook each way): what a [`Delta`] holds.
const FUSED_PIECES: usize = 2;

/// `out = src - subs + adds`, row by row, in one pass over the
/// accumulator: it is read and written once, not once per piece. Integer
/// wrapping sums do not depend on their order, so the result is the one
/// piece-by-piece updates give.
#[inline(always)]
fn fused(
    src: &[i16; HIDDEN],
    subs: &[&[i16; HIDDEN]],
    adds: &[&[i16; HIDDEN]],
    out: &mut [i16; HIDDEN],
) {
    match (subs, adds) {
        ([s0], [a0]) => {
            for i in 0..HIDDEN {
                out[i] = src[i].wrapping_sub(s0[i]).wrapping_add(a0[i]);
            }
        }
        ([s0, s1], [a0]) => {
            for i in 0..HIDDEN {
                out[i] = src[i]
                    .wrapping_sub(s0[i])
                    .wrapping_sub(s1[i])
                    .wrapping_add(a0[i]);
            }
        }
        ([s0, s1], [a0, a1]) => {
            for i in 0..HIDDEN {
                out[i] = src[i]
                    .wrapping_sub(s0[i])
                    .wrapping_sub(s1[i])
                    .wrapping_add(a0[i])
                    .wrapping_add(a1[i]);
            }
        }
        _ => {
            *out = *src;
            for row in subs {
                for (o, w) in out.iter_mut().zip(row.iter()) {
                    *o = o.wrapping_sub(*w);
                }
            }
            for row in adds {
                for (o, w) in out.iter_mut().zip(row.iter()) {
                    *o = o.wrapping_add(*w);
                }
            }
        }
    }
}

/// Bits a squared first-layer activation (`clamp(a, 0, QA)^2`, up to
/// `QA * QA`) is shifted right by, rounding, to fit the second layer's
/// integer products: at most [`ACTIVATION_MAX`].
const ACTIVATION_SHIFT: u32 = 8;
/// The largest activation the second layer sees as an integer:
/// `(QA * QA + 128) >> 8`.
const ACTIVATION_MAX: i64 =
    ((QA as i64 * QA as i64) + (1 << (ACTIVATION_SHIFT - 1))) >> ACTIVATION_SHIFT;

/// A second layer's weights as `i16` and the worth of one unit of a
/// neuron's integer sum. The factor is the largest power of two that
/// keeps every weight inside `i16` and every sum of `2 * HIDDEN`
/// products inside `i32`, so no weight or sum is clipped; it leaves each
/// weight at least 15 significant bits when they allow, and the rounding
/// of the activations (1/254 of their range at most) stays below a
/// centipawn in the output.
fn quantise_layer2(weights: &[f32]) -> (Vec<i16>, f32) {
    let largest = weights.iter().fold(0f32, |m, w| m.max(w.abs()));
    let sum_bound = (i64::from(i32::MAX) / (ACTIVATION_MAX * 2 * HIDDEN as i64)) as f32;
    let bound = sum_bound.min(f32::from(i16::MAX));
    let mut factor = 1f32;
    if largest > 0.0 {
        while largest * factor * 2.0 <= bound {
            factor *= 2.0;
        }
        while largest * factor > bound {
            factor /= 2.0;
        }
    }
    let quantised = weights
        .iter()
        .map(|w| (w * factor).round() as i16)
        .collect();
    let activation = f32::from(QA) * f32::from(QA) / (1u32 << ACTIVATION_SHIFT) as f32;
    (quantised, 1.0 / (factor * activation))
}

/// The network compiled into the binary.
///
/// # Panics
/// If `net.bin` is not a valid network file for this build; the unit
/// tests read it, so a bad file fails them first.
pub fn network() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| match Network::from_bytes(NET_BYTES) {
        Ok(net) => net,
        Err(e) => panic!("the built-in network (src/eval/net.bin) is unusable: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::CastlingMode;
    use shakmaty::{Chess, Position};

    #[test]
    fn built_in_network_loads() {
        assert!(Network::from_bytes(NET_BYTES).is_ok());
    }

    #[test]
    fn bad_files_are_refused() {
        assert!(matches!(
            Network::from_bytes(b"short"),
            Err(NetError::Size { got: 5, .. })
        ));
        let mut bytes = NET_BYTES.to_vec();
        bytes[0] = b'X';
        assert!(matches!(Network::from_bytes(&bytes), Err(NetError::Magic)));
        let mut bytes = NET_BYTES.to_vec();
        bytes.pop();
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::Size { .. })
        ));
        let mut bytes = NET_BYTES.to_vec();
        bytes[8..12].copy_from_slice(&12u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::Width(12))
        ));
    }

    /// A network file of another width is read and written back byte for
    /// byte, and this binary's engine refuses it by name.
    #[test]
    fn other_widths_round_trip_and_are_refused() {
        let hidden = 2 * HIDDEN;
        let file = NetFile {
            hidden,
            residual: true,
            ft_weights: (0..INPUTS * hidden).map(|i| (i % 97) as i16 - 48).collect(),
            buckets: 1,
            layer2: 0,
            kings: PLAIN_KINGS,
            ft_bias: (0..hidden).map(|i| i as i16).collect(),
            l2_weights: Vec::new(),
            l2_bias: Vec::new(),
            out_weights: (0..2 * hidden).map(|i| i as f32 / 64.0).collect(),
            out_bias: vec![-0.25],
        };
        let bytes = file.to_bytes();
        assert_eq!(bytes.len(), file_size(hidden, 1, 0, &PLAIN_KINGS));
        let back = NetFile::parse(&bytes).expect("a valid file");
        assert_eq!(back, file);
        assert_eq!(back.to_bytes(), bytes);
        let refused = Network::from_bytes(&bytes).err().expect("another width");
        assert!(matches!(refused, NetError::Hidden(h) if h as usize == hidden));
        assert!(refused.to_string().contains(&format!("expects {HIDDEN}")));
    }

    /// `file`'s bytes, checked: they start with `magic`, have the length
    /// the file's shape gives, and read back to the same weights and the
    /// same bytes.
    fn round_trip(file: &NetFile, magic: &[u8; 8]) -> Vec<u8> {
        let bytes = file.to_bytes();
        assert_eq!(&bytes[..8], magic);
        assert_eq!(
            bytes.len(),
            file_size(file.hidden, file.buckets, file.layer2, &file.kings)
        );
        let back = NetFile::parse(&bytes).expect("a valid file");
        assert_eq!(&back, file);
        assert_eq!(back.to_bytes(), bytes);
        bytes
    }

    /// A file of several output buckets is written in the bucketed form,
    /// read back to the same weights and bytes, and refused by a binary
    /// built for another number of buckets; impossible bucket counts are
    /// refused by name.
    #[test]
    fn bucketed_files_round_trip_and_are_checked() {
        let hidden = HIDDEN;
        let buckets = if BUCKETS == 8 { 4 } else { 8 };
        let file = NetFile {
            hidden,
            residual: true,
            buckets,
            layer2: 0,
            kings: PLAIN_KINGS,
            ft_weights: (0..INPUTS * hidden).map(|i| (i % 89) as i16 - 44).collect(),
            ft_bias: (0..hidden).map(|i| i as i16).collect(),
            l2_weights: Vec::new(),
            l2_bias: Vec::new(),
            out_weights: (0..buckets * 2 * hidden)
                .map(|i| i as f32 / 128.0)
                .collect(),
            out_bias: (0..buckets).map(|b| b as f32 / 8.0).collect(),
        };
        let bytes = round_trip(&file, MAGIC_BUCKETS);
        let refused = Network::from_bytes(&bytes).err().expect("other buckets");
        assert!(matches!(refused, NetError::OtherBuckets(b) if b as usize == buckets));
        for bad in [0u32, 1, MAX_BUCKETS as u32 + 1] {
            let mut wrong = bytes.clone();
            wrong[16..20].copy_from_slice(&bad.to_le_bytes());
            let err = NetFile::parse(&wrong).expect_err("a bad bucket count");
            assert!(
                matches!(err, NetError::Buckets(b) if b == bad),
                "{bad}: {err}"
            );
        }
        assert!(matches!(
            NetFile::parse(&bytes[..18]),
            Err(NetError::Size { got: 18, .. })
        ));
    }

    /// A network with a second hidden layer, at this binary's width and
    /// buckets, of some weights in 0..1 (so that some neurons lie inside
    /// the clipped range and some beyond).
    fn layered_file(layer2: usize) -> NetFile {
        let (hidden, buckets) = (HIDDEN, BUCKETS);
        let wave = |i: usize, m: usize| ((i * 7919) % m) as f32 / m as f32 - 0.5;
        NetFile {
            hidden,
            residual: false,
            buckets,
            layer2,
            kings: PLAIN_KINGS,
            ft_weights: (0..INPUTS * hidden)
                .map(|i| (wave(i, 101) * 40.0) as i16)
                .collect(),
            ft_bias: (0..hidden).map(|i| (i % 9) as i16 * 20).collect(),
            // Scaled by the width, so that a neuron's sum has the same
            // spread at every width the binary may be built with.
            l2_weights: (0..buckets * layer2 * 2 * hidden)
                .map(|i| wave(i, 97) * 0.2 * 128.0 / hidden as f32)
                .collect(),
            l2_bias: (0..buckets * layer2).map(|i| wave(i, 13) + 0.3).collect(),
            out_weights: (0..buckets * layer2).map(|i| wave(i, 11) * 2.0).collect(),
            out_bias: (0..buckets).map(|b| b as f32 / 16.0).collect(),
        }
    }

    /// A file with a second hidden layer is written under its own magic,
    /// read back to the same weights and bytes, and its impossible widths
    /// are refused by name.
    #[test]
    fn layered_files_round_trip_and_are_checked() {
        let bytes = round_trip(&layered_file(16), MAGIC_LAYERS);
        for bad in [0u32, MAX_LAYER2 as u32 + 1] {
            let mut wrong = bytes.clone();
            wrong[20..24].copy_from_slice(&bad.to_le_bytes());
            let err = NetFile::parse(&wrong).expect_err("a bad width");
            assert!(
                matches!(err, NetError::Layer2(n) if n == bad),
                "{bad}: {err}"
            );
            assert!(err.to_string().contains("second hidden layer"));
        }
        let mut wrong = bytes.clone();
        wrong[16..20].copy_from_slice(&0u32.to_le_bytes());
        assert!(matches!(NetFile::parse(&wrong), Err(NetError::Buckets(0))));
        assert!(matches!(
            NetFile::parse(&bytes[..22]),
            Err(NetError::Size { got: 22, .. })
        ));
        assert!(matches!(
            NetFile::parse(&bytes[..bytes.len() - 4]),
            Err(NetError::Size { .. })
        ));
    }

    /// The engine's evaluation of a network with a second hidden layer is
    /// the layers computed one by one from the file's weights.
    #[test]
    fn the_second_layer_is_evaluated_as_written() {
        // Widths even and odd, in case a faster loop takes neurons in
        // blocks.
        for width in [24, 7] {
            check_second_layer(width);
        }
    }

    fn check_second_layer(width: usize) {
        let file = layered_file(width);
        let net = Network::from_bytes(&file.to_bytes()).expect("a layered network");
        let fens = [
            "bqnbrkrn/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/BQNBRKRN w GEge - 0 2",
            "bqnbrkrn/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/BQNBRKRN b GEge - 0 2",
            "8/5k2/8/3P4/8/8/2K5/8 w - - 0 1",
        ];
        let mut clipped = 0;
        for fen in fens {
            let pos = chess(fen);
            let pieces = pos.board().occupied().count();
            let b = bucket(pieces, BUCKETS);
            let acc = net.refresh(pos.board());
            let (us, them) = match pos.turn() {
                Color::White => (&acc.v[0], &acc.v[1]),
                Color::Black => (&acc.v[1], &acc.v[0]),
            };
            let x: Vec<f32> = us
                .iter()
                .chain(them)
                .map(|a| (f32::from(*a) / f32::from(QA)).clamp(0.0, 1.0).powi(2))
                .collect();
            let mut out = file.out_bias[b];
            for n in 0..width {
                let row = &file.l2_weights[(b * width + n) * 2 * HIDDEN..][..2 * HIDDEN];
                let sum: f32 = x.iter().zip(row).map(|(x, w)| x * w).sum::<f32>()
                    + file.l2_bias[b * width + n];
                if !(0.0..=1.0).contains(&sum) {
                    clipped += 1;
                }
                out += sum.clamp(0.0, 1.0).powi(2) * file.out_weights[b * width + n];
            }
            let expected = out * SCALE;
            let got = net.evaluate(&acc, pos.turn(), pieces);
            // Whole centipawns (truncated: less than 1) and the layer's
            // integers (rounded activations and weights: less than 1).
            assert!(
                (got as f32 - expected).abs() < 2.0,
                "{width}, {fen}: {got} against {expected}"
            );
            assert!(expected.abs() > 5.0, "{fen}: a trivial test score");
        }
        assert!(
            clipped > 0 && clipped < 3 * width,
            "{width}: {clipped} neurons clipped"
        );
    }

    /// Buckets cut the piece counts 2..=32 into ranges in order, each
    /// bucket used, and one bucket is the plain network.
    #[test]
    fn buckets_follow_the_piece_count() {
        for buckets in 1..=MAX_BUCKETS {
            let of: Vec<usize> = (0..=32).map(|n| bucket(n, buckets)).collect();
            assert!(of.windows(2).all(|w| w[0] <= w[1]), "{buckets}: {of:?}");
            assert_eq!(of[2], 0);
            assert_eq!(of[32], buckets - 1, "{buckets}: {of:?}");
            for b in 0..buckets {
                assert!(of.contains(&b), "{buckets}: bucket {b} unused");
            }
        }
        let eight: Vec<usize> = (2..=32).map(|n| bucket(n, 8)).collect();
        assert_eq!(&eight[..8], &[0, 0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(&eight[28..], &[7, 7, 7]);
    }

    /// The compiled network survives parse and write unchanged.
    #[test]
    fn the_built_in_file_round_trips() {
        let file = NetFile::parse(NET_BYTES).expect("the built-in file");
        assert_eq!(file.hidden, HIDDEN);
        assert_eq!(file.to_bytes(), NET_BYTES);
    }

    /// Incremental updates along random games (castling, en passant and
    /// promotions included) agree with sums from scratch, made as the
    /// search makes them: a king move that changes its side's view (a
    /// network with king buckets, such as the built-in one) has that side's
    /// sum made from the per-thread cache, the other side's by the move.
    #[test]
    fn updates_match_refresh() {
        use rand::{Rng, SeedableRng};
        let net = network();
        let mut cache = net.sum_cache();
        // The move applied, then the mover's side summed again where its
        // view changed ([`crate::eval::PathEval`] does the same).
        let mut update = |acc: &Accumulator, parent: &Chess, child: &Chess, delta: &Delta| {
            let mut next = acc.clone();
            net.apply(acc, delta, &mut next);
            let mover = parent.turn();
            if net.view_changes(mover, parent.board(), child.board()) {
                net.refresh_side(&mut cache, child.board(), mover, &mut next);
            }
            next
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let starts = [
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "1r2k2r/1P6/8/3pP3/8/8/6p1/1R2K2R w BHbh d6 0 1",
        ];
        let mut checked = 0;
        let mut kinds = [0; 4];
        for fen in starts {
            for _ in 0..20 {
                let fen: Fen = fen.parse().expect("test FEN");
                let mut pos: Chess = fen
                    .into_position(CastlingMode::Chess960)
                    .expect("legal test FEN");
                let mut acc = net.refresh(pos.board());
                for _ in 0..80 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // Every move read off the move itself (a promotion,
                    // with or without a capture, en passant and castling
                    // both ways come up in the third start).
                    for &m in &moves {
                        let mut child = pos.clone();
                        child.play_unchecked(m);
                        let delta = Delta::of_move(pos.board(), child.board(), pos.turn(), m)
                            .expect("one move");
                        let next = update(&acc, &pos, &child, &delta);
                        assert_eq!(next.v, net.refresh(child.board()).v, "{m:?}");
                        kinds[match m {
                            Move::Normal {
                                promotion: Some(_), ..
                            } => 0,
                            Move::EnPassant { .. } => 1,
                            Move::Castle { .. } => 2,
                            _ => 3,
                        }] += 1;
                    }
                    // One of them, read off the boards, is the path on.
                    let m = moves[rng.gen_range(0..moves.len())];
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    let delta = Delta::between(pos.board(), child.board()).expect("one move");
                    let next = update(&acc, &pos, &child, &delta);
                    let fresh = net.refresh(child.board());
                    assert_eq!(next.v, fresh.v, "after {m:?}");
                    let pieces = child.board().occupied().count();
                    assert_eq!(
                        net.evaluate(&next, child.turn(), pieces),
                        net.evaluate(&fresh, child.turn(), pieces)
                    );
                    checked += 1;
                    pos = child;
                    acc = next;
                }
            }
        }
        assert!(checked > 1000);
        assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
    }

    /// The evaluation is symmetric: mirroring the board and swapping the
    /// colours gives the same score for the side to move.
    #[test]
    fn colour_symmetry() {
        let fens = [
            (
                "bqnbrkrn/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/BQNBRKRN w GEge - 0 2",
                "bqnbrkrn/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/BQNBRKRN b GEge - 0 2",
            ),
            (
                "8/5k2/8/3P4/8/8/2K5/8 w - - 0 1",
                "8/2k5/8/8/3p4/8/5K2/8 b - - 0 1",
            ),
        ];
        for (a, b) in fens {
            let pa: Chess = a
                .parse::<Fen>()
                .expect("fen")
                .into_position(CastlingMode::Chess960)
                .expect("legal");
            let pb: Chess = b
                .parse::<Fen>()
                .expect("fen")
                .into_position(CastlingMode::Chess960)
                .expect("legal");
            assert_eq!(
                crate::eval::evaluate(&pa),
                crate::eval::evaluate(&pb),
                "{a} vs {b}"
            );
        }
    }

    /// The legal Chess960 position of `fen`.
    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Chess960)
            .expect("legal")
    }

    /// A network of this binary's width and buckets with king map `kings`
    /// and some small weights.
    fn king_file(kings: KingMap, layer2: usize) -> NetFile {
        let mut file = layered_file(layer2.max(1));
        if layer2 == 0 {
            file.layer2 = 0;
            file.l2_weights.clear();
            file.l2_bias.clear();
            file.out_weights = (0..BUCKETS * 2 * HIDDEN)
                .map(|i| ((i * 31) % 17) as f32 / 17.0 - 0.4)
                .collect();
        }
        file.kings = kings;
        file.ft_weights = (0..INPUTS * king_buckets(&kings) * HIDDEN)
            .map(|i| ((i * 7919) % 89) as i16 - 44)
            .collect();
        file
    }

    /// A file with king buckets is written under its own magic and read
    /// back to the same weights and bytes, with or without a second
    /// layer; a king map naming too many buckets, or none at all, is
    /// refused by name.
    #[test]
    fn king_files_round_trip_and_are_checked() {
        let k4 = king_layout("k4").expect("k4");
        round_trip(&king_file(k4, 8), MAGIC_KINGS);
        let bytes = round_trip(&king_file(k4, 0), MAGIC_KINGS);
        assert_eq!(&bytes[HEADER_LAYERS..HEADER_KINGS], &k4);
        let net = Network::from_bytes(&bytes).expect("this binary's width and buckets");
        assert!(net.has_kings());
        let mut wrong = bytes.clone();
        wrong[HEADER_LAYERS + 9] = MAX_KING_BUCKETS as u8 | MIRROR;
        let err = NetFile::parse(&wrong).expect_err("a bad bucket");
        assert!(matches!(err, NetError::KingBucket(b) if usize::from(b) == MAX_KING_BUCKETS));
        let mut plain = bytes.clone();
        plain[HEADER_LAYERS..HEADER_KINGS].fill(0);
        assert!(matches!(NetFile::parse(&plain), Err(NetError::PlainKings)));
        assert!(matches!(
            NetFile::parse(&bytes[..bytes.len() - 2]),
            Err(NetError::Size { .. })
        ));
        // The plain map is written in the older forms, as before.
        round_trip(
            &king_file(PLAIN_KINGS, 0),
            if BUCKETS == 1 { MAGIC } else { MAGIC_BUCKETS },
        );
    }

    /// Under a mirroring layout a board and its mirror image read the
    /// same rows; without mirroring they do not.
    #[test]
    fn mirrored_boards_read_alike() {
        let fens = [
            "bqnbrkrn/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/BQNBRKRN w GEge - 0 2",
            "8/5k2/8/3P4/8/8/2K5/8 w - - 0 1",
            "r4rk1/pp3ppp/2n5/8/8/2N5/PP3PPP/2KR3R b - - 0 1",
        ];
        for fen in fens {
            let pos = chess(fen);
            let mut mirror = pos.board().clone();
            mirror.flip_horizontal();
            for (name, alike) in [("mirror", true), ("k4", true), ("halves", false)] {
                let map = king_layout(name).expect("a layout");
                let mut a = features(pos.board(), &map);
                let mut b = features(&mirror, &map);
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a == b, alike, "{name}: {fen}");
            }
        }
    }

    /// With king buckets, every move that keeps both kings' rows is
    /// applied incrementally to the same sums (and views) as from
    /// scratch; the moves that change them are king moves.
    #[test]
    fn king_bucket_updates_match_refresh() {
        let net = Network::from_bytes(&king_file(king_layout("k4").expect("k4"), 0).to_bytes())
            .expect("a king network");
        let starts = [
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
            "r3k2r/ppp1qppp/8/3pP3/8/8/PPPQ1PPP/R3K2R w KQkq d6 0 1",
            "1r2k2r/1P6/8/3pP3/8/8/6p1/1R2K2R w BHbh d6 0 1",
        ];
        let (mut changed, mut applied) = (0, 0);
        for fen in starts {
            let pos = chess(fen);
            let mut frontier = vec![pos];
            for _ in 0..3 {
                let mut next = Vec::new();
                for pos in &frontier {
                    let acc = net.refresh(pos.board());
                    for m in pos.legal_moves() {
                        let mut child = pos.clone();
                        child.play_unchecked(m);
                        let fresh = net.refresh(child.board());
                        if net.view_changes(pos.turn(), pos.board(), child.board()) {
                            assert_eq!(m.role(), Role::King);
                            assert_ne!(fresh.views, acc.views);
                            changed += 1;
                        } else {
                            let delta = Delta::of_move(pos.board(), child.board(), pos.turn(), m)
                                .expect("one move");
                            let mut out = acc.clone();
                            net.apply(&acc, &delta, &mut out);
                            assert_eq!(out.v, fresh.v, "{m:?}");
                            assert_eq!(out.views, fresh.views, "{m:?}");
                            applied += 1;
                        }
                        if next.len() < 40 {
                            next.push(child);
                        }
                    }
                }
                frontier = next;
            }
        }
        assert!(changed > 20 && applied > 1000, "{changed} {applied}");
    }

    /// Sums made from the cache are the sums from scratch, whatever the
    /// cached sum differs by: boards of random games, visited out of
    /// order, so that a view's cached board is sometimes near and
    /// sometimes far from the next, under every layout.
    #[test]
    fn cached_sums_are_sums_from_scratch() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for (name, _) in KING_LAYOUTS {
            let map = king_layout(name).expect("a layout");
            let net = Network::from_bytes(&king_file(map, 0).to_bytes()).expect("a network");
            let mut boards = Vec::new();
            for _ in 0..6 {
                let mut pos = chess("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1");
                for _ in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                    boards.push(pos.board().clone());
                }
            }
            let mut cache = net.sum_cache();
            for i in 0..2000 {
                let board = &boards[if i % 3 == 0 {
                    rng.gen_range(0..boards.len())
                } else {
                    i % boards.len()
                }];
                let fresh = net.refresh(board);
                let cached = net.refresh_cached(&mut cache, board);
                assert_eq!(cached.v, fresh.v, "{name} {i}");
                assert_eq!(cached.views, fresh.views, "{name} {i}");
            }
        }
    }

    #[test]
    fn features_are_mirrored() {
        // A white pawn on e2 seen by White is a black pawn on e7 seen by Black.
        let w = feature(Color::White, Color::White, Role::Pawn, 12);
        let b = feature(Color::Black, Color::Black, Role::Pawn, 52);
        assert_eq!(w, b);
        assert!(w < INPUTS);
        assert_eq!(feature(Color::Black, Color::White, Role::King, 0), 767 - 7);
    }
}
