//! The estimate search (floor 3 of the search core, `mod.rs`): the [`Estimate`] regime, its
//! leaves, its last ply and its entry point. Its nodes are
//! the search's one pair of node routines in the [`Estimate`] regime (`search.rs`,
//! `regime.rs`): principal-variation alpha-beta to a fixed number of plies,
//! [`crate::eval::evaluate`] at the leaves, on the same transposition table as the exact search.
//!
//! Conventions, as in the exact search: values are disc differences from the side to move, every
//! function is fail-soft (below `alpha` an upper bound, above `beta` a lower bound, in between the
//! value), and after a stop every result is meaningless and nothing more is stored.
//!
//! - A *depth* counts moves: a pass does not use one, so the empties and the depth fall together.
//!   A node with at most [`EXACT_MARGIN`](super::settings::EXACT_MARGIN) more empties than plies left is searched to the end of
//!   the game by the exact search, and its value is the exact score: its leaves would have had
//!   that few empties, which the exact search settles in about a hundred nodes, where the
//!   evaluation is off by about 5 discs.
//! - A principal-variation node with at most [`pv_solved`](super::frontiers::pv_solved)`(d)` empties (`d`: the depth of the
//!   estimate, [`PV_EXTENSION`](super::settings::PV_EXTENSION) more, at most [`PV_EXTENSION_MAX`](super::settings::PV_EXTENSION_MAX)) and at least one ply left is
//!   searched to the end too, as Edax extends its principal variations: the line the value comes
//!   from ends in an exact score instead of an evaluation, and the other moves are refuted
//!   against it by the estimate. Null-window nodes are not extended, so it costs a few exact
//!   searches per line. The value is then no longer the plain depth-limited minimax, but that
//!   minimax with some nodes of at most `pv_solved(d)` empties taking their exact value, as an
//!   exact entry of the table already makes them; [`crate::solver::SolverOptions::pv_extension`]
//!   turns it off.
//! - A finished game is scored exactly wherever it is met, also at a leaf.
//! - The table: an entry of depth `d` settles a node that needs `d` plies or fewer, an exact
//!   entry any node; every search stores its bounds with its depth (see [`super::table`]).
//! - Move order ([`Searcher::mid_sorted_moves`]): the table's move (from the previous iteration
//!   of the iterative deepening), then a wipe-out, then (from five plies left) by the evaluation
//!   of each child, the opponent's mobility breaking ties; closer to the leaves by the opponent's
//!   mobility alone. One ply above the leaves nothing is sorted and the table is not used: the
//!   children are leaves, as cheap to search as to sort ([`Searcher::mid_last_ply`]).
//! - The evaluation's pattern indexes travel with the position ([`Indexes`]): each move updates
//!   them from the squares it changes ([`Indexes::play`]), so no node computes an index from the
//!   board. [`Searcher::estimate`] computes the root's.
//!
//! [`EXACT_MARGIN`](super::settings::EXACT_MARGIN), [`PV_EXTENSION`](super::settings::PV_EXTENSION) and [`PV_EXTENSION_MAX`](super::settings::PV_EXTENSION_MAX) are set in `settings.rs`, with what
//! was measured to choose them.

use super::exact::Exact;
use super::frontiers::solved_within;
use super::masks::corners_first;
use super::node::{Move, Node, Window, raise};
use super::regime::Regime;
use super::searcher::Searcher;
use super::settings::SPLIT_ESTIMATE;
use super::table::{EXACT, Entry};
use crate::board::geometry::full_mask;
use crate::board::isa::Isa;
use crate::eval::network::READS_FROM;
use crate::eval::pattern::{Layout, Row};
use crate::eval::{Indexes, baseline, evaluate_indexed, network_indexed};

impl<'a, const N: usize, const DISCS: bool, I: Isa> Searcher<'a, N, DISCS, I> {
    /// The exact search with window (`alpha`, `beta`) on a position with `n` empties (any `n`).
    #[inline(always)]
    pub(super) fn exact_window(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
        if n == 0 {
            self.nodes += 1;
            Self::final_score(p, o)
        } else if beta == alpha + 1 {
            self.nws::<Exact>(Node { p, o, x: &(), depth: n, n }, alpha)
        } else {
            self.pvs::<Exact>(Node { p, o, x: &(), depth: n, n }, Window { alpha, beta })
        }
    }

    /// The evaluation of `p` against `o` (`own`: the indexes of `p`'s side, [`Indexes::own`]), or
    /// the score of a finished game.
    #[inline(always)]
    pub(super) fn evaluate(&self, p: u64, o: u64, own: &Row) -> i32 {
        let pm = self.isa.legal_moves::<N>(p, o);
        self.evaluate_with_moves(p, o, own, pm)
    }

    /// [`Self::evaluate`] given `p`'s legal moves `pm`.
    #[inline(always)]
    pub(super) fn evaluate_with_moves(&self, p: u64, o: u64, own: &Row, pm: u64) -> i32 {
        let om = self.isa.legal_moves::<N>(o, p);
        if pm | om == 0 {
            Self::final_score(p, o)
        } else if let Some(net) = self.network
            && (full_mask(N) & !(p | o)).count_ones() >= READS_FROM
        {
            network_indexed::<N, I>(net, self.isa, own, p, o, pm, om)
        } else if let Some(w) = self.weights {
            evaluate_indexed::<N>(w, own, p, o, pm, om)
        } else {
            baseline::<N>(p, o)
        }
    }

    /// The value of a leaf: the evaluation, or the score of a finished game.
    #[inline(always)]
    pub(super) fn leaf(&mut self, p: u64, o: u64, own: &Row) -> i32 {
        self.nodes += 1;
        self.evaluate(p, o, own)
    }

    /// A node one ply above the leaves, fail-soft, no table: every child is a leaf, so sorting
    /// them would cost as much as searching them. The corners go first and the C and X squares
    /// last ([`corners_first`]): the moves most likely to cut, and the least likely.
    #[inline(always)]
    pub(super) fn mid_last_ply(&mut self, p: u64, o: u64, ix: &Indexes, mut alpha: i32, beta: i32, moves: u64) -> i32 {
        let mut best = -Self::MAX - 1;
        for sq in corners_first::<N>(moves) {
            let f = self.isa.flips::<N>(p, o, sq);
            let v = -self.leaf(o ^ f, p ^ f ^ (1 << sq), &ix.play_own(self.layout, sq, f));
            if raise(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        best
    }

    /// The `depth`-ply value of a position with window (`alpha`, `beta`), fail-soft: the entry
    /// point of the estimate search.
    pub fn estimate(&mut self, p: u64, o: u64, alpha: i32, beta: i32, depth: u32) -> i32 {
        let n = (!(p | o) & full_mask(N)).count_ones();
        let ix = Indexes::new(self.layout, p, o);
        self.pvs::<Estimate>(Node { p, o, x: &ix, depth, n }, Window { alpha, beta })
    }
}

/// The estimate search: `depth` plies of the exact rules, then the evaluation.
pub(super) struct Estimate;

impl Regime for Estimate {
    type State = Indexes;
    #[inline(always)]
    fn splits(node: Node<'_, Indexes>) -> bool {
        node.depth >= SPLIT_ESTIMATE
    }
    const TO_THE_END: bool = false;

    #[inline(always)]
    fn indexes(node: Node<'_, Indexes>, _: &Layout) -> Indexes {
        *node.x
    }

    #[inline(always)]
    fn frontier<const N: usize, const D: bool, I: Isa, const PV: bool>(
        s: &mut Searcher<'_, N, D, I>,
        node: Node<'_, Indexes>,
        w: Window,
    ) -> Option<i32> {
        let Node { p, o, x: ix, depth, n } = node;
        if solved_within(n, depth) || (PV && n <= s.pv_solved) {
            Some(s.exact_window(p, o, w.alpha, w.beta, n))
        } else if depth == 0 {
            Some(s.leaf(p, o, &ix.own))
        } else {
            None
        }
    }

    #[inline(always)]
    fn shortcut<const N: usize, const D: bool, I: Isa, const PV: bool>(
        s: &mut Searcher<'_, N, D, I>,
        node: Node<'_, Indexes>,
        w: Window,
        moves: u64,
    ) -> Option<i32> {
        if !PV && s.hunting {
            // A wipe-out needs every disc: a stable one refutes the line at once.
            if let Some(v) = s.stability_cutoff(node.p, node.o, w.alpha, node.n) {
                return Some(v);
            }
            if let Some(v) = s.stability_floor(node.p, node.o, w.beta, node.n) {
                return Some(v);
            }
        }
        (node.depth == 1).then(|| s.mid_last_ply(node.p, node.o, node.x, w.alpha, w.beta, moves))
    }

    #[inline(always)]
    fn trusts(e: &Entry, depth: u32, selectivity: u8) -> bool {
        e.serves(depth.min(EXACT as u32) as u8, selectivity)
    }

    #[inline(always)]
    fn table_move<const N: usize, const D: bool, I: Isa>(
        _: &Searcher<'_, N, D, I>,
        _: Node<'_, Indexes>,
        e: &Entry,
    ) -> u8 {
        e.best
    }

    #[inline(always)]
    fn sort<const N: usize, const D: bool, I: Isa>(
        s: &Searcher<'_, N, D, I>,
        node: Node<'_, Indexes>,
        moves: u64,
        tt_move: u8,
        list: &mut [Move; 64],
        _: i32,
        _: Option<&mut i32>,
    ) -> Result<usize, i32> {
        Ok(s.mid_sorted_moves(node, moves, tt_move, list))
    }

    #[inline(always)]
    fn pass(ix: &Indexes) -> Indexes {
        ix.pass()
    }

    #[inline(always)]
    fn child(ix: &Indexes, layout: &Layout, m: &Move) -> Indexes {
        ix.play(layout, m.sq, m.flips)
    }

    #[inline(always)]
    fn stored_depth(depth: u32) -> u8 {
        depth as u8
    }
}
