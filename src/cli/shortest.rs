//! `shortest`: the shortest games that end a given way, or the check of a file of such games.

use super::{CliError, outln};
use othello_explorer::shortest::{self, Ending, Limits, Method, Outcome};
use othello_explorer::textfile::{self, TEXT_LIMIT};
use othello_explorer::{Size, transcript};
use serde_json::json;
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
    #[arg(long, value_name = "N", default_value_t = 8, allow_negative_numbers = true, value_parser = super::values::size)]
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
    let _caught = super::solve::catch_signals(&stop);
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
    let outcome = shortest::shortest_by(method, size, ending, &limits, &stop);
    let seconds = clock.elapsed().as_secs_f64();
    match outcome {
        Outcome::Found(found) => {
            let listed =
                if args.all && found.games <= args.list_max as u64 { Some(found.games(args.list_max)) } else { None };
            let example = transcript::format(&found.example());
            if json {
                let all = listed.as_ref().map(|g| g.iter().map(|m| transcript::format(m)).collect::<Vec<_>>());
                let finals: Vec<String> = found.finals.iter().map(board_only).collect();
                outln!(
                    "{}",
                    json!({
                        "size": size.n(),
                        "ending": ending.name(),
                        "moves": found.moves,
                        "games": found.games.to_string(),
                        "finals": finals,
                        "finals_up_to_symmetry": found.finals_up_to_symmetry,
                        "example": example,
                        "all": all,
                        "method": found.method.name(),
                        "layer_sizes": found.layer_sizes,
                        "seconds": seconds,
                    })
                );
                return Ok(ExitCode::SUCCESS);
            }
            outln!("shortest {ending} on {size}: {} moves", found.moves);
            outln!("  games of that length: {}", found.games);
            outln!("  final positions: {} ({} up to symmetry)", found.finals.len(), found.finals_up_to_symmetry);
            outln!("  example: {example}");
            match found.method {
                Method::Layers => outln!("  positions after each move: {}", join(&found.layer_sizes)),
                Method::Finals => {
                    outln!("  finished drawn boards looked at for 2, 4, 6, … moves: {}", join(&found.layer_sizes))
                }
            }
            outln!("  {seconds:.2} s");
            if args.all {
                match &listed {
                    Some(games) => {
                        outln!("");
                        for g in games {
                            outln!("{}", transcript::format(g));
                        }
                    }
                    None => outln!(
                        "  {} games are more than --list-max {}: not listed (one final position each below)",
                        found.games,
                        args.list_max
                    ),
                }
                if listed.is_none() {
                    for f in &found.finals {
                        outln!("  {}", board_only(f));
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Outcome::NoneWithin { max_moves, layer_sizes } => {
            if json {
                outln!(
                    "{}",
                    json!({ "size": size.n(), "ending": ending.name(), "moves": null, "max_moves": max_moves, "method": method.name(), "layer_sizes": layer_sizes })
                );
            } else {
                outln!("no game on {size} ends as a {ending} within {max_moves} moves");
                outln!("  looked at, by length: {}", join(&layer_sizes));
            }
            Ok(ExitCode::from(1))
        }
        Outcome::TooLarge { searched_moves, positions, layer_sizes } => {
            let text = format!(
                "undecided: no game on {size} ends as a {ending} within {searched_moves} moves, and the next layer outgrew \
                 --max-positions {} ({positions} positions held)",
                args.max_positions
            );
            if json {
                outln!(
                    "{}",
                    json!({ "size": size.n(), "ending": ending.name(), "moves": null, "searched_moves": searched_moves, "layer_sizes": layer_sizes, "reason": text })
                );
            } else {
                outln!("{text}");
                outln!("  positions after each move: {}", join(&layer_sizes));
            }
            Ok(ExitCode::from(3))
        }
        Outcome::Undecided { searched_moves, board } => {
            let text = format!(
                "undecided: no game on {size} ends as a {ending} within {searched_moves} moves, but the game-record \
                 search gave up on the board {board}"
            );
            if json {
                outln!(
                    "{}",
                    json!({ "size": size.n(), "ending": ending.name(), "moves": null, "searched_moves": searched_moves, "reason": text })
                );
            } else {
                outln!("{text}");
            }
            Ok(ExitCode::from(3))
        }
        Outcome::Cancelled => {
            outln!("interrupted");
            Ok(ExitCode::from(3))
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
    if json {
        let records: Vec<_> = v
            .records
            .iter()
            .map(|r| {
                json!({
                    "line": r.line,
                    "moves": transcript::format(&r.moves),
                    "ok": r.result.is_ok(),
                    "problem": r.result.as_ref().err().map(|e| e.to_string()),
                    "final": r.result.as_ref().ok().map(board_only),
                })
            })
            .collect();
        outln!(
            "{}",
            json!({ "size": size.n(), "ending": ending.name(), "moves": moves, "passed": v.passed(), "records": records, "finals_up_to_symmetry": v.finals_up_to_symmetry })
        );
    } else {
        for r in &v.records {
            match &r.result {
                Ok(end) => outln!("{file}:{}: ok, {} moves, ends {}", r.line, r.moves.len(), board_only(end)),
                Err(e) => outln!("{file}:{}: refused: {e}", r.line),
            }
        }
        let good = v.records.iter().filter(|r| r.result.is_ok()).count();
        outln!(
            "{good} of {} records are legal games of exactly {moves} moves ending as a {ending} on {size}; {} distinct final positions up to symmetry",
            v.records.len(),
            v.finals_up_to_symmetry
        );
    }
    Ok(if v.passed() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
