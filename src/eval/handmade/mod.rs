//! The hand-made evaluation: tapered material and piece-square values plus
//! the terms that matter in Chess960, linear in fitted weights.
//!
//! Scores are centipawns from the point of view of the side to move, which
//! is what negamax wants.
//!
//! The evaluation is linear in its weights: the published PeSTO tables give
//! a fixed base and every other term, including tuned corrections to the
//! PeSTO material values, adds a weight from [`weights::WEIGHTS`] once per
//! occurrence of its feature (see [`params`]). One feature walk, generic
//! over a `Sink`, serves both [`evaluate`] (which adds the weights) and
//! [`trace`] (which records the counts, for the tuner in `tools/tune`),
//! so the two cannot drift apart. The weights are fitted to Chess960
//! positions by `tools/tune` (Texel's method; see its README).

pub mod params;
mod pesto;
pub mod weights;

use params::S;
use std::cell::RefCell;

use shakmaty::{attacks, Bitboard, Board, Chess, Color, Position, Role, Square};
use weights::WEIGHTS;

/// King-zone attack units per square hit, by attacking role
/// (knight..queen). Not tuned: the king-attack table indexed by their sum is.
const ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];

/// Where the feature walk sends what it finds.
trait Sink {
    /// A piece of `color` and `role` (0 = pawn .. 5 = king) on `sq`.
    fn piece(&mut self, color: Color, role: usize, sq: usize);
    /// Count feature `param` `n` times for `color`.
    fn add(&mut self, color: Color, param: usize, n: i32);
    /// Report the terms that depend on the pawns alone; returns the passed
    /// pawns by colour index. A sink may answer from a cache instead of
    /// walking the pawns again (the search's does; the tuner's does not).
    fn pawns(&mut self, board: &Board) -> [Bitboard; 2]
    where
        Self: Sized,
    {
        pawn_features(board, self)
    }
}

/// Both halves of a weight in one integer, middlegame in the high 16 bits
/// and endgame in the low 16 (the endgame half read as signed), so that one
/// addition adds both; sums stay far inside 16 bits per half.
const fn pack((mg, eg): S) -> i32 {
    (mg << 16) + eg
}

/// The two halves of a packed score.
const fn unpack(packed: i32) -> S {
    let eg = packed as i16 as i32;
    ((packed - eg) >> 16, eg)
}

/// [`WEIGHTS`], packed.
const PACKED_WEIGHTS: [i32; params::NUM_PARAMS] = {
    let mut out = [0; params::NUM_PARAMS];
    let mut i = 0;
    while i < params::NUM_PARAMS {
        out[i] = pack(WEIGHTS[i]);
        i += 1;
    }
    out
};

/// PeSTO material plus piece-square value for role `r` (pawn..king) on
/// `rel`, the square seen from the piece's own side (a1 = 0 is its own
/// left corner).
const fn pesto_value(r: usize, rel: usize) -> S {
    // PeSTO's tables list a8 first.
    let i = rel ^ 56;
    (
        pesto::MG_VALUE[r] + pesto::MG_TABLE[r][i],
        pesto::EG_VALUE[r] + pesto::EG_TABLE[r][i],
    )
}

/// The square `sq` seen from `color`'s side.
const fn relative(black: bool, sq: usize) -> usize {
    if black {
        sq ^ 56
    } else {
        sq
    }
}

/// The rank of `sq` counted from `color`'s side (0 = its back rank).
fn relative_rank(color: Color, sq: Square) -> usize {
    relative(color.is_black(), usize::from(sq)) / 8
}

/// The square in front of `sq` for `color` (none beyond the last rank).
fn square_in_front(color: Color, sq: Square) -> Option<Square> {
    sq.offset(if color.is_white() { 8 } else { -8 })
}

/// Material plus piece-square value (PeSTO and the tuned corrections to
/// material and squares),
/// packed, by colour (white, black), role (pawn..king) and square.
const PACKED_PSQT: [[[i32; 64]; 6]; 2] = {
    let mut out = [[[0; 64]; 6]; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 6 {
            let mut sq = 0;
            while sq < 64 {
                let rel = relative(c == 1, sq);
                let (mg, eg) = pesto_value(r, rel);
                let (dm, de) = WEIGHTS[params::PSQT + 64 * r + rel];
                let (vm, ve) = if r < 5 {
                    WEIGHTS[params::MATERIAL + r]
                } else {
                    (0, 0)
                };
                out[c][r][sq] = pack((mg + dm + vm, eg + de + ve));
                sq += 1;
            }
            r += 1;
        }
        c += 1;
    }
    out
};

/// Sums the weights (White minus Black, packed): what the search uses.
#[derive(Default)]
struct Score(i32);

impl Sink for Score {
    #[inline(always)]
    fn piece(&mut self, color: Color, role: usize, sq: usize) {
        if color.is_white() {
            self.0 += PACKED_PSQT[0][role][sq];
        } else {
            self.0 -= PACKED_PSQT[1][role][sq];
        }
    }

    #[inline(always)]
    fn add(&mut self, color: Color, param: usize, n: i32) {
        let v = n * PACKED_WEIGHTS[param];
        if color.is_white() {
            self.0 += v;
        } else {
            self.0 -= v;
        }
    }

    fn pawns(&mut self, board: &Board) -> [Bitboard; 2] {
        let (white, black) = pawn_sets(board);
        let index = (pawn_hash(white, black) >> (64 - PAWN_CACHE_SIZE.trailing_zeros())) as usize;
        PAWN_CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.is_empty() {
                cache.resize(PAWN_CACHE_SIZE, PawnEntry::default());
            }
            let e = &mut cache[index];
            // Both pawn sets are compared: a hit is always the same
            // structure (the empty entry is right for a pawnless board).
            if e.white != white || e.black != black {
                let mut part = Score::default();
                let passed = pawn_features(board, &mut part);
                *e = PawnEntry {
                    white,
                    black,
                    score: part.0,
                    passed: [passed[0].0, passed[1].0],
                };
            }
            self.0 += e.score;
            [Bitboard(e.passed[0]), Bitboard(e.passed[1])]
        })
    }
}

/// Entries in each thread's pawn-structure cache.
const PAWN_CACHE_SIZE: usize = 4096;

/// The pawn-only part of an evaluation, for the pawn sets it was made for.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    white: u64,
    black: u64,
    /// Packed score of the pawn-only terms, White minus Black.
    score: i32,
    passed: [u64; 2],
}

thread_local! {
    /// Pawn structures change far less often than the pieces: most nodes
    /// of a search share their pawns with many others, so each search
    /// thread keeps the pawn-only terms of the structures it met.
    static PAWN_CACHE: RefCell<Vec<PawnEntry>> = const { RefCell::new(Vec::new()) };
}

/// A hash of the pawn structure (both colours' pawn sets), from which the
/// pawn cache and the search's eval correction take their indices (the
/// high bits: a multiplicative hash mixes its input upward).
pub fn pawn_key(board: &Board) -> u64 {
    let (white, black) = pawn_sets(board);
    pawn_hash(white, black)
}

/// White's and Black's pawns.
fn pawn_sets(board: &Board) -> (u64, u64) {
    (
        (board.pawns() & board.white()).0,
        (board.pawns() & board.black()).0,
    )
}

fn pawn_hash(white: u64, black: u64) -> u64 {
    white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(29)
}

/// Records feature counts (white minus black): what the tuner uses.
struct Counts {
    base: S,
    counts: [i32; params::NUM_PARAMS],
}

impl Sink for Counts {
    fn piece(&mut self, color: Color, role: usize, sq: usize) {
        let sign = if color.is_white() { 1 } else { -1 };
        let rel = relative(color.is_black(), sq);
        let (mg, eg) = pesto_value(role, rel);
        self.base.0 += sign * mg;
        self.base.1 += sign * eg;
        self.counts[params::PSQT + 64 * role + rel] += sign;
        if role < 5 {
            self.counts[params::MATERIAL + role] += sign;
        }
    }

    fn add(&mut self, color: Color, param: usize, n: i32) {
        let sign = if color.is_white() { 1 } else { -1 };
        self.counts[param] += sign * n;
    }
}

/// A position's evaluation features: with any weights, [`Trace::evaluate`]
/// gives what [`evaluate`] would give if those weights were compiled in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// Game phase 0..=24 used for tapering.
    pub phase: i32,
    /// True if White is to move (scores are for the side to move).
    pub white_to_move: bool,
    /// PeSTO material and piece-square values, White minus Black.
    pub base: S,
    /// Non-zero feature counts, White minus Black, by parameter index.
    pub features: Vec<(u16, i16)>,
}

impl Trace {
    /// Middlegame and endgame sums from White's point of view under
    /// `weights`, before tapering.
    pub fn mg_eg(&self, weights: &[S]) -> S {
        let (mut mg, mut eg) = self.base;
        for &(i, n) in &self.features {
            let (wm, we) = weights[usize::from(i)];
            mg += i32::from(n) * wm;
            eg += i32::from(n) * we;
        }
        (mg, eg)
    }

    /// The evaluation for the side to move under `weights`, rounded exactly
    /// as [`evaluate`] rounds.
    ///
    /// # Panics
    /// If `weights` has fewer than [`params::NUM_PARAMS`] entries.
    pub fn evaluate(&self, weights: &[S]) -> i32 {
        let (mg, eg) = self.mg_eg(weights);
        let white = taper(mg, eg, self.phase);
        if self.white_to_move {
            white
        } else {
            -white
        }
    }
}

/// Blend middlegame and endgame scores by phase (24 = middlegame).
#[inline(always)]
fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (24 - phase)) / 24
}

/// Game phase 0 (bare kings and pawns) ..= 24 (all pieces on).
pub fn phase(pos: &Chess) -> i32 {
    let board = pos.board();
    let mut phase = 0;
    for role in Role::ALL {
        phase += pesto::PHASE_INC[role as usize - 1] * board.by_role(role).count() as i32;
    }
    phase.min(24)
}

fn file_mask(file: i32) -> u64 {
    if (0..8).contains(&file) {
        0x0101_0101_0101_0101u64 << file
    } else {
        0
    }
}

/// All squares attacked by `color`'s pawns on `pawns`, by shifting the
/// whole set at once.
fn pawn_attacks(color: Color, pawns: u64) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    match color {
        Color::White => ((pawns & NOT_A) << 7) | ((pawns & NOT_H) << 9),
        Color::Black => ((pawns & NOT_A) >> 9) | ((pawns & NOT_H) >> 7),
    }
}

/// Squares strictly in front of `sq` from `color`'s point of view, on the
/// same and adjacent files.
fn front_span(color: Color, sq: Square) -> u64 {
    let f = sq.file() as i32;
    let r = sq.rank() as u32;
    let files = file_mask(f - 1) | file_mask(f) | file_mask(f + 1);
    let ahead = match color {
        Color::White if r < 7 => !((1u64 << (8 * (r + 1))) - 1),
        Color::Black => (1u64 << (8 * r)) - 1,
        _ => 0,
    };
    files & ahead
}

/// Static evaluation of `pos` in centipawns for the side to move.
pub fn evaluate(pos: &Chess) -> i32 {
    let mut score = Score::default();
    let phase = features(pos, &mut score);
    let (mg, eg) = unpack(score.0);
    let white = taper(mg, eg, phase);
    if pos.turn().is_white() {
        white
    } else {
        -white
    }
}

/// Record the evaluation features of `pos` (for tuning the weights).
pub fn trace(pos: &Chess) -> Trace {
    let mut counts = Counts {
        base: (0, 0),
        counts: [0; params::NUM_PARAMS],
    };
    let phase = features(pos, &mut counts);
    let features = counts
        .counts
        .iter()
        .enumerate()
        .filter(|&(_, &n)| n != 0)
        .map(|(i, &n)| {
            // Parameter indices are < NUM_PARAMS (about a hundred) and
            // counts are bounded by the number of pieces on the board.
            (i as u16, n as i16)
        })
        .collect();
    Trace {
        phase,
        white_to_move: pos.turn().is_white(),
        base: counts.base,
        features,
    }
}

/// Walk the position once, reporting every feature to `sink`; returns the
/// game phase.
#[inline(always)]
fn features<K: Sink>(pos: &Chess, sink: &mut K) -> i32 {
    let board = pos.board();
    let mut game_phase = 0;
    for (sq, piece) in board.iter() {
        let r = piece.role as usize - 1;
        sink.piece(piece.color, r, usize::from(sq));
        game_phase += pesto::PHASE_INC[r];
    }
    sink.add(pos.turn(), params::TEMPO, 1);
    let occupied = board.occupied();
    // Squares each side attacks (index: colour_index): in all, with its
    // pawns, and with its knights, bishops, rooks and queens, for the threat
    // and safe-check terms after the loop.
    let mut attacked = [Bitboard::EMPTY; 2];
    let mut by_pawns = [Bitboard::EMPTY; 2];
    let mut by_role = [[Bitboard::EMPTY; 4]; 2];
    let passed = sink.pawns(board);
    for color in Color::ALL {
        let ci = colour_index(color);
        let ours = board.by_color(color);
        let theirs = board.by_color(!color);
        let our_pawns = board.pawns() & ours;
        let their_pawns = board.pawns() & theirs;
        if (board.bishops() & ours).count() >= 2 {
            sink.add(color, params::BISHOP_PAIR, 1);
        }
        let shut_in = shut_in_corner_bishops(pos, color);
        if shut_in != 0 {
            sink.add(color, params::CORNER_BISHOP_SHUT_IN, shut_in);
        }
        // Squares attacked by enemy pawns are not safe for mobility.
        let pawn_attacked = Bitboard(pawn_attacks(!color, their_pawns.0));
        let their_king = board.king_of(!color);
        let zone = their_king.map_or(Bitboard::EMPTY, |k| {
            attacks::king_attacks(k) | Bitboard::from(k)
        });
        let pawn_cover = pawn_attacks(color, our_pawns.0);
        let mut attack_units = 0;
        let mut attackers = 0;
        for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .into_iter()
            .enumerate()
        {
            for sq in board.by_role(role) & ours {
                let att = match role {
                    Role::Knight => attacks::knight_attacks(sq),
                    Role::Bishop => attacks::bishop_attacks(sq, occupied),
                    Role::Rook => attacks::rook_attacks(sq, occupied),
                    _ => attacks::queen_attacks(sq, occupied),
                };
                attacked[ci] |= att;
                by_role[ci][i] |= att;
                let mob = (att & !ours & !pawn_attacked).count();
                sink.add(color, params::MOBILITY[i] + mob, 1);
                let hits = (att & zone).count() as i32;
                if hits > 0 {
                    attackers += 1;
                    attack_units += ATTACK_UNITS[i] * hits;
                }
                let rel_rank = relative_rank(color, sq);
                if matches!(role, Role::Knight | Role::Bishop)
                    && (3..=5).contains(&rel_rank)
                    && Bitboard(pawn_cover).contains(sq)
                    && (Bitboard(front_span(color, sq) & !file_mask(sq.file() as i32))
                        & their_pawns)
                        .is_empty()
                {
                    let param = if role == Role::Knight {
                        params::OUTPOST_KNIGHT
                    } else {
                        params::OUTPOST_BISHOP
                    };
                    sink.add(color, param, 1);
                }
                if role == Role::Rook && rel_rank == 6 {
                    let seventh = Bitboard(0xffu64 << if color.is_white() { 48 } else { 8 });
                    let eighth_king = their_king.is_some_and(|k| relative_rank(color, k) == 7);
                    if eighth_king || (seventh & their_pawns).any() {
                        sink.add(color, params::ROOK_SEVENTH, 1);
                    }
                }
                if role == Role::Rook {
                    let file = Bitboard(file_mask(sq.file() as i32));
                    if (file & board.pawns()).is_empty() {
                        sink.add(color, params::ROOK_OPEN, 1);
                    } else if (file & our_pawns).is_empty() {
                        sink.add(color, params::ROOK_SEMI_OPEN, 1);
                    }
                }
            }
        }
        if attackers >= 2 {
            let units = (attack_units as usize).min(params::KING_ATTACK_LEN - 1);
            sink.add(color, params::KING_ATTACK + units, 1);
        }
        by_pawns[ci] = Bitboard(pawn_cover);
        attacked[ci] |= Bitboard(pawn_cover);
        let our_king = board.king_of(color);
        // Passed pawns: what depends on more than the pawns.
        for sq in passed[ci] {
            let rel = relative_rank(color, sq);
            if let Some(stop) = square_in_front(color, sq) {
                if !occupied.contains(stop) {
                    sink.add(color, params::PASSED_FREE + rel, 1);
                }
                let weight = rel as i32 - 1;
                if weight > 0 {
                    if let Some(k) = our_king {
                        sink.add(
                            color,
                            params::PASSED_OWN_KING,
                            weight * k.distance(stop) as i32,
                        );
                    }
                    if let Some(k) = their_king {
                        sink.add(
                            color,
                            params::PASSED_THEIR_KING,
                            weight * k.distance(stop) as i32,
                        );
                    }
                }
            }
        }
        // King shelter while the king is still near home.
        if let Some(k) = our_king {
            attacked[ci] |= attacks::king_attacks(k);
            if relative_rank(color, k) <= 1 {
                let span = front_span(color, k);
                let mut missing = 0;
                for f in (k.file() as i32 - 1)..=(k.file() as i32 + 1) {
                    if (0..8).contains(&f) && (Bitboard(span & file_mask(f)) & our_pawns).is_empty()
                    {
                        missing += 1;
                    }
                }
                if missing != 0 {
                    sink.add(color, params::SHIELD_MISSING, missing);
                }
            }
        }
        let rights = (pos.castles().castling_rights() & color.backrank()).count() as i32;
        if rights != 0 {
            sink.add(color, params::CASTLING_RIGHT, rights);
        }
    }
    // Threats: pieces of the other side that ours attack cheaply or that
    // nothing defends.
    for color in Color::ALL {
        let (us, them) = (colour_index(color), colour_index(!color));
        let theirs = board.by_color(!color);
        let pieces = theirs & !board.pawns() & !board.kings();
        let by_minor = by_role[us][0] | by_role[us][1];
        let counts = [
            (params::THREAT_BY_PAWN, pieces & by_pawns[us]),
            (
                params::THREAT_BY_MINOR,
                theirs & (board.rooks() | board.queens()) & by_minor,
            ),
            (
                params::THREAT_BY_ROOK,
                theirs & board.queens() & by_role[us][2],
            ),
            (params::HANGING, pieces & attacked[us] & !attacked[them]),
        ];
        for (param, set) in counts {
            let n = set.count() as i32;
            if n != 0 {
                sink.add(color, param, n);
            }
        }
        // Safe checks: squares checking their king that our piece of that
        // kind reaches and they do not defend.
        if let Some(k) = board.king_of(!color) {
            let safe = !attacked[them] & !board.by_color(color);
            let diag = attacks::bishop_attacks(k, occupied);
            let line = attacks::rook_attacks(k, occupied);
            let checks = [
                attacks::knight_attacks(k) & by_role[us][0],
                diag & by_role[us][1],
                line & by_role[us][2],
                (diag | line) & by_role[us][3],
            ];
            for (i, set) in checks.into_iter().enumerate() {
                let n = (set & safe).count() as i32;
                if n != 0 {
                    sink.add(color, params::SAFE_CHECK + i, n);
                }
            }
        }
    }
    game_phase.min(24)
}

/// The terms that depend on the pawns alone (protected, phalanx,
/// isolated, doubled, backward and passed pawns by rank), reported to
/// `sink`; returns each colour's passed pawns, for the passed-pawn terms
/// that also depend on the pieces.
fn pawn_features<K: Sink>(board: &Board, sink: &mut K) -> [Bitboard; 2] {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let mut passed = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        let our_pawns = board.pawns() & board.by_color(color);
        let their_pawns = board.pawns() & board.by_color(!color);
        let pawn_cover = pawn_attacks(color, our_pawns.0);
        let their_pawn_cover = pawn_attacks(!color, their_pawns.0);
        let protected = (our_pawns & Bitboard(pawn_cover)).count() as i32;
        if protected != 0 {
            sink.add(color, params::PAWN_PROTECTED, protected);
        }
        let beside = ((our_pawns.0 & NOT_H) << 1) | ((our_pawns.0 & NOT_A) >> 1);
        let phalanx = (our_pawns & Bitboard(beside)).count() as i32;
        if phalanx != 0 {
            sink.add(color, params::PAWN_PHALANX, phalanx);
        }
        let mut isolated = 0;
        let mut doubled = 0;
        let mut backward = 0;
        for sq in our_pawns {
            let f = sq.file() as i32;
            let stop = square_in_front(color, sq);
            let beside_files = file_mask(f - 1) | file_mask(f + 1);
            if (Bitboard(beside_files) & our_pawns).is_empty() {
                isolated += 1;
            } else {
                // Supporters: own pawns beside or behind on adjacent files.
                let not_ahead = !front_span(color, sq);
                if (Bitboard(beside_files & not_ahead) & our_pawns).is_empty()
                    && stop.is_some_and(|s| Bitboard(their_pawn_cover).contains(s))
                {
                    backward += 1;
                }
            }
            let span = front_span(color, sq);
            if (Bitboard(span & file_mask(f)) & our_pawns).any() {
                doubled += 1;
            }
            if (Bitboard(span) & their_pawns).is_empty() {
                sink.add(color, params::PASSED + relative_rank(color, sq), 1);
                passed[colour_index(color)] |= Bitboard::from(sq);
            }
        }
        if isolated != 0 {
            sink.add(color, params::ISOLATED, isolated);
        }
        if doubled != 0 {
            sink.add(color, params::DOUBLED, doubled);
        }
        if backward != 0 {
            sink.add(color, params::BACKWARD, backward);
        }
    }
    passed
}

/// 0 for White, 1 for Black: an index into per-colour arrays.
#[inline(always)]
fn colour_index(color: Color) -> usize {
    usize::from(color.is_black())
}

/// Count `color`'s bishops standing in a corner of its own back rank whose
/// single diagonal out is blocked by a pawn of its own.
fn shut_in_corner_bishops(pos: &Chess, color: Color) -> i32 {
    let board = pos.board();
    let bishops = board.bishops() & board.by_color(color);
    let pawns = board.pawns() & board.by_color(color);
    let corners: [(Square, Square); 2] = match color {
        Color::White => [(Square::A1, Square::B2), (Square::H1, Square::G2)],
        Color::Black => [(Square::A8, Square::B7), (Square::H8, Square::G7)],
    };
    corners
        .iter()
        .filter(|(corner, front)| bishops.contains(*corner) && pawns.contains(*front))
        .count() as i32
}

/// True if the side to move has a piece other than pawns and king: null
/// move pruning is unsafe without one (zugzwang).
pub fn has_non_pawn_material(pos: &Chess) -> bool {
    let board = pos.board();
    let ours = board.by_color(pos.turn());
    (ours & !(board.pawns() | board.kings())) != Bitboard::EMPTY
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_fen;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use shakmaty::{CastlingMode, EnPassantMode};

    /// FENs from the independent reference suites in `perft/`.
    fn perft_fens() -> Vec<String> {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut fens = Vec::new();
        for file in ["chess960_midgame.perft", "chess960_castling.perft"] {
            let text = std::fs::read_to_string(format!("{root}/perft/{file}")).unwrap();
            fens.extend(
                text.lines()
                    .filter_map(|l| l.strip_prefix("epd "))
                    .map(str::to_owned),
            );
        }
        assert!(fens.len() > 10, "perft suites went missing");
        fens
    }

    /// Start positions, perft-suite positions and positions reached from
    /// them by seeded random play (openings to endgames).
    fn sample_positions() -> Vec<Chess> {
        let mut roots: Vec<Chess> = perft_fens()
            .iter()
            .map(|f| parse_fen(f).expect("perft suite FEN"))
            .collect();
        roots.extend(
            (0..960)
                .step_by(37)
                .map(|n| crate::startpos::position(n).unwrap()),
        );
        let mut rng = ChaCha8Rng::seed_from_u64(960);
        let mut out = Vec::new();
        for root in roots {
            for _ in 0..3 {
                let mut pos = root.clone();
                for _ in 0..120 {
                    out.push(pos.clone());
                    let moves = pos.legal_moves();
                    // Prefer captures half of the time so that material
                    // comes off and endgames are reached.
                    let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
                    let m = if !captures.is_empty() && rand::Rng::gen_bool(&mut rng, 0.5) {
                        **captures.choose(&mut rng).unwrap()
                    } else if let Some(m) = moves.choose(&mut rng) {
                        *m
                    } else {
                        break;
                    };
                    pos.play_unchecked(m);
                }
            }
        }
        out
    }

    fn mirrored(pos: &Chess) -> Chess {
        pos.to_setup(EnPassantMode::Legal)
            .into_mirrored()
            .position(CastlingMode::Chess960)
            .expect("mirror of a legal position is legal")
    }

    #[test]
    fn packed_scores_add_both_halves() {
        for a in [(0, 0), (5, -7), (-300, 200), (-1, -1), (9000, -9000)] {
            assert_eq!(unpack(pack(a)), a);
            for b in [(3, 4), (-20, 1), (-500, -500)] {
                assert_eq!(unpack(pack(a) + pack(b)), (a.0 + b.0, a.1 + b.1));
                assert_eq!(
                    unpack(pack(a) - 3 * pack(b)),
                    (a.0 - 3 * b.0, a.1 - 3 * b.1)
                );
            }
        }
    }

    #[test]
    fn pawn_attack_sets_match_shakmaty() {
        for pos in sample_positions().iter().step_by(7) {
            for color in Color::ALL {
                let pawns = pos.board().pawns() & pos.board().by_color(color);
                let mut expected = Bitboard::EMPTY;
                for p in pawns {
                    expected |= attacks::pawn_attacks(color, p);
                }
                assert_eq!(Bitboard(pawn_attacks(color, pawns.0)), expected);
            }
        }
    }

    #[test]
    fn start_positions_are_balanced() {
        for n in 0..960 {
            let pos = crate::startpos::position(n).unwrap();
            assert_eq!(evaluate(&pos), WEIGHTS[params::TEMPO].0, "start {n}");
        }
    }

    #[test]
    fn trace_reproduces_evaluate() {
        let positions = sample_positions();
        assert!(positions.len() > 5000);
        let mut endgames = 0;
        for pos in &positions {
            let t = trace(pos);
            assert_eq!(
                t.evaluate(&WEIGHTS),
                evaluate(pos),
                "{}",
                crate::notation::xfen(pos)
            );
            assert_eq!(t.phase, phase(pos));
            if t.phase < 8 {
                endgames += 1;
            }
        }
        assert!(endgames > 100, "sample lacks endgames: {endgames}");
    }

    #[test]
    fn trace_is_linear_in_the_weights() {
        // Doubling every weight (and the base) doubles the untapered sums.
        let doubled: Vec<S> = WEIGHTS.iter().map(|&(m, e)| (2 * m, 2 * e)).collect();
        for pos in sample_positions().iter().step_by(50) {
            let t = trace(pos);
            let (m1, e1) = t.mg_eg(&WEIGHTS);
            let (m2, e2) = t.mg_eg(&doubled);
            assert_eq!(
                (m2 - t.base.0, e2 - t.base.1),
                (2 * (m1 - t.base.0), 2 * (e1 - t.base.1))
            );
        }
    }

    #[test]
    fn mirrored_positions_evaluate_equal_for_the_side_to_move() {
        for pos in sample_positions() {
            let m = mirrored(&pos);
            assert_eq!(
                evaluate(&pos),
                evaluate(&m),
                "{}",
                crate::notation::xfen(&pos)
            );
            let (t, tm) = (trace(&pos), trace(&m));
            let negated: Vec<(u16, i16)> = t.features.iter().map(|&(i, n)| (i, -n)).collect();
            assert_eq!(tm.features, negated);
        }
    }

    #[test]
    fn symmetric_and_material_aware() {
        let up_a_queen = parse_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(evaluate(&up_a_queen) > 800);
        let down_a_queen = parse_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(evaluate(&down_a_queen) < -800);
        // Mirrored positions score the same for the side to move.
        let a = parse_fen("r3k2r/ppp2ppp/2n5/3p4/3P4/2N5/PPP2PPP/R3K2R w KQkq - 0 1").unwrap();
        let b = parse_fen("r3k2r/ppp2ppp/2n5/3p4/3P4/2N5/PPP2PPP/R3K2R b KQkq - 0 1").unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn passed_pawns_are_rewarded() {
        // Same material; White's a-pawn is passed in the first position only.
        let passed = parse_fen("4k3/7p/8/P7/8/8/8/4K3 w - - 0 1").unwrap();
        let blocked = parse_fen("4k3/1p6/8/P7/8/8/8/4K3 w - - 0 1").unwrap();
        assert!(evaluate(&passed) > evaluate(&blocked));
        assert_eq!(front_span(Color::White, Square::A5) & (1 << 49), 1 << 49);
        assert_eq!(front_span(Color::Black, Square::B7) & (1 << 32), 1 << 32);
        let t = trace(&passed);
        assert!(t.features.contains(&((params::PASSED + 4) as u16, 1)));
    }

    #[test]
    fn corner_bishop_behind_own_pawn_is_penalised() {
        let free = parse_fen("4k3/8/8/8/8/1P6/P7/B3K3 w - - 0 1").unwrap();
        let shut = parse_fen("4k3/8/8/8/8/8/PP6/B3K3 w - - 0 1").unwrap();
        assert_eq!(shut_in_corner_bishops(&shut, Color::White), 1);
        assert_eq!(shut_in_corner_bishops(&free, Color::White), 0);
        let p = params::CORNER_BISHOP_SHUT_IN as u16;
        assert!(trace(&shut).features.contains(&(p, 1)));
        assert!(!trace(&free).features.iter().any(|&(i, _)| i == p));
    }

    /// White's count of `param` in the trace of `fen` (White minus Black).
    fn count(fen: &str, param: usize) -> i16 {
        let t = trace(&parse_fen(fen).unwrap());
        t.features
            .iter()
            .find(|&&(i, _)| usize::from(i) == param)
            .map_or(0, |&(_, n)| n)
    }

    #[test]
    fn outposts_seventh_rank_backward_pawns_and_safe_checks() {
        // Knight d5 defended by the e4 pawn; no black pawn can chase it,
        // until a c7 pawn can (c6 would attack d5).
        assert_eq!(
            count("4k3/p7/8/3N4/4P3/8/8/4K3 w - - 0 1", params::OUTPOST_KNIGHT),
            1
        );
        assert_eq!(
            count(
                "4k3/2p5/8/3N4/4P3/8/8/4K3 w - - 0 1",
                params::OUTPOST_KNIGHT
            ),
            0
        );
        // Rook on the 7th with the king on the 8th; not with the king out.
        assert_eq!(
            count("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", params::ROOK_SEVENTH),
            1
        );
        assert_eq!(
            count("8/R7/4k3/8/8/8/8/4K3 w - - 0 1", params::ROOK_SEVENTH),
            0
        );
        // d3 cannot be supported (e4 is ahead of it) and c5 hits d4.
        assert_eq!(
            count("4k3/8/8/2p5/4P3/3P4/8/4K3 w - - 0 1", params::BACKWARD),
            1
        );
        // With a c3 pawn beside it, d3 is supported.
        assert_eq!(
            count("4k3/8/8/2p5/4P3/2PP4/8/4K3 w - - 0 1", params::BACKWARD),
            0
        );
        // Rook d1 can check from d8 and from h1; neither square is guarded.
        assert_eq!(
            count("7k/8/8/8/8/8/8/K2R4 w - - 0 1", params::SAFE_CHECK + 2),
            2
        );
        // A black bishop on e7 guards d8 (and has no check of its own).
        assert_eq!(
            count("7k/4b3/8/8/8/8/8/K2R4 w - - 0 1", params::SAFE_CHECK + 2),
            1
        );
    }
}
