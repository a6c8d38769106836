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
//!    ([`best_first`](super::ordering::best_first)); a split point sorts the moves it shares.
//! 3. The children: PVS searches the first with the full window and the rest with a null window,
//!    re-searched when they beat it; NWS stops at the first that beats alpha ([`raise`]).
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

use super::control::{Abort, Control};
use super::frontiers::prunes_exact;
use super::local_table;
use super::node::{Move, Node, Window, best_first, bounds, sort_by_key, table_cutoff};
use super::parallel::may_split;
use super::regime::Regime;
use super::settings::CHECK_EVERY;
use super::table::{FULL_WIDTH, NO_MOVE, Table, hash, work};
use crate::board::geometry::full_mask;
use crate::board::isa::Isa;
use crate::eval::Weights;
use crate::eval::pattern::Layout;
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

/// One thread's search: node count, the shared table and control, and the instruction set it is
/// compiled for.
pub struct Searcher<'a, const N: usize, const DISCS: bool, I: Isa> {
    pub isa: I,
    pub table: &'a Table,
    pub control: &'a Control,
    pub nodes: u64,
    pub(super) next_check: u64,
    pub stopped: bool,
    /// The estimate search's evaluation: the shipped weights (`None` if they cannot be read:
    /// then the hand-written [`crate::eval::baseline`]) and the pattern layout its kept indexes
    /// follow.
    pub(super) weights: Option<&'static Weights>,
    /// The network, when the search reads it instead of the weights ([`Searcher::use_evaluator`]).
    pub(super) network: Option<&'static crate::eval::network::Network>,
    pub(super) layout: &'static Layout,
    /// The split point this searcher works for, if any: when it (or one above it) is aborted,
    /// the searcher stops.
    pub(super) abort: Option<&'a Abort<'a>>,
    /// The estimate search's principal-variation nodes with at most this many empties are
    /// solved exactly (`midgame.rs`, [`super::midgame::pv_solved`]); 0: none.
    pub(super) pv_solved: u32,
    /// The selectivity level of the search under way (`probcut.rs`; [`FULL_WIDTH`]: none),
    /// stored with every bound it finds.
    pub(super) selectivity: u8,
    /// Whether the exact entry points reach their proofs by iterative selectivity
    /// ([`Searcher::solve_window`]).
    pub(super) iterate: bool,
    /// Set while [`Searcher::extreme_proof`] looks for a won-by-everything line: its estimates
    /// then cut a line where the side that must lose every disc holds a stable one.
    pub(super) hunting: bool,
    /// What the small table of each thread tells this search's bounds by: the shared table, the
    /// board size and the scoring (`local_table.rs`).
    pub(super) local_tag: u32,
}

impl<'a, const N: usize, const DISCS: bool, I: Isa> Searcher<'a, N, DISCS, I> {
    /// The largest score magnitude: every square.
    pub const MAX: i32 = (N * N) as i32;

    pub fn new(isa: I, table: &'a Table, control: &'a Control) -> Self {
        Searcher {
            isa,
            table,
            control,
            nodes: 0,
            next_check: CHECK_EVERY,
            stopped: false,
            weights: crate::eval::weights::shipped(N).ok(),
            network: None,
            layout: Layout::of(N),
            hunting: false,
            local_tag: local_table::tag(table, N, DISCS),
            abort: None,
            pv_solved: 0,
            selectivity: FULL_WIDTH,
            iterate: true,
        }
    }

    /// Reads `evaluator` at the leaves: the network where one is shipped for this board and it
    /// reads, else the pattern tables.
    pub fn use_evaluator(&mut self, evaluator: crate::eval::Evaluator) {
        self.network = match evaluator {
            crate::eval::Evaluator::Network => crate::eval::network::shipped(N),
            crate::eval::Evaluator::Patterns => None,
        };
    }

    /// Reports the nodes not yet counted in the shared total; true if the search must stop.
    #[inline(never)]
    pub(super) fn check(&mut self) -> bool {
        let new = self.nodes + CHECK_EVERY - self.next_check;
        self.next_check = self.nodes + CHECK_EVERY;
        if self.control.poll(new) || self.abort.is_some_and(|a| a.is_set()) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Adds the nodes not yet reported to the shared total (at the end of a search).
    pub(crate) fn flush_nodes(&mut self) {
        let new = self.nodes + CHECK_EVERY - self.next_check;
        self.next_check = self.nodes + CHECK_EVERY;
        self.control.nodes.fetch_add(new, Ordering::Relaxed);
    }

    /// `search` run at selectivity `level` (a level of [`super::probcut::Selectivity`],
    /// [`FULL_WIDTH`] for none), the searcher's own selectivity restored after it.
    pub(super) fn with_selectivity<T>(&mut self, level: u8, search: impl FnOnce(&mut Self) -> T) -> T {
        let saved = std::mem::replace(&mut self.selectivity, level);
        let v = search(self);
        self.selectivity = saved;
        v
    }

    /// Aspiration: `search` within `first` (clipped to `outer`); while it fails on a side where
    /// the window is narrower than `outer`, again with that side opened to `outer`'s edge and,
    /// the first time, the other side closed to the value found (the searches are fail-soft).
    /// Each side opens once, so it ends after three searches at most, even where a selective
    /// search is unstable. The value within `outer`, unless the search was stopped.
    pub(super) fn aspirated(
        &mut self,
        first: Window,
        outer: Window,
        mut search: impl FnMut(&mut Self, Window) -> i32,
    ) -> i32 {
        let mut w = Window { alpha: first.alpha.max(outer.alpha), beta: first.beta.min(outer.beta) };
        if w.alpha >= w.beta {
            w = outer;
        }
        let mut opened = false;
        loop {
            let v = search(self, w);
            if self.stopped {
                return v;
            }
            if v <= w.alpha && w.alpha > outer.alpha {
                let beta = if opened { w.beta } else { (v + 1).clamp(outer.alpha + 1, w.beta) };
                w = Window { alpha: outer.alpha, beta };
            } else if v >= w.beta && w.beta < outer.beta {
                let alpha = if opened { w.alpha } else { (v - 1).clamp(w.alpha, outer.beta - 1) };
                w = Window { alpha, beta: outer.beta };
            } else {
                return v;
            }
            opened = true;
        }
    }

    /// The score of a finished game, from `p`'s side.
    #[inline(always)]
    pub fn final_score(p: u64, o: u64) -> i32 {
        if DISCS { p.count_ones() as i32 - o.count_ones() as i32 } else { crate::board::rules::final_score::<N>(p, o) }
    }

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

    /// The exact search of a position with window (`alpha`, `beta`), fail-soft (deep positions
    /// by iterative selectivity, [`Searcher::solve_window`]).
    pub fn window(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let n = (!(p | o) & full_mask(N)).count_ones();
        if n == 0 {
            return Self::final_score(p, o);
        }
        self.solve_window(p, o, Window { alpha, beta }, n)
    }

    /// The exact score of a position (full window).
    pub fn exact(&mut self, p: u64, o: u64) -> i32 {
        self.window(p, o, -Self::MAX, Self::MAX)
    }

    /// Whether the score of a position is above `alpha` (a null-window test); fail-soft value.
    pub fn above(&mut self, p: u64, o: u64, alpha: i32) -> i32 {
        let n = (!(p | o) & full_mask(N)).count_ones();
        if n == 0 {
            return Self::final_score(p, o);
        }
        self.solve_window(p, o, Window::null(alpha), n)
    }
}
