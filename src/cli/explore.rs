//! The explorer's own options and its start: no subcommand opens the terminal app.

use super::CliError;
use super::args::Resolved;
use clap::{Args, ValueEnum};
use othello_explorer::Scoring;
use othello_explorer::tui::{self, Options, TuiError};
use std::time::Duration;

/// When to draw colours.
#[derive(ValueEnum, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// Colours unless NO_COLOR is set or the output is not a terminal.
    #[default]
    Auto,
    /// Always colours.
    Always,
    /// Never: meaning is carried by glyphs and modifiers.
    Never,
}

/// How finished games are scored.
#[derive(ValueEnum, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ScoringChoice {
    /// Empty squares go to the winner (the official rule).
    #[default]
    Standard,
    /// The plain disc difference (the 4x4 article's figures).
    Discs,
}

/// Options of the terminal explorer.
#[derive(Args, Debug, Clone, Default)]
pub struct ExploreArgs {
    /// Explorer: when to use colours (NO_COLOR is honoured by auto).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Explorer: do not capture the mouse (keeps the terminal's own text selection).
    #[arg(long)]
    pub no_mouse: bool,
    /// Explorer: how finished games are scored.
    #[arg(long, value_enum, value_name = "RULE", default_value_t = ScoringChoice::Standard)]
    pub scoring: ScoringChoice,
    /// Explorer: the solver's transposition table in MiB.
    #[arg(long, value_name = "M", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub hash_mb: u64,
    /// Explorer: the auto-play delay between moves, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 700, value_parser = clap::value_parser!(u64).range(100..=5000))]
    pub delay_ms: u64,
}

pub fn run(resolved: &Resolved, args: &ExploreArgs) -> Result<(), CliError> {
    let (root, moves) = match &resolved.line {
        Some(line) => (line.start, line.moves.clone()),
        None => (resolved.position, Vec::new()),
    };
    let options = Options {
        root,
        moves,
        scoring: match args.scoring {
            ScoringChoice::Standard => Scoring::Standard,
            ScoringChoice::Discs => Scoring::Discs,
        },
        hash_mb: args.hash_mb as usize,
        color: match args.color {
            ColorChoice::Auto => tui::color_auto(),
            ColorChoice::Always => true,
            ColorChoice::Never => false,
        },
        mouse: !args.no_mouse,
        auto_delay: Duration::from_millis(args.delay_ms),
    };
    tui::run(options).map_err(|e: TuiError| CliError::Usage(e.to_string()))
}
