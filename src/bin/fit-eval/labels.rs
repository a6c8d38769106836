//! How the fit's positions get their labels: the exact solver, the bootstrapping search with the
//! weights being fitted at its leaves, and the worker threads that label many at once.

use crate::play::{empties, play, squares};
use othello_explorer::board::rules::legal_moves;
use othello_explorer::eval::{Weights, evaluate_fine_with};
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

/// The bootstrapping search: alpha-beta down to `horizon` empties, leaves evaluated with `w` (in
/// 1/SCALE discs), finished games exact. Children are tried fewest opponent moves first.
pub(crate) fn bootstrap<const N: usize>(w: &Weights, p: u64, o: u64, horizon: usize, mut alpha: i32, beta: i32) -> i32 {
    if empties::<N>(p, o) <= horizon {
        return evaluate_fine_with::<N>(w, p, o);
    }
    let moves = legal_moves::<N>(p, o);
    if moves == 0 {
        if legal_moves::<N>(o, p) == 0 {
            return evaluate_fine_with::<N>(w, p, o);
        }
        return -bootstrap::<N>(w, o, p, horizon, -beta, -alpha);
    }
    // At most 64 moves: the children on the stack, not in a `Vec` a node.
    let mut children = [(0u32, 0u64, 0u64); 64];
    let mut count = 0;
    for sq in squares(moves) {
        let (cp, co) = play::<N>(p, o, sq);
        children[count] = (legal_moves::<N>(cp, co).count_ones(), cp, co);
        count += 1;
    }
    let children = &mut children[..count];
    children.sort_unstable_by_key(|c| c.0);
    let mut best = i32::MIN;
    for &(_, cp, co) in children.iter() {
        let v = -bootstrap::<N>(w, cp, co, horizon, -beta, -alpha);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}
