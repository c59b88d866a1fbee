//! The training's positions: labelled lines read into feature lists with
//! their targets, every 50th position (or game) held out for validation,
//! and `--calibrate`'s scale per stage of the game fitted to the results.
//! Why apart: what the training reads is fixed before its first step, and
//! its checksum names the run in a checkpoint.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use chess960::eval::nnue::{bucket, features, KingMap, SCALE};
use chess960::notation::parse_fen;
use rayon::prelude::*;
use shakmaty::{Color, Position};

use super::sigmoid;

/// Positions as feature lists, ready for training.
pub(super) struct Data {
    /// Features seen from the side to move, then from the other side, per
    /// position: `feats[offsets[i]..offsets[i + 1]]` pairs.
    feats: Vec<(u16, u16)>,
    offsets: Vec<u32>,
    /// Labels for the side to move, squashed to a win expectancy.
    pub(super) targets: Vec<f32>,
    /// Pieces on the board (for the output bucket).
    pub(super) pieces: Vec<u8>,
    /// What the output is added to before the squash: the hand-made
    /// evaluation in units of SCALE for a residual network, else 0.
    pub(super) bases: Vec<f32>,
}

impl Data {
    /// A set of no positions, ready to be filled by [`load`].
    fn empty() -> Data {
        Data {
            feats: Vec::new(),
            offsets: vec![0],
            targets: Vec::new(),
            pieces: Vec::new(),
            bases: Vec::new(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.targets.len()
    }

    pub(super) fn position(&self, i: usize) -> &[(u16, u16)] {
        &self.feats[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}

/// Bands of piece counts for `--calibrate`: those of 8 output buckets
/// (2-5, 6-9, ..., 30-32 pieces).
const CALIBRATION_BANDS: usize = 8;

/// Positions per chunk of [`result_error`]'s sum.
const ERROR_CHUNK: usize = 4096;

/// Mean squared error of `sigmoid(k * cp / SCALE)` against the results:
/// each chunk of [`ERROR_CHUNK`] positions summed in order on rayon's
/// threads, then the chunks' sums in order. Why not rayon's `sum`: it adds
/// in an order that depends on the number of threads and on work
/// stealing, so the last bits of the error, and with them a step of the
/// golden-section search in [`fit_scale`] and the labels of
/// `--calibrate`, could change from one run to the next.
fn result_error(k: f32, cps: &[f32], results: &[f32]) -> f64 {
    let sums: Vec<f64> = cps
        .par_chunks(ERROR_CHUNK)
        .zip(results.par_chunks(ERROR_CHUNK))
        .map(|(cps, results)| {
            cps.iter()
                .zip(results)
                .map(|(cp, r)| f64::from((sigmoid(k * cp / SCALE) - r).powi(2)))
                .sum::<f64>()
        })
        .collect();
    sums.iter().sum::<f64>() / cps.len().max(1) as f64
}

/// The k of [`result_error`]'s minimum within 0.05..=5, by golden-section
/// search (the error of a logistic fit falls, then rises, in k).
fn fit_scale(cps: &[f32], results: &[f32]) -> f32 {
    let g = (5f32.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.05f32, 5.0f32);
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if result_error(a, cps, results) <= result_error(b, cps, results) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Label factors of `--calibrate`, one per band of piece counts: the
/// band's fitted scale over that of all positions (1 for a band with
/// fewer than [`MIN_BAND`] positions, too few to fit). Scores and results
/// are for the side to move.
fn calibration(cps: &[f32], results: &[f32], pieces: &[u8]) -> [f32; CALIBRATION_BANDS] {
    let all = fit_scale(cps, results);
    let mut factors = [1.0; CALIBRATION_BANDS];
    for (band, factor) in factors.iter_mut().enumerate() {
        let (c, r): (Vec<f32>, Vec<f32>) = (0..cps.len())
            .filter(|&i| bucket(usize::from(pieces[i]), CALIBRATION_BANDS) == band)
            .map(|i| (cps[i], results[i]))
            .unzip();
        if c.len() >= MIN_BAND {
            *factor = fit_scale(&c, &r) / all;
        }
    }
    factors
}

/// Fewest positions a band of `--calibrate` is fitted from.
const MIN_BAND: usize = 1000;

/// Which lines are held out for validation: every [`HOLD_OUT`]th position,
/// or every [`HOLD_OUT`]th game.
struct Split {
    by_game: bool,
    /// Games begun so far (by game: a line whose game number differs from
    /// the line before begins one).
    games: usize,
    last_game: Option<String>,
}

/// One line (or game) in this many is held out for validation.
const HOLD_OUT: usize = 50;

impl Split {
    fn new(by_game: bool) -> Split {
        Split {
            by_game,
            games: 0,
            last_game: None,
        }
    }

    /// Whether line `i` (counted from 0), `FEN;result;game;...`, is held
    /// out; None where a game is asked for and the line has no third field.
    fn held_out(&mut self, i: usize, line: &str) -> Option<bool> {
        if !self.by_game {
            return Some(i.is_multiple_of(HOLD_OUT));
        }
        let game = line.split(';').nth(2)?.trim();
        if self.last_game.as_deref() != Some(game) {
            self.games += 1;
            self.last_game = Some(game.to_owned());
        }
        Some((self.games - 1).is_multiple_of(HOLD_OUT))
    }
}

/// Reads `path` into a training and a validation set.
pub(super) fn load(
    path: &Path,
    label_scale: f32,
    residual: bool,
    result_weight: f32,
    calibrate: bool,
    hold_out_games: bool,
    kings: &KingMap,
) -> Result<(Data, Data), String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut sets = [Data::empty(), Data::empty()];
    // Scores and results for the side to move, per set, until the targets
    // are made from them (after the calibration, which needs them all).
    let mut scores: [Vec<f32>; 2] = [Vec::new(), Vec::new()];
    let mut results: [Vec<f32>; 2] = [Vec::new(), Vec::new()];
    let with_results = result_weight > 0.0 || calibrate;
    let mut split = Split::new(hold_out_games);
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        // The FEN is the first field, the score the last; the game result
        // (White's view) is the second when a share of it is asked for.
        let (Some((fen, _)), Some((_, cp))) = (line.split_once(';'), line.rsplit_once(';')) else {
            // Blank lines and `#` comments hold no position. Any other
            // line without a `;` is not a labelled one (`label.py` writes
            // none such): refused by its number rather than skipped, so
            // that a file of bare FENs is not read as a file of no
            // positions.
            let text = line.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            return Err(format!(
                "{}:{}: not a labelled position (`FEN;...;cp`): no `;` in {text:?}",
                path.display(),
                i + 1
            ));
        };
        let cp: f32 = cp
            .trim()
            .parse()
            .map_err(|e| format!("{}:{}: bad score: {e}", path.display(), i + 1))?;
        let pos = parse_fen(fen).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        let white = pos.turn() == Color::White;
        let held_out = split.held_out(i, &line).ok_or_else(|| {
            format!(
                "{}:{}: no game number in the third field (--hold-out-games)",
                path.display(),
                i + 1
            )
        })?;
        let which = usize::from(held_out);
        let set = &mut sets[which];
        for (w, b) in features(pos.board(), kings) {
            set.feats.push(if white { (w, b) } else { (b, w) });
        }
        set.offsets
            .push(feature_offset(set.feats.len(), path, i + 1)?);
        set.pieces.push(pos.board().occupied().count() as u8);
        scores[which].push(if white { cp } else { -cp } * label_scale);
        if with_results {
            let result: f32 = line
                .split(';')
                .nth(1)
                .and_then(|r| r.trim().parse().ok())
                .filter(|r| (0.0..=1.0).contains(r))
                .ok_or_else(|| {
                    format!(
                        "{}:{}: no game result in the second field",
                        path.display(),
                        i + 1
                    )
                })?;
            results[which].push(if white { result } else { 1.0 - result });
        }
        set.bases.push(if residual {
            chess960::eval::handmade::evaluate(&pos) as f32 / SCALE
        } else {
            0.0
        });
    }
    let factors = if calibrate {
        let f = calibration(&scores[0], &results[0], &sets[0].pieces);
        eprintln!("nnue: label factors by piece count (2-5, 6-9, ..., 30-32): {f:.3?}");
        f
    } else {
        [1.0; CALIBRATION_BANDS]
    };
    for (which, set) in sets.iter_mut().enumerate() {
        set.targets = (0..set.pieces.len())
            .map(|i| {
                let band = bucket(usize::from(set.pieces[i]), CALIBRATION_BANDS);
                let target = sigmoid(scores[which][i] * factors[band] / SCALE);
                if result_weight > 0.0 {
                    (1.0 - result_weight) * target + result_weight * results[which][i]
                } else {
                    target
                }
            })
            .collect();
    }
    let [train, valid] = sets;
    if train.len() + valid.len() == 0 {
        return Err(format!(
            "{}: no labelled positions (`FEN;...;cp` lines)",
            path.display()
        ));
    }
    Ok((train, valid))
}

/// Where a position's features end in its set's list, as the `u32` of
/// [`Data::offsets`] (half the memory of a `usize` per position), or an
/// error naming the line past which a set holds more than `u32::MAX`
/// features (some 150 million positions) rather than wrapping around.
fn feature_offset(len: usize, path: &Path, line: usize) -> Result<u32, String> {
    u32::try_from(len).map_err(|_| {
        format!(
            "{}:{line}: more than {} features in one set, more than the training holds",
            path.display(),
            u32::MAX
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess960::eval::nnue::PLAIN_KINGS;
    use rand::{Rng, SeedableRng};
    use std::collections::HashSet;

    /// With `--hold-out-games` every line of a game lands in one set, and
    /// every 50th game is held out; without it, every 50th line. A line
    /// with no game number is refused only where games are asked for.
    #[test]
    fn games_are_held_out_whole() {
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        // 120 games of 1 to 4 positions; numbers restart at 0 after game
        // 59, as they do where two chunks' files are joined.
        let mut lines = Vec::new();
        for g in 0..120 {
            for _ in 0..(g % 4 + 1) {
                lines.push((g, format!("{fen};1;{};10", g % 60)));
            }
        }
        let mut split = Split::new(true);
        let mut held: Vec<(usize, bool)> = Vec::new();
        for (i, (g, line)) in lines.iter().enumerate() {
            held.push((*g, split.held_out(i, line).expect("a game number")));
        }
        for g in 0..120 {
            let sets: HashSet<bool> = held.iter().filter(|h| h.0 == g).map(|h| h.1).collect();
            assert_eq!(sets, HashSet::from([g % 50 == 0]), "game {g}");
        }
        let mut split = Split::new(false);
        for (i, (_, line)) in lines.iter().enumerate() {
            assert_eq!(split.held_out(i, line), Some(i % 50 == 0), "line {i}");
        }
        assert_eq!(Split::new(true).held_out(0, &format!("{fen};1")), None);
        assert_eq!(
            Split::new(false).held_out(0, &format!("{fen};1")),
            Some(true)
        );
    }

    /// `--calibrate` finds the scale each band's results were drawn with:
    /// results made from `sigmoid(k * cp / 400)` with a k twice as large
    /// in endings give factors of about 2 to 1 between the bands.
    #[test]
    fn calibration_recovers_each_band_scale() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (mut cps, mut results, mut pieces) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..40_000 {
            let n: u8 = if i % 2 == 0 { 4 } else { 30 };
            let k = if n == 4 { 0.8 } else { 1.6 };
            let cp: f32 = rng.gen_range(-600.0..600.0);
            let p = sigmoid(k * cp / SCALE);
            cps.push(cp);
            results.push(if rng.gen::<f32>() < p { 1.0 } else { 0.0 });
            pieces.push(n);
        }
        let f = calibration(&cps, &results, &pieces);
        let (end, open) = (
            f[bucket(4, CALIBRATION_BANDS)],
            f[bucket(30, CALIBRATION_BANDS)],
        );
        assert!((open / end - 2.0).abs() < 0.25, "{f:?}");
        assert!(end < 1.0 && open > 1.0, "{f:?}");
        // Bands with no positions keep their labels.
        assert_eq!(f[3], 1.0);
    }

    /// `--calibrate`'s error sums are the same to the last bit on any
    /// number of threads: chunks summed in order, then their sums in
    /// order (rayon's `sum` adds in an order of its own).
    #[test]
    fn the_result_error_is_the_same_on_any_number_of_threads() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let n = 10 * ERROR_CHUNK + 123;
        let cps: Vec<f32> = (0..n).map(|_| rng.gen_range(-900.0..900.0)).collect();
        let results: Vec<f32> = (0..n).map(|i| [0.0, 0.5, 1.0][i % 3]).collect();
        let mut in_order = 0.0f64;
        for (c, r) in cps.chunks(ERROR_CHUNK).zip(results.chunks(ERROR_CHUNK)) {
            let mut chunk = 0.0f64;
            for (cp, r) in c.iter().zip(r) {
                chunk += f64::from((sigmoid(1.3 * cp / SCALE) - r).powi(2));
            }
            in_order += chunk;
        }
        let expected = in_order / n as f64;
        for threads in [1, 2, 3, 8] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a thread pool");
            let got = pool.install(|| result_error(1.3, &cps, &results));
            assert_eq!(got.to_bits(), expected.to_bits(), "{threads} threads");
        }
    }

    /// A line that is not a labelled position is refused by file and line
    /// number; blank and `#` lines are skipped; an empty file is named as
    /// one, not taken for "fewer positions than one batch".
    #[test]
    fn lines_without_a_score_are_refused_by_number() {
        let dir = std::env::temp_dir().join(format!("c960-tune-lines-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        let read = |name: &str, text: String| {
            let path = dir.join(name);
            std::fs::write(&path, text).expect("data");
            load(&path, 1.0, false, 0.0, false, false, &PLAIN_KINGS)
                .map(|(train, valid)| train.len() + valid.len())
        };
        let positions = read("good.txt", format!("# scores\n{fen};10\n\n{fen};1;3;-20\n"))
            .expect("a valid file");
        assert_eq!(positions, 2);
        let err = read("bare.txt", format!("{fen};10\n{fen}\n")).expect_err("refused");
        assert!(err.contains("bare.txt:2: not a labelled position"), "{err}");
        let err = read("empty.txt", "\n".to_owned()).expect_err("refused");
        assert!(err.contains("empty.txt: no labelled positions"), "{err}");
        let err =
            feature_offset(u32::MAX as usize + 1, &dir.join("big.txt"), 7).expect_err("wraps");
        assert!(
            err.contains("big.txt:7: more than 4294967295 features"),
            "{err}"
        );
        assert_eq!(feature_offset(12, &dir, 1), Ok(12));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
