//! The explorer's own options and its start: no subcommand opens the terminal app.

use super::args::PositionArgs;
use super::common::CliError;
use super::paths;
use clap::{Args, ValueEnum};
use othello_explorer::Color;
use othello_explorer::Scoring;
use othello_explorer::notation::textfile::{self, ReadError};
use othello_explorer::tui::{self, Options, Session, Strength, TuiError};
use std::path::{Path, PathBuf};
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

/// Which side the user plays against the engine.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayChoice {
    /// The user plays black, the engine white.
    Black,
    /// The user plays white, the engine black.
    White,
    /// The engine plays both sides.
    Both,
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
#[derive(Args, Debug, Clone)]
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
    #[arg(long, value_name = "M", default_value_t = othello_explorer::solver::DEFAULT_HASH_MB as u64, allow_negative_numbers = true, value_parser = super::values::hash_mb)]
    pub hash_mb: u64,
    /// Explorer: solver threads (default: every core).
    #[arg(long, value_name = "K", allow_negative_numbers = true, value_parser = super::values::threads)]
    pub threads: Option<u64>,
    /// Explorer: the deepest estimate, in plies; a position whose moves all reached it (and are
    /// too deep to prove) leaves the cores idle.
    #[arg(long, value_name = "D", default_value_t = 30, allow_negative_numbers = true, value_parser = super::values::depth)]
    pub max_depth: u32,
    /// Explorer: the auto-play delay between moves, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 700, allow_negative_numbers = true, value_parser = super::values::delay_ms)]
    pub delay_ms: u64,
    /// Explorer: reopen the saved session (every explored branch, at the node you left).
    #[arg(long, conflicts_with_all = ["no_session", "size", "moves", "board"])]
    pub resume: bool,
    /// Explorer: the session file (default: session.txt in the program's data directory).
    #[arg(long, value_name = "PATH", conflicts_with = "no_session")]
    pub session: Option<PathBuf>,
    /// Explorer: keep no session file.
    #[arg(long)]
    pub no_session: bool,
    /// Explorer: play a game against the engine as this colour (both: engine against engine).
    #[arg(long, value_enum, value_name = "SIDE")]
    pub play: Option<PlayChoice>,
    /// Explorer: the engine's strength in a game, 1 to 30: the depth of its estimates (moves
    /// near the end are proven). Default 10.
    #[arg(long, value_name = "N", conflicts_with = "move_time", allow_negative_numbers = true, value_parser = super::values::level)]
    pub level: Option<u32>,
    /// Explorer: the engine's time a move in a game, in seconds (0.05 to 600; proven moves at once).
    #[arg(long, value_name = "S", allow_negative_numbers = true, value_parser = super::values::move_time)]
    pub move_time: Option<f64>,
    /// Explorer: how selective the estimates are at the start: 73, 87, 95, 98, 99 or 100
    /// (percent; 100: full width). `%` cycles it, `:selectivity N` sets it.
    #[arg(long, value_name = "PERCENT", default_value_t = othello_explorer::solver::DEFAULT_SELECTIVITY, value_parser = super::values::SELECTIVITY)]
    pub selectivity: othello_explorer::solver::Selectivity,
    /// Explorer: the evaluation of the estimates: `patterns` (the pattern tables) or `network`
    /// (the 8x8 network; the pattern tables on the other boards).
    #[arg(long = "eval", value_name = "EVAL", default_value = "patterns", value_parser = super::values::EVALUATOR)]
    pub evaluator: othello_explorer::solver::Evaluator,
}

/// The session file to use: `--session`, else the default in the data directory; none with
/// `--no-session` or when the platform has no data directory.
fn session_path(args: &ExploreArgs) -> Option<PathBuf> {
    if args.no_session {
        return None;
    }
    args.session.clone().or_else(|| paths::data_dir().map(|d| d.join("session.txt")))
}

/// Reads the session to resume; every failure is a usage error naming the file.
fn read_session(path: &Path) -> Result<Session, CliError> {
    let text = textfile::read_text(path, textfile::TEXT_LIMIT).map_err(|e| match e {
        ReadError::NotFound { .. } => {
            CliError::Usage(format!("no saved session at {}: start without --resume", path.display()))
        }
        e => CliError::Usage(e.to_string()),
    })?;
    // A big session (millions of nodes) takes seconds: say how far on a terminal.
    let bar = (text.len() >= BIG_SESSION && std::io::IsTerminal::is_terminal(&std::io::stderr())).then(|| {
        let bar = indicatif::ProgressBar::new(text.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "reading the session {bar:30} {binary_bytes}/{binary_total_bytes} · {elapsed}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let session = tui::parse_session_with_progress(&text, &mut |done, _| {
        if let Some(bar) = &bar {
            bar.set_position(done as u64);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let session = session.map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
    if let Some(line) = session.cut {
        eprintln!(
            "othello-explorer: {}:{line}: the last line was cut (the explorer ended while writing it): left out",
            path.display()
        );
    }
    Ok(session)
}

/// A session text this long (in bytes) is read with a progress bar on a terminal.
const BIG_SESSION: usize = 4 << 20;

pub fn run(
    position: &PositionArgs,
    args: &ExploreArgs,
    store: Option<PathBuf>,
    archive: Option<PathBuf>,
) -> Result<(), CliError> {
    let resolved = position.resolve()?;
    let (root, moves) = match &resolved.line {
        Some(line) => (line.start, line.moves.clone()),
        None => (resolved.position, Vec::new()),
    };
    let session = session_path(args);
    if args.resume && session.is_none() {
        return Err(CliError::Usage(
            "--resume: no data directory for the session file: name one with --session".into(),
        ));
    }
    // `tui::run` locks the session file and keeps the one it replaces (`disk::claim_session`).
    let resumed = match (&session, args.resume) {
        (Some(path), true) => Some(read_session(path)?),
        _ => None,
    };
    // A device, a FIFO or a folder is never written over or renamed.
    if let Some(path) = &session {
        tui::check_session_path(path).map_err(|e| CliError::Usage(format!("--session {e}")))?;
    }
    // Nor read: the archive panel's file thread would wait on a FIFO for ever.
    if let Some(path) = &archive {
        textfile::regular_or_missing(path)
            .map_err(|e| CliError::Usage(format!("archive {}: {}", path.display(), e.reason())))?;
    }
    // `--play` given now wins over the game the session had on.
    let play = match args.play {
        Some(PlayChoice::Black) => Some(Some(Color::Black)),
        Some(PlayChoice::White) => Some(Some(Color::White)),
        Some(PlayChoice::Both) => Some(None),
        None => resumed.as_ref().and_then(|s| s.play),
    };
    let tree = resumed.map(|s| s.tree);
    let strength = match (args.level, args.move_time) {
        (_, Some(s)) => Strength::MoveTime(Duration::from_secs_f64(s)),
        (Some(n), None) => Strength::Level(n),
        (None, None) => Strength::default(),
    };
    let options = Options {
        tree,
        session,
        store,
        archive,
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
        threads: args.threads.map(|t| t as usize),
        max_depth: Some(args.max_depth),
        play,
        strength,
        selectivity: args.selectivity,
        evaluator: args.evaluator,
    };
    tui::run(options).map_err(|e: TuiError| CliError::Usage(e.to_string()))
}
