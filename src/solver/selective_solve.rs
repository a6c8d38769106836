//! The exact search's entry points and how they reach a proof (floor 4 of the search core,
//! `mod.rs`): [`Searcher::window`], [`Searcher::exact`] and [`Searcher::above`] solve a position
//! by *iterative selectivity* ([`Searcher::solve_window`]): from [`ITERATE_FROM`] empties the same
//! search at rising selectivities first (`probcut.rs`), each with a window around the last pass's
//! value ([`Searcher::stepped`]), so the last, full-width pass starts with a table of good moves
//! and settled subtrees; every exact score is still a full-width proof. A position probably won
//! or lost by everything is first tried by full-width estimates ([`Searcher::extreme_proof`]).
//! [`crate::solver::SolverOptions::selective_solve`] turns the passes off.

use super::exact::Exact;
use super::node::{Node, Window};
use super::searcher::Searcher;
use super::selectivity::Selectivity;
use super::settings::{
    EXACT_MARGIN, EXTREME_DEPTH_STEP, EXTREME_FIRST_DEPTH, ITERATE_FROM, PROOF_STEP, SELECTIVE_PASSES, SELECTIVE_TRIES,
    SOLVE_GUESS_DEPTH,
};
use super::table::FULL_WIDTH;
use crate::board::geometry::full_mask;
use crate::board::isa::Isa;

impl<'a, const N: usize, const DISCS: bool, I: Isa> Searcher<'a, N, DISCS, I> {
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

    /// The exact search of a position with `n` empties and window `w` (null or not), reached by
    /// iterative selectivity when the searcher is full width and the position has at least
    /// [`ITERATE_FROM`] empties: the same search at each level of the board's
    /// [`SELECTIVE_PASSES`] first, each with a window around the last pass's value, then full
    /// width the same way. The passes fill the table with good moves and settled subtrees, and
    /// give the proof its window: a value the selective search found is usually proven by two
    /// null-window searches (a won-by-everything position by one). The value returned is the
    /// last, full-width pass's, a proof.
    pub(super) fn solve_window(&mut self, p: u64, o: u64, w: Window, n: u32) -> i32 {
        let node = Node { p, o, x: &(), depth: n, n };
        let iterate = self.selectivity == FULL_WIDTH && self.iterate && n >= ITERATE_FROM[N / 2 - 2];
        if w.beta == w.alpha + 1 {
            // A null window. Next to the largest or the smallest score it asks whether the
            // position is won or lost by everything, which full-width estimates may prove.
            let side = match w.alpha {
                a if a == Self::MAX - 1 => Some(1),
                a if a == -Self::MAX => Some(-1),
                _ => None,
            };
            if let Some(side) = side.filter(|_| iterate)
                && let Some(v) = self.extreme_proof(p, o, side, n)
            {
                return v;
            }
            // The passes fill the table for it.
            for &level in SELECTIVE_PASSES[N / 2 - 2].iter().filter(|_| iterate) {
                self.selectivity = level;
                let _ = self.nws::<Exact>(node, w.alpha);
                self.selectivity = FULL_WIDTH;
                if self.stopped {
                    return 0;
                }
            }
            return self.nws::<Exact>(node, w.alpha);
        }
        let mut guess = None;
        if iterate {
            // The first pass's window: a quick selective estimate's value.
            let depth = SOLVE_GUESS_DEPTH.min(n.saturating_sub(EXACT_MARGIN + 2));
            if depth > 0 {
                self.selectivity = Selectivity::MOST.level();
                let v = self.estimate(p, o, w.alpha, w.beta, depth);
                self.selectivity = FULL_WIDTH;
                if self.stopped {
                    return 0;
                }
                // A guess at the evaluation's cap: probably won (or lost) by everything, which
                // full-width estimates may prove before any selective pass (FFO #59).
                if v.abs() >= Self::MAX - 1
                    && let Some(v) = self.extreme_proof(p, o, v.signum(), n)
                {
                    return v;
                }
                guess = Some(v.clamp(w.alpha, w.beta));
            }
            for &level in SELECTIVE_PASSES[N / 2 - 2] {
                self.selectivity = level;
                let v = self.proof_near(node, w, guess);
                self.selectivity = FULL_WIDTH;
                if self.stopped {
                    return 0;
                }
                guess = Some(v);
            }
        }
        self.proof_near(node, w, guess)
    }

    /// The proof that a position with `n` empties is won by everything (`side` 1: the largest
    /// score, a wipe-out) or lost by everything (`side` -1), by full-width estimates of the
    /// depths [`extreme_depths`] with the null window next to that score.
    ///
    /// The evaluation never reaches the largest score ([`crate::eval`]), and neither does any
    /// bound a full-width search stores without a proof. So a full-width estimate that reaches it
    /// has found a tree of lines each ending in a finished game of that score: the exact score.
    /// And a line that is no wipe-out is refuted at the estimate's depth, not at the end of the
    /// game, so each try costs what an estimate of its depth costs. `None` when no depth reaches
    /// the score (the position may still be won by everything, deeper); after a stop `Some(0)`,
    /// meaningless, as [`Self::probcut`]'s.
    pub(super) fn extreme_proof(&mut self, p: u64, o: u64, side: i32, n: u32) -> Option<i32> {
        debug_assert_eq!(self.selectivity, FULL_WIDTH);
        let max = Self::MAX;
        for depth in extreme_depths(n) {
            self.hunting = true;
            let v = if side > 0 {
                self.estimate(p, o, max - 1, max, depth)
            } else {
                self.estimate(p, o, -max, -max + 1, depth)
            };
            self.hunting = false;
            if self.stopped {
                return Some(0);
            }
            if v == side * max {
                return Some(v);
            }
        }
        None
    }

    /// The exact search of `node` within `w` (without a guess: one search of `w`), stepped
    /// towards its value from a window around `guess` ([`Searcher::stepped`]): (`guess - 1`,
    /// `guess + 1`), or (`guess - 2`, `guess + 2`) where the guess is odd and every score is even
    /// (the standard scoring: the empties go to the winner and the board has an even number of
    /// squares), since a window holding no possible score can only fail.
    fn proof_near(&mut self, node: Node<'_, ()>, w: Window, guess: Option<i32>) -> i32 {
        let Some(g) = guess else {
            return self.pvs::<Exact>(node, w);
        };
        let half = if !DISCS && g % 2 != 0 { 2 } else { 1 };
        self.stepped(Window { alpha: g - half, beta: g + half }, w, |s, w| s.pvs::<Exact>(node, w))
    }

    /// Aspiration by steps, for the passes and proofs of [`Self::solve_window`]: `search` within
    /// `first` (clipped to `outer`); when it fails low with the bound `v`, again within (`v -
    /// step`, `v + 1`), when it fails high within (`v - 1`, `v + step`), the step starting at
    /// [`PROOF_STEP`] and doubling, until the value falls inside the window or beyond `outer`.
    /// A fail-soft bound is usually the value or near it, so the next window is next to it
    /// rather than open to `outer`'s edge, which a search pays for: a selective pass of FFO #57
    /// that failed low at (-6, -4) took 156.6 M nodes to find -8 within (-64, -5), and 2.2 M
    /// within (-9, -6).
    ///
    /// A full-width search's bounds are proofs, so each window lies beyond the last bound found
    /// and the steps reach `outer`'s edge at the latest. A selective search's are not (it may
    /// fail high, then low on the same side of the value): after [`SELECTIVE_TRIES`] searches
    /// its last value is taken as it is, since a pass only gives the next its window and the
    /// table its moves. The value within `outer`, unless the search was stopped.
    fn stepped(&mut self, first: Window, outer: Window, mut search: impl FnMut(&mut Self, Window) -> i32) -> i32 {
        let clip = |w: Window| {
            let w = Window { alpha: w.alpha.max(outer.alpha), beta: w.beta.min(outer.beta) };
            if w.alpha >= w.beta { outer } else { w }
        };
        let mut w = clip(first);
        let mut step = PROOF_STEP;
        let mut tries = 0;
        loop {
            let v = search(self, w);
            tries += 1;
            if self.stopped {
                return v;
            }
            // A bound beyond `outer` is already the answer within it: no search again.
            let low = v <= w.alpha && v > outer.alpha;
            let high = v >= w.beta && v < outer.beta;
            if !(low || high) || (self.selectivity != FULL_WIDTH && tries >= SELECTIVE_TRIES) {
                return v;
            }
            w = if low {
                clip(Window { alpha: v - step, beta: v + 1 })
            } else {
                clip(Window { alpha: v - 1, beta: v + step })
            };
            step = step.saturating_mul(2);
        }
    }
}

/// The depths of [`Searcher::extreme_proof`]'s estimates on a position with `n` empties: from
/// [`EXTREME_FIRST_DEPTH`] in steps of [`EXTREME_DEPTH_STEP`], up to half the empties. (From
/// [`ITERATE_FROM`]'s 20 empties, half stays short of [`EXACT_MARGIN`]'s exact search.)
fn extreme_depths(n: u32) -> impl Iterator<Item = u32> {
    (EXTREME_FIRST_DEPTH..=n / 2).step_by(EXTREME_DEPTH_STEP as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fail-soft search of a position whose value is `value`, as [`Searcher::stepped`] sees it:
    /// inside the window the value; outside, a bound between the window's edge and the value
    /// (`tight`: the value itself, else the edge, the weakest bound a search may return).
    fn fail_soft(value: i32, w: Window, tight: bool) -> i32 {
        if value <= w.alpha {
            if tight { value } else { w.alpha }
        } else if value >= w.beta {
            if tight { value } else { w.beta }
        } else {
            value
        }
    }

    /// The steps end at the value from any first window, with bounds tight or weak, in a few
    /// searches; a value beyond the outer window comes back as a bound beyond it. A selective
    /// search that fails high, then low, then high (its bounds no proofs) is taken as it is after
    /// [`SELECTIVE_TRIES`] searches.
    #[test]
    fn stepped_windows_reach_the_value_from_any_guess() {
        let table = crate::solver::table::Table::new(1);
        let control = crate::solver::control::Control::new(&crate::solver::Limits::default());
        let mut s = Searcher::<6, false, crate::board::isa::Plain>::new(crate::board::isa::Plain, &table, &control);
        let outer = Window { alpha: -36, beta: 36 };
        for value in -40..=40 {
            for g in -38..=38 {
                for half in [1, 2] {
                    for tight in [false, true] {
                        let mut calls = 0;
                        let first = Window { alpha: g - half, beta: g + half };
                        let v = s.stepped(first, outer, |_, w| {
                            calls += 1;
                            fail_soft(value, w, tight)
                        });
                        if value <= outer.alpha {
                            assert!(v <= outer.alpha && v >= value, "value {value} guess {g}: {v}");
                        } else if value >= outer.beta {
                            assert!(v >= outer.beta && v <= value, "value {value} guess {g}: {v}");
                        } else {
                            assert_eq!(v, value, "guess {g} half {half} tight {tight}");
                        }
                        assert!(calls <= 9, "value {value} guess {g}: {calls} searches");
                    }
                }
            }
        }
        s.selectivity = 0;
        let mut calls = 0;
        let v = s.stepped(Window { alpha: -1, beta: 1 }, outer, |_, w| {
            calls += 1;
            if calls % 2 == 1 { w.beta } else { w.alpha }
        });
        assert_eq!(calls, SELECTIVE_TRIES);
        assert!(v.abs() < outer.beta);
    }
}
