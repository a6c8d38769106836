//! `shortest`: the shortest games that end a given way, or the check of a file of such games. On a
//! terminal a spinner on standard error shows the layer or length at hand, the counts so far and
//! the bounds that stop the search (`--max-moves`, `--max-positions`, the game-record search's
//! node limit).

use super::common::{CliError, counted, outln, thousands};
use super::progress;
use super::report::Report;
use othello_explorer::notation::printable::{count, one_line};
use othello_explorer::notation::textfile::{self, TEXT_LIMIT};
use othello_explorer::studies::shortest::{self, Ending, Limits, Method, Outcome, Progress};
use othello_explorer::{Size, notation::transcript};
use serde::Serialize;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(clap::ValueEnum, Debug, Clone, Copy)]
pub enum EndingArg {
    Draw,
    Wipeout,
    Any,
}

impl EndingArg {
    fn ending(self) -> Ending {
        match self {
            EndingArg::Draw => Ending::Draw,
            EndingArg::Wipeout => Ending::Wipeout,
            EndingArg::Any => Ending::Any,
        }
    }
}

#[derive(clap::ValueEnum, Debug, Clone, Copy)]
pub enum MethodArg {
    Layers,
    Finals,
}

#[derive(clap::Args, Debug, Clone)]
pub struct ShortestArgs {
    /// Board size: 4, 6 or 8.
    #[arg(long, value_name = "N", default_value_t = 8, allow_negative_numbers = true, value_parser = super::values::SIZE)]
    pub size: u8,
    /// How the game ends: `draw`, `wipeout` (one side has no disc) or `any`.
    #[arg(long, value_enum, default_value = "any")]
    pub ending: EndingArg,
    /// How to search: `layers` (forward, one layer of positions per move) or `finals` (draws
    /// only: every finished drawn board of each length, each checked by the game-record search).
    /// Default: finals for draws, layers otherwise.
    #[arg(long, value_enum)]
    pub method: Option<MethodArg>,
    /// List every game of the shortest length (only their count when there are more than --list-max).
    #[arg(long)]
    pub all: bool,
    /// With --all: list at most this many games.
    #[arg(long, value_name = "K", default_value_t = 10_000, allow_negative_numbers = true, value_parser = super::values::count)]
    pub list_max: usize,
    /// Look at games of at most this many moves; with --verify-only, the claimed shortest length.
    #[arg(long, value_name = "M", allow_negative_numbers = true, value_parser = super::values::plies)]
    pub max_moves: Option<u32>,
    /// Hold at most this many positions (about 100 bytes each); past it the search stops, undecided (exit 3).
    #[arg(long, value_name = "P", default_value_t = 10_000_000, allow_negative_numbers = true, value_parser = super::values::positions)]
    pub max_positions: usize,
    /// Do not search: check the game records in FILE (one transcript a line, `;` comments): each
    /// legal, over after its last move, ending that way, exactly --max-moves long.
    #[arg(long, value_name = "FILE")]
    pub verify_only: Option<String>,
}

/// Exit 0 when found (or every record checks), 1 when there is no such game within --max-moves
/// (or a record fails), 3 when the search outgrew --max-positions or was interrupted.
pub fn run(args: &ShortestArgs, json: bool) -> Result<ExitCode, CliError> {
    let size = Size::from_n(args.size as usize)
        .ok_or_else(|| CliError::Usage(format!("--size {}: the board size must be 4, 6 or 8", args.size)))?;
    let ending = args.ending.ending();
    if let Some(file) = &args.verify_only {
        let Some(moves) = args.max_moves else {
            return Err(CliError::Usage("--verify-only needs --max-moves, the claimed shortest length".into()));
        };
        return verify(size, ending, moves as usize, file, json);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let _caught = super::signals::catch_signals(&stop);
    let limits =
        Limits { max_moves: args.max_moves.unwrap_or(size.squares() as u32 - 4), max_positions: args.max_positions };
    let method = match args.method {
        None => Method::default_for(ending),
        Some(MethodArg::Layers) => Method::Layers,
        Some(MethodArg::Finals) if ending == Ending::Draw => Method::Finals,
        Some(MethodArg::Finals) => {
            return Err(CliError::Usage("--method finals finds draws only: use it with --ending draw".into()));
        }
    };
    let clock = Instant::now();
    // On a terminal, the layer or length at hand, the counts so far and the bounds that stop it.
    let spinner = progress::spinner();
    let mut show = |p: &Progress| {
        let Some(s) = &spinner else { return };
        s.set_message(match *p {
            Progress::Layer { moves, max_moves, expanded, parents, positions, max_positions } => format!(
                "shortest: games of {} (at most {max_moves}) · {} of {} expanded · {} held of at most {} \
                 (--max-positions)",
                count(i64::from(moves), "move", "moves"),
                thousands(expanded as u64),
                counted(parents as u64, "position", "positions"),
                thousands(positions as u64),
                thousands(max_positions as u64)
            ),
            Progress::Finals { moves, max_moves, boards, reachable, nodes, max_nodes } => format!(
                "shortest: draws of {} (at most {max_moves}) · {}, {} reachable · {} searched on this board of at \
                 most {}",
                count(i64::from(moves), "move", "moves"),
                counted(boards as u64, "finished drawn board", "finished drawn boards"),
                thousands(reachable as u64),
                counted(nodes, "position", "positions"),
                thousands(max_nodes)
            ),
        });
    };
    let outcome = shortest::shortest_with_progress(method, size, ending, &limits, &stop, &mut show);
    if let Some(s) = &spinner {
        s.finish_and_clear();
    }
    let seconds = clock.elapsed().as_secs_f64();
    let head =
        Head { size: size.n(), ending: ending.name(), moves: None, board: size, ending_text: ending.to_string() };
    let (report, exit) = match outcome {
        Outcome::Found(found) => {
            let listed =
                if args.all && found.games <= args.list_max as u64 { Some(found.games(args.list_max)) } else { None };
            let report = Found {
                head: Head { moves: Some(found.moves), ..head },
                games: found.games.to_string(),
                finals: found.finals.iter().map(board_only).collect(),
                finals_up_to_symmetry: found.finals_up_to_symmetry,
                example: transcript::format(&found.example()),
                all: listed.as_ref().map(|g| g.iter().map(|m| transcript::format(m)).collect()),
                method: found.method.name(),
                layer_sizes: found.layer_sizes.clone(),
                seconds,
                list: args.all.then_some(args.list_max),
                by_layers: found.method == Method::Layers,
            };
            (ShortestReport::Found(report), ExitCode::SUCCESS)
        }
        Outcome::NoneWithin { max_moves, layer_sizes } => {
            let report = NoneWithin { head, max_moves, method: method.name(), layer_sizes };
            (ShortestReport::NoneWithin(report), ExitCode::from(1))
        }
        Outcome::TooLarge { searched_moves, positions, layer_sizes } => {
            let reason = format!(
                "undecided: no game on {size} ends as a {ending} within {}, and the next layer outgrew \
                 --max-positions {} ({} held)",
                count(i64::from(searched_moves), "move", "moves"),
                args.max_positions,
                count(positions as i64, "position", "positions")
            );
            let report = TooLarge { head, searched_moves, layer_sizes, reason };
            (ShortestReport::TooLarge(report), ExitCode::from(3))
        }
        Outcome::Undecided { searched_moves, board } => {
            let reason = format!(
                "undecided: no game on {size} ends as a {ending} within {}, but the game-record search gave up on the \
                 board {board}",
                count(i64::from(searched_moves), "move", "moves")
            );
            (ShortestReport::Undecided(Undecided { head, searched_moves, reason }), ExitCode::from(3))
        }
        Outcome::Cancelled => {
            outln!("interrupted");
            return Ok(ExitCode::from(3));
        }
    };
    report.print(json);
    Ok(exit)
}

/// What every answer of `shortest` starts with.
#[derive(Serialize)]
struct Head {
    size: usize,
    ending: &'static str,
    /// The shortest length, `null` when none was found.
    moves: Option<u32>,
    #[serde(skip)]
    board: Size,
    #[serde(skip)]
    ending_text: String,
}

/// What `shortest` found: printed as text, or with `--json` as one JSON object.
#[derive(Serialize)]
#[serde(untagged)]
enum ShortestReport {
    Found(Found),
    NoneWithin(NoneWithin),
    TooLarge(TooLarge),
    Undecided(Undecided),
}

/// The shortest games, found.
#[derive(Serialize)]
struct Found {
    #[serde(flatten)]
    head: Head,
    games: String,
    finals: Vec<String>,
    finals_up_to_symmetry: usize,
    example: String,
    all: Option<Vec<String>>,
    method: &'static str,
    layer_sizes: Vec<usize>,
    seconds: f64,
    /// `--all`'s `--list-max`, when `--all` was given.
    #[serde(skip)]
    list: Option<usize>,
    #[serde(skip)]
    by_layers: bool,
}

/// No such game within the bound.
#[derive(Serialize)]
struct NoneWithin {
    #[serde(flatten)]
    head: Head,
    max_moves: u32,
    method: &'static str,
    layer_sizes: Vec<usize>,
}

/// The search outgrew its bound.
#[derive(Serialize)]
struct TooLarge {
    #[serde(flatten)]
    head: Head,
    searched_moves: u32,
    layer_sizes: Vec<usize>,
    reason: String,
}

/// The game-record search gave up on a board.
#[derive(Serialize)]
struct Undecided {
    #[serde(flatten)]
    head: Head,
    searched_moves: u32,
    reason: String,
}

impl std::fmt::Display for ShortestReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShortestReport::Found(r) => {
                let (size, ending) = (r.head.board, &r.head.ending_text);
                writeln!(
                    f,
                    "shortest {ending} on {size}: {}",
                    count(i64::from(r.head.moves.unwrap_or(0)), "move", "moves")
                )?;
                writeln!(f, "  games of that length: {}", r.games)?;
                writeln!(f, "  final positions: {} ({} up to symmetry)", r.finals.len(), r.finals_up_to_symmetry)?;
                writeln!(f, "  example: {}", r.example)?;
                if r.by_layers {
                    writeln!(f, "  positions after each move: {}", join(&r.layer_sizes))?;
                } else {
                    writeln!(f, "  finished drawn boards looked at for 2, 4, 6, … moves: {}", join(&r.layer_sizes))?;
                }
                writeln!(f, "  {:.2} s", r.seconds)?;
                if let Some(list_max) = r.list {
                    match &r.all {
                        Some(games) => {
                            writeln!(f)?;
                            for g in games {
                                writeln!(f, "{g}")?;
                            }
                        }
                        None => {
                            writeln!(
                                f,
                                "  {} more than --list-max {list_max}: not listed (one final position each below)",
                                if r.games == "1" { "1 game is".to_string() } else { format!("{} games are", r.games) }
                            )?;
                            for board in &r.finals {
                                writeln!(f, "  {board}")?;
                            }
                        }
                    }
                }
                Ok(())
            }
            ShortestReport::NoneWithin(r) => {
                let (size, ending) = (r.head.board, &r.head.ending_text);
                writeln!(
                    f,
                    "no game on {size} ends as a {ending} within {}",
                    count(i64::from(r.max_moves), "move", "moves")
                )?;
                writeln!(f, "  looked at, by length: {}", join(&r.layer_sizes))
            }
            ShortestReport::TooLarge(r) => {
                writeln!(f, "{}", r.reason)?;
                writeln!(f, "  positions after each move: {}", join(&r.layer_sizes))
            }
            ShortestReport::Undecided(r) => writeln!(f, "{}", r.reason),
        }
    }
}

/// The board string of a finished game without its side to move.
fn board_only(p: &othello_explorer::Position) -> String {
    let s = p.to_string();
    s.split(' ').next().unwrap_or(&s).to_string()
}

fn join(v: &[usize]) -> String {
    v.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" ")
}

fn verify(size: Size, ending: Ending, moves: usize, file: &str, json: bool) -> Result<ExitCode, CliError> {
    let text = textfile::read_text(Path::new(file), TEXT_LIMIT).map_err(|e| CliError::Usage(e.to_string()))?;
    let v = shortest::verify(size, ending, moves, &text);
    let records: Vec<Record> = v
        .records
        .iter()
        .map(|r| Record {
            line: r.line,
            moves: transcript::format(&r.moves),
            ok: r.result.is_ok(),
            problem: r.result.as_ref().err().map(|e| e.to_string()),
            end: r.result.as_ref().ok().map(board_only),
            count: r.moves.len(),
        })
        .collect();
    let report = VerifyReport {
        size: size.n(),
        ending: ending.name(),
        moves,
        passed: v.passed(),
        records,
        finals_up_to_symmetry: v.finals_up_to_symmetry,
        file: file.to_string(),
        board: size,
    };
    report.print(json);
    Ok(if v.passed() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// What `shortest --verify-only` found of each record.
#[derive(Serialize)]
struct VerifyReport {
    size: usize,
    ending: &'static str,
    moves: usize,
    passed: bool,
    records: Vec<Record>,
    finals_up_to_symmetry: usize,
    #[serde(skip)]
    file: String,
    #[serde(skip)]
    board: Size,
}

/// One record checked.
#[derive(Serialize)]
struct Record {
    line: usize,
    moves: String,
    ok: bool,
    problem: Option<String>,
    #[serde(rename = "final")]
    end: Option<String>,
    #[serde(skip)]
    count: usize,
}

impl std::fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let file = &self.file;
        for r in &self.records {
            match (&r.end, &r.problem) {
                (Some(end), _) => {
                    writeln!(f, "{file}:{}: ok, {}, ends {end}", r.line, count(r.count as i64, "move", "moves"))?
                }
                // The problem quotes the file: its control characters escaped, its length bounded.
                (None, problem) => {
                    writeln!(f, "{file}:{}: refused: {}", r.line, one_line(problem.as_deref().unwrap_or(""), 200))?
                }
            }
        }
        let good = self.records.iter().filter(|r| r.ok).count();
        writeln!(
            f,
            "{good} of {} {} of exactly {} ending as a {} on {}; {} up to symmetry",
            count(self.records.len() as i64, "record", "records"),
            if good == 1 { "is a legal game" } else { "are legal games" },
            count(self.moves as i64, "move", "moves"),
            self.ending,
            self.board,
            count(self.finals_up_to_symmetry as i64, "distinct final position", "distinct final positions")
        )
    }
}
