//! `probcut-samples` and `probcut-fit`: the parameters of the selective search (Multi-ProbCut,
//! `othello_explorer::solver::probcut`) measured on the project's own searches.
//!
//! **Samples.** Item `g` of a run is one position drawn, with a random stream seeded by
//! `(seed, g)` alone, from the self-play games of `fit-eval games` (`data/training/games/`): a
//! game, then a number of empties from `--min-empties` to `--max-empties`, and the game's position
//! with that many empties at or after its random opening (the random plies are not data). Its
//! line holds the position, its empties, its value by the full-width estimate search at every
//! depth from 0 (the evaluation) to `--max-depth` (the plain minimax: no selectivity, the
//! principal variation not extended, a cleared table), and its exact score when it has at most
//! `--exact-max` empties (else `-`):
//!
//! ```text
//! # fit-eval probcut-samples v1 size 8 seed 1 shard 1/2 depths 10 exact 24 empties 12-52 games <fnv of the game files' names and counts>
//! 0 ---…OX X 31 +3 +1 +4 +2 +4 +2 +3 +2 +3 +1 +2 -
//! ```
//!
//! Shards and resumption are those of every generator ([`crate::shards`]). The fit reads sample
//! files plain or gzip-compressed (`.gz`, as they are committed in `data/training/probcut/`).
//!
//! **Fit.** For each board, band of empties and pair of depths (deep, shallow) the model is a
//! straight line, `deep = slope * shallow + offset`, fitted by least squares, and the spread
//! `sigma`, the standard deviation of what the line leaves. The deep value is a deeper estimate
//! (`mid`, the pairs the search uses: shallow = [`shallow_of`]`(deep)`, and shallow 0, the
//! evaluation alone, for the search's first look) or the exact score (`end`, every shallow depth
//! measured). Where a cell has too few samples, or lies beyond the measured depths, the search
//! uses a model fitted over every cell of the board: `ln sigma` linear in the empties, the deep
//! depth and the shallow depth (`end`: in the empties and the shallow depth), with slope 1 and
//! offset 0. `docs/probcut.md` gives the commands and the figures.

use crate::Rng;
use crate::games::read;
use crate::shards;
use othello_explorer::eval::Evaluator;
use othello_explorer::notation::obf::{format_board, parse_board};
use othello_explorer::solver::{EXACT_MARGIN, Limits, Solver, SolverOptions, probcut::shallow_of};
use othello_explorer::{Position, Size};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The settings of a sample run.
pub(crate) struct Samples {
    pub games: Vec<PathBuf>,
    /// Sample files whose positions are searched again (`--from`), in place of drawing them
    /// from `games`.
    pub from: Vec<PathBuf>,
    /// The evaluation at the estimates' leaves.
    pub evaluator: Evaluator,
    pub seed: u64,
    pub shard: (u64, u64),
    pub positions: u64,
    pub max_depth: u32,
    pub exact_max: u32,
    pub min_empties: u32,
    pub max_empties: u32,
    pub out: PathBuf,
}

/// Nodes allowed one search of a sample: a position that needs more is given no value there.
const SEARCH_NODES: u64 = 2_000_000_000;

/// The positions a game offers: those at or after its random opening, by empties.
fn positions_of(size: Size, moves: &[othello_explorer::Square], opening: usize) -> BTreeMap<u32, Position> {
    let mut out = BTreeMap::new();
    let mut pos = Position::start(size);
    for (ply, &m) in moves.iter().enumerate() {
        let (here, _) = pos.after_forced_pass();
        if ply >= opening && !here.is_game_over() {
            out.entry(here.empty_count()).or_insert(here);
        }
        let Ok(next) = here.play(m) else { break };
        pos = next;
    }
    out
}

/// Where a run's positions come from.
enum Source {
    /// Drawn from self-play games.
    Games(Vec<crate::games::Game>),
    /// The positions of earlier samples, each with its exact score (`None`: not solved), in
    /// their files' order; `None` where the earlier run found no position.
    Earlier(Vec<Option<(Position, Option<i32>)>>),
}

/// Reads the games files (their size, the games and the tag of their names and counts).
fn read_games(paths: &[PathBuf]) -> Result<(Size, Source, String), String> {
    let mut games = Vec::new();
    let mut size = None;
    let mut tag = String::new();
    for path in paths {
        let file = read(path)?;
        if size.is_some_and(|z| z != file.size) {
            return Err(format!("{}: games of another board size", path.display()));
        }
        size = Some(file.size);
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        write!(tag, "{name}:{};", file.games.len()).expect("a string");
        games.extend(file.games);
    }
    let size = size.ok_or("no games file named")?;
    if games.is_empty() {
        return Err("the games files hold no game".to_string());
    }
    Ok((size, Source::Games(games), tag))
}

/// Reads the positions and exact scores of earlier sample files (`--from`).
fn read_earlier(paths: &[PathBuf]) -> Result<(Size, Source, String), String> {
    let mut items = Vec::new();
    let mut size = None;
    let mut tag = String::new();
    for path in paths {
        let shown = path.display();
        let text = read_text(path)?;
        let side = header_side(&text, path)?;
        let this = Size::from_n(side).ok_or_else(|| format!("{shown}: line 1: size {side} is not a board"))?;
        if size.is_some_and(|z| z != this) {
            return Err(format!("{shown}: samples of another board size"));
        }
        size = Some(this);
        let before = items.len();
        for (i, line) in text.lines().enumerate().skip(1) {
            let w: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("{shown}: line {}: not a sample", i + 1);
            if w.len() < 5 {
                return Err(bad());
            }
            if w[1] == "-" {
                items.push(None);
                continue;
            }
            let position = parse_board(&format!("{} {}", w[1], w[2])).map_err(|_| bad())?;
            let last = w[w.len() - 1];
            let exact = if last == "-" { None } else { Some(last.parse::<i32>().map_err(|_| bad())?) };
            items.push(Some((position, exact)));
        }
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        write!(tag, "{name}:{};", items.len() - before).expect("a string");
    }
    let size = size.ok_or("no samples file named")?;
    Ok((size, Source::Earlier(items), tag))
}

/// Makes or continues one shard of samples.
pub(crate) fn samples(s: &Samples) -> Result<u64, String> {
    let (size, source, tag) = if s.from.is_empty() { read_games(&s.games)? } else { read_earlier(&s.from)? };
    let hash = othello_explorer::notation::checksum::fnv1a(tag.as_bytes());
    let mut header = format!(
        "# fit-eval probcut-samples v1 size {} seed {} shard {}/{} depths {} exact {} empties {}-{} games {hash:016x}",
        size.n(),
        s.seed,
        s.shard.0 + 1,
        s.shard.1,
        s.max_depth,
        s.exact_max,
        s.min_empties,
        s.max_empties
    );
    // The patterns' runs keep the header they always had, so their files continue.
    if s.evaluator != Evaluator::Patterns {
        write!(header, " eval {}", s.evaluator.name()).expect("a string");
    }
    if !s.from.is_empty() {
        header.push_str(" from-samples");
    }
    let mut solver = Solver::try_new(SolverOptions {
        hash_mb: 64,
        threads: 1,
        pv_extension: false,
        evaluator: s.evaluator,
        ..Default::default()
    })
    .map_err(|e| format!("the solver's table: {e}"))?;
    let limits = Limits { max_nodes: Some(SEARCH_NODES), ..Limits::default() };
    let stop = AtomicBool::new(false);
    let fields = s.max_depth as usize + 5;
    let positions = match &source {
        Source::Earlier(items) => s.positions.min(items.len() as u64),
        Source::Games(_) => s.positions,
    };
    shards::fill(
        &s.out,
        &header,
        s.shard,
        positions,
        &stop,
        |line| line.split_whitespace().count() == fields,
        |g| {
            let none = || "- -".to_string() + &" -".repeat(fields - 3);
            let (position, known) = match &source {
                Source::Games(games) => {
                    let mut rng =
                        Rng(s.seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ g.wrapping_mul(0x9e37_79b9_7f4a_7c15));
                    let span = (s.max_empties - s.min_empties + 1) as usize;
                    let position = (0..64).find_map(|_| {
                        let game = &games[rng.below(games.len())];
                        let empties = s.min_empties + rng.below(span) as u32;
                        positions_of(size, &game.moves, game.opening).remove(&empties)
                    });
                    match position {
                        Some(p) => (p, None),
                        None => return Some(none()),
                    }
                }
                Source::Earlier(items) => match items.get(g as usize) {
                    Some(Some((p, exact))) => (*p, Some(*exact)),
                    _ => return Some(none()),
                },
            };
            let mut line = format!("{} {}", format_board(&position), position.empty_count());
            for depth in 0..=s.max_depth {
                solver.clear();
                match solver.estimate(&position, depth, &limits) {
                    Ok((v, _)) => write!(line, " {v:+}").expect("a string"),
                    Err(_) => line.push_str(" -"),
                }
            }
            let exact = match known {
                Some(exact) => exact,
                None if position.empty_count() <= s.exact_max => {
                    solver.clear();
                    let (here, passed) = position.after_forced_pass();
                    solver.score(&here, &limits).ok().map(|(v, _, _)| if passed { -v } else { v })
                }
                None => None,
            };
            match exact {
                Some(v) => write!(line, " {v:+}").expect("a string"),
                None => line.push_str(" -"),
            }
            Some(line)
        },
    )
}

/// A samples file's text, read through gzip when its name ends in `.gz` (the committed ones).
fn read_text(path: &Path) -> Result<String, String> {
    let shown = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
            .map_err(|e| format!("{shown}: {e}"))?;
        Ok(text)
    } else {
        String::from_utf8(bytes).map_err(|_| format!("{shown}: not text"))
    }
}

/// The board side a samples file's header names.
fn header_side(text: &str, path: &Path) -> Result<usize, String> {
    let shown = path.display();
    let header = text.lines().next().ok_or_else(|| format!("{shown}: empty"))?;
    let side = header
        .split_whitespace()
        .skip_while(|w| *w != "size")
        .nth(1)
        .and_then(|w| w.parse().ok())
        .filter(|_| header.starts_with("# fit-eval probcut-samples"))
        .ok_or_else(|| format!("{shown}: line 1: not a probcut samples file"))?;
    Ok(side)
}

/// One sample read back: empties, the value at each depth (`None`: not searched), the exact
/// score.
struct Sample {
    empties: u32,
    depths: Vec<Option<i32>>,
    exact: Option<i32>,
}

fn read_samples(path: &Path) -> Result<(usize, Vec<Sample>), String> {
    let shown = path.display();
    let text = read_text(path)?;
    let side = header_side(&text, path)?;
    let lines = text.lines().skip(1);
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() < 5 || w[1] == "-" {
            continue;
        }
        let bad = || format!("{shown}: line {}: not a sample", i + 2);
        parse_board(&format!("{} {}", w[1], w[2])).map_err(|_| bad())?;
        let empties: u32 = w[3].parse().map_err(|_| bad())?;
        let value = |t: &str| if t == "-" { Ok(None) } else { t.parse::<i32>().map(Some).map_err(|_| bad()) };
        let depths = w[4..w.len() - 1].iter().map(|t| value(t)).collect::<Result<Vec<_>, _>>()?;
        let exact = value(w[w.len() - 1])?;
        out.push(Sample { empties, depths, exact });
    }
    Ok((side, out))
}

/// Least squares of `deep` on `shallow`: (slope, offset, sigma).
fn line_fit(pairs: &[(f64, f64)]) -> (f64, f64, f64) {
    let n = pairs.len() as f64;
    let (sx, sy) = pairs.iter().fold((0.0, 0.0), |(a, b), &(x, y)| (a + x, b + y));
    let (mx, my) = (sx / n, sy / n);
    let (mut sxx, mut sxy) = (0.0, 0.0);
    for &(x, y) in pairs {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
    }
    let slope = if sxx > 1e-9 { (sxy / sxx).clamp(0.5, 1.5) } else { 1.0 };
    let offset = my - slope * mx;
    let var = pairs.iter().map(|&(x, y)| (y - slope * x - offset).powi(2)).sum::<f64>() / (n - 2.0).max(1.0);
    (slope, offset, var.sqrt().max(0.5))
}

/// Solves the normal equations of a least-squares fit of `y` on the columns of `rows` (each row
/// starting with its 1 for the intercept), weighted.
fn least_squares(rows: &[(Vec<f64>, f64, f64)]) -> Vec<f64> {
    let k = rows.first().map_or(0, |r| r.0.len());
    let mut a = vec![vec![0.0; k + 1]; k];
    for (x, y, w) in rows {
        for i in 0..k {
            for j in 0..k {
                a[i][j] += w * x[i] * x[j];
            }
            a[i][k] += w * x[i] * y;
        }
    }
    // Gaussian elimination with partial pivoting.
    for c in 0..k {
        let pivot = (c..k).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs())).unwrap_or(c);
        a.swap(c, pivot);
        if a[c][c].abs() < 1e-12 {
            continue;
        }
        let pivot_row = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != c {
                let f = row[c] / pivot_row[c];
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(c) {
                    *x -= f * p;
                }
            }
        }
    }
    (0..k).map(|i| if a[i][i].abs() < 1e-12 { 0.0 } else { a[i][k] / a[i][i] }).collect()
}

/// The settings of the fit.
pub(crate) struct Fit {
    pub samples: Vec<PathBuf>,
    /// Width of the bands of empties, per board.
    pub band: Vec<(usize, u32)>,
    /// Fewest samples a cell is fitted from.
    pub min_count: usize,
    pub out: PathBuf,
}

/// A fitted cell: (slope, offset, sigma, count).
type Cell = (f64, f64, f64, usize);

/// A cell's key: (kind: 0 `mid`, 1 `end`; band's low and high empties; deep depth, 0 for `end`;
/// shallow depth).
type CellKey = (u8, u32, u32, u32, u32);

pub(crate) fn fit(f: &Fit) -> Result<String, String> {
    // side -> samples
    let mut by_side: BTreeMap<usize, Vec<Sample>> = BTreeMap::new();
    for path in &f.samples {
        let (side, s) = read_samples(path)?;
        by_side.entry(side).or_default().extend(s);
    }
    let mut out = String::from(
        "# The selective search's parameters (Multi-ProbCut), made by `fit-eval probcut-fit` from the samples\n\
         # of `fit-eval probcut-samples` (docs/probcut.md). Lines:\n\
         #   model SIDE mid C0 CN CD CS   ln sigma = C0 + CN*empties + CD*deep + CS*shallow (cells not measured)\n\
         #   model SIDE end C0 CN CS      ln sigma = C0 + CN*empties + CS*shallow, the deep value exact\n\
         #   mid SIDE LOW HIGH DEEP SHALLOW SLOPE OFFSET SIGMA COUNT   deep = SLOPE*shallow + OFFSET, spread SIGMA\n\
         #   end SIDE LOW HIGH SHALLOW SLOPE OFFSET SIGMA COUNT        the same, the deep value the exact score\n",
    );
    let mut summary = String::new();
    for (side, samples) in &by_side {
        let width = f.band.iter().find(|(s, _)| s == side).map_or(4, |b| b.1).max(1);
        let band = |n: u32| (n / width * width, n / width * width + width - 1);
        let max_depth = samples.iter().map(|s| s.depths.len()).max().unwrap_or(0).saturating_sub(1) as u32;
        let mut pairs: BTreeMap<CellKey, Vec<(f64, f64)>> = BTreeMap::new();
        for s in samples {
            let (low, high) = band(s.empties);
            // Pairs whose deep value the estimate search already makes exact (within the exact
            // margin) are the `end` model's business.
            for deep in (1..=max_depth).filter(|&d| s.empties > d + EXACT_MARGIN) {
                let Some(Some(vd)) = s.depths.get(deep as usize) else { continue };
                let shallows = if shallow_of(deep) == 0 { vec![0] } else { vec![0, shallow_of(deep)] };
                for shallow in shallows {
                    if shallow >= deep {
                        continue;
                    }
                    if let Some(Some(vs)) = s.depths.get(shallow as usize) {
                        pairs.entry((0, low, high, deep, shallow)).or_default().push((*vs as f64, *vd as f64));
                    }
                }
            }
            if let Some(x) = s.exact {
                for shallow in (0..=max_depth).filter(|&d| s.empties > d + EXACT_MARGIN) {
                    if let Some(Some(vs)) = s.depths.get(shallow as usize) {
                        pairs.entry((1, low, high, 0, shallow)).or_default().push((*vs as f64, x as f64));
                    }
                }
            }
        }
        let mut cells: BTreeMap<CellKey, Cell> = BTreeMap::new();
        for (key, p) in &pairs {
            if p.len() >= f.min_count {
                let (slope, offset, sigma) = line_fit(p);
                cells.insert(*key, (slope, offset, sigma, p.len()));
            }
        }
        // The models, weighted by the cells' counts; a deep value that is exact where the
        // estimate reaches the end (a band within the exact margin) is left out of `mid`.
        let mid_rows: Vec<_> = cells
            .iter()
            .filter(|(k, _)| k.0 == 0)
            .map(|(k, c)| {
                let n = (k.1 + k.2) as f64 / 2.0;
                (vec![1.0, n, k.3 as f64, k.4 as f64], c.2.ln(), c.3 as f64)
            })
            .collect();
        let end_rows: Vec<_> = cells
            .iter()
            .filter(|(k, _)| k.0 == 1)
            .map(|(k, c)| {
                let n = (k.1 + k.2) as f64 / 2.0;
                (vec![1.0, n, k.4 as f64], c.2.ln(), c.3 as f64)
            })
            .collect();
        let mid = least_squares(&mid_rows);
        let end = least_squares(&end_rows);
        if mid.len() == 4 {
            writeln!(out, "model {side} mid {:.5} {:.5} {:.5} {:.5}", mid[0], mid[1], mid[2], mid[3])
                .expect("a string");
        }
        if end.len() == 3 {
            writeln!(out, "model {side} end {:.5} {:.5} {:.5}", end[0], end[1], end[2]).expect("a string");
        }
        for (k, c) in &cells {
            if k.0 == 0 {
                writeln!(out, "mid {side} {} {} {} {} {:.3} {:.3} {:.3} {}", k.1, k.2, k.3, k.4, c.0, c.1, c.2, c.3)
            } else {
                writeln!(out, "end {side} {} {} {} {:.3} {:.3} {:.3} {}", k.1, k.2, k.4, c.0, c.1, c.2, c.3)
            }
            .expect("a string");
        }
        writeln!(
            summary,
            "{side}x{side}: {} samples, {} cells (mid {}, end {})",
            samples.len(),
            cells.len(),
            cells.keys().filter(|k| k.0 == 0).count(),
            cells.keys().filter(|k| k.0 == 1).count()
        )
        .expect("a string");
    }
    std::fs::write(&f.out, out).map_err(|e| format!("{}: {e}", f.out.display()))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_and_its_spread_are_recovered() {
        // deep = 1.2 * shallow + 1, plus +-2 alternately: the residuals' spread is 2 (n - 2 dof).
        let pairs: Vec<(f64, f64)> = (0..100)
            .map(|i| (i as f64 - 50.0, 1.2 * (i as f64 - 50.0) + 1.0 + if i % 2 == 0 { 2.0 } else { -2.0 }))
            .collect();
        let (slope, offset, sigma) = line_fit(&pairs);
        assert!((slope - 1.2).abs() < 0.01, "{slope}");
        assert!((offset - 1.0).abs() < 0.1, "{offset}");
        assert!((sigma - 2.0).abs() < 0.05, "{sigma}");
    }

    #[test]
    fn the_models_least_squares_solve_a_known_plane() {
        // y = 3 + 0.5 a - 2 b, exactly.
        let rows: Vec<(Vec<f64>, f64, f64)> = (0..20)
            .map(|i| {
                let (a, b) = (i as f64, (i * 7 % 5) as f64);
                (vec![1.0, a, b], 3.0 + 0.5 * a - 2.0 * b, 1.0)
            })
            .collect();
        let c = least_squares(&rows);
        assert!((c[0] - 3.0).abs() < 1e-9 && (c[1] - 0.5).abs() < 1e-9 && (c[2] + 2.0).abs() < 1e-9, "{c:?}");
    }
}
