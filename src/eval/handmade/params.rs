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

/// Declares every parameter group once: its index constant (the first
/// parameter of the group, each group starting where the previous one
/// ends), its name in [`GROUPS`] and its length; [`NUM_PARAMS`] is where
/// the last one ends.
macro_rules! parameters {
    ($( $(#[$doc:meta])* $index:ident = $name:literal, $len:expr; )*) => {
        parameters!(@index 0; $( $(#[$doc])* $index, $len; )*);
        /// All parameters, in index order, grouped by term.
        pub const GROUPS: &[Group] = &[$( Group { name: $name, start: $index, len: $len } ),*];
    };
    (@index $start:expr; $(#[$doc:meta])* $index:ident, $len:expr; $($rest:tt)*) => {
        $(#[$doc])*
        pub const $index: usize = $start;
        parameters!(@index $index + $len; $($rest)*);
    };
    (@index $start:expr;) => {
        /// Total number of parameters.
        pub const NUM_PARAMS: usize = $start;
    };
}

/// Number of entries in each mobility table (knight, bishop, rook, queen:
/// the most squares each can reach, plus one).
pub const MOBILITY_LEN: [usize; 4] = [9, 14, 15, 28];
/// Entries of the king-attack table.
pub const KING_ATTACK_LEN: usize = 24;

parameters! {
    /// Bonus for the side to move (it can improve its position first).
    TEMPO = "tempo", 1;
    /// Two or more bishops: they cover both square colours.
    BISHOP_PAIR = "bishop_pair", 1;
    /// A bishop in a corner of its own back rank whose only diagonal is blocked
    /// by its own pawn, a common Chess960 problem (bishop a1, pawn b2).
    CORNER_BISHOP_SHUT_IN = "corner_bishop_shut_in", 1;
    /// Per pawn with no friendly pawn on an adjacent file.
    ISOLATED = "isolated", 1;
    /// Per pawn with a friendly pawn in front of it on the same file.
    DOUBLED = "doubled", 1;
    /// Per rook on a file without pawns.
    ROOK_OPEN = "rook_open", 1;
    /// Per rook on a file with enemy pawns only.
    ROOK_SEMI_OPEN = "rook_semi_open", 1;
    /// Per missing shield pawn (own pawn ahead on the king's file or an
    /// adjacent one) while the king is on its first two ranks.
    SHIELD_MISSING = "shield_missing", 1;
    /// Per castling right still held: the option to tuck the king away.
    CASTLING_RIGHT = "castling_right", 1;
    /// Passed pawn by relative rank (8 entries; ranks 1 and 8 never occur).
    PASSED = "passed", 8;
    /// Mobility (safe squares reachable) of a knight.
    MOBILITY_KNIGHT = "mobility_knight", MOBILITY_LEN[0];
    /// Mobility of a bishop.
    MOBILITY_BISHOP = "mobility_bishop", MOBILITY_LEN[1];
    /// Mobility of a rook.
    MOBILITY_ROOK = "mobility_rook", MOBILITY_LEN[2];
    /// Mobility of a queen.
    MOBILITY_QUEEN = "mobility_queen", MOBILITY_LEN[3];
    /// King-zone attack units (see `ATTACK_UNITS` in the evaluation), counted
    /// only when at least two pieces attack the zone; larger counts share the
    /// last entry.
    KING_ATTACK = "king_attack", KING_ATTACK_LEN;
    /// Their non-pawn pieces attacked by our pawns.
    THREAT_BY_PAWN = "threat_by_pawn", 1;
    /// Their rooks and queens attacked by our knights and bishops.
    THREAT_BY_MINOR = "threat_by_minor", 1;
    /// Their queens attacked by our rooks.
    THREAT_BY_ROOK = "threat_by_rook", 1;
    /// Their pieces (not pawns, not the king) attacked by us and not defended.
    HANGING = "hanging", 1;
    /// Our pawns defended by a pawn of ours.
    PAWN_PROTECTED = "pawn_protected", 1;
    /// Our pawns with a pawn of ours beside them on the same rank.
    PAWN_PHALANX = "pawn_phalanx", 1;
    /// A passed pawn whose square in front is empty, by its relative rank.
    PASSED_FREE = "passed_free", 8;
    /// Our king's distance to a passed pawn's square in front, times the
    /// pawn's relative rank minus one.
    PASSED_OWN_KING = "passed_own_king", 1;
    /// The same for their king.
    PASSED_THEIR_KING = "passed_their_king", 1;
    /// A knight on its 4th to 6th rank, defended by a pawn of ours, that no
    /// enemy pawn can ever attack (an outpost).
    OUTPOST_KNIGHT = "outpost_knight", 1;
    /// The same for a bishop.
    OUTPOST_BISHOP = "outpost_bishop", 1;
    /// A rook on the 7th rank while the enemy king is on the 8th or enemy pawns
    /// are on the 7th.
    ROOK_SEVENTH = "rook_seventh", 1;
    /// A pawn that no pawn of ours can support any more (none beside or behind
    /// it on the adjacent files) and whose square in front an enemy pawn
    /// attacks (a backward pawn); isolated pawns are counted as such instead.
    BACKWARD = "backward", 1;
    /// Squares from which our knight, bishop, rook or queen (4 entries) could
    /// give check next move, that piece reaches, and the enemy does not
    /// defend: the threat of a check a king-attack count does not see.
    SAFE_CHECK = "safe_check", 4;
    /// Corrections to the PeSTO material values of pawn, knight, bishop, rook
    /// and queen; folded into the piece-square table at compile time.
    MATERIAL = "material", 5;
    /// Corrections to the PeSTO material plus piece-square value, by role
    /// (pawn..king, one table of 64 each, contiguous from here) and square
    /// seen from the piece's own side (a1..h8 for White, a8..h1 for Black).
    /// Zero means the published figure; folded into the piece-square table
    /// at compile time.
    PSQT = "psqt_pawn", 64;
    /// Knight piece-square corrections (see [`PSQT`]).
    PSQT_KNIGHT = "psqt_knight", 64;
    /// Bishop piece-square corrections.
    PSQT_BISHOP = "psqt_bishop", 64;
    /// Rook piece-square corrections.
    PSQT_ROOK = "psqt_rook", 64;
    /// Queen piece-square corrections.
    PSQT_QUEEN = "psqt_queen", 64;
    /// King piece-square corrections.
    PSQT_KING = "psqt_king", 64;
}

/// First index of each mobility table, knight..queen.
pub const MOBILITY: [usize; 4] = [
    MOBILITY_KNIGHT,
    MOBILITY_BISHOP,
    MOBILITY_ROOK,
    MOBILITY_QUEEN,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_parameter_space() {
        // The psqt tables are indexed as PSQT + 64 * role + square.
        assert_eq!(PSQT_KING, PSQT + 5 * 64);
        assert_eq!(MOBILITY[3] + MOBILITY_LEN[3], KING_ATTACK);
        let mut next = 0;
        for g in GROUPS {
            assert_eq!(g.start, next, "group {} starts out of order", g.name);
            next += g.len;
        }
        assert_eq!(next, NUM_PARAMS);
    }
}
