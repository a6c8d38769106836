//! The model being fitted (per stage, the scalars' and the canonical table entries' weights in
//! discs), the gradient summed on worker threads, full-batch Adam, and the weights it exports.

use super::samples::{Features, Sample};
use othello_explorer::eval::features::SCALARS;
use othello_explorer::eval::{SCALE, Weights};

/// The fitted weights in discs: per stage, scalars and the (canonical) table entries.
pub(crate) struct Model {
    pub scalars: Vec<[f32; SCALARS]>,
    pub tables: Vec<Vec<f32>>,
}

impl Model {
    pub(super) fn predict(&self, stage: usize, f: &Features) -> f32 {
        let (ws, wt) = (&self.scalars[stage], &self.tables[stage]);
        f.scalars.iter().zip(ws).map(|(x, w)| x * w).sum::<f32>()
            + f.entries.iter().map(|&e| wt[e as usize]).sum::<f32>()
    }
}

/// Runs `f` over the samples on `threads` workers, each with its own accumulator from `init` and
/// its own features buffer; returns the accumulators.
pub(super) fn fold<A: Send>(
    samples: &[Sample],
    threads: usize,
    init: impl Fn() -> A + Sync,
    f: impl Fn(&mut A, &mut Features, &Sample) + Sync,
) -> Vec<A> {
    crate::labels::on_chunks(samples, threads, |part| {
        let (mut acc, mut buf) = (init(), Features::new());
        for s in part {
            f(&mut acc, &mut buf, s);
        }
        acc
    })
}

/// The mean absolute error of `model` on `set`.
pub(super) fn mae<const N: usize>(model: &Model, set: &[Sample], threads: usize) -> f32 {
    let parts = fold(
        set,
        threads,
        || 0f64,
        |acc, buf, s| {
            *acc += (model.predict(s.stage as usize, buf.read::<N>(s)) - s.label).abs() as f64;
        },
    );
    (parts.iter().sum::<f64>() / set.len().max(1) as f64) as f32
}

pub(super) fn quantise(x: f32) -> i16 {
    (x * SCALE as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

/// `base` in stages of `bucket` empties (a divisor of its own stage width), each taking the
/// weights of the base's stage that holds its empties: every position evaluates as with `base`,
/// and a fit with narrower stages can freeze, start from and compare with it.
pub(super) fn restaged<const N: usize>(base: &Weights, bucket: usize) -> Weights {
    if base.bucket() == bucket {
        return base.clone();
    }
    let mut w = Weights::zero(N, bucket);
    for st in 0..w.stages().len() {
        w.set_stage(st, base.stage(base.stage_of(st * bucket)).clone());
    }
    w
}
