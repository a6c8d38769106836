//! `reach`: a transcript from the start to a board, or the proof that none exists. On a terminal a
//! spinner on standard error shows the depth, the positions searched and `--max-nodes`.

use super::args::PositionArgs;
use super::common::{CliError, counted, thousands};
use super::progress;
use super::report::Report;
use othello_explorer::notation::printable::count;
use othello_explorer::notation::transcript;
use othello_explorer::studies::reach::{self, Limits, Outcome};
use serde::Serialize;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(clap::Args, Debug, Clone)]
pub struct ReachArgs {
    /// Give up after this many positions (the answer is then undecided: exit 3).
    #[arg(long, value_name = "N", default_value_t = 1_000_000_000, allow_negative_numbers = true, value_parser = super::values::nodes)]
    pub max_nodes: u64,
}

/// Exit 0 with the transcript, 1 with the proof that there is none, 3 when the search gave up or
/// was interrupted.
pub fn run(position: &PositionArgs, args: &ReachArgs, json: bool) -> Result<ExitCode, CliError> {
    let target = position.resolve()?.position;
    let stop = Arc::new(AtomicBool::new(false));
    let _caught = super::signals::catch_signals(&stop);
    let limits = Limits { max_nodes: args.max_nodes, ..Limits::default() };
    let clock = Instant::now();
    // On a terminal, how far the search has got and the bound that stops it.
    let spinner = progress::spinner();
    let mut show = |p: &reach::Progress| {
        if let Some(s) = &spinner {
            s.set_message(format!(
                "reach: depth {}/{} · {} searched of at most {} (--max-nodes)",
                p.depth,
                p.moves,
                counted(p.nodes, "position", "positions"),
                thousands(p.max_nodes)
            ));
        }
    };
    let outcome = reach::reach_with_progress(&target, &limits, &stop, &mut show);
    if let Some(s) = &spinner {
        s.finish_and_clear();
    }
    let seconds = clock.elapsed().as_secs_f64();
    let discs = (target.black().count() + target.white().count()) as usize;
    let (reachable, moves, nodes, reason, code) = match &outcome {
        Outcome::Found { moves, nodes } => (Some(true), Some(transcript::format(moves)), *nodes, None, 0),
        Outcome::Unreachable { reason, nodes } => (Some(false), None, *nodes, Some(reason.to_string()), 1),
        Outcome::GaveUp { nodes } => (
            None,
            None,
            *nodes,
            Some(format!("gave up after {} (raise --max-nodes)", counted(*nodes, "position", "positions"))),
            3,
        ),
        Outcome::Cancelled { nodes } => {
            (None, None, *nodes, Some(format!("interrupted after {}", counted(*nodes, "position", "positions"))), 3)
        }
    };
    let report = ReachReport {
        board: target.to_string(),
        reachable,
        moves,
        nodes,
        seconds,
        reason,
        size: target.size(),
        discs,
        over: if target.is_game_over() {
            "game over".to_string()
        } else {
            format!("{} to move", target.to_move().name())
        },
    };
    report.print(json);
    Ok(ExitCode::from(code))
}

/// What `reach` found: printed as text, or with `--json` as one JSON object.
#[derive(Serialize)]
struct ReachReport {
    board: String,
    /// `true` with a game, `false` with a proof there is none, `null` when undecided.
    reachable: Option<bool>,
    moves: Option<String>,
    nodes: u64,
    seconds: f64,
    reason: Option<String>,
    #[serde(skip)]
    size: othello_explorer::Size,
    #[serde(skip)]
    discs: usize,
    #[serde(skip)]
    over: String,
}

impl std::fmt::Display for ReachReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let discs = self.discs;
        writeln!(
            f,
            "reach: {} board, {} ({} from the start), {}",
            self.size,
            count(discs as i64, "disc", "discs"),
            count(discs.saturating_sub(4) as i64, "move", "moves"),
            self.over
        )?;
        match (self.reachable, &self.moves) {
            (Some(true), Some(m)) => {
                let m = if m.is_empty() { "(the start itself: no move)" } else { m };
                writeln!(f, "reachable: {m}")?;
            }
            _ => writeln!(
                f,
                "{}: {}",
                if self.reachable == Some(false) { "unreachable" } else { "undecided" },
                self.reason.as_deref().unwrap_or_default()
            )?,
        }
        writeln!(f, "{} searched in {:.3} s", count(self.nodes as i64, "position", "positions"), self.seconds)
    }
}
