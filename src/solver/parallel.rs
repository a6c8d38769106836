//! The parallel root of the exact search: a principal-variation node whose siblings, after the
//! first, are shared among threads (young brothers wait), splitting again down the first child.
//! It opens and closes as every node does ([`Searcher::open`], [`Searcher::close`]); only the loop
//! over the children is its own.

use super::ordering::Move;
use super::regime::{Exact, Regime};
use super::search::{Control, Open, Searcher};
use super::table::Table;
use crate::geometry::full_mask;
use crate::isa::Isa;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Empties above which principal-variation nodes are split between threads.
const SPLIT_MIN: u32 = 12;

/// The exact score of (`p`, `o`) searched by `threads` threads sharing the table.
pub fn parallel_exact<const N: usize, const D: bool, I: Isa>(
    isa: I,
    table: &Table,
    control: &Control,
    p: u64,
    o: u64,
    threads: usize,
) -> i32 {
    let max = Searcher::<N, D, I>::MAX;
    parallel_window::<N, D, I>(isa, table, control, p, o, -max, max, threads)
}

/// The exact search of (`p`, `o`) with window (`alpha`, `beta`), fail-soft, searched by `threads`
/// threads sharing the table.
#[allow(clippy::too_many_arguments)]
pub fn parallel_window<const N: usize, const D: bool, I: Isa>(
    isa: I,
    table: &Table,
    control: &Control,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    threads: usize,
) -> i32 {
    let n = (!(p | o) & full_mask(N)).count_ones();
    if n == 0 {
        return Searcher::<N, D, I>::final_score(p, o);
    }
    parallel_pvs::<N, D, I>(isa, table, control, p, o, alpha, beta, n, threads)
}

/// The principal-variation search with the siblings of the first move shared among `threads`
/// threads (young brothers wait: the first child is searched, in parallel itself, before the
/// others start). Same contract as [`Searcher::window`].
#[allow(clippy::too_many_arguments)]
fn parallel_pvs<const N: usize, const D: bool, I: Isa>(
    isa: I,
    table: &Table,
    control: &Control,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    n: u32,
    threads: usize,
) -> i32 {
    let mut searcher = Searcher::<N, D, I>::new(isa, table, control);
    // One thread, or too few empties to share: the plain search.
    if threads <= 1 || n <= SPLIT_MIN {
        let v = searcher.pvs::<Exact>(p, o, &(), alpha, beta, n, n);
        searcher.flush_nodes();
        return v;
    }
    let (moves, h, tt_move) = match searcher.open::<Exact, true>(p, o, &(), alpha, beta, n, n) {
        Open::Done(v) => {
            searcher.flush_nodes();
            return v;
        }
        Open::Pass => {
            searcher.flush_nodes();
            return -parallel_pvs::<N, D, I>(isa, table, control, o, p, -beta, -alpha, n, threads);
        }
        Open::Moves { moves, h, tt_move } => (moves, h, tt_move),
    };
    let mut list = [Move::default(); 64];
    let count = Exact::sort(&searcher, p, o, &(), moves, tt_move, n, n, &mut list, None).unwrap_or_default();
    searcher.flush_nodes();
    let list = &list[..count];
    let first = list[0];
    let v = -parallel_pvs::<N, D, I>(
        isa,
        table,
        control,
        o ^ first.flips,
        p ^ first.flips ^ (1 << first.sq),
        -beta,
        -alpha,
        n - 1,
        threads,
    );
    if control.halt.load(Ordering::Relaxed) {
        return 0;
    }
    // (alpha, best, best move), shared by the threads searching the siblings.
    let state = Mutex::new((alpha.max(v), v, first.sq as u8));
    if v < beta && count > 1 {
        let next = AtomicU64::new(1);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let mut s = Searcher::<N, D, I>::new(isa, table, control);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                        let a = state.lock().unwrap_or_else(|e| e.into_inner()).0;
                        if i >= count || a >= beta || s.stopped {
                            break;
                        }
                        let m = list[i];
                        let (np, no) = (o ^ m.flips, p ^ m.flips ^ (1 << m.sq));
                        let mut a = a;
                        let mut v = -s.nws::<Exact>(np, no, &(), -a - 1, n - 1, n - 1);
                        // Above the alpha it was tested against: settle it against the alpha of
                        // now, which other threads may have raised meanwhile.
                        while v > a && !s.stopped {
                            let a_now = state.lock().unwrap_or_else(|e| e.into_inner()).0;
                            if a_now >= beta {
                                break;
                            }
                            if v > a_now {
                                v = -s.pvs::<Exact>(np, no, &(), -beta, -a_now, n - 1, n - 1);
                                break;
                            }
                            a = a_now;
                            v = -s.nws::<Exact>(np, no, &(), -a - 1, n - 1, n - 1);
                        }
                        if s.stopped {
                            break;
                        }
                        let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
                        if v > st.1 {
                            st.1 = v;
                            st.2 = m.sq as u8;
                        }
                        if v > st.0 {
                            st.0 = v;
                        }
                    }
                    s.flush_nodes();
                });
            }
        });
    }
    if control.halt.load(Ordering::Relaxed) {
        return 0;
    }
    let (_, best, best_move) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    searcher.close::<Exact>(h, best, alpha, beta, best_move, n, n);
    best
}
