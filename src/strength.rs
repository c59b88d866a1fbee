//! Playing strength for people: `UCI_LimitStrength` and `UCI_Elo`.
//!
//! A weaker engine should still play like a chess player, not like a
//! random-move generator that sometimes plays well. Two levers do that:
//!
//! * **Fewer nodes.** The search is the same, stopped after a node budget
//!   that doubles for every [`ELO_PER_DOUBLING`] points above
//!   [`ANCHOR_ELO`] (and is lifted at [`ELO_MAX`]). Fewer nodes means
//!   shallower sight: tactics two or three moves deep are missed, as a
//!   club player misses them. The levels that search one line (from
//!   [`ONE_LINE_ELO`]) have a curve of their own, from
//!   [`ONE_LINE_NODES`]: it binds on the longest thoughts of a 5+0.05 game
//!   and on more of them at any slower clock, so such a level does not
//!   grow stronger with the time control, as a level the clock alone
//!   limited did.
//! * **A choice among near-best moves.** The search looks at
//!   [`CANDIDATES`] root lines (MultiPV) and picks at random among those
//!   whose score lies within a margin of the best one, the margin growing
//!   as the level falls ([`margin_cp`]). The moves it plays are moves the
//!   engine itself thinks are nearly as good: plausible, never a blunder
//!   the search saw.
//!
//! The numbers were calibrated by matches against Stockfish 15.1 at the
//! same `UCI_Elo` (docs/strength.md gives the games and scores).

use rand::Rng;
use shakmaty::Move;

/// Lowest `UCI_Elo` offered.
pub const ELO_MIN: i64 = 1350;
/// Highest `UCI_Elo` offered; above it play is at full strength.
pub const ELO_MAX: i64 = 2600;
/// Default `UCI_Elo` (used only with `UCI_LimitStrength`).
pub const ELO_DEFAULT: i64 = 2000;

/// The level whose node budget is [`ANCHOR_NODES`].
pub const ANCHOR_ELO: f64 = 1500.0;
/// Nodes per move at [`ANCHOR_ELO`]: about depth 4. 2,900 nodes suited
/// the networks before king buckets; with them 2,900 scored 65% against
/// Stockfish 15.1 at `UCI_Elo` 1500 and 2,000 62.5% (docs/strength.md),
/// so the margin below took the rest.
pub const ANCHOR_NODES: f64 = 2000.0;
/// Elo per doubling of the node budget. Against Stockfish's scale a
/// doubling is worth less than self-play suggests: 29,000 nodes still
/// scored only 20% against `UCI_Elo` 2000 in the calibration screens, so
/// the budget grows fast (2,000 nodes at 1500, 64,000 at 2000).
pub const ELO_PER_DOUBLING: f64 = 100.0;
/// Never fewer nodes than this: the search must finish a few iterations
/// so that the candidates' scores mean something.
const MIN_NODES: u64 = 64;
/// Root lines searched to choose among.
pub const CANDIDATES: usize = 4;
/// From this level on the move is the search's own (one line): a margin
/// of a few centipawns varies nothing worth the depth that four lines cost
/// (four lines at full time scored 18.8% against `UCI_Elo` 2500 after 32
/// games, far below the one-line engine's strength).
pub const ONE_LINE_ELO: i64 = 2400;
/// Nodes per move at [`ONE_LINE_ELO`], doubling every
/// [`ELO_PER_DOUBLING`] from there: 100,000 at 2500, about 200,000 just
/// under [`ELO_MAX`]. The first curve gave 2500 about three million nodes,
/// more than the clock of 5+0.05 lets the search reach, so 2500 played at
/// full strength there, rose with every gain of the engine (63.5% against
/// Stockfish 15.1 at `UCI_Elo` 2500) and would have been stronger still
/// at a slower clock. A budget binds first where the engine would think
/// longest (at 5+0.05 its moves take 0.07 s at the median, 0.22 s at the
/// 90th percentile), and those moves are worth much. Each network moves
/// the curve: before king buckets 400,000 nodes at 2500 scored 54-61%,
/// 200,000 37%; with them 400,000 scored 75.5%, 200,000 67.5% and
/// 100,000 54.5% (docs/strength.md).
pub const ONE_LINE_NODES: f64 = 50_000.0;

/// Root lines to search at `elo`.
pub fn candidates(elo: i64) -> usize {
    if elo >= ONE_LINE_ELO {
        1
    } else {
        CANDIDATES
    }
}
/// Score margin (centipawns) per 1000 Elo below [`ELO_MAX`]: 77 cp at
/// 1500, 42 cp at 2000 (the one-line levels from 2400 have no choice to
/// make). The margin is a strong lever: at 2,900 nodes, 33 cp scored 77.5%
/// against `UCI_Elo` 1500 and 66 cp 52.5% in the first calibration; with
/// the king-bucket network at 64,000 nodes, 33 cp scored 60.6% against
/// `UCI_Elo` 2000 (52 games) and 42 cp 43.0% (docs/strength.md).
const MARGIN_CP_PER_1000_ELO: i32 = 70;

/// The node budget per move at `elo`; `None` at [`ELO_MAX`], which is
/// full strength (the clock alone limits the search).
pub fn nodes(elo: i64) -> Option<u64> {
    if elo >= ELO_MAX {
        return None;
    }
    let (base_elo, base_nodes) = if elo >= ONE_LINE_ELO {
        (ONE_LINE_ELO as f64, ONE_LINE_NODES)
    } else {
        (ANCHOR_ELO, ANCHOR_NODES)
    };
    let elo = elo.max(ELO_MIN) as f64;
    let budget = base_nodes * 2f64.powf((elo - base_elo) / ELO_PER_DOUBLING);
    Some((budget as u64).max(MIN_NODES))
}

/// How much worse than the best (centipawns) a move may score and still
/// be chosen at `elo`.
pub fn margin_cp(elo: i64) -> i32 {
    let below = (ELO_MAX - elo.clamp(ELO_MIN, ELO_MAX)) as i32;
    below * MARGIN_CP_PER_1000_ELO / 1000
}

/// Pick the move to play among `lines` (root move and its score, best
/// first, all from the same finished iteration): uniformly among those
/// within [`margin_cp`] of the best. A mate score is never given up: the
/// best line is kept when it mates, and a line that gets mated is never
/// chosen over one that does not (their scores differ by far more than
/// any margin).
pub fn choose(lines: &[(Move, i32)], elo: i64, rng: &mut impl Rng) -> Option<Move> {
    let best = lines.iter().map(|&(_, s)| s).max()?;
    let margin = margin_cp(elo);
    let near: Vec<Move> = lines
        .iter()
        .filter(|&&(_, s)| s >= best.saturating_sub(margin))
        .map(|&(m, _)| m)
        .collect();
    near.get(rng.gen_range(0..near.len())).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use shakmaty::{Chess, Position};

    #[test]
    fn budget_grows_with_the_level() {
        // Within each curve (four lines below ONE_LINE_ELO, one from it)
        // the budget grows with the level.
        for range in [ELO_MIN..ONE_LINE_ELO, ONE_LINE_ELO..ELO_MAX] {
            let mut last = 0;
            for elo in range.step_by(25) {
                let n = nodes(elo).expect("limited below the top");
                assert!(n >= last, "{elo}: {n} < {last}");
                last = n;
            }
        }
        assert_eq!(nodes(ONE_LINE_ELO), Some(ONE_LINE_NODES as u64));
        assert_eq!(nodes(ONE_LINE_ELO + 100), Some(2 * ONE_LINE_NODES as u64));
        assert_eq!(nodes(ELO_MAX), None);
        assert_eq!(nodes(ANCHOR_ELO as i64), Some(ANCHOR_NODES as u64));
        assert!(nodes(ELO_MIN).is_some_and(|n| n >= MIN_NODES));
        assert_eq!(margin_cp(ELO_MAX), 0);
        assert_eq!(candidates(ELO_MIN), CANDIDATES);
        assert_eq!(candidates(ONE_LINE_ELO - 1), CANDIDATES);
        assert_eq!(candidates(ONE_LINE_ELO), 1);
        assert!(margin_cp(ELO_MIN) > margin_cp(2000));
    }

    #[test]
    fn chooses_only_near_best_moves() {
        let pos = Chess::default();
        let moves: Vec<Move> = pos.legal_moves().into_iter().take(4).collect();
        let lines = vec![
            (moves[0], 50),
            (moves[1], 45),
            (moves[2], 50 - margin_cp(1500) - 1),
            (moves[3], -29_000),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            seen.insert(choose(&lines, 1500, &mut rng).expect("a move"));
        }
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert!(seen.contains(&moves[0]) && seen.contains(&moves[1]));
        // At the top level only the best is played.
        for _ in 0..50 {
            assert_eq!(choose(&lines, ELO_MAX, &mut rng), Some(moves[0]));
        }
        assert_eq!(choose(&[], 1500, &mut rng), None);
    }
}
