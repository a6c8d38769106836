//! The 4x4 fit (`fit`: every stage labelled exactly, the 4x4 tree being small) and `measure`
//! (weights against exact scores of fresh positions, per stage).

use crate::labels::{bootstrap, exact, parallel, solver};
use crate::play::bucket;
use crate::play::sample;
use othello_explorer::eval::features::{SCALARS, scalars};
use othello_explorer::eval::pattern::{Layout, pattern_entries};
use othello_explorer::eval::weights::StageWeights;
use othello_explorer::eval::{SCALE, Weights, baseline, evaluate_with};
use othello_explorer::notation::obf::format_board;
use othello_explorer::{Color, Position, Size};
use std::path::PathBuf;
use std::time::Instant;

pub(crate) struct FitSettings {
    pub(crate) games: usize,
    pub(crate) exact: usize,
    pub(crate) seed: u64,
    pub(crate) threads: usize,
    pub(crate) epochs: usize,
    pub(crate) prior: f32,
    pub(crate) out: PathBuf,
}

/// One position's features as the fit sees them.
pub(crate) struct Sample {
    scalars: [f32; SCALARS],
    entries: Vec<u32>,
    label: f32,
}

pub(crate) fn features<const N: usize>(p: u64, o: u64, label: f32) -> Sample {
    let mut entries = Vec::new();
    pattern_entries::<N>(p, o, &mut entries);
    Sample { scalars: scalars::<N>(p, o).map(|x| x as f32), entries, label }
}

/// Least squares by full-batch Adam: scalar weights free, pattern weights with an L2 prior worth
/// `prior` samples each. Returns the weights in discs (scalars, tables).
pub(crate) fn fit_stage(samples: &[Sample], table_len: usize, epochs: usize, prior: f32) -> ([f32; SCALARS], Vec<f32>) {
    let n = samples.len().max(1) as f32;
    let mut ws = [0f32; SCALARS];
    ws[0] = samples.iter().map(|s| s.label).sum::<f32>() / n;
    let mut wt = vec![0f32; table_len];
    let mut touched: Vec<u32> = samples.iter().flat_map(|s| s.entries.iter().copied()).collect();
    touched.sort_unstable();
    touched.dedup();
    let (mut ms, mut vs) = ([0f32; SCALARS], [0f32; SCALARS]);
    let (mut mt, mut vt) = (vec![0f32; table_len], vec![0f32; table_len]);
    let mut gt = vec![0f32; table_len];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    for epoch in 0..epochs {
        let lr = 0.1 * (1.0 - epoch as f32 / epochs as f32) + 0.005;
        let mut gs = [0f32; SCALARS];
        for &e in &touched {
            gt[e as usize] = 0.0;
        }
        for s in samples {
            let pred: f32 = s.scalars.iter().zip(&ws).map(|(x, w)| x * w).sum::<f32>()
                + s.entries.iter().map(|&e| wt[e as usize]).sum::<f32>();
            let r = 2.0 * (pred - s.label) / n;
            for (g, x) in gs.iter_mut().zip(&s.scalars) {
                *g += r * x;
            }
            for &e in &s.entries {
                gt[e as usize] += r;
            }
        }
        let t = epoch as i32 + 1;
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for i in 0..SCALARS {
            ms[i] = b1 * ms[i] + (1.0 - b1) * gs[i];
            vs[i] = b2 * vs[i] + (1.0 - b2) * gs[i] * gs[i];
            ws[i] -= lr * (ms[i] / c1) / ((vs[i] / c2).sqrt() + eps);
        }
        for &e in &touched {
            let e = e as usize;
            let g = gt[e] + 2.0 * prior / n * wt[e];
            mt[e] = b1 * mt[e] + (1.0 - b1) * g;
            vt[e] = b2 * vt[e] + (1.0 - b2) * g * g;
            wt[e] -= lr * (mt[e] / c1) / ((vt[e] / c2).sqrt() + eps);
        }
    }
    (ws, wt)
}

pub(crate) fn quantise(x: f32) -> i16 {
    (x * SCALE as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

pub(crate) fn fit<const N: usize>(settings: &FitSettings) -> Result<(), String> {
    let began = Instant::now();
    let w_bucket = bucket(N);
    let mut weights = Weights::zero(N, w_bucket);
    let layout = Layout::of(N);
    let per_stage = sample::<N>(settings.games, settings.seed);
    println!(
        "{N}x{N}: {} games, {} positions in {} stages ({:.1} s)",
        settings.games,
        per_stage.iter().map(Vec::len).sum::<usize>(),
        per_stage.len(),
        began.elapsed().as_secs_f64()
    );
    println!("| stage | empties | positions | labels | label s | train MAE | held-out MAE | stand-in MAE |");
    println!("|---|---|---|---|---|---|---|---|");
    for (s, positions) in per_stage.iter().enumerate() {
        let t0 = Instant::now();
        let (lo, hi) = (s * w_bucket, s * w_bucket + w_bucket - 1);
        let exact_stage = hi <= settings.exact;
        let labels: Vec<f32> = if exact_stage {
            parallel(positions, settings.threads, solver, |sv, &(p, o)| exact::<N>(sv, p, o) as f32)
        } else {
            let w = &weights;
            parallel(
                positions,
                settings.threads,
                || (),
                |_, &(p, o)| bootstrap::<N>(w, p, o, lo - 1, -i32::MAX, i32::MAX) as f32 / SCALE as f32,
            )
        };
        let label_secs = t0.elapsed().as_secs_f64();
        let samples: Vec<Sample> = positions.iter().zip(&labels).map(|(&(p, o), &y)| features::<N>(p, o, y)).collect();
        // Every tenth position is held out to report over-fitting (when there are enough).
        let holds = |i: usize| positions.len() >= 50 && i.is_multiple_of(10);
        let (held, train): (Vec<_>, Vec<_>) = samples.into_iter().enumerate().partition(|&(i, _)| holds(i));
        let train: Vec<Sample> = train.into_iter().map(|x| x.1).collect();
        let held: Vec<(usize, Sample)> = held;
        let (ws, wt) = fit_stage(&train, layout.table_len(), settings.epochs, settings.prior);
        let stage = StageWeights { scalars: ws.map(quantise), tables: wt.iter().map(|&x| quantise(x)).collect() };
        weights.set_stage(s, stage);
        let mae = |idx: &mut dyn Iterator<Item = usize>| {
            let (mut sum, mut sum_base, mut k) = (0f64, 0f64, 0);
            for i in idx {
                let (p, o) = positions[i];
                sum += (evaluate_with::<N>(&weights, p, o) as f32 - labels[i]).abs() as f64;
                sum_base += (baseline::<N>(p, o) as f32 - labels[i]).abs() as f64;
                k += 1;
            }
            (sum / k.max(1) as f64, sum_base / k.max(1) as f64)
        };
        let (train_mae, _) = mae(&mut (0..positions.len()).filter(|&i| !holds(i)));
        let (held_mae, base_mae) = mae(&mut held.iter().map(|x| x.0));
        println!(
            "| {s} | {lo}-{hi} | {} | {} | {label_secs:.1} | {train_mae:.2} | {held_mae:.2} | {base_mae:.2} |",
            positions.len(),
            if exact_stage { "exact" } else { "bootstrap" },
        );
    }
    std::fs::create_dir_all(&settings.out).map_err(|e| format!("{}: {e}", settings.out.display()))?;
    let path = settings.out.join(format!("weights-{N}.oxev"));
    let bytes = weights.to_bytes();
    std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote {} ({} bytes)", path.display(), bytes.len());
    // Check positions: two per stage from fresh games, with the evaluations these weights give.
    let check = sample::<N>(50, settings.seed ^ 0xc4ec);
    let mut text = format!(
        "# fit-eval check positions for weights-{N}.oxev: board string, then the evaluation (discs, side to move)\n"
    );
    for stage in &check {
        for &(p, o) in stage.iter().take(2) {
            let size = Size::from_n(N).expect("4, 6 or 8");
            let position = Position::from_player(size, p, o, Color::Black).expect("a position from play");
            text += &format!("{} {}\n", format_board(&position), evaluate_with::<N>(&weights, p, o));
        }
    }
    let check_path = settings.out.join(format!("check-{N}.txt"));
    std::fs::write(&check_path, text).map_err(|e| format!("{}: {e}", check_path.display()))?;
    println!("wrote {} in {:.1} s", check_path.display(), began.elapsed().as_secs_f64());
    Ok(())
}

pub(crate) fn measure<const N: usize>(
    games: usize,
    max_empties: usize,
    seed: u64,
    threads: usize,
    path: &PathBuf,
) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let weights = Weights::from_bytes(N, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let per_stage = sample::<N>(games, seed);
    println!("{N}x{N}, {} ({games} games, seed {seed})", path.display());
    println!("| empties | positions | fitted MAE | stand-in MAE | fitted sign right | stand-in sign right |");
    println!("|---|---|---|---|---|---|");
    let (mut all_fit, mut all_base, mut all_k) = (0f64, 0f64, 0usize);
    for (s, positions) in per_stage.iter().enumerate() {
        let (lo, hi) = (s * bucket(N), s * bucket(N) + bucket(N) - 1);
        if hi > max_empties || positions.is_empty() {
            continue;
        }
        let exact: Vec<i32> = parallel(positions, threads, solver, |sv, &(p, o)| exact::<N>(sv, p, o));
        let (mut fit_err, mut base_err, mut fit_sign, mut base_sign, mut decided) = (0f64, 0f64, 0, 0, 0);
        for (&(p, o), &y) in positions.iter().zip(&exact) {
            let (f, b) = (evaluate_with::<N>(&weights, p, o), baseline::<N>(p, o));
            fit_err += (f - y).abs() as f64;
            base_err += (b - y).abs() as f64;
            if y != 0 {
                decided += 1;
                fit_sign += (f.signum() == y.signum()) as usize;
                base_sign += (b.signum() == y.signum()) as usize;
            }
        }
        let k = positions.len() as f64;
        all_fit += fit_err;
        all_base += base_err;
        all_k += positions.len();
        let pct = |x: usize| 100.0 * x as f64 / decided.max(1) as f64;
        println!(
            "| {lo}-{hi} | {} | {:.2} | {:.2} | {:.0}% | {:.0}% |",
            positions.len(),
            fit_err / k,
            base_err / k,
            pct(fit_sign),
            pct(base_sign)
        );
    }
    println!("| all | {all_k} | {:.2} | {:.2} | | |", all_fit / all_k.max(1) as f64, all_base / all_k.max(1) as f64);
    Ok(())
}
