//! Texel tuning: fit the sigmoid scale K, then the weights, by minimising
//! the mean squared error between `sigmoid(K * eval)` and the labels.

use std::path::PathBuf;

use chess960::eval::handmade::params::{self, NUM_PARAMS, S};
use chess960::eval::handmade::weights::WEIGHTS;

use crate::data::{load, Sample};

/// Options of `tune fit`.
#[derive(Debug, clap::Args)]
pub struct FitArgs {
    /// Labelled positions (`FEN;result;game;stockfish_cp` lines).
    pub data: PathBuf,
    /// Weight of the Stockfish label in the target (the rest is the game result), 0 to 1.
    #[arg(long, default_value_t = 0.5, value_parser = unit_interval)]
    pub lambda: f64,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 3000)]
    pub epochs: u32,
    /// Adam step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Parameters seen in fewer training positions keep their current value.
    #[arg(long, default_value_t = 200)]
    pub min_count: usize,
    /// Games whose number is divisible by this form the validation set, at
    /// least 2 (1 would hold out every game).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..))]
    pub validation_every: u64,
    /// L2 penalty pulling every weight towards its starting value (per
    /// centipawn squared, added to the MSE); steadies rarely seen entries.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Parameter groups (or prefixes) exempt from the L2 penalty, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "material", value_parser = group_name)]
    pub no_l2: Vec<String>,
    /// Use this K instead of fitting it: a number, or `sf` for the scale K_sf fitted to the
    /// labels, which keeps the weights on the labels' centipawn scale (the refit of the
    /// hand-made base to the campaign's own labels, `--lambda 1 --k sf`).
    #[arg(long, value_parser = parse_k)]
    pub k: Option<KChoice>,
    /// Parameter groups (see `src/eval/handmade/params.rs`) to keep fixed, comma-separated;
    /// a prefix such as `psqt` or `mobility` names all its groups.
    #[arg(long, value_delimiter = ',', value_parser = group_name)]
    pub freeze: Vec<String>,
    /// Write the rounded weights to this Rust file (e.g. src/eval/handmade/weights.rs).
    #[arg(long)]
    pub write: Option<PathBuf>,
}

/// A K given on the command line (`--k`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum KChoice {
    /// This very K.
    Fixed(f64),
    /// The scale fitted to the Stockfish (or other) label column, K_sf.
    Labels,
}

/// `--k`: `sf` or a positive number.
fn parse_k(text: &str) -> Result<KChoice, String> {
    if text == "sf" {
        return Ok(KChoice::Labels);
    }
    match text.parse::<f64>() {
        Ok(k) if k.is_finite() && k > 0.0 => Ok(KChoice::Fixed(k)),
        _ => Err(format!("'{text}' is neither `sf` nor a positive number")),
    }
}

/// `--lambda`: a number from 0 to 1 (NaN is none). Checked while the
/// command line is parsed, so that a wrong one is a usage error (exit 2).
fn unit_interval(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("'{text}' is not a number from 0 to 1")),
    }
}

/// `--freeze` and `--no-l2`: a parameter group's name or a prefix of
/// names (see [`select`]). Checked while the command line is parsed, so
/// that a misspelt one is a usage error (exit 2).
fn group_name(text: &str) -> Result<String, String> {
    select(&[text.to_owned()]).map(|_| text.to_owned())
}

/// Win expectancy for a white-point-of-view score `cp` under scale `k`.
fn sigmoid(k: f64, cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * cp / 400.0))
}

/// Positions flattened for fast repeated scoring: per feature the
/// parameter index and its tapered middlegame/endgame coefficients.
struct Set {
    index: Vec<u16>,
    coef: Vec<(f64, f64)>,
    start: Vec<usize>,
    base: Vec<f64>,
    target: Vec<f64>,
}

impl Set {
    fn new(samples: &[&Sample], targets: &[f64]) -> Set {
        let mut set = Set {
            index: Vec::new(),
            coef: Vec::new(),
            start: vec![0],
            base: Vec::new(),
            target: targets.to_vec(),
        };
        for s in samples {
            let ph = f64::from(s.trace.phase) / 24.0;
            for &(i, n) in &s.trace.features {
                set.index.push(i);
                set.coef
                    .push((f64::from(n) * ph, f64::from(n) * (1.0 - ph)));
            }
            set.start.push(set.index.len());
            let (bm, be) = s.trace.base;
            set.base
                .push(f64::from(bm) * ph + f64::from(be) * (1.0 - ph));
        }
        set
    }

    fn len(&self) -> usize {
        self.base.len()
    }

    /// White-point-of-view evaluation of position `j` (unrounded).
    fn eval(&self, j: usize, w: &[(f64, f64)]) -> f64 {
        let mut e = self.base[j];
        for f in self.start[j]..self.start[j + 1] {
            let (wm, we) = w[usize::from(self.index[f])];
            let (cm, ce) = self.coef[f];
            e += cm * wm + ce * we;
        }
        e
    }

    fn mse(&self, k: f64, w: &[(f64, f64)]) -> f64 {
        let n = self.len();
        (0..n)
            .map(|j| (sigmoid(k, self.eval(j, w)) - self.target[j]).powi(2))
            .sum::<f64>()
            / n as f64
    }

    /// Mean squared error and its gradient with respect to every weight.
    fn gradient(&self, k: f64, w: &[(f64, f64)], grad: &mut [(f64, f64)]) -> f64 {
        grad.fill((0.0, 0.0));
        let n = self.len() as f64;
        let scale = k * std::f64::consts::LN_10 / 400.0;
        let mut total = 0.0;
        for j in 0..self.len() {
            let p = sigmoid(k, self.eval(j, w));
            let err = p - self.target[j];
            total += err * err;
            let g = 2.0 * err * p * (1.0 - p) * scale / n;
            for f in self.start[j]..self.start[j + 1] {
                let (cm, ce) = self.coef[f];
                let slot = &mut grad[usize::from(self.index[f])];
                slot.0 += g * cm;
                slot.1 += g * ce;
            }
        }
        total / n
    }
}

/// The K minimising `error(k)` on [0.05, 10] (golden-section search; the
/// error is unimodal in K).
fn fit_k(error: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 10.0f64);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..80 {
        let a = hi - r * (hi - lo);
        let b = lo + r * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Exact (integer, as the engine computes it) error of `weights` on `samples`.
fn exact_mse(k: f64, samples: &[&Sample], targets: &[f64], weights: &[S]) -> f64 {
    samples
        .iter()
        .zip(targets)
        .map(|(s, &t)| {
            let e = s.trace.evaluate(weights);
            let white = if s.trace.white_to_move { e } else { -e };
            (sigmoid(k, f64::from(white)) - t).powi(2)
        })
        .sum::<f64>()
        / samples.len() as f64
}

/// The parameters of the named groups; a name may also be a prefix
/// (`psqt` = all six tables).
fn select(names: &[String]) -> Result<[bool; NUM_PARAMS], String> {
    let mut chosen = [false; NUM_PARAMS];
    for name in names {
        let mut any = false;
        for g in params::GROUPS {
            if g.name == name || g.name.starts_with(&format!("{name}_")) {
                chosen[g.start..g.start + g.len].fill(true);
                any = true;
            }
        }
        if !any {
            return Err(format!(
                "unknown parameter group `{name}` (the groups are in \
                 src/eval/handmade/params.rs; a prefix such as `psqt` names several)"
            ));
        }
    }
    Ok(chosen)
}

/// Run `tune fit`.
///
/// # Errors
/// Unreadable data, unknown group names, too little data, or a failure to
/// write the weights file. (The command line's parsers refuse a wrong
/// `--lambda`, `--validation-every` or group name first; these checks are
/// for callers that make a [`FitArgs`] themselves.)
pub fn run(args: &FitArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err("--lambda must be within 0..=1".into());
    }
    if args.validation_every < 2 {
        return Err("--validation-every must be at least 2".into());
    }
    let mut frozen = select(&args.freeze)?;
    let exempt = select(&args.no_l2)?;
    let l2: Vec<f64> = exempt
        .iter()
        .map(|&e| if e { 0.0 } else { args.l2 })
        .collect();
    let samples = load(&args.data)?;
    let with_sf: Vec<&Sample> = samples.iter().filter(|s| s.stockfish.is_some()).collect();
    eprintln!(
        "{} positions ({} with a Stockfish score) from {} games",
        samples.len(),
        with_sf.len(),
        {
            let mut g: Vec<u64> = samples.iter().map(|s| s.game).collect();
            g.sort_unstable();
            g.dedup();
            g.len()
        }
    );
    // Stockfish scores become win expectancies on the scale that best
    // predicts the game results of these very games.
    let k_sf = if with_sf.is_empty() {
        1.0
    } else {
        fit_k(|k| {
            with_sf
                .iter()
                .map(|s| (sigmoid(k, s.stockfish.unwrap_or(0.0)) - s.result).powi(2))
                .sum::<f64>()
                / with_sf.len() as f64
        })
    };
    if args.lambda > 0.0 && !with_sf.is_empty() {
        eprintln!("Stockfish score scale K_sf = {k_sf:.4}");
    }
    let target_of = |s: &Sample| match s.stockfish {
        Some(cp) => args.lambda * sigmoid(k_sf, cp) + (1.0 - args.lambda) * s.result,
        None => s.result,
    };
    let (train, valid): (Vec<&Sample>, Vec<&Sample>) = samples
        .iter()
        .partition(|s| s.game % args.validation_every != 0);
    if train.len() < 100 || valid.is_empty() {
        return Err(format!(
            "too little data: {} training and {} validation positions",
            train.len(),
            valid.len()
        ));
    }
    let train_t: Vec<f64> = train.iter().map(|s| target_of(s)).collect();
    let valid_t: Vec<f64> = valid.iter().map(|s| target_of(s)).collect();
    let train_set = Set::new(&train, &train_t);
    let valid_set = Set::new(&valid, &valid_t);

    let w0: Vec<(f64, f64)> = WEIGHTS
        .iter()
        .map(|&(m, e)| (f64::from(m), f64::from(e)))
        .collect();
    let mut w = w0.clone();
    let k = match args.k {
        Some(KChoice::Fixed(k)) => k,
        Some(KChoice::Labels) if with_sf.is_empty() => {
            return Err("--k sf needs labelled positions (a fourth column)".to_owned());
        }
        Some(KChoice::Labels) => k_sf,
        None => fit_k(|k| train_set.mse(k, &w)),
    };
    let before = (
        exact_mse(k, &train, &train_t, &WEIGHTS),
        exact_mse(k, &valid, &valid_t, &WEIGHTS),
    );
    eprintln!(
        "K = {k:.4}; {} training, {} validation positions; lambda = {}",
        train.len(),
        valid.len(),
        args.lambda
    );
    eprintln!(
        "before: train MSE {:.6}, validation MSE {:.6}",
        before.0, before.1
    );

    // Parameters too rare in the data to be measured keep their values.
    let mut seen = [0usize; NUM_PARAMS];
    for s in &train {
        for &(i, _) in &s.trace.features {
            seen[usize::from(i)] += 1;
        }
    }
    for (i, f) in frozen.iter_mut().enumerate() {
        *f |= seen[i] < args.min_count;
    }
    eprintln!(
        "tuning {} of {} parameters (min count {})",
        frozen.iter().filter(|f| !**f).count(),
        NUM_PARAMS,
        args.min_count
    );

    // Adam, full batch.
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12);
    let mut m = vec![(0.0, 0.0); NUM_PARAMS];
    let mut v = vec![(0.0, 0.0); NUM_PARAMS];
    let mut grad = vec![(0.0, 0.0); NUM_PARAMS];
    for epoch in 1..=args.epochs {
        let loss = train_set.gradient(k, &w, &mut grad);
        let c1 = 1.0 - b1.powi(epoch as i32);
        let c2 = 1.0 - b2.powi(epoch as i32);
        for i in 0..NUM_PARAMS {
            if frozen[i] {
                continue;
            }
            let g = (
                grad[i].0 + 2.0 * l2[i] * (w[i].0 - w0[i].0),
                grad[i].1 + 2.0 * l2[i] * (w[i].1 - w0[i].1),
            );
            m[i].0 = b1 * m[i].0 + (1.0 - b1) * g.0;
            m[i].1 = b1 * m[i].1 + (1.0 - b1) * g.1;
            v[i].0 = b2 * v[i].0 + (1.0 - b2) * g.0 * g.0;
            v[i].1 = b2 * v[i].1 + (1.0 - b2) * g.1 * g.1;
            w[i].0 -= args.lr * (m[i].0 / c1) / ((v[i].0 / c2).sqrt() + eps);
            w[i].1 -= args.lr * (m[i].1 / c1) / ((v[i].1 / c2).sqrt() + eps);
        }
        if epoch % 250 == 0 || epoch == args.epochs {
            eprintln!(
                "epoch {epoch}: train MSE {loss:.6}, validation MSE {:.6}",
                valid_set.mse(k, &w)
            );
        }
    }
    let rounded: Vec<S> = w
        .iter()
        .map(|&(m, e)| (m.round() as i32, e.round() as i32))
        .collect();
    let after = (
        exact_mse(k, &train, &train_t, &rounded),
        exact_mse(k, &valid, &valid_t, &rounded),
    );
    eprintln!(
        "after (rounded): train MSE {:.6}, validation MSE {:.6}",
        after.0, after.1
    );
    // Whatever the label blend, what matters is predicting games: compare
    // result-only errors on the held-out games, each with its best K.
    let train_r: Vec<f64> = train.iter().map(|s| s.result).collect();
    let valid_r: Vec<f64> = valid.iter().map(|s| s.result).collect();
    for (name, weights) in [("before", &WEIGHTS[..]), ("after", &rounded[..])] {
        let kr = fit_k(|k| exact_mse(k, &train, &train_r, weights));
        eprintln!(
            "{name}: game-result MSE on validation games {:.6} (K {kr:.4})",
            exact_mse(kr, &valid, &valid_r, weights)
        );
    }
    for g in params::GROUPS {
        let old = &WEIGHTS[g.start..g.start + g.len];
        let new = &rounded[g.start..g.start + g.len];
        if old != new {
            println!("{:<22} {:?}\n{:<22} {:?}", g.name, old, "", new);
        }
    }
    if let Some(path) = &args.write {
        let summary = crate::write::Summary {
            command: std::env::args()
                .skip_while(|a| a != "fit")
                .skip(1)
                .map(|a| {
                    // Paths by file name only: the data directory is local.
                    std::path::Path::new(&a)
                        .file_name()
                        .filter(|_| a.contains('/'))
                        .map_or(a.clone(), |f| f.to_string_lossy().into_owned())
                })
                .collect::<Vec<_>>()
                .join(" "),
            data: args.data.display().to_string(),
            positions: samples.len(),
            lambda: args.lambda,
            k,
            k_sf,
            before,
            after,
            epochs: args.epochs,
            lr: args.lr,
            l2: args.l2,
            min_count: args.min_count,
        };
        crate::write::weights_file(path, &rounded, &summary)?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_is_sf_or_a_positive_number() {
        assert_eq!(parse_k("sf"), Ok(KChoice::Labels));
        assert_eq!(parse_k("0.5962"), Ok(KChoice::Fixed(0.5962)));
        for bad in ["0", "-1", "nan", "inf", "SF", ""] {
            assert!(parse_k(bad).is_err(), "{bad}");
        }
    }

    /// `--k sf` fits with K = K_sf (the header says both, and they agree); without labels it
    /// is refused with a reason.
    #[test]
    fn k_sf_fits_on_the_labels_scale() {
        let dir = std::env::temp_dir().join(format!("tune-k-sf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fens = [
            "4k3/1p6/8/P7/8/8/8/4K3 w - - 0 1",
            "r3k2r/ppp2ppp/2n5/3p4/3P4/2N5/PPP2PPP/R3K2R b KQkq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ];
        let mut labelled = String::new();
        let mut bare = String::new();
        for game in 0..300u64 {
            let i = (game % 3) as usize;
            let result = ["1", "0", "0.5", "1", "0.5"][(game % 5) as usize];
            let cp = [150, -90, 20][i] + (game % 7) as i32 * 10;
            labelled.push_str(&format!("{};{result};{game};{cp}\n", fens[i]));
            bare.push_str(&format!("{};{result};{game}\n", fens[i]));
        }
        let (data, plain, out) = (dir.join("l.txt"), dir.join("b.txt"), dir.join("w.rs"));
        std::fs::write(&data, labelled).unwrap();
        std::fs::write(&plain, bare).unwrap();
        let args = |data: &std::path::Path| FitArgs {
            data: data.to_owned(),
            lambda: 1.0,
            epochs: 1,
            lr: 1.0,
            min_count: 1,
            validation_every: 10,
            l2: 0.0,
            no_l2: vec![],
            k: Some(KChoice::Labels),
            freeze: vec![],
            write: Some(out.clone()),
        };
        run(&args(&data)).unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        let field = |name: &str| {
            let at = text.find(name).unwrap() + name.len();
            text[at..at + 6].to_owned()
        };
        assert_eq!(field("K_sf = "), field("); K = "), "{text}");
        assert_ne!(field("K_sf = "), "1.0000", "K_sf was fitted: {text}");
        let err = run(&args(&plain)).unwrap_err();
        assert!(err.contains("--k sf"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// `--lambda`, `--validation-every`, `--freeze` and `--no-l2` are
    /// checked while the command line is parsed (a usage error, exit 2),
    /// not when the run starts.
    #[test]
    fn bad_options_are_refused_while_parsing() {
        use clap::Parser;
        #[derive(Debug, Parser)]
        struct Cli {
            #[command(flatten)]
            fit: FitArgs,
        }
        let parse = |extra: &[&str]| {
            Cli::try_parse_from(["fit", "data.txt"].iter().chain(extra)).map(|c| c.fit)
        };
        let ok = parse(&[
            "--lambda",
            "1",
            "--freeze",
            "psqt,material",
            "--no-l2",
            "tempo",
        ])
        .expect("valid options");
        assert_eq!(ok.lambda, 1.0);
        assert_eq!(ok.freeze, ["psqt", "material"]);
        assert_eq!(parse(&[]).expect("defaults").no_l2, ["material"]);
        for bad in [
            &["--lambda", "1.5"][..],
            &["--lambda", "-0.1"],
            &["--lambda", "NaN"],
            &["--validation-every", "1"],
            &["--validation-every", "0"],
            &["--freeze", "psqt,nonsense"],
            &["--no-l2", "materials"],
        ] {
            let err = parse(bad).expect_err("refused");
            assert_eq!(err.exit_code(), 2, "{bad:?}: {err}");
        }
        assert_eq!(unit_interval("0.25"), Ok(0.25));
        assert!(group_name("nonsense").is_err_and(|e| e.contains("`nonsense`")));
    }

    #[test]
    fn fit_k_finds_the_minimum() {
        let k = fit_k(|k| (k - 1.7).powi(2));
        assert!((k - 1.7).abs() < 1e-6);
    }

    #[test]
    fn gradient_matches_finite_differences() {
        use chess960::notation::parse_fen;
        let fens = [
            "4k3/1p6/8/P7/8/8/8/4K3 w - - 0 1",
            "r3k2r/ppp2ppp/2n5/3p4/3P4/2N5/PPP2PPP/R3K2R b KQkq - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ];
        let samples: Vec<Sample> = fens
            .iter()
            .enumerate()
            .map(|(i, f)| Sample {
                trace: chess960::eval::trace(&parse_fen(f).unwrap()),
                result: [1.0, 0.0, 0.5][i],
                game: i as u64,
                stockfish: None,
            })
            .collect();
        let refs: Vec<&Sample> = samples.iter().collect();
        let set = Set::new(&refs, &[1.0, 0.0, 0.5]);
        let w: Vec<(f64, f64)> = WEIGHTS
            .iter()
            .map(|&(m, e)| (f64::from(m), f64::from(e)))
            .collect();
        let mut grad = vec![(0.0, 0.0); NUM_PARAMS];
        set.gradient(1.3, &w, &mut grad);
        let mut checked = 0;
        for i in 0..NUM_PARAMS {
            let mut hi = w.clone();
            let mut lo = w.clone();
            hi[i].0 += 0.01;
            lo[i].0 -= 0.01;
            let numeric = (set.mse(1.3, &hi) - set.mse(1.3, &lo)) / 0.02;
            assert!((numeric - grad[i].0).abs() < 1e-7 + 1e-3 * numeric.abs());
            if grad[i].0 != 0.0 {
                checked += 1;
            }
        }
        assert!(checked > 5);
    }
}
