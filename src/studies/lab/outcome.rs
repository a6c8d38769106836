//! The outcome lab: win, loss or draw for the side to move, proven five ways, after Morita,
//! Hashimoto and Kobayashi ("A research of search methods based on simple depth-first search
//! towards solving the game of Othello", GPW 2010), who compared plain alpha-beta, alpha-beta
//! with the children sorted by their mobility, and weak proof-number search on hard positions of
//! 19 to 25 empty squares, and proposed an alpha-beta bounded by branching numbers.
//!
//! 1. [`Method::AlphaBeta`]: alpha-beta on outcomes, moves in generation order (reading order
//!    from `a1`, the most significant bit, as the article's program generated them).
//! 2. [`Method::SortedAlphaBeta`]: the same with the children sorted by their own number of legal
//!    moves (the opponent's replies), fewest first, ties in reading order.
//! 3. [`Method::Wpns`]: weak proof-number search, depth-first with thresholds as in df-pn, with a
//!    transposition table of fixed size ([`wpns`]); positions of [`LEAF_EMPTIES`] empty squares or
//!    fewer are decided by the unsorted alpha-beta.
//! 4. [`Method::BranchingThreshold`]: the article's section 4 made sound ([`branching`]): a
//!    three-valued null-window search (yes, no, unknown) that stops where the branching numbers
//!    of the path exceed the root's thresholds, deepened until it knows.
//! 5. [`Method::Solver`]: the engine's own win/loss/draw search ([`Solver::wld`]).
//!
//! Conventions: positions are `(player, opponent)` bitboards of an `N x N` board with `a1` the
//! most significant used bit, the side to move first; a pass is a node; the outcome is the sign
//! of the final disc difference from the side to move, which is the same whether the empty
//! squares go to the winner or not, so no [`crate::board::position::Scoring`] is needed. Proof-number searches
//! answer yes/no questions, so WPNS and the branching-threshold search ask "score > 0?" (a win)
//! and, when the answer is no, "score >= 0?" (a draw rather than a loss): a draw is simply a
//! "no" to the first and a "yes" to the second.
//!
//! Every method counts its nodes (positions visited, passes and the alpha-beta below WPNS
//! included; the solver reports its own count) and looks at the stop flag and the [`Budget`]
//! every 4096 nodes. Without a budget, [`run`] refuses positions deeper than
//! [`Method::max_empties`], as [`crate::studies::lab::run`] does, instead of running for hours; with one,
//! it runs anything until the budget is spent.
//!
//! ```
//! use othello_explorer::studies::lab::outcome::{Budget, Method, Outcome, run};
//! use othello_explorer::{Position, Size};
//! use std::sync::atomic::AtomicBool;
//!
//! let start = Position::start(Size::Four);
//! let stop = AtomicBool::new(false);
//! for method in Method::ALL {
//!     let r = run(method, &start, Budget::UNLIMITED, &stop).unwrap();
//!     assert_eq!(r.outcome, Outcome::Loss, "{method}");
//! }
//! ```

mod alpha_beta;
pub mod branching;
pub mod wpns;

pub use branching::Schedule;

use crate::board::rules::final_score;
use crate::solver::{Limits, StopReason};
use crate::{
    board::position::{Position, Scoring},
    with_size,
};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A way to prove the outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Alpha-beta on outcomes, moves in reading order.
    AlphaBeta,
    /// Alpha-beta on outcomes, fewest replies first.
    SortedAlphaBeta,
    /// Weak proof-number search.
    Wpns,
    /// Alpha-beta bounded by branching numbers, deepened.
    BranchingThreshold,
    /// The engine's win/loss/draw search.
    Solver,
}

impl Method {
    /// The five, in the article's order, then the engine's.
    pub const ALL: [Method; 5] =
        [Method::AlphaBeta, Method::SortedAlphaBeta, Method::Wpns, Method::BranchingThreshold, Method::Solver];

    /// Its name in tables and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Method::AlphaBeta => "alpha-beta",
            Method::SortedAlphaBeta => "sorted-alpha-beta",
            Method::Wpns => "wpns",
            Method::BranchingThreshold => "branching-threshold",
            Method::Solver => "solver",
        }
    }

    /// What it does, in a few words.
    pub const fn description(self) -> &'static str {
        match self {
            Method::AlphaBeta => "moves in reading order",
            Method::SortedAlphaBeta => "fewest replies first",
            Method::Wpns => "weak proof numbers, table",
            Method::BranchingThreshold => "branching budget, deepened",
            Method::Solver => "the engine's W/L/D search",
        }
    }

    /// The most empty squares it accepts without a [`Budget`]: beyond them it would run for
    /// minutes or hours (measured in `docs/lab.md`).
    pub const fn max_empties(self) -> u32 {
        match self {
            Method::AlphaBeta => MAX_EMPTIES_ALPHA_BETA,
            Method::SortedAlphaBeta => MAX_EMPTIES_SORTED,
            Method::Wpns => MAX_EMPTIES_WPNS,
            Method::BranchingThreshold => MAX_EMPTIES_BRANCHING,
            Method::Solver => MAX_EMPTIES_SOLVER,
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The deepest position unsorted alpha-beta is run on without a budget: FFO #24 (19 empties)
/// takes about 5 s, FFO #27 (20) about 45 s.
pub const MAX_EMPTIES_ALPHA_BETA: u32 = 18;
/// The deepest position sorted alpha-beta is run on without a budget: FFO #37 (22 empties) takes
/// about 4 s.
pub const MAX_EMPTIES_SORTED: u32 = 22;
/// The deepest position WPNS is run on without a budget: FFO #37 (22 empties) takes about 3 s.
pub const MAX_EMPTIES_WPNS: u32 = 22;
/// The deepest position the branching-threshold search is run on without a budget: FFO #23 (18
/// empties) takes under a second, FFO #24 (19) about 45 s.
pub const MAX_EMPTIES_BRANCHING: u32 = 18;
/// The deepest position the solver is handed without a budget.
pub const MAX_EMPTIES_SOLVER: u32 = 30;

/// Below WPNS and the branching-threshold search, positions with this many empty squares or
/// fewer are decided by unsorted alpha-beta, as in the article.
pub const LEAF_EMPTIES: u32 = 7;

/// Win, loss or draw, from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// The side to move loses with best play.
    Loss,
    /// Best play draws.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl Outcome {
    /// The outcome a score's sign gives.
    ///
    /// ```
    /// use othello_explorer::studies::lab::outcome::Outcome;
    /// assert_eq!(Outcome::of_score(-12), Outcome::Loss);
    /// assert_eq!((Outcome::of_score(0).name(), Outcome::of_score(4).sign()), ("draw", 1));
    /// ```
    pub const fn of_score(score: i32) -> Outcome {
        match score.signum() {
            1 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }

    /// -1, 0 or 1.
    pub const fn sign(self) -> i32 {
        match self {
            Outcome::Loss => -1,
            Outcome::Draw => 0,
            Outcome::Win => 1,
        }
    }

    /// `"win"`, `"loss"` or `"draw"`.
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Loss => "loss",
            Outcome::Draw => "draw",
            Outcome::Win => "win",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How long a method may run; nothing set means no limit (and the empties limits apply).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Stop after about this long.
    pub time: Option<Duration>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
}

impl Budget {
    /// No limit: [`run`] refuses positions deeper than [`Method::max_empties`] instead.
    pub const UNLIMITED: Budget = Budget { time: None, nodes: None };

    /// At most `time`.
    pub const fn time(time: Duration) -> Budget {
        Budget { time: Some(time), nodes: None }
    }

    /// Whether it sets no limit.
    pub(crate) const fn is_unlimited(&self) -> bool {
        self.time.is_none() && self.nodes.is_none()
    }
}

/// A finished proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The method.
    pub method: Method,
    /// The outcome from the side to move.
    pub outcome: Outcome,
    /// Nodes visited.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// WPNS only: the time spent selecting, that is fetching the children's weak numbers from the
    /// table, computing the node's numbers and the thresholds, and choosing the child (the
    /// article's Table 3), measured with a clock read around each selection.
    pub selecting: Option<Duration>,
    /// The branching-threshold search only: its iterations, over both questions.
    pub iterations: Option<u32>,
}

impl Run {
    /// The share of the time spent selecting (WPNS), from 0 to 1.
    pub fn selection_share(&self) -> Option<f64> {
        self.selecting.map(|s| s.as_secs_f64() / self.elapsed.as_secs_f64().max(1e-9))
    }
}

/// Why a method gave no outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutcomeError {
    /// No budget was given and the position has more empty squares than the method accepts.
    TooDeep {
        /// The method.
        method: Method,
        /// The position's empty squares.
        empties: u32,
        /// The most it accepts.
        limit: u32,
    },
    /// The stop flag was raised.
    Cancelled {
        /// The method.
        method: Method,
        /// Nodes visited before the stop.
        nodes: u64,
    },
    /// The budget ran out first.
    OverBudget {
        /// The method.
        method: Method,
        /// Nodes visited.
        nodes: u64,
        /// Time taken.
        elapsed: Duration,
    },
}

impl OutcomeError {
    /// The method that gave up.
    pub const fn method(&self) -> Method {
        match self {
            OutcomeError::TooDeep { method, .. }
            | OutcomeError::Cancelled { method, .. }
            | OutcomeError::OverBudget { method, .. } => *method,
        }
    }
}

impl fmt::Display for OutcomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutcomeError::TooDeep { method, empties, limit } => write!(
                f,
                "{method} refuses positions with more than {limit} empty squares (this one has {empties}): it would \
                 run for minutes or hours"
            ),
            OutcomeError::Cancelled { method, nodes } => {
                write!(
                    f,
                    "{method} cancelled after {}",
                    crate::notation::printable::count(*nodes as i64, "node", "nodes")
                )
            }
            OutcomeError::OverBudget { method, nodes, elapsed } => {
                write!(
                    f,
                    "{method} ran out of its budget after {} and {:.3} s",
                    crate::notation::printable::count(*nodes as i64, "node", "nodes"),
                    elapsed.as_secs_f64()
                )
            }
        }
    }
}

impl std::error::Error for OutcomeError {}

/// Why a search ended without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Halt {
    Cancelled,
    OverBudget,
}

/// The nodes a search visits, and the stop flag and the budget it watches every 4096 of them.
struct Counter<'a> {
    nodes: u64,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    max_nodes: u64,
    halt: Option<Halt>,
}

impl<'a> Counter<'a> {
    fn new(stop: &'a AtomicBool, budget: Budget, start: Instant) -> Counter<'a> {
        Counter {
            nodes: 0,
            stop,
            deadline: budget.time.map(|t| start + t),
            max_nodes: budget.nodes.unwrap_or(u64::MAX),
            halt: None,
        }
    }

    /// Counts a node; `true` when the search must end.
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) {
            self.check();
        }
        self.halt.is_some()
    }

    #[cold]
    fn check(&mut self) {
        if self.stop.load(Ordering::Relaxed) {
            self.halt = Some(Halt::Cancelled);
        } else if self.nodes >= self.max_nodes || self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.halt = Some(Halt::OverBudget);
        }
    }

    /// Whether the search must end.
    #[inline]
    fn halted(&self) -> bool {
        self.halt.is_some()
    }
}

/// A yes/no question about the score from the side to move, as proof-number searches ask them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Question {
    /// Score > 0?
    Win,
    /// Score >= 0?
    NotLoss,
}

impl Question {
    /// The question a child answers: the answer here is yes when some child's answer is no (a
    /// win here is a child the opponent does not draw or win; a draw or better here is a child
    /// the opponent does not win).
    const fn child(self) -> Question {
        match self {
            Question::Win => Question::NotLoss,
            Question::NotLoss => Question::Win,
        }
    }

    /// The answer for a known outcome sign.
    const fn holds(self, sign: i32) -> bool {
        match self {
            Question::Win => sign > 0,
            Question::NotLoss => sign >= 0,
        }
    }

    /// The null window that asks it of an alpha-beta on outcome signs.
    const fn window(self) -> (i32, i32) {
        match self {
            Question::Win => (0, 1),
            Question::NotLoss => (-1, 0),
        }
    }

    /// Its bit in table keys.
    const fn bit(self) -> u8 {
        match self {
            Question::Win => 0,
            Question::NotLoss => 1,
        }
    }
}

/// The outcome from the answers of `prove` (`None`: halted): "a win?", then if not "a draw or
/// better?".
fn by_questions(mut prove: impl FnMut(Question) -> Option<bool>) -> Option<Outcome> {
    if prove(Question::Win)? {
        return Some(Outcome::Win);
    }
    Some(if prove(Question::NotLoss)? { Outcome::Draw } else { Outcome::Loss })
}

/// The outcome sign of a finished game (the same under both scorings).
#[inline]
fn final_sign<const N: usize>(p: u64, o: u64) -> i32 {
    final_score::<N>(p, o).signum()
}

/// Empty squares of an `N x N` position.
#[inline]
const fn empties<const N: usize>(p: u64, o: u64) -> u32 {
    (N * N) as u32 - (p | o).count_ones()
}

/// What a plain search found, beside its nodes.
struct Found {
    outcome: Outcome,
    selecting: Option<Duration>,
    iterations: Option<u32>,
}

fn plain<const N: usize>(method: Method, p: u64, o: u64, schedule: Schedule, counter: &mut Counter) -> Option<Found> {
    let found = |outcome| Found { outcome, selecting: None, iterations: None };
    match method {
        Method::AlphaBeta | Method::SortedAlphaBeta => {
            let sign = if method == Method::AlphaBeta {
                alpha_beta::alpha_beta::<N, false>(counter, p, o, -1, 1)
            } else {
                alpha_beta::alpha_beta::<N, true>(counter, p, o, -1, 1)
            };
            (!counter.halted()).then(|| found(Outcome::of_score(sign)))
        }
        Method::Wpns => {
            let (outcome, selecting) = wpns::prove::<N>(counter, p, o)?;
            Some(Found { outcome, selecting: Some(selecting), iterations: None })
        }
        Method::BranchingThreshold => {
            let (outcome, iterations) = branching::prove::<N>(counter, p, o, schedule)?;
            Some(Found { outcome, selecting: None, iterations: Some(iterations) })
        }
        Method::Solver => unreachable!("the solver is not a plain search"),
    }
}

/// Proves the outcome of `position` for the side to move with `method`, within `budget`.
/// Without a budget, refuses positions deeper than [`Method::max_empties`]; returns
/// [`OutcomeError::Cancelled`] soon after `stop` is raised and [`OutcomeError::OverBudget`] once
/// the budget is spent. The solver runs on one thread with a fresh table (1 to 64 MiB by depth).
pub fn run(method: Method, position: &Position, budget: Budget, stop: &AtomicBool) -> Result<Run, OutcomeError> {
    run_with(method, position, Schedule::DEFAULT, budget, stop)
}

/// [`run`] with the branching-threshold search deepened by `schedule` instead of
/// [`Schedule::DEFAULT`] (the other methods ignore it): to try other thresholds.
pub fn run_with(
    method: Method,
    position: &Position,
    schedule: Schedule,
    budget: Budget,
    stop: &AtomicBool,
) -> Result<Run, OutcomeError> {
    let empties = position.empty_count();
    let limit = method.max_empties();
    if budget.is_unlimited() && empties > limit {
        return Err(OutcomeError::TooDeep { method, empties, limit });
    }
    let start = Instant::now();
    let (found, nodes, halt) = match method {
        Method::Solver => solver(position, budget, stop),
        _ => {
            let (p, o) = position.raw();
            let mut counter = Counter::new(stop, budget, start);
            let found = with_size!(position.size(), N => plain::<N>(method, p, o, schedule, &mut counter));
            (found, counter.nodes, counter.halt)
        }
    };
    let elapsed = start.elapsed();
    match (found, halt) {
        (Some(f), None) => {
            Ok(Run { method, outcome: f.outcome, nodes, elapsed, selecting: f.selecting, iterations: f.iterations })
        }
        (_, Some(Halt::OverBudget)) => Err(OutcomeError::OverBudget { method, nodes, elapsed }),
        _ => Err(OutcomeError::Cancelled { method, nodes }),
    }
}

/// The solver's proof: [`Solver::wld`] on one thread, after a forced pass.
fn solver(position: &Position, budget: Budget, stop: &AtomicBool) -> (Option<Found>, u64, Option<Halt>) {
    let found = |outcome| Some(Found { outcome, selecting: None, iterations: None });
    if position.is_game_over() {
        return (found(Outcome::of_score(position.score(Scoring::Standard))), 1, None);
    }
    let (target, passed) = position.after_forced_pass();
    let mut solver = super::lab_solver(&target, Scoring::Standard);
    super::with_stop_copied(stop, |flag| {
        let limits = Limits { stop: Some(flag), max_nodes: budget.nodes, max_time: budget.time, progress: None };
        let result = solver.wld(&target, &limits);
        match result {
            Ok((sign, nodes)) => (found(Outcome::of_score(if passed { -sign } else { sign })), nodes, None),
            Err(e) => {
                let halt = if e.reason == StopReason::Cancelled { Halt::Cancelled } else { Halt::OverBudget };
                (None, e.nodes, Some(halt))
            }
        }
    })
}

/// Runs the five methods one after the other on `position`, each within `budget`, reporting each
/// result to `report` as it comes; once `stop` is raised, every later method is reported
/// cancelled.
pub fn compare(
    position: &Position,
    budget: Budget,
    stop: &AtomicBool,
    report: &mut dyn FnMut(Result<Run, OutcomeError>),
) {
    for method in Method::ALL {
        if stop.load(Ordering::Relaxed) {
            report(Err(OutcomeError::Cancelled { method, nodes: 0 }));
            continue;
        }
        report(run(method, position, budget, stop));
    }
}
