//! `reach`: a transcript from the start to a board, or the proof that none exists.

use super::args::PositionArgs;
use super::{CliError, outln};
use othello_explorer::reach::{self, Limits, Outcome};
use othello_explorer::transcript;
use serde_json::json;
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
    let _caught = super::solve::catch_signals(&stop);
    let limits = Limits { max_nodes: args.max_nodes, ..Limits::default() };
    let clock = Instant::now();
    let outcome = reach::reach(&target, &limits, &stop);
    let seconds = clock.elapsed().as_secs_f64();
    let discs = (target.black().count() + target.white().count()) as usize;
    let (reachable, moves, nodes, reason, code) = match &outcome {
        Outcome::Found { moves, nodes } => (Some(true), Some(transcript::format(moves)), *nodes, None, 0),
        Outcome::Unreachable { reason, nodes } => (Some(false), None, *nodes, Some(reason.to_string()), 1),
        Outcome::GaveUp { nodes } => {
            (None, None, *nodes, Some(format!("gave up after {nodes} positions (raise --max-nodes)")), 3)
        }
        Outcome::Cancelled { nodes } => (None, None, *nodes, Some(format!("interrupted after {nodes} positions")), 3),
    };
    if json {
        outln!(
            "{}",
            json!({
                "board": target.to_string(),
                "reachable": reachable,
                "moves": moves,
                "nodes": nodes,
                "seconds": seconds,
                "reason": reason,
            })
        );
    } else {
        let over = if target.is_game_over() {
            "game over".to_string()
        } else {
            format!("{} to move", target.to_move().name())
        };
        outln!(
            "reach: {} board, {discs} discs ({} moves from the start), {over}",
            target.size(),
            discs.saturating_sub(4)
        );
        match (&outcome, moves) {
            (Outcome::Found { .. }, Some(m)) => {
                let m = if m.is_empty() { "(the start itself: no move)".to_string() } else { m };
                outln!("reachable: {m}");
            }
            _ => outln!(
                "{}: {}",
                if reachable == Some(false) { "unreachable" } else { "undecided" },
                reason.unwrap_or_default()
            ),
        }
        outln!("{nodes} positions searched in {seconds:.3} s");
    }
    Ok(ExitCode::from(code))
}
