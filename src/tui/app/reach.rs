//! `:reach`: a game from the start to the board on screen, found off the UI thread
//! ([`crate::studies::reach`]); while it runs the status line shows the depth, the positions searched and
//! the bound that stops it; when a game exists, it is loaded as a new tree (the old one kept for
//! `:restore`) so its moves can be stepped through.

use super::super::tree::Tree;
use super::{Effect, Model};
use crate::board::position::Position;
use crate::studies::reach::{Outcome, Progress};

/// What the status line says while a search runs.
const LOOKING: &str = "reach: looking for a game from the start to this board";
use crate::notation::transcript;

impl Model {
    /// Starts looking for a game to the position on screen (a search already running stops).
    pub(super) fn start_reach(&mut self) -> Vec<Effect> {
        let position = self.position();
        let job = self.next_reach_job;
        self.next_reach_job += 1;
        self.reaching = Some((job, position));
        self.say(format!("{LOOKING}… (:reach stop cancels)"));
        vec![Effect::Reach { job, position }]
    }

    /// The running search reports how far it has got: the status line says so, with the bound
    /// that stops it, unless something else has been said since.
    pub(super) fn reach_progress(&mut self, job: u64, p: Progress) -> Vec<Effect> {
        let ours = self.status.as_ref().is_some_and(|s| !s.error && s.text.starts_with(LOOKING));
        if self.reaching.is_some_and(|(running, _)| running == job) && ours {
            self.say(format!(
                "{LOOKING}: depth {}/{}, {} searched of at most {}… (:reach stop cancels)",
                p.depth,
                p.moves,
                crate::notation::printable::count(p.nodes as i64, "position", "positions"),
                p.max_nodes
            ));
        }
        Vec::new()
    }

    /// Stops the running search, if any.
    pub(super) fn stop_reach(&mut self) -> Vec<Effect> {
        if self.reaching.take().is_none() {
            self.complain("reach: nothing is running");
            return Vec::new();
        }
        self.say("reach: stopped");
        vec![Effect::CancelReach]
    }

    /// A search finished: load the game found, or say why there is none.
    pub(super) fn reached(&mut self, job: u64, outcome: Outcome) -> Vec<Effect> {
        let Some((running, target)) = self.reaching else { return Vec::new() };
        if running != job {
            return Vec::new();
        }
        self.reaching = None;
        match outcome {
            Outcome::Found { moves, nodes } => {
                let text = transcript::format(&moves);
                let mut tree = Tree::new(Position::start(target.size()));
                if let Err(e) = tree.play_transcript(&text) {
                    // The search plays by the same rules: this cannot happen, but say so if it does.
                    self.complain(format!("reach: the game found does not replay: {e}"));
                    return Vec::new();
                }
                let shown = if text.is_empty() { "no move: it is the start".to_string() } else { text };
                self.replace_tree(
                    tree,
                    format!(
                        "reach: {} {}-move game arrives here ({} searched): {shown}",
                        crate::notation::printable::article(moves.len() as u64),
                        moves.len(),
                        crate::notation::printable::count(nodes as i64, "position", "positions")
                    ),
                )
            }
            Outcome::Unreachable { reason, .. } => {
                self.complain(format!("reach: no game arrives at this board: {reason}"));
                Vec::new()
            }
            Outcome::GaveUp { nodes } => {
                self.complain(format!(
                    "reach: undecided after {}",
                    crate::notation::printable::count(nodes as i64, "position", "positions")
                ));
                Vec::new()
            }
            Outcome::Cancelled { .. } => Vec::new(),
        }
    }
}
