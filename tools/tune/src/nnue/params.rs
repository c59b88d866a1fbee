//! The network being trained, in floats: its weights (and, in the same
//! shape, gradients and Adam's moments), the forward and backward passes,
//! and the network file it is rounded into. Why apart: one shape serves
//! the weights, the gradients and the optimiser's moments, and the passes
//! must stay `#[inline(always)]` for the wide copies of the loops.

use chess960::eval::nnue::{king_buckets, out_inputs, KingMap, NetFile, INPUTS, QA};
use rand::{Rng, SeedableRng};

use super::sigmoid;

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
pub(super) struct Params {
    pub(super) ft_w: Vec<f32>,
    pub(super) ft_b: Vec<f32>,
    /// Second-layer rows, bucket after bucket, neuron after neuron
    /// (`2 * hidden` each); empty without that layer.
    pub(super) l2_w: Vec<f32>,
    /// Second-layer biases, bucket after bucket.
    pub(super) l2_b: Vec<f32>,
    /// Output weights, bucket after bucket (`2 * hidden` each, or one per
    /// second-layer neuron).
    pub(super) out_w: Vec<f32>,
    /// Output bias per bucket.
    pub(super) out_b: Vec<f32>,
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
    pub(super) fn zeros_like(&self) -> Params {
        Params::zeros(
            self.hidden(),
            self.buckets(),
            self.layer2(),
            self.king_buckets(),
        )
    }

    /// Copies of the first layer, one per king bucket.
    pub(super) fn king_buckets(&self) -> usize {
        self.ft_w.len() / (INPUTS * self.hidden())
    }

    /// The same network with its one first layer copied to each of
    /// `kings`'s buckets: training starts from its evaluation (the same
    /// one where `kings` does not mirror; where it does, a position with
    /// the king on files e-h is read as its mirror image, which a plain
    /// network scores nearly alike).
    pub(super) fn spread_kings(self, kings: &KingMap) -> Params {
        debug_assert_eq!(self.king_buckets(), 1);
        Params {
            ft_w: self.ft_w.repeat(king_buckets(kings)),
            ..self
        }
    }

    /// Neurons of the second hidden layer (0: none).
    pub(super) fn layer2(&self) -> usize {
        self.l2_b.len() / self.buckets()
    }

    /// The parameter groups in a fixed order: what every element-wise
    /// pass (sums of gradients, Adam) walks, zipped with the same groups
    /// of a network of the same shape.
    pub(super) fn groups_mut(&mut self) -> [&mut Vec<f32>; 6] {
        [
            &mut self.ft_w,
            &mut self.ft_b,
            &mut self.l2_w,
            &mut self.l2_b,
            &mut self.out_w,
            &mut self.out_b,
        ]
    }

    pub(super) fn groups(&self) -> [&Vec<f32>; 6] {
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
    pub(super) fn hidden(&self) -> usize {
        self.ft_b.len()
    }

    /// Output buckets (one output bias each).
    pub(super) fn buckets(&self) -> usize {
        self.out_b.len()
    }

    /// The same network with its one output layer copied to each of
    /// `buckets` buckets: the same evaluation, ready to learn one per
    /// stage of the game.
    pub(super) fn spread(self, buckets: usize) -> Params {
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
    pub(super) fn from_file(net: &NetFile) -> Params {
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
    pub(super) fn random(
        hidden: usize,
        buckets: usize,
        layer2: usize,
        kings: usize,
        seed: u64,
    ) -> Params {
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
    pub(super) fn scratch(&self) -> Vec<f32> {
        let h = self.hidden();
        match self.layer2() {
            0 => vec![0.0; 4 * h],
            l2 => vec![0.0; 6 * h + l2],
        }
    }

    /// The network output for one position (before the squash) through
    /// output bucket `bucket`, with the two accumulators left in the first
    /// half of `acc` (from [`Params::scratch`]). Inlined into its callers
    /// so that the copies [`simd::wide_fn`](super::simd::wide_fn!) makes compile it wide.
    #[inline(always)]
    pub(super) fn forward(&self, feats: &[(u16, u16)], bucket: usize, acc: &mut [f32]) -> f32 {
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
    /// Inlined into its callers so that the copies [`simd::wide_fn`](super::simd::wide_fn!) makes compile it wide.
    #[inline(always)]
    pub(super) fn backward(
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

pub(super) fn quantise(p: &Params, residual: bool, kings: &KingMap) -> Vec<u8> {
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
