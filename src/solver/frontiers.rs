//! Where one search hands a node to another (floor 0 of the search core, `mod.rs`): the rules
//! both sides of each frontier ask, written once. The estimate search solves a node exactly
//! when it is within [`EXACT_MARGIN`] empties of its plies ([`solved_within`]), or on its
//! principal variation from [`pv_solved`] empties; the exact search prunes (probable cutoffs at a
//! selectivity below 100%) only from [`PROBCUT_END_MIN`] empties ([`prunes_exact`]), so below it
//! every bound it finds is a proof.

use super::settings::{EXACT_MARGIN, PROBCUT_END_MIN, PV_EXTENSION, PV_EXTENSION_MAX};

/// The empties up to which the principal-variation nodes of an estimate of depth `depth` are
/// solved exactly: `depth` + [`PV_EXTENSION`], at most [`PV_EXTENSION_MAX`].
pub const fn pv_solved(depth: u32) -> u32 {
    let k = depth + PV_EXTENSION;
    if k < PV_EXTENSION_MAX { k } else { PV_EXTENSION_MAX }
}

/// Whether the estimate search solves a node with `empties` empties and `plies` plies left
/// exactly: the one place the [`EXACT_MARGIN`] rule is written (the frontier of `regime.rs` and
/// the root's children in `root.rs` both ask it).
#[inline(always)]
pub(super) const fn solved_within(empties: u32, plies: u32) -> bool {
    empties <= plies + EXACT_MARGIN
}

/// Whether a null-window node of the exact search with `n` empties tries a probable cutoff when
/// the search is selective: from [`PROBCUT_END_MIN`] empties. Below, nothing prunes, so an exact
/// node's bounds are facts at any selectivity (`Searcher::close`, `local_table.rs`).
pub(super) const fn prunes_exact(n: u32) -> bool {
    n >= PROBCUT_END_MIN
}
