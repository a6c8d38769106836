//! `review`: every move of a game judged (the best moves and value, the played move's value, the
//! loss and a mark), with a summary per side. The game comes from the position options or from a
//! file (`--game`: GGF, a transcript file or a WTHOR database); each position gets `--time`
//! seconds of the store-backed solver, exact wherever it finishes within them.

use super::args::PositionArgs;
use super::report::{Align, Report, Table};
use super::{CliError, SolverArgs, solve};
use clap::Args;
use othello_explorer::Size;
use othello_explorer::analyst::Analyst;
use othello_explorer::gamefile::{self, Format, Game};
use othello_explorer::notation::printable::{count, printable};
use othello_explorer::review::{self, Judged, Mark, SideSummary};
use othello_explorer::solver::{ChildValue, Kind, Limits};
use othello_explorer::store::Store;
use othello_explorer::textfile::{self, TEXT_LIMIT};
use serde::Serialize;
use serde_json::{Value, json};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Seconds of search for each position (fractions allowed; default 1).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = super::values::seconds)]
    pub time: Option<Duration>,
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
    /// Whether the position was looked at deeper because the mark was in doubt.
    deepened: bool,
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
            deepened: false,
        }
    }
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
    threads: usize,
    complete: bool,
    moves: Vec<MoveJson>,
    summary: Summaries,
    #[serde(skip)]
    text: ReviewText,
}

/// What only the text form says.
struct ReviewText {
    total: usize,
    board: Size,
    table: Table,
    black: String,
    white: String,
    judged: usize,
    interrupted: bool,
}

impl std::fmt::Display for ReviewReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = &self.text;
        writeln!(
            f,
            "review of {}: {} on {}, {:.1}s a position, {}",
            self.source,
            count(t.total as i64, "move", "moves"),
            t.board,
            self.seconds_per_position,
            count(self.threads as i64, "thread", "threads")
        )?;
        if let (Some(b), Some(w)) = (&self.black_player, &self.white_player) {
            let (b, w) = (printable(b), printable(w));
            writeln!(f, "black {b} · white {w}")?;
        }
        write!(f, "{}", t.table)?;
        writeln!(f, "{}", t.black)?;
        writeln!(f, "{}", t.white)?;
        writeln!(f, "{}", review::LEGEND)?;
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

pub fn run(
    position: &PositionArgs,
    args: &ReviewArgs,
    solver: &SolverArgs,
    store: Option<Store>,
    json: bool,
) -> Result<ExitCode, CliError> {
    // Where the GGF goes is checked before the review runs: a device or a folder is refused.
    let ggf = match &args.ggf {
        Some(path) => {
            Some(othello_explorer::writefile::target(path).map_err(|e| CliError::Usage(format!("--ggf {e}")))?)
        }
        None => None,
    };
    let game = game_of(position, args)?;
    let options = solver.options_for(game.start.size())?;
    let time = args.time.unwrap_or(Duration::from_secs(1));
    let threads = options.threads;
    let solver = super::solver(options)?;
    let mut analyst = Analyst::new(solver, store);
    let stop = Arc::new(AtomicBool::new(false));
    let caught = solve::catch_signals(&stop);
    let total = game.moves.len();
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(total as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("reviewing {bar:30} {pos}/{len} moves · {elapsed} · ~{eta} left")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let mut deepened = Vec::new();
    let mut analyse = |p: &othello_explorer::Position, played| -> Vec<ChildValue> {
        if stop.load(Ordering::Relaxed) {
            return Vec::new();
        }
        let limits = Limits { stop: Some(stop.clone()), ..Limits::default() };
        let examined = review::examine(&mut analyst, p, played, time, &limits, &mut |_| {});
        deepened.push(examined.deepened);
        examined.children
    };
    let mut progress = |done: usize, _: usize| {
        if let Some(b) = &bar {
            b.set_position(done as u64);
        }
    };
    let judged = review::review(&game.start, &game.moves, &mut analyse, &mut progress);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
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
    for j in &judged {
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
    let report = ReviewReport {
        source,
        size: game.start.size().n(),
        black_player: game.black.clone(),
        white_player: game.white.clone(),
        seconds_per_position: time.as_secs_f64(),
        threads,
        complete: judged.len() == total,
        moves: judged
            .iter()
            .zip(deepened.iter().chain(std::iter::repeat(&false)))
            .map(|(j, &d)| MoveJson { deepened: d, ..MoveJson::new(j) })
            .collect(),
        summary: Summaries { black: SideJson::new(&black), white: SideJson::new(&white) },
        text: ReviewText {
            total,
            board: game.start.size(),
            table,
            black: summary_line("black", &black),
            white: summary_line("white", &white),
            judged: judged.len(),
            interrupted,
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
