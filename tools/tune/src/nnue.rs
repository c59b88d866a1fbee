//! `tune nnue`: trains the evaluation network of `chess960::eval::nnue` on
//! labelled positions.
//!
//! Input lines are `FEN;...;cp` with cp a score in centipawns from White's
//! point of view (`tools/tune/label.py --static` writes them). The network predicts
//! the score for the side to move; the loss is the squared difference of
//! the two scores after a logistic squash, `sigmoid(cp / 400)`, so that a
//! disagreement about a won position costs less than one about a balanced
//! one. Adam, mini-batches, a seeded shuffle, and gradients summed over
//! fixed chunks in a fixed order: a run is reproducible for a given data
//! file, seed and thread count's chunking (the chunking does not depend on
//! the number of threads). Every 50th position is held out for validation,
//! or with `--hold-out-games` every 50th game.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::time::Instant;

use chess960::eval::nnue::{
    bucket, features, king_buckets, king_layout, king_layout_name, out_inputs, KingMap, NetFile,
    CLIP, HIDDEN, INPUTS, KING_LAYOUTS, LANES, MAX_BUCKETS, MAX_LAYER2, PLAIN_KINGS, QA, SCALE,
};
use chess960::notation::parse_fen;
use clap::Args;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use shakmaty::{Color, Position};

mod checkpoint;
mod simd;
use checkpoint::Checkpoint;

/// Options of `tune nnue`.
#[derive(Debug, Args)]
pub struct NnueArgs {
    /// Labelled positions, `FEN;...;cp` (cp from White's side, last field).
    data: PathBuf,
    /// Where to write the network (the format `src/eval/net.bin` has).
    /// Required unless `--epochs 0`, which only scores the held-out
    /// positions (of `--init`'s network, say) and writes nothing without it.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per gradient step, at least 1 (a batch of none would be
    /// no step at all).
    #[arg(long, default_value_t = 16384,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    batch: usize,
    /// Adam's step size at the start; it falls tenfold, step by step,
    /// over the last half of the epochs. A positive number: 0 learns
    /// nothing, a negative one climbs the loss, NaN or infinity wrecks
    /// the weights.
    #[arg(long, default_value_t = 0.001, value_parser = positive)]
    lr: f32,
    /// Multiply every label by this factor (to put the teacher's scores
    /// on the search's centipawn scale). A positive number: 0 makes every
    /// target a draw, a negative one swaps wins and losses.
    #[arg(long, default_value_t = 1.0, value_parser = positive)]
    label_scale: f32,
    /// Train a correction to the hand-made evaluation (compiled into this
    /// tuner) instead of a whole evaluation.
    #[arg(long)]
    residual: bool,
    /// Share of the game result in each target: the target is
    /// `(1 - W) * sigmoid(cp / 400) + W * result` (result 1, 0.5, 0 for the
    /// side to move, read from the second field, `FEN;result;...;cp`).
    /// 0 (the default) trains on the scores alone.
    #[arg(long, default_value_t = 0.0, value_parser = unit_interval)]
    result_weight: f32,
    /// Put the labels of every stage of the game on one scale, fitted to
    /// the game results (second field): for each band of piece counts
    /// ([`CALIBRATION_BANDS`] of them, cut as 8 output buckets are), the
    /// factor k for which `sigmoid(k * cp / 400)` best predicts the results
    /// of the training positions in the band, and each label is multiplied
    /// by its band's k over the k of all positions. Why: a search teaching
    /// its own successor passes on its scale, and the own-data lineage's
    /// scores came to promise in endings twice the winning chances they
    /// promise in the middlegame; the results say what a score is worth.
    /// One number per band is fitted, so no position's own result is
    /// learnt.
    #[arg(long)]
    calibrate: bool,
    /// Hold out every 50th game for validation (a run of lines with the
    /// same game number, the third field) instead of every 50th position.
    /// Why: the positions of one game share much (its opening, its pawns)
    /// and all its result, so a network can learn games by heart. With
    /// held-out positions the validation loss cannot show that; with
    /// held-out games no validation position comes from a game trained on.
    #[arg(long)]
    hold_out_games: bool,
    /// Seed of the initial weights and of the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this network (a `net.bin` of the same shape) instead of
    /// random weights: fine-tuning a trained network on new labels, with a
    /// smaller `--lr`, keeps what it learnt from data no longer at hand.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Hidden neurons per accumulator, a positive multiple of 8 (default:
    /// the width of the network this tuner was built with, or that of
    /// `--init`). An engine plays a network of another width once built
    /// with it as `src/eval/net.bin`.
    #[arg(long, value_parser = width)]
    hidden: Option<usize>,
    /// Output buckets: copies of the output layer, one chosen by the
    /// number of pieces on the board (`chess960::eval::nnue::bucket`), 1
    /// to 16 (default: 1, or that of `--init`). A network of one bucket
    /// given to `--init` with more buckets starts every bucket from its
    /// output layer, so training starts from the same evaluation. An
    /// engine plays a bucketed network once built with it as
    /// `src/eval/net.bin`.
    #[arg(long, value_parser = bucket_count)]
    buckets: Option<usize>,
    /// Neurons of a second hidden layer between the first layer and the
    /// output, 1 to 256 (default: none, or that of `--init`). Each takes
    /// all of the first layer's activations, so the output can weigh
    /// combinations of them; each costs the engine `2 * hidden`
    /// multiplications per evaluation. An engine plays such a network
    /// once built with it as `src/eval/net.bin`.
    #[arg(long, value_parser = layer2_width)]
    layer2: Option<usize>,
    /// King layout: which copy of the first layer each side reads the
    /// board through, and whether mirrored left to right, by where its own
    /// king stands (`chess960::eval::nnue::KingMap`): `plain` (one copy,
    /// never mirrored), `mirror`, `halves` or `k4` (default: plain, or
    /// that of `--init`). A plain network given to `--init` with another
    /// layout starts every copy from its first layer. An engine plays
    /// such a network once built with it as `src/eval/net.bin`.
    #[arg(long, value_parser = king_map)]
    kings: Option<KingMap>,
    /// Keep the training's state (weights, Adam's moments, epochs done)
    /// in this file after every epoch, and go on from it when it is
    /// there: a training longer than one sitting runs in pieces, and the
    /// pieces make the network one uninterrupted run makes, bit for bit.
    /// The file names the run it belongs to (options, shape, data,
    /// starting weights); a run with anything else refuses it.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Stop once this many epochs are done (counted from the first epoch
    /// of the training, not of this piece), leaving the checkpoint for the
    /// next piece; the network is written only when all `--epochs` are.
    #[arg(long, requires = "checkpoint", value_parser = clap::value_parser!(u64).range(1..))]
    pause_after: Option<u64>,
}

/// A king layout by name (`--kings`).
fn king_map(text: &str) -> Result<KingMap, String> {
    king_layout(text).ok_or_else(|| {
        let names: Vec<String> = KING_LAYOUTS
            .iter()
            .map(|(name, what)| format!("{name} ({what})"))
            .collect();
        format!("no king layout {text:?}; the layouts: {}", names.join("; "))
    })
}

/// The name of a king map, for messages.
fn kings_name(kings: &KingMap) -> &'static str {
    king_layout_name(kings).unwrap_or("unnamed")
}

/// A king map as one word, for a checkpoint's run description: its
/// layout's name, or (a map read from a file that is none of them) its 64
/// entries joined by commas. Why one word: the description is `name value`
/// pairs split at spaces, so that a difference can be named.
fn kings_word(kings: &KingMap) -> String {
    king_layout_name(kings).map_or_else(
        || {
            kings
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(",")
        },
        str::to_owned,
    )
}

/// A run description written before [`kings_word`] (the king map as
/// `kings [0, 0, 1, ...]`, its `Debug` form, spaces and all) in today's
/// form; any other description unchanged. Why: a training in pieces begun
/// by an older tuner goes on under this one.
fn upgrade_description(run: &str) -> String {
    let Some((head, list)) = run.split_once(" kings [") else {
        return run.to_owned();
    };
    let map = list
        .strip_suffix(']')
        .and_then(|list| {
            list.split(", ")
                .map(|v| v.parse::<u8>().ok())
                .collect::<Option<Vec<u8>>>()
        })
        .and_then(|v| KingMap::try_from(v).ok());
    match map {
        Some(map) => format!("{head} kings {}", kings_word(&map)),
        None => run.to_owned(),
    }
}

/// A finite number above 0 (`--lr`, `--label-scale`).
fn positive(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("'{text}' is not a positive number")),
    }
}

/// Positions as feature lists, ready for training.
struct Data {
    /// Features seen from the side to move, then from the other side, per
    /// position: `feats[offsets[i]..offsets[i + 1]]` pairs.
    feats: Vec<(u16, u16)>,
    offsets: Vec<u32>,
    /// Labels for the side to move, squashed to a win expectancy.
    targets: Vec<f32>,
    /// Pieces on the board (for the output bucket).
    pieces: Vec<u8>,
    /// What the output is added to before the squash: the hand-made
    /// evaluation in units of SCALE for a residual network, else 0.
    bases: Vec<f32>,
}

impl Data {
    fn len(&self) -> usize {
        self.targets.len()
    }

    fn position(&self, i: usize) -> &[(u16, u16)] {
        &self.feats[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}

/// A hidden size: a positive multiple of [`LANES`] (what the engine's
/// loops take), at most 4096.
fn width(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(h) if h > 0 && h.is_multiple_of(LANES) && h <= 4096 => Ok(h),
        _ => Err(format!(
            "'{text}' is not a hidden size (a multiple of {LANES} from {LANES} to 4096)"
        )),
    }
}

/// A number of output buckets, 1..=[`MAX_BUCKETS`].
fn bucket_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(b) if (1..=MAX_BUCKETS).contains(&b) => Ok(b),
        _ => Err(format!(
            "'{text}' is not a number of output buckets (1 to {MAX_BUCKETS})"
        )),
    }
}

/// A second hidden layer's width, 1..=[`MAX_LAYER2`].
fn layer2_width(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=MAX_LAYER2).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' is not a width of the second hidden layer (1 to {MAX_LAYER2})"
        )),
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

/// A number in 0..=1.
fn unit_interval(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(w) if (0.0..=1.0).contains(&w) => Ok(w),
        _ => Err(format!("'{text}' is not a number from 0 to 1")),
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

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
fn load(
    path: &Path,
    label_scale: f32,
    residual: bool,
    result_weight: f32,
    calibrate: bool,
    hold_out_games: bool,
    kings: &KingMap,
) -> Result<(Data, Data), String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut sets = [
        Data {
            feats: Vec::new(),
            offsets: vec![0],
            targets: Vec::new(),
            pieces: Vec::new(),
            bases: Vec::new(),
        },
        Data {
            feats: Vec::new(),
            offsets: vec![0],
            targets: Vec::new(),
            pieces: Vec::new(),
            bases: Vec::new(),
        },
    ];
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

/// Where a second hidden layer's neurons start: the middle of the
/// squared clipped ReLU's range. Why: at random weights the first layer's
/// activations are small, so a neuron with a bias of 0 starts near 0,
/// where its slope (2y) is near 0 and little is learnt through it. From
/// the middle, on 1M positions (64 neurons, 16 in the second layer, 4
/// epochs), the validation loss fell to 0.004804 against 0.004943 from 0
/// (0.004957 without a second layer).
const LAYER2_START_BIAS: f32 = 0.5;

/// Float weights (and, with the same shape, gradients and Adam moments).
#[derive(Clone)]
struct Params {
    ft_w: Vec<f32>,
    ft_b: Vec<f32>,
    /// Second-layer rows, bucket after bucket, neuron after neuron
    /// (`2 * hidden` each); empty without that layer.
    l2_w: Vec<f32>,
    /// Second-layer biases, bucket after bucket.
    l2_b: Vec<f32>,
    /// Output weights, bucket after bucket (`2 * hidden` each, or one per
    /// second-layer neuron).
    out_w: Vec<f32>,
    /// Output bias per bucket.
    out_b: Vec<f32>,
}

impl Params {
    fn zeros(hidden: usize, buckets: usize, layer2: usize, kings: usize) -> Params {
        Params {
            ft_w: vec![0.0; INPUTS * kings * hidden],
            ft_b: vec![0.0; hidden],
            l2_w: vec![0.0; buckets * layer2 * 2 * hidden],
            l2_b: vec![0.0; buckets * layer2],
            out_w: vec![0.0; buckets * out_inputs(hidden, layer2)],
            out_b: vec![0.0; buckets],
        }
    }

    /// Zeros of this network's shape (for gradients and moments).
    fn zeros_like(&self) -> Params {
        Params::zeros(
            self.hidden(),
            self.buckets(),
            self.layer2(),
            self.king_buckets(),
        )
    }

    /// Copies of the first layer, one per king bucket.
    fn king_buckets(&self) -> usize {
        self.ft_w.len() / (INPUTS * self.hidden())
    }

    /// The same network with its one first layer copied to each of
    /// `kings`'s buckets: training starts from its evaluation (the same
    /// one where `kings` does not mirror; where it does, a position with
    /// the king on files e-h is read as its mirror image, which a plain
    /// network scores nearly alike).
    fn spread_kings(self, kings: &KingMap) -> Params {
        debug_assert_eq!(self.king_buckets(), 1);
        Params {
            ft_w: self.ft_w.repeat(king_buckets(kings)),
            ..self
        }
    }

    /// Neurons of the second hidden layer (0: none).
    fn layer2(&self) -> usize {
        self.l2_b.len() / self.buckets()
    }

    /// The parameter groups in a fixed order: what every element-wise
    /// pass (sums of gradients, Adam) walks, zipped with the same groups
    /// of a network of the same shape.
    fn groups_mut(&mut self) -> [&mut Vec<f32>; 6] {
        [
            &mut self.ft_w,
            &mut self.ft_b,
            &mut self.l2_w,
            &mut self.l2_b,
            &mut self.out_w,
            &mut self.out_b,
        ]
    }

    fn groups(&self) -> [&Vec<f32>; 6] {
        [
            &self.ft_w,
            &self.ft_b,
            &self.l2_w,
            &self.l2_b,
            &self.out_w,
            &self.out_b,
        ]
    }

    /// Hidden neurons per accumulator (one first-layer bias each).
    fn hidden(&self) -> usize {
        self.ft_b.len()
    }

    /// Output buckets (one output bias each).
    fn buckets(&self) -> usize {
        self.out_b.len()
    }

    /// The same network with its one output layer copied to each of
    /// `buckets` buckets: the same evaluation, ready to learn one per
    /// stage of the game.
    fn spread(self, buckets: usize) -> Params {
        debug_assert_eq!(self.buckets(), 1);
        Params {
            l2_w: self.l2_w.repeat(buckets),
            l2_b: self.l2_b.repeat(buckets),
            out_w: self.out_w.repeat(buckets),
            out_b: self.out_b.repeat(buckets),
            ..self
        }
    }

    /// The weights of a trained network, back in training units (the
    /// inverse of [`quantise`]).
    fn from_file(net: &NetFile) -> Params {
        let unq = |w: &i16| f32::from(*w) / f32::from(QA);
        Params {
            ft_w: net.ft_weights.iter().map(unq).collect(),
            ft_b: net.ft_bias.iter().map(unq).collect(),
            l2_w: net.l2_weights.clone(),
            l2_b: net.l2_bias.clone(),
            out_w: net.out_weights.clone(),
            out_b: net.out_bias.clone(),
        }
    }

    /// Random weights. The first layer and the first bucket's output
    /// layer are drawn as they were before buckets existed, so a
    /// one-bucket network of a given seed is the network it always was;
    /// further buckets draw their own after them, and a second layer's
    /// weights come last. A second layer's biases start at
    /// [`LAYER2_START_BIAS`].
    fn random(hidden: usize, buckets: usize, layer2: usize, kings: usize, seed: u64) -> Params {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut p = Params::zeros(hidden, buckets, layer2, kings);
        for w in p.ft_w.iter_mut().chain(&mut p.out_w).chain(&mut p.l2_w) {
            *w = rng.gen_range(-0.1..0.1);
        }
        p.l2_b.fill(LAYER2_START_BIAS);
        p
    }

    /// Scratch space for [`Params::forward`] and [`Params::backward`]:
    /// the two accumulators, then their gradients; with a second layer,
    /// then the first layer's activations and the second layer's sums.
    fn scratch(&self) -> Vec<f32> {
        let h = self.hidden();
        match self.layer2() {
            0 => vec![0.0; 4 * h],
            l2 => vec![0.0; 6 * h + l2],
        }
    }

    /// The network output for one position (before the squash) through
    /// output bucket `bucket`, with the two accumulators left in the first
    /// half of `acc` (from [`Params::scratch`]). Inlined into its callers
    /// so that the copies [`simd::wide_fn`] makes compile it wide.
    #[inline(always)]
    fn forward(&self, feats: &[(u16, u16)], bucket: usize, acc: &mut [f32]) -> f32 {
        let h = self.hidden();
        let (us, them) = acc[..2 * h].split_at_mut(h);
        us.copy_from_slice(&self.ft_b);
        them.copy_from_slice(&self.ft_b);
        for &(u, t) in feats {
            let (u, t) = (usize::from(u) * h, usize::from(t) * h);
            for (a, w) in us.iter_mut().zip(&self.ft_w[u..u + h]) {
                *a += w;
            }
            for (a, w) in them.iter_mut().zip(&self.ft_w[t..t + h]) {
                *a += w;
            }
        }
        let mut out = self.out_b[bucket];
        let l2 = self.layer2();
        if l2 == 0 {
            for (a, w) in acc[..2 * h].iter().zip(&self.out_w[bucket * 2 * h..]) {
                let x = a.clamp(0.0, 1.0);
                out += x * x * w;
            }
            return out;
        }
        let (front, rest) = acc.split_at_mut(4 * h);
        let (x, sums) = rest.split_at_mut(2 * h);
        for (x, a) in x.iter_mut().zip(&front[..2 * h]) {
            let c = a.clamp(0.0, 1.0);
            *x = c * c;
        }
        for (n, sum) in sums.iter_mut().enumerate() {
            let k = bucket * l2 + n;
            let row = &self.l2_w[k * 2 * h..(k + 1) * 2 * h];
            *sum = self.l2_b[k] + x.iter().zip(row).map(|(x, w)| x * w).sum::<f32>();
            let y = sum.clamp(0.0, 1.0);
            out += y * y * self.out_w[k];
        }
        out
    }

    /// Adds the gradient of one position's loss to `grad`; returns the loss.
    /// Inlined into its callers so that the copies [`simd::wide_fn`] makes compile it wide.
    #[inline(always)]
    fn backward(
        &self,
        feats: &[(u16, u16)],
        bucket: usize,
        base: f32,
        target: f32,
        acc: &mut [f32],
        grad: &mut Params,
    ) -> f32 {
        let h = self.hidden();
        let out = self.forward(feats, bucket, acc) + base;
        let pred = sigmoid(out);
        let err = pred - target;
        // d loss / d out, with the output already in units of SCALE cp.
        let g = 2.0 * err * pred * (1.0 - pred);
        grad.out_b[bucket] += g;
        let l2 = self.layer2();
        let (front, rest) = acc.split_at_mut(4 * h);
        let (acc, dacc) = front.split_at_mut(2 * h);
        if l2 == 0 {
            let out_w = &self.out_w[bucket * 2 * h..(bucket + 1) * 2 * h];
            let out_g = &mut grad.out_w[bucket * 2 * h..(bucket + 1) * 2 * h];
            for i in 0..2 * h {
                let a = acc[i];
                let x = a.clamp(0.0, 1.0);
                out_g[i] += g * x * x;
                dacc[i] = if a > 0.0 && a < 1.0 {
                    g * out_w[i] * 2.0 * x
                } else {
                    0.0
                };
            }
        } else {
            // Back through the second layer: each neuron inside its
            // clipped range passes its share to its weights, its bias and
            // (summed in `dacc`) the first layer's activations.
            let (x, sums) = rest.split_at(2 * h);
            dacc.fill(0.0);
            for (n, &sum) in sums.iter().enumerate() {
                let k = bucket * l2 + n;
                let y = sum.clamp(0.0, 1.0);
                grad.out_w[k] += g * y * y;
                if sum <= 0.0 || sum >= 1.0 {
                    continue;
                }
                let d = g * self.out_w[k] * 2.0 * y;
                grad.l2_b[k] += d;
                let row = &self.l2_w[k * 2 * h..(k + 1) * 2 * h];
                let row_g = &mut grad.l2_w[k * 2 * h..(k + 1) * 2 * h];
                for i in 0..2 * h {
                    row_g[i] += d * x[i];
                    dacc[i] += d * row[i];
                }
            }
            for (da, a) in dacc.iter_mut().zip(acc.iter()) {
                *da = if *a > 0.0 && *a < 1.0 {
                    *da * 2.0 * a
                } else {
                    0.0
                };
            }
        }
        let (du, dt) = dacc.split_at(h);
        for i in 0..h {
            grad.ft_b[i] += du[i] + dt[i];
        }
        for &(u, t) in feats {
            let (u, t) = (usize::from(u) * h, usize::from(t) * h);
            for (gw, d) in grad.ft_w[u..u + h].iter_mut().zip(du) {
                *gw += d;
            }
            for (gw, d) in grad.ft_w[t..t + h].iter_mut().zip(dt) {
                *gw += d;
            }
        }
        err * err
    }
}

/// Adam over every parameter, then the first layer clipped to what the
/// quantised network can hold.
struct Adam {
    m: Params,
    v: Params,
    t: i32,
}

/// Adam's constants.
const B1: f32 = 0.9;
const B2: f32 = 0.999;
const EPS: f32 = 1e-8;

/// Parameters per task of the optimiser's step. Why in spans, on
/// rayon's threads: the step reads every chunk's gradient and writes
/// every weight and both moments, a few times the network's size in
/// memory per batch, which one thread would do while the others wait
/// (with king buckets, as long as the gradients take). Each parameter's
/// arithmetic is the same whichever thread does it, so the network is too.
const SPAN: usize = 16 * 1024;

impl Adam {
    /// One step from the summed gradients `parts` of a batch of `n`
    /// positions (each parameter's gradient summed in the parts' order,
    /// then averaged).
    fn step(&mut self, p: &mut Params, parts: &[(Params, f64)], n: usize, lr: f32) {
        self.t += 1;
        let c = AdamStep {
            c1: 1.0 - B1.powi(self.t),
            c2: 1.0 - B2.powi(self.t),
            n: n as f32,
            lr,
        };
        let groups = p
            .groups_mut()
            .into_iter()
            .zip(self.m.groups_mut())
            .zip(self.v.groups_mut())
            .enumerate();
        for (k, ((w, m), v)) in groups {
            let grads: Vec<&[f32]> = parts
                .iter()
                .map(|(g, _)| g.groups()[k].as_slice())
                .collect();
            // The first layer's weights and biases (groups 0 and 1).
            let clip = k < 2;
            w.par_chunks_mut(SPAN)
                .zip(m.par_chunks_mut(SPAN))
                .zip(v.par_chunks_mut(SPAN))
                .enumerate()
                .for_each(|(i, ((w, m), v))| step_span(w, m, v, &grads, i * SPAN, c, clip));
        }
    }
}

/// What one Adam step's parameters share.
#[derive(Clone, Copy)]
struct AdamStep {
    /// Bias corrections of the two moments.
    c1: f32,
    c2: f32,
    /// Positions in the batch.
    n: f32,
    lr: f32,
}

simd::wide_fn! {
    /// Adam's step over one span of a parameter group: `w`, `m` and `v`
    /// are its weights and moments from index `at` of the group, `grads`
    /// the chunks' gradients of the whole group.
    fn step_span(
        w: &mut [f32],
        m: &mut [f32],
        v: &mut [f32],
        grads: &[&[f32]],
        at: usize,
        c: AdamStep,
        clip: bool,
    ) {
        let mut g = vec![0f32; w.len()];
        for part in grads {
            for (g, d) in g.iter_mut().zip(&part[at..at + w.len()]) {
                *g += d;
            }
        }
        for i in 0..w.len() {
            let g = g[i] / c.n;
            m[i] = B1 * m[i] + (1.0 - B1) * g;
            v[i] = B2 * v[i] + (1.0 - B2) * g * g;
            w[i] -= c.lr * (m[i] / c.c1) / ((v[i] / c.c2).sqrt() + EPS);
            if clip {
                w[i] = w[i].clamp(-CLIP, CLIP);
            }
        }
    }
}

/// Positions per chunk of the gradient and of the validation loss (one
/// chunk per rayon task, and per check of the processor's vector width).
const CHUNK: usize = 1024;

simd::wide_fn! {
    /// The summed squared error of `p` over positions `range` of `data`.
    fn range_loss(p: &Params, data: &Data, range: std::ops::Range<usize>) -> f64 {
        let mut acc = p.scratch();
        range
            .map(|i| {
                let b = bucket(usize::from(data.pieces[i]), p.buckets());
                let pred = sigmoid(p.forward(data.position(i), b, &mut acc) + data.bases[i]);
                f64::from((pred - data.targets[i]).powi(2))
            })
            .sum()
    }
}

simd::wide_fn! {
    /// The summed gradient and loss of `params` over one chunk of training
    /// positions (indices into `train`).
    fn chunk_gradient(params: &Params, train: &Data, chunk: &[u32]) -> (Params, f64) {
        let buckets = params.buckets();
        let mut grad = params.zeros_like();
        let mut acc = params.scratch();
        let mut l = 0.0f64;
        for &i in chunk {
            let i = i as usize;
            l += f64::from(params.backward(
                train.position(i),
                bucket(usize::from(train.pieces[i]), buckets),
                train.bases[i],
                train.targets[i],
                &mut acc,
                &mut grad,
            ));
        }
        (grad, l)
    }
}

/// Mean loss of `p` over `data`.
fn loss(p: &Params, data: &Data) -> f64 {
    let n = data.len();
    let total: f64 = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| range_loss(p, data, c * CHUNK..(n.min((c + 1) * CHUNK))))
        .sum();
    total / data.len().max(1) as f64
}

fn kind(residual: bool) -> &'static str {
    if residual {
        "residual"
    } else {
        "whole-evaluation"
    }
}

fn quantise(p: &Params, residual: bool, kings: &KingMap) -> Vec<u8> {
    let q = |w: &f32| (w * f32::from(QA)).round() as i16;
    NetFile {
        hidden: p.hidden(),
        residual,
        buckets: p.buckets(),
        layer2: p.layer2(),
        kings: *kings,
        ft_weights: p.ft_w.iter().map(q).collect(),
        ft_bias: p.ft_b.iter().map(q).collect(),
        l2_weights: p.l2_w.clone(),
        l2_bias: p.l2_b.clone(),
        out_weights: p.out_w.clone(),
        out_bias: p.out_b.clone(),
    }
    .to_bytes()
}

/// What makes a training the training it is, for its checkpoint: every
/// option that changes what it computes, the network's shape, the data
/// (sizes and a checksum of targets and bases) and the starting weights
/// (a checksum, which covers `--seed` and `--init`).
fn describe_run(
    args: &NnueArgs,
    start: &Params,
    kings: &KingMap,
    train: &Data,
    valid: &Data,
) -> String {
    let data = checkpoint::fnv_f32(
        [train, valid]
            .into_iter()
            .flat_map(|d| d.targets.iter().chain(&d.bases)),
    );
    let weights = checkpoint::fnv_f32(start.groups().into_iter().flatten());
    let mut fields = vec![
        ("epochs", args.epochs.to_string()),
        ("batch", args.batch.to_string()),
        ("lr", args.lr.to_string()),
        ("hidden", start.hidden().to_string()),
        ("buckets", start.buckets().to_string()),
        ("layer2", start.layer2().to_string()),
        ("residual", args.residual.to_string()),
        ("seed", args.seed.to_string()),
        ("train", train.len().to_string()),
        ("valid", valid.len().to_string()),
        ("data", format!("{data:016x}")),
        ("start", format!("{weights:016x}")),
    ];
    // Only where there are king buckets, so that a checkpoint of a plain
    // network written before they existed is still this run's.
    if *kings != PLAIN_KINGS {
        fields.push(("kings", kings_word(kings)));
    }
    checkpoint::describe(&fields)
}

/// Refuses a command line that cannot end well before any data is read:
/// no `--out` where a network is trained (`--epochs` above 0), or an
/// `--out` that cannot be written (no such directory, a directory itself,
/// no permission). Why at once: the network is written only after the
/// last epoch, hours later.
///
/// # Errors
/// The reason, naming the option or the path.
pub fn check(args: &NnueArgs) -> Result<(), String> {
    match &args.out {
        None if args.epochs > 0 => Err(
            "--out is required to train (only --epochs 0, which scores the held-out positions, \
             goes without it)"
                .to_owned(),
        ),
        None => Ok(()),
        Some(out) => writable(out),
    }
}

/// Whether a file can be written at `path`: an existing file is opened to
/// append (and left as it is), a new one is created and removed again.
fn writable(path: &Path) -> Result<(), String> {
    let shown = path.display();
    if path.is_dir() {
        return Err(format!(
            "{shown}: a directory, not a file to write the network to"
        ));
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(format!(
            "{shown}: no directory {} to write the network in",
            dir.display()
        ));
    }
    let probe = if path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map(drop)
    } else {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .and_then(|file| {
                drop(file);
                std::fs::remove_file(path)
            })
    };
    probe.map_err(|e| format!("{shown}: cannot be written: {e}"))
}

/// Trains and writes the network.
///
/// # Errors
/// A command line [`check`] refuses, unreadable or malformed data, an
/// unwritable output.
pub fn run(args: &NnueArgs) -> Result<(), String> {
    check(args)?;
    let start = Instant::now();
    let init = match &args.init {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let net = NetFile::parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            Some((path, net))
        }
        None => None,
    };
    let kings = match (&init, args.kings) {
        (Some((path, net)), Some(k)) if k != net.kings && net.kings != PLAIN_KINGS => {
            return Err(format!(
                "{}: a network of king layout {} cannot start one of {}",
                path.display(),
                kings_name(&net.kings),
                kings_name(&k)
            ))
        }
        (_, Some(k)) => k,
        (Some((_, net)), None) => net.kings,
        (None, None) => PLAIN_KINGS,
    };
    let (train, valid) = load(
        &args.data,
        args.label_scale,
        args.residual,
        args.result_weight,
        args.calibrate,
        args.hold_out_games,
        &kings,
    )?;
    let mut params = match init {
        Some((path, net)) => {
            if net.residual != args.residual {
                return Err(format!(
                    "{}: a {} network cannot start a {} one",
                    path.display(),
                    kind(net.residual),
                    kind(args.residual)
                ));
            }
            if let Some(h) = args.hidden.filter(|h| *h != net.hidden) {
                return Err(format!(
                    "{}: a network of {} hidden neurons cannot start one of {h}",
                    path.display(),
                    net.hidden
                ));
            }
            if let Some(n) = args.layer2.filter(|n| *n != net.layer2) {
                return Err(format!(
                    "{}: a network with a second hidden layer of {} neurons cannot start one of {n}",
                    path.display(),
                    net.layer2
                ));
            }
            let mut params = Params::from_file(&net);
            if kings != net.kings {
                params = params.spread_kings(&kings);
            }
            match args.buckets {
                Some(b) if b != net.buckets && net.buckets == 1 => params.spread(b),
                Some(b) if b != net.buckets => {
                    return Err(format!(
                        "{}: a network of {} output buckets cannot start one of {b}",
                        path.display(),
                        net.buckets
                    ))
                }
                _ => params,
            }
        }
        None => Params::random(
            args.hidden.unwrap_or(HIDDEN),
            args.buckets.unwrap_or(1),
            args.layer2.unwrap_or(0),
            king_buckets(&kings),
            args.seed,
        ),
    };
    eprintln!(
        "nnue: {} training and {} validation positions{}, hidden {}, buckets {}, second layer {}, \
         kings {}, read in {:.0} s",
        train.len(),
        valid.len(),
        if args.hold_out_games {
            " (held-out games)"
        } else {
            ""
        },
        params.hidden(),
        params.buckets(),
        params.layer2(),
        kings_name(&kings),
        start.elapsed().as_secs_f64()
    );
    // (`--epochs 0` trains no batch: it scores the held-out positions only.)
    if args.epochs > 0 && train.len() < args.batch {
        return Err(format!(
            "{}: {} training positions, fewer than one batch ({})",
            args.data.display(),
            train.len(),
            args.batch
        ));
    }
    let mut adam = Adam {
        m: params.zeros_like(),
        v: params.zeros_like(),
        t: 0,
    };
    let mut run = describe_run(args, &params, &kings, &train, &valid);
    let mut done = 0;
    if let Some(path) = &args.checkpoint {
        if let Some(c) = Checkpoint::load(path, &run, upgrade_description, &params)? {
            // Its own description (an older tuner's form, maybe) goes on
            // being written, so that either tuner can take the next piece.
            (params, adam, done, run) = (c.params, c.adam, c.done, c.run);
            eprintln!(
                "nnue: going on from {} after epoch {done} of {}",
                path.display(),
                args.epochs
            );
        }
    }
    let last = args
        .pause_after
        .map_or(args.epochs, |k| args.epochs.min(k as usize));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed ^ 0x5eed);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    // The order of epoch `done + 1` is the one an uninterrupted run had:
    // each epoch shuffles the previous epoch's order.
    for _ in 0..done.min(last) {
        order.shuffle(&mut rng);
    }
    if done == 0 {
        eprintln!("epoch 0: validation loss {:.6}", loss(&params, &valid));
    }
    for epoch in done + 1..=last {
        order.shuffle(&mut rng);
        // Full rate for the first half, then down tenfold in steps.
        let half = args.epochs / 2;
        let lr = if epoch <= half {
            args.lr
        } else {
            let frac = (epoch - half) as f32 / (args.epochs - half).max(1) as f32;
            args.lr * 0.1f32.powf(frac)
        };
        let mut train_loss = 0.0f64;
        for batch in order.chunks_exact(args.batch) {
            let parts: Vec<(Params, f64)> = batch
                .par_chunks(CHUNK)
                .map(|chunk| chunk_gradient(&params, &train, chunk))
                .collect();
            for (_, l) in &parts {
                train_loss += l;
            }
            adam.step(&mut params, &parts, batch.len(), lr);
        }
        let steps = train.len() / args.batch;
        eprintln!(
            "epoch {epoch}: lr {lr:.6} train loss {:.6} validation loss {:.6} ({:.0} s)",
            train_loss / (steps * args.batch) as f64,
            loss(&params, &valid),
            start.elapsed().as_secs_f64()
        );
        if let Some(path) = &args.checkpoint {
            checkpoint::save(path, &run, epoch, &params, &adam)?;
        }
    }
    if last < args.epochs {
        eprintln!(
            "nnue: paused after epoch {} of {}; the same command without --pause-after (or \
             with a later one) goes on from {}",
            done.max(last),
            args.epochs,
            args.checkpoint
                .as_deref()
                .map_or(String::new(), |p| p.display().to_string())
        );
        return Ok(());
    }
    let bytes = quantise(&params, args.residual, &kings);
    NetFile::parse(&bytes).map_err(|e| e.to_string())?;
    // No `--out` only with `--epochs 0` ([`check`]): a scoring run.
    if let Some(out) = &args.out {
        std::fs::write(out, bytes).map_err(|e| format!("{}: {e}", out.display()))?;
        eprintln!("nnue: wrote {}", out.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess960::eval::nnue::{Network, BUCKETS};
    use std::collections::HashSet;

    fn example(hidden: usize, buckets: usize) -> (Vec<(u16, u16)>, Params) {
        example_layered(hidden, buckets, 0)
    }

    fn example_layered(hidden: usize, buckets: usize, layer2: usize) -> (Vec<(u16, u16)>, Params) {
        example_kings(hidden, buckets, layer2, &PLAIN_KINGS)
    }

    /// The example position and a random network of king map `kings`.
    fn example_kings(
        hidden: usize,
        buckets: usize,
        layer2: usize,
        kings: &KingMap,
    ) -> (Vec<(u16, u16)>, Params) {
        // The white king on f1 and the black one on f8: mirrored under a
        // mirroring layout, in its first rank's c-d bucket under k4.
        let pos = parse_fen("bqnbrkrn/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/BQNBRKRN w GEge - 0 2")
            .expect("test FEN");
        let mut p = Params::random(hidden, buckets, layer2, king_buckets(kings), 3);
        // Second-layer biases that put its neurons around the middle of
        // their range, some inside it and some clipped.
        for (i, b) in p.l2_b.iter_mut().enumerate() {
            *b = 0.25 * (i % 5) as f32 - 0.3;
        }
        // Biases that put some neurons inside the clipped range.
        for (i, b) in p.ft_b.iter_mut().enumerate() {
            *b = 0.05 * (i % 7) as f32;
        }
        (features(pos.board(), kings), p)
    }

    /// A network read back for fine-tuning is the network that was written:
    /// the committed one survives `from_file` then `quantise` byte for byte.
    #[test]
    fn a_network_read_back_is_written_unchanged() {
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../src/eval/net.bin"
        ))
        .expect("the committed network");
        let net = NetFile::parse(&bytes).expect("a valid network");
        let again = quantise(&Params::from_file(&net), net.residual, &net.kings);
        assert!(again == bytes, "the network changed on the way through");
    }

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

    /// A network of another width than this build's is trained and written
    /// at its own width, and read back to the same weights.
    #[test]
    fn other_widths_train_and_round_trip() {
        for hidden in [16, 2 * HIDDEN] {
            let (feats, p) = example(hidden, 1);
            let mut acc = p.scratch();
            let mut grad = p.zeros_like();
            p.backward(&feats, 0, 0.1, 0.7, &mut acc, &mut grad);
            assert!(
                grad.ft_w.iter().any(|g| *g != 0.0),
                "width {hidden}: no gradient"
            );
            let bytes = quantise(&p, true, &PLAIN_KINGS);
            let file = NetFile::parse(&bytes).expect("a valid file");
            assert_eq!(file.hidden, hidden);
            assert_eq!(
                quantise(&Params::from_file(&file), true, &file.kings),
                bytes
            );
        }
    }

    /// The analytic gradient agrees with finite differences of the loss,
    /// for output weights, first-layer biases and a first-layer weight
    /// row of a piece on the board, and with a second hidden layer for
    /// its weights and biases too.
    #[test]
    fn gradient_matches_finite_differences() {
        for (hidden, buckets, layer2, b, kings) in [
            (HIDDEN, 1, 0, 0, "plain"),
            (16, 1, 0, 0, "plain"),
            (16, 3, 0, 2, "plain"),
            (16, 1, 8, 0, "plain"),
            (24, 3, 5, 1, "plain"),
            (16, 1, 0, 0, "k4"),
            (24, 3, 5, 1, "mirror"),
        ] {
            let kings = king_layout(kings).expect("a layout");
            gradient_check(hidden, buckets, layer2, b, &kings);
        }
    }

    fn gradient_check(hidden: usize, buckets: usize, layer2: usize, b: usize, kings: &KingMap) {
        let (feats, p) = example_kings(hidden, buckets, layer2, kings);
        // Only the rows of the kings' own buckets learn from the position.
        let rows = |f: u16| usize::from(f) / INPUTS;
        let own: HashSet<usize> = feats
            .iter()
            .flat_map(|&(u, t)| [rows(u), rows(t)])
            .collect();
        let (base, target) = (0.1, 0.7);
        let mut acc = p.scratch();
        let mut grad = p.zeros_like();
        p.backward(&feats, b, base, target, &mut acc, &mut grad);
        for k in (0..p.king_buckets()).filter(|k| !own.contains(k)) {
            let copy = INPUTS * hidden;
            assert!(grad.ft_w[k * copy..(k + 1) * copy]
                .iter()
                .all(|g| *g == 0.0));
        }
        // Only the position's own bucket learns from it.
        let outs = grad.out_w.len() / buckets;
        let l2s = grad.l2_w.len() / buckets;
        for other in (0..buckets).filter(|o| *o != b) {
            assert_eq!(grad.out_b[other], 0.0, "bucket {other}");
            assert!(grad.out_w[other * outs..(other + 1) * outs]
                .iter()
                .chain(&grad.l2_w[other * l2s..(other + 1) * l2s])
                .all(|g| *g == 0.0));
        }
        let loss_of = |q: &Params| {
            let mut acc = q.scratch();
            f64::from((sigmoid(q.forward(&feats, b, &mut acc) + base) - target).powi(2))
        };
        let o = b * outs;
        let h = 1e-3f32;
        let row = usize::from(feats[3].0) * hidden;
        let mut cases = vec![
            (0, o + 1),
            (0, o + outs - 2),
            (1, 2),
            (1, 11),
            (2, row + 4),
            (2, row + 6),
        ];
        // Every second-layer neuron's bias, and a weight of each from
        // each half of the first layer.
        for n in 0..layer2 {
            let k = b * layer2 + n;
            cases.extend([
                (3, k),
                (4, k * 2 * hidden + 3),
                (4, k * 2 * hidden + hidden + 5),
            ]);
        }
        let mut checked = 0;
        for (which, i) in cases {
            let mut plus = p.clone();
            let mut minus = p.clone();
            let (analytic, wp, wm) = match which {
                0 => (grad.out_w[i], &mut plus.out_w[i], &mut minus.out_w[i]),
                1 => (grad.ft_b[i], &mut plus.ft_b[i], &mut minus.ft_b[i]),
                2 => (grad.ft_w[i], &mut plus.ft_w[i], &mut minus.ft_w[i]),
                3 => (grad.l2_b[i], &mut plus.l2_b[i], &mut minus.l2_b[i]),
                _ => (grad.l2_w[i], &mut plus.l2_w[i], &mut minus.l2_w[i]),
            };
            *wp += h;
            *wm -= h;
            let numeric = (loss_of(&plus) - loss_of(&minus)) / (2.0 * f64::from(h));
            let tol = 1e-4 + 0.05 * numeric.abs();
            assert!(
                (f64::from(analytic) - numeric).abs() <= tol,
                "width {hidden}, bucket {b} of {buckets}, layer2 {layer2}, \
                 parameter {which}/{i}: analytic {analytic}, numeric {numeric}"
            );
            if numeric.abs() > 1e-6 {
                checked += 1;
            }
        }
        assert!(
            checked >= 3 + layer2,
            "width {hidden}, layer2 {layer2}: too few parameters with a gradient to check"
        );
    }

    /// A one-bucket network spread to several buckets is the same
    /// evaluation in every bucket, and a bucketed network is written as a
    /// bucketed file and read back to its weights.
    #[test]
    fn spreading_keeps_the_evaluation_and_buckets_round_trip() {
        let (feats, one) = example(16, 1);
        let mut acc = one.scratch();
        let before = one.forward(&feats, 0, &mut acc);
        let spread = one.spread(5);
        assert_eq!(spread.buckets(), 5);
        for b in 0..5 {
            assert_eq!(spread.forward(&feats, b, &mut acc), before, "bucket {b}");
        }
        let (_, many) = example(16, 4);
        let bytes = quantise(&many, true, &PLAIN_KINGS);
        let file = NetFile::parse(&bytes).expect("a valid bucketed file");
        assert_eq!(file.buckets, 4);
        assert_eq!(
            quantise(&Params::from_file(&file), true, &file.kings),
            bytes
        );
        // The random start of one bucket is the one it always was: the
        // same draws as the first bucket of a wider start.
        let (_, first) = example(16, 1);
        assert_eq!(first.ft_w, many.ft_w);
        assert_eq!(first.out_w[..], many.out_w[..32]);
        // A second layer spreads the same way, and its file is read back
        // to its weights.
        let (feats, one) = example_layered(16, 1, 8);
        let before = one.forward(&feats, 0, &mut one.scratch());
        let spread = one.spread(3);
        assert_eq!(spread.layer2(), 8);
        for b in 0..3 {
            let mut acc = spread.scratch();
            assert_eq!(spread.forward(&feats, b, &mut acc), before, "bucket {b}");
        }
        let bytes = quantise(&spread, true, &PLAIN_KINGS);
        let file = NetFile::parse(&bytes).expect("a valid layered file");
        assert_eq!((file.buckets, file.layer2), (3, 8));
        assert_eq!(
            quantise(&Params::from_file(&file), true, &file.kings),
            bytes
        );
    }

    /// A plain network spread to king buckets without mirroring is the
    /// same evaluation; with mirroring, of the mirror image where the
    /// king stands on files e-h. A network with king buckets is written
    /// with its map and read back to its weights.
    #[test]
    fn king_buckets_spread_and_round_trip() {
        let halves = king_layout("halves").expect("halves");
        let (_, plain) = example(16, 2);
        let pos = parse_fen("bqnbrkrn/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/BQNBRKRN w GEge - 0 2")
            .expect("test FEN");
        let out = |p: &Params, feats: &[(u16, u16)]| p.forward(feats, 1, &mut p.scratch());
        let before = out(&plain, &features(pos.board(), &PLAIN_KINGS));
        let spread = plain.clone().spread_kings(&halves);
        assert_eq!(spread.king_buckets(), 2);
        assert_eq!(out(&spread, &features(pos.board(), &halves)), before);
        let mirror = king_layout("mirror").expect("mirror");
        let mut flipped = pos.board().clone();
        flipped.flip_horizontal();
        let mirrored = plain.clone().spread_kings(&mirror);
        // (The same sums in another order of the pieces.)
        let (a, b) = (
            out(&mirrored, &features(pos.board(), &mirror)),
            out(&plain, &features(&flipped, &PLAIN_KINGS)),
        );
        assert!((a - b).abs() < 1e-6, "{a} {b}");
        assert!(
            (a - before).abs() > 1e-4,
            "the mirror image scores as the board"
        );
        let k4 = king_layout("k4").expect("k4");
        let (_, many) = example_kings(16, 3, 0, &k4);
        let bytes = quantise(&many, false, &k4);
        let file = NetFile::parse(&bytes).expect("a valid king file");
        assert_eq!((file.kings, file.buckets), (k4, 3));
        assert_eq!(
            quantise(&Params::from_file(&file), false, &file.kings),
            bytes
        );
    }

    /// `tune nnue --kings k4 --init PLAIN` trains a king network from a
    /// plain one; a king network does not start one of another layout,
    /// and an unknown layout is refused naming the layouts there are.
    #[test]
    fn a_king_network_trains_from_a_plain_one() {
        let dir = std::env::temp_dir().join(format!("c960-tune-kings-{}", std::process::id()));
        write_starts(&dir);
        let args = |seed, init: Option<&str>, kings: Option<&str>| NnueArgs {
            checkpoint: None,
            epochs: 1,
            init: init.map(|i| dir.join(i)),
            kings: kings.map(|k| king_layout(k).expect("a layout")),
            hidden: None,
            ..piece_args(&dir, seed, None)
        };
        run(&NnueArgs {
            hidden: Some(16),
            ..args(1, None, None)
        })
        .expect("a plain network");
        run(&args(2, Some("net-1.bin"), Some("k4"))).expect("a king network");
        let bytes = std::fs::read(dir.join("net-2.bin")).expect("network");
        let file = NetFile::parse(&bytes).expect("a valid network");
        assert_eq!(file.kings, king_layout("k4").expect("k4"));
        assert_eq!(file.hidden, 16);
        // Its own layout goes on; another is refused by name.
        run(&args(3, Some("net-2.bin"), None)).expect("the same layout");
        let err = run(&args(4, Some("net-2.bin"), Some("halves"))).expect_err("refused");
        assert!(
            err.contains("king layout k4 cannot start one of halves"),
            "{err}"
        );
        let err = king_map("k9").expect_err("no such layout");
        assert!(err.contains("\"k9\"") && err.contains("mirror ("), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
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

    /// Quantising keeps the float network's output: the built network's
    /// evaluation is within a few centipawns of the float forward pass,
    /// with and without a second hidden layer.
    #[test]
    fn quantised_network_matches_float() {
        let k4 = king_layout("k4").expect("k4");
        for (layer2, kings) in [(0, PLAIN_KINGS), (16, PLAIN_KINGS), (0, k4)] {
            let (feats, p) = example_kings(HIDDEN, BUCKETS, layer2, &kings);
            let pos = parse_fen("bqnbrkrn/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/BQNBRKRN w GEge - 0 2")
                .expect("test FEN");
            let pieces = pos.board().occupied().count();
            let mut acc = p.scratch();
            let float_cp = p.forward(&feats, bucket(pieces, BUCKETS), &mut acc) * SCALE;
            let net = Network::from_bytes(&quantise(&p, false, &kings)).expect("valid network");
            let cp = net.evaluate(&net.refresh(pos.board()), pos.turn(), pieces);
            assert!(
                (cp as f32 - float_cp).abs() <= 5.0,
                "layer2 {layer2}: quantised {cp} against float {float_cp}"
            );
            assert!(float_cp.abs() > 5.0, "layer2 {layer2}: a trivial score");
            assert!(!net.residual());
        }
    }

    /// Writes `dir/data.txt`: the 960 starts with made-up scores.
    fn write_starts(dir: &Path) {
        std::fs::create_dir_all(dir).expect("temp dir");
        let lines: String = (0..960)
            .map(|n| {
                let fen = chess960::startpos::shredder_fen(n).expect("0..959");
                format!("{fen};{}\n", i64::from(n % 200) - 100)
            })
            .collect();
        std::fs::write(dir.join("data.txt"), lines).expect("data");
    }

    fn piece_args(dir: &Path, seed: u64, pause_after: Option<u64>) -> NnueArgs {
        NnueArgs {
            data: dir.join("data.txt"),
            out: Some(dir.join(format!("net-{seed}.bin"))),
            epochs: 4,
            batch: 64,
            lr: 0.001,
            label_scale: 1.0,
            residual: false,
            result_weight: 0.0,
            calibrate: false,
            hold_out_games: false,
            seed,
            init: None,
            hidden: Some(16),
            buckets: None,
            layer2: None,
            kings: None,
            checkpoint: Some(dir.join("state.bin")),
            pause_after,
        }
    }

    /// A training run in pieces (paused after epochs 1 and 3, then
    /// finished) writes the network the same training writes in one run,
    /// byte for byte, and no network before its last epoch; a checkpoint
    /// is refused by a run with other options, naming the difference, and
    /// a damaged one is named as such.
    #[test]
    fn a_training_in_pieces_is_the_training_in_one_run() {
        let dir = std::env::temp_dir().join(format!("c960-tune-pieces-{}", std::process::id()));
        write_starts(&dir);
        let whole = NnueArgs {
            checkpoint: None,
            out: Some(dir.join("whole.bin")),
            ..piece_args(&dir, 1, None)
        };
        run(&whole).expect("one run");
        let one_run = std::fs::read(dir.join("whole.bin")).expect("network");

        let _ = std::fs::remove_file(dir.join("state.bin"));
        for pause in [Some(1), Some(3)] {
            run(&piece_args(&dir, 1, pause)).expect("a piece");
            assert!(!dir.join("net-1.bin").exists(), "a network before the end");
        }
        run(&piece_args(&dir, 1, None)).expect("the last piece");
        let pieces = std::fs::read(dir.join("net-1.bin")).expect("network");
        assert!(pieces == one_run, "the pieces trained another network");

        let err = run(&piece_args(&dir, 2, None)).expect_err("refused");
        assert!(
            err.contains("another training (seed: its 1, this run's 2)"),
            "{err}"
        );
        let state = std::fs::read(dir.join("state.bin")).expect("state");
        std::fs::write(dir.join("state.bin"), &state[..state.len() - 3]).expect("cut");
        let err = run(&piece_args(&dir, 1, None)).expect_err("refused");
        assert!(
            err.contains("not a training checkpoint (cut short)"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The training compiled wide (AVX2, where this processor has it) and
    /// the baseline build's training write the same network, byte for
    /// byte, with one hidden layer and with a second layer and output
    /// buckets. (On a processor without AVX2 both runs take the baseline
    /// path.)
    #[test]
    fn the_wide_training_is_the_baseline_training() {
        use std::sync::atomic::Ordering;
        let dir = std::env::temp_dir().join(format!("c960-tune-wide-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        // Start positions and positions a few random moves on, so that
        // the hidden neurons are spread over their clipped range.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let lines: String = (0..960)
            .map(|n| {
                let fen = chess960::startpos::shredder_fen(n).expect("0..959");
                let mut pos = parse_fen(&fen).expect("start position");
                for _ in 0..(n % 13) {
                    let moves = pos.legal_moves();
                    let Some(m) = moves.get(rng.gen_range(0..moves.len().max(1))) else {
                        break;
                    };
                    pos = pos.play(*m).expect("legal");
                }
                let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
                format!("{fen};{}\n", i64::from(n % 200) - 100)
            })
            .collect();
        std::fs::write(dir.join("data.txt"), lines).expect("data");
        for (buckets, layer2) in [(None, None), (Some(4), Some(8))] {
            let mut nets = Vec::new();
            for baseline in [false, true] {
                simd::BASELINE_ONLY.store(baseline, Ordering::SeqCst);
                let args = NnueArgs {
                    checkpoint: None,
                    hidden: Some(32),
                    buckets,
                    layer2,
                    ..piece_args(&dir, 1, None)
                };
                let result = run(&args);
                simd::BASELINE_ONLY.store(false, Ordering::SeqCst);
                result.expect("training");
                nets.push(std::fs::read(dir.join("net-1.bin")).expect("network"));
            }
            assert!(
                nets[0] == nets[1],
                "the wide training wrote another network (buckets {buckets:?}, layer2 {layer2:?})"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
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

    /// A checkpoint of a network of another shape is refused naming the
    /// option that differs (not called damaged for its weights' sizes),
    /// and a king layout is named by one word.
    #[test]
    fn a_checkpoint_of_another_shape_names_the_option() {
        let dir = std::env::temp_dir().join(format!("c960-tune-shape-{}", std::process::id()));
        write_starts(&dir);
        let k4 = king_layout("k4").expect("k4");
        let halves = king_layout("halves").expect("halves");
        run(&piece_args(&dir, 1, Some(1))).expect("a plain piece");
        let err = run(&NnueArgs {
            hidden: Some(32),
            ..piece_args(&dir, 1, Some(2))
        })
        .expect_err("refused");
        assert!(err.contains("(hidden: its 16, this run's 32)"), "{err}");
        let err = run(&NnueArgs {
            kings: Some(k4),
            ..piece_args(&dir, 1, Some(2))
        })
        .expect_err("refused");
        assert!(err.contains("(kings: its (none), this run's k4)"), "{err}");
        let _ = std::fs::remove_file(dir.join("state.bin"));
        run(&NnueArgs {
            kings: Some(k4),
            ..piece_args(&dir, 1, Some(1))
        })
        .expect("a k4 piece");
        let err = run(&NnueArgs {
            kings: Some(halves),
            ..piece_args(&dir, 1, Some(2))
        })
        .expect_err("refused");
        assert!(err.contains("(kings: its k4, this run's halves)"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A description written before king maps were one word (their
    /// `Debug` form) reads as today's, so its training goes on; a plain
    /// network's description and a map of no layout are kept or written
    /// as one word.
    #[test]
    fn older_descriptions_are_upgraded() {
        let k4 = king_layout("k4").expect("k4");
        let head = "epochs 4 batch 64 start 0123456789abcdef";
        assert_eq!(
            upgrade_description(&format!("{head} kings {k4:?}")),
            format!("{head} kings k4")
        );
        assert_eq!(upgrade_description(head), head);
        let mut odd = PLAIN_KINGS;
        odd[5] = 1;
        assert_eq!(king_layout_name(&odd), None);
        let word = kings_word(&odd);
        assert!(
            !word.contains(' ') && word.starts_with("0,0,0,0,0,1,0"),
            "{word}"
        );
        assert_eq!(
            upgrade_description(&format!("{head} kings {odd:?}")),
            format!("{head} kings {word}")
        );
        // Damaged lists are left to differ.
        let cut = format!("{head} kings [0, 1");
        assert_eq!(upgrade_description(&cut), cut);
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

    /// `--out` is needed to train, not to score (`--epochs 0`, which also
    /// scores a file smaller than one batch), and an `--out` that cannot
    /// be written is refused before the data is read.
    #[test]
    fn the_output_is_checked_first() {
        let dir = std::env::temp_dir().join(format!("c960-tune-out-{}", std::process::id()));
        write_starts(&dir);
        let args = |epochs, out: Option<PathBuf>| NnueArgs {
            checkpoint: None,
            epochs,
            out,
            batch: 16384,
            ..piece_args(&dir, 1, None)
        };
        let err = run(&args(1, None)).expect_err("refused");
        assert!(err.contains("--out is required"), "{err}");
        run(&args(0, None)).expect("a scoring run");
        for out in [dir.join("no-such-dir").join("net.bin"), dir.clone()] {
            let err = check(&args(1, Some(out.clone()))).expect_err("refused");
            assert!(err.starts_with(&out.display().to_string()), "{err}");
        }
        let out = dir.join("net.bin");
        check(&args(1, Some(out.clone()))).expect("a file that can be written");
        assert!(!out.exists(), "the check left a file behind");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `--batch`, `--lr` and `--label-scale` are refused while parsing
    /// (exit 2) where they cannot train: a batch of 0, a rate or scale
    /// that is not a finite positive number.
    #[test]
    fn bad_numbers_are_refused_while_parsing() {
        use clap::Parser;
        #[derive(Debug, Parser)]
        struct Cli {
            #[command(flatten)]
            nnue: NnueArgs,
        }
        let parse = |extra: &[&str]| {
            Cli::try_parse_from(["nnue", "data.txt", "--out", "net.bin"].iter().chain(extra))
                .map(|c| c.nnue)
        };
        let ok = parse(&["--batch", "1", "--lr", "1e-4", "--label-scale", "0.5"]).expect("valid");
        assert_eq!((ok.batch, ok.lr, ok.label_scale), (1, 1e-4, 0.5));
        for bad in [
            &["--batch", "0"][..],
            &["--lr", "0"],
            &["--lr", "nan"],
            &["--lr", "inf"],
            &["--lr=-0.001"],
            &["--label-scale", "0"],
            &["--label-scale=-1"],
            &["--label-scale", "NaN"],
        ] {
            let err = parse(bad).expect_err("refused");
            assert_eq!(err.exit_code(), 2, "{bad:?}: {err}");
        }
    }
}
