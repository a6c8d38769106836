//! `bench`: solve the positions of an OBF problem file and compare with the listed scores.

use super::CliError;
use super::outln;
use othello_explorer::obf::{Problem, parse_problem};
use othello_explorer::solver::{Limits, Solver, SolverOptions};
use serde_json::json;
use std::time::Instant;

/// A range of positions `A-B` (from 1), or one position `A`.
pub fn parse_range(text: &str) -> Result<(usize, usize), CliError> {
    let bad = || CliError::Usage(format!("--positions {text}: expected a range like 40-49 (counting from 1)"));
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?),
        None => {
            let a = text.trim().parse().map_err(|_| bad())?;
            (a, a)
        }
    };
    if a == 0 || b < a {
        return Err(bad());
    }
    Ok((a, b))
}

/// Reads the problems of an OBF file: blank lines and `%` comments skipped, positions counted
/// from 1.
pub fn read_problems(path: &str) -> Result<Vec<Problem>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| CliError::Usage(format!("{path}: {e}")))?;
    let mut problems = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('%') {
            continue;
        }
        let problem = parse_problem(line).map_err(|e| CliError::Usage(format!("{path}:{}: {e}", i + 1)))?;
        problems.push(problem);
    }
    Ok(problems)
}

pub fn run(path: &str, range: Option<&str>, options: SolverOptions, json: bool) -> Result<(), CliError> {
    let problems = read_problems(path)?;
    let (first, last) = match range {
        Some(r) => parse_range(r)?,
        None => (1, problems.len().max(1)),
    };
    if first > problems.len() {
        return Err(CliError::Usage(format!("--positions: {path} holds {} positions", problems.len())));
    }
    let last = last.min(problems.len());
    let mut solver = Solver::new(options.clone());
    let limits = Limits::default();
    if !json {
        outln!(
            "{:>5}  {:>7}  {:>5}  {:>4}  {:>9}  {:>14}  {:>12}",
            "#",
            "empties",
            "score",
            "best",
            "seconds",
            "nodes",
            "nodes/s"
        );
    }
    let (mut total_seconds, mut total_nodes, mut mismatches) = (0.0, 0u64, Vec::new());
    let mut rows = Vec::new();
    for index in first..=last {
        let problem = &problems[index - 1];
        let (position, _) = problem.position.after_forced_pass();
        let sign = if position == problem.position { 1 } else { -1 };
        let start = Instant::now();
        let (score, best, nodes) = solver.score(&position, &limits).map_err(|e| CliError::Failed(e.to_string()))?;
        let seconds = start.elapsed().as_secs_f64();
        let score = sign * score;
        total_seconds += seconds;
        total_nodes += nodes;
        let best_name = best.map(|s| s.to_string()).unwrap_or_else(|| "--".into());
        let expected = problem.best_score();
        let mismatch = expected.is_some_and(|e| e != score);
        if mismatch {
            mismatches.push(index);
        }
        if json {
            rows.push(json!({
                "index": index, "empties": position.empty_count(), "score": score, "best": best_name,
                "seconds": seconds, "nodes": nodes, "expected": expected,
            }));
        } else {
            let note = match expected {
                Some(e) if mismatch => format!("  MISMATCH: the file says {e:+}"),
                _ => String::new(),
            };
            outln!(
                "{index:>5}  {:>7}  {score:>+5}  {best_name:>4}  {seconds:>9.3}  {nodes:>14}  {:>12.0}{note}",
                position.empty_count(),
                nodes as f64 / seconds.max(1e-9)
            );
        }
    }
    if json {
        outln!(
            "{}",
            json!({ "positions": rows, "total_seconds": total_seconds, "total_nodes": total_nodes, "mismatches": mismatches })
        );
    } else {
        outln!(
            "total  {:>7}  {:>5}  {:>4}  {total_seconds:>9.3}  {total_nodes:>14}  {:>12.0}",
            "",
            "",
            "",
            total_nodes as f64 / total_seconds.max(1e-9)
        );
        if !mismatches.is_empty() {
            outln!("mismatches: {mismatches:?}");
        }
    }
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failed(format!(
            "{} position(s) scored differently from {path}: {mismatches:?}",
            mismatches.len()
        )))
    }
}
