//! Command-line parsing and the subcommands. Everything here turns arguments into engine calls and
//! engine results into text or JSON; the engine itself lives in the library.

mod args;
mod explore;
mod perft;
mod show;

pub use args::PositionArgs;
use clap::{Parser, Subcommand};
use std::fmt;
use std::process::ExitCode;

/// Explore the Othello game tree on 4x4, 6x6 and 8x8 boards: bitboards in hex and binary,
/// legal-move and flip masks, and exact solver scores for every move.
///
/// With no subcommand, opens the terminal explorer on the given position.
#[derive(Parser, Debug)]
#[command(name = "othello-explorer", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub explore: explore::ExploreArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print a position: diagram, black/white/empty/legal masks in hex and binary, and every
    /// legal move with its flip mask.
    Show {
        #[command(flatten)]
        position: PositionArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Count the leaves of the game tree at every depth 1..DEPTH (a pass is a ply; a game that
    /// ends early counts as one leaf).
    Perft {
        /// The deepest depth to count.
        #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        #[command(flatten)]
        position: PositionArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// A failure to report: one line, and the exit code that goes with it.
#[derive(Debug)]
pub enum CliError {
    /// Bad input: a usage or parse error (exit 2).
    Usage(String),
    /// The work ran but found a problem, such as a benchmark mismatch (exit 1).
    Failed(String),
}

impl CliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Failed(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(s) | CliError::Failed(s) => f.write_str(s),
        }
    }
}

pub fn run(cli: Cli) -> Result<ExitCode, CliError> {
    match cli.command {
        Some(Command::Show { position, json }) => show::run(&position.resolve()?, json),
        Some(Command::Perft { depth, position, json }) => perft::run(&position.resolve()?, depth, json),
        None => explore::run(&cli.position.resolve()?, &cli.explore),
    }
    .map(|()| ExitCode::SUCCESS)
}
