//! What the analysis is asked and what it answers (floor 0 of the search core, `mod.rs`): the
//! [`SearchMode`] it runs in, the [`Phase`]s and [`Report`]s it sends while it runs, and the
//! [`Analysis`] it returns (`analysis.rs`).

use super::limits::StopReason;
use super::values::ChildValue;
use crate::board::square::Square;

/// What [`Solver::analyse`](super::Solver::analyse) computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchMode {
    /// Estimates first, then proofs when they fit the limits, else deeper estimates.
    Auto,
    /// The exact score of every child (a position beyond [`exact_empties`](super::prediction::exact_empties) gets the quick
    /// estimates first, so that a stop leaves every child a value).
    Exact,
    /// Whether each child wins, loses or draws (the quick estimates first, as for `Exact`).
    Wld,
    /// Estimates only, deepening until the depth limit, another limit or a stop.
    Estimate,
    /// The move to play: [`SearchMode::Auto`], except that beyond the quick estimates each depth
    /// values only what choosing needs, as a game engine searches its root: the best child so
    /// far first, then each other child tested against it by a null window, and only a child
    /// that beats it searched for its value (a principal-variation search over the children).
    /// A child refuted at a depth keeps no value, so the analysis lists the best child and those
    /// searched for their values; with a child already proven (the store, the proofs), every
    /// child is valued as in `Auto`.
    Play,
}

/// A phase of the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Deepening estimates.
    Estimate,
    /// Proving wins, losses and draws.
    Wld,
    /// Proving exact scores.
    Exact,
}

/// What [`Solver::analyse`](super::Solver::analyse) reports while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// A phase begins.
    Phase(Phase),
    /// A child has a new value (better than or as good as its last one).
    Child(ChildValue),
    /// Every child still estimated has been searched to this depth (each reported just before;
    /// in [`SearchMode::Play`] those valued at it: a child refuted at a depth is not reported
    /// and has no value in the result).
    DepthDone {
        /// The depth completed.
        depth: u32,
    },
    /// The line the deepest completed estimate expects, sent just before its
    /// [`Report::DepthDone`]: the best child's move, then the best moves the table holds after
    /// it (passes not written), at most `depth` moves. An estimate, never a proof.
    Line {
        /// The depth of the estimate the line comes from.
        depth: u32,
        /// The moves, the best child first.
        moves: Vec<Square>,
    },
}

/// The result of [`Solver::analyse`](super::Solver::analyse): the best value known for each child, even after a stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Every child searched that has a value, best first: by score for exact values and
    /// estimates; a proven outcome ranks by the child's last estimate held within what the proof
    /// allows (at least +1 for a win, 0 for a draw, at most -1 for a loss); equal ones by the
    /// deepest earlier estimate that tells them apart ([`rank_key`](super::values::rank_key)), then in reading order.
    pub children: Vec<ChildValue>,
    /// The deepest completed estimate depth, if any.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: u64,
    /// Why the analysis stopped early, if it did.
    pub stopped: Option<StopReason>,
}
