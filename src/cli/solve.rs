//! `solve`: the exact score of a position, its best moves, a principal variation and every
//! child's score.

use super::CliError;
use super::args::Resolved;
use super::outln;
use othello_explorer::solver::{Limits, Solver, SolverOptions};
use othello_explorer::{Scoring, transcript};
use serde_json::json;
use std::time::Instant;

pub fn run(resolved: &Resolved, options: SolverOptions, json: bool) -> Result<(), CliError> {
    let (position, passed) = resolved.position.after_forced_pass();
    if position.empty_count() > 30 {
        // Not an error (it may finish, and a script may mean it), but a person should know.
        eprintln!(
            "othello-explorer: note: {} empty squares: an exact solve this deep may run for hours (Ctrl-C stops it)",
            position.empty_count()
        );
    }
    let mut solver = Solver::new(options.clone());
    let limits = Limits::default();
    let start = Instant::now();
    let stopped = |e| CliError::Failed(format!("{e}"));
    let (score, best, children, pv) = if position.is_game_over() {
        (position.score(options.scoring), vec![], vec![], vec![])
    } else {
        let children = solver.score_children(&position, &limits, &mut |_| {}).map_err(stopped)?;
        let score = children[0].score;
        let best: Vec<_> = children.iter().filter(|c| c.score == score).map(|c| c.square).collect();
        let pv = solver.principal_variation(&position, &limits).map_err(stopped)?;
        (score, best, children, pv)
    };
    let seconds = start.elapsed().as_secs_f64();
    let nodes = solver.total_nodes();
    let nps = if seconds > 0.0 { nodes as f64 / seconds } else { 0.0 };
    if json {
        let value = json!({
            "board": position.to_string(),
            "to_move": position.to_move().name(),
            "passed": passed,
            "scoring": options.scoring.name(),
            "game_over": position.is_game_over(),
            "score": score,
            "best": best.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "pv": pv.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "children": children.iter().map(|c| json!({ "move": c.square.to_string(), "score": c.score })).collect::<Vec<_>>(),
            "nodes": nodes,
            "seconds": seconds,
        });
        outln!("{value}");
        return Ok(());
    }
    if passed {
        outln!("{} has no legal move and passes.", position.to_move().opponent().name());
    }
    outln!(
        "{} {} ({} empty), {} to move",
        position.size(),
        position,
        position.empty_count(),
        position.to_move().name()
    );
    if let Some(line) = &resolved.line {
        outln!("moves: {}", transcript::format(&line.moves));
    }
    let rule = match options.scoring {
        Scoring::Standard => "empties to the winner",
        Scoring::Discs => "discs only",
    };
    if position.is_game_over() {
        outln!("game over: final score {score:+} for {} ({rule})", position.to_move().name());
    } else {
        outln!("score: {score:+} for {} ({rule})", position.to_move().name());
        let names: Vec<String> = best.iter().map(|s| s.to_string()).collect();
        outln!("best:  {}", names.join(" "));
        outln!("pv:    {}", transcript::format(&pv));
        outln!("children:");
        for c in &children {
            let mark = if c.score == score { " *" } else { "" };
            outln!("  {}  {:+3}{mark}", c.square, c.score);
        }
    }
    outln!("nodes: {nodes}  time: {seconds:.3} s  nodes/s: {nps:.0}");
    Ok(())
}
