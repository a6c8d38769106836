//! What a proof is predicted to cost, and what the auto policy does with it (floor 0 of the
//! search core, `mod.rs`): [`predicted_exact_nodes`] and [`predicted_exact_seconds`], the
//! empties the analysis proves without a limit ([`exact_empties`]), the [`Plan`] after the quick
//! estimates ([`plan`]) and whether the first pass of the estimates to the end fits
//! ([`end_pass_fits`]).

use super::settings::{
    BUDGET_SHARE, END_PASS_SHARE, NODES_PER_SECOND, UNLIMITED_PROOF_NODES, WLD_MIN_EMPTIES, WLD_SPEEDUP,
};
use crate::board::size::Size;
use std::time::Duration;

/// Empties at or below which [`SearchMode::Auto`](super::SearchMode::Auto) proves the children with no time or node limit
/// (the most whose predicted cost is within [`UNLIMITED_PROOF_NODES`]): 22 on 8x8, 26 on 6x6,
/// every 4x4 position.
pub fn exact_empties(size: Size) -> u32 {
    (0..=size.squares() as u32).rev().find(|&n| predicted_exact_nodes(size, n) <= UNLIMITED_PROOF_NODES).unwrap_or(0)
}

/// Seconds to solve every child of a position of `size` with `empties` empty squares exactly on
/// `threads` threads, as the auto policy weighs a time limit: [`predicted_exact_nodes`] at the
/// rate it assumes per thread (a median: hard positions take several times longer).
///
/// ```
/// use othello_explorer::Size;
/// use othello_explorer::solver::predicted_exact_seconds;
/// assert!(predicted_exact_seconds(Size::Eight, 20, 1) < 2.0);
/// assert!(predicted_exact_seconds(Size::Eight, 60, 2) > 1e9); // the 8x8 start: out of reach
/// ```
pub fn predicted_exact_seconds(size: Size, empties: u32, threads: usize) -> f64 {
    predicted_exact_nodes(size, empties) / (NODES_PER_SECOND * threads.max(1) as f64)
}

/// How [`SearchMode::Auto`](super::SearchMode::Auto) continues after the quick estimates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Prove wins, losses and draws first.
    pub wld: bool,
    /// Prove exact scores.
    pub exact: bool,
}

/// Predicted nodes to solve every child of a position with `empties` empty squares exactly, one
/// thread (a median: hard positions take several times more). Fitted on the estimate set, FFO
/// #40-#44 and random positions for 8x8, on random positions for 6x6, on the start for 4x4, with
/// the moves ordered by the version 4 weights; above 24 empties on 8x8 and 28 on 6x6, where the
/// selective passes before each proof cut the most, the growth per empty is lower (refitted on
/// FFO #50 and #53 and on 6x6 positions one to four plies in: `docs/solver.md`, "The auto
/// policy").
pub fn predicted_exact_nodes(size: Size, empties: u32) -> f64 {
    // (nodes at `at` empties, `at`, the growth per empty up to `knee` empties, the growth above)
    let (nodes, at, growth, knee, above) = match size {
        Size::Four => (2.0e3, 12.0, 2.0, f64::INFINITY, 2.0),
        Size::Six => (2.7e7, 22.0, 1.7, 28.0, 1.0),
        Size::Eight => (3.0e7, 20.0, 2.55, 24.0, 1.63),
    };
    let n = empties as f64;
    nodes * f64::powf(growth, n.min(knee) - at) * f64::powf(above, (n - knee).max(0.0))
}

/// What [`SearchMode::Auto`](super::SearchMode::Auto) does after the quick estimates on a position of `size` with `empties`
/// empty squares, given what is left of the limits: with no time or node limit, proofs at and
/// below [`exact_empties`]; with limits, a proof whose predicted cost fits a quarter of what is
/// left; the win/loss/draw proof first from [`WLD_MIN_EMPTIES`] empties.
///
/// ```
/// use othello_explorer::Size;
/// use othello_explorer::solver::{Plan, plan};
/// use std::time::Duration;
///
/// // 20 empties on 8x8, no limit: the outcomes, then the exact scores.
/// assert_eq!(plan(Size::Eight, 20, None, None, 1), Plan { wld: true, exact: true });
/// // The 8x8 start: estimates only.
/// assert_eq!(plan(Size::Eight, 60, None, None, 2), Plan { wld: false, exact: false });
/// // Every 4x4 position, even within a tenth of a second.
/// assert_eq!(plan(Size::Four, 12, Some(Duration::from_millis(100)), None, 1), Plan { wld: false, exact: true });
/// ```
pub fn plan(size: Size, empties: u32, time_left: Option<Duration>, nodes_left: Option<u64>, threads: usize) -> Plan {
    let exact = predicted_exact_nodes(size, empties);
    let wld = exact / WLD_SPEEDUP;
    let fits = |nodes: f64| {
        let by_time = time_left.map(|t| nodes <= BUDGET_SHARE * t.as_secs_f64() * NODES_PER_SECOND * threads as f64);
        let by_nodes = nodes_left.map(|m| nodes <= BUDGET_SHARE * m as f64);
        match (by_time, by_nodes) {
            (None, None) => nodes <= UNLIMITED_PROOF_NODES,
            (a, b) => a.unwrap_or(true) && b.unwrap_or(true),
        }
    };
    let exact = fits(exact);
    let wld_fits = fits(wld);
    Plan { wld: wld_fits && empties >= WLD_MIN_EMPTIES, exact }
}

/// Whether the first pass of the estimates to the end (every child of a position with `empties`
/// empties searched to the end at 73%, [`Solver::analyse`](super::Solver::analyse)) is predicted to fit what is left of
/// a time or node limit: [`END_PASS_SHARE`] of [`predicted_exact_nodes`], at
/// [`NODES_PER_SECOND`] a thread. Without a limit it always fits (the explorer: a stop ends it).
///
/// ```
/// use othello_explorer::Size;
/// use othello_explorer::solver::end_pass_fits;
/// use std::time::Duration;
/// // The explorer, unlimited: always.
/// assert!(end_pass_fits(Size::Eight, 26, None, None, 2));
/// // One second a position: not at 24 empties (a pass there takes seconds).
/// assert!(!end_pass_fits(Size::Eight, 24, Some(Duration::from_secs(1)), None, 1));
/// // A minute on two threads: at 24 empties, yes.
/// assert!(end_pass_fits(Size::Eight, 24, Some(Duration::from_secs(60)), None, 2));
/// ```
pub fn end_pass_fits(
    size: Size,
    empties: u32,
    time_left: Option<Duration>,
    nodes_left: Option<u64>,
    threads: usize,
) -> bool {
    let nodes = END_PASS_SHARE * predicted_exact_nodes(size, empties);
    let by_time = time_left.is_none_or(|t| nodes <= t.as_secs_f64() * NODES_PER_SECOND * threads as f64);
    let by_nodes = nodes_left.is_none_or(|m| nodes <= m as f64);
    by_time && by_nodes
}
