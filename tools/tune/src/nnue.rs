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

use std::path::{Path, PathBuf};
use std::time::Instant;

use chess960::eval::nnue::{
    bucket, king_buckets, king_layout, king_layout_name, KingMap, NetFile, HIDDEN, KING_LAYOUTS,
    LANES, MAX_BUCKETS, MAX_LAYER2, PLAIN_KINGS,
};
use clap::Args;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rayon::prelude::*;

mod adam;
mod checkpoint;
mod data;
mod params;
mod simd;
use adam::Adam;
use checkpoint::Checkpoint;
use data::{load, Data};
use params::{quantise, Params};

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
    /// (those of 8 output buckets: 2-5, 6-9, ..., 30-32 pieces), the
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
    use chess960::eval::nnue::{features, Network, BUCKETS, INPUTS, SCALE};
    use chess960::notation::parse_fen;
    use rand::Rng;
    use shakmaty::Position;
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
