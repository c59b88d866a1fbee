//! Evaluation weights, indexed by the constants in [`super::params`].
//!
//! Hand-set starting values (the evaluation before tuning); `tune fit`
//! rewrites this file, see tools/tune/README.md.

use super::params::{NUM_PARAMS, S};

/// Middlegame/endgame weight of every evaluation parameter.
#[rustfmt::skip]
pub const WEIGHTS: [S; NUM_PARAMS] = [
    // tempo
    (10, 10),
    // bishop_pair
    (25, 50),
    // corner_bishop_shut_in
    (-30, 0),
    // isolated
    (-10, -14),
    // doubled
    (-8, -18),
    // rook_open
    (24, 8),
    // rook_semi_open
    (12, 6),
    // shield_missing
    (-12, 0),
    // castling_right
    (8, 0),
    // passed
    (0, 0), (2, 8), (4, 12), (8, 20), (16, 38), (30, 65),
    (45, 100), (0, 0),
    // mobility_knight
    (-16, -16), (-12, -12), (-8, -8), (-4, -4), (0, 0), (4, 4),
    (8, 8), (12, 12), (16, 16),
    // mobility_bishop
    (-30, -30), (-25, -25), (-20, -20), (-15, -15), (-10, -10), (-5, -5),
    (0, 0), (5, 5), (10, 10), (15, 15), (20, 20), (25, 25),
    (30, 30), (35, 35),
    // mobility_rook
    (-14, -28), (-12, -24), (-10, -20), (-8, -16), (-6, -12), (-4, -8),
    (-2, -4), (0, 0), (2, 4), (4, 8), (6, 12), (8, 16),
    (10, 20), (12, 24), (14, 28),
    // mobility_queen
    (-13, -26), (-12, -24), (-11, -22), (-10, -20), (-9, -18), (-8, -16),
    (-7, -14), (-6, -12), (-5, -10), (-4, -8), (-3, -6), (-2, -4),
    (-1, -2), (0, 0), (1, 2), (2, 4), (3, 6), (4, 8),
    (5, 10), (6, 12), (7, 14), (8, 16), (9, 18), (10, 20),
    (11, 22), (12, 24), (13, 26), (14, 28),
    // king_attack
    (0, 0), (1, 0), (4, 0), (9, 0), (16, 0), (25, 0),
    (36, 0), (49, 0), (64, 0), (81, 0), (100, 0), (121, 0),
    (144, 0), (169, 0), (196, 0), (225, 0), (256, 0), (289, 0),
    (300, 0), (300, 0), (300, 0), (300, 0), (300, 0), (300, 0),
];
