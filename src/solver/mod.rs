//! The exact solver: negamax with alpha-beta over the whole remaining game, a bounded
//! transposition table kept between calls, and scores for every child move.
//!
//! Scores are disc differences from the side to move at the position searched, under the
//! [`Scoring`](crate::board::position::Scoring) the solver was built with. A search can be
//! stopped at any moment through a shared flag or by node and time limits; a stopped search
//! returns what it had proven, never a guess.
//!
//! This file is the door: it declares the files and re-exports what the rest of the crate uses.
//! No file imports one on a floor above its own (nor this one), so the files form no loop.
//!
//! **The floors of the search core**, bottom up:
//!
//! 0. Settings and small shared types, importing nothing above: `settings.rs` (the tunables),
//!    `table.rs` (the shared transposition table), `plain.rs` (the plain negamax and alpha-beta of the
//!    labs and the trainer), `selectivity.rs` ([`Selectivity`]),
//!    `frontiers.rs` (where one search hands a node to another: `solved_within`, [`pv_solved`],
//!    `prunes_exact`), `local_table.rs` (each thread's small table), `limits.rs` ([`Limits`],
//!    [`StopReason`], [`Stopped`], [`ChildScore`]), `control.rs` (`Control`, a split point's
//!    `Abort`), `node.rs` (`Node`, `Window`, `Move`, the fail-soft helpers `raise`,
//!    `table_cutoff`, `bounds`), the board helpers `masks.rs`, `last_flips.rs` (stable discs are the board's:
//!    [`crate::board::stability`]),
//!    the `specialised!` macro (`specialised.rs`), and the analysis's small nouns: `values.rs`
//!    ([`Kind`], [`ChildValue`], the ranking), `prediction.rs` (the cost model, [`plan`]) and
//!    `report.rs` ([`SearchMode`], [`Report`], [`Analysis`]).
//! 1. `searcher.rs`: the `Searcher` one thread searches with, and its bookkeeping.
//! 2. `regime.rs`: the `Regime` trait, what a search supplies to the node routines.
//! 3. The node searches: `search.rs` (the one principal-variation and one null-window routine,
//!    generic over the regime, with the steps every node shares), `parallel.rs` (split points),
//!    `endgame.rs` (the last empties), `ordering.rs` (move ordering), and the two regimes:
//!    `exact.rs` (to the end of the game) and `midgame.rs` (the estimate search).
//! 4. The pruning rules and the exact entry: `probcut.rs` (probable cutoffs and their model),
//!    `selective_solve.rs` (the exact search's entry points, iterative selectivity).
//! 5. `engine.rs`: [`Solver`], [`SolverOptions`], the skeleton of an entry point.
//! 6. `root.rs` (the root scheduler: a position's children shared between the threads) and
//!    `entry.rs` (the entry points: [`Solver::solve`], [`Solver::score`], …).
//! 7. `analysis.rs`: [`Solver::analyse`], the explorer's and the command line's one entry point.
//!
//! The node routines recurse across floors through methods of `Searcher` (a null-window node of
//! `search.rs` tries `probcut.rs`'s cutoff, whose shallow search is a node of `search.rs` again),
//! as Edax's do across its files: a call of a method, not an import.

pub use crate::eval::Evaluator;

#[macro_use]
mod specialised;

mod analysis;
mod control;
mod endgame;
mod engine;
mod entry;
mod exact;
mod frontiers;
mod last_flips;
mod limits;
mod local_table;
mod masks;
mod midgame;
mod node;
mod ordering;
mod parallel;
pub mod plain;
mod prediction;
pub mod probcut;
mod regime;
mod report;
mod root;
mod search;
mod searcher;
mod selective_solve;
mod selectivity;
mod settings;
pub mod table;
mod values;

pub use crate::board::stability::stable_discs;
pub use engine::{Solver, SolverOptions};
pub use entry::Solution;
pub use frontiers::pv_solved;
pub use limits::{ChildScore, Limits, StopReason, Stopped};
pub use prediction::{Plan, end_pass_fits, exact_empties, plan, predicted_exact_nodes, predicted_exact_seconds};
pub use report::{Analysis, Phase, Report, SearchMode};
#[cfg(feature = "tui")]
pub(crate) use root::twin_groups; // the explorer groups the twins it shows (`tui`)
pub use selectivity::{Selectivity, SelectivityError};
pub use settings::{
    DEFAULT_HASH_MB, DEFAULT_SELECTIVITY, EXACT_MARGIN, PV_EXTENSION, PV_EXTENSION_MAX, QUICK_DEPTH,
    UNLIMITED_PROOF_NODES, WLD_MIN_EMPTIES, WLD_SPEEDUP, hash_mb_for,
};
pub use table::TableError;
pub use values::{ChildValue, Kind, ValueText, outcome_letter, outcome_word, rank, rank_key};
