//! The exact solver: negamax with alpha-beta over the whole remaining game, a bounded
//! transposition table kept between calls, and scores for every child move.
//!
//! Scores are disc differences from the side to move at the position searched, under the
//! [`Scoring`] the solver was built with. A search can be stopped at any moment through a shared
//! flag or by node and time limits; a stopped search returns what it had proven, never a guess.

use crate::{Scoring, Square};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

mod search;

/// How a [`Solver`] is built.
#[derive(Clone, Debug)]
pub struct SolverOptions {
    /// Memory for the transposition table, in MiB (default 256).
    pub hash_mb: usize,
    /// How a finished game is scored.
    pub scoring: Scoring,
    /// Threads to search with (default 1).
    pub threads: usize,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions { hash_mb: 256, scoring: Scoring::Standard, threads: 1 }
    }
}

/// When a search must give up. The default is no limit.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Set to `true` from any thread to stop the search; it is checked every few thousand nodes.
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop after about this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop after about this long.
    pub max_time: Option<Duration>,
}

/// The exact score of one legal move, from the side to move at the parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildScore {
    /// The move.
    pub square: Square,
    /// Its exact score from the parent's side to move.
    pub score: i32,
}

/// The result of [`Solver::solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The exact score from the side to move.
    pub score: i32,
    /// Every move that reaches the score (empty when the side to move must pass or the game is
    /// over).
    pub best: Vec<Square>,
    /// A principal variation to the end of the game; passes are not written.
    pub pv: Vec<Square>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Why a search stopped before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The stop flag was set.
    Cancelled,
    /// The node limit was reached.
    NodeLimit,
    /// The time limit was reached.
    TimeLimit,
}

/// A search that stopped early, with what it had proven.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// Why it stopped.
    pub reason: StopReason,
    /// The children whose exact scores were proven before the stop.
    pub proven: Vec<ChildScore>,
    /// Nodes searched.
    pub nodes: u64,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let why = match self.reason {
            StopReason::Cancelled => "cancelled",
            StopReason::NodeLimit => "node limit reached",
            StopReason::TimeLimit => "time limit reached",
        };
        write!(f, "search stopped ({why}) after {} nodes", self.nodes)
    }
}

impl std::error::Error for Stopped {}

pub use search::Solver;
