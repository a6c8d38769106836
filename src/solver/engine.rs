//! The solver itself (floor 5 of the search core, `mod.rs`): [`SolverOptions`], the [`Solver`]
//! with its table, threads and instruction set, and the skeleton every entry point runs in
//! ([`Solver::searched`], [`Solver::run_search`] with an [`EntrySearch`]). The entry points are
//! in `entry.rs`, the root scheduler in `root.rs`, the analysis in `analysis.rs`: `impl` blocks
//! of this type, a floor above.

use super::control::Control;
use super::limits::{Limits, StopReason, Stopped};
use super::parallel;
use super::searcher::Searcher;
use super::selectivity::Selectivity;
use super::settings::{DEFAULT_HASH_MB, THREAD_STACK};
use super::table::{Table, TableError};
use crate::board::isa::{Cpu, Isa, Level};
use crate::board::position::Scoring;
use crate::board::size::Size;
use crate::eval::Evaluator;

/// How a [`Solver`] is built.
#[derive(Clone, Debug)]
pub struct SolverOptions {
    /// Memory for the transposition table, in MiB (default [`DEFAULT_HASH_MB`], 256; at least 1).
    pub hash_mb: usize,
    /// How a finished game is scored.
    pub scoring: Scoring,
    /// Threads to search with (default 1).
    pub threads: usize,
    /// Whether the estimate search solves its principal variations to the end once they reach
    /// [`pv_solved`](super::frontiers::pv_solved) empties (default `true`, `docs/solver.md`). Off, an estimate of
    /// depth `d` is the plain `d`-ply minimax of the evaluation (with a fresh table).
    pub pv_extension: bool,
    /// How selective the estimates are (default [`Selectivity::FULL`], the plain search;
    /// [`probcut`](super::probcut)).
    pub selectivity: Selectivity,
    /// Whether exact and win/loss/draw proofs of deep positions are reached by iterative
    /// selectivity (default `true`; [`probcut`](super::probcut)): selective passes first, the full-width proof
    /// last, so every proven value stays a proof either way. Off, the proof is searched full
    /// width from the start.
    pub selective_solve: bool,
    /// The evaluation the estimate search reads (default [`Evaluator::Patterns`]).
    pub evaluator: Evaluator,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            hash_mb: DEFAULT_HASH_MB,
            scoring: Scoring::Standard,
            threads: 1,
            pv_extension: true,
            selectivity: Selectivity::FULL,
            selective_solve: true,
            evaluator: Evaluator::Patterns,
        }
    }
}

/// An exact solver. Its transposition table lives as long as the solver, so a position reached
/// again (a child after its parent, a position revisited) is answered mostly from the table.
///
/// ```
/// use othello_explorer::solver::{Limits, Solver, SolverOptions};
/// use othello_explorer::{Position, Scoring, Size};
///
/// let mut solver = Solver::new(SolverOptions { hash_mb: 1, ..SolverOptions::default() });
/// let start = Position::start(Size::Four);
/// let solution = solver.solve(&start, &Limits::default()).unwrap();
/// assert_eq!(solution.score, -10);
/// let mut discs = Solver::new(SolverOptions { hash_mb: 1, scoring: Scoring::Discs, ..SolverOptions::default() });
/// assert_eq!(discs.solve(&start, &Limits::default()).unwrap().score, -8);
/// ```
pub struct Solver {
    pub(super) options: SolverOptions,
    pub(super) table: Table,
    pub(super) nodes: u64,
    pub(super) cpu: Cpu,
    /// The search threads, with more than one (`parallel.rs`).
    pub(super) pool: Option<rayon::ThreadPool>,
}

impl Solver {
    /// A solver with a table of `options.hash_mb` MiB.
    ///
    /// # Panics
    ///
    /// When the table's memory cannot be allocated; programs that take the size from a user call
    /// [`Solver::try_new`].
    pub fn new(options: SolverOptions) -> Solver {
        Solver::try_new(options).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A solver with a table of `options.hash_mb` MiB, or an error when that memory cannot be had.
    pub fn try_new(options: SolverOptions) -> Result<Solver, TableError> {
        let table = Table::try_new(options.hash_mb)?;
        let threads = options.threads.max(1);
        // Without its threads the solver still searches, on the calling thread alone.
        let pool = (threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .stack_size(THREAD_STACK)
                    .thread_name(|i| format!("search-{i}"))
                    .build()
                    .ok()
            })
            .flatten();
        Ok(Solver { options, table, nodes: 0, cpu: Cpu::detect(), pool })
    }

    /// The same solver searching with the best instruction-set level the CPU has up to `level`
    /// (the default is the best it has, see [`crate::board::isa`]): for tests and measurements.
    pub fn with_level(mut self, level: Level) -> Solver {
        self.cpu = Cpu::at_most(level);
        self
    }

    /// The instruction-set level it searches with.
    pub fn level(&self) -> Level {
        self.cpu.level()
    }

    /// The options it was built with (and the selectivity set since).
    pub fn options(&self) -> &SolverOptions {
        &self.options
    }

    /// Sets how selective the estimates are from now on (the table stays: its bounds say how
    /// selective the search that found them was, `table.rs`).
    pub fn set_selectivity(&mut self, selectivity: Selectivity) {
        self.options.selectivity = selectivity;
    }

    /// Nodes searched since the solver was built.
    pub fn total_nodes(&self) -> u64 {
        self.nodes
    }

    /// The memory the transposition table holds, in bytes.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Forgets everything the table holds.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    pub(super) fn threads(&self) -> usize {
        self.options.threads.max(1)
    }

    /// The skeleton of every entry point: a new table generation (when `fresh`: a new search,
    /// not a follow-up of the last one), a [`Control`] for `limits`, `search` run with it, and
    /// its nodes added to the solver's total. Returns what `search` returned, the nodes, and why
    /// the search stopped, if it did.
    pub(super) fn searched<T>(
        &mut self,
        limits: &Limits,
        fresh: bool,
        search: impl FnOnce(&Solver, &Control) -> T,
    ) -> (T, u64, Option<StopReason>) {
        if fresh {
            self.table.new_generation();
        }
        let control = Control::new(limits).with_splits(self.pool.is_some());
        let value = search(self, &control);
        let nodes = control.total_nodes();
        self.nodes += nodes;
        (value, nodes, control.reason())
    }

    /// The steps every entry point's own search shares: [`Solver::searched`] (a new table
    /// generation unless the search is a follow-up), on the pool where the search asks for it, a
    /// [`Searcher`] for a board of `size` with the solver's scoring and instruction set, and its
    /// nodes flushed at the end. Returns what the search found with the nodes searched, or
    /// [`Stopped`] (nothing proven) when it was stopped.
    pub(super) fn run_search<S: EntrySearch>(
        &mut self,
        size: Size,
        limits: &Limits,
        search: S,
    ) -> Result<(S::Output, u64), Stopped> {
        let (value, nodes, stopped) = self.searched(limits, S::FRESH, |solver, control| {
            let body = || {
                specialised!(size, solver.options.scoring, solver.cpu, N, D, isa => {
                    let mut searcher = Searcher::<N, D, _>::new(isa, &solver.table, control);
                    searcher.iterate = solver.options.selective_solve;
                    searcher.use_evaluator(solver.options.evaluator);
                    let value = search.search(&mut searcher);
                    searcher.flush_nodes();
                    value
                })
            };
            parallel::in_pool(solver.pool.as_ref(), body)
        });
        match stopped {
            Some(reason) => Err(Stopped { reason, proven: vec![], nodes }),
            None => Ok((value, nodes)),
        }
    }
}

/// The search of one entry point, run by [`Solver::run_search`]: the part that differs from one
/// entry point to another, compiled for every board size, scoring rule and instruction set.
pub(super) trait EntrySearch: Send {
    /// Whether it begins a new search (a new table generation), not a follow-up of the last.
    const FRESH: bool = true;
    /// What it finds.
    type Output: Send;
    /// Searches with `s`.
    fn search<const N: usize, const D: bool, I: Isa>(self, s: &mut Searcher<'_, N, D, I>) -> Self::Output;
}
