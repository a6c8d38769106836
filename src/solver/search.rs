//! The search's node routines: one principal-variation routine ([`Searcher::pvs`]) and one
//! null-window routine ([`Searcher::nws`]) for both regimes, the exact search to the end of the
//! game and the depth-limited estimate search, with the cutoff helpers they share.
//!
//! A [`Regime`] (`regime.rs`) supplies what differs: where the search stops (the exact search's
//! endgame path in `endgame.rs`, the estimate's leaves in `midgame.rs`), a cutoff tried before the
//! table (stability, or the estimate's last ply), which table entries to trust, the move sort
//! (`ordering.rs`), what travels with a position (the estimate's pattern indexes) and the depth
//! its bounds are stored with. Every node goes through the same steps, in order:
//!
//! 1. [`Searcher::open`]: the regime's frontier; the node count and the stop check (and, working
//!    for a split point, whether it was aborted); the legal
//!    moves (a finished game is scored, a pass searched from the other side); the regime's
//!    shortcut; the table's bounds ([`table_cutoff`]) where the regime trusts them.
//! 2. The moves, keyed by the regime (the table's move first) and taken best first, one at a time
//!    ([`best_first`](super::node::best_first)); a split point sorts the moves it shares.
//! 3. The children: PVS searches the first with the full window and the rest with a null window,
//!    re-searched when they beat it; NWS stops at the first that beats alpha ([`raise`](super::node::raise)).
//! 4. [`Searcher::close`]: the bounds stored ([`bounds`]), with the regime's depth.
//!
//! A node travels as a [`Node`] (the position, what the regime keeps with it, the plies left and
//! the empties) and its bounds as a [`Window`]: small `Copy` values passed by value.
//!
//! On more than one thread, a null-window node whose first move did not cut may share its other
//! moves between the threads (a split point, `parallel.rs`); it opens and closes as any node.
//!
//! The searcher is generic over the instruction set ([`crate::board::isa`]): each recursive routine is a
//! thin entry (`nws`) that runs its `#[inline(always)]` body (`nws_body`) through
//! [`Isa::enter`], so the whole recursion is compiled for the CPU's level.
//!
//! Every function returns a fail-soft score: below `alpha` it is an upper bound, above `beta` a
//! lower bound, in between exact. After a stop every result is meaningless and nothing more is
//! stored: callers check [`Searcher::stopped`] before trusting a value.

use super::frontiers::prunes_exact;
use super::local_table;
use super::node::{Move, Node, Window, best_first, bounds, sort_by_key, table_cutoff};
use super::parallel::may_split;
use super::regime::Regime;
use super::searcher::Searcher;
use super::table::{FULL_WIDTH, NO_MOVE, hash, work};
use crate::board::isa::Isa;
use std::sync::atomic::Ordering;

/// How a node opens ([`Searcher::open`]).
pub(super) enum Open {
    /// Its value, found without searching its moves.
    Done(i32),
    /// The side to move must pass; the opponent can move.
    Pass,
    /// Its moves to search, its table hash and the table's best move.
    Moves { moves: u64, h: u64, tt_move: u8 },
}

impl<'a, const N: usize, const DISCS: bool, I: Isa> Searcher<'a, N, DISCS, I> {
    /// The first steps of every node (the module documentation's step 1), entered with window
    /// `w`.
    #[inline(always)]
    pub(super) fn open<R: Regime, const PV: bool>(&mut self, node: Node<'_, R::State>, w: Window) -> Open {
        if let Some(v) = R::frontier::<N, DISCS, I, PV>(self, node, w) {
            return Open::Done(v);
        }
        self.nodes += 1;
        if self.nodes >= self.next_check && self.check() {
            return Open::Done(0);
        }
        if let Some(a) = self.abort
            && (a.is_set() || self.control.halt.load(Ordering::Relaxed))
        {
            self.stopped = true;
            return Open::Done(0);
        }
        let (p, o) = (node.p, node.o);
        let moves = self.isa.legal_moves::<N>(p, o);
        if moves == 0 {
            if self.isa.legal_moves::<N>(o, p) == 0 {
                return Open::Done(Self::final_score(p, o));
            }
            return Open::Pass;
        }
        if let Some(v) = R::shortcut::<N, DISCS, I, PV>(self, node, w, moves) {
            return Open::Done(v);
        }
        let h = hash(N, p, o);
        let mut tt_move = NO_MOVE;
        if R::TO_THE_END && local_table::keeps(node.n) {
            if let Some(e) = local_table::probe(self.local_tag, node.n, h, p, o) {
                if let Some(v) = table_cutoff(e.lower, e.upper, w) {
                    return Open::Done(v);
                }
                tt_move = e.best;
            }
        } else if let Some(e) = self.table.probe(h) {
            if R::trusts(&e, node.depth, self.selectivity)
                && let Some(v) = table_cutoff(e.lower as i32, e.upper as i32, w)
            {
                return Open::Done(v);
            }
            tt_move = R::table_move(self, node, &e);
        }
        Open::Moves { moves, h, tt_move }
    }

    /// The last step of every node: the bounds its result `best` proves, stored with the
    /// regime's depth (`w`: the window it was entered with; `h`: its hash; `start`: this thread's
    /// node count when the node was opened, so that the entry keeps the size of its search).
    #[inline(always)]
    pub(super) fn close<R: Regime>(
        &self,
        node: Node<'_, R::State>,
        w: Window,
        h: u64,
        best: i32,
        best_move: u8,
        start: u64,
    ) {
        let (lower, upper) = bounds(best, w, Self::MAX as i8);
        if R::TO_THE_END && local_table::keeps(node.n) {
            local_table::store(self.local_tag, node.n, h, node.p, node.o, lower, upper, best_move);
            return;
        }
        let (depth, work) = (R::stored_depth(node.depth), work(self.nodes - start));
        // Where no search prunes, an exact node's bounds are facts whatever the selectivity of
        // the search under way: a selective pass's are stored as a proof's, and the passes after
        // it, the full-width proof too, take them.
        let selectivity = if R::TO_THE_END && !prunes_exact(node.n) { FULL_WIDTH } else { self.selectivity };
        self.table.store(h, lower, upper, best_move, node.n as u8, depth, selectivity, work);
    }

    /// The null-window search of `node`: is its value above `alpha`? (`beta = alpha + 1`.)
    #[inline(always)]
    pub(super) fn nws<R: Regime>(&mut self, node: Node<'_, R::State>, alpha: i32) -> i32 {
        let isa = self.isa;
        isa.enter(
            #[inline(always)]
            move || self.nws_body::<R>(node, alpha),
        )
    }

    #[inline(always)]
    fn nws_body<R: Regime>(&mut self, node: Node<'_, R::State>, alpha: i32) -> i32 {
        let w = Window::null(alpha);
        let (moves, h, tt_move) = match self.open::<R, false>(node, w) {
            Open::Done(v) => return v,
            Open::Pass => return -self.nws::<R>(node.passed(&R::pass(node.x)), -alpha - 1),
            Open::Moves { moves, h, tt_move } => (moves, h, tt_move),
        };
        let start = self.nodes;
        if let Some(v) = self.probcut::<R>(node, alpha) {
            return v;
        }
        let mut list = [Move::default(); 64];
        let mut best = -Self::MAX - 1;
        let count = match R::sort(self, node, moves, tt_move, &mut list, alpha, Some(&mut best)) {
            Ok(count) => count,
            Err(cut) => return cut,
        };
        let mut best_move = NO_MOVE;
        for i in 0..count {
            if i == 1 && count > 2 && R::splits(node) && self.control.splits && may_split() {
                // The eldest brother did not cut: the others may be shared, in their order.
                sort_by_key(&mut list[1..count]);
                self.split_nws::<R>(node, &list[1..count], alpha, &mut best, &mut best_move);
                if self.stopped {
                    return 0;
                }
                break;
            }
            best_first(&mut list[i..count]);
            let m = &list[i];
            let x = R::child(node.x, self.layout, m);
            let v = -self.nws::<R>(node.child(m, &x), -alpha - 1);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m.sq as u8;
                if v > alpha {
                    break;
                }
            }
        }
        self.close::<R>(node, w, h, best, best_move, start);
        best
    }

    /// The principal-variation search of `node` with window `w`.
    #[inline(always)]
    pub(super) fn pvs<R: Regime>(&mut self, node: Node<'_, R::State>, w: Window) -> i32 {
        let isa = self.isa;
        isa.enter(
            #[inline(always)]
            move || self.pvs_body::<R>(node, w),
        )
    }

    #[inline(always)]
    fn pvs_body<R: Regime>(&mut self, node: Node<'_, R::State>, w: Window) -> i32 {
        let (moves, h, tt_move) = match self.open::<R, true>(node, w) {
            Open::Done(v) => return v,
            Open::Pass => return -self.pvs::<R>(node.passed(&R::pass(node.x)), w.negated()),
            Open::Moves { moves, h, tt_move } => (moves, h, tt_move),
        };
        let start = self.nodes;
        let Window { mut alpha, beta } = w;
        let mut list = [Move::default(); 64];
        let mut best = -Self::MAX - 1;
        let count = R::sort(self, node, moves, tt_move, &mut list, alpha, None).unwrap_or_default();
        let mut best_move = NO_MOVE;
        for i in 0..count {
            best_first(&mut list[i..count]);
            let m = &list[i];
            let x = R::child(node.x, self.layout, m);
            let child = node.child(m, &x);
            let v = if i == 0 {
                -self.pvs::<R>(child, Window { alpha, beta }.negated())
            } else {
                let v = -self.nws::<R>(child, -alpha - 1);
                if v > alpha && v < beta && !self.stopped {
                    -self.pvs::<R>(child, Window { alpha, beta }.negated())
                } else {
                    v
                }
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m.sq as u8;
                if v > alpha {
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        self.close::<R>(node, w, h, best, best_move, start);
        best
    }
}
