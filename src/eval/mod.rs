//! Static evaluation: tapered material and piece-square values plus a few
//! terms that matter in Chess960.
//!
//! Scores are centipawns from the point of view of the side to move, which
//! is what negamax wants.

mod pesto;

use shakmaty::{Bitboard, Chess, Color, Position, Role, Square};

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

/// Static evaluation of `pos` in centipawns for the side to move.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut game_phase = 0;
    for (sq, piece) in board.iter() {
        let r = piece.role as usize - 1;
        let side = usize::from(piece.color.is_black());
        let idx = if piece.color.is_white() {
            usize::from(sq) ^ 56
        } else {
            usize::from(sq)
        };
        mg[side] += pesto::MG_VALUE[r] + pesto::MG_TABLE[r][idx];
        eg[side] += pesto::EG_VALUE[r] + pesto::EG_TABLE[r][idx];
        game_phase += pesto::PHASE_INC[r];
    }
    for color in Color::ALL {
        let side = usize::from(color.is_black());
        let ours = board.by_color(color);
        if (board.bishops() & ours).count() >= 2 {
            mg[side] += BISHOP_PAIR.0;
            eg[side] += BISHOP_PAIR.1;
        }
        mg[side] -= CORNER_BISHOP_SHUT_IN * shut_in_corner_bishops(pos, color);
    }
    let game_phase = game_phase.min(24);
    let us = usize::from(pos.turn().is_black());
    let them = 1 - us;
    let mg_score = mg[us] - mg[them];
    let eg_score = eg[us] - eg[them];
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
    fn corner_bishop_behind_own_pawn_is_penalised() {
        let free = parse_fen("4k3/8/8/8/8/1P6/P7/B3K3 w - - 0 1").unwrap();
        let shut = parse_fen("4k3/8/8/8/8/8/PP6/B3K3 w - - 0 1").unwrap();
        assert_eq!(shut_in_corner_bishops(&shut, Color::White), 1);
        assert_eq!(shut_in_corner_bishops(&free, Color::White), 0);
    }
}
