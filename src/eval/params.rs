//! Layout of the tunable evaluation weights.
//!
//! Every hand-set evaluation term is one or more *parameters*: a pair of
//! middlegame and endgame centipawn values (`S`) that the evaluation adds
//! once per occurrence of a feature. Keeping all of them in one flat array
//! ([`super::weights::WEIGHTS`]) indexed by the constants below is what makes
//! the evaluation linear in its weights, so that a tuner can record a
//! position's feature counts once ([`super::trace`]) and then re-score it for
//! any candidate weights without recomputing attacks.
//!
//! The PeSTO material and piece-square values themselves are not
//! parameters: they are published figures and enter the trace as a fixed
//! base. The `material` and `psqt_*` groups are corrections on top of them
//! (zero = the published figure), folded into one table at compile time.

/// A middlegame/endgame weight pair in centipawns.
pub type S = (i32, i32);

/// Bonus for the side to move (it can improve its position first).
pub const TEMPO: usize = 0;
/// Two or more bishops: they cover both square colours.
pub const BISHOP_PAIR: usize = 1;
/// A bishop in a corner of its own back rank whose only diagonal is blocked
/// by its own pawn, a common Chess960 problem (bishop a1, pawn b2).
pub const CORNER_BISHOP_SHUT_IN: usize = 2;
/// Per pawn with no friendly pawn on an adjacent file.
pub const ISOLATED: usize = 3;
/// Per pawn with a friendly pawn in front of it on the same file.
pub const DOUBLED: usize = 4;
/// Per rook on a file without pawns.
pub const ROOK_OPEN: usize = 5;
/// Per rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN: usize = 6;
/// Per missing shield pawn (own pawn ahead on the king's file or an
/// adjacent one) while the king is on its first two ranks.
pub const SHIELD_MISSING: usize = 7;
/// Per castling right still held: the option to tuck the king away.
pub const CASTLING_RIGHT: usize = 8;
/// Passed pawn by relative rank (8 entries; ranks 1 and 8 never occur).
pub const PASSED: usize = 9;
/// Mobility tables (safe squares reachable) for knight, bishop, rook, queen.
pub const MOBILITY: [usize; 4] = [
    PASSED + 8,
    PASSED + 8 + 9,
    PASSED + 8 + 9 + 14,
    PASSED + 8 + 9 + 14 + 15,
];
/// Number of entries in each mobility table (maximum count + 1).
pub const MOBILITY_LEN: [usize; 4] = [9, 14, 15, 28];
/// King-zone attack units (see `ATTACK_UNITS` in the evaluation), counted
/// only when at least two pieces attack the zone; larger counts share the
/// last entry.
pub const KING_ATTACK: usize = MOBILITY[3] + MOBILITY_LEN[3];
/// Entries of the king-attack table.
pub const KING_ATTACK_LEN: usize = 24;
/// Their non-pawn pieces attacked by our pawns.
pub const THREAT_BY_PAWN: usize = KING_ATTACK + KING_ATTACK_LEN;
/// Their rooks and queens attacked by our knights and bishops.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
/// Their queens attacked by our rooks.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 1;
/// Their pieces (not pawns, not the king) attacked by us and not defended.
pub const HANGING: usize = THREAT_BY_ROOK + 1;
/// Our pawns defended by a pawn of ours.
pub const PAWN_PROTECTED: usize = HANGING + 1;
/// Our pawns with a pawn of ours beside them on the same rank.
pub const PAWN_PHALANX: usize = PAWN_PROTECTED + 1;
/// A passed pawn whose square in front is empty, by its relative rank.
pub const PASSED_FREE: usize = PAWN_PHALANX + 1;
/// Our king's distance to a passed pawn's square in front, times the
/// pawn's relative rank minus one.
pub const PASSED_OWN_KING: usize = PASSED_FREE + 8;
/// The same for their king.
pub const PASSED_THEIR_KING: usize = PASSED_OWN_KING + 1;
/// A knight on its 4th to 6th rank, defended by a pawn of ours, that no
/// enemy pawn can ever attack (an outpost).
pub const OUTPOST_KNIGHT: usize = PASSED_THEIR_KING + 1;
/// The same for a bishop.
pub const OUTPOST_BISHOP: usize = OUTPOST_KNIGHT + 1;
/// A rook on the 7th rank while the enemy king is on the 8th or enemy pawns
/// are on the 7th.
pub const ROOK_SEVENTH: usize = OUTPOST_BISHOP + 1;
/// A pawn that no pawn of ours can support any more (none beside or behind
/// it on the adjacent files) and whose square in front an enemy pawn
/// attacks (a backward pawn); isolated pawns are counted as such instead.
pub const BACKWARD: usize = ROOK_SEVENTH + 1;
/// Squares from which our knight, bishop, rook or queen (4 entries) could
/// give check next move, that piece reaches, and the enemy does not
/// defend: the threat of a check a king-attack count does not see.
pub const SAFE_CHECK: usize = BACKWARD + 1;
/// Corrections to the PeSTO material values of pawn, knight, bishop, rook
/// and queen; folded into the piece-square table at compile time.
pub const MATERIAL: usize = SAFE_CHECK + 4;
/// Corrections to the PeSTO material plus piece-square value, by role
/// (pawn..king) and square seen from the piece's own side (a1..h8 for
/// White, a8..h1 for Black): 6 tables of 64. Zero means the published
/// figure; folded into the piece-square table at compile time.
pub const PSQT: usize = MATERIAL + 5;
/// Total number of parameters.
pub const NUM_PARAMS: usize = PSQT + 6 * 64;

/// A named run of parameters, for printing and for the generated weights
/// file.
#[derive(Debug, Clone, Copy)]
pub struct Group {
    /// Identifier used in the generated file and on the tuner's command line.
    pub name: &'static str,
    /// First parameter index.
    pub start: usize,
    /// Number of parameters.
    pub len: usize,
}

/// All parameters, in index order, grouped by term.
pub const GROUPS: &[Group] = &[
    Group {
        name: "tempo",
        start: TEMPO,
        len: 1,
    },
    Group {
        name: "bishop_pair",
        start: BISHOP_PAIR,
        len: 1,
    },
    Group {
        name: "corner_bishop_shut_in",
        start: CORNER_BISHOP_SHUT_IN,
        len: 1,
    },
    Group {
        name: "isolated",
        start: ISOLATED,
        len: 1,
    },
    Group {
        name: "doubled",
        start: DOUBLED,
        len: 1,
    },
    Group {
        name: "rook_open",
        start: ROOK_OPEN,
        len: 1,
    },
    Group {
        name: "rook_semi_open",
        start: ROOK_SEMI_OPEN,
        len: 1,
    },
    Group {
        name: "shield_missing",
        start: SHIELD_MISSING,
        len: 1,
    },
    Group {
        name: "castling_right",
        start: CASTLING_RIGHT,
        len: 1,
    },
    Group {
        name: "passed",
        start: PASSED,
        len: 8,
    },
    Group {
        name: "mobility_knight",
        start: MOBILITY[0],
        len: MOBILITY_LEN[0],
    },
    Group {
        name: "mobility_bishop",
        start: MOBILITY[1],
        len: MOBILITY_LEN[1],
    },
    Group {
        name: "mobility_rook",
        start: MOBILITY[2],
        len: MOBILITY_LEN[2],
    },
    Group {
        name: "mobility_queen",
        start: MOBILITY[3],
        len: MOBILITY_LEN[3],
    },
    Group {
        name: "king_attack",
        start: KING_ATTACK,
        len: KING_ATTACK_LEN,
    },
    Group {
        name: "threat_by_pawn",
        start: THREAT_BY_PAWN,
        len: 1,
    },
    Group {
        name: "threat_by_minor",
        start: THREAT_BY_MINOR,
        len: 1,
    },
    Group {
        name: "threat_by_rook",
        start: THREAT_BY_ROOK,
        len: 1,
    },
    Group {
        name: "hanging",
        start: HANGING,
        len: 1,
    },
    Group {
        name: "pawn_protected",
        start: PAWN_PROTECTED,
        len: 1,
    },
    Group {
        name: "pawn_phalanx",
        start: PAWN_PHALANX,
        len: 1,
    },
    Group {
        name: "passed_free",
        start: PASSED_FREE,
        len: 8,
    },
    Group {
        name: "passed_own_king",
        start: PASSED_OWN_KING,
        len: 1,
    },
    Group {
        name: "passed_their_king",
        start: PASSED_THEIR_KING,
        len: 1,
    },
    Group {
        name: "outpost_knight",
        start: OUTPOST_KNIGHT,
        len: 1,
    },
    Group {
        name: "outpost_bishop",
        start: OUTPOST_BISHOP,
        len: 1,
    },
    Group {
        name: "rook_seventh",
        start: ROOK_SEVENTH,
        len: 1,
    },
    Group {
        name: "backward",
        start: BACKWARD,
        len: 1,
    },
    Group {
        name: "safe_check",
        start: SAFE_CHECK,
        len: 4,
    },
    Group {
        name: "material",
        start: MATERIAL,
        len: 5,
    },
    Group {
        name: "psqt_pawn",
        start: PSQT,
        len: 64,
    },
    Group {
        name: "psqt_knight",
        start: PSQT + 64,
        len: 64,
    },
    Group {
        name: "psqt_bishop",
        start: PSQT + 2 * 64,
        len: 64,
    },
    Group {
        name: "psqt_rook",
        start: PSQT + 3 * 64,
        len: 64,
    },
    Group {
        name: "psqt_queen",
        start: PSQT + 4 * 64,
        len: 64,
    },
    Group {
        name: "psqt_king",
        start: PSQT + 5 * 64,
        len: 64,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_parameter_space() {
        let mut next = 0;
        for g in GROUPS {
            assert_eq!(g.start, next, "group {} starts out of order", g.name);
            next += g.len;
        }
        assert_eq!(next, NUM_PARAMS);
    }
}
