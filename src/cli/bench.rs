//! `bench`: solve the positions of an OBF problem file and compare with the listed scores:
//! exactly (the default), by their outcome (`--mode wld`), or by measuring how well the estimates
//! of every depth agree with them (`--mode estimate`). `--lab` runs the outcome lab over the file
//! instead ([`lab`]).

pub mod lab;
mod timed;

use super::common::{CliError, SolverArgs, out, outln, solver};
use super::report::print_json;
use othello_explorer::notation::obf::{Problem, parse_problem};
use othello_explorer::notation::printable::count;
use othello_explorer::notation::textfile::{self, TEXT_LIMIT};
use othello_explorer::solver::{Limits, Report, SearchMode, Solver, SolverOptions, outcome_letter, outcome_word};
use othello_explorer::store::{Source, Store, Stored};
use othello_explorer::{Position, Scoring, Size, Square};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What `bench` measures.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchMode {
    /// The exact score of each position, against the best listed score.
    Exact,
    /// The outcome of each position (win, loss or draw), against the sign of the best listed score.
    Wld,
    /// Estimates at every depth against every listed score: how often the estimate's best move is
    /// a best move, and the mean error.
    Estimate,
    /// The move the engine plays after `--time` (`solve --mode play`), judged as `--mode estimate
    /// --time` judges the analysis's first move.
    Play,
}

/// The deepest estimate `bench --mode estimate` measures unless `--depth` says otherwise.
const DEFAULT_DEPTH: u32 = 10;

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

/// The comment line of a problem file whose listed values are estimates, not exact scores.
pub const ESTIMATED: &str = "% values: estimates";

/// Reads the problems of an OBF file (a regular file of at most [`TEXT_LIMIT`] bytes, a leading
/// byte-order mark skipped): blank lines and `%` comments skipped, positions counted from 1.
/// A listed score must be a possible one (within the board's squares, and even under the standard
/// scoring, where the empties go to the winner and every final difference is even) for a legal
/// move of the position; a file with the line [`ESTIMATED`] lists values of searches instead
/// (`fit-eval checkset --search-depth`), any integer.
pub fn read_problems(path: &str, scoring: Scoring) -> Result<Vec<Problem>, CliError> {
    let text = textfile::read_text(Path::new(path), TEXT_LIMIT).map_err(|e| CliError::Usage(e.to_string()))?;
    let mut problems = Vec::new();
    let estimated = text.lines().any(|line| line.trim() == ESTIMATED);
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('%') {
            continue;
        }
        let problem = parse_problem(line).map_err(|e| CliError::Usage(format!("{path}:{}: {e}", i + 1)))?;
        if scoring == Scoring::Standard
            && !estimated
            && let Some((square, score)) = problem.scores.iter().find(|(_, score)| score % 2 != 0)
        {
            return Err(CliError::Usage(format!(
                "{path}:{}: odd score {score:+} for {square}: under the standard scoring every final difference is even",
                i + 1
            )));
        }
        problems.push(problem);
    }
    Ok(problems)
}

/// What a bench measures: the mode, and for the estimates the deepest depth or the time per
/// position.
pub struct Measure {
    pub mode: BenchMode,
    pub depth: Option<u32>,
    pub time: Option<Duration>,
}

pub fn run(
    path: &str,
    range: Option<&str>,
    measure: Measure,
    solver: &SolverArgs,
    store: Option<&Store>,
    json: bool,
) -> Result<(), CliError> {
    let Measure { mode, depth, time } = measure;
    let problems = read_problems(path, solver.scoring())?;
    let (first, selected) = select(path, &problems, range)?;
    // The table the largest board among the positions needs, unless --hash-mb says.
    let size = selected.iter().map(|p| p.position.size()).max().unwrap_or(Size::Eight);
    let options = solver.options_for(size)?;
    if depth.is_some() && mode != BenchMode::Estimate {
        return Err(CliError::Usage("--depth applies to bench --mode estimate".into()));
    }
    if time.is_some() && !matches!(mode, BenchMode::Estimate | BenchMode::Play) {
        return Err(CliError::Usage("--time applies to bench --mode estimate or play".into()));
    }
    match (mode, time) {
        (BenchMode::Play, None) => Err(CliError::Usage("bench --mode play needs --time SECONDS".into())),
        (BenchMode::Play, Some(time)) => timed::run(selected, first, time, SearchMode::Play, options, json),
        (BenchMode::Exact, _) => exact(path, selected, first, options, store, json),
        (BenchMode::Wld, _) => wld(path, selected, first, options, store, json),
        (BenchMode::Estimate, Some(time)) => timed::run(selected, first, time, SearchMode::Estimate, options, json),
        (BenchMode::Estimate, None) => estimate(selected, depth.unwrap_or(DEFAULT_DEPTH), options, json),
    }
}

/// The problems `--positions` selects (all without it), with the number of the first.
fn select<'a>(path: &str, problems: &'a [Problem], range: Option<&str>) -> Result<(usize, &'a [Problem]), CliError> {
    let (first, last) = match range {
        Some(r) => parse_range(r)?,
        None => (1, problems.len().max(1)),
    };
    if first > problems.len() {
        return Err(CliError::Usage(format!(
            "--positions: {path} holds {}",
            count(problems.len() as i64, "position", "positions")
        )));
    }
    let last = last.min(problems.len());
    Ok((first, &problems[first - 1..last]))
}

/// The instruction-set level the solver runs at (`src/board/isa.rs`): part of what a figure means.
fn isa_level() -> &'static str {
    othello_explorer::board::isa::Cpu::detect().level().name()
}

/// What the store knows of `position`, if anything (a failing store is a note, then ignored).
fn stored(store: Option<&Store>, position: &Position, scoring: Scoring) -> Option<Stored> {
    store?.get(position, scoring).unwrap_or_else(|e| {
        eprintln!("othello-explorer: note: {e}");
        None
    })
}

/// Keeps a proven exact score in the store (a failing store is a note).
fn keep(store: Option<&Store>, position: &Position, scoring: Scoring, stored: Stored) {
    if let Some(store) = store
        && let Err(e) = store.put_many(&[(*position, scoring, stored)])
    {
        eprintln!("othello-explorer: note: {e}");
    }
}

/// One position's row of an exact or an outcome bench: printed as it comes, kept for the JSON.
#[derive(Serialize)]
struct Row {
    index: usize,
    empties: u32,
    /// The exact score, or the outcome's sign.
    score: i32,
    /// The best move (exact bench), `--` when none is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    best: Option<String>,
    /// The outcome's word (outcome bench).
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<&'static str>,
    seconds: f64,
    nodes: u64,
    /// The best score the file lists.
    expected: Option<i32>,
    source: &'static str,
    #[serde(skip)]
    mismatch: bool,
}

impl std::fmt::Display for Row {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (index, empties, seconds, nodes) = (self.index, self.empties, self.seconds, self.nodes);
        match &self.best {
            Some(best) => write!(f, "{index:>5}  {empties:>7}  {:>+5}  {best:>4}", self.score)?,
            None => write!(f, "{index:>5}  {empties:>7}  {:>7}", outcome_letter(self.score))?,
        }
        write!(f, "  {seconds:>9.3}  {nodes:>14}  {:>12.0}", nodes as f64 / seconds.max(1e-9))?;
        if let Some(e) = self.expected.filter(|_| self.mismatch) {
            write!(f, "  MISMATCH: the file says {e:+}")?;
        }
        if self.source == "store" {
            write!(f, "  (store)")?;
        }
        Ok(())
    }
}

/// An exact or outcome bench: its rows and totals. The text form is the rows (printed as each
/// comes) and [`Totals`]; the JSON form this value.
#[derive(Serialize)]
struct Rows {
    positions: Vec<Row>,
    total_seconds: f64,
    total_nodes: u64,
    mismatches: Vec<usize>,
    isa: &'static str,
}

/// The closing lines of an exact or outcome bench's text.
struct Totals<'a>(&'a Rows, bool);

impl std::fmt::Display for Totals<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Totals(r, exact) = self;
        let (s, n) = (r.total_seconds, r.total_nodes);
        let rate = n as f64 / s.max(1e-9);
        if *exact {
            writeln!(f, "total  {:>7}  {:>5}  {:>4}  {s:>9.3}  {n:>14}  {rate:>12.0}", "", "", "")?;
        } else {
            writeln!(f, "total  {:>7}  {:>7}  {s:>9.3}  {n:>14}  {rate:>12.0}", "", "")?;
        }
        if !r.mismatches.is_empty() {
            writeln!(f, "mismatches: {:?}", r.mismatches)?;
        }
        writeln!(f, "instruction set: {}", r.isa)
    }
}

/// Runs `one` on each position (after a forced pass) and reports the rows: the header and each
/// row printed as they come unless `json`, then the totals (or the JSON).
fn bench_rows(
    problems: &[Problem],
    first: usize,
    exact: bool,
    json: bool,
    mut one: impl FnMut(&Problem, &Position, bool) -> Result<Row, CliError>,
) -> Result<Rows, CliError> {
    if !json {
        if exact {
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
        } else {
            outln!(
                "{:>5}  {:>7}  {:>7}  {:>9}  {:>14}  {:>12}",
                "#",
                "empties",
                "outcome",
                "seconds",
                "nodes",
                "nodes/s"
            );
        }
    }
    let mut rows =
        Rows { positions: Vec::new(), total_seconds: 0.0, total_nodes: 0, mismatches: Vec::new(), isa: isa_level() };
    for (k, problem) in problems.iter().enumerate() {
        let (position, passed) = problem.position.after_forced_pass();
        let mut row = one(problem, &position, passed)?;
        row.index = first + k;
        row.empties = position.empty_count();
        rows.total_seconds += row.seconds;
        rows.total_nodes += row.nodes;
        if row.mismatch {
            rows.mismatches.push(row.index);
        }
        if !json {
            outln!("{row}");
        }
        rows.positions.push(row);
    }
    if json {
        print_json(&rows);
    } else {
        out!("{}", Totals(&rows, exact));
    }
    Ok(rows)
}

/// Each position solved exactly (`Solver::score`), its score checked against the best listed.
/// A position whose exact score the store holds is answered from it (`--no-store` measures the
/// solver on every position).
fn exact(
    path: &str,
    problems: &[Problem],
    first: usize,
    options: SolverOptions,
    store: Option<&Store>,
    json: bool,
) -> Result<(), CliError> {
    let mut solver = solver(options.clone())?;
    let limits = Limits::default();
    let rows = bench_rows(problems, first, true, json, |problem, position, passed| {
        let sign = if passed { -1 } else { 1 };
        let start = Instant::now();
        let known = stored(store, position, options.scoring).filter(Stored::is_exact);
        let (score, best, nodes) = match known {
            Some(s) => (s.lower, s.best, 0),
            None => {
                let (score, best, nodes) =
                    solver.score(position, &limits).map_err(|e| CliError::Failed(e.to_string()))?;
                keep(store, position, options.scoring, Stored::exact(score, best, Source::Explorer));
                (score, best, nodes)
            }
        };
        let score = sign * score;
        let expected = problem.best_score();
        Ok(Row {
            index: 0,
            empties: 0,
            score,
            best: Some(best.map(|s| s.to_string()).unwrap_or_else(|| "--".into())),
            outcome: None,
            seconds: start.elapsed().as_secs_f64(),
            nodes,
            expected,
            source: if known.is_some() { "store" } else { "search" },
            mismatch: expected.is_some_and(|e| e != score),
        })
    })?;
    let mismatches = rows.mismatches;
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failed(format!(
            "{} scored differently from {path}: {mismatches:?}",
            count(mismatches.len() as i64, "position", "positions")
        )))
    }
}

/// Each position's outcome proven (`Solver::wld`), checked against the sign of the best listed
/// score; an outcome the store proves is answered from it.
fn wld(
    path: &str,
    problems: &[Problem],
    first: usize,
    options: SolverOptions,
    store: Option<&Store>,
    json: bool,
) -> Result<(), CliError> {
    let scoring = options.scoring;
    let mut solver = solver(options)?;
    let limits = Limits::default();
    let rows = bench_rows(problems, first, false, json, |problem, position, passed| {
        let start = Instant::now();
        let known = stored(store, position, scoring).and_then(|s| match (s.lower, s.upper) {
            (l, u) if l == u => Some(l.signum()),
            (l, _) if l > 0 => Some(1),
            (_, u) if u < 0 => Some(-1),
            _ => None,
        });
        let (sign, nodes) = match known {
            Some(sign) => (sign, 0),
            None => solver.wld(position, &limits).map_err(|e| CliError::Failed(e.to_string()))?,
        };
        let sign = if passed { -sign } else { sign };
        let expected = problem.best_score();
        Ok(Row {
            index: 0,
            empties: 0,
            score: sign,
            best: None,
            outcome: Some(outcome_word(sign)),
            seconds: start.elapsed().as_secs_f64(),
            nodes,
            expected,
            source: if known.is_some() { "store" } else { "search" },
            mismatch: expected.map(i32::signum).is_some_and(|e| e != sign),
        })
    })?;
    let mismatches = rows.mismatches;
    if mismatches.is_empty() {
        Ok(())
    } else {
        Err(CliError::Failed(format!(
            "{} with an outcome other than {path}'s: {mismatches:?}",
            count(mismatches.len() as i64, "position", "positions")
        )))
    }
}

/// What the estimates of one depth did over the positions.
#[derive(Default)]
struct DepthStats {
    positions: u32,
    agree: u32,
    best_error: u64,
    /// The best estimate's signed errors, summed: a lean towards the side to move (positive) or
    /// away from it.
    best_signed: i64,
    moves: u32,
    move_error: u64,
    nodes: u64,
    seconds: f64,
}

/// One completed depth of an iterative deepening: every child's value, the move the analysis
/// ranks first, and the nodes and seconds spent up to that depth.
struct Snapshot {
    values: BTreeMap<Square, i32>,
    top: Square,
    nodes: u64,
    seconds: f64,
}

/// The snapshots of one iterative deepening of `position`, by depth. The first move is the one
/// the analysis ranks first ([`Report::Line`]'s first move: the highest value, equal ones by the
/// deepest earlier estimate that tells them apart, then reading order).
fn snapshots(solver: &mut Solver, position: &Position, depth: u32) -> BTreeMap<u32, Snapshot> {
    let progress = Arc::new(AtomicU64::new(0));
    let limits = Limits { progress: Some(progress.clone()), ..Limits::default() };
    let start = Instant::now();
    let mut values = BTreeMap::new();
    let mut top = None;
    let mut out = BTreeMap::new();
    solver.analyse(position, SearchMode::Estimate, Some(depth), &limits, &[], &mut |report| match report {
        Report::Child(c) => {
            values.insert(c.square, c.score);
        }
        Report::Line { moves, .. } => top = moves.first().copied(),
        Report::DepthDone { depth } => {
            let top = top.expect("a line before every completed depth");
            let nodes = progress.load(Ordering::Relaxed);
            let seconds = start.elapsed().as_secs_f64();
            out.insert(depth, Snapshot { values: values.clone(), top, nodes, seconds });
        }
        Report::Phase(_) => {}
    });
    out
}

/// What an estimate bench judges a problem by: its best listed score and every listed move's
/// score; `None` when the file lists no score or the side to move has no move.
fn listed_scores(problem: &Problem) -> Option<(i32, BTreeMap<Square, i32>)> {
    let best = problem.best_score()?;
    let position = problem.position;
    if position.must_pass() || position.is_game_over() {
        return None;
    }
    Some((best, problem.scores.iter().copied().collect()))
}

/// `bench --mode estimate --json`: `{depths: [DepthRow], skipped}`.
#[derive(Serialize)]
struct EstimateReport {
    depths: Vec<DepthRow>,
    /// Positions whose moves' scores the file does not list.
    skipped: usize,
}

/// One depth of the estimate bench (see [`estimate`]).
#[derive(Serialize)]
struct DepthRow {
    depth: u32,
    selectivity: u32,
    positions: u32,
    agree: u32,
    share: f64,
    mae_best: f64,
    bias_best: f64,
    mae_moves: f64,
    nodes_per_position: f64,
    seconds_per_position: f64,
}

/// Estimates at depths 1 to `depth` for every position that lists its moves' scores, each from
/// an empty table: the share of positions where the estimate's best move (the analysis's first:
/// equal values by the deepest earlier estimate that tells them apart, then the first in reading
/// order) is a best listed move, the mean absolute error of the best estimate against the best
/// listed score and its mean signed error (the lean: positive when the estimates favour the side
/// to move), and of every listed move's estimate against its score. A position whose every child was solved
/// before `depth` (`solver::EXACT_MARGIN`) counts at the later depths with its exact values.
fn estimate(problems: &[Problem], depth: u32, options: SolverOptions, json: bool) -> Result<(), CliError> {
    let selectivity = options.selectivity;
    let mut solver = solver(options)?;
    let mut stats: BTreeMap<u32, DepthStats> = BTreeMap::new();
    let mut skipped = 0;
    for problem in problems {
        let position = problem.position;
        let Some((best, listed)) = listed_scores(problem) else {
            skipped += 1;
            continue;
        };
        // From an empty table, so that no position's figures depend on the ones before it.
        solver.clear();
        let snaps = snapshots(&mut solver, &position, depth);
        // A position whose every child was exact before `depth` keeps those values at the depths
        // after: the analysis stops deepening once nothing is left to estimate.
        let last = snaps.keys().next_back().copied().unwrap_or(0);
        let filled = snaps
            .iter()
            .map(|(&d, v)| (d, v))
            .chain(snaps.get(&last).into_iter().flat_map(|v| (last + 1..=depth).map(move |d| (d, v))));
        for (d, snap) in filled {
            let s = stats.entry(d).or_default();
            s.positions += 1;
            s.nodes += snap.nodes;
            s.seconds += snap.seconds;
            if listed.get(&snap.top) == Some(&best) {
                s.agree += 1;
            }
            s.best_error += snap.values[&snap.top].abs_diff(best) as u64;
            s.best_signed += i64::from(snap.values[&snap.top] - best);
            for (sq, v) in &snap.values {
                if let Some(exact) = listed.get(sq) {
                    s.moves += 1;
                    s.move_error += v.abs_diff(*exact) as u64;
                }
            }
        }
    }
    let rows: Vec<_> = stats
        .iter()
        .map(|(&d, s)| {
            let p = s.positions.max(1) as f64;
            (
                d,
                s.positions,
                s.agree,
                100.0 * s.agree as f64 / p,
                s.best_error as f64 / p,
                s.best_signed as f64 / p,
                s.move_error as f64 / s.moves.max(1) as f64,
                s.nodes as f64 / p,
                s.seconds / p,
            )
        })
        .collect();
    if json {
        let depths = rows
            .iter()
            .map(|&(depth, positions, agree, share, mae_best, bias_best, mae_moves, nodes, seconds)| DepthRow {
                depth,
                selectivity: selectivity.percent(),
                positions,
                agree,
                share,
                mae_best,
                bias_best,
                mae_moves,
                nodes_per_position: nodes,
                seconds_per_position: seconds,
            })
            .collect();
        print_json(&EstimateReport { depths, skipped });
        return Ok(());
    }
    // How the estimates searched: every row is at this selectivity.
    outln!("estimates at selectivity {selectivity}{}", if selectivity.is_full() { " (full width)" } else { "" });
    outln!(
        "{:>5}  {:>9}  {:>11}  {:>6}  {:>9}  {:>9}  {:>10}  {:>14}  {:>12}",
        "depth",
        "positions",
        "best agrees",
        "share",
        "MAE best",
        "bias best",
        "MAE moves",
        "nodes/position",
        "ms/position"
    );
    for (d, positions, agree, share, mae_best, bias_best, mae_moves, nodes, seconds) in rows {
        outln!(
            "{d:>5}  {positions:>9}  {agree:>11}  {share:>5.1}%  {mae_best:>9.2}  {bias_best:>+9.2}  {mae_moves:>10.2}  {nodes:>14.0}  {:>12.2}",
            seconds * 1000.0
        );
    }
    if skipped > 0 {
        outln!("skipped {} without listed scores or without a move", count(skipped as i64, "position", "positions"));
    }
    Ok(())
}
