//! When a search must give up, and what a stopped search leaves (floor 0 of the search core,
//! `mod.rs`): the [`Limits`] a caller sets, the [`StopReason`], the [`Stopped`] error with the
//! children proven before the stop, and the [`ChildScore`] they are given as.

use crate::board::square::Square;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Duration;

/// When a search must give up. The default is no limit.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Set to `true` from any thread to stop the search; it is checked every few thousand nodes.
    pub stop: Option<Arc<AtomicBool>>,
    /// Stop after about this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop after about this long.
    pub max_time: Option<Duration>,
    /// If set, kept equal to the nodes this call has searched so far (updated every few thousand
    /// nodes), so another thread can show progress while the search runs.
    pub progress: Option<Arc<AtomicU64>>,
}

/// The exact score of one legal move, from the side to move at the parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChildScore {
    /// The move.
    pub square: Square,
    /// Its exact score from the parent's side to move.
    pub score: i32,
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

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::Cancelled => "cancelled",
            StopReason::NodeLimit => "node limit reached",
            StopReason::TimeLimit => "time limit reached",
        })
    }
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "search stopped ({}) after {} nodes", self.reason, self.nodes)
    }
}

impl std::error::Error for Stopped {}
