//! Training the weights on self-play games ([`super::selfplay`]).
//!
//! - **Samples**: every position of every game after its random opening, labelled with the game's
//!   final disc difference from its side to move (exact along the solver's perfect line, the
//!   search's own result before it).
//! - **Validation**: whole games are held out (game index `g` with `g mod 10 == 9`), so no
//!   position of a held-out game, nor its neighbours in the same game, is trained on.
//! - **Symmetry**: every pattern reads all its placements from one shared table, so a position and
//!   its seven images give the same multiset of table entries: training on a position trains the
//!   entries of all eight images at once, exactly what augmenting the data with the images would
//!   do, at an eighth of the cost. [`check_symmetry`] verifies this on the data before training.
//! - **Model**: one weight set per stage (the scalar features and every canonical table entry),
//!   all stages fitted together by full-batch Adam on the mean squared error, with two penalties:
//!   an L2 prior pulling each pattern weight towards 0 (worth `prior` samples) and a smoothing term
//!   pulling each weight towards the same weight of the neighbouring stages (worth `smooth`
//!   samples), so a thin stage borrows from its neighbours and neighbouring stages cannot
//!   disagree without evidence.
//! - **Scale**: a position is kept as a 24-byte [`Sample`] and its features are read from the
//!   board at every pass (with the CPU's `pext`), so memory is 24 bytes a position plus the model,
//!   whatever the data; the samples are sorted by stage once read, so a pass works on one stage's
//!   table at a time; the gradient is summed on `threads` workers ([`fold`]).
//! - **Resuming** (`--checkpoint FILE`, [`super::checkpoint`]): a fit on millions of games may take
//!   longer than a batch task's time slot, so its state (the round, the epoch, the weights and
//!   Adam's moments, and in round two the round-one weights the labels come from) is written to
//!   the checkpoint every [`CHECKPOINT_EVERY`] epochs, after `--epochs-per-run` epochs of one run,
//!   and on SIGINT or SIGTERM; the same command run again goes on from it and ends with the same
//!   weights, bit for bit, as a run never stopped (on the same number of threads: the gradient's
//!   sum is split by thread).

mod checks;
pub(crate) mod model;
pub(crate) mod samples;
pub(crate) mod settings;

pub use checks::{CheckLine, check_line, check_lines};
use checks::{board_string, exact_report, opening_report, read_exact};
pub(crate) use model::Model;
use model::{fold, mae, quantise, restaged};
pub use samples::Sample;
use samples::{check_symmetry, read_samples, sample};
pub use settings::Settings;

use crate::checkpoint::{self, Checkpoint, Progress};
use othello_explorer::board::geometry::full_mask;
use othello_explorer::eval::features::SCALARS;
use othello_explorer::eval::pattern::Layout;
use othello_explorer::eval::weights::StageWeights;
use othello_explorer::eval::{SCALE, Weights, baseline, evaluate_fine_with, evaluate_with};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Epochs between two writes of the checkpoint (besides the write when a run stops).
pub const CHECKPOINT_EVERY: usize = 10;

/// How a fit ended: its weights written, or stopped with its state kept in the checkpoint.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    Finished,
    /// Stopped in `round` (1, or 2: the relabelled round) with `epoch` of its epochs done.
    Paused {
        round: u8,
        epoch: usize,
    },
}

/// The stages held fixed: their weights, and the stages fitted, `below..from` (every other stage
/// keeps the weights it has there).
struct Frozen<'a> {
    weights: &'a Weights,
    below: usize,
    from: usize,
}

impl Frozen<'_> {
    fn fits(&self, stage: usize) -> bool {
        (self.below..self.from).contains(&stage)
    }
}

/// What one run of a round's fit does besides fitting: the epochs it may still run (`None`: all),
/// and how it keeps its state (`keep`, called every [`CHECKPOINT_EVERY`] epochs and when it
/// stops early).
pub(crate) struct Run<'a> {
    pub left: Option<usize>,
    pub stop: &'a AtomicBool,
    pub keep: &'a mut dyn FnMut(&Progress) -> Result<(), String>,
}

/// How one round's fit ended: its model, or stopped (its state kept) with this many epochs done.
enum Fitted {
    Done(Model),
    Paused(usize),
}

/// Full-batch Adam over the fitted stages at once (see the module docs), the gradient summed on
/// `settings.threads` workers; the frozen stages keep their weights and only pull on their
/// neighbours through the smoothing. From `resumed`'s state when given (a checkpoint's), else
/// from the start; stops early as `run` says.
#[allow(clippy::too_many_arguments)]
fn fit<const N: usize>(
    samples: &[Sample],
    stages: usize,
    table_len: usize,
    settings: &Settings,
    valid: &[Sample],
    frozen: Option<&Frozen>,
    resumed: Option<Progress>,
    run: &mut Run,
) -> Result<Fitted, String> {
    let n = samples.len().max(1) as f32;
    let fits = |st: usize| frozen.is_none_or(|f| f.fits(st));
    let width = SCALARS + table_len;
    let size = stages * width;
    let Progress { mut model, mut m, mut v, epoch: first } = match resumed {
        Some(p) => p,
        None => {
            let mut model = Model { scalars: vec![[0.0; SCALARS]; stages], tables: vec![vec![0.0; table_len]; stages] };
            if let Some(f) = frozen {
                for st in (0..stages).filter(|&st| !f.fits(st)) {
                    let w = f.weights.stage(st);
                    model.scalars[st] = w.scalars.map(|x| x as f32 / SCALE as f32);
                    model.tables[st] = w.tables.iter().map(|&x| x as f32 / SCALE as f32).collect();
                }
            }
            // Start each stage's bias at its mean label.
            let mut sums = vec![(0f32, 0usize); stages];
            for s in samples {
                sums[s.stage as usize].0 += s.label;
                sums[s.stage as usize].1 += 1;
            }
            for (st, &(sum, k)) in sums.iter().enumerate().filter(|&(st, _)| fits(st)) {
                model.scalars[st][0] = if k > 0 { sum / k as f32 } else { 0.0 };
            }
            Progress { model, m: vec![0f32; size], v: vec![0f32; size], epoch: 0 }
        }
    };
    if m.len() != size || v.len() != size || model.scalars.len() != stages {
        return Err("the checkpoint's model is not this fit's shape".into());
    }
    let mut g = vec![0f32; size];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let slot = |st: usize, i: usize| st * width + i;
    let began = Instant::now();
    for epoch in first..settings.epochs {
        if run.left == Some(0) || run.stop.load(Ordering::Relaxed) {
            (run.keep)(&Progress { model, m, v, epoch })?;
            return Ok(Fitted::Paused(epoch));
        }
        let lr = 0.1 * (1.0 - epoch as f32 / settings.epochs as f32) + 0.003;
        // Each worker sums its share's gradient into its own buffer; the buffers are then added.
        let parts = fold(
            samples,
            settings.threads,
            || vec![0f32; size],
            |grad, buf, s| {
                let st = s.stage as usize;
                let f = buf.read::<N>(s);
                let r = 2.0 * (model.predict(st, f) - s.label) / n;
                let base = st * width;
                for (i, x) in f.scalars.iter().enumerate() {
                    grad[base + i] += r * x;
                }
                for &e in &f.entries {
                    grad[base + SCALARS + e as usize] += r;
                }
            },
        );
        g.iter_mut().for_each(|x| *x = 0.0);
        for part in &parts {
            g.iter_mut().zip(part).for_each(|(x, y)| *x += y);
        }
        drop(parts);
        // The prior on pattern weights and the smoothing between neighbouring stages.
        let (prior, smooth) = (2.0 * settings.prior / n, 2.0 * settings.smooth / n);
        for st in (0..stages).filter(|&st| fits(st)) {
            for i in 0..width {
                let w = if i < SCALARS { model.scalars[st][i] } else { model.tables[st][i - SCALARS] };
                let mut d = if i < SCALARS { 0.0 } else { prior * w };
                for nb in [st.wrapping_sub(1), st + 1] {
                    if nb < stages {
                        let u = if i < SCALARS { model.scalars[nb][i] } else { model.tables[nb][i - SCALARS] };
                        d += smooth * (w - u);
                    }
                }
                g[slot(st, i)] += d;
            }
        }
        let t = epoch as i32 + 1;
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for st in (0..stages).filter(|&st| fits(st)) {
            for i in 0..width {
                let k = slot(st, i);
                if g[k] == 0.0 && m[k] == 0.0 {
                    continue;
                }
                m[k] = b1 * m[k] + (1.0 - b1) * g[k];
                v[k] = b2 * v[k] + (1.0 - b2) * g[k] * g[k];
                let step = lr * (m[k] / c1) / ((v[k] / c2).sqrt() + eps);
                if i < SCALARS {
                    model.scalars[st][i] -= step;
                } else {
                    model.tables[st][i - SCALARS] -= step;
                }
            }
        }
        if epoch % 50 == 49 || epoch + 1 == settings.epochs {
            let valid_mae = if valid.is_empty() {
                "none (no validation positions)".to_string()
            } else {
                format!("{:.3}", mae::<N>(&model, valid, settings.threads))
            };
            eprintln!(
                "epoch {}: train MAE {:.3}, validation MAE {valid_mae} ({:.0} s)",
                epoch + 1,
                mae::<N>(&model, samples, settings.threads),
                began.elapsed().as_secs_f64()
            );
        }
        if let Some(left) = run.left.as_mut() {
            *left -= 1;
        }
        if (epoch + 1) % CHECKPOINT_EVERY == 0 && epoch + 1 < settings.epochs {
            let progress = Progress { model, m, v, epoch: epoch + 1 };
            (run.keep)(&progress)?;
            Progress { model, m, v, .. } = progress;
        }
    }
    Ok(Fitted::Done(model))
}

/// Trains the `N x N` weights on the shards, writes `weights-N.oxev` and `check-N.txt`, and prints
/// the per-stage report.
pub fn train<const N: usize>(settings: &Settings, bucket: usize) -> Result<Ended, String> {
    let began = Instant::now();
    let mut weights = Weights::zero(N, bucket);
    let mut base_bytes = Vec::new();
    let base = match &settings.base {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let w = Weights::from_bytes(N, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            // A base of wider stages is split into this fit's narrower ones: the same evaluation.
            if !w.bucket().is_multiple_of(bucket) {
                return Err(format!(
                    "{}: stages of {} empties, which stages of {bucket} cannot split",
                    path.display(),
                    w.bucket()
                ));
            }
            base_bytes = bytes;
            Some(restaged::<N>(&w, bucket))
        }
        None => None,
    };
    if settings.checkpoint.is_none() && settings.epochs_per_run.is_some() {
        return Err("--epochs-per-run: needs --checkpoint, where the fit keeps its state to go on from".into());
    }
    if let Some(path) = &settings.checkpoint {
        // Refused before any work: a folder or a device is never written over.
        othello_explorer::notation::writefile::target(path).map_err(|e| e.to_string())?;
    }
    let stage_at = |flag: &str, e: u32| {
        if !(e as usize).is_multiple_of(bucket) || e as usize > N * N - 4 {
            return Err(format!("{flag} {e}: not the first empties of a stage of {bucket}"));
        }
        Ok(e as usize / bucket)
    };
    let stages = weights.stages().len();
    let frozen = match (&base, settings.freeze_below, settings.freeze_from) {
        (_, 0, 0) => None,
        (None, below, from) => {
            let (flag, e) = if from != 0 { ("--freeze-from", from) } else { ("--freeze-below", below) };
            return Err(format!("{flag} {e}: needs --base, the weights the frozen stages come from"));
        }
        (Some(w), below, from) => {
            let below = stage_at("--freeze-below", below)?;
            let from = if from == 0 { stages } else { stage_at("--freeze-from", from)? };
            if below >= from {
                return Err(format!(
                    "--freeze-below {} and --freeze-from {}: no stage left to fit",
                    settings.freeze_below, settings.freeze_from
                ));
            }
            Some(Frozen { weights: w, below, from })
        }
    };
    let exact = read_exact::<N>(&settings.exact_check)?;
    let (train, valid, games, solved) = read_samples::<N>(&weights, &settings.shards)?;
    // Positions of frozen stages teach nothing.
    let keep = |s: &Sample| frozen.as_ref().is_none_or(|f| f.fits(s.stage as usize));
    let (train, valid): (Vec<Sample>, Vec<Sample>) =
        (train.into_iter().filter(keep).collect(), valid.into_iter().filter(keep).collect());
    if train.is_empty() {
        return Err("no training positions in the shards given".into());
    }
    check_symmetry::<N>(&train)?;
    // Far from the end, who is to move matters little, and a side-to-move bias is what makes
    // estimates of balanced positions swing with the parity of the depth: so each opening
    // position also teaches its colour-swapped twin, with the opposite label.
    let mut train = train;
    if settings.swap_from > 0 {
        let twins: Vec<Sample> = train
            .iter()
            .filter(|s| !s.exact && (full_mask(N) & !(s.p | s.o)).count_ones() >= settings.swap_from)
            .map(|s| sample::<N>(&weights, s.o, s.p, -s.label as i32, false))
            .collect();
        eprintln!("{} colour-swapped twins from {} empties", twins.len(), settings.swap_from);
        train.extend(twins);
    }
    // Each stage's samples together: a pass then reads and writes one stage's table (and its
    // gradient) at a time, which the core's caches hold better, instead of hopping between every
    // stage's with each position of a game. In place (no buffer beside 50 million samples), by a
    // key that leaves only identical samples tied, so the order is a function of the data.
    let order = |s: &Sample| (s.stage, s.p, s.o, s.label.to_bits(), s.exact);
    train.sort_unstable_by_key(order);
    let mut valid = valid;
    valid.sort_unstable_by_key(order);
    eprintln!(
        "{N}x{N}: {games} games, {solved} solved positions: {} training and {} validation positions, {stages} stages ({:.1} s)",
        train.len(),
        valid.len(),
        began.elapsed().as_secs_f64()
    );
    let layout = Layout::of(N);
    let install = |weights: &mut Weights, model: &Model| {
        for st in 0..stages {
            let stage = StageWeights {
                scalars: model.scalars[st].map(quantise),
                tables: model.tables[st].iter().map(|&x| quantise(x)).collect(),
            };
            weights.set_stage(st, stage);
        }
    };
    // Where a stopped run of this same fit left it (the checkpoint names the fit by its settings
    // and data), and how the state is kept.
    let fingerprint = checkpoint::fingerprint(N, bucket, settings, &base_bytes, &train, &valid);
    let saved = match &settings.checkpoint {
        Some(path) => checkpoint::load(path, fingerprint, settings.threads)?,
        None => None,
    };
    let keep_state = |round: u8, progress: Option<&Progress>, round_one: &[u8]| -> Result<(), String> {
        match &settings.checkpoint {
            Some(path) => checkpoint::save(path, fingerprint, settings.threads, round, progress, round_one),
            None => Ok(()),
        }
    };
    let mut left = settings.epochs_per_run;
    let (round, mut resumed) = match saved {
        Some(Checkpoint { round: 2, progress, round_one }) => {
            // Round one ended in an earlier run: its weights are the checkpoint's.
            weights = Weights::from_bytes(N, &round_one).map_err(|e| format!("the checkpoint's round one: {e}"))?;
            let epoch = progress.as_ref().map_or(0, |p| p.epoch);
            eprintln!("resumed from the checkpoint: round 2, epoch {epoch} of {}", settings.epochs);
            (2, progress)
        }
        Some(Checkpoint { progress, .. }) => {
            let epoch = progress.as_ref().map_or(0, |p| p.epoch);
            eprintln!("resumed from the checkpoint: round 1, epoch {epoch} of {}", settings.epochs);
            (1, progress)
        }
        None => (1, None),
    };
    let mut model = None;
    if round == 1 {
        let mut keep = |p: &Progress| keep_state(1, Some(p), &[]);
        let mut run = Run { left, stop: &settings.stop, keep: &mut keep };
        match fit::<N>(&train, stages, layout.table_len(), settings, &valid, frozen.as_ref(), resumed.take(), &mut run)?
        {
            Fitted::Done(m) => {
                install(&mut weights, &m);
                model = Some(m);
            }
            Fitted::Paused(epoch) => return Ok(Ended::Paused { round: 1, epoch }),
        }
        left = run.left;
    }
    if settings.bootstrap_depth > 0 && train.iter().any(|s| !s.exact) {
        // Round two: each midgame label becomes lambda * (the game's result) + (1 - lambda) *
        // (a search of the round-one weights, `bootstrap_depth` plies). The game result keeps the
        // label anchored to real outcomes (so errors cannot compound as in a stage-by-stage
        // bootstrap); the search value is far less noisy than one game's result, and it makes the
        // evaluation agree with its own deeper searches, which is what keeps estimates steady from
        // one depth to the next.
        let round_one = weights.to_bytes();
        let resumed = if round == 2 {
            resumed
        } else {
            // Kept at once, so that a run stopped in the relabelling does not fit round one again.
            keep_state(2, None, &round_one)?;
            if left == Some(0) || settings.stop.load(Ordering::Relaxed) {
                return Ok(Ended::Paused { round: 2, epoch: 0 });
            }
            None
        };
        let t0 = Instant::now();
        let midgame: Vec<usize> = (0..train.len()).filter(|&i| !train[i].exact).collect();
        let w = &weights;
        let depth = settings.bootstrap_depth;
        let values = crate::parallel(
            &midgame,
            settings.threads,
            || (),
            |_, &i| {
                let s = &train[i];
                let empties = (full_mask(N) & !(s.p | s.o)).count_ones() as usize;
                let search = |d: usize| {
                    crate::bootstrap::<N>(w, s.p, s.o, empties.saturating_sub(d), -i32::MAX, i32::MAX) as f32
                        / SCALE as f32
                };
                if settings.bootstrap_pair && depth > 1 {
                    (search(depth) + search(depth - 1)) / 2.0
                } else {
                    search(depth)
                }
            },
        );
        for (&i, v) in midgame.iter().zip(values) {
            let s = &mut train[i];
            s.label = settings.lambda * s.label + (1.0 - settings.lambda) * v;
        }
        eprintln!(
            "relabelled {} midgame positions by a {}-ply search ({:.1} s)",
            midgame.len(),
            if settings.bootstrap_pair { format!("{}- and {depth}", depth - 1) } else { depth.to_string() },
            t0.elapsed().as_secs_f64()
        );
        let mut keep = |p: &Progress| keep_state(2, Some(p), &round_one);
        let mut run = Run { left, stop: &settings.stop, keep: &mut keep };
        match fit::<N>(&train, stages, layout.table_len(), settings, &valid, frozen.as_ref(), resumed, &mut run)? {
            Fitted::Done(m) => {
                install(&mut weights, &m);
                model = Some(m);
            }
            Fitted::Paused(epoch) => return Ok(Ended::Paused { round: 2, epoch }),
        }
    }
    let Some(mut model) = model else {
        return Err("the checkpoint holds a round two that this fit does not make".into());
    };
    if settings.keep_lean {
        let Some(b) = &base else { return Err("--keep-lean: needs --base, the weights whose lean is kept".into()) };
        // The mean signed error of each stage, in discs, of the fit and of the base, on the same
        // positions; the difference moves the stage's bias (scalar 0, a constant 1).
        let mut sums = vec![(0f64, 0f64, 0usize); stages];
        for s in &valid {
            let cell = &mut sums[s.stage as usize];
            cell.0 += (evaluate_fine_with::<N>(&weights, s.p, s.o) as f32 / SCALE as f32 - s.label) as f64;
            cell.1 += (evaluate_fine_with::<N>(b, s.p, s.o) as f32 / SCALE as f32 - s.label) as f64;
            cell.2 += 1;
        }
        for (st, &(fitted, based, k)) in sums.iter().enumerate() {
            if k == 0 || frozen.as_ref().is_some_and(|f| !f.fits(st)) {
                continue;
            }
            let shift = ((based - fitted) / k as f64) as f32;
            model.scalars[st][0] += shift;
            eprintln!("stage {st}: bias {shift:+.2} discs, to the base's lean ({:+.2})", based / k as f64);
        }
        install(&mut weights, &model);
    }
    // With `--base`, its weights on the same validation positions, side by side.
    let base_title = if base.is_some() { " validation MAE, base |" } else { "" };
    println!(
        "| stage | empties | training positions | validation positions | train MAE | validation MAE |{base_title} validation MAE, stand-in | validation mean error |"
    );
    println!("|---|---|---|---|---|---|{}---|---|", if base.is_some() { "---|" } else { "" });
    for st in 0..stages {
        let (lo, hi) = (st * bucket, st * bucket + bucket - 1);
        // Count, mean absolute error and mean error, as cells: `-` where the stage has no positions.
        let mae = |set: &[Sample], f: &dyn Fn(&Sample) -> i32| {
            let picked: Vec<f64> =
                set.iter().filter(|s| s.stage as usize == st).map(|s| (f(s) as f32 - s.label) as f64).collect();
            let k = picked.len() as f64;
            let cell = |x: f64, sign: bool| match (picked.is_empty(), sign) {
                (true, _) => "-".to_string(),
                (false, true) => format!("{:+.2}", x / k),
                (false, false) => format!("{:.2}", x / k),
            };
            (picked.len(), cell(picked.iter().map(|x| x.abs()).sum(), false), cell(picked.iter().sum(), true))
        };
        let fitted = |s: &Sample| evaluate_with::<N>(&weights, s.p, s.o);
        let stand_in = |s: &Sample| baseline::<N>(s.p, s.o);
        let (kt, train_mae, _) = mae(&train, &fitted);
        let (kv, valid_mae, valid_bias) = mae(&valid, &fitted);
        let (_, stand_in_mae, _) = mae(&valid, &stand_in);
        let base_cell = match &base {
            Some(b) => format!(" {} |", mae(&valid, &|s: &Sample| evaluate_with::<N>(b, s.p, s.o)).1),
            None => String::new(),
        };
        println!(
            "| {st} | {lo}-{hi} | {kt} | {kv} | {train_mae} | {valid_mae} |{base_cell} {stand_in_mae} | {valid_bias} |"
        );
    }
    if !exact.is_empty() {
        exact_report::<N>(&exact, &weights, base.as_ref(), bucket);
    }
    opening_report::<N>(&weights);
    std::fs::create_dir_all(&settings.out).map_err(|e| format!("{}: {e}", settings.out.display()))?;
    let path = settings.out.join(format!("weights-{N}.oxev"));
    let bytes = weights.to_bytes();
    std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote {} ({} bytes)", path.display(), bytes.len());
    // Check positions: two per stage from the validation games, with these weights' evaluations.
    let mut text = format!(
        "# fit-eval check positions for weights-{N}.oxev: board string, then the evaluation (discs, side to move)\n"
    );
    for st in 0..stages {
        for s in valid.iter().filter(|s| s.stage as usize == st).take(2) {
            text += &format!("{} {}\n", board_string::<N>(s.p, s.o), evaluate_with::<N>(&weights, s.p, s.o));
        }
    }
    // The frozen stages keep the check positions beside their weights, and their evaluations.
    if let (Some(f), Some(path)) = (&frozen, &settings.base) {
        let check = path.with_file_name(format!("check-{N}.txt"));
        let old = std::fs::read_to_string(&check).map_err(|e| format!("{}: {e}", check.display()))?;
        for line in check_lines(&old, &check)? {
            if let CheckLine::Position { board, pos, .. } = line
                && !f.fits(weights.stage_of(pos.empty_count() as usize))
            {
                text += &check_line::<N>(&weights, board, &pos);
            }
        }
    }
    let check_path = settings.out.join(format!("check-{N}.txt"));
    std::fs::write(&check_path, text).map_err(|e| format!("{}: {e}", check_path.display()))?;
    println!("wrote {} in {:.1} s", check_path.display(), began.elapsed().as_secs_f64());
    if let Some(path) = &settings.checkpoint {
        // The fit is done: its state is no longer needed (a new run starts afresh). A fit that
        // never stopped nor reached its tenth epoch wrote none.
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(format!("{}: {e}", path.display())),
            _ => {}
        }
    }
    Ok(Ended::Finished)
}
