//! The search on more than one thread: young brothers wait, in null-window nodes. A null-window
//! node that its regime lets split (the exact search's from
//! [`SPLIT_NWS`](super::settings::SPLIT_NWS) empties, the estimate's from
//! [`SPLIT_ESTIMATE`](super::settings::SPLIT_ESTIMATE) plies left) whose first move did not cut
//! (the null-window routine in `search.rs` decides) shares its other moves between the threads
//! of the solver's pool ([`Searcher::split_nws`]), each taking the next one not yet taken, when
//! the work its thread offered last has been taken ([`may_split`]). The
//! helpers search as the node's searcher does, at its selectivity. The first move to beat alpha
//! aborts the others ([`Abort`]): every searcher of that split point and of the split points
//! below it stops within a node.
//!
//! Principal-variation nodes are not split: their later moves, tested in parallel against an
//! alpha that the earlier ones were still raising, cost more nodes than the threads gained
//! (FFO #49 on two threads: 567 M nodes against 402 M; `docs/solver.md`). Their null-window
//! children split instead.
//!
//! A thread waiting for the others at a split point takes work from theirs (rayon's work
//! stealing), so a thread is idle only when no split point has a move left to share. A search
//! outside the solver's pool never splits ([`Control::with_splits`](super::control::Control::with_splits)).

use super::control::Abort;
use super::node::{Move, Node};
use super::regime::Regime;
use super::searcher::Searcher;
use super::settings::CHECK_EVERY;
use crate::board::isa::Isa;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Whether a split point here may hand work to others: the calling thread is a pool's, and the
/// work it offered last has been taken (its own queue is empty). While the other threads are busy
/// with work of their own, an offer would wait in the queue until the thread took it back itself,
/// having paid for the split point for nothing.
#[inline(always)]
pub(super) fn may_split() -> bool {
    rayon_core::current_thread_has_pending_tasks() == Some(false)
}

/// Runs `search` on `pool` (in one of its threads, where the search may split), or on the
/// calling thread without one.
pub(super) fn in_pool<T: Send>(pool: Option<&rayon::ThreadPool>, search: impl FnOnce() -> T + Send) -> T {
    match pool {
        Some(pool) => pool.install(search),
        None => search(),
    }
}

/// Runs `work` on `threads` threads at once: the pool's, or the calling thread's once without a
/// pool. Returns when every run has.
pub(super) fn on_threads(pool: Option<&rayon::ThreadPool>, threads: usize, work: impl Fn() + Sync) {
    match pool {
        Some(pool) => pool.scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|_| work());
            }
        }),
        None => work(),
    }
}

impl<'a, const N: usize, const D: bool, I: Isa> Searcher<'a, N, D, I> {
    /// The younger brothers `rest` of a null-window `node` (window `alpha`, `alpha + 1`) shared
    /// between the pool's threads, once the eldest has not cut: raises `best` and `best_move` with
    /// their values. The first to beat alpha aborts the others. Stops this searcher when the
    /// search stops, or a split point above is aborted.
    #[inline(never)]
    pub(super) fn split_nws<R: Regime>(
        &mut self,
        node: Node<'_, R::State>,
        rest: &[Move],
        alpha: i32,
        best: &mut i32,
        best_move: &mut u8,
    ) {
        let control = self.control;
        // The helpers search as this searcher does, with every setting of it (a split point of
        // a selective pass stays selective) and counts of their own.
        let template = Searcher { nodes: 0, next_check: CHECK_EVERY, stopped: false, abort: None, ..*self };
        let abort = Abort::below(self.abort);
        let next = AtomicUsize::new(0);
        let result = Mutex::new((*best, *best_move));
        let work = || {
            let mut s = Searcher { abort: Some(&abort), ..template };
            while !abort.flag.load(Ordering::Relaxed) {
                let Some(m) = rest.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                let x = R::child(node.x, s.layout, m);
                let v = -s.nws::<R>(node.child(m, &x), -alpha - 1);
                if s.stopped {
                    break;
                }
                let mut r = result.lock().unwrap_or_else(|e| e.into_inner());
                if v > r.0 {
                    *r = (v, m.sq as u8);
                }
                if v > alpha {
                    abort.flag.store(true, Ordering::Relaxed);
                }
                drop(r);
                // The nodes so far go to the shared count (a node limit sees them), and a stop
                // is seen between two moves.
                if s.check() {
                    break;
                }
            }
            s.flush_nodes();
        };
        rayon::scope(|scope| {
            for _ in 1..rayon::current_num_threads().min(rest.len()) {
                scope.spawn(|_| work());
            }
            work();
        });
        if control.halt.load(Ordering::Relaxed) || self.abort.is_some_and(|a| a.is_set()) {
            self.stopped = true;
            return;
        }
        (*best, *best_move) = result.into_inner().unwrap_or_else(|e| e.into_inner());
    }
}
