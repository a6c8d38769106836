//! How the fit's positions get their labels: the exact solver, the bootstrapping search with the
//! weights being fitted at its leaves, and the worker threads that label many at once.

use crate::play::empties;
use othello_explorer::eval::{Weights, evaluate_fine_with};
use othello_explorer::solver::plain::{self, Leaves};
use othello_explorer::solver::{Limits, Solver, SolverOptions};
use othello_explorer::{Color, Position, Size};

/// Runs `f` over `items` on `threads` workers, each with its own state from `init`, in order.
pub(crate) fn parallel<T: Sync, S, R: Send>(
    items: &[T],
    threads: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    on_chunks(items, threads, |part| {
        let mut state = init();
        part.iter().map(|x| f(&mut state, x)).collect::<Vec<R>>()
    })
    .into_iter()
    .flatten()
    .collect()
}

/// Runs `work` on each of `threads` consecutive shares of `items`, each on a thread of its own:
/// the results in order.
pub(crate) fn on_chunks<T: Sync, R: Send>(items: &[T], threads: usize, work: impl Fn(&[T]) -> R + Sync) -> Vec<R> {
    let chunk = items.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items.chunks(chunk).map(|part| scope.spawn(|| work(part))).collect();
        handles.into_iter().map(|h| h.join().expect("a worker panicked")).collect()
    })
}

pub(crate) fn solver() -> Solver {
    Solver::new(SolverOptions { hash_mb: 16, threads: 1, ..SolverOptions::default() })
}

pub(crate) fn exact<const N: usize>(solver: &mut Solver, p: u64, o: u64) -> i32 {
    let size = Size::from_n(N).expect("4, 6 or 8");
    let position = Position::from_player(size, p, o, Color::Black).expect("a position from play");
    solver.score(&position, &Limits::default()).expect("no limits").0
}

/// The bootstrapping search's leaves: positions of `horizon` empties or fewer, and finished
/// games, read by the weights `w` (in 1/SCALE discs).
struct Bootstrap<'w, const N: usize> {
    w: &'w Weights,
    horizon: usize,
}

impl<const N: usize> Leaves for Bootstrap<'_, N> {
    #[inline]
    fn horizon(&mut self, p: u64, o: u64) -> Option<i32> {
        (empties::<N>(p, o) <= self.horizon).then(|| evaluate_fine_with::<N>(self.w, p, o))
    }

    #[inline]
    fn finished(&mut self, p: u64, o: u64) -> i32 {
        evaluate_fine_with::<N>(self.w, p, o)
    }
}

/// The bootstrapping search: alpha-beta ([`plain::alpha_beta`]) down to `horizon` empties, leaves
/// evaluated with `w` (in 1/SCALE discs), finished games too. Children are tried fewest opponent
/// moves first.
pub(crate) fn bootstrap<const N: usize>(w: &Weights, p: u64, o: u64, horizon: usize, alpha: i32, beta: i32) -> i32 {
    plain::alpha_beta::<N, true, _>(&mut Bootstrap::<N> { w, horizon }, p, o, alpha, beta)
}
