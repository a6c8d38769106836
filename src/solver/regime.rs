//! The contract of a regime (floor 2 of the search core, `mod.rs`): the [`Regime`] trait, what a
//! search supplies to the one pair of node routines ([`Searcher::pvs`], [`Searcher::nws`],
//! `search.rs`, which gives the steps of a node). The two regimes implement it a floor above:
//!
//! | | [`Exact`](super::exact::Exact) (`exact.rs`): to the end of the game | [`Estimate`](super::midgame::Estimate) (`midgame.rs`): `depth` plies, then the evaluation |
//! |---|---|---|
//! | frontier | the last [`SHALLOW`](super::settings::SHALLOW) empties: the endgame path | at most [`EXACT_MARGIN`](super::settings::EXACT_MARGIN) more empties than plies left, or a principal-variation node with at most [`pv_solved`](super::frontiers::pv_solved) empties: the exact search; no plies left: the evaluation |
//! | shortcut before the table | null-window nodes: the stability cutoff, from above and below | one ply left: every child evaluated, no table, no sort |
//! | table entries trusted | exact ones at least as full-width (an estimate's best move leads below [`EVAL_SORT_MIN`](super::settings::EVAL_SORT_MIN) empties); up to [`LOCAL_TABLE_MAX`](super::settings::LOCAL_TABLE_MAX) empties the thread's own small table (`local_table.rs`) instead | exact ones, and estimates at least as deep, at least as full-width |
//! | probable cutoffs (`probcut.rs`) | from [`super::settings::PROBCUT_END_MIN`] empties, predicting the exact score | from [`super::settings::PROBCUT_MIN_DEPTH`] plies left |
//! | move sort | [`Searcher::sorted_moves`], with enhanced transposition cutoffs from [`ETC_MIN`](super::settings::ETC_MIN) empties in null-window nodes | [`Searcher::mid_sorted_moves`] |
//! | null-window nodes split between threads (`parallel.rs`) | from [`SPLIT_NWS`](super::settings::SPLIT_NWS) empties | from [`SPLIT_ESTIMATE`](super::settings::SPLIT_ESTIMATE) plies left |
//! | kept with a position | nothing | its pattern indexes, updated move by move |
//! | depth stored | [`EXACT`](super::table::EXACT) | the plies searched |
//!
//! A regime is a type, never a value: the routines are compiled once per regime.

use super::node::{Move, Node, Window};
use super::searcher::Searcher;
use super::table::Entry;
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

    /// The move of entry `e` that leads the node's sort, or [`NO_MOVE`](super::table::NO_MOVE): a hint, whatever the
    /// entry's bounds are worth to the node.
    fn table_move<const N: usize, const D: bool, I: Isa>(
        s: &Searcher<'_, N, D, I>,
        node: Node<'_, Self::State>,
        e: &Entry,
    ) -> u8;

    /// The node's `moves` into `list`, keyed best first (`tt_move`: the table's; `alpha`: the
    /// node's alpha; the caller takes them in that order, [`super::node::best_first`]); `Err` settles the node at once. `etc`: in null-window nodes, the best score so
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
