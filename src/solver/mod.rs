//! The exact solver: negamax with alpha-beta over the whole remaining game, a bounded
//! transposition table kept between calls, and scores for every child move.
//!
//! Scores are disc differences from the side to move at the position searched, under the
//! [`Scoring`] the solver was built with. A search can be stopped at any moment through a shared
//! flag or by node and time limits; a stopped search returns what it had proven, never a guess.

use crate::board::isa::{Cpu, Isa, Level};
pub use crate::eval::Evaluator;
use crate::{
    board::position::{Position, Scoring},
    board::size::Size,
    board::square::Square,
};
use control::Control;
use searcher::Searcher;
use settings::THREAD_STACK;
use table::Table;
pub use table::TableError;

mod control;
mod endgame;
mod exact;
mod frontiers;
mod last_flips;
mod limits;
mod local_table;
mod masks;
mod midgame;
mod node;
mod ordering;
mod parallel;
pub mod probcut;
mod regime;
mod search;
mod searcher;
mod selective_solve;
mod selectivity;
mod settings;
mod stability;
pub mod table;

pub use frontiers::pv_solved;
pub use limits::{ChildScore, Limits, StopReason, Stopped};
pub use selectivity::{Selectivity, SelectivityError};
pub use settings::{
    DEFAULT_HASH_MB, DEFAULT_SELECTIVITY, EXACT_MARGIN, PV_EXTENSION, PV_EXTENSION_MAX, QUICK_DEPTH,
    UNLIMITED_PROOF_NODES, WLD_MIN_EMPTIES, WLD_SPEEDUP, hash_mb_for,
};
pub use stability::stable_discs;

pub use analysis::{
    Analysis, ChildValue, Kind, Phase, Plan, Report, SearchMode, ValueText, end_pass_fits, exact_empties,
    outcome_letter, outcome_word, plan, predicted_exact_nodes, predicted_exact_seconds, rank, rank_key,
};

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
    /// [`pv_solved`] empties (default `true`, `docs/solver.md`). Off, an estimate of
    /// depth `d` is the plain `d`-ply minimax of the evaluation (with a fresh table).
    pub pv_extension: bool,
    /// How selective the estimates are (default [`Selectivity::FULL`], the plain search;
    /// [`probcut`]).
    pub selectivity: Selectivity,
    /// Whether exact and win/loss/draw proofs of deep positions are reached by iterative
    /// selectivity (default `true`; [`probcut`]): selective passes first, the full-width proof
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

/// Runs `$body` with `N` (board side) and `D` (discs scoring) as consts matching `$size` and
/// `$scoring`, and `$isa` the token of the [`Cpu`](crate::board::isa::Cpu) `$cpu`: the one place where
/// run-time settings become specialised code (six rule variants times the instruction-set levels).
macro_rules! specialised {
    ($size:expr, $scoring:expr, $cpu:expr, $n:ident, $d:ident, $isa:ident => $body:expr) => {
        match ($size, $scoring) {
            (crate::board::size::Size::Four, Scoring::Standard) => {
                const $n: usize = 4;
                const $d: bool = false;
                crate::with_cpu!($cpu, $isa => $body)
            }
            (crate::board::size::Size::Four, Scoring::Discs) => {
                const $n: usize = 4;
                const $d: bool = true;
                crate::with_cpu!($cpu, $isa => $body)
            }
            (crate::board::size::Size::Six, Scoring::Standard) => {
                const $n: usize = 6;
                const $d: bool = false;
                crate::with_cpu!($cpu, $isa => $body)
            }
            (crate::board::size::Size::Six, Scoring::Discs) => {
                const $n: usize = 6;
                const $d: bool = true;
                crate::with_cpu!($cpu, $isa => $body)
            }
            (crate::board::size::Size::Eight, Scoring::Standard) => {
                const $n: usize = 8;
                const $d: bool = false;
                crate::with_cpu!($cpu, $isa => $body)
            }
            (crate::board::size::Size::Eight, Scoring::Discs) => {
                const $n: usize = 8;
                const $d: bool = true;
                crate::with_cpu!($cpu, $isa => $body)
            }
        }
    };
}

// After `specialised!`, which they use.
mod analysis;
mod root;

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
    options: SolverOptions,
    table: Table,
    nodes: u64,
    cpu: Cpu,
    /// The search threads, with more than one (`parallel.rs`).
    pool: Option<rayon::ThreadPool>,
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

    fn threads(&self) -> usize {
        self.options.threads.max(1)
    }

    /// The skeleton of every entry point: a new table generation (when `fresh`: a new search,
    /// not a follow-up of the last one), a [`Control`] for `limits`, `search` run with it, and
    /// its nodes added to the solver's total. Returns what `search` returned, the nodes, and why
    /// the search stopped, if it did.
    fn searched<T>(
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
    fn run_search<S: EntrySearch>(
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

    /// The exact score of every legal move, each reported to `on_child` as soon as it is proven
    /// (from the calling thread). Returns them best first, ties in reading order. A position whose
    /// side to move must pass, or a finished game, has no children.
    ///
    /// Stopped early, it returns the children proven so far in [`Stopped::proven`].
    pub fn score_children(
        &mut self,
        position: &Position,
        limits: &Limits,
        on_child: &mut dyn FnMut(ChildScore),
    ) -> Result<Vec<ChildScore>, Stopped> {
        // Children that are symmetric images of each other (same canonical key, same side to
        // move) have the same score: one of each group is searched, the group reported, even
        // with fewer groups than threads (the symmetric openings), as the split points share one
        // search between the threads (docs/solver.md, "Symmetric twins at the root").
        let moves = root_order(position, &self.table);
        let groups = twin_groups(position, &moves);
        let tasks: Vec<root::Task> = groups
            .iter()
            .enumerate()
            .map(|(index, group)| {
                let child = position.play(group[0]).expect("a legal move");
                let (p, o) = child.raw();
                root::Task { index, p, o, empties: child.empty_count(), guess: None }
            })
            .collect();
        let (mut proven, nodes, stopped) = self.searched(limits, true, |solver, control| {
            let mut proven = Vec::new();
            solver.schedule(control, position.size(), &tasks, root::Job::Exact, &mut |task, score, _| {
                for &square in &groups[task.index] {
                    let child = ChildScore { square, score };
                    on_child(child);
                    proven.push(child);
                }
            });
            proven
        });
        if let Some(reason) = stopped {
            return Err(Stopped { reason, proven, nodes });
        }
        proven.sort_by_key(|c| (-c.score, c.square));
        Ok(proven)
    }

    /// The exact score from the side to move, every best move, and a principal variation to the
    /// end of the game. When the side to move must pass, the score is still from its side and
    /// the best moves are the opponent's replies after the pass.
    pub fn solve(&mut self, position: &Position, limits: &Limits) -> Result<Solution, Stopped> {
        let (pos, passed) = position.after_forced_pass();
        let sign = if passed { -1 } else { 1 };
        if pos.is_game_over() {
            return Ok(Solution { score: position.score(self.options.scoring), best: vec![], pv: vec![], nodes: 0 });
        }
        let ((score, best), nodes) = self.run_search(pos.size(), limits, ScoreAndBest(&pos))?;
        let pv = self.principal_variation_scored(&pos, score, limits)?;
        Ok(Solution { score: sign * score, best, pv, nodes })
    }

    /// The exact score from the side to move and one best move, with nodes searched: the least
    /// work that settles a position (what `bench` measures). The side to move must have a move
    /// or the game must be over.
    pub fn score(&mut self, position: &Position, limits: &Limits) -> Result<(i32, Option<Square>, u64), Stopped> {
        let (score, nodes) = self.run_search(position.size(), limits, Windowed { position, window: None })?;
        // Near the end the search skips the table: find a move that keeps the score.
        let best = match table_move(&self.table, position) {
            Some(sq) => Some(sq),
            None => self.solve(position, limits)?.best.first().copied(),
        };
        Ok((score, best, nodes))
    }

    /// Whether the side to move wins (+1), draws (0) or loses (-1), with nodes searched: the
    /// exact search with the window (-1, 1), cheaper than the exact score. A side to move that
    /// must pass is answered from its side.
    pub fn wld(&mut self, position: &Position, limits: &Limits) -> Result<(i32, u64), Stopped> {
        let (value, nodes) = self.run_search(position.size(), limits, Windowed { position, window: Some((-1, 1)) })?;
        Ok((value.signum(), nodes))
    }

    /// The value of `position` searched `depth` plies deep by the estimate search, with the
    /// full window, and the nodes searched: at the options' selectivity (full width: the plain
    /// `depth`-ply minimax of the evaluation, nodes the exact search reaches within
    /// [`EXACT_MARGIN`] scored exactly, and, when the options keep it on, the principal
    /// variation solved from [`pv_solved`] empties). A side
    /// to move that must pass is answered from its side; a finished game gets its score.
    pub fn estimate(&mut self, position: &Position, depth: u32, limits: &Limits) -> Result<(i32, u64), Stopped> {
        let (pos, passed) = position.after_forced_pass();
        let sign = if passed { -1 } else { 1 };
        if pos.is_game_over() || depth == 0 {
            let value = if pos.is_game_over() {
                pos.score(self.options.scoring)
            } else {
                let (p, o) = pos.raw();
                match pos.size() {
                    Size::Four => crate::eval::evaluate::<4>(p, o),
                    Size::Six => crate::eval::evaluate::<6>(p, o),
                    Size::Eight => crate::eval::evaluate::<8>(p, o),
                }
            };
            return Ok((sign * value, 0));
        }
        let pv_solved = if self.options.pv_extension { pv_solved(depth) } else { 0 };
        let selectivity = self.options.selectivity;
        let (value, nodes) =
            self.run_search(pos.size(), limits, Estimated { position: &pos, depth, pv_solved, selectivity })?;
        Ok((sign * value, nodes))
    }

    /// The line the table expects from `position`: at each step the best move it holds (from
    /// either search), forced passes taken, at most `max_len` moves. After an exact solve it is
    /// a principal variation; after estimates, the line the deepest estimate preferred.
    pub fn expected_line(&self, position: &Position, max_len: usize) -> Vec<Square> {
        let mut line = Vec::new();
        let (mut pos, _) = position.after_forced_pass();
        while line.len() < max_len && !pos.is_game_over() {
            let Some(square) = table_move(&self.table, &pos) else { break };
            line.push(square);
            pos = pos.play(square).expect("a legal move").after_forced_pass().0;
        }
        line
    }

    /// A principal variation from `position` to the end of the game (passes not written): at each
    /// step a move that keeps the exact score, the table's best move tried first.
    pub fn principal_variation(&mut self, position: &Position, limits: &Limits) -> Result<Vec<Square>, Stopped> {
        Ok(self.run_search(position.size(), limits, Line { position, score: None })?.0)
    }

    /// [`Self::principal_variation`] of a position whose exact score is known (`score`, from its
    /// side to move, in the solver's scoring): the position itself is not solved again, only the
    /// children that keep the score are looked for. After [`Self::analyse`] has proven the best
    /// child, its line starts here, from the child it searched: the table holds that child's proof,
    /// not a symmetric twin's. A wrong `score` gives a wrong line.
    pub fn principal_variation_scored(
        &mut self,
        position: &Position,
        score: i32,
        limits: &Limits,
    ) -> Result<Vec<Square>, Stopped> {
        Ok(self.run_search(position.size(), limits, Line { position, score: Some(score) })?.0)
    }
}

/// The search of one entry point, run by [`Solver::run_search`]: the part that differs from one
/// entry point to another, compiled for every board size, scoring rule and instruction set.
trait EntrySearch: Send {
    /// Whether it begins a new search (a new table generation), not a follow-up of the last.
    const FRESH: bool = true;
    /// What it finds.
    type Output: Send;
    /// Searches with `s`.
    fn search<const N: usize, const D: bool, I: Isa>(self, s: &mut Searcher<'_, N, D, I>) -> Self::Output;
}

/// [`Solver::solve`]'s search of a position whose side to move has a move: its exact score and
/// every move that reaches it.
struct ScoreAndBest<'a>(&'a Position);

impl EntrySearch for ScoreAndBest<'_> {
    type Output = (i32, Vec<Square>);

    fn search<const N: usize, const D: bool, I: Isa>(self, s: &mut Searcher<'_, N, D, I>) -> (i32, Vec<Square>) {
        let pos = self.0;
        let (p, o) = pos.raw();
        let score = s.exact(p, o);
        let mut best = Vec::new();
        if !s.stopped {
            // Every move that reaches the score: its child is at most -score.
            for square in pos.legal_moves().reading_order() {
                let (cp, co) = pos.play(square).expect("a legal move").raw();
                if s.above(cp, co, -score) <= -score && !s.stopped {
                    best.push(square);
                }
            }
        }
        (score, best)
    }
}

/// The exact search of `position` with `window` (`None`: the full window): what [`Solver::score`]
/// and [`Solver::wld`] search.
struct Windowed<'a> {
    position: &'a Position,
    window: Option<(i32, i32)>,
}

impl EntrySearch for Windowed<'_> {
    type Output = i32;

    fn search<const N: usize, const D: bool, I: Isa>(self, s: &mut Searcher<'_, N, D, I>) -> i32 {
        let (p, o) = self.position.raw();
        match self.window {
            Some((alpha, beta)) => s.window(p, o, alpha, beta),
            None => s.exact(p, o),
        }
    }
}

/// [`Solver::estimate`]'s search: `depth` plies of the estimate search with the full window.
struct Estimated<'a> {
    position: &'a Position,
    depth: u32,
    pv_solved: u32,
    selectivity: Selectivity,
}

impl EntrySearch for Estimated<'_> {
    type Output = i32;

    fn search<const N: usize, const D: bool, I: Isa>(self, s: &mut Searcher<'_, N, D, I>) -> i32 {
        let (p, o) = self.position.raw();
        s.pv_solved = self.pv_solved;
        s.selectivity = self.selectivity.level();
        s.estimate(p, o, -Searcher::<N, D, I>::MAX, Searcher::<N, D, I>::MAX, self.depth)
    }
}

/// [`Solver::principal_variation`]'s search: at each step a move that keeps the exact score, the
/// table's best move tried first. A follow-up of the search that scored the position (the same
/// table generation), on the pool like the others, so its null-window searches split.
struct Line<'a> {
    position: &'a Position,
    /// The position's exact score from its side to move, if known.
    score: Option<i32>,
}

impl EntrySearch for Line<'_> {
    const FRESH: bool = false;
    type Output = Vec<Square>;

    fn search<const N: usize, const D: bool, I: Isa>(self, s: &mut Searcher<'_, N, D, I>) -> Vec<Square> {
        let mut pv = Vec::new();
        let (mut pos, passed) = self.position.after_forced_pass();
        let mut value = match self.score {
            Some(score) if passed => -score,
            Some(score) => score,
            None => {
                let (p, o) = pos.raw();
                s.exact(p, o)
            }
        };
        while !s.stopped && !pos.is_game_over() {
            let mut moves = pos.legal_moves().reading_order();
            if let Some(best) = table_move(s.table, &pos)
                && let Some(i) = moves.iter().position(|&m| m == best)
            {
                moves[..=i].rotate_right(1);
            }
            let mut found = None;
            for square in moves {
                let child = pos.play(square).expect("a legal move");
                let (cp, co) = child.raw();
                if s.above(cp, co, -value) <= -value {
                    found = Some((square, child));
                    break;
                }
                if s.stopped {
                    break;
                }
            }
            let Some((square, child)) = found else { break };
            pv.push(square);
            value = -value;
            let (next, passed) = child.after_forced_pass();
            if passed {
                value = -value;
            }
            pos = next;
        }
        pv
    }
}

/// The best move `table` holds for `position` (from either search), if it is a legal move there.
fn table_move(table: &Table, position: &Position) -> Option<Square> {
    let (p, o) = position.raw();
    table
        .probe(table::hash(position.size().n(), p, o))
        .and_then(|e| Square::from_bit(position.size(), e.best as u32))
        .filter(|&sq| position.legal_moves().contains(sq))
}

/// The moves grouped by their child's canonical key, in the order given: each group's children
/// are symmetric images of one another, so they share one score.
pub(crate) fn twin_groups(position: &Position, moves: &[Square]) -> Vec<Vec<Square>> {
    let mut groups: Vec<((u64, u64), Vec<Square>)> = Vec::new();
    for &square in moves {
        let child = position.play(square).expect("a legal move");
        let key = crate::board::symmetry::canonical(&child).0;
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, group)) => group.push(square),
            None => groups.push((key, vec![square])),
        }
    }
    groups.into_iter().map(|(_, group)| group).collect()
}

/// The root moves in the order children are handed out: the table's best move first, then by
/// fewest replies for the opponent.
fn root_order(position: &Position, table: &Table) -> Vec<Square> {
    let mut moves: Vec<(i32, Square)> = position
        .legal_moves()
        .reading_order()
        .into_iter()
        .map(|sq| {
            let child = position.play(sq).expect("a legal move");
            let (cp, co) = child.raw();
            let key = match table.probe(table::hash(position.size().n(), cp, co)) {
                // A known child score: lowest for the opponent first.
                Some(e) if e.is_exact() && e.lower == e.upper => e.lower as i32 - 1000,
                _ => child.legal_moves().count() as i32,
            };
            (key, sq)
        })
        .collect();
    moves.sort();
    moves.into_iter().map(|(_, sq)| sq).collect()
}
