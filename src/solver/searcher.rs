//! One thread's search (floor 1 of the search core, `mod.rs`): the [`Searcher`] every node
//! routine runs on, with its bookkeeping: the node count and the stop check, the shared table
//! and [`Control`], the evaluation it reads, the selectivity of the search under way, the
//! aspiration loop the entry points share ([`Searcher::aspirated`]) and the score of a finished
//! game. The node routines themselves are in the floors above (`search.rs`, `endgame.rs`,
//! `midgame.rs`, `probcut.rs`, `selective_solve.rs`), each an `impl` block of this type.

use super::control::{Abort, Control};
use super::local_table;
use super::node::Window;
use super::settings::CHECK_EVERY;
use super::table::{FULL_WIDTH, Table};
use crate::board::isa::Isa;
use crate::eval::Weights;
use crate::eval::pattern::Layout;
use std::sync::atomic::Ordering;

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
    /// The selective search's model for the evaluation read ([`super::probcut::model_of`]).
    pub(super) probcut_model: &'static super::probcut::Model,
    pub(super) layout: &'static Layout,
    /// The split point this searcher works for, if any: when it (or one above it) is aborted,
    /// the searcher stops.
    pub(super) abort: Option<&'a Abort<'a>>,
    /// The estimate search's principal-variation nodes with at most this many empties are
    /// solved exactly (`midgame.rs`, [`super::frontiers::pv_solved`]); 0: none.
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
            probcut_model: super::probcut::model_of::<N>(crate::eval::Evaluator::Patterns),
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
        let read = if self.network.is_some() { evaluator } else { crate::eval::Evaluator::Patterns };
        self.probcut_model = super::probcut::model_of::<N>(read);
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

    /// `search` run at selectivity `level` (a level of [`super::selectivity::Selectivity`],
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
}
