//! `margins`: how far the estimates overstate a move's loss, per board, stage and depth, measured
//! against problem files that give every move's exact score; writes the table the review reads
//! (`data/review-margins.txt`, see `othello_explorer::studies::review::margins`).
//!
//! Each position is analysed once, by estimates deepened to `--max-depth` (one thread, the shipped
//! weights, or the network with `--eval network`); at the end of each depth the children's values are taken as a review would see
//! them. For every child whose estimated loss (the best child's value less its own) is 2 or more,
//! and whose value or the best's is an estimate, the error is that loss less the exact loss (the
//! best exact score less the child's). A band's row gives the 95th percentile of the errors.

use othello_explorer::eval::Evaluator;
use othello_explorer::notation::obf::parse_problem;
use othello_explorer::solver::{ChildValue, Kind, Limits, Report, SearchMode, Solver, SolverOptions, rank};
use othello_explorer::{Position, Square};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::time::Duration;

/// The measure's settings.
pub(crate) struct Margins {
    /// Problem files with every move's exact score.
    pub(crate) files: Vec<PathBuf>,
    /// The deepest estimate measured.
    pub(crate) max_depth: u32,
    /// The bands' edges per board: a band runs from one edge up to the next less one.
    pub(crate) bands: Vec<(usize, Vec<u32>)>,
    /// Time allowed a position (its depths completed within it count).
    pub(crate) per_position: Duration,
    /// The estimates' evaluation.
    pub(crate) evaluator: Evaluator,
    /// Where the table goes.
    pub(crate) out: PathBuf,
}

/// The 95th percentile (the nearest rank above), at least 0.
fn percentile_95(errors: &mut [i32]) -> i32 {
    errors.sort_unstable();
    let k = (errors.len() * 95).div_ceil(100).max(1) - 1;
    errors[k].max(0)
}

/// The band of `empties` on board `side`, if any.
fn band_of(bands: &[(usize, Vec<u32>)], side: usize, empties: u32) -> Option<(u32, u32)> {
    let (_, edges) = bands.iter().find(|(s, _)| *s == side)?;
    edges.windows(2).find(|w| w[0] <= empties && empties < w[1]).map(|w| (w[0], w[1] - 1))
}

/// The errors of the estimated losses at one completed depth: `values` are the children's values
/// then, `exact` every move's exact score.
fn errors_at(values: &HashMap<Square, ChildValue>, exact: &HashMap<Square, i32>) -> Vec<i32> {
    let Some(top) = values.values().max_by_key(|c| rank(c.score, c.kind, None)) else { return Vec::new() };
    let Some(best_exact) = exact.values().max() else { return Vec::new() };
    let mut out = Vec::new();
    for c in values.values() {
        let estimated = matches!(c.kind, Kind::Estimate { .. }) || matches!(top.kind, Kind::Estimate { .. });
        let (Some(&e), true) = (exact.get(&c.square), estimated) else { continue };
        if c.kind == Kind::Wld || top.kind == Kind::Wld {
            continue;
        }
        let loss = top.score - c.score;
        if loss >= 2 {
            out.push(loss - (best_exact - e));
        }
    }
    out
}

pub(crate) fn run(m: &Margins) -> Result<(), String> {
    let mut solver =
        Solver::try_new(SolverOptions { hash_mb: 64, threads: 1, evaluator: m.evaluator, ..SolverOptions::default() })
            .map_err(|e| format!("the solver's table: {e}"))?;
    // (side, low, high, depth) -> errors.
    let mut errors: BTreeMap<(usize, u32, u32, u32), Vec<i32>> = BTreeMap::new();
    let mut positions = 0usize;
    for path in &m.files {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('%') || t.starts_with(';') || t.starts_with('#') {
                continue;
            }
            let problem = parse_problem(t).map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
            let position: Position = problem.position.after_forced_pass().0;
            let legal = position.legal_moves().count() as usize;
            if legal < 2 || problem.scores.len() != legal {
                continue;
            }
            let side = position.size().n();
            let Some((low, high)) = band_of(&m.bands, side, position.empty_count()) else { continue };
            let exact: HashMap<Square, i32> = problem.scores.iter().copied().collect();
            let mut values: HashMap<Square, ChildValue> = HashMap::new();
            let mut found: Vec<(u32, Vec<i32>)> = Vec::new();
            let limits = Limits { max_time: Some(m.per_position), ..Limits::default() };
            solver.clear();
            let analysis =
                solver.analyse(&position, SearchMode::Estimate, Some(m.max_depth), &limits, &[], &mut |r| match r {
                    Report::Child(c) => {
                        values.insert(c.square, c);
                    }
                    Report::DepthDone { depth } if values.len() == legal => {
                        found.push((depth, errors_at(&values, &exact)))
                    }
                    _ => {}
                });
            positions += 1;
            for (depth, errs) in found {
                errors.entry((side, low, high, depth)).or_default().extend(errs);
            }
            eprintln!(
                "{}: {positions} positions; this one {} empties, depth {}",
                path.display(),
                position.empty_count(),
                analysis.depth.unwrap_or(0)
            );
        }
    }
    let mut text = String::new();
    text.push_str("# The review's margins: per board side, band of empties (low-high) and estimate depth, the moves\n");
    text.push_str("# measured (estimated loss 2 or more) and the 95th percentile of estimated loss less exact loss.\n");
    text.push_str("# Made by fit-eval margins (docs/review.md) from:");
    for f in &m.files {
        text.push_str(&format!(" {}", f.display()));
    }
    text.push_str(&format!(
        "\n# {positions} positions, estimates to depth {}, one thread, the evaluation: {}.\n",
        m.max_depth,
        m.evaluator.name()
    ));
    text.push_str("# side low high depth pairs margin\n");
    for ((side, low, high, depth), mut errs) in errors {
        if errs.is_empty() {
            continue;
        }
        let margin = percentile_95(&mut errs);
        text.push_str(&format!("{side} {low} {high} {depth} {} {margin}\n", errs.len()));
    }
    othello_explorer::studies::review::margins::parse(&text).map_err(|e| format!("the table made: {e}"))?;
    let out = othello_explorer::notation::writefile::target(&m.out).map_err(|e| e.to_string())?;
    std::fs::write(&out, text).map_err(|e| format!("{}: {e}", m.out.display()))?;
    eprintln!("wrote {}", m.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_percentile_and_the_bands() {
        assert_eq!(percentile_95(&mut (1..=100).collect::<Vec<_>>()), 95);
        assert_eq!(percentile_95(&mut [-3, -1]), 0);
        let bands = vec![(8, vec![14, 17, 21])];
        assert_eq!(band_of(&bands, 8, 16), Some((14, 16)));
        assert_eq!(band_of(&bands, 8, 21), None);
        assert_eq!(band_of(&bands, 6, 16), None);
    }
}
