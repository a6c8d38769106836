//! `solve`: every child's value (an exact score, a proven win/loss/draw, or an estimate at a
//! depth), the best moves and a principal variation.

use super::CliError;
use super::args::Resolved;
use super::outln;
use othello_explorer::analyst::{Analyst, Ask, Event, LineRule};
use othello_explorer::solver::{ChildValue, Kind, Limits, SearchMode, Solver, SolverOptions, outcome_word};
use othello_explorer::store::Store;
use othello_explorer::{Scoring, Size, transcript};
use serde_json::{Value, json};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How deep and how long `solve` searches, and what it proves.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// What to compute: `exact` scores, `wld` (win/loss/draw), `estimate` (depth-limited
    /// estimates), or `auto` (estimates, then proofs when they fit the limits). Default: `exact`,
    /// or `auto` when --depth or --time is given.
    #[arg(long, value_enum, value_name = "MODE")]
    pub mode: Option<ModeArg>,
    /// The deepest estimate, in plies from the position (1-60). With `--mode estimate` and no
    /// --time, 10 unless given.
    #[arg(long, value_name = "D", allow_negative_numbers = true, value_parser = super::values::depth)]
    pub depth: Option<u32>,
    /// Stop after this many seconds (fractions allowed) with the best values known.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = super::values::seconds)]
    pub time: Option<Duration>,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeArg {
    Auto,
    Exact,
    Wld,
    Estimate,
}

/// The estimate depth of `--mode estimate` when neither --depth nor --time bounds it.
const DEFAULT_ESTIMATE_DEPTH: u32 = 10;

fn depth_of(kind: Kind) -> Option<u32> {
    match kind {
        Kind::Estimate { depth } => Some(depth),
        _ => None,
    }
}

fn child_json(c: &ChildValue, from_store: bool) -> Value {
    let mut v = json!({
        "move": c.square.to_string(),
        "score": c.score,
        "kind": c.kind.name(),
        "depth": depth_of(c.kind),
        "source": if from_store { "store" } else { "search" },
    });
    if c.kind == Kind::Wld {
        v["outcome"] = json!(outcome_word(c.score));
    }
    v
}

/// SIGINT and SIGTERM set the search's stop flag and record which signal came; a second one
/// ends the program at once.
pub(super) fn catch_signals(stop: &Arc<AtomicBool>) -> Arc<AtomicUsize> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let caught = Arc::new(AtomicUsize::new(0));
    for signal in [SIGINT, SIGTERM] {
        // In this order: the shutdown checks the flag before the first signal sets it.
        let _ = signal_hook::flag::register_conditional_shutdown(signal, 128 + signal, stop.clone());
        let _ = signal_hook::flag::register_usize(signal, caught.clone(), signal as usize);
        let _ = signal_hook::flag::register(signal, stop.clone());
    }
    caught
}

pub fn run(
    resolved: &Resolved,
    search: &SearchArgs,
    options: SolverOptions,
    store: Option<Store>,
    json: bool,
) -> Result<ExitCode, CliError> {
    let (position, passed) = resolved.position.after_forced_pass();
    let mode = match search.mode {
        Some(ModeArg::Auto) => SearchMode::Auto,
        Some(ModeArg::Exact) => SearchMode::Exact,
        Some(ModeArg::Wld) => SearchMode::Wld,
        Some(ModeArg::Estimate) => SearchMode::Estimate,
        None if search.depth.is_some() || search.time.is_some() => SearchMode::Auto,
        None => SearchMode::Exact,
    };
    if search.depth.is_some() && matches!(mode, SearchMode::Exact | SearchMode::Wld) {
        return Err(CliError::Usage(format!(
            "--depth applies to estimates: use it with --mode auto or estimate, not {}",
            if mode == SearchMode::Exact { "exact" } else { "wld" }
        )));
    }
    let max_depth = match (mode, search.depth, search.time) {
        (SearchMode::Estimate, None, None) => Some(DEFAULT_ESTIMATE_DEPTH),
        (_, depth, _) => depth,
    };
    let solver = Solver::try_new(options.clone()).map_err(|e| CliError::Usage(format!("--hash-mb: {e}")))?;
    let empties = position.empty_count();
    let store_path = store.as_ref().map(|s| s.path().display().to_string());
    let mut analyst = Analyst::new(solver, store);
    // Whether the store answers every move (then no search runs, and no warning is due).
    let mut note = |event: Event| {
        if let Event::Notice { text, .. } = event {
            eprintln!("othello-explorer: note: {text}");
        }
    };
    let known = if position.is_game_over() { 0 } else { analyst.known(&position, mode, &mut note).0.len() };
    let all_known = known > 0 && known == position.legal_moves().count() as usize;
    if search.time.is_none() && matches!(mode, SearchMode::Exact | SearchMode::Wld) && !all_known {
        // Not an error (it may finish, and a script may mean it), but a person should know.
        let how_long = match position.size() {
            Size::Eight if empties > 30 => Some("may run for hours"),
            Size::Six if empties > 28 => Some("takes minutes (the 6x6 start: about 4 on two cores)"),
            _ => None,
        };
        if let Some(how_long) = how_long {
            eprintln!(
                "othello-explorer: note: {empties} empty squares: an exact solve this deep {how_long} (Ctrl-C stops it)"
            );
        }
    }
    let stop = Arc::new(AtomicBool::new(false));
    let caught = catch_signals(&stop);
    let limits = Limits { max_time: search.time, stop: Some(stop.clone()), ..Limits::default() };
    let start = Instant::now();
    let ask = Ask { mode, max_depth, limits, line: LineRule::Best };
    let verdict = analyst.analyse(&position, &ask, &mut note);
    let top = verdict.best();
    let score = match top {
        Some(c) => Some(c.score),
        None if position.is_game_over() => Some(position.score(options.scoring)),
        None => None,
    };
    let best: Vec<_> = match top {
        Some(t) => {
            verdict.children.iter().filter(|c| (c.score, c.kind) == (t.score, t.kind)).map(|c| c.square).collect()
        }
        None => vec![],
    };
    let pv = verdict.line.as_ref().map(|l| l.moves.clone()).unwrap_or_default();
    let skip = &verdict.from_store;
    let seconds = start.elapsed().as_secs_f64();
    let nodes = verdict.nodes;
    let nps = if seconds > 0.0 { nodes as f64 / seconds } else { 0.0 };
    let signal = caught.load(Ordering::Relaxed);
    let stopped = match signal {
        0 => verdict.stopped.map(|r| r.to_string()),
        s => Some(format!(
            "interrupted by {}",
            if s == signal_hook::consts::SIGINT as usize { "SIGINT" } else { "SIGTERM" }
        )),
    };
    let exit = if signal == 0 { ExitCode::SUCCESS } else { ExitCode::from(128 + signal as u8) };
    let from_store = |c: &ChildValue| skip.contains(&c.square);
    if json {
        let mut value = json!({
            "board": position.to_string(),
            "to_move": position.to_move().name(),
            "passed": passed,
            "scoring": options.scoring.name(),
            "game_over": position.is_game_over(),
            "score": score,
            "kind": match top { Some(t) => t.kind.name(), None => "exact" },
            "depth": top.and_then(|t| depth_of(t.kind)),
            "best": best.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "pv": pv.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "children": verdict.children.iter().map(|c| child_json(c, from_store(c))).collect::<Vec<_>>(),
            "from_store": skip.len(),
            "store": store_path,
            "nodes": nodes,
            "seconds": seconds,
            "stopped": stopped,
        });
        if let Some(t) = top.filter(|t| t.kind == Kind::Wld) {
            value["outcome"] = json!(outcome_word(t.score));
        }
        if top.is_none() && !position.is_game_over() {
            value["kind"] = Value::Null;
        }
        outln!("{value}");
        return Ok(exit);
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
    let side = position.to_move().name();
    if position.is_game_over() {
        outln!("game over: final score {:+} for {side} ({rule})", score.unwrap_or(0));
    } else {
        match top {
            Some(t @ ChildValue { kind: Kind::Exact, .. }) => outln!("score: {:+} for {side} ({rule})", t.score),
            Some(t @ ChildValue { kind: Kind::Wld, .. }) => {
                outln!("outcome: {} for {side} ({rule})", outcome_word(t.score))
            }
            Some(t) => outln!(
                "estimate: {:+} for {side} at depth {} ({rule}; not proven)",
                t.score,
                depth_of(t.kind).unwrap_or(0)
            ),
            None => outln!("score: unknown (no move had a value before the stop)"),
        }
        if top.is_some() {
            let names: Vec<String> = best.iter().map(|s| s.to_string()).collect();
            outln!("best:  {}", names.join(" "));
            outln!("pv:    {}", transcript::format(&pv));
            outln!("children:");
        }
        for c in &verdict.children {
            let mark = if best.contains(&c.square) { " *" } else { "" };
            let source = if from_store(c) { "  (store)" } else { "" };
            outln!("  {}  {:3}{mark}{source}", c.square, c.text());
        }
        if let Some(path) = &store_path
            && !skip.is_empty()
        {
            outln!("from the store: {} of {} moves ({path})", skip.len(), verdict.children.len());
        }
    }
    if let Some(why) = stopped {
        outln!("stopped: {why}; the values above are the best known");
    }
    outln!("nodes: {nodes}  time: {seconds:.3} s  nodes/s: {nps:.0}");
    Ok(exit)
}
