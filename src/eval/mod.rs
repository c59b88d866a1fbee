//! Static evaluation: tapered material and piece-square values plus a few
//! terms that matter in Chess960.
//!
//! Scores are centipawns from the point of view of the side to move, which
//! is what negamax wants.

mod pesto;

use shakmaty::{attacks, Bitboard, Chess, Color, Position, Role, Square};

/// Bonus for the side to move (it can improve its position first).
const TEMPO: i32 = 10;
/// Two bishops cover both colours; worth more as the board empties.
const BISHOP_PAIR: (i32, i32) = (25, 50);
/// A bishop in a corner whose only diagonal is blocked by its own pawn, a
/// common Chess960 problem (e.g. bishop a1 behind a pawn on b2 that has
/// been blocked on b3 by an enemy pawn, or simply never moved).
const CORNER_BISHOP_SHUT_IN: i32 = 30;

/// Values of the pieces for move ordering and pruning margins (pawn..king).
pub const PIECE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// Game phase 0 (bare kings and pawns) ..= 24 (all pieces on).
pub fn phase(pos: &Chess) -> i32 {
    let board = pos.board();
    let mut phase = 0;
    for role in Role::ALL {
        phase += pesto::PHASE_INC[role as usize - 1] * board.by_role(role).count() as i32;
    }
    phase.min(24)
}

/// Mobility per reachable safe square, by role (knight..queen), mg and eg,
/// and the typical count subtracted so that an average piece scores zero.
const MOBILITY: [(i32, i32, i32); 4] = [(4, 4, 4), (5, 5, 6), (2, 4, 7), (1, 2, 13)];
/// Passed pawn bonus by relative rank (mg, eg); the PeSTO pawn tables
/// already reward advancement, this rewards the absence of stoppers.
const PASSED: [(i32, i32); 8] = [
    (0, 0),
    (2, 8),
    (4, 12),
    (8, 20),
    (16, 38),
    (30, 65),
    (45, 100),
    (0, 0),
];
const ISOLATED: (i32, i32) = (10, 14);
const DOUBLED: (i32, i32) = (8, 18);
const ROOK_OPEN: (i32, i32) = (24, 8);
const ROOK_SEMI_OPEN: (i32, i32) = (12, 6);
/// Missing pawn in front of a king on its first two ranks (mg).
const SHIELD_MISSING: i32 = 12;
/// Each castling right still held (mg): the option to tuck the king away.
const CASTLING_RIGHT: i32 = 8;
/// King-zone attack weight by attacking role (knight..queen).
const ATTACK_WEIGHT: [i32; 4] = [2, 2, 3, 5];

fn file_mask(file: i32) -> u64 {
    if (0..8).contains(&file) {
        0x0101_0101_0101_0101u64 << file
    } else {
        0
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

#[derive(Default)]
struct Terms {
    mg: [i32; 2],
    eg: [i32; 2],
}

impl Terms {
    fn add(&mut self, color: Color, (mg, eg): (i32, i32)) {
        let side = usize::from(color.is_black());
        self.mg[side] += mg;
        self.eg[side] += eg;
    }
}

/// Static evaluation of `pos` in centipawns for the side to move.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let mut t = Terms::default();
    let mut game_phase = 0;
    for (sq, piece) in board.iter() {
        let r = piece.role as usize - 1;
        let idx = if piece.color.is_white() {
            usize::from(sq) ^ 56
        } else {
            usize::from(sq)
        };
        t.add(
            piece.color,
            (
                pesto::MG_VALUE[r] + pesto::MG_TABLE[r][idx],
                pesto::EG_VALUE[r] + pesto::EG_TABLE[r][idx],
            ),
        );
        game_phase += pesto::PHASE_INC[r];
    }
    let occupied = board.occupied();
    for color in Color::ALL {
        let ours = board.by_color(color);
        let theirs = board.by_color(!color);
        let our_pawns = board.pawns() & ours;
        let their_pawns = board.pawns() & theirs;
        if (board.bishops() & ours).count() >= 2 {
            t.add(color, BISHOP_PAIR);
        }
        t.add(
            color,
            (
                -CORNER_BISHOP_SHUT_IN * shut_in_corner_bishops(pos, color),
                0,
            ),
        );
        // Squares attacked by enemy pawns are not safe for mobility.
        let mut pawn_attacked = Bitboard::EMPTY;
        for p in their_pawns {
            pawn_attacked |= attacks::pawn_attacks(!color, p);
        }
        let their_king = board.king_of(!color);
        let zone = their_king.map_or(Bitboard::EMPTY, |k| {
            attacks::king_attacks(k) | Bitboard::from(k)
        });
        let mut attack_weight = 0;
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
                let mob = (att & !ours & !pawn_attacked).count() as i32 - MOBILITY[i].2;
                t.add(color, (mob * MOBILITY[i].0, mob * MOBILITY[i].1));
                let hits = (att & zone).count() as i32;
                if hits > 0 {
                    attackers += 1;
                    attack_weight += ATTACK_WEIGHT[i] * hits;
                }
                if role == Role::Rook {
                    let file = Bitboard(file_mask(sq.file() as i32));
                    if (file & board.pawns()).is_empty() {
                        t.add(color, ROOK_OPEN);
                    } else if (file & our_pawns).is_empty() {
                        t.add(color, ROOK_SEMI_OPEN);
                    }
                }
            }
        }
        if attackers >= 2 {
            t.add(color, ((attack_weight * attack_weight).min(300), 0));
        }
        // Pawn structure.
        for sq in our_pawns {
            let f = sq.file() as i32;
            if (Bitboard(file_mask(f - 1) | file_mask(f + 1)) & our_pawns).is_empty() {
                t.add(color, (-ISOLATED.0, -ISOLATED.1));
            }
            let span = front_span(color, sq);
            if (Bitboard(span & file_mask(f)) & our_pawns).any() {
                t.add(color, (-DOUBLED.0, -DOUBLED.1));
            }
            if (Bitboard(span) & their_pawns).is_empty() {
                let rel = if color.is_white() {
                    sq.rank() as usize
                } else {
                    7 - sq.rank() as usize
                };
                t.add(color, PASSED[rel]);
            }
        }
        // King shelter while the king is still near home.
        if let Some(k) = board.king_of(color) {
            let rel = if color.is_white() {
                k.rank() as u32
            } else {
                7 - k.rank() as u32
            };
            if rel <= 1 {
                let span = front_span(color, k);
                let mut missing = 0;
                for f in (k.file() as i32 - 1)..=(k.file() as i32 + 1) {
                    if (0..8).contains(&f) && (Bitboard(span & file_mask(f)) & our_pawns).is_empty()
                    {
                        missing += 1;
                    }
                }
                t.add(color, (-SHIELD_MISSING * missing, 0));
            }
        }
        let rights = (pos.castles().castling_rights() & color.backrank()).count() as i32;
        t.add(color, (CASTLING_RIGHT * rights, 0));
    }
    let game_phase = game_phase.min(24);
    let us = usize::from(pos.turn().is_black());
    let them = 1 - us;
    let mg_score = t.mg[us] - t.mg[them];
    let eg_score = t.eg[us] - t.eg[them];
    (mg_score * game_phase + eg_score * (24 - game_phase)) / 24 + TEMPO
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

    #[test]
    fn start_positions_are_balanced() {
        for n in [0, 518, 959] {
            let pos = crate::startpos::position(n).unwrap();
            assert_eq!(evaluate(&pos), TEMPO, "start {n}");
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
    }

    #[test]
    fn corner_bishop_behind_own_pawn_is_penalised() {
        let free = parse_fen("4k3/8/8/8/8/1P6/P7/B3K3 w - - 0 1").unwrap();
        let shut = parse_fen("4k3/8/8/8/8/8/PP6/B3K3 w - - 0 1").unwrap();
        assert_eq!(shut_in_corner_bishops(&shut, Color::White), 1);
        assert_eq!(shut_in_corner_bishops(&free, Color::White), 0);
    }
}
