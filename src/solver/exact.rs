//! The exact regime (floor 3 of the search core, `mod.rs`): [`Exact`], what the search to the end
//! of the game supplies to the node routines of `search.rs` (the table of `regime.rs` compares
//! it with the estimate's): the endgame path below [`SHALLOW`] empties (`endgame.rs`), the
//! stability cutoffs in null-window nodes, the thread's small table near the end
//! (`local_table.rs`), the move sort of `ordering.rs` with enhanced transposition cutoffs from
//! [`ETC_MIN`] empties, and split points from [`SPLIT_NWS`] empties.

use super::node::{Move, Node, Window};
use super::regime::Regime;
use super::searcher::Searcher;
use super::settings::{ETC_MIN, SHALLOW, SPLIT_NWS};
use super::table::{EXACT, Entry, NO_MOVE};
use crate::board::isa::Isa;
use crate::eval::Indexes;
use crate::eval::pattern::Layout;

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
