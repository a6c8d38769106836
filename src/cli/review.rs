//! `review`: every move of a game judged (the best moves and value, the played move's value, the
//! loss and a mark), with a summary per side. The game comes from the position options or from a
//! file (`--game`: GGF, a transcript file or a WTHOR database). Each position is judged on the
//! values of [`Reviewer::examine`] for the budget `--time` (a depth and a node count, never the
//! clock; no store), as the explorer's `:review` judges it: the same game and budget give the
//! same marks whatever the threads (`--threads K` examines K positions at once, each on one
//! thread of its own), the machine or the store. Moves are numbered by ply, passes counted, and
//! a pass has its row.

use super::args::PositionArgs;
use super::common::{CliError, ScoringArg};
use super::report::{Align, Report, Table};
use super::solve;
use clap::Args;
use othello_explorer::notation::gamefile::{self, Format, Game};
use othello_explorer::notation::printable::{count, printable};
use othello_explorer::notation::textfile::{self, TEXT_LIMIT};
use othello_explorer::solver::{Evaluator, Kind};
use othello_explorer::studies::review::reasons::{DEEPER, Why};
use othello_explorer::studies::review::{self, Examined, Judged, Mark, Reviewer, SideSummary};
use othello_explorer::{Position, Scoring, Size, Square};
use serde::Serialize;
use serde_json::{Value, json};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// The options of `review`.
#[derive(Args, Debug, Clone)]
pub struct ReviewArgs {
    /// The game: a GGF file, a transcript file (move numbers, spaces and lines allowed, an
    /// optional board string first) or a WTHOR .wtb database.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "board"])]
    pub game: Option<PathBuf>,
    /// Which game of a file holding several (GGF or WTHOR), from 1.
    #[arg(long, value_name = "K", requires = "game", value_parser = clap::value_parser!(u64).range(1..=u32::MAX as u64))]
    pub index: Option<u64>,
    /// The budget a position, in seconds (fractions allowed; default 1, as the explorer's
    /// `:review`): it fixes the estimates' depth (14 at 1 s, one more a doubling) and the proofs'
    /// node count (200 M a second), not the time taken; the marks depend on it alone.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = super::values::seconds)]
    pub time: Option<Duration>,
    /// Positions examined at once, each on one thread of its own (default: every core). The
    /// marks are the same for any number.
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = super::values::threads)]
    pub threads: Option<u64>,
    /// How a finished game is scored: `standard` (empties to the winner) or `discs`.
    #[arg(long, value_enum, default_value = "standard")]
    pub scoring: ScoringArg,
    /// The estimates' evaluation: `patterns` (the pattern tables) or `network` (the 8x8 network,
    /// judged with the margins measured with it; the tables on the other boards).
    #[arg(long = "eval", value_name = "EVAL", default_value = "patterns", value_parser = super::values::EVALUATOR)]
    pub evaluator: othello_explorer::solver::Evaluator,
    /// Also write the game as GGF to FILE, each move with its exact value where it was proven (an
    /// estimate or an outcome is left out: a GGF value reads as the move's value).
    #[arg(long, value_name = "FILE")]
    pub ggf: Option<PathBuf>,
}

/// The game to review: from `--game`, else the position options' transcript.
fn game_of(position: &PositionArgs, args: &ReviewArgs) -> Result<Game, CliError> {
    if let Some(path) = &args.game {
        let bytes = textfile::read_bytes(path, TEXT_LIMIT).map_err(|e| CliError::Usage(e.to_string()))?;
        let size = position.size()?.unwrap_or(Size::Eight);
        let index = args.index.map(|k| k as usize);
        return gamefile::read_bytes(&bytes, size, index)
            .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())));
    }
    let resolved = position.resolve()?;
    match resolved.line {
        Some(line) if !line.moves.is_empty() => Ok(Game::new(line.start, line.moves, Format::Transcript)),
        _ => Err(CliError::Usage("review: nothing to review: give the game with --moves or --game FILE".into())),
    }
}

fn value_text(value: i32, kind: Kind) -> String {
    match kind {
        Kind::Wld => othello_explorer::solver::outcome_letter(value).to_string(),
        _ => format!("{value:+}"),
    }
}

/// One side's summary in the JSON form.
#[derive(Serialize)]
struct SideJson {
    moves: usize,
    loss: i32,
    mean_loss: f64,
    marks: serde_json::Map<String, Value>,
    marks_from_estimates: usize,
}

impl SideJson {
    fn new(s: &SideSummary) -> SideJson {
        let marks = Mark::ALL.iter().map(|m| (m.symbol().to_string(), json!(s.marks[*m as usize]))).collect();
        SideJson {
            moves: s.moves,
            loss: s.loss,
            mean_loss: (s.mean_loss() * 100.0).round() / 100.0,
            marks,
            marks_from_estimates: s.estimated,
        }
    }
}

/// One judged move in the JSON form.
#[derive(Serialize)]
struct MoveJson {
    ply: usize,
    side: String,
    #[serde(rename = "move")]
    square: String,
    best: Vec<String>,
    best_value: i32,
    played: i32,
    loss: i32,
    kind: &'static str,
    depth: Option<u32>,
    /// The estimate's selectivity in percent (`null` for a proof).
    selectivity: Option<u32>,
    mark: Option<&'static str>,
    /// Whether the mark rests on proofs (false: from estimates, the loss less `margin`).
    mark_proven: Option<bool>,
    /// The estimate's measured margin the mark was judged with.
    margin: Option<i32>,
    /// Whether the values are a proof's (every move's exact score within the budget's nodes).
    proof: bool,
    /// Whether the move was in doubt at the first depth and judged on the deeper estimates.
    deepened: bool,
    /// For a marked move: the opponent's best reply after it and the line after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    refutation: Option<Vec<String>>,
    /// For a marked move: the best move's line, the best move first.
    #[serde(skip_serializing_if = "Option::is_none")]
    best_line: Option<Vec<String>>,
    /// For a marked move: why it loses, at most two reasons, the largest first (empty: the
    /// difference is deeper than these features).
    #[serde(skip_serializing_if = "Option::is_none")]
    reasons: Option<Vec<ReasonJson>>,
}

/// One reason a marked move loses.
#[derive(Serialize)]
struct ReasonJson {
    kind: &'static str,
    squares: Vec<String>,
    detail: String,
}

fn line_strings(line: &[Square]) -> Vec<String> {
    line.iter().map(|s| s.to_string()).collect()
}

impl MoveJson {
    /// The move's refutation, best line and reasons, from `why`.
    fn with_why(self, why: Option<&Why>) -> MoveJson {
        let Some(w) = why else { return self };
        MoveJson {
            refutation: Some(line_strings(&w.refutation)),
            best_line: Some(line_strings(&w.best_line)),
            reasons: Some(
                w.reasons
                    .iter()
                    .map(|r| ReasonJson {
                        kind: r.kind.name(),
                        squares: line_strings(&r.squares),
                        detail: r.detail.clone(),
                    })
                    .collect(),
            ),
            ..self
        }
    }
}

impl MoveJson {
    fn new(j: &Judged) -> MoveJson {
        MoveJson {
            ply: j.ply,
            side: j.side.to_string(),
            square: j.played.to_string(),
            best: j.best.iter().map(|s| s.to_string()).collect(),
            best_value: j.best_value,
            played: j.value,
            loss: j.loss,
            kind: j.kind.name(),
            depth: match j.kind {
                Kind::Estimate { depth, .. } => Some(depth),
                _ => None,
            },
            selectivity: solve::selectivity_of(j.kind),
            mark: j.mark.map(|m| m.symbol()),
            mark_proven: j.mark.map(|_| j.proven),
            margin: j.margin,
            proof: false,
            deepened: false,
            refutation: None,
            best_line: None,
            reasons: None,
        }
    }
}

/// A pass in the JSON form.
#[derive(Serialize)]
struct PassJson {
    ply: usize,
    side: String,
}

/// Both sides' summaries.
#[derive(Serialize)]
struct Summaries {
    black: SideJson,
    white: SideJson,
}

/// What `review` found: printed as text, or with `--json` as one JSON object.
#[derive(Serialize)]
struct ReviewReport {
    source: String,
    size: usize,
    black_player: Option<String>,
    white_player: Option<String>,
    seconds_per_position: f64,
    /// The depth every position is estimated to (where no proof ends), and the depth a move in
    /// doubt is judged on.
    first_depth: u32,
    estimate_depth: u32,
    /// The nodes a proof may take, and the most empties at which one is tried.
    proof_nodes: u64,
    proof_empties: u32,
    threads: usize,
    complete: bool,
    moves: Vec<MoveJson>,
    /// The passes, by ply (a pass is a ply, as in the explorer's history).
    passes: Vec<PassJson>,
    summary: Summaries,
    #[serde(skip)]
    text: ReviewText,
}

/// What only the text form says.
struct ReviewText {
    total: usize,
    plies: usize,
    board: Size,
    table: Table,
    black: String,
    white: String,
    judged: usize,
    interrupted: bool,
    /// The marked moves' refutations and reasons, a few lines each.
    why: String,
}

impl std::fmt::Display for ReviewReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = &self.text;
        let passes = match t.plies - t.total {
            0 => String::new(),
            n => format!(" ({} with {})", count(t.plies as i64, "ply", "plies"), count(n as i64, "pass", "passes")),
        };
        writeln!(
            f,
            "review of {}: {}{passes} on {}, budget {}s a position (estimates to depth {}, {} where a mark is in doubt; proofs within {}M nodes from {} empties), {}",
            self.source,
            count(t.total as i64, "move", "moves"),
            t.board,
            self.seconds_per_position,
            self.first_depth,
            self.estimate_depth,
            self.proof_nodes / 1_000_000,
            self.proof_empties,
            count(self.threads as i64, "thread", "threads")
        )?;
        if let (Some(b), Some(w)) = (&self.black_player, &self.white_player) {
            let (b, w) = (printable(b), printable(w));
            writeln!(f, "black {b} · white {w}")?;
        }
        write!(f, "{}", t.table)?;
        if !t.why.is_empty() {
            write!(f, "{}", t.why)?;
        }
        writeln!(f, "{}", t.black)?;
        writeln!(f, "{}", t.white)?;
        writeln!(f, "{}", review::legend())?;
        if t.judged < t.total && !t.interrupted {
            writeln!(
                f,
                "stopped after {} of {}: no value for the next move",
                t.judged,
                count(t.total as i64, "move", "moves")
            )?;
        }
        Ok(())
    }
}

fn summary_line(name: &str, s: &SideSummary) -> String {
    let marks: Vec<String> = Mark::ALL.iter().map(|m| format!("{} {}", m.symbol(), s.marks[*m as usize])).collect();
    let estimated = if s.estimated > 0 { format!(" ({} from estimates)", s.estimated) } else { String::new() };
    format!(
        "{name:<6} {} · lost {} ({:.1} a move) · {}{estimated}",
        count(s.moves as i64, "move", "moves"),
        count(i64::from(s.loss), "disc", "discs"),
        s.mean_loss(),
        marks.join("  ")
    )
}

/// Runs `work` over the items `0..count` on `threads` threads, each with a [`Reviewer`] of its
/// own, the next item to whichever is free: what each finds depends on its item alone, so the
/// order and the number of threads change nothing. A thread stops when `stop` is raised or
/// `work` gives `None` (an examination cut short); `done` counts the results. `None` for an item
/// not reached.
fn on_reviewers<T: Send>(
    count: usize,
    (scoring, evaluator): (Scoring, Evaluator),
    threads: usize,
    stop: &Arc<AtomicBool>,
    done: &(dyn Fn(usize) + Sync),
    work: impl Fn(&mut Reviewer, usize) -> Option<T> + Sync,
) -> Result<Vec<Option<T>>, CliError> {
    let threads = threads.clamp(1, count.max(1));
    let mut reviewers = Vec::with_capacity(threads);
    for _ in 0..threads {
        reviewers.push(Reviewer::new(scoring, evaluator).map_err(|e| CliError::Usage(format!("review: {e}")))?);
    }
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let results: Vec<std::sync::Mutex<Option<T>>> = (0..count).map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for mut reviewer in reviewers {
            let (next, finished, results, work) = (&next, &finished, &results, &work);
            scope.spawn(move || {
                loop {
                    let k = next.fetch_add(1, Ordering::SeqCst);
                    if k >= count || stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let Some(found) = work(&mut reviewer, k) else { return };
                    *results[k].lock().unwrap_or_else(|e| e.into_inner()) = Some(found);
                    done(finished.fetch_add(1, Ordering::SeqCst) + 1);
                }
            });
        }
    });
    Ok(results.into_iter().map(|r| r.into_inner().unwrap_or_else(|e| e.into_inner())).collect())
}

/// Examines the positions before each move of the game ([`on_reviewers`]); `None` for a position
/// not reached before `stop`.
fn examine_all(
    positions: &[(Position, Square)],
    budget: Duration,
    judge: (Scoring, Evaluator),
    threads: usize,
    stop: &Arc<AtomicBool>,
    done: &(dyn Fn(usize) + Sync),
) -> Result<Vec<Option<Examined>>, CliError> {
    on_reviewers(positions.len(), judge, threads, stop, done, |reviewer, k| {
        let (position, played) = positions[k];
        let examined = reviewer.examine(&position, Some(played), budget, Some(stop), &mut |_| {});
        examined.complete.then_some(examined)
    })
}

/// The refutations and reasons of the marked moves of `judged` (each at `positions[k]`, the
/// position before move `k`), on [`on_reviewers`]; `None` for an unmarked move or one not
/// reached before `stop`.
fn why_all(
    positions: &[(Position, Square)],
    judged: &[Judged],
    budget: Duration,
    judge: (Scoring, Evaluator),
    threads: usize,
    stop: &Arc<AtomicBool>,
) -> Result<Vec<Option<Why>>, CliError> {
    let marked: Vec<usize> = (0..judged.len()).filter(|&k| judged[k].mark.is_some()).collect();
    let mut out: Vec<Option<Why>> = judged.iter().map(|_| None).collect();
    if marked.is_empty() {
        return Ok(out);
    }
    let found = on_reviewers(marked.len(), judge, threads, stop, &|_| {}, |reviewer, i| {
        let k = marked[i];
        Some(reviewer.why(&positions[k].0, &judged[k], budget, Some(stop)))
    })?;
    for (i, why) in found.into_iter().enumerate() {
        out[marked[i]] = why.flatten();
    }
    Ok(out)
}

/// The text of the marked moves' refutations and reasons.
fn why_text(judged: &[Judged], whys: &[Option<Why>]) -> String {
    let mut out = String::new();
    for (j, why) in judged.iter().zip(whys) {
        let Some(w) = why else { continue };
        if out.is_empty() {
            out.push_str("\nwhy the marked moves lose (the refutation: the best reply and the line after it):\n");
        }
        let line = |l: &[Square]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ");
        out.push_str(&format!(
            "{:>4} {} {} {}  refutation {} ({})  ·  best {} ({})\n",
            j.ply,
            j.side,
            j.played,
            j.mark_text().unwrap_or_default(),
            if w.refutation.is_empty() { "(game over)".to_string() } else { line(&w.refutation) },
            value_text(j.value, j.kind),
            line(&w.best_line),
            value_text(j.best_value, j.kind),
        ));
        if w.reasons.is_empty() {
            out.push_str(&format!("       {DEEPER}\n"));
        }
        for r in &w.reasons {
            out.push_str(&format!("       {}: {}\n", r.kind, r.detail));
        }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

pub fn run(position: &PositionArgs, args: &ReviewArgs, json: bool) -> Result<ExitCode, CliError> {
    // Where the GGF goes is checked before the review runs: a device or a folder is refused.
    let ggf = match &args.ggf {
        Some(path) => Some(
            othello_explorer::notation::writefile::target(path).map_err(|e| CliError::Usage(format!("--ggf {e}")))?,
        ),
        None => None,
    };
    let game = game_of(position, args)?;
    let time = args.time.unwrap_or(Duration::from_secs(1));
    let threads = args.threads.map_or_else(super::common::cores, |t| t as usize);
    let scoring = match args.scoring {
        ScoringArg::Standard => Scoring::Standard,
        ScoringArg::Discs => Scoring::Discs,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let caught = super::signals::catch_signals(&stop);
    let total = game.moves.len();
    let plies = review::plies(&game.start, &game.moves);
    // The position before each move, after a forced pass.
    let mut positions = Vec::with_capacity(total);
    let mut p = game.start;
    for ply in &plies {
        match ply.square {
            Some(m) => {
                positions.push((p, m));
                p = p.play(m).expect("a legal move");
            }
            None => p = p.pass(),
        }
    }
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(total as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("reviewing {bar:30} {pos}/{len} moves · {elapsed} · ~{eta} left")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let judge = (scoring, args.evaluator);
    let examined = examine_all(&positions, time, judge, threads, &stop, &|done| {
        if let Some(b) = &bar {
            b.set_position(done as u64);
        }
    })?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let mut k = 0;
    let mut analyse = |_: &Position, _| {
        let children = examined.get(k).and_then(|e| e.as_ref()).map(|e| e.children.clone()).unwrap_or_default();
        k += 1;
        children
    };
    let judged = review::review(&game.start, &game.moves, args.evaluator, &mut analyse, &mut |_, _| {});
    let whys = why_all(&positions, &judged, time, judge, threads, &stop)?;
    let interrupted = stop.load(Ordering::Relaxed) && judged.len() < total;
    let (black, white) = review::summary(&judged);
    if let Some(path) = &ggf {
        let values: Vec<Option<i32>> =
            (0..total).map(|i| judged.get(i).filter(|j| j.kind == Kind::Exact).map(|j| j.value)).collect();
        let text = gamefile::ggf::write(&game, &values);
        std::fs::write(path, text).map_err(|e| CliError::Usage(format!("--ggf {}: {e}", path.display())))?;
    }
    let (idx, games) = game.index;
    let source = match (&args.game, games) {
        (Some(p), 1) => format!("{} ({})", p.display(), game.format.name()),
        (Some(p), n) => format!("{} ({}, game {idx} of {n})", p.display(), game.format.name()),
        (None, _) => "--moves".to_string(),
    };
    // The kind column as wide as its widest label (`est @12 95%`).
    let kind_w = judged.iter().map(|j| j.kind.label().chars().count()).max().unwrap_or(0).max(7);
    let mut table = Table::new(&[
        ("", 4, Align::Right),
        ("  ", 5, Align::Left),
        ("  ", 4, Align::Left),
        ("  ", 5, Align::Right),
        ("   ", 20, Align::Left),
        (" ", 4, Align::Right),
        ("  ", kind_w, Align::Left),
        ("  ", 0, Align::Left),
    ]);
    table.line(format!(" ply  side   move  value   best                 loss  {:<kind_w$}  mark", "kind"));
    let last = judged.last().map_or(0, |j| j.ply);
    let mut rows = judged.iter().peekable();
    for ply in plies.iter().take_while(|p| p.number <= last) {
        if ply.square.is_none() {
            table.row(&[
                ply.number.to_string(),
                ply.side.to_string(),
                "pass".into(),
                String::new(),
                "(no move)".into(),
                String::new(),
                String::new(),
                String::new(),
            ]);
            continue;
        }
        let Some(j) = rows.next_if(|j| j.ply == ply.number) else { continue };
        let best: Vec<String> = j.best.iter().map(|s| s.to_string()).collect();
        let best = format!("{} {}", value_text(j.best_value, j.kind), best.join(" "));
        table.row(&[
            j.ply.to_string(),
            j.side.to_string(),
            j.played.to_string(),
            value_text(j.value, j.kind),
            best,
            j.loss.to_string(),
            j.kind.label(),
            j.mark_text().unwrap_or_default(),
        ]);
    }
    let how: Vec<(bool, bool)> =
        examined.iter().map(|e| e.as_ref().map_or((false, false), |e| (e.proof, e.deepened))).collect();
    let report = ReviewReport {
        source,
        size: game.start.size().n(),
        black_player: game.black.clone(),
        white_player: game.white.clone(),
        seconds_per_position: time.as_secs_f64(),
        first_depth: review::gate_depth(time),
        estimate_depth: review::verdict_depth(time),
        proof_nodes: review::proof_nodes(time),
        proof_empties: review::proof_reach(game.start.size()),
        threads,
        complete: judged.len() == total,
        moves: judged
            .iter()
            .zip(how.iter().chain(std::iter::repeat(&(false, false))))
            .zip(&whys)
            .map(|((j, &(proof, deepened)), why)| {
                MoveJson { proof, deepened, ..MoveJson::new(j) }.with_why(why.as_ref())
            })
            .collect(),
        passes: plies
            .iter()
            .filter(|p| p.square.is_none() && p.number <= last)
            .map(|p| PassJson { ply: p.number, side: p.side.to_string() })
            .collect(),
        summary: Summaries { black: SideJson::new(&black), white: SideJson::new(&white) },
        text: ReviewText {
            total,
            plies: plies.len(),
            board: game.start.size(),
            table,
            black: summary_line("black", &black),
            white: summary_line("white", &white),
            judged: judged.len(),
            interrupted,
            why: why_text(&judged, &whys),
        },
    };
    report.print(json);
    if interrupted {
        eprintln!(
            "othello-explorer: interrupted: {} of {} reviewed",
            judged.len(),
            count(total as i64, "move", "moves")
        );
        let sig = caught.load(Ordering::SeqCst);
        return Ok(ExitCode::from(if sig == 0 { 130 } else { 128 + sig as u8 }));
    }
    Ok(ExitCode::SUCCESS)
}
