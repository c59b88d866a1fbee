//! The optimiser: Adam over every parameter, in spans on rayon's threads,
//! then the first layer clipped to what the quantised network can hold.
//! Why apart: its state (two moments and a step count) is what a
//! checkpoint keeps besides the weights.

use chess960::eval::nnue::CLIP;
use rayon::prelude::*;

use super::params::Params;
use super::simd;

/// Adam over every parameter, then the first layer clipped to what the
/// quantised network can hold.
pub(super) struct Adam {
    pub(super) m: Params,
    pub(super) v: Params,
    pub(super) t: i32,
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
    pub(super) fn step(&mut self, p: &mut Params, parts: &[(Params, f64)], n: usize, lr: f32) {
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
