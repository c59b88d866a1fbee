//! The move picker negamax and quiescence share: moves are scored once,
//! then taken best first, one selection step at a time, so that a cutoff
//! after the first moves never pays for sorting the rest.

use shakmaty::Move;

/// Move the best-scored of `moves[i..]` to position `i` (its score with
/// it) and return it. Ties keep the earlier move, so the order of equal
/// scores is the generator's.
#[inline]
pub fn pick_next(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
    // Over the score slice itself: no bounds check per comparison.
    let tail = &scores[i..moves.len()];
    let mut best = 0;
    let mut best_score = tail[0];
    for (j, &s) in tail.iter().enumerate().skip(1) {
        if s > best_score {
            best = j;
            best_score = s;
        }
    }
    let best = i + best;
    moves.swap(i, best);
    scores.swap(i, best);
    moves[i]
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn picks_best_first_and_keeps_ties_in_order() {
        let pos = Chess::default();
        let mut moves: Vec<Move> = pos.legal_moves().into_iter().take(4).collect();
        let original = moves.clone();
        let mut scores = vec![5, 9, 9, 1];
        let picked: Vec<Move> = (0..4)
            .map(|i| pick_next(&mut moves, &mut scores, i))
            .collect();
        assert_eq!(
            picked,
            vec![original[1], original[2], original[0], original[3]]
        );
        assert_eq!(scores, vec![9, 9, 5, 1]);
    }
}
