//! The two regimes the one pair of node routines ([`Searcher::pvs`], [`Searcher::nws`]) runs in,
//! and what each supplies to them (see `search.rs` for the steps of a node):
//!
//! | | [`Exact`]: to the end of the game | [`Estimate`]: `depth` plies, then the evaluation |
//! |---|---|---|
//! | frontier | the last [`SHALLOW`] empties: the endgame path | at most [`super::EXACT_MARGIN`] more empties than plies left, or a principal-variation node with at most [`super::midgame::pv_solved`] empties: the exact search; no plies left: the evaluation |
//! | shortcut before the table | null-window nodes: the stability cutoff, from above and below | one ply left: every child evaluated, no table, no sort |
//! | table entries trusted | exact ones at least as full-width (an estimate's best move leads below [`EVAL_SORT_MIN`](super::settings::EVAL_SORT_MIN) empties); up to [`LOCAL_TABLE_MAX`](super::settings::LOCAL_TABLE_MAX) empties the thread's own small table (`local_table.rs`) instead | exact ones, and estimates at least as deep, at least as full-width |
//! | probable cutoffs (`probcut.rs`) | from [`super::settings::PROBCUT_END_MIN`] empties, predicting the exact score | from [`super::settings::PROBCUT_MIN_DEPTH`] plies left |
//! | move sort | [`Searcher::sorted_moves`], with enhanced transposition cutoffs from [`ETC_MIN`] empties in null-window nodes | [`Searcher::mid_sorted_moves`] |
//! | null-window nodes split between threads (`parallel.rs`) | from [`SPLIT_NWS`] empties | from [`SPLIT_ESTIMATE`] plies left |
//! | kept with a position | nothing | its pattern indexes, updated move by move |
//! | depth stored | [`EXACT`] | the plies searched |
//!
//! A regime is a type, never a value: the routines are compiled once per regime.

use super::frontiers::solved_within;
use super::node::{Move, Node, Window};
use super::search::Searcher;
use super::settings::{ETC_MIN, SHALLOW, SPLIT_ESTIMATE, SPLIT_NWS};
use super::table::{EXACT, Entry, NO_MOVE};
use crate::board::isa::Isa;
use crate::eval::Indexes;
use crate::eval::pattern::Layout;

/// What differs between the exact and the estimate search (module documentation).
pub(super) trait Regime {
    /// What travels with a position besides its discs.
    type State: Sync;

    /// Whether a null-window node may be split between threads (`parallel.rs`).
    fn splits(node: Node<'_, Self::State>) -> bool;

    /// Whether the node's value is the exact score (the search goes to the end of the game):
    /// which prediction a probable cutoff uses (`probcut.rs`).
    const TO_THE_END: bool;

    /// The pattern indexes of the node's position, for the evaluation and the shallow search
    /// of a probable cutoff.
    fn indexes(node: Node<'_, Self::State>, layout: &Layout) -> Indexes;

    /// The node's value if the regime's frontier is reached, entered with window `w` (before the
    /// node is counted; `PV`: a principal-variation node).
    fn frontier<const N: usize, const D: bool, I: Isa, const PV: bool>(
        s: &mut Searcher<'_, N, D, I>,
        node: Node<'_, Self::State>,
        w: Window,
    ) -> Option<i32>;

    /// The node's value by a cutoff tried once it has `moves`, before the table (`PV`: a
    /// principal-variation node).
    fn shortcut<const N: usize, const D: bool, I: Isa, const PV: bool>(
        s: &mut Searcher<'_, N, D, I>,
        node: Node<'_, Self::State>,
        w: Window,
        moves: u64,
    ) -> Option<i32>;

    /// Whether entry `e`'s bounds hold for a node with `depth` plies left searched at
    /// selectivity level `selectivity`.
    fn trusts(e: &Entry, depth: u32, selectivity: u8) -> bool;

    /// The move of entry `e` that leads the node's sort, or [`NO_MOVE`]: a hint, whatever the
    /// entry's bounds are worth to the node.
    fn table_move<const N: usize, const D: bool, I: Isa>(
        s: &Searcher<'_, N, D, I>,
        node: Node<'_, Self::State>,
        e: &Entry,
    ) -> u8;

    /// The node's `moves` into `list`, keyed best first (`tt_move`: the table's; `alpha`: the
    /// node's alpha; the caller takes them in that order, [`super::ordering::best_first`]); `Err` settles the node at once. `etc`: in null-window nodes, the best score so
    /// far, for enhanced transposition cutoffs against `alpha`.
    fn sort<const N: usize, const D: bool, I: Isa>(
        s: &Searcher<'_, N, D, I>,
        node: Node<'_, Self::State>,
        moves: u64,
        tt_move: u8,
        list: &mut [Move; 64],
        alpha: i32,
        etc: Option<&mut i32>,
    ) -> Result<usize, i32>;

    /// What travels with the position after a pass.
    fn pass(x: &Self::State) -> Self::State;

    /// What travels with the child reached by `m`.
    fn child(x: &Self::State, layout: &Layout, m: &Move) -> Self::State;

    /// The depth a node's bounds are stored with.
    fn stored_depth(depth: u32) -> u8;
}

/// The exact search: to the end of the game.
pub(super) struct Exact;

impl Regime for Exact {
    type State = ();
    #[inline(always)]
    fn splits(node: Node<'_, ()>) -> bool {
        node.n >= SPLIT_NWS
    }
    const TO_THE_END: bool = true;

    #[inline(always)]
    fn indexes(node: Node<'_, ()>, layout: &Layout) -> Indexes {
        Indexes::new(layout, node.p, node.o)
    }

    #[inline(always)]
    fn frontier<const N: usize, const D: bool, I: Isa, const PV: bool>(
        s: &mut Searcher<'_, N, D, I>,
        node: Node<'_, ()>,
        w: Window,
    ) -> Option<i32> {
        (node.n <= SHALLOW).then(|| s.shallow(node.p, node.o, w.alpha, w.beta, node.n))
    }

    #[inline(always)]
    fn shortcut<const N: usize, const D: bool, I: Isa, const PV: bool>(
        s: &mut Searcher<'_, N, D, I>,
        node: Node<'_, ()>,
        w: Window,
        _: u64,
    ) -> Option<i32> {
        if PV {
            None
        } else {
            s.stability_cutoff(node.p, node.o, w.alpha, node.n)
                .or_else(|| s.stability_floor(node.p, node.o, w.beta, node.n))
        }
    }

    #[inline(always)]
    fn trusts(e: &Entry, _: u32, selectivity: u8) -> bool {
        e.serves(EXACT, selectivity)
    }

    /// The move of an entry of the exact search (at any selectivity: the selective passes' too)
    /// always leads; an estimate's only where the node does not sort by a search of the
    /// evaluation ([`Searcher::sorts_by_eval`]: below
    /// [`EVAL_SORT_MIN`](super::settings::EVAL_SORT_MIN) empties, or without weights), where its
    /// own sort is rougher. Higher up, an estimate's move (most come from the shallow searches of
    /// the probable cutoffs, many from fail-low nodes) is a worse guess than the node's own
    /// search: letting it lead there cost 3% more nodes on FFO #40-#49 and 29% more on thirteen
    /// 6x6 positions four plies in, and made larger tables cost nodes; ignoring it at every
    /// height cost 8% more on FFO #40-#49 (`docs/solver.md`, "What each technique bought").
    /// Since the evaluation orders from 14 empties instead of 18 (2026-11-28) the rule follows it
    /// down: an estimate's move leading at 14-17 empties as before took FFO #40-#49 to 663.6 M
    /// nodes against 629.3 M, and the 6x6 child `c2b2b3d2e4` to 131.9 M against 125.6 M.
    #[inline(always)]
    fn table_move<const N: usize, const D: bool, I: Isa>(
        s: &Searcher<'_, N, D, I>,
        node: Node<'_, ()>,
        e: &Entry,
    ) -> u8 {
        if e.depth == EXACT || !s.sorts_by_eval(node.n) { e.best } else { NO_MOVE }
    }

    #[inline(always)]
    fn sort<const N: usize, const D: bool, I: Isa>(
        s: &Searcher<'_, N, D, I>,
        node: Node<'_, ()>,
        moves: u64,
        tt_move: u8,
        list: &mut [Move; 64],
        alpha: i32,
        etc: Option<&mut i32>,
    ) -> Result<usize, i32> {
        s.sorted_moves(node, moves, tt_move, list, alpha, etc.filter(|_| node.n >= ETC_MIN))
    }

    #[inline(always)]
    fn pass(_: &()) {}

    #[inline(always)]
    fn child(_: &(), _: &Layout, _: &Move) {}

    #[inline(always)]
    fn stored_depth(_: u32) -> u8 {
        EXACT
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
