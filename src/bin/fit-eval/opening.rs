//! The opening stages tuned to deeper searches: every position of the first plies, labelled by
//! the program's own estimate search, as Egaroucid labels its first moves by a deeper search.
//!
//! Self-play games give the stages nearest the start few distinct positions, and a shallow
//! search of the start reads only those: at depth 4 every leaf of the 8x8 start is a position of
//! the 56-59 empties stage, and there are only 60 of them up to symmetry. So instead of games,
//! this step takes **every** position of plies 0 to `plies` (twins once, [`positions_by_ply`]),
//! labels each with the mean of the estimate search's values `depth - 1` and `depth` plies deep
//! (the two depths lean towards opposite sides, the side that moves last in each), and refits the
//! stages that hold nothing but those positions. The fit starts from the weights given and is
//! pulled back towards them (`anchor`, in samples' worth), so entries the positions do not use
//! keep their values.
//!
//! Labelling is the slow part (seconds a position at depth 14): the labels go to a file, one line
//! a position, flushed as they come, in shards like the other generators (`--shard I/N`: position
//! `g` belongs to shard `g mod N`); a shard started again goes on from where it stopped. The fit
//! reads every shard file given.

use crate::shards;
use crate::train::{CheckLine, check_line, check_lines};
use othello_explorer::eval::features::{SCALARS, scalars};
use othello_explorer::eval::pattern::{Layout, pattern_entries};
use othello_explorer::eval::weights::StageWeights;
use othello_explorer::eval::{SCALE, Weights, evaluate_with};
use othello_explorer::notation::obf::format_board;
use othello_explorer::solver::{Kind, Limits, Report, SearchMode, Solver, SolverOptions};
use othello_explorer::store::book::positions_by_ply;
use othello_explorer::{Position, Size};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// Every position of plies 0..=`plies` from the start, twins once, in a fixed order (ply by ply,
/// each ply in the order it is reached): item `g` of a labelling run.
pub fn positions(size: Size, plies: u32) -> Vec<Position> {
    positions_by_ply(size, plies).into_iter().flatten().collect()
}

/// The estimate of `position` (side to move's view) at each depth 1..=`depth`: the best child's
/// value at that depth of the iterative deepening.
fn estimates(solver: &mut Solver, position: &Position, depth: u32) -> BTreeMap<u32, i32> {
    let mut by_depth: BTreeMap<u32, i32> = BTreeMap::new();
    solver.analyse(position, SearchMode::Estimate, Some(depth), &Limits::default(), &[], &mut |r| {
        if let Report::Child(c) = r
            && let Kind::Estimate { depth, .. } = c.kind
        {
            let best = by_depth.entry(depth).or_insert(i32::MIN);
            *best = (*best).max(c.score);
        }
    });
    by_depth
}

/// The label of one position: the mean of its estimates `depth - 1` and `depth` plies deep, in
/// discs (a position with no move to search is labelled by a search of the position after its
/// pass, negated).
fn label(solver: &mut Solver, position: &Position, depth: u32) -> f64 {
    if position.must_pass() {
        return -label(solver, &position.pass(), depth);
    }
    let by_depth = estimates(solver, position, depth);
    let at = |d: u32| by_depth.get(&d).copied().unwrap_or(0) as f64;
    (at(depth - 1) + at(depth)) / 2.0
}

/// How a labelling shard is set.
pub struct Labelling {
    pub size: Size,
    pub plies: u32,
    pub depth: u32,
    pub index: u64,
    pub count: u64,
}

impl Labelling {
    fn header(&self) -> String {
        format!(
            "# fit-eval opening v1 size {} plies {} depth {} shard {}/{}",
            self.size.n(),
            self.plies,
            self.depth,
            self.index + 1,
            self.count
        )
    }
}

/// Labels shard `index` of `count` of every opening position into `out/opening-NxN-pK-dD-I-of-C.txt`.
pub fn label_shard(run: &Labelling, out: &Path, hash_mb: usize) -> Result<(), String> {
    if run.depth < 2 {
        return Err(format!("--depth {}: at least 2 (labels are the mean of two depths)", run.depth));
    }
    let all = positions(run.size, run.plies);
    let mine = (all.len() as u64).saturating_sub(run.index).div_ceil(run.count);
    let n = run.size.n();
    let path =
        out.join(format!("opening-{n}x{n}-p{}-d{}-{}-of-{}.txt", run.plies, run.depth, run.index + 1, run.count));
    let mut solver = Solver::try_new(SolverOptions { hash_mb, threads: 1, ..SolverOptions::default() })
        .map_err(|e| e.to_string())?;
    let valid = |line: &str| parse_line(run.size, line).is_some();
    shards::fill(&path, &run.header(), (run.index, run.count), mine, &AtomicBool::new(false), valid, |g| {
        let position = &all[g as usize];
        solver.clear();
        let y = label(&mut solver, position, run.depth);
        Some(format!("{} {y:.1}", format_board(position)))
    })?;
    Ok(())
}

/// A label line (after its index): the board string and the label.
fn parse_line(size: Size, line: &str) -> Option<(Position, f64)> {
    let mut words = line.split_whitespace();
    let _index: u64 = words.next()?.parse().ok()?;
    let board = format!("{} {}", words.next()?, words.next()?);
    let position = othello_explorer::notation::obf::parse_board(&board).ok()?;
    let y: f64 = words.next()?.parse().ok()?;
    (position.size() == size && words.next().is_none()).then_some((position, y))
}

/// One labelled position as the fit sees it: `p`, `o`, its scalar features, its table entries, its
/// label and its weight.
type Row = (u64, u64, [f64; SCALARS], Vec<u32>, f64, f64);

/// How the refit is set.
pub struct Refit {
    pub labels: Vec<PathBuf>,
    pub weights: PathBuf,
    pub anchor: f64,
    pub epochs: usize,
    pub out: PathBuf,
}

/// Refits the stages that hold only labelled positions, writes `weights-N.oxev` and prints each
/// position's evaluation before and after against its label.
pub fn refit<const N: usize>(settings: &Refit) -> Result<(), String> {
    let size = Size::from_n(N).expect("6 or 8");
    let bytes = std::fs::read(&settings.weights).map_err(|e| format!("{}: {e}", settings.weights.display()))?;
    let mut weights = Weights::from_bytes(N, &bytes).map_err(|e| format!("{}: {e:?}", settings.weights.display()))?;
    let mut labelled: BTreeMap<String, (Position, f64)> = BTreeMap::new();
    let mut plies = None;
    for path in &settings.labels {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let header = text.lines().next().unwrap_or_default();
        let Some(rest) = header.strip_prefix(&format!("# fit-eval opening v1 size {N} plies ")) else {
            return Err(format!("{}: line 1: not {N}x{N} opening labels", path.display()));
        };
        let p: u32 = rest.split_whitespace().next().and_then(|w| w.parse().ok()).unwrap_or(0);
        if plies.is_some_and(|q| q != p) {
            return Err(format!("{}: line 1: labels of {p} plies among labels of {plies:?}", path.display()));
        }
        plies = Some(p);
        for (k, line) in text.lines().enumerate().skip(1) {
            let (position, y) = parse_line(size, line)
                .ok_or_else(|| format!("{}: line {}: not a label line", path.display(), k + 1))?;
            labelled.insert(format_board(&position), (position, y));
        }
    }
    let plies = plies.ok_or("no label files given")?;
    let expected = positions(size, plies).len();
    if labelled.len() != expected {
        return Err(format!(
            "{} positions labelled of the {expected} of plies 0-{plies}: label them all first",
            labelled.len()
        ));
    }
    // The stages every one of whose positions is labelled: all their empties within the plies.
    let most = N * N - 4;
    let fewest = most - plies as usize;
    let bucket = weights.bucket();
    let tuned: Vec<usize> = (0..weights.stages().len())
        .filter(|&st| st * bucket >= fewest && st * bucket <= most)
        .filter(|&st| (st * bucket..st * bucket + bucket).all(|e| e >= fewest))
        .collect();
    if tuned.is_empty() {
        return Err(format!("plies 0-{plies} fill no stage of {bucket} empties: label more plies"));
    }
    let layout = Layout::of(N);
    let before = weights.clone();
    for &st in &tuned {
        // Each ply weighs the same in the fit, however many positions it has: the fewer the
        // positions, the nearer the start, and the more searches read them.
        let mut per_ply = BTreeMap::new();
        for (pos, _) in labelled.values() {
            *per_ply.entry(pos.empty_count()).or_insert(0usize) += 1;
        }
        let samples: Vec<Row> = labelled
            .values()
            .filter(|(pos, _)| weights.stage_of(pos.empty_count() as usize) == st)
            .map(|(pos, y)| {
                let (p, o) = pos.raw();
                let mut entries = Vec::new();
                pattern_entries::<N>(p, o, &mut entries);
                let weight = 1.0 / per_ply[&pos.empty_count()] as f64;
                (p, o, scalars::<N>(p, o).map(|x| x as f64), entries, *y, weight)
            })
            .collect();
        let stage = weights.stage(st);
        let w0: Vec<f64> = stage.scalars.iter().chain(stage.tables.iter()).map(|&x| x as f64 / SCALE as f64).collect();
        let w = fit_stage(&samples, &w0, settings.anchor, settings.epochs);
        let quantise = |x: f64| (x * SCALE as f64).round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        let mut new = StageWeights { scalars: [0; SCALARS], tables: vec![0; layout.table_len()] };
        for (i, x) in w.iter().enumerate() {
            if i < SCALARS {
                new.scalars[i] = quantise(*x);
            } else {
                new.tables[i - SCALARS] = quantise(*x);
            }
        }
        weights.set_stage(st, new);
        let err = |w: &Weights| {
            samples.iter().map(|s| (evaluate_with::<N>(w, s.0, s.1) as f64 - s.4).abs()).sum::<f64>()
                / samples.len().max(1) as f64
        };
        println!(
            "stage {st} ({}-{} empties): {} positions, mean |evaluation - label| {:.2} -> {:.2}",
            st * bucket,
            st * bucket + bucket - 1,
            samples.len(),
            err(&before),
            err(&weights)
        );
    }
    // The first plies, where a shallow search of the start reads: each position before and after.
    for (pos, y) in labelled.values().filter(|(pos, _)| pos.empty_count() as usize >= most - 2) {
        let (p, o) = pos.raw();
        println!(
            "{}: label {y:+.1}, evaluation {:+} -> {:+}",
            format_board(pos),
            evaluate_with::<N>(&before, p, o),
            evaluate_with::<N>(&weights, p, o)
        );
    }
    std::fs::create_dir_all(&settings.out).map_err(|e| format!("{}: {e}", settings.out.display()))?;
    let path = settings.out.join(format!("weights-{N}.oxev"));
    let bytes = weights.to_bytes();
    std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote {} ({} bytes)", path.display(), bytes.len());
    // The check positions beside the weights started from: those of the refitted stages take the
    // new evaluation, so the file stays what these weights give.
    let check = settings.weights.with_file_name(format!("check-{N}.txt"));
    if let Ok(text) = std::fs::read_to_string(&check) {
        let mut out = String::new();
        for line in check_lines(&text, &check)? {
            match line {
                CheckLine::Position { board, pos, .. }
                    if tuned.contains(&weights.stage_of(pos.empty_count() as usize)) =>
                {
                    out += &check_line::<N>(&weights, board, &pos)
                }
                CheckLine::Position { line, .. } | CheckLine::Comment(line) => out += &format!("{line}\n"),
            }
        }
        let path = settings.out.join(format!("check-{N}.txt"));
        std::fs::write(&path, out).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// One stage's weights (scalars, then the table entries) fitted to `samples` (p, o, scalars,
/// entries, label, weight) from `w0` by full-batch Adam on the weighted mean squared error plus
/// `anchor` samples' worth of pull towards `w0`.
fn fit_stage(samples: &[Row], w0: &[f64], anchor: f64, epochs: usize) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    let mut w = w0.to_vec();
    let (mut m, mut v, mut g) = (vec![0f64; w.len()], vec![0f64; w.len()], vec![0f64; w.len()]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-9f64);
    let predict = |w: &[f64], s: &Row| {
        s.2.iter().zip(w).map(|(x, w)| x * w).sum::<f64>() + s.3.iter().map(|&e| w[SCALARS + e as usize]).sum::<f64>()
    };
    for epoch in 0..epochs {
        let lr = 0.05 * (1.0 - epoch as f64 / epochs as f64) + 0.001;
        g.iter_mut().for_each(|x| *x = 0.0);
        for s in samples {
            let r = 2.0 * s.5 * (predict(&w, s) - s.4) / n;
            for (i, x) in s.2.iter().enumerate() {
                g[i] += r * x;
            }
            for &e in &s.3 {
                g[SCALARS + e as usize] += r;
            }
        }
        let pull = 2.0 * anchor / n;
        let t = epoch as i32 + 1;
        let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        for k in 0..w.len() {
            g[k] += pull * (w[k] - w0[k]);
            if g[k] == 0.0 && m[k] == 0.0 {
                continue;
            }
            m[k] = b1 * m[k] + (1.0 - b1) * g[k];
            v[k] = b2 * v[k] + (1.0 - b2) * g[k] * g[k];
            w[k] -= lr * (m[k] / c1) / ((v[k] / c2).sqrt() + eps);
        }
        if epoch % 500 == 499 {
            let mse = samples.iter().map(|s| s.5 * (predict(&w, s) - s.4).powi(2)).sum::<f64>() / n;
            eprintln!("epoch {}: mean squared error {mse:.3}", epoch + 1);
        }
    }
    w
}
