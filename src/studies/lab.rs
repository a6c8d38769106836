//! The search lab: the same position solved four ways, to see what each idea of the exact solver
//! buys, as in the comparison tables of the research on Othello endgame search.
//!
//! 1. [`Method::Negamax`]: plain negamax, every move searched to the end of the game.
//! 2. [`Method::AlphaBeta`]: negamax with alpha-beta cut-offs, moves tried in reading order.
//! 3. [`Method::FastestFirst`]: alpha-beta with the children sorted by the opponent's mobility,
//!    fewest replies first ("fastest-first").
//! 4. [`Method::Solver`]: the full [`crate::solver::Solver`] (transposition table, principal
//!    variation search, Edax's ordering, stability cut-offs, dedicated last-move solvers).
//!
//! The first three are [`crate::solver::plain`]'s searches, written plainly, generic over the board
//! side like the engine, on the engine's own [`crate::board::rules::legal_moves`] and
//! [`crate::board::rules::flips`]. Each counts its nodes
//! (positions visited, passes included) and looks at a stop flag every 4096 nodes. Plain negamax
//! and unordered alpha-beta grow so fast with the number of empty squares that [`run`] refuses
//! positions deeper than [`Method::max_empties`] with a clear message instead of running for hours.
//!
//! [`outcome`] is the lab's second half: win, loss or draw proven five ways (alpha-beta with and
//! without sorting, weak proof-number search, a branching-threshold search, the solver's
//! win/loss/draw search), after the comparison of Morita, Hashimoto and Kobayashi (GPW 2010).
//!
//! ```
//! use othello_explorer::studies::lab::{Method, run};
//! use othello_explorer::{Position, Scoring, Size};
//! use std::sync::atomic::AtomicBool;
//!
//! let start = Position::start(Size::Four);
//! let stop = AtomicBool::new(false);
//! let plain = run(Method::Negamax, &start, Scoring::Standard, &stop).unwrap();
//! let ordered = run(Method::FastestFirst, &start, Scoring::Standard, &stop).unwrap();
//! assert_eq!((plain.score, ordered.score), (-10, -10));
//! assert!(ordered.nodes < plain.nodes);
//! ```

pub mod outcome;

use crate::board::rules::final_score;
use crate::solver::plain::{self, Leaves};
use crate::solver::{Limits, Solver, SolverOptions};
use crate::{
    board::position::{Position, Scoring},
    with_size,
};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A way to solve a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Plain negamax.
    Negamax,
    /// Alpha-beta, moves in reading order.
    AlphaBeta,
    /// Alpha-beta, fewest opponent replies first.
    FastestFirst,
    /// The full exact solver.
    Solver,
}

impl Method {
    /// The four, simplest first.
    pub const ALL: [Method; 4] = [Method::Negamax, Method::AlphaBeta, Method::FastestFirst, Method::Solver];

    /// A short name for tables.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Negamax => "negamax",
            Method::AlphaBeta => "alpha-beta",
            Method::FastestFirst => "fastest-first",
            Method::Solver => "solver",
        }
    }

    /// What it does, in a few words.
    pub const fn description(self) -> &'static str {
        match self {
            Method::Negamax => "every move searched to the end",
            Method::AlphaBeta => "cut-offs, moves in reading order",
            Method::FastestFirst => "cut-offs, fewest replies first",
            Method::Solver => "table, PVS, ordering, stability",
        }
    }

    /// The most empty squares it accepts: plain negamax visits about every game to the end, and
    /// alpha-beta without ordering not many fewer, so deeper positions would take minutes to
    /// hours; fastest-first without a table grows the same way a few plies later, and past 30
    /// empties even the full solver takes hours (the 8x8 opening is out of its reach).
    pub const fn max_empties(self) -> Option<u32> {
        match self {
            Method::Negamax => Some(MAX_EMPTIES_NEGAMAX),
            Method::AlphaBeta => Some(MAX_EMPTIES_ALPHA_BETA),
            Method::FastestFirst => Some(MAX_EMPTIES_FASTEST_FIRST),
            Method::Solver => Some(MAX_EMPTIES_SOLVER),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The deepest position plain negamax is run on: 12 empties take a few seconds at worst (the
/// 4x4 start, about 10 million nodes, takes well under one).
pub const MAX_EMPTIES_NEGAMAX: u32 = 12;
/// The deepest position unordered alpha-beta is run on.
pub const MAX_EMPTIES_ALPHA_BETA: u32 = 16;
/// The deepest position fastest-first alpha-beta (no table) is run on.
pub const MAX_EMPTIES_FASTEST_FIRST: u32 = 20;
/// The deepest position the lab hands the full solver.
pub const MAX_EMPTIES_SOLVER: u32 = 30;

/// A finished solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The method.
    pub method: Method,
    /// The exact score from the side to move.
    pub score: i32,
    /// Nodes visited.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// Why a method gave no score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabError {
    /// The position has more empty squares than the method accepts.
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
}

impl fmt::Display for LabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabError::TooDeep { method, empties, limit } => write!(
                f,
                "{method} refuses positions with more than {limit} empty squares (this one has {empties}): it would \
                 run for minutes or hours"
            ),
            LabError::Cancelled { method, nodes } => {
                write!(
                    f,
                    "{method} cancelled after {}",
                    crate::notation::printable::count(*nodes as i64, "node", "nodes")
                )
            }
        }
    }
}

impl std::error::Error for LabError {}

/// What the lab's plain searches count and stop on (the searches are [`crate::solver::plain`]'s).
struct Plain<'a, const N: usize> {
    nodes: u64,
    stop: &'a AtomicBool,
    stopped: bool,
    discs: bool,
}

impl<const N: usize> Leaves for Plain<'_, N> {
    /// Counts a node; `true` when the search must end.
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) && self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    #[inline]
    fn halted(&self) -> bool {
        self.stopped
    }

    fn finished(&mut self, p: u64, o: u64) -> i32 {
        if self.discs { p.count_ones() as i32 - o.count_ones() as i32 } else { final_score::<N>(p, o) }
    }
}

/// The window wide enough for every score of an `N x N` board.
const fn bound(n: usize) -> i32 {
    (n * n) as i32 + 1
}

fn plain(method: Method, position: &Position, scoring: Scoring, stop: &AtomicBool) -> (i32, u64, bool) {
    let (p, o) = position.raw();
    let discs = scoring == Scoring::Discs;
    with_size!(position.size(), N => {
        let mut s = Plain::<N> { nodes: 0, stop, stopped: false, discs };
        let b = bound(N);
        let score = match method {
            Method::Negamax => plain::negamax::<N, _>(&mut s, p, o),
            Method::AlphaBeta => plain::alpha_beta::<N, false, _>(&mut s, p, o, -b, b),
            _ => plain::alpha_beta::<N, true, _>(&mut s, p, o, -b, b),
        };
        (score, s.nodes, s.stopped)
    })
}

/// Solves `position` with `method`: the exact score from the side to move (a forced pass
/// included), under `scoring`. Refuses positions deeper than [`Method::max_empties`]; returns
/// [`LabError::Cancelled`] soon after `stop` is raised. The solver runs on one thread with a
/// fresh table (1 to 64 MiB by depth), so its node count compares fairly, and its time is its
/// search's alone (the table made and the weights read before the clock starts).
pub fn run(method: Method, position: &Position, scoring: Scoring, stop: &AtomicBool) -> Result<Run, LabError> {
    let empties = position.empty_count();
    if let Some(limit) = method.max_empties()
        && empties > limit
    {
        return Err(LabError::TooDeep { method, empties, limit });
    }
    let start = Instant::now();
    let (score, nodes, stopped, elapsed) = match method {
        Method::Solver => solve(position, scoring, stop),
        _ => {
            let (score, nodes, stopped) = plain(method, position, scoring, stop);
            (score, nodes, stopped, start.elapsed())
        }
    };
    if stopped {
        return Err(LabError::Cancelled { method, nodes });
    }
    Ok(Run { method, score, nodes, elapsed })
}

/// The solver's score, nodes, whether it was stopped, and the time of its search alone: its
/// table is allocated and the evaluation's weights are read before the clock starts (the plain
/// methods need neither, and on a small position they cost more than the search).
fn solve(position: &Position, scoring: Scoring, stop: &AtomicBool) -> (i32, u64, bool, Duration) {
    if position.is_game_over() {
        return (position.score(scoring), 1, false, Duration::ZERO);
    }
    let (target, passed) = position.after_forced_pass();
    // A table in proportion to the work: allocating and clearing 64 MiB would cost more than
    // solving a small position.
    let mut solver = lab_solver(&target, scoring);
    // Read once in the process: the weights (the search's ordering evaluates positions) and the
    // selective passes' model.
    let _ = crate::eval::weights::shipped(position.size().n());
    let _ = crate::solver::probcut::Model::shipped(position.size());
    with_stop_copied(stop, |flag| {
        let limits = Limits { stop: Some(flag), ..Limits::default() };
        let start = Instant::now();
        let result = solver.score(&target, &limits);
        let elapsed = start.elapsed();
        match result {
            Ok((score, _, nodes)) => (if passed { -score } else { score }, nodes, false, elapsed),
            Err(e) => (0, e.nodes, true, elapsed),
        }
    })
}

/// The solver the labs run beside the plain searches: one thread, a table in proportion to the
/// work (allocating and clearing 64 MiB would cost more than solving a small position).
pub(crate) fn lab_solver(target: &Position, scoring: Scoring) -> Solver {
    let hash_mb = match target.empty_count() {
        0..=16 => 1,
        17..=24 => 16,
        _ => 64,
    };
    Solver::new(SolverOptions { hash_mb, scoring, threads: 1, ..SolverOptions::default() })
}

/// Runs `f` with a stop flag of the solver's own kind (`Arc`) that follows `stop`: the solver
/// watches its own flag, and a small thread copies the lab's into it until `f` returns.
pub(crate) fn with_stop_copied<T>(stop: &AtomicBool, f: impl FnOnce(Arc<AtomicBool>) -> T) -> T {
    let flag = Arc::new(AtomicBool::new(false));
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) {
                    flag.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        let out = f(flag.clone());
        done.store(true, Ordering::Relaxed);
        out
    })
}

/// Runs the four methods one after the other on `position`, reporting each result to `report` as
/// it comes; stops early (every later method reported cancelled) once `stop` is raised.
pub fn compare(
    position: &Position,
    scoring: Scoring,
    stop: &AtomicBool,
    report: &mut dyn FnMut(Result<Run, LabError>),
) {
    for method in Method::ALL {
        if stop.load(Ordering::Relaxed) {
            report(Err(LabError::Cancelled { method, nodes: 0 }));
            continue;
        }
        report(run(method, position, scoring, stop));
    }
}
