//! `bench FILE --mode estimate --time SECONDS`: each position gets what `solve --time SECONDS
//! --mode estimate` gives it (iterative deepening from an empty table, no depth limit, stopped
//! by the clock); `--mode play`, what `solve --time SECONDS --mode play` gives it (the move an
//! engine plays: [`othello_explorer::solver::SearchMode::Play`]). The move the analysis ends with (its first child: the highest value, ties
//! by [`othello_explorer::solver::rank_key`]) is judged against the scores the file lists:
//!
//! - **agrees**: it is a best listed move;
//! - **loss**: the best listed score less the move's listed score, in discs;
//! - **error**: how far the move's value is from its listed score.
//!
//! Loss and error need the move's own score, so they count the positions whose file lists it
//! (`data/ffo/` lists every move). These are the evaluation's figures at a fixed time
//! (docs/eval.md, "Measures"), on one thread with `--threads 1`.

use super::{isa_level, listed_scores, solver};
use crate::cli::common::{CliError, outln};
use crate::cli::report::print_json;
use othello_explorer::notation::obf::Problem;
use othello_explorer::notation::printable::count;
use othello_explorer::solver::{Kind, Limits, SearchMode, SolverOptions, ValueText};
use serde::Serialize;
use std::time::{Duration, Instant};

/// One position: the move chosen after the time given, and how it compares with the file.
#[derive(Serialize)]
struct Row {
    /// The position's number in the file (from 1).
    index: usize,
    empties: u32,
    /// The move the analysis ranks first.
    #[serde(rename = "move")]
    chosen: String,
    /// Its value, from the side to move.
    value: i32,
    /// `exact`, `wld` or `estimate`.
    kind: &'static str,
    /// An estimate's depth and selectivity (percent).
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    selectivity: Option<u32>,
    /// The deepest estimate depth completed for every child.
    reached: Option<u32>,
    /// The best score the file lists.
    best: i32,
    /// The chosen move's listed score, if the file lists it.
    listed: Option<i32>,
    /// Whether the chosen move is a best listed move.
    agrees: bool,
    /// `best - listed`.
    loss: Option<i32>,
    /// `|value - listed|` (a proven outcome: 0 when its sign is right, else the listed score's size).
    error: Option<i32>,
    seconds: f64,
    nodes: u64,
    #[serde(skip)]
    text: ValueText,
}

/// The means over the rows.
#[derive(Serialize)]
struct Summary {
    positions: usize,
    agree: usize,
    /// `agree` in percent of the positions.
    share: f64,
    /// Positions whose chosen move the file lists (the loss and error are over these).
    judged: usize,
    mean_loss: f64,
    mean_error: f64,
    /// Mean of the deepest completed depths (positions with none left out).
    mean_depth: f64,
    nodes_per_position: f64,
    seconds_per_position: f64,
    /// Positions without listed scores, without a move, or with no value found in the time.
    skipped: usize,
}

/// The whole bench: the JSON form.
#[derive(Serialize)]
struct Timed {
    /// `estimate` or `play`.
    mode: &'static str,
    seconds_per_move: f64,
    selectivity: u32,
    positions: Vec<Row>,
    summary: Summary,
    isa: &'static str,
}

/// How far `value` of kind `kind` is from the exact `listed` score.
fn error(value: i32, kind: Kind, listed: i32) -> i32 {
    match kind {
        Kind::Wld if value == listed.signum() => 0,
        Kind::Wld => listed.abs(),
        _ => (value - listed).abs(),
    }
}

pub fn run(
    problems: &[Problem],
    first: usize,
    time: Duration,
    mode: SearchMode,
    options: SolverOptions,
    json: bool,
) -> Result<(), CliError> {
    let selectivity = options.selectivity;
    let mut solver = solver(options)?;
    let mut rows = Vec::new();
    let mut skipped = 0;
    if !json {
        outln!(
            "{} for {} s a position at selectivity {selectivity}{}",
            if mode == SearchMode::Play { "the move to play" } else { "estimates" },
            time.as_secs_f64(),
            if selectivity.is_full() { " (full width)" } else { "" }
        );
        outln!(
            "{:>5}  {:>7}  {:>4}  {:>13}  {:>7}  {:>6}  {:>4}  {:>5}  {:>7}  {:>9}  {:>14}",
            "#",
            "empties",
            "move",
            "value",
            "reached",
            "listed",
            "best",
            "loss",
            "error",
            "seconds",
            "nodes"
        );
    }
    for (i, problem) in problems.iter().enumerate() {
        let position = problem.position;
        let Some((best, listed)) = listed_scores(problem) else {
            skipped += 1;
            continue;
        };
        // From an empty table, as `solve` starts, so that no position's figures depend on the
        // ones before it.
        solver.clear();
        let limits = Limits { max_time: Some(time), ..Limits::default() };
        let start = Instant::now();
        let analysis = solver.analyse(&position, mode, None, &limits, &[], &mut |_| {});
        let seconds = start.elapsed().as_secs_f64();
        let Some(top) = analysis.children.first().copied() else {
            skipped += 1;
            continue;
        };
        let mine = listed.get(&top.square).copied();
        let (depth, selectivity) = match top.kind {
            Kind::Estimate { depth, selectivity } => (Some(depth), Some(selectivity.percent())),
            Kind::Exact | Kind::Wld => (None, None),
        };
        let row = Row {
            index: first + i,
            empties: position.empty_count(),
            chosen: top.square.to_string(),
            value: top.score,
            kind: top.kind.name(),
            depth,
            selectivity,
            reached: analysis.depth,
            best,
            listed: mine,
            agrees: mine == Some(best),
            loss: mine.map(|m| best - m),
            error: mine.map(|m| error(top.score, top.kind, m)),
            seconds,
            nodes: analysis.nodes,
            text: top.text(),
        };
        if !json {
            let opt = |v: Option<i32>| v.map_or("--".to_string(), |v| v.to_string());
            outln!(
                "{:>5}  {:>7}  {:>4}  {:>13}  {:>7}  {:>6}  {:>+4}  {:>5}  {:>7}  {:>9.3}  {:>14}",
                row.index,
                row.empties,
                row.chosen,
                row.text.to_string(),
                row.reached.map_or("--".to_string(), |d| d.to_string()),
                row.listed.map_or("--".to_string(), |v| format!("{v:+}")),
                row.best,
                opt(row.loss),
                opt(row.error),
                row.seconds,
                row.nodes
            );
        }
        rows.push(row);
    }
    let n = rows.len();
    let judged: Vec<&Row> = rows.iter().filter(|r| r.listed.is_some()).collect();
    let mean = |total: f64, of: usize| if of == 0 { 0.0 } else { total / of as f64 };
    let depths: Vec<u32> = rows.iter().filter_map(|r| r.reached).collect();
    let agree = rows.iter().filter(|r| r.agrees).count();
    let summary = Summary {
        positions: n,
        agree,
        share: mean(100.0 * agree as f64, n),
        judged: judged.len(),
        mean_loss: mean(judged.iter().filter_map(|r| r.loss).sum::<i32>() as f64, judged.len()),
        mean_error: mean(judged.iter().filter_map(|r| r.error).sum::<i32>() as f64, judged.len()),
        mean_depth: mean(depths.iter().sum::<u32>() as f64, depths.len()),
        nodes_per_position: mean(rows.iter().map(|r| r.nodes as f64).sum(), n),
        seconds_per_position: mean(rows.iter().map(|r| r.seconds).sum(), n),
        skipped,
    };
    if json {
        let timed = Timed {
            mode: if mode == SearchMode::Play { "play" } else { "estimate" },
            seconds_per_move: time.as_secs_f64(),
            selectivity: selectivity.percent(),
            positions: rows,
            summary,
            isa: isa_level(),
        };
        print_json(&timed);
        return Ok(());
    }
    let s = &summary;
    outln!(
        "best move {} of {} ({:.1}%), mean loss {:.2} and mean error {:.2} over the {} judged, mean depth {:.1}, {:.0} nodes a position",
        s.agree,
        s.positions,
        s.share,
        s.mean_loss,
        s.mean_error,
        s.judged,
        s.mean_depth,
        s.nodes_per_position
    );
    if s.skipped > 0 {
        outln!(
            "skipped {} without listed scores, without a move or without a value in the time",
            count(s.skipped as i64, "position", "positions")
        );
    }
    outln!("instruction set: {}", isa_level());
    Ok(())
}
