//! `solve`: every child's value (an exact score, a proven win/loss/draw, or an estimate at a
//! depth), the best moves and a principal variation.

use super::args::Resolved;
use super::common::CliError;
use super::report::Report;
use othello_explorer::analyst::{Analyst, Ask, Event, LineRule};
use othello_explorer::notation::printable::count;
use othello_explorer::solver::{
    ChildValue, Kind, Limits, SearchMode, SolverOptions, ValueText, WLD_SPEEDUP, outcome_word, predicted_exact_seconds,
};
use othello_explorer::store::Store;
use othello_explorer::{Scoring, Size, Square, notation::transcript};
use serde::Serialize;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How deep and how long `solve` searches, and what it proves.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// What to compute: `exact` scores, `wld` (win/loss/draw), `estimate` (depth-limited
    /// estimates), `auto` (estimates, then proofs when they fit the limits), or `play` (the move
    /// an engine plays: `auto`, but each depth after the first few values only the best move and
    /// any move that beats it, the others refuted and left without a value). Default: `exact`,
    /// or `auto` when --depth or --time is given; a position whose exact solve is predicted to
    /// take more than ten minutes gets `auto` for 5 seconds (a note on stderr says so).
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
    Play,
}

/// The estimate depth of `--mode estimate` when neither --depth nor --time bounds it.
const DEFAULT_ESTIMATE_DEPTH: u32 = 10;

/// The exact solve, in predicted seconds on the threads given, beyond which `solve` without
/// --mode, --depth or --time estimates for [`DEFAULT_BUDGET`] instead: ten minutes. Solved as
/// asked: every 6x6 position (the start without its book: about four minutes on two cores) and
/// 8x8 up to 26 empties on one thread, 27 on two (FFO #40-#50, #40-#52); the 8x8 start would take
/// ages.
const LONG_EXACT_SECONDS: f64 = 600.0;

/// The time `solve` gives a position too deep to solve when no option bounds it: the estimates
/// of the 8x8 start reach depth 17 or 18 in it on two cores.
const DEFAULT_BUDGET: Duration = Duration::from_secs(5);

/// The predicted solve from which `solve` says before it starts how long it may take.
const NOTE_SECONDS: f64 = 60.0;

/// `seconds` in words, rounded as a prediction deserves: `about 3 minutes`, `more than two days`.
fn duration_words(seconds: f64) -> String {
    let about = |n: f64, one: &str, many: &str| format!("about {}", count(n.round() as i64, one, many));
    match seconds {
        s if s < 90.0 => about(s, "second", "seconds"),
        s if s < 90.0 * 60.0 => about(s / 60.0, "minute", "minutes"),
        s if s < 48.0 * 3600.0 => about(s / 3600.0, "hour", "hours"),
        _ => "more than two days".to_string(),
    }
}

fn depth_of(kind: Kind) -> Option<u32> {
    match kind {
        Kind::Estimate { depth, .. } => Some(depth),
        _ => None,
    }
}

/// An estimate's selectivity in JSON, in percent (`95`); `None` for a proof.
pub(super) fn selectivity_of(kind: Kind) -> Option<u32> {
    kind.selectivity().map(|s| s.percent())
}

pub fn run(
    resolved: &Resolved,
    search: &SearchArgs,
    options: SolverOptions,
    store: Option<Store>,
    json: bool,
) -> Result<ExitCode, CliError> {
    let (position, passed) = resolved.position.after_forced_pass();
    let mut mode = match search.mode {
        Some(ModeArg::Auto) => SearchMode::Auto,
        Some(ModeArg::Exact) => SearchMode::Exact,
        Some(ModeArg::Wld) => SearchMode::Wld,
        Some(ModeArg::Estimate) => SearchMode::Estimate,
        Some(ModeArg::Play) => SearchMode::Play,
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
    let solver = super::common::solver(options.clone())?;
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
    let mut max_time = search.time;
    let predicted = predicted_exact_seconds(position.size(), empties, options.threads);
    let unbounded = search.mode.is_none() && search.depth.is_none() && search.time.is_none();
    if position.is_game_over() || all_known {
        // Nothing to search, or nothing the store does not answer.
    } else if unbounded && predicted > LONG_EXACT_SECONDS {
        // Asked for nothing in particular on a position out of reach: what can be had at once,
        // and how to ask for more, before it starts.
        mode = SearchMode::Auto;
        max_time = Some(DEFAULT_BUDGET);
        eprintln!(
            "othello-explorer: note: {empties} empty squares: an exact solve would take {}; estimating for {} \
             instead (--time SECONDS for longer, --depth D for a depth, --mode exact to solve it anyway)",
            duration_words(predicted),
            count(DEFAULT_BUDGET.as_secs() as i64, "second", "seconds"),
        );
    } else if max_time.is_none() && matches!(mode, SearchMode::Exact | SearchMode::Wld) {
        // Not an error (it may finish, and a script may mean it), but a person should know.
        let (what, seconds) = match mode {
            SearchMode::Wld => ("proving the outcomes", predicted / WLD_SPEEDUP),
            _ => ("an exact solve", predicted),
        };
        if seconds > NOTE_SECONDS {
            eprintln!(
                "othello-explorer: note: {empties} empty squares: {what} may take {} on {} (Ctrl-C stops it \
                 and prints the values known; --time SECONDS bounds it)",
                duration_words(seconds),
                count(options.threads as i64, "thread", "threads"),
            );
        }
    }
    let stop = Arc::new(AtomicBool::new(false));
    let caught = super::signals::catch_signals(&stop);
    let limits = Limits { max_time, stop: Some(stop.clone()), ..Limits::default() };
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
    let seconds = start.elapsed().as_secs_f64();
    let signal = caught.load(Ordering::Relaxed);
    let stopped = match signal {
        0 => verdict.stopped.map(|r| r.to_string()),
        s => Some(format!(
            "interrupted by {}",
            if s == signal_hook::consts::SIGINT as usize { "SIGINT" } else { "SIGTERM" }
        )),
    };
    let exit = if signal == 0 { ExitCode::SUCCESS } else { ExitCode::from(128 + signal as u8) };
    let names = |moves: &[Square]| moves.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let report = SolveReport {
        board: position.to_string(),
        to_move: position.to_move().name(),
        passed,
        scoring: options.scoring.name(),
        game_over: position.is_game_over(),
        score,
        kind: match top {
            Some(t) => Some(t.kind.name()),
            None if position.is_game_over() => Some("exact"),
            None => None,
        },
        depth: top.and_then(|t| depth_of(t.kind)),
        selectivity: top.and_then(|t| selectivity_of(t.kind)),
        best: names(&best),
        pv: names(&pv),
        pv_proven: verdict.line.as_ref().is_some_and(|l| l.proven),
        children: verdict
            .children
            .iter()
            .map(|c| ChildRow {
                square: c.square.to_string(),
                score: c.score,
                kind: c.kind.name(),
                depth: depth_of(c.kind),
                selectivity: selectivity_of(c.kind),
                source: if verdict.from_store.contains(&c.square) { "store" } else { "search" },
                outcome: (c.kind == Kind::Wld).then(|| outcome_word(c.score)),
                text: c.text(),
                best: best.contains(&c.square),
            })
            .collect(),
        refuted: if mode == SearchMode::Play {
            let listed: Vec<Square> = verdict.children.iter().map(|c| c.square).collect();
            let moves = position.legal_moves().reading_order();
            moves.into_iter().filter(|sq| !listed.contains(sq)).map(|sq| sq.to_string()).collect()
        } else {
            Vec::new()
        },
        from_store: verdict.from_store.len(),
        store: store_path,
        nodes: verdict.nodes,
        seconds,
        stopped,
        outcome: top.filter(|t| t.kind == Kind::Wld).map(|t| outcome_word(t.score)),
        text: SolveText {
            size: position.size(),
            empties: position.empty_count(),
            moves: resolved.line.as_ref().map(|l| transcript::format(&l.moves)),
            top,
            opponent: position.to_move().opponent().name(),
        },
    };
    report.print(json);
    Ok(exit)
}

/// What `solve` found: printed as text, or with `--json` as one JSON object.
#[derive(Serialize)]
struct SolveReport {
    board: String,
    to_move: &'static str,
    passed: bool,
    scoring: &'static str,
    game_over: bool,
    score: Option<i32>,
    kind: Option<&'static str>,
    depth: Option<u32>,
    /// The estimate's selectivity in percent (`null` for a proof).
    selectivity: Option<u32>,
    best: Vec<String>,
    pv: Vec<String>,
    /// Whether `pv` is a perfect line (every move keeps the exact score) or only what the table
    /// or the deepest estimate expects.
    pv_proven: bool,
    children: Vec<ChildRow>,
    /// `--mode play`: the moves left without a value, refuted at the last depth (each no better
    /// than the best move there).
    refuted: Vec<String>,
    from_store: usize,
    store: Option<String>,
    nodes: u64,
    seconds: f64,
    stopped: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<&'static str>,
    #[serde(skip)]
    text: SolveText,
}

/// What only the text form says.
struct SolveText {
    size: Size,
    empties: u32,
    moves: Option<String>,
    top: Option<ChildValue>,
    opponent: &'static str,
}

/// One child's value.
#[derive(Serialize)]
struct ChildRow {
    #[serde(rename = "move")]
    square: String,
    score: i32,
    kind: &'static str,
    depth: Option<u32>,
    selectivity: Option<u32>,
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<&'static str>,
    #[serde(skip)]
    text: ValueText,
    #[serde(skip)]
    best: bool,
}

impl std::fmt::Display for SolveReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = &self.text;
        if self.passed {
            writeln!(f, "{} has no legal move and passes.", t.opponent)?;
        }
        writeln!(f, "{} {} ({} empty), {} to move", t.size, self.board, t.empties, self.to_move)?;
        if let Some(moves) = &t.moves {
            writeln!(f, "moves: {moves}")?;
        }
        let rule = if self.scoring == Scoring::Standard.name() { "empties to the winner" } else { "discs only" };
        let side = self.to_move;
        if self.game_over {
            writeln!(f, "game over: final score {:+} for {side} ({rule})", self.score.unwrap_or(0))?;
        } else {
            match t.top {
                Some(top @ ChildValue { kind: Kind::Exact, .. }) => {
                    writeln!(f, "score: {:+} for {side} ({rule})", top.score)?
                }
                Some(top @ ChildValue { kind: Kind::Wld, .. }) => {
                    writeln!(f, "outcome: {} for {side} ({rule})", outcome_word(top.score))?
                }
                Some(top) => {
                    // A selective estimate says its level: `at depth 8, selectivity 95%`.
                    let level = match top.kind.selectivity() {
                        Some(s) if !s.is_full() => format!(", selectivity {s}"),
                        _ => String::new(),
                    };
                    writeln!(
                        f,
                        "estimate: {:+} for {side} at depth {}{level} ({rule}; not proven)",
                        top.score,
                        depth_of(top.kind).unwrap_or(0)
                    )?
                }
                None => writeln!(f, "score: unknown (no move had a value before the stop)")?,
            }
            if t.top.is_some() {
                writeln!(f, "best:  {}", self.best.join(" "))?;
                // A proven value whose line is not a proven one (the analysis stopped before
                // following it, or an outcome, which is proven without a line) says so.
                let exact = matches!(t.top, Some(ChildValue { kind: Kind::Exact | Kind::Wld, .. }));
                let caveat = if exact && !self.pv_proven && !self.pv.is_empty() {
                    "  (the table's line, not proven)"
                } else {
                    ""
                };
                writeln!(f, "pv:    {}{caveat}", self.pv.join(""))?;
                writeln!(f, "children:")?;
            }
            for c in &self.children {
                let mark = if c.best { " *" } else { "" };
                let source = if c.source == "store" { "  (store)" } else { "" };
                writeln!(f, "  {}  {:3}{mark}{source}", c.square, c.text)?;
            }
            if !self.refuted.is_empty() {
                writeln!(f, "  refuted (no better than the best at its depth): {}", self.refuted.join(" "))?;
            }
            if let Some(path) = &self.store
                && self.from_store > 0
            {
                writeln!(
                    f,
                    "from the store: {} of {} ({path})",
                    self.from_store,
                    count(self.children.len() as i64, "move", "moves")
                )?;
            }
        }
        if let Some(why) = &self.stopped {
            writeln!(f, "stopped: {why}; the values above are the best known")?;
        }
        let nps = if self.seconds > 0.0 { self.nodes as f64 / self.seconds } else { 0.0 };
        writeln!(f, "nodes: {}  time: {:.3} s  nodes/s: {nps:.0}", self.nodes, self.seconds)
    }
}
